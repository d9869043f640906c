"""`companion referee` starts light (issue 15, finding 14): the command line builds only the
sub-parser asked for and imports a plugin subcommand only when it is the one asked for (or for
--help), so the referee never loads OpenCV, numpy or Qt; the house rules are read from a cache
of their parsed TOML, so it does not import `tomllib` either; and the program freezes what
start-up made, which the garbage collector then never walks again. Which modules load is
checked here; the time is measured by benchmarks/bench_startup.py."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import house
from companion.cli import build_parser, commands_needed, main
from companion.diagnostics import DATA_ENV

ROOT = Path(__file__).resolve().parent.parent


def test_only_the_subcommand_asked_for_is_built() -> None:
    assert commands_needed(["referee", "game.jsonl", "--json"]) == ["referee"]
    assert commands_needed(["simulate", "--show"]) == ["simulate"]
    assert commands_needed(["referee", "--help"]) == ["referee"]
    assert commands_needed([]) == []                       # the window: found at run time
    assert commands_needed(["--version"]) == []
    assert commands_needed(["detect", "a.jpg", "--json"]) == ["detect"]
    assert commands_needed(["--help"]) is None             # the help lists every subcommand
    assert commands_needed(["-h"]) is None
    assert commands_needed(["--he"]) is None               # argparse's abbreviation of --help
    assert commands_needed(["gin"]) is None                # an unknown name: the error lists all
    listed = build_parser(["referee"]).format_help()
    assert "referee" in listed and "simulate" not in listed


def _fresh_interpreter(probe: str, *args: str, data: Path) -> str:
    """The last line a fresh interpreter prints after ``probe`` (code that runs the referee)."""
    done = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True,
                          check=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), DATA_ENV: str(data)})
    return done.stdout.splitlines()[-1]


def test_the_referee_loads_no_pixel_or_window_module(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "--players", "3", "--out", str(log)]) == 0
    probe = ("import sys; from companion.cli import main; main(['referee', sys.argv[1], '-q']);"
             "print(sorted({m.split('.')[0] for m in sys.modules}))")
    loaded = set(json.loads(_fresh_interpreter(probe, str(log), data=tmp_path / "data")
                            .replace("'", '"')))
    assert "companion" in loaded
    assert loaded & {"cv2", "numpy", "PySide6", "onnxruntime", "vision", "ui",
                     "calibration"} == set()


def test_the_referee_does_without_the_heavier_standard_library(tmp_path: Path) -> None:
    # The diagnostic log rotates without logging.handlers (sockets, pickle, queues), the house
    # rules are read beside the package without importlib.resources (zipfile, tempfile) and,
    # once parsed, from their cache without tomllib (datetime and its regular expressions); a
    # log that is only read takes no lock (socket); the plugins' entry points are not looked
    # up (importlib.metadata).
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "--players", "3", "--out", str(log)]) == 0
    heavy = ["logging.handlers", "importlib.resources", "zipfile", "tempfile", "socket",
             "pickle", "queue", "tomllib", "importlib.metadata"]
    # Only what the companion adds counts: an interpreter's own start-up files (a .pth in
    # site-packages, e.g. one that patches certificates) may load some of these before us.
    probe = ("import sys; before = set(sys.modules); from companion.cli import main;"
             "main(['referee', sys.argv[1], '-q']);"
             f"print([m for m in {heavy!r} if m in sys.modules and m not in before])")
    data = tmp_path / "data"
    first = _fresh_interpreter(probe, str(log), data=data)
    assert first == "['tomllib']"                 # the first command parses the rules...
    assert (data / "cache" / "house" / "michigan-rummy.json").is_file()
    assert _fresh_interpreter(probe, str(log), data=data) == "[]"   # ...the next ones do not
    assert (data / "logs" / "companion.log").is_file()


def test_the_program_freezes_what_start_up_made_and_a_call_from_code_does_not(
        tmp_path: Path) -> None:
    # `companion ...` itself: the start-up objects live until exit, so the garbage collector
    # skips them (in the collection at exit above all); main([...]) called from code (tests,
    # other programs) leaves its caller's garbage collection as it was.
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "--players", "3", "--out", str(log)]) == 0
    probe = ("import gc, sys; from companion.cli import main; before = gc.get_freeze_count();"
             "sys.argv = ['companion', 'referee', sys.argv[1], '-q']; main();"
             "print(before, gc.get_freeze_count() > before)")
    assert _fresh_interpreter(probe, str(log), data=tmp_path / "data") == "0 True"
    before = gc.get_freeze_count()
    assert main(["referee", str(log), "-q"]) == 0
    assert gc.get_freeze_count() == before


def test_help_still_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    listed = capsys.readouterr().out
    for name in ("referee", "simulate", "detect", "watch", "calibrate", "demo"):
        assert name in listed


def test_an_unknown_subcommand_still_names_every_one(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    with pytest.raises(SystemExit):
        main(["refer", "game.jsonl"])
    err = capsys.readouterr().err
    assert "invalid choice: 'refer'" in err
    for name in ("referee", "simulate", "detect", "watch"):
        assert repr(name) in err


# --- the cache of the house rules' parsed TOML ---------------------------------------------------
@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data folder of the test's own, and the house rules read afresh from it."""
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    house._load.cache_clear()
    yield tmp_path
    house._load.cache_clear()


GAMES = sorted(p.stem for p in (ROOT / "companion" / "data").glob("*.toml"))


def _toml(game: str) -> str:
    return (ROOT / "companion" / "data" / f"{game}.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_the_cached_rules_are_what_the_toml_parses_to(data: Path, game: str) -> None:
    parsed = tomllib.loads(_toml(game))
    assert house.game_data(game) == parsed                       # parsed, and cached
    cache = data / "cache" / "house" / f"{game}.json"
    assert json.loads(cache.read_text(encoding="utf-8")) == {"toml": _toml(game), "data": parsed}
    house._load.cache_clear()
    assert house.game_data(game) == parsed                       # read from the cache
    assert list(house.game_data(game)["house"]) == list(parsed["house"])   # in file order


def test_a_cache_of_another_text_or_a_damaged_one_is_not_used(data: Path) -> None:
    cache = data / "cache" / "house" / "pressman.json"
    cache.parent.mkdir(parents=True)
    fake = {"house": {"rounds": {"default": 99, "ruling": "X", "text": "stale"}}}
    cache.write_text(json.dumps({"toml": "# an older file", "data": fake}), encoding="utf-8")
    assert house.house_settings("pressman")["rounds"] == tomllib.loads(
        _toml("pressman"))["house"]["rounds"]["default"]
    assert json.loads(cache.read_text(encoding="utf-8"))["toml"] == _toml("pressman")
    for damaged in ("{not json", '["a list"]', '{"toml": 1}', ""):
        house._load.cache_clear()
        cache.write_text(damaged, encoding="utf-8")
        assert house.game_data("pressman") == tomllib.loads(_toml("pressman"))
        assert json.loads(cache.read_text(encoding="utf-8"))["toml"] == _toml("pressman")


def test_the_rules_are_read_where_no_cache_can_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv(DATA_ENV, str(blocked))       # the data folder cannot be made
    house._load.cache_clear()
    try:
        assert house.game_data("boodle") == tomllib.loads(_toml("boodle"))
    finally:
        house._load.cache_clear()
    assert list(tmp_path.iterdir()) == [blocked]     # nothing half-written left behind


def test_toml_without_a_json_form_is_parsed_every_time(data: Path) -> None:
    text = 'title = "x"\nwhen = 1979-05-27\n'
    assert house._parse_toml(text, "dated") == tomllib.loads(text)
    assert not (data / "cache" / "house" / "dated.json").exists()
