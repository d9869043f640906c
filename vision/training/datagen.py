"""The card detector's dataset on disk: rendered scenes (`vision.training.scenes`) written as
images with YOLO labels, several processes at once and resumable, and the real training photos
linked in beside them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.render import decks
from vision.training.scenes import render_scene


def _write_one(job: tuple[str, int, int, list[str], float, int]) -> int:
    out_dir, index, seed, deck_names, empty_share, size = job
    rng = np.random.default_rng(seed)
    empty = rng.random() < empty_share
    scene = render_scene(rng, deck_names, size=size, empty=empty)
    name = f"{index:06d}"
    img_path = Path(out_dir) / "images" / f"{name}.jpg"
    cv2.imwrite(str(img_path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    (Path(out_dir) / "labels" / f"{name}.txt").write_text("\n".join(scene.yolo_lines()) + "\n"
                                                          if scene.cards else "")
    return len(scene.cards)


def generate(out_dir: str | Path, count: int, deck_names: Sequence[str], seed: int = 0,
             empty_share: float = 0.05, size: int = 640, workers: int = 2) -> Path:
    """Write ``count`` scenes as ``out_dir/images/*.jpg`` + ``out_dir/labels/*.txt`` (YOLO)."""
    from multiprocessing import get_context

    from tqdm import tqdm

    out = Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    decks.prerender(list(deck_names), workers=workers)
    jobs = [(str(out), i, seed * 1_000_003 + i, list(deck_names), empty_share, size)
            for i in range(count) if not (out / "labels" / f"{i:06d}.txt").exists()]
    total = 0
    if workers <= 1:
        for job in tqdm(jobs, desc=f"scenes -> {out.name}", unit="img"):
            total += _write_one(job)
    else:
        with get_context("fork").Pool(workers) as pool:
            for k in tqdm(pool.imap_unordered(_write_one, jobs, chunksize=4), total=len(jobs),
                          desc=f"scenes -> {out.name}", unit="img"):
                total += k
    (out / "meta.json").write_text(json.dumps({"count": count, "decks": list(deck_names),
                                               "seed": seed, "size": size}, indent=1))
    return out


def import_real_train(src: str | Path, out_dir: str | Path,
                      prefixes: Sequence[str] = ("rf100_",)) -> int:
    """Link the real training photos into ``out_dir`` with YOLO labels (whole-card boxes only).

    Images are symlinked, never copied. The ``bidly_`` photos are left out: they label corner
    indices (two boxes per card), not whole cards.
    """
    src, out = Path(src), Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    n = 0
    for line in (src / "labels.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        name = rec["image"]
        if not name.startswith(tuple(prefixes)):
            continue
        w, h = float(rec["width"]), float(rec["height"])
        rows = []
        for c in rec["cards"]:
            x1, y1, x2, y2 = c["box"]
            rows.append(f"{CARD_CODES.index(c['card'])} {(x1 + x2) / 2 / w:.6f} "
                        f"{(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
        link = out / "images" / name
        if not link.exists():
            os.symlink((src / name).resolve(), link)
        (out / "labels" / (Path(name).stem + ".txt")).write_text("\n".join(rows) + "\n")
        n += 1
    return n
