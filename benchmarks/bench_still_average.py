"""Benchmark: the table's cards read from a cheap webcam's frames as they come, and averaged
where the table lies still (`vision.denoise.StillAverage`).

Rendered rounds (the demo table's layout, the shipped table reader zone by zone) are spoilt
as a cheap webcam in a dim room spoils its frames (by default `WEBCAM_SPOILT`: `RenderConfig`
``noise``, ``salt``, ``contrast``). Every ``--every``-th frame is read, every zone in it, with
no reading kept for a still view, so that only the picture differs (the averaging itself
sees every frame). For the uppermost card with a corner index showing in each zone (the card
a play lays there) that has lain still for at least ``--settled`` frames, it counts whether a
reading of its code lies on it. Per setting it prints:

- ``read``: the share of those top cards read right, in all and by how many frames they had
  lain still (1-2, 3-7, 8 or more: the average holds at most that many frames);
- ``wrong / frame``: readings of a code that lies nowhere near them, per frame read.

    python benchmarks/bench_still_average.py [--games michigan-rummy,oh-claire,great-lakes]
        [--seeds 2] [--first-seed 40] [--averages 0,8,16] [--noise 14 --salt 0.01
        --contrast 0.5] [--blur 1.2] [--every 3] [--deck dondorf]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from calibration.profile import TableProfile  # noqa: E402
from vision.denoise import StillAverage  # noqa: E402
from vision.readers.load import checked_table_reader  # noqa: E402
from vision.render.demo import simulated_round  # noqa: E402
from vision.render.plan import WEBCAM_SPOILT, RenderConfig  # noqa: E402
from vision.render.table import FrameTruth, TableVideo  # noqa: E402
from vision.zones import ZoneReader  # noqa: E402

#: How long a card had lain still when it was read (frames): the bins reported.
BINS = ((1, 2), (3, 7), (8, 10**9))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="michigan-rummy,oh-claire,great-lakes")
    ap.add_argument("--first-seed", type=int, default=40)
    ap.add_argument("--seeds", type=int, default=2, help="rounds per game")
    ap.add_argument("--averages", default="0,8,16",
                    help="comma-separated frames averaged (0: each frame as it comes)")
    ap.add_argument("--noise", type=float, default=WEBCAM_SPOILT["noise"])
    ap.add_argument("--salt", type=float, default=WEBCAM_SPOILT["salt"])
    ap.add_argument("--contrast", type=float, default=WEBCAM_SPOILT["contrast"])
    ap.add_argument("--blur", type=float, default=0.0,
                    help="soft focus: a Gaussian blur of this many pixels (RenderConfig blur)")
    ap.add_argument("--every", type=int, default=3, help="read one frame in this many")
    ap.add_argument("--settled", type=int, default=1,
                    help="frames a card must have lain still to count")
    ap.add_argument("--fps", type=float, default=10.0)
    ap.add_argument("--deck", default=None,
                    help="the deck design on the table (default: the demo's; e.g. dondorf, a "
                         "held-out design the models never saw)")
    args = ap.parse_args()
    depths = [int(a) for a in args.averages.split(",")]
    right: dict[int, dict[tuple[int, int], list[int]]] = {
        d: defaultdict(lambda: [0, 0]) for d in depths}
    wrong = dict.fromkeys(depths, 0)
    frames_read = dict.fromkeys(depths, 0)
    t0 = time.time()
    for game in args.games.split(","):
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            cfg = RenderConfig(seed=seed, fps=args.fps, noise=args.noise, salt=args.salt,
                               contrast=args.contrast, blur=args.blur)
            video = TableVideo(simulated_round(game, seed=seed),
                               cfg if args.deck is None else replace(cfg, deck=args.deck))
            profile = video.profile()
            truths = list(video.frames())
            ages = still_ages(truths)
            for depth in depths:
                average = StillAverage(depth) if depth > 1 else None
                # The table's reader afresh (it judges the deck as it reads), every zone of
                # every frame read, none kept for a still view.
                zones = ZoneReader(checked_table_reader(), still_diff=0.0)
                for i, ft in enumerate(truths):
                    frame = average(ft.image) if average is not None else ft.image
                    if i % args.every:
                        continue
                    dets = zones.detect_table(frame, profile)
                    frames_read[depth] += 1
                    codes = [dets.names[int(c)] for c in dets.class_id]
                    centres = (dets.xyxy[:, :2] + dets.xyxy[:, 2:]) / 2 if len(dets) else \
                        np.zeros((0, 2))
                    shown = {code: box for code, box, _vis in ft.cards}
                    for code, (x, y) in zip(codes, centres, strict=True):
                        box = shown.get(code)
                        if box is None or not near(box, x, y):
                            wrong[depth] += 1
                    for k in top_cards(ft, profile):
                        code, box, _visible = ft.cards[k]
                        age = ages[i][k]
                        if age < args.settled:
                            continue
                        hit = any(c == code and near(box, x, y)
                                  for c, (x, y) in zip(codes, centres, strict=True))
                        for lo, hi in BINS:
                            if lo <= age <= hi:
                                right[depth][(lo, hi)][0] += hit
                                right[depth][(lo, hi)][1] += 1
            print(f"  {game} {seed}: " + ", ".join(
                f"{d}: {share(right[d])}" for d in depths), flush=True)
    print(f"deck {args.deck or 'of the demo table'}; noise {args.noise}, salt {args.salt}, "
          f"contrast {args.contrast}, blur {args.blur}; games "
          f"{args.games}, seeds {args.first_seed}-{args.first_seed + args.seeds - 1}; one "
          f"frame in {args.every} read, every zone")
    print("| frames averaged | read | lain still 1-2 | 3-7 | 8+ | wrong / frame |")
    print("| --- | --- | --- | --- | --- | --- |")
    for d in depths:
        cells = [f"{r[0] / max(r[1], 1):.3f} ({r[1]})" for r in
                 (right[d][b] for b in BINS)]
        print(f"| {d} | {share(right[d])} | " + " | ".join(cells)
              + f" | {wrong[d] / max(frames_read[d], 1):.3f} |")
    print(f"{time.time() - t0:.0f} s")
    return 0


def share(bins: dict[tuple[int, int], list[int]]) -> str:
    hit = sum(v[0] for v in bins.values())
    n = sum(v[1] for v in bins.values())
    return f"{hit / max(n, 1):.3f}"


def near(box: Sequence[float], x: float, y: float, margin: float = 8.0) -> bool:
    """Does a reading centred at (``x``, ``y``) lie on the card boxed ``box`` (frame
    pixels, with ``margin`` to spare)?"""
    return bool(box[0] - margin <= x <= box[2] + margin
                and box[1] - margin <= y <= box[3] + margin)


def top_cards(ft: FrameTruth, profile: TableProfile) -> list[int]:
    """The uppermost card with an index showing in each zone of a frame (`FrameTruth`), as
    indices into its ``cards`` (drawn bottom first)."""
    if not ft.poses:
        return []
    board = np.array([(x, y) for x, y, _a in ft.poses], np.float64).reshape(-1, 2)
    zone_of = profile.zone_index(board)
    top: dict[int, int] = {}
    for k, (_code, _box, visible) in enumerate(ft.cards):
        if visible and zone_of[k] >= 0:
            top[int(zone_of[k])] = k
    return sorted(top.values())


def still_ages(truths: Sequence[FrameTruth]) -> list[list[int]]:
    """Per frame, per card (in ``FrameTruth.cards`` order): for how many frames in a row,
    this one included, the card has lain in the same pose with an index showing."""
    out: list[list[int]] = []
    last: dict[str, tuple[tuple[float, ...], int]] = {}
    for ft in truths:
        now: dict[str, tuple[tuple[float, ...], int]] = {}
        ages = []
        for k, (code, _box, visible) in enumerate(ft.cards):
            pose = tuple(round(v, 3) for v in ft.poses[k]) if ft.poses else (0.0, 0.0, 0.0)
            before = last.get(code)
            age = before[1] + 1 if before is not None and before[0] == pose and visible else (
                1 if visible else 0)
            now[code] = (pose, age)
            ages.append(age)
        last = now
        out.append(ages)
    return out


if __name__ == "__main__":
    raise SystemExit(main())
