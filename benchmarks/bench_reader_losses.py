"""Benchmark: where the reader loses the cards a person could name, on deck designs it never saw.

For the scenes of `bench_reader_conditions.py` (same seed and conditions), every card with a
legible corner index (`legible_cards`) ends in one of five places, counted per condition:

- ``read``: the reader reported its code on it (as `bench_reader_conditions.py` counts it);
- ``not found``: no index box of the reader (its own look or its negative's, every box the
  heads read) finds one of the card's legible indices (centre inside, IoU >= 0.3:
  `bench_index_stages.found`);
- ``misread``: boxes find its indices, but the heads name none of them as the card;
- ``unsure``: the heads name it there, but less surely (rank x suit) than the reader's card
  threshold ``conf``: what sharper heads would gain;
- ``lost``: the heads name it there surely, yet no card of that code was reported on it:
  what the fusion of indices, card boxes and the crop classifier loses.

The shares say which stage a change should go to: the localiser, the heads or the fusion.

    python benchmarks/bench_reader_losses.py [--scenes 12] [--designs heldout|train]
        [--reader auto|index|hybrid]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_index_stages import found, quad_boxes  # noqa: E402
from benchmarks.bench_reader_conditions import (  # noqa: E402
    CONDITIONS,
    design_names,
    legible_cards,
    read_at,
    scenes,
)
from vision.readers.index_heads import IndexReading  # noqa: E402
from vision.readers.index_reader import IndexReader  # noqa: E402
from vision.readers.load import load_reader  # noqa: E402

PLACES = ("read", "not found", "misread", "unsure", "lost")


def where_lost(code: str, quads: list[np.ndarray], readings: list[IndexReading],
               conf: float) -> str:
    """The place (`PLACES`, not ``read``) a legible card ``code`` with index ``quads`` that
    the reader did not report was lost, from the index ``readings`` it read the frame by."""
    boxes = np.array([r.box for r in readings], np.float32).reshape(-1, 4)
    hits = np.flatnonzero(found(quad_boxes(quads), boxes).any(axis=0))
    if not len(hits):
        return "not found"
    named = [readings[j] for j in hits if readings[j].code == code]
    if not named:
        return "misread"
    return "lost" if max(r.confidence for r in named) >= conf else "unsure"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=12, help="scenes per condition")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--designs", choices=["heldout", "train"], default="heldout")
    ap.add_argument("--reader", choices=["auto", "index", "hybrid"], default="auto")
    args = ap.parse_args()
    names = design_names(args.designs)
    reader = load_reader(args.reader) if names else None
    if not isinstance(reader, IndexReader):
        print("needs the deck designs (Debian kdegames-card-data-kf5) and the index models")
        return 2
    print(f"reader: {args.reader}; {args.designs} designs: {', '.join(names)}; {args.scenes} "
          f"scenes per condition; card threshold {reader.conf}")
    print(f"  {'condition':<14} {'legible':>7}  " + "  ".join(f"{p:>9}" for p in PLACES))
    total = dict.fromkeys(PLACES, 0)
    t0 = time.time()
    for condition in CONDITIONS:
        counts = dict.fromkeys(PLACES, 0)
        for s in scenes(condition, args.scenes, names, args.seed):
            dets, readings = reader.read_frame(s.image)
            for code, quads in legible_cards(s):
                place = ("read" if read_at(code, quads, dets.xyxy, dets.class_id)
                         else where_lost(code, quads, readings, reader.conf))
                counts[place] += 1
        n = sum(counts.values())
        for p in PLACES:
            total[p] += counts[p]
        print(f"  {condition:<14} {n:7d}  " + "  ".join(
            f"{counts[p] / max(n, 1):9.3f}" for p in PLACES), flush=True)
    n = sum(total.values())
    print(f"  {'all':<14} {n:7d}  " + "  ".join(f"{total[p] / max(n, 1):9.3f}" for p in PLACES))
    print("  cards: " + ", ".join(f"{p} {total[p]}" for p in PLACES)
          + f"; {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
