"""Custom-painted widgets: the live picture with zones, cups and named cards, and the chip chart.

They only draw what they are given (frames, a table profile, the ledger's numbers); clicks on
a card are reported as a signal with the card's code for the window to act on.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QImage,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from calibration.profile import TableProfile
from companion.cards import Card, CardError
from ui.demo import CardMark

#: Distinct, colour-blind-friendly line colours for players (Okabe-Ito).
PLAYER_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
                  "#000000", "#F0E442"]


def bgr_to_qimage(img: np.ndarray) -> QImage:
    """A QImage that owns a copy of a BGR (or grey) numpy frame."""
    if img.ndim == 2:
        h, w = img.shape
        return QImage(np.ascontiguousarray(img).data, w, h, w,
                      QImage.Format.Format_Grayscale8).copy()
    rgb = np.ascontiguousarray(img[:, :, ::-1])
    h, w, _ = rgb.shape
    return QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()


def card_label(code: str) -> str:
    try:
        return Card.parse(code).pretty()
    except (CardError, ValueError):
        return code


class LiveView(QWidget):
    """The camera picture with the zones, the cups (and the chips the ledger holds in them) and
    every recognised card outlined and named. Clicking a card emits `cardClicked(code)`."""

    cardClicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(320, 220)
        self._image: QImage | None = None
        self._marks: tuple[CardMark, ...] = ()
        self._profile: TableProfile | None = None
        self._pots: dict[str, int] = {}
        self._seat_names: list[str] = []
        self._caption = ""
        self._cup_px: dict[str, tuple[float, float]] = {}

    # --- inputs ----------------------------------------------------------------------------
    def set_profile(self, profile: TableProfile | None, seat_names: Sequence[str] = ()) -> None:
        self._profile = profile
        self._cup_px = {}
        self._seat_names = list(seat_names)
        self.update()

    def set_frame(self, image: np.ndarray, marks: Sequence[CardMark] = ()) -> None:
        self._image = bgr_to_qimage(image)
        self._marks = tuple(marks)
        self.update()

    def set_pots(self, pots: dict[str, int]) -> None:
        self._pots = dict(pots)
        self.update()

    def set_caption(self, text: str) -> None:
        self._caption = text
        self.update()

    def clear(self) -> None:
        """Show nothing of a previous game (the next frame draws the new one)."""
        self._image = None
        self._marks = ()
        self._pots = {}
        self._caption = ""
        self.update()

    @property
    def marks(self) -> tuple[CardMark, ...]:
        return self._marks

    # --- geometry --------------------------------------------------------------------------
    def _scale(self) -> tuple[float, float, float]:
        if self._image is None:
            return 1.0, 0.0, 0.0
        iw, ih = self._image.width(), self._image.height()
        s = min(self.width() / iw, self.height() / ih)
        return s, (self.width() - iw * s) / 2, (self.height() - ih * s) / 2

    def to_widget(self, x: float, y: float) -> QPointF:
        s, ox, oy = self._scale()
        return QPointF(ox + x * s, oy + y * s)

    def to_image(self, p: QPointF) -> tuple[float, float]:
        s, ox, oy = self._scale()
        return (p.x() - ox) / s, (p.y() - oy) / s

    def mark_at(self, p: QPointF) -> CardMark | None:
        """The topmost card whose outline holds widget point ``p``."""
        x, y = self.to_image(p)
        for mark in reversed(self._marks):
            poly = QPolygonF([QPointF(a, b) for a, b in mark.polygon])
            if poly.containsPoint(QPointF(x, y), Qt.FillRule.OddEvenFill):
                return mark
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        mark = self.mark_at(event.position())
        if mark is not None and event.button() == Qt.MouseButton.LeftButton:
            self.cardClicked.emit(mark.code)
            return
        super().mousePressEvent(event)

    # --- drawing ---------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("#1e1e1e"))
        if self._image is None:
            p.setPen(QColor("#dddddd"))
            f = QFont()
            f.setPointSize(18)
            p.setFont(f)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Waiting for the table…")
            p.end()
            return
        s, ox, oy = self._scale()
        target = QRectF(ox, oy, self._image.width() * s, self._image.height() * s)
        p.drawImage(target, self._image)
        if self._profile is not None:
            self._draw_zones(p, self._profile)
            self._draw_cups(p, self._profile, s)
        self._draw_marks(p)
        if self._caption:
            self._draw_caption(p)
        p.end()

    def _poly(self, pts: np.ndarray) -> QPolygonF:
        return QPolygonF([self.to_widget(float(x), float(y)) for x, y in pts])

    def _draw_zones(self, p: QPainter, profile: TableProfile) -> None:
        f = QFont()
        f.setPointSize(11)
        f.setBold(True)
        p.setFont(f)
        for zone, pts in zip(profile.zones, profile.zone_polygons_px(), strict=True):
            if zone.kind == "hidden":
                continue
            poly = self._poly(pts)
            p.setPen(QPen(QColor(255, 255, 255, 150), 1.5, Qt.PenStyle.DashLine))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPolygon(poly)
            name = zone.name
            if zone.seat is not None and zone.seat < len(self._seat_names):
                name = self._seat_names[zone.seat]
            r = poly.boundingRect()
            w = p.fontMetrics().horizontalAdvance(name) + 10
            box = QRectF(r.left() + 2, r.bottom() - 20, w, 18)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(0, 0, 0, 150))
            p.drawRoundedRect(box, 4, 4)
            p.setPen(QColor("#ffffff"))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, name)

    def set_cup_centres(self) -> None:
        self._cup_px = {}
        if self._profile is None:
            return
        for cup in self._profile.cups:
            c = self._profile.board_to_image(np.array([cup.center]))[0]
            self._cup_px[cup.name] = (float(c[0]), float(c[1]))

    def _draw_cups(self, p: QPainter, profile: TableProfile, s: float) -> None:
        """Each cup's name and the chips the ledger holds in it, in a dark label."""
        if not self._cup_px:
            self.set_cup_centres()
        f = QFont()
        f.setPointSize(max(8, min(12, int(9 * s + 2))))
        f.setBold(True)
        p.setFont(f)
        metrics = p.fontMetrics()
        for name, (x, y) in self._cup_px.items():
            # A cup's own account plus per-player accounts kept in it (Oh Claire! number cups
            # hold "Bob:3", OC-5).
            kept = {k: v for k, v in self._pots.items() if k == name or k.endswith(":" + name)}
            if not kept:
                continue
            chips = sum(kept.values())
            label = name if len(name) <= 8 else name.split(" ")[0]
            try:
                label = Card.parse(label).pretty()
            except (CardError, ValueError):
                pass
            text = f"{label}: {chips}"
            centre = self.to_widget(x, y)
            w = metrics.horizontalAdvance(text) + 10
            h = metrics.height() + 4
            box = QRectF(centre.x() - w / 2, centre.y() + 4, w, h)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(0, 0, 0, 170 if chips else 110))
            p.drawRoundedRect(box, 5, 5)
            p.setPen(QColor("#ffd54f") if chips else QColor("#dddddd"))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)

    def _draw_marks(self, p: QPainter) -> None:
        f = QFont()
        f.setPointSize(11)
        f.setBold(True)
        p.setFont(f)
        metrics = p.fontMetrics()
        for mark in self._marks:
            poly = QPolygonF([self.to_widget(a, b) for a, b in mark.polygon])
            p.setPen(QPen(QColor("#ffeb3b"), 2.5))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawPolygon(poly)
        for mark in self._marks:  # labels on top of every outline
            poly = QPolygonF([self.to_widget(a, b) for a, b in mark.polygon])
            r = poly.boundingRect()
            label = card_label(mark.code)
            box = QRectF(r.left(), r.top() - metrics.height() - 2,
                         metrics.horizontalAdvance(label) + 8, metrics.height() + 2)
            try:
                red = Card.parse(mark.code).colour == "red"
            except (CardError, ValueError):
                red = False
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QBrush(QColor("#fffde7")))
            p.drawRoundedRect(box, 4, 4)
            p.setPen(QColor("#c62828") if red else QColor("#111111"))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)

    def _draw_caption(self, p: QPainter) -> None:
        f = QFont()
        f.setPointSize(13)
        f.setBold(True)
        p.setFont(f)
        box = QRectF(8, self.height() - 34, self.width() - 16, 28)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 170))
        p.drawRoundedRect(box, 6, 6)
        p.setPen(QColor("#ffffff"))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, self._caption)


class ChipChart(QWidget):
    """Each player's chips at the start and after every round, one line per player."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(160)
        self._history: list[dict[str, int]] = []
        self._labels: list[str] = []
        self._players: list[str] = []

    def set_history(self, players: Sequence[str],
                    history: Sequence[tuple[str, dict[str, int]]]) -> None:
        self._players = list(players)
        self._labels = [label.replace("Round ", "R") for label, _ in history]
        self._history = [dict(h) for _, h in history]
        self.update()

    @property
    def points(self) -> int:
        return len(self._history)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("#ffffff"))
        f = QFont()
        f.setPointSize(10)
        p.setFont(f)
        if len(self._history) < 1 or not self._players:
            p.setPen(QColor("#777777"))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "Chips across rounds")
            p.end()
            return
        values = [h.get(pl, 0) for h in self._history for pl in self._players]
        lo, hi = min(values), max(values)
        if hi == lo:
            hi = lo + 1
        last = self._labels[-1] if self._labels else ""
        # room on the right for half the last round's label, centred under its point
        left, top, bottom = 40.0, 10.0, 44.0
        right = max(10.0, p.fontMetrics().horizontalAdvance(last) / 2 + 4)
        w = max(1.0, self.width() - left - right)
        h = max(1.0, self.height() - top - bottom)
        n = len(self._history)

        def pt(i: int, v: int) -> QPointF:
            x = left + (w * i / (n - 1) if n > 1 else w / 2)
            return QPointF(x, top + h * (1 - (v - lo) / (hi - lo)))

        p.setPen(QPen(QColor("#bbbbbb"), 1))
        p.drawLine(QPointF(left, top), QPointF(left, top + h))
        p.drawLine(QPointF(left, top + h), QPointF(left + w, top + h))
        p.setPen(QColor("#444444"))
        p.drawText(QRectF(0, top - 6, left - 4, 14), Qt.AlignmentFlag.AlignRight, str(hi))
        p.drawText(QRectF(0, top + h - 8, left - 4, 14), Qt.AlignmentFlag.AlignRight, str(lo))
        for i in range(n):
            label = self._labels[i] if i < len(self._labels) else str(i)
            half = p.fontMetrics().horizontalAdvance(label) / 2 + 2
            x0 = min(max(0.0, pt(i, lo).x() - half), self.width() - 2 * half)
            p.drawText(QRectF(x0, top + h + 2, 2 * half, 14), Qt.AlignmentFlag.AlignCenter,
                       label)
        for k, player in enumerate(self._players):
            colour = QColor(PLAYER_COLOURS[k % len(PLAYER_COLOURS)])
            p.setPen(QPen(colour, 2.5))
            pts = [pt(i, hist.get(player, 0)) for i, hist in enumerate(self._history)]
            for a, b in zip(pts, pts[1:], strict=False):
                p.drawLine(a, b)
            p.setBrush(colour)
            for q in pts:
                p.drawEllipse(q, 3, 3)
        # legend
        x = left
        y = self.height() - 16
        for k, player in enumerate(self._players):
            colour = QColor(PLAYER_COLOURS[k % len(PLAYER_COLOURS)])
            p.fillRect(QRectF(x, y + 2, 12, 10), colour)
            p.setPen(QColor("#222222"))
            p.drawText(QPointF(x + 16, y + 11), player)
            x += 24 + p.fontMetrics().horizontalAdvance(player)
        p.end()
