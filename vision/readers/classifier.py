"""Card-identity classifier (second stage of detect-then-classify), ONNX runtime only.

Given a frame and axis-aligned boxes around cards (as a detector gives them), it crops each
box (plus a small margin), resizes it to the model's input and returns the card code of each
crop with its softmax score. The model (``models/card_classifier.onnx``) is a small CNN trained
from scratch by ``vision/training/train_classifier.py``; ``models/card_classifier.json`` holds
its class names (must equal ``CARD_CODES``), input size and normalisation.

No torch here: numpy, OpenCV and onnxruntime only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.readers.onnx import cpu_session

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"

#: Defaults used when a meta file leaves them out (the training script writes them all).
DEFAULT_SIZE = 96
DEFAULT_MARGIN = 0.06


class ClassifierNamesError(ValueError):
    """The classifier's class names are not the card codes in ``CARD_CODES`` order."""


def default_model_path() -> Path:
    return MODELS_DIR / "card_classifier.onnx"


def crop_patch(frame: np.ndarray, box: Sequence[float], size: int,
               margin: float = DEFAULT_MARGIN) -> np.ndarray:
    """The box region of ``frame`` (grown by ``margin`` of its size on every side) as a
    ``size`` x ``size`` BGR uint8 patch. Parts outside the frame are filled by edge replication.
    """
    fh, fw = frame.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box)
    bw, bh = max(x2 - x1, 1.0), max(y2 - y1, 1.0)
    x1, x2 = x1 - margin * bw, x2 + margin * bw
    y1, y2 = y1 - margin * bh, y2 + margin * bh
    ix1, iy1 = int(np.floor(x1)), int(np.floor(y1))
    ix2, iy2 = max(int(np.ceil(x2)), ix1 + 1), max(int(np.ceil(y2)), iy1 + 1)
    cx1, cy1, cx2, cy2 = max(ix1, 0), max(iy1, 0), min(ix2, fw), min(iy2, fh)
    if cx2 <= cx1 or cy2 <= cy1:
        return np.zeros((size, size, 3), np.uint8)
    region = frame[cy1:cy2, cx1:cx2]
    if region.ndim == 2:
        region = cv2.cvtColor(region, cv2.COLOR_GRAY2BGR)
    pad = (cy1 - iy1, iy2 - cy2, cx1 - ix1, ix2 - cx2)
    if any(pad):
        region = cv2.copyMakeBorder(region, *pad, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if region.shape[0] > size or region.shape[1] > size \
        else cv2.INTER_LINEAR
    return np.ascontiguousarray(cv2.resize(region[:, :, :3], (size, size), interpolation=interp))


def load_meta(model_path: Path) -> dict[str, Any]:
    meta_path = model_path.with_suffix(".json")
    meta: dict[str, Any] = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    return meta


def check_names(names: Sequence[str]) -> None:
    if tuple(names) != CARD_CODES:
        raise ClassifierNamesError(
            f"classifier class names differ from CARD_CODES: got {list(names)[:6]}... "
            f"({len(names)} names), expected {list(CARD_CODES[:6])}... ({len(CARD_CODES)})")


class CardClassifier:
    """Classify card crops: ``classify(frame_bgr, boxes_xyxy) -> (codes, scores)``."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 1,
                 tta: bool | None = None) -> None:
        self.model_path = Path(model_path) if model_path else default_model_path()
        meta = load_meta(self.model_path)
        names = meta.get("names")
        if names is None:
            raise ClassifierNamesError(f"{self.model_path.with_suffix('.json')} has no names")
        check_names(names)
        self.names: tuple[str, ...] = tuple(names)
        self.size = int(meta.get("input_size", DEFAULT_SIZE))
        self.margin = float(meta.get("margin", DEFAULT_MARGIN))
        self.mean = np.asarray(meta.get("mean", [0.5, 0.5, 0.5]), np.float32).reshape(1, 3, 1, 1)
        self.std = np.asarray(meta.get("std", [0.25, 0.25, 0.25]), np.float32).reshape(1, 3, 1, 1)
        self.channel_order = str(meta.get("channel_order", "BGR"))
        #: Test-time augmentation: average the probabilities of the four quarter turns.
        self.tta = bool(meta.get("tta", False)) if tta is None else tta
        self.session = cpu_session(self.model_path, threads)
        self.input_name = self.session.get_inputs()[0].name

    def preprocess(self, patches: np.ndarray) -> np.ndarray:
        """(N, S, S, 3) BGR uint8 patches -> (N, 3, S, S) float32 model input."""
        x = patches.astype(np.float32) / 255.0
        if self.channel_order == "RGB":
            x = x[..., ::-1]
        x = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
        return (x - self.mean) / self.std

    def crops(self, frame_bgr: np.ndarray, boxes_xyxy: np.ndarray | Sequence[Sequence[float]]
              ) -> np.ndarray:
        boxes = np.asarray(boxes_xyxy, np.float32).reshape(-1, 4)
        out = np.zeros((len(boxes), self.size, self.size, 3), np.uint8)
        for i, b in enumerate(boxes):
            out[i] = crop_patch(frame_bgr, b.tolist(), self.size, self.margin)
        return out

    def classify_patches(self, patches: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
        """Codes, top-1 scores and the full (N, 52) probabilities of ready-cut patches."""
        if len(patches) == 0:
            return [], np.zeros(0, np.float32), np.zeros((0, len(self.names)), np.float32)
        n = len(patches)
        if self.tta:
            patches = np.concatenate([np.rot90(patches, k, axes=(1, 2)) for k in range(4)])
        logits = self.session.run(None, {self.input_name: self.preprocess(patches)})[0]
        logits = logits - logits.max(axis=1, keepdims=True)
        prob = np.exp(logits)
        prob /= prob.sum(axis=1, keepdims=True)
        if self.tta:
            prob = prob.reshape(4, n, -1).mean(axis=0)
        idx = prob.argmax(axis=1)
        return ([self.names[i] for i in idx], prob[np.arange(len(idx)), idx].astype(np.float32),
                prob.astype(np.float32))

    def classify(self, frame_bgr: np.ndarray, boxes_xyxy: np.ndarray | Sequence[Sequence[float]]
                 ) -> tuple[list[str], np.ndarray]:
        """The card code and softmax score of each box (one batched model call)."""
        codes, scores, _ = self.classify_patches(self.crops(frame_bgr, boxes_xyxy))
        return codes, scores
