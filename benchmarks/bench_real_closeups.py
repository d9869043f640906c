"""Benchmark: which cards the reader names in real close-up phone photos and a bridge deal.

The photos are `../shared/real-cards-train`'s corner-labelled ones (``ammi_`` close-ups of one
or two cards, grey and noisy, some with glare, stretched to 640 x 640; ``bidly_`` a whole deal
laid out) held out by time (`vision.training.index_data.split_real`: the last tenth of each
source): never trained on, though the localiser's training chose its epochs on them. Each
photo's truth is the set of cards whose index is labelled; a photo is scored by the codes
the reader reports (precision: reported codes that are in the photo; recall: the photo's cards
reported), as `companion detect` reads photos.

    python benchmarks/bench_real_closeups.py [--reader hybrid|index|card] [-v]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.readers.load import load_reader  # noqa: E402
from vision.training.index_data import REAL_TRAIN, real_index_records, split_real  # noqa: E402


def tally(reader: Any, photos: list[dict[str, object]], src: Path = REAL_TRAIN,
          verbose: bool = False, spoil: Callable[[np.ndarray, int], np.ndarray] | None = None
          ) -> dict[str, list[int]]:
    """Per source (the photo's name up to its first ``_``): cards [right, wrong, missed], a
    photo scored by the codes the reader reports against the codes whose index is labelled.
    ``spoil``: each photo is read as ``spoil(photo, its place in the list)`` gives it."""
    counts: dict[str, list[int]] = {}
    for k, rec in enumerate(photos):
        name = str(rec["image"])
        image = cv2.imread(str(src / name))
        if image is None:
            raise FileNotFoundError(src / name)
        if spoil is not None:
            image = spoil(image, k)
        got = set(reader.detect(image).labels)
        want = {str(c) for c in rec["unique_cards"]}  # type: ignore[attr-defined]
        row = counts.setdefault(name.split("_")[0], [0, 0, 0])
        row[0] += len(got & want)
        row[1] += len(got - want)
        row[2] += len(want - got)
        if verbose and got != want:
            print(f"  {name}: missed {sorted(want - got)}, wrong {sorted(got - want)}")
    return counts


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="auto")
    ap.add_argument("--src", type=Path, default=REAL_TRAIN)
    ap.add_argument("-v", "--verbose", action="store_true", help="list every photo misread")
    args = ap.parse_args()
    _, photos = split_real(real_index_records(args.src))
    if not photos:
        print(f"no corner-labelled photos in {args.src}")
        return 2
    reader = load_reader(args.reader)
    print(f"reader: {args.reader} ({type(reader).__name__}); {len(photos)} photos held out by "
          f"time from {args.src}")
    t0 = time.time()
    counts = tally(reader, photos, args.src, args.verbose)
    total = [sum(c[i] for c in counts.values()) for i in range(3)]
    for source, (tp, fp, fn) in [*sorted(counts.items()), ("all", total)]:
        print(f"  {source:<6} {tp + fn:4d} cards: precision {tp / max(tp + fp, 1):.3f} "
              f"recall {tp / max(tp + fn, 1):.3f}")
    print(f"  {time.time() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
