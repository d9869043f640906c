"""The live pipeline: frames in, a clean stream of game events out (DESIGN.md's flow).

`TablePipeline.process(frame, t)` runs the detector, keeps only cards inside the calibrated
zones, debounces them with the tracker, turns settled cards into events (asking the referee only
whether a lay is a play or a reveal, never what the cards are), appends them to the event log
and returns plain data for a window or the console. Qt-free; the window runs it in a QThread.

`TablePipeline` is the frame loop; what it builds on is beside it: `vision.pipeline.log`
(the log and the referee's view of a move), `vision.pipeline.questions` (readings held for a
person), `vision.pipeline.results` (the plain values it gives back).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import count
from pathlib import Path
from typing import Any

import numpy as np

from calibration.layout import CARD_W
from calibration.profile import TableProfile
from companion.cards import Card
from companion.events import EventLog, read_log
from companion.referee import EventError, Referee
from vision.denoise import AVERAGE_FRAMES, StillAverage
from vision.lookalikes import alike, confusable, either_alike
from vision.pipeline.log import MOVES_OF_SEVERAL, comes_next, pretty_cards, stamp
from vision.pipeline.questions import HALF_DIAGONAL, Questions, read_again
from vision.pipeline.results import (
    Answer,
    Detector,
    FrameResult,
    Pending,
    RunStats,
    TableReader,
    ZoneLook,
)
from vision.sources.frames import FrameSource, LatestFrame
from vision.tracker import Observation, Tracker, TrackerConfig

#: A frame that comes more than this many seconds after the one before it (`Frame.gap`)
#: follows an outage: what changed on the table meanwhile was not seen, so it is put to people.
OUTAGE_GAP = 1.5
#: How long after an outage the cards on the table are given to settle again: the table is
#: then compared with the table before it, and nothing that settled meanwhile is logged alone.
OUTAGE_SETTLE = 1.0
#: How often (seconds) the picture's focus is judged on the board (`calibration.focus`),
#: when no card moves.
FOCUS_EVERY = 10.0
#: While the picture is out of focus, a reading scoring below this (or the tracker's own
#: ``confirm_below``, where higher) is held for a person instead of logged. Soft rendered
#: rounds (`bench_noisy_reader.py --settings soft`, seeds 100-109): 4 of 10 wrong in silence
#: at 0.5, 3 at 0.6, 1 at 0.7, for 4.9, 6.4 and 11.3 questions a round
#: (models/INDEX.md, "Fifty-third session").
SOFT_CONFIRM_BELOW = 0.7


class TablePipeline(Questions):
    """Detector -> zones -> tracker -> events -> referee, for one table and one game.

    ``game_setup`` is the log's ``game`` event (``{"event": "game", "game": ..., "players":
    [...], ...}``); it is written first when the log is new, and a log that already holds
    events is resumed (its events replayed). ``script`` holds events people enter (round,
    dummy, bids...) each with ``"at"``: how many visual events precede it; they are logged in
    place as the game reaches them (the window calls `inject` instead). ``chip_counter``
    (optional) counts chips per cup every ``chip_every`` seconds; ``refit`` (optional,
    ``frame -> homography | None``) re-fits the board every ``refit_every`` seconds.
    Cards the referee cannot place as they are (part of a hand being revealed while a hand
    still covers the rest) wait ``merge_window`` seconds for the rest of their move in the
    same zone before they are held for confirmation. ``second_look`` (optional, the index
    reader in a `vision.zones.ZoneReader`) reads again the zone of a hand shown that was held
    for holding fewer cards than the player has (`Questions._look_again`, also while it waits
    behind a question), reads a Great Lakes dump read as fewer cards (`Questions._look_at_move`)
    and a pile whose picture changed with no new card read there (`Questions._look_at_changes`),
    and looks in the seats' piles for a card the table asks about as never seen
    (`Questions._look_for_unseen`).
    """

    def __init__(self, profile: TableProfile, detector: Detector | TableReader,
                 game_setup: Mapping[str, Any] | None, log: EventLog | str | Path, *,
                 script: Sequence[Mapping[str, Any]] = (),
                 tracker_config: TrackerConfig | None = None,
                 chip_counter: Callable[[np.ndarray, TableProfile], dict[str, int]] | None = None,
                 chip_every: float = 2.0, chip_confirm: int = 2,
                 refit: Callable[[np.ndarray], np.ndarray | None] | None = None,
                 refit_every: float = 5.0, merge_window: float = 1.5,
                 queue_questions: bool = True, reread_frames: int = 6,
                 second_look: ZoneLook | None = None,
                 average: int = AVERAGE_FRAMES,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.profile = profile
        self.detector = detector
        #: Each frame goes through this first: a webcam's noise averaged away over up to
        #: ``average`` frames where the table lies still (`vision.denoise.StillAverage`);
        #: None (``average`` 0 or 1): each frame read as it comes.
        self.still_average = StillAverage(average) if average > 1 else None
        self.second_look = second_look
        self._frame = None
        self._zone_looked = None
        self._changes = None
        self._changed = {}
        self._unread = {}
        self._seen_new = {}
        self._seen_lost = {}
        self._never_asked = -1
        self._never_held = None
        self._read_at = {}
        self._looks = {}
        self._looks_decided = set()
        self._proofs = {}
        self._guesses = {}
        self._hunts = {}
        self.log = log if isinstance(log, EventLog) else EventLog(log)
        self.clock = clock
        self.script = sorted((dict(e) for e in script), key=lambda e: int(e.get("at", 0)))
        self.visual_count = 0
        self._seen_lines = 0
        self.pending: dict[int, Pending] = {}
        self._ids = count(1)
        self.chip_counter = chip_counter
        self.chip_every = chip_every
        self.chip_confirm = chip_confirm
        self._chip_last = float("-inf")
        self._chip_streak: dict[str, tuple[int, int, int]] = {}
        self._chip_said: set[tuple[str, int, int]] = set()
        self.refit = refit
        self.refit_every = refit_every
        self._refit_last = float("-inf")
        #: The board's blur when the focus was last judged (`_check_focus`; None: not yet).
        self.focus_px: float | None = None
        self._focus_last = float("-inf")
        self.errors: list[str] = []
        self.referee: Referee | None = None
        self._round_cards: dict[str, int] = {}
        #: Per zone: a settled reading the referee cannot place yet, until when it waits for
        #: the rest of its move, the referee's reason and the event to offer a person.
        self._partial: dict[int, tuple[Observation, float, str, dict[str, Any] | None]] = {}
        self.merge_window = merge_window
        #: Questions come in table order: while one is open, later readings wait behind it
        #: (``queue_questions``), and are placed once it is answered.
        self.queue_questions = queue_questions
        self._waiting: list[Observation] = []
        #: A held card read this many times as one of its answers (and little else) since the
        #: question was put is that card: the question settles itself.
        self.reread_frames = reread_frames
        #: Card -> seat of the player who played it this round.
        self._played_by: dict[str, int | None] = {}
        #: Card -> (line, event) of the single-card play that logged it this round.
        self._line_of: dict[str, tuple[int, dict[str, Any]]] = {}
        #: Logged cards read as another card on their spot since: (logged, read, spot).
        self._contests: list[tuple[str, str, tuple[float, float]]] = []
        #: Card -> (line, event) of the hand shown or move of several cards that logged it
        #: this round.
        self._grouped_in: dict[str, tuple[int, dict[str, Any]]] = {}
        #: Card -> the table time a person entered its play by hand (no time stamp of its
        #: own: a typed answer, an event entered in the window).
        self._entered_at: dict[str, float] = {}
        #: The turned-up trump card of this hand -> (line, event) that logged it.
        self._trump_of: dict[str, tuple[int, dict[str, Any]]] = {}
        #: Card -> where on the table it was read when it was logged (this round).
        self._spot_of: dict[str, tuple[float, float]] = {}
        #: Card of a hand shown -> where it was read when the hand was logged (this round).
        self._shown_spot: dict[str, tuple[float, float]] = {}
        #: Card of a several-card move -> where the second look read it (this round).
        self._look_spot: dict[str, tuple[float, float]] = {}
        #: (zone, when a reading came to rest) -> the second look's reading of that pile in
        #: the frame the reading was made (`_look_as_laid`).
        self._laid_looks: dict[tuple[int, float], tuple[dict[str, float],
                                                        dict[str, tuple[float, float]]]] = {}
        #: Seat -> the cards of the last move the second look placed in its pile, and the
        #: cards it read there beside them and left out (this round).
        self._left_by_move: dict[int, tuple[list[str], set[str]]] = {}
        #: Zone -> cards read in it that were logged in another seat's pile this round, left
        #: out of its moves as misreadings, with when they lay still (this round).
        self._read_elsewhere: dict[int, list[tuple[str, float]]] = {}
        #: Single cards read in a pile that a person said were no card: (zone, card, board
        #: spot, when the answer came), this round (`Questions._said_no_card_before`).
        self._said_no_card: list[tuple[int, str, tuple[float, float], float]] = []
        self._glimpsed: dict[str, set[int]] = {}
        #: Zone -> when the last single card the camera logged in it came to rest, and which
        #: (this round).
        self._landed: dict[int, tuple[float, str]] = {}
        #: After an outage: the cards each zone showed before it (code, x, y), how long the
        #: camera was away, and until when the table settles again (`_after_outage`).
        self._outage: tuple[dict[int, list[tuple[str, float, float]]], float, float] | None \
            = None
        events = read_log(self.log.path).events if self.log.lines else []
        if events:
            self._resume(events)
        else:
            setup = dict(game_setup) if game_setup else self._script_game()
            if not setup or setup.get("event") != "game":
                raise ValueError("a new log needs a game event (game_setup or the script's)")
            self._append(setup, [])
        self.game = str(self.referee.game if self.referee else (game_setup or {}).get("game"))
        players: list[str] = self.referee.players if self.referee else []
        self.players = list(players)
        copies = 2 if self.game == "wanagan" and len(self.players) >= 6 else 1  # WA-1
        cfg = tracker_config or TrackerConfig()
        if copies != cfg.copies:
            cfg = replace(cfg, copies=copies)
        self.tracker = Tracker(profile.zones, cfg)
        self._confirm_below = cfg.confirm_below  # as set; raised while the picture is soft

    @property
    def holding(self) -> bool:
        """Whether a reading is held for a person, waits behind one, or is still gathering the
        rest of its move: the table has not placed everything it saw."""
        return bool(self.pending or self._waiting or self._partial)

    # --- no more frames ---------------------------------------------------------------------
    def flush(self) -> FrameResult:
        """No frame will follow (the video ended, the camera stopped): the readings that
        waited behind questions since answered are placed, and the moves still gathering
        their cards (and the changes since an outage) are held for a person. What it holds
        comes back in ``pending``: once those are answered, call it again to place what
        waited behind them. People's events (the script) keep table order: those after a
        reading still held or waiting are logged once it is placed, those after the last
        card once nothing is held or waits (then nothing comes before them)."""
        result = FrameResult(self.tracker.t, -1)
        if self._outage is not None:  # it ended while the table settled after an outage
            self._after_outage(self.tracker.t, result)
        self._recount(result, final=True)
        self._settle_found(result)
        self._drain(result)
        if not self.pending:
            for zone, (obs, _deadline, why, offer) in list(self._partial.items()):
                del self._partial[zone]
                self._hold(obs, why, offer, result)
            self._drain(result)
        if not self.holding:
            self._ask_never_shown(result)
        self._flush_script(self.visual_count if self.holding else 10**9, result.announcements,
                           result)
        result.pending = list(self.pending.values())
        return result

    def finish(self) -> list[str]:
        """Place what still waits (`flush`), log the rest of the script (events after the last
        card) and close the log. Questions still open stay in ``pending``, and the script's
        events after them stay unlogged: never ahead of a card played before them."""
        out: list[str] = list(self.flush().announcements)
        if self.referee is not None:
            n = len(self.referee.announcements)
            try:
                self.referee.finish(self.log.lines)
            except EventError as exc:
                self.errors.append(str(exc))
            out.extend(a.text for a in self.referee.announcements[n:])
        self.log.close()
        return out

    # --- deciding what a settled lay means --------------------------------------------------

    def _interpret(self, obs: Observation
                   ) -> tuple[dict[str, Any] | None, str, dict[str, Any] | None]:
        """(event, "", None) for a settled observation the referee places; (None, why, offer)
        when a person must decide, ``offer`` being the event to put to them (None: a play)."""
        extra = stamp(obs)
        if obs.kind == "trump":
            if len(obs.cards) != 1:
                return None, "several cards in the trump spot", None
            return {"event": "trump", "card": obs.cards[0], **extra}, "", None
        if obs.kind != "pile" or obs.seat is None or obs.seat >= len(self.players):
            return None, f"cards in the {obs.zone_name} area", None
        player = self.players[obs.seat]
        # With one deck, a code read twice in one lay is one card (read at two spots).
        laid = list(dict.fromkeys(obs.cards)) if self.tracker.config.copies == 1 \
            else list(obs.cards)
        reveal = {"event": "reveal", "player": player, "cards": laid, **extra}
        if self.game == "wanagan":
            return reveal, "", None  # WA-3: every lay is a hand shown
        options: list[dict[str, Any]] = []
        if len(laid) == 1:
            options.append({"event": "play", "player": player, "card": laid[0], **extra})
        else:
            for first in laid:  # GL-3: the next-in-sequence card comes first
                rest = [c for c in laid if c != first]
                options.append({"event": "play", "player": player, "cards": [first, *rest],
                                **extra})
        best: tuple[int, dict[str, Any]] | None = None
        play_why = ""
        for opt in options:
            ok, violations, why = self._accepts(opt)
            if ok and (best is None or violations < best[0]):
                best = (violations, opt)
            play_why = play_why or why
        # A single card is logged even when it breaks a rule (that is a finding, not a
        # misreading); several cards must make a legal move together (GL-3, GL-4), or they may
        # be part of a move whose other cards a hand still covers: wait for them.
        if best is not None and (len(obs.cards) == 1 or best[0] == 0):
            return best[1], "", None
        ok, _, reveal_why = self._accepts(reveal)
        if ok:
            return reveal, "", None
        # Say why, in the referee's words: a person then knows what to look at ("Bob holds 4
        # cards, the reveal shows 1": the rest of the hand was not read). Where the game says
        # what it waits for, the reading is offered as that kind of event.
        expected = self.referee.expects() if self.referee is not None else None
        if expected is not None and "reveal" in expected and "play" not in expected:
            return None, reveal_why, reveal
        if best is not None:
            play_why = "it breaks a rule as a play"
        if expected is not None and "play" in expected and "reveal" not in expected:
            return None, play_why or "refused", None
        return None, f"not a play ({play_why or 'refused'}), not a reveal ({reveal_why})", None

    # --- the frame loop ---------------------------------------------------------------------
    def process(self, frame: np.ndarray, t: float, index: int = 0,
                gap: float = 0.0) -> FrameResult:
        """Run one frame taken at time ``t`` (seconds) through the whole pipeline. ``gap``:
        seconds without a picture just before it (`Frame.gap`); past `OUTAGE_GAP`, nothing is
        inferred across it: what changed meanwhile is asked about, seat by seat."""
        start = self.clock()
        result = FrameResult(t, index)
        # The board is found again and the chips counted in the frame as it came, as they
        # were calibrated; the cards are read in it averaged where the table lies still.
        raw, frame = frame, self.averaged(frame, gap)
        self._frame = frame
        if gap > OUTAGE_GAP:
            before = self._outage[0] if self._outage is not None else self._lying(
                self.tracker.t - self.tracker.config.lost_time)
            away = gap + (self._outage[1] if self._outage is not None else 0.0)
            self._outage = (before, away, t + OUTAGE_SETTLE)
        if self.refit is not None and t - self._refit_last >= self.refit_every:
            self._refit_last = t
            h = self.refit(raw)
            if h is not None:
                self.profile = self.profile.with_homography(h)
                if self._changes is not None:
                    self._changes.follow(self.profile.zone_polygons_px(), frame.shape[:2], t)
        dets = (self.detector.detect_table(frame, self.profile)
                if isinstance(self.detector, TableReader) else self.detector.detect(frame))
        inverse = self.profile.inverse
        observations = self.tracker.update(t, dets, inverse)
        if len(dets):
            zones = self.tracker.zone_of(self._on_board(dets))
            for (name, box, score), z in zip(dets, zones, strict=True):
                if z >= 0:  # cards outside the zones are neither shown nor kept
                    result.detections.append({"card": name, "box": [round(v, 1) for v in box],
                                              "score": round(score, 3),
                                              "zone": self.profile.zones[z].name})
                    seat = self.profile.zones[z].seat
                    if seat is not None and not self._round_cards.get(name, 0):
                        self._glimpsed.setdefault(name, set()).add(seat)
        if self._outage is not None:
            observations = []  # settled across the outage: compared with the table before it
        for obs in observations:  # a pile the reader read is not looked at again for it
            if any(not self._round_cards.get(c, 0) for c in obs.cards):
                # (a card played already, read again where it lies or a new card misread as
                # it, is no reading of what changed there)
                self._read_at[obs.zone] = t
                self._changed.pop(obs.zone, None)
        self._reread(t, result)
        self._look_again(frame, result)
        self._settle_found(result)
        self._look_for_unseen(frame, result)
        if self._outage is None:
            observations += self._look_at_changes(frame, result)
        self._recount(result)
        self._withdraw_never_shown(observations, result)
        if self.queue_questions:
            # In table order: a card counted again after an answer (the real card of a code
            # misread before) goes before the readings that waited behind the question.
            for obs in observations:
                self._look_as_laid(obs)
            self._waiting.extend(observations)
            self._waiting.sort(key=lambda o: o.t_still)
            self._drain(result)
        else:
            for obs in observations:
                self._handle(obs, result)
        for zone, (obs, deadline, why, offer) in list(self._partial.items()):
            if t > deadline:
                del self._partial[zone]
                self._hold(obs, why, offer, result)
        if self._outage is not None and t >= self._outage[2]:
            self._after_outage(t, result)
        if not self.holding:
            self._ask_never_shown(result, t)
        if self.chip_counter is not None and t - self._chip_last >= self.chip_every:
            self._chip_last = t
            self._check_chips(raw, result)
        if t - self._focus_last >= FOCUS_EVERY and not self.tracker_busy():
            self._focus_last = t
            self._check_focus(frame, result)
        result.pending = list(self.pending.values())
        result.ms = (self.clock() - start) * 1000.0
        return result

    def averaged(self, frame: np.ndarray, gap: float = 0.0) -> np.ndarray:
        """The frame as the cards are read in it: averaged where the table lies still
        (`still_average`), started again after ``gap`` seconds without a picture past
        `OUTAGE_GAP` (nothing before is this picture)."""
        if self.still_average is None:
            return frame
        if gap > OUTAGE_GAP:
            self.still_average.reset()
        return self.still_average(frame)

    def _lying(self, since: float) -> dict[int, list[tuple[str, float, float]]]:
        """The counted cards read since ``since`` in each zone: (code, x, y)."""
        cards = self.tracker.counted_cards(since)
        zones = self.tracker.zone_of(np.array([(x, y) for _c, x, y in cards]).reshape(-1, 2))
        out: dict[int, list[tuple[str, float, float]]] = {}
        for card, zone in zip(cards, zones, strict=True):
            if zone >= 0:
                out.setdefault(int(zone), []).append(card)
        return out

    def _after_outage(self, t: float, result: FrameResult) -> None:
        """The table has settled after an outage: each zone whose cards differ from before it
        (cards laid, cards gone) is held as one question, in seat order, its one-click
        answer logging the cards laid as read; nothing is inferred from them."""
        assert self._outage is not None
        before, away, _until = self._outage
        self._outage = None
        after = self._lying(t - self.tracker.config.lost_time)
        zones = self.profile.zones
        order = sorted(set(before) | set(after),
                       key=lambda z: (zones[z].seat is None, zones[z].seat or 0, z))
        for z in order:
            laid = _without(after.get(z, []), before.get(z, []))
            gone = _without(before.get(z, []), after.get(z, []))
            if not laid and not gone:
                continue
            zone = zones[z]
            obs = Observation(zone=z, zone_name=zone.name, kind=zone.kind, seat=zone.seat,
                              cards=[c for c, _x, _y in laid], confidence=1.0, t=t,
                              t_still=t, certain=False,
                              positions=[(x, y) for _c, x, y in laid],
                              votes=[self.tracker.votes_at(x, y) for _c, x, y in laid])
            events = self._as_read(obs) if laid else ()
            who = self.players[zone.seat] if zone.seat is not None \
                and zone.seat < len(self.players) else f"the {zone.name} area"
            said = [f"{' '.join(pretty_cards([c for c, _x, _y in laid]))} laid"] if laid else []
            said += [f"{' '.join(pretty_cards([c for c, _x, _y in gone]))} gone"] if gone else []
            self._hold(obs, f"the camera was away {away:.1f} s",
                       dict(events[0]) if len(events) == 1 else None, result,
                       (f"While the camera was away, {who}: {', '.join(said)}?",
                        [Answer("as read", events)]))

    def _as_read(self, obs: Observation) -> tuple[dict[str, Any], ...]:
        """The events that log the cards of ``obs`` as read: the move the table places (or
        offers), else one play per card in the order they lie."""
        event, _why, offer = self._interpret(obs)
        move = event if event is not None else offer
        if move is not None:
            return (move,)
        if obs.seat is None or obs.seat >= len(self.players):
            return ()
        return tuple({"event": "play", "player": self.players[obs.seat], "card": c}
                     for c in obs.cards)

    def _handle(self, obs: Observation, result: FrameResult) -> None:
        if self.queue_questions and (self.pending or self._waiting or any(
                zone != obs.zone for zone in self._partial)):
            self._waiting.append(obs)  # table order: it waits behind the open question
            return
        self._consider(obs, result)

    def _drain(self, result: FrameResult) -> None:
        """Place the readings that waited behind questions now answered."""
        while self._waiting and not self.pending:
            if any(zone != self._waiting[0].zone for zone in self._partial):
                break  # a move still gathering its cards in another zone comes first
            settling = self.tracker.settling_since()
            if settling is not None and settling < self._waiting[0].t_still \
                    and result.index >= 0:
                break  # a card laid before it is still settling: it goes first
            self._consider(self._waiting.pop(0), result)

    def _consider(self, obs: Observation, result: FrameResult) -> None:
        # People's events that come before this move (a new round, bids) go in first.
        self._flush_script(self.visual_count, result.announcements, result)
        if self._said_no_card_before(obs):
            # (the cheap webcam's Michigan 2500: Bob's A♣ peeking out, read as 2♣ now and
            # then, asked about, answered, then asked about again three seconds later)
            result.notes.append(f"{Card.parse(obs.cards[0]).pretty()} read again where a "
                                "person said no card was laid; ignored")
            self.tracker.misread_at(obs.cards[0], *obs.positions[0], obs.t_still)
            return
        if (len(obs.cards) == 1 and obs.on_spot_of and obs.on_spot_of[0]
                and obs.zone not in self._partial
                and not self._covered(obs.on_spot_of[0], obs.positions[0])):
            # Read where a counted card lay a frame before: that card misread, or a new one
            # laid on it (a card played twice included: the table decides).
            self._on_spot(obs, obs.on_spot_of[0], result)
            return
        copies = self.tracker.config.copies
        fresh = [c for c in obs.cards if self._round_cards.get(c, 0) < copies]
        if obs.kind == "pile" and len(fresh) < len(obs.cards):
            dup = [c for c in obs.cards if c not in fresh]
            # A card the rules took off the table since (a trick gathered) cannot lie here
            # either: like a card played in another pile, this reading or that one is wrong.
            gone = self.referee.gathered() if self.referee is not None else frozenset()
            elsewhere = [c for c in dup
                         if self._played_by.get(c, obs.seat) != obs.seat or c in gone]
            # Or in the same pile, but read while the logged card was still read on its own
            # spot, or read in one frame with it on its way here (`Observation.twin`: a K♦
            # read as the Q♦ it came to lie on, Boodle 1183): two cards at once, not the card
            # under a new one peeking out. Or carried back in (`Observation.returned`) after
            # a card was logged on it: the logged one lies under those, so this is another
            # card (Great Lakes 916: a dump's 4♦ read as 4♥, then the real 4♥ laid on the
            # next card, taken for the 4♦ read again).
            back = obs.returned or [False] * len(obs.cards)
            twin = obs.twin or [False] * len(obs.cards)
            twice = [c for c, pos, came, apart
                     in zip(obs.cards, obs.positions, back, twin, strict=False)
                     if c in dup and (apart or self._read_at_once(c, pos, obs.t_still)
                                      or (came and self._laid_since(c)))]
            if len(obs.cards) == 1 and (elsewhere or twice) and self.game != "wanagan":
                # One card cannot lie in two places: this reading or the earlier one is wrong.
                c = (elsewhere or twice)[0]
                who = self._player_of(c)
                where = " in a trick taken since" if c in gone else " already"
                # Put as the move the game waits for (a hand shown once the round is over).
                offer = self._interpret(obs)[2]
                self._hold(obs, f"{Card.parse(c).pretty()} was played by {who}{where}",
                           offer, result)
                return
            # The card under a new one peeking out (or the same card read again): not a play.
            # A card played in another pile cannot lie in this one: a card misread, kept for
            # the table to refuse the move and the camera to read it again.
            # Where a move is one card, cards already played (here or in another pile) read
            # beside the one new card are misreadings (of a card under it, most often), not
            # part of the move: the new card is the move. So too in Great Lakes, where the
            # other cards of a dump are read again by the second look (`_look_at_move`).
            one_card = self.game not in MOVES_OF_SEVERAL and len(fresh) == 1
            under = dup if one_card or self.game in self.SEVERAL_AT_ONCE \
                else [c for c in dup if c not in elsewhere]
            asked = self._misread_in_dump(obs, under)
            if asked is not None:
                self._hold(obs, f"{Card.parse(under[0]).pretty()} was played by "
                           f"{self._player_of(under[0])} already", asked[1][0].events[0], result,
                           asked)
                return
            result.notes.append(f"{' '.join(pretty_cards(under or dup))} already played this "
                                f"round; {'ignored' if under else 'misread'}")
            self._read_elsewhere.setdefault(obs.zone, []).extend(
                (c, obs.t_still) for c in elsewhere if c in under)
            fresh = [c for c in obs.cards if c not in under]
            if not fresh:
                return
            obs = _kept(obs, [c in fresh for c in obs.cards])
        if obs.zone not in self._partial and self._placed_by_look(obs, result):
            return
        held = self._partial.pop(obs.zone, None)
        if held is not None and obs.t_still > held[1]:
            # Settled after the rest of that move was waited for: a move of its own (Great
            # Lakes 521: a dump misread, then three plays a second apart, each merged into
            # it, put to a person as one seven-card move). The move waiting is held now; this
            # one goes behind it, in table order.
            self._hold(held[0], held[2], held[3], result)
            if self.queue_questions:
                self._waiting.insert(0, obs)
                return
            held = None
        if held is not None and held[2] and held[3] is not None \
                and held[2] == self._doubted_part(held[3]) \
                and not self._fits_move([*held[0].cards, *obs.cards]) \
                and self._interpret(_merge(held[0], obs))[0] is None:
            # Not the rest of the move its part began (a dump or straight read in part, then
            # its player's next lead: Great Lakes 2001): the part is held now, this behind it.
            self._hold(held[0], held[2], held[3], result)
            if self.queue_questions:
                self._waiting.insert(0, obs)
                return
            held = None
        keep = [held is None or o not in held[0].cards for o in obs.on_spot_of]
        if held is not None and not all(keep):
            # Read on the spot of a card of the move gathering here: that card misread, not
            # one more card of it (Boodle 1208: Bob's 4♥ read as A♥ a moment while his hand
            # lay shown a card short, taken for its missing card).
            misread = [c for c, k in zip(obs.cards, keep, strict=False) if not k]
            result.notes.append(f"{' '.join(pretty_cards(misread))} read on a card of "
                                f"{' '.join(pretty_cards(held[0].cards))}: misread")
            if not any(keep):
                self._partial[obs.zone] = held
                return
            obs = _kept(obs, keep)
        if held is not None:
            # The rest of a move the referee could not place alone (a hand uncovering the
            # other cards of a revealed hand a moment later): try them together.
            obs = _merge(held[0], obs)
            if len(obs.cards) > self.SEVERAL_AT_ONCE.get(self.game, len(obs.cards)) \
                    and self._placed_by_look(obs, result):
                return
        event, why, offer = self._interpret(obs)
        if event is None and obs.kind == "pile" and obs.certain:
            # The rest of the move is waited for from its first cards on, not from each part
            # (cards laid a second apart would otherwise gather into one move without end).
            deadline = held[1] if held is not None else obs.t + self.merge_window
            self._partial[obs.zone] = (obs, deadline, why, offer)
            return
        if event is None or not obs.certain:
            self._hold(obs, why or f"low confidence {obs.confidence:.2f}",
                       event if event is not None else offer, result)
            return
        if event.get("event") == "play" and "card" in event and self._accepts(event)[1]:
            # A play that breaks a rule is rare at a real table; a misread card is not. A
            # person says which (a real violation is logged once confirmed).
            self._hold(obs, "it would break a rule", event, result)
            return
        if event.get("event") == "reveal" and self._unsure_hand(obs):
            self._hold(obs, self._unsure_reason(obs), event, result)
            return
        unseen = self._hand_unseen_by_look(event, obs)
        if unseen is not None:
            self._hold(obs, unseen[0], event, result, unseen[1])
            return
        landed = self._landed_with(obs, event)
        if landed is not None:
            # A lookalike of that card is most likely it, read again (a second box): one
            # click that logs nothing (tigullio Great Lakes 2301: Cy's A♦ read as A♥ as it
            # came to rest, "Cy played A♥?" had no answer for the A♦ alone). Any other card
            # may be one laid on that spot a moment later, which the answer would disown.
            question, options = self._question(obs, event)
            if either_alike(landed, obs.cards[0]):
                options = [read_again(landed), *options]
            self._hold(obs, f"read as {Card.parse(landed).pretty()} landed", event, result,
                       (question, options))
            return
        laid_on = self._laid_unmoved(event, obs)
        if laid_on is not None:
            last = self._last_play(obs.seat)
            if last is None or laid_on == last[0]:
                self._hold(obs, f"read where {Card.parse(laid_on).pretty()} lies, the pile "
                                "unmoved since", event, result)
                return
            # A corner of a card under the top one misread: nothing was played, or else the
            # card as read (not a card missed before it, which a reading that breaks a rule
            # would ask about: Michigan 2500 on the cheap webcam, "4♠ was not seen: who
            # played it?" settled by the look once Cy's 4♠ landed, and Bob's 2♣ logged after
            # it). The card under is not named: its spot is where it lay whole, and the
            # corner read may be the top card's other one.
            said, top = (Card.parse(c).pretty() for c in (str(event["card"]), last[0]))
            self._hold(obs, f"read on the pile, unmoved since {top} was laid", event, result,
                       (f"{event.get('player')} played {said}?",
                        [Answer(f"no card (nothing laid on {top})"),
                         Answer(f"{said} as read", (dict(event),))]))
            return
        skipped = self._skipped(event)
        if skipped is not None and self._missed(skipped, event, obs):
            self._hold(obs, comes_next(skipped), event, result)
            return
        passed = self._passed_over(event, obs)
        if passed is not None:
            self._hold(obs, comes_next(passed), event, result)
            return
        doubt = self._doubt(event, lookalike=True) or self._looked_doubtful(event, obs)
        if doubt:
            self._hold(obs, doubt, event, result)
            return
        part = self._doubted_part(event)
        if part and obs.certain:
            # Part of a dump or straight, most likely: it waits for the rest of its move
            # (from its first cards on), and is held if nothing more comes.
            deadline = held[1] if held is not None else obs.t + self.PART_WAIT
            self._partial[obs.zone] = (obs, deadline, part, event)
            return
        move = self._left_by_move_of(event, obs)
        if move is not None:
            self._hold(obs, f"read in {move} as it was laid", event, result)
            return
        suit = self._unsure_suit(event, obs)
        if suit is not None:
            self._hold(obs, f"{Card.parse(suit).pretty()} comes next, on a deck new to the "
                            f"reader", event, result)
            return
        if self._unseen_by_look(event, obs):
            self._hold(obs, f"read at {obs.confidence:.2f}, not seen by a second look",
                       event, result)
            return
        swapped = self._swapped_by_look(event, obs)
        if swapped is not None:
            self._hold(obs, swapped[0], event, result, swapped[1])
            return
        if self._laid_unread(event, obs):
            self._hold(obs, "the pile changed before it with no card read", event, result)
            return
        lost = self._seen_unlogged(event, obs)
        if lost:
            self._hold(obs, f"{' '.join(pretty_cards(lost))} read on the pile before it, "
                            "never logged", event, result)
            return
        if self._laid_more(event, obs):
            self._hold(obs, "more of the pile changed than one card covers", event, result)
            return
        read_twice = self._read_as_logged(event, obs)
        if read_twice is not None:
            self._hold(obs, read_twice[0], event, result, read_twice[1])
            return
        one_place = self._one_place(obs, event)
        if one_place is not None:
            self._hold(obs, "read as two cards on one card's place", event, result, one_place)
            return
        if self._held_peeking(obs, event, result):
            return
        self._log_visual(event, obs, result)

    def _one_place(self, obs: Observation, event: Mapping[str, Any]
                   ) -> tuple[str, list[Answer]] | None:
        """A play of two cards in a game whose moves are one card, the two come to rest
        together closer than half a card's width, or, for two cards easily taken for each
        other, no farther apart than half its diagonal (`HALF_DIAGONAL`, as far as a corner
        index lies from the card's centre): one card read two ways (its box and a corner, or
        its two corners, named apart: an unfamiliar deck) as much as two cards laid in one
        blink. The question, each card alone or both; None otherwise (Pressman 302 with a
        deck the models never saw: Cy's 3♣ logged as 2♣ then 3♣ in silence; the held-out
        tigullio deck's Pressman 2007: Ann's J♦ read as J♦ and, 15.6 board units off, 10♦,
        logged as both in silence while the bound was half a card's width)."""
        cards = list(event.get("cards") or [])
        if self.game in MOVES_OF_SEVERAL or event.get("event") != "play" or len(cards) != 2 \
                or len(obs.positions) != len(obs.cards) or len(obs.cards) != 2 \
                or math.dist(*obs.positions) > (HALF_DIAGONAL if alike(*cards)
                                                else CARD_W / 2):
            return None
        who = str(event.get("player"))
        one = {k: v for k, v in event.items() if k != "cards"}
        answers = [Answer(Card.parse(c).pretty(), ({**one, "card": c},), c)
                   for c in obs.cards if self._accepts_all([{**one, "card": c}])]
        a, b = (Card.parse(c).pretty() for c in cards)
        answers.append(Answer(f"both, {a} then {b}", (dict(event),)))
        # Two cards laid close together may be a hand shown, another's last card unread.
        shown = self._as_hand_shown(obs)
        if shown:
            return f"{who} played {a} or {b}, or shows them as a hand?", [*answers, *shown]
        return f"{who} played {a} or {b}?", answers

    def _misread_in_dump(self, obs: Observation, under: Sequence[str]
                         ) -> tuple[str, list[Answer]] | None:
        """A move of as many cards as a dump lays (Great Lakes, GL-3), one of them a card
        played already: without it the rest is no move, and waiting for its last card would
        gather the next play into it. Where a lookalike of that card, not played yet, makes
        it a legal dump, that lookalike was misread (Great Lakes 941: Ann's dump's 2♠ read
        as her 2♣ under it, and her 7♥ laid a second later taken for the dump's fourth
        card): the question and its answers, the dumps so made. None: no lookalike does."""
        size = self.SEVERAL_AT_ONCE.get(self.game)
        if size is None or len(obs.cards) != size or len(under) != 1 or obs.kind != "pile":
            return None
        card = under[0]
        answers: list[Answer] = []
        for alt in confusable(card):
            if alt in obs.cards or self._round_cards.get(alt, 0) >= self.tracker.config.copies:
                continue
            swapped = replace(obs, cards=[alt if c == card else c for c in obs.cards])
            event = self._interpret(swapped)[0]
            if event is not None and event.get("event") == "play" and "cards" in event:
                answers.append(Answer(" ".join(pretty_cards(event["cards"])), (event,)))
        if not answers:
            return None
        who = answers[0].events[0]["player"]
        return f"{who} played {answers[0].label}?", answers

    def _placed_by_look(self, obs: Observation, result: FrameResult) -> bool:
        """A move of several cards read as fewer or more (`_look_at_move`): logged as the
        second look reads it, or put to people with the moves it may be. False: the look
        made no move of it."""
        found = self._look_at_move(obs)
        if found is None:
            return False
        move, others, sure = found
        said = " ".join(pretty_cards(move["cards"]))
        if not sure:
            # The look is unsure: the move as read first, then the others it may be.
            options = [Answer(" ".join(pretty_cards(m.get("cards") or [m["card"]])), (m,))
                       for m in (move, *others)]
            self._hold(obs, "its lower cards are hard to read", move, result,
                       (f"{move['player']} played {said}?", options))
            return True
        result.notes.append(f"read again: {move['player']} plays {said}")
        self._log_visual(move, obs, result)
        return True

    def _held_peeking(self, obs: Observation, event: Mapping[str, Any],
                      result: FrameResult) -> bool:
        """A move of several cards, one of them read where a card of the same pile that it
        is easily taken for lies, its corner peeking out from under the cards laid on it
        since (Great Lakes 701 on the held-out tigullio deck: Bob's A♠ read with a 5♣ on the
        very spot of his 5♠, logged as his A♠ and a 5♣ led, a move the rules allow after an
        Ace). Where the move without it is one the table takes too, a person says which, the
        card under misread first. Not a whole Great Lakes dump, whose cards lie close over
        the pile by nature. False: nothing read so."""
        cards = list(event.get("cards") or [])
        if event.get("event") != "play" or obs.kind != "pile" or len(cards) < 2 \
                or len(cards) == self.SEVERAL_AT_ONCE.get(self.game) \
                or len(obs.positions) != len(obs.cards):
            return False
        near = 2 * self.tracker.config.same_spot
        peeking: dict[str, str] = {}
        for card, (x, y) in zip(obs.cards, obs.positions, strict=True):
            spots = [(math.hypot(ux - x, uy - y), under)
                     for under, (ux, uy) in self._spot_of.items()
                     if under != card and alike(card, under)
                     and self._played_by.get(under) == obs.seat]
            if spots and min(spots)[0] <= near:
                peeking[card] = min(spots)[1]
        if not peeking:
            return False
        rest = self._interpret(_kept(obs, [c not in peeking for c in obs.cards]))[0]
        if rest is None or rest.get("event") != "play" or not self._accepts(rest)[0]:
            return False
        said = " ".join(pretty_cards(cards))
        misread = ", ".join(f"{Card.parse(c).pretty()} was {Card.parse(u).pretty()} misread"
                            for c, u in peeking.items())
        kept = " ".join(pretty_cards(rest.get("cards") or [rest.get("card")]))
        first = next(iter(peeking))
        self._hold(obs, f"{Card.parse(first).pretty()} read where "
                        f"{Card.parse(peeking[first]).pretty()} lies", dict(event), result,
                   (f"{event.get('player')} played {said}?",
                    [Answer(f"{kept} ({misread})", (rest,)), Answer(said, (dict(event),))]))
        return True

    def _read_at_once(self, card: str, pos: tuple[float, float], since: float) -> bool:
        """Is the logged ``card`` still read on its own spot, away from ``pos``, since
        ``since`` (two cards read as one code at once)?"""
        spot = self._spot_of.get(card)
        if spot is None or np.hypot(spot[0] - pos[0], spot[1] - pos[1]) \
                <= 2 * self.tracker.config.same_spot:
            return False
        return self.tracker.votes_at(*spot, since).get(card, 0) >= self.tracker.config.min_frames

    def _on_spot(self, obs: Observation, under: str, result: FrameResult) -> None:
        """A card read where a counted card lay a frame before: a card laid on it faster
        than a frame, or that card misread from now on. A move the table accepts is a new
        card, unless the two look alike and the table would accept either: then a person
        says. A move the table refuses, or one only hidden hands could excuse, is the card
        under it, misread. Where the card under could be this card only as a move hidden
        hands excuse, the frames to come vote, unless this card is the one the sequence
        expects next: then a person says."""
        card = obs.cards[0]
        event, _why, _offer = self._interpret(obs)
        new_ok = (event is not None and event.get("event") in ("play", "reveal")
                  and self._accepts_all([event]) and self._skipped(event) is None)
        # Or the card under was this card all along, read wrong until now: the vote of
        # every frame since has turned; the log is corrected where the table accepts it.
        corr, doubted = self._correction_doubted(under, card)
        if corr is not None and doubted and not (new_ok and card == self._next_card()):
            # A correction only hidden hands could excuse: the vote of the frames to come
            # decides whether a person is asked (`_recount`); the card is not a new one.
            # Unless it is the very card the sequence expects next, as a play the table
            # takes: that is asked below (Boodle 708 on the held-out tigullio deck: Bob's Q♠
            # laid on his J♠, left to a vote the 6♣ covered before it was decided).
            self.tracker.misread_at(card, *obs.positions[0])
            self._contests.append((under, card, obs.positions[0]))
            result.notes.append(f"{Card.parse(card).pretty()} read where "
                                f"{Card.parse(under).pretty()} lies: the vote decides")
            return
        flip = corr  # the card under read wrong until now: an answer a person may give
        if corr is not None and not self._outvoted(under, card, obs.positions[0]):
            if not new_ok:
                # One card read two ways: the vote of every frame decides, as frames come.
                self.tracker.misread_at(card, *obs.positions[0])
                self._contests.append((under, card, obs.positions[0]))
                return
            corr = None
        if corr is not None and (not new_ok or (event is not None and self._doubt(event))):
            self._resolve_flip(under, card, obs.positions[0], corr, result)
            return
        # Nothing was seen carried there, and the spot was read in every frame (the tracker's
        # on_spot_of): the camera says one card. A move the table refuses agrees: the card
        # under, misread. Unless it is a card played just before the last one logged, which
        # lies on it (Michigan 480: Bob's A♠ landed on his A♣ and was read as it until his Q♥
        # lay on both): then a person says.
        if (event is None or not new_ok) and obs.seat is not None \
                and obs.seat < len(self.players) and obs.kind == "pile":
            play = {"event": "play", "player": self.players[obs.seat], "card": card,
                    **stamp(obs)}
            before = self._came_before(play, obs) if self._round_cards.get(card, 0) == 0 \
                else []
            if before:
                self._hold(obs, f"it lies where {Card.parse(under).pretty()} lay", play, result,
                           (f"{play['player']} played {Card.parse(card).pretty()}?",
                            [*before, Answer(f"no, {Card.parse(under).pretty()} misread", (),
                                             under)]))
                return
            twice = self._logged_twice(card, under)
            if twice is not None:
                self._hold(obs, f"{Card.parse(card).pretty()} was logged by hand", play, result,
                           twice)
                return
        if event is None or not new_ok:
            self.tracker.misread_at(card, *obs.positions[0])
            result.notes.append(f"{Card.parse(card).pretty()} read where "
                                f"{Card.parse(under).pretty()} lies: {Card.parse(under).pretty()}"
                                f" misread")
            return
        # A move only hidden hands could excuse, or a card easily taken for the one under:
        # either may be true, and a wrong guess is a play lost or invented in silence. A
        # person says.
        if event.get("event") == "play" and (alike(card, under)
                                             or self._doubt(event)):
            who = event.get("player")
            answers = [Answer(Card.parse(card).pretty(), (event,)),
                       Answer(f"no, {Card.parse(under).pretty()} misread", (), under)]
            if flip is not None and alike(card, under):
                # Or the card under was this one, read wrong until now, a card easily taken
                # for it (Great Lakes 606: Bob's 2♥ read as 2♦ until Dee's 3♥ was logged
                # after it).
                answers.insert(1, Answer(f"{Card.parse(card).pretty()}, not "
                                         f"{Card.parse(under).pretty()} before", (flip,)))
            # Or a card seen coming to rest on the one under, read as it until now, played
            # before the plays logged since (Boodle 1938).
            answers[1:1] = self._laid_on_before(event, under, obs)
            self._hold(obs, f"it lies where {Card.parse(under).pretty()} lay", event,
                       result, (f"{who} played {Card.parse(card).pretty()}?", answers))
            return
        self._log_visual(event, obs, result)

    # --- chips ------------------------------------------------------------------------------
    def ledger_cups(self) -> dict[str, int]:
        """Chips the referee's ledger holds in each physical cup of the profile."""
        from vision.chips import ledger_cups

        if self.referee is None:
            return {}
        return ledger_cups(self.referee.ledger.accounts, set(self.referee.ledger.players),
                           [c.name for c in self.profile.cups])

    def _check_chips(self, frame: np.ndarray, result: FrameResult) -> None:
        assert self.chip_counter is not None
        if self.tracker_busy():
            return  # a hand may be over the board: count another time
        seen = self.chip_counter(frame, self.profile)
        ledger = self.ledger_cups()
        for cup, want in ledger.items():
            got = seen.get(cup)
            if got is None:
                continue
            if got == want:
                self._chip_streak.pop(cup, None)
                continue
            streak = self._chip_streak.get(cup)
            n = streak[2] + 1 if streak and streak[:2] == (want, got) else 1
            self._chip_streak[cup] = (want, got, n)
            if n >= self.chip_confirm and (cup, want, got) not in self._chip_said:
                self._chip_said.add((cup, want, got))
                word = "short" if got < want else "over"
                text = f"{cup} looks {word}: ledger {want}, seen {got}"
                result.chip_warnings.append(text)
                result.announcements.append(text)

    def _check_focus(self, frame: np.ndarray, result: FrameResult) -> None:
        """Judge the picture's focus on the board. Where it turns soft, say so once and hold
        more readings for a person (`SOFT_CONFIRM_BELOW`); where it is sharp again, say so
        and trust the readings as before."""
        from calibration.focus import SOFT_FOCUS_PX, picture_blur

        blur = picture_blur(frame, self.profile.board_corners_px())
        if blur is None:
            return  # the board covered, or nothing on it to judge
        was = self.focus_px is not None and self.focus_px >= SOFT_FOCUS_PX
        self.focus_px = blur
        soft = blur >= SOFT_FOCUS_PX
        if soft == was:
            return
        below = max(self._confirm_below, SOFT_CONFIRM_BELOW) if soft else self._confirm_below
        self.tracker.config = replace(self.tracker.config, confirm_below=below)
        result.notes.append(
            f"The picture is out of focus (the board blurs over {blur:.1f} px): turn the "
            "webcam's focus ring until the board's print is crisp. Until then more cards "
            "are asked about." if soft else "The picture is in focus again.")

    def tracker_busy(self) -> bool:
        """True while some card is moving (a hand is probably over the table)."""
        return any(not counted for trs in self.tracker.tracked().values()
                   for _x, _y, counted in trs)

    # --- the loop ---------------------------------------------------------------------------
    def run(self, source: FrameSource, stop_event: threading.Event | None = None,
            on_result: Callable[[FrameResult], None] | None = None,
            realtime: bool | None = None, max_frames: int | None = None) -> RunStats:
        """Process a source until it ends or ``stop_event`` is set.

        A live source (or ``realtime=True``) is read on its own thread and only the newest
        frame is processed, so the pipeline keeps up by dropping stale frames, never by lagging.
        A recorded source is processed frame by frame on its own timeline.
        """
        stop = stop_event or threading.Event()
        live = source.live if realtime is None else realtime
        stats = RunStats()
        began = time.perf_counter()
        reader = LatestFrame(source) if live else None
        try:
            while not stop.is_set():
                if max_frames is not None and stats.frames >= max_frames:
                    break
                frame = reader.get(timeout=0.5) if reader is not None else source.read()
                if frame is None:
                    if reader is None or reader.ended:
                        break
                    continue
                res = self.process(frame.image, frame.t, frame.index, frame.gap)
                stats.frames += 1
                stats.events += len(res.events)
                stats.latencies.extend(res.latency)
                stats.process_ms.append(res.ms)
                if on_result is not None:
                    on_result(res)
        finally:
            if reader is not None:
                stats.dropped = reader.dropped
                reader.close()
        stats.seconds = time.perf_counter() - began
        return stats




def _without(cards: Sequence[tuple[str, float, float]],
             others: Sequence[tuple[str, float, float]]) -> list[tuple[str, float, float]]:
    """``cards`` less one card of each code in ``others`` (two decks: two copies)."""
    left = [c for c, _x, _y in others]
    out = []
    for card in cards:
        if card[0] in left:
            left.remove(card[0])
        else:
            out.append(card)
    return out


def _kept(obs: Observation, keep: list[bool]) -> Observation:
    """``obs`` with only the cards ``keep`` marks (and what it says of each)."""
    def pick(values: list[Any]) -> list[Any]:
        return [v for v, k in zip(values, keep, strict=False) if k]
    return replace(obs, cards=pick(obs.cards), positions=pick(obs.positions),
                   votes=pick(obs.votes), on_spot_of=pick(obs.on_spot_of),
                   returned=pick(obs.returned), twin=pick(obs.twin))


def _merge(first: Observation, later: Observation) -> Observation:
    """One observation of the cards of two, in the order they settled."""
    return Observation(
        zone=first.zone, zone_name=first.zone_name, kind=first.kind, seat=first.seat,
        cards=first.cards + [c for c in later.cards if c not in first.cards],
        confidence=min(first.confidence, later.confidence), t=later.t,
        t_still=later.t_still, certain=first.certain and later.certain,
        looked=first.looked and later.looked,
        positions=first.positions + later.positions,
        votes=first.votes + [v for c, v in zip(later.cards, later.votes, strict=False)
                             if c not in first.cards])
