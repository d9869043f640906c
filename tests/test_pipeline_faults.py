"""A fault of the referee while the pipeline weighs a reading is logged in the diagnostic log
(issue 16: no silent ``except``), and the event it refuses is logged there too."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from companion.referee import EventError
from vision.detections import Detections
from vision.pipeline.table import TablePipeline
from vision.render.demo import simulated_round
from vision.render.table import TableVideo

PLAY = {"event": "play", "player": "Bob", "card": "2H"}


class Blind:
    def detect(self, frame: np.ndarray) -> Detections:
        return Detections.empty()


def _pipeline(tmp_path: Path) -> TablePipeline:
    events = simulated_round("michigan-rummy", seed=1)
    return TablePipeline(TableVideo(events).profile(), Blind(), events[0],
                         tmp_path / "game.jsonl")


def test_a_referee_fault_is_logged_not_swallowed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pipe = _pipeline(tmp_path)
    assert pipe.referee is not None

    def broken(event: object) -> None:
        raise RuntimeError("the referee tripped")

    monkeypatch.setattr(pipe.referee, "apply", broken)
    with caplog.at_level(logging.ERROR):
        assert pipe._accepts_all([PLAY]) is False
        assert pipe._accepts(PLAY)[0] is False
    failures = [r.getMessage() for r in caplog.records]
    assert any("the referee failed on a possible answer" in m for m in failures)
    assert any("the referee failed on a reading" in m for m in failures)


def test_a_refused_event_is_in_the_diagnostic_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pipe = _pipeline(tmp_path)
    assert pipe.referee is not None

    def refuse(event: object) -> None:
        raise EventError("round 1 is not finished")

    monkeypatch.setattr(pipe.referee, "apply", refuse)
    with caplog.at_level(logging.WARNING, logger="companion.pipeline"):
        line, said = pipe.inject({"event": "round", "dealer": "Ann"})
    assert said == [f"Line {line} not accepted: round 1 is not finished"]
    assert any(f"line {line} not accepted" in r.getMessage() for r in caplog.records)
