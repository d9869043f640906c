"""Issue 16, finding 3, in the window: a camera that freezes is said in the status bar at once
("Camera lost, reconnecting…", kept however long it is away), then "Camera back"."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from pytestqt.qtbot import QtBot
from test_camera_outage import Stream

import vision.sources.parse as sources
from ui.camera import CameraFeed
from ui.window import MainWindow
from vision.sources.camera import CaptureSource


def test_the_window_says_when_the_camera_is_lost_and_back(
        qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    stream = Stream(serve=5)
    plugged = threading.Event()

    def opener(spec: int | str) -> Any:   # after the freeze, it opens only once plugged in
        return stream.open(spec) if stream.opened == 0 or plugged.is_set() else None

    class Camera(CaptureSource):
        def __init__(self, spec: int | str, **kwargs: Any) -> None:
            super().__init__(spec, opener=opener, freeze_after=0.5, retry_every=0.05,
                             **kwargs)

    monkeypatch.setattr(sources, "CaptureSource", Camera)
    seen: list[str] = []
    window.status.messageChanged.connect(seen.append)
    try:
        window._start_feed(lambda: CameraFeed("http://table.local/video", None,
                                              "michigan-rummy", ["Ann", "Bob", "Cy"]))
        qtbot.waitUntil(lambda: any(m.startswith("Camera lost, reconnecting…") for m in seen),
                        timeout=20000)
        qtbot.wait(6500)   # longer than a passing note stays
        assert window.status.currentMessage().startswith("Camera lost")
        plugged.set()
        qtbot.waitUntil(lambda: window.status.currentMessage().startswith("Camera back"),
                        timeout=20000)
    finally:
        plugged.set()
        stream.thaw.set()
