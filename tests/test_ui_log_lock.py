"""The window and the log's writer lock (issue 16, finding 7): a game another process is
writing cannot be carried on, and the window says so with who writes it, the lock file and
what to do; a replay only reads, so it opens while another writes and takes nothing from it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.events import EventLog, lock_path, read_log
from ui.demo import DEMO_PLAYERS, DemoTable
from ui.store import LOG_NAME, GameInfo, GameStore
from ui.window import MainWindow

HOLD = ("import sys; from companion.events import EventLog; log = EventLog(sys.argv[1]); "
        "print('ready', flush=True); sys.stdin.readline(); "
        "log.append({'event': 'round', 'dealer': 'Bob'}); log.close()")


@pytest.fixture
def saved(store: GameStore) -> GameInfo:
    """An unfinished game in the store (closed by its window, offered to resume)."""
    demo = {"game": "michigan-rummy", "players": list(DEMO_PLAYERS), "seed": 1, "rounds": 1,
            "chips": 50, "mistakes": 0.0, "rendered": False}
    events = DemoTable.simulated("michigan-rummy", DEMO_PLAYERS, seed=1, rounds=1,
                                 mistakes=0.0, chips=50).events
    session = store.new_game(events[0], source="demo", extra={"demo": demo})
    for ev in events[1:12]:
        session.append(ev)
    session.close(finished_by_user=False)
    info = store.resumable()
    assert info is not None
    return info


@pytest.fixture
def other_writer(saved: GameInfo) -> Iterator[subprocess.Popen[str]]:
    """Another process writing the saved game's log (a `watch`, or a second window)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(saved.path / LOG_NAME)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    yield proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_resuming_a_game_another_process_writes_is_said_with_what_to_do(
        window: MainWindow, saved: GameInfo, other_writer: subprocess.Popen[str]) -> None:
    assert window.resume(saved) is None
    assert window.session is None and window.feed is None
    box = window.last_problem
    assert box is not None and box.isVisible()
    text = box.text()
    assert f"process {other_writer.pid}" in text
    assert str(lock_path((saved.path / LOG_NAME).resolve())) in text
    assert "Stop that one first" in text and "Game → Open" in text
    assert window.status.currentMessage() == text
    box.close()


def test_a_replay_opens_while_another_process_writes_and_takes_no_lock(
        window: MainWindow, saved: GameInfo, other_writer: subprocess.Popen[str]) -> None:
    log = saved.path / LOG_NAME
    before = log.read_bytes()
    session = window.open_replay(saved.path)
    assert window.replay_mode and len(session.events) == len(read_log(log).events)
    window._close_session(dismiss=True)
    assert log.read_bytes() == before
    assert GameStore(saved.path.parents[1]).resumable() is not None   # still offered
    # the writer goes on writing its log: the replay left its lock alone
    assert other_writer.stdin is not None
    other_writer.stdin.write("\n")
    other_writer.stdin.flush()
    assert other_writer.wait(timeout=20) == 0
    assert read_log(log).events[-1].data == {"event": "round", "dealer": "Bob"}


def test_once_the_other_writer_is_gone_the_game_resumes(
        window: MainWindow, saved: GameInfo) -> None:
    holder = EventLog(saved.path / LOG_NAME)     # another window of this process
    assert window.resume(saved, interval_ms=5) is None
    holder.close()
    session = window.resume(saved, interval_ms=5)
    assert session is not None and window.session is session
