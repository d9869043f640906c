"""Index-first card reading: find each corner index, name its rank and suit, fuse per card.

The way people read cards: not the whole face, the corner index (rank over suit). Three
models, all run with onnxruntime on the CPU:

1. the **localiser** (`models/index_localiser.onnx`, a one-class YOLO we train) boxes every
   readable corner index in the frame, overlapped cards of a spread or a pile included;
2. the **index heads** (`models/index_heads.onnx`, a small CNN we train) read a grey
   ``PATCH`` x ``PATCH`` cut of each box: rank (13), suit (4, by shape: some decks print every
   suit in one colour), which way the index's top points (4 quarter turns), and whether it is
   an index at all;
3. optionally the **rank OCR** (`vision.readers.rank_ocr`, PP-OCRv4's recogniser from the
   ``rapidocr-onnxruntime`` wheel) reads the rank of the index turned upright; its
   likelihoods are fused with the rank head's.

Indices are then grouped into physical cards (`fuse_cards`): the two corners of one card vote,
and a code is read once per deck.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.detections import Detections
from vision.readers.index_heads import (
    MODELS,
    RANKS,
    SUITS,
    IndexHeads,
    IndexReading,
    corner_vote,
    heads_path,
    softmax,
)
from vision.readers.onnx import cpu_session


def fuse_cards(readings: Sequence[IndexReading], card_boxes: np.ndarray | None = None,
               decks: int = 1, min_conf: float = 0.5) -> Detections:
    """One detection per physical card from its index readings.

    Readings are grouped by the card box that holds them (the smallest containing the index
    centre) when card boxes are given; indices outside every card box, or with none given,
    group by code. Within a group the readings' joint rank and suit probabilities vote, each
    weighted by how sure it is that it saw an index. A code seen in several groups keeps the
    ``decks`` most confident (a deck holds each card once). Groups below ``min_conf`` are
    dropped. The box is the card box, or the card its indices imply (`implied_card_box`).
    """
    groups: dict[object, list[IndexReading]] = {}
    for r in readings:
        key: object = None
        if card_boxes is not None and len(card_boxes):
            cx, cy = (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2
            inside = ((card_boxes[:, 0] <= cx) & (cx <= card_boxes[:, 2])
                      & (card_boxes[:, 1] <= cy) & (cy <= card_boxes[:, 3]))
            if inside.any():
                areas = ((card_boxes[:, 2] - card_boxes[:, 0])
                         * (card_boxes[:, 3] - card_boxes[:, 1]))
                key = ("card", int(np.where(inside, areas, np.inf).argmin()))
        groups.setdefault(key if key is not None else ("code", r.code), []).append(r)
    # A card box may hold indices of several cards (a box around an overlapped spread): split
    # such a group by code, unless it is one card's two corners read two ways (two readings
    # pointing opposite ways: a card's corners are a half turn apart, a spread's all alike).
    # (`split_box` with no classifier: the group read most surely keeps the box.)
    split: list[tuple[object, list[IndexReading]]] = []
    for key, rs in groups.items():
        if not (isinstance(key, tuple) and key[0] == "card"):
            split.append((key, rs))
            continue
        own, others = split_box(rs, np.ones(len(CARD_CODES)))
        split.append((key, own))
        split.extend((("code", sub[0].code), sub) for sub in others)
    cards: list[tuple[str, tuple[float, float, float, float], float]] = []
    for key, rs in split:
        w = np.array([max(r.is_index, 1e-3) * max(r.score, 1e-3) for r in rs])
        logr = sum(wi * np.log(r.rank + 1e-6) for wi, r in zip(w, rs, strict=True)) / w.sum()
        logs = sum(wi * np.log(r.suit + 1e-6) for wi, r in zip(w, rs, strict=True)) / w.sum()
        pr, ps = softmax(np.asarray(logr)), softmax(np.asarray(logs))
        code = RANKS[int(pr.argmax())] + SUITS[int(ps.argmax())]
        # Two corners that agree are surer than one. The localiser's score is a gate only
        # (``index_conf``): whether a patch is an index is the heads' call.
        agree = 1 - np.prod([1 - r.is_index for r in rs])
        conf = float(pr.max() * ps.max() * agree)
        if isinstance(key, tuple) and key[0] == "card" and card_boxes is not None:
            b = card_boxes[int(key[1])]  # type: ignore[call-overload]
            box = (float(b[0]), float(b[1]), float(b[2]), float(b[3]))
        else:
            # Where the card lies, from its indices: each implies the card around it.
            arr = np.array([implied_card_box(r.box, r.orient) for r in rs])
            x1, y1, x2, y2 = np.average(arr, axis=0, weights=w)
            # ... and holds those indices whole: an index larger on its card than most
            # (`INDEX_SHARE`) implies a card too small to reach its other corner.
            near = overlapped(np.array([[x1, y1, x2, y2]]), arr)
            for r, n in zip(rs, near, strict=True):
                if n and r.is_index >= 0.5:
                    x1, y1 = min(x1, r.box[0]), min(y1, r.box[1])
                    x2, y2 = max(x2, r.box[2]), max(y2, r.box[3])
            box = (float(x1), float(y1), float(x2), float(y2))
        cards.append((code, box, conf))
    cards.sort(key=lambda c: -c[2])
    kept: list[tuple[str, tuple[float, float, float, float], float]] = []
    seen: dict[str, int] = {}
    for code, box, conf in cards:
        if conf < min_conf or seen.get(code, 0) >= decks:
            continue
        seen[code] = seen.get(code, 0) + 1
        kept.append((code, box, conf))
    if not kept:
        return Detections.empty()
    return Detections(
        xyxy=np.array([k[1] for k in kept], np.float32),
        confidence=np.array([k[2] for k in kept], np.float32),
        class_id=np.array([CARD_CODES.index(k[0]) for k in kept], np.int64),
    )


#: A corner index in its card, measured on the 14 installed deck designs (the index box: rank
#: and suit together, in the card upright): the index is 0.18-0.30 of the card's height
#: (median 0.28), the card is 0.64-0.75 as wide as it is tall, and the card's centre lies
#: 0.8-1.0 index heights right of the index's centre and 1.0-1.3 below it (medians 0.9 and
#: 1.1; the same on uncovered cards of rendered scenes, every way up).
INDEX_SHARE, CARD_ASPECT, CENTRE_RIGHT, CENTRE_DOWN = 0.28, 0.71, 0.9, 1.1

#: Pixels of a card box's longer side from which the hybrid takes an unsure box with no index
#: found inside or in its corners for a card back and leaves it out (`IndexReader`,
#: ``faceless``): its indices would be some 30 px tall. Smaller cards keep the crop
#: classifier's name: their indices are often too small or too spoilt for the localiser.
FACELESS_PX = 120.0


#: An index read less sure than ``REGROW_BELOW`` (rank x suit x is-index) whose rank the
#: heads name at least ``REGROW_RANK`` sure is read again in its box grown by ``REGROW`` of
#: its length toward the index's foot (`IndexReader.regrown`): the localiser sometimes boxes
#: only the rank of an index and leaves its suit, printed under it, outside the patch. The
#: demo's deck, rendered revealed hands (Michigan seed 200): a 7♥ boxed to the foot of its 7
#: read with the suit at 0.33, in the grown box at 1.00.
REGROW_BELOW, REGROW_RANK, REGROW = 0.5, 0.6, 0.5

#: Indices between sure ones in a spread (`IndexReader.spread_gaps`): how surely the
#: indices that set the spacing, and the ones found between them, must read; how surely the
#: heads must call a proposal an index; and the localiser score such a reading is given (a
#: gate only: the heads decide). The demo's deck, Pressman seed 207: Cy's eight cards in a
#: spread, the Q♣ (its index beside the court picture) and A♣ never boxed at all, both read
#: at the steps between the 10♣ and the 7♥, three of the spread's steps apart.
GAP_SURE, GAP_INDEX, GAP_SCORE = 0.5, 0.9, 0.3


def implied_card_box(box: Sequence[float] | np.ndarray, orient: int
                     ) -> tuple[float, float, float, float]:
    """The box of the card a corner index belongs to, from the index box and which way the
    index's top points (``orient`` quarter turns clockwise from up): the card extends from its
    index towards the index's lower right, turned with it. Both corners of one card imply
    about the same box, so a card's place does not jump when one corner is covered."""
    x1, y1, x2, y2 = (float(v) for v in box)
    turned = orient % 2 == 1
    ih = (x2 - x1) if turned else (y2 - y1)  # the index's height, along its own up
    dx, dy = CENTRE_RIGHT * ih, CENTRE_DOWN * ih
    for _ in range(orient % 4):  # turn the offset a quarter clockwise (image y points down)
        dx, dy = -dy, dx
    cx, cy = (x1 + x2) / 2 + dx, (y1 + y2) / 2 + dy
    h = ih / INDEX_SHARE
    w = CARD_ASPECT * h
    if turned:
        w, h = h, w
    return cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2


def localiser_path() -> Path:
    return MODELS / "index_localiser.onnx"


def photo_localiser_path() -> Path:
    """The localiser the photo reader reads with where no deck profile is given
    (`vision.readers.load.load_reader`): gone on with real photos made small and spoilt as
    a webcam shows them, and real tables as negatives (models/INDEX.md, "Seventeenth
    session"). `localiser_path` when it is not installed."""
    path = MODELS / "index_localiser_photo.onnx"
    return path if path.exists() else localiser_path()


def available() -> bool:
    """Whether the index models are installed (the reader needs both)."""
    return localiser_path().exists() and heads_path().exists()


class IndexReader:
    """Reads cards index-first; the same interface as `vision.readers.detector.CardDetector`
    (`detect`, `detect_many`, ``names``), so the zone reader and ``companion detect`` use it.

    - ``conf``: minimum confidence of a card (its corners' fused rank x suit probability times
      the chance that at least one of them is an index). Raising it trades recall for precision.
    - ``index_conf``: minimum localiser score of an index box. Lower finds more covered or
      blurred indices; the heads' is-index output then removes what is not one. A box scored
      below ``faint_below`` counts only where the heads are sure it is an index (is-index at
      least ``faint_index``).
    - ``card_boxes``: also run the whole-card detector (`models/cards.onnx`) to give each card
      its card box (the indices inside one box are one card). Off, a card's box is the union of
      its index boxes (enough at the table, where zones say where a card lies).
    - ``ocr``: fuse the PP-OCRv4 recogniser's rank likelihoods for indices whose rank head is
      unsure (below ``ocr_below``); ``"always"`` for every index, ``False`` never. Only where
      the OCR's likeliest rank explains the index at least ``ocr_sure`` well (its CTC
      log-likelihood; the default, minus infinity, everywhere it reads).
    - ``decks``: how many decks are in play (a code is read at most this many times).
    - ``deck``: a deck profile from ``companion teach-deck`` (`use_deck`: rank and suit layers
      refitted on photos of the user's own cards, and a dark-faced deck's colours).
    - ``whole_cards`` (with ``card_boxes``): the whole-card crop classifier also votes on each
      card box, its 52 probabilities multiplied with the indices' rank x suit vote raised to
      ``index_weight`` (0: the classifier alone; large: the indices decide). A box with no
      index found inside whose classifier vote is below ``corner_gate`` has its four corners
      read by the heads (`corner_vote`), raised to ``corner_weight``; a box whose longer
      side is at least ``faceless`` pixels (0: never) is left out when no corner holds an
      index either (mostly a card back; in a smaller box an index may be too small to find). A
      card read from indices outside every card box (or split from a box around several
      cards) needs at least ``loose_conf``. ``alike``: card boxes with no index found by a
      corner (none inside, or one only in the middle: `off_centre`) that the classifier reads
      as one card more times than there are decks are left out (`alike_backs`: the backs of
      face-down cards).
    - ``imgsz``: the longer side the localiser reads a frame at (a localiser exported with a
      free input shape; default: its JSON's ``imgsz``). Larger finds smaller indices.
      ``tile``: a frame over 1.5 times that size is also read in tiles (`tiles`).
    - ``negative``: also read the frame's negative where the localiser finds indices there
      that it did not find surely read in the frame (a deck printed light on a dark face;
      `_and_negative`).
    - ``level_below``: a dim or flat frame, whose grey levels span less than this (from the
      1st to the 99.5th percentile; 0: never), is also read with them stretched to black
      and white (`levelled`), where the localiser finds indices there that it did not find
      surely read in the frame (`_and_look`).
    - ``sharpen``: a frame no larger than twice the localiser's size is also read with its
      edges sharpened by this much (an unsharp mask, `sharpened`; 0: never), where the
      localiser finds indices there that it did not find surely read in the frame (a soft
      webcam frame's small indices). A larger frame is sharpened by its own shrinking to
      the localiser's size.
    - ``coarse``: also look at the frame at half the localiser's size for indices larger
      than it learnt (a close-up; `index_looks`); what it boxes counts only where the heads
      are sure it is an index (is-index at least ``faint_index``).
    - ``magnify``: a frame no larger than 1.5 times the localiser's size (which `tiles` does
      not cut) is also read magnified this many times, in overlapping tiles, for indices too
      small for the full look (a spread across a webcam frame); an index only that look
      boxes counts only where the heads read it at least ``magnified_sure`` (rank x suit x
      is-index): magnified, the localiser boxes pips and art that the heads then misname.
    - ``eighths``: an index the heads read unsurely in its four quarter turns is read again
      turned an eighth (an index lying at some 45 degrees to the frame; `IndexHeads.read`).
    - ``regrow``: an unsure index whose rank is read is read again with its box grown toward
      its foot, where a box cut short leaves the suit (`regrown`).
    - ``gaps``: indices of a spread that the localiser missed are read where the spacing of
      the indices it found says they lie (`spread_gaps`).
    - ``courts_by_index`` (with ``whole_cards``): the crop classifier says whether a card box
      is a court card and of which suit, not which court (`courts_pooled`), in a box where
      an index inside reads another court rank than the classifier's favourite court
      (`reads_another_court`), or where indices inside read as pips in a box it surely
      calls a court still lean to one court (`court_hint`); elsewhere it names the card.
      The table's hybrid reads so (`vision.readers.load.checked_table_reader`) while the
      deck is not judged and on a deck the card reader does not know: the classifier tells
      a court's picture from pips on every deck, but a king from a queen only on the decks
      it learnt.
    - ``pip_suits`` (with ``whole_cards``): each card box's pips (an ace's or a number card's
      middle, many times larger than its index's suit) also vote on its suit within its colour
      (`vision.readers.pip_suits`): on a deck the heads never learnt, hearts from diamonds
      and clubs from spades where the indices' small pips do not tell them apart.
    - ``ink_check`` (with ``whole_cards``): an index inside a card box whose ink cannot be the
      ink of the box's pips (one plain, the other strongly tinted: `pip_suits.tints_clash`)
      and that reads the other colour than the crop classifier does for the box is another
      card's, peeking out under or beside it, and does not vote for the box's card (tigullio
      Great Lakes 2506: the red 7 of a 7♥ under a 4♠, inside the 4♠'s box, made it 7♠).
    - ``mixed_ink``: an index box whose rank and suit sign (its upper and lower half, turned
      upright) are printed in clashing inks (`pip_suits.tints_clash`) holds parts of two
      cards, and is not read (tigullio Michigan 2405: the red 9 of a 9♦ over the club of the
      10♣ below it, read 9♣ 0.91 by the second look in a hand shown).
    """

    names = CARD_CODES
    regrow = gaps = True
    magnify, magnified_sure = 1.0, 0.85
    level_below = sharpen = 0.0
    ocr_sure = -math.inf
    courts_by_index = False
    pip_suits: Any = None
    ink_check = mixed_ink = False

    def __init__(self, localiser: str | Path | None = None, heads: str | Path | None = None,
                 conf: float = 0.5, index_conf: float = 0.25, threads: int = 2,
                 card_boxes: bool = True, ocr: bool | str = True, ocr_below: float = 0.9,
                 ocr_sure: float = -math.inf,
                 decks: int = 1, tta: bool | str = "unsure",
                 deck: str | Path | dict[str, Any] | None = None,
                 whole_cards: bool = False, index_weight: float = 1.0,
                 corner_gate: float = 0.9, corner_weight: float = 0.3,
                 imgsz: int | None = None, loose_conf: float = 0.6, tile: bool = True,
                 negative: bool = False, faceless: float = FACELESS_PX,
                 faint_below: float = 0.0, faint_index: float = 0.9, alike: bool = True,
                 coarse: bool = False, eighths: bool = False, regrow: bool = True,
                 gaps: bool = True, magnify: float = 1.0, magnified_sure: float = 0.85,
                 courts_by_index: bool = False, level_below: float = 0.0,
                 sharpen: float = 0.0, pip_suits: bool = False,
                 ink_check: bool = False, mixed_ink: bool = False) -> None:
        self.localiser_path = Path(localiser) if localiser else localiser_path()
        if not self.localiser_path.exists():
            raise FileNotFoundError(f"index localiser not found: {self.localiser_path}")
        info = json.loads(self.localiser_path.with_suffix(".json").read_text())
        if info.get("names") != ["index"]:
            raise ValueError(f"{self.localiser_path}: classes {info.get('names')}, "
                             "expected ['index']")
        self.session = cpu_session(self.localiser_path, threads)
        first = self.session.get_inputs()[0]
        self.input = first.name
        # A localiser exported with a free input shape reads at any size (the frame padded
        # only to a multiple of 32); a fixed one only at the size it was exported at.
        self.free_shape = not all(isinstance(d, int) for d in first.shape[2:])
        self.imgsz = int(info["imgsz"])
        if imgsz is not None and int(imgsz) != self.imgsz:
            if not self.free_shape:
                raise ValueError(f"{self.localiser_path} reads only at {self.imgsz} px")
            self.imgsz = int(imgsz)
        self.heads = IndexHeads(heads, threads=threads, tta=tta, eighths=eighths)
        self.threads = threads
        self.face: tuple[np.ndarray, np.ndarray] | None = None
        if deck is not None:
            self.use_deck(deck)
        self.conf, self.index_conf = float(conf), float(index_conf)
        self.index_weight = float(index_weight)
        self.corner_gate, self.corner_weight = float(corner_gate), float(corner_weight)
        self.loose_conf = float(loose_conf)
        self.tile, self.coarse = bool(tile), bool(coarse)
        self.magnify, self.magnified_sure = float(magnify), float(magnified_sure)
        self.negative = bool(negative)
        self.level_below = float(level_below)
        self.sharpen = float(sharpen)
        self.faceless = float(faceless)
        self.alike = bool(alike)
        self.faint_below, self.faint_index = float(faint_below), float(faint_index)
        self.regrow, self.gaps = bool(regrow), bool(gaps)
        self.courts_by_index = bool(courts_by_index)
        self.ink_check = bool(ink_check) and whole_cards
        self.mixed_ink = bool(mixed_ink)
        if pip_suits and whole_cards:
            from vision.readers import pip_suits as pips

            if pips.available():
                self.pip_suits = pips.PipSuits()
        self.decks = int(decks)
        self.card_detector = None
        if card_boxes:
            from vision.readers.detector import CardDetector, default_model_path

            if default_model_path().exists():
                self.card_detector = CardDetector(threads=threads, classifier=whole_cards)
        self.ocr: Any = None
        self.ocr_mode = ocr
        self.ocr_below = float(ocr_below)
        self.ocr_sure = float(ocr_sure)
        if ocr:
            from vision.readers.rank_ocr import RankOCR, recogniser_path

            if recogniser_path() is not None:
                self.ocr = RankOCR(threads=threads)

    def use_deck(self, deck: str | Path | dict[str, Any]) -> None:
        """Read with a deck profile from ``companion teach-deck``: its refitted rank and suit
        layers, and, for a deck printed light on a dark face, its face and ink colours (each
        frame is then turned into dark ink on a light face first, as the models know cards)."""
        from vision.readers.index_heads import load_deck_layers

        data = deck if isinstance(deck, dict) else json.loads(Path(deck).read_text())
        layers = load_deck_layers(data)
        if self.heads.path.resolve() != heads_path().resolve():
            # A profile's layers read the feature of the heads it was refitted on, not the
            # photo heads' (`photo_heads_path`).
            self.heads = IndexHeads(heads_path(), threads=self.threads, tta=self.heads.tta,
                                    eighths=self.heads.eighths)
        self.heads.layers = layers
        self.face = None
        if data.get("face") is not None:
            paper, ink = (np.asarray(data["face"][k], np.float32) for k in ("paper", "ink"))
            if paper.shape != (3,) or ink.shape != (3,):
                raise ValueError("deck profile: face colours are not two BGR colours")
            self.face = (paper, ink)

    # -- stage 1: where the indices are
    def index_boxes(self, frame: np.ndarray, index_conf: float | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
        """Index boxes (N, 4) in frame pixels and their localiser scores (N,), from every
        look (`index_looks`)."""
        boxes, scores, _ = self.index_looks(frame, index_conf)
        return boxes, scores

    def index_looks(self, frame: np.ndarray, index_conf: float | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Index boxes (N, 4) in frame pixels, their localiser scores (N,), and which look
        found each (N,: `FULL_LOOK`; `MAGNIFIED_LOOK` for a box that only a magnified tile
        found; `COARSE_LOOK` for the coarse look's, the last ones). A frame much larger than
        the localiser's input (a photo) is also read in overlapping tiles at up to twice that
        resolution, and a small one magnified with ``magnify`` (`tiles`), so small indices
        are not shrunk away; with ``coarse``, also at half the localiser's size, for large
        ones (`COARSE_PX`)."""
        from vision.readers.detector import iou_matrix, nms

        thr = self.index_conf if index_conf is None else float(index_conf)
        boxes, scores = self._localise(frame, thr)
        full = boxes
        looks = np.full(len(boxes), FULL_LOOK, np.int8)
        parts = [(boxes, scores, looks)]
        for (x0, y0, x1, y1), scale in self.tiles(frame.shape[1], frame.shape[0]):
            cut = frame[y0:y1, x0:x1]
            if scale != 1.0:
                cut = cv2.resize(cut, (round((x1 - x0) * scale), round((y1 - y0) * scale)),
                                 interpolation=cv2.INTER_AREA)
            b, sc = self._localise(cut, thr)
            b = b / scale + np.array([x0, y0, x0, y0], np.float32)
            # A box cut by an edge of the tile inside the frame is that index in part only:
            # the overlapping tile holds it whole.
            m = 2 / scale
            whole = (((b[:, 0] > x0 + m) | (x0 == 0)) & ((b[:, 1] > y0 + m) | (y0 == 0))
                     & ((b[:, 2] < x1 - m) | (x1 == frame.shape[1]))
                     & ((b[:, 3] < y1 - m) | (y1 == frame.shape[0])))
            look = MAGNIFIED_LOOK if scale > 1 else FULL_LOOK
            parts.append((b[whole], sc[whole], np.full(int(whole.sum()), look, np.int8)))
        if len(parts) > 1:
            boxes = np.concatenate([b for b, _, _ in parts]).astype(np.float32)
            scores = np.concatenate([sc for _, sc, _ in parts]).astype(np.float32)
            looks = np.concatenate([lk for _, _, lk in parts])
            if len(boxes):
                k = nms(boxes, scores, 0.5)
                boxes, scores, looks = boxes[k], scores[k], looks[k]
                # A magnified tile's box over one the full look found too is that one.
                mag = np.flatnonzero(looks == MAGNIFIED_LOOK)
                if len(mag) and len(full):
                    again = (iou_matrix(boxes[mag], full) >= 0.5).any(axis=1)
                    looks[mag[again]] = FULL_LOOK
        if self.coarse and self.free_shape:
            # A close-up's indices, larger than any the localiser learnt, are found in the
            # frame read at half the size; only large ones are taken from there, beside the
            # full look's (where both box one index, the reading the heads are surer of is
            # kept: `surest_of_each`).
            b, sc = self._localise(frame, thr, self.imgsz // 2)
            px = self.imgsz / max(frame.shape[:2])  # localiser pixels per frame pixel
            large = (b[:, 2:] - b[:, :2]).max(axis=1) * px >= COARSE_PX
            if large.any():
                boxes = np.concatenate([boxes, b[large]]).astype(np.float32)
                scores = np.concatenate([scores, sc[large]]).astype(np.float32)
                looks = np.concatenate([looks, np.full(int(large.sum()), COARSE_LOOK, np.int8)])
        return boxes, scores, looks

    def tiles(self, width: int, height: int) -> list[tuple[tuple[int, int, int, int], float]]:
        """The tiles a frame of this size is also read in, each ``((x0, y0, x1, y1), scale)``,
        input-sized and overlapping by a quarter (the reader's free-shape localiser only): a
        frame whose longer side is over 1.5 times the localiser's input at up to twice the
        input size; a smaller one magnified ``magnify`` times (none where that is 1)."""
        size = self.imgsz
        if not self.tile or not self.free_shape:
            return []
        if max(width, height) > 1.5 * size:
            scale = min(1.0, 2 * size / max(width, height))
        elif self.magnify > 1:
            scale = self.magnify
        else:
            return []
        span = size / scale  # a tile's side in frame pixels
        step = 0.75 * span
        out = []
        for ty in _starts(height, span, step):
            for tx in _starts(width, span, step):
                x0, y0 = int(tx), int(ty)
                x1, y1 = min(width, int(round(tx + span))), min(height, int(round(ty + span)))
                out.append(((x0, y0, x1, y1), scale))
        return out

    def _localise(self, frame: np.ndarray, thr: float, size: int | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
        """The localiser's boxes (after NMS) on one image read at ``size`` (default: the
        localiser's own), in the image's pixels."""
        from vision.readers.detector import letterbox, nms

        img, r, (px, py) = letterbox(frame, size or self.imgsz,
                                     32 if self.free_shape else None)
        blob = np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1)[None], np.float32) / 255
        out = np.asarray(self.session.run(None, {self.input: blob})[0])[0]
        if out.ndim == 2 and out.shape[1] == 6:  # end-to-end head: x1 y1 x2 y2 score class
            keep = out[:, 4] >= thr
            boxes, scores = out[keep, :4].copy(), out[keep, 4].copy()
        else:  # raw head (5, anchors): centre-size box and the one class score
            pred = out.T if out.shape[0] == 5 else out
            keep = pred[:, 4] >= thr
            pred = pred[keep]
            cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
            boxes = np.column_stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])
            scores = pred[:, 4]
        if len(boxes):
            k = nms(boxes, scores, 0.5)
            boxes, scores = boxes[k], scores[k]
        fh, fw = frame.shape[:2]
        boxes = (boxes - np.array([px, py, px, py], np.float32)) / r
        boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, fw)
        boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, fh)
        return boxes.astype(np.float32), scores.astype(np.float32)

    # -- stage 2: what each index says
    def read_indices(self, frame: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                     ocr: bool = True, looks: np.ndarray | None = None
                     ) -> list[IndexReading]:
        """What the heads read in each index box (``looks``: which look found each box, as
        `index_looks` gives it; True for the coarse look's); with ``ocr`` the rank OCR is
        fused where the rank head is unsure (`fuse_ocr`)."""
        if not len(boxes):
            return []
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        readings = self._heads_read(grey, boxes, scores)
        if looks is not None:
            # The coarse look boxes large art too (a card back's letter, a fanned back's
            # pattern): its boxes count only where the heads are sure they are indices. A
            # magnified tile boxes pips and art: what it alone found counts where read surely.
            readings = [r for r, look in zip(readings, np.asarray(looks, np.int8), strict=True)
                        if (look != COARSE_LOOK or r.is_index >= self.faint_index)
                        and (look != MAGNIFIED_LOOK or r.confidence >= self.magnified_sure)]
        if self.faint_below > 0:
            readings = [r for r in readings
                        if r.score >= self.faint_below or r.is_index >= self.faint_index]
        if self.regrow:
            readings = self.regrown(grey, readings)
        if self.gaps:
            readings = readings + self.spread_gaps(grey, readings)
        if self.mixed_ink and frame.ndim == 3:
            readings = [r for r in readings if not two_inks(frame, r)]
        return self.fuse_ocr(frame, readings) if ocr else readings

    def _heads_read(self, grey: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray,
                    scores: Sequence[float] | np.ndarray) -> list[IndexReading]:
        """What the heads read in each box of the grey frame, with its localiser score."""
        probs = self.heads.read(self.heads.cut(grey, boxes))
        orient = probs["orient"].argmax(axis=1)
        return [IndexReading(tuple(float(v) for v in box),  # type: ignore[arg-type]
                             float(score), probs["rank"][i], probs["suit"][i], int(orient[i]),
                             float(probs["is_index"][i]))
                for i, (box, score) in enumerate(zip(boxes, scores, strict=True))]

    def spread_gaps(self, grey: np.ndarray, readings: list[IndexReading]
                    ) -> list[IndexReading]:
        """Indices the localiser missed in a spread, read where the spread's spacing says
        they lie: two indices read surely (at least ``GAP_SURE``), alike in size and way up,
        with none read between them on the line through them, and as far apart as a whole
        number (2-8) of the spacing to the next sure index along that line, have an index
        proposed at each step between them; one the heads read as an index (``GAP_INDEX``)
        and surely (``GAP_SURE``) is added, its localiser score `GAP_SCORE`."""
        sure = [r for r in readings if r.confidence >= GAP_SURE]
        if len(sure) < 3:
            return []
        props = spread_gap_boxes(sure)
        if not props:
            return []
        return [r for r in self._heads_read(grey, props, [GAP_SCORE] * len(props))
                if r.is_index >= GAP_INDEX and r.confidence >= GAP_SURE]

    def regrown(self, grey: np.ndarray, readings: list[IndexReading]) -> list[IndexReading]:
        """``readings`` with each unsure one (below ``REGROW_BELOW``) whose rank is read (at
        least ``REGROW_RANK``) read again in its box grown ``REGROW`` of its length toward the
        index's foot, the way its orientation says the suit lies under the rank; the new
        reading is kept where it is surer and names the same rank (a box grown over the next
        card's index must not change what the rank was read as)."""
        unsure = [i for i, r in enumerate(readings)
                  if r.confidence < REGROW_BELOW and r.rank.max() >= REGROW_RANK]
        if not unsure:
            return readings
        h, w = grey.shape[:2]
        again = self._heads_read(
            grey, [foot_grown(readings[i].box, readings[i].orient, w, h) for i in unsure],
            [readings[i].score for i in unsure])
        out = list(readings)
        for i, new in zip(unsure, again, strict=True):
            if new.confidence > out[i].confidence and new.rank.argmax() == out[i].rank.argmax():
                out[i] = new
        return out

    def fuse_ocr(self, frame: np.ndarray, readings: Sequence[IndexReading]
                 ) -> list[IndexReading]:
        """The readings with the rank OCR's likelihoods fused into the rank of those whose rank
        head is below ``ocr_below`` (every one with ``ocr="always"``); the OCR reads the index
        cut from ``frame`` and turned upright by the heads' orientation."""
        out = list(readings)
        if self.ocr is None:
            return out
        idx = [i for i, r in enumerate(out)
               if self.ocr_mode == "always" or r.rank.max() < self.ocr_below]
        if not idx:
            return out
        p_ocr, sure = self.ocr.rank_probs([upright_cut(frame, out[i].box, out[i].orient)
                                           for i in idx])
        for j, i in enumerate(idx):
            if sure[j] < self.ocr_sure:
                continue
            fused = out[i].rank * np.sqrt(p_ocr[j] + 1e-3)
            out[i] = replace(out[i], rank=fused / fused.sum())
        return out

    # -- the detector interface
    def detect(self, frame_bgr: np.ndarray, conf: float | None = None) -> Detections:
        return self.detect_many([frame_bgr], conf)[0]

    def detect_many(self, frames_bgr: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]:
        """The cards of each frame, one row per physical card. ``card_conf`` is accepted for
        the zone reader's interface; here it is the minimum localiser score of an index."""
        return [self.read_frame(frame, conf, card_conf)[0] for frame in frames_bgr]

    def read_frame(self, frame_bgr: np.ndarray, conf: float | None = None,
                   card_conf: float | None = None) -> tuple[Detections, list[IndexReading]]:
        """The cards of one frame (as `detect`) and every index reading they were read from:
        the frame's own look's, then those of its negative, levelled and sharpened looks
        where they were read (same pixel coordinates), as the heads read them before the
        cards were fused (`bench_reader_losses.py` tells from them where a card was lost)."""
        from vision.readers.detector import _bgr, despeckled

        frame = despeckled(_bgr(frame_bgr))
        if self.face is not None:
            frame = as_light_face(frame, *self.face)
        min_conf = self.conf if conf is None else float(conf)
        boxes, scores, looks = self.index_looks(frame, card_conf)
        used: list[IndexReading] = []
        dets = self._read(frame, boxes, scores, min_conf, used, looks)
        if self.negative:  # (a deck taught dark-faced: its frame is the negative already)
            dets = self._and_negative(frame, surely_read(used, min_conf), dets, card_conf,
                                      min_conf, used, list(used))
        for other in self._adjusted_looks(frame):
            dets = self._and_look(frame, other, surely_read(used, min_conf), dets, card_conf,
                                  min_conf, used, list(used), over=False)
        return in_frame(dets, frame.shape[1], frame.shape[0]), used

    def _adjusted_looks(self, frame: np.ndarray) -> Iterator[np.ndarray]:
        """The frame's pictures read after it (and its negative), where they apply: its grey
        levels stretched (a dim frame: ``level_below``), then its edges sharpened (a frame
        no larger than twice the localiser's size: ``sharpen``); each made as it is read."""
        if self.level_below > 0:
            level = levelled(frame, self.level_below)
            if level is not None:
                yield level
        if self.sharpen > 0 and max(frame.shape[:2]) <= 2 * self.imgsz:
            yield sharpened(frame, self.sharpen, self.imgsz)

    def _read(self, frame: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
              min_conf: float, used: list[IndexReading] | None = None,
              looks: np.ndarray | None = None) -> Detections:
        """The cards of one frame from its index boxes (``looks``: which look found each,
        `index_looks`); ``used`` gets the index readings they were read with."""
        if self.card_detector is not None and self.card_detector.classifier is not None:
            # The OCR waits: it reads only indices whose card the classifier is unsure of.
            readings = surest_of_each(self.read_indices(frame, boxes, scores, ocr=False,
                                                        looks=looks))
            return self._with_whole_cards(frame, readings, min_conf, used)
        readings = surest_of_each(self.read_indices(frame, boxes, scores, looks=looks))
        cards = None
        if self.card_detector is not None and readings:
            cards = self.card_detector.card_boxes(frame)
        if used is not None:
            used.extend(readings)
        return own_boxes(fuse_cards(readings, cards, decks=self.decks, min_conf=min_conf),
                         readings)

    def _and_negative(self, frame: np.ndarray, sure: np.ndarray, dets: Detections,
                      card_conf: float | None, min_conf: float,
                      readings: list[IndexReading] | None = None,
                      framed: Sequence[IndexReading] = ()) -> Detections:
        """The cards of a deck printed light on a dark face, read in the frame's negative
        (where they look like the cards the models know) when the localiser finds indices
        there that are not in ``sure``, the boxes of the indices the frame itself was read
        by at ``min_conf`` or more (an index found in both but read unsurely in the frame is
        read again in negative: the held-out dark recolour, 0.34 of its cards read instead
        of 0.31); each added where no card was read (or over one, where the frame read that
        card's index as the same code, too unsurely for a card: `read_otherwise`; a dark
        cascade's Q♠ in the box its neighbour's index implied), and only when an index of
        its code was read by a corner of its box (`cornered`). The crop classifier never
        saw a card in negative, and a dark card back turns into a light card with its art (a
        large letter) in the middle: on the held-out empty tables every phantom card came
        from the negative so (7 in 200 frames; none with this rule). (For a deck taught
        dark-faced the frame is the negative, and this reads the photo itself.)
        ``readings`` gets the negative look's index readings; ``framed`` holds the frame's
        own look's."""
        return self._and_look(frame, 255 - frame, sure, dets, card_conf, min_conf, readings,
                              framed)

    def _and_look(self, frame: np.ndarray, other: np.ndarray, sure: np.ndarray,
                  dets: Detections, card_conf: float | None, min_conf: float,
                  readings: list[IndexReading] | None = None,
                  framed: Sequence[IndexReading] = (), over: bool = True) -> Detections:
        """``dets``, the cards read in ``frame``, and the cards read in ``other``, another
        look at it (its negative: `_and_negative`; its grey levels stretched: `levelled`;
        its edges sharpened: `sharpened`) where the localiser finds indices there that are
        not in ``sure`` (the boxes of the indices read at ``min_conf`` or more so far). A
        card of the other look is added where no card was read, or over one whose indices
        read as its code too unsurely (`read_otherwise`; without ``over``, never on nearly
        the same box as one: `SAME_CARD_IOU`), and only where an index of its code lies by
        a corner of its box (`cornered`). ``readings`` gets the other look's index
        readings; ``framed`` holds those read so far."""
        nb, ns, looks = self.index_looks(other, card_conf)
        if not len(nb) or (len(sure) and overlapped(sure, nb).all()):
            return dets
        used: list[IndexReading] = []
        more = self._read(other, nb, ns, min_conf, used, looks)
        if readings is not None:
            readings.extend(used)
        from vision.readers.detector import iou_matrix

        same = np.zeros(len(more), bool)
        if not over and len(dets) and len(more):
            same = np.asarray((iou_matrix(more.xyxy, dets.xyxy) >= SAME_CARD_IOU).any(axis=1))
        keep = [i for i in range(len(more)) if more.labels[i] not in dets.labels
                and not same[i]
                and not (len(dets) and overlapped(dets.xyxy, more.xyxy[i:i + 1])[0]
                         and read_otherwise(more.labels[i], more.xyxy[i], used, framed))
                and cornered(past_edges(more.xyxy[i], frame.shape[1], frame.shape[0]),
                             more.labels[i], used)]
        if not keep:
            return dets
        more = more[np.array(keep)]
        return Detections(np.concatenate([dets.xyxy, more.xyxy]),
                          np.concatenate([dets.confidence, more.confidence]),
                          np.concatenate([dets.class_id, more.class_id]))

    def named_card_boxes(self, frame: np.ndarray
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The whole-card detector's card boxes in ``frame`` as the hybrid takes them: (boxes
        (n, 4), how surely each is a card (n,), the crop classifier's 52 probabilities for
        each times the detector's own class scores, unnormalised (n, 52))."""
        det = self.card_detector
        assert det is not None and det.classifier is not None
        boxes, rows, _ = det._candidates(frame, 0.05)
        if len(boxes):
            from vision.readers.detector import nms

            k = nms(boxes, rows.max(1), det.agnostic_iou)
            boxes, rows = boxes[k], rows[k]
        cardness = np.clip(rows.sum(1), 0, 1) if len(boxes) else np.zeros(0)
        keep = cardness >= det.card_conf
        boxes, rows, cardness = boxes[keep], rows[keep], cardness[keep]
        probs = (det.classifier.classify_patches(det.classifier.crops(frame, boxes))[2]
                 if len(boxes) else np.zeros((0, 52)))
        det_p = rows / np.maximum(rows.sum(1, keepdims=True), 1e-6)
        return boxes, cardness, probs * (det_p + det.class_smoothing)

    def _with_whole_cards(self, frame: np.ndarray, readings: list[IndexReading],
                          min_conf: float, used: list[IndexReading] | None = None
                          ) -> Detections:
        """Card boxes named by the crop classifier and the indices inside them together;
        indices outside every card box are read as cards of their own."""
        boxes, cardness, probs = self.named_card_boxes(frame)
        inside: dict[int, list[IndexReading]] = {}
        hinted: dict[int, list[IndexReading]] = {}  # indices read as another kind, by box
        loose: list[IndexReading] = []
        for r in readings:
            if r.is_index < 0.5:
                continue
            cx, cy = (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2
            hit = np.flatnonzero((boxes[:, 0] <= cx) & (cx <= boxes[:, 2])
                                 & (boxes[:, 1] <= cy) & (cy <= boxes[:, 3]))
            if len(hit):
                areas = (boxes[hit, 2] - boxes[hit, 0]) * (boxes[hit, 3] - boxes[hit, 1])
                inside.setdefault(int(hit[int(areas.argmin())]), []).append(r)
            else:
                loose.append(r)
        for i in list(inside):
            if self.ink_check:
                inside[i] = same_ink(frame, boxes[i], inside[i], probs[i])
            # An index whose kind (court card or not) the crop classifier surely rules out
            # for its box is another card's: the classifier tells a court's picture from
            # pips even on decks whose courts it names wrongly (`other_kind`).
            inside[i], strays = other_kind(inside[i], probs[i])
            loose.extend(strays)
            if strays and self.courts_by_index and not reads_a_court(strays):
                hinted[i] = strays  # read as pips in a box surely a court card
            # A box around an overlapped pile or spread holds the indices of several cards:
            # the box is named for one of them, every other card shown there is a card too.
            inside[i], others = split_box(inside[i], probs[i])
            loose.extend(r for group in others for r in group)
            if not inside[i]:
                del inside[i]
        # The rank OCR for the indices outside every card box and in boxes the classifier is
        # unsure of (where a sure classifier decides, the OCR would change nothing).
        unsure = [i for i in inside if probs[i].max() < self.corner_gate * probs[i].sum()]
        fused = self.fuse_ocr(frame, loose + [r for i in unsure for r in inside[i]])
        loose = fused[:len(loose)]
        at = len(loose)
        for i in unsure:
            inside[i], at = fused[at:at + len(inside[i])], at + len(inside[i])
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        names, scores, dists = [], [], []
        blank: list[int] = []  # unsure boxes with no index anywhere: mostly card backs
        for i in range(len(boxes)):
            p = probs[i]
            if self.courts_by_index and reads_another_court(inside.get(i, []), p):
                p = courts_pooled(p)  # which court it is, the indices say
            elif self.courts_by_index and (hint := court_hint(hinted.get(i, []))) is not None:
                p = courts_pooled(p) * hint  # a court index misread as pips says which court
            for r in inside.get(i, []):  # each corner votes
                p = p * vote(r) ** (self.index_weight * r.is_index)
            if i not in inside and p.max() < self.corner_gate * p.sum():
                # No index found in an unsure box: read its corners where indices lie.
                corners = corner_vote(self.heads, grey, boxes[i])
                if corners is not None:
                    p = p * corners ** self.corner_weight
                elif self.faceless and max(boxes[i, 2] - boxes[i, 0],
                                           boxes[i, 3] - boxes[i, 1]) >= self.faceless:
                    # No index in the box nor in its corners, the classifier unsure, and the
                    # card large enough that its indices would be found: mostly a card back.
                    blank.append(i)
            if self.pip_suits is not None and (pv := self.pip_suits.vote(frame, boxes[i])) \
                    is not None:
                p = p * pv  # the suit within its colour, from the pips
            p = p / max(float(p.sum()), 1e-12)
            c = int(p.argmax())
            names.append(c)
            scores.append(float(np.sqrt(cardness[i] * p[c])))
            dists.append(p)
        if self.alike:
            # A card's index lies by a corner; one in the middle of the box is the back's art
            # (a large letter), not that card's index.
            cornered = [any(off_centre(boxes[i], r.box) for r in inside.get(i, []))
                        for i in range(len(boxes))]
            blank.extend(alike_backs(boxes, dists, [not c for c in cornered], self.decks))
        merged = Detections(boxes, np.asarray(scores, np.float32), np.asarray(names, np.int64))
        from vision.readers.detector import merge_physical_cards_kept

        sure = np.flatnonzero(merged.confidence >= min_conf)
        sure = sure[~np.isin(sure, blank)]
        merged, kept = merge_physical_cards_kept(merged[sure])
        src = sure[kept]
        merged = one_per_deck(merged, [dists[i] for i in src], cardness[src], self.decks,
                              min_conf)
        extra = fuse_cards(loose, None, decks=self.decks,
                           min_conf=max(min_conf, self.loose_conf))
        seen = set(merged.labels)
        if len(extra):
            extra = extra[np.array([c not in seen for c in extra.labels], bool)]
        if len(extra):
            merged = Detections(np.concatenate([merged.xyxy, extra.xyxy]),
                                np.concatenate([merged.confidence, extra.confidence]),
                                np.concatenate([merged.class_id, extra.class_id]))
        readings = loose + [r for rs in inside.values() for r in rs]
        if used is not None:
            used.extend(readings)
        return own_boxes(merged, readings)


def same_ink(frame: np.ndarray, card: Sequence[float] | np.ndarray,
             readings: list[IndexReading], probs: np.ndarray) -> list[IndexReading]:
    """The ``readings`` inside the ``card`` box of ``frame`` (BGR) but those of another
    card's index, by two witnesses: its ink cannot be the ink of the box's pips
    (`pip_suits.tints_clash`), and it reads the other colour than the crop classifier does
    for the box (``probs``: 52, as `CARD_CODES`). All of them where the box shows no
    pips."""
    from vision.readers.pip_suits import box_crop, ink_tint, pip_tint, tints_clash

    red = _red_share(probs)
    # (the colours first: they cost nothing, and most boxes' indices read the classifier's)
    other = [(_red_share(vote(r)) - 0.5) * (red - 0.5) < 0 for r in readings]
    if not any(other):
        return readings
    pips = pip_tint(box_crop(frame, card))
    if pips is None:
        return readings
    kept = []
    for r, against in zip(readings, other, strict=True):
        tint = ink_tint(box_crop(frame, r.box)) if against else None
        if tint is None or not tints_clash(pips, tint):
            kept.append(r)
    return kept


def two_inks(frame: np.ndarray, r: IndexReading) -> bool:
    """Whether the rank and the suit sign of index reading ``r`` in ``frame`` (BGR) are
    printed in inks that cannot be one card's (`pip_suits.glyph_tints`, `tints_clash`)."""
    from vision.readers.pip_suits import box_crop, glyph_tints, tints_clash

    rank, suit = glyph_tints(box_crop(frame, r.box), r.orient)
    return rank is not None and suit is not None and tints_clash(rank, suit)


def _red_share(probs: np.ndarray) -> float:
    """The share of 52 card probabilities (as `CARD_CODES`, suit-major) on red cards."""
    by_suit = probs.reshape(4, 13).sum(axis=1)  # C D H S
    return float((by_suit[1] + by_suit[2]) / max(float(by_suit.sum()), 1e-12))


def in_frame(dets: Detections, width: int, height: int) -> Detections:
    """The cards with their boxes cut to the frame: a card the frame's edge cuts is reported
    where it shows, not where the index implies the rest of it lies."""
    if not len(dets):
        return dets
    xyxy = dets.xyxy.copy()
    xyxy[:, [0, 2]] = np.clip(xyxy[:, [0, 2]], 0, width)
    xyxy[:, [1, 3]] = np.clip(xyxy[:, [1, 3]], 0, height)
    return Detections(xyxy, dets.confidence, dets.class_id)


def spread_gap_boxes(sure: Sequence[IndexReading]) -> list[tuple[float, float, float, float]]:
    """Boxes where indices of a spread should lie between indices read surely (see
    `IndexReader.spread_gaps`): for each pair alike in size (each side within a third) and
    way up, with no other of them between them within 0.3 index sizes of the line through
    their centres, the spacing is the distance from either of them to the nearest other one
    beyond it on that line; where the pair lies 2-8 spacings apart (within a quarter of a
    step), a box is interpolated at each step between them."""
    c = np.array([[(r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2] for r in sure])
    wh = np.array([[r.box[2] - r.box[0], r.box[3] - r.box[1]] for r in sure])
    orient = np.array([r.orient for r in sure])
    out: list[tuple[float, float, float, float]] = []
    for i, a in enumerate(sure):
        for k in range(i + 1, len(sure)):
            b = sure[k]
            ratio = wh[i] / np.maximum(wh[k], 1e-6)
            if orient[i] != orient[k] or not np.all((ratio > 0.75) & (ratio < 1.33)):
                continue
            v = c[k] - c[i]
            gap = float(np.hypot(v[0], v[1]))
            size = float(wh[i].mean() + wh[k].mean()) / 2
            if gap < 1.5 * size:
                continue
            u = v / gap
            rel = c - c[i]
            t = rel @ u
            line = (orient == orient[i]) & (np.abs(rel @ np.array([-u[1], u[0]])) <= 0.3 * size)
            line[[i, k]] = False
            if np.any(line & (t > 0) & (t < gap)):
                continue  # an index read between them: no gap here
            beyond = np.concatenate([-t[line & (t < 0)], t[line & (t > gap)] - gap])
            beyond = beyond[(beyond > 0.5 * size) & (beyond < gap - 0.5 * size)]
            if not len(beyond):
                continue
            steps = gap / float(beyond.min())
            n = round(steps)
            if n < 2 or n > 8 or abs(steps - n) > 0.25:
                continue
            for m in range(1, n):
                f = m / n
                x1, y1, x2, y2 = (a.box[q] + f * (b.box[q] - a.box[q]) for q in range(4))
                out.append((x1, y1, x2, y2))
    return out


def foot_grown(box: Sequence[float], orient: int, width: float, height: float
               ) -> tuple[float, float, float, float]:
    """``box`` grown by ``REGROW`` of its length toward the foot of an index whose top points
    ``orient`` quarter turns clockwise from up (0: down the frame, 1: left, 2: up, 3: right),
    kept inside a ``width`` x ``height`` frame."""
    x1, y1, x2, y2 = (float(v) for v in box)
    dx, dy = REGROW * (x2 - x1), REGROW * (y2 - y1)
    if orient % 4 == 0:
        y2 += dy
    elif orient % 4 == 1:
        x1 -= dx
    elif orient % 4 == 2:
        y1 -= dy
    else:
        x2 += dx
    return max(x1, 0.0), max(y1, 0.0), min(x2, float(width)), min(y2, float(height))


def surest_of_each(readings: Sequence[IndexReading], iou: float = 0.5) -> list[IndexReading]:
    """The readings less those of a box that boxes the same index as a reading read more
    surely (IoU at least ``iou``: the coarse and full looks at one index); in their order."""
    if len(readings) < 2:
        return list(readings)
    from vision.readers.detector import nms

    boxes = np.array([r.box for r in readings], np.float32)
    sureness = np.array([r.confidence for r in readings], np.float32)
    return [readings[i] for i in sorted(int(k) for k in nms(boxes, sureness, iou))]


def off_centre(card: Sequence[float] | np.ndarray, index: Sequence[float] | np.ndarray,
               middle: float = 0.25) -> bool:
    """Whether an index box's centre lies outside the middle of a card box (within
    ``middle`` of its width and height from the box's centre), where a card's own corner
    index is."""
    cx, cy = (card[0] + card[2]) / 2, (card[1] + card[3]) / 2
    ix, iy = (index[0] + index[2]) / 2, (index[1] + index[3]) / 2
    return bool(abs(ix - cx) > middle * (card[2] - card[0])
                or abs(iy - cy) > middle * (card[3] - card[1]))


def past_edges(card: Sequence[float] | np.ndarray, width: int, height: int,
               edge: float = 2.0) -> np.ndarray:
    """A card box the frame's edge cuts, grown past that edge to as long as its other side:
    the card goes on out of sight, so its middle (`off_centre`) and corners (`by_a_corner`)
    lie further out (the held-out dark 5♥ cut by the right edge at 101 of its some 200 px:
    its own index, 25 px from the box's left side, was taken for art in the card's middle,
    and the card left unread)."""
    b = np.array(card, np.float64)
    w, h = b[2] - b[0], b[3] - b[1]
    if w < h and b[0] <= edge:
        b[0] = b[2] - h
    elif w < h and b[2] >= width - edge:
        b[2] = b[0] + h
    if h < w and b[1] <= edge:
        b[1] = b[3] - w
    elif h < w and b[3] >= height - edge:
        b[3] = b[1] + w
    return b


def cornered(card: Sequence[float] | np.ndarray, code: str,
             readings: Sequence[IndexReading], min_index: float = 0.5) -> bool:
    """Whether an index of ``code`` (is-index at least ``min_index``) lies in a card box by a
    corner, where that card's own index is (`by_a_corner`): not a large letter or picture
    in the middle of the card, not the crop classifier's word alone."""
    for r in readings:
        if r.code != code or r.is_index < min_index:
            continue
        cx, cy = (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2
        if (card[0] - 2 <= cx <= card[2] + 2 and card[1] - 2 <= cy <= card[3] + 2
                and by_a_corner(card, r.box)):
            return True
    return False


def by_a_corner(card: Sequence[float] | np.ndarray, index: Sequence[float] | np.ndarray,
                share: float = 0.5, near: float = 0.15) -> bool:
    """Whether an index box could be a corner index of a card box: its longer side at most
    ``share`` of the card box's (an index is 0.18-0.30 of its card's height, `INDEX_SHARE`),
    and its centre outside the middle of the box (`off_centre`) or the box itself within
    ``near`` of the card's width and height from a corner (a large index, close up)."""
    cw, ch = card[2] - card[0], card[3] - card[1]
    if max(index[2] - index[0], index[3] - index[1]) > share * max(cw, ch):
        return False
    if off_centre(card, index):
        return True
    gx = min(index[0] - card[0], card[2] - index[2])
    gy = min(index[1] - card[1], card[3] - index[3])
    return bool(gx <= near * cw and gy <= near * ch)


def alike_backs(boxes: np.ndarray, dists: Sequence[np.ndarray], indexless: Sequence[bool],
                decks: int = 1) -> list[int]:
    """Card boxes that are card backs by the deck's own rule: a deck holds each card once
    (``decks`` times with more decks), so when more card boxes than that, apart from one
    another (no box's centre inside another), are read as the same card by the crop
    classifier alone (``indexless``: no index found inside, or only in the middle of the box),
    they are alike cards of no face: the backs of face-down cards (a back printed with a
    large letter reads as that card)."""
    from collections import defaultdict

    groups: dict[int, list[int]] = defaultdict(list)
    for i, (p, none) in enumerate(zip(dists, indexless, strict=True)):
        if none:
            groups[int(np.argmax(p))].append(i)
    out: list[int] = []
    for members in groups.values():
        if len(members) <= decks:
            continue
        b = boxes[members]
        centres = np.column_stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2])
        held = np.array([within(box, centres, 0.0) for box in b])  # [k, j]: j's centre in k
        np.fill_diagonal(held, False)
        if int((~held.any(axis=0)).sum()) > decks:
            out.extend(members)
    return out


def within(box: Sequence[float] | np.ndarray, pts: np.ndarray, pad: float = 2.0) -> np.ndarray:
    """Which of the points ``pts`` (N, 2) lie in ``box`` grown by ``pad`` pixels."""
    return np.asarray((box[0] - pad <= pts[:, 0]) & (pts[:, 0] <= box[2] + pad)
                      & (box[1] - pad <= pts[:, 1]) & (pts[:, 1] <= box[3] + pad))


def own_boxes(dets: Detections, readings: Sequence[IndexReading], min_index: float = 0.5
              ) -> Detections:
    """Each card's box cut down to that card where it also covers cards lying on it or under
    it (a whole-card box drawn around an overlapped spread or pile, or the card an index
    implies reaching under its neighbours).

    A card's own indices are the readings of its code centred in its box. Where the box also
    holds an index of another card read in the frame, it shrinks to the card its own indices
    imply (`implied_card_box`), and then leaves out the other card where that card's index
    implies it lies, unless the own index lies there too (that card is the one covered):
    cut from the side that keeps the most of the box with its own indices whole."""
    if len(dets) < 2:
        return dets
    rs = [r for r in readings if r.is_index >= min_index]
    if not rs:
        return dets
    centres = np.array([((r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2) for r in rs])
    index_boxes = np.array([r.box for r in rs], np.float64).reshape(-1, 4)
    codes = [r.code for r in rs]
    boxes = dets.xyxy.astype(np.float64)
    labels = dets.labels
    owner = np.full(len(rs), -1)
    for k in np.argsort(-dets.confidence):
        mine = within(boxes[k], centres) & (owner < 0)
        mine &= np.array([c == labels[k] for c in codes], bool)
        owner[mine] = k
    out = boxes.copy()
    for k in range(len(dets)):
        b = boxes[k].copy()
        others = np.flatnonzero((owner >= 0) & (owner != k) & within(b, centres, 0.0))
        if not len(others):
            continue
        own = np.flatnonzero(owner == k)
        if len(own):
            implied = np.array([implied_card_box(rs[i].box, rs[i].orient) for i in own])
            cut = np.array([max(b[0], implied[:, 0].min()), max(b[1], implied[:, 1].min()),
                            min(b[2], implied[:, 2].max()), min(b[3], implied[:, 3].max())])
            if cut[2] > cut[0] and cut[3] > cut[1] and holds(cut, index_boxes[own]):
                b = cut
        for i in others:
            o = np.array(implied_card_box(rs[i].box, rs[i].orient))
            if len(own) and within(o, centres[own], 0.0).any():
                continue  # this card lies on top of the other one's covered part
            best, area = None, 0.0
            for side, edge in ((2, o[0]), (0, o[2]), (3, o[1]), (1, o[3])):
                lo, hi = (b[0], b[2]) if side in (0, 2) else (b[1], b[3])
                if not lo < edge < hi:
                    continue
                t = b.copy()
                t[side] = edge
                if len(own) and not holds(t, index_boxes[own]):
                    continue
                if within(t, centres[i:i + 1], 0.0)[0]:
                    continue
                a = (t[2] - t[0]) * (t[3] - t[1])
                if a > area:
                    best, area = t, a
            if best is not None:
                b = best
        out[k] = b
    return Detections(out.astype(np.float32), dets.confidence, dets.class_id)


def read_otherwise(code: str, card: Sequence[float] | np.ndarray,
                   readings: Sequence[IndexReading], framed: Sequence[IndexReading],
                   min_index: float = 0.5) -> bool:
    """Whether the frame's own look (``framed``) read an index of the card ``code`` in the
    box ``card`` (its indices among ``readings``, the negative's) as another code, or read
    none of them: the negative's card then stands only where no card of the frame lies."""
    from vision.readers.detector import iou_matrix

    own = np.array([r.box for r in readings if r.code == code and r.is_index >= min_index
                    and within(card, np.array([[(r.box[0] + r.box[2]) / 2,
                                                (r.box[1] + r.box[3]) / 2]]))[0]],
                   np.float32).reshape(-1, 4)
    if not len(own):
        return True
    same = np.array([r.box for r in framed if r.code == code and r.is_index >= min_index],
                    np.float32).reshape(-1, 4)
    other = np.array([r.box for r in framed if r.code != code and r.is_index >= min_index],
                     np.float32).reshape(-1, 4)

    def found(boxes: np.ndarray) -> bool:  # (one index boxed alike in both looks)
        return bool(len(boxes) and (iou_matrix(boxes, own) >= 0.5).any())

    return not found(same) or found(other)


def holds(box: Sequence[float] | np.ndarray, boxes: np.ndarray, pad: float = 2.0) -> bool:
    """Whether ``box`` grown by ``pad`` pixels holds each of ``boxes`` (N, 4) whole."""
    return bool(((boxes[:, 0] >= box[0] - pad) & (boxes[:, 2] <= box[2] + pad)
                 & (boxes[:, 1] >= box[1] - pad) & (boxes[:, 3] <= box[3] + pad)).all())


def one_per_deck(dets: Detections, dists: Sequence[np.ndarray], cardness: np.ndarray,
                 decks: int, min_conf: float) -> Detections:
    """Each code at most ``decks`` times: where more cards than that are read as one code,
    the surer keep it and each other one takes its next likeliest code still free (its
    probability ``dists``, 52, times its ``cardness``, as it was scored), or goes when that is
    below ``min_conf``. A 6♦ read as 9♦ beside the real 9♦ becomes 6♦ again, not a second
    9♦."""
    if len(dets) <= 1:
        return dets
    used: dict[int, int] = {}
    rows, names, scores = [], [], []
    for k in np.argsort(-dets.confidence):
        p = np.array(dists[k], np.float64)
        for code, n in used.items():
            if n >= decks:
                p[code] = 0.0
        c = int(p.argmax())
        score = float(np.sqrt(cardness[k] * p[c]))
        if p[c] <= 0 or (c != int(dets.class_id[k]) and score < min_conf):
            continue
        used[c] = used.get(c, 0) + 1
        rows.append(int(k))
        names.append(c)
        scores.append(score if c != int(dets.class_id[k]) else float(dets.confidence[k]))
    if not rows:
        return Detections.empty()
    return Detections(dets.xyxy[rows], np.asarray(scores, np.float32),
                      np.asarray(names, np.int64))


def as_light_face(frame: np.ndarray, paper: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """The frame as a deck printed in ``ink`` on ``paper`` is read: as it is when the ink is
    the darker (as the models know cards), else in negative, where a deck printed gold on black
    shows dark ink on a light face. (Measured on the held-out design printed gold on black,
    the index reader: 0.34 of the cards in the frame as it is, 0.52 in negative, 0.52 with each
    pixel mapped from paper-to-ink onto white-to-black.)"""
    if luma(paper) <= luma(ink):
        return 255 - frame
    return frame


def surely_read(readings: Sequence[IndexReading], min_conf: float) -> np.ndarray:
    """(N, 4) the boxes of the ``readings`` read at ``min_conf`` or more."""
    return np.array([r.box for r in readings if r.confidence >= min_conf],
                    np.float32).reshape(-1, 4)


def levelled(frame: np.ndarray, below: float) -> np.ndarray | None:
    """``frame`` (BGR) with its grey levels stretched so that the 1st percentile is black
    and the 99.5th white, where they lie less than ``below`` apart (a dim or flat frame:
    a dark room, a grey webcam); None otherwise. Every channel is stretched alike, so a
    red suit stays red."""
    lo, hi = grey_percentiles(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (1.0, 99.5))
    if hi - lo >= below:
        return None
    gain = 255.0 / max(hi - lo, 1.0)
    return np.clip((frame.astype(np.float32) - lo) * gain, 0, 255).astype(np.uint8)


#: The unsharp mask's blur (`sharpened`), in the localiser's input pixels: about the soft
#: focus of a cheap webcam (the rendered webcam frames' 0.8-1.8 px).
SHARPEN_SIGMA = 1.5


def sharpened(frame: np.ndarray, amount: float, imgsz: int = 640) -> np.ndarray:
    """``frame`` (BGR) with its edges sharpened: an unsharp mask, the frame plus ``amount``
    times its difference from itself blurred by ``SHARPEN_SIGMA`` pixels as the localiser
    sees it (read at ``imgsz`` on its longer side; a smaller frame, at its own scale)."""
    sigma = SHARPEN_SIGMA * max(1.0, max(frame.shape[:2]) / imgsz)
    f = frame.astype(np.float32)
    soft = cv2.GaussianBlur(f, (0, 0), sigma)
    return np.clip(f + amount * (f - soft), 0, 255).astype(np.uint8)


def grey_percentiles(grey: np.ndarray, qs: Sequence[float]) -> list[float]:
    """``np.percentile(grey, qs)`` (its linear method, to the last bit) for a uint8 picture,
    from its 256-bin histogram instead of a sort: 2 ms instead of 120 for a 12-megapixel
    photo, every one of which `levelled` looks at."""
    cum = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel().astype(np.int64))
    n = int(cum[-1])
    out = []
    for q in qs:
        pos = (n - 1) * (float(q) / 100)
        k = math.floor(pos)
        t = pos - k
        # The k-th and (k+1)-th smallest levels (0-based): the first whose count passes k.
        a = float(np.searchsorted(cum, k, side="right"))
        b = float(np.searchsorted(cum, min(k + 1, n - 1), side="right"))
        out.append(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)
    return out


def luma(bgr: np.ndarray) -> float:
    """The brightness of a BGR colour (Rec. 601 weights)."""
    return float(np.dot(np.asarray(bgr, np.float32), [0.114, 0.587, 0.299]))


#: Which look of `IndexReader.index_looks` found an index box: the frame itself (and a large
#: photo's tiles), the coarse look, or a small frame's magnified tiles alone.
FULL_LOOK, COARSE_LOOK, MAGNIFIED_LOOK = 0, 1, 2

#: The least longer side, in the localiser's input pixels, of an index box taken from the
#: coarse look (`IndexReader.index_looks`): larger than nearly every index the localiser
#: learnt (at its training size, 99% of the rendered scenes' index boxes and 95% of the real
#: photos' are smaller), where the full look finds them poorly. Real close-ups held out by
#: time read alike with 32, 48, 64, 80 and 96; below 80 the coarse look also re-boxed
#: ordinary indices in piles (models/INDEX.md, "Twelfth session").
COARSE_PX = 96.0

#: How much a card read in a dim frame's levelled look (`levelled`) or a small frame's
#: sharpened look (`sharpened`) may overlap a card the frame itself read (intersection over
#: union) and still be another card: above it, the two are one card read two ways, and the
#: frame's reading stands.
SAME_CARD_IOU = 0.5


def overlapped(a: np.ndarray, b: np.ndarray, share: float = 0.3) -> np.ndarray:
    """For each box of ``b``, whether a box of ``a`` covers more than ``share`` of the
    smaller of the two."""
    if not len(a) or not len(b):
        return np.zeros(len(b), bool)
    iw = (np.minimum(a[None, :, 2], b[:, None, 2]) - np.maximum(a[None, :, 0], b[:, None, 0]))
    ih = (np.minimum(a[None, :, 3], b[:, None, 3]) - np.maximum(a[None, :, 1], b[:, None, 1]))
    inter = iw.clip(0) * ih.clip(0)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    smaller = np.minimum(area_a[None, :], area_b[:, None]).clip(1e-6)
    return np.asarray((inter / smaller > share).any(axis=1))


def _starts(length: int, span: float, step: float) -> list[float]:
    """Where tiles of ``span`` start along a side of ``length``, ``step`` apart, the last one
    ending at the side's end."""
    if length <= span:
        return [0.0]
    n = int(np.ceil((length - span) / step))
    return [min(i * step, length - span) for i in range(n + 1)]


#: Whether each code of `CARD_CODES` is a court card (J, Q, K), and each rank of `RANKS`.
COURT_CODES = np.array([c[0] in "JQK" for c in CARD_CODES])
COURT_RANKS = np.array([r in "JQK" for r in RANKS])
#: How surely the crop classifier must call a card box a court card (its probabilities'
#: share on the 12 courts), and at most what share it may give the courts where it surely is
#: not one, for an index read as the other kind inside it to be taken for another card's
#: (`other_kind`). Rendered zone views of five rounds (seeds 100-104, one frame a second) on
#: the demo's deck and the held-out designs dondorf and tigullio-international, 1,534 boxes
#: over one card: a card other than a court had a share of 0.60 at most; a court card one of
#: 0.31 at least (a deck the classifier never saw: its courts are taken for pips more readily
#: than pips for courts). At 0.7 and 0.2, 1,411 boxes are judged and none wrongly.
COURT_SURE, PIPS_SURE = 0.7, 0.2


def other_kind(readings: list[IndexReading], probs: np.ndarray
               ) -> tuple[list[IndexReading], list[IndexReading]]:
    """The indices read inside one whole-card box, split into those of the kind the crop
    classifier's ``probs`` (52) read the box as, and those it surely rules out: read as a
    pip card where the box is surely a court card, or as a court card where it surely is not
    (another card's index in the box, or an index misread: a small Q read as an 8)."""
    total = float(probs.sum())
    if not readings or total <= 0:
        return readings, []
    court = float(probs[COURT_CODES].sum()) / total
    if PIPS_SURE < court < COURT_SURE:
        return readings, []
    own = [r for r in readings if bool(COURT_RANKS[int(r.rank.argmax())]) == (court >= COURT_SURE)]
    return own, [r for r in readings if not any(r is o for o in own)]


def courts_pooled(probs: np.ndarray) -> np.ndarray:
    """The crop classifier's 52 probabilities with those of each suit's three court cards
    made equal (their mean): the box's kind and suit as the classifier reads them, with no
    word on which court it is."""
    out = np.array(probs, np.float64, copy=True).reshape(4, 13)  # suit-major, as `vote`
    out[:, COURT_RANKS] = out[:, COURT_RANKS].mean(axis=1, keepdims=True)
    return out.reshape(-1)


#: The least summed court share of the ranks of the indices read as pips in a box the crop
#: classifier surely calls a court card for them to say which court it is (`court_hint`).
#: Zone views of the held-out tigullio deck: its J indices misread as 5 or 7 keep 0.03-0.37 of
#: their rank on J, Q and K, most of it on J; other cards' indices there, 0.002-0.02.
COURT_HINT_MIN = 0.02


def court_hint(readings: Sequence[IndexReading]) -> np.ndarray | None:
    """Which court a box the crop classifier surely calls a court card is, from the indices
    inside it read as pips (`other_kind`): the heads' rank probabilities on J, Q and K, summed
    over them, as factors on the 52 codes (1 on the pip cards, a mean of 1 over each suit's
    courts); None where they hold too little (`COURT_HINT_MIN`). On a deck the heads never
    saw, a J may be read as a 7 yet still look more like a J than a Q or a K."""
    part = np.zeros(int(COURT_RANKS.sum()))
    for r in readings:
        part += np.asarray(r.rank, np.float64)[COURT_RANKS]
    if part.sum() < COURT_HINT_MIN:
        return None
    out = np.ones((4, 13))
    out[:, COURT_RANKS] = part.size * part / part.sum()
    return out.reshape(-1)


def reads_a_court(readings: Sequence[IndexReading]) -> bool:
    """Whether one of ``readings`` reads a court rank (J, Q or K, its rank's argmax)."""
    return any(bool(COURT_RANKS[int(r.rank.argmax())]) for r in readings)


def reads_another_court(readings: Sequence[IndexReading], probs: np.ndarray) -> bool:
    """Whether one of ``readings`` reads a court rank other than that of the court card the
    crop classifier's ``probs`` (52) favour: then the indices, not the classifier, say which
    court a box is (`IndexReader` ``courts_by_index``). Where they read the classifier's
    rank, its probabilities stand as they are, the suit's with them."""
    rank = int(np.flatnonzero(COURT_CODES)[int(np.argmax(probs[COURT_CODES]))]) % 13
    return any(bool(COURT_RANKS[a]) and a != rank
               for a in (int(r.rank.argmax()) for r in readings))


def vote(r: IndexReading) -> np.ndarray:
    """One index's reading as 52 probabilities (suit-major, as `CARD_CODES`)."""
    return np.outer(r.suit, r.rank).reshape(-1)


def split_box(readings: list[IndexReading], probs: np.ndarray
              ) -> tuple[list[IndexReading], list[list[IndexReading]]]:
    """The indices read inside one whole-card box, split into the box's own card and the
    indices of other cards (a box the detector drew around a pile or a spread).

    Readings group by the code they read; one card's two corners read two ways (two readings
    pointing opposite ways: a card's corners are a half turn apart, a spread's all alike) stay
    one card. The box keeps the group whose code the crop classifier's ``probs`` (52) and
    its indices name most surely; the other groups (one per code) are cards of their own."""
    codes = {r.code for r in readings}
    two_corners = len(readings) == 2 and (readings[0].orient - readings[1].orient) % 4 == 2
    if len(codes) < 2 or two_corners:
        return readings, []
    by: dict[str, list[IndexReading]] = {}
    for r in readings:
        by.setdefault(r.code, []).append(r)

    q = probs / max(float(probs.sum()), 1e-12)
    # The classifier's word for each group's code (0.1 so a classifier that names none of them
    # leaves it to the indices), times how surely its indices read.
    score = {c: (float(q[CARD_CODES.index(c)]) + 0.1) * sum(r.confidence for r in g)
             for c, g in by.items()}
    own = max(score, key=lambda c: score[c])
    return by[own], [g for c, g in by.items() if c != own]


def upright_cut(frame: np.ndarray, box: Sequence[float] | np.ndarray, orient: int,
                margin: float = 0.1) -> np.ndarray:
    """The index box (grown by ``margin``) cut from the frame in colour, turned upright."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    fh, fw = frame.shape[:2]
    a, b = max(0, int(x1 - margin * w)), max(0, int(y1 - margin * h))
    c, d = min(fw, int(np.ceil(x2 + margin * w))), min(fh, int(np.ceil(y2 + margin * h)))
    cut = frame[b:max(d, b + 2), a:max(c, a + 2)]
    return np.ascontiguousarray(np.rot90(cut, orient))
