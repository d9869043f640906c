"""A card laid that no reader reads as a new card (issue 14): Bob's K♠ laid on his Q♠ and read
as that Q♠ (a card played already) for as long as it lies there, the second look not reading
it at all. His pile came to rest in a new picture that nothing explained, so his A♠ next is
not taken for a lead after a stop (the K♠ dead): the table asks who played the K♠.
Rendered Michigan round (seed 205: Bob plays Q♠, K♠, A♠), the renderer's truth as both readers,
spoiled on purpose."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_pipeline_second_look import Look

from companion.cards import CARD_CODES
from companion.events import read_log
from vision.detections import Detections
from vision.pipeline.table import TablePipeline
from vision.render.demo import RenderedSource, simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.render.truth import TruthDetector


class KingAsQueen:
    """The table reader: reads every card but the K♠, which it reads as the Q♠ it lies on, on
    the Q♠'s own spot (``misread``), or does not see at all."""

    def __init__(self, truth: TruthDetector, misread: bool) -> None:
        self.truth, self.misread = truth, misread
        self.queen: np.ndarray | None = None

    def detect(self, frame: np.ndarray) -> Detections:
        dets = self.truth.detect(frame)
        names = [name for name, _b, _s in dets]
        if "QS" in names:
            self.queen = dets.xyxy[names.index("QS")].copy()
        if "KS" not in names:
            return dets
        k = names.index("KS")
        keep = [i for i in range(len(names)) if i != k and not (self.misread and names[i] == "QS")]
        xyxy, conf = dets.xyxy[keep], dets.confidence[keep]
        ids = [CARD_CODES.index(names[i]) for i in keep]
        if self.misread and self.queen is not None:
            xyxy = np.vstack([xyxy, self.queen[None]])
            conf = np.append(conf, dets.confidence[k])
            ids.append(CARD_CODES.index("QS"))
        return Detections(xyxy.astype(np.float32), conf.astype(np.float32),
                          np.array(ids, int), dets.names)


def _plays(path: Path) -> list[tuple[str, str]]:
    return [(e.data["player"], e.data["card"]) for e in read_log(path).events
            if e.kind == "play"]


Plays = list[tuple[str, str]]


def _round(tmp_path: Path, answer: str | None, misread: bool
           ) -> tuple[list[str], Plays, Plays]:
    """(questions put, plays logged, true plays) of the round with Bob's K♠ read as the Q♠
    under it (``misread``) or not seen, every question answered ``answer`` (by label) or
    left unanswered."""
    video = TableVideo(simulated_round("michigan-rummy", seed=205),
                       RenderConfig(width=320, height=240, fps=10, seed=205, noise=0.0))
    true = [(str(e["player"]), str(e["card"])) for e in video.truth.visual
            if e["event"] == "play"]
    assert ("Bob", "QS") in true and true.index(("Bob", "KS")) == true.index(("Bob", "QS")) + 1
    assert true.index(("Bob", "AS")) == true.index(("Bob", "KS")) + 1
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth, missed=["KS"])
    pipe = TablePipeline(video.profile(), KingAsQueen(truth, misread),
                         None, tmp_path / "g.jsonl", script=video.truth.script,
                         second_look=look)
    look.clock = pipe
    asked: list[str] = []
    while (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
        while answer is not None and pipe.pending:
            pid, held = next(iter(pipe.pending.items()))
            asked.append(held.describe())
            chosen: Any = [o for o in held.options if o.label == answer] or held.options[:1]
            pipe.answer(pid, list(chosen[0].events))
    if answer is None:
        asked = [held.describe() for held in pipe.pending.values()]
    return asked, _plays(tmp_path / "g.jsonl"), true


@pytest.mark.parametrize("misread", [True, False], ids=["read as the Q♠", "not seen"])
def test_a_jump_after_an_unread_change_in_the_pile_is_asked(tmp_path: Path,
                                                            misread: bool) -> None:
    asked, logged, true = _round(tmp_path, None, misread)
    assert any(q.startswith("K♠ was not seen: who played it?") for q in asked), asked
    assert ("Bob", "AS") not in logged  # held, not logged as a lead after a stop


def test_answered_the_round_is_logged_as_played(tmp_path: Path) -> None:
    asked, logged, true = _round(tmp_path, "Bob", True)
    assert asked and asked[0].startswith("K♠ was not seen")
    assert logged[:true.index(("Bob", "AS")) + 1] == true[:true.index(("Bob", "AS")) + 1]


class Unread:
    """The table reader: reads every card but ``unread``."""

    def __init__(self, truth: TruthDetector, unread: set[str]) -> None:
        self.truth, self.unread = truth, unread

    def detect(self, frame: np.ndarray) -> Detections:
        dets = self.truth.detect(frame)
        keep = [i for i, (name, _b, _s) in enumerate(dets) if name not in self.unread]
        return Detections(dets.xyxy[keep], dets.confidence[keep], dets.class_id[keep],
                          dets.names)


def test_a_lead_after_a_stop_while_another_pile_changed_unread_is_asked(
        tmp_path: Path) -> None:
    """Pressman seed 2302 (tigullio deck, the shipped models): Cy's 5♠ on Bob's 4♠, then
    his Q♦ lead, read by neither reader; Bob's K♦ on the Q♦ was logged in silence as his
    lead after the 4♠ stopped the spades, Cy's two cards lost. Cy's pile came to rest in new
    pictures that nothing explained, so the K♦ is held: who played the 5♠, Cy first, and
    Cy with another card of his before the K♦; naming the Q♦ makes the round exact."""
    from vision.pipeline.results import picked

    video = TableVideo(simulated_round("pressman", seed=2302),
                       RenderConfig(width=320, height=240, fps=10, seed=2302, noise=0.0))
    true = [(str(e["player"]), str(e["card"])) for e in video.truth.visual
            if e["event"] == "play"]
    at = true.index(("Cy", "5S"))
    assert true[at - 1:at + 3] == [("Bob", "4S"), ("Cy", "5S"), ("Cy", "QD"), ("Bob", "KD")]
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth, missed=["5S", "QD"])
    pipe = TablePipeline(video.profile(), Unread(truth, {"5S", "QD"}), None,
                         tmp_path / "g.jsonl", script=video.truth.script, second_look=look)
    look.clock = pipe
    while not pipe.pending and (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
    [held] = pipe.pending.values()
    assert held.ask().startswith("5♠ was not seen: who played it?"), held.ask()
    labels = [o.label for o in held.options]
    assert labels[:2] == ["Cy", "Cy, then another card of Cy's before this K♦…"], labels
    assert ("Bob", "KD") not in _plays(tmp_path / "g.jsonl")
    pipe.answer(held.id, picked(held.options[1].events, "QD"))
    while (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
        assert not pipe.pending, [h.describe() for h in pipe.pending.values()]
    assert _plays(tmp_path / "g.jsonl") == true
