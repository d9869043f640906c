"""Michigan Rum: the referee for draw, meld, lay off and discard, scored as melded, to 500 points.

`RumReferee` folds the game's own events (docs/events-michigan-rum.md) into scores,
announcements and violations; meld shapes and points (RU-3, RU-4) are in `melds`, shared with
the bots.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from companion.cards import Card, format_cards
from companion.events import Event, LogProblem
from companion.games.rum.melds import (
    DECK_SIZE,
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Meld,
    MeldError,
    RumRules,
    card_points,
    hand_points,
    join_meld,
    layoff_refusal,
    layoff_side,
    meld_points,
    shape_meld,
)
from companion.referee import EventError, GameState, Referee, plural, register_referee

# --- the referee's state -------------------------------------------------------------------------
PILE, TABLE, STOCK = "pile", "table", "stock"


def _in_hand(player: str) -> str:
    return "@" + player


@dataclass
class RumState(GameState):
    """Everything that changes during a game of Michigan Rum (the base restores it on errors).

    ``phase``: ``idle`` (no round in play), ``dealing`` (round started, up card awaited),
    ``draw`` / ``play`` (the player on turn draws, then melds, lays off, discards),
    ``reveal`` (someone went out; the others show their hands), ``over`` (game finished).
    ``where`` holds every card whose place the referee knows: the pile, the table, the stock
    (only when its order is known) or ``@name`` for a hand; other cards are unseen.
    """

    scores: dict[str, int] = field(default_factory=dict)
    phase: str = "idle"
    dealer: str | None = None
    turn: str | None = None
    hand_size: dict[str, int] = field(default_factory=dict)
    known: dict[str, list[Card]] = field(default_factory=dict)
    where: dict[Card, str] = field(default_factory=dict)
    pile: list[Card] = field(default_factory=list)  # bottom to top
    stock: int = 0
    stock_order: list[Card] | None = None  # top first, when known
    melds: list[Meld] = field(default_factory=list)
    chosen: Card | None = None  # the discard-pile card that must be used this turn (RU-2)
    chosen_line: int = 0
    chosen_used: bool = False
    out: str | None = None
    revealed: dict[str, int] = field(default_factory=dict)  # hand points of each reveal
    last_end: str = ""  # how the last round ended: "out", "nobody"
    winners: list[str] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> RumState:
        """A fast deep copy for the replay's checkpoint before every event (cards, names and
        numbers are immutable, so only the containers are copied)."""
        new = copy.copy(self)
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "known":
                new.known = {p: list(cs) for p, cs in self.known.items()}
            elif f.name == "melds":
                new.melds = [Meld(m.number, m.owner, m.kind, list(m.cards)) for m in self.melds]
            elif isinstance(value, (dict, list)) and f.name in _FLAT:
                setattr(new, f.name, copy.copy(value))
            elif not isinstance(value, (int, str, bool, Card, type(None))):
                setattr(new, f.name, copy.deepcopy(value, memo))
        return new


#: RumState fields that are containers of immutable values (a shallow copy is a deep one).
_FLAT = frozenset({"scores", "hand_size", "where", "pile", "stock_order", "revealed",
                   "winners"})


def _place(loc: str) -> str:
    if loc == PILE:
        return "it is in the discard pile"
    if loc == TABLE:
        return "it is on the table"
    return "it is known to be elsewhere"


@register_referee(GAME)
class RumReferee(Referee):
    """The referee of Michigan Rum (RU-1..RU-4). Points are reported as "chips"; no pots."""

    game: ClassVar[str] = GAME

    def __init__(self, setup: Event) -> None:
        super().__init__(setup)
        players = self.players
        if not isinstance(setup.get("players"), list) or not all(
                isinstance(p, str) and p for p in players):
            raise ValueError("\"players\" must be a list of names")
        if len(set(players)) != len(players):
            raise ValueError("player names must differ")
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"Michigan Rum is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"got {len(players)}")
        house = setup.get("house")
        overrides = dict(house) if isinstance(house, Mapping) else house
        rounds = setup.get("rounds")
        if rounds is not None:
            if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 0:
                raise ValueError(f"\"rounds\" must be a whole number, got {rounds!r}")
            overrides = dict(overrides or {})
            overrides.setdefault("rounds", rounds)
        self.rules = RumRules.load(overrides)
        self.hand = self.rules.hand_size(len(players))
        if len(players) * self.hand + 2 > DECK_SIZE:
            raise ValueError(f"{len(players)} hands of {self.hand} cards do not leave a stock")
        self.state: RumState = RumState(scores={p: 0 for p in players})

    # --- the report: points stand in for chips ---------------------------------------------
    def report(self, errors: Sequence[LogProblem] = ()) -> dict[str, Any]:
        """DESIGN.md's report; "chips" holds each player's points, "pots" stays empty."""
        out = super().report(errors)
        out["chips"] = dict(self.state.scores)
        out["pots"] = {}
        return out

    def turn(self) -> str | None:
        return self.state.turn if self.state.phase in ("draw", "play") else None

    # --- helpers ---------------------------------------------------------------------------
    def _player(self, ev: Event) -> str:
        p = ev.get("player")
        if p not in self.players:
            raise EventError(f"unknown player {p!r}")
        return str(p)

    def _card_list(self, ev: Event, key: str = "cards") -> list[Card]:
        raw = ev.get(key)
        if not isinstance(raw, list):
            raise EventError(f"\"{key}\" must be a list of cards")
        cs = [Card.parse(x) for x in raw]
        if len(set(cs)) != len(cs):
            raise EventError(f"the same card appears twice in {format_cards(cs)}")
        return cs

    def _one_card(self, ev: Event, key: str = "card") -> Card:
        raw = ev.get(key)
        if raw is None:
            raise EventError(f"\"{key}\" is missing")
        return Card.parse(raw)

    def _next(self, p: str) -> str:
        return self.players[(self.players.index(p) + 1) % len(self.players)]

    def _check_holds(self, p: str, cs: Sequence[Card]) -> None:
        """Raise unless ``p`` can hold every card of ``cs`` (known there, or unseen)."""
        st = self.state
        unseen_needed = 0
        for c in cs:
            loc = st.where.get(c)
            if loc == _in_hand(p):
                continue
            if loc is not None:
                raise EventError(f"{p} cannot hold {c.pretty()}: {_place(loc)}")
            unseen_needed += 1
        if len(cs) > st.hand_size[p]:
            raise EventError(f"{p} holds {st.hand_size[p]} cards, not {len(cs)}")
        if unseen_needed > st.hand_size[p] - len(st.known[p]):
            raise EventError(f"{p} cannot hold {format_cards(cs)}: the cards of {p}'s hand "
                             f"are accounted for")

    def _learn(self, p: str, cs: Sequence[Card]) -> None:
        """Cards of ``cs`` (checked with `_check_holds`) are now known to be in ``p``'s hand."""
        for c in cs:
            if self.state.where.get(c) != _in_hand(p):
                self.state.where[c] = _in_hand(p)
                self.state.known[p].append(c)

    def _remove(self, p: str, cs: Sequence[Card], to: str) -> None:
        """Move ``cs`` from ``p``'s hand to the table or the pile."""
        self._check_holds(p, cs)
        st = self.state
        for c in cs:
            if st.where.get(c) == _in_hand(p):
                st.known[p].remove(c)
            st.where[c] = to
        st.hand_size[p] -= len(cs)

    def _on_turn(self, ev: Event, p: str, action: str) -> bool:
        """True when ``p`` may act now; records `out-of-turn` (and ignores the event) otherwise."""
        st = self.state
        if st.phase not in ("draw", "play"):
            raise EventError(self._no_turn_reason(action))
        if p != st.turn:
            self.violation(ev.line, p, "out-of-turn", ev.line,
                           f"{p} tried to {action} during {st.turn}'s turn; ignored")
            self.announce(ev.line, f"Not {p}'s turn: it is {st.turn}'s")
            return False
        return True

    def _no_turn_reason(self, action: str) -> str:
        st = self.state
        if st.phase == "over":
            return f"cannot {action}: the game is over"
        if st.phase == "idle":
            return f"cannot {action}: no round is in play (a \"round\" event starts one)"
        if st.phase == "dealing":
            return f"cannot {action}: the up card has not been turned yet"
        waiting = ", ".join(self._waiting())
        return f"cannot {action}: {st.out} went out; waiting for {waiting} to show their cards"

    def _waiting(self) -> list[str]:
        """Players who still have to show their cards, from the left of who went out."""
        st = self.state
        k = self.players.index(st.out) if st.out in self.players else 0
        seats = self.players[k:] + self.players[:k]
        return [q for q in seats if q != st.out and q not in st.revealed]

    def _scores_text(self) -> str:
        order = sorted(self.players, key=lambda q: (-self.state.scores[q],
                                                    self.players.index(q)))
        return "Scores: " + ", ".join(f"{q} {self.state.scores[q]}" for q in order)

    def _score(self, p: str, points: int) -> None:
        self.state.scores[p] += points

    # --- the fold ----------------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        handler = self._HANDLERS.get(event.kind)
        if handler is None:
            raise EventError(f"Michigan Rum has no {event.kind!r} event")
        handler(self, event)

    def _round(self, ev: Event) -> None:
        st = self.state
        if st.phase == "over":
            raise EventError("the game is over")
        if st.phase != "idle":
            raise EventError(f"round {st.round} is still in play ({self._no_turn_reason('deal')})")
        dealer = ev.get("dealer")
        if dealer not in self.players:
            raise EventError(f"the dealer {dealer!r} is not one of the players")
        st.round += 1
        st.dealer = str(dealer)
        st.phase = "dealing"
        st.turn = self._next(st.dealer)
        st.hand_size = {p: self.hand for p in self.players}
        st.known = {p: [] for p in self.players}
        st.where = {}
        st.pile = []
        st.stock = DECK_SIZE - self.hand * len(self.players)
        st.stock_order = None
        st.melds = []
        st.chosen, st.chosen_line, st.chosen_used = None, 0, False
        st.out = None
        st.revealed = {}
        st.last_end = ""
        self.announce(ev.line, f"Round {st.round}: {st.dealer} deals {self.hand} cards each; "
                               f"{st.turn} plays first")

    def _deal(self, ev: Event) -> None:
        """Full information (simulator, teaching): every hand, and the stock top first."""
        st = self.state
        if st.phase != "dealing" or st.known and any(st.known.values()):
            raise EventError("a deal can only come after \"round\", before the up card")
        hands = ev.get("hands")
        if not isinstance(hands, dict) or set(hands) != set(self.players):
            raise EventError("\"hands\" must give the cards of every player")
        seen: set[Card] = set()
        parsed: dict[str, list[Card]] = {}
        for p in self.players:
            cs = [Card.parse(x) for x in hands[p]] if isinstance(hands[p], list) else None
            if cs is None or len(cs) != self.hand:
                raise EventError(f"{p} must be dealt {self.hand} cards (RU-1)")
            if seen & set(cs) or len(set(cs)) != len(cs):
                raise EventError("a card is dealt twice")
            seen.update(cs)
            parsed[p] = cs
        stock_raw = ev.get("stock")
        stock: list[Card] | None = None
        if stock_raw is not None:
            if not isinstance(stock_raw, list):
                raise EventError("\"stock\" must be a list of cards, top first")
            stock = [Card.parse(x) for x in stock_raw]
            if len(stock) != st.stock or seen & set(stock) or len(set(stock)) != len(stock):
                raise EventError(f"the stock must hold the {st.stock} cards not dealt")
        for p, cs in parsed.items():
            st.known[p] = list(cs)
            for c in cs:
                st.where[c] = _in_hand(p)
        if stock is not None:
            st.stock_order = stock
            for c in stock:
                st.where[c] = STOCK

    def _upcard(self, ev: Event) -> None:
        st = self.state
        if st.phase != "dealing":
            raise EventError("the up card is turned once, after the deal (RU-1)")
        c = self._one_card(ev)
        if st.stock_order is not None:
            if st.stock_order[0] != c:
                raise EventError(f"the up card must be the top card of the stock, not "
                                 f"{c.pretty()}")
            st.stock_order.pop(0)
        elif c in st.where:
            raise EventError(f"{c.pretty()} cannot be the up card: {_place(st.where[c])}")
        st.stock -= 1
        st.pile = [c]
        st.where[c] = PILE
        st.phase = "draw"
        self.announce(ev.line, f"Up card {c.pretty()}. {st.turn} to draw")

    def _draw(self, ev: Event) -> None:
        p = self._player(ev)
        if not self._on_turn(ev, p, "draw"):
            return
        st = self.state
        if st.phase != "draw":
            raise EventError(f"{p} has already drawn this turn")
        source = ev.get("from")
        if source == "stock":
            if st.stock <= 0:
                raise EventError("the stock is empty")
            st.stock -= 1
            st.hand_size[p] += 1
            drawn: Card | None = None
            if st.stock_order is not None:
                drawn = st.stock_order.pop(0)
                said = ev.get("card")
                if said is not None and Card.parse(said) != drawn:
                    raise EventError(f"the top card of the stock is not {Card.parse(said)}")
            elif ev.get("card") is not None:
                drawn = Card.parse(ev["card"])
                if drawn in st.where:
                    raise EventError(f"{drawn.pretty()} cannot come from the stock: "
                                     f"{_place(st.where[drawn])}")
            if drawn is not None:
                st.where[drawn] = _in_hand(p)
                st.known[p].append(drawn)
            self.announce(ev.line, f"{p} draws from the stock")
        elif source in ("discard", "pile"):
            if not st.pile:
                raise EventError("the discard pile is empty")
            c = self._one_card(ev) if ev.get("card") is not None else st.pile[-1]
            if c not in st.pile:
                raise EventError(f"{c.pretty()} is not in the discard pile")
            k = st.pile.index(c)
            taken = st.pile[k:]
            del st.pile[k:]
            for t in taken:
                st.where[t] = _in_hand(p)
                st.known[p].append(t)
            st.hand_size[p] += len(taken)
            st.chosen, st.chosen_line, st.chosen_used = c, ev.line, False
            above = len(taken) - 1
            extra = "" if not above else (" and the card above it" if above == 1
                                          else f" and the {above} cards above it")
            self.announce(ev.line, f"{p} takes {c.pretty()}{extra} from the discard pile; "
                                   f"{c.pretty()} must be used this turn")
        else:
            raise EventError(f"\"from\" must be \"stock\" or \"discard\", got {source!r}")
        st.phase = "play"

    def _ready_to_play(self, ev: Event, p: str, action: str) -> bool:
        if not self._on_turn(ev, p, action):
            return False
        if self.state.phase != "play":
            raise EventError(f"{p} must draw before {action.split()[0]}ing (RU-2)")
        return True

    def _invalid(self, ev: Event, p: str, cs: Sequence[Card], reason: str) -> None:
        """An invalid meld or lay-off: flagged, not scored, the cards stay in the hand."""
        self._learn(p, cs)  # the cards were shown: now they are known to be in p's hand
        self.violation(ev.line, p, "invalid-meld", ev.line, f"{reason} (RU-3)")
        self.announce(ev.line, f"Not a meld: {reason}. {p} takes the cards back")

    def _meld(self, ev: Event) -> None:
        p = self._player(ev)
        if not self._ready_to_play(ev, p, "meld"):
            return
        cs = self._card_list(ev)
        self._check_holds(p, cs)
        try:
            kind, ordered = shape_meld(cs)
        except MeldError as exc:
            self._invalid(ev, p, cs, str(exc))
            return
        st = self.state
        self._remove(p, cs, TABLE)
        meld = Meld(len(st.melds) + 1, p, kind, ordered)
        st.melds.append(meld)
        points = meld_points(kind, ordered, self.rules)
        self._score(p, points)
        if st.chosen is not None and st.chosen in cs:
            st.chosen_used = True
        self.announce(ev.line, f"{p} melds {meld.describe()} (meld {meld.number}): "
                               f"{plural(points, 'point')}, {p} has {st.scores[p]}")
        self._maybe_out(ev, p)

    def _find_meld(self, ref: Any, c: Card) -> Meld | None:
        st = self.state
        if ref is None:
            for m in st.melds:
                if layoff_side(m, c) is not None:
                    return m
            return None
        if isinstance(ref, int) and not isinstance(ref, bool):
            if not 1 <= ref <= len(st.melds):
                raise EventError(f"there is no meld {ref} on the table "
                                 f"({len(st.melds)} melds)")
            return st.melds[ref - 1]
        if isinstance(ref, str):
            target = Card.parse(ref)
            for m in st.melds:
                if target in m.cards:
                    return m
            raise EventError(f"{target.pretty()} is in no meld on the table")
        raise EventError(f"\"meld\" must be a meld number or a card of that meld, got {ref!r}")

    def _layoff(self, ev: Event) -> None:
        p = self._player(ev)
        if not self._ready_to_play(ev, p, "lay off"):
            return
        c = self._one_card(ev)
        self._check_holds(p, [c])
        st = self.state
        meld = self._find_meld(ev.get("meld"), c)
        if meld is None:
            self._invalid(ev, p, [c], f"{c.pretty()} fits no meld on the table")
            return
        side = layoff_side(meld, c)
        if side is None:
            self._invalid(ev, p, [c], layoff_refusal(meld, c))
            return
        self._remove(p, [c], TABLE)
        join_meld(meld, c, side)
        points = card_points(c, self.rules, low_ace=side == "low")
        self._score(p, points)
        if st.chosen == c:
            st.chosen_used = True
        self.announce(ev.line, f"{p} lays off {c.pretty()} on meld {meld.number}: "
                               f"{plural(points, 'point')}, {p} has {st.scores[p]}")
        self._maybe_out(ev, p)

    def _discard(self, ev: Event) -> None:
        p = self._player(ev)
        if not self._ready_to_play(ev, p, "discard"):
            return
        c = self._one_card(ev)
        st = self.state
        self._remove(p, [c], PILE)
        st.pile.append(c)
        self._check_chosen(ev, p)
        if st.hand_size[p] == 0:
            self.announce(ev.line, f"{p} discards {c.pretty()}")
            self._go_out(ev, p)
            return
        st.turn = self._next(p)
        st.phase = "draw"
        if st.stock == 0:
            self.announce(ev.line, f"{p} discards {c.pretty()}")
            self._stock_out(ev)
            return
        self.announce(ev.line, f"{p} discards {c.pretty()}. Next: {st.turn}")

    def _check_chosen(self, ev: Event, p: str) -> None:
        """RU-2: the card chosen from the discard pile must be melded or laid off that turn."""
        st = self.state
        if st.chosen is not None and not st.chosen_used:
            self.violation(st.chosen_line, p, "discard-draw-unused", ev.line,
                           f"{p} took {st.chosen.pretty()} from the discard pile and did not "
                           f"meld it or lay it off that turn (RU-2)")
            self.announce(ev.line, f"{p} did not use {st.chosen.pretty()} from the discard "
                                   f"pile: that breaks the rule")
        st.chosen, st.chosen_line, st.chosen_used = None, 0, False

    def _maybe_out(self, ev: Event, p: str) -> None:
        if self.state.hand_size[p] == 0:
            self._check_chosen(ev, p)
            self._go_out(ev, p)

    def _go_out(self, ev: Event, p: str) -> None:
        st = self.state
        st.out = p
        st.phase = "reveal"
        st.turn = None
        st.revealed = {}
        waiting = self._waiting()
        self.announce(ev.line, f"{p} goes out! {', '.join(waiting)}: show your cards")
        if not waiting:
            self._settle(ev)

    def _stock_out(self, ev: Event) -> None:
        """The stock is empty at the end of a turn (house rule ``stock_out``)."""
        st = self.state
        if self.rules.stock_out == "reuse" and len(st.pile) >= 2:
            new = st.pile[:-1]  # turned over: the bottom card of the pile is now on top
            st.pile = st.pile[-1:]
            st.stock_order = list(new)
            st.stock = len(new)
            for c in new:
                st.where[c] = STOCK
            self.announce(ev.line, f"The stock is empty: the discard pile is turned over as the "
                                   f"new stock, {st.pile[0].pretty()} stays up. "
                                   f"Next: {st.turn}")
            return
        self.announce(ev.line, "The stock is empty: the round ends, nobody went out")
        self._end_round(ev, "nobody")

    def _reveal(self, ev: Event) -> None:
        st = self.state
        p = self._player(ev)
        if st.phase != "reveal":
            if st.phase in ("draw", "play", "dealing"):
                raise EventError("nobody has gone out yet: hands are shown when someone is out")
            raise EventError("no hand is waiting to be shown")
        if p == st.out:
            raise EventError(f"{p} went out and holds no cards")
        if p in st.revealed:
            raise EventError(f"{p} has already shown their cards")
        cs = self._card_list(ev)
        if len(cs) != st.hand_size[p]:
            raise EventError(f"{p} holds {st.hand_size[p]} cards, the reveal shows {len(cs)}")
        missing = [c for c in st.known[p] if c not in cs]
        if missing:
            raise EventError(f"{p}'s reveal leaves out {format_cards(missing)}, which {p} holds")
        self._check_holds(p, cs)
        self._learn(p, cs)
        points = hand_points(cs, self.rules)
        st.revealed[p] = points
        self.announce(ev.line, f"{p} shows {format_cards(cs)}: {plural(points, 'point')}")
        if not self._waiting():
            self._settle(ev)

    def _settle(self, ev: Event) -> None:
        """Everyone has shown: the player who went out scores the hands (RU-4)."""
        st = self.state
        assert st.out is not None
        total = sum(st.revealed.values())
        self._score(st.out, total)
        self.announce(ev.line, f"{st.out} scores {total} for going out, has "
                               f"{st.scores[st.out]}")
        self._end_round(ev, "out")

    def _end_round_event(self, ev: Event) -> None:
        st = self.state
        if st.phase == "idle" and st.last_end == "nobody":
            return  # already ended (the stock ran out); a redundant end-round is harmless
        if st.phase == "reveal":
            raise EventError(self._no_turn_reason("end the round"))
        if st.phase not in ("dealing", "draw", "play"):
            raise EventError("no round is in play")
        self.announce(ev.line, "Round over, nobody went out")
        self._end_round(ev, "nobody")

    def _end_round(self, ev: Event, how: str) -> None:
        st = self.state
        st.phase = "idle"
        st.turn = None
        st.last_end = how
        st.chosen, st.chosen_line, st.chosen_used = None, 0, False
        self.ledger.close_round()
        self.announce(ev.line, self._scores_text())
        best = max(st.scores.values())
        reached = self.rules.target > 0 and best >= self.rules.target
        last = self.rules.rounds > 0 and st.round >= self.rules.rounds
        if reached or last:
            st.phase = "over"
            st.finished = True
            st.winners = [q for q in self.players if st.scores[q] == best]
            if len(st.winners) == 1:
                self.announce(ev.line,
                              f"{st.winners[0]} wins the game with {plural(best, 'point')}")
            else:
                self.announce(ev.line, f"{' and '.join(st.winners)} share the win with "
                                       f"{plural(best, 'point')}")

    _HANDLERS: ClassVar[dict[str, Any]] = {
        "round": _round,
        "deal": _deal,
        "upcard": _upcard,
        "draw": _draw,
        "meld": _meld,
        "layoff": _layoff,
        "discard": _discard,
        "reveal": _reveal,
        "end-round": _end_round_event,
    }
