"""Thin Qt table models over the referee's report: chips, violations, the game's events, games.

No rules live here: each model only lays out rows of data computed by the referee (or read
from the log) and is refreshed wholesale with `set_*` after every event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from companion.cards import pretty_name
from companion.events import Event, describe_event
from ui.store import GameInfo

Index = QModelIndex | QPersistentModelIndex
_ROLE_DISPLAY = Qt.ItemDataRole.DisplayRole
_INVALID = QModelIndex()


class _RowsModel(QAbstractTableModel):
    """A table of ``_rows`` under the column titles ``HEADERS`` (the shape every model here
    shares); subclasses fill ``_rows`` and say what each cell shows in ``data``."""

    HEADERS: tuple[str, ...] = ()
    _rows: list[Any]

    def rowCount(self, parent: Index = _INVALID) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = _INVALID) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = _ROLE_DISPLAY) -> Any:
        if role == _ROLE_DISPLAY and orientation == Qt.Orientation.Horizontal:
            if 0 <= section < len(self.HEADERS):
                return self.HEADERS[section]
        return None


class ChipTableModel(_RowsModel):
    """Players then cups: name, chips now, and the change since the round began."""

    HEADERS = ("Who", "Chips", "Round")

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[tuple[str, int, int | None, bool]] = []  # name, chips, delta, player?
        self._turn: str | None = None

    def set_report(self, report: dict[str, Any], round_start: dict[str, int] | None = None,
                   turn: str | None = None) -> None:
        self.beginResetModel()
        start = round_start or {}
        rows: list[tuple[str, int, int | None, bool]] = []
        for name, chips in report.get("chips", {}).items():
            delta = chips - start[name] if name in start else None
            rows.append((name, int(chips), delta, True))
        for name, chips in report.get("pots", {}).items():
            rows.append((name, int(chips), None, False))
        self._rows = rows
        self._turn = turn
        self.endResetModel()

    def data(self, index: Index, role: int = _ROLE_DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        name, chips, delta, is_player = self._rows[index.row()]
        col = index.column()
        if role == _ROLE_DISPLAY:
            if col == 0:
                if not is_player:
                    return pretty_name(name)  # a cup named after its card: A♠, not AS
                return f"▶ {name}" if is_player and name == self._turn else name
            if col == 1:
                return str(chips)
            if col == 2:
                return "" if delta is None else f"{delta:+d}"
            return None
        if role == Qt.ItemDataRole.UserRole:
            return name
        if role == Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            if is_player:
                font.setBold(col == 1 or name == self._turn)
            return font
        if role == Qt.ItemDataRole.ForegroundRole:
            if col == 2 and delta:
                return QColor("#1b7f2a") if delta > 0 else QColor("#b3261e")
            if not is_player:
                return QColor("#555555")
        if role == Qt.ItemDataRole.BackgroundRole and is_player and name == self._turn:
            return QColor("#fff3b0")
        return None


class ViolationsModel(_RowsModel):
    """Every rule broken: line, player, rule id, what happened, and the line that proves it."""

    HEADERS = ("Line", "Player", "Rule", "What happened", "Proof")

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[dict[str, Any]] = []

    def set_violations(self, violations: Sequence[dict[str, Any]]) -> None:
        self.beginResetModel()
        self._rows = [dict(v) for v in violations]
        self.endResetModel()

    def violation(self, row: int) -> dict[str, Any] | None:
        return dict(self._rows[row]) if 0 <= row < len(self._rows) else None

    def data(self, index: Index, role: int = _ROLE_DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        v = self._rows[index.row()]
        keys = ("line", "player", "rule", "text", "proof_line")
        col = index.column()
        if role == _ROLE_DISPLAY and 0 <= col < len(keys):
            return str(v.get(keys[col], ""))
        if role == Qt.ItemDataRole.ToolTipRole:
            return str(v.get("text", ""))
        if role == Qt.ItemDataRole.UserRole:
            return dict(v)
        return None


class EventsModel(_RowsModel):
    """The game's events as the referee sees them (corrections applied), newest last."""

    HEADERS = ("Line", "Event")

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[Event] = []

    def set_events(self, events: Sequence[Event]) -> None:
        self.beginResetModel()
        self._rows = list(events)
        self.endResetModel()

    def event_at(self, row: int) -> Event | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of_line(self, line: int) -> int:
        for i, ev in enumerate(self._rows):
            if ev.line == line:
                return i
        return -1

    def data(self, index: Index, role: int = _ROLE_DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        ev = self._rows[index.row()]
        if role == _ROLE_DISPLAY:
            if index.column() == 0:
                return str(ev.line)
            if index.column() == 1:
                return describe_event(dict(ev.data))
            return None
        if role == Qt.ItemDataRole.UserRole:
            return ev.line
        return None


class GamesModel(_RowsModel):
    """Saved games for the "Open game" dialog."""

    HEADERS = ("Started", "Game", "Players", "Events", "State")

    def __init__(self, games: Sequence[GameInfo] = ()) -> None:
        super().__init__()
        self._rows = list(games)

    def set_games(self, games: Sequence[GameInfo]) -> None:
        self.beginResetModel()
        self._rows = list(games)
        self.endResetModel()

    def game(self, row: int) -> GameInfo | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def data(self, index: Index, role: int = _ROLE_DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        g = self._rows[index.row()]
        if role == _ROLE_DISPLAY:
            import time
            values = (time.strftime("%Y-%m-%d %H:%M", time.localtime(g.started)), g.game,
                      ", ".join(g.players), str(g.events),
                      "finished" if g.finished else "in play")
            col = index.column()
            return values[col] if 0 <= col < len(values) else None
        if role == Qt.ItemDataRole.UserRole:
            return str(g.path)
        return None
