"""Layering contracts (DESIGN.md): companion imports only the standard library; vision and
calibration never import Qt; the runtime never needs torch or ultralytics."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def imported_top_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


def files(package: str) -> list[Path]:
    found = sorted((ROOT / package).rglob("*.py"))
    assert found, f"no Python files under {package}/"
    return found


def test_companion_imports_only_the_standard_library() -> None:
    for path in files("companion"):
        bad = imported_top_modules(path) - STDLIB - {"companion"}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_vision_and_calibration_never_import_qt() -> None:
    for package in ("vision", "calibration"):
        for path in files(package):
            mods = imported_top_modules(path)
            assert not {m for m in mods if m.startswith(("PySide", "PyQt", "shiboken"))}, path
            assert "ui" not in mods, f"{path.relative_to(ROOT)} imports the ui package"


def test_torch_and_ultralytics_only_in_training_code() -> None:
    for package in ("vision", "calibration", "ui"):
        for path in files(package):
            if path.name.startswith("train"):
                continue
            mods = imported_top_modules(path)
            assert not mods & {"torch", "ultralytics", "torchvision"}, (
                f"{path.relative_to(ROOT)} imports training libraries at run time")


def test_companion_runs_in_a_python_without_third_party_packages() -> None:
    # Import every companion module in a fresh interpreter that cannot see site-packages.
    import subprocess

    mods = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in files("companion") if p.name != "__main__.py"
    )
    code = "import importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in mods)
    result = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
