"""The window on a laptop screen and a newcomer's first look (issue 15, finding 7): it fits
1366x768 and resizes, the banner keeps its height, the game-over box shows its whole text, a
new game starts clean, Game → Quit, Help → About and the shortcuts, and the demo says plainly
what it is. (The look itself was checked in Xvfb screenshots at 1366x768 and 1920x1080.)"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.panels import game_over_text
from ui.store import GameStore
from ui.window import MainWindow

LAPTOP = QRect(0, 0, 1366, 768)


@pytest.fixture
def window(window: MainWindow) -> MainWindow:
    """The shared window (conftest), fitted to a 1366x768 laptop screen and shown."""
    window.fit_to_screen(LAPTOP)
    window.show()
    return window


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def test_the_window_fits_a_laptop_screen_and_resizes(qtbot: QtBot, window: MainWindow) -> None:
    assert window.compact
    size = window.size()
    assert size.width() <= 1366 - 16 and size.height() <= 768 - 48
    hint = window.minimumSizeHint()
    assert hint.width() <= size.width() and hint.height() <= size.height()
    window.resize(1000, 640)
    _settle()
    assert (window.width(), window.height()) == (1000, 640)
    big = MainWindow(store=window.store)
    qtbot.addWidget(big)
    big.fit_to_screen(QRect(0, 0, 1920, 1080))
    assert not big.compact and (big.width(), big.height()) == MainWindow.PREFERRED
    big.close()


def test_the_banner_keeps_its_height(window: MainWindow) -> None:
    window._show_announcement("Next: 5♣", speak=False)
    _settle()
    banner, live = window.announcement.height(), window.live.height()
    long = ("Poker Kitty: Bob, Full house, eights over fours, 4 chips. Board divided: 4 chips "
            "each. Game over. Ann 57, Bob 53, Cy 45, Dee 45.")
    window._show_announcement(long, speak=False)
    _settle()
    assert (window.announcement.height(), window.live.height()) == (banner, live)
    assert window.announcement.font().pointSize() < 28  # set smaller to fit its two lines


def test_game_over_names_the_winner_and_is_not_clipped(qtbot: QtBot,
                                                       window: MainWindow) -> None:
    assert game_over_text({"game": "boodle", "chips": {"Ann": 50, "Cy": 63, "Bob": 40}}) == \
        "Game over — Cy wins with 63 chips"
    assert game_over_text({"game": "boodle", "chips": {"Ann": 63, "Cy": 63, "Bob": 2}}) == \
        "Game over — Ann and Cy tie with 63 chips"
    assert game_over_text({"game": "michigan-rum", "chips": {"Ann": 9, "Bob": 3}}).endswith(
        "Ann wins with 9 points")
    session = window.start_demo(interval_ms=1, rounds=1, seed=2)
    qtbot.waitUntil(lambda: session.report()["finished"], timeout=60000)
    _settle()
    label = window.turn_label
    assert label.text().startswith("Game over — ") and " wins with " in label.text()
    assert label.height() >= label.heightForWidth(label.width())  # all of it shows


def test_a_new_game_starts_clean(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_demo(interval_ms=1, seed=3, mistakes=0.5)
    qtbot.waitUntil(lambda: bool(session.report()["violations"]), timeout=60000)
    qtbot.waitUntil(lambda: window.alert.isVisible(), timeout=5000)
    assert window.alert.text()
    window.start_demo(interval_ms=100000, seed=4)
    assert not window.alert.isVisible() and window.alert.text() == ""
    assert window.live.marks == () and not window.confirm_bar.isVisible()
    assert window.session is not None and window.session.report()["violations"] == []


def test_quit_about_and_the_shortcuts(qtbot: QtBot, window: MainWindow) -> None:
    game = window.menuBar().actions()[0].menu()
    assert window.act_quit in game.actions()
    assert window.act_quit.shortcut().toString()  # Ctrl+Q
    helps = [a for a in window.menuBar().actions() if a.text() == "&Help"]
    assert helps and {window.act_about, window.act_keys} <= set(helps[0].menu().actions())
    keys = dict(window.shortcuts())
    assert keys["Ctrl+N"] == "New game" and keys["Ctrl+Q"] == "Quit" and keys["F1"]
    box = window.show_shortcuts()
    assert "Ctrl+Z" in box.text() and "Undo" in box.text()
    box.close()
    about = window.show_about()
    assert "Michigan Companion" in about.text() and "demo table" in about.text()
    about.close()
    window.act_quit.trigger()
    _settle()
    assert not window.isVisible()


def test_the_demo_says_plainly_what_it_is(qtbot: QtBot, store: GameStore) -> None:
    from ui.cli import build_window

    w = build_window(demo=None, ask_resume=False, cameras=[])
    assert isinstance(w, MainWindow)
    qtbot.addWidget(w)
    assert w.source_label.text() == "DEMO TABLE (no camera found)"
    said = w.status.currentMessage()
    assert said.startswith("No camera found: this is the demo table.")
    assert "renderer" not in said and "truth" not in said
    w.stop_feed()
