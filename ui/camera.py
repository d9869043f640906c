"""Cameras: finding them quickly, by name (or none, then the demo), and the camera feed for the
worker.

`find_cameras` probes the webcams briefly (< 2 s in all, nothing printed) and lists each by the
name the system gives it, with why it cannot be used when it cannot; the camera feed runs the
vision pipeline when it is installed, otherwise it shows the picture and leaves the events to
the dialogs.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from calibration.profile import TableProfile
from companion.diagnostics import log_failure
from ui.demo import CardMark, camera_profile
from ui.worker import FramePacket, PipelineFeed, SeenEvent, Tick, pending_of
from vision.sources.camera_names import SYSFS_VIDEO, linux_cameras


@dataclass(frozen=True)
class Camera:
    """A webcam: its index (the source spec), the name the system gives it, and why it cannot
    be used ("" when it gives a picture)."""

    index: int
    name: str
    problem: str = ""

    @property
    def spec(self) -> str:
        return str(self.index)

    @property
    def label(self) -> str:
        """How the camera is listed: its name, and when it cannot be used, that it cannot."""
        return f"{self.name} (cannot be opened)" if self.problem else self.name


def qt_cameras() -> list[str]:
    """The descriptions Qt Multimedia gives the cameras, in its order ([] without it)."""
    try:
        from PySide6.QtMultimedia import QMediaDevices
    except ImportError:
        return []
    return [device.description() for device in QMediaDevices.videoInputs()]


def system_cameras(platform: str = sys.platform, sysfs: Path = SYSFS_VIDEO) -> dict[int, str]:
    """The webcams the system knows, by index, with their names: video4linux's on Linux, Qt
    Multimedia's elsewhere (in its order, which is the capture backend's)."""
    if platform.startswith("linux"):
        return linux_cameras(sysfs)
    return dict(enumerate(qt_cameras()))


def camera_name(spec: str) -> str:
    """What to call a source in the window: a webcam by the name the system gives it, anything
    else (a stream, a file) as given."""
    if not spec.isdigit():
        return spec
    return system_cameras().get(int(spec)) or f"Camera {spec}"


def find_cameras(max_index: int = 2, budget_s: float = 1.5, *,
                 known: dict[int, str] | None = None,
                 opener: Callable[[int], Any] | None = None,
                 platform: str = sys.platform) -> list[Camera]:
    """The webcams, each named and probed for a picture within ``budget_s`` seconds in all:
    those the system ``known`` (default: `system_cameras`), and indices below ``max_index``
    that give a picture though unnamed. A known camera that cannot be opened (permission
    denied, in use) is listed with why (`vision.sources.camera.camera_problem`), never dropped."""
    if known is None:
        known = system_cameras(platform)
    if platform.startswith("linux") and not known:
        return []  # no video device at all: do not wake OpenCV
    try:
        from vision.sources.camera import camera_problem, open_camera
    except ImportError:
        return []

    def plain(index: int) -> Any:
        return open_camera(index, platform=platform, resolutions=())   # quick: as it comes

    probe = opener or plain
    unnamed = range(0 if platform.startswith("linux") else max_index)  # Linux names them all
    indices = sorted(set(known) | set(unnamed))
    found: list[Camera] = []
    end = time.monotonic() + budget_s
    for index in indices:
        name = known.get(index) or f"Camera {index}"
        if time.monotonic() > end:
            if index in known:
                found.append(Camera(index, name))   # not probed: offered as it is
            continue
        cap = probe(index)
        ok = False
        try:
            ok = cap is not None and cap.isOpened() and bool(cap.read()[0])
        finally:
            if cap is not None:
                cap.release()
        if ok:
            found.append(Camera(index, name))
        elif index in known:
            found.append(Camera(index, name, camera_problem(index, platform)))
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
        from vision.sources.parse import parse_source

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
        #: Said once when the feed starts: how the camera opened, what the feed has to do
        #: without (no detector...).
        self.notices: list[str] = list(getattr(self.source, "statuses", ()))

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
            res = self.pipeline.process(img, frame.t, frame.index, frame.gap)
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


def deck_problem(path: str) -> str:
    """Why the deck profile ``path`` cannot be used ("" when it can)."""
    from vision.readers.load import read_deck_profile

    try:
        read_deck_profile(path)
    except ValueError as exc:
        return str(exc)
    return ""


def make_camera_feed(source: str, profile: TableProfile | None, game: str,
                     players: Sequence[str], log: Any = None, deck: str | None = None
                     ) -> CameraFeed:
    """The feed for a camera; with the pipeline and a detector when both can be loaded
    (with ``deck``, a profile from `companion teach-deck`, the table is read with it)."""
    pipeline = None
    if log is not None and os.environ.get("COMPANION_NO_DETECTOR") != "1":
        try:
            from vision.pipeline.table import TablePipeline
            from vision.readers.load import read_deck_profile, second_look, table_reader

            feed = CameraFeed(source, profile, game, players)
            taught = None
            if deck is not None:
                try:
                    taught = read_deck_profile(deck)
                except ValueError as exc:
                    feed.notices.append(f"{exc}. The cards are read with the usual card "
                                        f"models; teach your deck again with companion "
                                        f"teach-deck.")
            pipeline = TablePipeline(feed.profile, table_reader(taught), None, log,
                                     second_look=second_look())
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
