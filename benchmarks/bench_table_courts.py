"""Benchmark: how often the table's readers name still cards right in the zone views of
rendered rounds, court cards (J, Q, K) apart from the others, for a deck design (default the
demo's; a held-out design such as ``dondorf`` shows how a deck the card reader never saw
reads).

One frame every two seconds of a Michigan, a Great Lakes and a Pressman round (seeds 100-102)
is cut into the table's zone views (320 px, margin 35, as `vision.zones.ZoneReader` cuts
them) and read by both readers, and by the hybrid (the card boxes named by the crop
classifier and the indices together), which reads the table while the deck is not judged and
throughout on a deck the card reader does not know (`vision.readers.deck_check`). A reading
(confidence 0.5 or more) counts as right when its code is one of the visible cards whose
frame box holds the reading's centre, as wrong when it is none of them; a reading on no
visible card is not counted. This is the measurement a deck check at the table would rest
on: which reader to trust for a deck.

It also prints how surely the crop classifier calls each of the hybrid's card boxes that lies
over one card a court card (its probabilities' share on the 12 courts): the least share of a
court card, the largest of any other, and how many boxes the hybrid's `COURT_SURE` and
`PIPS_SURE` judge, and wrongly (`vision.readers.index_reader.other_kind`).

With ``--pip-suits`` the hybrid also weighs the pips of each card box for its suit within its
colour (`vision.readers.pip_suits`); the readings that name a card's rank and colour with the
other suit are counted apart.

With ``--profile`` the index reader and the hybrid read with a deck profile from
``companion teach-deck``, as the table reads a taught deck (`vision.readers.load.table_reader`).

    python benchmarks/bench_table_courts.py [--deck dondorf] [--profile deck.json] [--pip-suits]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.cards import CARD_CODES  # noqa: E402
from vision.readers.detector import CardDetector  # noqa: E402
from vision.readers.index_reader import COURT_CODES, COURT_SURE, PIPS_SURE  # noqa: E402
from vision.readers.load import load_reader, read_deck_profile  # noqa: E402
from vision.render.demo import simulated_round  # noqa: E402
from vision.render.plan import RenderConfig  # noqa: E402
from vision.render.table import TableVideo  # noqa: E402
from vision.zones import rectify, zone_views  # noqa: E402

ROUNDS = (("michigan-rummy", 100), ("great-lakes", 101), ("pressman", 102))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deck", default=None, help="the deck design on the table")
    ap.add_argument("--every", type=int, default=4, help="read one frame in this many (2 fps)")
    ap.add_argument("--profile", default=None,
                    help="a deck profile from companion teach-deck: the index reader and the "
                         "hybrid read with it, as the table does with a taught deck")
    ap.add_argument("--pip-suits", action="store_true",
                    help="the hybrid also weighs each card box's pips for its suit within its "
                         "colour (IndexReader pip_suits)")
    ap.add_argument("--ink-check", action="store_true",
                    help="the hybrid drops an index whose ink cannot be its card box's pips' "
                         "(IndexReader ink_check)")
    ap.add_argument("--mixed-ink", action="store_true",
                    help="the index reader and the hybrid drop an index whose rank and suit "
                         "sign are in clashing inks (IndexReader mixed_ink)")
    ap.add_argument("--courts-by-index", action="store_true",
                    help="the hybrid takes which court a card is (J, Q, K) from its indices "
                         "(IndexReader courts_by_index), as the table reads a deck not yet "
                         "judged")
    args = ap.parse_args()
    taught = {} if args.profile is None else {"deck": read_deck_profile(args.profile)}
    readers = {"card reader": CardDetector(),
               "index reader": load_reader("index", table=True, mixed_ink=args.mixed_ink,
                                           **taught),
               "hybrid": load_reader("hybrid", table=True, courts_by_index=args.courts_by_index,
                                     pip_suits=args.pip_suits, ink_check=args.ink_check,
                                     mixed_ink=args.mixed_ink,
                                     **taught)}
    # Per reader and kind of card: [right, wrong].
    tally = {name: {"courts": [0, 0], "others": [0, 0]} for name in readers}
    # Per reader: wrong readings that name the card's rank and colour with the other suit.
    suit_slips = dict.fromkeys(readers, 0)
    # The crop classifier's court share on each hybrid card box over one card, by its kind.
    shares: dict[bool, list[float]] = {True: [], False: []}
    t0 = time.time()
    for game, seed in ROUNDS:
        cfg = RenderConfig(fps=2, seed=seed)
        video = TableVideo(simulated_round(game, seed=seed),
                           cfg if args.deck is None else replace(cfg, deck=args.deck))
        views = zone_views(video.profile(), 320, 35.0)
        for k, shown in enumerate(video.frames()):
            if k % args.every:
                continue
            visible = [(code, box) for code, box, seen in shown.cards if seen]
            images = [rectify(shown.image, v) for v in views]
            for view, image in zip(views, images, strict=True):
                boxes, _cardness, probs = readers["hybrid"].named_card_boxes(image)
                for box, p in zip(boxes, probs, strict=True):
                    under = cards_under(box, view.to_image, visible)
                    if len(under) == 1 and p.sum() > 0:
                        shares[under[0][0] in "JQK"].append(float(p[COURT_CODES].sum() / p.sum()))
            for name, reader in readers.items():
                for view, dets in zip(views, reader.detect_many(images), strict=True):
                    for box, cid, score in zip(dets.xyxy, dets.class_id, dets.confidence,
                                               strict=True):
                        if score < 0.5:
                            continue
                        under = cards_under(box, view.to_image, visible)
                        if not under:
                            continue
                        code = CARD_CODES[int(cid)]
                        kind = "courts" if code[0] in "JQK" else "others"
                        tally[name][kind][0 if code in under else 1] += 1
                        suit_slips[name] += code not in under and any(
                            c[0] == code[0] and (c[1] in "DH") == (code[1] in "DH")
                            for c in under)
    print(f"deck: {args.deck or 'the demo deck'}"
          f"{f', read with the profile {args.profile}' if args.profile else ''}; "
          f"{', '.join(f'{g} seed {s}' for g, s in ROUNDS)}")
    for name, kinds in tally.items():
        print(f"  {name:<13} " + "; ".join(
            f"{kind} {right} right, {wrong} wrong ({wrong / max(right + wrong, 1):.2f})"
            for kind, (right, wrong) in kinds.items())
            + f"; the other suit of the colour {suit_slips[name]}")
    court, other = np.array(shares[True]), np.array(shares[False])
    judged = int((court >= COURT_SURE).sum() + (court <= PIPS_SURE).sum()
                 + (other >= COURT_SURE).sum() + (other <= PIPS_SURE).sum())
    wrongly = int((court <= PIPS_SURE).sum() + (other >= COURT_SURE).sum())
    print(f"  crop classifier's court share, hybrid boxes over one card: courts "
          f"{court.min(initial=1.0):.2f} at least ({len(court)} boxes), other cards "
          f"{other.max(initial=0.0):.2f} at most ({len(other)}); judged at {COURT_SURE} / "
          f"{PIPS_SURE}: {judged}, wrongly {wrongly}")
    print(f"  {time.time() - t0:.0f} s in all")
    return 0


def cards_under(box: np.ndarray, to_image: np.ndarray, visible: list[tuple[str, Any]]
                ) -> list[str]:
    """The visible cards whose frame box holds the centre of a zone view's ``box``."""
    centre = np.array([[[(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]]], np.float32)
    x, y = cv2.perspectiveTransform(centre, to_image)[0, 0]
    return [c for c, b in visible if b[0] <= x <= b[2] and b[1] <= y <= b[3]]


if __name__ == "__main__":
    raise SystemExit(main())
