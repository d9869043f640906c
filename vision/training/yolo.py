"""Training recipe for the card detector: ultralytics YOLO from a model YAML, CPU, offline.

Builds the dataset (rendered scenes of the training deck designs + the real training photos
when present), trains from scratch (no downloaded weights, resumable from ``last.pt``) and
exports ONNX with the class names in its metadata and in a JSON beside it. The only module
that imports torch / ultralytics.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from companion.cards import CARD_CODES

REPO = Path(__file__).resolve().parents[2]
DATASET_ROOT = REPO / "datasets" / "cards"
RUNS = REPO / "runs" / "cards"
MODELS = REPO / "models"
REAL_TRAIN = Path("/work/shared/real-cards-train")


def offline_environment(threads: int = 2) -> None:
    """Keep ultralytics off the network and on ``threads`` CPU threads; fix torchvision's NMS.

    The installed torchvision is a CUDA build whose compiled ops do not load next to the CPU
    torch, and ultralytics' validator calls ``torchvision.ops.nms``: a pure-torch CPU kernel is
    registered for ``torchvision::nms`` before torchvision is imported.
    """
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    os.environ.setdefault("MKL_NUM_THREADS", str(threads))
    os.environ.setdefault("YOLO_VERBOSE", "True")
    import torch

    torch.set_num_threads(threads)
    _register_nms_fallback()
    from ultralytics.utils import SETTINGS

    off = {k: False for k in ("sync", "hub", "wandb", "mlflow", "comet", "clearml", "dvc",
                              "neptune", "tensorboard", "raytune") if k in SETTINGS}
    SETTINGS.update(off)


def _register_nms_fallback() -> None:
    import torch

    def nms_cpu(boxes: torch.Tensor, scores: torch.Tensor, iou: float) -> torch.Tensor:
        order = scores.argsort(descending=True)
        boxes = boxes[order]
        x1, y1, x2, y2 = boxes.unbind(1)
        area = (x2 - x1).clamp(min=0) * (y2 - y1).clamp(min=0)
        keep = []
        suppressed = torch.zeros(len(order), dtype=torch.bool)
        for i in range(len(order)):
            if suppressed[i]:
                continue
            keep.append(i)
            xx1 = torch.maximum(x1[i], x1[i + 1:])
            yy1 = torch.maximum(y1[i], y1[i + 1:])
            xx2 = torch.minimum(x2[i], x2[i + 1:])
            yy2 = torch.minimum(y2[i], y2[i + 1:])
            inter = (xx2 - xx1).clamp(min=0) * (yy2 - yy1).clamp(min=0)
            ov = inter / (area[i] + area[i + 1:] - inter + 1e-9)
            suppressed[i + 1:] |= ov > iou
        return order[torch.tensor(keep, dtype=torch.long)]

    try:
        torch.ops.torchvision.nms  # noqa: B018 - raises when the op is missing
        return
    except (AttributeError, RuntimeError):
        pass
    # torchvision's fake-kernel registrations name compiled ops that do not exist here.
    import sys
    import types

    sys.modules.setdefault("torchvision._meta_registrations",
                           types.ModuleType("torchvision._meta_registrations"))
    lib = torch.library.Library("torchvision", "DEF")
    lib.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    lib.impl("nms", nms_cpu, "CPU")
    globals()["_NMS_LIB"] = lib  # keep the registration alive
    import torchvision.extension

    torchvision.extension._has_ops = lambda: True  # the op above is all ultralytics needs


def dataset_yaml(root: Path = DATASET_ROOT, out: Path | None = None,
                 include_real: bool = True) -> Path:
    """Write the resolved dataset YAML (absolute ``path``) used by a training run."""
    template = (MODELS / "cards-dataset.yaml").read_text()
    train = ["synth-train"]
    if include_real and (root / "real-train" / "labels").is_dir():
        train.append("real-train")
    lines = [f"path: {root}", f"train: [{', '.join(train)}]", "val: synth-val",
             f"nc: {len(CARD_CODES)}", "names:"]
    lines += [f"  {i}: {c}" for i, c in enumerate(CARD_CODES)]
    out = out or (RUNS / "data.yaml")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("# generated from models/cards-dataset.yaml\n" + "\n".join(lines) + "\n")
    assert "names" in template
    return out


def build_dataset(train_count: int, val_count: int, heldout_count: int, empty_count: int,
                  seed: int = 1, workers: int = 2, root: Path = DATASET_ROOT) -> None:
    """Render the synthetic splits and link the real training photos (skips finished files)."""
    from vision.render import decks
    from vision.training import datagen

    have = set(decks.available_decks())
    train_decks = [d for d in decks.TRAIN_DECKS if d in have]
    held = [d for d in decks.HELDOUT_DECKS if d in have]
    t0 = time.time()
    datagen.generate(root / "synth-train", train_count, train_decks, seed=seed, workers=workers)
    datagen.generate(root / "synth-val", val_count, train_decks, seed=seed + 100, workers=workers)
    if held:
        datagen.generate(root / "heldout", heldout_count, held, seed=seed + 200, workers=workers,
                         empty_share=0.0)
        datagen.generate(root / "empty", empty_count, held + train_decks, seed=seed + 300,
                         workers=workers, empty_share=1.0)
    if REAL_TRAIN.is_dir():
        n = datagen.import_real_train(REAL_TRAIN, root / "real-train")
        print(f"linked {n} real training photos from {REAL_TRAIN}")
    print(f"dataset ready in {time.time() - t0:.0f} s under {root}")


def train(epochs: int = 30, imgsz: int = 320, batch: int = 16, hours: float | None = None,
          model_yaml: str = "yolo26n.yaml", name: str = "yolo26n", threads: int = 2,
          resume: bool = True, include_real: bool = True) -> Path:
    """Train (or resume) and return the path of the best weights."""
    offline_environment(threads)
    from ultralytics import YOLO

    run_dir = RUNS / name
    last = run_dir / "weights" / "last.pt"
    if resume and last.exists():
        model = YOLO(str(last))
        model.train(resume=True, workers=threads)
    else:
        data = dataset_yaml(include_real=include_real)
        model = YOLO(model_yaml)
        args: dict[str, Any] = dict(
            data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, device="cpu",
            workers=threads, project=str(RUNS), name=name, exist_ok=True,
            # From a model YAML: random weights. From our own .pt: start from its weights.
            pretrained=model_yaml.endswith(".pt"),
            amp=False, plots=False, cache="ram", fliplr=0.0, mosaic=0.5, close_mosaic=2,
            # ultralytics' "auto" picks AdamW at lr 0.00018 for 52 classes and few iterations:
            # far too slow from scratch on a CPU budget of ~15 epochs.
            optimizer="AdamW", lr0=0.002, lrf=0.05, warmup_epochs=1.0, cos_lr=True,
            degrees=0.0, scale=0.5, translate=0.1, hsv_h=0.02, hsv_s=0.6, hsv_v=0.5,
            patience=100, seed=0, deterministic=False, val=True, verbose=True)
        if hours:
            args["time"] = hours
        model.train(**args)
    best = run_dir / "weights" / "best.pt"
    return best if best.exists() else last


def tidy_metadata(onnx_path: Path) -> None:
    """Name the training files in an exported model's metadata relative to the repository:
    ultralytics writes the training machine's absolute paths there."""
    import onnx

    model = onnx.load(str(onnx_path))
    root = str(REPO) + "/"
    for prop in model.metadata_props:
        prop.value = prop.value.replace(root, "")
    onnx.save(model, str(onnx_path))


def export(weights: Path, imgsz: int, out: Path = MODELS / "cards.onnx",
           extra: dict[str, Any] | None = None) -> Path:
    """Export to ONNX (static input, opset 17, simplified) and write the names JSON beside it."""
    offline_environment()
    from ultralytics import YOLO

    model = YOLO(str(weights))
    names = [model.names[i] for i in range(len(model.names))]
    if tuple(names) != CARD_CODES:
        raise ValueError(f"trained names {names[:5]}... are not the card codes")
    path = Path(model.export(format="onnx", imgsz=imgsz, opset=17, simplify=True,
                             dynamic=False, device="cpu"))
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, out)
    tidy_metadata(out)
    info = {"names": names, "imgsz": imgsz, "source_weights": str(weights.relative_to(REPO))
            if weights.is_relative_to(REPO) else str(weights)}
    info.update(extra or {})
    out.with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n")
    return out
