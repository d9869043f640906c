"""The command line as a newcomer types it (issue 15, findings 4 and 5): `watch` takes player
names with spaces or commas and starts the first round of a new game itself; unknown game names
are refused with the list of games; `referee` on a file that is not a log stops with exit 2."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from log_helpers import normalise

from calibration.profile import TableProfile
from companion.cards import CARD_CODES
from companion.cli import main
from companion.commands import player_names, split_names
from companion.events import read_log
from companion.referee import GAME_MODULES
from vision import pipeline_cli
from vision.detections import Detections
from vision.pipeline_cli import register_render_table, register_watch
from vision.render.demo import demo_source

GAMES = ", ".join(sorted(GAME_MODULES))


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers()
    register_watch(sub)
    register_render_table(sub)
    return parser.parse_args(list(argv))


def test_names_are_split_on_spaces_and_commas() -> None:
    assert split_names(["Ann,Bob", "Cy"]) == ["Ann", "Bob", "Cy"]
    assert split_names(["Ann, Bob ,Cy"]) == ["Ann", "Bob", "Cy"]
    assert split_names("Ann,Bob,Cy") == ["Ann", "Bob", "Cy"]
    assert player_names(["Ann", "Bob", "Cy"]) == player_names("Ann,Bob,Cy")
    assert player_names(["3"]) == ["Ann", "Bob", "Cy"]
    assert parse("watch", "0", "--players", "Ann,Bob,Cy", "--log", "x").players == ["Ann,Bob,Cy"]


def test_simulate_takes_names_with_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "Ann", "Bob", "Cy", "--rounds", "1"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["players"] == ["Ann", "Bob", "Cy"]


def test_the_readme_watch_example_logs_the_game(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """`watch demo --game michigan-rummy --players Ann,Bob,Cy` (the README's line, read by the
    renderer's own boxes here): three players, every card of the demo's round logged."""
    log = tmp_path / "w1.jsonl"
    args = parse("watch", "demo", "--game", "michigan-rummy", "--players", "Ann,Bob,Cy",
                 "--detector", "truth", "--log", str(log))
    assert args.func(args) == 0
    got = [dict(e.data) for e in read_log(log).events]
    assert got[0] == {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy"]}
    _, truth = demo_source(0, players=["Ann", "Bob", "Cy"])
    assert normalise(got[1:]) == normalise(truth.events[1:])
    assert sum(e["event"] == "play" for e in got) > 10
    assert "0 readings await confirmation" in capsys.readouterr().err


class OneCard:
    """A detector that sees one card lying in a seat's zone on every frame."""

    def __init__(self, profile: TableProfile, code: str, seat: int) -> None:
        zone = next(z for z in profile.zones if z.seat == seat)
        x, y = profile.board_to_image(np.array([zone.center], float))[0]
        self.box = np.array([[x - 12, y - 17, x + 12, y + 17]])
        self.cls = np.array([CARD_CODES.index(code)])

    def detect(self, frame: np.ndarray) -> Detections:
        return Detections(self.box, np.array([0.95]), self.cls)


@pytest.mark.parametrize("dealer", [None, "Cy"])
def test_a_headless_game_at_a_real_table_starts_its_first_round(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, dealer: str | None) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in range(12):
        cv2.imwrite(str(frames / f"{i:03d}.png"), np.zeros((480, 640, 3), np.uint8))
    profile = TableProfile.propose(np.eye(3), (640, 480), "michigan-rummy", 3)
    profile.save(tmp_path / "table.json")
    # the player after the dealer leads: Bob after Ann (the default dealer), Ann after Cy
    leader = 0 if dealer == "Cy" else 1
    monkeypatch.setattr(pipeline_cli, "build_detector",
                        lambda args, source: OneCard(profile, "3C", seat=leader))
    log = tmp_path / "g.jsonl"
    argv = ["watch", str(frames), "--game", "michigan-rummy", "--players", "Ann", "Bob", "Cy",
            "--profile", str(tmp_path / "table.json"), "--log", str(log), "--refit-every", "0"]
    args = parse(*argv, *(["--dealer", dealer] if dealer else []))
    assert args.func(args) == 0
    got = [dict(e.data) for e in read_log(log).events]
    assert [e["event"] for e in got] == ["game", "round", "play"]
    assert got[1]["dealer"] == (dealer or "Ann")
    assert (got[2]["player"], got[2]["card"]) == (["Ann", "Bob"][leader], "3C")


def test_watch_refuses_a_new_log_without_its_game(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    args = parse("watch", str(tmp_path), "--log", str(tmp_path / "g.jsonl"))
    assert args.func(args) == 2
    assert "--game" in capsys.readouterr().err
    args = parse("watch", "demo", "--game", "michigan-rummy", "--players", "Ann", "Ann",
                 "--log", str(tmp_path / "g.jsonl"))
    assert args.func(args) == 2
    assert "must differ" in capsys.readouterr().err
    assert not (tmp_path / "g.jsonl").exists()


@pytest.mark.parametrize("command", [["watch", "demo", "--log", "x.jsonl", "--game", "gin"],
                                     ["render-table", "--out", "x.mp4", "--game", "gin"]])
def test_an_unknown_game_is_refused_with_the_list(command: list[str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        parse(*command)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "'gin'" in err and all(g in err for g in GAME_MODULES)


def test_unknown_games_from_a_demo_spec_or_a_script_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    args = parse("watch", "demo:gin", "--log", str(log))
    assert args.func(args) == 2
    assert f"unknown game 'gin' (known: {GAMES})" in capsys.readouterr().err
    script = tmp_path / "s.jsonl"
    script.write_text(json.dumps({"event": "game", "game": "gin", "players": ["A", "B"],
                                  "at": 0}) + "\n")
    args = parse("watch", str(tmp_path), "--script", str(script), "--log", str(log))
    assert args.func(args) == 2
    assert f"unknown game 'gin' (known: {GAMES})" in capsys.readouterr().err
    assert not log.exists()


def test_simulate_names_the_games_it_knows(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--game", "gin"])
    err = capsys.readouterr().err
    assert "'gin'" in err and all(g in err for g in GAME_MODULES)


def test_referee_on_a_file_that_is_not_a_log(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "photo.jpg"
    ok, jpg = cv2.imencode(".jpg", np.random.default_rng(1).integers(0, 255, (64, 64, 3),
                                                                        dtype=np.uint8))
    photo.write_bytes(jpg.tobytes() * 20)
    assert main(["referee", str(photo)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert len(out.err.strip().splitlines()) == 1
    assert "photo.jpg is not an event log" in out.err and "line 1" in out.err
    profile = tmp_path / "table.json"
    profile.write_text(json.dumps({"zones": []}))
    assert main(["referee", "--json", str(profile)]) == 2
    assert "not an event log" in capsys.readouterr().err
    # a log with a damaged line is still a log: read, reported, exit 0
    log = tmp_path / "g.jsonl"
    log.write_text('{"event":"game","game":"michigan-rummy","players":["A","B","C"]}\n{oops\n')
    assert main(["referee", str(log)]) == 0


class NoCard:
    """A detector that sees no card."""

    def detect(self, frame: np.ndarray) -> Detections:
        return Detections.empty()


def test_watch_calibrating_a_soft_picture_says_to_focus(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo

    setup = [{"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy"]},
             {"event": "round", "dealer": "Ann"}]
    frames = tmp_path / "frames"
    frames.mkdir()
    soft = TableVideo(setup, RenderConfig(seed=1, blur=1.5)).render(0.0).image
    for i in range(6):
        cv2.imwrite(str(frames / f"{i:03d}.png"), soft)
    monkeypatch.setattr(pipeline_cli, "build_detector", lambda args, source: NoCard())
    args = parse("watch", str(frames), "--game", "michigan-rummy", "--players", "Ann,Bob,Cy",
                 "--log", str(tmp_path / "g.jsonl"), "--refit-every", "0")
    assert args.func(args) == 0  # the game is watched all the same
    assert "warning: the picture looks out of focus" in capsys.readouterr().err


def test_render_table_draws_a_soft_webcam(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text("\n".join(json.dumps(e) for e in [
        {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy"]},
        {"event": "round", "dealer": "Ann"},
        {"event": "play", "player": "Bob", "card": "3C"}]) + "\n")

    def first_frame(*extra: str) -> np.ndarray:
        out = tmp_path / f"t{len(extra)}.mp4"
        args = parse("render-table", "--log", str(log), "--out", str(out), *extra)
        assert args.func(args) == 0
        cap = cv2.VideoCapture(str(out))
        ok, frame = cap.read()
        cap.release()
        assert ok
        return np.asarray(frame)

    def edges(img: np.ndarray) -> float:
        return float(np.abs(np.diff(img.astype(np.float32).mean(axis=2), axis=1)).mean())

    assert edges(first_frame("--blur", "1.5")) < 0.8 * edges(first_frame())
    args = parse("render-table", "--log", str(log), "--out", str(tmp_path / "x.mp4"),
                 "--blur", "-1")
    assert args.func(args) == 2
    assert "--blur -1.0" in capsys.readouterr().err
