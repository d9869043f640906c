"""Benchmark: every real-photo set at once, and the cards right, wrong and missed over all of
them, to choose between models on the real photos as a whole.

One real set alone is small (the dev photos hold 115 cards, the close-ups 95): a model change
that gains or loses one card there moves its figures by about 0.01, which is noise beside what
the change does. Pooled, the sets below hold some 1,550 cards:

- ``dev``: `../shared/real-cards-dev`, never trained on (`detector_eval.evaluate`);
- ``grey``, ``webcam``, ``webcam-small``, ``stretched``: the dev photos spoilt
  (`bench_real_spoilt.py`);
- ``every-8th``: every `CLUTTER_HOLD_OUT`-th whole-card photo (``rf100_``) of
  `../shared/real-cards-train`, in file order. The index localiser never saw them (they are
  held out of its clutter negatives); the heads trained on indices mined from them and the
  whole-card detector and crop classifier on them, so the hybrid reads them better than it
  would an unseen deck: a set for what a change costs, not for how well unseen decks read;
- ``close-ups``: the corner-labelled photos held out by time (`bench_real_closeups.py`),
  scored by the codes read in each photo;
- ``close-ups webcam``, ``close-ups webcam-small``: the same photos spoilt as a cheap webcam
  spoils them (`bench_real_spoilt.spoil`). These hold what the dev photos' spoilt copies
  lack: a bridge deal's spreads where only the index strips show, as a webcam across a table
  shows them (what the issue's real webcam frames lost most), and the close-ups'
  indices small.

The dev photos are for measuring, not for choosing: ``--without-dev`` leaves them and their
spoilt copies out, for a choice between training runs that keeps the dev set a measurement.

    python benchmarks/bench_real_pooled.py [--reader hybrid|index|card] [--without-dev] [--json]
        [--courts-by-index] [--level-below 0] [--sharpen 0]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_real_closeups import tally  # noqa: E402
from bench_real_spoilt import CONDITIONS, spoil, spoilt_set  # noqa: E402

from benchmarks.reader_looks import add_look_options, look_kwargs  # noqa: E402
from vision.readers.load import load_reader  # noqa: E402
from vision.training.detector_eval import evaluate  # noqa: E402
from vision.training.index_data import (  # noqa: E402
    REAL_TRAIN,
    real_index_records,
    split_real,
    whole_card_split,
)

DEV = ROOT.parent / "shared" / "real-cards-dev"
SPOILT = ("grey", "webcam", "webcam-small", "stretched")
#: How the close-ups are also read spoilt.
CLOSE_UP_SPOILT = ("webcam", "webcam-small")


def every_eighth(dst: Path, src: Path = REAL_TRAIN) -> int:
    """Link the whole-card photos held out of the clutter negatives (`whole_card_split`: every
    8th) into ``dst`` with their labels."""
    _, recs = whole_card_split(src)
    for rec in recs:
        os.symlink(src / str(rec["image"]), dst / str(rec["image"]))
    (dst / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    return len(recs)


def counted(r: dict[str, Any]) -> list[int]:
    """[right, wrong, missed] cards of an `evaluate` result."""
    return [int(r["card_right"]), int(r["card_wrong"]), int(r["cards"]) - int(r["card_right"])]


def summed(rows: Iterable[list[int]]) -> list[int]:
    """The [right, wrong, missed] counts of several rows added up."""
    rows = list(rows)
    return [sum(r[i] for r in rows) for i in range(3)]


def pooled(reader: Any, dev: Path | None = DEV, src: Path = REAL_TRAIN, seed: int = 2026
           ) -> dict[str, list[int]]:
    """Each set's cards [right, wrong, missed], and ``all``, their sum (``dev`` None: without
    the dev photos and their spoilt copies)."""
    out: dict[str, list[int]] = {}
    if dev is not None and (dev / "labels.jsonl").is_file():
        out["dev"] = counted(evaluate(reader, dev))
        for condition in SPOILT:
            with tempfile.TemporaryDirectory() as tmp:
                spoilt_set(dev, Path(tmp), condition, seed)
                out[condition] = counted(evaluate(reader, tmp))
    if (src / "labels.jsonl").is_file():
        with tempfile.TemporaryDirectory() as tmp:
            if every_eighth(Path(tmp), src):
                out["every-8th"] = counted(evaluate(reader, tmp))
        _, photos = split_real(real_index_records(src))
        for condition in ("clean", *CLOSE_UP_SPOILT) if photos else ():
            def spoilt(image: Any, k: int, condition: str = condition) -> Any:
                rng = np.random.default_rng([seed, CONDITIONS.index(condition), k])
                return spoil(image, condition, rng)[0]

            name = "close-ups" if condition == "clean" else f"close-ups {condition}"
            out[name] = summed(tally(reader, photos, src,
                                     spoil=None if condition == "clean" else spoilt).values())
    out["all"] = summed(out.values())
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="hybrid")
    ap.add_argument("--dev", type=Path, default=DEV)
    ap.add_argument("--src", type=Path, default=REAL_TRAIN)
    ap.add_argument("--without-dev", action="store_true",
                    help="leave out the dev photos and their spoilt copies")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--courts-by-index", action="store_true",
                    help="hybrid: which court a card is (J, Q, K), its indices say "
                         "(IndexReader courts_by_index, as the table reads an unjudged deck)")
    add_look_options(ap)
    args = ap.parse_args()
    kw: dict[str, object] = {"courts_by_index": True} if args.courts_by_index else {}
    kw.update(look_kwargs(args))
    reader = load_reader(args.reader, **kw)
    t0 = time.time()
    sets = pooled(reader, None if args.without_dev else args.dev, args.src)
    if len(sets) == 1:
        print(f"no labelled real photos in {args.dev} or {args.src}")
        return 2
    if args.json:
        print(json.dumps(sets))
        return 0
    print(f"reader: {args.reader} ({type(reader).__name__})")
    report(sets)
    print(f"  {time.time() - t0:.0f} s in all")
    return 0


def report(sets: dict[str, list[int]]) -> None:
    """One line per set: its cards right, wrong and missed, precision and recall."""
    for name, (right, wrong, missed) in sets.items():
        print(f"  {name:<22} {right + missed:5d} cards: {right:5d} right, {wrong:3d} wrong, "
              f"{missed:4d} missed (precision {right / max(right + wrong, 1):.3f} "
              f"recall {right / max(right + missed, 1):.3f})")


if __name__ == "__main__":
    raise SystemExit(main())
