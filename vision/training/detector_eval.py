"""Measure the shipped card detector: card-level precision/recall, mAP50-95, phantom cards.

Runs the ONNX runtime detector (exactly what the app uses) over a labelled image set: a YOLO
folder (``images/`` + ``labels/``, e.g. the rendered held-out decks) or a folder with a
``labels.jsonl`` (the real-photo sets). Usage::

    python -m vision.training.detector_eval /work/shared/real-cards-dev datasets/cards/heldout \\
        --empty datasets/cards/empty
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.readers.detector import CardDetector, iou_matrix, pair_areas

Truth = list[tuple[int, tuple[float, float, float, float]]]


def load_set(folder: str | Path) -> Iterator[tuple[Path, Truth]]:
    """Images and their ground truth (class id, xyxy pixels) from a labelled folder."""
    root = Path(folder)
    jl = root / "labels.jsonl"
    if jl.exists():
        for line in jl.read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            rows: Truth = []
            for c in rec["cards"]:
                x1, y1, x2, y2 = (float(v) for v in c["box"])
                rows.append((CARD_CODES.index(c["card"]), (x1, y1, x2, y2)))
            yield root / rec["image"], rows
        return
    for img in sorted((root / "images").iterdir()):
        lab = root / "labels" / (img.stem + ".txt")
        im = cv2.imread(str(img))
        if im is None:
            continue
        h, w = im.shape[:2]
        truth: Truth = []
        if lab.exists():
            for row in lab.read_text().split("\n"):
                if row.strip():
                    c, cx, cy, bw, bh = (float(v) for v in row.split())
                    truth.append((int(c), ((cx - bw / 2) * w, (cy - bh / 2) * h,
                                           (cx + bw / 2) * w, (cy + bh / 2) * h)))
        yield img, truth


def place_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """How well each prediction ``a`` lies on each true card ``b``: the larger of their IoU and
    the share of the prediction inside the card (an index-sized box on its card scores 1)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    inter, aa, ab = pair_areas(a, b)
    iou = inter / (aa[:, None] + ab[None, :] - inter + 1e-9)
    return np.asarray(np.maximum(iou, inter / np.maximum(aa[:, None], 1e-9)))


def _match(pb: np.ndarray, pc: np.ndarray, ps: np.ndarray, gb: np.ndarray, gc: np.ndarray,
           thr: float, place: bool = False) -> np.ndarray:
    """For each prediction (in the given order), whether it matches an unused same-class truth
    (IoU >= ``thr``; with ``place``, lying on that card: see `place_matrix`)."""
    ious = place_matrix(pb, gb) if place else iou_matrix(pb, gb)
    used = np.zeros(len(gb), bool)
    tp = np.zeros(len(pb), bool)
    for i in np.argsort(-ps):
        cand: np.ndarray = (np.where((gc == pc[i]) & ~used & (ious[i] >= thr))[0] if len(gb)
                            else np.zeros(0, np.int64))
        if len(cand):
            j = cand[np.argmax(ious[i, cand])]
            used[j] = True
            tp[i] = True
    return tp


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """COCO-style 101-point interpolated AP."""
    mrec = np.concatenate([[0.0], recall, [1.0]])
    mpre = np.concatenate([[1.0], precision, [0.0]])
    mpre = np.flip(np.maximum.accumulate(np.flip(mpre)))
    x = np.linspace(0, 1, 101)
    return float(np.mean(np.interp(x, mrec, mpre, right=0)))


def evaluate(det: Any, folder: str | Path, conf: float | None = None,
             limit: int | None = None) -> dict[str, float]:
    """Precision, recall (IoU >= 0.5, right card) at the operating threshold, and mAP."""
    thr = det.conf if conf is None else conf
    records = []  # per image: pred boxes/classes/scores (low threshold) and truth
    ms = []
    for k, (path, truth) in enumerate(load_set(folder)):
        if limit is not None and k >= limit:
            break
        img = cv2.imread(str(path))
        if img is None:
            raise FileNotFoundError(path)
        t0 = time.perf_counter()
        d = det.detect(img, conf=0.01)
        ms.append((time.perf_counter() - t0) * 1000)
        gb = np.array([t[1] for t in truth], np.float64).reshape(-1, 4)
        gc = np.array([t[0] for t in truth], np.int64)
        records.append((d.xyxy.astype(np.float64), d.class_id, d.confidence, gb, gc))
    n_gt = sum(len(r[4]) for r in records)
    # Operating point.
    tp = fp = 0
    for pb, pc, ps, gb, gc in records:
        keep = ps >= thr
        m = _match(pb[keep], pc[keep], ps[keep], gb, gc, 0.5)
        tp += int(m.sum())
        fp += int((~m).sum())
    precision = tp / max(tp + fp, 1)
    recall = tp / max(n_gt, 1)
    # Card level: the right card read where it lies (an index-sized box on it counts).
    card_tp = card_fp = 0
    for pb, pc, ps, gb, gc in records:
        keep = ps >= thr
        m = _match(pb[keep], pc[keep], ps[keep], gb, gc, 0.5, place=True)
        card_tp += int(m.sum())
        card_fp += int((~m).sum())
    # mAP50-95 over the classes present in the truth.
    aps = []
    ap50 = []
    for t in np.arange(0.5, 0.96, 0.05):
        per_class = {}
        scores_all, tps_all, cls_all = [], [], []
        for pb, pc, ps, gb, gc in records:
            m = _match(pb, pc, ps, gb, gc, float(t))
            scores_all.append(ps)
            tps_all.append(m)
            cls_all.append(pc)
        s = np.concatenate(scores_all) if scores_all else np.zeros(0)
        tpv = np.concatenate(tps_all) if tps_all else np.zeros(0, bool)
        cv = np.concatenate(cls_all) if cls_all else np.zeros(0, np.int64)
        gt_counts = np.bincount(np.concatenate([r[4] for r in records]) if records
                                else np.zeros(0, np.int64), minlength=len(CARD_CODES))
        for c in np.nonzero(gt_counts)[0]:
            sel = cv == c
            order = np.argsort(-s[sel])
            hits = tpv[sel][order]
            ctp = np.cumsum(hits)
            cfp = np.cumsum(~hits)
            rec = ctp / gt_counts[c]
            prec = ctp / np.maximum(ctp + cfp, 1)
            per_class[int(c)] = average_precision(rec, prec) if len(hits) else 0.0
        aps.append(float(np.mean(list(per_class.values()))) if per_class else 0.0)
        if abs(t - 0.5) < 1e-6:
            ap50.append(aps[-1])
    return {"images": len(records), "cards": n_gt, "conf": thr, "precision": precision,
            "recall": recall, "card_precision": card_tp / max(card_tp + card_fp, 1),
            "card_recall": card_tp / max(n_gt, 1), "card_right": card_tp, "card_wrong": card_fp,
            "mAP50": ap50[0] if ap50 else 0.0,
            "mAP50_95": float(np.mean(aps)) if aps else 0.0,
            "ms_per_image": float(np.median(ms)) if ms else 0.0}


def phantoms(det: Any, folder: str | Path, conf: float | None = None) -> dict[str, float]:
    """Cards reported per frame on scenes with no card face (table, chips, backs, arms)."""
    n = found = 0
    for path, truth in load_set(folder):
        if truth:
            continue
        img = cv2.imread(str(path))
        if img is None:
            raise FileNotFoundError(path)
        d = det.detect(img, conf=conf)
        n += 1
        found += len(d)
    return {"frames": n, "phantoms": found, "phantoms_per_frame": found / max(n, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.training.detector_eval",
                                 description=__doc__)
    ap.add_argument("sets", nargs="*", help="labelled folders (labels.jsonl or images/+labels/)")
    ap.add_argument("--empty", action="append", default=[], help="folders of empty scenes")
    ap.add_argument("--reader", choices=["index", "hybrid", "card"], default="index",
                    help="index: index-first reading (default); hybrid: whole-card boxes named "
                         "by the crop classifier and the indices together; card: the "
                         "whole-card detector")
    ap.add_argument("--no-ocr", action="store_true", help="index reader without the rank OCR")
    ap.add_argument("--model", default=None)
    ap.add_argument("--imgsz", type=int, default=None)
    ap.add_argument("--conf", type=float, default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--classifier", default="auto",
                    help="auto (default: detect-then-classify when models/card_classifier.onnx "
                         "is there), none (the detector's classes alone), or a classifier path")
    ap.add_argument("--card-conf", type=float, default=None)
    ap.add_argument("--class-smoothing", type=float, default=None,
                    help="detect-then-classify: how little the detector's class scores weigh "
                         "against the classifier's (CardDetector.class_smoothing)")
    args = ap.parse_args(argv)
    clf: str | bool = args.classifier
    if args.classifier == "none":
        clf = False
    det: Any
    if args.reader in ("index", "hybrid"):
        from vision.readers.load import load_reader

        det = load_reader(args.reader, conf=0.5 if args.conf is None else args.conf,
                          ocr=not args.no_ocr)
        det.classifier = None
    else:
        det = CardDetector(args.model, imgsz=args.imgsz, classifier=clf,
                           conf=0.5 if args.conf is None else args.conf,
                           card_conf=0.35 if args.card_conf is None else args.card_conf)
        if args.class_smoothing is not None:
            det.class_smoothing = args.class_smoothing
    for s in args.sets:
        res = evaluate(det, s, limit=args.limit)
        kind = (args.reader if args.reader != "card" else
                "detect+classify" if det.classifier is not None else "one stage")
        r: dict[str, Any] = {"set": s, "imgsz": det.imgsz, "reader": kind, **res}
        print(json.dumps(r) if args.json else
              f"{s}: {r['images']} images, {r['cards']} cards, imgsz {det.imgsz}, "
              f"{r['reader']}, conf "
              f"{r['conf']:.2f}: card-level precision {r['card_precision']:.3f} recall "
              f"{r['card_recall']:.3f}; boxes IoU>=0.5: precision {r['precision']:.3f} "
              f"recall {r['recall']:.3f} "
              f"mAP50 {r['mAP50']:.3f} mAP50-95 {r['mAP50_95']:.3f} "
              f"({r['ms_per_image']:.1f} ms/image)")
    for e in args.empty:
        r = {"set": e, "imgsz": det.imgsz, "conf": det.conf, **phantoms(det, e)}
        print(json.dumps(r) if args.json else
              f"{e}: {r['frames']} empty frames, {r['phantoms']} phantom cards = "
              f"{r['phantoms_per_frame']:.3f} per frame (conf {det.conf:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
