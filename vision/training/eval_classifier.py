"""Measure the card-identity classifier (ONNX, through `vision.readers.classifier.CardClassifier`).

    python -m vision.training.eval_classifier [--model models/card_classifier.onnx]

Prints:
- top-1 on the real-photo dev set (``/work/shared/real-cards-dev``): every labelled card's
  ground-truth box, jittered as a detector's box would be (seeded, several draws per box);
- top-1 on rendered crops of the held-out deck designs (``HELDOUT_DECKS``, never trained on):
  single posed cards with occluders (the training generator's look) and cards cut from whole
  rendered table scenes (``vision.training.scenes.render_scene``: piles, fans, rows, boards);
- CPU time per batch of crops (crop + resize + model), one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.readers.classifier import CardClassifier
from vision.render import decks
from vision.training.scenes import render_scene

REAL_DEV = Path(os.environ.get("MICHIGAN_REAL_DEV", "/work/shared/real-cards-dev"))


def jitter(rng: np.random.Generator, box: Sequence[float], amount: float) -> list[float]:
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    d = rng.normal(0, amount, 4)
    return [x1 + d[0] * w, y1 + d[1] * h, x2 + d[2] * w, y2 + d[3] * h]


def eval_dev(clf: CardClassifier, draws: int = 5, amount: float = 0.04, seed: int = 0,
             verbose: bool = False) -> tuple[float, int]:
    rng = np.random.default_rng(seed)
    right = total = 0
    errors: Counter[tuple[str, str]] = Counter()
    for line in (REAL_DEV / "labels.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        img = cv2.imread(str(REAL_DEV / rec["image"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        truth = [c["card"] for c in rec["cards"]]
        for d in range(draws):
            boxes = [c["box"] if d == 0 else jitter(rng, c["box"], amount) for c in rec["cards"]]
            codes, _ = clf.classify(img, boxes)
            for t, p in zip(truth, codes, strict=True):
                right += t == p
                total += 1
                if t != p:
                    errors[(t, p)] += 1
    if verbose:
        print("  dev errors (truth -> read: count):",
              ", ".join(f"{t}->{p}: {n}" for (t, p), n in errors.most_common(15)))
    return right / max(total, 1), total


def heldout_synth(clf: CardClassifier, per_class: int, seed: int = 123) -> float:
    from vision.training.train_classifier import synth_crop

    held = [d for d in decks.HELDOUT_DECKS if d in decks.available_decks()]
    rng = np.random.default_rng(seed)
    patches, truth = [], []
    for _k in range(per_class):
        for code in CARD_CODES:
            got = None
            while got is None:
                got = synth_crop(rng, held, code, clf.size)
            patches.append(got[0])
            truth.append(code)
    codes, _, _ = clf.classify_patches(np.stack(patches))
    return float(np.mean([a == b for a, b in zip(codes, truth, strict=True)]))


def heldout_scenes(clf: CardClassifier, scenes: int, seed: int = 7) -> tuple[float, int]:
    held = [d for d in decks.HELDOUT_DECKS if d in decks.available_decks()]
    rng = np.random.default_rng(seed)
    right = total = 0
    for _ in range(scenes):
        scene = render_scene(rng, held, size=640)
        if not scene.cards:
            continue
        boxes = [jitter(rng, b, 0.03) for _, b in scene.cards]
        codes, _ = clf.classify(scene.image, boxes)
        for (t, _), p in zip(scene.cards, codes, strict=True):
            right += t == p
            total += 1
    return right / max(total, 1), total


def timing(clf: CardClassifier, batch: int = 8, repeats: int = 30) -> tuple[float, float]:
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 255, (480, 640, 3), np.uint8)
    boxes = [[x, 100, x + 70, 200] for x in range(0, 70 * batch, 70)]
    clf.classify(frame, boxes)
    t = time.perf_counter()
    for _ in range(repeats):
        clf.classify(frame, boxes)
    ms = (time.perf_counter() - t) / repeats * 1000
    return ms, ms / batch


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default=None)
    ap.add_argument("--dev-draws", type=int, default=5)
    ap.add_argument("--heldout-per-class", type=int, default=10)
    ap.add_argument("--heldout-scenes", type=int, default=80)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--tta", choices=["meta", "on", "off"], default="meta",
                    help="average the four quarter turns (default: as the meta file says)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    clf = CardClassifier(args.model, threads=args.threads,
                         tta=None if args.tta == "meta" else args.tta == "on")
    print(f"model {clf.model_path} ({clf.model_path.stat().st_size / 1e6:.2f} MB), "
          f"input {clf.size}x{clf.size}, quarter-turn TTA {'on' if clf.tta else 'off'}")
    if (REAL_DEV / "labels.jsonl").exists():
        acc, n = eval_dev(clf, args.dev_draws, verbose=args.verbose)
        print(f"real-photo dev set: top-1 {acc:.4f} on {n} crops "
              f"({n // args.dev_draws} cards x {args.dev_draws} box draws)")
    else:
        print(f"real-photo dev set not found at {REAL_DEV}")
    if all(d in decks.available_decks() for d in decks.HELDOUT_DECKS):
        acc = heldout_synth(clf, args.heldout_per_class)
        print(f"held-out decks {decks.HELDOUT_DECKS}, posed crops: top-1 {acc:.4f} on "
              f"{52 * args.heldout_per_class} crops")
        acc, n = heldout_scenes(clf, args.heldout_scenes)
        print(f"held-out decks, cards cut from {args.heldout_scenes} rendered table scenes: "
              f"top-1 {acc:.4f} on {n} crops")
    ms, per = timing(clf, 8)
    ms1, _ = timing(clf, 1)
    print(f"CPU ({args.threads} thread): {ms:.1f} ms per batch of 8 crops ({per:.2f} ms/crop), "
          f"{ms1:.1f} ms for 1 crop")


if __name__ == "__main__":
    main()
