"""The photo reader's extra looks as options of the benchmarks that read photos
(`bench_reader_conditions.py`, `bench_real_pooled.py`, `bench_detector.py`): ``--level-below``
and ``--sharpen`` (`vision.readers.index_reader.IndexReader`), each left to the reader's own
setting unless given."""

from __future__ import annotations

import argparse


def add_look_options(ap: argparse.ArgumentParser) -> None:
    """``--level-below`` and ``--sharpen`` on ``ap``."""
    ap.add_argument("--level-below", type=float, default=None,
                    help="also read a frame whose grey levels span less than this stretched "
                         "(IndexReader level_below; 0: never; default: the reader's own)")
    ap.add_argument("--sharpen", type=float, default=None,
                    help="also read a frame no larger than twice the localiser's size "
                         "with its edges sharpened this much (IndexReader sharpen; 0: "
                         "never; default: the reader's own)")


def look_kwargs(args: argparse.Namespace) -> dict[str, float]:
    """The `IndexReader` settings the options of `add_look_options` give (none unless given)."""
    names = {"level_below": args.level_below, "sharpen": args.sharpen}
    return {k: float(v) for k, v in names.items() if v is not None}
