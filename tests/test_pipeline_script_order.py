"""People's events (the script: a new round, the dummy decision) keep table order with the
cards: they never overtake a play held for a person, they wait for its answer and are logged
after it. The game is the window's demo: two rounds, bots' deliberate mistakes, rendered and
read by the renderer's truth reader; Ann's 6♥ breaks a rule, so it is held (issue 18)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.events import EventLog, read_log
from companion.referee import find_simulator, replay
from vision.pipeline.table import TablePipeline

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
KEYS = ("event", "player", "card", "cards", "dealer", "action")


@pytest.fixture(scope="module")
def game() -> list[dict[str, Any]]:
    """The window's demo game (`DemoTable.simulated`'s defaults)."""
    return find_simulator("michigan-rummy")(players=PLAYERS, rounds=2, seed=1, hidden=True,
                                            mistakes=0.08, chips=50, game="michigan-rummy")


def moves(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The events as the table sees them (no times, confidences, chips; a hand's cards in
    any order)."""
    return [tuple(sorted(ev[k]) if k == "cards" and ev.get("event") == "reveal" else ev.get(k)
                  for k in KEYS) for ev in events
            if ev.get("event") in ("play", "reveal", "round", "dummy")]


def logged(path: Path) -> list[dict[str, Any]]:
    return [dict(e.data) for e in read_log(path).events]


def rounds(path: Path) -> int:
    return sum(1 for ev in logged(path) if ev["event"] == "round")


def played(game: list[dict[str, Any]], tmp_path: Path) -> TablePipeline:
    """The rendered game through the pipeline, every frame, nobody answering."""
    from vision.render.demo import RenderedSource
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo
    from vision.render.truth import TruthDetector

    video = TableVideo(game, RenderConfig(width=160, height=120, seed=1, noise=0.0))
    source = RenderedSource(video)
    pipe = TablePipeline(video.profile(), TruthDetector(source), None, tmp_path / "g.jsonl",
                         script=video.truth.script)
    assert [ev["event"] for ev in pipe.script] == ["round", "dummy", "round", "dummy"]
    while (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
    return pipe


def test_the_script_waits_behind_a_held_play_and_follows_its_answer(
        game: list[dict[str, Any]], tmp_path: Path) -> None:
    """The video ends while Ann's 6♥ is held: round 1's last plays and all of round 2 wait
    behind it, and so do round 2's round and dummy events. Confirmed as read (and the two
    rule-breaking plays after it), everything is logged in table order: the whole game, the
    violations in it, nothing refused."""
    pipe = played(game, tmp_path)
    [held] = pipe.flush().pending
    assert held.question == "Ann played 6♥?" and held.reason == "it would break a rule"
    assert rounds(tmp_path / "g.jsonl") == 1 and pipe.errors == []
    asked = []
    while held is not None:
        asked.append(held.event["card"])
        pipe.confirm(held.id)
        held = next(iter(pipe.flush().pending), None)
        assert pipe.errors == []
    assert asked == ["6H", "KD", "JC"]
    assert moves(logged(tmp_path / "g.jsonl")) == moves(game)
    ref = replay(read_log(tmp_path / "g.jsonl").events)
    assert not ref.errors and ref.referee is not None and ref.referee.violations


def test_finish_never_logs_the_script_ahead_of_a_held_play(
        game: list[dict[str, Any]], tmp_path: Path) -> None:
    """Finishing while a play is held leaves it asked, and the events people entered after
    it unlogged (they were logged past it, and refused: 'round 1 is not finished')."""
    pipe = played(game, tmp_path)
    pipe.finish()
    assert len(pipe.pending) == 1
    assert pipe.errors == []
    assert rounds(tmp_path / "g.jsonl") == 1
    assert not replay(read_log(tmp_path / "g.jsonl").events).errors


def test_the_demo_feed_goes_on_until_the_held_play_is_answered(
        game: list[dict[str, Any]], tmp_path: Path) -> None:
    """The window's rendered demo feed: while a play is held it does not deal the next
    round (the video's clock stands still, once saying why), nor log round 2 past the held play,
    nor say it is done; once a person confirms the play as read, its next ticks log the rest
    of the game in order, and then it is done."""
    from ui.rendered import RenderedDemoFeed

    log = EventLog(tmp_path / "g.jsonl")
    log.append(game[0])
    feed = RenderedDemoFeed(game, log, seed=1, interval_ms=1, detector="truth",
                            size=(160, 120))
    ticks = 0
    answered: list[int] = []
    held: list[tuple[Any, ...]] = []
    waits: list[float] = []
    notes: list[str] = []
    while True:
        t, waiting = feed.t, feed.waits_for_answer()
        step = 1.0 / feed.video.config.fps
        deal_next = any(m.clears_before and t < m.t0 <= t + step for m in feed.video.truth.moves)
        # Nothing held, nothing waiting behind what is held and no move still gathering its
        # cards when the next round is dealt.
        busy = feed.pipeline.holding
        tick = feed.tick()
        assert not (deal_next and busy and feed.t != t)
        ticks += 1
        assert ticks < 5000
        notes.extend(tick.notes)
        if tick.pending is not None:
            held = tick.pending
        if tick.done:
            break
        if waiting:
            assert feed.t == t  # the table waits: the video stands still
            waits.append(t)
        # A person answers once the table has waited three ticks (or the video is over).
        if held and (waits[-3:] == [feed.t] * 3 or feed.t > feed.video.duration):
            assert feed.pipeline.errors == []
            assert rounds(log.path) == (1 if not answered else 2)
            pid, _question, event = held[0][:3]
            assert pid not in answered  # answered once, never asked again
            answered.append(pid)
            seen = feed.answer(pid, event)  # "Yes, log it": the play as read
            assert [s.event.get("card") for s in seen] == [event["card"]]
            held = held[1:]
    assert feed.pipeline.errors == []
    assert moves(logged(log.path)) == moves(game)  # nothing lost behind the questions
    assert len(answered) == 3
    # Round 1's held play was answered before round 2 was dealt, at one moment of the video.
    assert waits and len(set(waits)) == 1 and waits[0] < feed.video.duration
    assert notes.count("The next round is dealt once the question is answered.") == 1
    log.close()
