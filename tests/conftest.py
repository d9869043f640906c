"""Test-wide settings: Qt runs offscreen, no test may touch a real camera or the network."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from ui.store import GameStore
    from ui.window import MainWindow

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The diagnostic log and saved games go to a folder of the test run, never the user's.
os.environ.setdefault("COMPANION_DATA_DIR", tempfile.mkdtemp(prefix="companion-tests-"))
os.environ.setdefault("YOLO_OFFLINE", "1")

# Property tests draw the same examples on every run and machine, so the README's test
# command gives one verdict (Hypothesis does so on CI machines by itself). To search afresh
# with random draws: ``pytest --hypothesis-profile=explore``.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("repeatable")


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GameStore:
    """The window's saved games in this test's own folder, and no card model loaded (the UI
    tests read the demo table's truth)."""
    from ui.store import DATA_ENV, GameStore

    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    monkeypatch.setenv("COMPANION_NO_DETECTOR", "1")
    return GameStore(tmp_path)


@pytest.fixture
def window(qtbot: QtBot, store: GameStore) -> Iterator[MainWindow]:
    """A main window on ``store``, its feed stopped at the end."""
    from ui.window import MainWindow

    w = MainWindow(store=store)
    qtbot.addWidget(w)
    yield w
    w.stop_feed()
