"""End to end with the shipped card model: a rendered video of a simulated Michigan Rummy round,
of an Oh Claire! hand of tricks and of a Great Lakes round (with a four-card dump laid as a
spread) goes through `companion watch` (calibrated from the video, cards read zone by zone),
and the event log it writes is compared with the ground truth.

The goal (issue 8) is equality, and both games reach it. Of the hands revealed at the
Michigan round's end (cards spread in a row, each covering most of the one before) the
whole-card reader sees the top card only; the index reader's second look
(`Questions._look_again`) reads the corner indices the spread leaves showing, and the table
takes the cards it reads most often as the hand. The first test pins every play of each game,
so that a change making the vision worse fails on the play it loses.
"""

from __future__ import annotations

import argparse
import difflib
import json
from pathlib import Path
from typing import Any

import pytest
from log_helpers import normalise as normalise_rows

from companion.events import read_log
from vision.pipeline_cli import register_watch
from vision.readers.detector import default_model_path
from vision.render.demo import simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import render_video

CASES = [("michigan-rummy", 11), ("oh-claire", 12), ("great-lakes", 12)]

pytestmark = pytest.mark.skipif(not default_model_path().exists(),
                                reason="models/cards.onnx is missing")


def normalise(events: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(row, sort_keys=True) for row in normalise_rows(events)]


_RUNS: dict[tuple[str, int], tuple[list[str], list[str], str]] = {}


def watched(game: str, seed: int, tmp: Path) -> tuple[list[str], list[str], str]:
    """(truth, logged, stderr summary) of one rendered video through `companion watch`."""
    if (game, seed) not in _RUNS:
        events = simulated_round(game, seed=seed)
        video = tmp / "table.mp4"
        render_video(events, video, RenderConfig(seed=seed, fps=10.0))
        parser = argparse.ArgumentParser()
        register_watch(parser.add_subparsers())
        log = tmp / "watched.jsonl"
        args = parser.parse_args(["watch", str(video), "--script",
                                  str(tmp / "table.script.jsonl"), "--log", str(log), "--quiet"])
        assert args.func(args) == 0
        got = normalise([dict(e.data) for e in read_log(log).events])
        truth = normalise([dict(e.data) for e in read_log(tmp / "table.truth.jsonl").events])
        _RUNS[(game, seed)] = (truth, got, "")
    return _RUNS[(game, seed)]


@pytest.mark.parametrize(("game", "seed"), CASES)
def test_the_model_reads_every_play_in_the_right_seat_and_order(
        tmp_path_factory: pytest.TempPathFactory, game: str, seed: int) -> None:
    truth, got, _ = watched(game, seed, tmp_path_factory.mktemp(game))
    visual = [e for e in truth if '"event": "play"' in e or '"event": "trump"' in e]
    matcher = difflib.SequenceMatcher(a=truth, b=got, autojunk=False)
    matched = {truth[i + k] for i, _, n in matcher.get_matching_blocks() for k in range(n)}
    plays_right = sum(e in matched for e in visual)
    extra = len(got) - sum(n for *_, n in matcher.get_matching_blocks())
    # Measured with the v1 model and classifier v4 and v5: Michigan 32 of 32 plays, Oh Claire! 41 of
    # 41 plays and trumps, nothing extra in either; Great Lakes (fifth session, with the second
    # look at a dump) 35 of 35 plays.
    assert plays_right == len(visual), (plays_right, len(visual))
    assert extra == 0, [e for e in got if e not in truth]


def test_the_oh_claire_hand_read_by_the_model_equals_the_ground_truth(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    truth, got, _ = watched("oh-claire", 12, tmp_path_factory.mktemp("oh-claire"))
    assert got == truth


def test_the_michigan_round_read_by_the_model_equals_the_ground_truth(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    truth, got, _ = watched("michigan-rummy", 11, tmp_path_factory.mktemp("michigan-rummy"))
    assert got == truth


def test_the_great_lakes_round_read_by_the_model_equals_the_ground_truth(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Cy's dump (7♦ 4♠ 5♣ 8♥ on Bob's 6♦, a straight, GL-4) is read as its top card by the
    whole-card reader and whole by the second look; Dee's Q♠ shown last is read by the
    second look alone (the reader never reads it)."""
    truth, got, _ = watched("great-lakes", 12, tmp_path_factory.mktemp("great-lakes"))
    assert got == truth
