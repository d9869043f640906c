"""A webcam's noise averaged away where the table lies still.

A card lying on the table is seen in many frames, each with its own sensor noise. Averaged
over the frames since that part of the picture last changed, the noise shrinks with the
square root of their number while the card stays as sharp as in one frame: a cheap webcam in
a dim room then shows the reader the corner indices a good camera would (`StillAverage`).
Where anything moves (a hand, a card landing) the picture is the frame itself, so what
changes is seen as soon as before.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.readers.detector import despeckled


class StillAverage:
    """Each frame made the mean of the last ``depth`` frames wherever the picture has not
    changed since, block by block (``block`` pixels square), the frame itself elsewhere.

    A block has changed when, smoothed 5 x 5, the frame differs anywhere in it from the
    running mean by more than ``sigmas`` times the noise (estimated on the whole frame each
    time: most of a table lies still) and at least ``min_diff`` grey levels; it and the
    blocks around it then start again from this frame. Salt-and-pepper specks are
    median-filtered out of a frame before it is averaged (`despeckled`). A frame of another
    size starts everything again.
    """

    def __init__(self, depth: int = 8, block: int = 16, sigmas: float = 5.0,
                 min_diff: float = 12.0) -> None:
        if depth < 1 or block < 2:
            raise ValueError("depth must be at least 1 and block at least 2")
        self.depth, self.block = int(depth), int(block)
        self.sigmas, self.min_diff = float(sigmas), float(min_diff)
        self._shape: tuple[int, ...] | None = None
        self._ring = np.zeros((0,), np.uint8)
        self._slot = 0
        self._sum = np.zeros((0,), np.float32)
        self._age = np.zeros((0,), np.int32)

    def reset(self) -> None:
        """Forget every frame seen (the camera moved, or a new source)."""
        self._shape = None

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        frame = despeckled(frame)
        if frame.ndim != 3 or self.depth == 1:
            return frame
        if frame.shape != self._shape:
            self._start(frame)
            return frame
        h, w = frame.shape[:2]
        bh, bw = self._age.shape
        mean = self._mean()
        grey_in = cv2.blur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5)).astype(np.float32)
        grey_mean = cv2.blur(cv2.cvtColor(mean, cv2.COLOR_BGR2GRAY), (5, 5)).astype(np.float32)
        diff = np.abs(grey_in - grey_mean)
        noise = 1.4826 * float(np.median(diff))  # the smoothed noise, where nothing moved
        limit = max(self.min_diff, self.sigmas * noise)
        pad = np.zeros((bh * self.block, bw * self.block), np.float32)
        pad[:h, :w] = diff
        worst = pad.reshape(bh, self.block, bw, self.block).max(axis=(1, 3))
        changed = cv2.dilate((worst > limit).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        age = self._age
        age[changed] = 0
        # Where a block holds ``depth`` frames already, the oldest (in this slot) leaves it.
        full = self._pixels(age >= self.depth)
        old = self._ring[self._slot].astype(np.float32)
        restart = self._pixels(changed)
        self._sum[restart] = 0.0
        self._sum -= old * full[:, :, None]
        self._sum += frame
        self._ring[self._slot] = frame
        self._slot = (self._slot + 1) % self.depth
        np.minimum(age + 1, self.depth, out=age)
        return self._mean()

    def _start(self, frame: np.ndarray) -> None:
        h, w = frame.shape[:2]
        self._shape = frame.shape
        self._ring = np.zeros((self.depth, *frame.shape), np.uint8)
        self._ring[0] = frame
        self._slot = 1 % self.depth
        self._sum = frame.astype(np.float32)
        self._age = np.ones((-(-h // self.block), -(-w // self.block)), np.int32)

    def _pixels(self, blocks: np.ndarray) -> np.ndarray:
        """A per-block array spread over the frame's pixels."""
        assert self._shape is not None
        h, w = self._shape[:2]
        spread = np.repeat(np.repeat(blocks, self.block, axis=0), self.block, axis=1)
        return np.asarray(spread[:h, :w])

    def _mean(self) -> np.ndarray:
        ages = self._pixels(self._age).astype(np.float32)
        return np.clip(self._sum / ages[:, :, None] + 0.5, 0, 255).astype(np.uint8)
