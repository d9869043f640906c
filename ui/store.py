"""Saved games: one folder per game in the user's data folder (event log, evidence frames, meta).

`GameSession` is the window's handle on one game: it appends events (fsynced), writes the
evidence frame of each face-up play, replays the log into the referee, and makes corrections
and undo as ``correct`` events. It needs no Qt (only the data folder's default comes from Qt).
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.diagnostics import log_failure
from companion.events import Event, EventLog, apply_corrections, read_log
from companion.referee import Referee, Replay, replay

#: Environment variable that moves the data folder (tests, portable installs).
DATA_ENV = "COMPANION_DATA_DIR"
#: Events whose cards lie face up on the table: their frame is kept as evidence.
EVIDENCE_EVENTS = frozenset({"play", "reveal", "trump", "meld", "layoff", "discard", "upcard"})
LOG_NAME = "log.jsonl"
META_NAME = "meta.json"


def data_dir() -> Path:
    """The folder where games are saved: ``$COMPANION_DATA_DIR`` or Qt's AppDataLocation."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    try:
        from PySide6.QtCore import QStandardPaths
        loc = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
        if loc:
            return Path(loc)
    except ImportError:  # pragma: no cover - the app extra is installed with the window
        pass
    return Path.home() / ".local" / "share" / "michigan-companion"


@dataclass(frozen=True)
class GameInfo:
    """One saved game as listed in the "Open game" dialog."""

    path: Path
    game: str
    players: tuple[str, ...]
    started: float
    finished: bool
    events: int
    source: str

    @property
    def title(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.started))
        return f"{when} — {self.game}: {', '.join(self.players)}"


class GameStore:
    """The saved games under one folder (``<data>/games/<id>/``)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or data_dir()) / "games"

    def new_game(self, setup: Mapping[str, Any], source: str = "camera",
                 extra: Mapping[str, Any] | None = None) -> GameSession:
        """Start a game folder whose log begins with the ``game`` event ``setup``."""
        if setup.get("event") != "game":
            raise ValueError("a game starts with a \"game\" event")
        gid = time.strftime("%Y%m%d-%H%M%S") + "-" + uuid.uuid4().hex[:6]
        folder = self.root / gid
        folder.mkdir(parents=True, exist_ok=False)
        meta = {"started": time.time(), "source": source, "closed": False, **(extra or {})}
        _write_json(folder / META_NAME, meta)
        session = GameSession(folder)
        session.append(dict(setup))
        return session

    def games(self) -> list[GameInfo]:
        """Every saved game, newest first (folders that cannot be read are skipped)."""
        out: list[GameInfo] = []
        if not self.root.is_dir():
            return out
        for folder in sorted(self.root.iterdir(), reverse=True):
            info = game_info(folder)
            if info is not None:
                out.append(info)
        return out

    def resumable(self) -> GameInfo | None:
        """The newest game that was neither finished nor closed by the user, if any. Games
        closed by the user are passed over on their meta file alone, so start-up does not
        replay the saved games."""
        if not self.root.is_dir():
            return None
        for folder in sorted(self.root.iterdir(), reverse=True):
            if _read_json(folder / META_NAME).get("closed"):
                continue
            info = game_info(folder)
            if info is not None and not info.finished and info.events > 1:
                return info
        return None

    def delete(self, game: GameInfo) -> None:
        """Remove a saved game: its log, evidence frames and meta file."""
        folder = game.path.resolve()
        if folder.parent != self.root.resolve() or not (folder / LOG_NAME).is_file():
            raise ValueError(f"{game.path} is not a saved game of {self.root}")
        shutil.rmtree(folder)


def game_info(folder: Path) -> GameInfo | None:
    """A saved game's summary. Replaying the log is needed once: the summary is kept in the
    meta file with the log's size, and used again while the log has not grown."""
    log_path = folder / LOG_NAME
    try:
        size = log_path.stat().st_size
    except OSError:
        return None
    meta = _read_json(folder / META_NAME)
    summary = meta.get("summary")
    if not (isinstance(summary, dict) and summary.get("size") == size):
        summary = _summarise(log_path, size)
        if summary is None:
            return None
        if meta:  # a folder of this store: remember it (best effort)
            try:
                _write_json(folder / META_NAME, {**meta, "summary": summary})
            except OSError:
                pass
    return GameInfo(folder, str(summary.get("game")), tuple(summary.get("players") or ()),
                    float(meta.get("started", 0.0)), bool(summary.get("finished")),
                    int(summary.get("events", 0)), str(meta.get("source", "camera")))


def _summarise(log_path: Path, size: int) -> dict[str, Any] | None:
    try:
        log = read_log(log_path)
    except OSError:
        return None
    setup = next((e for e in log.events if e.kind == "game"), None)
    if setup is None:
        return None
    result = replay(log)
    return {"size": size, "game": setup.get("game"), "players": list(setup.get("players") or ()),
            "finished": bool(result.referee and result.referee.state.finished),
            "events": len(log.events)}


class LockedLog(EventLog):
    """An `EventLog` two threads may append to (the window and the vision pipeline)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._lock = threading.Lock()
        super().__init__(path)

    def append(self, event: Mapping[str, Any]) -> int:
        with self._lock:
            return super().append(event)


class GameSession:
    """One game on disk: its log (append-only), evidence frames and the referee built from it.

    Opened to play, it holds the log's writer lock (`LogLockedError`, naming the other
    process and the lock file, when another writer has it); opened ``read_only`` (a replay),
    it takes no lock, writes nothing and closing it leaves the game as it was."""

    def __init__(self, folder: Path, read_only: bool = False) -> None:
        self.folder = Path(folder)
        self.evidence_dir = self.folder / "evidence"
        self.log_path = self.folder / LOG_NAME
        self.read_only = read_only
        self._log: LockedLog | None = None
        if not read_only:
            self.evidence_dir.mkdir(parents=True, exist_ok=True)
            self._log = LockedLog(self.log_path)  # repairs a partial last line after a crash
        self.events: list[Event] = read_log(self.log_path).events
        self.result: Replay = replay(self.events)

    # --- reading ---------------------------------------------------------------------------
    @property
    def referee(self) -> Referee | None:
        return self.result.referee

    @property
    def meta(self) -> dict[str, Any]:
        return _read_json(self.folder / META_NAME)

    def update_meta(self, **values: Any) -> None:
        meta = self.meta
        meta.update(values)
        _write_json(self.folder / META_NAME, meta)

    def report(self) -> dict[str, Any]:
        return self.result.report()

    @property
    def setup(self) -> dict[str, Any]:
        for ev in self.events:
            if ev.kind == "game":
                return dict(ev.data)
        return {}

    @property
    def players(self) -> list[str]:
        return list(self.setup.get("players") or [])

    def effective(self) -> list[Event]:
        """The events as the referee sees them (corrections applied)."""
        return apply_corrections(self.events)[0]

    def event_at(self, line: int) -> Event | None:
        for ev in self.effective():
            if ev.line == line:
                return ev
        return None

    def turn(self) -> str | None:
        ref = self.referee
        if ref is None or ref.state.finished:
            return None
        try:
            return ref.turn()
        except Exception as exc:  # noqa: BLE001 - a referee bug must not take the window down
            log_failure("the referee could not say whose turn it is", exc)
            return None

    def round_history(self) -> list[tuple[str, dict[str, int]]]:
        """Each player's chips: ("Start", ...) from the setup, ("Round N", ...) after every
        closed round, and ("Now", ...) while a round is in play and differs."""
        return chip_history(self.referee, self.setup)

    # --- writing ---------------------------------------------------------------------------
    def append(self, event: Mapping[str, Any], frame: np.ndarray | None = None) -> int:
        """Append one event (fsynced), keep its evidence frame, replay; returns its line."""
        line = self.log.append(event)
        ev = Event(dict(event), line)
        self.events.append(ev)
        if frame is not None and ev.kind in EVIDENCE_EVENTS:
            self.save_evidence(line, frame)
        self.result = replay(self.events)
        return line

    @property
    def log(self) -> LockedLog:
        """The log writer (shared with a feed that writes events itself)."""
        if self._log is None:
            raise PermissionError(f"{self.log_path} was opened to be read only (a replay)")
        return self._log

    def adopt(self, line: int, event: Mapping[str, Any], frame: np.ndarray | None = None) -> int:
        """Record an event a feed already wrote at ``line`` (keep its evidence, replay)."""
        ev = Event(dict(event), line)
        self.events.append(ev)
        self.events.sort(key=lambda e: e.line)
        if frame is not None and ev.kind in EVIDENCE_EVENTS:
            self.save_evidence(line, frame)
        self.result = replay(self.events)
        return line

    def correct(self, line: int, new_event: Mapping[str, Any] | None,
                frame: np.ndarray | None = None) -> int:
        """Replace (or, with None, delete) the event at ``line`` by a ``correct`` event."""
        target = self.event_at(line)
        if target is None:
            raise ValueError(f"no event at line {line}")
        if target.kind == "game":
            raise ValueError("the game event cannot be corrected here; start a new game")
        body: dict[str, Any] = {"event": "correct", "line": line,
                                "with": dict(new_event) if new_event is not None else None}
        out = self.log.append(body)
        self.events.append(Event(body, out))
        if frame is not None and new_event is not None:
            self.save_evidence(line, frame)
        self.result = replay(self.events)
        return out

    def undo(self) -> int | None:
        """Delete the last effective event after the game event; returns the line undone."""
        eff = [e for e in self.effective() if e.kind != "game"]
        if not eff:
            return None
        last = eff[-1].line
        self.correct(last, None)
        return last

    def save_evidence(self, line: int, frame: np.ndarray) -> Path:
        """Store a frame (already masked to the readable zones) as the evidence of ``line``."""
        path = self.evidence_dir / f"{line:05d}.jpg"
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
        if ok:
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(buf.tobytes())
            os.replace(tmp, path)
        return path

    def evidence(self, line: int) -> np.ndarray | None:
        """The stored frame of ``line`` (BGR), or None when none was kept."""
        path = self.evidence_dir / f"{line:05d}.jpg"
        if not path.is_file():
            return None
        img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        return img if img is not None else None

    def evidence_lines(self) -> list[int]:
        out: list[int] = []
        for p in self.evidence_dir.glob("*.jpg"):
            try:
                out.append(int(p.stem))
            except ValueError:
                continue
        return sorted(out)

    def close(self, finished_by_user: bool = True) -> None:
        """Close the log; ``finished_by_user`` means the app should not offer to resume it
        (a read-only session changes nothing)."""
        if self._log is None:
            return
        self._log.close()
        if finished_by_user:
            self.update_meta(closed=True)


def replay_prefix(events: Sequence[Event], line: int) -> Replay:
    """The game as it stood after ``line`` (corrections written later are applied too)."""
    eff, _ = apply_corrections(events)
    return replay([e for e in eff if e.line <= line])


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_json(path: Path, data: Mapping[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(dict(data), indent=1), encoding="utf-8")
    os.replace(tmp, path)


def chip_history(ref: Referee | None, setup: Mapping[str, Any]
                 ) -> list[tuple[str, dict[str, int]]]:
    """Chips per player at the start, after each closed round and now (for the chart)."""
    if ref is None:
        return []
    players = list(ref.ledger.players)
    rows: list[tuple[str, dict[str, int]]] = []
    chips = setup.get("chips")
    if isinstance(chips, int) and not isinstance(chips, bool):
        rows.append(("Start", {p: chips for p in players}))
    elif isinstance(chips, dict):
        rows.append(("Start", {p: int(chips.get(p, 0)) for p in players}))
    for n, bal in enumerate(ref.ledger.round_history, start=1):
        rows.append((f"Round {n}", {p: int(bal.get(p, 0)) for p in players}))
    now = ref.ledger.player_chips()
    if not rows or rows[-1][1] != now:
        rows.append(("Final" if ref.state.finished else "Now", dict(now)))
    return rows
