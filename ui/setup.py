"""Game setup: rule set, players in seating order, chips, rounds, first dealer, house rules,
the board disk, the camera, and the calibration step (zones drawn over the picture, draggable).

The dialog returns a `GameSetup`: the ``game`` event for the log, the first dealer, the source
to watch and the table profile; it decides no rule (defaults come from companion/data/*.toml).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from calibration.layout import board_cups, default_zones
from calibration.profile import TableProfile
from companion.diagnostics import log_failure
from companion.house import house_rules
from companion.referee import GAME_MODULES
from ui.calibration_view import CalibrationView, grab_frame
from ui.camera import Camera
from ui.demo import (
    DEMO_PLAYERS,
    FRAME_SIZE,
    DemoTable,
    TableRenderer,
    TableView,
    camera_profile,
)
from ui.rule_editor import RuleEditor, for_people

GAMES: dict[str, str] = {
    "michigan-rummy": "Michigan Rummy",
    "great-lakes": "Great Lakes",
    "pressman": "Pressman Michigan",
    "boodle": "Boodle",
    "oh-claire": "Oh Claire!",
    "wanagan": "Wanagan",
    "michigan-rum": "Michigan Rum",
}
DEMO_SOURCE = "demo"
#: House rules that the Game tab sets as the game event's own fields.
GAME_TAB_RULES = frozenset({"rounds", "chips"})
DEFAULT_ROUNDS = {"oh-claire": 11, "wanagan": 3, "michigan-rum": 5}


@dataclass
class GameSetup:
    """What the setup dialog decided."""

    setup: dict[str, Any]
    first_dealer: str
    source: str
    profile: TableProfile | None
    #: A deck profile from `companion teach-deck` (a file), for a deck unlike the usual ones:
    #: the camera then reads the cards' corner indices with it. None: the usual card models.
    deck: str | None = None

    @property
    def game(self) -> str:
        return str(self.setup["game"])

    @property
    def players(self) -> list[str]:
        return list(self.setup["players"])


# --- house rule editors -------------------------------------------------------------------


# --- calibration ---------------------------------------------------------------------------


# --- the dialog -----------------------------------------------------------------------------
class SetupDialog(QDialog):
    """Set up a game in four tabs: game, players, house rules, camera and calibration."""

    def __init__(self, cameras: Sequence[Camera] = (), parent: QWidget | None = None,
                 rendered_demo: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        #: Show the rendered demo table (with cards) behind the zones when the demo is chosen.
        self.rendered_demo = rendered_demo
        self._demo_cache: dict[tuple[str, int], tuple[np.ndarray, TableProfile]] = {}
        self.resize(900, 640)
        self.tabs = QTabWidget()
        self._rule_editors: list[RuleEditor] = []
        self._build_game_tab()
        self._build_players_tab()
        self._build_rules_tab()
        self._build_camera_tab(cameras)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Start the game")
        buttons.accepted.connect(self._try_accept)
        buttons.rejected.connect(self.reject)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #b3261e; font-weight: bold;")
        self.error.setWordWrap(True)  # a calibration warning is a sentence or two
        box = QVBoxLayout(self)
        box.addWidget(self.tabs)
        box.addWidget(self.error)
        box.addWidget(buttons)
        self.game_combo.currentIndexChanged.connect(self._game_changed)
        self._game_changed()

    # game tab
    def _build_game_tab(self) -> None:
        page = QWidget()
        form = QFormLayout(page)
        self.game_combo = QComboBox()
        for key, title in GAMES.items():
            self.game_combo.addItem(title, key)
        self.chips = QSpinBox()
        self.chips.setRange(0, 100000)
        self.chips.setValue(50)
        self.rounds = QSpinBox()
        self.rounds.setRange(1, 99)
        self.rounds.setValue(5)
        self.dealer = QComboBox()
        form.addRow("Rule set", self.game_combo)
        form.addRow("Starting chips (each)", self.chips)
        form.addRow("Rounds", self.rounds)
        form.addRow("First dealer", self.dealer)
        self.tabs.addTab(page, "Game")

    # players tab
    def _build_players_tab(self) -> None:
        page = QWidget()
        v = QVBoxLayout(page)
        v.addWidget(QLabel("Players in seating order, clockwise from the seat nearest the "
                           "camera. Double-click a name to change it."))
        self.players = QListWidget()
        self.players.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        for name in DEMO_PLAYERS:
            self._add_player_item(name)
        v.addWidget(self.players)
        row = QHBoxLayout()
        self.new_name = QLineEdit()
        self.new_name.setPlaceholderText("Name")
        add = QPushButton("Add")
        add.clicked.connect(self._add_player)
        remove = QPushButton("Remove")
        remove.clicked.connect(self._remove_player)
        up = QPushButton("Move up")
        up.clicked.connect(lambda: self._move(-1))
        down = QPushButton("Move down")
        down.clicked.connect(lambda: self._move(1))
        for w in (self.new_name, add, remove, up, down):
            row.addWidget(w)
        v.addLayout(row)
        self.players.model().rowsMoved.connect(self._players_changed)
        self.players.itemChanged.connect(self._players_changed)
        self.tabs.addTab(page, "Players")

    def _add_player_item(self, name: str) -> None:
        item = QListWidgetItem(name)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.players.addItem(item)

    def _add_player(self) -> None:
        name = self.new_name.text().strip()
        if name:
            self._add_player_item(name)
            self.new_name.clear()
            self._players_changed()

    def _remove_player(self) -> None:
        row = self.players.currentRow()
        if row >= 0:
            self.players.takeItem(row)
            self._players_changed()

    def _move(self, delta: int) -> None:
        row = self.players.currentRow()
        new = row + delta
        if row < 0 or not 0 <= new < self.players.count():
            return
        item = self.players.takeItem(row)
        self.players.insertItem(new, item)
        self.players.setCurrentRow(new)
        self._players_changed()

    def player_names(self) -> list[str]:
        return [self.players.item(i).text().strip() for i in range(self.players.count())]

    def set_players(self, names: Sequence[str]) -> None:
        self.players.clear()
        for n in names:
            self._add_player_item(n)
        self._players_changed()

    def _players_changed(self, *args: Any) -> None:
        names = self.player_names()
        current = self.dealer.currentText()
        self.dealer.clear()
        self.dealer.addItems(names)
        if current in names:
            self.dealer.setCurrentText(current)
        self._refresh_calibration()

    # house rules tab
    def _build_rules_tab(self) -> None:
        self.rules_page = QWidget()
        self.rules_form = QFormLayout(self.rules_page)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.rules_page)
        self.tabs.addTab(scroll, "House rules")

    def _fill_rules(self, game: str) -> None:
        while self.rules_form.rowCount():
            self.rules_form.removeRow(0)
        self._rule_editors = []
        try:
            rules = house_rules(game)
        except ValueError:
            rules = []
        for rule in rules:
            ed = RuleEditor(rule)
            self._rule_editors.append(ed)
            if rule.name in GAME_TAB_RULES:
                continue  # set on the Game tab (its fields are the game event's own)
            label = QLabel(rule.name.replace("_", " "))
            label.setToolTip(rule.description)
            self.rules_form.addRow(label, ed.widget)
            hint = QLabel(f"{rule.description} ({rule.ruling}; default: "
                          f"{for_people(rule.default)})")
            hint.setWordWrap(True)
            hint.setStyleSheet("color: #555; font-size: 9pt;")
            self.rules_form.addRow("", hint)

    def rule_editor(self, name: str) -> RuleEditor | None:
        return next((e for e in self._rule_editors if e.rule.name == name), None)

    # camera tab
    def _build_camera_tab(self, cameras: Sequence[Camera]) -> None:
        page = QWidget()
        v = QVBoxLayout(page)
        row = QHBoxLayout()
        self.source = QComboBox()
        self.source.setEditable(True)
        self.source.addItem("Demo table (no camera)", DEMO_SOURCE)
        #: Why each listed camera that cannot be opened cannot, by source spec.
        self.camera_problems = {cam.spec: f"{cam.name} cannot be opened: {cam.problem}"
                                for cam in cameras if cam.problem}
        for cam in cameras:
            self.source.addItem(cam.label, cam.spec)
        self.source.setToolTip("A camera, or a webcam index, a stream URL (http://…, rtsp://…), "
                               "a video file or a folder of images")
        self.source.currentIndexChanged.connect(self._source_changed)
        preview = QPushButton("Show the picture")
        preview.clicked.connect(self._preview)
        find = QPushButton("Find the board")
        find.setToolTip("Look for the board in the picture and place the corners and zones")
        find.clicked.connect(self.find_board)
        row.addWidget(QLabel("Camera"))
        row.addWidget(self.source, 1)
        row.addWidget(preview)
        row.addWidget(find)
        v.addLayout(row)
        deck_row = QHBoxLayout()
        self.deck = QLineEdit()
        self.deck.setPlaceholderText("the usual card models (most printed decks)")
        self.deck.setToolTip("For a deck unlike the usual ones (a dark face, unusual pips): "
                             "teach it once with `companion teach-deck PHOTOS --out deck.json` "
                             "and choose that file here. The camera then reads every card by "
                             "its corner index with your deck's profile.")
        choose = QPushButton("Choose…")
        choose.clicked.connect(self._choose_deck)
        deck_row.addWidget(QLabel("Your deck"))
        deck_row.addWidget(self.deck, 1)
        deck_row.addWidget(choose)
        v.addLayout(deck_row)
        v.addWidget(QLabel("Drag the yellow corners onto the board's corners; drag a zone "
                           "where that seat lays its cards. Hands held outside the zones are "
                           "never read or stored."))
        self.calibration = CalibrationView()
        v.addWidget(self.calibration, 1)
        self.tabs.addTab(page, "Camera && calibration")

    def _choose_deck(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        name, _ = QFileDialog.getOpenFileName(self, "Deck profile (from companion teach-deck)",
                                              "", "Deck profile (*.json)")
        if name:
            self.deck.setText(name)

    def deck_profile(self) -> str | None:
        """The deck profile chosen, or None for the usual card models."""
        return self.deck.text().strip() or None

    def source_spec(self) -> str:
        idx = self.source.currentIndex()
        data = self.source.itemData(idx) if idx >= 0 else None
        text = self.source.currentText().strip()
        if data is not None and self.source.itemText(idx) == text:
            return str(data)
        return text or DEMO_SOURCE

    def choose_source(self, spec: str) -> None:
        """Pick ``spec`` (a camera listed here, or a stream, file or index typed earlier)."""
        idx = self.source.findData(spec)
        if idx >= 0:
            self.source.setCurrentIndex(idx)
        elif spec and spec != DEMO_SOURCE:
            self.source.setEditText(spec)

    def _source_changed(self) -> None:
        """A camera that cannot be opened says why as soon as it is chosen."""
        self.error.setText(self.camera_problems.get(self.source_spec(), ""))

    def _frame_for(self, spec: str, profile: TableProfile) -> np.ndarray | None:
        if spec == DEMO_SOURCE:
            img, _ = TableRenderer(profile).render(TableView())
            return img
        try:
            return grab_frame(spec)
        except OSError as exc:
            self.error.setText(f"No picture: {exc}")
            return None

    def _demo_table(self, game: str, seats: int) -> tuple[np.ndarray, TableProfile] | None:
        """A picture of the rendered demo table (cards being played) and its true profile."""
        key = (game, seats)
        if key in self._demo_cache:
            frame, prof = self._demo_cache[key]
            return frame, TableProfile.from_json(prof.to_json())
        try:
            from vision.render.table import TableVideo

            names = [f"P{i}" for i in range(seats)]
            events = DemoTable.simulated(game, names, seed=3, rounds=1, mistakes=0.0).events
            video = TableVideo(events)
            moves = video.truth.moves
            t = moves[min(len(moves) - 1, 2 * seats)].t_end if moves else 0.0
            frame = video.render(t).image
            prof = video.profile()
        except Exception as exc:  # noqa: BLE001 - fall back to the plain drawing of the table
            # Only the preview's looks suffer (the plain drawing shows the same zones).
            log_failure("the rendered table preview could not be drawn", exc)
            return None
        self._demo_cache[key] = (frame, prof)
        return frame, TableProfile.from_json(prof.to_json())

    def _preview(self) -> None:
        self._refresh_calibration(grab=True)

    def _refresh_calibration(self, grab: bool = False) -> None:
        game = self.game()
        names = self.player_names()
        if not names:
            return
        spec = self.source_spec()
        old = self.calibration.profile
        if old is not None and old.seats == len(names) and old.game == game:
            profile = old
        else:
            profile = camera_profile(game, len(names))
            disk = self._disk()
            if disk is not None:
                profile.cups = board_cups(game, disk)
        frame = None
        if spec == DEMO_SOURCE and self.rendered_demo and profile is not old:
            demo = self._demo_table(game, len(names))
            if demo is not None:
                frame, profile = demo
        if frame is None and (grab or spec == DEMO_SOURCE or self.calibration.profile is None):
            frame = self._frame_for(spec, profile)
        if frame is None:
            w, h = FRAME_SIZE
            frame = np.full((h, w, 3), 60, np.uint8)
        if frame.shape[1] != profile.image_size[0] or frame.shape[0] != profile.image_size[1]:
            profile = camera_profile(game, len(names), (frame.shape[1], frame.shape[0]))
        self.calibration.set_table(frame, profile, names)

    def find_board(self) -> bool:
        """Fit the board in the picture shown (calibration.calibrate); True when found."""
        frame = self.calibration.frame
        names = self.player_names()
        if frame is None or not names:
            return False
        try:
            from calibration.calibrate import CalibrationError, calibrate
        except ImportError:
            return False
        try:
            profile = calibrate([frame], self.game(), len(names), self._disk())
        except (CalibrationError, ValueError) as exc:
            self.error.setText(str(exc))
            return False
        # What to mend before playing (a zone out of view, cards small, a soft picture).
        self.error.setText("; ".join(f"Check: {w}" for w in profile.meta.get("warnings", [])))
        self.calibration.set_table(frame, profile, names)
        return True

    def _disk(self) -> list[str] | None:
        ed = self.rule_editor("disk")
        if ed is None:
            return None
        value = ed.value()
        return [str(x) for x in value] if isinstance(value, list) else None

    # common
    def game(self) -> str:
        return str(self.game_combo.currentData())

    def set_game(self, game: str) -> None:
        idx = self.game_combo.findData(game)
        if idx >= 0:
            self.game_combo.setCurrentIndex(idx)

    def _game_changed(self) -> None:
        game = self.game()
        self._fill_rules(game)
        rounds = self.rule_editor("rounds")
        self.rounds.setValue(int(rounds.rule.default) if rounds is not None
                             else DEFAULT_ROUNDS.get(game, 5))
        chips = self.rule_editor("chips")
        if chips is not None and isinstance(chips.rule.default, int):
            self.chips.setValue(chips.rule.default)
        self.calibration.profile = None
        self._players_changed()

    def problem(self) -> str:
        names = self.player_names()
        if len(names) < 2:
            return "A game needs at least two players."
        if len(set(names)) != len(names) or any(not n for n in names):
            return "Every player needs a different name."
        if self.game() not in GAME_MODULES:
            return "Choose a rule set."
        deck = self.deck_profile()
        if deck is not None:
            from ui.camera import deck_problem

            why = deck_problem(deck)
            if why:
                return why
        return ""

    def _try_accept(self) -> None:
        why = self.problem()
        if why:
            self.error.setText(why)
            return
        self.accept()

    def result_setup(self) -> GameSetup:
        """The game event (only house rules changed from their default are written)."""
        game = self.game()
        house = {e.rule.name: e.value() for e in self._rule_editors if e.changed()
                 and e.rule.name not in GAME_TAB_RULES}
        setup: dict[str, Any] = {"event": "game", "game": game, "players": self.player_names(),
                                 "chips": self.chips.value(), "rounds": self.rounds.value()}
        if house:
            setup["house"] = house
        profile = self.calibration.profile
        if profile is not None:
            profile.zones = list(profile.zones) or default_zones(len(self.player_names()), game)
        return GameSetup(setup, self.dealer.currentText() or self.player_names()[0],
                         self.source_spec(), profile, self.deck_profile())
