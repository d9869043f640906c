"""Great Lakes at a 5-seat table: cards laid together (a Full House Dump or a 5-Card Straight,
GL-3/GL-4) become one multi-card play with the next-in-sequence card first, and the revealed
hands at round end one reveal each, even while a hand still covers some of the cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from log_helpers import normalise

from calibration.calibrate import calibrate
from companion.events import read_log
from vision.pipeline.table import TablePipeline
from vision.render.demo import RenderedSource, simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.render.truth import TruthDetector

PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve")


@pytest.mark.parametrize("seed", [12])
def test_multi_card_moves_at_five_seats(tmp_path: Path, seed: int) -> None:
    events = simulated_round("great-lakes", PLAYERS, seed=seed)
    multi = [e for e in events if e["event"] == "play" and "cards" in e]
    assert len(multi) >= 2
    video = TableVideo(events, RenderConfig(seed=seed))
    source = RenderedSource(video)
    profile = calibrate([video.render(0.0).image] * 3, "great-lakes", len(PLAYERS))
    pipe = TablePipeline(profile, TruthDetector(source, jitter=1.0, drop=0.1, seed=seed), None,
                         tmp_path / "g.jsonl", script=video.truth.script)
    pipe.run(source)
    pipe.finish()
    got = [dict(e.data) for e in read_log(tmp_path / "g.jsonl").events]
    assert normalise(got) == normalise(events)
    assert not pipe.pending
    # the next-in-sequence card leads each multi-card play (GL-3)
    got_multi = [e for e in got if e["event"] == "play" and "cards" in e]
    assert [e["cards"][0] for e in got_multi] == [e["cards"][0] for e in multi]
