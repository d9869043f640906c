"""The setup dialog's calibration step: the table's picture with the board's corners and each
seat's zone drawn over it, draggable (`CalibrationView`), and one picture grabbed from a
source (`grab_frame`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsPolygonItem,
    QGraphicsScene,
    QGraphicsSceneMouseEvent,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from calibration.layout import BOARD_HALF, Zone
from calibration.profile import TableProfile
from ui.views import bgr_to_qimage

BOARD_CORNERS = np.array([[-BOARD_HALF, -BOARD_HALF], [BOARD_HALF, -BOARD_HALF],
                          [BOARD_HALF, BOARD_HALF], [-BOARD_HALF, BOARD_HALF]], np.float64)


class Handle(QGraphicsEllipseItem):
    """A draggable board corner."""

    def __init__(self, x: float, y: float, on_move: Any) -> None:
        r = 9.0
        super().__init__(-r, -r, 2 * r, 2 * r)
        self.setPos(x, y)
        self.setBrush(QBrush(QColor("#ffeb3b")))
        self.setPen(QPen(QColor("#000000"), 2))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setZValue(10)
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self._on_move = on_move

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged:
            self._on_move()
        return super().itemChange(change, value)


class ZoneItem(QGraphicsPolygonItem):
    """A zone drawn through the homography; dragging it moves the zone on the board."""

    def __init__(self, index: int, view: CalibrationView) -> None:
        super().__init__()
        self.index = index
        self._view = view
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsMovable)
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.setZValue(5)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        super().mouseReleaseEvent(event)
        offset = self.pos()
        if offset.x() or offset.y():
            self._view.move_zone(self.index, (offset.x(), offset.y()))


class CalibrationView(QGraphicsView):
    """The live picture with the board's corners as handles and every zone and cup drawn
    through the homography they define. Drag the corners onto the board's corners, and drag a
    zone to where that seat lays its cards."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumSize(480, 320)
        self.profile: TableProfile | None = None
        self.frame: np.ndarray | None = None
        self.seat_names: list[str] = []
        self._handles: list[Handle] = []
        self._zone_items: list[ZoneItem] = []
        self._cup_items: list[QGraphicsItem] = []
        self._labels: list[QGraphicsSimpleTextItem] = []
        self._pixmap = self.scene().addPixmap(QPixmap())
        self._updating = False

    def set_table(self, frame: np.ndarray, profile: TableProfile,
                  seat_names: Sequence[str] = ()) -> None:
        self.profile = profile
        self.frame = frame
        self.seat_names = list(seat_names)
        self._pixmap.setPixmap(QPixmap.fromImage(bgr_to_qimage(frame)))
        scene = self.scene()
        for item in [*self._handles, *self._zone_items, *self._cup_items, *self._labels]:
            scene.removeItem(item)
        self._handles, self._zone_items, self._cup_items, self._labels = [], [], [], []
        corners = profile.board_corners_px()
        self._updating = True
        for x, y in corners:
            h = Handle(float(x), float(y), self._corners_moved)
            scene.addItem(h)
            self._handles.append(h)
        for i, _zone in enumerate(profile.zones):
            item = ZoneItem(i, self)
            scene.addItem(item)
            self._zone_items.append(item)
            label = QGraphicsSimpleTextItem()
            label.setBrush(QBrush(QColor("#ffffff")))
            label.setZValue(6)
            scene.addItem(label)
            self._labels.append(label)
        self._updating = False
        self.setSceneRect(0, 0, frame.shape[1], frame.shape[0])
        self.redraw()

    def handle_positions(self) -> np.ndarray:
        return np.array([[h.pos().x(), h.pos().y()] for h in self._handles], np.float64)

    def move_corner(self, k: int, x: float, y: float) -> None:
        """Move board corner ``k`` (0 = top-left, clockwise) to image point (x, y)."""
        self._handles[k].setPos(x, y)

    def _corners_moved(self) -> None:
        if self._updating or self.profile is None or len(self._handles) != 4:
            return
        hom = cv2.getPerspectiveTransform(BOARD_CORNERS.astype(np.float32),
                                          self.handle_positions().astype(np.float32))
        self.profile = self.profile.with_homography(hom)
        self.redraw()
        self.changed.emit()

    def move_zone(self, index: int, offset_px: tuple[float, float]) -> None:
        """Shift zone ``index`` by an image offset (converted to board units)."""
        assert self.profile is not None
        zone = self.profile.zones[index]
        centre = np.array([zone.center])
        px = self.profile.board_to_image(centre)[0] + np.array(offset_px)
        moved = self.profile.image_to_board(np.array([px]))[0]
        dx, dy = float(moved[0] - centre[0][0]), float(moved[1] - centre[0][1])
        poly = tuple((x + dx, y + dy) for x, y in zone.polygon)
        zones = list(self.profile.zones)
        zones[index] = Zone(zone.name, zone.kind, poly, zone.seat, dict(zone.meta))
        self.profile.zones = zones
        self._zone_items[index].setPos(0, 0)
        self.redraw()
        self.changed.emit()

    def redraw(self) -> None:
        if self.profile is None:
            return
        scene = self.scene()
        for item in self._cup_items:
            scene.removeItem(item)
        self._cup_items = []
        for i, (zone, pts) in enumerate(zip(self.profile.zones, self.profile.zone_polygons_px(),
                                            strict=True)):
            item = self._zone_items[i]
            item.setPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in pts]))
            colour = QColor("#4fc3f7") if zone.kind == "pile" else QColor("#ff8a65")
            item.setPen(QPen(colour, 2.5))
            fill = QColor(colour)
            fill.setAlpha(50)
            item.setBrush(QBrush(fill))
            name = zone.name
            if zone.seat is not None and zone.seat < len(self.seat_names):
                name = f"{self.seat_names[zone.seat]}'s cards"
            self._labels[i].setText(name)
            self._labels[i].setPos(float(pts[:, 0].min()) + 4, float(pts[:, 1].min()) + 2)
        board = self.profile.board_corners_px()
        outline = scene.addPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in board]),
                                   QPen(QColor("#ffeb3b"), 2, Qt.PenStyle.DashLine))
        self._cup_items.append(outline)
        for cup in self.profile.cups:
            ring = [(cup.center[0] + cup.radius * np.cos(a), cup.center[1] + cup.radius * np.sin(a))
                    for a in np.linspace(0, 2 * np.pi, 32, endpoint=False)]
            pts = self.profile.board_to_image(np.array(ring))
            poly = scene.addPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in pts]),
                                    QPen(QColor("#ffffff"), 1.5))
            self._cup_items.append(poly)
            text = scene.addSimpleText(cup.name if len(cup.name) < 9 else cup.name[:8] + "…")
            c = self.profile.board_to_image(np.array([cup.center]))[0]
            text.setBrush(QBrush(QColor("#ffffff")))
            text.setPos(float(c[0]) - text.boundingRect().width() / 2, float(c[1]) - 7)
            self._cup_items.append(text)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.fitInView(self.sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)


def grab_frame(source: str, timeout_s: float = 2.0) -> np.ndarray:
    """One picture from a camera index / stream / file for calibration; OSError (saying why)
    when there is none."""
    try:
        from vision.sources.parse import parse_source
        src = parse_source(source)
    except ImportError as exc:
        raise OSError(f"the vision package cannot be loaded ({exc})") from exc
    except ValueError as exc:
        raise OSError(str(exc)) from exc
    try:
        import time
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            frame = src.read()
            if frame is not None:
                return frame.image
        raise OSError(f"{source} gave no picture in {timeout_s:g} s")
    finally:
        src.close()
