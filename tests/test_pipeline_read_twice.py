"""One card read at two spots of its pile (its two corners boxed apart, a reflection): with one
deck the code is one card played, never a "move" of that card twice (issue 14: on a rendered
Pressman round the shipped reader boxed Bob's 10♦ twice and the table logged a play of
``cards: ["TD"]``). Rendered Michigan round (seed 11), the renderer's truth as the reader, one
card boxed twice while it lies on top of its pile."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_pipeline_second_look import play_through

from companion.events import read_log
from vision.detections import Detections
from vision.pipeline.table import TablePipeline
from vision.render.demo import RenderedSource, simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.render.truth import TruthDetector


class SeesTwice:
    """The truth, with ``card`` boxed a second time ``shift`` pixels to the right."""

    def __init__(self, truth: TruthDetector, card: str, shift: float) -> None:
        self.truth, self.card, self.shift = truth, card, shift

    def detect(self, frame: np.ndarray) -> Detections:
        dets = self.truth.detect(frame)
        at = [k for k, (name, _b, _s) in enumerate(dets) if name == self.card]
        if not at:
            return dets
        extra = dets.xyxy[at[:1]] + np.array([self.shift, 0, self.shift, 0], np.float32)
        return Detections(np.concatenate([dets.xyxy, extra]),
                          np.concatenate([dets.confidence, dets.confidence[at[:1]]]),
                          np.concatenate([dets.class_id, dets.class_id[at[:1]]]), dets.names)


def test_a_card_boxed_twice_in_its_pile_is_one_card_played(tmp_path: Path) -> None:
    video = TableVideo(simulated_round("michigan-rummy", seed=11),
                       RenderConfig(width=320, height=240, seed=11, noise=0.0))
    plays = [(e["player"], e["card"]) for e in video.truth.visual if e["event"] == "play"]
    twice = plays[5][1]
    source = RenderedSource(video)
    pipe = TablePipeline(video.profile(), SeesTwice(TruthDetector(source), twice, 6.0), None,
                         tmp_path / "g.jsonl", script=video.truth.script)
    play_through(pipe, source)
    events = read_log(tmp_path / "g.jsonl").events
    assert not any(e.kind == "play" and "cards" in e.data for e in events)
    assert [(e.data["player"], e.data["card"]) for e in events if e.kind == "play"] == plays
