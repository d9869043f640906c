"""Diagnostic logging: one rotated log file in the app's data folder, and `faulthandler` on.

Every failure a user can meet is written there with its traceback (`log_failure`), so that it
can be found out afterwards; what the user is told on screen names the file. Standard library
only: the command line and the window both call `setup` once at start.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import threading
from pathlib import Path
from types import TracebackType
from typing import IO, Any

#: Environment variable that moves the data folder (tests, portable installs); the window's
#: saved games live in the same folder (``ui.store.data_dir``).
DATA_ENV = "COMPANION_DATA_DIR"
APP = "michigan-companion"
LOG_NAME = "companion.log"
FAULT_NAME = "faults.log"
#: Size of one log file before it is rotated, and how many old ones are kept.
MAX_BYTES = 1_000_000
BACKUPS = 3

log = logging.getLogger("companion")
_handler: logging.Handler | None = None
_fault_file: IO[str] | None = None
_lock = threading.Lock()
_repeats: dict[tuple[str, str, str], int] = {}
#: What `setup` replaced, for `shutdown` to put back.
_restore: dict[str, Any] = {}


class RotatingLog(logging.FileHandler):
    """A log file that starts afresh before it would pass ``maxBytes``: the full one becomes
    ``NAME.1`` (``NAME.1`` becomes ``NAME.2``, ... up to ``backupCount``; the oldest goes).
    The rotation of ``logging.handlers.RotatingFileHandler``, without importing that module
    (sockets, pickle, queues), which every command would pay for at start."""

    def __init__(self, filename: str | os.PathLike[str], maxBytes: int, backupCount: int,
                 encoding: str = "utf-8") -> None:
        super().__init__(filename, mode="a", encoding=encoding)
        self.maxBytes = maxBytes
        self.backupCount = backupCount

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if self._full(record):
                self._rotate()
        except Exception:  # noqa: BLE001 - logging must never raise (as logging's handlers)
            self.handleError(record)
            return
        super().emit(record)

    def _full(self, record: logging.LogRecord) -> bool:
        if self.stream is None:
            self.stream = self._open()
        if self.maxBytes <= 0 or self.backupCount <= 0 or not os.path.isfile(self.baseFilename):
            return False  # as the standard handler: no limit, or no backup, no rotation
        pos = self.stream.tell()
        return bool(pos) and pos + len(f"{self.format(record)}\n") >= self.maxBytes

    def _rotate(self) -> None:
        if self.stream is not None:
            self.stream.close()
        base = self.baseFilename
        for i in range(self.backupCount - 1, 0, -1):
            if os.path.exists(f"{base}.{i}"):
                os.replace(f"{base}.{i}", f"{base}.{i + 1}")
        os.replace(base, f"{base}.1")
        self.stream = self._open()


def data_dir() -> Path:
    """The app's data folder: ``$COMPANION_DATA_DIR``, else where Qt's AppDataLocation puts it
    for this app (``<user data>/michigan-companion/michigan-companion``)."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP / APP


def log_dir() -> Path:
    return data_dir() / "logs"


def log_path() -> Path | None:
    """The diagnostic log file being written (None before `setup`, or when it cannot be)."""
    h = _handler
    if isinstance(h, logging.FileHandler):
        return Path(h.baseFilename)
    return None


def setup(folder: str | os.PathLike[str] | None = None, level: int = logging.INFO) -> Path | None:
    """Log to a rotated file in ``folder`` (default: `log_dir`), send uncaught exceptions of
    every thread there, and turn `faulthandler` on (a crash in native code leaves its stack in
    ``faults.log`` beside it). Idempotent; returns the log file, or None when the folder cannot
    be written (then only warnings go to standard error and nothing fails)."""
    global _handler, _fault_file
    with _lock:
        if _handler is not None:
            return log_path()
        where = Path(folder) if folder is not None else log_dir()
        handler: logging.Handler
        try:
            where.mkdir(parents=True, exist_ok=True)
            handler = RotatingLog(where / LOG_NAME, maxBytes=MAX_BYTES, backupCount=BACKUPS)
            _fault_file = open(where / FAULT_NAME, "a", encoding="utf-8")  # noqa: SIM115
            _restore["faulthandler"] = faulthandler.is_enabled()
            faulthandler.enable(_fault_file, all_threads=True)
        except OSError as exc:
            handler = logging.StreamHandler(sys.stderr)
            handler.setLevel(logging.WARNING)
            print(f"companion: cannot write the diagnostic log in {where}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
            if not faulthandler.is_enabled() and sys.stderr is not None:
                try:
                    faulthandler.enable()
                except (OSError, ValueError, AttributeError):    # no usable standard error
                    pass
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s [%(threadName)s] %(message)s"))
        log.addHandler(handler)
        log.setLevel(min(log.level or level, level))
        _handler = handler
        _install_hooks()
    path = log_path()
    log.info("started: %s (Python %s, %s)", " ".join(sys.argv), sys.version.split()[0],
             sys.platform)
    return path


def shutdown() -> None:
    """Undo `setup` (tests): close the file, restore the exception hooks."""
    global _handler, _fault_file
    with _lock:
        if _handler is not None:
            log.removeHandler(_handler)
            _handler.close()
            _handler = None
        if _fault_file is not None:
            faulthandler.disable()
            _fault_file.close()
            _fault_file = None
            if _restore.pop("faulthandler", False) and sys.stderr is not None:
                try:
                    faulthandler.enable()          # back on standard error, as it was
                except (OSError, ValueError, AttributeError):
                    pass
        sys.excepthook = _restore.pop("excepthook", sys.__excepthook__)
        threading.excepthook = _restore.pop("threading.excepthook", threading.__excepthook__)


def _install_hooks() -> None:
    previous = sys.excepthook
    _restore["excepthook"] = previous

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if not issubclass(kind, KeyboardInterrupt):
            log.critical("uncaught exception", exc_info=(kind, exc, tb))
        previous(kind, exc, tb)

    previous_thread = threading.excepthook
    _restore["threading.excepthook"] = previous_thread

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            log.critical("uncaught exception in thread %s",
                         args.thread.name if args.thread else "?",
                         exc_info=(args.exc_type, args.exc_value, args.exc_traceback))
        previous_thread(args)

    sys.excepthook = hook
    threading.excepthook = thread_hook


def where_logged() -> str:
    """Words for people: where the details of a failure were written."""
    path = log_path()
    return f"details are in {path}" if path else "no diagnostic log could be written"


def log_failure(what: str, exc: BaseException, logger: logging.Logger | None = None) -> str:
    """Log ``exc`` with its traceback under ``what`` (``"the card detector could not be
    loaded"``) and return one line for the screen: what happened, why, and where the details
    are."""
    key = (what, type(exc).__name__, str(exc))
    with _lock:
        seen = _repeats[key] = _repeats.get(key, 0) + 1
    if seen == 1:
        (logger or log).error("%s: %s: %s", what, type(exc).__name__, exc, exc_info=exc)
    elif seen in (10, 100) or seen % 1000 == 0:      # a failure every frame floods nothing
        (logger or log).error("%s: %s: %s (%d times so far)", what, type(exc).__name__, exc,
                              seen)
    reason = str(exc) or type(exc).__name__
    return f"{what[:1].upper()}{what[1:]} ({reason}); {where_logged()}."
