"""The table's deck check: the hybrid until the court cards show the card reader knows the
deck, then the card reader."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.cards import CARD_CODES
from vision.detections import Detections
from vision.readers.deck_check import COURTS, DeckCheck


def dets(*cards: tuple[str, tuple[float, float, float, float], float]) -> Detections:
    return Detections(np.array([b for _, b, _ in cards], np.float32).reshape(-1, 4),
                      np.array([s for _, _, s in cards], np.float32),
                      np.array([CARD_CODES.index(c) for c, _, _ in cards], np.int64))


class Script:
    """A reader that answers each view from a list, one call after another."""

    names = CARD_CODES

    def __init__(self, answers: Sequence[Detections]) -> None:
        self.answers = list(answers)
        self.calls = 0

    def detect_many(self, frames: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]:
        out = [self.answers[min(self.calls + k, len(self.answers) - 1)]
               for k in range(len(frames))]
        self.calls += len(frames)
        return out


BOX = (10.0, 10.0, 60.0, 90.0)
INDEX = (12.0, 12.0, 22.0, 32.0)  # its top-left corner index
ELSEWHERE = (80.0, 80.0, 95.0, 98.0)
FRAME = np.zeros((100, 100, 3), np.uint8)
COURT_CODES = ["JS", "QH", "KD", "JC", "QS", "KC", "JH", "QD"]
HYBRID_SAYS = dets(("2C", BOX, 0.9))


def check(card_says: list[str], index_says: list[str]) -> DeckCheck:
    reader = DeckCheck(Script([dets((c, BOX, 0.9)) for c in card_says]),
                       Script([dets((c, INDEX, 0.9)) for c in index_says]),
                       lambda: Script([HYBRID_SAYS]))
    for _ in card_says:
        reader.detect_many([FRAME])
    return reader


def test_the_hybrid_reads_until_the_deck_is_judged() -> None:
    reader = check(COURT_CODES[:COURTS - 1], COURT_CODES[:COURTS - 1])
    assert reader.choice is None and not reader.deck_known
    assert reader.detect_many([FRAME])[0].labels == ["2C"]


def test_a_deck_the_card_reader_knows_goes_to_it_for_good() -> None:
    codes = COURT_CODES[:COURTS]
    reader = check(codes, codes)
    assert reader.choice == "card" and reader.active is reader.card and reader.deck_known
    # From then on the card reader alone reads: the index reader is no longer asked.
    calls = reader.index.calls
    assert reader.detect_many([FRAME])[0].labels == [codes[-1]]
    assert reader.index.calls == calls


def test_court_cards_named_otherwise_keep_the_hybrid() -> None:
    codes = COURT_CODES[:COURTS]
    other = ["QS", "QH", "JD", "JC", "QS", "KC"]  # J♠ and K♦ named otherwise: 2 of 6
    reader = check(codes, other)
    assert reader.verdicts == {"JS": True, "QH": False, "KD": True, "JC": False,
                               "QS": False, "KC": False}
    assert reader.choice == "hybrid" and not reader.deck_known
    assert reader.detect_many([FRAME])[0].labels == ["2C"]


def test_a_still_card_read_again_counts_once() -> None:
    # The same misread J♠ read five times is one court card, not five.
    reader = check(["JS"] * 5, ["QS"] * 5)
    assert reader.verdicts == {"JS": True} and reader.choice is None


def test_its_own_code_read_anywhere_in_the_view_agrees() -> None:
    # In a pile the card's own index can lie outside its box, a lower card's inside it.
    reader = DeckCheck(Script([dets(("KS", BOX, 0.9))]),
                       Script([dets(("QH", INDEX, 0.9), ("KS", ELSEWHERE, 0.9))]),
                       lambda: Script([HYBRID_SAYS]))
    reader.detect_many([FRAME])
    assert reader.verdicts == {"KS": False}


def test_index_readings_off_the_card_or_of_pip_cards_are_not_compared() -> None:
    reader = DeckCheck(Script([dets(("KS", BOX, 0.9), ("5H", ELSEWHERE, 0.9))]),
                       Script([dets(("QS", ELSEWHERE, 0.9), ("5H", INDEX, 0.9))]),
                       lambda: Script([HYBRID_SAYS]))
    reader.detect_many([FRAME])
    assert reader.verdicts == {}


def test_views_without_court_cards_are_not_read_by_the_index_reader() -> None:
    index = Script([dets(("5H", INDEX, 0.9))])
    reader = DeckCheck(Script([dets(("5H", BOX, 0.9))]), index,
                       lambda: Script([HYBRID_SAYS]))
    reader.detect_many([FRAME, FRAME])
    assert index.calls == 0
