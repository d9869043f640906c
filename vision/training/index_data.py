"""Training data for index-first reading: where the corner indices are, and what each says.

Two products, both written under ``datasets/index/`` (ignored by git):

- **Localiser scenes** (YOLO format, one class ``index``): rendered table scenes of the training
  deck designs, a share of them recoloured (dark faces, gold or silver ink, one-colour suits)
  and spoiled like a cheap webcam, close-ups cut by the frame edge; and the real photos of
  ``real-cards-train`` that label corner indices (``ammi_``, ``bidly_``), linked, never copied,
  split by time so that near-identical frames never straddle train and validation.
- **Index crops** for the rank / suit / orientation heads: every labelled index of those scenes
  cut out the way the runtime cuts a localiser box (`vision.readers.index_heads.index_patch`), with
  its box jittered, plus crops of the real index boxes and negatives (patches that are not an
  index: pips, face art, backs, chips, table), saved as one ``.npz`` per split.
- **Real small sheets** (``--real-small N``, `real_small_sheets`): the real index photos shrunk
  onto a rendered table and webcam-spoilt, which ``train_index --real-small`` adds to the
  localiser's training scenes.

    python -m vision.training.index_data --scenes 2400 --val-scenes 150 --out datasets/index
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.readers.index_heads import (
    PATCH,
    best_in_each_corner,
    box_extent,
    corner_proposals,
    index_patch,
    orientation_of,
)
from vision.readers.index_reader import overlapped
from vision.render import decks
from vision.training import scenes
from vision.training.detector_eval import iou_matrix

REAL_TRAIN = Path(os.environ.get("MICHIGAN_REAL_TRAIN", "/work/shared/real-cards-train"))
ROOT = Path(__file__).resolve().parents[2] / "datasets" / "index"

#: Shares of the localiser's rendered scenes given each of the spoilers that failed on real
#: tables: recoloured decks, cheap-webcam frames, close-ups.
RESTYLE_P, WEBCAM_P, CLOSEUP_P = 0.3, 0.35, 0.08


def _yolo_row(quad: np.ndarray, w: int, h: int) -> str | None:
    x1, y1 = np.clip(quad.min(axis=0), 0, [w, h])
    x2, y2 = np.clip(quad.max(axis=0), 0, [w, h])
    if min(x2 - x1, y2 - y1) < 3:
        return None
    return f"0 {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} " \
           f"{(y2 - y1) / h:.6f}"


def _scene_job(job: tuple[str, int, int, list[str], float]) -> int:
    out_dir, index, seed, deck_names, empty_share = job
    rng = np.random.default_rng(seed)
    scene = scenes.render_scene(rng, deck_names, size=640, empty=rng.random() < empty_share,
                                restyle_p=RESTYLE_P, webcam_p=WEBCAM_P, closeup_p=CLOSEUP_P)
    out = Path(out_dir)
    name = f"{index:06d}"
    cv2.imwrite(str(out / "images" / f"{name}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    h, w = scene.image.shape[:2]
    rows = [r for _, q in scene.indices if (r := _yolo_row(q, w, h))]
    (out / "labels" / f"{name}.txt").write_text("\n".join(rows) + ("\n" if rows else ""))
    quads = [{"card": c, "quad": np.round(q, 2).tolist()} for c, q in scene.indices]
    (out / "quads" / f"{name}.json").write_text(json.dumps(quads))
    return len(rows)


def render_scenes(out_dir: Path, count: int, deck_names: Sequence[str], seed: int,
                  empty_share: float = 0.04, workers: int = 2) -> Path:
    """Write ``count`` localiser scenes (images, YOLO labels, index quads); resumable."""
    from multiprocessing import get_context

    for sub in ("images", "labels", "quads"):
        (out_dir / sub).mkdir(parents=True, exist_ok=True)
    jobs = [(str(out_dir), i, seed * 1_000_003 + i, list(deck_names), empty_share)
            for i in range(count) if not (out_dir / "quads" / f"{i:06d}.json").exists()]
    t0 = time.time()
    if workers <= 1:
        n = sum(_scene_job(j) for j in jobs)
    else:
        with get_context("fork").Pool(workers) as pool:
            n = sum(pool.imap_unordered(_scene_job, jobs, chunksize=4))
    print(f"{out_dir.name}: {len(jobs)} scenes, {n} indices in {time.time() - t0:.0f} s")
    return out_dir


#: Corner-index labels of the real photos that name another card than the one printed there,
#: each seen by eye on the photo: (photo, box number) -> (the label, the card shown). Found
#: where the photo heads, given the labelled box, disagreed with the label (39 of 1,270
#: boxes; the rest of the 39 are the heads' errors). models/INDEX.md, "Thirtieth session".
REAL_LABEL_FIXES: dict[tuple[str, int], tuple[str, str]] = {
    ("ammi_IMG_20220921_194856_jpg.jpg", 2): ("QH", "3C"),  # the 3♣'s upper corner
    ("ammi_IMG_20220921_201241_jpg.jpg", 0): ("QH", "QS"),  # a Q♠: spades by its pips
    ("ammi_IMG_20220921_201241_jpg.jpg", 1): ("QH", "QS"),
    ("ammi_IMG_20220921_201314_jpg.jpg", 0): ("JS", "JC"),  # a J♣: clubs by its pips
    ("ammi_IMG_20220921_201314_jpg.jpg", 1): ("JS", "JC"),
}


def real_index_records(src: Path = REAL_TRAIN) -> list[dict[str, object]]:
    """The real photos that label corner indices (``ammi_``, ``bidly_``), in time order, with
    the labels of `REAL_LABEL_FIXES` mended (where the label is still the one seen wrong)."""
    path = src / "labels.jsonl"
    if not path.exists():
        return []
    recs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    recs = [mend_labels(r) for r in recs if r["image"].startswith(("ammi_", "bidly_"))]
    return sorted(recs, key=lambda r: r["image"])


def mend_labels(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` with its boxes' cards mended by `REAL_LABEL_FIXES` and its ``unique_cards``
    made again from them."""
    fixes = {k: v for (name, k), v in REAL_LABEL_FIXES.items() if name == rec["image"]}
    if not fixes:
        return rec
    cards = [dict(c) for c in rec["cards"]]
    for k, (was, shown) in fixes.items():
        if k < len(cards) and cards[k]["card"] == was:
            cards[k]["card"] = shown
    return {**rec, "cards": cards, "unique_cards": sorted({c["card"] for c in cards})}


def split_real(recs: list[dict[str, object]], val_share: float = 0.1
               ) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Train / validation by time: the last ``val_share`` of each source's photos (by name,
    which holds the time) is validation."""
    train, val = [], []
    for prefix in ("ammi_", "bidly_"):
        group = [r for r in recs if str(r["image"]).startswith(prefix)]
        cut = len(group) - max(1, int(round(len(group) * val_share)))
        train += group[:cut]
        val += group[cut:]
    return train, val


def link_real(recs: list[dict[str, object]], out_dir: Path, src: Path = REAL_TRAIN) -> int:
    """Symlink real index photos into ``out_dir`` with one-class YOLO labels."""
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    (out_dir / "labels").mkdir(parents=True, exist_ok=True)
    for rec in recs:
        name = str(rec["image"])
        w, h = int(rec["width"]), int(rec["height"])  # type: ignore[call-overload]
        rows = []
        for c in rec["cards"]:  # type: ignore[attr-defined]
            x1, y1, x2, y2 = c["box"]
            quad = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)
            if row := _yolo_row(quad, w, h):
                rows.append(row)
        link = out_dir / "images" / name
        if not link.exists():
            os.symlink((src / name).resolve(), link)
        (out_dir / "labels" / (Path(name).stem + ".txt")).write_text(
            "\n".join(rows) + ("\n" if rows else ""))
    return len(recs)


def real_small_sheets(recs: Sequence[dict[str, object]], out_dir: Path, count: int, seed: int,
                      size: int = 640, src: Path = REAL_TRAIN, min_px: float = 10.0) -> int:
    """Real index photos made small and spoilt like a webcam's view of a table, for the
    localiser: each sheet is a ``size`` square of table (`scenes.table_surface`) holding one
    real photo, or 2x2 or 3x3 of them, shrunk into it (the real close-ups' indices are 20-90
    px tall at the localiser's input; across a table they are 8-25), then dimmed, blurred,
    noised and stretched (`scenes.webcam`, `scenes._degrade`). One photo alone keeps a bridge
    deal's index strips (25-30 px in its 1200 px photo) large enough to label: in a grid they
    are all painted over. An index shrunk under ``min_px`` tall is painted over in its mean
    colour and not labelled: the localiser is not taught blobs."""
    rng = np.random.default_rng(seed)
    (out_dir / "images").mkdir(parents=True, exist_ok=True)
    (out_dir / "labels").mkdir(parents=True, exist_ok=True)
    for k in range(count):
        table = scenes.table_surface(rng, size, size)
        u = rng.random()
        grid = 1 if u < 0.3 else 2 if u < 0.65 else 3
        cell = size / grid
        boxes: list[np.ndarray] = []
        for gy in range(grid):
            for gx in range(grid):
                rec = recs[int(rng.integers(len(recs)))]
                img = cv2.imread(str(src / str(rec["image"])))
                if img is None:
                    continue
                h, w = img.shape[:2]
                f = cell * rng.uniform(0.75, 1.0) / max(h, w)
                sw, sh = max(1, round(w * f)), max(1, round(h * f))
                x0 = int(gx * cell + rng.uniform(0, cell - sw))
                y0 = int(gy * cell + rng.uniform(0, cell - sh))
                table[y0:y0 + sh, x0:x0 + sw] = cv2.resize(img, (sw, sh),
                                                           interpolation=cv2.INTER_AREA)
                for c in rec["cards"]:  # type: ignore[attr-defined]
                    x1, y1, x2, y2 = (float(v) * f for v in c["box"])
                    box = np.array([x0 + x1, y0 + y1, x0 + x2, y0 + y2], np.float32)
                    if box[3] - box[1] < min_px:
                        cut = table[int(box[1]):int(np.ceil(box[3])),
                                    int(box[0]):int(np.ceil(box[2]))]
                        cut[:] = cut.mean(axis=(0, 1))
                    else:
                        boxes.append(box)
        img = scenes._degrade(rng, table)
        quads = [np.array([[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]], np.float32)
                 for b in boxes]
        sheet = scenes.webcam(rng, scenes.Scene(img, [], "real", [("", q) for q in quads]))
        hh, ww = sheet.image.shape[:2]
        rows = [r for _, q in sheet.indices if (r := _yolo_row(q, ww, hh))]
        name = f"real-small-{k:05d}"
        cv2.imwrite(str(out_dir / "images" / f"{name}.jpg"), sheet.image,
                    [cv2.IMWRITE_JPEG_QUALITY, 92])
        (out_dir / "labels" / f"{name}.txt").write_text("\n".join(rows) + ("\n" if rows else ""))
    return count


# ---------------------------------------------------------------- crops for the heads

def _jitter_box(rng: np.random.Generator, box: np.ndarray, amount: float) -> np.ndarray:
    w, h = box[2] - box[0], box[3] - box[1]
    d = rng.normal(0, amount, 4) * np.array([w, h, w, h])
    return box + d


def _negative_boxes(rng: np.random.Generator, img_shape: tuple[int, ...],
                    index_boxes: np.ndarray, typical: float, k: int) -> list[np.ndarray]:
    """Boxes of index size that overlap no labelled index much (pips, art, backs, table)."""
    h, w = img_shape[:2]
    out: list[np.ndarray] = []
    for _ in range(k * 4):
        if len(out) >= k:
            break
        bw = typical * rng.uniform(0.6, 1.6)
        bh = bw * rng.uniform(1.2, 2.6) if rng.random() < 0.7 else bw / rng.uniform(1.2, 2.6)
        x1, y1 = rng.uniform(0, max(1.0, w - bw)), rng.uniform(0, max(1.0, h - bh))
        box = np.array([x1, y1, x1 + bw, y1 + bh])
        if len(index_boxes):
            ix = np.clip(np.minimum(box[2], index_boxes[:, 2]) - np.maximum(box[0],
                         index_boxes[:, 0]), 0, None)
            iy = np.clip(np.minimum(box[3], index_boxes[:, 3]) - np.maximum(box[1],
                         index_boxes[:, 1]), 0, None)
            own = (index_boxes[:, 2] - index_boxes[:, 0]) * (index_boxes[:, 3] - index_boxes[:, 1])
            if ((ix * iy) / np.maximum(own, 1)).max() > 0.25:
                continue
        out.append(box)
    return out


class _Patches:
    """Patches and their labels, gathered one by one (-1: unknown or not an index)."""

    def __init__(self) -> None:
        self.xs: list[np.ndarray] = []
        self.labels: list[tuple[int, int, int, int]] = []
        self.extents: list[tuple[float, float]] = []

    def index(self, patch: np.ndarray, code: str, orient: int = -1,
              box: Sequence[float] | np.ndarray | None = None) -> None:
        """An index's patch and labels; ``box``: the box it was cut around (its extent in
        the patch, `box_extent`, lets training fade what lies outside it)."""
        r, s = _labels_of(code)
        self.xs.append(patch)
        self.labels.append((r, s, orient, 1))
        self.extents.append(_extent(box))

    def negative(self, patch: np.ndarray, box: Sequence[float] | np.ndarray | None = None
                 ) -> None:
        self.xs.append(patch)
        self.labels.append((-1, -1, -1, 0))
        self.extents.append(_extent(box))

    def pack(self) -> dict[str, np.ndarray]:
        out = {"x": np.stack(self.xs) if self.xs else np.zeros((0, PATCH, PATCH), np.uint8)}
        cols = np.asarray(self.labels, np.int8).reshape(-1, 4)
        out.update({n: cols[:, k] for k, n in enumerate(("rank", "suit", "orient", "is_index"))})
        out["extent"] = np.asarray(self.extents, np.float32).reshape(-1, 2)
        return out


def _extent(box: Sequence[float] | np.ndarray | None) -> tuple[float, float]:
    """The box's extent in its patch (`box_extent`), or NaN where it is not known."""
    return (math.nan, math.nan) if box is None else box_extent(box)


def _labels_of(code: str) -> tuple[int, int]:
    return "23456789TJQKA".index(code[0]), "CDHS".index(code[1])


def read_as_card(read: dict[str, np.ndarray], code: str) -> np.ndarray:
    """How surely the heads' ``read`` of each patch is an index of the card ``code`` (its
    label known): rank x suit x is-index."""
    r, s = _labels_of(code)
    return np.asarray(read["rank"][:, r] * read["suit"][:, s] * read["is_index"])


def crops_from_scenes(scene_dir: Path, rng: np.random.Generator, jitter: float = 0.08,
                      negatives: float = 0.5) -> dict[str, np.ndarray]:
    """Index patches of a rendered split: (N, PATCH, PATCH) uint8 and their labels: rank, suit,
    orientation (-1 unknown), is_index."""
    out = _Patches()
    for qpath in sorted((scene_dir / "quads").glob("*.json")):
        img = cv2.imread(str(scene_dir / "images" / (qpath.stem + ".jpg")))
        if img is None:
            continue
        quads = json.loads(qpath.read_text())
        boxes = []
        for q in quads:
            quad = np.asarray(q["quad"], np.float32)
            box = np.concatenate([quad.min(axis=0), quad.max(axis=0)])
            boxes.append(box)
            cut = _jitter_box(rng, box, jitter)
            out.index(index_patch(img, cut), q["card"], orientation_of(quad), cut)
        arr = np.asarray(boxes).reshape(-1, 4)
        typical = float(np.median(arr[:, 2] - arr[:, 0])) if len(arr) else 20.0
        k = int(round(negatives * max(len(quads), 2)))
        for box in _negative_boxes(rng, img.shape, arr, typical, k):
            out.negative(index_patch(img, box), box)
    return out.pack()


def crops_from_real(recs: list[dict[str, object]], rng: np.random.Generator, variants: int = 3,
                    jitter: float = 0.08, src: Path = REAL_TRAIN) -> dict[str, np.ndarray]:
    """Patches of the real index boxes (orientation unknown), ``variants`` jittered cuts each,
    and as many negatives from the same photos."""
    out = _Patches()
    for rec in recs:
        img = cv2.imread(str(src / str(rec["image"])))
        if img is None:
            continue
        boxes = np.asarray([c["box"] for c in rec["cards"]], np.float32).reshape(-1, 4)  # type: ignore[attr-defined]
        for c in rec["cards"]:  # type: ignore[attr-defined]
            for _ in range(variants):
                box = _jitter_box(rng, np.asarray(c["box"], float), jitter)
                out.index(index_patch(img, box), c["card"], box=box)
        typical = float(np.median(boxes[:, 2] - boxes[:, 0])) if len(boxes) else 40.0
        for box in _negative_boxes(rng, img.shape, boxes, typical, max(2, len(boxes))):
            out.negative(index_patch(img, box), box)
    return out.pack()


def save_crops(path: Path, parts: Sequence[dict[str, np.ndarray]]) -> Path:
    merged = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **merged)  # type: ignore[arg-type]
    n, pos = len(merged["x"]), int(merged["is_index"].sum())
    print(f"{path.name}: {n} patches, {pos} indices, {n - pos} negatives")
    return path


def build(out: Path, scenes: int, val_scenes: int, heldout_scenes: int, seed: int,
          workers: int) -> None:
    have = set(decks.available_decks())
    # Designs with no rank-and-suit corner index would teach the localiser their ranks as
    # table and the heads a pip as a rank: left out (`decks.SPLIT_INDEX_DECKS`).
    train_decks = [d for d in decks.TRAIN_DECKS if d in have and d not in decks.SPLIT_INDEX_DECKS]
    held = [d for d in decks.HELDOUT_DECKS if d in have]
    decks.prerender(train_decks + held, workers=workers)
    render_scenes(out / "synth-train", scenes, train_decks, seed, workers=workers)
    render_scenes(out / "synth-val", val_scenes, train_decks, seed + 100, workers=workers)
    if held and heldout_scenes:
        render_scenes(out / "heldout", heldout_scenes, held, seed + 200, empty_share=0.0,
                      workers=workers)
    train, val = split_real(real_index_records())
    if train:
        link_real(train, out / "real-train")
        link_real(val, out / "real-val")
        print(f"real index photos: {len(train)} train, {len(val)} validation")
    names = ["synth-train"] + (["real-train"] * 2 if train else [])
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: [{', '.join(names)}]\n"
        f"val: [synth-val{', real-val' if train else ''}]\nnc: 1\nnames:\n  0: index\n")


def build_real_small(out: Path, count: int, seed: int) -> None:
    train, val = split_real(real_index_records())
    if not train:
        raise FileNotFoundError(f"no real index photos in {REAL_TRAIN}")
    val_count = max(1, count // 10)
    real_small_sheets(train, out / "real-small-train", count, seed)
    real_small_sheets(val, out / "real-small-val", val_count, seed + 1)
    print(f"real small sheets: {count} train, {val_count} validation (trained on with "
          "train_index --real-small)")


def yolo_boxes(label: Path, width: int, height: int) -> np.ndarray:
    """(N, 4) the boxes of a YOLO label file in pixels of a ``width`` x ``height`` image."""
    rows = [line.split() for line in label.read_text().splitlines() if line.strip()] \
        if label.exists() else []
    if not rows:
        return np.zeros((0, 4), np.float32)
    cx, cy, w, h = np.asarray([[float(v) for v in r[1:5]] for r in rows], np.float32).T
    return np.column_stack([(cx - w / 2) * width, (cy - h / 2) * height,
                            (cx + w / 2) * width, (cy + h / 2) * height]).astype(np.float32)


def finds(truth: np.ndarray, boxes: np.ndarray, hit: float = 0.3) -> np.ndarray:
    """(N, M) whether box m finds true index box n: its centre inside the box and IoU >=
    ``hit`` (how the benchmarks count a found index, `bench_index_stages.py`)."""
    if not len(truth) or not len(boxes):
        return np.zeros((len(truth), len(boxes)), bool)
    cx, cy = (truth[:, 0] + truth[:, 2]) / 2, (truth[:, 1] + truth[:, 3]) / 2
    inside = ((boxes[None, :, 0] <= cx[:, None]) & (cx[:, None] <= boxes[None, :, 2])
              & (boxes[None, :, 1] <= cy[:, None]) & (cy[:, None] <= boxes[None, :, 3]))
    return inside & (iou_matrix(truth, boxes) >= hit)


def hard_images(folders: Sequence[Path], dest: Path, localise: Any, most: int = 3) -> int:
    """``dest`` (``images/``, ``labels/``): links to the training images of ``folders`` in
    which ``localise(image)`` (boxes (N, 4)) misses labelled indices, each linked once per
    index missed, at most ``most`` times, so that an epoch shows the localiser its misses
    again; the count of links."""
    for sub in ("images", "labels"):
        (dest / sub).mkdir(parents=True, exist_ok=True)
        for old in (dest / sub).iterdir():
            old.unlink()
    links = 0
    for folder in folders:
        for path in sorted((folder / "images").iterdir()):
            img = cv2.imread(str(path))
            if img is None:
                continue
            label = folder / "labels" / (path.stem + ".txt")
            truth = yolo_boxes(label, img.shape[1], img.shape[0])
            missed = int((~finds(truth, localise(img)).any(axis=1)).sum())
            for k in range(min(most, missed)):
                name = f"{folder.name}-{path.stem}-{k}"
                (dest / "images" / (name + path.suffix)).symlink_to(path.resolve())
                (dest / "labels" / (name + ".txt")).symlink_to(label.resolve())
                links += 1
    return links


def build_hard(out: Path, most: int) -> None:
    """``hard/``: the rendered training scenes and real small sheets in which the photo
    localiser, read as photos are read (`load.PHOTO_INDEX_CONF`, the coarse look too), misses
    labelled indices, linked once per miss up to ``most`` (`hard_images`; `train_index
    --hard` adds them)."""
    from vision.readers.index_reader import IndexReader, photo_localiser_path
    from vision.readers.load import PHOTO_INDEX_CONF

    reader = IndexReader(photo_localiser_path(), card_boxes=False, ocr=False, threads=2,
                         coarse=True, index_conf=PHOTO_INDEX_CONF)

    def localise(img: np.ndarray) -> np.ndarray:
        return reader.index_boxes(img)[0]

    folders = [out / f for f in ("synth-train", "real-small-train") if (out / f).is_dir()]
    t0 = time.time()
    n = hard_images(folders, out / "hard", localise, most)
    print(f"hard: {n} links to the training images whose indices the photo localiser misses "
          f"({', '.join(f.name for f in folders)}; {time.time() - t0:.0f} s; python -m "
          "vision.training.train_index --hard trains on them)")


def train_list(data: Path) -> list[str]:
    """The training folders the dataset YAML ``data`` (written by `build`) lists, in order."""
    for line in data.read_text().splitlines():
        if line.startswith("train:"):
            return [n.strip() for n in line.split("[", 1)[1].rstrip("]").split(",")]
    raise ValueError(f"{data}: no training list")


def write_train_list(data: Path, names: Sequence[str], out: Path | None = None) -> Path:
    """The dataset YAML ``data`` with its training list replaced by ``names``, written to
    ``out`` (default: over ``data``); every other line as it was."""
    lines = [f"train: [{', '.join(names)}]" if line.startswith("train:") else line
             for line in data.read_text().splitlines()]
    target = out or data
    target.write_text("\n".join(lines) + "\n")
    return target


def build_crops(out: Path, seed: int) -> None:
    rng = np.random.default_rng(seed)
    train, val = split_real(real_index_records())
    save_crops(out / "crops-train.npz", [crops_from_scenes(out / "synth-train", rng),
                                         *([crops_from_real(train, rng)] if train else [])])
    save_crops(out / "crops-val.npz", [crops_from_scenes(out / "synth-val", rng, jitter=0.05)])
    if val:
        save_crops(out / "crops-real-val.npz", [crops_from_real(val, rng, variants=1,
                                                                jitter=0.03)])
    if (out / "heldout" / "quads").is_dir():
        save_crops(out / "crops-heldout.npz", [crops_from_scenes(out / "heldout", rng,
                                                                 jitter=0.05)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT)
    ap.add_argument("--scenes", type=int, default=2400)
    ap.add_argument("--val-scenes", type=int, default=150)
    ap.add_argument("--heldout-scenes", type=int, default=200)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--crops-only", action="store_true", help="only (re)build the head crops")
    ap.add_argument("--scenes-only", action="store_true", help="only render / link the scenes")
    ap.add_argument("--mine", action="store_true",
                    help="only mine real indices from the whole-card photos with the current "
                         "heads (crops-mined.npz)")
    ap.add_argument("--clutter", action="store_true",
                    help="only cut the localiser's boxes off every card in the whole-card "
                         "photos, as negatives (crops-clutter.npz)")
    ap.add_argument("--clutter-images", action="store_true",
                    help="only cut stretches of real table off every card in the whole-card "
                         "photos, as the localiser's negatives (real-clutter/)")
    ap.add_argument("--proposals", action="store_true",
                    help="only cut the shipped localiser's own boxes on the training scenes "
                         "and real index photos (crops-proposals.npz)")
    ap.add_argument("--real-small", type=int, default=0, metavar="N",
                    help="only make N sheets of real index photos shrunk and spoilt "
                         "(`real_small_sheets`; a tenth as many for validation), which "
                         "train_index --real-small adds to the localiser's training data")
    ap.add_argument("--mined-images", type=int, default=-1, metavar="N",
                    help="only label the indices of the whole-card photos whose every index "
                         "the photo models find (real-mined/), and make N sheets of them "
                         "small and spoilt (real-mined-small/)")
    ap.add_argument("--hard", type=int, default=0, metavar="MOST",
                    help="only link the training images whose indices the photo localiser "
                         "misses, once per miss up to MOST (hard/), which train_index --hard "
                         "adds to the localiser's training data")
    args = ap.parse_args(argv)
    if args.hard:
        build_hard(args.out, args.hard)
        return 0
    if args.mined_images >= 0:
        build_mined_images(args.out, args.mined_images, args.seed)
        return 0
    if args.real_small:
        build_real_small(args.out, args.real_small, args.seed)
        return 0
    if args.mine:
        build_mined(args.out, args.seed)
        return 0
    if args.clutter:
        build_clutter(args.out)
        return 0
    if args.clutter_images:
        build_clutter_images(args.out)
        return 0
    if args.proposals:
        build_proposals(args.out)
        return 0
    if not args.crops_only:
        build(args.out, args.scenes, args.val_scenes, args.heldout_scenes, args.seed,
              args.workers)
    if not args.scenes_only:
        build_crops(args.out, args.seed + 7)
    return 0


# ---------------------------------------------------------------- the localiser's own boxes

def label_proposals(out: _Patches, img: np.ndarray, proposals: np.ndarray,
                    truth: np.ndarray, codes: Sequence[str], orients: Sequence[int],
                    hit: float = 0.3, miss: float = 0.1) -> None:
    """Patches of the localiser's boxes in one image, labelled by the true index boxes:
    a box overlapping a true index by IoU >= ``hit`` is that index (cut as the localiser
    boxed it, loosely or not); one overlapping every index by less than ``miss`` is a
    negative (the localiser's own false alarms: what is-index must learn to reject); the
    boxes between are ambiguous and left out."""
    iou = iou_matrix(proposals, truth)
    for i, box in enumerate(proposals):
        best = int(iou[i].argmax()) if iou.shape[1] else -1
        if best >= 0 and iou[i, best] >= hit:
            out.index(index_patch(img, box), codes[best], orients[best], box)
        elif best < 0 or iou[i, best] < miss:
            out.negative(index_patch(img, box), box)


def crops_from_proposals(localise: Any, scene_dir: Path | None,
                         real: Sequence[dict[str, object]], conf: float = 0.05,
                         src: Path = REAL_TRAIN) -> dict[str, np.ndarray]:
    """`label_proposals` over the rendered scenes of ``scene_dir`` and the real index photos
    ``real``; ``localise(image, conf)`` gives the localiser's boxes (N, 4) at that score.
    The heads learn to read the boxes the runtime gives them, and to reject the false ones a
    lower localiser threshold lets through."""
    out = _Patches()
    if scene_dir is not None:
        for qpath in sorted((scene_dir / "quads").glob("*.json")):
            img = cv2.imread(str(scene_dir / "images" / (qpath.stem + ".jpg")))
            if img is None:
                continue
            labelled = json.loads(qpath.read_text())
            quads = [np.asarray(q["quad"], np.float32) for q in labelled]
            cards = [q["card"] for q in labelled]
            truth = np.asarray([np.concatenate([q.min(axis=0), q.max(axis=0)]) for q in quads],
                               np.float32).reshape(-1, 4)
            label_proposals(out, img, localise(img, conf), truth, cards,
                            [orientation_of(q) for q in quads])
    for rec in real:
        img = cv2.imread(str(src / str(rec["image"])))
        if img is None:
            continue
        cards_ = rec["cards"]  # type: ignore[assignment]
        truth = np.asarray([c["box"] for c in cards_], np.float32).reshape(-1, 4)  # type: ignore[attr-defined]
        label_proposals(out, img, localise(img, conf), truth,
                        [c["card"] for c in cards_], [-1] * len(truth))  # type: ignore[attr-defined]
    return out.pack()


def build_proposals(out: Path) -> None:
    """``crops-proposals.npz``: the shipped localiser's boxes (score >= 0.05) on the training
    scenes and the real training index photos (`crops_from_proposals`); ``-val``: the same on
    the validation scenes and photos."""
    from vision.readers.index_reader import IndexReader

    reader = IndexReader(card_boxes=False, ocr=False, threads=1)

    def localise(img: np.ndarray, conf: float) -> np.ndarray:
        return reader.index_boxes(img, conf)[0]

    train, val = split_real(real_index_records())
    save_crops(out / "crops-proposals.npz",
               [crops_from_proposals(localise, out / "synth-train", train)])
    save_crops(out / "crops-proposals-val.npz",
               [crops_from_proposals(localise, out / "synth-val", val)])


# ---------------------------------------------------------------- real indices found in
# whole-card photos

#: Every this-many-th whole-card photo (in the order of labels.jsonl, from the first) is kept
#: out of the clutter negatives: those photos choose between trained heads.
CLUTTER_HOLD_OUT = 8


def clutter_negatives(localise: Any, heads: Any, recs: Sequence[dict[str, Any]],
                      src: Path = REAL_TRAIN, grow: float = 0.1, most: float = 0.8
                      ) -> dict[str, np.ndarray]:
    """Negatives from real whole-card photos (``rf100_``): the localiser's boxes that touch no
    labelled card box (each grown by ``grow`` of its size), cut as the runtime cuts them. Real
    tables hold what the rendered ones do not (print, toys, patterned cloth), and the heads'
    is-index must say no to it. Not every card in those photos is labelled (a deck's edge, a
    card cut by the frame): a box the ``heads`` take for an index at ``most`` or more is left
    out, since seen by eye those are mostly real indices."""
    out = _Patches()
    for rec in recs:
        img = cv2.imread(str(src / str(rec["image"])))
        if img is None:
            continue
        cards = np.array([c["box"] for c in rec["cards"]], np.float32).reshape(-1, 4)
        pad = np.column_stack([cards[:, 2] - cards[:, 0], cards[:, 3] - cards[:, 1]]) * grow
        cards = cards + np.concatenate([-pad, pad], axis=1)
        boxes = np.asarray(localise(img, 0.05), np.float32).reshape(-1, 4)
        off = boxes[~(iou_matrix(boxes, cards) > 0).any(axis=1)]
        if not len(off):
            continue
        patches = np.stack([index_patch(img, b) for b in off])
        for patch, box, isx in zip(patches, off, heads.read(patches)["is_index"], strict=True):
            if float(isx) < most:
                out.negative(patch, box)
    return out.pack()


def build_clutter(out: Path) -> None:
    """``crops-clutter.npz``: the shipped localiser's boxes off every card of the whole-card
    photos, judged by the shipped heads (`clutter_negatives`), every `CLUTTER_HOLD_OUT`-th
    photo left out."""
    from vision.readers.index_heads import IndexHeads
    from vision.readers.index_reader import IndexReader

    reader = IndexReader(card_boxes=False, ocr=False, threads=2)
    heads = IndexHeads(threads=2)
    recs, _ = whole_card_split()
    save_crops(out / "crops-clutter.npz",
               [clutter_negatives(lambda img, conf: reader.index_boxes(img, conf)[0], heads,
                                  recs)])


#: The least side, in pixels, of a stretch of table kept as a localiser negative
#: (`background_rect`), and the cells it is searched in.
CLUTTER_MIN_SIDE, CLUTTER_CELL = 128, 8


def background_rect(taken: np.ndarray, cell: int = CLUTTER_CELL,
                    min_side: int = CLUTTER_MIN_SIDE) -> tuple[int, int, int, int] | None:
    """The largest axis-aligned rectangle ``(x0, y0, x1, y1)`` in pixels that holds none of
    ``taken`` (a boolean mask, True where a card lies), searched on ``cell``-pixel cells (a
    cell holding any taken pixel is taken), or None where none is ``min_side`` on both sides."""
    h, w = taken.shape
    rows, cols = -(-h // cell), -(-w // cell)
    padded = np.zeros((rows * cell, cols * cell), bool)
    padded[:h, :w] = taken
    grid = np.asarray(padded.reshape(rows, cell, cols, cell).any(axis=(1, 3)), bool)
    best, rect = 0, None
    heights = np.zeros(cols, np.int64)
    for y in range(rows):
        heights = np.where(grid[y], 0, heights + 1)
        stack: list[int] = []  # the largest rectangle under a histogram
        for x in range(cols + 1):
            cur = int(heights[x]) if x < cols else 0
            while stack and int(heights[stack[-1]]) >= cur:
                top = stack.pop()
                height = int(heights[top])
                left = stack[-1] + 1 if stack else 0
                width = x - left
                if (height * cell >= min_side and width * cell >= min_side
                        and height * width > best):
                    best, rect = height * width, (left, y - height + 1, x, y + 1)
            stack.append(x)
    if rect is None:
        return None
    x0, y0, x1, y1 = rect
    return x0 * cell, y0 * cell, min(w, x1 * cell), min(h, y1 * cell)


def clutter_images(recs: Sequence[dict[str, Any]], dest: Path, index_seen: Any,
                   src: Path = REAL_TRAIN, grow: float = 0.1) -> int:
    """Localiser negatives from real whole-card photos (``rf100_``): each photo's largest
    stretch of table off every labelled card (each box grown by ``grow``; `background_rect`),
    written to ``dest/images`` with an empty label file (no index there). Not every card of
    those photos is labelled: a stretch where ``index_seen(img)`` (the shipped localiser and
    heads) finds what looks like an index is left out. Returns how many were written."""
    (dest / "images").mkdir(parents=True, exist_ok=True)
    (dest / "labels").mkdir(parents=True, exist_ok=True)
    written = 0
    for rec in recs:
        img = cv2.imread(str(src / str(rec["image"])))
        if img is None:
            continue
        h, w = img.shape[:2]
        taken = np.zeros((h, w), bool)
        for c in rec["cards"]:
            x1, y1, x2, y2 = (float(v) for v in c["box"])
            gx, gy = (x2 - x1) * grow, (y2 - y1) * grow
            taken[max(0, int(y1 - gy)):max(0, int(np.ceil(y2 + gy))),
                  max(0, int(x1 - gx)):max(0, int(np.ceil(x2 + gx)))] = True
        rect = background_rect(taken)
        if rect is None:
            continue
        x0, y0, x1_, y1_ = rect
        cut = np.ascontiguousarray(img[y0:y1_, x0:x1_])
        if index_seen(cut):
            continue
        stem = Path(str(rec["image"])).stem
        cv2.imwrite(str(dest / "images" / f"{stem}.jpg"), cut, [cv2.IMWRITE_JPEG_QUALITY, 95])
        (dest / "labels" / f"{stem}.txt").write_text("")
        written += 1
    return written


def build_clutter_images(out: Path, most: float = 0.8) -> None:
    """``real-clutter/``: stretches of real tables as localiser negatives (`clutter_images`),
    every `CLUTTER_HOLD_OUT`-th photo left out (`train_index --real-clutter` adds them)."""
    from vision.readers.index_heads import IndexHeads
    from vision.readers.index_reader import IndexReader

    reader = IndexReader(card_boxes=False, ocr=False, threads=2)
    heads = IndexHeads(threads=2)

    def index_seen(img: np.ndarray) -> bool:
        boxes = reader.index_boxes(img, 0.05)[0]
        if not len(boxes):
            return False
        patches = np.stack([index_patch(img, b) for b in boxes])
        return bool((heads.read(patches)["is_index"] >= most).any())

    recs, _ = whole_card_split()
    n = clutter_images(recs, out / "real-clutter", index_seen)
    print(f"real clutter: {n} stretches of table from {len(recs)} photos "
          "(python -m vision.training.train_index --real-clutter trains on them)")


def mined_index_boxes(img: np.ndarray, cards: Sequence[dict[str, Any]], boxes: np.ndarray,
                      scores: np.ndarray, heads: Any, min_p: float = 0.5,
                      stray: float = 0.25, corners: bool = True) -> np.ndarray | None:
    """Index boxes for a localiser label of one real photo labelled with whole-card boxes
    (``rf100_``), from the localiser's own ``boxes`` (scored ``scores``) as the ``heads``
    read them: a box whose centre lies in a card's box (grown 5%) and that the heads read
    as *that* card (rank x suit x is-index at least ``min_p``) is that card's index; of two
    such boxes around one index (one holding most of the other) the higher-scored is kept.

    A label that misses an index is worse than none (the miss is taught as table), so
    ``None`` unless every labelled card has two indices found, no other box looks like an
    index (localiser score at least ``stray`` and is-index at least 0.5, apart from every
    found index: an unlabelled card, or a corner read as something else), and no corner of
    a card holds an index of its code that no found box covers (`corner_proposals` read
    by the heads: an index the localiser missed; not checked without ``corners``)."""
    if not len(boxes):
        return None
    read = heads.read(np.stack([index_patch(img, b) for b in boxes]))
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    owner = np.full(len(boxes), -1)
    for j, c in enumerate(cards):
        x1, y1, x2, y2 = (float(v) for v in c["box"])
        gx, gy = (x2 - x1) * 0.05, (y2 - y1) * 0.05
        inside = ((centre[:, 0] >= x1 - gx) & (centre[:, 0] <= x2 + gx)
                  & (centre[:, 1] >= y1 - gy) & (centre[:, 1] <= y2 + gy))
        sure = read_as_card(read, str(c["card"])) >= min_p
        owner[inside & sure & (owner < 0)] = j
    found = owner >= 0
    # One box per index: the best-scored of those that hold most of one another.
    keep: list[int] = []
    for k in np.flatnonzero(found)[np.argsort(-scores[found])]:
        if not overlapped(boxes[keep], boxes[k:k + 1], 0.6)[0]:
            keep.append(int(k))
    if (np.bincount(owner[keep], minlength=len(cards)) < 2).any():
        return None
    out = boxes[keep]
    others = ~found & (scores >= stray) & (read["is_index"] >= 0.5)
    if not overlapped(boxes[found], boxes[others], 0.5).all():
        return None
    if corners and any(len(missed_corners(img, c, out, heads, min_p)) for c in cards):
        return None
    return out


def missed_corners(img: np.ndarray, card: dict[str, Any], found: np.ndarray, heads: Any,
                   min_p: float = 0.5) -> np.ndarray:
    """The corners of a labelled ``card`` that hold an index of its code no ``found`` box
    covers (by 0.3 of the smaller): in each corner, the `corner_proposals` box the heads
    read most surely as the card, where that reaches ``min_p``."""
    props = corner_proposals(card["box"])
    score = read_as_card(heads.read(np.stack([index_patch(img, b) for b in props])),
                         str(card["card"]))
    best = best_in_each_corner(score)
    seen = props[best[score[best] >= min_p]]
    return seen[~overlapped(found, seen, 0.3)]


def mined_images(recs: Sequence[dict[str, Any]], dest: Path, small_dest: Path | None,
                 small: int, seed: int, localise: Any, heads: Any,
                 src: Path = REAL_TRAIN) -> tuple[int, int]:
    """Localiser images from the whole-card photos whose every index `mined_index_boxes`
    finds: linked into ``dest`` with those boxes as labels, and ``small`` sheets of them made
    small and webcam-spoilt (`real_small_sheets`) into ``small_dest``. Returns the photos
    kept and their indices."""
    (dest / "images").mkdir(parents=True, exist_ok=True)
    (dest / "labels").mkdir(parents=True, exist_ok=True)
    kept: list[dict[str, object]] = []
    indices = 0
    for rec in recs:
        img = cv2.imread(str(src / str(rec["image"])))
        if img is None:
            continue
        boxes, scores = localise(img)
        found = mined_index_boxes(img, rec["cards"], boxes, scores, heads)
        if found is None:
            continue
        kept.append({"image": rec["image"], "width": img.shape[1], "height": img.shape[0],
                     "cards": [{"box": [float(v) for v in b]} for b in found]})
        indices += len(found)
    link_real(kept, dest, src)
    if small_dest is not None and small and kept:
        real_small_sheets(kept, small_dest, small, seed, src=src)
    return len(kept), indices


def build_mined_images(out: Path, small: int, seed: int) -> None:
    """``real-mined/`` and ``real-mined-small/`` (`mined_images`) from the whole-card photos
    the clutter negatives are cut from (every `CLUTTER_HOLD_OUT`-th held out), read by the
    photo localiser and heads; `train_index --real-mined` adds them."""
    from vision.readers.index_heads import IndexHeads, photo_heads_path
    from vision.readers.index_reader import IndexReader, photo_localiser_path

    reader = IndexReader(card_boxes=False, ocr=False, threads=2,
                         localiser=photo_localiser_path())
    heads = IndexHeads(photo_heads_path(), threads=2)
    recs, _ = whole_card_split()
    n, k = mined_images(recs, out / "real-mined", out / "real-mined-small", small, seed,
                        lambda img: reader.index_boxes(img, 0.02), heads)
    print(f"real mined: {n} of {len(recs)} whole-card photos with every index found "
          f"({k} indices), {small} small sheets of them (python -m "
          "vision.training.train_index --real-mined trains on them)")


def whole_card_records(src: Path = REAL_TRAIN) -> list[dict[str, Any]]:
    """The labels of the real photos with whole-card boxes (``rf100_``), in file order."""
    path = src / "labels.jsonl"
    recs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in recs if r["image"].startswith("rf100_")]


def whole_card_split(src: Path = REAL_TRAIN
                     ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The whole-card photos' labels (`whole_card_records`) split into those the clutter
    negatives are cut from and those held out to choose with: every `CLUTTER_HOLD_OUT`-th,
    from the first."""
    recs = whole_card_records(src)
    return ([r for k, r in enumerate(recs) if k % CLUTTER_HOLD_OUT],
            [r for k, r in enumerate(recs) if k % CLUTTER_HOLD_OUT == 0])


def mine_whole_card_indices(heads: object, recs: Sequence[dict[str, object]],
                            min_p: float = 0.35, src: Path = REAL_TRAIN
                            ) -> dict[str, np.ndarray]:
    """Real index patches from photos labelled with whole-card boxes (``rf100_``): in each
    card's corners, the proposal the heads read most surely as *that* card (its label is
    known) is taken when that probability reaches ``min_p``; one per corner at most."""
    out = _Patches()
    for rec in recs:
        img = cv2.imread(str(src / str(rec["image"])))
        if img is None:
            continue
        for c in rec["cards"]:  # type: ignore[attr-defined]
            props = corner_proposals(c["box"])
            patches = np.stack([index_patch(img, b) for b in props])
            score = read_as_card(heads.read(patches), c["card"])  # type: ignore[attr-defined]
            for best in best_in_each_corner(score):
                if score[best] >= min_p:
                    out.index(patches[best], c["card"], box=props[best])
    return out.pack()


def build_mined(out: Path, seed: int) -> None:
    """``crops-mined.npz``: real indices mined from the whole-card photos with the current
    heads (`mine_whole_card_indices`)."""
    from vision.readers.index_heads import IndexHeads

    heads = IndexHeads(threads=2)
    save_crops(out / "crops-mined.npz", [mine_whole_card_indices(heads, whole_card_records())])


if __name__ == "__main__":
    raise SystemExit(main())
