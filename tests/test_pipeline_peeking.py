"""A card under a pile, its corner peeking out, read as its lookalike as the next card of
that pile lands (Great Lakes 701 on the held-out tigullio deck: Bob's A♠ read with a 5♣ on
the very spot of his 5♠, covered since). An Ace ends its sequence, so the A♠ and a 5♣ led
after it is a move the rules allow: it was logged in silence. Rendered Great Lakes round
(seed 12: Ann's 8♣, then her Q♥, then her A♥ on Cy's K♥, then her 2♣), read by the
renderer's truth, spoilt on purpose."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from test_pipeline_second_look import Look, play_through

from companion.cards import CARD_CODES
from companion.events import read_log
from vision.detections import Detections
from vision.pipeline.table import TablePipeline
from vision.render.demo import RenderedSource, simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.render.truth import TruthDetector


class PeeksAs:
    """The table reader: reads the truth, and while ``when`` shows and ``until`` does not,
    also reads ``as_`` where ``under`` was last read (its corner peeking out)."""

    def __init__(self, truth: TruthDetector, when: str, under: str, as_: str,
                 until: str) -> None:
        self.truth, self.when, self.under, self.as_, self.until = truth, when, under, as_, until
        self.box: np.ndarray | None = None

    def detect(self, frame: np.ndarray) -> Detections:
        dets = self.truth.detect(frame)
        names = [name for name, _b, _s in dets]
        if self.under in names:
            self.box = dets.xyxy[names.index(self.under)].copy()
        if self.box is None or self.when not in names or self.until in names:
            return dets
        return Detections(np.vstack([dets.xyxy, self.box[None]]).astype(np.float32),
                          np.append(dets.confidence, 0.9).astype(np.float32),
                          np.append(dets.class_id, CARD_CODES.index(self.as_)), dets.names)


def test_a_card_read_with_a_move_where_its_lookalike_lies_in_that_pile_is_asked(
        tmp_path: Path) -> None:
    video = TableVideo(simulated_round("great-lakes", seed=12),
                       RenderConfig(width=320, height=240, seed=12, noise=0.0))
    plays = [(e["player"], e.get("card")) for e in video.truth.visual if e["event"] == "play"]
    assert ("Ann", "8C") in plays and ("Ann", "AH") in plays and ("Ann", "2C") in plays
    assert "8S" not in {c for _p, c in plays}
    source = RenderedSource(video)
    truth = TruthDetector(source)
    pipe = TablePipeline(video.profile(), PeeksAs(truth, "AH", "8C", "8S", until="2C"), None,
                         tmp_path / "g.jsonl", script=video.truth.script,
                         second_look=Look(truth))
    play_through(pipe, source)
    logged = [e.data for e in read_log(tmp_path / "g.jsonl").events if e.kind == "play"]
    assert not any("8S" in e.get("cards", ()) for e in logged)
    [held] = [h for h in pipe.pending.values() if "8S" in h.observation.cards]
    assert held.question == "Ann played A♥ 8♠?"
    first = held.options[0]
    assert [{k: e[k] for k in ("event", "player", "card")} for e in first.events] == [
        {"event": "play", "player": "Ann", "card": "AH"}]
    assert "8♠ was 8♣ misread" in first.label
    # Answered so, Ann's A♥ is logged alone and the round goes on as played.
    pipe.answer(held.id, first.events)
    pipe.flush()
    logged = [e.data for e in read_log(tmp_path / "g.jsonl").events if e.kind == "play"]
    assert any(e.get("card") == "AH" and e["player"] == "Ann" for e in logged)
    assert not any("8S" in (e.get("card"), *e.get("cards", ())) for e in logged)
