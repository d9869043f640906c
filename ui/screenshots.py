"""Screenshots for the documentation: the main window during the demo, the game setup (house
rules, camera and calibration) and a violation's proof. Run under Xvfb or offscreen:

    xvfb-run -s "-screen 0 1600x1000x24" python -m ui.screenshots docs/screenshots
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path


def _wait(app: object, until: object, timeout_s: float) -> bool:
    from PySide6.QtCore import QCoreApplication

    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        QCoreApplication.processEvents()
        if until():  # type: ignore[operator]
            return True
        time.sleep(0.01)
    return False


def save_small(widget: object, path: Path) -> None:
    """Save a widget's picture as a small PNG (256 colours are plenty for a screenshot)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage

    image = widget.grab().toImage()  # type: ignore[attr-defined]
    small = image.convertToFormat(QImage.Format.Format_Indexed8,
                                  Qt.ImageConversionFlag.ThresholdDither)
    small.save(str(path), "PNG", 0)


def main(out: str = "docs/screenshots") -> int:
    os.environ.setdefault("COMPANION_DATA_DIR", tempfile.mkdtemp(prefix="companion-shots-"))
    from PySide6.QtWidgets import QApplication

    from ui.cli import dispose
    from ui.setup import SetupDialog
    from ui.window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)

    # 1. the main window while the rendered demo table is played and read by the pipeline
    w = MainWindow()
    w.resize(1500, 940)
    w.show()
    session = w.start_demo(rendered=True, interval_ms=1)
    answered: set[int] = set()

    def answer() -> None:
        """A play that breaks a rule is held for a person (a misreading is likelier): as a
        person at this table would, confirm it as read ("Yes, log it"), which logs the
        violation; each question once, while the feed works on it."""
        if w.pending and w.pending[0][0] not in answered:
            answered.add(w.pending[0][0])
            w.answer_pending(True)

    def played() -> bool:
        answer()
        return len(session.report()["violations"]) >= 1 and len(session.events) >= 34

    if not _wait(app, played, 120):
        print("screenshots: the demo did not reach a violation in 120 s", file=sys.stderr)
    w.feed.worker.set_paused(True) if w.feed else None
    _wait(app, lambda: False, 0.3)
    save_small(w, folder / "main-demo.png")

    # 2. a violation's proof: offence and proof frames side by side
    vios = session.report()["violations"]
    if vios:
        row = max(range(len(vios)), key=lambda i: vios[i]["proof_line"] - vios[i]["line"])
        dlg = w.show_proof(row, modal=False)
        if dlg is not None:
            dlg.resize(1400, 700)
            _wait(app, lambda: False, 0.3)
            save_small(dlg, folder / "proof.png")
            dispose(dlg)
    dispose(w)

    # 3. the setup: house rules, and the calibration over the demo table's picture
    setup = SetupDialog(cameras=[], rendered_demo=True)
    setup.resize(1000, 700)
    setup.show()
    setup.set_game("michigan-rummy")
    setup.tabs.setCurrentIndex(2)
    _wait(app, lambda: False, 0.3)
    save_small(setup, folder / "setup-house-rules.png")
    setup.tabs.setCurrentIndex(3)
    _wait(app, lambda: False, 0.5)
    save_small(setup, folder / "setup-calibration.png")
    dispose(setup)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:2]))
