"""Frame sources: a webcam by index, a network stream (HTTP/MJPEG, RTSP), a video file, a folder
of images, frames in memory; every frame stamped with its time. A live source that drops out or
freezes is reported ("Camera lost, reconnecting…", then "Camera back") and reopened; a video file
that ends before its last frame says so; `LatestFrame` keeps only the newest frame so a slow
consumer never lags. A recorded source can `skip` frames (a game resumed where its log ends).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.diagnostics import log_failure
from vision.images import ImageError, read_image

_log = logging.getLogger("companion.sources")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


@dataclass(frozen=True)
class Frame:
    """One camera frame: BGR pixels, its time in seconds (source clock) and its index.
    ``gap`` is how long the camera gave no picture just before this frame (seconds; 0 but
    after an outage): what happened on the table meanwhile was not seen."""

    image: np.ndarray
    t: float
    index: int
    gap: float = 0.0


class Capture(Protocol):
    """What we use of ``cv2.VideoCapture`` (so tests can pass a fake camera)."""

    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's name
    def read(self) -> tuple[bool, Any]: ...
    def release(self) -> None: ...


class FrameSource:
    """Base of every source. ``live`` sources deliver frames in real time (cameras, streams):
    a consumer that falls behind must drop frames; recorded ones (files) can be read at will.
    """

    live: bool = False
    name: str = "source"
    #: Set when the source ended before its end (a file cut short, a camera given up on):
    #: a sentence saying where.
    ended_early: str | None = None

    def read(self) -> Frame | None:
        """The next frame, or None when the source has ended (or was closed)."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file (idempotent)."""

    def skip(self, count: int) -> int:
        """Pass over the next ``count`` frames without delivering them (a recorded game
        resumed where its log ends); returns how many there were."""
        passed = 0
        while passed < count and self.read() is not None:
            passed += 1
        return passed

    @property
    def fps(self) -> float | None:
        return None

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ArraySource(FrameSource):
    """Frames from memory (a list or an iterator of images), stamped ``index / fps``."""

    def __init__(self, images: Iterable[np.ndarray], fps: float = 10.0, name: str = "frames"
                 ) -> None:
        self._it = iter(images)
        self._fps = fps
        self._i = 0
        self.name = name

    @property
    def fps(self) -> float | None:
        return self._fps

    def read(self) -> Frame | None:
        try:
            img = next(self._it)
        except StopIteration:
            return None
        frame = Frame(img, self._i / self._fps, self._i)
        self._i += 1
        return frame


class ImageFolderSource(FrameSource):
    """Every image of a folder in name order, stamped ``index / fps``."""

    def __init__(self, folder: str | Path, fps: float = 10.0) -> None:
        self.folder = Path(folder)
        self.files = sorted(p for p in self.folder.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES)
        self._fps = fps
        self._i = 0
        self.name = str(self.folder)
        #: Why each picture that could not be used was skipped (too large, damaged).
        self.skipped: list[str] = []

    @property
    def fps(self) -> float | None:
        return self._fps

    def skip(self, count: int) -> int:
        passed = max(0, min(count, len(self.files) - self._i))
        self._i += passed
        return passed

    def read(self) -> Frame | None:
        while self._i < len(self.files):
            path = self.files[self._i]
            i = self._i
            self._i += 1
            try:
                img = read_image(path)      # its size checked from the header first
            except ImageError as exc:
                self.skipped.append(str(exc))
                _log.warning("%s; skipped", exc)
                continue
            return Frame(img, i / self._fps, i)
        return None


class VideoFileSource(FrameSource):
    """A video file, frame by frame, stamped with the file's own timeline (``index / fps``).

    A file that stops delivering frames before the count its header gives (cut short, or
    damaged) sets ``ended_early`` to a sentence saying where."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"no video file {self.path}")
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            raise OSError(f"cannot open video {self.path}")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self._fps = fps if fps > 0 else 30.0
        self._i = 0
        self.name = str(self.path)
        self.frame_count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)

    @property
    def fps(self) -> float | None:
        return self._fps

    def _ended(self) -> None:
        if self.ended_early is None and self._i < self.frame_count - 1:
            self.ended_early = (f"the video {self.path} ended at frame {self._i} of "
                                f"{self.frame_count} (cut short or damaged?)")
            _log.warning("%s", self.ended_early)

    def skip(self, count: int) -> int:
        passed = 0
        while passed < count and self._cap.grab():   # no conversion of the skipped pictures
            passed += 1
            self._i += 1
        if passed < count:
            self._ended()
        return passed

    def read(self) -> Frame | None:
        ok, img = self._cap.read()
        if not ok or img is None:
            self._ended()
            return None
        frame = Frame(img, self._i / self._fps, self._i)
        self._i += 1
        return frame

    def close(self) -> None:
        self._cap.release()


def _default_opener(spec: int | str) -> Capture:
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
    """

    live = True

    def __init__(self, spec: int | str, *, opener: Callable[[int | str], Capture] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 retry_every: float = 1.0, give_up_after: float | None = None,
                 fail_after: int = 5, freeze_after: float | None = 5.0,
                 on_status: Callable[[str], None] | None = None) -> None:
        self.spec = spec
        self.name = f"camera {spec}" if isinstance(spec, int) else str(spec)
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
            raise OSError(f"cannot open {self.name}")

    def _say(self, text: str) -> None:
        self.statuses.append(text)
        _log.warning("%s", text)
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


class LatestFrame:
    """Reads a source on a background thread and keeps only the newest frame.

    `get` returns the newest frame not handed out yet, so a consumer slower than the camera
    skips stale frames (counted in ``dropped``) instead of falling further and further behind.
    """

    def __init__(self, source: FrameSource) -> None:
        self.source = source
        self.dropped = 0
        self.read_count = 0
        self._frame: Frame | None = None
        self._ended = False
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="frame-reader", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            frame = self.source.read()
            with self._cond:
                if frame is None:
                    self._ended = True
                    self._cond.notify_all()
                    return
                if self._frame is not None:
                    self.dropped += 1
                self._frame = frame
                self.read_count += 1
                self._cond.notify_all()

    def get(self, timeout: float | None = None) -> Frame | None:
        """The newest unseen frame; None when the source ended (or on timeout)."""
        with self._cond:
            if self._frame is None and not self._ended:
                self._cond.wait_for(lambda: self._frame is not None or self._ended, timeout)
            frame, self._frame = self._frame, None
            return frame

    @property
    def ended(self) -> bool:
        return self._ended and self._frame is None

    def close(self) -> None:
        self._stop.set()
        self.source.close()
        self._thread.join(timeout=2.0)


def parse_source(spec: str | int, *, game: str | None = None,
                 players: Sequence[str] | None = None,
                 on_status: Callable[[str], None] | None = None) -> FrameSource:
    """Open a source from what a user types: ``0`` (webcam index), a URL (``http://``,
    ``rtsp://``), a folder of images, a video file, or ``demo`` / ``demo:GAME:SEED[:ROUNDS]``
    (the rendered demo table, e.g. ``demo:oh-claire:3``; ``demo:michigan-rummy:3:2`` plays two
    rounds). The demo table plays ``game`` (when the spec names none) with ``players`` when
    they are given. A camera or stream tells ``on_status`` when it is lost and back."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CaptureSource(int(spec), on_status=on_status)
    text = str(spec).strip()
    if text == "demo" or text.startswith("demo:"):
        from vision.table_render import demo_source

        demo_game, numbers = game or "michigan-rummy", []
        for part in text.split(":")[1:]:
            if part.isdigit():
                numbers.append(int(part))
            elif part:
                demo_game = part
        seed, rounds = (numbers + [0, 1])[0], (numbers[1:] + [1])[0]
        if len(numbers) > 2 or rounds < 1:
            raise ValueError(f"a demo table is demo:GAME:SEED:ROUNDS (rounds at least 1), "
                             f"not {text!r}")
        return demo_source(seed, game=demo_game, players=players, rounds=rounds)[0]
    if "://" in text:
        return CaptureSource(text, on_status=on_status)
    path = Path(text)
    if path.is_dir():
        return ImageFolderSource(path)
    if path.is_file():
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return ArraySource([read_image(path)], name=str(path))   # ImageError: why not
        return VideoFileSource(path)
    raise FileNotFoundError(f"no camera, stream, folder or file called {text!r}")
