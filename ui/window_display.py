"""The main window's first layer: its signals, the state all its layers share, and what it
shows, rebuilt from the referee's replay of the log (`refresh`): the report panel, the
announcement (spoken), the alert line, a problem said in a box.

`MainWindow` (ui/window.py) builds on four layers, each a room of it and each building on
the one before: `WindowDisplay` (here) < `WindowFeed` (ui/window_feed.py: the table feed and
the readings held for a person) < `WindowEntry` (ui/window_entry.py: events entered and
corrected, undo, proof) < `WindowSessions` (ui/window_sessions.py: starting, resuming and
replaying games, saved games, export) < `MainWindow` (the panels, menus and actions). Each
layer declares the state it uses; `MainWindow.__init__` sets it all up.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox, QStatusBar

from companion.events import Event
from ui.panels import LivePanel, ReportPanel
from ui.speech import Speaker
from ui.store import GameSession, GameStore
from ui.views import LiveView


class WindowDisplay(QMainWindow):
    """The window's signals and display. Its state is set up by `MainWindow.__init__`."""

    announced = Signal(str)       # each new announcement, as shown
    eventLogged = Signal(int)     # the log line of every event appended
    refreshed = Signal()          # after the display was rebuilt from the referee
    feedFinished = Signal()       # the table feed ended (the demo game is over)
    problem = Signal(str)         # something went wrong that the user is told about

    store: GameStore
    settings: QSettings | None
    speaker: Speaker
    session: GameSession | None
    replay_mode: bool
    compact: bool
    last_problem: QMessageBox | None
    live_panel: LivePanel
    report_panel: ReportPanel
    announcement: QLabel
    alert: QLabel
    live: LiveView
    status: QStatusBar
    _n_announced: int
    _n_violations: int

    def refresh(self, speak: bool = True) -> None:
        """Rebuild everything shown from the referee's replay of the log."""
        s = self.session
        if s is None:
            return
        report = s.report()
        self._show_report(report, s.turn(), s.round_history(), s.effective())
        anns = report["announcements"]
        if len(anns) > self._n_announced:
            new = anns[self._n_announced:]
            self._n_announced = len(anns)
            for a in new:
                self.announced.emit(a["text"])
            self._show_announcement(new[-1]["text"], speak=speak)
        elif len(anns) < self._n_announced:  # a correction or undo took some back
            self._n_announced = len(anns)
            self._show_announcement(anns[-1]["text"] if anns else "", speak=False)
        vios = report["violations"]
        if len(vios) > self._n_violations:
            v = vios[-1]
            self.alert.setText(f"⚠ {v['player']}: {v['text']} — see Violations")
            self.alert.setVisible(True)
        self._n_violations = len(vios)
        self.refreshed.emit()

    def _show_report(self, report: dict[str, Any], turn: str | None,
                     history: list[tuple[str, dict[str, int]]], events: Sequence[Event]) -> None:
        self.report_panel.show_report(report, turn, history, events)
        self.live.set_pots(report["pots"])
        if report["errors"]:
            self.status.showMessage(report["errors"][-1]["text"], 8000)

    def _show_announcement(self, text: str, speak: bool = True) -> None:
        self.live_panel.show_announcement(text, self.compact)
        if speak:
            self.speaker.say(text)

    def show_problem(self, text: str) -> QMessageBox:
        """Say a failure the user has to act on: a box that does not block the window (kept
        as ``last_problem``), and the status bar until something else is said."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Michigan Companion", text,
                          QMessageBox.StandardButton.Ok, self)
        box.setModal(False)
        box.show()
        self.last_problem = box
        self.status.showMessage(text)
        self.problem.emit(text)
        return box

    def _players(self) -> list[str]:
        return self.session.players if self.session else []

    def _update_actions(self) -> None:
        """Enable the commands that fit what the window holds now: `MainWindow`'s menus."""
