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
    need = {"pytest", "pytest-qt", "pytest-xdist", "hypothesis", "ruff", "mypy", "numpy",
            "opencv-python", "onnxruntime", "pyside6-essentials", "cairosvg"}
    assert need <= _closure("test")


def test_test_extra_never_pulls_the_training_stack() -> None:
    assert not {"torch", "torchvision", "ultralytics"} & _closure("test")


def test_the_app_needs_no_svg_renderer_but_training_does() -> None:
    assert "cairosvg" not in _closure("app")
    assert "cairosvg" in _closure("train")


def test_the_licence_is_declared_once_and_shipped_with_its_notices() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "AGPL-3.0-or-later"
    assert set(project["license-files"]) == {"LICENSE", "THIRD_PARTY_NOTICES.md"}
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.lstrip().startswith("GNU AFFERO GENERAL PUBLIC LICENSE")
    assert "Version 3, 19 November 2007" in licence
    assert "AGPL-3.0-or-later" in (ROOT / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")


def test_every_shipped_model_asset_and_weight_has_a_notice() -> None:
    notices = (ROOT / "THIRD_PARTY_NOTICES.md").read_text(encoding="utf-8")
    shipped = [p for folder in ("models", "vision/render/assets")
               for p in (ROOT / folder).rglob("*")
               if p.is_file() and p.suffix in {".onnx", ".npz", ".pt", ".png"}]
    assert len(shipped) >= 7
    unnamed = [str(p.relative_to(ROOT)) for p in shipped
               if f"`{p.relative_to(ROOT).as_posix()}`" not in notices]
    assert unnamed == []
    # the OCR weights used at run time come from a dependency, named with their licence
    assert "ch_PP-OCRv4_rec_infer.onnx" in notices and "Apache-2.0" in notices


def test_model_descriptions_name_no_path_outside_the_repository() -> None:
    for path in (ROOT / "models").glob("*.json"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'"(/|[A-Za-z]:\\\\|~)', text), path.name


def test_training_declares_what_the_recipe_needs() -> None:
    train = _extras()["train"]
    assert "ultralytics>=8.4" in train  # YOLO26, exported with 8.4.190
    assert any(re.fullmatch(r"torch>=2\.13(\.\d+)?", req) for req in train)


def test_the_window_has_a_gui_script() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    target = project["gui-scripts"]["companion-window"]
    module, _, name = target.partition(":")
    assert (module, name) == ("ui.cli", "run_window")
    assert f"def {name}(" in (ROOT / "ui" / "cli.py").read_text(encoding="utf-8")


def test_every_subcommand_entry_point_names_a_register_function() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    commands = project["entry-points"]["companion.commands"]
    assert set(commands) >= {"detect", "train", "teach-deck", "watch", "render-table",
                             "calibrate", "demo"}
    for name, target in commands.items():
        module, _, func = target.partition(":")
        source = ROOT.joinpath(*module.split(".")).with_suffix(".py")
        assert f"def {func}(" in source.read_text(encoding="utf-8"), (name, target)


def test_the_wheel_leaves_training_out_and_training_registers_its_own_command() -> None:
    # vision/training runs from a checkout (it writes datasets/, runs/ and models/ beside the
    # packages); the app installs and runs without it, `companion train` then unavailable.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    found = config["tool"]["setuptools"]["packages"]["find"]
    assert {"vision.training", "vision.training.*"} <= set(found["exclude"])
    commands = config["project"]["entry-points"]["companion.commands"]
    assert commands["train"].startswith("vision.training.")
    assert [n for n, t in commands.items() if t.startswith("vision.training")] == ["train"]
