"""The event log: JSON Lines, one event per line, the single source of truth of a game.

Reading reports every malformed line with its line number and a plain reason and goes on;
appending flushes and fsyncs every event so a crash loses nothing; ``correct`` events replace the
line they name when the log is replayed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any


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


@dataclass(frozen=True)
class LogProblem:
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


def parse_line(text: str, line: int) -> Event:
    """Parse one line; raise ValueError with a plain reason when it is not a valid event."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    kind = data.get("event")
    if not isinstance(kind, str) or not kind:
        raise ValueError('has no "event" field')
    return Event(data, line)


def parse_lines(lines: Iterable[str]) -> Log:
    """Parse the lines of a log; blank lines are skipped, bad lines reported and skipped."""
    log = Log()
    for n, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            log.events.append(parse_line(text, n))
        except ValueError as exc:
            log.errors.append(LogProblem(n, f"line {n}: {exc}"))
    return log


def read_log(path: str | os.PathLike[str]) -> Log:
    """Read a log file. Raises OSError only when the file itself cannot be read.

    Undecodable bytes are replaced (and the line reported as malformed if JSON breaks), so one
    damaged line never hides the rest of the game.
    """
    with open(path, encoding="utf-8", errors="replace") as fh:
        log = parse_lines(fh)
    log.path = str(path)
    return log


def apply_corrections(events: Iterable[Event]) -> tuple[list[Event], list[LogProblem]]:
    """Resolve ``correct`` events: each replaces the event at the line it names.

    ``{"event":"correct","line":17,"with":{...}}`` replaces line 17's event with ``with`` (a
    complete event object, keeping line number 17); ``"with": null`` deletes line 17.
    A later correction of the same line wins. A correction may name any earlier line, including
    one that held a malformed event. Returns the effective events in line order and problems.
    """
    problems: list[LogProblem] = []
    ordered = list(events)
    replaced: dict[int, Event | None] = {}
    known = {e.line for e in ordered}
    for ev in ordered:
        if ev.kind != "correct":
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
        if new is None:
            replaced[target] = None
            continue
        if not isinstance(new, dict) or not isinstance(new.get("event"), str):
            problems.append(LogProblem(ev.line, f"line {ev.line}: correction's \"with\" must be "
                                                f"an event object"))
            continue
        if new.get("event") == "correct":
            problems.append(LogProblem(ev.line, f"line {ev.line}: a correction cannot insert "
                                                f"another correction"))
            continue
        replaced[target] = Event(new, target)
    out: list[Event] = []
    for ev in ordered:
        if ev.kind == "correct":
            continue
        if ev.line in replaced:
            new_ev = replaced.pop(ev.line)
            if new_ev is not None:
                out.append(new_ev)
        else:
            out.append(ev)
    # Corrections of malformed/blank lines insert an event at that position.
    for target, new_ev in replaced.items():
        if new_ev is not None and target not in known:
            out.append(new_ev)
    out.sort(key=lambda e: e.line)
    return out, problems


class EventLog:
    """An append-only event log file. Every append is flushed and fsynced before it returns.

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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lines = self._count_lines()
        self._fh: IO[str] = open(self.path, "a", encoding="utf-8", newline="\n")

    def _count_lines(self) -> int:
        if not self.path.exists():
            return 0
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            # A crash mid-line left a partial line: end it so the next event starts cleanly
            # (the partial line is then reported as malformed on reading, not glued to ours).
            with open(self.path, "ab") as fh:
                fh.write(b"\n")
                fh.flush()
                os.fsync(fh.fileno())
            data += b"\n"
        return data.count(b"\n")

    @property
    def lines(self) -> int:
        """How many lines the file holds (the line number of the last event)."""
        return self._lines

    def append(self, event: Mapping[str, Any]) -> int:
        """Write one event as a line, flush and fsync; return its line number."""
        if not isinstance(event.get("event"), str):
            raise ValueError(f'an event needs an "event" field: {dict(event)!r}')
        text = json.dumps(dict(event), ensure_ascii=False, separators=(",", ":"))
        self._fh.write(text + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._lines += 1
        return self._lines

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()

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
