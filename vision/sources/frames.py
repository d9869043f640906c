"""What a frame source is: `Frame` (pixels stamped with their time), the `FrameSource` every
source is, frames from memory (`ArraySource`), and `LatestFrame`, which keeps only the newest
frame of a live source so that a slow consumer never lags.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Frame:
    """One camera frame: BGR pixels, its time in seconds (source clock) and its index.
    ``gap`` is how long the camera gave no picture just before this frame (seconds; 0 but
    after an outage): what happened on the table meanwhile was not seen."""

    image: np.ndarray
    t: float
    index: int
    gap: float = 0.0


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
