"""Benchmark: how many labelled indices of a localiser dataset folder a localiser boxes.

For a folder as `vision.training.index_data` writes them (``images/`` and one-class YOLO
``labels/``: `real-val`, `real-mined`, `real-small-val` ...), prints the share of the
labelled index boxes that one of the localiser's boxes (every look of the photo reader:
`IndexReader.index_boxes`) overlaps by IoU >= 0.5, at each threshold given, and the boxes
per image. With no ``--localiser``, the photo reader's (`photo_localiser_path`).

    python benchmarks/bench_localiser_labels.py datasets/index/real-mined [--conf 0.1 0.25]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.readers.index_reader import IndexReader, available, photo_localiser_path  # noqa: E402
from vision.training.detector_eval import iou_matrix  # noqa: E402
from vision.training.index_data import yolo_boxes  # noqa: E402

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


def main() -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--conf", type=float, nargs="+", default=[0.1, 0.25],
                    help="localiser thresholds")
    ap.add_argument("--localiser", type=Path, default=None)
    args = ap.parse_args()
    if not available():
        print("needs the index models")
        return 2
    labels = args.folder / "labels"
    images = sorted(p for p in (args.folder / "images").iterdir()
                    if p.suffix.lower() in IMAGE_SUFFIXES)
    reader = IndexReader(card_boxes=False, ocr=False,
                         localiser=args.localiser or photo_localiser_path())
    lowest = min(args.conf)
    total, hits, boxes_seen = 0, dict.fromkeys(args.conf, 0), dict.fromkeys(args.conf, 0)
    t0 = time.time()
    for path in images:
        img = cv2.imread(str(path))
        label = labels / f"{path.stem}.txt"
        if img is None or not label.exists():
            print(f"{path}: no image or no label; skipped")
            continue
        truth = yolo_boxes(label, img.shape[1], img.shape[0])
        boxes, scores = reader.index_boxes(img, lowest)
        total += len(truth)
        for conf in args.conf:
            kept = boxes[scores >= conf]
            boxes_seen[conf] += len(kept)
            if len(truth) and len(kept):
                hits[conf] += int((iou_matrix(truth, kept).max(axis=1) >= 0.5).sum())
    print(f"localiser {reader.localiser_path}; {args.folder}: {len(images)} images, "
          f"{total} labelled indices")
    for conf in args.conf:
        share = hits[conf] / total if total else 0.0
        print(f"  at {conf:.2f}: {hits[conf]} boxed at IoU 0.5 ({share:.3f}), "
              f"{boxes_seen[conf] / max(1, len(images)):.1f} boxes an image")
    print(f"  {time.time() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
