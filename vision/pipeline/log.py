"""The pipeline's side of the event log: `TableLog` appends events and corrections, replays the
log into the referee, and asks the referee what it would make of a move before it is logged.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from calibration.profile import TableProfile
from companion.cards import RANKS, Card
from companion.diagnostics import log_failure
from companion.events import Event, EventLog, read_log
from companion.referee import EventError, Referee, replay
from vision.lookalikes import alike
from vision.pipeline.results import FrameResult
from vision.tracker import Observation, Tracker

#: Events that start a new deal: every card may be played again after them.
NEW_DEAL = frozenset({"round", "hand"})
#: What the referee raises for an event it refuses (anything else is a fault in it).
REFUSED = (EventError, ValueError, TypeError, KeyError)
_log = logging.getLogger("companion.pipeline")


def comes_next(card: str) -> str:
    """Why a play that jumps past ``card`` in its suit is held ("6♣ comes next"): the reason
    the pipeline gives, and looks for once that card is found (`Questions._held_for`)."""
    return f"{Card.parse(card).pretty()} comes next"


def stamp(obs: Observation) -> dict[str, Any]:
    """The fields the vision adds to an event read from ``obs``: when its cards came to rest
    (``t``) and the lowest mean score of its cards (``confidence``)."""
    return {"t": round(obs.t_still, 3), "confidence": round(obs.confidence, 3)}


def pretty_cards(codes: Sequence[str]) -> list[str]:
    """Card codes as people read them (``["10♣", "Q♥"]``)."""
    return [Card.parse(c).pretty() for c in codes]


def cards_of(event: Mapping[str, Any]) -> list[str]:
    """The cards of a play or hand ``event`` (its data): its one ``card`` or its
    ``cards``."""
    return [str(event["card"])] if "card" in event \
        else [str(c) for c in event.get("cards") or []]


#: Games where one move may lay several cards in a pile (a Great Lakes dump, GL-3 and GL-4;
#: every Wanagan lay is a hand shown). Elsewhere a move is one card.
MOVES_OF_SEVERAL = frozenset({"great-lakes", "wanagan"})


class TableLog:
    """The log and the referee: appending events (and corrections) and reading the referee's
    announcements; whether the referee would accept a move, and what the rule set says of it
    (the card it skips, a lead only hidden hands excuse). Its state is set up by
    `TablePipeline.__init__`."""

    profile: TableProfile
    log: EventLog
    #: Events people enter, each with "at": how many visual events precede it.
    script: list[dict[str, Any]]
    visual_count: int
    errors: list[str]
    referee: Referee | None
    players: list[str]
    game: str
    tracker: Tracker
    _round_cards: dict[str, int]
    _played_by: dict[str, int | None]
    _line_of: dict[str, tuple[int, dict[str, Any]]]
    _grouped_in: dict[str, tuple[int, dict[str, Any]]]
    _trump_of: dict[str, tuple[int, dict[str, Any]]]
    _entered_at: dict[str, float]
    _spot_of: dict[str, tuple[float, float]]
    _shown_spot: dict[str, tuple[float, float]]
    _look_spot: dict[str, tuple[float, float]]
    _laid_looks: dict[tuple[int, float], tuple[dict[str, float],
                                               dict[str, tuple[float, float]]]]
    _left_by_move: dict[int, tuple[list[str], set[str]]]
    _read_elsewhere: dict[int, list[tuple[str, float]]]
    _said_no_card: list[tuple[int, str, tuple[float, float], float]]
    #: Card -> the seats in whose piles the reader read it this round (once is enough): a
    #: card glimpsed as it was laid, though never logged, was likely played there.
    _glimpsed: dict[str, set[int]]
    _landed: dict[int, tuple[float, str]]
    #: The log's lines the pipeline has read or written (`resync`: lines past it were
    #: written beside it).
    _seen_lines: int

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
        self._seen_lines = events[-1].line if events else 0
        self.script = [e for e in self.script if int(e.get("at", 0)) >= self.visual_count
                       and e.get("event") != "game"]
        for ev in events:
            self._note_cards(ev.data)

    def resync(self) -> None:
        """A person wrote to the log beside the pipeline (the window's entries and corrections
        go to the same log): the referee, and the cards and lines of this round the table
        knows, are read again from the log. A round entered so starts the table afresh, as a
        round from the script does; a play entered by hand counts as played."""
        events = read_log(self.log.path).events
        self.referee = replay(events).referee
        if any(ev.kind in NEW_DEAL for ev in events if ev.line > self._seen_lines):
            self._note_cards({"event": "round"})
        self._renote(events)
        self._seen_lines = self.log.lines

    def _renote(self, events: Sequence[Event]) -> None:
        """The cards played this round and the lines that logged them, noted afresh from
        the log's ``events`` as corrected (`resync`, `_append_correction`). What the table
        remembers of this round besides (where cards lay, which were glimpsed) stays."""
        from companion.events import apply_corrections

        resolved, _ = apply_corrections(events)
        start = max((k for k, ev in enumerate(resolved) if ev.kind in NEW_DEAL), default=-1)
        for known in (self._round_cards, self._played_by, self._line_of, self._grouped_in,
                      self._trump_of):
            known.clear()
        for ev in resolved[start + 1:]:
            self._note_cards(ev.data)
            self._note_line(ev.line, dict(ev.data))

    def _note_cards(self, ev: Mapping[str, Any]) -> None:
        kind = ev.get("event")
        if kind in NEW_DEAL:
            self._round_cards.clear()
            self._played_by.clear()
            self._line_of.clear()
            self._grouped_in.clear()
            self._trump_of.clear()
            self._entered_at.clear()
            self._spot_of.clear()
            self._shown_spot.clear()
            self._look_spot.clear()
            self._laid_looks.clear()
            self._left_by_move.clear()
            self._read_elsewhere.clear()
            self._said_no_card.clear()
            self._glimpsed.clear()
            self._landed.clear()
        elif kind in ("play", "reveal"):
            player = str(ev.get("player"))
            players: list[str] = getattr(self, "players", [])
            seat = players.index(player) if player in players else None
            for c in cards_of(ev):
                self._round_cards[c] = self._round_cards.get(c, 0) + 1
                self._played_by[c] = seat

    def _note_line(self, line: int, data: dict[str, Any]) -> None:
        """Remember the line that logged each card of ``data`` this round: a single-card play
        (`_line_of`), a hand shown or move of several cards (`_grouped_in`), the turned-up
        trump card (`_trump_of`)."""
        kind = data.get("event")
        if kind == "play" and "card" in data:
            self._line_of[str(data["card"])] = (line, data)
        if kind in ("play", "reveal"):
            for c in data.get("cards") or []:
                self._grouped_in[str(c)] = (line, data)
        if kind == "trump" and "card" in data:
            self._trump_of = {str(data["card"]): (line, data)}

    def _append(self, event: Mapping[str, Any], out: list[str],
                result: FrameResult | None = None) -> int:
        """Append an event to the log, apply it, collect the referee's new announcements."""
        data = dict(event)
        if data.get("event") == "correct":
            line = self._append_correction(data, out, result)
            self._seen_lines = self.log.lines
            return line
        line = self.log.append(data)
        self._seen_lines = self.log.lines
        self._note_cards(data)
        self._note_line(line, data)
        if data.get("event") == "play" and "card" in data and "t" not in data:
            self._entered_at[str(data["card"])] = self.tracker.t
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
        shown = next((ev for _c, (ln, ev) in self._grouped_in.items() if ln == data.get("line")),
                     None)
        new_cards = (data.get("with") or {}).get("cards") or []
        for was in (shown or {}).get("cards") or []:  # a card of a hand shown, read wrong
            if was not in new_cards and was in self._shown_spot:
                self.tracker.misread_at(was, *self._shown_spot.pop(was))
        line = self.log.append(data)
        events = read_log(self.log.path).events
        rep = replay(events)
        self.referee = rep.referee
        self._renote(events)
        new = data.get("with") or {}
        if new.get("event") == "trump" and "card" in new:
            out.append(f"Correction: the trump card is {Card.parse(str(new['card'])).pretty()}")
        elif "card" in new:
            out.append(f"Correction: {new.get('player')} played "
                       f"{' '.join(pretty_cards([new['card']]))}")
        elif new.get("event") == "reveal":
            out.append(f"Correction: {new.get('player')} shows "
                       f"{' '.join(pretty_cards(list(new.get('cards') or [])))}")
        else:
            out.append(f"Line {data.get('line')} corrected")
        if result is not None:
            result.events.append((line, data))
        return line

    def _covered(self, card: str, at: tuple[float, float] | None = None) -> bool:
        """Was a card logged in the same seat's pile after ``card`` this round? Then a card
        read on ``card``'s spot lies on top of both: it is not ``card`` read again. Unless
        the reading lies at ``at``, on ``card``'s own spot and nearer it than the spot of
        every card logged on it since: ``card`` peeking out from under them (Bob's J♣, read
        as Q♣ while it was laid, read as J♣ beside his A♣ on top of it)."""
        logged = self._line_of.get(card)
        seat = self._played_by.get(card)
        if logged is None or seat is None:
            return False
        later = [other for other, s in self._played_by.items()
                 if other != card and s == seat and other in self._line_of
                 and self._line_of[other][0] > logged[0]]
        if not later or at is None or card not in self._spot_of:
            return bool(later)
        mine = math.dist(self._spot_of[card], at)
        return (mine > self.tracker.config.same_spot
                or any(o not in self._spot_of or math.dist(self._spot_of[o], at) <= mine
                       for o in later))

    def _laid_since(self, card: str) -> bool:
        """Was a card logged in the same seat's pile after ``card`` (alone or in a move of
        several) this round?"""
        mine, seat = self._logged(card), self._played_by.get(card)
        if mine is None or seat is None:
            return False
        return any(s == seat and other != card and (self._logged(other) or (-1, {}))[0] > mine[0]
                   for other, s in self._played_by.items())

    def _player_of(self, card: str) -> str:
        """Who played or showed ``card`` this round ("someone" where the log does not say)."""
        seat = self._played_by.get(card)
        return self.players[seat] if seat is not None and seat < len(self.players) \
            else "someone"

    def _last_play(self, seat: int | None = None) -> tuple[str, int, dict[str, Any]] | None:
        """(card, line, event) of the single-card play logged last this round (into ``seat``
        's pile, when given), if any."""
        plays = [item for item in self._line_of.items()
                 if seat is None or self._played_by.get(item[0]) == seat]
        if not plays:
            return None
        card, (line, event) = max(plays, key=lambda item: item[1][0])
        return card, line, event

    def _logged(self, card: str) -> tuple[int, dict[str, Any]] | None:
        """(line, event) of the single-card play, or else the hand shown or move of several
        cards, that logged ``card`` this round; or the turned-up trump card of this hand."""
        return self._line_of.get(card) or self._grouped_in.get(card) or self._trump_of.get(card)

    def _correction(self, card: str, new_card: str) -> dict[str, Any] | None:
        """The ``correct`` event that makes the play logged as ``card`` this round a play of
        ``new_card`` (or the hand shown with it, a hand with ``new_card`` in its place), when
        the table accepts the log that way (nothing refused, no new rule broken, no clean
        move made one only hidden hands could excuse); None otherwise."""
        corr, doubted = self._correction_doubted(card, new_card)
        return None if doubted else corr

    def _correction_doubted(self, card: str, new_card: str
                            ) -> tuple[dict[str, Any] | None, bool]:
        """As `_correction`, but a correction only hidden hands could excuse is given too:
        (the ``correct`` event or None, whether it makes a clean move one only hidden hands
        could excuse). One replay of the log answers both."""
        logged = self._logged(card)
        if logged is None or self._round_cards.get(new_card, 0):
            return None, False
        line, old = logged
        fixed = ({**old, "card": new_card} if "card" in old else
                 {**old, "cards": [new_card if c == card else c for c in old["cards"]]})
        corr = {"event": "correct", "line": line, "with": fixed}
        events = read_log(self.log.path).events
        before = replay(events)
        after = replay([*events, Event(corr, self.log.lines + 1)])
        if after.referee is None or before.referee is None or after.errors:
            return None, False
        if len(after.referee.violations) > len(before.referee.violations):
            return None, False
        # Never a clean move into one only hidden hands could excuse (3♦ then 4♦ followed;
        # 4♥ there would be a lead out of turn): the table keeps the reading it can place.
        there = replay([e for e in events if e.line < line]).referee
        doubt = getattr(there, "doubtful", None)
        doubted = old.get("event") == "play" and "card" in old and callable(doubt) \
            and bool(doubt(str(old.get("player")), new_card)) \
            and not doubt(str(old.get("player")), card)
        return corr, doubted

    def _flush_script(self, upto: int, out: list[str], result: FrameResult | None) -> None:
        while self.script and int(self.script[0].get("at", 0)) <= upto:
            ev = {k: v for k, v in self.script.pop(0).items() if k != "at"}
            self._append(ev, out, result)

    def inject(self, event: Mapping[str, Any]) -> tuple[int, list[str]]:
        """Log an event a person entered (a bid, the dummy decision, a new round...)."""
        out: list[str] = []
        line = self._append(event, out)
        return line, out

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

    def _next_card(self) -> str | None:
        """The card that continues the sequence now, where the rule set says (public: it
        follows from the table); None otherwise."""
        next_card = getattr(self.referee, "next_card", None)
        nxt = next_card() if callable(next_card) else None
        return nxt if isinstance(nxt, str) else None

    def _skipped(self, event: Mapping[str, Any]) -> str | None:
        """The card a play jumps past in its own suit's sequence (5♣ then 7♣: 6♣), when the
        rule set says which card comes next; None otherwise."""
        card = event.get("card")
        if event.get("event") != "play" or not isinstance(card, str):
            return None
        nxt = self._next_card()
        if nxt is None or nxt == card or nxt[1] != card[1]:
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
        card that comes next and the reading are easily taken for each other, its colour
        kept (3♠ led after 2♣ where 3♣ follows; not 10♥ where 10♣ follows, as a reader
        tells red from black): a rare lead is otherwise a real one."""
        doubtful = getattr(self.referee, "doubtful", None)
        card = event.get("card")
        if event.get("event") != "play" or not isinstance(card, str) or not callable(doubtful):
            return ""
        if lookalike and not ((expected := self._next_card()) and alike(expected, card)):
            return ""
        return str(doubtful(str(event.get("player")), card) or "")

    def _as_moves(self, event: Mapping[str, Any]) -> list[dict[str, Any]]:
        """``event`` as the log holds it: where a move is one card, a play of several cards
        (two cards read coming to rest at once, or answered "both") is that many plays, one
        after the other in its order (Boodle 308: Bob's Q♣ and K♣ laid a moment apart were
        one line with two cards, and every event entered by people after it was counted a
        visual event early)."""
        data = dict(event)
        if data.get("event") != "play" or "cards" not in data or self.game in MOVES_OF_SEVERAL:
            return [data]
        rest = {k: v for k, v in data.items() if k != "cards"}
        return [{**rest, "card": str(c)} for c in data["cards"]]

    def _log_visual(self, event: dict[str, Any], obs: Observation, result: FrameResult) -> None:
        moves = self._as_moves(event)
        if len(moves) > 1:
            for move in moves:
                at = obs.cards.index(move["card"]) if move["card"] in obs.cards else None
                self._log_visual(move, replace(
                    obs, cards=[move["card"]],
                    positions=[obs.positions[at]] if at is not None and at < len(obs.positions)
                    else []), result)
            return
        self._append(event, result.announcements, result)
        self.visual_count += 1
        result.latency.append(max(0.0, result.t - obs.t_still))
        if "card" in event:
            if obs.positions:
                self._spot_of[str(event["card"])] = obs.positions[0]
            self._landed[obs.zone] = (obs.t_still, str(event["card"]))
        elif event.get("event") == "reveal":
            for c, pos in zip(obs.cards, obs.positions, strict=False):
                if c in (event.get("cards") or []):
                    self._shown_spot[str(c)] = pos
