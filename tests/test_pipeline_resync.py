"""Events a person enters in the window go to the log beside the pipeline (the same log,
written by the window's session). The pipeline then reads the log again (`resync`): a new
round entered by hand starts the table afresh, as a round from the script does, and a play
entered by hand counts as played. Before, only the referee was rebuilt: the last round's
cards stayed "played this round", and the next round's first card played in both was held
as played twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.events import EventLog, apply_corrections, read_log
from vision.pipeline.table import TablePipeline

KEYS = ("event", "player", "card", "cards", "dealer")


def _moves(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(sorted(ev.get(k) or []) if k == "cards" else ev.get(k) for k in KEYS)
            for ev in events if ev.get("event") in ("play", "reveal", "round", "hand")]


@pytest.mark.parametrize("game", ["michigan-rummy", "oh-claire"])
def test_a_round_entered_beside_the_pipeline_starts_the_table_afresh(
        game: str, tmp_path: Path) -> None:
    """Two rendered rounds read by the renderer's truth; the second round's event is not in
    the script but written to the log as the window writes it, then `resync`: the two
    rounds are logged exactly, with no question."""
    from vision.render.demo import RenderedSource, simulated_round
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo
    from vision.render.truth import TruthDetector

    video = TableVideo(simulated_round(game, seed=2, max_rounds=2),
                       RenderConfig(width=160, height=120, seed=2, noise=0.0))
    source = RenderedSource(video)
    script = [dict(e) for e in video.truth.script]
    second = [e for e in script if e.get("event") in ("round", "hand")][1]
    script.remove(second)
    path = tmp_path / "g.jsonl"
    log = EventLog(path)
    pipe = TablePipeline(video.profile(), TruthDetector(source), None, log, script=script)
    entered = False
    while (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
        assert not pipe.pending
        if not entered and pipe.visual_count >= int(second["at"]) and not pipe.holding:
            log.append({k: v for k, v in second.items() if k != "at"})
            pipe.resync()
            entered = True
    assert entered and not pipe.flush().pending
    pipe.finish()
    events, _ = apply_corrections(read_log(path).events)
    assert _moves([e.data for e in events]) == _moves(video.truth.events)


def test_a_play_entered_beside_the_pipeline_counts_as_played(tmp_path: Path) -> None:
    """A play a person enters by hand is a card of this round for the table once it reads
    the log again: the card is known as played, by that player, on that line."""
    from vision.render.demo import RenderedSource, simulated_round
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo
    from vision.render.truth import TruthDetector

    events = simulated_round("michigan-rummy", seed=2)
    video = TableVideo(events, RenderConfig(width=160, height=120, seed=2, noise=0.0))
    path = tmp_path / "g.jsonl"
    log = EventLog(path)
    log.append(events[0])
    pipe = TablePipeline(video.profile(), TruthDetector(RenderedSource(video)), None, log)
    for ev in events[1:]:
        line = log.append(ev)
        if ev["event"] == "play":
            break
    pipe.resync()
    card = str(ev["card"])
    assert pipe._round_cards.get(card) == 1 and pipe._line_of[card][0] == line
    assert pipe.referee is not None and pipe.referee.expects() == frozenset({"play"})
    assert not read_log(path).errors


def test_a_correction_keeps_what_the_table_remembers_of_the_round(tmp_path: Path) -> None:
    """A correction notes the round's cards afresh from the log, and nothing else: where
    cards lay and which the camera glimpsed in a pile stay (before, every correction passed
    through the round's start and forgot them)."""
    from test_pipeline import SCRIPT, SETUP, ScriptedDetector, identity_profile
    from test_pipeline_questions import at, plays, run

    det = ScriptedDetector()
    path = tmp_path / "g.jsonl"
    pipe = TablePipeline(identity_profile(), det, SETUP, path, script=SCRIPT)
    run(pipe, det, [at(1, "2C")] * 8, 0.0)
    assert plays(path) == [("Bob", "2C")]
    line, _ = pipe._line_of["2C"]
    pipe._glimpsed["9H"] = {2}
    spot = pipe._spot_of.get("2C")
    assert spot is not None
    pipe._entered_at["5S"] = 0.5
    out: list[str] = []
    pipe._append({"event": "correct", "line": line,
                  "with": {"event": "play", "player": "Bob", "card": "2D"}}, out)
    assert plays(path) == [("Bob", "2D")] and pipe._round_cards == {"2D": 1}
    assert set(pipe._line_of) == {"2D"} and pipe._played_by == {"2D": 1}
    assert pipe._glimpsed == {"9H": {2}} and pipe._entered_at == {"5S": 0.5}
    assert "2C" not in pipe._spot_of  # (the card read wrong is let go of, as before)
    assert out == ["Correction: Bob played 2♦"]
