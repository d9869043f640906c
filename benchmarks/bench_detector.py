"""Benchmark: milliseconds per 640x480 frame for the shipped card reader on this CPU.

Runs the reader the app uses (`vision.readers.load.load_reader`: index-first by default, or
``--reader card`` for the whole-card detector; onnxruntime, 2 threads by default) on rendered
table scenes with about ten cards and prints the median and 90th percentile time per frame,
everything included (letterbox, networks, per-card fusion). Goal: <= 40 ms on 2 cores.

    python benchmarks/bench_detector.py [--frames 100] [--threads 2] [--reader index|card]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.readers.load import load_reader  # noqa: E402
from vision.render import decks  # noqa: E402
from vision.training.scenes import render_scene  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--imgsz", type=int, default=None)
    ap.add_argument("--model", default=None)
    ap.add_argument("--one-stage", action="store_true",
                    help="card reader: the detector's own classes, without the crop classifier")
    ap.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="auto")
    ap.add_argument("--no-ocr", action="store_true", help="index reader without the rank OCR")
    args = ap.parse_args()
    kw: dict[str, Any] = {}
    if args.reader == "card" or args.model:
        kw = {"imgsz": args.imgsz, "classifier": False if args.one_stage else "auto"}
    elif args.no_ocr:
        kw = {"ocr": False}
    det = load_reader(args.reader, args.model, threads=args.threads, **kw)
    names = [d for d in decks.HELDOUT_DECKS if d in decks.available_decks()] or \
        decks.available_decks()
    rng = np.random.default_rng(7)
    frames: list[np.ndarray] = []
    while len(frames) < 10:
        s = render_scene(rng, names, size=640, kind=str(rng.choice(["scatter", "row", "board"])))
        if len(s.cards) < 6:
            continue
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
    if hasattr(det, "heads"):
        mode = f"index-first, localiser {det.localiser_path.name}"
    else:
        mode = (f"card detector {det.model_path.name}, "
                f"{'detect+classify' if det.classifier is not None else 'one stage'}")
    cards = sum(len(s) for s in (det.detect(f) for f in frames)) / len(frames)
    print(f"{mode}: imgsz {det.imgsz}, {cards:.1f} cards read per frame, "
          f"{args.threads} threads, "
          f"640x480 frames: median {np.median(t):.1f} ms, p90 {np.percentile(t, 90):.1f} ms "
          f"per frame ({1000 / np.median(t):.0f} fps) over {args.frames} frames")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
