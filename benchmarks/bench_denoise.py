"""Benchmark: what averaging a frame where the table lies still costs (`vision.denoise`).

A rendered round's frames (the demo table, 640x480 by default) go through a `StillAverage`
one by one, as the table's pipeline passes them, first as the renderer made them, then spoilt
as a cheap webcam in a dim room spoils them (`WEBCAM_SPOILT`: grain, salt-and-pepper specks,
half the contrast). Rendering is not timed. Per set it prints the milliseconds a frame
(median, p90, mean) and how many frames were timed.

    python benchmarks/bench_denoise.py [--game michigan-rummy] [--seed 0] [--seconds 20]
        [--depth 8] [--width 640 --height 480]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.denoise import AVERAGE_FRAMES, StillAverage  # noqa: E402
from vision.render.demo import simulated_round  # noqa: E402
from vision.render.plan import WEBCAM_SPOILT, RenderConfig  # noqa: E402
from vision.render.table import TableVideo  # noqa: E402


def timed(frames: list[np.ndarray], depth: int) -> list[float]:
    """Milliseconds each frame took through one `StillAverage`, in order."""
    average = StillAverage(depth)
    out = []
    for frame in frames:
        start = time.perf_counter()
        average(frame)
        out.append((time.perf_counter() - start) * 1000.0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="michigan-rummy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=20.0, help="length of table video used")
    ap.add_argument("--depth", type=int, default=AVERAGE_FRAMES, help="frames averaged")
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=480)
    args = ap.parse_args()

    events = simulated_round(args.game, seed=args.seed)
    print(f"{args.game} seed {args.seed}, {args.width}x{args.height}, depth {args.depth}")
    print(f"{'frames':24s} {'n':>5s} {'median ms':>10s} {'p90 ms':>8s} {'mean ms':>8s}")
    for name, spoil in (("as rendered", {}), ("cheap webcam", WEBCAM_SPOILT)):
        cfg = RenderConfig(width=args.width, height=args.height, seed=args.seed, **spoil)
        frames = [ft.image for ft in TableVideo(events, cfg).frames() if ft.t <= args.seconds]
        ms = timed(frames, args.depth)[1:]  # (the first frame only starts the sums)
        print(f"{name:24s} {len(ms):5d} {np.median(ms):10.2f} {np.percentile(ms, 90):8.2f} "
              f"{np.mean(ms):8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
