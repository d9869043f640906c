"""Helpers the window tests share: the demo's pace in tests, a dialog filled in and accepted
once it opens, and waiting for a number of events in the window's game."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer

from ui.dialogs import EventDialog
from ui.window import MainWindow

FAST = 5  # ms between demo events in tests


def later(action: Callable[[], None]) -> Callable[[EventDialog], None]:
    """A `prepare` hook: once the dialog's exec() runs, fill it in and press OK."""
    def prepare(dlg: EventDialog) -> None:
        def go() -> None:
            action_dialog[0] = dlg
            action()
            dlg._try_accept()
        action_dialog: list[EventDialog | None] = [None]
        QTimer.singleShot(0, go)
    return prepare


def wait_events(qtbot, window: MainWindow, n: int, timeout: int = 15000) -> None:
    qtbot.waitUntil(lambda: window.session is not None and len(window.session.events) >= n,
                    timeout=timeout)
