"""`simulate --show` prints a game whose log nobody sees (issue 15, finding 12): it places
announcements, violations and problems by round and never refers to "line N"; with --out the
log is written too, and then the report's lines are that file's lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.referee import GAME_MODULES

LINE = re.compile(r"\bline\s+(\d+)")


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_show_places_everything_by_round(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", game, "--players", "3", "--seed", "2",
                 "--mistakes", "0.3", "--show"]) == 0
    shown = capsys.readouterr().out
    assert LINE.findall(shown) == []
    assert re.search(r"^  round +1: ", shown, re.M)


def test_show_with_out_names_the_lines_of_the_written_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["simulate", "--game", "pressman", "--players", "3", "--seed", "2",
                 "--mistakes", "0.3", "--show", "--out", str(log)]) == 0
    out = capsys.readouterr()
    lines = [int(n) for n in LINE.findall(out.out)]
    n_lines = len(log.read_text(encoding="utf-8").splitlines())
    assert "Violations (" in out.out and lines and max(lines) <= n_lines
    assert f"wrote {n_lines} events" in out.err
