"""The main window: live picture, a large announcement line, whose turn, the chip table and
chart, violations with proof, the event list with corrections, undo, saved games and export.

The window holds no rules: every change is an event appended to the game's log (or a
``correct`` event), and everything shown is re-read from the referee's replay of that log.

`MainWindow` builds the window: its two panels (ui/panels.py), the menus, toolbar and keys,
its size on the screen, and what is kept in the settings. What it does is in its layers, each
building on the one before (ui/window_display.py says how): the display and the signals
(`WindowDisplay`), the table feed and the held readings (`WindowFeed`, ui/window_feed.py),
entering and correcting events (`WindowEntry`, ui/window_entry.py), starting, resuming and
replaying games (`WindowSessions`, ui/window_sessions.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QByteArray, QRect, QSettings, Qt
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QGuiApplication,
    QKeySequence,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import QLabel, QMessageBox, QSplitter, QToolBar

from calibration.profile import TableProfile
from ui.dialogs import HandDialog, TrumpDialog
from ui.panels import LivePanel, ReportPanel
from ui.speech import Speaker
from ui.store import GameSession, GameStore
from ui.window_sessions import WindowSessions
from ui.worker import FeedThread, Held


class MainWindow(WindowSessions):
    """The companion's window. Tests drive it through its public methods and signals."""

    def __init__(self, store: GameStore | None = None, speaker: Speaker | None = None,
                 settings: QSettings | None = None) -> None:
        super().__init__()
        from ui.qtfix import guard_none_refcount

        guard_none_refcount()  # PySide6 6.12 on Python 3.11 leaks None references
        self.setWindowTitle("Michigan Companion")
        #: Smaller type for screens under 900 lines (a 1366x768 laptop); set by fit_to_screen.
        self.compact = False
        self.store = store or GameStore()
        self.settings = settings
        self.speaker = speaker or Speaker(enabled=False, parent=self)
        self.session: GameSession | None = None
        self.feed: FeedThread | None = None
        self.profile: TableProfile | None = None
        self.replay_mode = False
        #: The last failure said in a box (`show_problem`).
        self.last_problem: QMessageBox | None = None
        #: The toolbar's Demo button (and a demo chosen in the setup) reads a rendered table
        #: through the vision pipeline; tests switch it off for exact, fast games.
        self.rendered_demo = True
        #: Who reads the rendered demo's cards: "model" (the shipped models, as at a table) or
        #: "truth" (the renderer: every card right).
        self.demo_detector = "model"
        #: How often the rendered demo's reader misreads and misses a card per frame (0: never),
        #: to show how the app copes with a fallible camera (View → Demo camera makes
        #: mistakes; remembered in the settings).
        self.demo_fallible = (float(settings.value("demo/fallible", 0.0) or 0.0)  # type: ignore[arg-type]
                              if settings is not None else 0.0)
        self._last_frame: np.ndarray | None = None
        self._n_announced = 0
        self._n_violations = 0
        self.pending: list[Held] = []
        self._build()
        self._build_actions()
        self._update_actions()
        self.fit_to_screen()
        saved = settings.value("window/geometry") if settings is not None else None
        if isinstance(saved, QByteArray):
            self.restoreGeometry(saved)  # where the user left it (Qt keeps it on a screen)

    # --- layout ----------------------------------------------------------------------------
    #: The window's size where the screen has room for it.
    PREFERRED = (1500, 940)

    def fit_to_screen(self, area: QRect | None = None) -> None:
        """Open at the preferred size, or as large as the screen's free ``area`` allows
        (window frame included), centred; a screen under 900 lines gets the compact type
        sizes. ``area`` defaults to the window's screen."""
        if area is None:
            screen = self.screen() or QGuiApplication.primaryScreen()
            area = (screen.availableGeometry() if screen is not None
                    else QRect(0, 0, *self.PREFERRED))
        frame_w, frame_h = 16, 48  # the window manager's border and title bar, about
        w = min(self.PREFERRED[0], area.width() - frame_w)
        h = min(self.PREFERRED[1], area.height() - frame_h)
        self.compact = area.height() < 900
        self._apply_type_sizes()
        self.resize(w, h)
        self.move(area.x() + max(0, (area.width() - w - frame_w) // 2),
                  area.y() + max(0, (area.height() - h - frame_h) // 2))

    def _apply_type_sizes(self) -> None:
        self.report_panel.apply_type_sizes(self.compact)
        self.live_panel.apply_type_sizes(self.compact)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if hasattr(self, "live_panel"):
            self.live_panel.fit_announcement(self.compact)

    def _build(self) -> None:
        left = self.live_panel = LivePanel()
        right = self.report_panel = ReportPanel()
        # The panels' parts under the names the window has always given them.
        self.announcement, self.alert, self.live = left.announcement, left.alert, left.live
        self.replay_bar, self.replay_slider = left.replay_bar, left.replay_slider
        self.replay_label = left.replay_label
        bar = self.confirm_bar = left.confirm_bar
        self.confirm_label, self.answer_buttons = bar.confirm_label, bar.answer_buttons
        self.confirm_yes, self.confirm_fix, self.confirm_no = (
            bar.confirm_yes, bar.confirm_fix, bar.confirm_no)
        self.turn_label, self.round_label = right.turn_label, right.round_label
        self.chip_table, self.chart, self.tabs = right.chip_table, right.chart, right.tabs
        self.chips_model = right.chips_model
        self.violations_model = right.violations_model
        self.events_model = right.events_model
        # What is asked for in them.
        bar.answered.connect(self.answer_pending)
        bar.fixRequested.connect(self.fix_pending)
        bar.optionChosen.connect(self.answer_option)
        for key in range(1, 10):
            sc = QShortcut(QKeySequence(str(key)), self)
            sc.activated.connect(lambda k=key: self.answer_option(k - 1))
        for letter, slot in (("Y", lambda: self.answer_pending(True)),
                             ("N", lambda: self.answer_pending(False))):
            QShortcut(QKeySequence(letter), self).activated.connect(slot)
        self.live.cardClicked.connect(self.fix_card)
        self.replay_slider.valueChanged.connect(self._replay_to)
        right.proofRequested.connect(self.show_proof)
        right.fixRequested.connect(self.fix_event)
        right.deleteRequested.connect(self.delete_event)
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        self.setCentralWidget(split)
        self.status = self.statusBar()
        #: What the window is watching, always in view: a camera, the demo table, a replay.
        self.source_label = QLabel("")
        self.source_label.setStyleSheet("padding: 0 8px; font-weight: bold;")
        self.status.addPermanentWidget(self.source_label)

    # --- menus and actions -----------------------------------------------------------------
    def _build_actions(self) -> None:
        bar = QToolBar("Game")
        bar.setMovable(False)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.addToolBar(bar)
        menu = self.menuBar().addMenu("&Game")

        def act(text: str, slot: Callable[[], Any], shortcut: str | None = None,
                toolbar: bool = True) -> QAction:
            a = QAction(text, self)
            a.triggered.connect(lambda _checked=False: slot())
            if shortcut:
                a.setShortcut(QKeySequence(shortcut))
            if toolbar:
                bar.addAction(a)
            return a

        self.act_new = act("New game…", self.new_game, "Ctrl+N")
        self.act_demo = act("Demo", lambda: self.start_demo(rendered=self.rendered_demo))
        self.act_open = act("Open game…", self.open_game_dialog, "Ctrl+O")
        self.act_csv = act("Export CSV…", lambda: self.export_csv(), toolbar=False)
        self.act_pdf = act("Export PDF…", lambda: self.export_pdf(), toolbar=False)
        self.act_demo.setShortcut(QKeySequence("Ctrl+D"))
        for a in (self.act_new, self.act_demo, self.act_open, self.act_csv, self.act_pdf):
            menu.addAction(a)
        menu.addSeparator()
        self.act_quit = act("Quit", self.close, toolbar=False)
        self.act_quit.setShortcut(QKeySequence(QKeySequence.StandardKey.Quit))
        if self.act_quit.shortcut().isEmpty():
            self.act_quit.setShortcut(QKeySequence("Ctrl+Q"))
        menu.addAction(self.act_quit)
        bar.addSeparator()
        enter = self.menuBar().addMenu("&Enter")
        self.act_dummy = act("Dummy…", lambda: self.enter(self._dummy_dialog))
        self.act_bid = act("Bid…", lambda: self.enter(self._bid_dialog))
        self.act_trump = act("Trump…", lambda: self.enter(TrumpDialog))
        self.act_hand = act("Hand…", lambda: self.enter(HandDialog))
        self.act_play = act("Missed play…", lambda: self.enter(self._play_dialog), "Ctrl+M")
        self.act_end = act("End of round…", lambda: self.enter(self._end_dialog), "Ctrl+E")
        self.act_undo = act("Undo", self.undo, "Ctrl+Z")
        for a in (self.act_dummy, self.act_bid, self.act_trump, self.act_hand, self.act_play,
                  self.act_end, self.act_undo):
            enter.addAction(a)
        bar.addSeparator()
        self.act_speak = QAction("Speak", self)
        self.act_speak.setCheckable(True)
        self.act_speak.setChecked(self.speaker.enabled)
        self.act_speak.toggled.connect(self._set_speech)
        self.act_pause = QAction("Pause", self)
        self.act_pause.setCheckable(True)
        self.act_pause.toggled.connect(self._set_paused)
        self.act_speak.setShortcut(QKeySequence("Ctrl+T"))
        self.act_pause.setShortcut(QKeySequence("Ctrl+P"))
        bar.addAction(self.act_speak)
        bar.addAction(self.act_pause)
        view = self.menuBar().addMenu("&View")
        view.addAction(self.act_speak)
        view.addAction(self.act_pause)
        self.act_fallible = QAction("Demo camera makes mistakes (5% of readings)", self)
        self.act_fallible.setCheckable(True)
        self.act_fallible.setChecked(self.demo_fallible > 0)
        self.act_fallible.toggled.connect(self.set_demo_fallible)
        view.addAction(self.act_fallible)
        help_menu = self.menuBar().addMenu("&Help")
        self.act_keys = act("Keyboard shortcuts", self.show_shortcuts, "F1", toolbar=False)
        self.act_about = act("About Michigan Companion", self.show_about, toolbar=False)
        help_menu.addAction(self.act_keys)
        help_menu.addAction(self.act_about)
        self.last_box: QMessageBox | None = None

    def shortcuts(self) -> list[tuple[str, str]]:
        """Every command that has a key, as the menus name it: (keys, command)."""
        out = []
        for a in (self.act_new, self.act_demo, self.act_open, self.act_quit, self.act_play,
                  self.act_end, self.act_undo, self.act_speak, self.act_pause, self.act_keys):
            keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if keys:
                out.append((keys, a.text().replace("…", "").replace("&", "")))
        out += [("1 – 9", "Answer the question on the yellow bar"),
                ("Y / N", "Log the held reading as read / ignore it")]
        return out

    def set_demo_fallible(self, on: bool) -> None:
        """The next rendered demo's reader misreads and misses 5% of its readings (and
        misreads some cards the same way for seconds), or none."""
        self.demo_fallible = 0.05 if on else 0.0
        if self.settings is not None:
            self.settings.setValue("demo/fallible", self.demo_fallible)

    def _set_speech(self, on: bool) -> None:
        self.speaker.enabled = on
        if self.settings is not None:
            self.settings.setValue("speech", on)

    def _box(self, title: str, html: str) -> QMessageBox:
        box = QMessageBox(QMessageBox.Icon.NoIcon, title, "", QMessageBox.StandardButton.Ok,
                          self)
        box.setTextFormat(Qt.TextFormat.RichText)
        box.setText(html)
        box.open()  # not modal to the application: the game goes on behind it
        self.last_box = box
        return box

    def show_shortcuts(self) -> QMessageBox:
        rows = "".join(f"<tr><td><b>{k}</b></td><td>&nbsp;&nbsp;{t}</td></tr>"
                       for k, t in self.shortcuts())
        return self._box("Keyboard shortcuts", f"<table>{rows}</table>")

    def show_about(self) -> QMessageBox:
        from companion import __version__

        return self._box("About Michigan Companion", (
            f"<h3>Michigan Companion {__version__}</h3>"
            "<p>Watches a card table through a camera, reads the cards, referees Michigan "
            "Rummy and its relatives, announces what comes next and keeps every player's "
            "chips.</p><p>With no camera it plays the demo table: bots play a game drawn as a "
            "camera would see it.</p>"))

    def _update_actions(self) -> None:
        live = self.session is not None and not self.replay_mode
        game = str(self.session.setup.get("game", "")) if self.session else ""
        michigan = game in ("michigan-rummy", "great-lakes", "pressman", "boodle")
        for a in (self.act_play, self.act_end, self.act_undo):
            a.setEnabled(live)
        self.act_dummy.setVisible(michigan or not game)
        self.act_dummy.setEnabled(live and michigan)
        self.act_bid.setVisible(game == "oh-claire" or not game)
        self.act_bid.setEnabled(live and game == "oh-claire")
        self.act_trump.setVisible(game == "oh-claire")
        self.act_trump.setEnabled(live and game == "oh-claire")
        self.act_hand.setVisible(game == "wanagan")
        self.act_hand.setEnabled(live and game == "wanagan")
        self.act_csv.setEnabled(self.session is not None)
        self.act_pdf.setEnabled(self.session is not None)
        self.act_pause.setEnabled(self.feed is not None)

    # --- closing ---------------------------------------------------------------------------
    def closeEvent(self, event: QCloseEvent) -> None:
        if self.settings is not None:
            self.settings.setValue("window/geometry", self.saveGeometry())
        self.stop_feed()
        self.speaker.stop()
        if self.session is not None:
            self.session.close(finished_by_user=False)  # offered again at the next start
            self.session = None
        super().closeEvent(event)
