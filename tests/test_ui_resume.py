"""Resuming the rendered demo continues exactly where the game stopped (issue 15, finding 6):
the cards already on the table are neither read again ('already played' notes, questions about
the pile) nor logged twice, and the finished log is the one the same game writes when it is
never interrupted (questions answered alike)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from log_helpers import normalise

from companion.events import EventLog, read_log
from ui.demo import DemoTable
from ui.rendered import RenderedDemoFeed

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
