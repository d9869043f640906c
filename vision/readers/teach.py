"""Teach the detector one deck: a per-deck profile learnt from photos of its cards.

The user shows each card of their deck to the camera once. The detector reads those photos
with a low threshold; the profile keeps (1) a per-card score threshold, lowered for cards the
model reads correctly but with little confidence, and optionally (2) a confusion table: a card
this deck's design is read as another code is mapped back (e.g. this deck's QH read as QD).
No weights change: it is a calibration, cheap and reversible. Measured on the two held-out
designs with the v1 weights, neither part gains (models/README.md), and the confusion table
(one photo per card is one noisy vote) costs precision, so it is off by default.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.cards import CARD_CODES, Card
from vision.detections import Detections
from vision.readers.detector import CardDetector

#: Threshold used for cards the profile has no evidence about.
DEFAULT_CONF = 0.5
#: Lowest per-card threshold the profile may set (lower lets phantom cards through).
MIN_CONF = 0.15


@dataclass
class DeckProfile:
    """What was learnt about one deck: code remapping and per-code score thresholds."""

    remap: dict[str, str] = field(default_factory=dict)
    thresholds: dict[str, float] = field(default_factory=dict)
    shown: int = 0
    read_right_before: int = 0

    def threshold(self, code: str) -> float:
        return self.thresholds.get(code, DEFAULT_CONF)

    def apply(self, dets: Detections) -> Detections:
        """Remap the deck's known confusions and apply per-card thresholds.

        Run the detector with a low ``conf`` (e.g. ``MIN_CONF``) so the lowered thresholds can act.
        """
        if not len(dets):
            return dets
        labels = [self.remap.get(c, c) for c in dets.labels]
        cls = np.array([CARD_CODES.index(c) for c in labels], np.int64)
        keep = np.array([s >= self.threshold(c) for c, s in zip(labels, dets.confidence,
                                                                 strict=True)], bool)
        out = Detections(dets.xyxy, dets.confidence, cls, dets.names)
        return out[keep]

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps({"remap": self.remap, "thresholds": self.thresholds,
                                          "shown": self.shown,
                                          "read_right_before": self.read_right_before},
                                         indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        d = json.loads(Path(path).read_text())
        return cls(dict(d.get("remap", {})), {k: float(v) for k, v in d.get("thresholds",
                                                                         {}).items()},
                   int(d.get("shown", 0)), int(d.get("read_right_before", 0)))

    def summary(self) -> str:
        lines = [f"deck profile: {self.shown} cards shown, {self.read_right_before} read right "
                 f"without it"]
        for a, b in sorted(self.remap.items()):
            lines.append(f"  read {Card.parse(a).pretty()} as {Card.parse(b).pretty()}")
        low = {k: v for k, v in self.thresholds.items() if v < DEFAULT_CONF}
        if low:
            lines.append("  lower thresholds: " + ", ".join(f"{k} {v:.2f}"
                                                             for k, v in sorted(low.items())))
        return "\n".join(lines)


def learn(readings: list[tuple[str, list[tuple[str, float]]]], remap: bool = True
          ) -> DeckProfile:
    """A profile from ``(true code, [(read code, score), ...])`` for each shown card.

    ``remap=False`` learns the per-card thresholds only (no confusion table).
    """
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    right_scores: dict[str, list[float]] = defaultdict(list)
    right = 0
    for truth, reads in readings:
        if not reads:
            continue
        code, score = max(reads, key=lambda r: r[1])
        if code == truth:
            right += score >= DEFAULT_CONF
            right_scores[truth].append(score)
        else:
            votes[code][truth] += 1
    profile = DeckProfile(shown=len(readings), read_right_before=right)
    shown_codes = {t for t, _ in readings}
    for read, counter in votes.items():
        truth, n = counter.most_common(1)[0]
        # Only remap a code that this deck never produced correctly while shown.
        if remap and (read not in right_scores or read not in shown_codes):
            profile.remap[read] = truth
            right_scores[truth].extend(s for t, rs in readings if t == truth
                                       for c, s in rs if c == read)
    for code, scores in right_scores.items():
        profile.thresholds[code] = float(max(MIN_CONF, min(DEFAULT_CONF, 0.7 * min(scores))))
    return profile


def teach_from_folder(source: str | Path, model: str | None = None, remap: bool = False
                      ) -> DeckProfile:
    """Learn a profile from a folder of photos named by card code (``QH.jpg``) or labelled."""
    root = Path(source)
    det = CardDetector(model, conf=0.05)
    readings: list[tuple[str, list[tuple[str, float]]]] = []
    if (root / "labels.jsonl").exists():
        for line in (root / "labels.jsonl").read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            img = cv2.imread(str(root / rec["image"]))
            if img is None:
                continue
            d = det.detect(img)
            for c in rec["cards"]:
                box = np.array(c["box"], np.float32)
                reads = [(n, s) for n, b, s in d if _iou(np.array(b), box) > 0.5]
                readings.append((c["card"], reads))
    else:
        for path in sorted(root.iterdir()):
            try:
                truth = Card.parse(path.stem.split("_")[0]).code
            except ValueError:
                continue
            img = cv2.imread(str(path))
            if img is None:
                continue
            readings.append((truth, [(n, s) for n, _, s in det.detect(img)]))
    if not readings:
        raise ValueError(f"no card photos found in {root} (name them like QH.jpg)")
    return learn(readings, remap=remap)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(0.0, float(iw)) * max(0.0, float(ih))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / max(float(union), 1e-9)
