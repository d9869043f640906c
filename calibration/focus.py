"""Is the camera in focus? An estimate of how soft a picture's edges are, and the warning
calibration gives when the board's print is too soft for the cards to be read.

A sharp edge blurred by a lens out of focus (or a cheap webcam's fixed focus at the wrong
distance) rises across some pixels: for a step of contrast C blurred by a Gaussian of
``sigma`` pixels, the steepest slope is C / (sigma * sqrt(2 pi)). `edge_blur` finds the
strongest edges of a picture, reads a short profile across each (three parallel lines
averaged, so that the sensor's grain counts less) and returns the median ``sigma`` that
their contrast and steepest slope imply. On rendered tables, one frame (`RenderConfig`
``blur``): drawn sharp it reads 0.55-0.6 px, blurred by 0.6 px about 0.75, and by 0.9 px or
more about the blur itself; a dim webcam's grain and specks move that by 0.1 at most.

On rendered webcam rounds the table's reading falls off as the focus goes soft
(`benchmarks/bench_still_average.py --blur B`, top cards read right and wrong readings a
frame, 8 frames averaged): in focus 0.986 / 0.003, blur 0.6 px 0.978 / 0.005, 0.9 px 0.949 /
0.049, 1.2 px 0.876 / 0.127 (models/INDEX.md, "Fifty-third session").
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: Pictures are judged at this longer side (pixels): the table's frames are read at about
#: this size, and a larger camera picture shrunk to it is as sharp as it will be read.
JUDGED_PX = 640

#: An edge estimate (`edge_blur`, at ``JUDGED_PX``) at or over this is out of focus enough
#: to misread cards: a blur of about 0.8 px or more on a sharp picture.
SOFT_FOCUS_PX = 0.9

#: Edges weaker than this (grey levels across them) are left out: the grain of a dim
#: webcam would make them look steeper than they are.
MIN_CONTRAST = 40.0

#: How far each side of an edge its profile is read (pixels).
REACH = 6


def edge_blur(frame: np.ndarray, mask: np.ndarray | None = None, max_edges: int = 2400
              ) -> float | None:
    """The median blur (a Gaussian's sigma, in pixels) of the strongest edges of ``frame``
    (BGR or grey) inside ``mask`` (bool, the frame's shape; None: everywhere); None when
    fewer than 20 clear edges are found (a blank wall, a black frame)."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    # Salt-and-pepper specks are the steepest "edges" of a cheap webcam's frame.
    g32 = cv2.medianBlur(np.ascontiguousarray(grey, np.uint8), 3).astype(np.float32)
    gx = cv2.Sobel(g32, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(g32, cv2.CV_32F, 0, 1, ksize=3) / 8
    mag = np.hypot(gx, gy)
    valid = np.zeros(mag.shape, bool)
    m = REACH + 2
    valid[m:-m, m:-m] = True
    if mask is not None:
        valid &= np.asarray(mask, bool)
    if not valid.any():
        return None
    top = max(float(np.percentile(mag[valid], 98)), 5.0)
    ys, xs = np.nonzero(valid & (mag >= top))
    if len(ys) > max_edges:
        pick = np.random.default_rng(0).choice(len(ys), max_edges, replace=False)
        ys, xs = ys[pick], xs[pick]
    if len(ys) < 20:
        return None
    nx, ny = gx[ys, xs] / mag[ys, xs], gy[ys, xs] / mag[ys, xs]
    along = np.arange(-REACH, REACH + 1, dtype=np.float32)  # across the edge
    beside = np.array([-1.0, 0.0, 1.0], np.float32)  # three parallel lines
    px = (xs[:, None, None] + nx[:, None, None] * along[None, None, :]
          - ny[:, None, None] * beside[None, :, None])
    py = (ys[:, None, None] + ny[:, None, None] * along[None, None, :]
          + nx[:, None, None] * beside[None, :, None])
    n = len(ys)
    prof = cv2.remap(g32, px.reshape(n, -1).astype(np.float32),
                     py.reshape(n, -1).astype(np.float32), cv2.INTER_LINEAR)
    prof = prof.reshape(n, len(beside), len(along)).mean(axis=1)
    contrast = prof[:, -2:].mean(axis=1) - prof[:, :2].mean(axis=1)
    steps = np.diff(prof, axis=1)
    centre = steps[:, REACH - 1:REACH + 1].max(axis=1)  # the two steps beside the edge
    # A true edge: a clear rise, steepest at its middle (not the flank of a thin line).
    ok = (contrast >= MIN_CONTRAST) & (centre > 0) & (centre >= steps.max(axis=1) - 1e-3)
    if int(ok.sum()) < 20:
        return None
    sigma = contrast[ok] / (centre[ok] * math.sqrt(2 * math.pi))
    return float(np.median(sigma))


def check_focus(frame: np.ndarray, board: np.ndarray | None = None) -> str | None:
    """A warning when ``frame``, judged on the board (its corners in frame pixels, (4, 2);
    None: the whole frame), is out of focus (`picture_blur` at ``SOFT_FOCUS_PX`` or more);
    None when it is sharp enough or no edge can be judged."""
    soft = picture_blur(frame, board)
    if soft is None or soft < SOFT_FOCUS_PX:
        return None
    return (f"the picture looks out of focus (the board's edges blur over about {soft:.1f} "
            "px): turn the webcam's focus ring, or move it, until the board's print is "
            "crisp; cards are misread in a soft picture")


def picture_blur(frame: np.ndarray, board: np.ndarray | None = None) -> float | None:
    """`edge_blur` of ``frame`` shrunk to ``JUDGED_PX`` on its longer side (never enlarged),
    judged inside ``board`` (its corners in frame pixels; None: the whole frame)."""
    h, w = frame.shape[:2]
    scale = min(1.0, JUDGED_PX / max(h, w))
    small = frame if scale == 1.0 else cv2.resize(
        frame, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    mask = None
    if board is not None:
        mask = np.zeros(small.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(np.asarray(board, np.float64) * scale).astype(np.int32)],
                     1)
    return edge_blur(small, None if mask is None else mask.astype(bool))
