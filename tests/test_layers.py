"""Layering contracts (DESIGN.md, issue 17), read from the source with `ast`: what each folder
may import, the rooms inside `companion/` and `vision/`, and no import circles.

- `companion/` imports only the standard library, and runs without site-packages.
- `calibration/` imports numpy and OpenCV (never vision/); `ui/` anything above.
- `vision/` has three rooms, each with what it may import: the runtime the app runs (companion,
  calibration, numpy, OpenCV, onnxruntime, the shipped models); `vision/render/`, the
  synthetic table and the deck rasteriser (companion, calibration, numpy, OpenCV, cairosvg,
  tqdm, and of the runtime only its values: frames, detections, lookalikes); and
  `vision/training/` (anything, torch, ultralytics and onnx included). Neither Qt nor `ui/`.
- Runtime never imports training: nothing outside `vision/training/` imports it, at module
  level or inside a function; `companion train` is registered by `vision.training.train`,
  which imports only the standard library until the command runs; torch, torchvision,
  ultralytics and onnx are imported only in `vision/training/`.
- Inside `companion/`, each room imports only rooms below it: the vocabulary (cards, poker,
  ledger, events, house, diagnostics) < the referee engine (`companion.referee`) < the games
  (`companion.games.<family>`) < the core subcommands (`companion.commands`) < the command
  line (`companion.cli`). The engine and the subcommands find a game by its name (a module
  path in `GAME_MODULES`), never by importing it.
- A game family never imports another family: what they share is the vocabulary.
- No import circles among the modules of companion/, vision/, calibration/ and ui/, not even
  through imports inside functions.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB = set(sys.stdlib_module_names) | {"__future__"}
PACKAGES = ("companion", "vision", "calibration", "ui")
QT = ("PySide", "PyQt", "shiboken")
#: Training code only (the "train" extra; Pillow reads type faces for drawn indices).
TRAINING_LIBRARIES = {"torch", "torchvision", "ultralytics", "onnx", "PIL"}

#: Third-party (and sibling) top-level packages each folder may import (DESIGN.md's table).
ALLOWED: dict[str, set[str]] = {
    "companion": {"companion"},
    "calibration": {"calibration", "numpy", "cv2"},
    "ui": {"ui", "vision", "companion", "calibration", "models", "numpy", "cv2", "PySide6",
           "shiboken6"},
}
#: ... and each room of vision/ (see `vision_room`).
VISION_ALLOWED: dict[str, set[str]] = {
    "runtime": {"vision", "companion", "calibration", "models", "numpy", "cv2", "onnxruntime"},
    "render": {"vision", "companion", "calibration", "numpy", "cv2", "cairosvg", "tqdm"},
    "training": {"vision", "companion", "calibration", "models", "numpy", "cv2", "onnxruntime",
                 "cairosvg", "tqdm", *TRAINING_LIBRARIES},
}
#: What the renderer may use of vision's runtime: its values (a frame, a frame source, the
#: detections a reader gives, the cards a reader takes for one another).
RENDER_USES = {"vision", "vision.detections", "vision.lookalikes", "vision.sources",
               "vision.sources.frames"}

#: companion's rooms, lowest first: a module may import its own room and the rooms below.
ROOMS = ("vocabulary", "engine", "games", "commands", "cli")


def room(module: str) -> str:
    if module.startswith("companion.games"):
        return "games"
    return {"companion.referee": "engine", "companion.commands": "commands",
            "companion.cli": "cli", "companion.__main__": "cli"}.get(module, "vocabulary")


def vision_room(module: str) -> str:
    """vision/'s room of a module: "training", "render" or "runtime" (all the rest)."""
    for name in ("training", "render"):
        if module == f"vision.{name}" or module.startswith(f"vision.{name}."):
            return name
    return "runtime"


def files(package: str) -> list[Path]:
    found = sorted((ROOT / package).rglob("*.py"))
    assert found, f"no Python files under {package}/"
    return found


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in files(package)}


@cache
def imports(path: Path) -> tuple[tuple[str, bool], ...]:
    """Every module ``path`` names in an import, relative imports resolved, each with whether
    it runs when the module is imported (module level, class bodies, ``if``/``try`` blocks;
    not inside a function, nor under ``if TYPE_CHECKING``). ``from a import b`` names both
    ``a`` and ``a.b`` (``b`` may be a submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    me = module_name(path).split(".")
    package = me if path.name == "__init__.py" else me[:-1]
    out: list[tuple[str, bool]] = []

    def visit(nodes: Iterable[ast.AST], on_import: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.Import):
                out.extend((a.name, on_import) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[:len(package) - (node.level - 1)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                out.append((mod, on_import))
                out.extend((f"{mod}.{a.name}", on_import) for a in node.names)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                visit(node.body, False)
                visit(node.orelse, on_import)
                continue
            inner = on_import and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                        ast.Lambda))
            visit(ast.iter_child_nodes(node), inner)

    visit(tree.body, True)
    return tuple(out)


def top_modules(path: Path) -> set[str]:
    return {name.split(".")[0] for name, _ in imports(path) if name}


def graph(on_import_only: bool) -> dict[str, set[str]]:
    """Module -> the modules of our packages it imports (and the packages above those, whose
    ``__init__`` runs first)."""
    known = modules()
    out: dict[str, set[str]] = {}
    for mod, path in known.items():
        deps: set[str] = set()
        for name, on_import in imports(path):
            if on_import_only and not on_import:
                continue
            parts = name.split(".")
            deps.update(c for c in (".".join(parts[:i]) for i in range(1, len(parts) + 1))
                        if c in known and c != mod)
        out[mod] = deps
    return out


def circles(g: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(g[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return sorted(found)


def test_the_import_reader_sees_relative_lazy_and_submodule_imports() -> None:
    poker = dict(imports(ROOT / "companion" / "poker.py"))
    assert poker["companion.cards"] is True                  # from .cards import ...
    assert poker["itertools"] is False                       # inside a function
    cli = dict(imports(ROOT / "companion" / "cli.py"))
    assert cli["companion.commands"] is True                 # from companion import commands
    assert "companion.commands" in graph(True)["companion.cli"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_companion_imports_only_the_standard_library() -> None:
    for path in files("companion"):
        bad = top_modules(path) - STDLIB - ALLOWED["companion"]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("package", ["calibration", "vision", "ui"])
def test_each_folder_imports_only_what_design_md_allows(package: str) -> None:
    found = set()
    for path in files(package):
        if package == "vision":
            allowed = VISION_ALLOWED[vision_room(module_name(path))] | STDLIB
        else:
            allowed = ALLOWED[package] | STDLIB
        found |= {(str(path.relative_to(ROOT)), m) for m in top_modules(path) - allowed}
    assert found == set()


def test_vision_and_calibration_never_import_qt() -> None:
    for package in ("vision", "calibration"):
        for path in files(package):
            mods = top_modules(path)
            assert not {m for m in mods if m.startswith(QT)}, path
            assert "ui" not in mods, f"{path.relative_to(ROOT)} imports the ui package"


def test_torch_and_ultralytics_only_in_training_code() -> None:
    assert {vision_room(m) for m in modules()} == {"runtime", "render", "training"}
    for mod, path in modules().items():
        if vision_room(mod) == "training" and mod.startswith("vision"):
            continue
        assert not top_modules(path) & TRAINING_LIBRARIES, (
            f"{path.relative_to(ROOT)} imports training libraries at run time")


def test_runtime_never_imports_training() -> None:
    # Not the vision runtime, not the renderer, not calibration, ui or companion: not at
    # module level, not inside a function. The app installs and runs without vision.training.
    bad = [f"{mod} imports {d}" for mod, deps in graph(on_import_only=False).items()
           if not mod.startswith("vision.training")
           for d in sorted(deps) if d.startswith("vision.training")]
    assert bad == []


def test_the_renderer_builds_only_on_the_runtime_values() -> None:
    # vision/render sits below the readers and the pipeline: the demo source opens it, it
    # never reaches up into them.
    bad = [f"{mod} imports {d}" for mod, deps in graph(on_import_only=False).items()
           if vision_room(mod) == "render" and mod.startswith("vision")
           for d in sorted(deps)
           if d.startswith("vision") and vision_room(d) == "runtime" and d not in RENDER_USES]
    assert bad == []


def test_the_train_command_loads_no_training_code_until_it_runs() -> None:
    # `companion --help` registers `companion train` (vision.training.train:register_train):
    # that module imports only the standard library until the command runs.
    path = ROOT / "vision" / "training" / "train.py"
    on_import = {name.split(".")[0] for name, now in imports(path) if now}
    assert on_import <= STDLIB, sorted(on_import - STDLIB)
    assert "vision.training.yolo" in {name for name, now in imports(path) if not now}


def test_the_app_runs_without_vision_training() -> None:
    # A fresh interpreter where vision.training cannot be imported: every module of the
    # vision runtime, the renderer and calibration imports, a demo frame is read, and the
    # command line lists every subcommand, `train` as unavailable.
    mods = sorted(m for m in modules() if m.split(".")[0] in ("vision", "calibration")
                  and vision_room(m) != "training")
    code = (
        "import importlib, importlib.abc, sys\n"
        "class NoTraining(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'vision.training' or name.startswith('vision.training.'):\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.meta_path.insert(0, NoTraining())\n"
        + "".join(f"importlib.import_module({m!r})\n" for m in mods)
        + "from vision.sources.parse import parse_source\n"
        "assert parse_source('demo').read() is not None\n"
        "from companion.cli import main\n"
        "try:\n"
        "    main(['--help'])\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    listed = result.stdout
    for name in ("detect", "watch", "calibrate", "render-table", "teach-deck", "demo"):
        assert f"    {name}" in listed, name
    assert "unavailable: vision.training not installed" in listed


def test_companion_rooms_import_only_the_rooms_below_them() -> None:
    bad = []
    for mod, deps in graph(on_import_only=False).items():
        if not mod.startswith("companion"):
            continue
        mine = ROOMS.index(room(mod))
        bad += [f"{mod} ({room(mod)}) imports {d} ({room(d)})" for d in sorted(deps)
                if d.startswith("companion") and ROOMS.index(room(d)) > mine]
    assert bad == []


def test_game_families_never_import_each_other() -> None:
    def family(mod: str) -> str | None:
        parts = mod.split(".")
        return parts[2] if len(parts) > 2 and parts[:2] == ["companion", "games"] else None

    g = graph(on_import_only=False)
    assert {family(m) for m in g} >= {"michigan", "rum", "oh_claire", "wanagan"}
    bad = [f"{m} imports {d}" for m, deps in g.items() if family(m)
           for d in sorted(deps) if family(d) not in (None, family(m))]
    assert bad == []


def test_every_game_module_named_by_the_engine_exists() -> None:
    from companion.referee import GAME_MODULES, SIMULATOR_MODULES

    for path in {*GAME_MODULES.values(), *SIMULATOR_MODULES.values()}:
        assert path in modules() and room(path) == "games", path


def test_no_import_circles_at_module_level() -> None:
    assert circles(graph(on_import_only=True)) == []


def test_no_import_circles_even_inside_functions() -> None:
    assert circles(graph(on_import_only=False)) == []


def test_companion_runs_in_a_python_without_third_party_packages() -> None:
    # Import every companion module in a fresh interpreter that cannot see site-packages.
    mods = sorted(m for m in modules() if m.startswith("companion") and m != "companion.__main__")
    code = "import importlib\n" + "".join(f"importlib.import_module({m!r})\n" for m in mods)
    result = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
