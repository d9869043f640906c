"""Issue 16, finding 2: a restarted `companion watch` continues the same game.

`watch` on a two-round rendered game is killed with SIGKILL at chosen moments (just after
scripted events, just after a round boundary, in the middle of writing a line) and started
again on the same log, through the command line; at the end the log holds exactly the events
of a run never interrupted (their times, scores and frame numbers aside).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.events import Event, read_log
from companion.referee import replay
from vision.pipeline_cli import EVIDENCE, resume_frame, unlogged_script

ROOT = Path(__file__).resolve().parents[1]
GAME = "demo:michigan-rummy:3:2"   # two rounds: lines 2-3 and 43-44 are the scripted events
WATCH = ["watch", GAME, "--detector", "truth", "--quiet"]

# Runs the command line, SIGKILLed by itself once it has written line LINE of the log whole
# ("after") or half of it ("torn").
KILLED = r"""
import os, signal, sys
from companion import cli
from companion.events import EventLog

line, how = int(sys.argv[1]), sys.argv[2]
write = EventLog._write

def _write(self, data):
    if self.lines + 1 == line:
        write(self, data if how == "after" else data[: len(data) // 2])
        os.kill(os.getpid(), signal.SIGKILL)
    write(self, data)

EventLog._write = _write
sys.exit(cli.main(sys.argv[3:]))
"""


def _run(log: Path, kill: tuple[int, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA_DIR": str(log.parent)}
    head = ["-c", KILLED, str(kill[0]), kill[1]] if kill else ["-m", "companion.cli"]
    return subprocess.run([sys.executable, *head, *WATCH, "--log", str(log)], env=env,
                          capture_output=True, text=True, timeout=600, cwd=log.parent)


def _bare(events: list[Event]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.data.items() if k not in EVIDENCE} for e in events]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> list[Event]:
    log = tmp_path_factory.mktemp("whole") / "game.jsonl"
    done = _run(log)
    assert done.returncode == 0, done.stderr
    events = read_log(log).events
    assert [e.line for e in events if e.kind == "round"] == [2, 43]
    return events


@pytest.mark.parametrize("kills", [
    # after the first round's event (its dummy not yet), after its dummy (the first card not
    # yet), after the second round's dummy
    [(2, "after"), (3, "after"), (44, "after")],
    # after the last card of round 1 (a round boundary), after round 2's event, a line torn
    # in half mid-game, and after the last card but one
    [(42, "after"), (43, "after"), (60, "torn"), (82, "after")],
], ids=["scripted-events", "round-boundary-and-torn-line"])
def test_watch_killed_and_restarted_logs_exactly_the_uninterrupted_game(
        tmp_path: Path, kills: list[tuple[int, str]], uninterrupted: list[Event]) -> None:
    log = tmp_path / "game.jsonl"
    for i, kill in enumerate(kills):
        killed = _run(log, kill)
        assert killed.returncode == -signal.SIGKILL, killed.stderr
        assert (log.parent / "game.jsonl.lock").exists()   # left behind by the dead writer
        assert i == 0 or "going on with" in killed.stderr   # and taken over by the next
    last = _run(log)
    assert last.returncode == 0, last.stderr
    assert "going on with" in last.stderr
    got = read_log(log)
    torn = [line for line, how in kills if how == "torn"]
    assert [p.line for p in got.errors] == torn   # the torn line is named, nothing else
    assert _bare(got.events) == _bare(uninterrupted)   # nothing twice, nothing lost
    # ... and each at the frame it was at: the cards already on the table stayed quiet
    # (read again, they would pull round 2's events in before its first card).
    assert [e.get("frame") for e in got.events] == [e.get("frame") for e in uninterrupted]
    whole, resumed = replay(uninterrupted), replay(got.events)
    assert resumed.referee is not None and whole.referee is not None
    assert resumed.referee.state.finished and not resumed.errors
    assert resumed.referee.ledger.balances() == whole.referee.ledger.balances()
    assert not (log.parent / "game.jsonl.lock").exists()


def test_a_torn_last_line_is_told_to_the_user(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert _run(log, (5, "torn")).returncode == -signal.SIGKILL
    again = subprocess.run(
        [sys.executable, "-c", KILLED, "7", "after", *WATCH, "--log", str(log)],
        env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA_DIR": str(tmp_path)},
        capture_output=True, text=True, timeout=600)
    assert "line 5 of" in again.stderr and "was cut short" in again.stderr
    assert "going on with" in again.stderr


def _events(*data: dict[str, Any]) -> list[Event]:
    return [Event(d, i) for i, d in enumerate(data, start=1)]


GAME_EV = {"event": "game", "game": "michigan-rummy", "players": ["A", "B", "C"]}
SCRIPT = [dict(GAME_EV, at=0), {"event": "round", "dealer": "A", "at": 0},
          {"event": "dummy", "action": "keep", "at": 0},
          {"event": "round", "dealer": "B", "at": 2}, {"event": "dummy", "action": "keep", "at": 2}]


def test_scripted_events_already_logged_are_not_logged_again() -> None:
    play = {"event": "play", "player": "B", "card": "2H", "frame": 11}
    after_round = _events(GAME_EV, {"event": "round", "dealer": "A", "frame": 11})
    assert unlogged_script(SCRIPT, after_round) == SCRIPT[2:]
    after_dummy = [*after_round, Event({"event": "dummy", "action": "keep", "frame": 11}, 3)]
    assert unlogged_script(SCRIPT, after_dummy) == SCRIPT[3:]
    two_cards = [*after_dummy, Event(play, 4), Event({**play, "card": "3H"}, 5)]
    assert unlogged_script(SCRIPT, two_cards) == SCRIPT[3:]   # round 2 waits for its card
    boundary = [*two_cards, Event({"event": "round", "dealer": "B"}, 6)]
    assert unlogged_script(SCRIPT, boundary) == SCRIPT[4:]
    # A first round the table started itself is not the script's: the script's comes next.
    started = _events(GAME_EV, {"event": "round", "dealer": "C"})
    assert unlogged_script(SCRIPT, started[:1]) == SCRIPT[1:]
    assert unlogged_script(SCRIPT, started) == SCRIPT[1:]


def test_the_resume_frame_follows_the_last_logged_frame() -> None:
    assert resume_frame(_events(GAME_EV, {"event": "round", "dealer": "A"})) is None
    scripted = _events(GAME_EV, {"event": "round", "dealer": "A", "frame": 11})
    assert resume_frame(scripted) == 11       # its card comes in that frame: read it again
    card = [*scripted, Event({"event": "play", "player": "B", "card": "2H", "frame": 11}, 3)]
    assert resume_frame(card) == 12           # the frame is done
