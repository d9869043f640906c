"""The `companion detect` and `companion teach-deck` subcommands (`companion train` is
vision.training.train, `companion calibrate` vision.calibrate_cli).

Registered through the ``companion.commands`` entry points; each ``register_*`` adds one
sub-parser whose handler returns the exit status. Heavy imports happen inside the handlers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any


def register_detect(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "detect", help="read the playing cards in photos or frames",
        description="Print the cards seen in each image: one per physical card, with its box "
                    "in image pixels and a score. With --json, one JSON line per image.")
    p.add_argument("images", nargs="+", metavar="IMAGE",
                   help="image files, or folders (their .jpg/.jpeg/.png/.bmp/.webp files)")
    p.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="auto",
                   help="hybrid (the default when the index models are installed): whole-card "
                        "boxes named by the crop classifier and the corner indices together; "
                        "index: the corner indices alone; card: the whole-card detector and "
                        "its crop classifier (faster)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--annotate", metavar="DIR",
                   help="write copies with boxes and names drawn into folder DIR (made if "
                        "needed; an earlier copy of the same name is replaced, a photo given "
                        "as IMAGE never)")
    p.add_argument("--model", help="ONNX weights (default: the shipped models/cards.onnx)")
    p.add_argument("--imgsz", type=int, default=None, help="network input size in pixels")
    p.add_argument("--conf", type=float, default=None, help="minimum score (default 0.4)")
    p.add_argument("--deck", help="a deck profile written by `companion teach-deck`")
    p.set_defaults(func=run_detect)


def _expand_images(names: list[str]) -> list[str]:
    """Files as given; a folder stands for its picture files, sorted by name: those it reads
    (`vision.sources.files.IMAGE_SUFFIXES`) and those of formats it cannot read
    (`vision.images.UNREADABLE_FORMATS`), which are then refused by name with what to do."""
    from vision.images import UNREADABLE_FORMATS
    from vision.sources.files import IMAGE_SUFFIXES

    out: list[str] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            out += sorted(str(p) for p in path.iterdir() if not p.name.startswith(".")
                          and (p.suffix.lower() in IMAGE_SUFFIXES
                               or p.suffix.lower() in UNREADABLE_FORMATS))
        else:
            out.append(name)
    return out


def run_detect(args: argparse.Namespace) -> int:
    import cv2

    from vision.drawing import annotate
    from vision.images import ImageError, read_image
    from vision.readers.load import load_reader, read_deck_profile, resolve_reader
    from vision.sources.files import IMAGE_SUFFIXES

    out_dir = Path(args.annotate) if args.annotate else None
    if out_dir is not None and out_dir.exists() and not out_dir.is_dir():
        print(f"companion detect: --annotate wants a folder for the annotated copies; "
              f"{out_dir} is a file", file=sys.stderr)
        return 2
    kwargs: dict[str, Any] = {"imgsz": args.imgsz} if args.imgsz else {}
    try:
        reader = args.reader
        if reader == "auto" and (args.model or args.imgsz):
            reader = "card"  # a whole-card model or its input size names the card reader
        if reader in ("index", "hybrid") and (args.model or args.imgsz):
            raise ValueError("--model and --imgsz are for --reader card")
        reader = resolve_reader(reader, args.model)
        if args.deck and reader != "card":
            # The index readers: the profile's refitted layers, on the models it was taught on.
            kwargs["deck"] = read_deck_profile(args.deck)
        det = load_reader(reader, args.model, args.conf, **kwargs)
    except (FileNotFoundError, ValueError) as exc:
        print(f"companion detect: {exc}", file=sys.stderr)
        return 2
    profile = None
    if args.deck and reader == "card":
        from vision.readers.teach import MIN_CONF, DeckProfile

        profile = DeckProfile.load(args.deck)
        det.conf = MIN_CONF  # the profile applies its own per-card thresholds
    if out_dir:
        out_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    pictures: list[str] = []
    for name in args.images:
        found = _expand_images([name])
        if not found:  # only a folder stands for nothing
            print(f"companion detect: no pictures in the folder {name} (it reads "
                  f"{', '.join(s.lstrip('.') for s in IMAGE_SUFFIXES)})", file=sys.stderr)
            status = 2
        pictures += found
    for name in pictures:
        try:
            img = read_image(name)       # the size its header claims is checked first
        except ImageError as exc:
            print(f"companion detect: {exc}", file=sys.stderr)   # the batch goes on
            status = 2
            continue
        t0 = time.perf_counter()
        dets = det.detect(img)
        if profile is not None:
            dets = profile.apply(dets)
        ms = (time.perf_counter() - t0) * 1000
        if args.json:
            print(json.dumps({"image": name, "cards": dets.to_json(), "ms": round(ms, 1)}),
                  flush=True)
        else:
            print(f"{name}: {len(dets)} card{'s' if len(dets) != 1 else ''} ({ms:.0f} ms)")
            for card, (x1, y1, x2, y2), score in sorted(dets, key=lambda r: (r[1][1], r[1][0])):
                from companion.cards import Card

                print(f"  {Card.parse(card).pretty():>4}  {score:.2f}  "
                      f"[{x1:.0f}, {y1:.0f}, {x2:.0f}, {y2:.0f}]")
        if out_dir:
            target = out_dir / Path(name).name
            if target.exists() and target.samefile(name):
                print(f"companion detect: not drawing over the photo {name}; give --annotate "
                      f"another folder", file=sys.stderr)
                status = 2
                continue
            cv2.imwrite(str(target), annotate(img, dets))
    return status


def register_teach_deck(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "teach-deck", help="learn your own deck from photos of its cards",
        description="Show every card of your deck to the camera once (photos named by card, "
                    "e.g. QH.jpg, or a folder with labels.jsonl). A deck profile is written for "
                    "`companion detect --deck PROFILE` and for the table (`companion watch --deck "
                    "PROFILE`, or \"Your deck\" in the window's camera setup, which then read "
                    "the table by the cards' corner indices): with the index reader (the "
                    "default), "
                    "whether the deck prints light ink on a dark face (then photos are read in "
                    "negative) and rank and suit layers refitted on your cards where that reads "
                    "them better; with the card reader, per-card score thresholds (and with "
                    "--remap the confusions this deck causes).")
    p.add_argument("source", help="folder of card photos (CODE.jpg) or with labels.jsonl")
    p.add_argument("--out", required=True, help="deck profile to write (JSON)")
    p.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="auto",
                   help="index (default when installed): refit the index reader's rank and "
                        "suit layers on your cards; card: per-card thresholds of the "
                        "whole-card detector")
    p.add_argument("--model", help="card reader: ONNX weights (default: the shipped model)")
    p.add_argument("--remap", action="store_true",
                   help="card reader: also learn a confusion table (measured to cost precision)")
    p.set_defaults(func=run_teach_deck)


def run_teach_deck(args: argparse.Namespace) -> int:
    from vision.readers.index_reader import available

    index = args.reader == "index" or (args.reader == "auto" and available() and not args.model)
    try:
        if index:
            from vision.readers.teach_index import summary, teach

            deck = teach(args.source)
            Path(args.out).write_text(json.dumps(deck) + "\n")
            print(summary(deck))
            return 0
        from vision.readers.teach import teach_from_folder

        profile = teach_from_folder(args.source, model=args.model, remap=args.remap)
    except (FileNotFoundError, ValueError) as exc:
        print(f"companion teach-deck: {exc}", file=sys.stderr)
        return 2
    profile.save(args.out)
    print(profile.summary())
    return 0
