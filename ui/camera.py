"""Cameras: finding one quickly (or none, then the demo), and the camera feed for the worker.

`find_cameras` probes webcam indices briefly (< 2 s in all, nothing printed); the camera feed
runs the vision pipeline when it is installed, otherwise it shows the picture and leaves the
events to the dialogs.
"""

from __future__ import annotations

import glob
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from calibration.profile import TableProfile
from companion.diagnostics import log_failure
from ui.demo import CardMark, camera_profile
from ui.worker import FramePacket, PipelineFeed, SeenEvent, Tick, pending_of


def find_cameras(max_index: int = 2, budget_s: float = 1.5) -> list[str]:
    """Webcam indices that deliver a picture, probed within ``budget_s`` seconds."""
    if sys.platform.startswith("linux") and not glob.glob("/dev/video*"):
        return []  # no video device at all: do not wake OpenCV
    try:
        import cv2
    except ImportError:
        return []
    try:
        cv2.setLogLevel(0)  # type: ignore[attr-defined]
    except AttributeError:
        pass
    found: list[str] = []
    end = time.monotonic() + budget_s
    for index in range(max_index):
        if time.monotonic() > end:
            break
        cap = cv2.VideoCapture(index)
        try:
            if cap.isOpened():
                ok, _ = cap.read()
                if ok:
                    found.append(str(index))
        finally:
            cap.release()
    return found


def _masked(profile: TableProfile | None, img: np.ndarray) -> np.ndarray | None:
    return profile.mask_private(img) if profile is not None else None


def _find_board(frame: np.ndarray, game: str, seats: int) -> TableProfile | None:
    """Calibrate from one picture when no profile was saved (None when no board is seen)."""
    try:
        from calibration.calibrate import CalibrationError, calibrate
    except ImportError:
        return None
    try:
        return calibrate([frame], game, seats)
    except (CalibrationError, ValueError):
        return None


class CameraFeed(PipelineFeed):
    """A camera (or stream, file, folder) through the vision pipeline, when there is one.

    Without a detector the feed only shows the picture; people enter the plays by hand.
    The pipeline writes recognised events to the game's log itself; they come out of `tick`
    as `SeenEvent` with ``line`` set, and the window records them without writing again.
    """

    def __init__(self, source_spec: str, profile: TableProfile | None, game: str,
                 players: Sequence[str], pipeline: Any = None, interval_ms: int = 30) -> None:
        from vision.sources import parse_source

        self.source = parse_source(source_spec)
        self.interval_ms = interval_ms
        self.pipeline = pipeline
        first = self.source.read()
        size = (first.image.shape[1], first.image.shape[0]) if first is not None else (640, 480)
        if profile is None and first is not None:
            profile = _find_board(first.image, game, len(players))
        self.profile = profile or camera_profile(game, len(players), size)
        self._first = first
        self._last_image: np.ndarray | None = None
        #: Said once when the feed starts: what it has to do without (no detector...).
        self.notices: list[str] = []

    def tick(self) -> Tick:
        frame = self._first or self.source.read()
        self._first = None
        if frame is None:
            return Tick(done=not getattr(self.source, "live", False),
                        notes=["no picture from the camera"])
        img = frame.image
        self._last_image = img
        tick = Tick()
        marks: list[CardMark] = []
        if self.pipeline is not None:
            res = self.pipeline.process(img, frame.t, frame.index)
            for det in res.detections:
                x1, y1, x2, y2 = det["box"]
                marks.append(CardMark(det["card"], ((x1, y1), (x2, y1), (x2, y2), (x1, y2))))
            evidence = _masked(self.profile, img)
            for line, ev in res.events:
                tick.events.append(SeenEvent(dict(ev), evidence, line))
            tick.notes.extend(res.notes + res.chip_warnings)
            tick.pending = pending_of(res)
        tick.frame = FramePacket(img, tuple(marks), frame.t)
        return tick

    def _evidence(self) -> np.ndarray | None:
        return _masked(self.profile, self._last_image) if self._last_image is not None else None

    def close(self) -> None:
        self.source.close()


def make_camera_feed(source: str, profile: TableProfile | None, game: str,
                     players: Sequence[str], log: Any = None) -> CameraFeed:
    """The feed for a camera; with the pipeline and a detector when both can be loaded."""
    pipeline = None
    if log is not None and os.environ.get("COMPANION_NO_DETECTOR") != "1":
        try:
            from vision.detector import CardDetector
            from vision.pipeline import TablePipeline
            from vision.zones import ZoneReader

            feed = CameraFeed(source, profile, game, players)
            pipeline = TablePipeline(feed.profile, ZoneReader(CardDetector()), None, log)
            feed.pipeline = pipeline
            return feed
        except Exception as exc:  # noqa: BLE001 - no weights or no onnxruntime: picture only
            why = log_failure("the card detector could not be loaded", exc)
            plain = CameraFeed(source, profile, game, players, None)
            plain.notices.append(f"{why} The window shows the picture only: enter the plays "
                                 f"by hand, or reinstall the app "
                                 f"(pip install 'michigan-companion[app]').")
            return plain
    return CameraFeed(source, profile, game, players, pipeline)
