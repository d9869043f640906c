"""Training recipe for the index localiser: a one-class (``index``) YOLO from its model YAML.

    python -m vision.training.index_data --scenes-only    # the data (datasets/index/)
    python -m vision.training.train_index --hours 1.3     # train, resumable; export at the end
    python -m vision.training.train_index --export-only   # export the best weights again
    python -m vision.training.train_index --init models/checkpoints/index_localiser.pt --fresh \
        --name localiser3 --lr0 0.001 --warmup 0 --hours 2   # go on from the checkpoint
    ... --real-repeat 6                                      # real index photos weigh more
    ... --real-clutter               # and real table as negatives (index_data --clutter-images)
    ... --real-small                 # and real photos small and spoilt (index_data --real-small N)
    ... --real-mined                 # and whole-card photos' indices (index_data --mined-images N)
    ... --hard                       # and the images the localiser misses in (index_data --hard 3)

From scratch (no downloaded weights), on the CPU, resumable from ``last.pt``. Exports
``models/index_localiser.onnx`` and its JSON (class names, input size). Training only: the
app never imports this module.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

from vision.training.yolo import MODELS, REPO, offline_environment, tidy_metadata

DATA = REPO / "datasets" / "index"
RUNS = REPO / "runs" / "index"
NAMES = ["index"]
OUT = MODELS / "index_localiser.onnx"


def training_data(data: Path, repeat: int = 0, clutter: bool = False, small: bool = False,
                  mined: bool = False, hard: bool = False) -> Path:
    """``data`` (the dataset YAML `index_data` writes), or a copy beside it whose training
    list holds the real index photos ``repeat`` times (for ``repeat`` > 0, so they weigh that
    much more in each epoch against the rendered scenes); with ``clutter``, the stretches
    of real table `index_data --clutter-images` cut (``real-clutter``, negatives); with
    ``small``, the real photos made small and webcam-spoilt by `index_data --real-small`
    (``real-small-train``); with ``mined``, the whole-card photos whose indices
    `index_data --mined-images` labelled, as they are and made small (``real-mined``,
    ``real-mined-small``); with ``hard``, the training images whose indices the photo
    localiser missed, once more per miss (``hard``, `index_data --hard`):
    ``data-realN.yaml``, ``data-realN-clutter-small.yaml`` and so on."""
    from vision.training.index_data import train_list, write_train_list

    if repeat <= 0 and not clutter and not small and not mined and not hard:
        return data
    names = train_list(data)
    stem = "data"
    if repeat > 0:
        if "real-train" not in names:
            raise ValueError(f"{data}: no real-train in its training list")
        names = [n for n in names if n != "real-train"] + ["real-train"] * repeat
        stem += f"-real{repeat}"
    # Opt-in folders, each made by its own `index_data` command:
    # (wanted, folder, the copy's name gains, the command that makes it).
    for wanted, folder, suffix, command in (
            (clutter, "real-clutter", "-clutter", "--clutter-images"),
            (small, "real-small-train", "-small", "--real-small N"),
            (mined, "real-mined", "-mined", "--mined-images N"),
            (mined, "real-mined-small", "", "--mined-images N"),
            (hard, "hard", "-hard", "--hard MOST")):
        if not wanted:
            continue
        if not (data.parent / folder / "images").is_dir():
            raise FileNotFoundError(f"{data.parent / folder}: none made yet (python -m "
                                    f"vision.training.index_data {command})")
        names = [n for n in names if n != folder] + [folder]
        stem += suffix
    return write_train_list(data, names, data.with_name(f"{stem}.yaml"))


def train(hours: float, epochs: int, imgsz: int, name: str, threads: int = 2,
          fresh: bool = False, init: Path | None = None, lr0: float = 0.003,
          warmup: float = 0.5, real_repeat: int = 0, clutter: bool = False,
          small: bool = False, mined: bool = False, hard: bool = False) -> Path:
    offline_environment(threads)
    from ultralytics import YOLO

    last = RUNS / name / "weights" / "last.pt"
    if last.exists() and not fresh:
        model = YOLO(str(last))
        model.train(resume=True, workers=threads)
    else:
        # From the model YAML (random weights), or on from a committed checkpoint of ours.
        model = YOLO(str(init) if init else "yolo26n.yaml")
        args: dict[str, Any] = dict(
            data=str(training_data(DATA / "data.yaml", real_repeat, clutter, small, mined,
                                   hard)),
            epochs=epochs,
            time=hours, imgsz=imgsz, batch=16,
            device="cpu", workers=threads, project=str(RUNS), name=name, exist_ok=True,
            pretrained=init is not None, amp=False, plots=False, cache="ram",
            # One class learns fast: a higher rate than the 52-class run, short warm-up.
            # Going on from a checkpoint: a lower rate and no warm-up (the warm-up's bias rate
            # of 0.1 undid a trained model: see models/INDEX.md).
            optimizer="AdamW", lr0=lr0, lrf=0.05, warmup_epochs=warmup, cos_lr=True,
            # A mirrored index never occurs; indices point every way, so quarter turns come
            # from the scenes themselves. Mosaic packs four scenes' small indices per image.
            fliplr=0.0, mosaic=0.7, close_mosaic=1, degrees=0.0, scale=0.5, translate=0.1,
            hsv_h=0.03, hsv_s=0.7, hsv_v=0.5, patience=100, seed=0, deterministic=False,
            val=True, verbose=True)
        model.train(**args)
    best = RUNS / name / "weights" / "best.pt"
    return best if best.exists() else last


def export(weights: Path, imgsz: int, out: Path = OUT) -> Path:
    """ONNX (a free input shape, opset 17, simplified) + a JSON with names and the input size
    it reads at by default (`IndexReader`'s ``imgsz``)."""
    offline_environment()
    from ultralytics import YOLO

    model = YOLO(str(weights))
    names = [model.names[i] for i in range(len(model.names))]
    if names != NAMES:
        raise ValueError(f"trained names {names} are not {NAMES}")
    path = Path(model.export(format="onnx", imgsz=imgsz, opset=17, simplify=True,
                             dynamic=True, device="cpu"))
    out.parent.mkdir(parents=True, exist_ok=True)
    if path.resolve() != out.resolve():
        # Moved, not copied: ultralytics writes beside the weights, which may be a committed
        # checkpoint's folder (models/checkpoints/), where a stray ONNX file would ship.
        shutil.move(path, out)
    tidy_metadata(out)
    src = str(weights.relative_to(REPO)) if weights.is_relative_to(REPO) else str(weights)
    out.with_suffix(".json").write_text(json.dumps(
        {"names": names, "imgsz": imgsz, "source_weights": src}, indent=1) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hours", type=float, default=1.3)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--imgsz", type=int, default=384)
    ap.add_argument("--name", default="localiser")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--fresh", action="store_true", help="start over instead of resuming")
    ap.add_argument("--export-only", action="store_true")
    ap.add_argument("--init", type=Path, default=None,
                    help="start from these weights (e.g. models/checkpoints/index_localiser.pt, "
                         "the last session's) instead of the model YAML")
    ap.add_argument("--lr0", type=float, default=0.003, help="AdamW rate (0.001 going on)")
    ap.add_argument("--warmup", type=float, default=0.5, help="warm-up epochs (0 going on)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--real-repeat", type=int, default=0,
                    help="the real index photos this many times an epoch (0: as data.yaml)")
    ap.add_argument("--real-small", action="store_true",
                    help="also the real index photos made small and webcam-spoilt "
                         "(`index_data --real-small N`, real-small-train)")
    ap.add_argument("--real-clutter", action="store_true",
                    help="also the stretches of real table `index_data --clutter-images` cut, "
                         "as negatives")
    ap.add_argument("--real-mined", action="store_true",
                    help="also the whole-card photos whose every index the photo models found "
                         "(`index_data --mined-images N`, real-mined and real-mined-small)")
    ap.add_argument("--hard", action="store_true",
                    help="also the training images whose indices the photo localiser misses, "
                         "once more per miss (`index_data --hard MOST`, hard)")
    args = ap.parse_args(argv)
    weights = RUNS / args.name / "weights" / "best.pt"
    if not args.export_only:
        weights = train(args.hours, args.epochs, args.imgsz, args.name, args.threads, args.fresh,
                        args.init, args.lr0, args.warmup, args.real_repeat, args.real_clutter,
                        args.real_small, args.real_mined, args.hard)
    print(f"exported {export(weights, args.imgsz, args.out)} from {weights}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
