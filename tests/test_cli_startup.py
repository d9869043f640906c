"""`companion referee` starts without the pixel and window stacks (issue 15, finding 14): the
command line imports a plugin subcommand only when it is the one asked for (or for --help), so
the referee never loads OpenCV, numpy or Qt. The time is measured by
benchmarks/bench_startup.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main, plugins_needed

ROOT = Path(__file__).resolve().parent.parent


def test_only_the_plugin_asked_for_is_imported() -> None:
    assert plugins_needed(["referee", "game.jsonl", "--json"]) is False
    assert plugins_needed(["simulate", "--show"]) is False
    assert plugins_needed([]) is False                 # the window: found at run time
    assert plugins_needed(["--version"]) is False
    assert plugins_needed(["detect", "a.jpg", "--json"]) == "detect"
    assert plugins_needed(["--help"]) is True          # the help lists every subcommand
    assert plugins_needed(["gin"]) is True             # an unknown name: the error lists all


def test_the_referee_loads_no_pixel_or_window_module(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "--players", "3", "--out", str(log)]) == 0
    probe = ("import sys; from companion.cli import main; main(['referee', sys.argv[1], '-q']);"
             "print(sorted({m.split('.')[0] for m in sys.modules}))")
    done = subprocess.run([sys.executable, "-c", probe, str(log)], capture_output=True,
                          text=True, check=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    loaded = set(json.loads(done.stdout.splitlines()[-1].replace("'", '"')))
    assert "companion" in loaded
    assert loaded & {"cv2", "numpy", "PySide6", "onnxruntime", "vision", "ui",
                     "calibration"} == set()


def test_the_referee_does_without_the_heavier_standard_library(tmp_path: Path) -> None:
    # The diagnostic log rotates without logging.handlers (sockets, pickle, queues), the house
    # rules are read beside the package without importlib.resources (zipfile, tempfile), and
    # a log that is only read takes no lock (socket).
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "--players", "3", "--out", str(log)]) == 0
    heavy = ["logging.handlers", "importlib.resources", "zipfile", "tempfile", "socket",
             "pickle", "queue"]
    # Only what the companion adds counts: an interpreter's own start-up files (a .pth in
    # site-packages, e.g. one that patches certificates) may load some of these before us.
    probe = ("import sys; before = set(sys.modules); from companion.cli import main;"
             "main(['referee', sys.argv[1], '-q']);"
             f"print([m for m in {heavy!r} if m in sys.modules and m not in before])")
    done = subprocess.run([sys.executable, "-c", probe, str(log)], capture_output=True,
                          text=True, check=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT),
                               "COMPANION_DATA_DIR": str(tmp_path / "data")})
    assert done.stdout.splitlines()[-1] == "[]"
    assert (tmp_path / "data" / "logs" / "companion.log").is_file()


def test_help_still_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    listed = capsys.readouterr().out
    for name in ("referee", "simulate", "detect", "watch", "calibrate", "demo"):
        assert name in listed
