"""Live sources: a webcam by index and a network stream (HTTP/MJPEG, RTSP), every frame stamped
with its arrival time. A source that drops out or freezes is reported ("Camera lost,
reconnecting…", then "Camera back") and reopened.

A webcam is opened with the platform's own capture backend (`camera_backends`), asked for its
best resolution (`ask_best_mode`; drivers open at their default, often 640x480, where cards
under ~80 px cannot be read) and named as the system names it (`vision.sources.camera_names`);
one that cannot be opened raises `CameraError`, saying why and what to do.
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2

from companion.diagnostics import log_failure
from vision.sources.camera_names import camera_name
from vision.sources.frames import Frame, FrameSource

_log = logging.getLogger("companion.sources")


class Capture(Protocol):
    """What we use of ``cv2.VideoCapture`` (so tests can pass a fake camera)."""

    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's name
    def read(self) -> tuple[bool, Any]: ...
    def release(self) -> None: ...


class CameraCapture(Capture, Protocol):
    """What we use of ``cv2.VideoCapture`` to choose a webcam's mode."""

    def set(self, prop: int, value: float) -> bool: ...
    def get(self, prop: int) -> float: ...
    def getBackendName(self) -> str: ...  # noqa: N802 - OpenCV's name


class CameraError(OSError):
    """A camera that cannot be opened; the message says why and what to do."""


#: Resolutions asked of a webcam, best first (see `ask_best_mode`).
CAMERA_RESOLUTIONS: tuple[tuple[int, int], ...] = ((1920, 1080), (1280, 720))
#: Below this many pixels a card across the table is too small to read.
SMALL_PICTURE = 1280 * 720


@dataclass(frozen=True)
class CameraMode:
    """What a camera granted: picture size, frame rate (0 when it does not say) and the
    capture backend that opened it."""

    width: int
    height: int
    fps: float = 0.0
    backend: str = ""

    def __str__(self) -> str:
        rate = f" at {self.fps:g} fps" if self.fps > 0 else ""
        via = f" ({self.backend})" if self.backend else ""
        return f"{self.width}x{self.height}{rate}{via}"

    @property
    def small(self) -> bool:
        return 0 < self.width * self.height < SMALL_PICTURE


def camera_backends(platform: str = sys.platform) -> tuple[int, ...]:
    """OpenCV capture backends to try for a webcam on ``platform``, in order: its own (V4L2 on
    Linux; DirectShow, quick to open, then Media Foundation, which can take seconds, on
    Windows; AVFoundation on macOS), then OpenCV's default."""
    if platform.startswith("linux"):
        own: tuple[int, ...] = (cv2.CAP_V4L2,)
    elif platform == "win32":
        own = (cv2.CAP_DSHOW, cv2.CAP_MSMF)
    elif platform == "darwin":
        own = (cv2.CAP_AVFOUNDATION,)
    else:
        own = ()
    return (*own, cv2.CAP_ANY)


def capture_mode(cap: Capture) -> CameraMode | None:
    """The size, rate and backend ``cap`` says it delivers (None when it cannot say)."""
    get = getattr(cap, "get", None)
    if get is None:
        return None
    width = int(get(cv2.CAP_PROP_FRAME_WIDTH) or 0)
    height = int(get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
    if width <= 0 or height <= 0:
        return None
    backend = getattr(cap, "getBackendName", None)
    try:
        name = str(backend()) if backend is not None else ""
    except cv2.error:
        name = ""
    return CameraMode(width, height, round(float(get(cv2.CAP_PROP_FPS) or 0.0), 2), name)


def ask_best_mode(cap: CameraCapture,
                  resolutions: Sequence[tuple[int, int]] = CAMERA_RESOLUTIONS) -> None:
    """Ask ``cap`` for each of ``resolutions`` in turn, best first, until one is granted in
    full, and keep the largest it granted (a driver may refuse a size, or grant a nearby one).
    Motion JPEG is asked for first: most USB webcams give 1080p at full rate only so."""
    if not resolutions:
        return
    cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
    granted: list[tuple[int, int]] = []
    for width, height in resolutions:
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        granted.append((int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                        int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))))
        if granted[-1][0] >= width and granted[-1][1] >= height:
            break
    best = max(granted, key=lambda size: size[0] * size[1])
    if best != granted[-1]:
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, best[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, best[1])


def open_camera(index: int, *, platform: str = sys.platform,
                video_capture: Callable[[int, int], CameraCapture] = cv2.VideoCapture,
                resolutions: Sequence[tuple[int, int]] = CAMERA_RESOLUTIONS
                ) -> CameraCapture | None:
    """Webcam ``index`` opened with the first of `camera_backends` that opens it, asked for its
    best resolution (`ask_best_mode`); None when none opens it (OpenCV kept quiet meanwhile)."""
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        for api in camera_backends(platform):
            try:
                cap = video_capture(index, api)
            except cv2.error as exc:
                _log.info("camera %d: backend %d failed: %s", index, api, exc)
                continue
            if cap.isOpened():
                ask_best_mode(cap, resolutions)
                return cap
            cap.release()
        return None
    finally:
        cv2.utils.logging.setLogLevel(level)


def camera_problem(index: int, platform: str = sys.platform, dev: Path = Path("/dev")) -> str:
    """Why webcam ``index`` could not be opened, as far as can be told, and what to do."""
    node = dev / f"video{index}"
    if platform.startswith("linux"):
        if not node.exists():
            return f"there is no {node}: is the camera plugged in?"
        if not os.access(node, os.R_OK | os.W_OK):
            return (f"permission denied on {node}: add yourself to the 'video' group "
                    f"(sudo usermod -aG video $USER), log in again and retry")
        return "it is in use by another program, or it gives no picture: close that program"
    if platform == "darwin":
        where = "System Settings → Privacy & Security → Camera"
    elif platform == "win32":
        where = "Settings → Privacy & security → Camera"
    else:
        where = "the system's privacy settings"
    return (f"it is in use by another program, or this app is not allowed to use it: close "
            f"that program, or allow the camera in {where}, then retry")


def _default_opener(spec: int | str) -> Capture | None:
    if isinstance(spec, int):
        return open_camera(spec)
    return cv2.VideoCapture(spec)


class _TimedReader:
    """Reads a capture on a thread of its own, so that a read which hangs (a stream frozen with
    its connection open) can be given up after a time limit. A capture given up is released by
    that thread once its read returns."""

    def __init__(self, cap: Capture, name: str) -> None:
        self.cap = cap
        self._asks: queue.SimpleQueue[bool] = queue.SimpleQueue()
        self._answers: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        threading.Thread(target=self._loop, name=f"read {name}", daemon=True).start()

    def _loop(self) -> None:
        while self._asks.get():
            try:
                got = self.cap.read()
            except Exception as exc:  # noqa: BLE001 - a driver error is a failed read
                log_failure("a camera read failed", exc)
                got = (False, None)
            self._answers.put(got)
        self.cap.release()

    def read(self, timeout: float | None) -> tuple[bool, Any] | None:
        """The capture's next ``(ok, image)``, or None when none came within ``timeout``
        seconds (then this reader is closed: open a new capture)."""
        self._asks.put(True)
        try:
            return self._answers.get(timeout=timeout)
        except queue.Empty:
            self.close()
            return None

    def close(self) -> None:
        self._asks.put(False)


class CaptureSource(FrameSource):
    """A live camera (``0``, ``1``...) or network stream (``http://.../video``, ``rtsp://...``).

    Frames are stamped with ``clock()`` (monotonic seconds) when they arrive. When the device
    stops delivering (failed reads, or no new picture for ``freeze_after`` seconds: a stream
    frozen with its connection open), ``on_status`` is told at once ("Camera lost,
    reconnecting…") and the source reopens it every ``retry_every`` seconds until it comes back
    ("Camera back …"; the next frame's ``gap`` says how long it was away) or ``give_up_after``
    passes, so the game goes on where it was: the tracker and the log never see the gap as
    cards moving.

    A webcam is named as the system names it (``camera 0 (HD Webcam)``); ``mode`` is what it
    granted (size, rate, backend), said once to ``on_status`` when it opens. One that cannot be
    opened raises `CameraError`, saying why and what to do.
    """

    live = True

    def __init__(self, spec: int | str, *,
                 opener: Callable[[int | str], Capture | None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 retry_every: float = 1.0, give_up_after: float | None = None,
                 fail_after: int = 5, freeze_after: float | None = 5.0,
                 on_status: Callable[[str], None] | None = None) -> None:
        self.spec = spec
        self.name = str(spec)
        if isinstance(spec, int):
            label = camera_name(spec)
            self.name = f"camera {spec}" + (f" ({label})" if label else "")
        #: What the device granted when it opened (None when it does not say).
        self.mode: CameraMode | None = None
        self._opener = opener or _default_opener
        self._clock = clock
        self._sleep = sleep
        self.retry_every = retry_every
        self.give_up_after = give_up_after
        self.fail_after = fail_after
        self.freeze_after = freeze_after
        self.on_status = on_status
        self.statuses: list[str] = []
        self.reconnects = 0
        self._closed = False
        self._i = 0
        self._last_t: float | None = None   # when the last frame came
        self._reader: _TimedReader | None = None
        self._open()
        if self._reader is None:
            why = (camera_problem(spec) if isinstance(spec, int)
                   else "is the address right, and the stream running?")
            raise CameraError(f"cannot open {self.name}: {why}")
        if self.mode is not None:
            small = (" — a small picture: cards far from the camera may be unreadable"
                     if self.mode.small else "")
            self._say(f"Camera opened: {self.name}, {self.mode}{small}", logging.INFO)

    def _say(self, text: str, level: int = logging.WARNING) -> None:
        self.statuses.append(text)
        _log.log(level, "%s", text)
        if self.on_status is not None:
            self.on_status(text)

    def _open(self) -> bool:
        try:
            cap = self._opener(self.spec)
        except Exception as exc:  # noqa: BLE001 - a driver error is just "not available now"
            log_failure(f"camera {self.spec!r} could not be opened", exc)   # once, then counted
            return False
        if cap is None or not cap.isOpened():
            if cap is not None:
                cap.release()
            return False
        self.mode = capture_mode(cap)
        self._reader = _TimedReader(cap, self.name)
        return True

    def _drop(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def read(self) -> Frame | None:
        failures = 0
        lost_at: float | None = None
        why = ""
        while not self._closed:
            reader = self._reader   # close() may drop it from another thread meanwhile
            if reader is not None:
                got = reader.read(self.freeze_after)
                if got is None:  # frozen: the capture hangs on to an open connection
                    self._reader = None
                    why = f": no new picture for {self.freeze_after:g} s"
                else:
                    ok, img = got
                    if ok and img is not None:
                        now = self._clock()
                        gap = 0.0
                        if lost_at is not None:
                            gap = now - (self._last_t if self._last_t is not None else lost_at)
                            self.reconnects += 1
                            self._say(f"Camera back ({self.name}, after {gap:.1f} s without "
                                      f"a picture)")
                        frame = Frame(img, now, self._i, gap)
                        self._i += 1
                        self._last_t = now
                        return frame
                    failures += 1
                    if failures < self.fail_after:
                        continue
                    self._drop()
                    why = ""
            if lost_at is None:
                lost_at = self._clock()
                self._say(f"Camera lost, reconnecting… ({self.name}{why})")
            if self.give_up_after is not None and self._clock() - lost_at > self.give_up_after:
                self.ended_early = (f"{self.name} gave no picture for "
                                    f"{self.give_up_after:.0f} s")
                self._say(f"Camera gave up ({self.ended_early})")
                return None
            if not self._open():
                self._sleep(self.retry_every)
            failures = 0
        return None

    def close(self) -> None:
        self._closed = True
        self._drop()
