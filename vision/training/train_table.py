"""Fine-tune the card detector on whole-table scenes (vision/training/table_dataset.py) next to the
rendered card scenes and the real photos, starting from the main run's weights.

    python -m vision.training.train_table --weights runs/cards/yolo26n/weights/best.pt --hours 0.35

Training only (imports ultralytics); the result is exported with `vision.training.yolo.export`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cards import CARD_CODES
from vision.training.yolo import DATASET_ROOT, RUNS, export, offline_environment

REAL_TRAIN = DATASET_ROOT / "real-train"


def data_yaml(out: Path, scenes: str = "table") -> Path:
    """Train on table scenes (``table``: whole frames; ``views``: zone views) + rendered card
    scenes + real photos; validate on table scenes of the same kind."""
    train = [f"{scenes}-train", "synth-train"]
    if (REAL_TRAIN / "images").exists():
        train.append("real-train")
    names = ", ".join(CARD_CODES)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(f"path: {DATASET_ROOT.resolve()}\ntrain: [{', '.join(train)}]\n"
                   f"val: {scenes}-val\nnc: {len(CARD_CODES)}\nnames: [{names}]\n")
    return out


def finetune(weights: Path, hours: float, epochs: int, imgsz: int, name: str,
             scenes: str = "table") -> Path:
    offline_environment(2)
    from ultralytics import YOLO

    data = data_yaml(RUNS / name / "data.yaml", scenes)
    model = YOLO(str(weights))
    model.train(data=str(data), epochs=epochs, time=hours, imgsz=imgsz, batch=16, device="cpu",
                workers=2, project=str(RUNS), name=name, exist_ok=True, amp=False, plots=False,
                cache="ram", fliplr=0.0, mosaic=0.5, close_mosaic=1, optimizer="AdamW",
                lr0=0.0008, lrf=0.1, warmup_epochs=0.3, cos_lr=True, degrees=0.0, scale=0.4,
                translate=0.1, hsv_h=0.02, hsv_s=0.5, hsv_v=0.4, patience=100, seed=1,
                val=True, verbose=True)
    best = RUNS / name / "weights" / "best.pt"
    return best if best.exists() else RUNS / name / "weights" / "last.pt"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", type=Path, default=RUNS / "yolo26n" / "weights" / "best.pt")
    ap.add_argument("--hours", type=float, default=0.35)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--imgsz", type=int, default=320)
    ap.add_argument("--name", default="yolo26n-table")
    ap.add_argument("--export", type=Path, default=None, help="write the ONNX here too")
    ap.add_argument("--scenes", choices=["table", "views"], default="table",
                    help="whole table frames or zone views (vision.training.table_dataset --views)")
    args = ap.parse_args(argv)
    best = finetune(args.weights, args.hours, args.epochs, args.imgsz, args.name, args.scenes)
    print(f"best weights: {best}")
    if args.export:
        print(f"exported: {export(best, args.imgsz, args.export)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
