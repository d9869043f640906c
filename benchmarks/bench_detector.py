"""Benchmark: milliseconds per 640-px frame for the shipped card detector on this CPU.

Runs `vision.detector.CardDetector` (onnxruntime, 2 threads by default) on rendered table
scenes 640 px wide and prints the median and 90th percentile time per frame, including
letterboxing, the network and the per-card merge. Goal: <= 40 ms on 2 cores.

    python benchmarks/bench_detector.py [--frames 100] [--threads 2] [--imgsz N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision import decks  # noqa: E402
from vision.datagen import render_scene  # noqa: E402
from vision.detector import CardDetector  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--imgsz", type=int, default=None)
    ap.add_argument("--model", default=None)
    ap.add_argument("--one-stage", action="store_true",
                    help="the detector's own classes, without the crop classifier")
    args = ap.parse_args()
    det = CardDetector(args.model, imgsz=args.imgsz, threads=args.threads,
                       classifier=False if args.one_stage else "auto")
    names = [d for d in decks.HELDOUT_DECKS if d in decks.available_decks()] or \
        decks.available_decks()
    rng = np.random.default_rng(7)
    frames = []
    for _ in range(10):
        s = render_scene(rng, names, size=640)
        frame = np.zeros((480, 640, 3), np.uint8)
        img = s.image[:480, :640]
        frame[: img.shape[0], : img.shape[1]] = img
        frames.append(frame)
    for f in frames[:3]:
        det.detect(f)  # warm up
    times = []
    for i in range(args.frames):
        t0 = time.perf_counter()
        det.detect(frames[i % len(frames)])
        times.append((time.perf_counter() - t0) * 1000)
    t = np.array(times)
    mode = "detect+classify" if det.classifier is not None else "one stage"
    print(f"card detector {det.model_path.name} ({mode}): imgsz {det.imgsz}, "
          f"{args.threads} threads, "
          f"640x480 frames: median {np.median(t):.1f} ms, p90 {np.percentile(t, 90):.1f} ms "
          f"per frame ({1000 / np.median(t):.0f} fps) over {args.frames} frames")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
