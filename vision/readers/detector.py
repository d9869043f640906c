"""The card detector at run time: our YOLO model in ONNX, run with onnxruntime on the CPU.

`CardDetector.detect(frame)` returns `Detections` with one row per physical card (boxes in
frame pixels). No torch or ultralytics here: only numpy, OpenCV and onnxruntime. On loading,
the model's class names (ONNX metadata and the JSON beside it) must equal the card codes.
"""

from __future__ import annotations

import ast
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.detections import Detections
from vision.readers.onnx import cpu_session

#: File name of the shipped model under ``models/``.
MODEL_NAME = "cards.onnx"


class ModelNamesError(ValueError):
    """The model's class names are not the card codes (wrong or stale weights)."""


def default_model_path() -> Path:
    """The shipped weights: ``models/cards.onnx`` (or ``$MICHIGAN_CARD_MODEL``)."""
    env = os.environ.get("MICHIGAN_CARD_MODEL")
    if env:
        return Path(env)
    try:
        import models

        return Path(models.__file__).resolve().parent / MODEL_NAME
    except ImportError:  # pragma: no cover - running from a source tree without the package
        return Path(__file__).resolve().parents[2] / "models" / MODEL_NAME


def sidecar_path(model_path: str | Path) -> Path:
    """The JSON beside a model (``cards.onnx`` -> ``cards.json``): names, image size, recipe."""
    return Path(model_path).with_suffix(".json")


def read_model_names(model_path: str | Path, session: Any = None) -> tuple[str, ...]:
    """Class names stored with the model: ONNX metadata ``names`` or the sidecar JSON."""
    names: tuple[str, ...] | None = None
    if session is not None:
        meta = session.get_modelmeta().custom_metadata_map
        raw = meta.get("names")
        if raw:
            parsed = ast.literal_eval(raw)
            if isinstance(parsed, dict):
                names = tuple(str(parsed[k]) for k in sorted(parsed))
            else:
                names = tuple(str(v) for v in parsed)
    side = sidecar_path(model_path)
    if side.exists():
        side_names = tuple(json.loads(side.read_text())["names"])
        if names is not None and side_names != names:
            raise ModelNamesError(f"{side} names differ from the ONNX metadata of {model_path}")
        names = side_names
    if names is None:
        raise ModelNamesError(f"{model_path}: no class names in its metadata and no {side.name}")
    return names


def letterbox(frame: np.ndarray, size: int, stride: int | None = None
              ) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio so the longer side is ``size``, and pad (grey 114) to
    ``size`` x ``size``, or with ``stride`` (a model that takes any input shape) only up to the
    next multiple of ``stride`` on each side."""
    h, w = frame.shape[:2]
    r = min(size / h, size / w)
    nw, nh = round(w * r), round(h * r)
    img = cv2.resize(frame, (nw, nh), interpolation=cv2.INTER_AREA if r < 1 else cv2.INTER_LINEAR)
    ow, oh = (size, size) if stride is None else (-(-nw // stride) * stride,
                                                  -(-nh // stride) * stride)
    px, py = (ow - nw) / 2, (oh - nh) / 2
    top, left = round(py - 0.1), round(px - 0.1)
    out = cv2.copyMakeBorder(img, top, oh - nh - top, left, ow - nw - left,
                             cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return out, r, (left, top)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression (highest score first)."""
    order = np.argsort(-scores)
    keep: list[int] = []
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    while len(order):
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        xx1 = np.maximum(boxes[i, 0], boxes[rest, 0])
        yy1 = np.maximum(boxes[i, 1], boxes[rest, 1])
        xx2 = np.minimum(boxes[i, 2], boxes[rest, 2])
        yy2 = np.minimum(boxes[i, 3], boxes[rest, 3])
        inter = np.clip(xx2 - xx1, 0, None) * np.clip(yy2 - yy1, 0, None)
        ov = inter / (area[i] + area[rest] - inter + 1e-9)
        order = rest[ov <= iou]
    return np.asarray(keep, np.int64)


def pair_areas(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairwise intersection areas (len(a), len(b)) of boxes ``a`` and ``b`` (x1 y1 x2 y2),
    and each box's own area."""
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    return (inter, (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]),
            (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]))


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M) intersection over union of boxes ``a`` (N, 4) with boxes ``b`` (M, 4)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    inter, aa, ab = pair_areas(np.asarray(a, np.float64), np.asarray(b, np.float64))
    return np.asarray(inter / (aa[:, None] + ab[None, :] - inter + 1e-9))


def merge_physical_cards(dets: Detections, same_card_iou: float = 0.85) -> Detections:
    return merge_physical_cards_kept(dets, same_card_iou)[0]


def merge_physical_cards_kept(dets: Detections, same_card_iou: float = 0.85
                              ) -> tuple[Detections, np.ndarray]:
    """One row per physical card.

    Detections of the same card code that overlap (one box mostly inside the other, e.g. a
    corner detection inside a whole-card box) are merged into their union with the best score;
    boxes of different codes covering nearly the same area (IoU above ``same_card_iou``) are one
    card read two ways, and only the more confident reading is kept. Raising ``same_card_iou``
    keeps more of the cards in a tight pile, but lets more double readings through. Also
    returns which rows of ``dets`` the kept rows come from.
    """
    if len(dets) <= 1:
        return dets, np.arange(len(dets))
    order = np.argsort(-dets.confidence)
    boxes = dets.xyxy[order].copy()
    scores, cls = dets.confidence[order], dets.class_id[order]
    alive = np.ones(len(order), bool)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    for i in range(len(order)):
        if not alive[i]:
            continue
        for j in range(i + 1, len(order)):
            if not alive[j]:
                continue
            iw = min(boxes[i, 2], boxes[j, 2]) - max(boxes[i, 0], boxes[j, 0])
            ih = min(boxes[i, 3], boxes[j, 3]) - max(boxes[i, 1], boxes[j, 1])
            inter = max(0.0, float(iw)) * max(0.0, float(ih))
            if inter <= 0:
                continue
            iou = inter / (area[i] + area[j] - inter)
            if cls[i] == cls[j] and inter / min(area[i], area[j]) > 0.6:
                boxes[i, :2] = np.minimum(boxes[i, :2], boxes[j, :2])
                boxes[i, 2:] = np.maximum(boxes[i, 2:], boxes[j, 2:])
                area[i] = (boxes[i, 2] - boxes[i, 0]) * (boxes[i, 3] - boxes[i, 1])
                alive[j] = False
            elif iou > same_card_iou:
                alive[j] = False
    return Detections(boxes[alive], scores[alive], cls[alive], dets.names), order[alive]


class CardDetector:
    """Reads playing cards in a BGR frame with the ONNX model.

    ``imgsz`` is the square network input (the model was trained at ``models/cards.json``'s
    ``imgsz``; a larger size finds smaller cards but costs time roughly with its square).
    ``conf`` is the minimum score kept: raising it removes phantom cards but misses covered or
    blurred ones. ``threads`` caps onnxruntime's CPU threads.

    ``classifier``: detect-then-classify. The detector proposes card boxes and the crop
    classifier ``models/card_classifier.onnx`` (fused with the detector's own class scores)
    names each card; ``"auto"`` (default) uses it when it is installed and no other detector
    model is given, ``False`` reads the detector's classes alone, a path picks a classifier.
    ``card_conf`` is then the minimum "is a card" score of a box (the detector's class scores
    summed): raising it removes phantom cards on an empty table, at the cost of covered ones.
    """

    def __init__(self, model_path: str | Path | None = None, imgsz: int | None = None,
                 conf: float = 0.5, iou: float = 0.6, threads: int = 2,
                 classifier: str | Path | bool | None = "auto", card_conf: float = 0.35) -> None:
        self.model_path = Path(model_path) if model_path is not None else default_model_path()
        if not self.model_path.exists():
            raise FileNotFoundError(f"card model not found: {self.model_path}")
        self.session = cpu_session(self.model_path, threads)
        names = read_model_names(self.model_path, self.session)
        if names != CARD_CODES:
            raise ModelNamesError(
                f"{self.model_path}: class names {list(names)[:6]}... are not the card codes "
                f"{list(CARD_CODES)[:6]}... (in companion.cards order)")
        self.names = names
        side = sidecar_path(self.model_path)
        info = json.loads(side.read_text()) if side.exists() else {}
        self.info: dict[str, Any] = info
        inp = self.session.get_inputs()[0]
        fixed = inp.shape[2] if isinstance(inp.shape[2], int) else None
        self.imgsz = int(imgsz or fixed or info.get("imgsz", 640))
        if fixed and self.imgsz != fixed:
            raise ValueError(f"{self.model_path} has a fixed input of {fixed} px, not {self.imgsz}")
        self.input_name = inp.name
        self.conf = float(conf)
        self.iou = float(iou)
        self.card_conf = float(card_conf)
        #: Boxes of different codes overlapping more than this are one card (two-stage mode).
        #: Raising it keeps the lower cards of a tight pile, but lets double readings through.
        self.agnostic_iou = 0.7
        #: Added to the detector's normalised class scores before they multiply the
        #: classifier's probabilities: small lets the detector's opinion veto the
        #: classifier's; large leaves the naming to the classifier.
        self.class_smoothing = 0.3
        self.classifier: Any = None
        if classifier == "auto":
            from vision.readers.classifier import default_model_path as classifier_path

            classifier = classifier_path().exists() and model_path is None
        if classifier:
            from vision.readers.classifier import CardClassifier

            self.classifier = CardClassifier(None if classifier is True else classifier,
                                             threads=threads)

    def _raw(self, frame_bgr: np.ndarray) -> tuple[np.ndarray, float, tuple[float, float]]:
        img, r, pad = letterbox(frame_bgr, self.imgsz)
        blob = np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1)[None], np.float32) / 255
        out = self.session.run(None, {self.input_name: blob})[0]
        return np.asarray(out)[0], r, pad

    def _candidates(self, frame_bgr: np.ndarray, thr: float
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes (frame pixels), their class-score rows (N, 52) and their class ids."""
        out, r, (px, py) = self._raw(frame_bgr)
        n = len(self.names)
        if out.ndim == 2 and out.shape[1] == 6:  # end-to-end head: x1 y1 x2 y2 score class
            keep = out[:, 4] >= thr
            boxes, cls = out[keep, :4].copy(), out[keep, 5].astype(np.int64)
            rows = np.zeros((len(cls), n), np.float32)
            rows[np.arange(len(cls)), cls] = out[keep, 4]
        else:  # raw head: (4 + classes, anchors), centre-size boxes
            pred = out.T if out.shape[0] == 4 + n else out
            cls_scores = pred[:, 4:]
            cls = cls_scores.argmax(1)
            scores = cls_scores[np.arange(len(cls)), cls]
            keep = scores >= thr
            pred, cls, scores = pred[keep], cls[keep], scores[keep]
            rows = cls_scores[keep]
            cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
            boxes = np.column_stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
            # Class-aware NMS by offsetting each class far apart.
            k = nms(boxes + cls[:, None] * 4096.0, scores, self.iou)
            boxes, cls, rows = boxes[k], cls[k], rows[k]
        h, w = frame_bgr.shape[:2]
        boxes = (boxes - np.array([px, py, px, py], np.float32)) / r
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, w)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, h)
        return boxes.astype(np.float32), rows.astype(np.float32), cls

    def card_boxes(self, frame_bgr: np.ndarray, card_conf: float | None = None) -> np.ndarray:
        """Where cards lie, whatever they are: (N, 4) boxes whose summed class scores reach
        ``card_conf`` (default: the detector's), after class-agnostic NMS."""
        boxes, rows, _ = self._candidates(_bgr(frame_bgr), 0.02)
        if not len(boxes):
            return boxes
        cardness = rows.sum(1)
        keep = cardness >= (self.card_conf if card_conf is None else float(card_conf))
        boxes, cardness = boxes[keep], cardness[keep]
        return boxes[nms(boxes, cardness, self.agnostic_iou)] if len(boxes) else boxes

    def detect(self, frame_bgr: np.ndarray, conf: float | None = None) -> Detections:
        """The cards in ``frame_bgr`` (H x W x 3 uint8 BGR): one row per physical card."""
        return self.detect_many([frame_bgr], conf)[0]

    def detect_many(self, frames_bgr: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]:
        """`detect` for several images (zone views of one frame): the crop classifier runs
        once over the candidate boxes of all of them. ``conf`` / ``card_conf`` override the
        detector's own thresholds for this call."""
        frames = [despeckled(_bgr(f)) for f in frames_bgr]
        thr = self.conf if conf is None else float(conf)
        min_card = self.card_conf if card_conf is None else float(card_conf)
        if self.classifier is None:
            out = []
            for frame in frames:
                boxes, rows, cls = self._candidates(frame, thr)
                scores = rows[np.arange(len(cls)), cls] if len(cls) else np.zeros(0, np.float32)
                out.append(merge_physical_cards(Detections(boxes, scores, cls, self.names)))
            return out
        # Detect-then-classify: the detector proposes card boxes, the crop classifier (fused
        # with the detector's own class scores) says which card each one is.
        proposals = []
        for frame in frames:
            boxes, rows, cls = self._candidates(frame, min(thr, 0.05))
            if len(boxes):
                k = nms(boxes, rows.max(1), self.agnostic_iou)
                boxes, rows = boxes[k], rows[k]
            proposals.append((boxes, rows))
        patches = [self.classifier.crops(frame, boxes)
                   for frame, (boxes, _) in zip(frames, proposals, strict=True) if len(boxes)]
        prob_all = (self.classifier.classify_patches(np.concatenate(patches))[2] if patches
                    else np.zeros((0, len(self.names)), np.float32))
        out, at = [], 0
        for boxes, rows in proposals:
            if not len(boxes):
                out.append(Detections.empty(self.names))
                continue
            prob = prob_all[at:at + len(boxes)]
            at += len(boxes)
            det_p = rows / np.maximum(rows.sum(1, keepdims=True), 1e-6)
            fused = prob * (det_p + self.class_smoothing)
            fused /= fused.sum(1, keepdims=True)
            cls = fused.argmax(1)
            p = fused[np.arange(len(cls)), cls]
            cardness = np.clip(rows.sum(1), 0, 1)
            scores = np.sqrt(cardness * p).astype(np.float32)
            keep = (scores >= thr) & (cardness >= min_card)
            out.append(merge_physical_cards(
                Detections(boxes[keep], scores[keep], cls[keep], self.names)))
        return out


#: Salt-and-pepper noise (a cheap webcam's): a pixel brighter than all eight of its neighbours,
#: or darker than all of them, by more than ``IMPULSE_DIFF`` grey levels is an impulse; a frame
#: with more than ``IMPULSE_SHARE`` of its pixels impulses is median-filtered (3 x 3) before it
#: is read. Measured (models/INDEX.md, "Eighth session"): clean real photos hold at most
#: 0.0055 (carpet and fabric), real photos with 2% salt-and-pepper added 0.011-0.013, the
#: rendered webcam frames with it up to 0.025. Below the share nothing changes: a median
#: filter on a clean frame would thin a small index's strokes.
IMPULSE_DIFF, IMPULSE_SHARE = 40, 0.005


def impulses(frame: np.ndarray) -> np.ndarray:
    """Where the frame's salt-and-pepper impulses are (`IMPULSE_DIFF`): a boolean mask of
    its pixels."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    ring = np.ones((3, 3), np.uint8)
    ring[1, 1] = 0
    salt = cv2.subtract(grey, cv2.dilate(grey, ring))
    pepper = cv2.subtract(cv2.erode(grey, ring), grey)
    return np.asarray(cv2.max(salt, pepper) > IMPULSE_DIFF)


def impulse_share(frame: np.ndarray) -> float:
    """The share of the frame's pixels that are salt-and-pepper impulses (`impulses`)."""
    return np.count_nonzero(impulses(frame)) / max(frame.shape[0] * frame.shape[1], 1)


def despeckled(frame: np.ndarray) -> np.ndarray:
    """The frame median-filtered when salt-and-pepper noise speckles it (`impulse_share`
    over `IMPULSE_SHARE`), else the frame itself."""
    if impulse_share(frame) <= IMPULSE_SHARE:
        return frame
    return np.asarray(cv2.medianBlur(frame, 3))


def _bgr(frame: np.ndarray) -> np.ndarray:
    if frame.ndim == 2:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
    if frame.shape[2] == 4:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR))
    return frame
