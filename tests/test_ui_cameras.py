"""Cameras in the window (issue 15, finding 15): listed by name in the setup, and a camera that
cannot be opened is said on screen with why and what to do, at start and when a game starts,
never a silent fall back to the demo."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import vision.sources.camera
from ui.camera import Camera
from ui.setup import SetupDialog
from ui.store import GameStore
from ui.window import MainWindow
from vision.sources.camera import camera_problem

DENIED = ("permission denied on /dev/video0: add yourself to the 'video' group "
          "(sudo usermod -aG video $USER), log in again and retry")


def test_the_setup_lists_cameras_by_name_and_says_why_one_cannot_be_used(
        qtbot: QtBot) -> None:
    dlg = SetupDialog(cameras=[Camera(0, "Integrated Camera", DENIED),
                               Camera(2, "HD Pro Webcam C920")])
    qtbot.addWidget(dlg)
    items = [dlg.source.itemText(i) for i in range(dlg.source.count())]
    assert items == ["Demo table (no camera)", "Integrated Camera (cannot be opened)",
                     "HD Pro Webcam C920"]
    dlg.source.setCurrentIndex(1)
    assert dlg.source_spec() == "0"
    assert dlg.error.text() == f"Integrated Camera cannot be opened: {DENIED}"
    dlg.source.setCurrentIndex(2)
    assert dlg.source_spec() == "2" and dlg.error.text() == ""


def test_a_picture_that_cannot_be_had_is_said_in_the_setup(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision.sources.camera, "open_camera", lambda index: None)
    dlg = SetupDialog(cameras=[Camera(0, "Integrated Camera")])
    qtbot.addWidget(dlg)
    dlg.source.setCurrentIndex(1)
    dlg._preview()
    assert dlg.error.text() == f"No picture: cannot open camera 0: {camera_problem(0)}"


def test_a_camera_that_cannot_be_opened_is_said_when_the_demo_plays_instead(
        qtbot: QtBot, store: GameStore) -> None:
    from ui.cli import build_window

    w = build_window(demo=None, ask_resume=False,
                     cameras=[Camera(0, "Integrated Camera", DENIED)])
    assert isinstance(w, MainWindow)
    qtbot.addWidget(w)
    assert w.source_label.text() == "DEMO TABLE (Integrated Camera cannot be opened)"
    assert w.status.currentMessage().startswith("Integrated Camera cannot be opened: this is "
                                                "the demo table.")
    box = w.last_problem
    assert box is not None and box.isVisible()
    assert f"Integrated Camera cannot be opened: {DENIED}." in box.text()
    assert "Game → New game tries the camera again" in box.text()
    box.close()
    w.stop_feed()


def test_a_game_whose_camera_cannot_be_opened_says_so(
        qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vision.sources.camera, "open_camera", lambda index: None)
    dlg = SetupDialog(cameras=[Camera(0, "Integrated Camera")])
    qtbot.addWidget(dlg)
    dlg.set_players(["Ann", "Bob", "Cy"])
    dlg.source.setCurrentIndex(1)
    window.start_game(dlg.result_setup())
    qtbot.waitUntil(lambda: window.last_problem is not None, timeout=10000)
    box = window.last_problem
    assert box is not None and box.isVisible()
    assert "cannot open camera 0" in box.text() and camera_problem(0) in box.text()
    assert window.status.currentMessage() == box.text()
    box.close()


def test_a_camera_in_play_is_called_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    import ui.camera

    monkeypatch.setattr(ui.camera, "system_cameras", lambda *a, **k: {0: "HD Webcam"})
    assert ui.camera.camera_name("0") == "HD Webcam"
    assert ui.camera.camera_name("3") == "Camera 3"   # not known by the system
    assert ui.camera.camera_name("rtsp://table.local/s") == "rtsp://table.local/s"


def _deck_file(path: Path) -> Path:
    import json

    import numpy as np

    from vision.readers.index_heads import DECK_KIND

    path.write_text(json.dumps({
        "kind": DECK_KIND, "rank_w": np.zeros((13, 8)).tolist(), "rank_b": [0.0] * 13,
        "suit_w": np.zeros((4, 8)).tolist(), "suit_b": [0.0] * 4}))
    return path


def test_the_setup_takes_a_taught_deck_and_refuses_a_file_that_is_not_one(
        qtbot: QtBot, tmp_path: Path) -> None:
    dlg = SetupDialog(cameras=[Camera(2, "HD Pro Webcam C920")])
    qtbot.addWidget(dlg)
    dlg.set_players(["Ann", "Bob", "Cy"])
    dlg.source.setCurrentIndex(1)
    assert dlg.result_setup().deck is None  # the usual card models
    deck = _deck_file(tmp_path / "mydeck.json")
    dlg.deck.setText(str(deck))
    assert dlg.problem() == ""
    assert dlg.result_setup().deck == str(deck)
    (tmp_path / "photo.json").write_text('{"kind": "thresholds"}')
    dlg.deck.setText(str(tmp_path / "photo.json"))
    assert "photo.json" in dlg.problem() and "not a deck profile" in dlg.problem()
    dlg.deck.setText(str(tmp_path / "gone.json"))
    assert "gone.json" in dlg.problem()


@pytest.mark.skipif(not Path("models/index_localiser.onnx").exists(), reason="no index models")
def test_a_camera_game_with_a_taught_deck_reads_with_it_and_says_when_it_cannot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    from ui.camera import make_camera_feed

    monkeypatch.delenv("COMPANION_NO_DETECTOR", raising=False)
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), np.zeros((48, 64, 3), np.uint8))
    deck = _deck_file(tmp_path / "mydeck.json")
    game = '{"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy"]}\n'
    for name in ("g.jsonl", "g2.jsonl"):
        (tmp_path / name).write_text(game)
    feed = make_camera_feed(str(frames), None, "michigan-rummy", ["Ann", "Bob", "Cy"],
                            tmp_path / "g.jsonl", str(deck))
    reader = feed.pipeline.detector.detector
    assert reader.heads.layers is not None  # the hybrid, with the deck's own layers
    feed.close()
    feed = make_camera_feed(str(frames), None, "michigan-rummy", ["Ann", "Bob", "Cy"],
                            tmp_path / "g2.jsonl", str(tmp_path / "gone.json"))
    assert any("gone.json" in n and "usual card models" in n for n in feed.notices)
    assert not hasattr(feed.pipeline.detector.detector, "heads")  # the card reader
    feed.close()
