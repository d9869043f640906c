"""Benchmark: card-level precision and recall of the shipped reader on deck designs it never
saw, per table condition, and phantom cards on empty tables.

Renders scenes of the held-out designs (`vision.render.decks.HELDOUT_DECKS`, never trained
on) in each condition: scattered cards, piles showing corners, fanned hands, spreads and
cascades (rows), a board of piles, cheap-webcam frames (dim, grey, salt-and-pepper,
stretched), and the held-out designs recoloured with a dark face and metallic ink. A card
counts as read when the right code is reported on it
(`vision.training.detector_eval.place_matrix` >= 0.5); everything else reported counts
against precision. Empty scenes (table, chips, backs, arms) give phantoms. Recall is also
given over the cards a person could name by an index (one stayed legible in the frame).
With ``--errors`` every wrong reading is listed with the card it lies on, and the wrong
readings are counted by kind (`error_kind`).

    python benchmarks/bench_reader_conditions.py [--scenes 30] [--reader index|card] [--size 1600]
        [--magnify 2] [--level-below 0] [--sharpen 0] [--errors] [--courts-by-index] [--pip-suits]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.reader_looks import add_look_options, look_kwargs  # noqa: E402
from companion.cards import CARD_CODES, pretty_name  # noqa: E402
from vision.readers.detector import pair_areas  # noqa: E402
from vision.readers.load import load_reader  # noqa: E402
from vision.render import decks  # noqa: E402
from vision.training.detector_eval import _match  # noqa: E402
from vision.training.scenes import KINDS, Scene, render_scene  # noqa: E402

CONDITIONS = ("scatter", "pile", "fan", "row", "board", "webcam", "dark-recolour")


def render(rng: np.random.Generator, condition: str, names: list[str], size: int = 640
           ) -> Scene:
    if condition in KINDS:
        return render_scene(rng, names, size=size, kind=condition)
    if condition == "webcam":
        return render_scene(rng, names, size=size, webcam_p=1.0)
    # dark-recolour: every face of the scene's deck black with gold or silver ink.
    paper = np.array(rng.uniform(0, 50, 3), np.float32)
    ink = np.array([rng.uniform(30, 90), rng.uniform(150, 215), rng.uniform(190, 250)]
                   if rng.random() < 0.6 else [rng.uniform(170, 235)] * 3, np.float32)
    return render_scene(rng, names, size=size, style=(paper, ink))


def design_names(which: str = "heldout") -> list[str]:
    """The installed held-out designs, or the installed training designs."""
    held = [d for d in decks.HELDOUT_DECKS if d in decks.available_decks()]
    if which == "heldout":
        return held
    return [d for d in decks.available_decks() if d not in decks.HELDOUT_DECKS]


def scenes(condition: str, count: int, names: list[str], seed: int = 2026, size: int = 640
           ) -> list[Scene]:
    """The benchmark's scenes of one condition (each condition its own seeded stream)."""
    rng = np.random.default_rng([seed, CONDITIONS.index(condition)])
    return [render(rng, condition, names, size) for _ in range(count)]


def legible_cards(scene: Scene) -> list[tuple[str, list[np.ndarray]]]:
    """The cards of the scene a person can name by a corner index, each with the quads of
    its indices that stayed legible in the frame (`Scene.indices`, the renderer's legibility
    check) inside the card's box."""
    out = []
    for code, (x1, y1, x2, y2) in scene.cards:
        quads = [q for c, q in scene.indices if c == code]
        quads = [q for q in quads
                 if x1 - 1 <= q[:, 0].mean() <= x2 + 1 and y1 - 1 <= q[:, 1].mean() <= y2 + 1]
        if quads:
            out.append((code, quads))
    return out


def read_at(code: str, quads: list[np.ndarray], xyxy: np.ndarray, class_id: np.ndarray
            ) -> bool:
    """Whether a reading of ``code`` covers the centre of one of its index ``quads``."""
    k = CARD_CODES.index(code)
    centres = [q.mean(axis=0) for q in quads]
    return any(int(c) == k and b[0] - 2 <= p[0] <= b[2] + 2 and b[1] - 2 <= p[1] <= b[3] + 2
               for b, c in zip(xyxy, class_id, strict=True) for p in centres)


def readable_read(scene: Scene, xyxy: np.ndarray, class_id: np.ndarray) -> np.ndarray:
    """(cards of the scene a person can name by a corner index, those of them read): a card
    is readable when one of its indices stayed legible in the frame (`legible_cards`); it is
    read when a reading of its code covers that index's centre (`read_at`)."""
    cards = legible_cards(scene)
    return np.array([len(cards), sum(read_at(c, q, xyxy, class_id) for c, q in cards)],
                    np.int64)


def error_kind(got: str, under: str | None, codes: list[str]) -> str:
    """What a wrong reading ``got`` is, given the true card ``under`` it (the one its box
    overlaps most; ``None`` where it overlaps none) and the scene's cards ``codes``: ``box``
    (the card under it named right, but the box does not lie on it, or it was named twice),
    ``elsewhere`` (another card of the scene named), ``suit`` (the rank right), ``rank`` (the
    suit right), ``both`` or ``nothing`` (no card there)."""
    if got == under:
        return "box"
    if got in codes:
        return "elsewhere"
    if under is None:
        return "nothing"
    if got[:-1] == under[:-1]:
        return "suit"
    return "rank" if got[-1] == under[-1] else "both"


def wrong_readings(scene: Scene, xyxy: np.ndarray, class_id: np.ndarray, matched: np.ndarray
                   ) -> list[tuple[str, str | None, str]]:
    """(read, true card under it, `error_kind`) for each reading ``matched`` says is wrong."""
    codes = [c for c, _ in scene.cards]
    gb = np.array([b for _, b in scene.cards], np.float64).reshape(-1, 4)
    wrong = np.flatnonzero(~matched)
    inter = pair_areas(np.asarray(xyxy, np.float64)[wrong].reshape(-1, 4), gb)[0]
    out = []
    for j, row in zip(wrong, inter, strict=True):
        under = codes[int(row.argmax())] if len(row) and row.max() > 0 else None
        got = CARD_CODES[int(class_id[j])]
        out.append((got, under, error_kind(got, under, codes)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=30, help="scenes per condition")
    ap.add_argument("--empty", type=int, default=50, help="empty scenes")
    ap.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="auto")
    ap.add_argument("--conf", type=float, default=None)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--size", type=int, default=640,
                    help="the frames' longer side (1600: photos larger than the localiser's "
                         "input, where cards of the same sizes in pixels are small)")
    ap.add_argument("--designs", choices=["heldout", "train"], default="heldout",
                    help="train: the training designs, for choosing settings (use another "
                         "--seed than the reported runs')")
    ap.add_argument("--index-conf", type=float, default=None,
                    help="index readers: the localiser's threshold")
    ap.add_argument("--no-tiles", action="store_true",
                    help="index readers: one look at the whole frame, never tiles")
    ap.add_argument("--magnify", type=float, default=None,
                    help="also read each frame magnified this many times (IndexReader "
                         "magnify; default: the reader's own)")
    add_look_options(ap)
    ap.add_argument("--errors", action="store_true",
                    help="list every wrong reading and count them by kind")
    ap.add_argument("--pip-suits", action="store_true",
                    help="hybrid: each card box's pips vote on its suit within its colour "
                         "(IndexReader pip_suits, as the table's hybrid reads)")
    ap.add_argument("--ink-check", action="store_true",
                    help="hybrid: an index whose ink cannot be its card box's pips' and that "
                         "reads the other colour than the box does not vote (IndexReader "
                         "ink_check, as the table's hybrid reads)")
    ap.add_argument("--mixed-ink", action="store_true",
                    help="an index whose rank and suit sign are in clashing inks is not read "
                         "(IndexReader mixed_ink)")
    ap.add_argument("--courts-by-index", action="store_true",
                    help="hybrid: which court a card is (J, Q, K), its indices say "
                         "(IndexReader courts_by_index, as the table reads an unjudged deck)")
    args = ap.parse_args()
    names = design_names(args.designs)
    if not names:
        print("the held-out deck designs are not installed (Debian kdegames-card-data-kf5)")
        return 2
    kw: dict[str, object] = {} if args.index_conf is None else {"index_conf": args.index_conf}
    if args.no_tiles:
        kw["tile"] = False
    if args.magnify is not None:
        kw["magnify"] = args.magnify
    if args.courts_by_index:
        kw["courts_by_index"] = True
    if args.pip_suits:
        kw["pip_suits"] = True
    if args.ink_check:
        kw["ink_check"] = True
    if args.mixed_ink:
        kw["mixed_ink"] = True
    kw.update(look_kwargs(args))
    reader = load_reader(args.reader, conf=args.conf, **kw)
    print(f"reader: {type(reader).__name__}; {args.designs} designs: {', '.join(names)}; "
          f"{args.scenes} scenes per condition, {args.size} px")
    total_tp = total_pred = total_gt = 0
    total_seen = np.zeros(2, np.int64)
    kinds: dict[str, int] = {}
    t0 = time.time()
    for condition in CONDITIONS:
        tp = npred = ngt = 0
        seen = np.zeros(2, np.int64)  # readable cards, and those of them read
        for k, s in enumerate(scenes(condition, args.scenes, names, args.seed, args.size)):
            gb = np.array([b for _, b in s.cards], np.float64).reshape(-1, 4)
            gc = np.array([CARD_CODES.index(c) for c, _ in s.cards], np.int64)
            d = reader.detect(s.image)
            m = _match(d.xyxy.astype(np.float64), d.class_id, d.confidence, gb, gc, 0.5,
                       place=True)
            tp, npred, ngt = tp + int(m.sum()), npred + len(m), ngt + len(gc)
            seen += readable_read(s, d.xyxy, d.class_id)
            if args.errors:
                for got, under, kind in wrong_readings(s, d.xyxy, d.class_id, m):
                    kinds[kind] = kinds.get(kind, 0) + 1
                    on = pretty_name(under) if under else "no card"
                    print(f"    {condition} scene {k}: read {pretty_name(got)} on {on} ({kind})")
        total_tp, total_pred, total_gt = total_tp + tp, total_pred + npred, total_gt + ngt
        total_seen += seen
        print(f"  {condition:<14} {ngt:4d} cards: precision {tp / max(npred, 1):.3f} "
              f"recall {tp / max(ngt, 1):.3f}; {seen[0]:4d} with a legible index: recall "
              f"{seen[1] / max(seen[0], 1):.3f}", flush=True)
    print(f"  {'all':<14} {total_gt:4d} cards: precision {total_tp / max(total_pred, 1):.3f} "
          f"recall {total_tp / max(total_gt, 1):.3f}; {total_seen[0]:4d} with a legible "
          f"index: recall {total_seen[1] / max(total_seen[0], 1):.3f}")
    if args.errors:
        print("  wrong readings by kind: " + (", ".join(
            f"{kind} {kinds[kind]}" for kind in sorted(kinds, key=lambda x: -kinds[x]))
            or "none"))
    rng = np.random.default_rng([args.seed, 99])
    found = 0
    for _ in range(args.empty):
        s = render_scene(rng, names, size=args.size, empty=True)
        found += len(reader.detect(s.image))
    print(f"  empty scenes: {found / max(args.empty, 1):.3f} phantom cards per frame "
          f"({args.empty} frames); {time.time() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
