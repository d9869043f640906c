"""The Qt the app runs on keeps Python's reference counts right across threads.

The window reads the table on a worker thread (`ui.worker.FeedWorker`): a QTimer ticks there
and each tick emits a signal carrying a Python object to the GUI thread. PySide6 6.12.0 loses
a reference to ``None`` on every timer call and one to ``True`` on every such emit, until the
interpreter aborts ("bool_dealloc") some minutes into a camera game. pyproject.toml keeps
PySide6 below 6.12; this test fails on a Qt that leaks again.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

import pytest

QtCore = pytest.importorskip("PySide6.QtCore")


@dataclass(frozen=True)
class Reading:
    n: int


class Worker(QtCore.QObject):  # type: ignore[misc]
    reading = QtCore.Signal(object)

    def __init__(self, ticks: int) -> None:
        super().__init__()
        self.ticks, self.n = ticks, 0
        self.timer: QtCore.QTimer | None = None

    @QtCore.Slot()
    def start(self) -> None:
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self.tick)
        self.timer.start(1)

    @QtCore.Slot()
    def tick(self) -> None:
        self.n += 1
        self.reading.emit(Reading(self.n))
        if self.n >= self.ticks and self.timer is not None:
            self.timer.stop()
            QtCore.QThread.currentThread().quit()


class Receiver(QtCore.QObject):  # type: ignore[misc]
    def __init__(self) -> None:
        super().__init__()
        self.got = 0

    @QtCore.Slot(object)
    def take(self, reading: Reading) -> None:
        self.got += 1


def test_ticks_and_signals_from_a_worker_thread_leak_no_references() -> None:
    app = QtCore.QCoreApplication.instance() or QtCore.QCoreApplication([])
    ticks = 300
    thread, worker, receiver = QtCore.QThread(), Worker(ticks), Receiver()
    worker.moveToThread(thread)
    thread.started.connect(worker.start)
    worker.reading.connect(receiver.take)
    before = sys.getrefcount(None), sys.getrefcount(True)
    thread.start()
    deadline = time.monotonic() + 60
    while thread.isRunning() and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.001)
    thread.wait(5000)
    app.processEvents()
    after = sys.getrefcount(None), sys.getrefcount(True)
    assert receiver.got == ticks
    # A few references come and go with the objects made here; a leak loses one per tick.
    assert after[0] - before[0] > -ticks // 10, (before, after)
    assert after[1] - before[1] > -ticks // 10, (before, after)
