"""The event log: JSON Lines, one event per line, the single source of truth of a game.

Reading reports every malformed line with its line number and a plain reason and goes on (a
line over the limits below is one such line); appending flushes and fsyncs every event so a crash
loses nothing; ``correct`` events replace the line they name when the log is replayed.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import math
import os
import re
import stat
import sys
import threading
import time
import weakref
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

from companion.cards import pretty_cards

_log = logging.getLogger("companion.events")
#: The most bytes one line may hold (a whole deal is under 1 KiB); a longer line is skipped.
MAX_LINE_BYTES = 1 << 20
#: The most bytes read from one log; the rest of a longer (or endless) file is not read.
MAX_LOG_BYTES = 32 << 20
#: How deeply arrays and objects may nest in one line (an event needs 4 levels).
MAX_DEPTH = 32
#: The most digits a whole number may have (chips, prices, line numbers are far smaller).
MAX_DIGITS = 15
_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


@dataclass(frozen=True)
class Event:
    """One event of the log. ``line`` is its 1-based line number in the file (0 if unsaved)."""

    data: Mapping[str, Any]
    line: int = 0

    @property
    def kind(self) -> str:
        return str(self.data.get("event", ""))

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __contains__(self, key: object) -> bool:
        return key in self.data


class LogProblem(NamedTuple):
    """A line that could not be used, and why (said plainly, for people)."""

    line: int
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text}


@dataclass
class Log:
    """What was read from a log file: the events and the problems met on the way."""

    events: list[Event] = field(default_factory=list)
    errors: list[LogProblem] = field(default_factory=list)
    path: str | None = None


class LimitError(ValueError):
    """A line over one of the limits (length, nesting, size of a number): says which."""


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise LimitError(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _real(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) >= 10.0 ** MAX_DIGITS:
        raise LimitError(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is too "
                         f"large (at most {MAX_DIGITS} digits)")
    return value


def _constant(text: str) -> Any:
    raise LimitError(f"{text} is not a number")


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before the JSON parser recurses into it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for m in _BRACKETS.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise LimitError(f"nested more than {MAX_DEPTH} levels deep")
        elif tok in "]}":
            depth -= 1


def parse_line(text: str, line: int) -> Event:
    """Parse one line; raise ValueError with a plain reason when it is not a valid event
    (`LimitError` when it is over a limit: nesting, the size of a number)."""
    _check_depth(text)
    try:
        data = json.loads(text, parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise LimitError(f"nested more than {MAX_DEPTH} levels deep") from None
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    kind = data.get("event")
    if not isinstance(kind, str) or not kind:
        raise ValueError('has no "event" field')
    return Event(data, line)


def _add_line(log: Log, n: int, text: str) -> None:
    text = text.strip()
    if not text or text.startswith("#"):
        return
    try:
        log.events.append(parse_line(text, n))
    except ValueError as exc:
        log.errors.append(LogProblem(n, f"line {n}: {exc}"))


def parse_lines(lines: Iterable[str]) -> Log:
    """Parse the lines of a log (one item = one line); blank lines are skipped, bad lines
    reported and skipped."""
    log = Log()
    for n, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE_BYTES:
            log.errors.append(LogProblem(n, f"line {n}: longer than {MAX_LINE_BYTES:,} "
                                            f"characters; skipped"))
            continue
        _add_line(log, n, raw)
    return log


def read_lines(fh: BinaryIO, log: Log, max_line: int = MAX_LINE_BYTES,
               max_bytes: int = MAX_LOG_BYTES) -> None:
    """Read the lines of an open binary file into ``log``.

    Only ``\\n`` ends a line (a lone carriage return inside a line does not shift the line
    numbers), undecodable bytes are replaced, a line longer than ``max_line`` bytes is named and
    skipped, and reading stops (saying so) after ``max_bytes``, so an endless file ends too.
    """
    n = 0
    total = 0
    while True:
        raw = fh.readline(max_line + 1)
        if not raw:
            return
        n += 1
        total += len(raw)
        too_long = len(raw) > max_line and not raw.endswith(b"\n")
        while too_long and not raw.endswith(b"\n") and total <= max_bytes:
            raw = fh.readline(1 << 20)          # the rest of the long line, thrown away
            if not raw:
                break
            total += len(raw)
        if too_long:
            log.errors.append(LogProblem(n, f"line {n}: longer than {max_line:,} bytes; "
                                            f"skipped"))
        else:
            text = raw.decode("utf-8", errors="replace")
            _add_line(log, n, text.lstrip("\ufeff") if n == 1 else text)
        if total > max_bytes:
            log.errors.append(LogProblem(n, f"line {n}: the log is longer than "
                                            f"{max_bytes:,} bytes; the rest was not read"))
            return


def read_log(path: str | os.PathLike[str]) -> Log:
    """Read a log file. Raises OSError only when the file itself cannot be read (a folder, a
    file that does not exist or may not be read).

    Undecodable bytes are replaced (and the line reported as malformed if JSON breaks), so one
    damaged line never hides the rest of the game; see `read_lines` for the limits.
    """
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "it is a folder, not a log file", str(path))
    log = Log()
    with open(path, "rb") as fh:
        read_lines(fh, log)
    log.path = str(path)
    return log


def apply_corrections(events: Iterable[Event]) -> tuple[list[Event], list[LogProblem]]:
    """Resolve ``correct`` events: each replaces the event at the line it names.

    ``{"event":"correct","line":17,"with":{...}}`` replaces line 17's event with ``with`` (a
    complete event object, keeping line number 17); ``"with": null`` deletes line 17.
    A later correction of the same line wins. A correction may name any earlier line, including
    one that held a malformed event or another correction: correcting a correction replaces it
    (``null`` withdraws it, so the line it had corrected counts as first written). Returns the
    effective events in line order and problems.
    """
    problems: list[LogProblem] = []
    ordered = sorted(events, key=lambda e: e.line)
    replaced: dict[int, Event | None] = {}
    known = {e.line for e in ordered}
    # From the last line back: a correction that a later one replaced has no effect.
    for ev in reversed(ordered):
        if ev.kind != "correct" or (ev.line and ev.line in replaced):
            continue
        target = ev.get("line")
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            problems.append(LogProblem(ev.line, f"line {ev.line}: correction needs a line number, "
                                                f"got {target!r}"))
            continue
        if target >= ev.line and ev.line:
            problems.append(LogProblem(ev.line, f"line {ev.line}: a correction can only replace "
                                                f"an earlier line, not line {target}"))
            continue
        new = ev.get("with")
        if new is not None:
            if not isinstance(new, dict) or not isinstance(new.get("event"), str):
                problems.append(LogProblem(ev.line, f"line {ev.line}: correction's \"with\" must "
                                                    f"be an event object or null"))
                continue
            if new.get("event") == "correct":
                problems.append(LogProblem(ev.line, f"line {ev.line}: a correction cannot "
                                                    f"insert another correction; write a new "
                                                    f"correction instead"))
                continue
        # A later correction of the same line wins.
        replaced.setdefault(target, None if new is None else Event(new, target))
    out: list[Event] = []
    for ev in ordered:
        if ev.line in replaced:
            new_ev = replaced.pop(ev.line)
            if new_ev is not None:
                out.append(new_ev)
        elif ev.kind != "correct":
            out.append(ev)
    # Corrections of malformed/blank lines insert an event at that position.
    for target, new_ev in replaced.items():
        if new_ev is not None and target not in known:
            out.append(new_ev)
    out.sort(key=lambda e: e.line)
    problems.sort(key=lambda p: p.line)
    return out, problems


class LogFileError(OSError):
    """A log file that cannot be opened for appending (a folder, a path that cannot be
    created, no permission, a full disk); ``str()`` says so plainly, naming the file."""

    def __str__(self) -> str:
        if self.errno == errno.ENOSPC:
            return (f"cannot write the game log {self.filename}: the disk is full. Free some "
                    f"space, then run the same command again: the game goes on where it stopped")
        return f"cannot write the game log {self.filename}: {self.strerror}"


class LogWriteError(LogFileError):
    """An event that could not be written (a full disk, a lost drive). Nothing of it is left
    in the file: the log stays whole, and the same `EventLog` can go on once the cause is gone.
    """

    def __str__(self) -> str:
        if self.errno == errno.ENOSPC:
            return (f"the disk is full: the game log {self.filename} could not take the next "
                    f"event (the log is whole; nothing was half-written). Free some space and "
                    f"the game goes on")
        return (f"cannot write the next event to the game log {self.filename}: {self.strerror} "
                f"(the log is whole; nothing was half-written)")


class LogLockedError(LogFileError):
    """Another program (or another window of this one) is writing the log: two writers would
    interleave their events. ``holder`` says who: ``{"pid", "host", "since", "program"}``."""

    def __init__(self, path: str, lock: str, holder: Mapping[str, Any]) -> None:
        super().__init__(errno.EBUSY, "in use by another writer", path)
        self.lock = lock
        self.holder = dict(holder)

    def __str__(self) -> str:
        h = self.holder
        who = f"process {h.get('pid')} on {h.get('host')}"
        if h.get("program"):
            who += f" ({h.get('program')})"
        since = f", since {h.get('since')}" if h.get("since") else ""
        return (f"cannot write the game log {self.filename}: {who} is writing it{since}. "
                f"Stop that one first; if it is no longer running, delete {self.lock}")


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lock file of a log: ``game.jsonl.lock`` beside ``game.jsonl``."""
    p = Path(path)
    return p.with_name(p.name + ".lock")


#: Lock files this process holds, by path, with the token written in them.
_HELD: dict[str, str] = {}
_HELD_GUARD = threading.Lock()


def _pid_alive(pid: int) -> bool:
    """Is process ``pid`` (on this machine) still running?"""
    if pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return False
        code = ctypes.c_ulong()
        try:
            ok = kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
            return bool(ok) and code.value == 259  # STILL_ACTIVE
        finally:
            kernel32.CloseHandle(handle)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process, alive
    try:  # a killed process its parent has not reaped yet is gone too
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[-1].split()[:1] != [b"Z"]
    except OSError:
        return True


def _read_lock(lock: Path) -> dict[str, Any] | None:
    try:
        with open(lock, "rb") as fh:
            data = json.loads(fh.read(4096).decode("utf-8", errors="replace"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _host() -> str:
    """This machine's name, as a lock records its holder (socket is imported here, not at
    start-up: a log that is only read takes no lock)."""
    import socket

    return socket.gethostname()


def _stale(lock: Path, holder: dict[str, Any] | None) -> bool:
    """May a lock be taken over: its writer died (on this machine), or it never got its
    holder written and is older than a few seconds?"""
    if holder is None:
        try:
            return time.time() - lock.stat().st_mtime > 5.0
        except OSError:
            return True  # gone meanwhile
    pid = holder.get("pid")
    if holder.get("host") != _host() or not isinstance(pid, int):
        return False  # another machine's writer (a shared folder): it cannot be checked
    if pid == os.getpid():
        with _HELD_GUARD:
            return _HELD.get(str(lock)) != holder.get("token")
    return not _pid_alive(pid)


def acquire_lock(path: str | os.PathLike[str]) -> tuple[Path, str]:
    """Take the lock file of log ``path`` for this process, or raise `LogLockedError` naming
    the process that holds it. A lock left by a writer that died is taken over (and said in
    the diagnostic log). Returns the lock's path and the token written in it."""
    lock = lock_path(os.path.abspath(path))
    token = f"{os.getpid()}-{time.time_ns()}-{threading.get_ident()}"
    me = {"pid": os.getpid(), "host": _host(), "token": token,
          "since": time.strftime("%Y-%m-%d %H:%M:%S"),
          "program": " ".join(Path(a).name if i == 0 else a
                              for i, a in enumerate(sys.argv[:6]))[:160]}
    for _attempt in range(5):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            holder = _read_lock(lock)
            if not _stale(lock, holder):
                raise LogLockedError(str(path), str(lock), holder or {}) from None
            _log.warning("%s: taking over the lock of a writer that is gone (%s)", path,
                         holder or "no holder written")
            with contextlib.suppress(FileNotFoundError):
                os.unlink(lock)
            continue
        try:
            os.write(fd, json.dumps(me).encode("utf-8"))
            os.fsync(fd)
        except OSError:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(lock)
            raise
        os.close(fd)
        with _HELD_GUARD:
            _HELD[str(lock)] = token
        return lock, token
    raise LogLockedError(str(path), str(lock), _read_lock(lock) or {})


def release_lock(lock: Path, token: str) -> None:
    """Remove a lock file this process took (and only while it still holds our token)."""
    with _HELD_GUARD:
        if _HELD.get(str(lock)) == token:
            del _HELD[str(lock)]
    holder = _read_lock(lock)
    if holder is not None and holder.get("token") == token:
        with contextlib.suppress(OSError):
            os.unlink(lock)


class EventLog:
    """An append-only event log file, written by one `EventLog` at a time.

    Every append is flushed and fsynced before it returns. While it is open, a lock file beside
    the log (`lock_path`) names this process, so a second writer, in this process or another,
    is refused (`LogLockedError`) instead of interleaving its events; closing (or the end of
    the process) removes it, and a lock left by a process that died is taken over. An event
    that cannot be written (a full disk) raises `LogWriteError` and leaves no part of its
    line in the file. ``sealed_line`` is the line number of a partial last line, left by a
    crash while it was written, that opening the log ended (None: there was none).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "game.jsonl")
    >>> with EventLog(path) as log:
    ...     log.append({"event": "round", "dealer": "Ann"})
    1
    >>> read_log(path).events[0].data
    {'event': 'round', 'dealer': 'Ann'}
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.sealed_line: int | None = None
        self._release: weakref.finalize | None = None
        try:
            if self.path.is_dir():
                raise IsADirectoryError(errno.EISDIR, "it is a folder, not a file")
            if self.path.exists() and not stat.S_ISREG(self.path.stat().st_mode):
                raise OSError(errno.EINVAL, "it is not a regular file")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            lock, token = acquire_lock(self.path)
            self._release = weakref.finalize(self, release_lock, lock, token)
            self._lines = self._count_lines()
            self._fh: BinaryIO = open(self.path, "ab", buffering=0)
        except LogFileError:
            self._unlock()
            raise
        except OSError as exc:
            self._unlock()
            raise LogFileError(exc.errno, exc.strerror or str(exc), str(self.path)) from exc

    def _unlock(self) -> None:
        if self._release is not None:
            self._release()

    def _count_lines(self) -> int:
        if not self.path.exists():
            return 0
        n, last = 0, b"\n"
        with open(self.path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                n += chunk.count(b"\n")
                last = chunk[-1:]
        if last != b"\n":
            # A crash mid-line left a partial line: end it so the next event starts cleanly
            # (the partial line is then reported as malformed on reading, not glued to ours).
            _log.warning("%s: the last line %d was cut short (a crash while writing it?); "
                         "ended so that the next event starts on a line of its own",
                         self.path, n + 1)
            with open(self.path, "ab") as fh:
                fh.write(b"\n")
                fh.flush()
                os.fsync(fh.fileno())
            n += 1
            self.sealed_line = n
        return n

    @property
    def lines(self) -> int:
        """How many lines the file holds (the line number of the last event)."""
        return self._lines

    def _write(self, data: bytes) -> None:
        """Write all of ``data`` at the end of the file and make it durable."""
        view = memoryview(data)
        while view:
            view = view[self._fh.write(view) or 0:]
        os.fsync(self._fh.fileno())

    def append(self, event: Mapping[str, Any]) -> int:
        """Write one event as a line, flush and fsync; return its line number. When it cannot
        be written, the file is cut back to where it ended (no torn line) and `LogWriteError`
        says why; a later append may succeed (once there is space)."""
        if not isinstance(event.get("event"), str):
            raise ValueError(f'an event needs an "event" field: {dict(event)!r}')
        text = json.dumps(dict(event), ensure_ascii=False, separators=(",", ":"))
        fd = self._fh.fileno()
        end = os.fstat(fd).st_size
        try:
            self._write((text + "\n").encode("utf-8"))
        except OSError as exc:
            try:
                os.ftruncate(fd, end)
                os.fsync(fd)
            except OSError as again:
                _log.error("%s: could not cut a half-written line back off: %s", self.path,
                           again)
            raise LogWriteError(exc.errno, exc.strerror or str(exc), str(self.path)) from exc
        self._lines += 1
        return self._lines

    def close(self) -> None:
        if hasattr(self, "_fh") and not self._fh.closed:
            self._fh.close()
        self._unlock()

    def __enter__(self) -> EventLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_log(path: str | os.PathLike[str], events: Iterable[Mapping[str, Any]]) -> None:
    """Write a whole log (for the simulator and tests); overwrites ``path``."""
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for ev in events:
            fh.write(json.dumps(dict(ev), ensure_ascii=False) + "\n")


def iter_dicts(events: Iterable[Event]) -> Iterator[dict[str, Any]]:
    for ev in events:
        yield dict(ev.data)


def describe_event(data: dict[str, Any]) -> str:
    """One event as a short line for people ("Bob plays 5♣"): the window's event list, watch."""
    kind = str(data.get("event", ""))
    who = str(data.get("player", ""))
    if kind == "play":
        return f"{who} plays {pretty_cards(data.get('cards') or data.get('card'))}"
    if kind == "reveal":
        return f"{who} shows {pretty_cards(data.get('cards') or [])}"
    if kind == "round":
        return f"New round, {data.get('dealer')} deals"
    if kind == "dummy":
        action = data.get("action")
        if action == "sell":
            return f"Dummy sold to {data.get('buyer')} for {data.get('price')}"
        return f"Dealer {'keeps' if action == 'keep' else 'exchanges for'} the dummy"
    if kind == "bid":
        return f"{who} bids {data.get('tricks')}"
    if kind == "trump":
        return f"Trump card {pretty_cards(data.get('card'))}"
    if kind == "hand":
        return f"Hand: {data.get('kind')}"
    if kind in ("meld", "layoff", "discard", "upcard"):
        cards = data.get("cards") or data.get("card")
        return f"{who} {kind}s {pretty_cards(cards)}".replace("  ", " ").strip()
    if kind == "draw":
        return f"{who} draws from the {data.get('from')}"
    if kind == "end-round":
        return "Round ended, nobody out"
    if kind == "game":
        return f"Game: {data.get('game')} — {', '.join(data.get('players') or [])}"
    if kind == "correct":
        return f"Line {data.get('line')} corrected: {describe_event(dict(data.get('with') or {}))}"
    return kind
