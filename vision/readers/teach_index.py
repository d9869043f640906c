"""Teach the index reader one deck: refit the rank and suit layers on photos of its cards.

The user shows each card of their deck once (photos named by card, ``QH.jpg``, or a folder
with ``labels.jsonl``). The localiser finds the indices in each photo; the heads' 128-value
feature of every index found is kept with the card it belongs to; then the rank and suit
layers (13 and 4 outputs on that feature) are refitted by gradient descent in numpy, pulled
towards the shipped layers so that a few photos cannot undo what the heads know, and kept
only when, refitted on half of the shown cards, they read the other half better
(`refit_checked`). A deck
printed light on a dark face (gold on black) also keeps its two colours: frames are then read
turned into dark ink on a light face (`face_colours`, `index_reader.as_light_face`). The result
is a small JSON deck profile (``companion detect --deck``); no torch, nothing else changes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import CARD_CODES, Card
from vision.readers.index_heads import DECK_KIND, RANKS, SUITS, heads_path, softmax
from vision.readers.index_reader import IndexReader, as_light_face, luma


def shipped_layers(heads: str | Path | None = None) -> dict[str, np.ndarray]:
    path = Path(heads) if heads else heads_path()
    with np.load(path.with_name(path.stem + "-layers.npz")) as z:
        return {k: z[k].astype(np.float32) for k in z.files}


def refit(features: np.ndarray, ranks: np.ndarray, suits: np.ndarray,
          base: dict[str, np.ndarray], steps: int = 300, lr: float = 0.05,
          pull: float = 0.02) -> dict[str, np.ndarray]:
    """Softmax regression of the rank and suit layers on ``features`` (N, F), from ``base``,
    with an L2 ``pull`` towards it (a stronger pull trusts the shown photos less)."""
    out = {k: v.copy() for k, v in base.items()}
    n = max(len(features), 1)
    for head, labels in (("rank", ranks), ("suit", suits)):
        w, b = out[f"{head}_w"], out[f"{head}_b"]
        w0, b0 = base[f"{head}_w"], base[f"{head}_b"]
        onehot = np.eye(w.shape[0], dtype=np.float32)[labels]
        for _ in range(steps):
            p = softmax(features @ w.T + b)
            g = (p - onehot) / n
            w -= lr * (g.T @ features + pull * (w - w0))
            b -= lr * (g.sum(axis=0) + pull * (b - b0))
    return out


def _joint_accuracy(layers: dict[str, np.ndarray], features: np.ndarray, ranks: np.ndarray,
                    suits: np.ndarray) -> float:
    rank = (features @ layers["rank_w"].T + layers["rank_b"]).argmax(axis=1)
    suit = (features @ layers["suit_w"].T + layers["suit_b"]).argmax(axis=1)
    return float(((rank == ranks) & (suit == suits)).mean()) if len(features) else 0.0


def refit_checked(features: np.ndarray, ranks: np.ndarray, suits: np.ndarray,
                  base: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], float]:
    """The refitted layers if refitting reads cards of this deck it was not refitted on
    better than ``base`` does, else ``base``; and that gain. The shown cards are split in two
    halves (alternate ranks of each suit: every rank and suit in both); the layers refitted on
    one half read the other, both ways round."""
    fold = (ranks + suits) % 2
    gain = 0.0
    for k in (0, 1):
        fit, held = fold != k, fold == k
        if not fit.any() or not held.any():
            return base, 0.0
        layers = refit(features[fit], ranks[fit], suits[fit], base)
        gain += (_joint_accuracy(layers, features[held], ranks[held], suits[held])
                 - _joint_accuracy(base, features[held], ranks[held], suits[held])) / 2
    if gain <= 0:
        return base, gain
    return refit(features, ranks, suits, base), gain


def _photos(root: Path) -> list[tuple[np.ndarray, str, list[float] | None]]:
    """(image, true code, card box or None) for each shown card."""
    out: list[tuple[np.ndarray, str, list[float] | None]] = []
    labels = root / "labels.jsonl"
    if labels.exists():
        for line in labels.read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            img = cv2.imread(str(root / rec["image"]))
            if img is not None:
                out += [(img, c["card"], [float(v) for v in c["box"]]) for c in rec["cards"]]
        return out
    for path in sorted(root.iterdir()):
        try:
            code = Card.parse(path.stem.split("_")[0]).code
        except ValueError:
            continue
        img = cv2.imread(str(path))
        if img is not None:
            out.append((img, code, None))
    return out


def collect(reader: IndexReader, photos: Sequence[tuple[np.ndarray, str, list[float] | None]]
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Features and labels of the indices found in the photos (those inside the card's box
    when one is given), and how many shown cards had at least one index found."""
    feats, ranks, suits, found = [], [], [], 0
    for img, code, box in photos:
        if reader.face is not None:
            img = as_light_face(img, *reader.face)
        boxes, _ = reader.index_boxes(img, 0.15)
        if box is not None and len(boxes):
            cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
            boxes = boxes[(cx >= box[0]) & (cx <= box[2]) & (cy >= box[1]) & (cy <= box[3])]
        if not len(boxes):
            continue
        found += 1
        patches = reader.heads.cut(img, boxes)
        for k in range(4):  # every quarter turn: the heads read indices pointing any way
            out = reader.heads.logits(np.ascontiguousarray(np.rot90(patches, k, axes=(1, 2))))
            keep = 1 / (1 + np.exp(-out["is_index"])) > 0.3
            feats.append(out["feature"][keep])
            ranks += [RANKS.index(code[0])] * int(keep.sum())
            suits += [SUITS.index(code[1])] * int(keep.sum())
    if not feats:
        return np.zeros((0, 128), np.float32), np.zeros(0, int), np.zeros(0, int), 0
    return (np.concatenate(feats).astype(np.float32), np.asarray(ranks), np.asarray(suits),
            found)


def face_colours(reader: IndexReader,
                 photos: Sequence[tuple[np.ndarray, str, list[float] | None]]
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """A deck's face (paper) and ink colours (BGR) when it prints light ink on a dark face,
    else None. In each photo the surest index boxes are looked for in the photo and in its
    negative (where a dark face looks light); inside a box the larger of two colour clusters
    is the paper, and the tenth of its pixels farthest from the paper the ink. The medians over
    the photos decide."""
    papers, inks = [], []
    for img, _, box in photos:
        found = []
        for view in (img, 255 - img):
            boxes, scores = reader.index_boxes(view, 0.25)
            for b, sc in zip(boxes, scores, strict=True):
                cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
                if box is None or (box[0] <= cx <= box[2] and box[1] <= cy <= box[3]):
                    found.append((float(sc), b))
        for _, b in sorted(found, key=lambda f: -f[0])[:2]:
            x1, y1, x2, y2 = (int(round(float(v))) for v in b)
            pix = img[max(y1, 0):y2, max(x1, 0):x2].reshape(-1, 3).astype(np.float32)
            if len(pix) < 40:
                continue
            crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
            start = np.zeros((len(pix), 1), np.int32)
            _, labels, centres = cv2.kmeans(pix, 2, start, crit, 2, cv2.KMEANS_PP_CENTERS)
            counts = np.bincount(np.asarray(labels).ravel(), minlength=2)
            paper = np.asarray(centres)[int(counts.argmax())]
            # The ink: the pixels farthest from the paper (a cluster's centre is dulled by
            # the blurred edges of thin strokes).
            far = np.linalg.norm(pix - paper, axis=1)
            papers.append(paper)
            inks.append(pix[far >= np.percentile(far, 90)].mean(axis=0))
    if len(papers) < 5:
        return None
    paper, ink = np.median(papers, axis=0), np.median(inks, axis=0)
    if luma(paper) >= luma(ink) - 30:  # dark ink on a light face: as the models know cards
        return None
    return paper.astype(np.float32), ink.astype(np.float32)


def teach(source: str | Path, reader: IndexReader | None = None) -> dict[str, Any]:
    """A deck profile (JSON-ready) from a folder of photos of the user's cards."""
    root = Path(source)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: not a folder of card photos")
    photos = _photos(root)
    if not photos:
        raise ValueError(f"no card photos found in {root} (name them like QH.jpg)")
    reader = reader or IndexReader(card_boxes=False, ocr=False)
    reader.face = face_colours(reader, photos)
    feats, ranks, suits, found = collect(reader, photos)
    if not len(feats):
        raise ValueError(f"no card index was found in the {len(photos)} photos of {root}")
    layers, gain = refit_checked(feats, ranks, suits, shipped_layers())
    shown = sorted({code for _, code, _ in photos}, key=CARD_CODES.index)
    face = None if reader.face is None else {
        "paper": [round(float(v), 1) for v in reader.face[0]],
        "ink": [round(float(v), 1) for v in reader.face[1]]}
    return {"kind": DECK_KIND, "shown": shown, "photos": len(photos), "indices": len(feats) // 4,
            "cards_found": found, "face": face, "refit_gain": round(gain, 4),
            **{k: v.tolist() for k, v in layers.items()}}


def summary(profile: dict[str, Any]) -> str:
    face = profile.get("face")
    dark = ("; a dark-faced deck: frames are read with its face made light and its ink dark"
            if face else "")
    gain = float(profile.get("refit_gain", 0.0))
    layers = (f"; rank and suit layers refitted (+{100 * gain:.1f} points on the cards each "
              f"half of them was not refitted on)" if gain > 0 else
              "; the shipped rank and suit layers kept (refitting read cards it did not see "
              "no better)")
    return (f"deck profile: {profile['photos']} photos of {len(profile['shown'])} cards, "
            f"an index found on {profile['cards_found']}, {profile['indices']} indices "
            f"seen{layers}{dark}")
