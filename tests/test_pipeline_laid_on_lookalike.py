"""A card laid on the player's own earlier lookalike, where the play breaks a rule: the demo's
round (Michigan, seed 1, bots that sometimes break a rule), read with the shipped models as
`companion watch` reads a video, nobody answering.

Ann leads 9♥ while she holds 6♥ (the bot's mistake), plays more cards on her pile, then lays
6♥, her last card, where the 9♥ first lay. The 6♥ would break a rule (it shows the earlier
lead illegal), so the table asks, and offers "6♥, not 9♥ before" (the 9♥ misread) among the
answers. The camera reading 6♥ on that spot again and again cannot tell a card laid on the
9♥ from the 9♥ read again: the question stays for the person. Taken for the 9♥ read again,
the 9♥ was corrected to 6♥ in silence, the illegal lead unflagged and Ann's last card lost.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from companion.events import read_log
from vision.pipeline_cli import register_watch
from vision.readers.detector import default_model_path
from vision.render.plan import RenderConfig
from vision.render.table import render_video

pytestmark = pytest.mark.skipif(not default_model_path().exists(),
                                reason="models/cards.onnx is missing")


def test_a_card_laid_on_its_lookalike_is_asked_about_not_taken_for_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ui.demo import DemoTable

    events = DemoTable.simulated(seed=1).events
    end = next(i for i, e in enumerate(events) if i > 1 and e.get("event") == "round")
    events = events[:end]  # its first round
    plays = [(e["player"], e["card"]) for e in events if e.get("event") == "play"]
    assert ("Ann", "9H") in plays and plays[-1] == ("Ann", "6H")  # the round as described
    video = tmp_path / "table.mp4"
    render_video(events, video, RenderConfig(seed=1, fps=10.0))
    parser = argparse.ArgumentParser()
    register_watch(parser.add_subparsers())
    log = tmp_path / "watched.jsonl"
    args = parser.parse_args(["watch", str(video), "--script",
                              str(tmp_path / "table.script.jsonl"), "--log", str(log)])
    assert args.func(args) == 0
    logged = [e.data for e in read_log(log).events]
    nine = next(i for i, e in enumerate(logged) if e.get("card") == "9H")
    assert logged[nine]["player"] == "Ann"
    # The 9♥ stays as it was logged, and the 6♥ is asked about.
    assert not [e for e in logged if e.get("event") == "correct" and e.get("line") == nine + 1]
    assert "unconfirmed: Ann played 6♥?" in capsys.readouterr().err
