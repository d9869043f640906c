"""The setup dialog driven with pytest-qt (offscreen): a full setup builds the game event (house
rules, players, calibration zones dragged), a camera setup starts a logged game, and the board
is found in the camera's picture."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from pytestqt.qtbot import QtBot
from ui_helpers import later

from ui.camera import Camera
from ui.demo import DemoTable
from ui.setup import DEMO_SOURCE, SetupDialog
from ui.store import GameStore
from ui.window import MainWindow


@pytest.fixture
def window(window: MainWindow) -> MainWindow:
    """The shared window (conftest), at a size where every panel shows."""
    window.resize(1400, 900)
    return window


# --- setup --------------------------------------------------------------------------------------
def test_full_setup_dialog_builds_the_game_event(qtbot: QtBot, store: GameStore) -> None:
    dlg = SetupDialog(cameras=[Camera(0, "HD Webcam")])
    qtbot.addWidget(dlg)
    assert dlg.game_combo.count() == 7
    dlg.set_game("pressman")
    dlg.set_players(["Ann", "Bob", "Cy"])
    dlg.new_name.setText("Dee")
    dlg._add_player()
    dlg.players.setCurrentRow(3)
    dlg._move(-1)  # Dee now sits third
    assert dlg.player_names() == ["Ann", "Bob", "Dee", "Cy"]
    dlg.chips.setValue(40)
    dlg.rounds.setValue(3)
    dlg.dealer.setCurrentText("Bob")
    from companion.house import house_rules
    flags = [r for r in house_rules("pressman") if isinstance(r.default, bool)]
    assert flags, "pressman has switchable house rules"
    rule = dlg.rule_editor(flags[0].name)
    assert rule is not None and rule.rule.ruling == flags[0].ruling
    rule.set_value(not flags[0].default)
    disk = dlg.rule_editor("disk")
    assert disk is not None and isinstance(disk.rule.default, list)
    # calibration: the zones are drawn over the picture; dragging a corner refits the board
    cal = dlg.calibration
    assert cal.profile is not None and len(cal.profile.zones) >= 4
    before = cal.profile.board_corners_px().copy()
    cal.move_corner(0, float(before[0][0]) + 25, float(before[0][1]) + 10)
    after = cal.profile.board_corners_px()
    assert np.allclose(after[0], before[0] + [25, 10], atol=0.5)
    assert np.allclose(after[2], before[2], atol=0.5)
    zone0 = cal.profile.zones[0].center
    cal.move_zone(0, (30.0, 0.0))
    assert cal.profile.zones[0].center[0] > zone0[0]
    assert dlg.problem() == ""
    gs = dlg.result_setup()
    assert gs.setup == {"event": "game", "game": "pressman",
                        "players": ["Ann", "Bob", "Dee", "Cy"], "chips": 40, "rounds": 3,
                        "house": {flags[0].name: not flags[0].default}}
    assert gs.first_dealer == "Bob"
    assert gs.source == DEMO_SOURCE
    assert gs.profile is not None
    dlg.set_players(["Solo"])
    assert "two players" in dlg.problem()


def test_setup_with_a_camera_starts_a_logged_game(qtbot: QtBot, window: MainWindow,
                                                  tmp_path: Path) -> None:
    # a "camera" that is a folder of pictures of the demo table
    table = DemoTable.simulated("michigan-rummy", seed=2, rounds=1)
    folder = tmp_path / "cam"
    folder.mkdir()
    for i in range(6):
        table.step()
        img, _ = table.frame()
        cv2.imwrite(str(folder / f"f{i:02d}.png"), img)
    dlg = SetupDialog(cameras=[])
    qtbot.addWidget(dlg)
    dlg.source.setEditText(str(folder))
    assert dlg.source_spec() == str(folder)
    dlg.set_players(["Ann", "Bob", "Cy", "Dee"])
    dlg.dealer.setCurrentText("Cy")
    gs = dlg.result_setup()
    with qtbot.waitSignal(window.eventLogged, timeout=5000, raising=True):
        session = window.start_game(gs)
    assert [e.kind for e in session.events] == ["game", "round"]
    assert session.events[1].get("dealer") == "Cy"
    qtbot.waitUntil(lambda: window.live._image is not None, timeout=10000)
    # what the camera cannot see is typed in: the dealer keeps the dummy
    window.enter(window._dummy_dialog, later(lambda: None))
    assert session.events[-1].get("event") == "dummy"
    assert session.events[-1].get("action") == "keep"
    assert session.report()["errors"] == []


def test_setup_finds_the_board_in_the_camera_picture(qtbot: QtBot, tmp_path: Path) -> None:
    from vision.render.table import TableVideo

    events = DemoTable.simulated("michigan-rummy", seed=6, rounds=1).events
    video = TableVideo(events)
    folder = tmp_path / "cam"
    folder.mkdir()
    cv2.imwrite(str(folder / "0000.png"), video.render(0.0).image)
    dlg = SetupDialog(cameras=[])
    qtbot.addWidget(dlg)
    dlg.source.setEditText(str(folder))
    dlg._preview()  # the camera's picture behind the zones
    assert dlg.calibration.frame is not None and dlg.calibration.frame.shape[:2] == (480, 640)
    assert dlg.find_board(), dlg.error.text()
    assert dlg.error.text() == ""  # nothing to mend
    found = dlg.calibration.profile
    assert found is not None
    true = video.profile().board_corners_px()
    assert np.abs(found.board_corners_px() - true).max() < 12.0  # pixels
    assert len(found.zones) == 4 and dlg.result_setup().profile is found


def test_setup_says_when_the_camera_picture_is_out_of_focus(qtbot: QtBot,
                                                           tmp_path: Path) -> None:
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo

    events = DemoTable.simulated("michigan-rummy", seed=6, rounds=1).events
    folder = tmp_path / "cam"
    folder.mkdir()
    soft = TableVideo(events, RenderConfig(blur=1.5)).render(0.0).image
    cv2.imwrite(str(folder / "0000.png"), soft)
    dlg = SetupDialog(cameras=[])
    qtbot.addWidget(dlg)
    dlg.source.setEditText(str(folder))
    dlg._preview()
    assert dlg.find_board()  # the board is found, and the user is told to focus
    assert "out of focus" in dlg.error.text() and "focus ring" in dlg.error.text()
