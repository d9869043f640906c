"""Benchmark: where the index reader loses cards, stage by stage, on deck designs it never saw.

For rendered scenes of the held-out designs in each table condition (the scenes of
`bench_reader_conditions.py`, same seed), with every readable corner index known from the
render, prints per condition:

- ``cards w/ index``: share of the face-up cards that show at least one readable index (what
  an index-first reader can hope to read);
- ``localiser R / P``: share of the true indices that a localiser box finds (its centre inside
  the box and IoU >= 0.3), and share of the boxes that find one, at the reader's
  ``index_conf`` and at a lower threshold;
- ``heads``: rank, suit and both right on the true index boxes (the localiser taken out: the
  heads' own share of the loss), with the rank OCR fused as the reader does;
- with ``--ocr``, the rank right on the same boxes by the rank head alone (``rank head``)
  and by the rank OCR alone (``OCR``), each index turned upright by its true orientation:
  whether the OCR would help if fused more widely.

    python benchmarks/bench_index_stages.py [--scenes 8] [--low 0.1] [--ocr]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_reader_conditions import CONDITIONS, design_names, scenes  # noqa: E402
from vision.readers.index_heads import RANKS, SUITS  # noqa: E402
from vision.readers.index_reader import IndexReader, available  # noqa: E402
from vision.training.index_data import finds as found  # noqa: E402
from vision.training.scenes import Scene  # noqa: E402


def quad_boxes(quads: Sequence[np.ndarray]) -> np.ndarray:
    """(N, 4) the box around each quad (its extent)."""
    return np.array([[q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()]
                     for q in quads], np.float32).reshape(-1, 4)


def true_index_boxes(scene: Scene) -> np.ndarray:
    """(N, 4) the box around each legible index of ``scene`` (its quad's extent)."""
    return quad_boxes([q for _, q in scene.indices])


def rank_alone(reader: IndexReader, frame: np.ndarray, scene: Scene, truth: np.ndarray
               ) -> tuple[int, int]:
    """How many of the scene's legible indices (their boxes ``truth``) the rank head alone
    and the rank OCR alone name the rank of, each index turned upright by its true
    orientation for the OCR (the reader turns it by the heads' orientation)."""
    import cv2

    from vision.readers.index_heads import orientation_of
    from vision.readers.index_reader import upright_cut

    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    heads = reader._heads_read(grey, truth, np.ones(len(truth), np.float32))
    p_ocr, _ = reader.ocr.rank_probs([upright_cut(frame, box, orientation_of(q))
                                      for box, (_, q) in zip(truth, scene.indices,
                                                             strict=True)])
    codes = [code for code, _ in scene.indices]
    return (sum(RANKS[int(r.rank.argmax())] == c[0] for r, c in zip(heads, codes, strict=True)),
            sum(RANKS[int(p.argmax())] == c[0] for p, c in zip(p_ocr, codes, strict=True)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=8, help="scenes per condition")
    ap.add_argument("--low", type=float, default=0.1, help="the lower localiser threshold")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--localiser", default=None, help="another localiser ONNX to measure")
    ap.add_argument("--heads", default=None,
                    help="other index heads ONNX to measure (default: the shipped "
                         "index_heads.onnx; the photo heads: models/index_heads_photo.onnx)")
    ap.add_argument("--designs", choices=["heldout", "train"], default="heldout")
    ap.add_argument("--ocr", action="store_true",
                    help="also the rank head alone and the rank OCR alone on the true boxes")
    args = ap.parse_args()
    names = design_names(args.designs)
    if not names or not available():
        print("needs the held-out deck designs and the index models")
        return 2
    # The heads on the true boxes, one reading each: no indices added between a spread's
    # (`IndexReader.spread_gaps`), which is the reader's, not the heads'.
    reader = IndexReader(localiser=args.localiser, heads=args.heads, card_boxes=False,
                         gaps=False)
    print(f"localiser {reader.localiser_path}; heads {reader.heads.path}; index_conf "
          f"{reader.index_conf} (and {args.low}); {args.scenes} scenes per condition of "
          f"{', '.join(names)}")
    print(f"{'condition':<14} {'cards w/ index':>14} {'loc R / P':>13} {'loc R / P low':>14} "
          f"{'heads rank':>10} {'suit':>6} {'both':>6}"
          + (f" {'rank head':>9} {'OCR':>6}" if args.ocr else "") + "  true indices")
    if args.ocr and reader.ocr is None:
        print("--ocr needs the rank OCR (rapidocr-onnxruntime)")
        return 2
    total = np.zeros(3, np.int64)  # (true indices, rank head right, OCR right) with --ocr
    for cond in CONDITIONS:
        n_cards = n_indexed = 0
        n_true = hit = hit_low = 0
        n_boxes = good = n_boxes_low = good_low = 0
        rank_ok = suit_ok = both_ok = head_ok = ocr_ok = 0
        for scene in scenes(cond, args.scenes, names, args.seed):
            frame = scene.image
            n_cards += len(scene.cards)
            n_indexed += len({code for code, _ in scene.indices})
            truth = true_index_boxes(scene)
            boxes, scores = reader.index_boxes(frame, args.low)
            hi = boxes[scores >= reader.index_conf]
            m_hi, m_low = found(truth, hi), found(truth, boxes)
            n_true += len(truth)
            hit += int(m_hi.any(axis=1).sum())
            hit_low += int(m_low.any(axis=1).sum())
            n_boxes += len(hi)
            good += int(m_hi.any(axis=0).sum())
            n_boxes_low += len(boxes)
            good_low += int(m_low.any(axis=0).sum())
            if len(truth):
                readings = reader.read_indices(frame, truth, np.ones(len(truth), np.float32))
                for (code, _), r in zip(scene.indices, readings, strict=True):
                    rk = RANKS[int(r.rank.argmax())] == code[0]
                    st = SUITS[int(r.suit.argmax())] == code[1]
                    rank_ok += rk
                    suit_ok += st
                    both_ok += rk and st
                if args.ocr:
                    by_head, by_ocr = rank_alone(reader, frame, scene, truth)
                    head_ok, ocr_ok = head_ok + by_head, ocr_ok + by_ocr

        def share(a: int, b: int) -> str:
            return f"{a / b:.3f}" if b else "  -  "

        print(f"{cond:<14} {share(n_indexed, n_cards):>14} "
              f"{share(hit, n_true):>6} / {share(good, n_boxes):<5} "
              f"{share(hit_low, n_true):>6} / {share(good_low, n_boxes_low):<5} "
              f"{share(rank_ok, n_true):>10} {share(suit_ok, n_true):>6} "
              f"{share(both_ok, n_true):>6}"
              + (f" {share(head_ok, n_true):>9} {share(ocr_ok, n_true):>6}" if args.ocr else "")
              + f"  {n_true}", flush=True)
        total += (n_true, head_ok, ocr_ok)
    if args.ocr and total[0]:
        print(f"all: the rank head alone {total[1] / total[0]:.3f}, the OCR alone "
              f"{total[2] / total[0]:.3f} of {total[0]} true indices")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
