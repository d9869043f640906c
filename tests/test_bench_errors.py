"""The benchmarks' error list (`bench_reader_conditions.py --errors`), where legible cards are
lost (`bench_reader_losses.py`) and the legibility audit."""

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np

from companion.cards import CARD_CODES
from vision.training.scenes import Scene

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _script(name: str) -> ModuleType:
    """A benchmark script loaded from its file (the benchmarks are scripts, not installed)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _script("bench_reader_conditions")
error_kind, wrong_readings = bench.error_kind, bench.wrong_readings


def test_error_kind_names_what_went_wrong() -> None:
    codes = ["5S", "JH", "2C"]
    assert error_kind("5C", "5S", codes) == "suit"
    assert error_kind("KH", "JH", codes) == "rank"
    assert error_kind("9D", "5S", codes) == "both"
    assert error_kind("2C", "JH", codes) == "elsewhere"
    assert error_kind("JH", "JH", codes) == "box"
    assert error_kind("7D", None, codes) == "nothing"


def test_wrong_readings_name_the_card_under_each() -> None:
    scene = Scene(np.zeros((100, 200, 3), np.uint8),
                  [("5S", (0.0, 0.0, 50.0, 80.0)), ("JH", (100.0, 0.0, 150.0, 80.0))])
    boxes = np.array([[0, 0, 50, 80], [95, 5, 150, 80], [160, 85, 200, 100]], np.float64)
    read = np.array([CARD_CODES.index(c) for c in ("5S", "QH", "7D")])
    matched = np.array([True, False, False])
    assert wrong_readings(scene, boxes, read, matched) == [("QH", "JH", "rank"),
                                                           ("7D", None, "nothing")]


def _quad(x: float, y: float, w: float = 10, h: float = 20) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_legible_cards_are_those_with_an_index_inside_them_and_read_where_it_lies() -> None:
    scene = Scene(np.zeros((100, 200, 3), np.uint8),
                  [("5S", (0.0, 0.0, 50.0, 80.0)), ("JH", (100.0, 0.0, 150.0, 80.0)),
                   ("2C", (160.0, 0.0, 200.0, 80.0))],
                  indices=[("5S", _quad(2, 2)), ("JH", _quad(102, 2)),
                           ("2C", _quad(20, 40))])  # a 2C index outside the 2C: not its own
    cards = bench.legible_cards(scene)
    assert [c for c, _ in cards] == ["5S", "JH"]
    boxes = np.array([[0, 0, 50, 80], [130, 0, 150, 80]], np.float64)  # the JH box misses it
    read = np.array([CARD_CODES.index("5S"), CARD_CODES.index("JH")])
    assert [bench.read_at(c, q, boxes, read) for c, q in cards] == [True, False]
    assert bench.readable_read(scene, boxes, read).tolist() == [2, 1]


def test_a_card_not_read_is_lost_where_its_index_readings_say() -> None:
    from vision.readers.index_heads import RANKS, SUITS, IndexReading

    losses = _script("bench_reader_losses")

    def reading(code: str, box: tuple[float, float, float, float], p: float) -> IndexReading:
        rank, suit = np.full(13, (1 - p) / 12), np.full(4, (1 - p) / 3)
        rank[RANKS.index(code[0])], suit[SUITS.index(code[1])] = p, p
        return IndexReading(box, 0.8, rank, suit, 0, 1.0)

    quads = [_quad(10, 10)]
    where = losses.where_lost
    assert where("QS", quads, [], 0.5) == "not found"
    assert where("QS", quads, [reading("QS", (60, 10, 70, 30), 0.99)], 0.5) == "not found"
    assert where("QS", quads, [reading("QC", (9, 9, 21, 31), 0.99)], 0.5) == "misread"
    assert where("QS", quads, [reading("QS", (9, 9, 21, 31), 0.6)], 0.5) == "unsure"
    assert where("QS", quads, [reading("QC", (9, 9, 21, 31), 0.99),
                               reading("QS", (10, 8, 20, 30), 0.9)], 0.5) == "lost"


def test_legibility_audit_scores_a_person_and_the_heads() -> None:
    audit = _script("audit_legible_indices")
    code_of, score = audit.code_of, audit.score
    assert code_of("10♦") == "TD" and code_of("qs") == "QS" and code_of("?") is None
    key = [["pile", "QS", "QS"], ["pile", "TD", "TH"], ["webcam", "2C", "2S"]]
    got = score(key, ["Q♠", "10D", "?"])
    assert got == {"pile": (2, 1, 2), "webcam": (0, 0, 1), "all": (2, 1, 3)}
    assert audit.heads_beside_person(key, ["Q♠", "10D", "?"]) == (2, 1, 1, 0)
    assert audit.heads_beside_person(key, ["?", "?", "2S"]) == (0, 0, 3, 1)
    assert audit.answer_list("# names, in sheet order\nQ♠ 10D\n  # more\n?\n") == [
        "Q♠", "10D", "?"]


def test_pooled_real_sets_count_every_card_once_per_set(tmp_path: Path) -> None:
    import json

    import cv2

    from vision.detections import Detections

    pooled = _script("bench_real_pooled").pooled
    img = np.full((120, 160, 3), 200, np.uint8)
    dev, src = tmp_path / "dev", tmp_path / "src"
    dev.mkdir()
    src.mkdir()
    cv2.imwrite(str(dev / "d.jpg"), img)
    (dev / "labels.jsonl").write_text(json.dumps(
        {"image": "d.jpg", "cards": [{"card": "7C", "box": [10, 10, 60, 90]},
                                     {"card": "2H", "box": [80, 10, 130, 90]}]}) + "\n")
    lines = []
    for k in range(9):  # whole-card photos: the 1st and the 9th are every 8th
        cv2.imwrite(str(src / f"rf100_{k}.jpg"), img)
        lines.append({"image": f"rf100_{k}.jpg",
                      "cards": [{"card": "KS", "box": [20, 20, 70, 100]}]})
    cv2.imwrite(str(src / "ammi_0.jpg"), img)  # one corner-labelled photo: held out by time
    lines.append({"image": "ammi_0.jpg", "unique_cards": ["AD"],
                  "cards": [{"card": "AD", "box": [5, 5, 20, 25]}]})
    (src / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))

    class Reads:  # names one card, the 7C of the dev photo, wherever it looks
        conf = 0.5

        def detect(self, frame: np.ndarray, conf: float | None = None) -> Detections:
            h, w = frame.shape[:2]
            sx, sy = w / 160, h / 120
            return Detections(np.array([[10 * sx, 10 * sy, 60 * sx, 90 * sy]], np.float32),
                              np.array([0.9], np.float32),
                              np.array([CARD_CODES.index("7C")], np.int64))

    sets = pooled(Reads(), dev, src)
    assert list(sets) == ["dev", "grey", "webcam", "webcam-small", "stretched", "every-8th",
                          "close-ups", "close-ups webcam", "close-ups webcam-small", "all"]
    for name in ("dev", "grey", "webcam", "webcam-small", "stretched"):
        assert sets[name] == [1, 0, 1]  # the 7C right, the 2H missed
    assert sets["every-8th"] == [0, 2, 2]  # two photos, each a KS missed and a 7C wrong
    for name in ("close-ups", "close-ups webcam", "close-ups webcam-small"):
        assert sets[name] == [0, 1, 1]
    assert sets["all"] == [5, 5, 10]
    assert pooled(Reads(), None, src) == {
        "every-8th": [0, 2, 2], "close-ups": [0, 1, 1], "close-ups webcam": [0, 1, 1],
        "close-ups webcam-small": [0, 1, 1], "all": [0, 5, 5]}
