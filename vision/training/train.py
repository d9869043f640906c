"""`companion train` (also ``python -m vision.training.train``): render the training data, train
the card detector with the YOLO recipe (`vision.training.yolo`), export ONNX.

Registered through the ``companion.commands`` entry point. This module imports only the
standard library: the recipe, torch and ultralytics are imported when the command runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def register_train(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "train", help="render training data, train the card detector, export ONNX",
        description="Render scenes from the deck designs, train YOLO from a model YAML on the "
                    "CPU (resumes from runs/cards/NAME/weights/last.pt), export models/cards.onnx."
                    " Needs the train extra (ultralytics with torch==2.13.0, cairosvg).")
    p.add_argument("--scenes", type=int, default=2200, help="rendered training scenes")
    p.add_argument("--val-scenes", type=int, default=120)
    p.add_argument("--heldout-scenes", type=int, default=300,
                   help="scenes of the held-out deck designs (measuring only)")
    p.add_argument("--empty-scenes", type=int, default=150, help="scenes without card faces")
    p.add_argument("--no-real", action="store_true", help="leave out the real training photos")
    p.add_argument("--data-only", action="store_true", help="only build the dataset")
    p.add_argument("--export-only", metavar="WEIGHTS", help="only export these weights to ONNX")
    p.add_argument("--model", default="yolo26n.yaml", help="ultralytics model YAML")
    p.add_argument("--name", default="yolo26n", help="run name under runs/cards/")
    p.add_argument("--imgsz", type=int, default=320)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--hours", type=float, default=None, help="stop after this many hours")
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--workers", type=int, default=2, help="processes rendering scenes")
    p.add_argument("--fresh", action="store_true", help="do not resume from last.pt")
    p.set_defaults(func=run_train)


def run_train(args: argparse.Namespace) -> int:
    from vision.training import yolo

    if args.export_only:
        out = yolo.export(Path(args.export_only), args.imgsz)
        print(f"exported {out}")
        return 0
    yolo.build_dataset(args.scenes, args.val_scenes, args.heldout_scenes, args.empty_scenes,
                       workers=args.workers)
    if args.data_only:
        return 0
    t0 = time.time()
    best = yolo.train(epochs=args.epochs, imgsz=args.imgsz, batch=args.batch, hours=args.hours,
                      model_yaml=args.model, name=args.name, threads=args.threads,
                      resume=not args.fresh, include_real=not args.no_real)
    print(f"trained in {(time.time() - t0) / 60:.1f} min: {best}")
    out = yolo.export(best, args.imgsz)
    print(f"exported {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.training.train ...``: the same as ``companion train ...``."""
    parser = argparse.ArgumentParser(prog="python -m vision.training.train")
    sub = parser.add_subparsers(dest="command")
    register_train(sub)
    args = parser.parse_args(["train", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
