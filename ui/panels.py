"""The main window's two panels, side by side in `MainWindow` (ui/window.py), which composes
them and connects what is clicked in them to its actions.

- `LivePanel` (the left): the announcement banner, the alert line, the `QuestionBar` (a
  reading held for a person, with its one-click answers) and the live picture, with the replay
  slider under it.
- `ReportPanel` (the right): whose turn (or who won), the game and round, the chip table and
  chart, and two tabs: the violations (Show proof) and the event list (Fix…, Delete).

Widgets only: they show what the window gives them (the referee's report, the held readings)
and say what a person asked for with a signal; no rules, no session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSlider,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from companion.events import Event
from ui.models import ChipTableModel, EventsModel, ViolationsModel
from ui.setup import GAMES
from ui.views import ChipChart, LiveView
from ui.worker import Held, answers_of


def font(points: int, bold: bool = False) -> QFont:
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


#: Pixels between two answers on a row.
ANSWER_SPACING = 6
#: The width (px) the answers may take in a row: the live panel's share of a 1366 px screen
#: beside the report panel (440 px). Long answers ("Ann played 2♥ before Ann's Q♣") go two
#: or one to a row so that the window never grows past such a screen.
ANSWER_ROOM = 860


def answer_rows(widths: Sequence[int], room: int, spacing: int) -> list[list[int]]:
    """The answers on each row of the question bar, in order, each row as many as fit in
    ``room`` pixels (a wider answer alone): ``widths`` are the buttons' own."""
    rows: list[list[int]] = []
    used = 0
    for i, w in enumerate(widths):
        if rows and used + spacing + w <= room:
            rows[-1].append(i)
            used += spacing + w
        else:
            rows.append([i])
            used = w
    return rows


class QuestionBar(QWidget):
    """The yellow bar: the first reading the pipeline holds for a person (``show_pending``),
    answered with Yes / Fix… / No beside the question or, where the question has them,
    one-click answers (the likeliest cards, who played a missed card), numbered for the keys
    1-9, on a row of their own under it: beside four wide buttons a question wrapped into a
    narrow column five lines high at 1366 x 768."""

    answered = Signal(bool)      # Yes (log it as read) or No (ignore it)
    fixRequested = Signal()      # Fix… / Something else…
    optionChosen = Signal(int)   # the one-click answer clicked (0: the first, key 1)

    def __init__(self) -> None:
        super().__init__()
        self.rows = QVBoxLayout(self)
        self.rows.setContentsMargins(8, 2, 8, 2)
        self.rows.setSpacing(2)
        cb = QHBoxLayout()
        self.rows.addLayout(cb)
        self.button_row = cb
        self.confirm_label = QLabel("")
        self.confirm_label.setFont(font(18, True))
        self.confirm_label.setWordWrap(True)
        self.confirm_yes = QPushButton("Yes, log it")
        self.confirm_fix = QPushButton("Fix…")
        self.confirm_no = QPushButton("No, ignore")
        for b in (self.confirm_yes, self.confirm_fix, self.confirm_no):
            b.setFont(font(14))
        self.confirm_yes.clicked.connect(lambda: self.answered.emit(True))
        self.confirm_no.clicked.connect(lambda: self.answered.emit(False))
        self.confirm_fix.clicked.connect(lambda: self.fixRequested.emit())
        # One-click answers (the likeliest cards, who played a missed card), keys 1-9; many
        # of them in rows that fit `ANSWER_ROOM` (nine in one row made the window 2,560 px
        # wide, far wider than a 1366 x 768 or a 1920 x 1080 screen).
        self.answer_box = QWidget()
        self.answer_row = QVBoxLayout(self.answer_box)  # a row of answers each
        self.answer_row.setContentsMargins(0, 0, 0, 0)
        self.answer_row.setSpacing(4)  # six rows of long answers fit 768 lines
        self.answer_buttons: list[QPushButton] = []
        self._answers_for: Any = None
        cb.addWidget(self.confirm_label, 1)
        cb.addWidget(self.answer_box)
        cb.addWidget(self.confirm_yes)
        cb.addWidget(self.confirm_fix)
        cb.addWidget(self.confirm_no)
        # Styled by name: an unscoped rule would also flatten the buttons into plain text.
        self.setObjectName("confirmBar")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(
            "#confirmBar { background: #fff3b0; border-radius: 6px; }"
            " #confirmBar QLabel { background: transparent; }"
            " #confirmBar QPushButton { background: #ffffff; color: #222; border: 2px solid"
            " #8a6d00; border-radius: 6px; padding: 6px 14px; }"
            " #confirmBar QPushButton:hover { background: #fff8d6; }")
        self.setVisible(False)

    def show_pending(self, pending: list[Held]) -> None:
        """Show the first held reading (and how many more wait) with its answers; hidden
        when none is held."""
        if pending:
            first = pending[0]
            more = f"  (+{len(pending) - 1} more)" if len(pending) > 1 else ""
            self.confirm_label.setText(str(first[1]) + more)
            # Shown again whenever they change, not only for a new reading: the second look
            # adds answers to a held hand as it reads, and a key pressed or a button clicked
            # picks from the answers held now, which must be those on the buttons.
            answers = answers_of(first)
            shown = (first[0], tuple(label for label, _events in answers))
            if self._answers_for != shown:
                self._show_answers(answers)
                self._answers_for = shown
        else:
            self._answers_for = None
        self.setVisible(bool(pending))

    def _show_answers(self, answers: list[tuple[str, list[dict[str, Any]]]]) -> None:
        """The question's one-click answers as buttons, the first nine numbered for keys 1-9:
        beside Something else… / No where they are few, else in rows under the question, in
        order, each row as many as fit in `ANSWER_ROOM` (`answer_rows`: short card names
        share a row, long places go two or one to a row), as `answers_of` cut them (a missed
        card's question offers the players, the places and the misreads that explain it,
        and the reading as read). With them, the answer 'as read' is one of the buttons,
        and Fix… is 'something else'."""
        while (item := self.answer_row.takeAt(0)) is not None:
            row = item.layout()
            if row is not None:
                while row.takeAt(0) is not None:
                    pass
                row.deleteLater()
        for b in self.answer_buttons:
            b.deleteLater()
        self.answer_buttons.clear()  # the same list: the window names it too
        texts = [f"{label}  [{i + 1}]" if i < 9 else label
                 for i, (label, _events) in enumerate(answers)]
        # (the button's padding and border, 14 + 2 px a side, and the grid's spacing)
        metrics = QFontMetrics(font(14, True))
        widths = [metrics.horizontalAdvance(t) + 40 for t in texts]
        rows = answer_rows(widths, ANSWER_ROOM, ANSWER_SPACING)
        # (beside Something else… and No, which take some 300 px, only where they all fit)
        wide = len(rows) > 1 or sum(widths) + 300 > ANSWER_ROOM
        lines = rows if wide else [list(range(len(texts)))] if texts else []
        for members in lines:
            line = QHBoxLayout()
            line.setSpacing(ANSWER_SPACING)
            for i in members:
                b = QPushButton(texts[i])
                b.setFont(font(14, True))
                b.clicked.connect(lambda _c=False, k=i: self.optionChosen.emit(k))
                line.addWidget(b)
                self.answer_buttons.append(b)
            self.answer_row.addLayout(line)
        self.answer_box.setVisible(bool(answers))
        self.confirm_yes.setVisible(not answers)
        self.confirm_fix.setText("Something else…" if answers else "Fix…")
        self._place_question(above=bool(answers))
        # More answers than fit beside Something else… / No: rows of their own, the whole
        # bar wide, between the question and those two.
        beside = self.button_row.indexOf(self.answer_box) >= 0
        if wide and beside:
            self.button_row.removeWidget(self.answer_box)
            self.rows.insertWidget(self.rows.indexOf(self.confirm_label) + 1, self.answer_box)
        elif not wide and not beside:
            self.rows.removeWidget(self.answer_box)
            self.button_row.insertWidget(self.button_row.indexOf(self.confirm_yes),
                                         self.answer_box)

    def _place_question(self, above: bool) -> None:
        """The question on a line of its own above the one-click answers (the buttons then
        kept right), or beside Yes / Fix… / No, taking the room they leave."""
        if above == self.question_above:
            return
        if above:
            self.button_row.removeWidget(self.confirm_label)
            self.rows.insertWidget(0, self.confirm_label)
            self.button_row.insertStretch(0, 1)
        else:
            self.button_row.takeAt(0)  # the stretch that kept the buttons right
            self.rows.removeWidget(self.confirm_label)
            self.button_row.insertWidget(0, self.confirm_label, 1)

    @property
    def question_above(self) -> bool:
        """Whether the question is on a line of its own above the buttons."""
        return self.rows.indexOf(self.confirm_label) >= 0


class LivePanel(QWidget):
    """The left of the window: the announcement banner (two lines high, read across the
    table), the alert line of the latest violation, the `QuestionBar`, the live picture
    (``live``, a `LiveView`; a card clicked in it is its ``cardClicked``) and, while a past
    game is replayed, the replay slider."""

    def __init__(self) -> None:
        super().__init__()
        self.announcement = QLabel("Welcome — start a game or watch the demo table.")
        self.announcement.setFont(font(40, True))
        self.announcement.setWordWrap(True)
        self.announcement.setStyleSheet("background: #0d2b4e; color: #ffffff; padding: 10px 18px;"
                                        " border-radius: 8px;")
        self.alert = QLabel("")
        self.alert.setFont(font(18, True))
        self.alert.setWordWrap(True)
        self.alert.setStyleSheet("color: #b3261e; padding: 2px 8px;")
        self.alert.setVisible(False)
        self.confirm_bar = QuestionBar()
        self.live = LiveView()
        self.replay_slider = QSlider(Qt.Orientation.Horizontal)
        self.replay_label = QLabel("")
        self.replay_label.setFont(font(12))
        replay_bar = QWidget()
        rb = QHBoxLayout(replay_bar)
        rb.setContentsMargins(0, 0, 0, 0)
        rb.addWidget(QLabel("Replay:"))
        rb.addWidget(self.replay_slider, 1)
        rb.addWidget(self.replay_label)
        self.replay_bar = replay_bar
        self.replay_bar.setVisible(False)
        lv = QVBoxLayout(self)
        lv.addWidget(self.announcement)
        lv.addWidget(self.alert)
        lv.addWidget(self.confirm_bar)
        lv.addWidget(self.live, 1)
        lv.addWidget(self.replay_bar)

    def apply_type_sizes(self, compact: bool) -> None:
        """The compact type sizes (a screen under 900 lines), or the large ones."""
        self.alert.setFont(font(14 if compact else 18, True))
        self.fit_announcement(compact)

    def show_announcement(self, text: str, compact: bool) -> None:
        # Big enough to read across the table; long sentences a little smaller to fit.
        self.announcement.setText(text)
        self.fit_announcement(compact)

    def fit_announcement(self, compact: bool) -> None:
        """The banner keeps the height of two lines of its largest type, so the live view
        below never jumps; a sentence too long for two lines is set smaller until it fits."""
        big, small = (28, 14) if compact else (40, 18)
        width = max(100, self.announcement.width() - 40)  # - the 18 px padding each side
        text = self.announcement.text()
        key = (text, width, compact)
        if key == getattr(self, "_banner_key", None):
            return  # nothing changed (every refresh shows the latest announcement again)
        self._banner_key = key
        two_lines = 2 * QFontMetrics(font(big, True)).lineSpacing()
        self.announcement.setFixedHeight(two_lines + 24)  # + the 10 px padding above, below
        size = big
        while size > small:
            room = QFontMetrics(font(size, True)).boundingRect(
                QRect(0, 0, width, 100000), int(Qt.TextFlag.TextWordWrap), text)
            if room.height() <= two_lines:
                break
            size -= 2
        self.announcement.setFont(font(size, True))


class ReportPanel(QWidget):
    """The right of the window, over the referee's report (``show_report``): whose turn, the
    game and round, the chip table (``chips_model``) and chart, and the tabs of violations
    (``violations_model``; Show proof or a double click asks ``proofRequested`` with the row)
    and events (``events_model``; Fix… or a double click asks ``fixRequested``, Delete
    ``deleteRequested``, with the log line, None when no row is chosen)."""

    proofRequested = Signal(int)     # a row of the violations
    fixRequested = Signal(object)    # the log line of an event, or None
    deleteRequested = Signal(object)  # the log line of an event, or None

    def __init__(self) -> None:
        super().__init__()
        self.chips_model = ChipTableModel()
        self.violations_model = ViolationsModel()
        self.events_model = EventsModel()
        self.turn_label = QLabel("")
        self.turn_label.setFont(font(30, True))
        self.turn_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.turn_label.setWordWrap(True)  # "Game over — Dee wins with 63 chips" fits
        self.turn_label.setStyleSheet("background: #fff3b0; color: #222; border-radius: 8px;"
                                      " padding: 6px;")
        self.round_label = QLabel("")
        self.round_label.setFont(font(14))
        self.round_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.chip_table = QTableView()
        self.chip_table.setModel(self.chips_model)
        self.chip_table.setFont(font(18))
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
        self.violations_table.doubleClicked.connect(lambda i: self.proofRequested.emit(i.row()))
        self.proof_button = QPushButton("Show proof")
        self.proof_button.clicked.connect(
            lambda: self.proofRequested.emit(self.selected_violation()))
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
            lambda i: self.fixRequested.emit(self.line_of_row(i.row())))
        fix = QPushButton("Fix…")
        fix.clicked.connect(lambda: self.fixRequested.emit(self.selected_line()))
        delete = QPushButton("Delete")
        delete.clicked.connect(lambda: self.deleteRequested.emit(self.selected_line()))
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
        rv = QVBoxLayout(self)
        rv.addWidget(self.turn_label)
        rv.addWidget(self.round_label)
        rv.addWidget(self.chip_table, 3)
        rv.addWidget(self.chart, 2)
        rv.addWidget(self.tabs, 3)
        self.setMinimumWidth(440)

    def apply_type_sizes(self, compact: bool) -> None:
        """The compact type sizes (a screen under 900 lines), or the large ones."""
        c = compact
        self.turn_label.setFont(font(22 if c else 30, True))
        self.round_label.setFont(font(12 if c else 14))
        self.chip_table.setFont(font(14 if c else 18))
        self.chip_table.verticalHeader().setDefaultSectionSize(26 if c else 34)

    def show_report(self, report: dict[str, Any], turn: str | None,
                    history: list[tuple[str, dict[str, int]]], events: Sequence[Event]) -> None:
        """Show the referee's ``report``: ``turn`` (whose turn it is), the chips' ``history``
        (one line per closed round, for the chart) and the effective ``events``."""
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

    def selected_line(self) -> int | None:
        rows = self.events_table.selectionModel().selectedRows()
        return self.line_of_row(rows[0].row()) if rows else None

    def line_of_row(self, row: int) -> int | None:
        ev = self.events_model.event_at(row)
        return ev.line if ev is not None else None

    def selected_violation(self) -> int:
        rows = self.violations_table.selectionModel().selectedRows()
        return rows[0].row() if rows else self.violations_model.rowCount() - 1
