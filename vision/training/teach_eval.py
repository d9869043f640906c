"""What `companion teach-deck` gains, measured on rendered decks: teach on one rendered photo
per card, then read other rendered scenes of that deck with and without the profile.

``python -m vision.training.teach_eval [--remap] [DECK...]`` measures the whole-card
detector's profile (`vision.readers.teach`); with ``--index``, the index reader's refitted
layers (`vision.readers.teach_index`), and with ``--index --gold`` the deck printed black
with gold ink. Default decks: dondorf, tigullio-international.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.readers.detector import CardDetector
from vision.readers.index_reader import IndexReader
from vision.readers.teach import DEFAULT_CONF, MIN_CONF, teach_from_folder
from vision.readers.teach_index import teach

#: A deck printed black with gold ink (every suit gold), the kind of deck the whole-card
#: reader proposed nothing on: ``--gold`` recolours the taught and read deck so.
GOLD = (np.array([20.0, 18.0, 16.0], np.float32), np.array([60.0, 185.0, 225.0], np.float32))


def render_teaching_photos(rng: np.random.Generator, deck: str, folder: Path,
                           style: tuple[np.ndarray, np.ndarray] | None = None) -> None:
    """One rendered photo of each card of ``deck`` (``QH.jpg`` ...), as a user shows them;
    ``style`` (paper, ink) recolours the deck."""
    from vision.training.scenes import render_scene

    for code in CARD_CODES:
        s = render_scene(rng, [deck], size=640, kind="scatter", codes=[code],
                         card_height=float(rng.uniform(150, 260)), style=style)
        cv2.imwrite(str(folder / f"{code}.jpg"), s.image)


def measure(deck: str, scenes: int = 60, seed: int = 5, model: str | None = None,
            remap: bool = False) -> dict[str, float]:
    """Teach on one photo per card of a rendered ``deck``, then compare precision and recall
    (IoU >= 0.5, right card) on other rendered scenes of that deck with and without the
    profile. Returns the four figures and the profile size."""
    import tempfile

    from vision.training.detector_eval import _match
    from vision.training.scenes import render_scene

    rng = np.random.default_rng(seed)
    with tempfile.TemporaryDirectory() as tmp:
        render_teaching_photos(rng, deck, Path(tmp))
        profile = teach_from_folder(tmp, model=model, remap=remap)
    det = CardDetector(model, conf=MIN_CONF)
    counts = {"base": [0, 0], "taught": [0, 0]}
    n_gt = 0
    for _ in range(scenes):
        s = render_scene(rng, [deck], size=640)
        gb = np.array([b for _, b in s.cards], np.float64).reshape(-1, 4)
        gc = np.array([CARD_CODES.index(c) for c, _ in s.cards], np.int64)
        n_gt += len(gc)
        raw = det.detect(s.image)
        base = raw[raw.confidence >= DEFAULT_CONF]
        for key, d in (("base", base), ("taught", profile.apply(raw))):
            m = _match(d.xyxy.astype(np.float64), d.class_id, d.confidence, gb, gc, 0.5)
            counts[key][0] += int(m.sum())
            counts[key][1] += len(m)
    out: dict[str, float] = {"cards": float(n_gt), "remapped": float(len(profile.remap)),
                             "lowered": float(sum(v < DEFAULT_CONF
                                                  for v in profile.thresholds.values()))}
    for key, (tp, npred) in counts.items():
        out[f"{key}_precision"] = tp / max(npred, 1)
        out[f"{key}_recall"] = tp / max(n_gt, 1)
    return out


def measure_index(deck: str, scenes: int = 60, seed: int = 5,
                  style: tuple[np.ndarray, np.ndarray] | None = None) -> dict[str, float]:
    """Teach on one rendered photo per card of ``deck`` (recoloured by ``style``), then read
    other rendered scenes of that deck with and without the profile: card-level precision and
    recall for both."""
    import tempfile

    from vision.training.detector_eval import _match
    from vision.training.scenes import render_scene

    rng = np.random.default_rng(seed)
    with tempfile.TemporaryDirectory() as tmp:
        render_teaching_photos(rng, deck, Path(tmp), style)
        profile = teach(tmp)
    # As photos are read (a deck light on dark is also read in negative untaught).
    base = IndexReader(ocr=False, negative=True)
    taught = IndexReader(ocr=False, negative=True, deck=profile)
    counts = {"base": [0, 0], "taught": [0, 0]}
    n_gt = 0
    for _ in range(scenes):
        s = render_scene(rng, [deck], size=640, style=style)
        gb = np.array([b for _, b in s.cards], np.float64).reshape(-1, 4)
        gc = np.array([CARD_CODES.index(c) for c, _ in s.cards], np.int64)
        n_gt += len(gc)
        for key, reader in (("base", base), ("taught", taught)):
            d = reader.detect(s.image)
            m = _match(d.xyxy.astype(np.float64), d.class_id, d.confidence, gb, gc, 0.5,
                       place=True)
            counts[key][0] += int(m.sum())
            counts[key][1] += len(m)
    out: dict[str, float] = {"cards": float(n_gt)}
    for key, (tp, npred) in counts.items():
        out[f"{key}_precision"] = tp / max(npred, 1)
        out[f"{key}_recall"] = tp / max(n_gt, 1)
    return out


if __name__ == "__main__":
    import sys

    if "-h" in sys.argv or "--help" in sys.argv:
        print(__doc__)
        raise SystemExit(0)
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    with_remap = "--remap" in sys.argv
    for name in args or ["dondorf", "tigullio-international"]:
        style = GOLD if "--gold" in sys.argv else None
        figures = (measure_index(name, style=style) if "--index" in sys.argv
                   else measure(name, remap=with_remap))
        print(name, json.dumps({k: round(v, 3) for k, v in figures.items()}))
