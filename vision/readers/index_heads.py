"""The index heads: a small CNN we train (`models/index_heads.onnx`, run with onnxruntime) that
reads a grey ``PATCH`` x ``PATCH`` cut of one corner-index box: its rank (13), suit (4, by
shape: some decks print every suit in one colour), which way its top points (4 quarter turns)
and whether it is an index at all. Also: cutting the patch (`index_patch`), the corners of a
whole-card box read without a localiser (`corner_vote`), and the rank and suit layers of a
deck profile from ``companion teach-deck`` (`load_deck_layers`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.readers.onnx import cpu_session

#: Side of the square grey patch the heads read (pixels).
PATCH = 48


#: How much a localiser box is grown on every side before it is cut (share of its size).
PATCH_MARGIN = 0.15


RANKS = "23456789TJQKA"


SUITS = "CDHS"


#: A patch read once with rank x suit at least this sure is not read in its other three quarter
#: turns (`IndexHeads.read` with ``tta="unsure"``).
SURE = 0.9


#: How far an index tilted between two quarter turns is turned before it is read again
#: (`IndexHeads` with ``eighths``): an eighth turn brings a card lying at 45 degrees to the
#: photo upright, or on its side, as the heads learnt indices.
EIGHTH = 45.0


MODELS = Path(__file__).resolve().parents[2] / "models"


def _patch_square(box: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    """An index box's width and height, and the side of the square its patch is cut from:
    about the box's longer side, grown by ``PATCH_MARGIN`` on every side."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = max(x2 - x1, 1.0), max(y2 - y1, 1.0)
    return w, h, max(w, h) * (1 + 2 * PATCH_MARGIN)


def index_patch(frame: np.ndarray, box: Sequence[float] | np.ndarray) -> np.ndarray:
    """The grey square patch (``PATCH`` px, uint8) the heads read for one index box."""
    x1, y1, x2, y2 = (float(v) for v in box)
    side = _patch_square(box)[2]
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    s = PATCH / side
    m = np.array([[s, 0, PATCH / 2 - s * cx], [0, s, PATCH / 2 - s * cy]], np.float64)
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(grey, m, (PATCH, PATCH), flags=interp,
                          borderMode=cv2.BORDER_REPLICATE)


#: Where the heads that fade a patch (`IndexHeads.fade`) begin to fade it: this share of the
#: box's own size beyond its edges (the localiser's boxes are loose or tight by about as much).
FADE_FROM = 0.1


#: Over how many of the patch's pixels the fade goes from the patch to its background.
FADE_OVER = 6.0


def box_extent(box: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """The width and height of an index box as shares of its patch's side (`index_patch`
    cuts the patch from the square `_patch_square` gives)."""
    w, h, side = _patch_square(box)
    return w / side, h / side


def fade_outside(patches: np.ndarray, extents: np.ndarray) -> np.ndarray:
    """(N, P, P) uint8 patches with what lies outside each one's box (``extents``: (N, 2),
    its width and height as shares of the patch, centred, `box_extent`) faded to the paper
    inside the box (its median grey). A tall, narrow index's square patch takes in the
    neighbouring card's index and pips at its sides, in a spread or pile, and heads that read
    the whole square read the larger pip beside the index as its suit (the demo deck: a Q♠
    in a hand read Q♣ beside a 10♣'s club pips)."""
    n = len(patches)
    if n == 0:
        return patches
    ext = np.asarray(extents, np.float64).reshape(n, 2)
    c = np.abs(np.arange(PATCH) + 0.5 - PATCH / 2)
    half = ext * (PATCH / 2) * (1 + FADE_FROM)
    dx = np.clip(c[None, None, :] - half[:, 0, None, None], 0, None)
    dy = np.clip(c[None, :, None] - half[:, 1, None, None], 0, None)
    weight = np.clip(1 - np.sqrt(dx ** 2 + dy ** 2) / FADE_OVER, 0, 1)
    p = patches.astype(np.float32)
    inside = np.where(weight >= 1, p, np.nan).reshape(n, -1)
    paper = np.nanmedian(inside, axis=1)[:, None, None]
    paper = np.where(np.isnan(paper), np.median(p.reshape(n, -1), axis=1)[:, None, None],
                     paper)
    faded = weight * p + (1 - weight) * paper
    return np.clip(np.rint(faded), 0, 255).astype(np.uint8)


def cut_patches(frame: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray,
                fade: bool = False) -> np.ndarray:
    """(N, P, P) patches of index ``boxes`` of ``frame`` (`index_patch`), with ``fade``
    faded outside each box (`fade_outside`)."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if not len(boxes):
        return np.zeros((0, PATCH, PATCH), np.uint8)
    patches = np.stack([index_patch(grey, b) for b in boxes])
    if fade:
        patches = fade_outside(patches, np.asarray([box_extent(b) for b in boxes]))
    return patches


def corner_proposals(box: Sequence[float] | np.ndarray) -> np.ndarray:
    """Index-sized boxes in the four corners of a whole-card box, upright and on their side,
    at three sizes: where a card's corner index can lie when the card is roughly square to
    the photo."""
    x1, y1, x2, y2 = (float(v) for v in box)
    s = min(x2 - x1, y2 - y1)
    out = []
    for scale in (0.8, 1.0, 1.25):
        for pw, ph in ((0.2 * s * scale, 0.42 * s * scale), (0.42 * s * scale, 0.2 * s * scale)):
            for ax, ay in ((x1, y1), (x2 - pw, y1), (x1, y2 - ph), (x2 - pw, y2 - ph)):
                out.append([ax, ay, ax + pw, ay + ph])
    return np.asarray(out, np.float32)


def orientation_of(quad: np.ndarray) -> int:
    """Which way an index's top points in the image, in quarter turns clockwise from up
    (0 up, 1 right, 2 down, 3 left), from its quad in reading order (TL, TR, BR, BL).
    ``np.rot90(patch, k)`` turns such a patch upright."""
    q = np.asarray(quad, np.float64)
    up = (q[0] + q[1]) / 2 - (q[2] + q[3]) / 2
    theta = math.degrees(math.atan2(up[0], -up[1]))
    return int(round(theta / 90.0)) % 4


def normalise(patches: np.ndarray) -> np.ndarray:
    """(N, P, P) uint8 -> (N, 1, P, P) float32, each patch to zero mean and unit contrast
    (a dim frame, a dark face and a bright one look alike to the heads)."""
    x = patches.astype(np.float32)
    mean = x.mean(axis=(1, 2), keepdims=True)
    std = x.std(axis=(1, 2), keepdims=True)
    return ((x - mean) / np.maximum(std, 8.0))[:, None]


@dataclass(frozen=True)
class IndexReading:
    """What the heads say of one index box."""

    box: tuple[float, float, float, float]
    score: float  # the localiser's confidence
    rank: np.ndarray  # (13,) probabilities, RANKS order
    suit: np.ndarray  # (4,) probabilities, SUITS order
    orient: int  # quarter turns that the index's top points clockwise from up
    is_index: float  # the heads' probability that this is an index at all

    @property
    def code(self) -> str:
        return RANKS[int(self.rank.argmax())] + SUITS[int(self.suit.argmax())]

    @property
    def confidence(self) -> float:
        return float(self.rank.max() * self.suit.max()) * self.is_index


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class IndexHeads:
    """The rank / suit / orientation / is-index heads (onnxruntime)."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 1,
                 tta: bool | str = True, deck: str | Path | dict[str, Any] | None = None,
                 eighths: bool = False) -> None:
        """``deck``: a deck profile from ``companion teach-deck`` (its path or its contents),
        whose rank and suit layers replace the shipped ones. ``eighths``: a patch still read
        unsurely in its quarter turns is read again turned an eighth (`read`)."""
        path = Path(model_path) if model_path else heads_path()
        self.path = path
        meta = json.loads(path.with_suffix(".json").read_text())
        if meta.get("ranks") != RANKS or meta.get("suits") != SUITS:
            raise ValueError(f"{path}: heads for ranks {meta.get('ranks')!r} and suits "
                             f"{meta.get('suits')!r}, expected {RANKS!r} and {SUITS!r}")
        if int(meta.get("patch", PATCH)) != PATCH:
            raise ValueError(f"{path}: patch {meta.get('patch')} px, runtime cuts {PATCH}")
        self.session = cpu_session(path, threads)
        self.input = self.session.get_inputs()[0].name
        self.tta = tta
        self.eighths = bool(eighths)
        #: Whether these heads were trained on patches faded outside their box
        #: (`fade_outside`), and so read patches cut that way (`cut`).
        self.fade = bool(meta.get("fade", False))
        self.layers: dict[str, np.ndarray] | None = None
        if deck is not None:
            self.layers = load_deck_layers(deck)

    def cut(self, frame: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray
            ) -> np.ndarray:
        """The (N, P, P) patches these heads read for index ``boxes`` of ``frame``
        (`index_patch`, and faded outside each box where the heads were trained so)."""
        return cut_patches(frame, boxes, self.fade)

    def logits(self, patches: np.ndarray) -> dict[str, np.ndarray]:
        outs = self.session.run(None, {self.input: normalise(patches)})
        names = [o.name for o in self.session.get_outputs()]
        out = dict(zip(names, outs, strict=True))
        if self.layers is not None:
            if "feature" not in out:
                raise ValueError("these index heads do not export their feature: a deck "
                                 "profile cannot be applied")
            f = out["feature"]
            out["rank"] = f @ self.layers["rank_w"].T + self.layers["rank_b"]
            out["suit"] = f @ self.layers["suit_w"].T + self.layers["suit_b"]
        return out

    def read(self, patches: np.ndarray, tta: bool | str | None = None,
             eighths: bool | None = None) -> dict[str, np.ndarray]:
        """Probabilities for (N, P, P) patches: ``rank`` (N, 13), ``suit`` (N, 4), ``orient``
        (N, 4) and ``is_index`` (N,). With ``tta`` (default: the heads' own setting) the four
        quarter turns of each patch are read and averaged (the orientation turned back), which
        is steadier on tilted indices; ``"unsure"`` reads each patch once and only the patches
        not read surely (rank x suit below ``SURE``) in all four turns. With ``eighths``
        (default: the heads' own setting) and ``tta``, a patch still read unsurely is read
        again in its four quarter turns turned an eighth further (`eighth_turned`: an index
        lying between two quarter turns, which the heads learnt only up to 40 degrees off),
        and keeps that reading where it is surer (rank x suit x is-index); its orientation
        stays the quarter turns'. Four turns, not one: one alone named more real cards
        wrongly (`models/INDEX.md`, "Nineteenth session")."""
        tta = self.tta if tta is None else tta
        n = len(patches)
        if n == 0:
            return {"rank": np.zeros((0, 13)), "suit": np.zeros((0, 4)),
                    "orient": np.zeros((0, 4)), "is_index": np.zeros(0)}
        if tta == "unsure":
            out = self._read_turns(patches, 1)
            unsure = np.flatnonzero(out["rank"].max(1) * out["suit"].max(1) < SURE)
            if len(unsure):
                again = self._read_turns(patches[unsure], 4)
                for k in out:
                    out[k][unsure] = again[k]
        else:
            out = self._read_turns(patches, 4 if tta else 1)
        if tta and (self.eighths if eighths is None else eighths):
            self._and_eighths(patches, out)
        return out

    def _and_eighths(self, patches: np.ndarray, out: dict[str, np.ndarray]) -> None:
        """``out`` (read in quarter turns) with each unsure patch's reading turned an eighth
        where that one is surer."""
        sure = out["rank"].max(1) * out["suit"].max(1)
        unsure = np.flatnonzero(sure < SURE)
        if not len(unsure):
            return
        turned = self._read_turns(eighth_turned(patches[unsure]), 4)
        before = sure[unsure] * out["is_index"][unsure]
        after = turned["rank"].max(1) * turned["suit"].max(1) * turned["is_index"]
        won = after > before
        i = unsure[won]
        out["rank"][i], out["suit"][i] = turned["rank"][won], turned["suit"][won]
        out["is_index"][i] = np.maximum(out["is_index"][i], turned["is_index"][won])

    def _read_turns(self, patches: np.ndarray, turns: int) -> dict[str, np.ndarray]:
        n = len(patches)
        batch = np.concatenate([np.rot90(patches, k, axes=(1, 2)) for k in range(turns)])
        out = self.logits(np.ascontiguousarray(batch))
        rank = softmax(out["rank"]).reshape(turns, n, -1).mean(axis=0)
        suit = softmax(out["suit"]).reshape(turns, n, -1).mean(axis=0)
        ori = softmax(out["orient"]).reshape(turns, n, 4)
        # A patch turned k quarter turns anticlockwise has its top k steps further anticlockwise.
        orient = np.mean([np.roll(ori[k], k, axis=1) for k in range(turns)], axis=0)
        isx = (1 / (1 + np.exp(-out["is_index"].reshape(turns, n)))).mean(axis=0)
        return {"rank": rank, "suit": suit, "orient": orient, "is_index": isx}


def eighth_turned(patches: np.ndarray, degrees: float = EIGHTH) -> np.ndarray:
    """(N, P, P) patches turned ``degrees`` anticlockwise about their centre (the corners
    filled from the patch's edge). A patch is cut square around its index with a margin, so
    an index turned within it stays inside."""
    side = patches.shape[1]
    m = cv2.getRotationMatrix2D(((side - 1) / 2, (side - 1) / 2), degrees, 1.0)
    return np.ascontiguousarray(np.stack([
        cv2.warpAffine(p, m, (side, side), flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE) for p in patches]))


def best_in_each_corner(score: np.ndarray) -> np.ndarray:
    """For scores of the `corner_proposals` of one box, the index of the best-scored proposal
    in each of its four corners (the proposals are ordered size, shape, corner)."""
    by_corner = np.asarray(score).reshape(-1, 4)
    return np.asarray(by_corner.argmax(axis=0) * 4 + np.arange(4))


def corner_vote(heads: IndexHeads, frame: np.ndarray, box: Sequence[float] | np.ndarray,
                min_index: float = 0.5) -> np.ndarray | None:
    """The 52 card probabilities (suit-major, as ``CARD_CODES``) that a whole-card box's
    corners give, with no localiser: in each corner the proposal the heads read most surely
    (is-index x the best rank x suit) votes, weighted by its is-index score; ``None`` when no
    corner holds an index."""
    props = corner_proposals(box)
    patches = heads.cut(frame, props)
    # Every proposal read once; the best of each corner read again as the heads read indices.
    p = heads.read(patches, tta=False)
    joint = (p["suit"][:, :, None] * p["rank"][:, None, :]).reshape(len(props), 52)
    best = best_in_each_corner(joint.max(axis=1) * p["is_index"])
    # (Not turned an eighth: these boxes are laid square to the card box, for a card square
    # to the photo; turned, the text and art that fill a box on no card read as indices.)
    q = heads.read(patches[best], eighths=False)
    joint = (q["suit"][:, :, None] * q["rank"][:, None, :]).reshape(len(best), 52)
    logp = np.zeros(52)
    voted = False
    for j in range(len(best)):
        if q["is_index"][j] >= min_index:
            logp += q["is_index"][j] * np.log(joint[j] + 1e-6)
            voted = True
    if not voted:
        return None
    out = np.exp(logp - logp.max())
    return np.asarray(out / out.sum())


DECK_KIND = "index-heads deck profile"


def load_deck_layers(deck: str | Path | dict[str, Any]) -> dict[str, np.ndarray]:
    """The rank and suit layers of a deck profile written by ``companion teach-deck``."""
    data = deck if isinstance(deck, dict) else json.loads(Path(deck).read_text())
    if data.get("kind") != DECK_KIND:
        raise ValueError(f"{deck if not isinstance(deck, dict) else 'profile'}: not a deck "
                         f"profile of the index reader (kind {data.get('kind')!r})")
    layers = {k: np.asarray(data[k], np.float32) for k in ("rank_w", "rank_b", "suit_w",
                                                           "suit_b")}
    if layers["rank_w"].shape[0] != len(RANKS) or layers["suit_w"].shape[0] != len(SUITS):
        raise ValueError("deck profile: its layers do not map to 13 ranks and 4 suits")
    return layers


def heads_path() -> Path:
    """The heads ``companion teach-deck`` refits its deck profiles on (a profile's rank and
    suit layers read these heads' 128-value feature), and the table's hybrid reads with."""
    return MODELS / "index_heads.onnx"


def photo_heads_path() -> Path:
    """The heads the photo reader reads with where no deck profile is given
    (`vision.readers.load.load_reader`): trained on with real indices spoilt as a webcam
    across a table shows them (models/INDEX.md, "Seventeenth session"). `heads_path` when
    these are not installed."""
    path = MODELS / "index_heads_photo.onnx"
    return path if path.exists() else heads_path()


def table_heads_path() -> Path:
    """The heads the table's second look reads with (`vision.readers.load.second_look`): the
    stage-7 heads its rounds were checked with; the photo reader has newer ones
    (`models/INDEX.md`). The photo heads when these are not installed."""
    path = MODELS / "index_heads_table.onnx"
    return path if path.exists() else heads_path()
