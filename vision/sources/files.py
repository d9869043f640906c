"""Recorded sources: a folder of pictures and a video file, each frame stamped ``index / fps``. A
picture that cannot be used is skipped and said; a video file that ends before its last frame
says so (``ended_early``); both can `skip` frames (a game resumed where its log ends).
"""

from __future__ import annotations

import logging
from pathlib import Path

import cv2

from vision.images import ImageError, read_image
from vision.sources.frames import Frame, FrameSource

_log = logging.getLogger("companion.sources")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


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
