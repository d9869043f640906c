"""Readers of the demo table's own truth, for a demo and tests without weights: `TruthDetector`
reports the cards the renderer drew where their corner index shows, and `FallibleReader` is a
fallible stand-in for the card reader: the renderer's truth with the errors a real reader
makes, so the app's defences against them can be seen and measured.

- ``misread``: each visible card, in each frame independently, is read as a random other card;
- ``drop``: each visible card, in each frame independently, is not read at all;
- ``stuck``: this share of the cards is misread the same way (6/9, clubs/spades, J/Q/K...) for
  ``stuck_time`` seconds (drawn between its bounds), from a moment near when it first shows
  (sometimes from the very moment it lands): the errors of a real model, which repeat.

Readings keep the reader's usual confidence: nothing tells a misread from a right reading.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.cards import CARD_CODES
from vision.detections import Detections
from vision.lookalikes import RANK_LOOKALIKE, SUIT_LOOKALIKE
from vision.render.demo import RenderedSource


class TruthDetector:
    """A stand-in detector for the rendered table: reports the cards whose corner index is
    visible in the frame the source delivered last, optionally with box jitter, dropped
    cards and misreads. For tests of everything after the model, and a demo without weights.
    """

    def __init__(self, source: RenderedSource, *, jitter: float = 0.0, drop: float = 0.0,
                 misread: float = 0.0, confidence: float = 0.9, seed: int = 0) -> None:
        self.source = source
        self.jitter = jitter
        self.drop = drop
        self.misread = misread
        self.confidence = confidence
        self._rng = np.random.default_rng(seed)

    def detect(self, frame_bgr: np.ndarray) -> Any:
        ft = self.source.last
        if ft is None:
            return Detections.empty()
        boxes, confs, ids = [], [], []
        for code, box, visible in ft.cards:
            if not visible or self._rng.random() < self.drop:
                continue
            if self._rng.random() < self.misread:
                code = CARD_CODES[int(self._rng.integers(0, 52))]
            j = self._rng.normal(0, self.jitter, 4) if self.jitter else np.zeros(4)
            boxes.append(np.array(box) + j)
            confs.append(self.confidence)
            ids.append(CARD_CODES.index(code))
        if not boxes:
            return Detections.empty()
        return Detections(np.array(boxes), np.array(confs), np.array(ids))


def lookalike(code: str, rng: np.random.Generator) -> str:
    """A card a reader could mistake ``code`` for: the same rank in the other suit of its
    colour, or a rank that looks alike in the same suit."""
    rank, suit = code[0], code[1]
    if rng.random() < 0.5:
        return rank + SUIT_LOOKALIKE[suit]
    return RANK_LOOKALIKE[rank] + suit


class FallibleReader(TruthDetector):
    """`TruthDetector` with independent and repeated (stuck) misreads and dropped cards."""

    def __init__(self, source: RenderedSource, *, misread: float = 0.0, drop: float = 0.0,
                 stuck: float = 0.0, stuck_time: tuple[float, float] = (2.0, 5.0),
                 confidence: float = 0.9, seed: int = 0) -> None:
        super().__init__(source, confidence=confidence, seed=seed)
        self.p_misread = misread
        self.p_drop = drop
        self.stuck = stuck
        self.stuck_time = stuck_time
        #: code -> (read as, from, until) for the cards chosen to be misread for a while.
        self.plan: dict[str, tuple[str, float, float] | None] = {}
        #: Codes the camera never reads (a card laid and covered before any frame shows it).
        self.never: frozenset[str] = frozenset()

    def _stuck_as(self, code: str, t: float) -> str | None:
        if code not in self.plan:
            rng = self._rng
            if rng.random() < self.stuck:
                start = t + float(rng.uniform(-1.0, 2.0))  # before it shows: from the landing
                length = float(rng.uniform(*self.stuck_time))
                self.plan[code] = (lookalike(code, rng), start, start + length)
            else:
                self.plan[code] = None
        plan = self.plan[code]
        if plan is not None and plan[1] <= t <= plan[2]:
            return plan[0]
        return None

    def detect(self, frame_bgr: np.ndarray) -> Any:
        ft = self.source.last
        if ft is None:
            return Detections.empty()
        rng = self._rng
        boxes, confs, ids = [], [], []
        for code, box, visible in ft.cards:
            if not visible or code in self.never:
                continue
            stuck = self._stuck_as(code, ft.t) if self.stuck else None
            if rng.random() < self.p_drop:
                continue
            read = stuck or code
            if rng.random() < self.p_misread:
                others = [c for c in CARD_CODES if c != code]
                read = others[int(rng.integers(0, len(others)))]
            boxes.append(np.asarray(box, np.float64))
            confs.append(self.confidence)
            ids.append(CARD_CODES.index(read))
        if not boxes:
            return Detections.empty()
        return Detections(np.array(boxes), np.array(confs), np.array(ids))
