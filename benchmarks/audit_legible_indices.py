"""Audit: how many of the reader benchmark's legible indices a person can name.

`bench_reader_conditions.py` counts an index legible by the renderer's check
(`vision.training.legibility`); this puts that check to a person. It draws a random sample
of the held-out designs' legible indices (the benchmark's scenes, same seed), each cut upright
from the frame in colour, enlarged and with its contrast stretched (every advantage the reader
does not have), onto numbered contact sheets, and keeps the answers apart, with what the
shipped index heads (and the rank OCR, as `bench_index_stages.py` reads) name on each index's
true box:

    python benchmarks/audit_legible_indices.py sheets OUT [--count 96]  # sheets, OUT/key.json
    python benchmarks/audit_legible_indices.py score OUT ANSWERS        # per condition

ANSWERS is a text file with one card per sample in sheet order, as a person reads it (``QS``,
``10D``, ``Q♠``) or ``?`` where they cannot; the score prints the share the person and the
heads named right, per condition and in all, and how many of the indices the person named
and could not name the heads name. `benchmarks/data/legible-audit-144.txt` holds one such
person's answers to ``sheets OUT --count 144 --seed 29`` (models/INDEX.md, "Twenty-eighth
session").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_index_stages import true_index_boxes  # noqa: E402
from benchmarks.bench_reader_conditions import CONDITIONS, design_names, scenes  # noqa: E402
from companion.cards import CardError, card  # noqa: E402

TILE_W, TILE_H, PER_ROW, PER_SHEET = 80, 128, 12, 48


def upright(image: np.ndarray, quad: np.ndarray, grow: float = 1.3) -> np.ndarray:
    """The index in ``quad`` (reading order) cut upright from ``image``, grown by ``grow``
    about its centre, contrast stretched, ``TILE_W`` x ``TILE_H``."""
    centre = quad.mean(axis=0)
    src = ((quad - centre) * grow + centre).astype(np.float32)
    dst = np.float32([[0, 0], [TILE_W, 0], [TILE_W, TILE_H], [0, TILE_H]])
    cut = cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (TILE_W, TILE_H),
                              flags=cv2.INTER_CUBIC).astype(np.float32)
    lo, hi = float(cut.min()), float(cut.max())
    return ((cut - lo) / max(hi - lo, 1.0) * 255).astype(np.uint8)


def sample(count: int, seed: int, scenes_per: int = 12) -> list[tuple[str, str, np.ndarray, str]]:
    """``count`` (condition, code, tile, heads' reading) drawn at random from the legible
    indices of the benchmark's held-out scenes (``scenes_per`` per condition, seed 2026)."""
    from vision.readers.index_heads import RANKS, SUITS
    from vision.readers.index_reader import IndexReader

    # The heads on the true boxes alone: no indices added between a spread's (`spread_gaps`).
    reader = IndexReader(card_boxes=False, gaps=False)
    items = []
    for cond in CONDITIONS:
        for s in scenes(cond, scenes_per, design_names("heldout")):
            boxes = true_index_boxes(s)
            read = reader.read_indices(s.image, boxes, np.ones(len(boxes), np.float32))
            for (code, quad), r in zip(s.indices, read, strict=True):
                named = RANKS[int(r.rank.argmax())] + SUITS[int(r.suit.argmax())]
                items.append((cond, str(code), upright(s.image, quad), named))
    pick = np.random.default_rng(seed).permutation(len(items))[:count]
    return [items[i] for i in pick]


def write_sheets(out: Path, items: list[tuple[str, str, np.ndarray, str]]) -> list[Path]:
    """Numbered contact sheets of the tiles, and ``key.json`` (condition, code, heads' reading
    per tile)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for first in range(0, len(items), PER_SHEET):
        tiles = []
        for n, (_, _, tile, _) in enumerate(items[first:first + PER_SHEET], start=first):
            t = cv2.copyMakeBorder(tile, 0, 16, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
            cv2.putText(t, str(n), (2, TILE_H + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1)
            tiles.append(t)
        sheet = grid(tiles, PER_ROW)
        path = out / f"sheet-{first // PER_SHEET + 1}.png"
        cv2.imwrite(str(path), sheet)
        paths.append(path)
    key = [[cond, code, named] for cond, code, _, named in items]
    (out / "key.json").write_text(json.dumps(key) + "\n")
    return paths


def grid(tiles: list[np.ndarray], per_row: int) -> np.ndarray:
    """Tiles of one size laid out ``per_row`` to a row, the last row filled out in white."""
    tiles = tiles + [np.full_like(tiles[0], 255)] * (-len(tiles) % per_row)
    return np.vstack([np.hstack(tiles[k:k + per_row]) for k in range(0, len(tiles), per_row)])


def code_of(answer: str) -> str | None:
    """A person's answer as a card code; ``None`` for ``?`` or anything not a card."""
    try:
        return str(card(answer.strip()))
    except CardError:
        return None


def answer_list(text: str) -> list[str]:
    """The answers of an ANSWERS file: every word, lines starting with ``#`` left out."""
    return [w for line in text.splitlines() if not line.lstrip().startswith("#")
            for w in line.split()]


def score(key: list[list[str]], answers: list[str]) -> dict[str, tuple[int, int, int]]:
    """(named right by the person, by the heads, shown) per condition and ``all``."""
    if len(answers) != len(key):
        raise ValueError(f"{len(answers)} answers for {len(key)} samples")
    out: dict[str, tuple[int, int, int]] = {}
    for (cond, code, named), answer in zip(key, answers, strict=True):
        for k in (cond, "all"):
            person, heads, shown = out.get(k, (0, 0, 0))
            out[k] = (person + (code_of(answer) == code), heads + (named == code), shown + 1)
    return out


def heads_beside_person(key: list[list[str]], answers: list[str]) -> tuple[int, int, int, int]:
    """(indices the person named right, the heads right on those, indices the person could
    not name or named wrongly, the heads right on those): whether the heads read what a
    person can, and what a person cannot."""
    named = [code_of(a) == code for (_, code, _), a in zip(key, answers, strict=True)]
    heads = [h == code for _, code, h in key]
    return (sum(named), sum(h for n, h in zip(named, heads, strict=True) if n),
            len(named) - sum(named), sum(h for n, h in zip(named, heads, strict=True) if not n))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("sheets")
    a.add_argument("out", type=Path)
    a.add_argument("--count", type=int, default=96)
    a.add_argument("--seed", type=int, default=5)
    b = sub.add_parser("score")
    b.add_argument("out", type=Path)
    b.add_argument("answers", type=Path)
    args = ap.parse_args()
    if args.cmd == "sheets":
        for path in write_sheets(args.out, sample(args.count, args.seed)):
            print(path)
        return 0
    key = json.loads((args.out / "key.json").read_text())
    answers = answer_list(args.answers.read_text())
    got = score(key, answers)
    for k in [c for c in CONDITIONS if c in got] + ["all"]:
        person, heads, shown = got[k]
        print(f"  {k:<14} {shown:3d} indices: a person names {person / shown:.3f}, "
              f"the heads {heads / shown:.3f}")
    person, heads_too, other, heads_only = heads_beside_person(key, answers)
    print(f"  the heads name {heads_too} of the {person} the person named, and {heads_only} of "
          f"the {other} the person could not")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
