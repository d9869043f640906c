"""The companion window driven with pytest-qt (offscreen): the demo to its first announcements,
a full setup, a correction that changes the ledger, resume after an abrupt stop, proof replay,
clicking a misread card, replaying a past game, the CLI, and the models' consistency."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from companion.referee import replay_dicts
from ui.camera import Camera
from ui.demo import DemoTable
from ui.dialogs import DummyDialog, EventDialog, PlayDialog
from ui.models import ChipTableModel, EventsModel, GamesModel, ViolationsModel
from ui.setup import DEMO_SOURCE, SetupDialog
from ui.store import GameInfo, GameSession, GameStore
from ui.window import MainWindow

FAST = 5  # ms between demo events in tests


@pytest.fixture
def window(window: MainWindow) -> MainWindow:
    """The shared window (conftest), at a size where every panel shows."""
    window.resize(1400, 900)
    return window


def later(action: Callable[[], None]) -> Callable[[EventDialog], None]:
    """A `prepare` hook: once the dialog's exec() runs, fill it in and press OK."""
    def prepare(dlg: EventDialog) -> None:
        def go() -> None:
            action_dialog[0] = dlg
            action()
            dlg._try_accept()
        action_dialog: list[EventDialog | None] = [None]
        QTimer.singleShot(0, go)
    return prepare


def wait_events(qtbot, window: MainWindow, n: int, timeout: int = 15000) -> None:
    qtbot.waitUntil(lambda: window.session is not None and len(window.session.events) >= n,
                    timeout=timeout)


# --- the demo ---------------------------------------------------------------------------------
def test_demo_reaches_its_first_announcements(qtbot: QtBot, window: MainWindow) -> None:
    with qtbot.waitSignal(window.announced, timeout=10000, raising=True) as blocker:
        session = window.start_demo(interval_ms=FAST)
    first = blocker.args[0]
    assert isinstance(first, str) and first
    # the announcement shown is the referee's, for the events logged so far
    said = [a["text"] for a in session.report()["announcements"]]
    assert first in said
    assert window.announcement.text() == said[-1]
    # frames arrive from the worker thread; cards get outlined once played
    qtbot.waitUntil(lambda: window.live._image is not None, timeout=10000)
    qtbot.waitUntil(lambda: len(window.live.marks) > 0, timeout=15000)
    assert window.live._profile is not None
    assert window.feed is not None and window.feed.qthread.isRunning()
    assert window.chips_model.rowCount() >= len(session.players)
    assert window.turn_label.text()
    assert window.round_label.text().startswith("Michigan Rummy · round ")  # its name, no id


def test_demo_game_runs_to_the_end_and_matches_the_referee(qtbot: QtBot,
                                                           window: MainWindow) -> None:
    with qtbot.waitSignal(window.feedFinished, timeout=30000, raising=True):
        session = window.start_demo(game="oh-claire", rounds=2, interval_ms=1)
    table = DemoTable.simulated("oh-claire", seed=1, rounds=2, mistakes=0.08, chips=50)
    assert [dict(e.data) for e in session.events] == table.events
    assert session.report() == replay_dicts(table.events).report()
    assert window.chart.points >= 2
    history = session.round_history()
    assert history[0][0] == "Start" and history[-1][1] == session.report()["chips"]


def test_closing_stops_the_worker_cleanly(qtbot: QtBot, window: MainWindow) -> None:
    window.start_demo(interval_ms=FAST)
    wait_events(qtbot, window, 3)
    feed = window.feed
    assert feed is not None
    t0 = time.monotonic()
    window.close()
    assert not feed.qthread.isRunning()
    assert time.monotonic() - t0 < 5
    # closing is not finishing: the game is offered again
    assert window.store.resumable() is not None


# --- setup --------------------------------------------------------------------------------------
def test_full_setup_dialog_builds_the_game_event(qtbot: QtBot, store: GameStore) -> None:
    dlg = SetupDialog(cameras=[Camera(0, "HD Webcam")])
    qtbot.addWidget(dlg)
    assert dlg.game_combo.count() == 7
    dlg.set_game("pressman")
    dlg.set_players(["Ann", "Bob", "Cy"])
    dlg.new_name.setText("Dee")
    dlg._add_player()
    dlg.players.setCurrentRow(3)
    dlg._move(-1)  # Dee now sits third
    assert dlg.player_names() == ["Ann", "Bob", "Dee", "Cy"]
    dlg.chips.setValue(40)
    dlg.rounds.setValue(3)
    dlg.dealer.setCurrentText("Bob")
    from companion.house import house_rules
    flags = [r for r in house_rules("pressman") if isinstance(r.default, bool)]
    assert flags, "pressman has switchable house rules"
    rule = dlg.rule_editor(flags[0].name)
    assert rule is not None and rule.rule.ruling == flags[0].ruling
    rule.set_value(not flags[0].default)
    disk = dlg.rule_editor("disk")
    assert disk is not None and isinstance(disk.rule.default, list)
    # calibration: the zones are drawn over the picture; dragging a corner refits the board
    cal = dlg.calibration
    assert cal.profile is not None and len(cal.profile.zones) >= 4
    before = cal.profile.board_corners_px().copy()
    cal.move_corner(0, float(before[0][0]) + 25, float(before[0][1]) + 10)
    after = cal.profile.board_corners_px()
    assert np.allclose(after[0], before[0] + [25, 10], atol=0.5)
    assert np.allclose(after[2], before[2], atol=0.5)
    zone0 = cal.profile.zones[0].center
    cal.move_zone(0, (30.0, 0.0))
    assert cal.profile.zones[0].center[0] > zone0[0]
    assert dlg.problem() == ""
    gs = dlg.result_setup()
    assert gs.setup == {"event": "game", "game": "pressman",
                        "players": ["Ann", "Bob", "Dee", "Cy"], "chips": 40, "rounds": 3,
                        "house": {flags[0].name: not flags[0].default}}
    assert gs.first_dealer == "Bob"
    assert gs.source == DEMO_SOURCE
    assert gs.profile is not None
    dlg.set_players(["Solo"])
    assert "two players" in dlg.problem()


def test_setup_with_a_camera_starts_a_logged_game(qtbot: QtBot, window: MainWindow,
                                                  tmp_path: Path) -> None:
    # a "camera" that is a folder of pictures of the demo table
    table = DemoTable.simulated("michigan-rummy", seed=2, rounds=1)
    folder = tmp_path / "cam"
    folder.mkdir()
    for i in range(6):
        table.step()
        img, _ = table.frame()
        cv2.imwrite(str(folder / f"f{i:02d}.png"), img)
    dlg = SetupDialog(cameras=[])
    qtbot.addWidget(dlg)
    dlg.source.setEditText(str(folder))
    assert dlg.source_spec() == str(folder)
    dlg.set_players(["Ann", "Bob", "Cy", "Dee"])
    dlg.dealer.setCurrentText("Cy")
    gs = dlg.result_setup()
    with qtbot.waitSignal(window.eventLogged, timeout=5000, raising=True):
        session = window.start_game(gs)
    assert [e.kind for e in session.events] == ["game", "round"]
    assert session.events[1].get("dealer") == "Cy"
    qtbot.waitUntil(lambda: window.live._image is not None, timeout=10000)
    # what the camera cannot see is typed in: the dealer keeps the dummy
    window.enter(window._dummy_dialog, later(lambda: None))
    assert session.events[-1].get("event") == "dummy"
    assert session.events[-1].get("action") == "keep"
    assert session.report()["errors"] == []


# --- corrections --------------------------------------------------------------------------------
def _load_game(window: MainWindow, store: GameStore, upto: int, game: str = "michigan-rummy",
               seed: int = 4) -> tuple[GameSession, list[dict]]:
    events = DemoTable.simulated(game, seed=seed, rounds=2, mistakes=0.1).events
    session = store.new_game(events[0])
    for ev in events[1:upto]:
        session.append(ev)
    session.close(finished_by_user=False)
    window.resume(session.folder)
    window.stop_feed()  # a camera game with no camera: only the window writes
    assert window.session is not None
    return window.session, events


def test_correction_changes_the_ledger(qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    session, events = _load_game(window, store, upto=30)
    dummy = next(e for e in session.effective() if e.kind == "dummy")
    dealer = next(e for e in session.effective() if e.kind == "round").get("dealer")
    buyer = next(p for p in session.players if p != dealer)
    before = dict(window.session.report()["chips"])  # type: ignore[union-attr]

    def sell() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, DummyDialog)
        dlg.sell.setChecked(True)
        dlg.buyer.setCurrentText(str(buyer))
        dlg.price.setValue(3)

    with qtbot.waitSignal(window.refreshed, timeout=5000, raising=True):
        window.fix_event(dummy.line, later(sell))
    last = session.events[-1]
    assert last.kind == "correct" and last.get("line") == dummy.line
    after = session.report()["chips"]
    assert after[buyer] == before[buyer] - 3
    assert after[str(dealer)] == before[str(dealer)] + 3
    # the chip table shows the new numbers
    rows = {window.chips_model.index(r, 0).data(Qt.ItemDataRole.UserRole):
            window.chips_model.index(r, 1).data() for r in range(window.chips_model.rowCount())}
    assert rows[buyer] == str(after[buyer])
    # undo takes the correction's target event away (the dummy choice), as an event too
    n = len(session.events)
    window.undo()
    assert len(session.events) == n + 1 and session.events[-1].kind == "correct"


def test_clicking_a_misread_card_fixes_it(qtbot: QtBot, window: MainWindow,
                                          store: GameStore) -> None:
    session, events = _load_game(window, store, upto=12)
    table = DemoTable(events, start=12)
    window.profile = table.profile
    window.live.set_profile(table.profile, session.players)
    img, marks = table.frame()
    window.live.set_frame(img, marks)
    plays = [e for e in session.effective() if e.kind == "play"]
    target = plays[-1]
    code = target.get("card")
    mark = next(m for m in reversed(marks) if m.code == code)
    xs = [p[0] for p in mark.polygon]
    ys = [p[1] for p in mark.polygon]
    centre = window.live.to_widget(sum(xs) / 4 + 6, sum(ys) / 4)
    assert window.live.mark_at(centre) is not None
    wrong = next(c for c in ("2S", "3S", "4S") if c != code)
    clicked: list[str] = []
    window.live.cardClicked.disconnect()
    window.live.cardClicked.connect(clicked.append)
    qtbot.mouseClick(window.live, Qt.MouseButton.LeftButton,
                     pos=QPoint(int(centre.x()), int(centre.y())))
    assert clicked and clicked[0] == window.live.mark_at(centre).code  # type: ignore[union-attr]

    def retype() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        assert dlg.cards.codes() == [code]
        dlg.cards.setText(wrong)

    window.fix_card(str(code), later(retype))
    fixed = session.event_at(target.line)
    assert fixed is not None and fixed.get("card") == wrong
    assert fixed.get("player") == target.get("player")


def test_missed_play_is_added(qtbot: QtBot, window: MainWindow, store: GameStore) -> None:
    session, events = _load_game(window, store, upto=8)
    turn = session.turn()
    nxt = events[8]

    def fill() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        dlg.player.setCurrentText(str(nxt.get("player")))
        dlg.cards.setText(" ".join(nxt.get("cards") or [nxt["card"]]))

    if nxt["event"] != "play":
        pytest.skip("seed changed: event 8 is not a play")
    assert turn is None or isinstance(turn, str)
    window.enter(window._play_dialog, later(fill))
    ev = session.events[-1]
    assert ev.kind == "play" and ev.get("player") == nxt["player"]
    assert ev.get("source") == "user"
    assert replay_dicts(events[:9]).report()["chips"] == session.report()["chips"]


# --- resume ---------------------------------------------------------------------------------
def test_resume_after_an_abrupt_stop(qtbot: QtBot, store: GameStore) -> None:
    first = MainWindow(store=store)
    qtbot.addWidget(first)
    first.start_demo(seed=3, interval_ms=FAST)
    wait_events(qtbot, first, 25)
    first.stop_feed()
    session = first.session
    assert session is not None
    n = len(session.events)
    report = session.report()
    # the power goes out mid-write: a partial line, and the window never closes
    with open(session.log_path, "a", encoding="utf-8") as fh:
        fh.write('{"event":"play","pla')
    session.log.close()   # the window's process is gone, and its hold on the log with it
    first.session = None

    second = MainWindow(store=store)
    qtbot.addWidget(second)
    asked: list[GameInfo] = []

    def ask(info: GameInfo) -> bool:
        asked.append(info)
        return True

    resumed = second.offer_resume(ask=ask)
    assert asked and resumed is not None
    assert resumed.folder == session.folder
    assert resumed.report()["chips"] == report["chips"]
    assert resumed.report()["announcements"] == report["announcements"]
    # it carries on with exactly the next event of the game
    table = DemoTable.simulated("michigan-rummy", seed=3, rounds=2, mistakes=0.08, chips=50)
    with qtbot.waitSignal(second.eventLogged, timeout=10000, raising=True) as blocker:
        pass
    line = blocker.args[0]
    assert line == n + 2  # after the broken line
    assert dict(resumed.event_at(line).data) == table.events[n]  # type: ignore[union-attr]
    second.stop_feed()
    assert [e.line for e in resumed.events] == sorted(e.line for e in resumed.events)


def test_declining_resume_is_remembered(qtbot: QtBot, store: GameStore) -> None:
    events = DemoTable.simulated("boodle", seed=1, rounds=1).events
    session = store.new_game(events[0])
    for ev in events[1:6]:
        session.append(ev)
    w = MainWindow(store=store)
    qtbot.addWidget(w)
    assert w.offer_resume(ask=lambda info: False) is None
    assert store.resumable() is None


# --- proof ------------------------------------------------------------------------------------
def test_show_proof_replays_offence_and_proof_side_by_side(qtbot: QtBot,
                                                           window: MainWindow) -> None:
    with qtbot.waitSignal(window.feedFinished, timeout=30000, raising=True):
        session = window.start_demo(seed=1, interval_ms=1)
    vios = session.report()["violations"]
    assert vios, "the demo game (seed 1) has violations"
    row = next(i for i, v in enumerate(vios) if v["proof_line"] != v["line"])
    v = vios[row]
    dlg = window.show_proof(row, modal=False)
    assert dlg is not None
    qtbot.addWidget(dlg)
    assert dlg.left.has_frame() and dlg.right.has_frame()
    assert f"line {v['line']}" in dlg.left_caption.text()
    assert f"line {v['proof_line']}" in dlg.right_caption.text()
    lo, hi = sorted((v["line"], v["proof_line"]))
    assert dlg.steps[0] == lo and dlg.steps[-1] == hi
    # every picture kept in between is a step of the replay
    between = [n for n in session.evidence_lines() if lo < n < hi]
    assert between and dlg.steps[1:-1] == between
    dlg.slider.setValue(1)
    assert f"line {between[0]}" in dlg.right_caption.text()
    # the stored frames differ: the proof shows the table later on
    left = session.evidence(v["line"])
    right = session.evidence(v["proof_line"])
    assert left is not None and right is not None and not np.array_equal(left, right)
    # Replay steps through every frame in between and stops at the proof
    dlg._timer.setInterval(5)
    dlg.toggle_play()
    assert dlg.slider.value() == 0
    qtbot.waitUntil(lambda: not dlg._timer.isActive(), timeout=10000)
    assert dlg.slider.value() == dlg.slider.maximum() == len(dlg.steps) - 1
    assert "Proof" in dlg.right_caption.text()
    dlg.close()


# --- past games -------------------------------------------------------------------------------
def test_open_a_past_game_and_replay_it(qtbot: QtBot, window: MainWindow, store: GameStore,
                                        tmp_path: Path) -> None:
    events = DemoTable.simulated("wanagan", seed=2, rounds=1).events
    session = store.new_game(events[0])
    for ev in events[1:]:
        session.append(ev)
    session.close()
    games = store.games()
    model = GamesModel(games)
    assert model.rowCount() == 1 and model.index(0, 1).data() == "wanagan"
    window.open_replay(games[0].path)
    assert window.replay_bar.isVisible() or window.replay_mode
    final = window.session.report()["chips"]  # type: ignore[union-attr]
    window.replay_slider.setValue(0)
    start = {window.chips_model.index(r, 0).data(Qt.ItemDataRole.UserRole):
             window.chips_model.index(r, 1).data() for r in range(window.chips_model.rowCount())}
    expect = replay_dicts(events[:1]).report()["chips"]  # step 0: the game event alone
    assert all(start[p] == str(expect[p]) for p in expect)
    window.replay_slider.setValue(window.replay_slider.maximum())
    end = {window.chips_model.index(r, 0).data(Qt.ItemDataRole.UserRole):
           window.chips_model.index(r, 1).data() for r in range(window.chips_model.rowCount())}
    assert all(end[p] == str(final[p]) for p in final)
    # nothing can be appended to a game being replayed
    assert window.append_events([{"event": "end-round"}]) == []
    assert window.export_csv(tmp_path / "w.csv") is not None


# --- models -------------------------------------------------------------------------------------
def test_models_pass_the_model_tester(qtmodeltester: ModelTester, store: GameStore) -> None:
    events = DemoTable.simulated("michigan-rummy", seed=1, rounds=2, mistakes=0.1).events
    session = store.new_game(events[0])
    for ev in events[1:]:
        session.append(ev)
    report = session.report()
    chips = ChipTableModel()
    chips.set_report(report, session.round_history()[0][1], "Bob")
    qtmodeltester.check(chips)
    assert chips.rowCount() == len(report["chips"]) + len(report["pots"])
    vio = ViolationsModel()
    vio.set_violations(report["violations"])
    qtmodeltester.check(vio)
    assert vio.rowCount() == len(report["violations"])
    evm = EventsModel()
    evm.set_events(session.effective())
    qtmodeltester.check(evm)
    assert evm.index(1, 1).data().startswith("New round")
    games = GamesModel(store.games())
    qtmodeltester.check(games)


# --- command line -----------------------------------------------------------------------------
def test_cli_falls_back_to_the_demo_without_a_camera(qtbot: QtBot, store: GameStore) -> None:
    from ui.camera import find_cameras
    from ui.cli import build_window, register_demo, run_demo

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    register_demo(sub)
    args = parser.parse_args(["demo", "--game", "oh-claire", "--seed", "5"])
    assert args.func is run_demo and args.game == "oh-claire" and args.seed == 5
    t0 = time.monotonic()
    cams = find_cameras()
    assert time.monotonic() - t0 < 2.0
    assert isinstance(cams, list)
    t0 = time.monotonic()
    w = build_window(demo=None, cameras=[], ask_resume=False)
    qtbot.addWidget(w)
    assert time.monotonic() - t0 < 5.0
    assert isinstance(w, MainWindow)
    assert w.session is not None and w.session.meta.get("source") == "demo"
    w.stop_feed()


# --- the demo through the vision pipeline -------------------------------------------------------
def test_rendered_demo_is_read_by_the_pipeline(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_demo(rendered=True, interval_ms=1)
    qtbot.waitUntil(lambda: any(e.kind == "play" for e in session.events), timeout=40000)
    plays = [e for e in session.events if e.kind == "play"]
    # the pipeline wrote them (with the time the cards came to rest and the confidence)
    assert all("confidence" in e.data and "t" in e.data for e in plays)
    assert [e.line for e in session.events] == list(range(1, len(session.events) + 1))
    assert session.report()["announcements"]
    # the evidence frame of a play shows the board and zones only: hands are blacked out
    profile = window.profile
    assert profile is not None
    frame = session.evidence(plays[0].line)
    assert frame is not None
    hidden = profile.visible_mask(frame.shape[:2]) == 0
    assert hidden.any() and float(frame[hidden].mean()) < 4.0
    assert float(frame[~hidden].mean()) > 30.0


def test_none_reference_guard_survives_many_qt_calls(qtbot: QtBot, window: MainWindow) -> None:
    import sys

    from ui.qtfix import FLOOR, top_up_none

    top_up_none()
    before = sys.getrefcount(None)
    for _ in range(2000):
        window.live.update()  # a Qt method returning nothing
    lost = before - sys.getrefcount(None)
    assert lost <= 2100
    if sys.version_info < (3, 12):
        assert sys.getrefcount(None) > FLOOR


# --- readings the pipeline holds for confirmation ----------------------------------------------
class HeldReadingFeed:
    """A stand-in camera feed: one frame, one reading held for confirmation, then idle."""

    def __init__(self, profile: object, log: object) -> None:
        self.profile = profile
        self.interval_ms = 5
        self.log = log  # the session's own log: one writer object for every thread
        self.ticks = 0
        self.answers: list[tuple[int, object]] = []

    def tick(self):  # type: ignore[no-untyped-def]
        from ui.worker import FramePacket, Tick

        self.ticks += 1
        if self.ticks == 1:
            img = np.zeros((480, 640, 3), np.uint8)
            held = (7, "Confirm Bob: 2♥? (low confidence 0.41)",
                    {"event": "play", "player": "Bob", "card": "2H"})
            return Tick(FramePacket(img), pending=[held])
        return Tick()

    def answer(self, pending_id: int, event: dict | None) -> list:  # type: ignore[type-arg]
        from ui.worker import SeenEvent

        self.answers.append((pending_id, event))
        if event is None:
            return []
        line = self.log.append(event)  # type: ignore[attr-defined]
        return [SeenEvent(dict(event), None, line)]

    def close(self) -> None:
        pass


def test_a_held_reading_is_confirmed_with_a_fix(qtbot: QtBot, window: MainWindow,
                                                store: GameStore) -> None:
    events = DemoTable.simulated("michigan-rummy", seed=4, rounds=1).events
    session = store.new_game(events[0])
    for ev in events[1:3]:  # game, round, dummy
        session.append(ev)
    session.close(finished_by_user=False)   # one writer: the window takes the log over
    window.resume(session.folder)
    window.stop_feed()
    live = window.session
    assert live is not None
    table = DemoTable(events)
    feed_box: list[HeldReadingFeed] = []

    def make() -> HeldReadingFeed:
        feed_box.append(HeldReadingFeed(table.profile, live.log))
        return feed_box[0]

    window._start_feed(make)  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert "2♥" in window.confirm_label.text()
    first = events[3]

    def fix() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, PlayDialog)
        dlg.player.setCurrentText(first["player"])
        dlg.cards.setText(first["card"])

    with qtbot.waitSignal(window.eventLogged, timeout=5000, raising=True) as blocker:
        window.fix_pending(later(fix))
    line = blocker.args[0]
    assert feed_box[0].answers == [(7, {"event": "play", "player": first["player"],
                                        "card": first["card"], "source": "user"})]
    assert live.event_at(line).get("card") == first["card"]  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: not window.confirm_bar.isVisibleTo(window), timeout=5000)
    assert live.report()["chips"] == replay_dicts(events[:4]).report()["chips"]
    # a person's entry after the feed's write gets the next line, not the same one
    added = window.append_events([dict(events[4])])
    assert added == [line + 1]


# --- a camera read by the real pipeline ---------------------------------------------------------
def test_camera_feed_through_the_pipeline_logs_plays(qtbot: QtBot, window: MainWindow,
                                                     store: GameStore, tmp_path: Path) -> None:
    """A 'camera' (a folder of rendered frames) read by `TablePipeline` with a detector that
    reports what the renderer drew: the plays land in the game's log through the window."""
    from companion.cards import CARD_CODES
    from ui.camera import CameraFeed
    from vision.detections import Detections
    from vision.pipeline.table import TablePipeline
    from vision.render.table import TableVideo

    events = DemoTable.simulated("michigan-rummy", seed=5, rounds=1, mistakes=0.0).events
    video = TableVideo(events)
    folder = tmp_path / "frames"
    folder.mkdir()
    truths = []
    for k, ft in enumerate(video.frames()):
        if k >= 70:
            break
        cv2.imwrite(str(folder / f"{k:04d}.png"), ft.image)
        truths.append(ft)

    class Replayed:
        """Reports, for the n-th frame it is shown, the cards the renderer drew on it."""

        def __init__(self) -> None:
            self.n = 0

        def detect(self, frame: np.ndarray) -> Detections:
            ft = truths[min(self.n, len(truths) - 1)]
            self.n += 1
            seen = [(c, b) for c, b, visible in ft.cards if visible]
            if not seen:
                return Detections.empty()
            return Detections(np.array([b for _, b in seen], float), np.full(len(seen), 0.9),
                              np.array([CARD_CODES.index(c) for c, _ in seen]))

    session = store.new_game(events[0], source="camera")
    for ev in events[1:3]:  # round and dummy: typed in by people
        session.append(ev)
    session.close(finished_by_user=False)
    window.resume(session.folder)
    window.stop_feed()
    live = window.session
    assert live is not None
    profile = video.profile()

    def make() -> CameraFeed:
        feed = CameraFeed(str(folder), profile, "michigan-rummy", live.players)
        feed.pipeline = TablePipeline(profile, Replayed(), None, live.log)
        return feed

    window._start_feed(make)
    qtbot.waitUntil(lambda: any(e.kind == "play" for e in live.events), timeout=30000)
    play = next(e for e in live.events if e.kind == "play")
    assert play.get("card") == events[3]["card"] and play.get("player") == events[3]["player"]
    assert live.evidence(play.line) is not None
    # the window's entry after the pipeline's write takes the next line (one shared writer)
    window.stop_feed()
    n = live.log.lines
    assert window.append_events([{"event": "end-round"}]) == [n + 1]


# --- speech -------------------------------------------------------------------------------------
def test_announcements_are_spoken_only_when_asked(qtbot: QtBot, store: GameStore) -> None:
    from ui.speech import Speaker, speech_text

    quiet = Speaker(enabled=False, allow_qt=False)
    quiet.say("Next: 5♣")
    assert quiet.spoken == []
    speaker = Speaker(enabled=False, allow_qt=False)
    assert speaker.backend in ("espeak-ng", "silent")
    speaker._backend = "silent"  # record what would be said, make no sound in tests
    w = MainWindow(store=store, speaker=speaker)
    qtbot.addWidget(w)
    session = w.start_demo(interval_ms=FAST)
    wait_events(qtbot, w, 6)
    assert speaker.spoken == []  # Speak is off
    w.act_speak.setChecked(True)
    assert speaker.enabled
    n = len(session.events)
    wait_events(qtbot, w, n + 4)
    w.stop_feed()
    said = [speech_text(a["text"]) for a in session.report()["announcements"]]
    assert speaker.spoken and all(text in said for text in speaker.spoken)


def test_oh_claire_bid_and_end_of_round_are_typed_in(qtbot: QtBot, window: MainWindow,
                                                      store: GameStore) -> None:
    from ui.dialogs import BidDialog, EndRoundDialog

    session, events = _load_game(window, store, upto=3, game="oh-claire", seed=2)
    assert [e.kind for e in session.events] == ["game", "round", "trump"]
    assert window.act_bid.isEnabled() and not window.act_dummy.isVisible()
    bid = events[3]
    assert bid["event"] == "bid"

    def fill() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, BidDialog)
        dlg.player.setCurrentText(bid["player"])
        dlg.tricks.setValue(bid["tricks"])

    window.enter(window._bid_dialog, later(fill))
    got = dict(session.events[-1].data)
    assert got.pop("source") == "user" and got == bid
    assert session.report() == replay_dicts(events[:4]).report()
    # the end of a round: cards shown, nobody out, the next dealer starts the next round
    dealer = events[1]["dealer"]

    def end() -> None:
        dlg = window.last_dialog
        assert isinstance(dlg, EndRoundDialog)
        assert dlg.dealer.currentText() != dealer  # the deal passes on
        dlg.hands[session.players[0]].setText("2c 10♦")
        dlg.nobody_out.setChecked(True)

    window.enter(window._end_dialog, later(end))
    kinds = [e.kind for e in session.events[-3:]]
    assert kinds == ["reveal", "end-round", "round"]
    assert session.events[-3].get("cards") == ["2C", "TD"]


def test_setup_finds_the_board_in_the_camera_picture(qtbot: QtBot, tmp_path: Path) -> None:
    from vision.render.table import TableVideo

    events = DemoTable.simulated("michigan-rummy", seed=6, rounds=1).events
    video = TableVideo(events)
    folder = tmp_path / "cam"
    folder.mkdir()
    cv2.imwrite(str(folder / "0000.png"), video.render(0.0).image)
    dlg = SetupDialog(cameras=[])
    qtbot.addWidget(dlg)
    dlg.source.setEditText(str(folder))
    dlg._preview()  # the camera's picture behind the zones
    assert dlg.calibration.frame is not None and dlg.calibration.frame.shape[:2] == (480, 640)
    assert dlg.find_board(), dlg.error.text()
    found = dlg.calibration.profile
    assert found is not None
    true = video.profile().board_corners_px()
    assert np.abs(found.board_corners_px() - true).max() < 12.0  # pixels
    assert len(found.zones) == 4 and dlg.result_setup().profile is found


def test_the_demo_reads_cards_with_the_renderer_or_the_model(
        store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.rendered import RenderedDemoFeed
    from vision.readers.detector import default_model_path

    events = DemoTable.simulated("boodle", seed=1, rounds=1).events
    monkeypatch.delenv("COMPANION_NO_DETECTOR", raising=False)
    truth = RenderedDemoFeed(events, store.new_game(events[0]).log, 0, 1, "truth")
    assert type(truth.detector).__name__ == "TruthDetector"
    model = RenderedDemoFeed(events, store.new_game(events[0]).log, 0, 1, "model")
    shipped = default_model_path().is_file()
    assert (type(model.detector).__name__ == "ZoneReader") == shipped  # the model, zone by zone
    tick = model.tick()
    assert tick.frame is not None and tick.frame.image.shape == (480, 640, 3)


def test_a_held_reading_can_be_fixed_into_a_revealed_hand(qtbot: QtBot) -> None:
    """A hand shown at the round's end and read short of a card is held as a play; the fix
    dialog lets the person say the cards were a hand shown, and enter all of them."""
    dlg = PlayDialog(["Ann", "Bob"], "Bob", "KH QH TH", title="What was laid down?",
                     choose_kind=True)
    qtbot.addWidget(dlg)
    assert dlg.kind_combo is not None and dlg.kind == "play"
    dlg.kind_combo.setCurrentIndex(1)
    dlg.cards.setText("TH JH QH KH")
    (ev,) = dlg.events()
    assert ev["event"] == "reveal" and ev["player"] == "Bob"
    assert ev["cards"] == ["TH", "JH", "QH", "KH"]
    plain = PlayDialog(["Ann", "Bob"], "Bob", "KH")
    qtbot.addWidget(plain)
    assert plain.kind_combo is None and plain.events()[0] == {
        "event": "play", "player": "Bob", "card": "KH", "source": "user"}
