"""One house rule in the setup dialog's Rules tab (`RuleEditor`): the widget that fits its
default (a box, a number, a choice or a list), its ruling and text as the tooltip, and the
value read back; values written for people (`for_people`).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from companion.cards import Card, CardError, pretty_name
from companion.house import HouseRule


def rule_choices(rule: HouseRule) -> list[str]:
    """The values a text rule may take, as its description quotes them (``"last"`` or
    ``"first"``); empty when it names none."""
    if not isinstance(rule.default, str):
        return []
    quoted = list(dict.fromkeys(re.findall(r'"([^"]+)"', rule.description)))
    return quoted if rule.default in quoted else []


def for_people(value: Any) -> str:
    """A house rule's value as people read it: on/off, 10♦ rather than TD, no brackets."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, dict):
        name = value.get("name", "")
        rest = ", ".join(f"{k} {for_people(v)}" for k, v in value.items() if k != "name")
        return f"{name} ({rest})" if name and rest else str(name or rest)
    if isinstance(value, list):
        return ", ".join(for_people(x) for x in value)
    return pretty_name(str(value))


def _from_people(item: str) -> str:
    try:
        return Card.parse(item).code  # 10♦, 10d, TD all mean TD
    except (CardError, ValueError):
        return item


class RuleEditor:
    """One house rule's widget; `value()` reads it back in the default's kind. Cards are shown
    and typed as people write them (A♠, 10♦); a rule with named choices is a list to pick
    from; a list of structured entries (Wanagan's cups) is shown, not edited, here."""

    def __init__(self, rule: HouseRule) -> None:
        self.rule = rule
        d = rule.default
        self.widget: QWidget
        choices = rule_choices(rule)
        if choices:
            combo = QComboBox()
            combo.addItems(choices)
            combo.setCurrentText(d)
            self.widget = combo
        elif isinstance(d, list) and any(isinstance(x, dict) for x in d):
            shown = QLabel(for_people(d))
            shown.setWordWrap(True)
            self.widget = shown
        elif isinstance(d, bool):
            box = QCheckBox()
            box.setChecked(d)
            self.widget = box
        elif isinstance(d, int):
            spin = QSpinBox()
            spin.setRange(-1000, 100000)
            spin.setValue(d)
            self.widget = spin
        elif isinstance(d, float):
            dspin = QDoubleSpinBox()
            dspin.setRange(-1e6, 1e6)
            dspin.setValue(d)
            self.widget = dspin
        elif isinstance(d, list):
            self.widget = QLineEdit(for_people(d))
        else:
            self.widget = QLineEdit(str(d))
        self.widget.setToolTip(f"{rule.description} ({rule.ruling}; default: {for_people(d)})")

    def value(self) -> Any:
        d = self.rule.default
        w = self.widget
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QSpinBox):
            return w.value()
        if isinstance(w, QDoubleSpinBox):
            return w.value()
        if isinstance(w, QComboBox):
            return w.currentText()
        if isinstance(w, QLabel):
            return d  # shown, not edited here
        assert isinstance(w, QLineEdit)
        text = w.text()
        if isinstance(d, list):
            items = [s.strip() for s in text.split(",") if s.strip()]
            if d and all(isinstance(x, int) and not isinstance(x, bool) for x in d):
                try:
                    return [int(s) for s in items]
                except ValueError:
                    return d
            return [_from_people(s) for s in items]
        return text

    def set_value(self, value: Any) -> None:
        w = self.widget
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QSpinBox):
            w.setValue(int(value))
        elif isinstance(w, QDoubleSpinBox):
            w.setValue(float(value))
        elif isinstance(w, QComboBox):
            w.setCurrentText(str(value))
        elif isinstance(w, QLineEdit):
            w.setText(for_people(value) if isinstance(value, list) else str(value))

    def changed(self) -> bool:
        return bool(self.value() != self.rule.default)
