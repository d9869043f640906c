"""Train the card-identity classifier (detect-then-classify, stage two) and export it to ONNX.

    nice -n 10 python -m vision.training.train_classifier --synth 40000 --minutes 25

Data (built into ``datasets/classifier/``, git-ignored, reused when present):
- rendered crops: one card of a ``TRAIN_DECKS`` design (never ``HELDOUT_DECKS``) posed on a
  procedural table with cards under and over it (piles, fans), random rotation, camera tilt up
  to 60 degrees, lighting, colour casts, blur, noise, JPEG; cut by the axis-aligned box of its
  visible pixels, jittered as a detector's box would be;
- real crops: the whole-card boxes of ``/work/shared/real-cards-train`` (``rf100_`` photos),
  several jittered / rotated variants per box, read from there at build time (never copied
  into the repository).

Model: a small CNN defined here (no downloaded weights), trained from scratch with AdamW and a
one-cycle schedule, exported to ``models/card_classifier.onnx`` and
``models/card_classifier.json`` (names = ``CARD_CODES``, input size, margin, normalisation).
Torch is imported only in this file.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.readers.classifier import crop_patch
from vision.render import decks
from vision.training import scenes

ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = ROOT / "datasets" / "classifier"
REAL_TRAIN = Path(os.environ.get("MICHIGAN_REAL_TRAIN", "/work/shared/real-cards-train"))
SIZE = 96
MARGIN = 0.06
MEAN = [0.5, 0.5, 0.5]
STD = [0.25, 0.25, 0.25]


# ---------------------------------------------------------------- box jitter

def jitter_box(rng: np.random.Generator, box: Sequence[float], amount: float = 0.05
               ) -> tuple[float, float, float, float]:
    """Move each side of the box by a normal share of its size (a detector's imprecision)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    d = rng.normal(0, amount, 4)
    return (x1 + d[0] * w, y1 + d[1] * h, x2 + d[2] * w, y2 + d[3] * h)


def _run_jobs(worker: Any, jobs: Sequence[Any], workers: int) -> tuple[np.ndarray, np.ndarray]:
    """Run crop-building jobs (in ``workers`` processes when more than one) and join their
    (crops, labels) in job order."""
    if workers > 1:
        with Pool(workers) as pool:
            parts = pool.map(worker, jobs)
    else:
        parts = [worker(j) for j in jobs]
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


# ---------------------------------------------------------------- rendered crops

def _place(rng: np.random.Generator, deck: str, code: str | None, card_h: float, cx: float,
           cy: float, angle: float) -> scenes.Placed:
    render_h = int(np.clip(round(card_h * 1.2), 48, 480))
    img = scenes._card_image(rng, deck, code, render_h)
    m = scenes._card_matrix(cx, cy, angle, card_h / img.shape[0], img.shape[1], img.shape[0])
    return scenes.Placed(code, deck, m, img)


def synth_crop(rng: np.random.Generator, deck_names: Sequence[str], code: str | None = None,
               size: int = SIZE) -> tuple[np.ndarray, int] | None:
    """One rendered card crop (BGR ``size`` x ``size``) and its class id, or None (retry)."""
    deck = str(rng.choice(list(deck_names)))
    code = code or str(rng.choice(CARD_CODES))
    card_h = float(np.exp(rng.uniform(np.log(50), np.log(200))))
    side = int(card_h * 2.4)
    plane = scenes.table_surface(rng, side, side)
    ids = np.zeros((side, side), np.int32)
    c = side / 2
    angle = float(rng.uniform(-180, 180))
    cards: list[scenes.Placed] = []
    # Cards under the target (a pile or the rest of a fan).
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.4 else 0):
        d = rng.uniform(0.15, 0.7) * card_h
        t = rng.uniform(0, 2 * np.pi)
        other = None if rng.random() < 0.3 else str(rng.choice(CARD_CODES))
        cards.append(_place(rng, deck, other, card_h, c + d * math.cos(t), c + d * math.sin(t),
                            angle + rng.normal(0, 30)))
    target = _place(rng, deck, code, card_h, c, c, angle)
    cards.append(target)
    t_index = len(cards)
    # Cards over the target: a fan (shifted along one direction) or a loose pile.
    n_over = int(rng.integers(1, 4)) if rng.random() < 0.5 else 0
    fan_dir = rng.uniform(0, 2 * np.pi)
    for k in range(n_over):
        if rng.random() < 0.6:
            d = (k + 1) * rng.uniform(0.12, 0.35) * card_h
            t = fan_dir + rng.normal(0, 0.15)
            a = angle + (k + 1) * rng.normal(0, 10)
        else:
            d = rng.uniform(0.3, 0.9) * card_h
            t = rng.uniform(0, 2 * np.pi)
            a = float(rng.uniform(-180, 180))
        other = None if rng.random() < 0.2 else str(rng.choice(CARD_CODES))
        cards.append(_place(rng, deck, other, card_h, c + d * math.cos(t), c + d * math.sin(t),
                            a))
    shadow = float(rng.uniform(0.1, 0.5))
    for i, card in enumerate(cards, start=1):
        scenes._paste(plane, ids, card, i, shadow, rng)
    if rng.random() < 0.1:
        scenes._draw_arm(rng, plane, ids)
    # Visible share of the target and whether one of its indices shows.
    own = ids == t_index
    hh, ww = target.image.shape[:2]
    total = float(hh * ww) * abs(np.linalg.det(target.matrix[:2, :2]))
    vis = own.sum() / max(total, 1.0)
    bx = decks.corner_index_box(deck, code)
    index_ok = False
    for (x1, y1, x2, y2) in (bx, decks.half_turn(bx)):
        poly = np.asarray([[x1 * ww, y1 * hh], [x2 * ww, y1 * hh], [x2 * ww, y2 * hh],
                           [x1 * ww, y2 * hh]], np.float32)
        poly = cv2.transform(poly[None], target.matrix[:2])[0]
        mask = np.zeros(ids.shape, np.uint8)
        cv2.fillConvexPoly(mask, poly.astype(np.int32), 1)
        area = mask.sum()
        if area and float((own & (mask > 0)).sum()) / area >= scenes.INDEX_VISIBLE:
            index_ok = True
    if not (index_ok or vis >= scenes.BODY_VISIBLE):
        return None
    # Camera: tilt, rotation, zoom about the centre.
    hom = scenes._camera(rng, side, side, side, side, 60.0)
    frame = cv2.warpPerspective(plane, hom, (side, side), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_REFLECT)
    idf = cv2.warpPerspective(own.astype(np.uint8), hom, (side, side), flags=cv2.INTER_NEAREST)
    ys, xs = np.nonzero(idf)
    if len(xs) < 30:
        return None
    box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
    if min(box[2] - box[0], box[3] - box[1]) < 8:
        return None
    frame = scenes._light(rng, frame)
    frame = scenes._degrade(rng, frame)
    patch = crop_patch(frame, jitter_box(rng, box), size, MARGIN)
    return patch, CARD_CODES.index(code)


def _synth_worker(job: tuple[int, int, list[str], int]) -> tuple[np.ndarray, np.ndarray]:
    seed, count, deck_names, size = job
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    xs = np.zeros((count, size, size, 3), np.uint8)
    ys = np.zeros(count, np.int16)
    i = 0
    while i < count:
        code = CARD_CODES[(seed * 7 + i) % 52]  # balanced classes
        got = synth_crop(rng, deck_names, code, size)
        if got is None:
            continue
        xs[i], ys[i] = got
        i += 1
    return xs, ys


def build_synth(count: int, deck_names: Sequence[str], seed: int, workers: int = 2,
                size: int = SIZE, chunk: int = 250) -> tuple[np.ndarray, np.ndarray]:
    jobs = [(seed * 100000 + k, min(chunk, count - k * chunk), list(deck_names), size)
            for k in range(math.ceil(count / chunk))]
    return _run_jobs(_synth_worker, jobs, workers)


# ---------------------------------------------------------------- crops of labelled scenes

def _yolo_worker(job: tuple[list[Path], int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    images, variants, seed, size = job
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for img_path in images:
        label = img_path.parent.parent / "labels" / f"{img_path.stem}.txt"
        if not label.exists():
            continue
        img = cv2.imread(str(img_path))
        if img is None:
            continue
        h, w = img.shape[:2]
        for line in label.read_text().splitlines():
            c, cx, cy, bw, bh = (float(v) for v in line.split())
            box = ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)
            for _ in range(variants):
                xs.append(crop_patch(img, jitter_box(rng, box), size, MARGIN))
                ys.append(int(c))
    if not xs:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros(0, np.int16)
    return np.stack(xs), np.asarray(ys, np.int16)


def build_yolo_crops(folders: Sequence[Path], variants: int, seed: int, workers: int = 2,
                     size: int = SIZE, chunk: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Crops of every labelled box of YOLO-format scenes (``folder/images``, ``folder/labels``),
    each box jittered as a detector's would be. For the table renderer's zone views
    (`vision.training.table_dataset --views`): the index strips of revealed rows and pile
    corners at the size the live pipeline reads them."""
    images = sorted(p for f in folders for p in (Path(f) / "images").glob("*.jpg"))
    jobs = [(images[k:k + chunk], variants, seed * 100000 + k, size)
            for k in range(0, len(images), chunk)]
    return _run_jobs(_yolo_worker, jobs, workers)


# ---------------------------------------------------------------- real crops

def _rotated_view(rng: np.random.Generator, img: np.ndarray, box: Sequence[float],
                  angle: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """Rotate the photo about the box centre; return the image and the rotated box's hull."""
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    r = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    rot = cv2.warpAffine(img, r, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REFLECT)
    corners = np.asarray([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]], np.float32)
    pts = cv2.transform(corners, r)[0]
    return rot, (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()),
                 float(pts[:, 1].max()))


def real_records(src: Path = REAL_TRAIN, prefixes: Sequence[str] = ("rf100_",)) -> list[dict]:
    if not (src / "labels.jsonl").exists():
        return []
    out = []
    for line in (src / "labels.jsonl").read_text().splitlines():
        if line.strip():
            rec = json.loads(line)
            if rec["image"].startswith(tuple(prefixes)) and rec.get("box_kind") == "card":
                out.append(rec)
    return out


def _real_worker(job: tuple[list[dict], int, int, int, str]) -> tuple[np.ndarray, np.ndarray]:
    recs, variants, seed, size, src = job
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for rec in recs:
        img = cv2.imread(str(Path(src) / rec["image"]), cv2.IMREAD_COLOR)
        if img is None:
            continue
        ih, iw = img.shape[:2]
        for c in rec["cards"]:
            bx1, by1, bx2, by2 = c["box"]
            # Work on a local region around the box (fast light / blur / rotation).
            r = 0.75 * max(bx2 - bx1, by2 - by1)
            ox1, oy1 = max(0, int((bx1 + bx2) / 2 - r)), max(0, int((by1 + by2) / 2 - r))
            ox2, oy2 = min(iw, int((bx1 + bx2) / 2 + r) + 1), min(ih, int((by1 + by2) / 2 + r) + 1)
            local = img[oy1:oy2, ox1:ox2]
            for v in range(variants):
                box: Sequence[float] = (bx1 - ox1, by1 - oy1, bx2 - ox1, by2 - oy1)
                view = local
                if v > 0:
                    angle = float(rng.choice([0, 90, 180, 270]) + rng.normal(0, 8))
                    if rng.random() < 0.5:
                        view, box = _rotated_view(rng, local, box, angle)
                    if rng.random() < 0.5:
                        view = scenes._light(rng, view)
                    if rng.random() < 0.5:
                        view = scenes._degrade(rng, view)
                patch = crop_patch(view, jitter_box(rng, box, 0.05 if v else 0.02), size,
                                   MARGIN)
                if v > 0 and rng.random() < 0.3:  # small patch: far camera
                    s = int(rng.integers(24, 56))
                    patch = cv2.resize(cv2.resize(patch, (s, s), interpolation=cv2.INTER_AREA),
                                       (size, size), interpolation=cv2.INTER_LINEAR)
                xs.append(patch)
                ys.append(CARD_CODES.index(c["card"]))
    return (np.stack(xs) if xs else np.zeros((0, size, size, 3), np.uint8),
            np.asarray(ys, np.int16))


def build_real(recs: list[dict], variants: int, seed: int, workers: int = 2, size: int = SIZE,
               src: Path = REAL_TRAIN) -> tuple[np.ndarray, np.ndarray]:
    chunk = 40
    jobs = [(recs[i:i + chunk], variants, seed * 1000 + i, size, str(src))
            for i in range(0, len(recs), chunk)]
    return _run_jobs(_real_worker, jobs, workers)


def cached(path: Path, make):  # type: ignore[no-untyped-def]
    if path.exists():
        d = np.load(path)
        return d["x"], d["y"]
    x, y = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=x, y=y)
    return x, y


# ---------------------------------------------------------------- model

def build_model(width: float = 1.0):  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def c(n: int) -> int:
        return max(8, int(round(n * width / 8)) * 8)

    def conv(cin: int, cout: int, stride: int = 1) -> nn.Module:
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    def sep(cin: int, cout: int, stride: int = 1) -> nn.Module:
        return nn.Sequential(
            nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin),
            nn.ReLU(inplace=True),
            nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))

    return nn.Sequential(
        conv(3, c(24), 2),            # 48
        sep(c(24), c(32)),
        sep(c(32), c(48), 2),         # 24
        sep(c(48), c(48)),
        sep(c(48), c(96), 2),         # 12
        sep(c(96), c(96)),
        sep(c(96), c(96)),
        sep(c(96), c(192), 2),        # 6
        sep(c(192), c(192)),
        sep(c(192), c(192)),
        nn.Conv2d(c(192), c(320), 1, bias=False), nn.BatchNorm2d(c(320)), nn.ReLU(inplace=True),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(c(320), 52),
    )


# ---------------------------------------------------------------- training

def augment_batch(rng: np.random.Generator, xb: np.ndarray) -> np.ndarray:
    """Cheap online augmentation of uint8 BGR patches: quarter turns, colour, contrast."""
    out = np.empty_like(xb)
    for i, p in enumerate(xb):
        k = int(rng.integers(0, 4))
        out[i] = np.rot90(p, k) if k else p
    f: np.ndarray = out.astype(np.float32)
    n = len(xb)
    gain = rng.uniform(0.7, 1.3, (n, 1, 1, 1)) * rng.uniform(0.9, 1.1, (n, 1, 1, 3))
    bias = rng.uniform(-25, 25, (n, 1, 1, 1))
    f = f * gain + bias
    gray = rng.random(n) < 0.1
    if gray.any():
        f[gray] = f[gray].mean(axis=3, keepdims=True)
    return np.clip(f, 0, 255).astype(np.uint8)


def to_tensor(xb: np.ndarray):  # type: ignore[no-untyped-def]
    import torch

    x = torch.from_numpy(xb).float().div_(255.0).permute(0, 3, 1, 2)
    mean = torch.tensor(MEAN).view(1, 3, 1, 1)
    std = torch.tensor(STD).view(1, 3, 1, 1)
    return ((x - mean) / std).contiguous()


def evaluate(model, x: np.ndarray, y: np.ndarray, bs: int = 256) -> float:  # type: ignore[no-untyped-def]
    import torch

    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(x), bs):
            pred = model(to_tensor(x[i:i + bs])).argmax(1).numpy()
            correct += int((pred == y[i:i + bs]).sum())
    model.train()
    return correct / max(len(x), 1)


def export(model, out: Path, size: int) -> None:  # type: ignore[no-untyped-def]
    import torch

    model.eval()
    dummy = torch.zeros(1, 3, size, size)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, (dummy,), str(out), input_names=["images"], output_names=["logits"],
                      dynamic_axes={"images": {0: "batch"}, "logits": {0: "batch"}},
                      opset_version=17, dynamo=False)
    meta = {"names": list(CARD_CODES), "input_size": size, "margin": MARGIN,
            "channel_order": "BGR", "mean": MEAN, "std": STD,
            "input": "crop of the box grown by margin on each side, resized to "
                     "input_size x input_size, BGR/255, (x - mean) / std, NCHW float32",
            "output": "logits over names (softmax for scores)",
            "tta": True,
            "trained_by": "vision/training/train_classifier.py"}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--synth", type=int, default=40000, help="rendered crops")
    ap.add_argument("--real-variants", type=int, default=6, help="crops per real box")
    ap.add_argument("--real-weight", type=float, default=0.4,
                    help="share of each batch drawn from real crops")
    ap.add_argument("--minutes", type=float, default=25.0, help="training time budget")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=float, default=1.0)
    ap.add_argument("--workers", type=int, default=2, help="processes building the data")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tag", default="v1", help="dataset cache name")
    ap.add_argument("--out", default=str(ROOT / "models" / "card_classifier.onnx"))
    ap.add_argument("--init", default="", help="continue from this torch state dict")
    ap.add_argument("--more-synth", default="", help="extra seeds of rendered crops: 1,2")
    ap.add_argument("--build-only", action="store_true", help="build the data and stop")
    ap.add_argument("--export-only", action="store_true", help="export --init to --out")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--scenes", default="",
                    help="YOLO-format scene folders whose labelled boxes are cropped too "
                         "(e.g. datasets/cards/views-train), comma separated")
    ap.add_argument("--scenes-val", default="", help="scene folders for validation")
    ap.add_argument("--scenes-weight", type=float, default=0.25,
                    help="share of each batch drawn from the scene crops")
    args = ap.parse_args(argv)

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(max(1, args.threads))
    cv2.setNumThreads(1)
    if args.export_only:
        model = build_model(args.width)
        model.load_state_dict(torch.load(args.init))
        export(model, Path(args.out), SIZE)
        return
    rng = np.random.default_rng(args.seed)
    have = set(decks.available_decks())
    train_decks = [d for d in decks.TRAIN_DECKS if d in have]
    assert not set(train_decks) & set(decks.HELDOUT_DECKS)
    t0 = time.time()
    data = DATA_DIR / args.tag
    parts = []
    for k, sd in enumerate([args.seed] + [int(v) for v in args.more_synth.split(",") if v]):
        name = f"synth-{args.synth}.npz" if k == 0 else f"synth-{args.synth}-s{sd}.npz"
        parts.append(cached(data / name,
                            lambda sd=sd: build_synth(args.synth, train_decks, sd, args.workers)))
    xs, ys = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    del parts
    print(f"rendered crops {len(xs)} ({time.time() - t0:.0f} s)", flush=True)
    recs = real_records()
    # Hold out every 20th real photo for validation (the dev set is never touched here).
    val_recs = recs[::20]
    tr_recs = [r for i, r in enumerate(recs) if i % 20]
    xr, yr = cached(data / f"real-{args.real_variants}.npz",
                    lambda: build_real(tr_recs, args.real_variants, args.seed + 1, args.workers))
    xrv, yrv = cached(data / "real-val.npz",
                      lambda: build_real(val_recs, 1, args.seed + 2, args.workers))
    xsv, ysv = cached(data / "synth-val.npz",
                      lambda: build_synth(1000, train_decks, args.seed + 9, args.workers))
    print(f"real crops {len(xr)}, real val {len(xrv)}, synth val {len(xsv)} "
          f"({time.time() - t0:.0f} s)", flush=True)
    xt = yt = xtv = ytv = None
    if args.scenes:
        folders = [Path(f) for f in args.scenes.split(",")]
        xt, yt = cached(data / f"scenes-{'+'.join(f.name for f in folders)}.npz",
                        lambda: build_yolo_crops(folders, 1, args.seed + 3, args.workers))
        if args.scenes_val:
            vfolders = [Path(f) for f in args.scenes_val.split(",")]
            xtv, ytv = cached(data / f"scenes-{'+'.join(f.name for f in vfolders)}.npz",
                              lambda: build_yolo_crops(vfolders, 1, args.seed + 4, 1))
        print(f"scene crops {len(xt)}, scene val {0 if xtv is None else len(xtv)} "
              f"({time.time() - t0:.0f} s)", flush=True)
    if args.build_only:
        return

    model = build_model(args.width)
    if args.init:
        model.load_state_dict(torch.load(args.init))
    nparams = sum(p.numel() for p in model.parameters())
    print(f"model parameters {nparams}", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    # Time-budgeted one-cycle schedule: measure speed on the first steps, then fix the length.
    budget = args.minutes * 60
    n_real = int(round(args.batch * args.real_weight)) if len(xr) else 0
    n_scn = int(round(args.batch * args.scenes_weight)) if xt is not None and len(xt) else 0
    n_syn = args.batch - n_real - n_scn
    step, total_steps = 0, None
    t_train = time.time()
    best, best_state = -1.0, None
    ckpt = data / f"model-{Path(args.out).stem}.pt"
    model.train()
    while True:
        if total_steps is None and step == 50:
            per = (time.time() - t_train) / 50
            total_steps = max(100, int(budget / per))
            print(f"{per * 1000:.0f} ms/step -> {total_steps} steps", flush=True)
        ts = total_steps or 10 ** 9
        if step >= ts:
            break
        frac = step / ts if total_steps else 0.0
        warm = 0.05
        lr = args.lr * (step / max(1, warm * ts) if frac < warm
                        else 0.5 * (1 + math.cos(math.pi * (frac - warm) / (1 - warm))))
        for g in opt.param_groups:
            g["lr"] = lr
        i_s = rng.integers(0, len(xs), n_syn)
        parts_x, parts_y = [xs[i_s]], [ys[i_s]]
        if n_real:
            i_r = rng.integers(0, len(xr), n_real)
            parts_x.append(xr[i_r])
            parts_y.append(yr[i_r])
        if n_scn and xt is not None and yt is not None:
            i_t = rng.integers(0, len(xt), n_scn)
            parts_x.append(xt[i_t])
            parts_y.append(yt[i_t])
        xb = augment_batch(rng, np.concatenate(parts_x))
        yb = torch.from_numpy(np.concatenate(parts_y).astype(np.int64))
        loss = F.cross_entropy(model(to_tensor(xb)), yb, label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 500 == 0 or step == ts:
            a_r, a_s = evaluate(model, xrv, yrv), evaluate(model, xsv, ysv)
            a_t = evaluate(model, xtv, ytv) if xtv is not None and ytv is not None else 0.0
            score = a_r + a_s + a_t
            print(f"step {step}/{ts} loss {loss.item():.3f} lr {lr:.5f} real-val {a_r:.3f} "
                  f"synth-val {a_s:.3f} scene-val {a_t:.3f} "
                  f"({(time.time() - t_train) / 60:.1f} min)", flush=True)
            if score >= best:
                best = score
                best_state = {k: v.clone() for k, v in model.state_dict().items()}
                torch.save(best_state, ckpt)
    if best_state is not None:
        model.load_state_dict(best_state)
    export(model, Path(args.out), SIZE)
    print(f"exported {args.out} ({Path(args.out).stat().st_size / 1e6:.2f} MB); "
          f"training {(time.time() - t_train) / 60:.1f} min, total {(time.time() - t0) / 60:.1f} "
          f"min", flush=True)


if __name__ == "__main__":
    main()
