"""Saved games at start-up and in the Open dialog (issue 15, finding 14; 16 for the window's
place): start-up replays no game the user closed, a game's summary is replayed once and kept,
saved games can be deleted from the dialog, and the window opens where it was left."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

import ui.store
from companion.referee import find_simulator
from ui.dialogs import OpenGameDialog
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
