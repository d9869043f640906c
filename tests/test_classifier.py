"""The card-identity classifier (detect-then-classify, stage two): runtime, names check, and
rendered cards read back with the committed ONNX model. Never trains.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from deck_helpers import needs_decks  # noqa: E402

from companion.cards import CARD_CODES  # noqa: E402
from vision.readers.classifier import (  # noqa: E402
    CardClassifier,
    ClassifierNamesError,
    crop_patch,
    default_model_path,
)
from vision.render import decks  # noqa: E402

MODEL = default_model_path()
needs_model = pytest.mark.skipif(not MODEL.exists(), reason="models/card_classifier.onnx absent")


@pytest.fixture(scope="module")
def clf() -> CardClassifier:
    return CardClassifier()


def _table_with_cards(deck: str, codes: list[str], height: int = 150, quarter_turns: int = 0
                      ) -> tuple[Any, list[list[float]]]:
    """Cards side by side on a plain green cloth, with their boxes."""
    gap = 30
    cards = [np.rot90(decks.render_card(deck, c, height), quarter_turns) for c in codes]
    w = sum(c.shape[1] for c in cards) + gap * (len(cards) + 1)
    h = max(c.shape[0] for c in cards) + 2 * gap
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:] = (40, 110, 30)
    boxes = []
    x = gap
    for c in cards:
        ch, cw = c.shape[:2]
        a = c[:, :, 3:4].astype(np.float32) / 255
        roi = frame[gap:gap + ch, x:x + cw].astype(np.float32)
        frame[gap:gap + ch, x:x + cw] = (roi * (1 - a) + c[:, :, :3] * a).astype(np.uint8)
        boxes.append([float(x), float(gap), float(x + cw), float(gap + ch)])
        x += cw + gap
    return frame, boxes


@needs_model
def test_meta_names_are_the_card_codes() -> None:
    meta = json.loads(MODEL.with_suffix(".json").read_text())
    assert tuple(meta["names"]) == CARD_CODES
    assert MODEL.stat().st_size < 5_000_000


@needs_model
def test_wrong_names_file_is_refused(tmp_path: Path) -> None:
    shutil.copy(MODEL, tmp_path / "m.onnx")
    meta = json.loads(MODEL.with_suffix(".json").read_text())
    meta["names"] = list(reversed(meta["names"]))
    (tmp_path / "m.json").write_text(json.dumps(meta))
    with pytest.raises(ClassifierNamesError):
        CardClassifier(tmp_path / "m.onnx")
    del meta["names"]
    (tmp_path / "m.json").write_text(json.dumps(meta))
    with pytest.raises(ClassifierNamesError):
        CardClassifier(tmp_path / "m.onnx")


@needs_model
def test_no_boxes(clf: CardClassifier) -> None:
    codes, scores = clf.classify(np.zeros((100, 100, 3), np.uint8), np.zeros((0, 4)))
    assert codes == [] and scores.shape == (0,)


@needs_model
@needs_decks
@pytest.mark.parametrize("deck, turns, misses", [("standard", 0, 1), ("standard", 1, 1),
                                                  ("bonded", 2, 2)])
def test_rendered_train_deck_cards_are_read(clf: CardClassifier, deck: str, turns: int,
                                            misses: int) -> None:
    if deck not in decks.available_decks():
        pytest.skip(f"{deck} not installed")
    codes = ["AS", "7H", "QD", "TC", "2S", "KH", "9D", "5C", "JS", "3H", "8C", "4D"]
    frame, boxes = _table_with_cards(deck, codes, quarter_turns=turns)
    got, scores = clf.classify(frame, boxes)
    assert len(got) == len(codes) and scores.shape == (len(codes),)
    assert ((scores > 0) & (scores <= 1)).all()
    right = sum(a == b for a, b in zip(got, codes, strict=True))
    assert right >= len(codes) - misses, list(zip(codes, got, strict=True))


def test_crop_patch_outside_the_frame_keeps_its_size() -> None:
    frame = np.full((50, 60, 3), 200, np.uint8)
    p = crop_patch(frame, [-20, -10, 30, 80], 96)
    assert p.shape == (96, 96, 3) and p.dtype == np.uint8
    assert crop_patch(frame, [100, 100, 120, 130], 32).shape == (32, 32, 3)


def test_runtime_does_not_import_torch() -> None:
    code = ("import sys, vision.readers.classifier, vision.training.eval_classifier; "
            "bad = {'torch', 'ultralytics', 'PySide6'} & set(sys.modules); "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True,
                   cwd=Path(__file__).resolve().parent.parent)


def test_scene_crops_cut_every_labelled_box(tmp_path: Path) -> None:
    """`train_classifier --scenes`: each labelled box of a YOLO-format scene becomes one crop
    with its class (the zone views of `vision.training.table_dataset`)."""
    from vision.training.train_classifier import build_yolo_crops

    (tmp_path / "v" / "images").mkdir(parents=True)
    (tmp_path / "v" / "labels").mkdir()
    img = np.full((120, 160, 3), 90, np.uint8)
    img[20:100, 30:80] = 250  # a white card
    cv2.imwrite(str(tmp_path / "v" / "images" / "a.jpg"), img)
    qh = CARD_CODES.index("QH")
    (tmp_path / "v" / "labels" / "a.txt").write_text(
        f"{qh} 0.34375 0.5 0.3125 0.6666\n{CARD_CODES.index('2C')} 0.8 0.2 0.1 0.2\n")
    (tmp_path / "v" / "images" / "b.jpg").write_bytes(b"")  # unreadable: skipped
    xs, ys = build_yolo_crops([tmp_path / "v"], variants=2, seed=0, workers=1)
    two = CARD_CODES.index("2C")
    assert xs.shape == (4, 96, 96, 3) and list(ys) == [qh, qh, two, two]
    assert xs[0].mean() > 200  # the crop holds the card
