"""Audit: corner-index labels of the real photos that may name the wrong card.

The photo heads read every labelled corner box of the real index photos (``ammi_``,
``bidly_``; `index_data.real_index_records`, with `REAL_LABEL_FIXES` already applied) as the
photo reader reads them: in four quarter turns and, where unsure, turned an eighth. Every
box where they name another card than the label is listed, surest first, and cut from its
photo onto a contact sheet (the box with a margin, enlarged, the label and the heads'
reading under it) to be looked at by eye: most are the heads' errors, a few are labels that
name another card than the one printed (those went into `REAL_LABEL_FIXES`).

    python benchmarks/audit_real_labels.py [--sheet audit.png] [--most 36]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.audit_legible_indices import grid  # noqa: E402
from vision.readers.index_heads import RANKS, SUITS, IndexHeads, photo_heads_path  # noqa: E402
from vision.training.index_data import REAL_TRAIN, real_index_records  # noqa: E402

#: The side of a box's cut on the contact sheet, and the strip under it for the text.
TILE, STRIP = 160, 24


def disagreements(heads: IndexHeads, recs: list[dict[str, object]], src: Path = REAL_TRAIN
                  ) -> tuple[int, list[tuple[str, int, str, str, float]]]:
    """(boxes read, [(photo, box number, label, heads' reading, rank x suit)]) for every
    labelled box the heads name otherwise, surest first."""
    import cv2

    out = []
    n = 0
    for rec in recs:
        name = str(rec["image"])
        grey = cv2.imread(str(src / name), cv2.IMREAD_GRAYSCALE)
        if grey is None:
            raise FileNotFoundError(src / name)
        cards = list(rec["cards"])  # type: ignore[call-overload]
        if not cards:
            continue
        p = heads.read(heads.cut(grey, [c["box"] for c in cards]), tta=True)
        for k, c in enumerate(cards):
            n += 1
            got = RANKS[int(p["rank"][k].argmax())] + SUITS[int(p["suit"][k].argmax())]
            if got != c["card"]:
                sure = float(p["rank"][k].max() * p["suit"][k].max())
                out.append((name, k, str(c["card"]), got, sure))
    return n, sorted(out, key=lambda d: -d[4])


def contact_sheet(rows: list[tuple[str, int, str, str, float]],
                  recs: dict[str, dict[str, object]], src: Path = REAL_TRAIN,
                  per_row: int = 6) -> np.ndarray:
    """The boxes of ``rows`` cut from their photos with a margin of 0.3 of their longer side,
    each over a strip with its label (L) and the heads' reading (H)."""
    import cv2

    tiles = []
    for name, k, label, got, sure in rows:
        image = cv2.imread(str(src / name))
        if image is None:
            raise FileNotFoundError(src / name)
        x1, y1, x2, y2 = (int(v) for v in recs[name]["cards"][k]["box"])  # type: ignore[index]
        m = int(0.3 * max(x2 - x1, y2 - y1))
        cut = image[max(0, y1 - m):y2 + m, max(0, x1 - m):x2 + m]
        tile = cv2.copyMakeBorder(cv2.resize(cut, (TILE, TILE)), 0, STRIP, 0, 0,
                                  cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(tile, f"L {label} H {got} {sure:.2f}", (2, TILE + STRIP - 8),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 200), 1)
        tiles.append(tile)
    return grid(tiles, per_row)


def main() -> int:
    import cv2

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sheet", type=Path, default=None, help="write the contact sheet here")
    ap.add_argument("--most", type=int, default=36, help="boxes on the sheet, surest first")
    args = ap.parse_args()
    recs = real_index_records()
    if not recs:
        print(f"no corner-labelled real photos in {REAL_TRAIN}")
        return 2
    heads = IndexHeads(photo_heads_path(), threads=2, eighths=True)
    n, rows = disagreements(heads, recs)
    print(f"{len(recs)} photos, {n} labelled boxes; the heads name {len(rows)} otherwise:")
    for name, k, label, got, sure in rows:
        print(f"  {name} box {k}: labelled {label}, read {got} ({sure:.2f})")
    if args.sheet is not None and rows:
        by_name = {str(r["image"]): r for r in recs}
        cv2.imwrite(str(args.sheet), contact_sheet(rows[:args.most], by_name))
        print(f"contact sheet of the {min(args.most, len(rows))} surest: {args.sheet}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
