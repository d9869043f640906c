"""The live pipeline: frames in, a clean stream of game events out (DESIGN.md's flow).

`TablePipeline.process(frame, t)` runs the detector, keeps only cards inside the calibrated
zones, debounces them with the tracker, turns settled cards into events (asking the referee only
whether a lay is a play or a reveal, never what the cards are), appends them to the event log
and returns plain data for a window or the console. Qt-free; the window runs it in a QThread.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from calibration.profile import TableProfile
from companion.cards import CARD_CODES, Card
from companion.diagnostics import log_failure
from companion.events import Event, EventLog, read_log
from companion.referee import EventError, Referee, replay
from vision.detections import Detections
from vision.sources.camera import FrameSource, LatestFrame
from vision.tracker import Observation, Tracker, TrackerConfig

#: Events that start a new deal: every card may be played again after them.
NEW_DEAL = frozenset({"round", "hand"})
#: What the referee raises for an event it refuses (anything else is a fault in it).
REFUSED = (EventError, ValueError, TypeError, KeyError)
#: A frame that comes more than this many seconds after the one before it (`Frame.gap`)
#: follows an outage: what changed on the table meanwhile was not seen, so it is put to people.
OUTAGE_GAP = 1.5
#: How long after an outage the cards on the table are given to settle again: the table is
#: then compared with the table before it, and nothing that settled meanwhile is logged alone.
OUTAGE_SETTLE = 1.0
_log = logging.getLogger("companion.pipeline")


class Detector(Protocol):
    """Anything with ``detect(frame_bgr) -> Detections`` (the YOLO runtime, or a test double)."""

    def detect(self, frame_bgr: np.ndarray) -> Detections: ...


@runtime_checkable
class TableReader(Protocol):
    """A detector that reads only the profile's zones (`vision.zones.ZoneReader`)."""

    def detect_table(self, frame_bgr: np.ndarray, profile: TableProfile) -> Detections: ...


@dataclass(frozen=True)
class Answer:
    """One of the one-click answers to a held reading: its label for people ("6♣", "Cy",
    "not a card") and the events it logs, in order (none: nothing happened)."""

    label: str
    events: tuple[dict[str, Any], ...] = ()
    #: The card this answer says the held reading is, when it says one: the camera reading
    #: that card on the spot again and again settles the question with this answer.
    card: str | None = None


@dataclass
class Pending:
    """A reading held for a person to confirm: the event it would log and why it is held.

    ``question`` (when set) is the sentence put to people ("Bob played 6♣?", "6♣ was not
    seen: who played it?") and ``options`` its one-click answers, the likeliest first."""

    id: int
    event: dict[str, Any]
    reason: str
    observation: Observation
    question: str = ""
    options: list[Answer] = field(default_factory=list)
    #: Frame time the question was put (its spot's readings since then may settle it).
    asked: float = 0.0

    def ask(self) -> str:
        """The question alone, for a window that shows the answers as buttons."""
        if not self.question:
            return self.describe()
        return f"{self.question} ({self.reason})" if self.reason else self.question

    def describe(self) -> str:
        if self.question:
            labels = [a.label for a in self.options] + ["something else"]
            why = f" ({self.reason})" if self.reason else ""
            return f"{self.question}{why} — {' / '.join(labels)}"
        cards = " ".join(Card.parse(c).pretty() for c in self.observation.cards)
        who = self.event.get("player") or self.observation.zone_name
        if self.event.get("event") == "reveal":
            return f"Confirm {who}'s hand: {cards}? ({self.reason})"
        return f"Confirm {who}: {cards}? ({self.reason})"


@dataclass
class FrameResult:
    """What one frame produced, as plain data (safe to hand to another thread).

    - ``detections``: cards seen inside readable zones, ``{"card","box","score","zone"}``;
    - ``events``: ``(line, event)`` appended to the log during this frame;
    - ``announcements``: the referee's sentences for those events (and chip warnings);
    - ``pending``: readings now waiting for confirmation; ``chip_warnings``; ``notes``;
    - ``latency``: for each event, seconds from the cards coming to rest to this frame;
    - ``ms``: processing time of this frame.
    """

    t: float
    index: int
    detections: list[dict[str, Any]] = field(default_factory=list)
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    announcements: list[str] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    chip_warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    latency: list[float] = field(default_factory=list)
    ms: float = 0.0


@dataclass
class RunStats:
    """How a run went: frames processed and dropped, frame rate, events, latencies."""

    frames: int = 0
    dropped: int = 0
    seconds: float = 0.0
    events: int = 0
    latencies: list[float] = field(default_factory=list)
    process_ms: list[float] = field(default_factory=list)

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0


class TablePipeline:
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
    same zone before they are held for confirmation.
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
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.profile = profile
        self.detector = detector
        self.log = log if isinstance(log, EventLog) else EventLog(log)
        self.clock = clock
        self.script = sorted((dict(e) for e in script), key=lambda e: int(e.get("at", 0)))
        self.visual_count = 0
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
        #: Card -> where on the table it was read when it was logged (this round).
        self._spot_of: dict[str, tuple[float, float]] = {}
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
            from dataclasses import replace as _replace

            cfg = _replace(cfg, copies=copies)
        self.tracker = Tracker(profile.zones, cfg)

    # --- the log and the referee -----------------------------------------------------------
    def _script_game(self) -> dict[str, Any] | None:
        for i, ev in enumerate(self.script):
            if ev.get("event") == "game":
                self.script.pop(i)
                return {k: v for k, v in ev.items() if k != "at"}
        return None

    def _resume(self, events: list[Event]) -> None:
        rep = replay(events)
        self.referee = rep.referee
        self.players = list(rep.referee.players) if rep.referee is not None else []
        self.visual_count = sum(1 for e in events if e.kind in ("play", "reveal", "trump"))
        self.script = [e for e in self.script if int(e.get("at", 0)) >= self.visual_count
                       and e.get("event") != "game"]
        for ev in events:
            self._note_cards(ev.data)

    def _note_cards(self, ev: Mapping[str, Any]) -> None:
        kind = ev.get("event")
        if kind in NEW_DEAL:
            self._round_cards.clear()
            self._played_by.clear()
            self._line_of.clear()
            self._spot_of.clear()
        elif kind in ("play", "reveal"):
            player = str(ev.get("player"))
            players: list[str] = getattr(self, "players", [])
            seat = players.index(player) if player in players else None
            for c in ([ev["card"]] if "card" in ev else list(ev.get("cards") or [])):
                self._round_cards[str(c)] = self._round_cards.get(str(c), 0) + 1
                self._played_by[str(c)] = seat

    def _append(self, event: Mapping[str, Any], out: list[str],
                result: FrameResult | None = None) -> int:
        """Append an event to the log, apply it, collect the referee's new announcements."""
        data = dict(event)
        if data.get("event") == "correct":
            return self._append_correction(data, out, result)
        line = self.log.append(data)
        self._note_cards(data)
        if data.get("event") == "play" and "card" in data:
            self._line_of[str(data["card"])] = (line, data)
        if data.get("event") == "game":
            rep = replay([Event(data, line)])
            self.referee = rep.referee
            if self.referee is not None:
                out.extend(a.text for a in self.referee.announcements)
            for err in rep.errors:
                self.errors.append(err.text)
            if result is not None:
                result.events.append((line, data))
            return line
        ref = self.referee
        if ref is not None:
            n = len(ref.announcements)
            mark = ref.checkpoint()
            try:
                ref.apply(Event(data, line))
            except REFUSED as exc:
                ref.rollback(mark)
                self.errors.append(f"line {line}: {exc}")
                out.append(f"Line {line} not accepted: {exc}")
                _log.warning("%s: line %d not accepted: %s", self.log.path, line, exc)
            else:
                out.extend(a.text for a in ref.announcements[n:])
        if result is not None:
            result.events.append((line, data))
        return line

    def _append_correction(self, data: dict[str, Any], out: list[str],
                           result: FrameResult | None) -> int:
        """Log a ``correct`` event (a card read wrong, then right) and rebuild the referee and
        the round's cards from the whole log (a correction may change everything after)."""
        old = next((ev for _c, (ln, ev) in self._line_of.items() if ln == data.get("line")),
                   None)
        if old is not None and "card" in old:  # that reading was not that card
            was = str(old["card"])
            if was in self._spot_of:
                self.tracker.misread_at(was, *self._spot_of.pop(was))
            else:
                self.tracker.disown(was, 0.0, 0.0)
        line = self.log.append(data)
        events = read_log(self.log.path).events
        rep = replay(events)
        self.referee = rep.referee
        self._round_cards.clear()
        self._played_by.clear()
        self._line_of.clear()
        from companion.events import apply_corrections

        for ev in apply_corrections(events)[0]:
            self._note_cards(ev.data)
            if ev.kind == "play" and "card" in ev.data:
                self._line_of[str(ev.data["card"])] = (ev.line, dict(ev.data))
        new = data.get("with") or {}
        cards = " ".join(_pretty([new["card"]])) if "card" in new else ""
        out.append(f"Correction: {new.get('player')} played {cards}" if cards
                   else f"Line {data.get('line')} corrected")
        if result is not None:
            result.events.append((line, data))
        return line

    def _outvoted(self, under: str, card: str, pos: tuple[float, float]) -> bool:
        """Has ``card`` been read on the spot of the logged ``under`` more often than ``under``
        since it was logged (every frame's vote)?"""
        logged = self._line_of.get(under)
        if logged is None:
            return False
        since = float(logged[1].get("t", 0.0)) - 0.05
        votes = self.tracker.votes_at(pos[0], pos[1], since)
        return votes.get(card, 0) > max(self.reread_frames, 1.5 * votes.get(under, 0))

    def _which_reading(self, under: str, card: str, pos: tuple[float, float]) -> str | None:
        """A card logged as ``under`` and read as ``card`` on the same spot since, the later
        reading winning the vote: which was it, by the table and the camera? The one the
        sequence expected when it was played (3♣ after 2♣ rather than a lead of 3♦) when
        only one was; else ``card`` when ``under`` was read as itself in fewer than
        ``reread_frames`` frames since it was logged (it settled while its reading was still
        changing); None when both readings held steady: the camera alone cannot say."""
        line, logged = self._line_of[under]
        next_card = getattr(replay([e for e in read_log(self.log.path).events
                                    if e.line < line]).referee, "next_card", None)
        expected = next_card() if callable(next_card) else None
        if expected in (under, card):
            return str(expected)
        since = float(logged.get("t", 0.0)) - 0.05
        steady = self.tracker.votes_at(pos[0], pos[1], since).get(under, 0) >= self.reread_frames
        return None if steady else card

    def _resolve_flip(self, under: str, card: str, pos: tuple[float, float],
                      corr: dict[str, Any], result: FrameResult) -> None:
        """A card logged as ``under``, read as ``card`` on its spot since, the table
        accepting either (``corr`` makes it ``card``): the log is corrected, kept, or a person
        is asked, as `_which_reading` says."""
        was, now = Card.parse(under).pretty(), Card.parse(card).pretty()
        verdict = self._which_reading(under, card, pos)
        if verdict == under:
            self.tracker.misread_at(card, *pos)
            result.notes.append(f"{now} read where {was} lies: {was} came next, {now} misread")
        elif verdict is None:
            if not any(held.observation.cards == [card] for held in self.pending.values()):
                self._ask_flip(under, card, pos, corr, result)  # unless it is asked already
        else:
            self.tracker.misread_at(under, *pos)
            self._append(corr, result.announcements, result)
            result.notes.append(f"read again: {now}, not {was}")
            self._spot_of[card] = pos
            for pid, held in list(self.pending.items()):  # the question it answers
                if held.observation.cards == [card]:
                    del self.pending[pid]

    def _ask_flip(self, under: str, card: str, pos: tuple[float, float], corr: dict[str, Any],
                  result: FrameResult) -> None:
        """Hold the question a card read steadily as ``under`` (logged) and then steadily as
        ``card`` puts: which was it? The camera settles it if it reads ``under`` again."""
        logged = self._line_of[under][1]
        zone = int(self.tracker.zone_of(np.array([pos]))[0])
        seat = self.players.index(str(logged.get("player"))) \
            if logged.get("player") in self.players else None
        obs = Observation(
            zone=zone, zone_name=self.profile.zones[zone].name if zone >= 0 else "",
            kind="pile", seat=seat, cards=[card], confidence=float(logged.get("confidence", 1)),
            t=self.tracker.t, t_still=float(logged.get("t", self.tracker.t)),
            positions=[pos], votes=[self.tracker.votes_at(*pos, float(logged.get("t", 0)))])
        was, now = Card.parse(under).pretty(), Card.parse(card).pretty()
        answers = [Answer(f"{now}, not {was} before", (corr,)),
                   Answer(f"{was} as logged ({now} misread)", (), under)]
        self._hold(obs, f"read as {was}, then as {now}", corr, result,
                   (f"{logged.get('player')} played {was} or {now}?", answers))

    def _recount(self, result: FrameResult) -> None:
        """Contested cards (logged as one card, read as another since): once the other
        reading wins the vote, or has been read steadily for a while (``2 * reread_frames``
        of the last 2 s), the table and the vote decide (`_resolve_flip`): corrected, kept
        or asked; never kept in silence for want of frames."""
        for contest in list(self._contests):
            under, card, (x, y) = contest
            if under not in self._line_of or not self.tracker.votes_at(x, y, self.tracker.t
                                                                       - 2.0):
                self._contests.remove(contest)  # a new deal, or the card is gone
                continue
            if not self._outvoted(under, card, (x, y)) and self.tracker.votes_at(
                    x, y, self.tracker.t - 2.0).get(card, 0) < 2 * self.reread_frames:
                continue  # neither outvoted nor read steadily for a while: wait and see
            self._contests.remove(contest)
            corr = self._correction(under, card)
            if corr is not None:
                self._resolve_flip(under, card, (x, y), corr, result)

    def _correction(self, card: str, new_card: str) -> dict[str, Any] | None:
        """The ``correct`` event that makes the play logged as ``card`` this round a play of
        ``new_card``, when the table accepts the log that way (nothing refused, no new rule
        broken); None otherwise."""
        logged = self._line_of.get(card)
        if logged is None or self._round_cards.get(new_card, 0):
            return None
        line, old = logged
        fixed = {**old, "card": new_card}
        corr = {"event": "correct", "line": line, "with": fixed}
        events = read_log(self.log.path).events
        before = replay(events)
        after = replay([*events, Event(corr, self.log.lines + 1)])
        if after.referee is None or before.referee is None or after.errors:
            return None
        if len(after.referee.violations) > len(before.referee.violations):
            return None
        # Never a clean move into one only hidden hands could excuse (3♦ then 4♦ followed;
        # 4♥ there would be a lead out of turn): the table keeps the reading it can place.
        there = replay([e for e in events if e.line < line]).referee
        doubtful = getattr(there, "doubtful", None)
        if callable(doubtful) and doubtful(str(old.get("player")), new_card) \
                and not doubtful(str(old.get("player")), card):
            return None
        return corr

    def _flush_script(self, upto: int, out: list[str], result: FrameResult | None) -> None:
        while self.script and int(self.script[0].get("at", 0)) <= upto:
            ev = {k: v for k, v in self.script.pop(0).items() if k != "at"}
            self._append(ev, out, result)

    def inject(self, event: Mapping[str, Any]) -> tuple[int, list[str]]:
        """Log an event a person entered (a bid, the dummy decision, a new round...)."""
        out: list[str] = []
        line = self._append(event, out)
        return line, out

    def flush(self) -> FrameResult:
        """No frame will follow (the video ended, the camera stopped): the readings that
        waited behind questions since answered are placed, and the moves still gathering
        their cards (and the changes since an outage) are held for a person. What it holds
        comes back in ``pending``: once those are answered, call it again to place what
        waited behind them."""
        result = FrameResult(self.tracker.t, -1)
        if self._outage is not None:  # it ended while the table settled after an outage
            self._after_outage(self.tracker.t, result)
        self._drain(result)
        if not self.pending:
            for zone, (obs, _deadline, why, offer) in list(self._partial.items()):
                del self._partial[zone]
                self._hold(obs, why, offer, result)
            self._drain(result)
        result.pending = list(self.pending.values())
        return result

    def finish(self) -> list[str]:
        """Place what still waits (`flush`), log the rest of the script (events after the last
        card) and close the log. Questions still open stay in ``pending``."""
        out: list[str] = list(self.flush().announcements)
        self._flush_script(10**9, out, None)
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
    def _accepts(self, event: dict[str, Any]) -> tuple[bool, int, str]:
        """Would the referee accept ``event`` now (with how many new violations), and its
        reason when it refuses?"""
        ref = self.referee
        if ref is None:
            return True, 0, ""
        mark = ref.checkpoint()
        n = len(ref.violations)
        try:
            ref.apply(Event(event, self.log.lines + 1))
            return True, len(ref.violations) - n, ""
        except REFUSED as exc:
            return False, 0, str(exc) or type(exc).__name__
        except Exception as exc:  # noqa: BLE001 - a fault of the referee: logged, not this
            log_failure("the referee failed on a reading", exc)
            return False, 0, str(exc) or type(exc).__name__
        finally:
            ref.rollback(mark)

    def _interpret(self, obs: Observation
                   ) -> tuple[dict[str, Any] | None, str, dict[str, Any] | None]:
        """(event, "", None) for a settled observation the referee places; (None, why, offer)
        when a person must decide, ``offer`` being the event to put to them (None: a play)."""
        extra = {"t": round(obs.t_still, 3), "confidence": round(obs.confidence, 3)}
        if obs.kind == "trump":
            if len(obs.cards) != 1:
                return None, "several cards in the trump spot", None
            return {"event": "trump", "card": obs.cards[0], **extra}, "", None
        if obs.kind != "pile" or obs.seat is None or obs.seat >= len(self.players):
            return None, f"cards in the {obs.zone_name} area", None
        player = self.players[obs.seat]
        reveal = {"event": "reveal", "player": player, "cards": list(obs.cards), **extra}
        if self.game == "wanagan":
            return reveal, "", None  # WA-3: every lay is a hand shown
        options: list[dict[str, Any]] = []
        if len(obs.cards) == 1:
            options.append({"event": "play", "player": player, "card": obs.cards[0], **extra})
        else:
            for first in obs.cards:  # GL-3: the next-in-sequence card comes first
                rest = [c for c in obs.cards if c != first]
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
        if gap > OUTAGE_GAP:
            before = self._outage[0] if self._outage is not None else self._lying(
                self.tracker.t - self.tracker.config.lost_time)
            away = gap + (self._outage[1] if self._outage is not None else 0.0)
            self._outage = (before, away, t + OUTAGE_SETTLE)
        if self.refit is not None and t - self._refit_last >= self.refit_every:
            self._refit_last = t
            h = self.refit(frame)
            if h is not None:
                self.profile = self.profile.with_homography(h)
        dets = (self.detector.detect_table(frame, self.profile)
                if isinstance(self.detector, TableReader) else self.detector.detect(frame))
        inverse = self.profile.inverse
        observations = self.tracker.update(t, dets, inverse)
        if len(dets):
            from calibration.profile import apply_homography

            zones = self.tracker.zone_of(apply_homography(inverse, dets.centers))
            for (name, box, score), z in zip(dets, zones, strict=True):
                if z >= 0:  # cards outside the zones are neither shown nor kept
                    result.detections.append({"card": name, "box": [round(v, 1) for v in box],
                                              "score": round(score, 3),
                                              "zone": self.profile.zones[z].name})
        if self._outage is not None:
            observations = []  # settled across the outage: compared with the table before it
        self._reread(t, result)
        self._recount(result)
        if self.queue_questions:
            # In table order: a card counted again after an answer (the real card of a code
            # misread before) goes before the readings that waited behind the question.
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
        if self.chip_counter is not None and t - self._chip_last >= self.chip_every:
            self._chip_last = t
            self._check_chips(frame, result)
        result.pending = list(self.pending.values())
        result.ms = (self.clock() - start) * 1000.0
        return result

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
            said = [f"{' '.join(_pretty([c for c, _x, _y in laid]))} laid"] if laid else []
            said += [f"{' '.join(_pretty([c for c, _x, _y in gone]))} gone"] if gone else []
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
        if len(obs.cards) == 1 and obs.on_spot_of and obs.on_spot_of[0] \
                and obs.zone not in self._partial:
            # Read where a counted card lay a frame before: that card misread, or a new one
            # laid on it (a card played twice included: the table decides).
            self._on_spot(obs, obs.on_spot_of[0], result)
            return
        copies = self.tracker.config.copies
        fresh = [c for c in obs.cards if self._round_cards.get(c, 0) < copies]
        if obs.kind == "pile" and len(fresh) < len(obs.cards):
            dup = [c for c in obs.cards if c not in fresh]
            elsewhere = [c for c in dup if self._played_by.get(c, obs.seat) != obs.seat]
            # Or in the same pile, but read while the logged card was still read on its own
            # spot: two cards at once, not the card under a new one peeking out.
            twice = [c for c, pos in zip(obs.cards, obs.positions, strict=False)
                     if c in dup and self._read_at_once(c, pos, obs.t_still)]
            if len(obs.cards) == 1 and (elsewhere or twice) and self.game != "wanagan":
                # One card cannot lie in two places: this reading or the earlier one is wrong.
                c = (elsewhere or twice)[0]
                seat = self._played_by.get(c)
                who = self.players[seat] if seat is not None and seat < len(self.players) \
                    else "someone"
                self._hold(obs, f"{Card.parse(c).pretty()} was played by {who} already",
                           None, result)
                return
            # The card under a new one peeking out (or the same card read again): not a play.
            # A card played in another pile cannot lie in this one: a card misread, kept for
            # the table to refuse the move and the camera to read it again.
            under = [c for c in dup if c not in elsewhere]
            result.notes.append(f"{' '.join(_pretty(under or dup))} already played this "
                                f"round; {'ignored' if under else 'misread'}")
            fresh = [c for c in obs.cards if c not in under]
            if not fresh:
                return
            keep = [c in fresh for c in obs.cards]
            obs.votes = [v for v, k in zip(obs.votes, keep, strict=False) if k]
            obs.positions = [p for p, k in zip(obs.positions, keep, strict=False) if k]
            obs.cards = fresh
        held = self._partial.pop(obs.zone, None)
        if held is not None:
            # The rest of a move the referee could not place alone (a hand uncovering the
            # other cards of a revealed hand a moment later): try them together.
            obs = _merge(held[0], obs)
        event, why, offer = self._interpret(obs)
        if event is None and obs.kind == "pile" and obs.certain:
            self._partial[obs.zone] = (obs, obs.t + self.merge_window, why, offer)
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
        skipped = self._skipped(event)
        if skipped is not None and self._missed(skipped, event, obs):
            self._hold(obs, f"{Card.parse(skipped).pretty()} comes next", event, result)
            return
        doubt = self._doubt(event, lookalike=True)
        if doubt:
            self._hold(obs, doubt, event, result)
            return
        self._log_visual(event, obs, result)

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
        under it, misread."""
        card = obs.cards[0]
        event, _why, _offer = self._interpret(obs)
        new_ok = (event is not None and event.get("event") in ("play", "reveal")
                  and self._accepts_all([event]) and self._skipped(event) is None)
        # Or the card under was this card all along, read wrong until now: the vote of
        # every frame since has turned; the log is corrected where the table accepts it.
        corr = self._correction(under, card)
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
        # on_spot_of): the camera says one card. A move the table refuses, or one only hidden
        # hands could excuse, agrees: the card under, misread.
        if event is None or not new_ok or self._doubt(event):
            self.tracker.misread_at(card, *obs.positions[0])
            result.notes.append(f"{Card.parse(card).pretty()} read where "
                                f"{Card.parse(under).pretty()} lies: {Card.parse(under).pretty()}"
                                f" misread")
            return
        if event.get("event") == "play" and card in lookalikes(under)[:3]:
            who = event.get("player")
            answers = [Answer(Card.parse(card).pretty(), (event,)),
                       Answer(f"no, {Card.parse(under).pretty()} misread", (), under)]
            if corr is not None:
                answers.insert(1, Answer(f"{Card.parse(card).pretty()}, not "
                                         f"{Card.parse(under).pretty()} before", (corr,)))
            self._hold(obs, f"it lies where {Card.parse(under).pretty()} lay", event,
                       result, (f"{who} played {Card.parse(card).pretty()}?", answers))
            return
        self._log_visual(event, obs, result)

    def _hold(self, obs: Observation, reason: str, event: dict[str, Any] | None,
              result: FrameResult,
              asked: tuple[str, list[Answer]] | None = None) -> None:
        if event is None:
            player = (self.players[obs.seat] if obs.seat is not None
                      and obs.seat < len(self.players) else None)
            event = {"event": "play", "player": player, "cards": list(obs.cards)}
        pid = next(self._ids)
        question, options = asked or self._question(obs, event)
        self.pending[pid] = Pending(pid, event, reason, obs, question, options,
                                    max(obs.t, self.tracker.t))
        result.notes.append(self.pending[pid].describe())

    # --- questions --------------------------------------------------------------------------
    def _skipped(self, event: Mapping[str, Any]) -> str | None:
        """The card a play jumps past in its own suit's sequence (5♣ then 7♣: 6♣), when the
        rule set says which card comes next; None otherwise."""
        next_card = getattr(self.referee, "next_card", None)
        card = event.get("card")
        if event.get("event") != "play" or not isinstance(card, str) or next_card is None:
            return None
        nxt = next_card()
        if not isinstance(nxt, str) or nxt == card or nxt[1] != card[1]:
            return None
        return nxt if RANKS.index(card[0]) > RANKS.index(nxt[0]) else None

    def _accepts_all(self, events: Sequence[dict[str, Any]]) -> bool:
        """Would the referee accept these events one after another, breaking no rule?"""
        ref = self.referee
        if ref is None:
            return True
        mark = ref.checkpoint()
        n = len(ref.violations)
        try:
            for i, ev in enumerate(events):
                ref.apply(Event(ev, self.log.lines + 1 + i))
            return len(ref.violations) == n
        except REFUSED:
            return False
        except Exception as exc:  # noqa: BLE001 - a fault of the referee: logged, not offered
            log_failure("the referee failed on a possible answer", exc)
            return False
        finally:
            ref.rollback(mark)

    def _doubt(self, event: Mapping[str, Any], lookalike: bool = False) -> str:
        """The rule set's reason why a single-card play would be a move only hidden hands
        can excuse (`MichiganReferee.doubtful`), or "". With ``lookalike``, only where the
        card that comes next is one the reading is easily taken for, its colour kept (3♠
        led after 2♣ where 3♣ follows; not 10♥ where 10♣ follows, as a reader tells red
        from black): a rare lead is otherwise a real one."""
        doubtful = getattr(self.referee, "doubtful", None)
        card = event.get("card")
        if event.get("event") != "play" or not isinstance(card, str) or not callable(doubtful):
            return ""
        if lookalike:
            next_card = getattr(self.referee, "next_card", None)
            if not callable(next_card) or next_card() not in lookalikes(card)[:3]:
                return ""
        return str(doubtful(str(event.get("player")), card) or "")

    def _missed(self, skipped: str, event: Mapping[str, Any], obs: Observation) -> bool:
        """Was ``skipped`` (the card a play jumps past) played and missed by the camera,
        rather than dead? A same-suit lead after a stop is legal only where the leader holds
        no other suit allowed, and then it is the leader's: a jump by anyone else, or one
        past a card the camera did read a few times lately, is put to a person."""
        leader = getattr(self.referee, "stop_leader", None)
        if callable(leader) and leader() not in (None, event.get("player")):
            return True
        return self.tracker.reads_of(skipped, obs.t_still - 3.0) >= 2

    def _question(self, obs: Observation, event: Mapping[str, Any]
                  ) -> tuple[str, list[Answer]]:
        """The question for a held reading and its one-click answers, the likeliest first:
        the cards the camera also read on that spot, then the cards it is easily taken for;
        only answers the table accepts (no card played twice, no rule broken)."""
        if (obs.kind != "pile" or obs.seat is None or obs.seat >= len(self.players)
                or self.game == "wanagan"):
            return "", []
        ran_out = self._ran_out(obs)
        if ran_out is not None:
            return ran_out
        if len(obs.cards) != 1:
            fixes = self._earlier_misread(dict(event)) if event.get("cards") else []
            if not fixes:
                return "", []
            verb = "hand" if event.get("event") == "reveal" else "play"
            return (f"Confirm {event.get('player')}'s {verb}: "
                    f"{' '.join(_pretty(list(event['cards'])))}?", fixes)
        player = self.players[obs.seat]
        read = obs.cards[0]
        extra = {k: event[k] for k in ("t", "confidence") if k in event}
        kind = str(event.get("event") or "play")

        def ev(card: str, who: str = player) -> dict[str, Any]:
            if kind == "reveal":
                return {"event": "reveal", "player": who, "cards": [card], **extra}
            return {"event": "play", "player": who, "card": card, **extra}

        unplayed = [c for c in CARD_CODES if self._round_cards.get(c, 0) == 0]
        options: list[Answer] = []
        if self._round_cards.get(read, 0) == 0 and self._accepts(ev(read))[0]:
            options.append(Answer(Card.parse(read).pretty(), (ev(read),)))
        votes = obs.votes[0] if obs.votes else {}
        seen = sorted((c for c in votes if c != read), key=lambda c: -votes[c])
        for alt in [*seen, *lookalikes(read)]:
            if len(options) >= 4:
                break
            if alt in unplayed and not any(a.events[-1] == ev(alt) for a in options) \
                    and self._accepts_all([ev(alt)]):
                options.append(Answer(Card.parse(alt).pretty(), (ev(alt),), alt))
        # Or it lies where a card logged this round was read: that card, read wrong before.
        if obs.positions:
            x, y = obs.positions[0]
            close = 1.5 * self.tracker.config.same_spot
            for under, (ux, uy) in list(self._spot_of.items()):
                if (under != read and np.hypot(ux - x, uy - y) <= close
                        and (corr := self._correction(under, read)) is not None):
                    options.insert(0, Answer(f"{Card.parse(read).pretty()}, not "
                                             f"{Card.parse(under).pretty()} before", (corr,)))
                    self._contests.append((under, read, (x, y)))
        if kind == "play" and not (read in unplayed and self._accepts_all([ev(read)])
                                   and self._skipped(ev(read)) is None):
            options[:0] = self._misread_before(ev(read))
        skipped = self._skipped(ev(read))
        if kind == "play" and read in unplayed and (
                skipped is not None or not self._accepts_all([ev(read)])):
            # A card the camera missed: one unseen card played before this one makes the
            # reading fit (a sequence that jumps, 5♣ then 7♣: who played 6♣?).
            rank = RANKS.index(read[0])
            near = sorted((c for c in unplayed
                           if c[1] == read[1] and RANKS.index(c[0]) < rank),
                          key=lambda c: (c != skipped, abs(RANKS.index(c[0]) - rank + 1)))
            for missing in near[:4]:
                who = [p for p in self.players
                       if self._accepts_all([ev(missing, p), ev(read)])]
                if who:
                    answers = [Answer(p, (ev(missing, p), ev(read))) for p in who]
                    others = [Answer(f"nobody ({a.label} as read)" if a.events == (ev(read),)
                             else f"it was {a.label}" if a.card else a.label, a.events,
                             a.card) for a in options]
                    return (f"{Card.parse(missing).pretty()} was not seen: who played it?",
                            answers + others)
        verb = "shows" if kind == "reveal" else "played"
        return f"{player} {verb} {Card.parse(read).pretty()}?", options

    def _misread_before(self, event: dict[str, Any], plays: int = 4) -> list[Answer]:
        """Answers where one of the last ``plays`` cards logged this round was misread: read
        as a card it is easily taken for (or for which it is), the log then accepts ``event``
        as read, breaking no rule (6♦ played twice: the first was 5♦; 9♦ then 7♦: the 9♦ was
        6♦), and the play of ``event`` 's card when it was logged this round, however long
        ago. Each answer corrects that card and logs ``event``."""
        events = read_log(self.log.path).events
        n = self.log.lines
        recent = sorted(self._line_of.items(), key=lambda item: -item[1][0])[:plays]
        twice = str(event.get("card"))
        if twice in self._line_of and all(logged != twice for logged, _ in recent):
            recent.append((twice, self._line_of[twice]))
        answers: list[tuple[bool, Answer]] = []
        for logged, (_line, old) in recent:
            taken_for = [c for c in CARD_CODES if logged in lookalikes(c)[:3]]
            for was in dict.fromkeys([*lookalikes(logged)[:3], *taken_for]):
                corr = self._correction(logged, was)
                if corr is None:
                    continue
                fixed = replay([*events, Event(corr, n + 1)])
                after = replay([*events, Event(corr, n + 1), Event(event, n + 2)])
                if after.errors or after.referee is None or fixed.referee is None or \
                        len(after.referee.violations) > len(fixed.referee.violations):
                    continue
                next_card = getattr(fixed.referee, "next_card", None)
                follows = callable(next_card) and next_card() == event.get("card")
                answers.append((not follows, Answer(
                    f"{old.get('player')}'s {Card.parse(logged).pretty()} was "
                    f"{Card.parse(was).pretty()}", (corr, event))))
        # Those after which the reading is the very card the sequence expects come first.
        return [answer for _, answer in sorted(answers, key=lambda a: a[0])][:3]

    def _earlier_misread(self, event: dict[str, Any]) -> list[Answer]:
        """Answers for a held move of several cards that one of its cards, played or shown
        by another player earlier this round, makes the table refuse: that earlier card was
        misread (a card it is easily taken for, or one easily taken for it, neither played
        nor shown), corrected where the log then accepts the move ("Ann's K♣ was K♠")."""
        from companion.events import apply_corrections

        cards = [str(c) for c in event.get("cards") or []]
        events = read_log(self.log.path).events
        resolved, _ = apply_corrections(events)
        start = max((e.line for e in resolved if e.kind in NEW_DEAL), default=0)
        n = self.log.lines
        base = replay(events)
        answers: list[Answer] = []
        for ev in resolved:
            if ev.line <= start or ev.kind not in ("play", "reveal") \
                    or ev.data.get("player") == event.get("player"):
                continue
            earlier = [str(ev.data["card"])] if "card" in ev.data \
                else [str(c) for c in ev.data.get("cards") or []]
            for card in [c for c in earlier if c in cards]:
                taken_for = [c for c in CARD_CODES if card in lookalikes(c)[:3]]
                for was in dict.fromkeys([*lookalikes(card)[:3], *taken_for]):
                    if was in cards or self._round_cards.get(was, 0):
                        continue
                    fixed = {**ev.data, "card": was} if "card" in ev.data else \
                        {**ev.data, "cards": [was if c == card else c for c in earlier]}
                    corr = {"event": "correct", "line": ev.line, "with": fixed}
                    after = replay([*events, Event(corr, n + 1), Event(event, n + 2)])
                    if after.referee is None or base.referee is None \
                            or len(after.errors) > len(base.errors) \
                            or len(after.referee.violations) > len(base.referee.violations):
                        continue
                    answers.append(Answer(f"{ev.data.get('player')}'s "
                                          f"{Card.parse(card).pretty()} was "
                                          f"{Card.parse(was).pretty()}", (corr, event)))
        return answers[:3]

    def _ran_out(self, obs: Observation) -> tuple[str, list[Answer]] | None:
        """A hand shown while the log says the round goes on: a player ran out of cards
        sooner than the log knows, the camera having missed the last card. When the card
        that comes next, played by someone, ends the round so that this hand may be shown,
        it asks "5♦ was not seen: who played it?", one answer per such player (both logged)."""
        ref = self.referee
        next_card = getattr(ref, "next_card", None)
        missing = next_card() if callable(next_card) else None
        if ref is None or not isinstance(missing, str) or missing in obs.cards \
                or self._round_cards.get(missing, 0) or obs.seat is None:
            return None
        shown = {"event": "reveal", "player": self.players[obs.seat], "cards": list(obs.cards),
                 "t": round(obs.t_still, 3), "confidence": round(obs.confidence, 3)}
        if self._accepts(shown)[0]:
            return None  # the hand fits the log as it is
        answers = [Answer(p, ({"event": "play", "player": p, "card": missing}, shown))
                   for p in self.players
                   if self._accepts_all([{"event": "play", "player": p, "card": missing}, shown])]
        if not answers:
            return None
        return f"{Card.parse(missing).pretty()} was not seen: who played it?", answers

    def _reread(self, t: float, result: FrameResult) -> None:
        """A held card the camera now reads, again and again, as one of the question's
        answers is that card: the vision read it, the question settles itself."""
        for pid, held in list(self.pending.items()):
            obs = held.observation
            if len(obs.cards) > 1:
                self._reread_cards(pid, held, result)
                continue
            if not obs.positions or not held.options:
                continue
            x, y = obs.positions[0]
            votes = self.tracker.votes_at(x, y, held.asked + 1e-6)
            total = sum(votes.values())
            for answer in held.options:
                card = answer.card
                if (card is None or card == obs.cards[0] or len(answer.events) > 1
                        or votes.get(card, 0) < self.reread_frames
                        or votes.get(card, 0) < 0.8 * total):
                    continue
                self.pending.pop(pid)
                self._disown(held, answer.events)
                result.notes.append(f"read again: {Card.parse(card).pretty()}, not "
                                    f"{Card.parse(obs.cards[0]).pretty()}")
                for ev in answer.events:
                    self._append(dict(ev), result.announcements, result)
                    self.visual_count += 1
                break

    def _reread_cards(self, pid: int, held: Pending, result: FrameResult) -> None:
        """A held move of several cards (a revealed hand the table refused: a card already
        played, the same card twice, a card short) whose spots the camera now reads, again and
        again, as cards that make it one the table accepts: that move is logged, the
        question settles itself."""
        obs = held.observation
        event = held.event
        if event.get("event") not in ("play", "reveal") or len(obs.positions) != len(obs.cards):
            return
        cards = []
        for card, (x, y) in zip(obs.cards, obs.positions, strict=True):
            votes = self.tracker.votes_at(x, y, held.asked + 1e-6)
            best = max(votes, key=lambda c: votes[c], default=card)
            steady = votes.get(best, 0) >= max(self.reread_frames, 0.8 * sum(votes.values()))
            cards.append(best if steady and self._round_cards.get(best, 0) == 0 else card)
        if cards == obs.cards or len(set(cards)) != len(cards):
            return
        now = {**event, "cards": cards}
        ok, violations, _why = self._accepts(now)
        if not ok or violations:
            return
        self.pending.pop(pid)
        for card, new, (x, y) in zip(obs.cards, cards, obs.positions, strict=True):
            if new != card:
                self.tracker.misread_at(card, x, y)
                result.notes.append(f"read again: {Card.parse(new).pretty()}, not "
                                    f"{Card.parse(card).pretty()}")
        self._flush_script(self.visual_count, result.announcements, result)
        self._log_visual(now, obs, result)

    def _log_visual(self, event: dict[str, Any], obs: Observation, result: FrameResult) -> None:
        self._append(event, result.announcements, result)
        self.visual_count += 1
        result.latency.append(max(0.0, result.t - obs.t_still))
        if "card" in event and obs.positions:
            self._spot_of[str(event["card"])] = obs.positions[0]

    def confirm(self, pending_id: int, event: Mapping[str, Any] | None = None
                ) -> tuple[int, list[str]]:
        """A person confirms a held reading (optionally corrected); it is logged now."""
        held = self.pending.pop(pending_id)
        out: list[str] = []
        self._flush_script(self.visual_count, out, None)
        line = self._append(dict(event or held.event), out)
        self.visual_count += 1
        return line, out

    def answer(self, pending_id: int, events: Sequence[Mapping[str, Any]]) -> list[str]:
        """A person answers a held reading with these events (one of its `Answer` s, or
        events they entered); they are logged in order. No events: nothing happened."""
        held = self.pending.pop(pending_id)
        out: list[str] = []
        self._flush_script(self.visual_count, out, None)
        self._disown(held, events)
        obs = held.observation
        if len(obs.cards) == 1 and obs.positions:
            self._spot_of[obs.cards[0]] = obs.positions[0]
        for ev in events:
            self._append(dict(ev), out)
            if ev.get("event") in ("play", "reveal", "trump"):
                self.visual_count += 1
        return out

    def _disown(self, held: Pending, events: Sequence[Mapping[str, Any]]) -> None:
        """The held cards the answer does not log were misreadings: the tracker forgets them
        as cards on that spot, so the real ones count where they are laid."""
        logged: set[str] = set()
        for ev in events:
            for item in [ev, ev.get("with") or {}] if ev.get("event") == "correct" else [ev]:
                logged.update(str(c) for c in ([item["card"]] if "card" in item
                                               else list(item.get("cards") or [])))
        obs = held.observation
        for card, (x, y) in zip(obs.cards, obs.positions, strict=False):
            if card not in logged:
                self.tracker.misread_at(card, x, y)

    def reject(self, pending_id: int) -> None:
        """A person says a held reading is wrong: nothing is logged for it."""
        held = self.pending.pop(pending_id, None)
        if held is not None:
            self._disown(held, ())

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


def _pretty(codes: Sequence[str]) -> list[str]:
    return [Card.parse(c).pretty() for c in codes]


RANKS = "23456789TJQKA"
#: Ranks a reader takes for one another (a small index seen at an angle).
_RANK_LOOKALIKE = {"6": "9", "9": "6", "J": "Q", "Q": "K", "K": "Q", "8": "3", "3": "8",
                   "T": "J", "A": "4", "4": "A", "5": "6", "7": "T", "2": "7"}
_SUIT_LOOKALIKE = {"C": "S", "S": "C", "D": "H", "H": "D"}


def lookalikes(code: str) -> list[str]:
    """Cards a reader easily takes ``code`` for: the other suit of its colour, a rank that
    looks alike, then the other two suits."""
    rank, suit = code[0], code[1]
    out = [rank + _SUIT_LOOKALIKE[suit], _RANK_LOOKALIKE[rank] + suit,
           _RANK_LOOKALIKE[rank] + _SUIT_LOOKALIKE[suit]]
    out += [rank + s for s in "CDHS" if s not in (suit, _SUIT_LOOKALIKE[suit])]
    return out


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


def _merge(first: Observation, later: Observation) -> Observation:
    """One observation of the cards of two, in the order they settled."""
    return Observation(
        zone=first.zone, zone_name=first.zone_name, kind=first.kind, seat=first.seat,
        cards=first.cards + [c for c in later.cards if c not in first.cards],
        confidence=min(first.confidence, later.confidence), t=later.t,
        t_still=later.t_still, certain=first.certain and later.certain,
        positions=first.positions + later.positions,
        votes=first.votes + [v for c, v in zip(later.cards, later.votes, strict=False)
                             if c not in first.cards])
