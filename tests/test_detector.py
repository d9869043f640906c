"""The shipped card detector: names check, per-card merging, and rendered scenes read back.

Uses the committed weights (models/cards.onnx) with onnxruntime; never trains.
"""

from __future__ import annotations

import json
import shutil
from argparse import Namespace
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from deck_helpers import needs_decks  # noqa: E402

from companion.cards import CARD_CODES  # noqa: E402
from vision.detections import Detections  # noqa: E402
from vision.readers.detector import (  # noqa: E402
    CardDetector,
    ModelNamesError,
    default_model_path,
    merge_physical_cards,
)

MODEL = default_model_path()
needs_model = pytest.mark.skipif(not MODEL.exists(), reason="models/cards.onnx not present")


@pytest.fixture(scope="module")
def detector() -> CardDetector:
    return CardDetector()


def test_merge_same_card_inside_whole_card() -> None:
    qh = CARD_CODES.index("QH")
    d = Detections(np.array([[10, 10, 110, 150], [12, 12, 40, 50], [200, 10, 300, 150]]),
                   np.array([0.9, 0.6, 0.8]), np.array([qh, qh, qh]))
    m = merge_physical_cards(d)
    assert len(m) == 2  # the corner inside the first card merged; the second QH stays


def test_merge_two_readings_of_one_card() -> None:
    d = Detections(np.array([[10, 10, 110, 150], [11, 10, 110, 151]]), np.array([0.9, 0.5]),
                   np.array([CARD_CODES.index("6S"), CARD_CODES.index("9S")]))
    m = merge_physical_cards(d)
    assert m.labels == ["6S"]


@needs_model
def test_model_names_are_the_card_codes(detector: CardDetector) -> None:
    assert detector.names == CARD_CODES
    side = json.loads(MODEL.with_suffix(".json").read_text())
    assert tuple(side["names"]) == CARD_CODES


@needs_model
def test_wrong_names_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "cards.onnx"
    shutil.copyfile(MODEL, bad)
    info = json.loads(MODEL.with_suffix(".json").read_text())
    info["names"] = list(reversed(info["names"]))
    bad.with_suffix(".json").write_text(json.dumps(info))
    with pytest.raises(ModelNamesError):
        CardDetector(bad)


@needs_model
def test_empty_table_gives_no_cards(detector: CardDetector) -> None:
    from vision.training.scenes import table_surface

    for seed in range(3):
        img = table_surface(np.random.default_rng(seed), 480, 640)
        assert len(detector.detect(img)) == 0


def _read_back(detector: CardDetector, kind: str, codes: list[str], seed: int,
               deck: str) -> tuple[set[str], set[str], list[float]]:
    from vision.training.detector_eval import iou_matrix
    from vision.training.scenes import render_scene

    rng = np.random.default_rng(seed)
    scene = render_scene(rng, [deck], size=640, kind=kind, clean=True, codes=codes,
                         card_height=170)
    dets = detector.detect(scene.image)
    truth = {c for c, _ in scene.cards}
    found = set(dets.labels)
    ious = []
    for code, box in scene.cards:
        if code in found:
            row = dets[np.array(dets.labels) == code]
            ious.append(float(iou_matrix(np.array([box]), row.xyxy).max()))
    return truth, found, ious


@needs_model
@needs_decks
def test_scattered_cards_read_back_exactly(detector: CardDetector) -> None:
    codes = ["QH", "7C", "AS", "TD"]
    truth, found, ious = _read_back(detector, "scatter", codes, seed=SCATTER_SEED, deck="standard")
    assert truth == set(codes)
    assert found == truth
    assert min(ious) > 0.6  # boxes in image pixels, on the right card


@needs_model
@needs_decks
@pytest.mark.xfail(strict=False, reason=(
    "known limit of the shipped v1 weights (19 epochs on 2 CPU cores): in a tight pile only "
    "the top card is found; the lower cards' corner strips are not proposed (models/README.md)"))
def test_pile_with_only_corners_showing_read_back_exactly(detector: CardDetector) -> None:
    codes = ["5H", "9S", "KD", "3C"]
    truth, found, _ = _read_back(detector, "pile", codes, seed=PILE_SEED, deck="standard")
    assert truth == set(codes)  # every card of the pile shows at least its corner index
    assert found == truth


@needs_model
def test_detect_command_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.cli import run_detect

    img = np.full((240, 320, 3), 90, np.uint8)
    path = tmp_path / "a.jpg"
    cv2.imwrite(str(path), img)
    args = Namespace(images=[str(path)], json=True, annotate=str(tmp_path / "ann"), model=None,
                     imgsz=None, conf=None, deck=None, reader="auto")
    assert run_detect(args) == 0
    line = json.loads(capsys.readouterr().out.strip().splitlines()[0])
    assert line["image"] == str(path) and line["cards"] == [] and line["ms"] >= 0
    assert (tmp_path / "ann" / "a.jpg").exists()


def test_teach_profile_remaps_a_confused_card() -> None:
    from vision.readers.teach import DeckProfile, learn

    readings = [("QH", [("QD", 0.7)]), ("QD", [("QD", 0.9)]), ("5C", [("5C", 0.25)])]
    prof = learn(readings)
    assert prof.thresholds["5C"] < 0.25
    # QD is produced correctly for this deck, so QH->QD is not remapped (ambiguous);
    readings2 = [("QH", [("KH", 0.6)]), ("5C", [("5C", 0.9)])]
    prof2 = learn(readings2)
    assert prof2.remap == {"KH": "QH"}
    d = Detections(np.array([[0, 0, 10, 10]]), np.array([0.6]), np.array([CARD_CODES.index("KH")]))
    assert prof2.apply(d).labels == ["QH"]
    assert isinstance(DeckProfile.load, object)


SCATTER_SEED = 2
PILE_SEED = 1
