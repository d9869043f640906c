"""Small dialogs for what the camera cannot see, for fixing what it got wrong, and for picking a
saved game (`OpenGameDialog`).

Each dialog only collects values and returns ordinary log events (``dummy``, ``bid``,
``trump``, ``hand``, ``play``, ``reveal``, ``end-round``, ``round``); the window appends them
or wraps them in a ``correct`` event. No rules are checked here: the referee judges them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QFocusEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QRadioButton,
    QSpinBox,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from companion.cards import RANKS, SUITS, CardError, card, cards
from ui.models import GamesModel
from ui.store import GameInfo, GameStore

USER = {"source": "user"}  # marks events typed in by a person (unknown fields are ignored)


def parse_cards(text: str) -> list[str]:
    """Card codes from what a person typed ("5c 10♣ qh"); raises CardError/ValueError."""
    cleaned = text.replace(",", " ").split()
    return [c.code for c in cards(cleaned)]


def pretty_text(codes: Sequence[str]) -> str:
    """Cards as people write them, for a field a person reads: ``5♣ 10♦``."""
    return " ".join(card(c).pretty() for c in codes)


class CardsEdit(QLineEdit):
    """A line edit for one or more cards, shown as people write them (``10♣ J♥``); typing
    accepts the same or codes (``10c jh``). Red while it does not parse."""

    #: Emitted when the field gets the focus (a shared `CardPicker` then edits it).
    focused = Signal()

    def __init__(self, text: str = "", placeholder: str = "e.g. 5♣ or 10♣ J♥",
                 parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        try:
            if text.strip():
                self.setText(pretty_text(parse_cards(text)))
        except (CardError, ValueError):
            pass  # shown as given, in red
        self.setPlaceholderText(placeholder)
        self.textChanged.connect(self._check)
        self._check()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.focused.emit()

    def set_codes(self, codes: Sequence[str]) -> None:
        self.setText(pretty_text(codes))

    def codes(self) -> list[str]:
        try:
            return parse_cards(self.text())
        except (CardError, ValueError):
            return []

    def valid(self) -> bool:
        try:
            return bool(parse_cards(self.text()))
        except (CardError, ValueError):
            return False

    def _check(self) -> None:
        self.setStyleSheet("" if self.valid() or not self.text() else "color: #b3261e;")


class CardPicker(QWidget):
    """The 52 cards as buttons, a row per suit (2 … A): clicking one adds it to the target
    `CardsEdit` or takes it out; the buttons follow what is typed there."""

    def __init__(self, target: CardsEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setSpacing(2)
        grid.setContentsMargins(0, 0, 0, 0)
        self.buttons: dict[str, QToolButton] = {}
        for row, suit in enumerate(SUITS):
            for col, rank in enumerate(RANKS):
                code = rank + suit
                b = QToolButton()
                b.setText(card(code).pretty())
                b.setCheckable(True)
                b.setAutoRaise(False)
                b.setMinimumWidth(34)
                b.setAccessibleName(card(code).spoken())
                if suit in "DH":
                    b.setStyleSheet("QToolButton { color: #b3261e; }")
                b.clicked.connect(lambda _on=False, c=code: self.toggle(c))
                self.buttons[code] = b
                grid.addWidget(b, row, col)
        self.target = target
        target.textChanged.connect(self._follow)
        self._follow()

    def set_target(self, target: CardsEdit) -> None:
        """Edit another field (one picker serves several, e.g. a hand per player)."""
        if target is self.target:
            return
        self.target.textChanged.disconnect(self._follow)
        self.target = target
        target.textChanged.connect(self._follow)
        self._follow()

    def toggle(self, code: str) -> None:
        codes = self.target.codes() if self.target.valid() else []
        if code in codes:
            codes.remove(code)
        else:
            codes.append(code)
        self.target.set_codes(codes)

    def _follow(self, _text: str = "") -> None:
        chosen = set(self.target.codes())
        for code, b in self.buttons.items():
            b.setChecked(code in chosen)


class EventDialog(QDialog):
    """Base: a form, OK/Cancel, and `events()` giving what to append."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.form = QFormLayout()
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b3261e;")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._try_accept)
        self.buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addLayout(self.form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)

    def problem(self) -> str:
        """Why the values cannot be accepted yet ("" when they can)."""
        return ""

    def _try_accept(self) -> None:
        why = self.problem()
        if why:
            self.error.setText(why)
            return
        self.accept()

    def events(self) -> list[dict[str, Any]]:
        raise NotImplementedError


def _players_combo(players: Sequence[str], current: str | None = None) -> QComboBox:
    combo = QComboBox()
    combo.addItems(list(players))
    if current in players:
        combo.setCurrentText(str(current))
    return combo


class DummyDialog(EventDialog):
    """The dealer's choice about the dummy hand: keep, exchange, or sell it (buyer, price)."""

    def __init__(self, players: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__("The dummy hand", parent)
        self.keep = QRadioButton("Dealer keeps the dealt hand")
        self.exchange = QRadioButton("Dealer exchanges for the dummy")
        self.sell = QRadioButton("Dealer sells the dummy")
        self.keep.setChecked(True)
        group = QButtonGroup(self)
        for b in (self.keep, self.exchange, self.sell):
            group.addButton(b)
            self.form.addRow(b)
        self.buyer = _players_combo(players)
        self.price = QSpinBox()
        self.price.setRange(1, 999)
        self.price.setValue(3)
        self.form.addRow("Buyer", self.buyer)
        self.form.addRow("Price (chips)", self.price)
        self.sell.toggled.connect(self._enable)
        self._enable()

    def _enable(self) -> None:
        self.buyer.setEnabled(self.sell.isChecked())
        self.price.setEnabled(self.sell.isChecked())

    def events(self) -> list[dict[str, Any]]:
        if self.sell.isChecked():
            return [{"event": "dummy", "action": "sell", "buyer": self.buyer.currentText(),
                     "price": self.price.value(), **USER}]
        action = "exchange" if self.exchange.isChecked() else "keep"
        return [{"event": "dummy", "action": action, **USER}]


class BidDialog(EventDialog):
    """An Oh Claire! bid: who bids how many tricks."""

    def __init__(self, players: Sequence[str], current: str | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__("Bid", parent)
        self.player = _players_combo(players, current)
        self.tricks = QSpinBox()
        self.tricks.setRange(0, 13)
        self.form.addRow("Player", self.player)
        self.form.addRow("Tricks", self.tricks)

    def events(self) -> list[dict[str, Any]]:
        return [{"event": "bid", "player": self.player.currentText(),
                 "tricks": self.tricks.value(), **USER}]


class TrumpDialog(EventDialog):
    """The card turned up for trumps (Oh Claire!)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Trump card", parent)
        self.card = CardsEdit(placeholder="e.g. 7♥")
        self.form.addRow("Card turned up", self.card)
        self.picker = CardPicker(self.card)
        self.form.addRow(self.picker)

    def problem(self) -> str:
        return "" if len(self.card.codes()) == 1 else "Pick one card, e.g. 7♥."

    def events(self) -> list[dict[str, Any]]:
        return [{"event": "trump", "card": self.card.codes()[0], **USER}]


class HandDialog(EventDialog):
    """Which Wanagan hand starts now: main, overtime 1-3, or the draw for the Jackpot."""

    KINDS = ("main", "overtime-1", "overtime-2", "overtime-3", "draw")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Next hand", parent)
        self.kind = QComboBox()
        self.kind.addItems(list(self.KINDS))
        self.form.addRow("Hand", self.kind)

    def events(self) -> list[dict[str, Any]]:
        return [{"event": "hand", "kind": self.kind.currentText(), **USER}]


class PlayDialog(EventDialog):
    """A play: who laid which card(s). Used to add a missed play and to fix a misread card."""

    KINDS = {"play": "Played", "reveal": "Hand shown (revealed)"}

    def __init__(self, players: Sequence[str], player: str | None = None, card_text: str = "",
                 title: str = "Add a missed play", kind: str = "play",
                 parent: QWidget | None = None, choose_kind: bool = False) -> None:
        super().__init__(title, parent)
        self.kind = kind
        self.player = _players_combo(players, player)
        self.cards = CardsEdit(card_text)
        self.form.addRow("Player", self.player)
        self.form.addRow("Card(s)", self.cards)
        self.picker = CardPicker(self.cards)
        self.form.addRow(self.picker)
        #: With ``choose_kind``: whether the cards were played or a hand was shown (a held
        #: reading may be either: a revealed hand read short of a card looks like a play).
        self.kind_combo: QComboBox | None = None
        if choose_kind:
            self.kind_combo = QComboBox()
            for key, label in self.KINDS.items():
                self.kind_combo.addItem(label, key)
            self.kind_combo.setCurrentIndex(list(self.KINDS).index(kind)
                                            if kind in self.KINDS else 0)
            self.kind_combo.currentIndexChanged.connect(self._kind_changed)
            self.form.addRow("The cards were", self.kind_combo)

    def _kind_changed(self, _index: int) -> None:
        if self.kind_combo is not None:
            self.kind = str(self.kind_combo.currentData())

    def problem(self) -> str:
        return "" if self.cards.valid() else "Pick the card(s), e.g. 5♣ or 10♣ J♥."

    def events(self) -> list[dict[str, Any]]:
        codes = self.cards.codes()
        ev: dict[str, Any] = {"event": self.kind, "player": self.player.currentText()}
        if self.kind == "play" and len(codes) == 1:
            ev["card"] = codes[0]
        else:
            ev["cards"] = codes
        ev.update(USER)
        return [ev]


class EndRoundDialog(EventDialog):
    """The end of a round: cards left in each hand (shown face up), whether nobody went out,
    and who deals next (which starts the next round)."""

    def __init__(self, players: Sequence[str], next_dealer: str | None = None,
                 game_over: bool = False, parent: QWidget | None = None,
                 unshown: Mapping[str, int] | None = None) -> None:
        super().__init__("End of the round", parent)
        #: What the log says is still to show (``unshown``: player -> cards held by the log,
        #: no hand shown), said before anything is entered: a hand the camera never saw
        #: shown, or a last play it never saw (that player then went out, and the chips of
        #: the round depend on it: enter that play first).
        self.note: QLabel | None = None
        if unshown:
            held = "; ".join(f"{p} holds {n} card{'s' if n != 1 else ''}"
                             for p, n in unshown.items())
            self.note = QLabel(
                f"By the log, not shown yet: {held}. If a player went out with a card the "
                "camera did not see, enter that play first (Enter ▸ Missed play…): the "
                "round's chips depend on who went out.")
            self.note.setWordWrap(True)
            self.note.setStyleSheet("font-weight: bold")
            self.form.addRow(self.note)
        grid = QGridLayout()
        grid.addWidget(QLabel("Cards left in hand (leave empty when none or not shown)"), 0, 0,
                       1, 2)
        self.hands: dict[str, CardsEdit] = {}
        for i, p in enumerate(players, start=1):
            grid.addWidget(QLabel(p), i, 0)
            edit = CardsEdit(placeholder="e.g. 9♥ K♠")
            self.hands[p] = edit
            grid.addWidget(edit, i, 1)
        self.form.addRow(grid)
        # One picker for every hand: it edits the hand whose field was last clicked.
        self.picker = CardPicker(next(iter(self.hands.values()))) if self.hands else None
        if self.picker is not None:
            picker = self.picker
            for edit in self.hands.values():
                edit.focused.connect(lambda e=edit: picker.set_target(e))
            self.form.addRow(picker)
        self.nobody_out = QCheckBox("Nobody went out (the round was ended)")
        self.form.addRow(self.nobody_out)
        self.next_round = QCheckBox("Start the next round")
        self.next_round.setChecked(not game_over)
        self.dealer = _players_combo(players, next_dealer)
        self.form.addRow(self.next_round)
        self.form.addRow("Next dealer", self.dealer)

    def problem(self) -> str:
        for p, edit in self.hands.items():
            if edit.text().strip() and not edit.valid():
                return f"{p}'s cards do not read as cards."
        return ""

    def events(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for p, edit in self.hands.items():
            codes = edit.codes()
            if codes:
                out.append({"event": "reveal", "player": p, "cards": codes, **USER})
        if self.nobody_out.isChecked():
            out.append({"event": "end-round", **USER})
        if self.next_round.isChecked():
            out.append({"event": "round", "dealer": self.dealer.currentText(), **USER})
        return out


class OpenGameDialog(QDialog):
    """Pick a saved game to replay (and export), or delete saved games."""

    def __init__(self, store: GameStore, parent: QWidget | None = None,
                 confirm: Callable[[GameInfo], bool] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open a saved game")
        self.resize(760, 420)
        self.store = store
        self._confirm = confirm or self._ask_delete
        games = store.games()
        self.model = GamesModel(games)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _i: self.accept())
        if games:
            self.table.selectRow(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open
                                   | QDialogButtonBox.StandardButton.Cancel)
        self.delete_button = buttons.addButton("Delete…", QDialogButtonBox.ButtonRole.ActionRole)
        self.delete_button.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete_button.clicked.connect(self.delete_chosen)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(self.table)
        box.addWidget(buttons)

    def chosen(self) -> GameInfo | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.game(rows[0].row()) if rows else None

    def delete_chosen(self) -> None:
        """Delete the selected game (log and evidence) once the user confirms."""
        game = self.chosen()
        if game is None or not self._confirm(game):
            return
        row = self.table.selectionModel().selectedRows()[0].row()
        self.store.delete(game)
        self.model.set_games(self.store.games())
        if self.model.rowCount():
            self.table.selectRow(min(row, self.model.rowCount() - 1))

    def _ask_delete(self, game: GameInfo) -> bool:
        answer = QMessageBox.question(
            self, "Delete the game?",
            f"Delete {game.title}, its log and its evidence pictures?\nThis cannot be undone.")
        return answer == QMessageBox.StandardButton.Yes
