"""The table judges its picture's focus as it plays (`TablePipeline._check_focus`): a webcam
gone soft is said once, and more readings are held for a person until it is sharp again."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detections import Detections
from vision.pipeline.table import FOCUS_EVERY, SOFT_CONFIRM_BELOW, TablePipeline
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.tracker import TrackerConfig

SETUP = {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy"]}


class NoCard:
    def detect(self, frame: np.ndarray) -> Detections:
        return Detections.empty()


def pictures() -> tuple[TableVideo, np.ndarray, np.ndarray]:
    log = [SETUP, {"event": "round", "dealer": "Ann"}]
    sharp = TableVideo(log, RenderConfig(seed=4))
    soft = TableVideo(log, RenderConfig(seed=4, blur=1.4))
    return sharp, sharp.render(0.0).image, soft.render(0.0).image


def test_a_soft_picture_is_said_once_and_asks_more_until_sharp_again(tmp_path: Path) -> None:
    video, sharp, soft = pictures()
    pipe = TablePipeline(video.profile(), NoCard(), SETUP, tmp_path / "g.jsonl", average=0)
    assert pipe.process(sharp, 0.0, 0).notes == []
    assert pipe.focus_px is not None and pipe.focus_px < 0.8
    assert pipe.tracker.config.confirm_below == TrackerConfig().confirm_below
    notes = [pipe.process(soft, t, i).notes for i, t in enumerate(
        np.arange(1.0, 3 * FOCUS_EVERY, 1.0), start=1)]
    said = [n for ns in notes for n in ns]
    assert len(said) == 1 and "out of focus" in said[0] and "focus ring" in said[0]
    assert pipe.tracker.config.confirm_below == SOFT_CONFIRM_BELOW
    notes = [pipe.process(sharp, t, 100 + i).notes for i, t in enumerate(
        np.arange(3 * FOCUS_EVERY, 5 * FOCUS_EVERY, 1.0))]
    assert [n for ns in notes for n in ns] == ["The picture is in focus again."]
    assert pipe.tracker.config.confirm_below == TrackerConfig().confirm_below


def test_a_stricter_setting_is_kept_while_the_picture_is_soft(tmp_path: Path) -> None:
    video, _sharp, soft = pictures()
    pipe = TablePipeline(video.profile(), NoCard(), SETUP, tmp_path / "g.jsonl", average=0,
                         tracker_config=TrackerConfig(confirm_below=0.9))
    assert "out of focus" in pipe.process(soft, 0.0, 0).notes[0]
    assert pipe.tracker.config.confirm_below == 0.9
