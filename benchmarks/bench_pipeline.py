"""Benchmark the live pipeline on the rendered table: frames per second of the whole pipeline
(detector + zones + tracker + referee) and the delay from a card lying still to its event.

    python benchmarks/bench_pipeline.py                       # the shipped model, 640 px frames
    python benchmarks/bench_pipeline.py --model m.onnx --imgsz 320
    python benchmarks/bench_pipeline.py --detector truth      # everything but the model

Frames are rendered first (not timed), then fed (1) as fast as the pipeline takes them, for
throughput, and (2) paced like a live camera at --fps, with stale frames dropped, for latency:
for each card event, wall time of its announcement minus the wall time the card came to rest.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.denoise import AVERAGE_FRAMES  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.pipeline.results import FrameResult  # noqa: E402
from vision.pipeline.table import TablePipeline  # noqa: E402
from vision.render.demo import simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.render.truth import TruthDetector
from vision.sources.frames import Frame, FrameSource  # noqa: E402
from vision.zones import TABLE_STILL_DIFF  # noqa: E402


class PacedFrames(FrameSource):
    """Pre-rendered frames delivered in real time like a camera (stamped with wall time)."""

    live = True

    def __init__(self, frames: list[np.ndarray], fps: float) -> None:
        self.frames = frames
        self._fps = fps
        self.start = 0.0
        self.i = 0
        self.closed = False

    def read(self) -> Frame | None:
        if self.closed or self.i >= len(self.frames):
            return None
        if self.i == 0:
            self.start = time.perf_counter()
        due = self.start + self.i / self._fps
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        f = Frame(self.frames[self.i], due, self.i)
        self.i += 1
        return f

    def close(self) -> None:
        self.closed = True


class IndexedTruth:
    """The truth detector keyed by the frame index (for pre-rendered frames)."""

    def __init__(self, truths: list[Any]) -> None:
        self.truths = truths
        self.by_id = {id(t.image): t for t in truths}

    def detect(self, frame: np.ndarray) -> Detections:
        ft = self.by_id.get(id(frame))
        holder = type("S", (), {"last": ft})()
        return TruthDetector(holder).detect(frame)  # type: ignore[arg-type]


class CostedTruth:
    """Truth detections, after paying for a real network's inference on the frame."""

    def __init__(self, inner: IndexedTruth, onnx_path: str, imgsz: int) -> None:
        from vision.readers.detector import letterbox
        from vision.readers.onnx import cpu_session

        self.inner = inner
        self.imgsz = imgsz
        self.letterbox = letterbox
        self.sess = cpu_session(onnx_path)
        self.input = self.sess.get_inputs()[0].name

    def detect(self, frame: np.ndarray) -> Detections:
        img, _, _ = self.letterbox(frame, self.imgsz)
        x = np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1))[None].astype(np.float32)
        self.sess.run(None, {self.input: x / 255.0})
        return self.inner.detect(frame)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--detector", choices=["model", "truth"], default="model")
    ap.add_argument("--cost-model", help="with --detector truth: also run this ONNX network on "
                                         "every frame (same architecture as the shipped one, "
                                         "any weights) to time the whole pipeline before the "
                                         "trained weights exist")
    ap.add_argument("--reader", choices=["auto", "index", "hybrid", "card", "checked"],
                    default="auto",
                    help="the card reader (default: the shipped choice); checked: the table's "
                         "own, the hybrid until the deck is judged (`checked_table_reader`)")
    ap.add_argument("--model", help="ONNX weights (default: the shipped model)")
    ap.add_argument("--imgsz", type=int, help="detector input size (default: the model's)")
    ap.add_argument("--full-frame", action="store_true",
                    help="run the model on the whole frame, not on the zone views")
    ap.add_argument("--still-diff", type=float, default=TABLE_STILL_DIFF,
                    help="zone views: keep the reading of a still view (grey levels; 0: read "
                         "every view in every frame) (default: the table's, %(default)s)")
    ap.add_argument("--agree", type=int, default=3,
                    help="with --still-diff: reads in a row that must agree before a still "
                         "view's reading is kept")
    ap.add_argument("--average", type=int, default=AVERAGE_FRAMES,
                    help="frames averaged where the picture lies still (0: none) "
                         "(default: the pipeline's, %(default)s)")
    ap.add_argument("--noise", type=float, default=RenderConfig.noise,
                    help="the rendered camera's noise (grey levels)")
    ap.add_argument("--salt", type=float, default=0.0,
                    help="share of pixels turned black or white (a cheap webcam)")
    ap.add_argument("--game", default="michigan-rummy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fps", type=float, default=15.0, help="camera frame rate (live run)")
    ap.add_argument("--width", type=int, default=640)
    ap.add_argument("--height", type=int, default=480)
    ap.add_argument("--seconds", type=float, default=40.0, help="length of table video used")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    events = simulated_round(args.game, seed=args.seed)
    cfg = RenderConfig(width=args.width, height=args.height, fps=args.fps, seed=args.seed,
                       noise=args.noise, salt=args.salt)
    video = TableVideo(events, cfg)
    truths = [ft for ft in video.frames() if ft.t <= args.seconds]
    frames = [ft.image for ft in truths]
    profile = video.profile()
    if args.detector == "truth":
        detector: Any = IndexedTruth(truths)
        if args.cost_model:
            detector = CostedTruth(detector, args.cost_model, args.imgsz or 320)
    else:
        from vision.readers.load import load_reader
        from vision.zones import ZoneReader

        kw: dict[str, Any] = {"imgsz": args.imgsz} if args.imgsz else {}
        if args.reader == "checked":
            from vision.readers.load import checked_table_reader

            detector = checked_table_reader()
        else:
            detector = load_reader(args.reader, args.model, table=not args.full_frame, **kw)
        if not args.full_frame:
            detector = ZoneReader(detector, still_diff=args.still_diff, agree=args.agree)

    def pipeline(log: Path) -> TablePipeline:
        return TablePipeline(profile, detector, None, log, script=video.truth.script,
                             average=args.average)

    with tempfile.TemporaryDirectory() as tmp:
        # (1) throughput
        pipe = pipeline(Path(tmp) / "a.jsonl")
        for f in frames[:5]:  # warm up
            if hasattr(detector, "detect_table"):
                detector.detect_table(f, profile)
            else:
                detector.detect(f)
        t0 = time.perf_counter()
        ms = []
        views_read = 0  # zone views run through the reader (a whole frame counts as one)
        for i, f in enumerate(frames):
            r = pipe.process(f, i / args.fps, i)
            ms.append(r.ms)
            views_read += int(getattr(detector, "last_read", 1))
        elapsed = time.perf_counter() - t0
        throughput = len(frames) / elapsed
        logged_offline = pipe.visual_count
        pipe.finish()

        # (2) live: paced camera, stale frames dropped, wall-clock delays
        pipe = pipeline(Path(tmp) / "b.jsonl")
        src = PacedFrames(frames, args.fps)
        announced: list[tuple[float, dict[str, Any]]] = []

        def on_result(res: FrameResult) -> None:
            now = time.perf_counter()
            for _line, ev in res.events:
                if ev.get("event") in ("play", "reveal", "trump"):
                    announced.append((now, ev))

        stats = pipe.run(src, threading.Event(), on_result)
        pipe.finish()
    placed = [v for v in video.truth.visual if v["t_placed"] <= args.seconds]
    def cards_of(ev: dict[str, Any]) -> frozenset[str]:
        return frozenset([ev["card"]] if "card" in ev else ev.get("cards") or [])

    # Pair each logged event with the true move of the same cards (a misread has no pair).
    delays_placed, delays_free = [], []
    unmatched = list(placed)
    for now, ev in announced:
        match = next((tv for tv in unmatched if cards_of(tv) == cards_of(ev)
                      and tv.get("player") == ev.get("player")), None)
        if match is None:
            continue
        unmatched.remove(match)
        delays_placed.append(now - (src.start + match["t_placed"]))
        delays_free.append(now - (src.start + match["t_free"]))
    report = {
        "detector": args.detector if args.detector == "truth" else str(getattr(
            getattr(detector, "detector", detector), "model_path",
            type(getattr(detector, "detector", detector)).__name__)),
        "reads": "whole frame" if args.full_frame or args.detector == "truth" else "zone views",
        "imgsz": getattr(getattr(detector, "detector", detector), "imgsz", None),
        "frame": [args.width, args.height],
        "frames": len(frames),
        "throughput_fps": round(throughput, 1),
        "process_ms_median": round(statistics.median(ms), 1),
        "process_ms_p90": round(float(np.percentile(ms, 90)), 1),
        "views_read_offline": views_read,
        "live_camera_fps": args.fps,
        "live_processed_fps": round(stats.fps, 1),
        "live_dropped": stats.dropped,
        "card_events_expected": len(placed),
        "card_events_offline": logged_offline,
        "card_events_live": len(announced),
        "card_events_live_correct": len(delays_placed),
        "delay_from_still_ms_median": round(1000 * statistics.median(delays_placed), 0)
        if delays_placed else None,
        "delay_from_still_ms_p90": round(1000 * float(np.percentile(delays_placed, 90)), 0)
        if delays_placed else None,
        "delay_from_hand_gone_ms_median": round(1000 * statistics.median(delays_free), 0)
        if delays_free else None,
    }
    if args.json:
        print(json.dumps(report))
    else:
        for k, v in report.items():
            print(f"{k:32s} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
