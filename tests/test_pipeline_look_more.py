"""The second look where the table reader sees less than was laid (issue 14): a Great Lakes
dump laid as a spread, read as its top card only, and a hand shown at the round's end that
the reader does not see at all (its pile changed picture with no new card read there).
Rendered Great Lakes round (seed 12: Cy dumps four cards at once, Dee shows a single card
last), with the renderer's truth as both readers, spoiled on purpose."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_pipeline_second_look import Look, SeesTopCardOnly, play_through

from companion.cards import CARD_CODES
from companion.events import read_log
from vision.detections import Detections
from vision.pipeline.table import TablePipeline
from vision.render.demo import RenderedSource, simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.render.truth import TruthDetector


def _round(tmp_path: Path, hidden: Collection[str] = (), wrong: dict[str, str] | None = None,
           missed: Collection[str] = (), unsure: Collection[str] = (), wrong_from: float = 0.0,
           seed: int = 12, reader: Callable[[TruthDetector], Any] | None = None
           ) -> tuple[TablePipeline, list[str], list[dict[str, Any]], list[dict[str, Any]]]:
    """(pipeline, notes, logged card events, true card events) of the round (Great Lakes,
    ``seed``) read by a reader that never sees ``hidden`` (or by ``reader`` of the truth),
    looked at again by one that misreads ``wrong`` (from the table time ``wrong_from`` on),
    does not see ``missed`` and is unsure of ``unsure``."""
    video = TableVideo(simulated_round("great-lakes", seed=seed),
                       RenderConfig(width=320, height=240, seed=seed, noise=0.0))
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth, wrong=wrong, missed=missed, unsure=unsure, wrong_from=wrong_from)
    table = reader(truth) if reader is not None else SeesTopCardOnly(truth, hidden)
    pipe = TablePipeline(video.profile(), table, None, tmp_path / "g.jsonl",
                         script=video.truth.script, second_look=look)
    look.clock = pipe
    notes = play_through(pipe, source)
    logged = [_plain(e.data) for e in read_log(tmp_path / "g.jsonl").events
              if e.kind in ("play", "reveal")]
    return pipe, notes, logged, [_plain(e) for e in video.truth.visual]


def _plain(event: Any) -> dict[str, Any]:
    """Who laid which cards: a dump's next-in-sequence card first, then the rest in any
    order (GL-3); a hand shown in any order."""
    out = {k: event[k] for k in ("event", "player", "card") if k in event}
    if "cards" in event:
        cards = list(event["cards"])
        out["cards"] = (sorted(cards) if event["event"] == "reveal"
                        else [cards[0], *sorted(cards[1:])])
    return out


def _dump(true: list[dict[str, Any]]) -> dict[str, Any]:
    [dump] = [e for e in true if len(e.get("cards", ())) == 4 and e["event"] == "play"]
    return dump


def _hidden_of_dump() -> list[str]:
    """The dump's cards the spread covers (all but its top card, the last laid)."""
    video = TableVideo(simulated_round("great-lakes", seed=12), RenderConfig(seed=12))
    [dump] = [e for e in video.truth.visual if len(e.get("cards", ())) == 4]
    return list(dump["cards"][:-1])


def test_a_dump_read_as_its_top_card_is_read_whole_by_the_second_look(tmp_path: Path) -> None:
    pipe, notes, logged, true = _round(tmp_path, _hidden_of_dump())
    dump = _dump(true)
    assert dump in logged
    assert logged == true and not pipe.pending
    assert any(n.startswith(f"read again: {dump['player']} plays") for n in notes)


@pytest.mark.parametrize("spoil", ["misses", "misreads"])
def test_a_look_that_does_not_make_a_legal_dump_logs_no_dump(tmp_path: Path,
                                                             spoil: str) -> None:
    """One covered card not read again, or read as another card: no four-card move is made
    up and logged (the move a card short is asked about:
    `test_a_dump_the_look_reads_a_card_short_is_asked_with_the_cards_that_would_complete_it`)."""
    covered = _hidden_of_dump()
    spoilt = covered[1]
    _pipe, notes, logged, true = _round(
        tmp_path, covered, missed=[spoilt] if spoil == "misses" else (),
        wrong={spoilt: "KS"} if spoil == "misreads" else None)
    dump = _dump(true)
    assert not any(len(e.get("cards", ())) == 4 for e in logged if e["event"] == "play")
    assert not any(n.startswith(f"read again: {dump['player']} plays") for n in notes)


def test_a_dump_the_look_reads_a_card_short_is_asked_with_the_cards_that_would_complete_it(
        tmp_path: Path) -> None:
    """Great Lakes 901 on the held-out tigullio deck: Cy's dump 10♥ 8♣ J♣ Q♣ read as his Q♣
    alone, the look reading 10♥ and 8♣ beside it but never J♣, was logged as a lead only
    hidden hands excuse, and the dump lost in silence. Here the table reader sees the dump's
    top card only and the look misses its 4♠: the top card alone is no move the table takes
    cleanly, so the dumps its three cards make with any card not played yet are asked
    about, the true one among them and the top card alone last; nothing is logged."""
    covered = _hidden_of_dump()
    assert "4S" in covered
    pipe, _notes, logged, true = _round(tmp_path, covered, missed=["4S"])
    dump = _dump(true)
    [held] = [h for h in pipe.pending.values() if h.event.get("player") == dump["player"]]
    assert held.question.startswith(f"{dump['player']} played")
    answers = [_plain(a.events[-1]) for a in held.options if a.events]
    assert dump in answers
    assert all(len(a["cards"]) == 4 and {*dump["cards"]} - {"4S"} <= {*a["cards"]}
               for a in answers[:-1])
    top = next(c for c in dump["cards"] if c not in covered)
    assert answers[-1] == {"event": "play", "player": dump["player"], "card": top}
    assert not any(e.get("player") == dump["player"] and top in (e.get("card"), *e.get(
        "cards", ())) for e in logged)


def _last_shown(true: list[dict[str, Any]]) -> dict[str, Any]:
    return [e for e in true if e["event"] == "reveal"][-1]


def test_a_hand_shown_that_the_reader_never_sees_is_read_by_the_second_look(
        tmp_path: Path) -> None:
    video = TableVideo(simulated_round("great-lakes", seed=12), RenderConfig(seed=12))
    last = _last_shown([dict(e) for e in video.truth.visual])
    pipe, notes, logged, true = _round(tmp_path, [*_hidden_of_dump(), *last["cards"]])
    assert logged == true and not pipe.pending
    # Dee's pile changed picture with no new card read there: the second look read it.
    assert any(n.startswith("read again: ") and n.endswith(f"in {last['player']}'s pile")
               for n in notes)


def test_a_hand_shown_read_as_a_card_played_is_not_logged(tmp_path: Path) -> None:
    video = TableVideo(simulated_round("great-lakes", seed=12), RenderConfig(seed=12))
    true = [dict(e) for e in video.truth.visual]
    last = _last_shown(true)
    played = next(e["card"] for e in true if e["event"] == "play")
    _pipe, _notes, logged, _true = _round(tmp_path, [*_hidden_of_dump(), *last["cards"]],
                                          wrong={c: played for c in last["cards"]})
    assert not any(e["event"] == "reveal" and e["player"] == last["player"] for e in logged)


def test_a_dump_card_the_look_is_unsure_of_is_asked_not_logged(tmp_path: Path) -> None:
    """A covered card of the dump read once, unsure, as its lookalike of another suit (4♣
    for 4♠): a dump takes any suit, so the table would accept it and nothing could catch it
    later. The dump is put to people, the move as read first, the true one among the
    answers; nothing is logged in silence."""
    covered = _hidden_of_dump()
    assert "4S" in covered
    pipe, _notes, logged, true = _round(tmp_path, covered, wrong={"4S": "4C"}, unsure=["4C"])
    dump = _dump(true)
    assert not any(e.get("player") == dump["player"] and len(e.get("cards", ())) == 4
                   for e in logged)
    [held] = [h for h in pipe.pending.values() if len(h.event.get("cards", ())) == 4]
    assert "4C" in held.event["cards"] and held.question.startswith(f"{dump['player']} played")
    answers = [_plain(a.events[-1]) for a in held.options if a.events]
    assert answers[0] == _plain(held.event) and dump in answers


def test_a_dump_card_read_again_where_it_lies_is_not_a_card_of_the_hand(
        tmp_path: Path) -> None:
    """Great Lakes, seed 106: Cy dumps 6♠ 2♣ 3♦ 4♣ and shows 3♠ 8♠ K♠ at the end. The table
    reader sees the dump's top card and two of his hand; the look misses his K♠ and, once
    the dump is logged, reads its 4♣ where it lies as 4♠. 3♠ 4♠ 8♠ is a hand the table
    would take: read on the spot where the look read the 4♣ when the dump was logged, and
    looking like it, the 4♠ is the 4♣ again, not a card shown. His hand stays a question."""
    true = [dict(e) for e in TableVideo(simulated_round("great-lakes", seed=106),
                                        RenderConfig(seed=106)).truth.visual]
    [dump] = [e for e in true if len(e.get("cards", ())) == 4 and e["player"] == "Cy"]
    [shown] = [e for e in true if e["event"] == "reveal" and e["player"] == "Cy"]
    assert "4C" in dump["cards"] and "KS" in shown["cards"] and "4S" not in shown["cards"]
    pipe, _notes, logged, _true = _round(
        tmp_path, [*dump["cards"][:-1], "KS"], wrong={"4C": "4S"}, missed=["KS"],
        wrong_from=dump["t_free"] + 1.0, seed=106)
    assert _plain(dump) in logged
    assert not any(e["event"] == "reveal" and e["player"] == dump["player"] for e in logged)
    assert any(h.event.get("player") == dump["player"] for h in pipe.pending.values())


class SeesTwice:
    """The table reader: reads everything, and reads each card of ``twice`` a second time,
    as another card, beside itself (a spread's index taken for a second card)."""

    def __init__(self, truth: TruthDetector, twice: dict[str, str], hidden: Collection[str] = (),
                 shift: float = 6.0) -> None:
        self.truth, self.twice, self.hidden, self.shift = truth, twice, set(hidden), shift

    def detect(self, frame: Any) -> Detections:
        dets = self.truth.detect(frame)
        keep = np.array([name not in self.hidden for name, _b, _s in dets], bool)
        dets = Detections(dets.xyxy[keep], dets.confidence[keep], dets.class_id[keep],
                          dets.names)
        move = np.array([self.shift, 0.0, self.shift, 0.0], np.float32)
        extra = [(box + move, score, CARD_CODES.index(self.twice[name]))
                 for name, box, score in dets if name in self.twice]
        if not extra:
            return dets
        return Detections(np.vstack([dets.xyxy, [e[0] for e in extra]]).astype(np.float32),
                          np.concatenate([dets.confidence, [e[1] for e in extra]]),
                          np.concatenate([dets.class_id, [e[2] for e in extra]]), dets.names)


def test_a_dump_read_as_more_cards_than_a_move_lays_is_asked_as_the_look_reads_it(
        tmp_path: Path) -> None:
    """The table reader reads two of the dump's cards twice, each also as another card: six
    cards, more than one move lays. The look's own reading of the pile is put to people,
    the true dump as the first answer; nothing of it is logged in silence."""
    dump = _dump([_plain(e) for e in TableVideo(simulated_round("great-lakes", seed=12),
                                                RenderConfig(seed=12)).truth.visual])
    twice = {dump["cards"][1]: "2H", dump["cards"][2]: "3H"}
    pipe, _notes, logged, _true = _round(tmp_path, reader=lambda t: SeesTwice(t, twice))
    assert not any(e.get("player") == dump["player"] and "cards" in e and e["event"] == "play"
                   for e in logged)
    [held] = [h for h in pipe.pending.values() if h.event.get("player") == dump["player"]
              and len(h.event.get("cards", ())) == 4]
    assert _plain(held.options[0].events[0]) == dump


def test_a_dump_with_one_of_its_cards_read_twice_is_read_whole_by_the_look(
        tmp_path: Path) -> None:
    """The dump's first card unseen and another read twice, at two spots (one deck: one
    card): three cards of four, not four. The look reads the rest and the dump is logged
    (Great Lakes seed 101 with the models: Dee's dump read as 9♦ J♠ 9♦, held, and her next
    three plays merged into it)."""
    video = TableVideo(simulated_round("great-lakes", seed=12), RenderConfig(seed=12))
    [laid] = [e for e in video.truth.visual if len(e.get("cards", ())) == 4]
    first, twice = laid["cards"][0], laid["cards"][1]
    _pipe, _notes, logged, true = _round(
        tmp_path, reader=lambda t: SeesTwice(t, {twice: twice}, hidden=[first], shift=30.0))
    assert _dump(true) in logged


class ReadsPhantomLater:
    """The table reader: never sees ``hidden``; from table time ``after`` on, also reads
    ``phantom`` at 0.56 on the box of the card ``on`` (another corner of it taken for
    another card)."""

    def __init__(self, truth: TruthDetector, hidden: Collection[str], on: str, phantom: str,
                 after: float) -> None:
        self.truth, self.hidden = truth, set(hidden)
        self.on, self.phantom, self.after = on, phantom, after

    def detect(self, frame: Any) -> Detections:
        dets = self.truth.detect(frame)
        last = self.truth.source.last
        boxes = [box for name, box, _s in dets if name == self.on]
        keep = np.array([name not in self.hidden for name, _b, _s in dets], bool)
        dets = Detections(dets.xyxy[keep], dets.confidence[keep], dets.class_id[keep],
                          dets.names)
        if last is None or last.t < self.after or not boxes:
            return dets
        return Detections(np.vstack([dets.xyxy, np.asarray(boxes[0])[None]]).astype(np.float32),
                          np.concatenate([dets.confidence, [0.56]]).astype(np.float32),
                          np.concatenate([dets.class_id, [CARD_CODES.index(self.phantom)]]),
                          dets.names)


def test_a_card_the_look_left_out_of_a_dump_read_there_after_it_is_asked_about(
        tmp_path: Path) -> None:
    """The table reader reads Cy's dump as its top card; the look reads the dump whole and a
    K♦ at 0.37 on one of its cards, left out of the dump it places. A moment after the dump
    came to rest (0.3 s) the table reader reads that K♦ there too (dondorf Great Lakes 1000:
    Ann's dump Q♥ 10♦ K♣ A♠, a K♦ read beside it by both readers and logged as her lead in
    silence). It lay there as the dump was laid: held for a person, never logged."""
    video = TableVideo(simulated_round("great-lakes", seed=12),
                       RenderConfig(width=320, height=240, seed=12, noise=0.0))
    [laid] = [e for e in video.truth.visual if len(e.get("cards", ())) == 4]
    dump = _plain(laid)
    assert "KD" not in [c for e in video.truth.visual for c in e.get("cards", [e.get("card")])]
    under = laid["cards"][1]
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth, phantom={under: "KD"})
    table = ReadsPhantomLater(truth, laid["cards"][:-1], under, "KD", laid["t_free"] + 0.3)
    pipe = TablePipeline(video.profile(), table, None, tmp_path / "g.jsonl",
                         script=video.truth.script, second_look=look)
    look.clock = pipe
    play_through(pipe, source)
    logged = [_plain(e.data) for e in read_log(tmp_path / "g.jsonl").events
              if e.kind in ("play", "reveal")]
    assert dump in logged
    assert not any(e.get("card") == "KD" for e in logged)
    assert any(h.event.get("card") == "KD" and "as it was laid" in h.reason
               for h in pipe.pending.values())


def test_a_play_placed_behind_a_question_is_not_joined_by_the_cards_laid_after_it(
        tmp_path: Path) -> None:
    """The cheap webcam's Great Lakes 2606: Cy's dump, its lower cards read unsurely, is
    asked about; his 2♠, 2♥ and K♣, laid a second apart meanwhile, wait behind the question.
    Answered three seconds on, the 2♠ is placed then: the second look, reading the pile as it
    lies now (the 2♥ and K♣ on it, and a 2♦ misread beside the 2♥), must not make one move of
    four of them. Each card is logged as the play it was."""
    video = TableVideo(simulated_round("great-lakes", seed=2606),
                       RenderConfig(width=320, height=240, seed=2606, noise=0.0))
    [dump] = [e for e in video.truth.visual if e["event"] == "play"
              and e["player"] == "Cy" and len(e.get("cards", ())) == 4]
    covered = list(dump["cards"][:-1])
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth, unsure=[covered[1]], phantom={"2H": "2D"})
    pipe = TablePipeline(video.profile(), SeesTopCardOnly(truth, covered), None,
                         tmp_path / "g.jsonl", script=video.truth.script, second_look=look)
    look.clock = pipe
    asked = []
    while (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
        for pid, held in list(pipe.pending.items()):
            if frame.t - held.asked < 3.0:
                continue
            asked.append(held.ask())
            [true] = [o for o in held.options
                      if o.events and _plain(o.events[0]) == _plain(dump)]
            pipe.answer(pid, [dict(e) for e in true.events])
    pipe.flush()
    assert len(asked) == 1 and asked[0].startswith("Cy played")
    logged = [_plain(e.data) for e in read_log(tmp_path / "g.jsonl").events
              if e.kind in ("play", "reveal")]
    assert logged == [_plain(e) for e in video.truth.visual] and not pipe.pending
    assert {"event": "play", "player": "Cy", "card": "2S"} in logged


def test_a_lead_out_of_turn_read_by_the_look_alone_is_asked_with_the_card_that_comes_next(
        tmp_path: Path) -> None:
    """Tigullio Boodle 2503: Dee's Q♦, laid after Bob's J♦, is never read by the table's
    reader; the second look reads it as 6♦ in every frame. Dee's 6♦ would be a lead only
    hidden hands excuse (after J♦ it is Bob's lead): it is asked, not logged, and the Q♦
    the sequence expects is an answer; clicked, the round is logged exactly."""
    video = TableVideo(simulated_round("boodle", seed=2503),
                       RenderConfig(width=320, height=240, seed=2503, noise=0.0))
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth, wrong={"QD": "6D"})
    path = tmp_path / "g.jsonl"
    pipe = TablePipeline(video.profile(), SeesTopCardOnly(truth, ["QD"]), None, path,
                         script=video.truth.script, second_look=look)
    look.clock = pipe
    while not pipe.pending and (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
    [held] = pipe.pending.values()
    assert held.ask() == ("Dee played 6♦? (read by a second look alone; after J♦ it is Bob's "
                          "lead)")
    assert not any(e.data.get("card") == "6D" for e in read_log(path).events)
    [qd] = [a for a in held.options if a.label == "Q♦"]
    pipe.answer(held.id, list(qd.events))
    while (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
    assert not pipe.flush().pending
    logged = [_plain(e.data) for e in read_log(path).events if e.kind in ("play", "reveal")]
    assert logged == [_plain(e) for e in video.truth.visual]


def test_a_dump_read_in_part_behind_a_question_is_read_by_the_look_as_it_was_laid(
        tmp_path: Path) -> None:
    """Tigullio Great Lakes 2601: Dee's dump 7♥ 4♦ 5♦ 8♥ is read as 7♥ 8♥ while a question
    about Bob's dump is open; her 2♦, laid a second later, covers the 4♦ and 5♦ when the
    question is answered and her reading is placed. The look read her pile as it lay when
    she laid the dump: the dump is logged whole, not two follows."""
    video = TableVideo(simulated_round("great-lakes", seed=2601),
                       RenderConfig(width=320, height=240, seed=2601, noise=0.0))
    bob, dee = ([e for e in video.truth.visual if e["event"] == "play"
                 and e["player"] == who and len(e.get("cards", ())) == 4][0]
                for who in ("Bob", "Dee"))
    source = RenderedSource(video)
    truth = TruthDetector(source)
    look = Look(truth, unsure=["JC"])  # (Bob's dump asked about)
    path = tmp_path / "g.jsonl"
    pipe = TablePipeline(video.profile(),
                         SeesTopCardOnly(truth, [*bob["cards"][:-1], "4D", "5D"]), None, path,
                         script=video.truth.script, second_look=look)
    look.clock = pipe
    asked = []
    while (frame := source.read()) is not None and frame.t < 14.0:
        pipe.process(frame.image, frame.t, frame.index)
        for pid, held in list(pipe.pending.items()):
            if frame.t - held.asked >= 3.0:
                asked.append(held.ask())
                [true] = [o for o in held.options
                          if o.events and _plain(o.events[0]) == _plain(bob)]
                pipe.answer(pid, [dict(e) for e in true.events])
    assert [a.split("?")[0] for a in asked] == ["Bob played K♣ A♣ J♣ 10♥"]
    logged = [_plain(e.data) for e in read_log(path).events if e.kind == "play"]
    assert _plain(dee) in logged and not pipe.pending
    assert logged[logged.index(_plain(dee)) + 1] == {"event": "play", "player": "Dee",
                                                     "card": "2D"}
