"""Starting the window: `companion` (no subcommand) and `companion demo`.

With a camera the window opens the game setup; with none it plays the demo table at once. A
game left unfinished (crash, restart) is offered for resuming first.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from companion import diagnostics
from companion.referee import GAME_MODULES

if TYPE_CHECKING:
    from ui.camera import Camera


def route_qt_messages() -> None:
    """Send Qt's own messages (warnings of plugins, multimedia, fonts) to the diagnostic log,
    where they can be found after a failure; critical ones still reach standard error."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    qt = logging.getLogger("companion.qt")
    levels = {QtMsgType.QtDebugMsg: logging.DEBUG, QtMsgType.QtInfoMsg: logging.INFO,
              QtMsgType.QtWarningMsg: logging.WARNING, QtMsgType.QtCriticalMsg: logging.ERROR,
              QtMsgType.QtFatalMsg: logging.CRITICAL}

    def handler(kind: QtMsgType, context: object, message: str) -> None:
        level = levels.get(kind, logging.WARNING)
        qt.log(level, "%s", message)
        if level >= logging.ERROR and sys.stderr is not None:
            print(f"Qt: {message}", file=sys.stderr)

    qInstallMessageHandler(handler)


def _app() -> object:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        diagnostics.setup()
        route_qt_messages()
        app = QApplication(sys.argv[:1])
        app.setApplicationName("michigan-companion")
        app.setOrganizationName("michigan-companion")
        app.setApplicationDisplayName("Michigan Companion")
    return app


def build_window(demo: bool | None = None, game: str = "michigan-rummy", seed: int = 1,
                 speech: bool | None = None, ask_resume: bool = True,
                 cameras: Sequence[Camera] | None = None, detector: str = "model") -> object:
    """Make the main window and start what the situation calls for (returns the window)."""
    _app()
    from PySide6.QtCore import QSettings

    from ui.camera import find_cameras
    from ui.speech import Speaker
    from ui.window import MainWindow

    settings = QSettings()
    if speech is None:
        speech = str(settings.value("speech", "false")).lower() in ("true", "1")
    window = MainWindow(speaker=Speaker(enabled=bool(speech)), settings=settings)
    window.act_speak.setChecked(bool(speech))
    window.demo_detector = detector
    if ask_resume and window.offer_resume() is not None:
        return window
    why = ""
    if demo is None:
        cams = find_cameras() if cameras is None else list(cameras)
        usable = [c for c in cams if not c.problem]
        demo = not usable
        if not cams:
            why = "no camera found"
        elif not usable:   # there is a camera, but it cannot be used: say so, and why
            why = f"{cams[0].name} cannot be opened"
            window.show_problem("\n".join(f"{c.name} cannot be opened: {c.problem}."
                                          for c in cams)
                                + "\n\nThe demo table plays meanwhile; Game → New game "
                                  "tries the camera again.")
    if demo:
        window.start_demo(game=game, seed=seed, rendered=window.rendered_demo, why=why)
    else:
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, window.new_game)
    return window


def dispose(*widgets: object) -> None:
    """Close and delete widgets now, while the application still exists (deleting them after
    the QApplication, in whatever order Python frees locals at exit, can crash)."""
    from PySide6.QtCore import QCoreApplication, QEvent

    for w in widgets:
        w.close()  # type: ignore[attr-defined]
        w.deleteLater()  # type: ignore[attr-defined]
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QCoreApplication.processEvents()


def run_window(demo: bool | None = None, game: str = "michigan-rummy", seed: int = 1,
               speech: bool | None = None, detector: str = "model") -> int:
    """Entry point of `companion` without a subcommand: open the window, run until closed.
    With no display the demo table plays in the terminal; when Qt cannot load its display
    support, the missing libraries are named in one line (exit 2) instead of Qt aborting."""
    from ui.startup import NO_DISPLAY, qt_platform_problem, terminal_demo

    problem = qt_platform_problem()
    if problem == NO_DISPLAY:
        return terminal_demo(game=game, seed=seed, detector=detector)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    app = _app()
    window = build_window(demo=demo, game=game, seed=seed, speech=speech,
                          ask_resume=demo is not True, detector=detector)
    window.show()  # type: ignore[attr-defined]
    code = int(app.exec())  # type: ignore[attr-defined]
    dispose(window)
    return code


def register_demo(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo",
        help="open the window on the built-in demo table (bots play a game it watches)",
        description=(
            "Open the companion window on the demo table: bots play a simulated game, drawn "
            "as a camera would see it, and the window recognises, announces, referees and "
            "keeps the chips as it would at a real table."
        ),
    )
    p.add_argument("--game", "-g", default="michigan-rummy", choices=sorted(GAME_MODULES))
    p.add_argument("--seed", "-s", type=int, default=1)
    p.add_argument("--speak", action="store_true", help="speak the announcements")
    p.add_argument("--detector", choices=["model", "truth"], default="model",
                   help="who reads the demo table's cards: 'model' (the shipped card models, "
                        "as with a camera; the default) or 'truth' (the renderer knows them: "
                        "every card right, to show the referee alone)")
    p.set_defaults(func=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    os.environ.setdefault("QT_LOGGING_RULES", "qt.multimedia*=false")
    return run_window(demo=True, game=args.game, seed=args.seed,
                      speech=True if args.speak else None, detector=args.detector)
