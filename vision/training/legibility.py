"""Whether a rendered corner index can still be read once the camera has spoilt it.

A scene labels an index as readable from the table alone (enough of it uncovered, inside the
frame). Lighting, blur, noise, a grey cast and a low-resolution camera are applied afterwards,
and can leave a labelled index a smudge no person could read; such labels teach the index
heads noise and ask the benchmarks for the impossible. An index stays labelled only when:

- it is tall enough in the final frame (`MIN_INDEX_PX`): below that its rank is a few pixels;
- enough of its stroke detail survives (`MIN_STRUCTURE`, more for small indices): the
  correlation between the fine detail of the index cut upright from the clean frame and of
  the same index cut from the spoilt frame. Blur and noise lower it; a uniform dimming or
  grey cast alone does not (the correlation is normalised), unless it sinks the ink into the
  8-bit floor or the noise.

The thresholds were set by eye on 687 indices of rendered training scenes, sorted by each
measure: below them nearly every index is a smudge, above them nearly every one is read.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: The least height (pixels of the final frame) of a readable index, rank and suit together.
MIN_INDEX_PX = 10.0
#: The least share of fine detail kept (`structure_kept`) for a readable index; below
#: `SMALL_INDEX_PX` an index has so few pixels that it needs `MIN_STRUCTURE_SMALL`.
MIN_STRUCTURE = 0.75
SMALL_INDEX_PX = 16.0
MIN_STRUCTURE_SMALL = 0.9
#: The scale (pixels of a cut) above which detail is the blob, not the strokes.
DETAIL_SIGMA = 3.0
#: The size (width, height) both cuts are compared at: about an index's aspect.
CUT = (24, 40)


def _grey(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img


def upright_index(grey: np.ndarray, quad: np.ndarray, size: tuple[int, int] = CUT
                  ) -> np.ndarray:
    """The index inside ``quad`` (corners in reading order) warped upright to ``size``."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(grey, m, (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)


def index_height(quad: np.ndarray) -> float:
    """The index's height in pixels: the mean length of its two upright sides."""
    q = np.asarray(quad, np.float32)
    return float((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2)


def structure_kept(clean: np.ndarray, spoilt: np.ndarray) -> float:
    """How much of an index's stroke detail survives, from two upright cuts of it: the
    normalised correlation of their fine detail (each cut less its own blur, so that the
    blob an index blurs into counts for nothing; isolated specks of noise filtered out of
    the spoilt cut first, as an eye does). 1: unchanged; about 0: a smudge."""
    spoilt = cv2.medianBlur(spoilt.astype(np.uint8), 3).astype(np.float32)
    a = clean - cv2.GaussianBlur(clean, (0, 0), DETAIL_SIGMA)
    b = spoilt - cv2.GaussianBlur(spoilt, (0, 0), DETAIL_SIGMA)
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / den) if den > 1e-6 else 0.0


def legibility(clean_img: np.ndarray, spoilt_img: np.ndarray,
               clean_quads: Sequence[np.ndarray], spoilt_quads: Sequence[np.ndarray]
               ) -> list[tuple[float, float]]:
    """Per index: (height in the spoilt frame, structure kept), the same index given by its
    quad in the clean frame and in the spoilt one (which a stretch may have resized)."""
    a, b = _grey(clean_img), _grey(spoilt_img)
    return [(index_height(qs), structure_kept(upright_index(a, qc), upright_index(b, qs)))
            for qc, qs in zip(clean_quads, spoilt_quads, strict=True)]


def legible(clean_img: np.ndarray, spoilt_img: np.ndarray,
            clean_quads: Sequence[np.ndarray], spoilt_quads: Sequence[np.ndarray]
            ) -> list[bool]:
    """Per index: whether a person could still read it in the spoilt frame."""
    return [h >= MIN_INDEX_PX
            and s >= (MIN_STRUCTURE_SMALL if h < SMALL_INDEX_PX else MIN_STRUCTURE)
            for h, s in legibility(clean_img, spoilt_img, clean_quads, spoilt_quads)]
