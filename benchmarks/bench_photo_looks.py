"""Benchmark: the photo reader with one more look at each photo, on the pooled real photos
(`bench_real_pooled.py`), to weigh a look before it goes into the reader.

- ``--turned DEG``: the photo is also read turned DEG and -DEG degrees (the canvas grown to
  hold it, its edges repeated); a card read there is added, its box turned back, where the
  straight look read no card of that code and no box overlaps it (IoU 0.3), at a confidence
  of ``--turned-min`` or more. Cards lying at some 45 degrees show their indices upright to
  one of the turned looks.
- ``--denoise H``: the photo is read after OpenCV's non-local-means denoising of strength H
  (a webcam's sensor noise and JPEG blocks smoothed), instead of as it is.

    python benchmarks/bench_photo_looks.py --turned 45 [--turned-min 0.7] [--with-dev]
    python benchmarks/bench_photo_looks.py --denoise 6
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_real_pooled import DEV, pooled, report  # noqa: E402

from vision.detections import Detections  # noqa: E402
from vision.readers.load import load_reader  # noqa: E402
from vision.training.detector_eval import iou_matrix  # noqa: E402


def turned(frame: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """``frame`` turned ``degrees`` (counter-clockwise) on a canvas that holds all of it, and
    the 2x3 matrix that takes the turned canvas's pixels back to the frame's."""
    h, w = frame.shape[:2]
    c, s = abs(np.cos(np.radians(degrees))), abs(np.sin(np.radians(degrees)))
    nw, nh = int(round(w * c + h * s)), int(round(w * s + h * c))
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    img = cv2.warpAffine(frame, m, (nw, nh), borderMode=cv2.BORDER_REPLICATE)
    return img, cv2.invertAffineTransform(m)


def box_back(box: np.ndarray, back: np.ndarray, width: int, height: int) -> np.ndarray:
    """The frame box around a turned look's ``box`` (x1 y1 x2 y2), clipped to the frame."""
    x1, y1, x2, y2 = (float(v) for v in box)
    pts = cv2.transform(np.array([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]], np.float32),
                        back)[0]
    return np.array([pts[:, 0].min().clip(0, width), pts[:, 1].min().clip(0, height),
                     pts[:, 0].max().clip(0, width), pts[:, 1].max().clip(0, height)],
                    np.float32)


class WithLooks:
    """A reader that reads each photo as ``reader`` does, with a turned look or denoised."""

    def __init__(self, reader: Any, turn: float = 0.0, turn_min: float = 0.7,
                 denoise: float = 0.0) -> None:
        self.reader, self.turn, self.turn_min, self.denoise = reader, turn, turn_min, denoise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.reader, name)

    def detect(self, frame: np.ndarray, conf: float | None = None) -> Detections:
        if self.denoise > 0 and frame.ndim == 3:
            frame = cv2.fastNlMeansDenoisingColored(frame, None, self.denoise, self.denoise,
                                                    5, 15)
        dets = self.reader.detect(frame, conf)
        if self.turn <= 0:
            return dets
        h, w = frame.shape[:2]
        boxes, codes, confs = list(dets.xyxy), list(dets.class_id), list(dets.confidence)
        for degrees in (self.turn, -self.turn):
            img, back = turned(frame, degrees)
            more = self.reader.detect(img, conf)
            for box, code, score in zip(more.xyxy, more.class_id, more.confidence,
                                        strict=True):
                if score < self.turn_min or code in codes:
                    continue
                b = box_back(box, back, w, h)
                if boxes and (iou_matrix(b[None], np.array(boxes, np.float32)) > 0.3).any():
                    continue
                boxes.append(b)
                codes.append(code)
                confs.append(score)
        return Detections(np.array(boxes, np.float32).reshape(-1, 4),
                          np.array(confs, np.float32), np.array(codes, dets.class_id.dtype))

    def detect_many(self, frames: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]:
        return [self.detect(f, conf) for f in frames]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="hybrid")
    ap.add_argument("--turned", type=float, default=0.0, help="degrees of the turned looks")
    ap.add_argument("--turned-min", type=float, default=0.7,
                    help="least confidence of a card taken from a turned look")
    ap.add_argument("--denoise", type=float, default=0.0, help="denoising strength (0: off)")
    ap.add_argument("--with-dev", action="store_true",
                    help="the dev photos and their spoilt copies too (for measuring, after "
                         "a choice)")
    args = ap.parse_args()
    reader = WithLooks(load_reader(args.reader), args.turned, args.turned_min, args.denoise)
    t0 = time.time()
    sets = pooled(reader, DEV if args.with_dev else None)
    if len(sets) == 1:
        print("no labelled real photos found")
        return 2
    print(f"reader: {args.reader}; turned looks {args.turned:g} degrees (from "
          f"{args.turned_min:g}), denoising {args.denoise:g}")
    report(sets)
    print(f"  {time.time() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
