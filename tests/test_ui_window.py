"""The companion window driven with pytest-qt (offscreen): the demo to its first announcements
and to the end, closing, proof replay, the models' consistency, the CLI, the demo and a camera
read through the vision pipeline, and speech. Setup, corrections, resume and past games have
their own files (test_ui_setup, test_ui_corrections, test_ui_resume, test_ui_saved_games)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot
from ui_helpers import FAST, wait_events

from companion.referee import replay_dicts
from ui.demo import DemoTable
from ui.models import ChipTableModel, EventsModel, GamesModel, ViolationsModel
from ui.store import GameStore
from ui.window import MainWindow


@pytest.fixture
def window(window: MainWindow) -> MainWindow:
    """The shared window (conftest), at a size where every panel shows."""
    window.resize(1400, 900)
    return window


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
