"""The benchmarks' error list (`bench_reader_conditions.py --errors`) and legibility audit."""

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


def test_legibility_audit_scores_a_person_and_the_heads() -> None:
    audit = _script("audit_legible_indices")
    code_of, score = audit.code_of, audit.score
    assert code_of("10♦") == "TD" and code_of("qs") == "QS" and code_of("?") is None
    key = [["pile", "QS", "QS"], ["pile", "TD", "TH"], ["webcam", "2C", "2S"]]
    got = score(key, ["Q♠", "10D", "?"])
    assert got == {"pile": (2, 1, 2), "webcam": (0, 0, 1), "all": (2, 1, 3)}
