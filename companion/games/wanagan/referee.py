"""Referee for Wanagan (University Games): antes into the money cups, the main hand, up to three
overtime hands (pass left, pass right, wild cards), leftovers to the Jackpot and the 5-card draw
for it (RULINGS WA-1..WA-7). The disk and house rules are data: companion/data/wanagan.toml.

Events: ``round`` (antes, WA-2), ``hand`` (kind main / overtime-1..3 / draw), optionally ``deal``
(full information), and one ``reveal`` of 5 cards per player; a hand is judged as soon as every
player has revealed (the referee knows the seating). A ``hand`` without ``kind`` is the hand
that comes next; one of another kind than the rules allow next is an error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion import house
from companion.cards import Card, CardError
from companion.events import Event
from companion.games.wanagan.hands import KINDS, CupHand, draw_winners, judge, winners
from companion.ledger import Ledger
from companion.referee import (
    EventError,
    GameState,
    Referee,
    join_words,
    plural,
    register_referee,
)

#: The hands of a round, in order (WA-5, WA-6).
HAND_KINDS: tuple[str, ...] = ("main", "overtime-1", "overtime-2", "overtime-3", "draw")
OVERTIMES: tuple[str, ...] = ("overtime-1", "overtime-2", "overtime-3")


@dataclass(frozen=True)
class Cup:
    """A money cup of the disk: its name, the chips each player antes (WA-2), the hands it
    collects (one of `companion.games.wanagan.hands.KINDS`)."""

    name: str
    ante: int
    hands: str


@dataclass(frozen=True)
class WanaganRules:
    """The disk and the house rules of a Wanagan game (defaults: companion/data/wanagan.toml)."""

    cups: tuple[Cup, ...]
    wilds: tuple[Card, ...]
    chips: int = 100
    rounds: int = 5
    min_players: int = 3
    two_decks_from: int = 6
    ace_low: bool = True
    pass_cards: int = 3
    jackpot: str = "Jackpot"

    def decks(self, players: int) -> int:
        """WA-1: one deck up to 5 players, two decks from 6."""
        return 2 if players >= self.two_decks_from else 1

    @property
    def ante_each(self) -> int:
        return sum(c.ante for c in self.cups)


def _whole(name: str, value: Any, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ValueError(f"house rule {name!r} must be a whole number >= {least}, got {value!r}")
    return value


def load_rules(house_overrides: Mapping[str, Any] | None = None) -> WanaganRules:
    """The rules from wanagan.toml (via `companion.house`), with the log's ``house`` overrides
    applied by name. Raises ValueError (naming the setting) for an unknown or ill-typed one.
    """
    settings = house.house_settings("wanagan", house_overrides)
    raw_cups = settings["cups"]
    if not isinstance(raw_cups, list) or not raw_cups:
        raise ValueError("house rule 'cups' must be a list of cups")
    cups: list[Cup] = []
    for c in raw_cups:
        if not isinstance(c, Mapping) or not isinstance(c.get("name"), str):
            raise ValueError(f"a cup needs a name, got {c!r}")
        if c.get("hands") not in KINDS:
            raise ValueError(f"cup {c['name']!r}: hands must be one of {', '.join(KINDS)}")
        cups.append(Cup(c["name"], _whole("ante", c.get("ante", 0), 0), c["hands"]))
    names = [c.name for c in cups] + [str(settings["jackpot"])]
    if len(set(names)) != len(names):
        raise ValueError("every cup and the Jackpot need different names")
    wilds = settings["wilds"]
    if not isinstance(wilds, list):
        raise ValueError(f"house rule 'wilds' must be a list of cards, got {wilds!r}")
    return WanaganRules(
        cups=tuple(cups),
        wilds=tuple(Card.parse(w) for w in wilds),
        chips=_whole("chips", settings["chips"], 0),
        rounds=_whole("rounds", settings["rounds"], 1),
        min_players=_whole("min_players", settings["min_players"], 2),
        two_decks_from=_whole("two_decks_from", settings["two_decks_from"], 1),
        ace_low=bool(settings["ace_low"]),
        pass_cards=_whole("pass_cards", settings["pass_cards"], 0),
        jackpot=str(settings["jackpot"]),
    )


@dataclass
class WanaganState(GameState):
    """Where the game stands: the round, the hand being revealed and what comes next."""

    dealer: str | None = None
    in_round: bool = False
    #: The hand being revealed now (None between hands).
    hand: str | None = None
    #: The hand that comes next in this round (None between rounds).
    next_hand: str | None = None
    reveals: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    reveal_lines: dict[str, int] = field(default_factory=dict)
    #: Full information for the current hand, when the log has a ``deal``.
    deal: dict[str, tuple[Card, ...]] | None = None
    deal_line: int = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> WanaganState:
        # Every value is immutable (str, int, tuples of Cards) except the dicts: copy those.
        return replace(self, reveals=dict(self.reveals), reveal_lines=dict(self.reveal_lines),
                       deal=None if self.deal is None else dict(self.deal))


def hand_name(kind: str, rules: WanaganRules) -> str:
    """What a hand is, for people: ``"overtime 1: pass 3 left"``."""
    n = rules.pass_cards
    if kind == "main":
        return "the main hand"
    if kind == "overtime-1":
        return f"overtime 1: pass {n} left" if n else "overtime 1"
    if kind == "overtime-2":
        return f"overtime 2: pass {n} right" if n else "overtime 2"
    if kind == "overtime-3":
        wild = " ".join(w.pretty() for w in rules.wilds)
        return f"overtime 3: wilds {wild}" if wild else "overtime 3"
    return "5-card draw for the Jackpot"


def _n(chips: int) -> str:
    """``1`` -> ``"1 chip"``, ``5`` -> ``"5 chips"``."""
    return plural(chips, "chip")


def _stay(chips: int) -> str:
    """``1`` -> ``"1 chip stays"``, ``2`` -> ``"2 chips stay"``."""
    return f"{_n(chips)} stays" if chips == 1 else f"{_n(chips)} stay"


def _spoken(text: str) -> str:
    """A hand's name inside a sentence: ``"Full house, ..."`` -> ``"full house, ..."``."""
    return text if text.startswith("Wanagan") else text[:1].lower() + text[1:]


def _chips_of(setup: Event, players: Sequence[str], default: int) -> dict[str, int]:
    chips = setup.get("chips")
    if chips is None:
        chips = default
    if isinstance(chips, Mapping):
        missing = [p for p in players if p not in chips]
        if missing:
            raise ValueError(f"no starting chips given for {', '.join(missing)}")
        return {p: _whole(f"chips of {p}", chips[p], 0) for p in players}
    n = _whole("chips", chips, 0)
    return {p: n for p in players}


@register_referee("wanagan")
class WanaganReferee(Referee):
    """Wanagan (WA-1..WA-7). Hidden mode checks what the table shows (5 cards per reveal, no
    card shown more often than the decks in play hold it); with a ``deal`` it also checks that
    every reveal comes out of the player's own cards (except in the draw, where cards change)."""

    game = "wanagan"

    def __init__(self, setup: Event) -> None:
        super().__init__(setup)
        overrides = setup.get("house") or {}
        if not isinstance(overrides, Mapping):
            raise ValueError("\"house\" must be an object of house rules")
        self.rules = load_rules(overrides)
        players = self.players
        if any(not isinstance(p, str) or not p for p in players) or len(set(players)) != len(
                players):
            raise ValueError("players must be different, non-empty names")
        if len(players) < self.rules.min_players:
            raise ValueError(f"Wanagan needs at least {self.rules.min_players} players (WA-1), "
                             f"got {len(players)}")
        self.decks = self.rules.decks(len(players))
        if 5 * len(players) > 52 * self.decks:
            raise ValueError(f"{len(players)} players cannot each get 5 cards from "
                             f"{self.decks} deck(s)")
        rounds = setup.get("rounds")
        self.rounds = _whole("rounds", self.rules.rounds if rounds is None else rounds, 1)
        cups = [c.name for c in self.rules.cups] + [self.rules.jackpot]
        clash = set(cups) & set(players)
        if clash:
            raise ValueError(f"a player has the name of a cup: {', '.join(sorted(clash))}")
        self.ledger = Ledger.open(_chips_of(setup, players, self.rules.chips), cups=cups)
        self.state: WanaganState = WanaganState()

    # --- the fold ----------------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        handlers = {"round": self._round, "hand": self._hand, "deal": self._deal,
                    "reveal": self._reveal}
        handler = handlers.get(event.kind)
        if handler is None:
            raise EventError(f"a {event.kind!r} event has no place in Wanagan "
                             f"(expected round, hand, deal or reveal)")
        handler(event)

    def _round(self, event: Event) -> None:
        st = self.state
        if st.finished:
            raise EventError(f"the game is over ({self.rounds} rounds played)")
        if st.in_round:
            raise EventError(f"round {st.round} is not over: {self._waiting_for()}")
        dealer = event.get("dealer")
        if dealer is None:
            dealer = self._next_dealer()
        if dealer not in self.players:
            raise EventError(f"the dealer {dealer!r} is not one of the players")
        st.round += 1
        st.in_round = True
        st.dealer = dealer
        st.next_hand = "main"
        short: list[str] = []
        for cup in self.rules.cups:  # WA-2: every player antes into every cup
            for p in self.players:
                paid = self.ledger.pay(p, cup.name, cup.ante, f"ante, round {st.round} (WA-2)",
                                       event.line)
                if paid < cup.ante:
                    short.append(p)
        text = f"Round {st.round}, {dealer} deals. Antes: {_n(self.rules.ante_each)} each"
        if short:
            text += f" ({', '.join(dict.fromkeys(short))} short, paid all they had)"
        self.announce(event.line, text + ". Next: the main hand.")

    def _hand(self, event: Event) -> None:
        st = self.state
        if st.finished:
            raise EventError(f"the game is over ({self.rounds} rounds played)")
        if not st.in_round:
            raise EventError("no round has started: a \"round\" event comes first")
        if st.hand is not None:
            raise EventError(f"{hand_name(st.hand, self.rules)} is not over: "
                             f"{self._waiting_for()}")
        kind = event.get("kind", st.next_hand)
        if kind not in HAND_KINDS:
            raise EventError(f"unknown hand kind {kind!r} (expected one of "
                             f"{', '.join(HAND_KINDS)})")
        if kind != st.next_hand:
            assert st.next_hand is not None
            why = ""
            if kind in OVERTIMES and st.next_hand == "draw":
                why = " (every cup is empty or three overtime hands were played, WA-5)"
            elif kind == "draw" and st.next_hand in OVERTIMES:
                why = " (cups still hold chips, WA-5)"
            raise EventError(f"the next hand is {hand_name(st.next_hand, self.rules)}, "
                             f"not {kind}{why}")
        st.hand = kind
        st.reveals = {}
        st.reveal_lines = {}
        st.deal = None
        st.deal_line = 0

    def _deal(self, event: Event) -> None:
        st = self.state
        if st.hand is None:
            raise EventError("a deal belongs to a hand: a \"hand\" event comes first")
        if st.reveals:
            raise EventError("the deal must come before the first reveal of the hand")
        hands = event.get("hands")
        if not isinstance(hands, Mapping):
            raise EventError("a deal needs \"hands\": an object of player -> cards")
        strangers = [str(p) for p in hands if p not in self.players]
        if strangers:
            raise EventError(f"the deal names unknown players: {', '.join(strangers)}")
        missing = [p for p in self.players if p not in hands]
        if missing:
            raise EventError(f"the deal has no cards for {', '.join(missing)}")
        dealt: dict[str, tuple[Card, ...]] = {}
        seen: dict[Card, int] = {}
        for p in self.players:
            cs = self._cards(hands[p], f"the deal for {p}")
            if len(cs) < 5:
                raise EventError(f"the deal gives {p} {len(cs)} cards; a hand needs 5")
            for c in cs:
                seen[c] = seen.get(c, 0) + 1
                if seen[c] > self.decks:
                    raise EventError(f"the deal holds {c.pretty()} {seen[c]} times with "
                                     f"{self._decks_text()} in play")
            dealt[p] = tuple(cs)
        st.deal = dealt
        st.deal_line = event.line

    def _reveal(self, event: Event) -> None:
        st = self.state
        player = event.get("player")
        if player not in self.players:
            raise EventError(f"{player!r} is not one of the players")
        if st.hand is None:
            if not st.in_round:
                raise EventError(f"{player} reveals, but no round is being played")
            nxt = hand_name(st.next_hand or "main", self.rules)
            raise EventError(f"{player} reveals, but no hand is being played (a \"hand\" event "
                             f"comes first; next is {nxt})")
        if player in st.reveals:
            raise EventError(f"{player} has already revealed in this hand "
                             f"(line {st.reveal_lines[player]})")
        shown = self._cards(event.get("cards"), f"{player}'s reveal")
        if len(shown) != 5:
            raise EventError(f"{player} reveals {len(shown)} cards; a Wanagan hand is exactly "
                             f"5 (WA-3)")
        counts: dict[Card, int] = {}
        for cs in [*st.reveals.values(), shown]:
            for c in cs:
                counts[c] = counts.get(c, 0) + 1
        for c in shown:
            if counts[c] > self.decks:
                others = [f"{p} (line {st.reveal_lines[p]})" for p, cs in st.reveals.items()
                          if c in cs]
                where = f", also shown by {', '.join(others)}" if others else ""
                raise EventError(f"{c.pretty()} is shown {counts[c]} times in this hand but "
                                 f"{self._decks_text()} in play{where}")
        if st.deal is not None and st.hand != "draw":
            left = list(st.deal[player])
            for c in shown:
                if c not in left:
                    raise EventError(f"{player} reveals {c.pretty()}, which is not among the "
                                     f"cards dealt to {player} (deal, line {st.deal_line})")
                left.remove(c)
        st.reveals[player] = tuple(shown)
        st.reveal_lines[player] = event.line
        if len(st.reveals) == len(self.players):
            self._settle(event.line)

    # --- settling a hand ---------------------------------------------------------------------
    def _settle(self, line: int) -> None:
        st = self.state
        kind = st.hand
        assert kind is not None
        st.hand = None
        hands = {p: list(st.reveals[p]) for p in self.players}
        if kind == "draw":
            self._settle_draw(hands, line)
        else:
            self._settle_cups(kind, hands, line)

    def _settle_cups(self, kind: str, hands: Mapping[str, list[Card]], line: int) -> None:
        st = self.state
        wilds = self.rules.wilds if kind == "overtime-3" else ()  # WA-5
        live = [c for c in self.rules.cups if self.ledger[c.name] > 0]
        kinds = {c.hands for c in live}
        judged = {p: judge(cs, kinds, wilds=wilds, ace_low=self.rules.ace_low)
                  for p, cs in hands.items()}
        won = False
        for cup in live:
            names, best = winners(judged, cup.hands)
            if not names or best is None:
                continue
            won = True
            self._award(cup.name, names, best, line)
        if not won:
            self.announce(line, "No cup won this hand.")
        holding = [c for c in self.rules.cups if self.ledger[c.name] > 0]
        done = OVERTIMES.index(kind) + 1 if kind in OVERTIMES else 0
        if holding and done < len(OVERTIMES):
            st.next_hand = OVERTIMES[done]
            left = ", ".join(f"{c.name} {self.ledger[c.name]}" for c in holding)
            self.announce(line, f"Still in cups: {left}. Next: "
                                f"{hand_name(st.next_hand, self.rules)}.")
            return
        moved = 0
        for cup in holding:  # WA-6: leftovers join the Jackpot
            moved += self.ledger.empty_into(cup.name, self.rules.jackpot,
                                            "left in the cup after overtime (WA-6)", line)
        st.next_hand = "draw"
        pot = self.ledger[self.rules.jackpot]
        lead = f"{_n(moved)} left in cups go to the Jackpot. " if moved else ""
        self.announce(line, f"{lead}Next: 5-card draw for the Jackpot ({_n(pot)}).")

    def _award(self, cup: str, names: list[str], best: CupHand, line: int) -> None:
        amount = self.ledger[cup]
        paid = self.ledger.split(cup, names, f"won {cup} (WA-3)", line)
        hand = best.named()
        which = "" if hand.lower().startswith(cup.lower()) else f" ({cup})"
        if len(names) == 1:
            self.announce(line, f"{names[0]}: {hand} — wins {_n(amount)}{which}")
            return
        share = paid[names[0]]
        rest = amount - share * len(names)
        tail = f"; {_stay(rest)} in the cup" if rest else ""
        self.announce(line, f"{join_words(names)} tie for {cup} with {_spoken(hand)}: "
                            f"{_n(share)} each{tail}")

    def _settle_draw(self, hands: Mapping[str, list[Card]], line: int) -> None:
        st = self.state
        jackpot = self.rules.jackpot
        names, best = draw_winners(hands, ace_low=self.rules.ace_low)
        amount = self.ledger[jackpot]
        paid = self.ledger.split(jackpot, names, "won the Jackpot in the 5-card draw (WA-6)",
                                 line)
        if not amount:
            self.announce(line, f"{join_words(names)}: best draw, {_spoken(best.describe())}; "
                                f"the Jackpot is empty")
        elif len(names) == 1:
            self.announce(line, f"{names[0]} wins the Jackpot with {_spoken(best.describe())}: "
                                f"{_n(amount)}")
        else:
            share = paid[names[0]]
            rest = amount - share * len(names)
            tail = f"; {_stay(rest)} in the Jackpot" if rest else ""
            self.announce(line, f"{join_words(names)} tie for the Jackpot with "
                                f"{_spoken(best.describe())}: {_n(share)} each{tail}")
        st.in_round = False
        st.next_hand = None
        self.ledger.close_round()
        if st.round >= self.rounds:
            self._end_game(line)
        else:
            self.announce(line, f"Round {st.round} over. Next: round {st.round + 1}, "
                                f"{self._next_dealer()} deals.")

    def _end_game(self, line: int) -> None:
        """WA-7 / MR-12: chips left on the board are divided equally; the remainder stays."""
        st = self.state
        jackpot = self.rules.jackpot
        for cup in self.rules.cups:
            if self.ledger[cup.name]:
                self.ledger.empty_into(cup.name, jackpot, "end of game (WA-7)", line)
        left = self.ledger[jackpot]
        paid = self.ledger.split(jackpot, self.players, "board divided at the end (WA-7, MR-12)",
                                 line)
        st.finished = True
        text = "Game over."
        share = paid.get(self.players[0], 0)
        if share:
            text += f" {_n(left)} left on the board: {share} to each player"
            rest = self.ledger[jackpot]
            text += f", {_stay(rest)} on the board." if rest else "."
        elif left:
            text += f" {_stay(left)} on the board, too few to divide."
        chips = self.ledger.player_chips()
        top = max(chips.values())
        leaders = [p for p, n in chips.items() if n == top]
        verb = "wins" if len(leaders) == 1 else "tie"
        text += f" {join_words(leaders)} {verb} with {_n(top)}."
        self.announce(line, text)

    # --- helpers -----------------------------------------------------------------------------
    def _cards(self, raw: Any, what: str) -> list[Card]:
        if not isinstance(raw, list):
            raise EventError(f"{what} needs a list of cards, got {raw!r}")
        out: list[Card] = []
        for code in raw:
            try:
                out.append(Card.parse(code))
            except CardError:
                raise EventError(f"{what} holds {code!r}, a card no deck in play has "
                                 f"(cards are 2C .. AS)") from None
        return out

    def _decks_text(self) -> str:
        return "one deck is" if self.decks == 1 else f"{self.decks} decks are"

    def _waiting_for(self) -> str:
        st = self.state
        if st.hand is not None:
            missing = [p for p in self.players if p not in st.reveals]
            return f"waiting for {', '.join(missing)} to reveal"
        return f"next is {hand_name(st.next_hand or 'main', self.rules)}"

    def _next_dealer(self) -> str:
        dealer = self.state.dealer
        if dealer is None:
            return self.players[0]
        return self.players[(self.players.index(dealer) + 1) % len(self.players)]

    def next_hand(self) -> str | None:
        """The kind of hand that comes next (None between rounds or when the game is over)."""
        return self.state.next_hand if self.state.hand is None else self.state.hand

    def live_cups(self) -> dict[str, int]:
        """Money cups holding chips now, by name (what the bots aim at)."""
        return {c.name: self.ledger[c.name] for c in self.rules.cups if self.ledger[c.name] > 0}
