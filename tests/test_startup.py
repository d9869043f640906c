"""Starting on a machine that cannot show the window (issue 15, finding 3): with no display the
demo table plays in the terminal, printing the announcements; when Qt's display support lacks
system libraries, one line names them and their packages and the exit status is 2 (Qt itself
would abort with a core dump and blame the wrong libraries)."""

from __future__ import annotations

import pytest

import ui.startup
from companion.cli import main
from ui.startup import NO_DISPLAY, debian_package, not_found, qt_platform_problem

LDD = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /v/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f72)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f71)
"""
MISSING = ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
REMOTE_X = {"DISPLAY": "localhost:10.0"}  # an ssh-forwarded display: no local socket to check


def test_missing_libraries_are_read_from_ldd_and_named_by_package() -> None:
    assert not_found(LDD) == MISSING
    assert [debian_package(s) for s in [*MISSING, "libxcb-cursor.so.0", "libEGL.so.1",
                                         "libxkbcommon-x11.so.0", "libdbus-1.so.3",
                                         "libglib-2.0.so.0"]] == [
        "libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0", "libegl1", "libxkbcommon-x11-0",
        "libdbus-1-3", "libglib2.0-0"]


def test_which_machines_can_show_the_window() -> None:
    none: list[str] = []
    assert qt_platform_problem({}, "linux", lambda p: none) == NO_DISPLAY
    assert qt_platform_problem({"DISPLAY": ":93217"}, "linux", lambda p: none) == NO_DISPLAY
    assert qt_platform_problem({"QT_QPA_PLATFORM": "xcb"}, "linux", lambda p: none) == NO_DISPLAY
    assert qt_platform_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert qt_platform_problem({}, "darwin") is None and qt_platform_problem({}, "win32") is None
    assert qt_platform_problem(REMOTE_X, "linux", lambda p: none) is None
    # X lacks libraries but Wayland is there and complete: Qt uses Wayland
    both = {**REMOTE_X, "WAYLAND_DISPLAY": "wayland-0"}
    assert qt_platform_problem(both, "linux", lambda p: MISSING if p == "xcb" else none) is None
    line = qt_platform_problem(REMOTE_X, "linux", lambda p: MISSING)
    assert line is not None and "\n" not in line
    assert "libxcb-icccm.so.4, libxcb-keysyms.so.1" in line
    assert "apt install libxcb-icccm4 libxcb-keysyms1" in line


def test_companion_names_the_missing_libraries_and_exits_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", REMOTE_X["DISPLAY"])
    monkeypatch.setattr(ui.startup, "missing_libraries", lambda platform: MISSING)
    assert main([]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 1
    assert "apt install libxcb-icccm4 libxcb-keysyms1" in out.err


def test_with_no_display_the_demo_plays_in_the_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(ui.startup, "PACE_TO_CLOCK", False)
    assert main([]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("No display here, so no window: this is the demo table")
    assert any(line.strip().startswith("Round 1") for line in out)
    assert sum(line.strip().startswith("Next:") for line in out) > 5
    assert out[-1].startswith("The demo is over")
    # Read by the shipped models (issue 14), every card of the round, nothing left to confirm.
    from vision.readers.detector import default_model_path
    from vision.render.demo import simulated_round

    if default_model_path().is_file():
        assert out[1] == "The cards are read by the card models, as at your table."
    plays = sum(e["event"] == "play" for e in simulated_round("michigan-rummy", seed=1))
    assert sum(" plays " in line for line in out) == plays
    assert any("Game over." in line for line in out)
    assert not any("wait for a person" in line or "(to confirm:" in line for line in out)
