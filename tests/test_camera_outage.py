"""Issue 16, finding 3: a camera outage or freeze is said at once, and so is a video file that
ends before its end.

A stream frozen with its connection open (reads that hang) counts as lost after
``freeze_after`` seconds; `watch` prints "Camera lost, reconnecting…" and "Camera back" as they
happen; a file cut short stops the game unfinished (exit status 1, the rest of the script not
logged) instead of ending it quietly.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

import vision.pipeline_cli as pipeline_cli
import vision.sources.parse as sources
from companion import cli
from companion.events import read_log
from vision.detections import Detections
from vision.render.demo import simulated_round
from vision.render.table import TableVideo
from vision.sources.camera import CaptureSource
from vision.sources.files import VideoFileSource

PICTURE = np.zeros((48, 64, 3), np.uint8)


class Stream:
    """A network stream: serves ``serve`` frames, then hangs (connection open, no picture)
    until ``thaw`` is set; a capture opened after the freeze serves again, until ``dead``
    frames in all: then reads fail and no capture opens."""

    def __init__(self, serve: int, dead: int | None = None) -> None:
        self.serve = serve
        self.dead = dead
        self.served = 0
        self.opened = 0
        self.thaw = threading.Event()

    def open(self, spec: int | str) -> Any:
        stream = self
        self.opened += 1
        if self.dead is not None and self.served >= self.dead:
            return None

        class Capture:
            def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
                return True

            def read(self) -> tuple[bool, np.ndarray | None]:
                if stream.served == stream.serve and stream.opened == 1:
                    stream.thaw.wait(30.0)   # frozen: nothing comes, the read hangs
                if stream.dead is not None and stream.served >= stream.dead:
                    return False, None       # gone for good
                stream.served += 1
                return True, PICTURE

            def release(self) -> None:
                pass

        return Capture()


def test_a_frozen_stream_is_lost_at_once_and_comes_back() -> None:
    stream = Stream(serve=3)
    said: list[str] = []
    src = CaptureSource("http://table.local/video", opener=stream.open, freeze_after=0.3,
                        retry_every=0.05, on_status=said.append)
    try:
        frames = [src.read() for _ in range(5)]
    finally:
        stream.thaw.set()
        src.close()
    assert all(f is not None for f in frames)
    assert said[0].startswith("Camera lost, reconnecting…") and "no new picture" in said[0]
    assert said[1].startswith("Camera back") and len(said) == 2
    gaps = [f.gap for f in frames if f is not None]
    assert gaps[:3] == [0.0, 0.0, 0.0] and gaps[3] >= 0.3 and gaps[4] == 0.0
    assert src.reconnects == 1 and stream.opened == 2


def _profile(tmp_path: Path) -> Path:
    video = TableVideo(simulated_round("michigan-rummy", seed=1))
    return video.profile().save(tmp_path / "table.json")


class Blind:
    """A detector that sees no card (the frames here are blank)."""

    def detect(self, frame: np.ndarray) -> Detections:
        return Detections.empty()


def _watch(tmp_path: Path, source: str, *more: str) -> int:
    return cli.main(["watch", source, "--game", "michigan-rummy", "--players", "Ann", "Bob",
                     "Cy", "Dee", "--profile", str(_profile(tmp_path)), "--refit-every", "0",
                     "--log", str(tmp_path / "game.jsonl"), *more])


def test_watch_says_when_the_camera_is_lost_and_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    stream = Stream(serve=3, dead=8)

    class Camera(CaptureSource):
        def __init__(self, spec: int | str, **kwargs: Any) -> None:
            super().__init__(spec, opener=stream.open, freeze_after=0.3, retry_every=0.05,
                             give_up_after=0.5, **kwargs)

    monkeypatch.setattr(sources, "CaptureSource", Camera)
    monkeypatch.setattr(pipeline_cli, "build_detector", lambda args, source: Blind())
    try:
        status = _watch(tmp_path, "http://table.local/video")
    finally:
        stream.thaw.set()
    err = capsys.readouterr().err
    lost, back = err.index("Camera lost, reconnecting…"), err.index("Camera back")
    assert lost < back < err.index("Camera gave up")
    assert status == 1 and "the game stops here, unfinished" in err


def _cut_video(tmp_path: Path, frames: int = 30) -> Path:
    path = tmp_path / "table.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for i in range(frames):
        out.write(np.full((48, 64, 3), i * 8, np.uint8))
    out.release()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def test_a_video_file_cut_short_says_where_it_ended(tmp_path: Path) -> None:
    src = VideoFileSource(_cut_video(tmp_path))
    n = sum(1 for _ in src)
    assert 0 < n < 30 and src.ended_early is not None
    assert f"ended at frame {n} of 30" in src.ended_early


def test_watch_on_a_video_cut_short_stops_the_game_unfinished(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(pipeline_cli, "build_detector", lambda args, source: Blind())
    script = tmp_path / "script.jsonl"
    script.write_text("".join(json.dumps(e) + "\n" for e in [
        {"event": "round", "dealer": "Ann", "at": 0},
        {"event": "round", "dealer": "Bob", "at": 10}]), encoding="utf-8")
    status = _watch(tmp_path, str(_cut_video(tmp_path)), "--script", str(script))
    err = capsys.readouterr().err
    assert status == 1 and "ended at frame" in err and "unfinished" in err
    # The round after the cards the file never showed is not logged (a finished run would).
    assert [e.kind for e in read_log(tmp_path / "game.jsonl").events] == ["game"]
