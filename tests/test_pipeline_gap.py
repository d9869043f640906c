"""A camera outage (issue 16): nothing is inferred across the gap a frame's ``gap`` reports;
what the table shows after it that differs from before (cards laid, cards gone) is held as one
question per seat, in seat order, answered in one click; an unchanged table asks nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_pipeline import SCRIPT, SETUP, ScriptedDetector, identity_profile
from test_pipeline_questions import at, join, plays

from vision.detections import Detections
from vision.pipeline.table import OUTAGE_GAP, TablePipeline
from vision.sources.frames import Frame, FrameSource

FRAME = np.zeros((4, 4, 3), np.uint8)


def feed(pipe: TablePipeline, det: ScriptedDetector, frames: list[Detections], t0: float,
         gap: float = 0.0) -> None:
    """Frames 0.1 s apart from ``t0``; the first comes after ``gap`` s without a picture."""
    for i, d in enumerate(frames):
        det.queue.append(d)
        pipe.process(FRAME, t0 + i * 0.1, i, gap if i == 0 else 0.0)


def bob_leads(tmp_path: Path) -> tuple[TablePipeline, ScriptedDetector]:
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT)
    feed(pipe, det, [at(1, "2C")] * 8, 0.0)
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C")] and not pipe.pending
    return pipe, det


def test_cards_laid_while_the_camera_was_away_are_asked_seat_by_seat(tmp_path: Path) -> None:
    """Cy's 3♣ and Dee's 4♣ were laid during a 3 s outage: both would fit the table, but
    nobody saw in which order; one question per seat, Cy's first, each logging its cards as
    read in one click."""
    pipe, det = bob_leads(tmp_path)
    after = join(at(1, "2C"), at(2, "3C"), at(3, "4C"))
    feed(pipe, det, [after] * 15, 3.8, gap=3.0)
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C")]
    cy, dee = pipe.pending.values()
    assert cy.question == "While the camera was away, Cy: 3♣ laid?"
    assert dee.question == "While the camera was away, Dee: 4♣ laid?"
    assert cy.reason == "the camera was away 3.0 s"
    assert [a.label for a in cy.options] == ["as read"]
    for held in (cy, dee):
        pipe.answer(held.id, list(held.options[0].events))
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C"), ("Cy", "3C"), ("Dee", "4C")]
    assert not pipe.errors


def test_a_jump_across_the_gap_is_not_taken_as_a_missed_card(tmp_path: Path) -> None:
    """Dee's 4♣ seen after the outage, 3♣ nowhere: across a gap the jump proves nothing
    (3♣ may be in a hand, or under another card), so no "3♣ was not seen: who played it?",
    only what the table shows, put to a person."""
    pipe, det = bob_leads(tmp_path)
    feed(pipe, det, [join(at(1, "2C"), at(3, "4C"))] * 15, 3.8, gap=3.0)
    [held] = pipe.pending.values()
    assert held.question == "While the camera was away, Dee: 4♣ laid?"
    assert [e["card"] for a in held.options for e in a.events] == ["4C"]
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C")]


def test_cards_gone_while_the_camera_was_away_are_asked(tmp_path: Path) -> None:
    """Bob's 2♣ is gone after the outage and Cy's pile shows 3♣ and 4♣ (offset in her
    pile): one question each, in seat order; answering Bob's 'as read' logs nothing, Cy's
    logs her cards in the order the table reads them, one play each (a move is one card in
    Michigan: a play of several cards is a Great Lakes dump)."""
    pipe, det = bob_leads(tmp_path)
    feed(pipe, det, [join(at(2, "3C"), at(2, "4C", 4.5, 3.0))] * 15, 3.8, gap=2.0)
    bob, cy = pipe.pending.values()
    assert bob.question == "While the camera was away, Bob: 2♣ gone?"
    assert cy.question == "While the camera was away, Cy: 3♣ 4♣ laid?"
    assert bob.options[0].events == ()
    pipe.answer(bob.id, [])
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C")]
    pipe.answer(cy.id, list(cy.options[0].events))
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C"), ("Cy", "3C"), ("Cy", "4C")]
    assert not pipe.pending and not pipe.errors


def test_changes_are_asked_when_the_source_ends_before_the_table_settles(
        tmp_path: Path) -> None:
    pipe, det = bob_leads(tmp_path)
    feed(pipe, det, [join(at(1, "2C"), at(2, "3C"))] * 4, 3.8, gap=3.0)
    assert not pipe.pending
    [held] = pipe.flush().pending
    assert held.question == "While the camera was away, Cy: 3♣ laid?"
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C")]


@pytest.mark.parametrize("gap", [1.6, 3.0])  # the tracker keeps its cards, or forgets them
def test_an_unchanged_table_after_an_outage_asks_nothing(tmp_path: Path, gap: float) -> None:
    pipe, det = bob_leads(tmp_path)
    feed(pipe, det, [at(1, "2C")] * 15, 0.8 + gap, gap=gap)
    assert not pipe.pending and not pipe.errors
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C")]
    feed(pipe, det, [join(at(1, "2C"), at(2, "3C"))] * 8, 3.0 + gap)  # play goes on as ever
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C"), ("Cy", "3C")]


def test_a_short_gap_is_no_outage(tmp_path: Path) -> None:
    """A frame late by no more than `OUTAGE_GAP` (a slow frame): a card laid meanwhile is
    logged as ever."""
    pipe, det = bob_leads(tmp_path)
    feed(pipe, det, [join(at(1, "2C"), at(2, "3C"))] * 8, 0.7 + OUTAGE_GAP, gap=OUTAGE_GAP)
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C"), ("Cy", "3C")]
    assert not pipe.pending


class GapSource(FrameSource):
    """Frames 0.1 s apart, with an outage of ``gap`` s before frame ``at``."""

    def __init__(self, det: ScriptedDetector, frames: list[Detections], at: int,
                 gap: float) -> None:
        self.det, self.frames, self.at, self.gap, self.i = det, frames, at, gap, 0

    def read(self) -> Frame | None:
        if self.i >= len(self.frames):
            return None
        i, self.i = self.i, self.i + 1
        self.det.queue.append(self.frames[i])
        gap = self.gap if i == self.at else 0.0
        return Frame(FRAME, i * 0.1 + (self.gap if i >= self.at else 0.0), i, gap)


def test_run_hands_the_sources_gap_to_the_pipeline(tmp_path: Path) -> None:
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT)
    frames = [at(1, "2C")] * 8 + [join(at(1, "2C"), at(2, "3C"))] * 15
    pipe.run(GapSource(det, frames, 8, 3.0))
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C")]
    [held] = pipe.pending.values()
    assert held.question == "While the camera was away, Cy: 3♣ laid?"


def test_two_cards_coming_to_rest_at_once_in_a_game_of_one_card_moves_are_two_plays(
        tmp_path: Path) -> None:
    """Cy lays 3♣ and 4♣ on her pile a moment apart (offset in it) and the camera sees them
    come to rest in the same frames, apart: in Michigan a move is one card, so the log holds two
    plays in sequence order, not one line of two cards (a Great Lakes dump's form)."""
    pipe, det = bob_leads(tmp_path)
    feed(pipe, det, [join(at(1, "2C"), at(2, "3C"), at(2, "4C", 14.0, 3.0))] * 10, 0.8)
    assert not pipe.pending and not pipe.errors
    # (single-card plays only: a line of two cards would leave Cy's out)
    assert plays(tmp_path / "g.jsonl") == [("Bob", "2C"), ("Cy", "3C"), ("Cy", "4C")]
