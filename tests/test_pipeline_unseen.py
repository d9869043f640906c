"""The second look for a card the table reader missed (issue 14): a play the reader never saw
makes the next card of its suit jump ("6♥ was not seen: who played it?"); the index reader
then looks for it in every seat's pile, and where it finds it in one seat's pile in most
frames the question is answered for that player and the readings held for it are logged.
Rendered round (Michigan Rummy, seed 11: Cy's 6♥ between Ann's 5♥ and Bob's 7♥), the
renderer's truth as both readers, the table reader blind to 6♥."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_pipeline_second_look import Look, SeesTopCardOnly, play_through

from companion.events import apply_corrections, read_log
from vision.detections import Detections
from vision.pipeline.changes import ZoneChanges
from vision.pipeline.table import TablePipeline
from vision.render.demo import RenderedSource, simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.render.truth import TruthDetector

UNSEEN = "6H"


class ReadsAs:
    """The table reader: reads ``card`` as ``code`` wherever it lies, the rest right."""

    def __init__(self, truth: TruthDetector, code: str, card: str = UNSEEN) -> None:
        self.truth, self.code, self.card = truth, code, card

    def detect(self, frame: np.ndarray) -> Detections:
        dets = self.truth.detect(frame)
        ids = [dets.names.index(self.code if name == self.card else name)
               for name, _b, _s in dets]
        return Detections(dets.xyxy, dets.confidence, np.array(ids, np.int64).reshape(-1),
                          dets.names)


def _round(tmp_path: Path, look_misses: bool, wrong: dict[str, str] | None = None,
           read_as: str | None = None, phantom: dict[str, str] | None = None
           ) -> tuple[TablePipeline, Look, list[str], list[tuple[str, str]]]:
    video = TableVideo(simulated_round("michigan-rummy", seed=11),
                       RenderConfig(width=320, height=240, seed=11, noise=0.0))
    plays = [(e["player"], e["card"]) for e in video.truth.visual if e["event"] == "play"]
    at = [c for _p, c in plays].index(UNSEEN)
    assert plays[at - 1:at + 2] == [("Ann", "5H"), ("Cy", "6H"), ("Bob", "7H")]
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth, missed=[UNSEEN] if look_misses else [], wrong=wrong, phantom=phantom)
    table = SeesTopCardOnly(truth, [UNSEEN]) if read_as is None else ReadsAs(truth, read_as)
    pipe = TablePipeline(video.profile(), table, None,
                         tmp_path / "g.jsonl", script=video.truth.script, second_look=look)
    return pipe, look, play_through(pipe, source), plays


def _logged(path: Path) -> list[tuple[str, str]]:
    return [(e.data["player"], e.data["card"]) for e in read_log(path).events
            if e.kind == "play"]


@pytest.mark.parametrize("how", ["pile changed", "question"])
def test_a_card_the_reader_missed_is_found_in_its_players_pile(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    """Found at once, Cy's pile having changed with no card read there; or, where the
    change went unseen, when the table asks who played the 6♥ it jumped past."""
    if how == "question":
        monkeypatch.setattr(ZoneChanges, "update", lambda self, frame, zones=None, t=0.0: [])
    pipe, look, notes, plays = _round(tmp_path, look_misses=False)
    assert ("read again: 6♥ in Cy's pile" if how == "pile changed"
            else "read again: Cy played 6♥") in notes
    assert _logged(tmp_path / "g.jsonl") == plays  # in order, by the right players
    assert not pipe.pending
    # The seats' piles were read while the question waited, and only so long.
    assert 4 <= look.reads <= 4 * TablePipeline.LOOK_FRAMES


def test_a_card_the_second_look_does_not_find_either_stays_a_question(
        tmp_path: Path) -> None:
    """Nothing is guessed: the play that jumps past 6♥ waits for a person."""
    pipe, _look, notes, plays = _round(tmp_path, look_misses=True)
    assert not any(n.startswith("read again: Cy") for n in notes)
    logged = _logged(tmp_path / "g.jsonl")
    assert ("Cy", UNSEEN) not in logged
    assert logged == plays[:plays.index(("Cy", UNSEEN))]
    assert any(p.question == "6♥ was not seen: who played it?" for p in pipe.pending.values())


def test_a_question_about_a_card_logged_since_settles_itself(tmp_path: Path) -> None:
    """The 6♥ nobody saw is entered by hand instead of answering the question ("Cy played
    6♥"): the question has nothing left to ask; the 7♥ held for it, and the readings that
    waited behind it, are logged in order."""
    pipe, _look, _notes, plays = _round(tmp_path, look_misses=True)
    [asked] = [p for p in pipe.pending.values()
               if p.question == "6♥ was not seen: who played it?"]
    assert asked.event["card"] == "7H"
    pipe.inject({"event": "play", "player": "Cy", "card": UNSEEN})
    assert not pipe.flush().pending
    assert _logged(tmp_path / "g.jsonl") == plays


def test_the_look_is_not_asked_when_nothing_is_missing(tmp_path: Path) -> None:
    """A round the table reader reads whole never calls the second look: no card missing,
    no pile changed without a new card read there, no hand waiting."""
    video = TableVideo(simulated_round("michigan-rummy", seed=11),
                       RenderConfig(width=320, height=240, seed=11, noise=0.0))
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth)
    pipe = TablePipeline(video.profile(), truth, None, tmp_path / "g.jsonl",
                         script=video.truth.script, second_look=look)
    play_through(pipe, source)
    assert look.reads == 0 and not pipe.pending


def test_a_card_found_only_where_a_logged_lookalike_lies_stays_a_question(
        tmp_path: Path) -> None:
    """The second look never reads the 6♥ itself, but reads Ann's 5♥, logged and lying on
    top of her pile, as 6♥ (tigullio Great Lakes 1005: Bob's K♠ never read; the look found
    a K♠ where Cy's K♣ lay, and the question was answered "Cy played K♠"). That card
    misread and a 6♥ laid on it look the same to the camera: the question stays with
    people, and nothing is logged for Ann."""
    pipe, _look, notes, plays = _round(tmp_path, look_misses=True, wrong={"5H": UNSEEN})
    assert not any(n.startswith("read again: Ann played") for n in notes)
    assert ("Ann", UNSEEN) not in _logged(tmp_path / "g.jsonl")
    assert _logged(tmp_path / "g.jsonl") == plays[:plays.index(("Cy", UNSEEN))]
    assert any(p.question == "6♥ was not seen: who played it?" for p in pipe.pending.values())


def test_a_logged_card_read_again_as_another_suit_is_not_a_new_card(tmp_path: Path) -> None:
    """Cy's 6♥ lands on his 4♥ unread by the table reader; the second look reads his pile
    whole, the 4♥ as 4♣ on the very spot where it was logged (tigullio Pressman 907: Bob's
    6♣ laid on his 7♥, the look reading the pile as 6♣ and 7♣, both logged as his, and
    Ann's 7♣ then "played already"). The 4♣ is that card misread, not a new card: the 6♥
    alone is read again there, and the round is logged as played."""
    pipe, _look, notes, plays = _round(tmp_path, look_misses=False, wrong={"4H": "4C"})
    assert "read again: 6♥ in Cy's pile" in notes
    assert _logged(tmp_path / "g.jsonl") == plays
    assert not pipe.pending


@pytest.mark.parametrize("phantom", [None, {UNSEEN: "KS"}])
def test_a_held_card_found_as_the_card_asked_about_is_that_card_misread(
        tmp_path: Path, phantom: dict[str, str] | None) -> None:
    """Cy's 6♥ read as 9♥ by the table reader ("6♥ was not seen: who played it?"); the look
    finds the 6♥ where the 9♥ was read, and no 9♥: one card read two ways ("it was 6♥"),
    never "Cy played 6♥, then 9♥". So too where the look also reads a card nobody played
    (a K♠ at 0.37) nearer the held spot than the 6♥ it places by its index (tigullio
    Michigan 105: a 5♥ beside Bob's J♥, read as K♥, and a K♥ nobody played was logged)."""
    pipe, _look, notes, plays = _round(tmp_path, look_misses=False, read_as="9H",
                                       phantom=phantom)
    assert "read again: 6♥, not 9♥" in notes
    assert _logged(tmp_path / "g.jsonl") == plays
    assert not pipe.pending


def test_a_lead_read_a_rank_low_is_asked_not_found_again_as_a_new_card(
        tmp_path: Path) -> None:
    """Bob leads 3♣ after his 10♥ stopped the hearts (Michigan Rummy, seed 7); the table
    reader reads it as 2♣, a lead the rules allow, and it is logged. Ann's 4♣ then jumps
    past 3♣ ("3♣ was not seen: who played it?"). The second look finds the 3♣ where the 2♣
    was logged, and reads no 2♣ (tigullio Pressman 302: Cy's 3♣ read as 2♣, then "read
    again: Cy played 3♣", a 2♣ nobody played left in the log). A 3♣ laid on the 2♣ unread
    would look the same: the question stays with a person, and offers the 2♣ misread."""
    video = TableVideo(simulated_round("michigan-rummy", seed=7),
                       RenderConfig(width=320, height=240, seed=7, noise=0.0))
    plays = [(e["player"], e["card"]) for e in video.truth.visual if e["event"] == "play"]
    at = plays.index(("Bob", "3C"))
    assert plays[at - 1:at + 2] == [("Bob", "TH"), ("Bob", "3C"), ("Ann", "4C")]
    source = RenderedSource(video)
    truth = TruthDetector(source)
    pipe = TablePipeline(video.profile(), ReadsAs(truth, "2C", card="3C"), None,
                         tmp_path / "g.jsonl", script=video.truth.script,
                         second_look=Look(truth))
    notes: list[str] = []
    while (frame := source.read()) is not None and not pipe.pending:
        notes += pipe.process(frame.image, frame.t, frame.index).notes
    for _ in range(2 * TablePipeline.LOOK_FRAMES):  # the look has had its frames
        frame = source.read()
        assert frame is not None
        notes += pipe.process(frame.image, frame.t, frame.index).notes
    assert not any(n.startswith("read again") for n in notes)
    [(pid, asked)] = pipe.pending.items()
    assert asked.question == "3♣ was not seen: who played it?"
    assert _logged(tmp_path / "g.jsonl") == [*plays[:at], ("Bob", "2C")]
    [fix] = [a for a in asked.options if a.label == "Bob's 2♣ was 3♣"]
    pipe.answer(pid, list(fix.events))
    notes += play_through(pipe, source)
    corrected = [(e.data["player"], e.data["card"]) for e in
                 apply_corrections(read_log(tmp_path / "g.jsonl").events)[0] if e.kind == "play"]
    assert corrected == plays and not pipe.pending
