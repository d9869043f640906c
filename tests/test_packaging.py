"""The extras install what their users need: the test extra everything the tests import (the
deck renderer included), never the training stack; the app extra no SVG renderer."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _extras() -> dict[str, list[str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    return extras


def _closure(extra: str) -> set[str]:
    """Distribution names an extra installs, its own extras followed."""
    extras, names, todo, seen = _extras(), set(), [extra], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for req in extras[name]:
            own = re.fullmatch(r"michigan-companion\[([\w,-]+)\]", req)
            if own:
                todo.extend(own.group(1).split(","))
            else:
                names.add(re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].lower())
    return names


def test_test_extra_installs_what_the_tests_import() -> None:
    need = {"pytest", "pytest-qt", "hypothesis", "ruff", "mypy", "numpy", "opencv-python",
            "onnxruntime", "pyside6-essentials", "cairosvg"}
    assert need <= _closure("test")


def test_test_extra_never_pulls_the_training_stack() -> None:
    assert not {"torch", "torchvision", "ultralytics"} & _closure("test")


def test_the_app_needs_no_svg_renderer_but_training_does() -> None:
    assert "cairosvg" not in _closure("app")
    assert "cairosvg" in _closure("train")
