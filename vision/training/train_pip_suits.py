"""Train the pip-suit model (`vision.readers.pip_suits`, ``models/pip_suits.json``): two
logistic regressions, diamond or heart and club or spade, on the outline measures of the pips
of aces and number cards.

The data is rendered: each ace and number card of the training designs (`TRAIN_DECKS`, never
`HELDOUT_DECKS`) laid at a random angle and size (55-140 px tall, as the table's zone views
and photos show cards) on a random table colour, cut to its box as a card box would cut it
(a few pixels loose or tight), then dimmed, greyed, softened and speckled as cheap webcams
spoil frames. Each pip `pip_masks` finds there is one example, labelled with its card's suit
(whatever it finds, the index's glyphs included, as at the table). The held-out designs are
rendered the same way and only measured: each card's vote within its colour
(`PipSuits.suit_odds`), right, wrong or none. Seeded: the same command gives the same model.
Seconds on 2 CPU cores (the deck designs' rasterising, cached once, takes longer).

    python -m vision.training.train_pip_suits [--per-card 6] [--seed 0] [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.readers.pip_suits import PAIRS, PipSuits, expanded, pip_measures

#: Ranks with pips in the middle of the card (courts show a picture).
PIP_RANKS = "A23456789T"

#: Card heights (px) the examples are drawn at.
HEIGHTS = (55, 140)

#: Table colours (BGR) the cards lie on: green and blue felt, wood, grey.
TABLES = ((40, 110, 30), (90, 60, 20), (30, 70, 120), (110, 110, 110), (20, 40, 60))


def posed(card: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A rendered card (BGRA, at its drawn size) turned at a random angle on a random table
    colour, cut to its box a few pixels loose or tight, then spoilt as a webcam may."""
    h, w = card.shape[:2]
    side = int(np.hypot(h, w)) + 12
    m = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(0, 360)), 1.0)
    m[:, 2] += (side / 2 - w / 2, side / 2 - h / 2)
    warped = cv2.warpAffine(card, m, (side, side), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    colour = np.array(TABLES[int(rng.integers(len(TABLES)))], np.float32)
    table = colour * rng.uniform(0.7, 1.3) + rng.normal(0, 6, (side, side, 3))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255
    img = warped[:, :, :3].astype(np.float32) * alpha + table * (1 - alpha)
    ys, xs = np.nonzero(warped[:, :, 3] > 128)
    j = rng.integers(-3, 4, 4)
    x1, y1 = max(0, xs.min() + j[0]), max(0, ys.min() + j[1])
    x2, y2 = min(side, xs.max() + 1 + j[2]), min(side, ys.max() + 1 + j[3])
    img = img[y1:y2, x1:x2]
    # Dim and grey (a cheap webcam in a dim room), soft, noisy, speckled.
    img = img * rng.uniform(0.45, 1.1)
    grey = img.mean(axis=2, keepdims=True)
    img = img + (grey - img) * rng.uniform(0, 0.5)
    mean = img.mean()
    img = mean + (img - mean) * rng.uniform(0.5, 1.0)
    sigma = rng.uniform(0, 1.2)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(0, 14), img.shape)
    salt = rng.uniform(0, 0.01)
    if salt > 0:
        speck = rng.random(img.shape[:2]) < salt
        img[speck] = rng.choice([0.0, 255.0], int(speck.sum()))[:, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def examples(decks: list[str], per_card: int, rng: np.random.Generator
             ) -> tuple[list[np.ndarray], list[str]]:
    """Per posed card: its pips' measures (`pip_measures`) and its suit."""
    from vision.render.decks import render_card

    feats, suits = [], []
    for deck in decks:
        for suit in "CDHS":
            for rank in PIP_RANKS:
                for _ in range(per_card):
                    height = int(rng.integers(HEIGHTS[0], HEIGHTS[1] + 1))
                    crop = posed(np.asarray(render_card(deck, rank + suit, height)), rng)
                    feats.append(pip_measures(crop))
                    suits.append(suit)
    return feats, suits


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 4000,
        rate: float = 0.5) -> dict[str, list[float]]:
    """A logistic regression by gradient descent on standardised inputs."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.concatenate([(x - mean) / scale, np.ones((len(x), 1))], axis=1)
    w = np.zeros(z.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-z @ w))
        w -= rate * (z.T @ (p - y) / len(y) + l2 * np.r_[w[:-1], 0.0])
    return {"mean": mean.tolist(), "scale": scale.tolist(), "weights": w.tolist()}


def measure(model: PipSuits, feats: list[np.ndarray], suits: list[str]) -> dict[str, int]:
    """Each card's vote within its colour (`PipSuits.card_odds`): right, wrong, or none (no
    pip found)."""
    out = {"right": 0, "wrong": 0, "none": 0}
    for features, suit in zip(feats, suits, strict=True):
        odds = model.card_odds(features)
        if odds is None:
            out["none"] += 1
            continue
        name, yes, _no = next(p for p in PAIRS if suit in p[1:])
        out["right" if (odds[name] > 0) == (suit == yes) else "wrong"] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    from vision.render.decks import HELDOUT_DECKS, TRAIN_DECKS, available_decks

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-card", type=int, default=6, help="posed examples of each card")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "models"
                                         / "pip_suits.json"))
    args = ap.parse_args(argv)
    have = set(available_decks())
    train = [d for d in TRAIN_DECKS if d in have]
    held = [d for d in HELDOUT_DECKS if d in have]
    if not train:
        raise SystemExit(f"no training deck design installed (of {', '.join(TRAIN_DECKS)})")
    t0 = time.time()
    rng = np.random.default_rng(args.seed)
    feats, suits = examples(train, args.per_card, rng)
    out: dict[str, object] = {
        "kind": "pip suits", "pairs": {},
        "recipe": {"command": "python -m vision.training.train_pip_suits", "seed": args.seed,
                   "per_card": args.per_card, "decks": train, "heights": list(HEIGHTS)}}
    pairs: dict[str, object] = {}
    for name, yes, no in PAIRS:
        rows = [(f, s == yes) for f, s in zip(feats, suits, strict=True) if s in (yes, no)]
        x = np.concatenate([f for f, _ in rows if len(f)])
        y = np.concatenate([np.full(len(f), float(is_yes)) for f, is_yes in rows if len(f)])
        pairs[name] = {**fit(expanded(x), y), "pips": len(y)}
    out["pairs"] = pairs
    path = Path(args.out)
    path.write_text(json.dumps(out, indent=1) + "\n")
    model = PipSuits(path)
    measured = {"training designs (new poses)": measure(model, *examples(train, 1, rng))}
    if held:
        measured[f"held-out designs ({', '.join(held)})"] = measure(
            model, *examples(held, args.per_card, rng))
    out["measured"] = measured
    out["seconds"] = round(time.time() - t0, 1)
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(measured, indent=1))
    print(f"wrote {path} in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
