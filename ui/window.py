"""The main window: live picture, a large announcement line, whose turn, the chip table and
chart, violations with proof, the event list with corrections, undo, saved games and export.

The window holds no rules: every change is an event appended to the game's log (or a
``correct`` event), and everything shown is re-read from the referee's replay of that log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PySide6.QtCore import QByteArray, QRect, QSettings, Qt, Signal, Slot
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QKeySequence,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QSlider,
    QSplitter,
    QTableView,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from calibration.profile import TableProfile
from companion.diagnostics import log_failure
from companion.events import Event, LogFileError, describe_event
from ui import export
from ui.demo import DEMO_PLAYERS, DemoTable
from ui.dialogs import (
    BidDialog,
    DummyDialog,
    EndRoundDialog,
    EventDialog,
    HandDialog,
    OpenGameDialog,
    PlayDialog,
    TrumpDialog,
)
from ui.models import ChipTableModel, EventsModel, ViolationsModel
from ui.proof import ProofDialog
from ui.setup import DEMO_SOURCE, GAMES, GameSetup, SetupDialog
from ui.speech import Speaker
from ui.store import GameInfo, GameSession, GameStore, chip_history, replay_prefix
from ui.worker import DemoFeed, Feed, FeedThread, FramePacket, Held, SeenEvent, answers_of

FaceUp = ("play", "reveal", "meld", "layoff", "discard", "trump", "upcard")


def _font(points: int, bold: bool = False) -> QFont:
    f = QFont()
    f.setPointSize(points)
    f.setBold(bold)
    return f


def game_over_text(report: dict[str, Any]) -> str:
    """Who won a finished game: the most chips (points in Michigan Rum), ties named."""
    scores = report.get("chips") or {}
    if not scores:
        return "Game over"
    top = max(scores.values())
    best = sorted(p for p, n in scores.items() if n == top)
    unit = "points" if report.get("game") == "michigan-rum" else "chips"
    if len(best) == 1:
        return f"Game over — {best[0]} wins with {top} {unit}"
    return f"Game over — {', '.join(best[:-1])} and {best[-1]} tie with {top} {unit}"


class MainWindow(QMainWindow):
    """The companion's window. Tests drive it through its public methods and signals."""

    announced = Signal(str)       # each new announcement, as shown
    eventLogged = Signal(int)     # the log line of every event appended
    refreshed = Signal()          # after the display was rebuilt from the referee
    feedFinished = Signal()       # the table feed ended (the demo game is over)
    problem = Signal(str)         # something went wrong that the user is told about

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
        #: Who reads the rendered demo's cards: "truth" (the renderer) or "model" (the weights).
        self.demo_detector = "truth"
        #: How often the rendered demo's reader misreads and misses a card per frame (0: never),
        #: to show how the app copes with a fallible camera (View → Demo camera makes
        #: mistakes; remembered in the settings).
        self.demo_fallible = (float(settings.value("demo/fallible", 0.0) or 0.0)  # type: ignore[arg-type]
                              if settings is not None else 0.0)
        self._last_frame: np.ndarray | None = None
        self._n_announced = 0
        self._n_violations = 0
        self.chips_model = ChipTableModel()
        self.violations_model = ViolationsModel()
        self.events_model = EventsModel()
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
        c = self.compact
        self.alert.setFont(_font(14 if c else 18, True))
        self.turn_label.setFont(_font(22 if c else 30, True))
        self.round_label.setFont(_font(12 if c else 14))
        self.chip_table.setFont(_font(14 if c else 18))
        self.chip_table.verticalHeader().setDefaultSectionSize(26 if c else 34)
        self._fit_announcement()

    def _fit_announcement(self) -> None:
        """The banner keeps the height of two lines of its largest type, so the live view
        below never jumps; a sentence too long for two lines is set smaller until it fits."""
        big, small = (28, 14) if self.compact else (40, 18)
        width = max(100, self.announcement.width() - 40)  # - the 18 px padding each side
        text = self.announcement.text()
        key = (text, width, self.compact)
        if key == getattr(self, "_banner_key", None):
            return  # nothing changed (every refresh shows the latest announcement again)
        self._banner_key = key
        two_lines = 2 * QFontMetrics(_font(big, True)).lineSpacing()
        self.announcement.setFixedHeight(two_lines + 24)  # + the 10 px padding above, below
        size = big
        while size > small:
            room = QFontMetrics(_font(size, True)).boundingRect(
                QRect(0, 0, width, 100000), int(Qt.TextFlag.TextWordWrap), text)
            if room.height() <= two_lines:
                break
            size -= 2
        self.announcement.setFont(_font(size, True))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if hasattr(self, "announcement"):
            self._fit_announcement()

    def _build(self) -> None:
        from ui.views import ChipChart, LiveView

        self.announcement = QLabel("Welcome — start a game or watch the demo table.")
        self.announcement.setFont(_font(40, True))
        self.announcement.setWordWrap(True)
        self.announcement.setStyleSheet("background: #0d2b4e; color: #ffffff; padding: 10px 18px;"
                                        " border-radius: 8px;")
        self.alert = QLabel("")
        self.alert.setFont(_font(18, True))
        self.alert.setWordWrap(True)
        self.alert.setStyleSheet("color: #b3261e; padding: 2px 8px;")
        self.alert.setVisible(False)
        self.confirm_bar = QWidget()
        cb = QHBoxLayout(self.confirm_bar)
        cb.setContentsMargins(8, 2, 8, 2)
        self.confirm_label = QLabel("")
        self.confirm_label.setFont(_font(18, True))
        self.confirm_label.setWordWrap(True)
        self.confirm_yes = QPushButton("Yes, log it")
        self.confirm_fix = QPushButton("Fix…")
        self.confirm_no = QPushButton("No, ignore")
        for b in (self.confirm_yes, self.confirm_fix, self.confirm_no):
            b.setFont(_font(14))
        self.confirm_yes.clicked.connect(lambda: self.answer_pending(True))
        self.confirm_no.clicked.connect(lambda: self.answer_pending(False))
        self.confirm_fix.clicked.connect(lambda: self.fix_pending())
        # One-click answers (the likeliest cards, who played a missed card), keys 1-9.
        self.answer_box = QWidget()
        self.answer_row = QHBoxLayout(self.answer_box)
        self.answer_row.setContentsMargins(0, 0, 0, 0)
        self.answer_buttons: list[QPushButton] = []
        self._answers_for: Any = None
        cb.addWidget(self.confirm_label, 1)
        cb.addWidget(self.answer_box)
        cb.addWidget(self.confirm_yes)
        cb.addWidget(self.confirm_fix)
        cb.addWidget(self.confirm_no)
        for key in range(1, 10):
            sc = QShortcut(QKeySequence(str(key)), self)
            sc.activated.connect(lambda k=key: self.answer_option(k - 1))
        for letter, slot in (("Y", lambda: self.answer_pending(True)),
                             ("N", lambda: self.answer_pending(False))):
            QShortcut(QKeySequence(letter), self).activated.connect(slot)
        # Styled by name: an unscoped rule would also flatten the buttons into plain text.
        self.confirm_bar.setObjectName("confirmBar")
        self.confirm_bar.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.confirm_bar.setStyleSheet(
            "#confirmBar { background: #fff3b0; border-radius: 6px; }"
            " #confirmBar QLabel { background: transparent; }"
            " #confirmBar QPushButton { background: #ffffff; color: #222; border: 2px solid"
            " #8a6d00; border-radius: 6px; padding: 6px 14px; }"
            " #confirmBar QPushButton:hover { background: #fff8d6; }")
        self.confirm_bar.setVisible(False)
        self.pending: list[Held] = []
        self.live = LiveView()
        self.live.cardClicked.connect(self.fix_card)
        self.replay_slider = QSlider(Qt.Orientation.Horizontal)
        self.replay_slider.valueChanged.connect(self._replay_to)
        self.replay_label = QLabel("")
        self.replay_label.setFont(_font(12))
        replay_bar = QWidget()
        rb = QHBoxLayout(replay_bar)
        rb.setContentsMargins(0, 0, 0, 0)
        rb.addWidget(QLabel("Replay:"))
        rb.addWidget(self.replay_slider, 1)
        rb.addWidget(self.replay_label)
        self.replay_bar = replay_bar
        self.replay_bar.setVisible(False)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addWidget(self.announcement)
        lv.addWidget(self.alert)
        lv.addWidget(self.confirm_bar)
        lv.addWidget(self.live, 1)
        lv.addWidget(self.replay_bar)

        self.turn_label = QLabel("")
        self.turn_label.setFont(_font(30, True))
        self.turn_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.turn_label.setWordWrap(True)  # "Game over — Dee wins with 63 chips" fits
        self.turn_label.setStyleSheet("background: #fff3b0; color: #222; border-radius: 8px;"
                                      " padding: 6px;")
        self.round_label = QLabel("")
        self.round_label.setFont(_font(14))
        self.round_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.chip_table = QTableView()
        self.chip_table.setModel(self.chips_model)
        self.chip_table.setFont(_font(18))
        self.chip_table.verticalHeader().setVisible(False)
        self.chip_table.verticalHeader().setDefaultSectionSize(34)
        header = self.chip_table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.chip_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.chip_table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.chart = ChipChart()
        self.violations_table = QTableView()
        self.violations_table.setModel(self.violations_model)
        self.violations_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.violations_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        vh = self.violations_table.horizontalHeader()
        for col in (0, 1, 2, 4):
            vh.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        vh.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.violations_table.setWordWrap(True)
        self.violations_table.verticalHeader().setVisible(False)
        self.violations_table.doubleClicked.connect(lambda i: self.show_proof(i.row()))
        self.proof_button = QPushButton("Show proof")
        self.proof_button.clicked.connect(lambda: self.show_proof(self._selected_violation()))
        vio = QWidget()
        vv = QVBoxLayout(vio)
        vv.addWidget(self.violations_table)
        vv.addWidget(self.proof_button)
        self.events_table = QTableView()
        self.events_table.setModel(self.events_model)
        self.events_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.events_table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.events_table.horizontalHeader().setStretchLastSection(True)
        self.events_table.verticalHeader().setVisible(False)
        self.events_table.doubleClicked.connect(
            lambda i: self.fix_event(self._line_of_row(i.row())))
        fix = QPushButton("Fix…")
        fix.clicked.connect(lambda: self.fix_event(self._selected_line()))
        delete = QPushButton("Delete")
        delete.clicked.connect(lambda: self.delete_event(self._selected_line()))
        ev_box = QWidget()
        ev = QVBoxLayout(ev_box)
        ev.addWidget(self.events_table)
        er = QHBoxLayout()
        er.addWidget(fix)
        er.addWidget(delete)
        ev.addLayout(er)
        self.tabs = QTabWidget()
        self.tabs.addTab(vio, "Violations")
        self.tabs.addTab(ev_box, "Events")
        self.tabs.currentChanged.connect(
            lambda i: self.events_table.scrollToBottom() if i == 1 else None)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.addWidget(self.turn_label)
        rv.addWidget(self.round_label)
        rv.addWidget(self.chip_table, 3)
        rv.addWidget(self.chart, 2)
        rv.addWidget(self.tabs, 3)
        right.setMinimumWidth(440)
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

    # --- starting and stopping -------------------------------------------------------------
    def start_demo(self, game: str = "michigan-rummy", players: Sequence[str] = DEMO_PLAYERS,
                   seed: int = 1, rounds: int | None = 2, chips: int | None = 50,
                   mistakes: float = 0.08, interval_ms: int | None = None,
                   rendered: bool = False, detector: str | None = None,
                   why: str = "") -> GameSession:
        """Play the built-in demo table (a simulated game) through the whole window. ``why``
        says why the demo plays (``"no camera found"``), shown with it.

        ``rendered``: the game is drawn as camera frames and read by the vision pipeline
        (detector, zones, tracker), as at a real table; otherwise each simulated event is
        logged directly and drawn on a plain picture of the table (fast, exact).
        """
        params = {"game": game, "players": list(players), "seed": seed, "rounds": rounds,
                  "chips": chips, "mistakes": mistakes, "rendered": rendered,
                  "detector": detector or self.demo_detector, "fallible": self.demo_fallible}
        table = DemoTable.simulated(game, players, seed=seed, rounds=rounds, mistakes=mistakes,
                                    chips=chips)
        self._close_session(dismiss=True)
        session = self.store.new_game(table.events[0], source="demo", extra={"demo": params})
        self._open_session(session)
        self._start_demo_feed(table, session, params, interval_ms)
        self._show_source("demo", why)
        return session

    def _show_source(self, kind: str, why: str = "", camera: str = "") -> None:
        """Say plainly, and keep in view, what the window is watching."""
        if kind == "demo":
            lead = f"{why[:1].upper()}{why[1:]}: " if why else ""
            self.source_label.setText("DEMO TABLE" + (f" ({why})" if why else ""))
            self.status.showMessage(f"{lead}this is the demo table. Bots play a made-up game, "
                                    "drawn as a camera would see it, and the companion reads, "
                                    "referees and announces it as it would at your table. "
                                    "Game → New game starts a real one.", 15000)
        elif kind == "camera":
            from ui.camera import camera_name

            self.source_label.setText(camera_name(camera))
        else:
            self.source_label.setText(kind)

    def _start_demo_feed(self, table: DemoTable, session: GameSession, params: dict[str, Any],
                         interval_ms: int | None) -> None:
        if params.get("rendered"):
            events, log, seed = table.events, session.log, int(params.get("seed") or 0)
            ms = 100 if interval_ms is None else interval_ms
            which = str(params.get("detector") or "truth")
            fallible = float(params.get("fallible") or 0.0)

            def make() -> Feed:
                try:
                    from ui.rendered import RenderedDemoFeed

                    return RenderedDemoFeed(events, log, seed, ms, which, fallible=fallible)
                except Exception as exc:  # noqa: BLE001 - vision not installed or broken
                    why = log_failure("the rendered demo table could not start", exc)
                    fed = sum(1 for e in session.events if e.kind != "correct")
                    plain = DemoFeed(DemoTable(events, start=fed), 1100 if interval_ms is None
                                     else interval_ms)
                    plain.notices = [f"{why} Showing the drawn demo table instead; reinstall "
                                     f"the app (pip install 'michigan-companion[app]') to "
                                     f"get the camera view back."]
                    return plain

            self._start_feed(make)
        else:
            ms = 1100 if interval_ms is None else interval_ms
            self._start_feed(lambda: DemoFeed(table, ms))

    def start_game(self, gs: GameSetup, interval_ms: int | None = None) -> GameSession:
        """Start the game a `SetupDialog` decided: demo table or camera."""
        if gs.source == DEMO_SOURCE:
            chips = gs.setup.get("chips")
            return self.start_demo(gs.game, gs.players, rounds=gs.setup.get("rounds"),
                                   chips=chips if isinstance(chips, int) else None,
                                   interval_ms=interval_ms, rendered=self.rendered_demo)
        self._close_session(dismiss=True)
        extra: dict[str, Any] = {"camera": gs.source}
        if gs.profile is not None:
            extra["profile"] = gs.profile.to_json()
        session = self.store.new_game(gs.setup, source="camera", extra=extra)
        self._open_session(session)
        self.append_events([{"event": "round", "dealer": gs.first_dealer, "source": "user"}])
        self._start_camera(gs.source, gs.profile)
        self._show_source("camera", camera=gs.source)
        return session

    def resume(self, info: GameInfo | Path, interval_ms: int | None = None
               ) -> GameSession | None:
        """Carry on with a saved game exactly where its log stops. None, said on screen, when
        its log cannot be written (another program or window is writing it: `LogLockedError`
        names it and the lock file)."""
        path = info.path if isinstance(info, GameInfo) else Path(info)
        self._close_session(dismiss=False)
        try:
            session = GameSession(path)
        except LogFileError as exc:
            self.show_problem(f"Cannot carry on with this game: {exc}. You can still replay "
                              f"it (Game → Open).")
            return None
        self._open_session(session)
        meta = session.meta
        demo = meta.get("demo")
        if meta.get("source") == "demo" and isinstance(demo, dict):
            fed = sum(1 for e in session.events
                      if e.kind != "correct" and e.get("source") != "user")
            table = DemoTable.simulated(demo["game"], demo["players"], seed=demo["seed"],
                                        rounds=demo["rounds"], mistakes=demo["mistakes"],
                                        chips=demo["chips"],
                                        start=1 if demo.get("rendered") else fed)
            self._start_demo_feed(table, session, demo, interval_ms)
            self._show_source("demo")
        else:
            profile = None
            if isinstance(meta.get("profile"), dict):
                try:
                    profile = TableProfile.from_json(meta["profile"])
                except (ValueError, KeyError):
                    profile = None
            self._start_camera(str(meta.get("camera", "0")), profile)
            self._show_source("camera", camera=str(meta.get("camera", "0")))
        self.status.showMessage("Resumed the saved game where it stopped.", 8000)
        return session

    def open_replay(self, path: Path | str) -> GameSession:
        """Open a past game to replay and export it: read only, so a game another program is
        still writing can be replayed too."""
        self._close_session(dismiss=False)
        session = GameSession(Path(path), read_only=True)
        self.replay_mode = True
        self._open_session(session)
        lines = [e.line for e in session.effective()]
        self._replay_lines = lines
        self.replay_bar.setVisible(True)
        self.replay_slider.blockSignals(True)
        self.replay_slider.setRange(0, max(0, len(lines) - 1))
        self.replay_slider.setValue(max(0, len(lines) - 1))
        self.replay_slider.blockSignals(False)
        self._replay_to(self.replay_slider.value())
        self._show_source("Replay of a past game")
        return session

    def _open_session(self, session: GameSession) -> None:
        self.session = session
        # A new game starts clean: nothing of the previous one stays in view.
        self.alert.clear()
        self.alert.setVisible(False)
        self.live.clear()
        self._last_frame = None
        self._n_announced = len(session.report()["announcements"])
        self._n_violations = len(session.report()["violations"])
        self.replay_bar.setVisible(self.replay_mode)
        self.profile = None
        self.live.set_profile(None)
        self.setWindowTitle(f"Michigan Companion — {session.setup.get('game')}")
        self.refresh(speak=False)
        report = session.report()
        if report["announcements"]:
            self._show_announcement(report["announcements"][-1]["text"], speak=False)
        else:
            self._show_announcement("Game set up. Waiting for the first card…", speak=False)
        self._update_actions()

    def _start_feed(self, make_feed: Callable[[], Feed]) -> None:
        self.stop_feed()
        feed = FeedThread(make_feed, self)
        feed.worker.ready.connect(self._on_ready)
        feed.worker.frameReady.connect(self._on_frame)
        feed.worker.eventSeen.connect(self._on_event)
        feed.worker.note.connect(self._on_note)  # a method: runs in this (the GUI) thread
        feed.worker.failed.connect(self._on_failed)
        feed.worker.feedDone.connect(self._on_feed_done)
        feed.worker.pendingChanged.connect(self._on_pending)
        self.feed = feed
        feed.start()
        self._update_actions()

    def _start_camera(self, source: str, profile: TableProfile | None) -> None:
        from ui.camera import make_camera_feed

        players = self.session.players if self.session else []
        game = str(self.session.setup.get("game")) if self.session else "michigan-rummy"
        log = self.session.log if self.session else None
        self._start_feed(lambda: make_camera_feed(source, profile, game, players, log))

    def stop_feed(self) -> None:
        self.pending = []
        self.confirm_bar.setVisible(False)
        if self.feed is not None:
            self.feed.stop()
            self.feed.deleteLater()
            self.feed = None
        self.act_pause.setChecked(False)

    def _close_session(self, dismiss: bool) -> None:
        self.stop_feed()
        if self.session is not None:
            self.session.close(finished_by_user=dismiss)
        self.session = None
        self.replay_mode = False
        self.replay_bar.setVisible(False)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.settings is not None:
            self.settings.setValue("window/geometry", self.saveGeometry())
        self.stop_feed()
        self.speaker.stop()
        if self.session is not None:
            self.session.close(finished_by_user=False)  # offered again at the next start
            self.session = None
        super().closeEvent(event)

    # --- from the feed ---------------------------------------------------------------------
    def _current(self) -> bool:
        """True when the signal being handled comes from the running feed (not a stopped one
        whose queued signals are still arriving)."""
        return self.feed is not None and self.sender() is self.feed.worker

    @Slot(object)
    def _on_ready(self, profile: TableProfile) -> None:
        if not self._current():
            return
        self.profile = profile
        self.live.set_profile(profile, self.session.players if self.session else [])

    @Slot(object)
    def _on_frame(self, packet: FramePacket) -> None:
        if self.replay_mode or not self._current():
            return
        self._last_frame = packet.image
        self.live.set_frame(packet.image, packet.marks)

    @Slot(object)
    def _on_event(self, seen: SeenEvent) -> None:
        if self.session is None or self.replay_mode or not self._current():
            return
        if seen.line is not None:  # the vision pipeline wrote it already
            line = self.session.adopt(seen.line, seen.event, seen.evidence)
        else:
            line = self.session.append(seen.event, seen.evidence)
        self.eventLogged.emit(line)
        self.refresh()

    @Slot(object)
    def _on_pending(self, pending: list[Held]) -> None:
        if not self._current():
            return
        self.pending = list(pending)
        if self.pending:
            first = self.pending[0]
            more = f"  (+{len(self.pending) - 1} more)" if len(self.pending) > 1 else ""
            self.confirm_label.setText(str(first[1]) + more)
            if self._answers_for != first[0]:
                self._show_answers(answers_of(first))
                self._answers_for = first[0]
        else:
            self._answers_for = None
        self.confirm_bar.setVisible(bool(self.pending))

    def _show_answers(self, answers: list[tuple[str, list[dict[str, Any]]]]) -> None:
        """The question's one-click answers as buttons, numbered for keys 1-9. With them, the
        answer 'as read' is one of the buttons, and Fix… is 'something else'."""
        for b in self.answer_buttons:
            self.answer_row.removeWidget(b)
            b.deleteLater()
        self.answer_buttons = []
        for i, (label, _events) in enumerate(answers[:9]):
            b = QPushButton(f"{label}  [{i + 1}]")
            b.setFont(_font(14, True))
            b.clicked.connect(lambda _c=False, k=i: self.answer_option(k))
            self.answer_row.addWidget(b)
            self.answer_buttons.append(b)
        self.answer_box.setVisible(bool(answers))
        self.confirm_yes.setVisible(not answers)
        self.confirm_fix.setText("Something else…" if answers else "Fix…")

    def answer_option(self, index: int) -> None:
        """Answer the first held reading with its one-click answer ``index`` (key 1 is 0)."""
        if not self.pending or self.feed is None:
            return
        answers = answers_of(self.pending[0])
        if not 0 <= index < len(answers):
            return
        events = answers[index][1]
        self.feed.worker.answerRequested.emit(self.pending[0][0], list(events) or None)

    def answer_pending(self, accept: bool, event: dict[str, Any] | None = None) -> None:
        """Answer the first reading the pipeline holds: log it (as read, or ``event``) or not."""
        if not self.pending or self.feed is None:
            return
        pid, held = self.pending[0][0], self.pending[0][2]
        self.feed.worker.answerRequested.emit(pid, (event or held) if accept else None)

    def fix_pending(self, prepare: Callable[[EventDialog], None] | None = None) -> None:
        if not self.pending:
            return
        held = self.pending[0][2]
        cards = held.get("cards") or [held.get("card")]
        dlg: EventDialog = PlayDialog(self._players(), held.get("player"),
                                      " ".join(str(c) for c in cards if c),
                                      title="What was laid down?",
                                      kind=str(held.get("event") or "play"), choose_kind=True)
        dlg.setParent(self, dlg.windowFlags())
        if prepare is not None:
            prepare(dlg)
        self.last_dialog = dlg
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.answer_pending(True, dlg.events()[0])

    @Slot(str)
    def _on_note(self, text: str) -> None:
        if self._current():
            # A lost camera stays said until it is back (that note replaces it).
            self.status.showMessage(text, 0 if text.startswith("Camera lost") else 6000)

    @Slot(str)
    def _on_failed(self, text: str) -> None:
        self.show_problem(text)

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

    @Slot()
    def _on_feed_done(self) -> None:
        if not self._current():
            return
        self.status.showMessage("The demo game is over. Start a new game or replay this one.")
        self.feedFinished.emit()

    def _set_paused(self, paused: bool) -> None:
        if self.feed is not None:
            self.feed.worker.set_paused(paused)

    def _set_speech(self, on: bool) -> None:
        self.speaker.enabled = on
        if self.settings is not None:
            self.settings.setValue("speech", on)

    # --- the display -----------------------------------------------------------------------
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
        closed = [h for label, h in history if label not in ("Now", "Final")]
        round_start = closed[-1] if closed else {}
        if report["finished"]:
            self.turn_label.setText(game_over_text(report))
        else:
            self.turn_label.setText(f"{turn}'s turn" if turn else "Any player")
        title = GAMES.get(report["game"], report["game"])  # as the box names it, not its id
        self.round_label.setText(f"{title} · round {report['round']}"
                                 + (" · finished" if report["finished"] else ""))
        self.chips_model.set_report(report, round_start, turn)
        self.chart.set_history(list(report["chips"]), history)
        self.violations_model.set_violations(report["violations"])
        self.tabs.setTabText(0, f"Violations ({len(report['violations'])})")
        bar = self.events_table.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2  # follow the game unless the user scrolled
        self.events_model.set_events([e for e in events if e.kind != "game"])
        if at_end:
            self.events_table.scrollToBottom()
        self.live.set_pots(report["pots"])
        if report["errors"]:
            self.status.showMessage(report["errors"][-1]["text"], 8000)

    def _show_announcement(self, text: str, speak: bool = True) -> None:
        # Big enough to read across the table; long sentences a little smaller to fit.
        self.announcement.setText(text)
        self._fit_announcement()
        if speak:
            self.speaker.say(text)

    # --- entering what the camera cannot see -----------------------------------------------
    def append_events(self, events: Sequence[dict[str, Any]]) -> list[int]:
        """Append events typed in by a person; the current picture is kept as their evidence
        when they are face-up cards."""
        if self.session is None or self.replay_mode:
            return []
        lines = []
        for ev in events:
            frame = self._masked_last_frame() if ev.get("event") in FaceUp else None
            line = self.session.append(ev, frame)
            lines.append(line)
            self.eventLogged.emit(line)
        self._resync_feed()
        self.refresh()
        return lines

    def _resync_feed(self) -> None:
        if self.feed is not None:
            self.feed.worker.resyncRequested.emit()

    def _masked_last_frame(self) -> np.ndarray | None:
        if self._last_frame is None:
            return None
        if self.profile is not None:
            return self.profile.mask_private(self._last_frame)
        return None  # without calibration nothing is known to be public: keep nothing

    def enter(self, make: Callable[[], EventDialog],
              prepare: Callable[[EventDialog], None] | None = None) -> EventDialog | None:
        """Open an entry dialog; on OK its events are appended. Returns the dialog."""
        if self.session is None or self.replay_mode:
            return None
        dlg = make()
        dlg.setParent(self, dlg.windowFlags())
        if prepare is not None:
            prepare(dlg)
        self.last_dialog = dlg
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.append_events(dlg.events())
        return dlg

    def _players(self) -> list[str]:
        return self.session.players if self.session else []

    def _dummy_dialog(self) -> EventDialog:
        return DummyDialog(self._players())

    def _bid_dialog(self) -> EventDialog:
        turn = self.session.turn() if self.session else None
        return BidDialog(self._players(), turn)

    def _play_dialog(self) -> EventDialog:
        turn = self.session.turn() if self.session else None
        return PlayDialog(self._players(), turn)

    def _end_dialog(self) -> EventDialog:
        players = self._players()
        dealer = None
        if self.session is not None:
            rounds = [e for e in self.session.effective() if e.kind == "round"]
            if rounds and rounds[-1].get("dealer") in players:
                i = players.index(str(rounds[-1].get("dealer")))
                dealer = players[(i + 1) % len(players)]
        finished = bool(self.session and self.session.report()["finished"])
        return EndRoundDialog(players, dealer, game_over=finished)

    # --- corrections -----------------------------------------------------------------------
    def _selected_line(self) -> int | None:
        rows = self.events_table.selectionModel().selectedRows()
        return self._line_of_row(rows[0].row()) if rows else None

    def _line_of_row(self, row: int) -> int | None:
        ev = self.events_model.event_at(row)
        return ev.line if ev is not None else None

    def correct(self, line: int, new_event: dict[str, Any] | None) -> int | None:
        """Replace (None: delete) the event at ``line`` with a ``correct`` event."""
        if self.session is None or self.replay_mode:
            return None
        try:
            out = self.session.correct(line, new_event)
        except ValueError as exc:
            self.status.showMessage(str(exc), 6000)
            return None
        self.eventLogged.emit(out)
        self._resync_feed()
        self.status.showMessage(f"Line {line} corrected.", 4000)
        self.refresh(speak=False)
        return out

    def fix_event(self, line: int | None,
                  prepare: Callable[[EventDialog], None] | None = None) -> EventDialog | None:
        """Fix a misread event: a dialog pre-filled with it; OK writes the correction."""
        if line is None or self.session is None or self.replay_mode:
            return None
        ev = self.session.event_at(line)
        if ev is None or ev.kind == "game":
            return None
        data = dict(ev.data)
        kind = ev.kind
        dlg: EventDialog
        if kind in ("play", "reveal", "meld", "layoff", "discard"):
            cards = data.get("cards") or [data.get("card")]
            text = " ".join(str(c) for c in cards if c)
            dlg = PlayDialog(self._players(), data.get("player"), text,
                             title=f"Fix line {line}: {describe_event(data)}", kind=kind)
        elif kind == "dummy":
            dlg = DummyDialog(self._players())
        elif kind == "bid":
            dlg = BidDialog(self._players(), data.get("player"))
        elif kind == "trump":
            dlg = TrumpDialog()
        else:
            self.status.showMessage("This event can only be deleted, not edited.", 5000)
            return None
        dlg.setParent(self, dlg.windowFlags())
        if prepare is not None:
            prepare(dlg)
        self.last_dialog = dlg
        if dlg.exec() == QDialog.DialogCode.Accepted:
            new = dlg.events()[0]
            for key, value in data.items():  # keep fields the dialog does not edit
                if key not in new and key not in ("card", "cards", "source"):
                    new[key] = value
            new["source"] = "user"
            self.correct(line, new)
        return dlg

    def fix_card(self, code: str, prepare: Callable[[EventDialog], None] | None = None
                 ) -> EventDialog | None:
        """A card clicked in the picture: fix the latest event that put it on the table."""
        if self.session is None:
            return None
        for ev in reversed(self.session.effective()):
            cards = ev.get("cards") or [ev.get("card")]
            if ev.kind in FaceUp and code in cards:
                return self.fix_event(ev.line, prepare)
        self.status.showMessage(f"No logged event holds {code}.", 5000)
        return None

    def delete_event(self, line: int | None) -> None:
        if line is not None:
            self.correct(line, None)

    def undo(self) -> int | None:
        if self.session is None or self.replay_mode:
            return None
        line = self.session.undo()
        self._resync_feed()
        if line is not None:
            self.status.showMessage(f"Undone: line {line}.", 4000)
            self.refresh(speak=False)
        return line

    # --- proof -----------------------------------------------------------------------------
    def _selected_violation(self) -> int:
        rows = self.violations_table.selectionModel().selectedRows()
        return rows[0].row() if rows else self.violations_model.rowCount() - 1

    def show_proof(self, row: int, modal: bool = True) -> ProofDialog | None:
        if self.session is None:
            return None
        v = self.violations_model.violation(row)
        if v is None:
            return None
        dlg = ProofDialog(self.session, v, self)
        self.last_proof = dlg
        if modal:
            dlg.exec()
        else:
            dlg.show()
        return dlg

    # --- saved games, replay and export ----------------------------------------------------
    def new_game(self) -> GameSetup | None:
        from ui.camera import find_cameras

        dlg = SetupDialog(find_cameras(), self, rendered_demo=self.rendered_demo)
        if self.settings is not None:  # the camera chosen last time, when it is still there
            dlg.choose_source(str(self.settings.value("camera", "") or ""))
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        gs = dlg.result_setup()
        if self.settings is not None:
            self.settings.setValue("camera", gs.source)
        self.start_game(gs)
        return gs

    def open_game_dialog(self) -> None:
        dlg = OpenGameDialog(self.store, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            info = dlg.chosen()
            if info is not None:
                self.open_replay(info.path)

    def _replay_to(self, k: int) -> None:
        if self.session is None or not self.replay_mode:
            return
        lines = getattr(self, "_replay_lines", [])
        if not lines:
            return
        line = lines[max(0, min(k, len(lines) - 1))]
        result = replay_prefix(self.session.events, line)
        report = result.report()
        turn = result.referee.turn() if result.referee and not report["finished"] else None
        self._show_report(report, turn, chip_history(result.referee, self.session.setup),
                          [e for e in self.session.effective() if e.line <= line])
        said = [a["text"] for a in report["announcements"] if a["line"] == line]
        at = self.session.event_at(line)
        text = said[-1] if said else (describe_event(dict(at.data)) if at is not None else "")
        self._show_announcement(text, speak=False)
        self.replay_label.setText(f"line {line} / {lines[-1]}")
        shown = [n for n in self.session.evidence_lines() if n <= line]
        frame = self.session.evidence(shown[-1]) if shown else None
        if frame is not None:
            self.live.set_frame(frame)
        self.refreshed.emit()

    def export_csv(self, path: str | Path | None = None) -> Path | None:
        if self.session is None:
            return None
        if path is None:
            name, _ = QFileDialog.getSaveFileName(self, "Export scoresheet (CSV)",
                                                  "scoresheet.csv", "CSV (*.csv)")
            if not name:
                return None
            path = name
        return export.export_csv(self.session, path)

    def export_pdf(self, path: str | Path | None = None) -> Path | None:
        if self.session is None:
            return None
        if path is None:
            name, _ = QFileDialog.getSaveFileName(self, "Export scoresheet (PDF)",
                                                  "scoresheet.pdf", "PDF (*.pdf)")
            if not name:
                return None
            path = name
        return export.export_pdf(self.session, path)

    def offer_resume(self, ask: Callable[[GameInfo], bool] | None = None) -> GameSession | None:
        """Offer to carry on with an unfinished game (after a crash or a restart)."""
        info = self.store.resumable()
        if info is None:
            return None
        if ask is None:
            def ask(i: GameInfo) -> bool:
                answer = QMessageBox.question(
                    self, "Resume the game?",
                    f"An unfinished game was found:\n{i.title}\n\nCarry on where it stopped?")
                return answer == QMessageBox.StandardButton.Yes
        if ask(info):
            return self.resume(info)
        GameSession(info.path, read_only=True).update_meta(closed=True)  # do not ask again
        return None
