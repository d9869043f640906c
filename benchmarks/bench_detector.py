"""Benchmark: milliseconds per 640x480 frame for the shipped card reader on this CPU.

Runs the readers the app uses (`vision.readers.load.load_reader`; onnxruntime, 2 threads by
default) on rendered table scenes with about ten cards and prints the median and 90th
percentile time per frame, everything included (letterbox, networks, per-card fusion). By
default it times the reader the live table reads its zone views with (``auto`` at the table:
the whole-card reader), then the one ``companion detect`` reads photos with (``auto`` for
photos: the hybrid); ``--reader`` times one reader. Goal: <= 40 ms on 2 cores.

    python benchmarks/bench_detector.py [--frames 100] [--threads 2]
        [--reader auto|index|hybrid|card]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.reader_looks import add_look_options, look_kwargs  # noqa: E402
from vision.readers.load import load_reader  # noqa: E402
from vision.render import decks  # noqa: E402
from vision.training.scenes import render_scene  # noqa: E402


def scene_frames(count: int = 10, seed: int = 7) -> list[np.ndarray]:
    """``count`` 640x480 frames of rendered table scenes of the held-out designs (those
    installed; else every design), each with at least six cards."""
    names = [d for d in decks.HELDOUT_DECKS if d in decks.available_decks()] or \
        decks.available_decks()
    rng = np.random.default_rng(seed)
    frames: list[np.ndarray] = []
    while len(frames) < count:
        s = render_scene(rng, names, size=640, kind=str(rng.choice(["scatter", "row", "board"])))
        if len(s.cards) < 6:
            continue
        frame = np.zeros((480, 640, 3), np.uint8)
        img = s.image[:480, :640]
        frame[: img.shape[0], : img.shape[1]] = img
        frames.append(frame)
    return frames


def time_reader(det: Any, frames: list[np.ndarray], count: int) -> np.ndarray:
    """Milliseconds of each of ``count`` reads of the frames in turn, after a warm-up."""
    for f in frames[:3]:
        det.detect(f)  # warm up
    times = []
    for i in range(count):
        t0 = time.perf_counter()
        det.detect(frames[i % len(frames)])
        times.append((time.perf_counter() - t0) * 1000)
    return np.array(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--imgsz", type=int, default=None)
    ap.add_argument("--model", default=None)
    ap.add_argument("--one-stage", action="store_true",
                    help="card reader: the detector's own classes, without the crop classifier")
    ap.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="auto",
                    help="auto (default): the reader the live table reads with, then the one "
                         "photos are read with")
    ap.add_argument("--no-ocr", action="store_true", help="index reader without the rank OCR")
    add_look_options(ap)
    args = ap.parse_args()
    kw: dict[str, Any] = {}
    if args.reader == "card" or args.model:
        kw = {"imgsz": args.imgsz, "classifier": False if args.one_stage else "auto"}
    else:
        if args.no_ocr:
            kw["ocr"] = False
        kw.update(look_kwargs(args))
    # (what it is, the reader): "auto" as the table resolves it, then as photos do (these
    # with ``kw``: --no-ocr).
    if args.reader == "auto" and not args.model:
        runs = [("at the table: ", load_reader("auto", threads=args.threads, table=True)),
                ("photos: ", load_reader("auto", threads=args.threads, **kw))]
    else:
        runs = [("", load_reader(args.reader, args.model, threads=args.threads, **kw))]
    frames = scene_frames()
    for what, det in runs:
        t = time_reader(det, frames, args.frames)
        if hasattr(det, "heads"):
            mode = f"index-first, localiser {det.localiser_path.name}"
        else:
            mode = (f"card detector {det.model_path.name}, "
                    f"{'detect+classify' if det.classifier is not None else 'one stage'}")
        cards = sum(len(s) for s in (det.detect(f) for f in frames)) / len(frames)
        print(f"{what}{mode}: imgsz {det.imgsz}, {cards:.1f} cards read per frame, "
              f"{args.threads} threads, "
              f"640x480 frames: median {np.median(t):.1f} ms, p90 {np.percentile(t, 90):.1f} "
              f"ms per frame ({1000 / np.median(t):.0f} fps) over {args.frames} frames",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
