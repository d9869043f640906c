"""The diagnostic log (issue 16, finding 6): a rotated file in the app's data folder with every
failure's traceback, faulthandler on, and the command line saying plainly what went wrong."""

from __future__ import annotations

import argparse
import faulthandler
import logging
import logging.handlers
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import cli, diagnostics
from companion.events import EventLog


@pytest.fixture()
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Diagnostics set up anew in a data folder of this test."""
    diagnostics.shutdown()
    monkeypatch.setenv(diagnostics.DATA_ENV, str(tmp_path))
    yield tmp_path
    diagnostics.shutdown()


def test_the_log_is_a_rotated_file_in_the_data_folder(fresh: Path) -> None:
    path = diagnostics.setup()
    assert path == fresh / "logs" / "companion.log" == diagnostics.log_path()
    assert diagnostics.setup() == path                          # once only
    handler = diagnostics._handler
    assert isinstance(handler, diagnostics.RotatingLog)
    assert handler.maxBytes == diagnostics.MAX_BYTES and handler.backupCount >= 1
    assert faulthandler.is_enabled()
    try:
        raise ValueError("bad weights")
    except ValueError as exc:
        said = diagnostics.log_failure("the card detector could not be loaded", exc)
    assert said == (f"The card detector could not be loaded (bad weights); details are in "
                    f"{path}.")
    text = path.read_text(encoding="utf-8")
    assert "the card detector could not be loaded: ValueError: bad weights" in text
    assert "Traceback" in text and 'raise ValueError("bad weights")' in text


@pytest.mark.parametrize("backups", [0, 1, 3])
def test_the_log_rotates_as_the_standard_rotating_handler_does(tmp_path: Path,
                                                                 backups: int) -> None:
    def write(handler: logging.Handler, folder: Path) -> dict[str, str]:
        log = logging.getLogger(f"test-rotation-{folder.name}")
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        try:
            for n in range(40):
                log.warning("line %02d %s", n, "." * (n % 7 * 9))
        finally:
            log.removeHandler(handler)
            handler.close()
        return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}

    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    ours.mkdir()
    theirs.mkdir()
    got = write(diagnostics.RotatingLog(ours / "x.log", maxBytes=120, backupCount=backups),
                ours)
    want = write(logging.handlers.RotatingFileHandler(theirs / "x.log", maxBytes=120,
                                                      backupCount=backups, encoding="utf-8"),
                 theirs)
    assert got == want and len(got) == backups + 1


def test_a_data_folder_that_cannot_be_written_fails_nothing(
        fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (fresh / "file").write_text("x")
    assert diagnostics.setup(fresh / "file" / "logs") is None
    assert "cannot write the diagnostic log" in capsys.readouterr().err
    assert diagnostics.where_logged() == "no diagnostic log could be written"


def _command(monkeypatch: pytest.MonkeyPatch, exc: BaseException) -> None:
    def register(sub: argparse._SubParsersAction) -> None:
        def run(args: argparse.Namespace) -> int:
            raise exc
        sub.add_parser("boom").set_defaults(func=run)

    monkeypatch.setitem(cli.CORE_COMMANDS, "boom", register)


def test_an_unexpected_error_is_said_plainly_and_logged_with_its_traceback(
        fresh: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _command(monkeypatch, RuntimeError("the referee tripped"))
    assert cli.main(["boom"]) == 70
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "companion boom: unexpected error (RuntimeError: the referee tripped)" in err
    log = fresh / "logs" / "companion.log"
    assert str(log) in err
    assert "Traceback" in log.read_text(encoding="utf-8")


def test_a_log_that_is_a_folder_is_an_error_message_not_a_traceback(
        fresh: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        EventLog(fresh)
    except OSError as exc:
        _command(monkeypatch, exc)
    assert cli.main(["boom"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"companion boom: cannot write the game log {fresh}: it is a folder, " \
                          f"not a file"


def test_watch_with_a_folder_as_log_says_so(tmp_path: Path) -> None:
    # The whole command line, as a user runs it: one line on standard error, exit status 2.
    run = subprocess.run(
        [sys.executable, "-m", "companion", "watch", "demo:michigan-rummy:3", "--detector",
         "truth", "--log", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, diagnostics.DATA_ENV: str(tmp_path / "data")})
    if "unavailable" in run.stderr or "not installed" in run.stderr:
        pytest.skip(run.stderr.strip())
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert "it is a folder" in run.stderr and str(tmp_path) in run.stderr


# --- the window: no silent failure --------------------------------------------------------------

def test_a_detector_that_cannot_load_is_said_on_screen_and_logged(
        fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot: Any) -> None:
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    import vision.readers.detector
    from ui.camera import make_camera_feed
    from ui.worker import FeedThread

    class Broken:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise OSError("onnxruntime.dll: the specified module could not be found")

    diagnostics.setup()                     # as the window does when it starts
    monkeypatch.setattr(vision.readers.detector, "CardDetector", Broken)
    monkeypatch.delenv("COMPANION_NO_DETECTOR", raising=False)
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), np.zeros((48, 64, 3), np.uint8))
    feed = FeedThread(lambda: make_camera_feed(str(frames), None, "michigan-rummy",
                                               ["Ann", "Bob", "Cy"], tmp_path / "g.jsonl"))
    said: list[str] = []
    feed.worker.note.connect(said.append)
    try:
        with qtbot.waitSignal(feed.worker.note, timeout=10000):
            feed.start()
    finally:
        assert feed.stop()
    assert getattr(feed.worker.feed, "pipeline", 1) is None
    assert said[0].startswith("The card detector could not be loaded (onnxruntime.dll")
    assert "picture only" in said[0] and "pip install" in said[0]
    assert str(fresh / "logs" / "companion.log") in said[0]
    text = (fresh / "logs" / "companion.log").read_text(encoding="utf-8")
    assert "Traceback" in text and "onnxruntime.dll" in text


def test_qt_messages_go_to_the_diagnostic_log(fresh: Path, qapp: object) -> None:
    from PySide6.QtCore import qInstallMessageHandler, qWarning

    from ui.cli import route_qt_messages

    path = diagnostics.setup()
    assert path is not None
    route_qt_messages()
    try:
        qWarning("QFont::setPointSize: Point size <= 0 (-1), must be greater than 0")
    finally:
        qInstallMessageHandler(None)    # type: ignore[arg-type]
    assert "WARNING companion.qt" in path.read_text(encoding="utf-8")


def test_a_referee_bug_is_reported_on_its_line_and_logged_with_its_traceback(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from companion.games.michigan.referee import MichiganReferee
    from companion.referee import replay_dicts

    def broken(self: MichiganReferee, event: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(MichiganReferee, "_on_end_round", broken)
    events: list[dict[str, Any]] = [
        {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy"]},
              {"event": "round", "dealer": "Ann"}, {"event": "end-round"}]
    with caplog.at_level(logging.ERROR, logger="companion.referee"):
        r = replay_dicts(events)
    assert [e.text for e in r.errors] == [
        "line 3: internal error on this event, skipped (ZeroDivisionError: a bug)"]
    (record,) = [rec for rec in caplog.records if rec.name == "companion.referee"]
    assert "line 3" in record.getMessage() and record.exc_info is not None


def test_a_torn_last_line_is_logged_when_sealed(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text('{"event":"round","dealer":"A"}\n{"event":"pl', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="companion.events"):
        EventLog(path).close()
    assert any("the last line 2 was cut short" in rec.getMessage() for rec in caplog.records)


def test_uncaught_exceptions_of_any_thread_are_logged(
        fresh: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import threading

    before = sys.excepthook
    path = diagnostics.setup()
    assert path is not None and sys.excepthook is not before
    try:
        raise KeyError("lost in the main thread")
    except KeyError as exc:
        sys.excepthook(type(exc), exc, exc.__traceback__)

    def work() -> None:
        raise LookupError("lost in a worker")

    t = threading.Thread(target=work, name="feed-worker")
    t.start()
    t.join()
    capsys.readouterr()                       # the previous hooks still printed them
    text = path.read_text(encoding="utf-8")
    assert "uncaught exception" in text and "lost in the main thread" in text
    assert "uncaught exception in thread feed-worker" in text and "lost in a worker" in text
    diagnostics.shutdown()
    assert sys.excepthook is before


def test_a_camera_driver_error_is_logged_not_swallowed(
        caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("cv2")
    from vision.sources.camera import CaptureSource

    def opener(spec: int | str) -> object:
        raise RuntimeError("DirectShow: device is busy")

    with caplog.at_level(logging.ERROR, logger="companion"), pytest.raises(OSError):
        CaptureSource(7, opener=opener)         # type: ignore[arg-type]
    records = [r for r in caplog.records if "camera 7 could not be opened" in r.getMessage()]
    assert records and records[0].exc_info is not None
    assert "DirectShow: device is busy" in records[0].getMessage()
