"""Cards are shown as people write them wherever a person reads (issue 15, finding 8): the
chips table, the referee's text, the house-rules tab, the fix dialog and annotated images say
10♦ and A♠, never TD and AS; cards are picked from a card picker."""

from __future__ import annotations

import re

import cv2
import numpy as np
from pytestqt.qtbot import QtBot

from companion.cards import CARD_CODES, pretty_name
from companion.commands import format_report
from companion.referee import find_simulator, replay_dicts
from vision.detections import Detections
from vision.drawing import annotate, draw_card_label, draw_suit

#: A card code standing alone (what people should never read).
CODE = re.compile(r"(?<![\w-])([2-9TJQKA][CDHS])(?![\w-])")


def _report(game: str = "michigan-rummy") -> dict:
    events = find_simulator(game)(players=["Ann", "Bob", "Cy"], rounds=1, seed=3, hidden=True,
                                  mistakes=0.0, chips=None, game=game)
    return replay_dicts(events).report()


def test_cup_names_are_cards_for_people() -> None:
    assert pretty_name("AS") == "A♠" and pretty_name("TD") == "10♦"
    assert pretty_name("Jackpot") == "Jackpot"
    assert pretty_name("8-9-10 any one suit") == "8-9-10 any one suit"


def test_the_referee_text_names_cups_as_cards() -> None:
    report = _report()
    assert "AS" in report["pots"]  # the JSON keeps the log's codes (DESIGN.md)
    text = format_report(report)
    board = text[text.index("Board:"):text.index("Violations")]
    assert "A♠" in board and "10♦" in board
    assert not CODE.search(text), CODE.search(text)


def test_the_chips_table_names_cups_as_cards(qtbot: QtBot) -> None:
    from PySide6.QtCore import Qt

    from ui.models import ChipTableModel

    model = ChipTableModel()
    model.set_report(_report())
    names = [model.data(model.index(r, 0)) for r in range(model.rowCount())]
    assert "A♠" in names and "10♦" in names and "AS" not in names
    # the cup's own name stays available to the window (proof, highlighting)
    row = names.index("10♦")
    assert model.data(model.index(row, 0), Qt.ItemDataRole.UserRole) == "TD"


def test_the_house_rules_tab_shows_cards_and_choices(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit

    from ui.setup import SetupDialog

    dlg = SetupDialog(cameras=[])
    qtbot.addWidget(dlg)
    dlg.set_game("michigan-rummy")
    disk = dlg.rule_editor("disk")
    assert disk is not None and isinstance(disk.widget, QLineEdit)
    assert disk.widget.text().startswith("A♠, K♦, Q♠, J♥, 10♦, 8-9-10 any one suit")
    assert not disk.changed()
    disk.widget.setText("A♠, 10d, Q-K hearts")
    assert disk.value() == ["AS", "TD", "Q-K hearts"]
    dealt = dlg.rule_editor("dummy_dealt")
    assert dealt is not None and isinstance(dealt.widget, QComboBox)
    assert [dealt.widget.itemText(i) for i in range(dealt.widget.count())] == ["last", "first"]
    dealt.set_value("first")
    assert dealt.value() == "first" and dealt.changed()
    hints = [w.text() for w in dlg.rules_page.findChildren(QLabel)]
    shown = " ".join(hints) + " ".join(w.toolTip() for w in dlg.rules_page.findChildren(QLineEdit))
    assert "default: on" in shown and "default: A♠, K♦" in shown
    assert not re.search(r"\bTrue\b|\bFalse\b|\['|\{'", shown)
    assert not CODE.search(shown), CODE.search(shown)
    # Wanagan's cups are shown, not edited as Python text, and never written back mangled
    dlg.set_game("wanagan")
    dlg.set_players(["Ann", "Bob", "Cy"])
    cups = dlg.rule_editor("cups")
    assert cups is not None and isinstance(cups.widget, QLabel)
    assert cups.widget.text().startswith("1 Pair (ante 1, hands pair)")
    assert not cups.changed()
    assert "cups" not in dlg.result_setup().setup.get("house", {})


def test_the_fix_dialog_shows_cards_and_has_a_picker(qtbot: QtBot) -> None:
    from ui.dialogs import EndRoundDialog, PlayDialog, TrumpDialog

    dlg = PlayDialog(["Ann", "Bob"], "Bob", "KH QH TH", title="What was laid down?")
    qtbot.addWidget(dlg)
    assert dlg.cards.text() == "K♥ Q♥ 10♥"
    assert {c for c, b in dlg.picker.buttons.items() if b.isChecked()} == {"KH", "QH", "TH"}
    assert dlg.picker.buttons["JH"].text() == "J♥"
    dlg.picker.buttons["JH"].click()
    dlg.picker.buttons["QH"].click()
    assert dlg.cards.text() == "K♥ 10♥ J♥"
    assert dlg.events()[0]["cards"] == ["KH", "TH", "JH"]
    dlg.cards.setText("2c 10♦")  # typing still works, either way
    assert {c for c, b in dlg.picker.buttons.items() if b.isChecked()} == {"2C", "TD"}
    assert not CODE.search(dlg.problem() + dlg.cards.placeholderText())
    trump = TrumpDialog()
    qtbot.addWidget(trump)
    assert "7H" not in trump.problem()
    trump.picker.buttons["7H"].click()
    assert trump.problem() == "" and trump.events()[0]["card"] == "7H"
    end = EndRoundDialog(["Ann", "Bob"])
    qtbot.addWidget(end)
    end.hands["Bob"].focused.emit()  # Bob's field clicked: the picker now fills it
    end.picker.buttons["9H"].click()  # type: ignore[union-attr]
    assert end.hands["Bob"].text() == "9♥" and end.hands["Ann"].text() == ""


def test_annotated_pictures_write_10_and_a_suit_sign() -> None:
    img = np.full((200, 300, 3), 90, np.uint8)
    box = [40.0, 80.0, 140.0, 190.0]
    out = annotate(img, Detections(np.array([box]), np.array([0.95]),
                                   np.array([CARD_CODES.index("TD")])))
    # the label is "10", a drawn diamond, " 0.95" (what draw_card_label writes), not "TD"
    scale = 0.4
    (tw, th), _ = cv2.getTextSize("10", cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    x, y = 42, 77
    band = out[y - th - 1:y + 2, x:x + tw]
    ref = out.copy()
    ref[y - th - 1:y + 2, x:x + tw] = (40, 40, 230)
    cv2.putText(ref, "10", (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 1,
                cv2.LINE_AA)
    assert np.array_equal(band, ref[y - th - 1:y + 2, x:x + tw])
    t_ref = out.copy()
    t_ref[y - th - 1:y + 2, x:x + tw] = (40, 40, 230)
    cv2.putText(t_ref, "TD", (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), 1,
                cv2.LINE_AA)
    assert not np.array_equal(band, t_ref[y - th - 1:y + 2, x:x + tw])
    # each suit sign has its own shape, and the label carries the card's
    signs = []
    for suit in "CDHS":
        tile = np.zeros((30, 30, 3), np.uint8)
        draw_suit(tile, suit, 0, 0, 30)
        signs.append(tile[:, :, 0] > 128)
    assert len({s.tobytes() for s in signs}) == 4
    a, b = np.zeros((20, 60, 3), np.uint8), np.zeros((20, 60, 3), np.uint8)
    draw_card_label(a, "TD", 0, 15, scale)
    draw_card_label(b, "TH", 0, 15, scale)
    assert not np.array_equal(a, b)
