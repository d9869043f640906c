"""Resuming the rendered demo continues exactly where the game stopped (issue 15, finding 6):
the cards already on the table are neither read again ('already played' notes, questions about
the pile) nor logged twice, and the finished log is the one the same game writes when it is
never interrupted (questions answered alike). The window resumes a game after an abrupt stop
(a partial last line, the power gone) with exactly its next event, and a declined resume is
remembered."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from log_helpers import normalise
from pytestqt.qtbot import QtBot
from ui_helpers import FAST, wait_events

from companion.events import EventLog, read_log
from ui.demo import DemoTable
from ui.rendered import RenderedDemoFeed
from ui.store import GameInfo, GameStore
from ui.window import MainWindow

VISUAL = ("play", "reveal", "trump")
EVENTS = DemoTable.simulated("michigan-rummy", seed=1, rounds=2, mistakes=0.08, chips=50).events


def _seen(path: Path) -> int:
    return sum(1 for e in read_log(path).events if e.kind in VISUAL)


def _step(feed: RenderedDemoFeed, notes: list[str]) -> bool:
    """One tick; a question is answered as the reading stands (what a person confirms)."""
    tick = feed.tick()
    notes.extend(n for n in tick.notes if not n.startswith("Demo table:"))
    for pid, _text, event, *_answers in tick.pending or []:
        feed.answer(pid, event)
    return tick.done


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    path = tmp_path_factory.mktemp("whole") / "game.jsonl"
    log = EventLog(path)
    log.append(EVENTS[0])
    feed, notes = RenderedDemoFeed(EVENTS, log, 1, 1, "truth"), []
    while not _step(feed, notes):
        pass
    return normalise([dict(e.data) for e in read_log(path).events])


@pytest.mark.parametrize("stop_after", [12, 45])  # mid first round; mid second, a reveal done
def test_resume_continues_exactly_where_the_game_stopped(
        tmp_path: Path, stop_after: int, uninterrupted: list[dict[str, Any]]) -> None:
    path = tmp_path / "game.jsonl"
    log = EventLog(path)
    log.append(EVENTS[0])
    first, notes = RenderedDemoFeed(EVENTS, log, 1, 1, "truth"), []
    while _seen(path) < stop_after:
        assert not _step(first, notes)
    log.close()  # the window closes; the game is carried on later
    n = len(read_log(path).events)
    resumed: list[str] = []
    again = RenderedDemoFeed(EVENTS, EventLog(path), 1, 1, "truth")
    while not _step(again, resumed):
        pass
    got: list[dict[str, Any]] = [dict(e.data) for e in read_log(path).events]
    assert not [t for t in resumed if "already played" in t]
    assert normalise(got) == uninterrupted  # nothing twice, nothing missed
    assert normalise(got[n:n + 1]) == uninterrupted[n:n + 1]  # the very next event


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
