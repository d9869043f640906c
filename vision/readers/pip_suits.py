"""The suit within a colour from a card's pips: the shapes printed in the middle of an ace or
a number card (2-10), which are many times larger than the pip of its corner index.

On a deck the heads never learnt, a corner index's suit pip may be 4-5 px at the table, and
hearts and diamonds, clubs and spades, are then told apart by little more than colour
(tigullio's A♦, read as A♥ at 0.9 in every frame of a round: the corner pip small, the
middle pip a plain diamond 15 px wide). A pip's outline tells them apart on any deck: a
diamond is a convex four-sided shape that fills its tightest rectangle by half, a heart has a
notch and fills it more; a club is three lobes on a stem, a spade one. The model is two
logistic regressions (diamond or heart, club or spade) on rotation-free measures of each pip's
outline (`pip_features`), trained on rendered cards of the training designs only
(`vision.training.train_pip_suits`, `models/pip_suits.json`).

It votes only within a colour (`PipSuits.vote`): the likelier suit of each colour keeps its
weight and the other is weighed down, so whether a card is red or black stays the other
readers' word, as does its rank. It gives no vote where the box shows no light face with
enclosed pips (a dark-faced deck, a card back, a box the frame's edge cuts through its pips).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.lookalikes import COURTS
from vision.readers.index_heads import MODELS

#: The two questions the model answers, each (name, the suit a positive answer means, the
#: other suit of that colour).
PAIRS = (("DH", "D", "H"), ("CS", "C", "S"))

#: How many measures `pip_features` takes of one pip.
FEATURES = 10

#: The least area (pixels) of a pip that is measured: smaller outlines are a few pixels'
#: staircase, not a shape.
MIN_PIP_AREA = 20

#: A pip is one of the box's largest enclosed shapes: at least this share of the largest
#: one's area (the middle pips of a number card are all one size, the index's smaller).
PIP_SHARE = 0.5

#: A pip is about as wide as it is tall at any angle; a longer shape is a card's edge, a
#: stroke of a court's picture or a line of text (a stripe of a court card beside tigullio's
#: A♦, 4 times as long as wide and 3 times the diamond's area, hid it).
MAX_PIP_ASPECT = 2.0

#: The least share of a box that must be light face (paper) for its pips to be read: below
#: it the box is a dark-faced card, a card back or mostly table.
MIN_PAPER = 0.3

#: How far one card's vote may go: its log-odds are clipped to this (a probability of
#: 0.047 to 0.953), so a sure reading of the other readers still outweighs it.
MAX_LOGIT = 3.0

#: How many of a card's pips count as independent votes: its pips' mean log-odds times the
#: square root of at most this many (the pips of one card are printed alike; their
#: measures are not independent).
MAX_VOTES = 4


#: `tints_clash`: a tint (Lab a, b distance from the light face's) this small is plain ink
#: (black, grey); one this large is coloured ink. Set by hand, not fitted: black ink measured
#: about 0 and red 49-70 on rendered cards of the held-out designs; the indices boxed with a
#: neighbour's red 7 in a rendered tigullio table frame (Great Lakes 2506) 29 and 37.
PLAIN_TINT = 6.0
STRONG_TINT = 18.0

#: The fewest ink and light-face pixels an index's crop needs for its tint (`ink_tint`).
MIN_TINT_PIXELS = 8


def pip_model_path() -> Path:
    return MODELS / "pip_suits.json"


def available() -> bool:
    return pip_model_path().exists()


def pip_masks(crop: np.ndarray, min_area: int = MIN_PIP_AREA) -> list[np.ndarray]:
    """The pips of a card box's picture (BGR): the shapes printed on its light face that
    lie wholly inside the box and are about as wide as tall (``MAX_PIP_ASPECT``), each as a
    0/1 mask of its own bounding box, the largest ones only (``PIP_SHARE``); [] where the
    box shows too little light face (``MIN_PAPER``)."""
    found = _pips(crop, min_area)
    if found is None:
        return []
    labels, stats, kept, _paper = found
    out = []
    for k in kept:
        x, y, bw, bh = (int(v) for v in stats[k, :4])
        out.append((labels[y:y + bh, x:x + bw] == k).astype(np.uint8))
    return out


def _pips(crop: np.ndarray, min_area: int = MIN_PIP_AREA
          ) -> tuple[np.ndarray, np.ndarray, list[int], np.ndarray] | None:
    """`pip_masks`' pips: the ink's component labels, their stats, the pips' labels, and
    the light face's mask; None where there are none."""
    if min(crop.shape[:2]) < 8:
        return None
    face = _face(crop)
    if face is None or face[1].mean() < MIN_PAPER:
        return None
    ink, paper = face
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink)
    h, w = ink.shape
    keep = [k for k in range(1, n)
            if stats[k, cv2.CC_STAT_AREA] >= min_area
            and stats[k, 0] > 0 and stats[k, 1] > 0
            and stats[k, 0] + stats[k, 2] < w and stats[k, 1] + stats[k, 3] < h
            and max(stats[k, 2], stats[k, 3]) <= MAX_PIP_ASPECT * min(stats[k, 2], stats[k, 3])]
    if not keep:
        return None
    largest = max(int(stats[k, cv2.CC_STAT_AREA]) for k in keep)
    kept = [k for k in keep if stats[k, cv2.CC_STAT_AREA] >= PIP_SHARE * largest]
    return labels, stats, kept, paper


def pip_tint(crop: np.ndarray) -> tuple[float, float] | None:
    """The tint of a card box's pips (`pip_masks`, two or more): the median over its pips of
    their ink's mean (a, b) in CIE Lab less the light face's median, so that a colour cast
    of the light or camera counts for nothing (black ink about (0, 0), red ink a large
    positive a), nor does a neighbour's suit sign in the box as large as a pip. None where
    fewer than two pips show."""
    found = _pips(crop)
    if found is None or len(found[2]) < 2:
        return None
    labels, _stats, kept, paper = found
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    tints = np.array([_tint(lab, labels == k, paper) for k in kept])
    a, b = np.median(tints, axis=0)
    return float(a), float(b)


def ink_tint(crop: np.ndarray) -> tuple[float, float] | None:
    """The tint (as `pip_tint`) of the ink in a corner index's picture: its pixels darker
    or more coloured than its light face, in shapes clear of the picture's edge (the table
    round a card's corner, a neighbour cut by the box). None where it shows too little of
    either."""
    found = _clear_ink(crop)
    if found is None or found[0].sum() < MIN_TINT_PIXELS:
        return None
    return _tint(cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32), *found)


def glyph_tints(crop: np.ndarray, orient: int
                ) -> tuple[tuple[float, float] | None, tuple[float, float] | None]:
    """The tints (as `ink_tint`) of the upper and the lower half of a corner index's picture
    turned upright (``orient``: quarter turns its top points clockwise from up): its rank's
    ink and its suit sign's. Either None where that half shows too little ink."""
    up = np.ascontiguousarray(np.rot90(crop, orient)) if crop.ndim == 3 else crop
    found = _clear_ink(up)
    if found is None:
        return None, None
    clear, paper = found
    lab = cv2.cvtColor(up, cv2.COLOR_BGR2LAB).astype(np.float32)
    half = up.shape[0] // 2
    tints: list[tuple[float, float] | None] = []
    for part in (slice(0, half), slice(half, up.shape[0])):
        ink = np.zeros_like(clear)
        ink[part] = clear[part]
        tints.append(_tint(lab, ink, paper) if ink.sum() >= MIN_TINT_PIXELS else None)
    return tints[0], tints[1]


def _clear_ink(crop: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The ink of a picture in shapes clear of its edge, and its light face (masks); None
    where it shows too little light face."""
    if min(crop.shape[:2]) < 4:
        return None
    face = _face(crop)
    if face is None or face[1].sum() < MIN_TINT_PIXELS:
        return None
    ink, paper = face
    _n, labels = cv2.connectedComponents(ink)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    return (labels > 0) & ~np.isin(labels, edge), paper


def _face(crop: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """A picture's ink (0/1: darker or more coloured than its light face) and its light
    face (paper: near its brightest, little colour); None where it has no light face."""
    if crop.ndim != 3:
        return None
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.float32)
    sat, val = hsv[:, :, 1], hsv[:, :, 2]
    light = float(np.percentile(val, 90))
    paper = val >= 0.85 * light
    if light < 40 or not paper.any():
        return None
    paper_sat = float(np.median(sat[paper]))
    paper &= sat <= paper_sat + 40
    return ((val < 0.7 * light) | (sat > paper_sat + 70)).astype(np.uint8), paper


def _tint(lab: np.ndarray, ink: np.ndarray, paper: np.ndarray) -> tuple[float, float]:
    """The ink's mean (a, b) less the light face's median, of a picture in Lab (float)."""
    a, b = lab[:, :, 1], lab[:, :, 2]
    return (float(a[ink].mean() - np.median(a[paper])),
            float(b[ink].mean() - np.median(b[paper])))


def tints_clash(pips: tuple[float, float], index: tuple[float, float]) -> bool:
    """Whether an index's ink cannot be the ink of the pips beside it: one of the two is
    plain (within ``PLAIN_TINT`` of the light face's) and the other strongly tinted (beyond
    ``STRONG_TINT``). A card prints its index and its pips in one ink, whatever the deck's
    colours (one colour for every suit included: then nothing clashes)."""
    a, b = (float(np.hypot(*t)) for t in (pips, index))
    return min(a, b) <= PLAIN_TINT and max(a, b) >= STRONG_TINT


def pip_features(mask: np.ndarray) -> np.ndarray:
    """Rotation-free measures of one pip's outline: how much of its convex hull it fills
    (a diamond all of it, a club far less), how much of its tightest rectangle, how round it
    is, its first four Hu moments (log scale), how deep its deepest notch is and how many
    notches it has (a heart one, a club two or more, a diamond none), and how long it is."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c) + 1e-6
    hull = cv2.contourArea(cv2.convexHull(c)) + 1e-6
    (_, _), (rw, rh), _ = cv2.minAreaRect(c)
    perimeter = cv2.arcLength(c, True) + 1e-6
    hu = cv2.HuMoments(cv2.moments(mask, True)).ravel()[:4]
    # The notches: how deep the outline cuts into its hull (a heart's one, a club's lobes).
    depths = np.zeros(0)
    if len(c) >= 4:
        hull_at = cv2.convexHull(c, returnPoints=False)
        try:
            defects = cv2.convexityDefects(c, hull_at)
        except cv2.error:
            defects = None
        if defects is not None:
            depths = defects.reshape(-1, 4)[:, 3] / 256.0 / np.sqrt(area)
    return np.array([area / hull, area / (rw * rh + 1e-6), 4 * np.pi * area / perimeter ** 2,
                     *(-np.sign(hu) * np.log10(np.abs(hu) + 1e-12)),
                     float(depths.max(initial=0.0)), float((depths > 0.1).sum()),
                     min(rw, rh) / max(rw, rh, 1e-6)], np.float64)


def pip_measures(crop: np.ndarray) -> np.ndarray:
    """The measures (`pip_features`) of each pip of a card box's picture (`pip_masks`):
    (pips, ``FEATURES``), no rows where no pip shows."""
    masks = pip_masks(crop)
    if not masks:
        return np.zeros((0, FEATURES))
    return np.stack([pip_features(m) for m in masks])


def expanded(features: np.ndarray) -> np.ndarray:
    """The model's inputs: the measures and their squares."""
    features = np.atleast_2d(features)
    return np.concatenate([features, features ** 2], axis=1)


class PipSuits:
    """Reads ``models/pip_suits.json`` (or ``path``): per pair of suits, the mean and spread
    of the expanded measures and the logistic weights (last: the bias)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else pip_model_path()
        self.models: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        try:
            data: dict[str, Any] = json.loads(self.path.read_text())
            for name, _yes, _no in PAIRS:
                m = data["pairs"][name]
                mean, scale, w = (np.asarray(m[k], np.float64)
                                  for k in ("mean", "scale", "weights"))
                if mean.shape != scale.shape or mean.ndim != 1 or w.shape != (len(mean) + 1,):
                    raise ValueError(f"pair {name}: {len(mean)} inputs, {len(scale)} scales, "
                                     f"{w.size} weights")
                self.models[name] = (mean, scale, w)
        except OSError as exc:
            raise ValueError(f"pip-suit model {self.path}: {exc.strerror or exc}") from exc
        except (KeyError, TypeError, ValueError, UnicodeDecodeError) as exc:
            raise ValueError(f"pip-suit model {self.path}: not a model written by "
                             f"vision.training.train_pip_suits ({exc})") from exc

    def logits(self, features: np.ndarray) -> dict[str, np.ndarray]:
        """Per pair, each pip's log-odds of the pair's first suit."""
        x = expanded(features)
        out = {}
        for name, (mean, scale, w) in self.models.items():
            out[name] = ((x - mean) / scale) @ w[:-1] + w[-1]
        return out

    def suit_odds(self, crop: np.ndarray) -> dict[str, float] | None:
        """Per pair, the card's log-odds of the pair's first suit from the pips of a card
        box's picture (`card_odds`); None where no pip shows."""
        return self.card_odds(pip_measures(crop))

    def card_odds(self, features: np.ndarray) -> dict[str, float] | None:
        """Per pair, a card's log-odds of the pair's first suit from its pips' measures
        (`pip_measures`): their mean times the square root of their number (at most
        ``MAX_VOTES``), clipped to ``MAX_LOGIT``; None for no pip."""
        if not len(features):
            return None
        votes = min(len(features), MAX_VOTES) ** 0.5
        return {name: float(np.clip(v.mean() * votes, -MAX_LOGIT, MAX_LOGIT))
                for name, v in self.logits(features).items()}

    def vote(self, frame: np.ndarray, box: Sequence[float] | np.ndarray) -> np.ndarray | None:
        """52 weights (as ``CARD_CODES``) for the card in ``box`` of ``frame`` (BGR): 1 for
        the likelier suit of each colour and for every court card (a court's middle is a
        picture, not pips), less for the other suit of each colour; None where the box shows
        no pips."""
        crop = box_crop(frame, box)
        if frame.ndim != 3 or min(crop.shape[:2]) < 8:
            return None
        odds = self.suit_odds(crop)
        if odds is None:
            return None
        weight = {}
        for name, yes, no in PAIRS:
            p = 1.0 / (1.0 + np.exp(-odds[name]))
            top = max(p, 1.0 - p)
            weight[yes], weight[no] = p / top, (1.0 - p) / top
        return np.array([1.0 if code[0] in COURTS else weight[code[1]] for code in CARD_CODES])


def box_crop(frame: np.ndarray, box: Sequence[float] | np.ndarray) -> np.ndarray:
    """The part of ``frame`` inside ``box`` (x1 y1 x2 y2, pixels), clipped to the frame
    (empty where the box lies outside it)."""
    h, w = frame.shape[:2]
    x1, y1 = max(0, int(round(float(box[0])))), max(0, int(round(float(box[1]))))
    x2, y2 = min(w, int(round(float(box[2])))), min(h, int(round(float(box[3]))))
    return frame[y1:max(y1, y2), x1:max(x1, x2)]
