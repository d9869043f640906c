"""Which reader reads the table, chosen by the deck on it (`DeckCheck`).

The table's card reader (the whole-card detector and its crop classifier) reads the deck
designs it was trained on best, and names half the court cards of a deck it never saw
wrongly; the index reader names them alike on every deck (`benchmarks/bench_table_courts.py`,
models/INDEX.md "Twenty-first session"). So the table starts with the hybrid (the card boxes
named by the crop classifier and the corner indices together), which reads unseen decks
(models/INDEX.md "Eighth session"), and meanwhile compares the card reader's court cards with
what the index reader reads on them. Once enough court cards were compared, a deck the card
reader names as the indices do is read by the card reader from then on (faster, and the
reader the table's tests and timings were made with); any other deck stays with the hybrid.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from vision.detections import Detections

#: Distinct court cards compared before the deck is judged.
COURTS = 6
#: The share of compared court cards named otherwise from which the deck stays with the
#: hybrid.
DIFFER_SHARE = 1 / 3
#: Least confidence of a card reader's court reading, and of the index readings it is
#: compared with.
CARD_MIN, INDEX_MIN = 0.5, 0.6


def is_court(code: str) -> bool:
    return code[:1] in ("J", "Q", "K")


class DeckCheck:
    """A table reader (`vision.zones.ManyDetector`) that reads with the reader ``hybrid()``
    makes until the deck is judged, then with ``card`` for a deck ``card`` knows.

    While undecided, ``card`` reads every view too and ``index`` each view in which ``card``
    names a court card. A court card named by ``card`` is named the same when the index
    reader reads its code anywhere in the view (in a pile a card's own index can lie outside
    its box), and otherwise when the index reader reads another court card inside its box;
    else it is not compared. The last verdict on each court code counts (a still card is
    read several times)."""

    def __init__(self, card: Any, index: Any, hybrid: Callable[[], Any]) -> None:
        self.card = card
        self.index = index
        self.active: Any = hybrid()
        self.names: tuple[str, ...] = tuple(card.names)
        #: Per court code the card reader named: whether the index reader named it otherwise.
        self.verdicts: dict[str, bool] = {}
        #: None while undecided, then "card" or "hybrid".
        self.choice: str | None = None

    @property
    def deck_known(self) -> bool:
        """Whether the deck is judged one the card reader knows. Until then, and for good on
        any other deck, the table holds more of its readings for a person
        (`vision.pipeline.questions.UNKNOWN_DECK_REVEAL_BELOW`)."""
        return self.choice == "card"

    def detect_many(self, frames_bgr: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]:
        out: list[Detections] = self.active.detect_many(frames_bgr, conf, card_conf)
        if self.choice is None:
            by_card = self.card.detect_many(frames_bgr, conf, card_conf)
            courts = [k for k, d in enumerate(by_card) if any(
                is_court(d.names[int(c)]) and s >= CARD_MIN
                for c, s in zip(d.class_id, d.confidence, strict=True))]
            if courts:
                read = self.index.detect_many([frames_bgr[k] for k in courts])
                for k, idx in zip(courts, read, strict=True):
                    self._compare(by_card[k], idx)
                self._judge()
        return out

    def _compare(self, card: Detections, idx: Detections) -> None:
        centres = (idx.xyxy[:, :2] + idx.xyxy[:, 2:]) / 2 if len(idx) else np.zeros((0, 2))
        anywhere = {idx.names[int(c)] for c, s in zip(idx.class_id, idx.confidence,
                                                      strict=True) if s >= INDEX_MIN}
        for box, cid, score in zip(card.xyxy, card.class_id, card.confidence, strict=True):
            code = card.names[int(cid)]
            if score < CARD_MIN or not is_court(code):
                continue
            if code in anywhere:
                self.verdicts[code] = False
                continue
            inside = ((centres[:, 0] >= box[0]) & (centres[:, 0] <= box[2])
                      & (centres[:, 1] >= box[1]) & (centres[:, 1] <= box[3])
                      & (idx.confidence >= INDEX_MIN))
            if any(is_court(idx.names[int(c)]) for c in idx.class_id[inside]):
                self.verdicts[code] = True

    def _judge(self) -> None:
        n = len(self.verdicts)
        if n < COURTS:
            return
        self.choice = "hybrid" if sum(self.verdicts.values()) >= DIFFER_SHARE * n else "card"
        if self.choice == "card":
            self.active = self.card
