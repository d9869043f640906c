"""Audit: why whole-card photos are left out of the mined localiser labels, and whether a
closer look finds the corner indices the localiser missed.

For every ``--every``-th whole-card photo the mining reads (`index_data.whole_card_split`),
runs `index_data.mined_index_boxes` as `index_data --mined-images` does (the photo
localiser at 0.02, the photo heads) and counts the photos kept, those left out for a card
with fewer than two indices or a stray index-like box, and those left out only for a corner
index no localiser box covers. For each such corner it cuts three times the corner
proposal's size around it, enlarges the cut twice and runs the localiser on it at 0.1:
``found zoomed`` counts the corners where a box there is read as the card (rank x suit x
is-index at least 0.5).

    python benchmarks/audit_mined_photos.py [--every 3]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.readers.index_heads import IndexHeads, index_patch, photo_heads_path  # noqa: E402
from vision.readers.index_reader import IndexReader, available, photo_localiser_path  # noqa: E402
from vision.training import index_data  # noqa: E402


def main() -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--every", type=int, default=3, help="audit every N-th photo")
    args = ap.parse_args()
    recs, _ = index_data.whole_card_split()
    if not recs or not available():
        print("needs the real whole-card photos and the index models")
        return 2
    reader = IndexReader(card_boxes=False, ocr=False, localiser=photo_localiser_path())
    heads = IndexHeads(photo_heads_path(), threads=2)
    why: Counter[str] = Counter()
    missed = zoomed = 0
    recs = recs[::args.every]
    for rec in recs:
        img = cv2.imread(str(index_data.REAL_TRAIN / rec["image"]))
        if img is None:
            continue
        boxes, scores = reader.index_boxes(img, 0.02)
        if index_data.mined_index_boxes(img, rec["cards"], boxes, scores, heads) is not None:
            why["kept"] += 1
            continue
        found = index_data.mined_index_boxes(img, rec["cards"], boxes, scores, heads,
                                             corners=False)
        if found is None:
            why["a card with fewer than two indices, or a stray index"] += 1
            continue
        why["only a corner index no box covers"] += 1
        for card in rec["cards"]:
            for b in index_data.missed_corners(img, card, found, heads):
                missed += 1
                centre, half = (b[:2] + b[2:]) / 2, float((b[2:] - b[:2]).max()) * 1.5
                x0, y0 = (int(max(0.0, v - half)) for v in centre)
                x1 = int(min(img.shape[1], centre[0] + half))
                y1 = int(min(img.shape[0], centre[1] + half))
                cut = cv2.resize(img[y0:y1, x0:x1], None, fx=2, fy=2,
                                 interpolation=cv2.INTER_CUBIC)
                near, _ = reader.index_boxes(cut, 0.1)
                if not len(near):
                    continue
                read = heads.read(np.stack([index_patch(cut, x) for x in near]))
                if (index_data.read_as_card(read, card["card"]) >= 0.5).any():
                    zoomed += 1
    print(f"{len(recs)} whole-card photos (one in {args.every} of those mined from):")
    for reason, n in why.most_common():
        print(f"  {reason}: {n}")
    print(f"  corner indices no localiser box covers: {missed}; found zoomed 2x at 0.1: {zoomed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
