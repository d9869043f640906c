"""“Show proof”: the stored frames of an offence and of the event that proves it, side by side,
with a slider (and Play) that replays every evidence frame from the offence to the proof.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from companion.events import describe_event
from ui.store import GameSession
from ui.views import bgr_to_qimage


class FramePane(QLabel):
    """A stored frame scaled to fit, or a grey panel saying why there is none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumSize(360, 260)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setStyleSheet("background: #2b2b2b; color: #dddddd; font-size: 14pt;")
        self._pixmap: QPixmap | None = None

    def show_frame(self, frame: np.ndarray | None, missing: str = "No picture kept") -> None:
        if frame is None:
            self._pixmap = None
            self.setPixmap(QPixmap())
            self.setText(missing)
            return
        self._pixmap = QPixmap.fromImage(bgr_to_qimage(frame))
        self.setText("")
        self._rescale()

    def has_frame(self) -> bool:
        return self._pixmap is not None

    def _rescale(self) -> None:
        if self._pixmap is not None:
            self.setPixmap(self._pixmap.scaled(self.size(), Qt.AspectRatioMode.KeepAspectRatio,
                                               Qt.TransformationMode.SmoothTransformation))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._rescale()


class ProofDialog(QDialog):
    """Offence (left) and proof (right). The slider replays the frames in between."""

    def __init__(self, session: GameSession, violation: dict[str, Any],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.violation = dict(violation)
        self.line = int(violation["line"])
        self.proof_line = int(violation.get("proof_line") or self.line)
        self.setWindowTitle(f"Proof: {violation.get('player')} — {violation.get('rule')}")
        self.resize(1200, 640)
        title = QLabel(f"{violation.get('text')}  ({violation.get('rule')})")
        title.setWordWrap(True)
        title.setStyleSheet("font-size: 20pt; font-weight: bold; color: #b3261e;")
        self.left = FramePane()
        self.right = FramePane()
        self.left_caption = QLabel()
        self.right_caption = QLabel()
        for cap in (self.left_caption, self.right_caption):
            cap.setStyleSheet("font-size: 14pt;")
            cap.setWordWrap(True)
        grid = QGridLayout()
        grid.addWidget(self.left, 0, 0)
        grid.addWidget(self.right, 0, 1)
        grid.addWidget(self.left_caption, 1, 0)
        grid.addWidget(self.right_caption, 1, 1)
        lo, hi = sorted((self.line, self.proof_line))
        self.steps = [n for n in session.evidence_lines() if lo <= n <= hi]
        for n in (self.line, self.proof_line):
            if n not in self.steps:
                self.steps.append(n)
        self.steps.sort()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, max(0, len(self.steps) - 1))
        self.slider.valueChanged.connect(self._show_step)
        self.play_button = QPushButton("▶ Replay")
        self.play_button.clicked.connect(self.toggle_play)
        self._timer = QTimer(self)
        self._timer.setInterval(600)
        self._timer.timeout.connect(self._advance)
        row = QHBoxLayout()
        row.addWidget(self.play_button)
        row.addWidget(self.slider, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(title)
        box.addLayout(grid, 1)
        box.addLayout(row)
        box.addWidget(buttons)
        self.left.show_frame(session.evidence(self.line), "No picture kept of the offence")
        self.left_caption.setText(f"Offence — line {self.line}: {self._describe(self.line)}")
        self.slider.setValue(len(self.steps) - 1)
        self._show_step(self.slider.value())

    def _describe(self, line: int) -> str:
        ev = self.session.event_at(line)
        return describe_event(dict(ev.data)) if ev is not None else "(event removed)"

    def _show_step(self, k: int) -> None:
        if not 0 <= k < len(self.steps):
            return
        line = self.steps[k]
        label = "Proof" if line == self.proof_line else "Replay"
        self.right.show_frame(self.session.evidence(line), "No picture kept (typed in)")
        self.right_caption.setText(f"{label} — line {line}: {self._describe(line)}")

    def toggle_play(self) -> None:
        if self._timer.isActive():
            self._timer.stop()
            self.play_button.setText("▶ Replay")
            return
        self.slider.setValue(0)
        self._timer.start()
        self.play_button.setText("■ Stop")

    def _advance(self) -> None:
        if self.slider.value() >= self.slider.maximum():
            self._timer.stop()
            self.play_button.setText("▶ Replay")
            return
        self.slider.setValue(self.slider.value() + 1)

    def done(self, result: int) -> None:
        self._timer.stop()
        super().done(result)
