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

from vision.readers.detector import IMPULSE_SHARE, impulses

#: How many frames the table's pipeline averages where the picture lies still
#: (`vision.pipeline.table.TablePipeline` ``average``; 0: none). Measured in models/INDEX.md,
#: "Fifty-first session".
AVERAGE_FRAMES = 8


class StillAverage:
    """Each frame made the mean of the last ``depth`` frames wherever the picture has not
    changed since, block by block (``block`` pixels square), the frame itself elsewhere.

    A block has changed when, smoothed 5 x 5, the frame differs anywhere in it, in any colour,
    from the frame before by more than ``sigmas`` times the noise (estimated each time from
    the quietest quarter of the frame), by at least ``min_diff`` levels and, however noisy
    the frame, by ``max_diff`` at most; it and the blocks around it then start again from
    this frame.
    Salt-and-pepper specks are taken out of a frame before it is averaged (`without_specks`).
    A frame of another size starts everything again.

    Each picture given out depends on the last ``depth`` + 1 frames alone (the sums are of
    whole grey levels, exact in float32): a recorded game gone on with after a stop, its last
    frames shown again first, reads on exactly as it would have without the stop.
    """

    def __init__(self, depth: int = 8, block: int = 16, sigmas: float = 5.0,
                 min_diff: float = 12.0, max_diff: float = 40.0) -> None:
        if depth < 1 or block < 2:
            raise ValueError("depth must be at least 1 and block at least 2")
        self.depth, self.block = int(depth), int(block)
        self.sigmas = float(sigmas)
        self.min_diff, self.max_diff = float(min_diff), float(max_diff)
        self._shape: tuple[int, ...] | None = None
        self._ring = np.zeros((0, 0, 0, 0), np.uint8)  # the last ``depth`` frames
        self._slot = 0  # where the next frame goes (the oldest one's place)
        self._sum = np.zeros((0, 0, 0), np.float32)  # per pixel, its block's frames summed
        self._age = np.zeros((0, 0), np.int32)  # per block, how many frames it sums
        self._last: np.ndarray = np.zeros((0, 0, 0), np.uint8)  # the frame before, smoothed

    def reset(self) -> None:
        """Forget every frame seen (the camera moved, or a new source)."""
        self._shape = None

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        frame = without_specks(frame)
        if frame.ndim != 3 or frame.shape[2] != 3 or self.depth == 1:
            return frame  # (a grey or BGRA frame is read as it came)
        if frame.shape != self._shape:
            self._start(frame)
            return frame
        h, w = frame.shape[:2]
        bh, bw = self._age.shape
        smooth = cv2.blur(frame, (5, 5))
        b, g, r = cv2.split(cv2.absdiff(smooth, self._last))
        diff = cv2.max(cv2.max(b, g), r)  # (a sleeve as bright as the cloth, but red)
        self._last = smooth
        # The smoothed noise where nothing moved, from the quietest quarter of the frame (a
        # quarter of |N(0, s)| lies under 0.319 s): an arm across most of the table moves
        # more than half of it, and no change may hide under a noise made of its own motion.
        noise = float(np.percentile(diff[::4, ::4], 25)) / 0.3186
        limit = min(max(self.min_diff, self.sigmas * noise), self.max_diff)
        pad = np.zeros((bh * self.block, bw * self.block), np.uint8)
        pad[:h, :w] = diff
        worst = pad.reshape(bh, self.block, bw, self.block).max(axis=(1, 3))
        changed = cv2.dilate((worst > limit).astype(np.uint8), np.ones((3, 3), np.uint8))
        age = self._age
        age[changed > 0] = 0
        # (OpenCV's masked arithmetic, the same sums: with numpy's masked subtraction and
        # broadcast products a 640x480 frame took 10-16 ms here, now 6-7 on two cores,
        # `benchmarks/bench_denoise.py`.)
        if changed.any():
            # Those blocks start again from this frame (a sum less itself is 0).
            restart = self._pixels(changed)
            cv2.subtract(self._sum, self._sum, dst=self._sum, mask=restart)
        # Where a block holds ``depth`` frames already, the oldest (in this slot) leaves it.
        full = self._pixels((age >= self.depth).astype(np.uint8))
        if full.any():
            cv2.subtract(self._sum, self._ring[self._slot], dst=self._sum, mask=full,
                         dtype=cv2.CV_32F)
        cv2.add(self._sum, frame, dst=self._sum, dtype=cv2.CV_32F)
        self._ring[self._slot] = frame
        self._slot = (self._slot + 1) % self.depth
        np.minimum(age + 1, self.depth, out=age)
        ages = self._pixels(age.astype(np.float32))
        return np.asarray(cv2.convertScaleAbs(cv2.divide(self._sum, cv2.merge([ages] * 3))))

    def _start(self, frame: np.ndarray) -> None:
        h, w = frame.shape[:2]
        self._shape = frame.shape
        self._ring = np.zeros((self.depth, *frame.shape), np.uint8)
        self._ring[0] = frame
        self._slot = 1 % self.depth
        self._sum = frame.astype(np.float32)
        self._age = np.ones((-(-h // self.block), -(-w // self.block)), np.int32)
        self._last = cv2.blur(frame, (5, 5))

    def _pixels(self, blocks: np.ndarray) -> np.ndarray:
        """A per-block array (uint8 or float32) spread over the frame's pixels."""
        assert self._shape is not None
        h, w = self._shape[:2]
        bh, bw = blocks.shape
        spread = cv2.resize(blocks, (bw * self.block, bh * self.block),
                            interpolation=cv2.INTER_NEAREST)
        return np.asarray(spread[:h, :w])


def without_specks(frame: np.ndarray) -> np.ndarray:
    """The frame with its salt-and-pepper specks (`impulses`: a pixel brighter or darker than
    all eight around it by more than `IMPULSE_DIFF`) each replaced by the median of the nine,
    where more than `IMPULSE_SHARE` of the pixels are such specks; every other pixel as it
    was.

    Only the specks change: a median filter over the whole frame (what the reader does to a
    view it reads, `vision.readers.detector.despeckled`) would also thin the strokes of a far
    seat's small index before its zone is enlarged to be read (a club then reads as a
    spade).
    """
    specks = impulses(frame)
    if np.count_nonzero(specks) <= IMPULSE_SHARE * specks.size:
        return frame
    out = frame.copy()
    cv2.copyTo(cv2.medianBlur(frame, 3), specks.view(np.uint8), out)
    return out
