"""Which zones changed picture and came to rest (`ZoneChanges`): a card laid where the table
reader read nothing new is still a change in the picture of that zone, and the pipeline then
reads the zone again with its second look (`Questions._look_at_changes`).

Each zone is watched as a small grey thumbnail of its bounding box (area-averaged, so camera
noise and a one-pixel shake wash out). A zone is *at rest* when its thumbnail stays the same
for `still_frames` frames; it *changed* when the picture it rests in differs from the one it
rested in before. A hand passing over a zone and leaving it as it was is no change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

import cv2
import numpy as np

#: Thumbnail side (pixels) a zone's picture is reduced to.
SIDE = 24
#: Mean absolute grey difference (0-255) under which two thumbnails are the same picture.
STILL_DIFF = 3.0
#: Mean absolute grey difference over which a zone at rest shows another picture than before.
CHANGE_DIFF = 6.0
#: Grey difference (0-255) over which a thumbnail pixel counts as changed (`changed_share`).
PIXEL_CHANGE = 20.0
#: Pixels a zone's box may shift when the board is fitted again before the zone is watched
#: at its new place (`ZoneChanges.follow`): a fit's own jitter is no move.
MOVED_PX = 3
#: How many of each zone's last moves and new pictures come to rest are kept (`motions`,
#: `landings`).
KEPT = 16


class ZoneChanges:
    """Watches the zones ``boxes`` (image pixels, x1 y1 x2 y2 each) frame by frame;
    `update` says which came to rest in another picture than before."""

    def __init__(self, boxes: Sequence[tuple[int, int, int, int]], still_frames: int = 3,
                 still_diff: float = STILL_DIFF, change_diff: float = CHANGE_DIFF) -> None:
        self.boxes = list(boxes)
        self.still_frames = still_frames
        self.still_diff = still_diff
        self.change_diff = change_diff
        n = len(self.boxes)
        self._last: list[np.ndarray | None] = [None] * n
        self._still: list[int] = [0] * n
        self._rest: list[np.ndarray | None] = [None] * n
        # (the picture each zone rested in before its last rest, and when it came to rest)
        self._before: list[np.ndarray | None] = [None] * n
        self._rested: list[float] = [float("-inf")] * n
        # (when each zone last began to move after a rest, and came to rest in a new picture)
        self._motions: list[deque[float]] = [deque(maxlen=KEPT) for _ in range(n)]
        self._landings: list[deque[float]] = [deque(maxlen=KEPT) for _ in range(n)]

    @classmethod
    def of_polygons(cls, polygons: Sequence[np.ndarray], shape: tuple[int, int],
                    **kwargs: float) -> ZoneChanges:
        """From zone polygons in image pixels, clipped to a frame of ``shape`` (h, w)."""
        return cls(_boxes(polygons, shape), **kwargs)  # type: ignore[arg-type]

    def follow(self, polygons: Sequence[np.ndarray], shape: tuple[int, int], t: float,
               tolerance: int = MOVED_PX) -> list[int]:
        """The camera moved (the board was fitted again): watch each zone at its new place,
        from ``polygons`` (image pixels) in frames of ``shape`` (h, w). A zone whose box
        moved by more than ``tolerance`` pixels began to move at ``t`` (its picture is
        another), and its next rest is its starting picture again, not a change. Those
        zones."""
        moved = []
        for z, box in enumerate(_boxes(polygons, shape)):
            if max(abs(a - b) for a, b in zip(box, self.boxes[z], strict=True)) <= tolerance:
                continue
            moved.append(z)
            self.boxes[z] = box
            self._last[z] = self._rest[z] = None
            self._moves(z, t)
        return moved

    def _moves(self, zone: int, t: float) -> None:
        """``zone`` 's picture changes at ``t``: where it was at rest, it began to move."""
        if self._still[zone] >= self.still_frames:
            self._motions[zone].append(t)
        self._still[zone] = 0

    def thumbnail(self, frame: np.ndarray, zone: int) -> np.ndarray | None:
        x1, y1, x2, y2 = self.boxes[zone]
        if x2 - x1 < 2 or y2 - y1 < 2:
            return None  # outside the frame
        crop = frame[y1:y2, x1:x2]
        grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
        return cv2.resize(grey, (SIDE, SIDE), interpolation=cv2.INTER_AREA).astype(np.float32)

    def update(self, frame: np.ndarray, zones: Sequence[int] | None = None,
               t: float = 0.0) -> list[int]:
        """The zones (of ``zones``, default all) that have just come to rest in a picture
        other than the one they rested in before, in ``frame``, taken at time ``t``. The first
        rest of a zone is its starting picture, not a change."""
        changed = []
        for z in range(len(self.boxes)) if zones is None else zones:
            thumb = self.thumbnail(frame, z)
            if thumb is None:
                continue
            last = self._last[z]
            self._last[z] = thumb
            if last is None or float(np.abs(thumb - last).mean()) > self.still_diff:
                self._moves(z, t)
                continue
            self._still[z] += 1
            if self._still[z] != self.still_frames:
                continue
            rest = self._rest[z]
            self._before[z], self._rest[z], self._rested[z] = rest, thumb, t
            if rest is not None and float(np.abs(thumb - rest).mean()) > self.change_diff:
                changed.append(z)
                self._landings[z].append(t)
        return changed

    def moved_at(self, zone: int) -> float:
        """When ``zone`` last began to move after being at rest (-inf: never yet)."""
        motions = self._motions[zone]
        return motions[-1] if motions else float("-inf")

    def motions(self, zone: int) -> list[float]:
        """When ``zone`` began to move after a rest, its last `KEPT` times, oldest first."""
        return list(self._motions[zone])

    def landings(self, zone: int) -> list[float]:
        """When ``zone`` came to rest in a picture other than the one it rested in before (a
        card laid, most often), its last `KEPT` times, oldest first."""
        return list(self._landings[zone])

    def at_rest_since(self, zone: int) -> float | None:
        """When ``zone`` came to rest in the picture it shows now, where it is at rest now
        (the last `still_frames` frames alike and none changed since): whatever lies there
        lay there already then. None where it is not at rest."""
        if self._still[zone] < self.still_frames:
            return None
        return self._rested[zone]

    def changed_share(self, frame: np.ndarray, zone: int, since: float) -> float | None:
        """The share of ``zone`` 's picture (its thumbnail's pixels) that differs from the
        picture it rested in before ``since``, by more than `PIXEL_CHANGE`: ``frame`` 's
        against its last rest or, where it came to rest again at ``since`` or later, that
        rest against the one before. None where it has not rested so yet."""
        if self._rested[zone] >= since:
            now, before = self._rest[zone], self._before[zone]
        else:
            now, before = self.thumbnail(frame, zone), self._rest[zone]
        if now is None or before is None:
            return None
        return float((np.abs(now - before) > PIXEL_CHANGE).mean())


def _boxes(polygons: Sequence[np.ndarray], shape: tuple[int, int]
           ) -> list[tuple[int, int, int, int]]:
    """The bounding box (x1 y1 x2 y2) of each polygon, clipped to a frame of ``shape``."""
    h, w = shape
    boxes = []
    for poly in polygons:
        x1, y1 = np.floor(poly.min(axis=0)).astype(int)
        x2, y2 = np.ceil(poly.max(axis=0)).astype(int)
        boxes.append((max(0, int(x1)), max(0, int(y1)), min(w, int(x2)), min(h, int(y2))))
    return boxes
