"""A hand shown on a deck the reader does not know (`DeckCheck.deck_known` false) is held
for a person where a card of it reads below `UNKNOWN_DECK_REVEAL_BELOW`: a hand shown has few
rules to catch a misread card, and it pays chips."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_pipeline_second_look import Look, SeesTopCardOnly, play_through

from companion.cards import CARD_CODES, Card
from companion.events import apply_corrections, read_log
from companion.referee import replay
from vision.detections import Detections
from vision.pipeline.questions import UNKNOWN_DECK_REVEAL_BELOW, UNSEEN_LOOK_BELOW
from vision.pipeline.table import TablePipeline
from vision.render.demo import RenderedSource, simulated_round
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo
from vision.render.truth import TruthDetector
from vision.zones import ZoneReader

#: Pressman 807's hands shown at the end: Ann's A♣ J♥, Bob's Q♥, Cy's 4♥ (none played).
SHOWN = {"AC", "JH", "QH", "4H"}


class Unsure:
    """The renderer's truth, read less surely on the cards of the hands shown; says whether
    it knows the deck as a deck check does."""

    def __init__(self, source: RenderedSource, known: bool) -> None:
        self.truth = TruthDetector(source)
        self.deck_known = known

    def detect(self, frame: np.ndarray) -> Detections:
        dets = self.truth.detect(frame)
        scores = np.array([min(float(s), UNKNOWN_DECK_REVEAL_BELOW - 0.1) if name in SHOWN
                           else float(s) for name, _b, s in dets], np.float32)
        return Detections(dets.xyxy, scores, dets.class_id, dets.names)


def _round(tmp_path: Path, known: bool) -> tuple[int, list[dict[str, Any]], Path]:
    """The round played out, each hand held confirmed as read: (hands held, the truth's
    visual events, the log's path)."""
    video = TableVideo(simulated_round("pressman", seed=807),
                       RenderConfig(width=160, height=120, seed=807, noise=0.0))
    source = RenderedSource(video)
    path = tmp_path / "g.jsonl"
    pipe = TablePipeline(video.profile(), Unsure(source, known), None, path,
                         script=video.truth.script)
    held_hands = 0
    while (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
        for pid, held in list(pipe.pending.items()):
            assert held.event.get("event") == "reveal", held.describe()
            assert known is False and "deck new to the reader" in held.reason
            pipe.confirm(pid)  # a person sees the hand as read
            held_hands += 1
    assert not pipe.flush().pending
    return held_hands, video.truth.visual, path


def _shown(path: Path) -> list[tuple[str, list[str]]]:
    events, _ = apply_corrections(read_log(path).events)
    return sorted((str(e.get("player")), sorted(e.get("cards") or []))
                  for e in events if e.kind == "reveal")


def test_a_hand_shown_read_unsurely_on_a_deck_new_to_the_reader_is_held(tmp_path: Path
                                                                        ) -> None:
    held, visual, path = _round(tmp_path / "new", known=False)
    assert held == 3
    truth = sorted((str(e["player"]), sorted(e["cards"])) for e in visual
                   if e["event"] == "reveal")
    assert _shown(path) == truth and not replay(read_log(path)).errors
    # The same readings on a deck the reader knows are logged as read, nothing asked.
    held, _visual, path = _round(tmp_path / "known", known=True)
    assert held == 0 and _shown(path) == truth


def test_a_zone_reader_says_whether_its_detector_knows_the_deck() -> None:
    class Knows:
        names = ("2C",)
        deck_known = False

    class Silent:
        names = ("2C",)

    assert ZoneReader(Knows()).deck_known is False  # type: ignore[arg-type]
    assert ZoneReader(Silent()).deck_known is True  # type: ignore[arg-type]


def test_a_hand_the_second_look_reads_unsurely_on_a_deck_new_to_the_reader_is_offered(
        tmp_path: Path) -> None:
    """Michigan 11: Dee shows five cards as a spread, the table reader sees the top card
    alone, read unsurely, and the second look reads all five. On a deck the reader knows the
    look's hand is logged, and so on a deck new to it where the look reads every card surely;
    where it reads one unsurely there (tigullio, Pressman 102: Dee's K♣ read by the look as
    2♠ at 0.46), its hand is offered first, for a person."""
    for known, unsure in ((True, True), (False, False), (False, True)):
        video, dee, source, truth = _michigan_11()
        look = Look(truth, unsure=dee[1:2] if unsure else ())
        path = tmp_path / f"{known}-{unsure}.jsonl"
        pipe = TablePipeline(video.profile(), TopCardUnsurely(truth, dee, known), None, path,
                             script=video.truth.script, second_look=look)
        look.clock = pipe
        play_through(pipe, source)
        logged = [sorted(e.data["cards"]) for e in read_log(path).events
                  if e.kind == "reveal" and e.data["player"] == "Dee"]
        if known or not unsure:
            assert logged == [sorted(dee)]
            continue
        assert not logged
        [held] = [h for h in pipe.pending.values() if h.event.get("player") == "Dee"]
        assert held.reason == "Dee holds 5 cards, the reveal shows 1"
        first = held.options[0]
        assert [sorted(e["cards"]) for e in first.events] == [sorted(dee)]
        pipe.answer(held.id, list(first.events))
        assert [sorted(e.data["cards"]) for e in read_log(path).events
                if e.kind == "reveal" and e.data["player"] == "Dee"] == [sorted(dee)]


def _michigan_11() -> tuple[TableVideo, list[str], RenderedSource, TruthDetector]:
    """Michigan 11 rendered (Dee shows five cards at the end): the video, Dee's hand shown,
    its frame source and the renderer's truth on it."""
    video = TableVideo(simulated_round("michigan-rummy", seed=11),
                       RenderConfig(width=320, height=240, seed=11, noise=0.0))
    dee = next(list(e["cards"]) for e in video.truth.visual
               if e["event"] == "reveal" and e["player"] == "Dee")
    source = RenderedSource(video)
    return video, dee, source, TruthDetector(source)


class TopCardUnsurely:
    """The table reader of Michigan 11: sees Dee's top card alone of her hand (the others
    lie under it), read at ``score``; says whether it knows the deck."""

    def __init__(self, truth: TruthDetector, dee: list[str], known: bool,
                 score: float = 0.6) -> None:
        self.top = SeesTopCardOnly(truth, dee[:-1])
        self.dee = set(dee)
        self.deck_known = known
        self.score = score

    def detect(self, frame: np.ndarray) -> Detections:
        dets = self.top.detect(frame)
        scores = np.array([self.score if name in self.dee else float(s)
                           for name, _b, s in dets], np.float32)
        return Detections(dets.xyxy, scores, dets.class_id, dets.names)


def test_a_whole_hand_held_as_unsure_is_settled_by_the_look_only_as_read(
        tmp_path: Path) -> None:
    """Pressman 807's hands shown, each read whole at 0.6 on a deck new to the reader, so
    held. A second look that reads Ann's hand as read, surely, settles it (logged, nobody
    asked); one that reads her J♥ surely as another card offers that hand and logs nothing
    over the first reading (dondorf, Boodle 908: Bob's 10♣ Q♣, read by the look as 8♣ Q♣,
    was logged so)."""
    video = TableVideo(simulated_round("pressman", seed=807),
                       RenderConfig(width=160, height=120, seed=807, noise=0.0))
    seen = {c for e in video.truth.visual for c in [e.get("card"), *(e.get("cards") or [])]}
    other = next(c for c in CARD_CODES if c not in seen)  # a card nobody shows or plays
    for wrong in ({}, {"JH": other}):
        source = RenderedSource(video)
        truth = TruthDetector(source)
        look = Look(truth, wrong=wrong)
        path = tmp_path / f"{bool(wrong)}.jsonl"
        pipe = TablePipeline(video.profile(), Unsure(source, False), None, path,
                             script=video.truth.script, second_look=look)
        look.clock = pipe
        play_through(pipe, source)
        ann = [sorted(e.data["cards"]) for e in read_log(path).events
               if e.kind == "reveal" and e.data["player"] == "Ann"]
        if not wrong:
            assert ann == [["AC", "JH"]]
            continue
        assert not ann
        [held] = [h for h in pipe.pending.values() if h.event.get("player") == "Ann"]
        assert sorted(held.event["cards"]) == ["AC", "JH"]
        assert [sorted(e["cards"]) for e in held.options[0].events] == [sorted(["AC", other])]


def test_a_card_first_read_surely_stands_beside_the_looks_sure_cards(tmp_path: Path) -> None:
    """Michigan 11 on a deck new to the reader: Dee's top card read surely (0.9) by the
    table reader and missed by the second look, which reads her four others surely: the
    hand is logged, her top card standing as first read."""
    video, dee, source, truth = _michigan_11()
    look = Look(truth, missed=dee[-1:])
    path = tmp_path / "g.jsonl"
    pipe = TablePipeline(video.profile(), TopCardUnsurely(truth, dee, False, 0.9), None, path,
                         script=video.truth.script, second_look=look)
    look.clock = pipe
    play_through(pipe, source)
    assert [sorted(e.data["cards"]) for e in read_log(path).events
            if e.kind == "reveal" and e.data["player"] == "Dee"] == [sorted(dee)]


class Misread:
    """The renderer's truth, reading ``card`` as ``as_`` with the score ``score``, on a deck
    it does not know."""

    def __init__(self, source: RenderedSource, card: str, as_: str, score: float) -> None:
        self.truth = TruthDetector(source)
        self.card, self.as_, self.score = card, as_, score
        self.deck_known = False

    def detect(self, frame: np.ndarray) -> Detections:
        dets = self.truth.detect(frame)
        names = [self.as_ if name == self.card else name for name, _b, _s in dets]
        scores = np.array([self.score if name == self.card else float(s)
                           for name, _b, s in dets], np.float32)
        return Detections(dets.xyxy, scores, np.array([CARD_CODES.index(n) for n in names]),
                          dets.names)


@pytest.mark.parametrize("score", [UNKNOWN_DECK_REVEAL_BELOW - 0.1, 0.9])
def test_a_play_read_unsurely_as_the_next_cards_rank_in_another_suit_is_asked(
        tmp_path: Path, score: float) -> None:
    """Great Lakes 1005 on the held-out tigullio deck: Cy's K♣ after Bob's Q♣ read as K♥ at
    0.57 and logged as a lead out of turn (a lead only hidden hands excuse), the K♣ lost in
    silence. Here Pressman 807: Dee's 9♦ after Bob's 8♦ read as 9♣. On a deck new to the
    reader, read below 0.7, it is asked, the card that comes next among the answers; read
    surely, it is logged as read."""
    as_ = "9C"
    video = TableVideo(simulated_round("pressman", seed=807),
                       RenderConfig(width=160, height=120, seed=807, noise=0.0))
    plays = [(e["player"], e.get("card")) for e in video.truth.visual if e["event"] == "play"]
    at = plays.index(("Dee", "9D"))
    assert plays[at - 1] == ("Bob", "8D") and as_ not in {c for _p, c in plays[:at]}
    source = RenderedSource(video)
    pipe = TablePipeline(video.profile(), Misread(source, "9D", as_, score), None,
                         tmp_path / "g.jsonl", script=video.truth.script)
    while (frame := source.read()) is not None and not pipe.pending and frame.t < 60:
        pipe.process(frame.image, frame.t, frame.index)
        if score >= UNKNOWN_DECK_REVEAL_BELOW and ("Dee", as_) in _logged(pipe):
            return
    [held] = pipe.pending.values()
    assert held.event["card"] == as_ and "deck new to the reader" in held.reason
    assert held.question == f"Dee played {Card.parse(as_).pretty()}?"
    assert score < UNKNOWN_DECK_REVEAL_BELOW
    [nine] = [a for a in held.options if a.label == "9♦"]
    assert held.options[0].label == Card.parse(as_).pretty()
    pipe.answer(held.id, nine.events)
    assert _logged(pipe) == plays[:at + 1]


def _logged(pipe: TablePipeline) -> list[tuple[str, str | None]]:
    return [(e.data["player"], e.data.get("card")) for e in read_log(pipe.log.path).events
            if e.kind == "play"]


@pytest.mark.parametrize(("score", "look_sees", "known", "held"), [
    (UNSEEN_LOOK_BELOW - 0.05, False, False, True),
    (UNSEEN_LOOK_BELOW - 0.05, True, False, False),
    (UNSEEN_LOOK_BELOW + 0.05, False, False, False),
    (UNSEEN_LOOK_BELOW - 0.05, False, True, False),
])
def test_a_play_read_unsurely_that_the_second_look_does_not_see_is_asked(
        tmp_path: Path, score: float, look_sees: bool, known: bool, held: bool) -> None:
    """Tigullio Great Lakes 1008: the first card of Cy's hand shown, 9♥, read alone as 7♥
    at 0.52 and logged as his play; the second look read 9♥ 9♣ 8♣ 4♠ there, no 7♥. Here
    Pressman 807: Dee's 9♦ read at ``score``. On a deck new to the reader, read below
    `UNSEEN_LOOK_BELOW` and not read by the second look in that frame, it is asked; read
    by the look too, read surely, or on a deck the reader knows, it is logged."""
    video = TableVideo(simulated_round("pressman", seed=807),
                       RenderConfig(width=160, height=120, seed=807, noise=0.0))
    plays = [(e["player"], e.get("card")) for e in video.truth.visual if e["event"] == "play"]
    at = plays.index(("Dee", "9D"))
    source = RenderedSource(video)
    reader = Misread(source, "9D", "9D", score)
    reader.deck_known = known
    look = Look(TruthDetector(source), missed=() if look_sees else ("9D",))
    pipe = TablePipeline(video.profile(), reader, None, tmp_path / "g.jsonl",
                         script=video.truth.script, second_look=look)
    look.clock = pipe
    while (frame := source.read()) is not None and not pipe.pending \
            and len(_logged(pipe)) <= at:
        pipe.process(frame.image, frame.t, frame.index)
    if not held:
        assert not pipe.pending and _logged(pipe)[:at + 1] == plays[:at + 1]
        return
    [asked] = pipe.pending.values()
    assert asked.event["card"] == "9D" and "not seen by a second look" in asked.reason
    assert asked.question == "Dee played 9♦?" and asked.options[0].label == "9♦"
    pipe.answer(asked.id, asked.options[0].events)
    assert _logged(pipe) == plays[:at + 1]


@pytest.mark.parametrize(("score", "look_reads", "held"), [
    (UNSEEN_LOOK_BELOW - 0.05, "JH", True),
    (UNSEEN_LOOK_BELOW - 0.05, "TH", False),
    (UNSEEN_LOOK_BELOW + 0.05, "JH", False),
])
def test_a_hand_card_read_unsurely_that_the_second_look_reads_another_way_is_asked(
        tmp_path: Path, score: float, look_reads: str, held: bool) -> None:
    """The cheap webcam's Michigan 1805: Cy's 10♦ read as 9♦ at 0.52-0.56 in every frame
    (the 9♦ lay in the dead hand: no rule catches it); the second look read Q♦ and 10♦
    there. Here Pressman 807 on a deck the reader knows: Ann's J♥ read as 10♥ (never
    played) at ``score``. Read below `UNSEEN_LOOK_BELOW`, where the look does not read it
    but reads the J♥ in its place, her hand is asked, the J♥ first; read so by the look
    too, or read surely, it is logged as read."""
    video = TableVideo(simulated_round("pressman", seed=807),
                       RenderConfig(width=160, height=120, seed=807, noise=0.0))
    source = RenderedSource(video)
    reader = Misread(source, "JH", "TH", score)
    reader.deck_known = True
    look = Look(TruthDetector(source), wrong={"JH": look_reads} if look_reads != "JH" else {})
    path = tmp_path / "g.jsonl"
    pipe = TablePipeline(video.profile(), reader, None, path, script=video.truth.script,
                         second_look=look)
    look.clock = pipe
    while (frame := source.read()) is not None and not pipe.pending:
        pipe.process(frame.image, frame.t, frame.index)
    if not held:
        while (frame := source.read()) is not None:
            pipe.process(frame.image, frame.t, frame.index)
        assert not pipe.flush().pending
        hands = [e.data for e in read_log(path).events if e.kind == "reveal"]
        assert {"event": "reveal", "player": "Ann", "cards": ["AC", "TH"]} in [
            {k: v for k, v in h.items() if k in ("event", "player", "cards")} for h in hands]
        return
    [asked] = pipe.pending.values()
    assert asked.reason == f"10♥ read at {score:.2f}, not seen by a second look"
    assert asked.question == "Ann shows A♣ 10♥?"
    assert [a.label for a in asked.options] == ["A♣ J♥", "A♣ 10♥ as read"]
    pipe.answer(asked.id, list(asked.options[0].events))
    while (frame := source.read()) is not None:
        pipe.process(frame.image, frame.t, frame.index)
    assert not pipe.flush().pending
    events, _ = apply_corrections(read_log(path).events)
    assert [(e.data["event"], e.data["player"], e.data.get("card"), e.data.get("cards"))
            for e in events if e.kind in ("play", "reveal")] == [
        (e["event"], e["player"], e.get("card"), e.get("cards")) for e in video.truth.visual]
    assert not replay(read_log(path)).errors
