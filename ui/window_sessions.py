"""The main window's games (a layer of `MainWindow`, see ui/window_display.py): starting one
(the setup dialog, the demo table, a camera), carrying on with a saved one (`resume`,
`offer_resume`), replaying a past one with the slider, the saved-game picker, and exporting
the scoresheet; what the window watches is always said in the status bar.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QDialog, QFileDialog, QLabel, QMessageBox, QSlider, QWidget

from calibration.profile import TableProfile
from companion.diagnostics import log_failure
from companion.events import LogFileError, describe_event
from ui import export
from ui.demo import DEMO_PLAYERS, DemoTable
from ui.dialogs import OpenGameDialog
from ui.setup import DEMO_SOURCE, GameSetup, SetupDialog
from ui.store import GameInfo, GameSession, chip_history, replay_prefix
from ui.window_entry import WindowEntry
from ui.worker import DemoFeed, Feed


class WindowSessions(WindowEntry):
    """Starting, resuming and replaying games. Its state is set up by `MainWindow.__init__`."""

    rendered_demo: bool
    demo_detector: str
    demo_fallible: float
    source_label: QLabel
    replay_bar: QWidget
    replay_slider: QSlider
    replay_label: QLabel
    #: The log lines the replay slider steps through.
    _replay_lines: list[int]

    def new_game(self) -> GameSetup | None:
        from ui.camera import find_cameras

        dlg = SetupDialog(find_cameras(), self, rendered_demo=self.rendered_demo)
        if self.settings is not None:  # the camera chosen last time, when it is still there
            dlg.choose_source(str(self.settings.value("camera", "") or ""))
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        gs = dlg.result_setup()
        if self.settings is not None:
            self.settings.setValue("camera", gs.source)
        self.start_game(gs)
        return gs

    def start_demo(self, game: str = "michigan-rummy", players: Sequence[str] = DEMO_PLAYERS,
                   seed: int = 1, rounds: int | None = 2, chips: int | None = 50,
                   mistakes: float = 0.08, interval_ms: int | None = None,
                   rendered: bool = False, detector: str | None = None,
                   why: str = "") -> GameSession:
        """Play the built-in demo table (a simulated game) through the whole window. ``why``
        says why the demo plays (``"no camera found"``), shown with it.

        ``rendered``: the game is drawn as camera frames and read by the vision pipeline
        (detector, zones, tracker), as at a real table; otherwise each simulated event is
        logged directly and drawn on a plain picture of the table (fast, exact).
        """
        params = {"game": game, "players": list(players), "seed": seed, "rounds": rounds,
                  "chips": chips, "mistakes": mistakes, "rendered": rendered,
                  "detector": detector or self.demo_detector, "fallible": self.demo_fallible}
        table = DemoTable.simulated(game, players, seed=seed, rounds=rounds, mistakes=mistakes,
                                    chips=chips)
        self._close_session(dismiss=True)
        session = self.store.new_game(table.events[0], source="demo", extra={"demo": params})
        self._open_session(session)
        self._start_demo_feed(table, session, params, interval_ms)
        self._show_source("demo", why)
        return session

    def _show_source(self, kind: str, why: str = "", camera: str = "") -> None:
        """Say plainly, and keep in view, what the window is watching."""
        if kind == "demo":
            lead = f"{why[:1].upper()}{why[1:]}: " if why else ""
            self.source_label.setText("DEMO TABLE" + (f" ({why})" if why else ""))
            self.status.showMessage(f"{lead}this is the demo table. Bots play a made-up game, "
                                    "drawn as a camera would see it, and the companion reads, "
                                    "referees and announces it as it would at your table. "
                                    "Game → New game starts a real one.", 15000)
        elif kind == "camera":
            from ui.camera import camera_name

            self.source_label.setText(camera_name(camera))
        else:
            self.source_label.setText(kind)

    def _start_demo_feed(self, table: DemoTable, session: GameSession, params: dict[str, Any],
                         interval_ms: int | None) -> None:
        if params.get("rendered"):
            events, log, seed = table.events, session.log, int(params.get("seed") or 0)
            ms = 100 if interval_ms is None else interval_ms
            which = str(params.get("detector") or "model")
            fallible = float(params.get("fallible") or 0.0)

            def make() -> Feed:
                try:
                    from ui.rendered import RenderedDemoFeed

                    return RenderedDemoFeed(events, log, seed, ms, which, fallible=fallible)
                except Exception as exc:  # noqa: BLE001 - vision not installed or broken
                    why = log_failure("the rendered demo table could not start", exc)
                    fed = sum(1 for e in session.events if e.kind != "correct")
                    plain = DemoFeed(DemoTable(events, start=fed), 1100 if interval_ms is None
                                     else interval_ms)
                    plain.notices = [f"{why} Showing the drawn demo table instead; reinstall "
                                     f"the app (pip install 'michigan-companion[app]') to "
                                     f"get the camera view back."]
                    return plain

            self._start_feed(make)
        else:
            ms = 1100 if interval_ms is None else interval_ms
            self._start_feed(lambda: DemoFeed(table, ms))

    def start_game(self, gs: GameSetup, interval_ms: int | None = None) -> GameSession:
        """Start the game a `SetupDialog` decided: demo table or camera."""
        if gs.source == DEMO_SOURCE:
            chips = gs.setup.get("chips")
            return self.start_demo(gs.game, gs.players, rounds=gs.setup.get("rounds"),
                                   chips=chips if isinstance(chips, int) else None,
                                   interval_ms=interval_ms, rendered=self.rendered_demo)
        self._close_session(dismiss=True)
        extra: dict[str, Any] = {"camera": gs.source}
        if gs.profile is not None:
            extra["profile"] = gs.profile.to_json()
        if gs.deck is not None:
            extra["deck"] = gs.deck
        session = self.store.new_game(gs.setup, source="camera", extra=extra)
        self._open_session(session)
        self.append_events([{"event": "round", "dealer": gs.first_dealer, "source": "user"}])
        self._start_camera(gs.source, gs.profile, gs.deck)
        self._show_source("camera", camera=gs.source)
        return session

    def resume(self, info: GameInfo | Path, interval_ms: int | None = None
               ) -> GameSession | None:
        """Carry on with a saved game exactly where its log stops. None, said on screen, when
        its log cannot be written (another program or window is writing it: `LogLockedError`
        names it and the lock file)."""
        path = info.path if isinstance(info, GameInfo) else Path(info)
        self._close_session(dismiss=False)
        try:
            session = GameSession(path)
        except LogFileError as exc:
            self.show_problem(f"Cannot carry on with this game: {exc}. You can still replay "
                              f"it (Game → Open).")
            return None
        self._open_session(session)
        meta = session.meta
        demo = meta.get("demo")
        if meta.get("source") == "demo" and isinstance(demo, dict):
            fed = sum(1 for e in session.events
                      if e.kind != "correct" and e.get("source") != "user")
            table = DemoTable.simulated(demo["game"], demo["players"], seed=demo["seed"],
                                        rounds=demo["rounds"], mistakes=demo["mistakes"],
                                        chips=demo["chips"],
                                        start=1 if demo.get("rendered") else fed)
            self._start_demo_feed(table, session, demo, interval_ms)
            self._show_source("demo")
        else:
            profile = None
            if isinstance(meta.get("profile"), dict):
                try:
                    profile = TableProfile.from_json(meta["profile"])
                except (ValueError, KeyError):
                    profile = None
            deck = meta.get("deck")
            self._start_camera(str(meta.get("camera", "0")), profile,
                               deck if isinstance(deck, str) else None)
            self._show_source("camera", camera=str(meta.get("camera", "0")))
        self.status.showMessage("Resumed the saved game where it stopped.", 8000)
        return session

    def _open_session(self, session: GameSession) -> None:
        self.session = session
        # A new game starts clean: nothing of the previous one stays in view.
        self.alert.clear()
        self.alert.setVisible(False)
        self.live.clear()
        self._last_frame = None
        self._n_announced = len(session.report()["announcements"])
        self._n_violations = len(session.report()["violations"])
        self.replay_bar.setVisible(self.replay_mode)
        self.profile = None
        self.live.set_profile(None)
        self.setWindowTitle(f"Michigan Companion — {session.setup.get('game')}")
        self.refresh(speak=False)
        report = session.report()
        if report["announcements"]:
            self._show_announcement(report["announcements"][-1]["text"], speak=False)
        else:
            self._show_announcement("Game set up. Waiting for the first card…", speak=False)
        self._update_actions()

    def _close_session(self, dismiss: bool) -> None:
        self.stop_feed()
        if self.session is not None:
            self.session.close(finished_by_user=dismiss)
        self.session = None
        self.replay_mode = False
        self.replay_bar.setVisible(False)

    # --- saved games, replay and export ----------------------------------------------------
    def open_game_dialog(self) -> None:
        dlg = OpenGameDialog(self.store, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            info = dlg.chosen()
            if info is not None:
                self.open_replay(info.path)

    def open_replay(self, path: Path | str) -> GameSession:
        """Open a past game to replay and export it: read only, so a game another program is
        still writing can be replayed too."""
        self._close_session(dismiss=False)
        session = GameSession(Path(path), read_only=True)
        self.replay_mode = True
        self._open_session(session)
        lines = [e.line for e in session.effective()]
        self._replay_lines = lines
        self.replay_bar.setVisible(True)
        self.replay_slider.blockSignals(True)
        self.replay_slider.setRange(0, max(0, len(lines) - 1))
        self.replay_slider.setValue(max(0, len(lines) - 1))
        self.replay_slider.blockSignals(False)
        self._replay_to(self.replay_slider.value())
        self._show_source("Replay of a past game")
        return session

    def _replay_to(self, k: int) -> None:
        if self.session is None or not self.replay_mode:
            return
        lines = getattr(self, "_replay_lines", [])
        if not lines:
            return
        line = lines[max(0, min(k, len(lines) - 1))]
        result = replay_prefix(self.session.events, line)
        report = result.report()
        turn = result.referee.turn() if result.referee and not report["finished"] else None
        self._show_report(report, turn, chip_history(result.referee, self.session.setup),
                          [e for e in self.session.effective() if e.line <= line])
        said = [a["text"] for a in report["announcements"] if a["line"] == line]
        at = self.session.event_at(line)
        text = said[-1] if said else (describe_event(dict(at.data)) if at is not None else "")
        self._show_announcement(text, speak=False)
        self.replay_label.setText(f"line {line} / {lines[-1]}")
        shown = [n for n in self.session.evidence_lines() if n <= line]
        frame = self.session.evidence(shown[-1]) if shown else None
        if frame is not None:
            self.live.set_frame(frame)
        self.refreshed.emit()

    def export_csv(self, path: str | Path | None = None) -> Path | None:
        if self.session is None:
            return None
        if path is None:
            name, _ = QFileDialog.getSaveFileName(self, "Export scoresheet (CSV)",
                                                  "scoresheet.csv", "CSV (*.csv)")
            if not name:
                return None
            path = name
        return export.export_csv(self.session, path)

    def export_pdf(self, path: str | Path | None = None) -> Path | None:
        if self.session is None:
            return None
        if path is None:
            name, _ = QFileDialog.getSaveFileName(self, "Export scoresheet (PDF)",
                                                  "scoresheet.pdf", "PDF (*.pdf)")
            if not name:
                return None
            path = name
        return export.export_pdf(self.session, path)

    def offer_resume(self, ask: Callable[[GameInfo], bool] | None = None) -> GameSession | None:
        """Offer to carry on with an unfinished game (after a crash or a restart)."""
        info = self.store.resumable()
        if info is None:
            return None
        if ask is None:
            def ask(i: GameInfo) -> bool:
                answer = QMessageBox.question(
                    self, "Resume the game?",
                    f"An unfinished game was found:\n{i.title}\n\nCarry on where it stopped?")
                return answer == QMessageBox.StandardButton.Yes
        if ask(info):
            return self.resume(info)
        GameSession(info.path, read_only=True).update_meta(closed=True)  # do not ask again
        return None
