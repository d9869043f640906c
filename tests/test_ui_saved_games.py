"""Saved games at start-up and in the Open dialog (issue 15, finding 14; 16 for the window's
place): start-up replays no game the user closed, a game's summary is replayed once and kept,
saved games can be deleted from the dialog, and the window opens where it was left. A past game
is opened and replayed step by step, and nothing can be appended to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

import ui.store
from companion.referee import find_simulator, replay_dicts
from ui.demo import DemoTable
from ui.dialogs import OpenGameDialog
from ui.models import GamesModel
from ui.store import GameStore
from ui.window import MainWindow


def _save_games(store: GameStore, n: int, close: bool = True) -> None:
    events = find_simulator("michigan-rummy")(players=["Ann", "Bob", "Cy"], rounds=1, seed=4,
                                              hidden=True, mistakes=0.0, chips=None,
                                              game="michigan-rummy")
    for _ in range(n):
        session = store.new_game(events[0])
        for ev in events[1:20]:
            session.append(ev)
        session.close(finished_by_user=close)


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The saved logs replayed to summarise them."""
    calls: list[Path] = []
    real = ui.store._summarise

    def counting(log_path: Path, size: int) -> dict[str, object] | None:
        calls.append(log_path)
        return real(log_path, size)
    monkeypatch.setattr(ui.store, "_summarise", counting)
    return calls


def test_start_up_replays_no_game_the_user_closed(store: GameStore, replays: list[Path]) -> None:
    _save_games(store, 6, close=True)
    assert store.resumable() is None and replays == []
    _save_games(store, 1, close=False)  # a game interrupted: its summary is replayed once
    assert store.resumable() is not None and len(replays) == 1
    assert store.resumable() is not None and len(replays) == 1


def test_the_list_replays_each_game_once(store: GameStore, replays: list[Path]) -> None:
    _save_games(store, 3)
    first = store.games()
    assert len(first) == 3 and len(replays) == 3
    assert store.games() == first and len(replays) == 3
    session = ui.store.GameSession(first[0].path)  # a game that grows is summarised again
    session.append({"event": "end-round"})
    session.close()
    assert store.games()[0].events == first[0].events + 1 and len(replays) == 4


def test_saved_games_are_deleted_from_the_open_dialog(qtbot: QtBot, store: GameStore) -> None:
    _save_games(store, 3)
    asked: list[str] = []
    answer = False

    def confirm(game: ui.store.GameInfo) -> bool:
        asked.append(game.title)
        return answer
    dlg = OpenGameDialog(store, confirm=confirm)
    qtbot.addWidget(dlg)
    doomed = dlg.chosen()
    assert doomed is not None and dlg.model.rowCount() == 3
    dlg.delete_chosen()  # the user says no
    assert asked == [doomed.title] and doomed.path.is_dir() and dlg.model.rowCount() == 3
    answer = True
    dlg.delete_chosen()
    assert not doomed.path.exists() and dlg.model.rowCount() == 2
    assert [g.path for g in store.games()] == [dlg.model.game(r).path for r in range(2)]  # type: ignore[union-attr]
    assert dlg.chosen() is not None  # the next game is selected
    with pytest.raises(ValueError):
        store.delete(ui.store.GameInfo(store.root.parent, "x", (), 0.0, False, 0, "camera"))


def test_the_window_opens_where_it_was_left(qtbot: QtBot, store: GameStore,
                                            tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    fresh = MainWindow(store=store)
    qtbot.addWidget(fresh)
    first = MainWindow(store=store, settings=settings)
    qtbot.addWidget(first)
    first.show()
    first.resize(fresh.width() + 11, fresh.height() + 3)
    left = first.geometry()
    first.close()
    second = MainWindow(store=store, settings=settings)
    qtbot.addWidget(second)
    # (the offscreen screen, 800x600, is smaller than the window: Qt moves it to fit)
    assert second.size() == left.size() != fresh.size()


def test_the_camera_chosen_last_is_offered_first(qtbot: QtBot, store: GameStore,
                                                 tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QDialog

    import ui.camera
    from ui.camera import Camera
    from ui.setup import GameSetup, SetupDialog

    monkeypatch.setattr(ui.camera, "find_cameras",
                        lambda *a, **k: [Camera(0, "Desk cam"), Camera(2, "HD Webcam")])
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(store=store, settings=settings)
    qtbot.addWidget(window)
    offered: list[str] = []

    def accept(dlg: SetupDialog) -> int:
        offered.append(dlg.source_spec())
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(SetupDialog, "exec", accept)
    monkeypatch.setattr(SetupDialog, "result_setup", lambda dlg: GameSetup(
        {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob"]}, "Ann",
        "2", None))
    monkeypatch.setattr(MainWindow, "start_game", lambda self, gs: None)
    window.new_game()   # nothing remembered: the demo table comes first
    window.new_game()   # the camera chosen the first time ("2", the HD Webcam)
    assert offered == ["demo", "2"]
    dlg = SetupDialog([Camera(0, "Desk cam")])
    qtbot.addWidget(dlg)
    dlg.choose_source("rtsp://table.local/stream")  # a stream typed last time, not listed
    assert dlg.source_spec() == "rtsp://table.local/stream"


@pytest.fixture
def window(window: MainWindow) -> MainWindow:
    """The shared window (conftest), at a size where every panel shows."""
    window.resize(1400, 900)
    return window


# --- past games -------------------------------------------------------------------------------
def test_open_a_past_game_and_replay_it(qtbot: QtBot, window: MainWindow, store: GameStore,
                                        tmp_path: Path) -> None:
    events = DemoTable.simulated("wanagan", seed=2, rounds=1).events
    session = store.new_game(events[0])
    for ev in events[1:]:
        session.append(ev)
    session.close()
    games = store.games()
    model = GamesModel(games)
    assert model.rowCount() == 1 and model.index(0, 1).data() == "wanagan"
    window.open_replay(games[0].path)
    assert window.replay_bar.isVisible() or window.replay_mode
    final = window.session.report()["chips"]  # type: ignore[union-attr]
    window.replay_slider.setValue(0)
    start = {window.chips_model.index(r, 0).data(Qt.ItemDataRole.UserRole):
             window.chips_model.index(r, 1).data() for r in range(window.chips_model.rowCount())}
    expect = replay_dicts(events[:1]).report()["chips"]  # step 0: the game event alone
    assert all(start[p] == str(expect[p]) for p in expect)
    window.replay_slider.setValue(window.replay_slider.maximum())
    end = {window.chips_model.index(r, 0).data(Qt.ItemDataRole.UserRole):
           window.chips_model.index(r, 1).data() for r in range(window.chips_model.rowCount())}
    assert all(end[p] == str(final[p]) for p in final)
    # nothing can be appended to a game being replayed
    assert window.append_events([{"event": "end-round"}]) == []
    assert window.export_csv(tmp_path / "w.csv") is not None
