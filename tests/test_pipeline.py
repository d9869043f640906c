"""The pipeline end to end on the rendered table (board found by calibration, a detector that
reads the renderer's boxes with noise), through `companion watch`, and its parts one by one:
pending readings, resumed logs, refused duplicates, chip warnings, stale-frame dropping."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from log_helpers import normalise

from calibration.calibrate import calibrate
from calibration.layout import default_zones
from calibration.profile import TableProfile
from companion.cards import CARD_CODES
from companion.events import read_log
from vision.detections import Detections
from vision.pipeline.table import TablePipeline
from vision.pipeline_cli import register_watch
from vision.render.demo import demo_source
from vision.render.truth import TruthDetector
from vision.tracker import TrackerConfig


@pytest.mark.parametrize(("game", "seed"), [("michigan-rummy", 0), ("oh-claire", 1)])
def test_rendered_round_through_the_pipeline_equals_the_ground_truth(
        tmp_path: Path, game: str, seed: int) -> None:
    source, truth = demo_source(seed, game=game)
    first = source.video.render(0.0).image
    profile = calibrate([first, first, first], game, len(source.video.players))
    detector = TruthDetector(source, jitter=1.0, drop=0.1, misread=0.01, seed=seed)
    pipe = TablePipeline(profile, detector, None, tmp_path / "game.jsonl", script=truth.script)
    stats = pipe.run(source)
    pipe.finish()
    got = [dict(e.data) for e in read_log(tmp_path / "game.jsonl").events]
    assert normalise(got) == normalise(truth.events)
    assert not pipe.pending and not pipe.errors
    plays = [e for e in got if e["event"] in ("play", "reveal", "trump")]
    assert all(0 < e["confidence"] <= 1 and e["t"] > 0 for e in plays)
    assert stats.frames == source.video.frame_count
    # every card was announced soon after it lay still (frame-time debounce only)
    assert np.median(stats.latencies) <= 0.4


def test_companion_watch_on_the_demo_table(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    register_watch(sub)
    log = tmp_path / "w.jsonl"
    args = parser.parse_args(["watch", "demo:michigan-rummy:3", "--detector", "truth",
                              "--log", str(log)])
    assert args.func(args) == 0
    out = capsys.readouterr()
    _, truth = demo_source(3)
    got = [dict(e.data) for e in read_log(log).events]
    assert normalise(got) == normalise(truth.events)
    assert "plays" in out.out and "Next:" in out.out
    assert "0 readings await confirmation" in out.err


# --- parts, on hand-made detections ---------------------------------------------------------

class ScriptedDetector:
    """Returns the detections queued for each frame (board units = pixels)."""

    def __init__(self) -> None:
        self.queue: list[Detections] = []

    def detect(self, frame: np.ndarray) -> Detections:
        return self.queue.pop(0) if self.queue else Detections.empty()


def card_at(rows: list[tuple[str, int, float]]) -> Detections:
    zones = default_zones(4)
    xyxy, conf, cls = [], [], []
    in_seat: dict[int, int] = {}
    for code, seat, c in rows:
        k = in_seat[seat] = in_seat.get(seat, -1) + 1
        x, y = zones[seat].center
        x, y = x + 4.5 * k, y + 3.0 * k  # a pile: each card offset from the one under it
        xyxy.append((x - 12, y - 17, x + 12, y + 17))
        conf.append(c)
        cls.append(CARD_CODES.index(code))
    return Detections(np.array(xyxy), np.array(conf), np.array(cls))


def identity_profile() -> TableProfile:
    return TableProfile.propose(np.eye(3), (640, 480), "michigan-rummy", 4)


SETUP = {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy", "Dee"],
         "chips": 20}
SCRIPT = [{"event": "round", "dealer": "Ann", "at": 0},
          {"event": "dummy", "action": "keep", "at": 0}]
FRAME = np.zeros((4, 4, 3), np.uint8)


def feed(pipe: TablePipeline, det: ScriptedDetector, rows: list[tuple[str, int, float]],
         n: int, t0: float) -> list[Any]:
    results = []
    for i in range(n):
        det.queue.append(card_at(rows))
        results.append(pipe.process(FRAME, t0 + i * 0.1, i))
    return results


def test_events_are_logged_with_script_and_announced(tmp_path: Path) -> None:
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT)
    res = feed(pipe, det, [("2C", 1, 0.9)], 6, 0.0)
    events = [ev for r in res for _, ev in r.events]
    assert [e["event"] for e in events] == ["round", "dummy", "play"]
    assert events[-1]["player"] == "Bob" and events[-1]["card"] == "2C"
    assert any("Next" in a for r in res for a in r.announcements)
    lines = read_log(tmp_path / "g.jsonl").events
    assert [e.kind for e in lines] == ["game", "round", "dummy", "play"]


def test_low_confidence_is_held_then_confirmed(tmp_path: Path) -> None:
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT,
                         tracker_config=TrackerConfig(confirm_below=0.6))
    res = feed(pipe, det, [("2C", 1, 0.45)], 6, 0.0)
    assert not any(ev["event"] == "play" for r in res for _, ev in r.events)
    assert len(pipe.pending) == 1
    (pid, held), = pipe.pending.items()
    assert "low confidence" in held.describe() and "2♣" in held.describe()
    line, said = pipe.confirm(pid)
    assert read_log(tmp_path / "g.jsonl").events[-1].data["card"] == "2C"
    assert line == 4 and said


def test_rejected_reading_is_not_logged(tmp_path: Path) -> None:
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT,
                         tracker_config=TrackerConfig(confirm_below=0.6))
    feed(pipe, det, [("2C", 1, 0.45)], 6, 0.0)
    pipe.reject(next(iter(pipe.pending)))
    assert not pipe.pending
    assert [e.kind for e in read_log(tmp_path / "g.jsonl").events] == ["game", "round", "dummy"]


def test_a_card_already_played_this_round_in_its_own_pile_is_ignored(tmp_path: Path) -> None:
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT,
                         tracker_config=TrackerConfig(forget_time=0.3))
    feed(pipe, det, [("2C", 1, 0.9)], 6, 0.0)
    feed(pipe, det, [], 6, 1.0)  # the card is covered long enough to be forgotten
    res = feed(pipe, det, [("2C", 1, 0.9)], 6, 2.0)  # and peeks out again in its pile
    assert any("already played" in n for r in res for n in r.notes)
    assert not pipe.pending
    assert [e.kind for e in read_log(tmp_path / "g.jsonl").events].count("play") == 1


def test_a_card_already_played_read_in_another_pile_is_asked_about(tmp_path: Path) -> None:
    """One card cannot lie in two piles: the reading is held, never dropped in silence, and
    the cards the table accepts are offered (3♣ comes next; 2♠ is what 2♣ is taken for)."""
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT,
                         tracker_config=TrackerConfig(forget_time=0.3))
    feed(pipe, det, [("2C", 1, 0.9)], 6, 0.0)
    feed(pipe, det, [], 6, 1.0)
    feed(pipe, det, [("2C", 2, 0.9)], 6, 2.0)  # Cy's card read as the 2♣ Bob played
    [held] = pipe.pending.values()
    assert held.question == "Cy played 2♣?" and "played by Bob already" in held.reason
    labels = [a.label for a in held.options]
    assert "2♣" not in labels and labels  # never the card already played
    assert [e.kind for e in read_log(tmp_path / "g.jsonl").events].count("play") == 1


def test_resuming_an_existing_log_continues_the_game(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, path, script=SCRIPT)
    feed(pipe, det, [("2C", 1, 0.9)], 6, 0.0)
    pipe.log.close()
    det2 = ScriptedDetector()
    again = TablePipeline(identity_profile(), det2, None, path, script=SCRIPT)
    assert again.visual_count == 1 and again.players == ["Ann", "Bob", "Cy", "Dee"]
    res = feed(again, det2, [("3C", 1, 0.9)], 6, 10.0)
    assert [ev["card"] for r in res for _, ev in r.events] == ["3C"]
    kinds = [e.kind for e in read_log(path).events]
    assert kinds == ["game", "round", "dummy", "play", "play"]  # script not repeated


def test_new_log_without_a_game_event_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="game event"):
        TablePipeline(identity_profile(), ScriptedDetector(), None, tmp_path / "g.jsonl")


def test_chip_disagreement_is_announced_after_it_persists(tmp_path: Path) -> None:
    seen = {"Jackpot": 3}

    def counter(frame: np.ndarray, profile: TableProfile) -> dict[str, int]:
        return dict(seen)

    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT,
                         chip_counter=counter, chip_every=0.0, chip_confirm=2)
    pipe.inject({"event": "round", "dealer": "Ann"})
    want = pipe.ledger_cups()["Jackpot"]
    assert want == 5  # MR-2: 4 players + the dealer's extra chip
    r1 = pipe.process(FRAME, 0.0)
    r2 = pipe.process(FRAME, 0.1)
    r3 = pipe.process(FRAME, 0.2)
    assert r1.chip_warnings == []
    assert r2.chip_warnings == ["Jackpot looks short: ledger 5, seen 3"]
    assert r3.chip_warnings == []  # said once
    seen["Jackpot"] = 5
    assert pipe.process(FRAME, 0.3).chip_warnings == []


def test_detections_outside_zones_are_not_reported(tmp_path: Path) -> None:
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT)
    det.queue.append(Detections(np.array([[300, 300, 330, 340], [-10, -10, 10, 10]]),
                                np.array([0.9, 0.9]), np.array([0, 1])))
    res = pipe.process(FRAME, 0.0)
    assert res.detections == []
    det.queue.append(card_at([("AS", 0, 0.9)]))
    res = pipe.process(FRAME, 0.1)
    assert [d["zone"] for d in res.detections] == ["seat-0"]
    assert json.dumps(res.detections)  # plain data


def test_live_run_drops_stale_frames_rather_than_lagging(tmp_path: Path) -> None:
    import time as _time

    from vision.sources.frames import ArraySource

    class Slow(ScriptedDetector):
        def detect(self, frame: np.ndarray) -> Detections:
            _time.sleep(0.03)
            return Detections.empty()

    class Paced(ArraySource):
        live = True

        def read(self):  # type: ignore[no-untyped-def]
            _time.sleep(0.005)
            return super().read()

    pipe = TablePipeline(identity_profile(), Slow(), SETUP, tmp_path / "g.jsonl")
    stats = pipe.run(Paced([FRAME] * 120, fps=200.0))
    assert stats.dropped > 40 and stats.frames < 80
    assert stats.frames + stats.dropped <= 120


class Nudged:
    """A camera knocked sideways after ``at`` frames: images and true boxes both shift."""

    live = False

    def __init__(self, source: Any, at: int, dx: float, dy: float) -> None:
        self.source, self.at, self.dx, self.dy = source, at, dx, dy
        self.shifted = False

    def read(self) -> Any:
        import cv2

        from vision.sources.frames import Frame

        f = self.source.read()
        if f is None:
            return None
        self.shifted = f.index >= self.at
        if not self.shifted:
            return f
        m = np.float32([[1, 0, self.dx], [0, 1, self.dy]])
        img = cv2.warpAffine(f.image, m, (f.image.shape[1], f.image.shape[0]),
                             borderMode=cv2.BORDER_REPLICATE)
        return Frame(img, f.t, f.index)

    def close(self) -> None:
        self.source.close()


class ShiftedTruth:
    def __init__(self, inner: TruthDetector, cam: Nudged) -> None:
        self.inner, self.cam = inner, cam

    def detect(self, frame: np.ndarray) -> Detections:
        d = self.inner.detect(frame)
        if not self.cam.shifted or not len(d):
            return d
        return Detections(d.xyxy + np.array([self.cam.dx, self.cam.dy] * 2, np.float32),
                          d.confidence, d.class_id)


def test_a_nudged_camera_is_refitted_from_the_board(tmp_path: Path) -> None:
    from calibration.calibrate import make_refit

    source, truth = demo_source(5)
    first = source.video.render(0.0).image
    profile = calibrate([first] * 3, "michigan-rummy", 4)
    cam = Nudged(source, at=60, dx=-70, dy=45)
    det = ShiftedTruth(TruthDetector(source, seed=5), cam)
    pipe = TablePipeline(profile, det, None, tmp_path / "g.jsonl", script=truth.script,
                         refit=make_refit(profile), refit_every=1.0)
    pipe.run(cam)  # type: ignore[arg-type]
    pipe.finish()
    got = normalise([dict(e.data) for e in read_log(tmp_path / "g.jsonl").events])
    assert got == normalise(truth.events)
    # without re-fitting, cards laid at seat 1 would read as outside every zone
    seat1 = profile.board_to_image(np.array([profile.zones[1].center])) + [-70, 45]
    assert profile.zone_index(profile.image_to_board(seat1))[0] == -1
    assert pipe.profile.zone_index(pipe.profile.image_to_board(seat1))[0] == 1


def test_camera_outage_does_not_replay_cards_on_the_table(tmp_path: Path) -> None:
    """After a 5 s drop-out the cards still lying there are seen 'again': never re-logged."""
    det = ScriptedDetector()
    pipe = TablePipeline(identity_profile(), det, SETUP, tmp_path / "g.jsonl", script=SCRIPT)
    feed(pipe, det, [("2C", 1, 0.9)], 6, 0.0)
    feed(pipe, det, [("2C", 1, 0.9), ("3C", 1, 0.9)], 6, 1.0)
    res = feed(pipe, det, [("2C", 1, 0.9), ("3C", 1, 0.9)], 10, 7.0)  # back after the gap
    assert not any(r.events for r in res)
    assert [e.data.get("card") for e in read_log(tmp_path / "g.jsonl").events
            if e.kind == "play"] == ["2C", "3C"]


@pytest.mark.skipif(not Path("models/cards.onnx").exists(), reason="no shipped model")
def test_watch_classifier_choice_is_explicit_with_another_model() -> None:
    """`--model` alone reads with that model's own classes (a deck taught with teach-deck
    is unknown to the crop classifier); `--classifier PATH` puts the classifier behind it."""
    from vision.pipeline_cli import build_detector

    parser = argparse.ArgumentParser()
    register_watch(parser.add_subparsers())
    base = ["watch", "x.mp4", "--log", "x.jsonl", "--full-frame", "--model", "models/cards.onnx"]
    alone = build_detector(parser.parse_args(base), None)
    both = build_detector(parser.parse_args(
        [*base, "--classifier", "models/card_classifier.onnx"]), None)
    shipped = build_detector(parser.parse_args(base[:5]), None)
    none = build_detector(parser.parse_args([*base[:5], "--classifier", "none"]), None)
    assert alone.classifier is None and none.classifier is None
    assert both.classifier is not None and shipped.classifier is not None


@pytest.mark.skipif(not Path("models/index_localiser.onnx").exists(), reason="no index models")
def test_watch_with_a_taught_deck_reads_the_table_with_its_profile(tmp_path: Path) -> None:
    """`--deck PROFILE` reads the table with the hybrid reader and the deck's own layers; a
    profile that is not one is refused naming the file."""
    from vision.pipeline_cli import build_detector
    from vision.readers.index_heads import DECK_KIND

    parser = argparse.ArgumentParser()
    register_watch(parser.add_subparsers())
    deck = tmp_path / "mydeck.json"
    deck.write_text(json.dumps({
        "kind": DECK_KIND, "rank_w": np.zeros((13, 8)).tolist(), "rank_b": [0.0] * 13,
        "suit_w": np.zeros((4, 8)).tolist(), "suit_b": [0.0] * 4,
        "face": {"paper": [20, 20, 20], "ink": [60, 185, 225]}}))
    base = ["watch", "x.mp4", "--log", "x.jsonl"]
    zones = build_detector(parser.parse_args([*base, "--deck", str(deck)]), None)
    reader = zones.detector
    assert reader.card_detector is not None and reader.card_detector.classifier is not None
    assert reader.heads.layers is not None and reader.face is not None
    assert not reader.negative  # zone views: the taught face already says how to read it
    assert reader.loose_conf > 1  # every card at the table is read in a card box
    assert reader.imgsz == 384  # small zone views are not upscaled to the photos' 640
    with pytest.raises(ValueError, match="--reader hybrid"):
        build_detector(parser.parse_args([*base, "--deck", str(deck), "--reader", "card"]), None)
    bad = tmp_path / "notadeck.json"
    bad.write_text('{"kind": "thresholds"}')
    with pytest.raises(ValueError, match="notadeck.json"):
        build_detector(parser.parse_args([*base, "--deck", str(bad)]), None)
    (tmp_path / "cut.json").write_text('{"kind": ')
    with pytest.raises(ValueError, match="cut.json: not JSON"):
        build_detector(parser.parse_args([*base, "--deck", str(tmp_path / "cut.json")]), None)


def test_a_reveal_read_short_of_the_hand_is_held_with_the_referees_reason(
        tmp_path: Path) -> None:
    """A card of a revealed hand that is never read (covered, misread) must not turn the
    reveal into a wrong one: the reading is held, saying in the referee's words what is
    wrong, so that a person enters the rest."""
    from vision.render.demo import RenderedSource, simulated_round
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo

    events = simulated_round("michigan-rummy", seed=11)
    bob = next(e for e in events if e["event"] == "reveal" and e["player"] == "Bob")
    unseen = bob["cards"][1]
    video = TableVideo(events, RenderConfig(seed=11))
    source = RenderedSource(video)
    first = video.render(0.0).image
    profile = calibrate([first] * 3, "michigan-rummy", len(video.players))
    truth = TruthDetector(source)

    class Blind:
        def detect(self, frame: np.ndarray) -> Detections:
            dets = truth.detect(frame)
            keep = np.array([name != unseen for name, _b, _s in dets], bool)
            return Detections(dets.xyxy[keep], dets.confidence[keep], dets.class_id[keep],
                              dets.names)

    pipe = TablePipeline(profile, Blind(), None, tmp_path / "g.jsonl",
                         script=video.truth.script)
    pipe.run(source)
    logged = [e.data for e in read_log(tmp_path / "g.jsonl").events]
    assert not any(e["event"] == "reveal" and e["player"] == "Bob" for e in logged)
    held = [p for p in pipe.pending.values() if p.event.get("player") == "Bob"]
    assert len(held) == 1
    n = len(bob["cards"])
    assert f"Bob holds {n} cards, the reveal shows {n - 1}" in held[0].describe()
    # The game waits for reveals (Referee.expects), so it is offered as Bob's hand shown,
    # and confirming it as corrected logs the whole reveal.
    assert held[0].event["event"] == "reveal" and "Bob's hand" in held[0].describe()
    assert pipe.referee is not None and pipe.referee.expects() == {"reveal"}
    line, _said = pipe.confirm(held[0].id, {"event": "reveal", "player": "Bob",
                                            "cards": list(bob["cards"])})
    assert read_log(tmp_path / "g.jsonl").events[-1].data["cards"] == bob["cards"]
    assert not any(f"line {line}" in e for e in pipe.errors)
