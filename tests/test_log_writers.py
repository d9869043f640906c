"""Issue 16, finding 7: one writer per log, across processes, and a full disk.

A second writer is refused with a message naming the process that writes; a lock left by a
process that died is taken over; an event that a full disk refuses leaves no part of its line
(the log stays whole) and the game goes on once there is space.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.events import EventLog, LogLockedError, LogWriteError, lock_path, read_log
from vision.pipeline_cli import WatchLog

ROOT = Path(__file__).resolve().parents[1]
ROUND = {"event": "round", "dealer": "A"}


def _holder(path: Path) -> subprocess.Popen[str]:
    """Another process that opens ``path`` as its writer and keeps it open until stdin ends."""
    code = textwrap.dedent(f"""
        import sys
        from companion.events import EventLog
        log = EventLog({str(path)!r})
        print("open", flush=True)
        sys.stdin.read()
        log.close()
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
    return proc


def test_a_second_writer_in_another_process_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    other = _holder(path)
    try:
        with pytest.raises(LogLockedError) as info:
            EventLog(path)
        text = str(info.value)
        assert f"process {other.pid} on {socket.gethostname()}" in text
        assert str(lock_path(path)) in text   # what to delete if that process is gone
        assert not path.exists() or path.read_text() == ""   # nothing was written
    finally:
        assert other.stdin is not None
        other.stdin.close()
        other.wait(timeout=60)
    with EventLog(path) as log:   # released when that writer closed the log
        assert log.append(ROUND) == 1
    assert not lock_path(path).exists()


def test_watch_on_a_log_another_process_writes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    other = _holder(path)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion.cli", "watch", "demo", "--detector", "truth",
             "--log", str(path)], capture_output=True, text=True, timeout=600,
            env={**os.environ, "PYTHONPATH": str(ROOT), "COMPANION_DATA_DIR": str(tmp_path)})
    finally:
        assert other.stdin is not None
        other.stdin.close()
        other.wait(timeout=60)
    assert done.returncode == 2
    assert f"process {other.pid}" in done.stderr and "Traceback" not in done.stderr
    assert read_log(path).events == []


def test_a_second_writer_in_the_same_process_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    with EventLog(path) as first:
        with pytest.raises(LogLockedError, match=f"process {os.getpid()}"):
            EventLog(path)
        assert first.append(ROUND) == 1


def test_a_lock_left_by_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(dead.stdout)
    lock_path(path).write_text(json.dumps({"pid": pid, "host": socket.gethostname(),
                                           "token": "gone"}))
    with EventLog(path) as log:
        assert json.loads(lock_path(path).read_text())["pid"] == os.getpid()
        assert log.append(ROUND) == 1


def test_a_lock_of_another_machine_is_not_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    lock_path(path).write_text(json.dumps({"pid": 1, "host": "elsewhere.invalid",
                                           "token": "x"}))
    with pytest.raises(LogLockedError, match="process 1 on elsewhere.invalid"):
        EventLog(path)


class FullDisk(EventLog):
    """A writer on a disk that fills up: the next ``full`` writes get half their bytes out,
    then fail with ENOSPC (as `write` does when the disk fills in the middle of a line)."""

    full = 0

    def _write(self, data: bytes) -> None:
        if self.full:
            self.full -= 1
            super()._write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        super()._write(data)


def test_a_full_disk_leaves_a_whole_log_and_the_game_goes_on_with_space(
        tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    log = FullDisk(path)
    assert log.append(ROUND) == 1
    log.full = 1
    with pytest.raises(LogWriteError) as info:
        log.append({"event": "play", "player": "A", "card": "2C"})
    assert "the disk is full" in str(info.value) and str(path) in str(info.value)
    assert path.read_bytes().endswith(b"\n") and read_log(path).errors == []
    assert log.lines == 1
    assert log.append({"event": "play", "player": "A", "card": "2C"}) == 2  # space again
    log.close()
    got = read_log(path)
    assert [e.kind for e in got.events] == ["round", "play"] and not got.errors


class FullWatchLog(WatchLog, FullDisk):
    pass


def test_watch_waits_for_space_and_says_so_once(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    said: list[str] = []
    waits: list[float] = []
    log = FullWatchLog(path, on_full=said.append, retry_every=3.0, sleep=waits.append)
    log.frame = 7
    log.full = 3
    assert log.append(ROUND) == 1
    log.close()
    assert waits == [3.0, 3.0, 3.0] and len(said) == 1 and "the disk is full" in said[0]
    got = read_log(path)
    assert [dict(e.data) for e in got.events] == [{**ROUND, "frame": 7}] and not got.errors
