"""The `companion` command line: help, referee on broken logs, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_help_lists_the_subcommands() -> None:
    r = run("--help")
    assert r.returncode == 0
    for name in ("referee", "simulate"):
        assert name in r.stdout


def test_referee_names_each_broken_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    log = tmp_path / "broken.jsonl"
    log.write_text(
        '{"event":"game","game":"michigan-rummy","players":["Ann","Bob","Cy"],"chips":20}\n'
        "{oops\n"
        '{"event":"round","dealer":"Ann"}\n'
        '"just a string"\n'
        '{"no_event":1}\n',
        encoding="utf-8",
    )
    assert main(["referee", str(log), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    lines = [e["line"] for e in report["errors"]]
    assert {2, 4, 5} <= set(lines)
    assert all(f"line {e['line']}" in e["text"] for e in report["errors"])
    assert main(["referee", str(log)]) == 0
    text = capsys.readouterr().out
    assert "line 2" in text and "line 4" in text and "line 5" in text


def test_referee_exit_2_when_the_file_cannot_be_read(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["referee", str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl" in capsys.readouterr().err


def test_python_dash_m_and_version() -> None:
    r = run("--version")
    assert r.returncode == 0 and "companion" in r.stdout
