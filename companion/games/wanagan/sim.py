"""Wanagan simulator: bots deal, choose 5 cards aimed at the cups still holding chips, pass,
use the wild cards of the 3rd overtime hand and play the 5-card draw; the result is an event log.

The referee itself tells the simulator what hand comes next and which cups hold chips, so the log
always follows WA-5/WA-6. ``mistakes`` makes bots reveal a wrong hand now and then (4 or 6 cards,
a card twice, a card that is no card), followed by a proper reveal or a ``correct`` event.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from itertools import combinations
from typing import Any

from companion.cards import Card, full_deck, hand_sizes
from companion.events import Event
from companion.games.wanagan.hands import WANAGANS, strengths
from companion.games.wanagan.referee import WanaganReferee, load_rules
from companion.poker import Category, evaluate
from companion.referee import EventError, register_simulator

#: How likely a hand of a kind is to win its cup, before its height is counted (bot heuristic).
_BASE = {"pair": 0.15, "two-pair": 0.3, "three": 0.45, "straight": 0.55, "flush": 0.55,
         "full-house": 0.65, "four": 0.8, "wanagan": 0.7}


def _top(kind: str, strength: int) -> int:
    """The rank that decides most comparisons within a kind (2..14)."""
    return strength if kind == "wanagan" else (strength >> 16) & 15


def hand_value(hand: Sequence[Card], live: dict[str, int], wilds: Collection[Card] = ()) -> float:
    """What a bot expects a 5-card hand to win: chips in each live cup kind times a guessed
    chance of winning it (higher hands of a kind are likelier to win)."""
    value = 0.0
    for kind, s in strengths(hand, live, wilds=wilds).items():
        base = _BASE[kind]
        cat = s >> 20
        if cat >= Category.STRAIGHT_FLUSH and kind != "four" or cat == Category.FIVE_OF_A_KIND:
            chance = 1.0
        else:
            chance = base + (1 - base) * (_top(kind, s) - 2) / 12
        value += live[kind] * chance
    return value


def _distinct_high(pool: Sequence[Card], avoid: Collection[int], n: int) -> list[Card] | None:
    """``n`` cards of different ranks, none in ``avoid``, highest first (None if too few)."""
    out: list[Card] = []
    used = set(avoid)
    for c in sorted(pool, reverse=True):
        if c.rank not in used:
            out.append(c)
            used.add(c.rank)
            if len(out) == n:
                return out
    return None


def candidates(hold: Sequence[Card]) -> list[list[Card]]:
    """5-card hands built for each cup kind from natural cards (the bots' shortlist)."""
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for c in sorted(hold, reverse=True):
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, []).append(c)
    ranks = sorted(by_rank, reverse=True)
    out: list[list[Card]] = []

    def add(core: list[Card], avoid: Collection[int]) -> None:
        more = _distinct_high([c for c in hold if c not in core], avoid, 5 - len(core))
        if more is not None:
            out.append(core + more)

    groups = {n: [r for r in ranks if len(by_rank[r]) >= n] for n in (2, 3, 4, 5)}
    for r in groups[5][:1]:
        out.append(by_rank[r][:5])
    for r in groups[4][:1]:
        add(by_rank[r][:4], {r})
    for t in groups[3][:2]:
        add(by_rank[t][:3], {t})
        for p in groups[2]:
            if p != t:
                out.append(by_rank[t][:3] + by_rank[p][:2])
                break
    if len(groups[2]) >= 2:
        a, b = groups[2][:2]
        add(by_rank[a][:2] + by_rank[b][:2], {a, b})
    for r in groups[2][:2]:
        add(by_rank[r][:2], {r})
    for cs in by_suit.values():
        if len(cs) >= 5:
            distinct = _distinct_high(cs, (), 5)
            out.append(distinct if distinct is not None else cs[:5])
    present = set(ranks) | ({1} if 14 in by_rank else set())
    for top in range(14, 4, -1):
        run = list(range(top - 4, top + 1))
        if all(r in present for r in run):
            out.append([by_rank[14 if r == 1 else r][0] for r in run])
            break
    for template in WANAGANS:
        if all(v in present for v in template):
            out.append([by_rank[14 if v == 1 else v][0] for v in template])
            break
    if len(hold) >= 5:
        out.append(sorted(hold, reverse=True)[:5])
    return out


def choose_hand(hold: Sequence[Card], live: dict[str, int], wilds: Collection[Card] = ()
                ) -> list[Card]:
    """The 5 cards a bot reveals: the shortlist hand worth most in the cups holding chips; with
    wild cards, also every mix of up to 2 of its wilds with its 6 most useful natural cards."""
    options = candidates(hold)
    wild_set = set(wilds)
    held_wilds = sorted((c for c in hold if c in wild_set), reverse=True)[:2]
    if held_wilds:
        useful: dict[Card, int] = {}
        for cand in options:
            for c in cand:
                if c not in wild_set:
                    useful[c] = useful.get(c, 0) + 1
        naturals = sorted(useful, key=lambda c: (-useful[c], -c.rank))[:6]
        pool = held_wilds + naturals
        options.extend(list(combo) for combo in combinations(pool, 5))
    best = max(options, key=lambda h: (hand_value(h, live, wilds), sorted(h)))
    return best


def choose_pass(hold: Sequence[Card], n: int, live: dict[str, int],
                keep: Collection[Card] = ()) -> list[Card]:
    """The ``n`` cards a bot passes: none of its best hand for the live cups nor the later
    wilds if it can help it; lone low cards first."""
    best = choose_hand(hold, live) if live else []
    counts: dict[int, int] = {}
    for c in hold:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    keep_set = set(keep)

    def worth(c: Card) -> tuple[int, int, int]:
        return (c in best, c in keep_set, counts[c.rank] * 20 + c.rank)

    return sorted(hold, key=worth)[:n]


def choose_discards(hand: Sequence[Card]) -> list[Card]:
    """5-card draw: keep a made hand, pairs and better, or four to a flush; else the two
    highest cards (at most 3 drawn)."""
    rank = evaluate(list(hand), ace_low=True)
    if rank.category >= Category.STRAIGHT or rank.category == Category.TWO_PAIR:
        return [c for c in hand if sum(x.rank == c.rank for x in hand) == 1][:1] \
            if rank.category == Category.TWO_PAIR else []
    counts: dict[int, int] = {}
    suits: dict[str, int] = {}
    for c in hand:
        counts[c.rank] = counts.get(c.rank, 0) + 1
        suits[c.suit] = suits.get(c.suit, 0) + 1
    if max(counts.values()) >= 2:
        return [c for c in hand if counts[c.rank] == 1]
    flush = [s for s, n in suits.items() if n == 4]
    if flush:
        return [c for c in hand if c.suit != flush[0]]
    return sorted(hand)[:3]


class _Table:
    """The simulator's bookkeeping: the log so far and a referee that follows it."""

    def __init__(self, setup: dict[str, Any], rng: random.Random, mistakes: float) -> None:
        self.events: list[dict[str, Any]] = [setup]
        self.referee = WanaganReferee(Event(setup, 1))
        self.rng = rng
        self.mistakes = mistakes

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.referee.apply(Event(event, len(self.events)))

    def emit_wrong(self, event: dict[str, Any]) -> None:
        """A mistaken event: the referee must refuse it (and stays as it was)."""
        self.events.append(event)
        mark = self.referee.checkpoint()
        try:
            self.referee.apply(Event(event, len(self.events)))
        except EventError:
            self.referee.rollback(mark)
        else:  # pragma: no cover - a mistake the referee failed to notice
            raise AssertionError(f"the referee accepted a wrong reveal: {event}")

    def reveal(self, player: str, shown: list[Card], hold: Sequence[Card]) -> None:
        good = {"event": "reveal", "player": player, "cards": [c.code for c in shown]}
        if self.mistakes and self.rng.random() < self.mistakes:
            bad = self._wrong(shown, hold)
            if self.rng.random() < 0.5:
                self.emit_wrong({"event": "reveal", "player": player, "cards": bad})
            else:  # the table fixes the line afterwards
                self.events.append({"event": "reveal", "player": player, "cards": bad})
                line = len(self.events)
                self.referee.apply(Event(good, line))
                self.events.append({"event": "correct", "line": line, "with": good})
                return
        self.emit(good)

    def _wrong(self, shown: list[Card], hold: Sequence[Card]) -> list[str]:
        codes = [c.code for c in shown]
        how = self.rng.randrange(4)
        if how == 0:
            return codes[:4]
        if how == 1:
            extra = [c.code for c in hold if c not in shown][:1] or [codes[0]]
            return codes + extra
        if how == 2:
            copies = self.referee.decks + 1
            return [codes[0]] * copies + codes[copies:5] if copies < 5 else [codes[0]] * 5
        return codes[:4] + ["1X"]


@register_simulator("wanagan")
def simulate(players: list[str], rounds: int | None = None, seed: int = 0, hidden: bool = False,
             mistakes: float = 0.0, chips: int | None = None, game: str = "wanagan",
             house: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Bots play a whole game of Wanagan; returns the event log as dicts (line 1 = game)."""
    rules = load_rules(house)
    if len(players) < rules.min_players:
        raise ValueError(f"Wanagan needs at least {rules.min_players} players (WA-1)")
    rng = random.Random(seed)
    setup: dict[str, Any] = {"event": "game", "game": "wanagan", "players": list(players),
                             "chips": rules.chips if chips is None else chips,
                             "rounds": rules.rounds if rounds is None else rounds}
    if house:
        setup["house"] = house
    table = _Table(setup, rng, mistakes)
    ref = table.referee
    n = len(players)
    decks = ref.decks
    wilds = rules.wilds
    dealer = players[0]
    while not ref.state.finished:
        table.emit({"event": "round", "dealer": dealer})
        deck = full_deck(decks)
        rng.shuffle(deck)
        sizes = hand_sizes(players, dealer, extra=None, cards_total=len(deck))
        order = list(sizes)
        hold: dict[str, list[Card]] = {}
        at = 0
        for p in order:
            hold[p] = deck[at:at + sizes[p]]
            at += sizes[p]
        while (kind := ref.next_hand()) is not None and kind != "draw":
            live = {c.hands: ref.ledger[c.name] for c in rules.cups if ref.ledger[c.name] > 0}
            if kind in ("overtime-1", "overtime-2") and rules.pass_cards:
                step = 1 if kind == "overtime-1" else -1  # WA-5: left, then right
                passed = {p: choose_pass(hold[p], rules.pass_cards, live, wilds)
                          for p in players}
                for i, p in enumerate(players):
                    to = players[(i + step) % n]
                    for c in passed[p]:
                        hold[p].remove(c)
                    hold[to] = hold[to] + passed[p]
            table.emit({"event": "hand", "kind": kind})
            if not hidden:
                table.emit({"event": "deal", "hands": {p: [c.code for c in hold[p]]
                                                       for p in order}})
            use = wilds if kind == "overtime-3" else ()
            for p in order:
                table.reveal(p, choose_hand(hold[p], live or {"pair": 1}, use), hold[p])
        # WA-6: the 5-card draw with all cards gathered and shuffled
        table.emit({"event": "hand", "kind": "draw"})
        deck = full_deck(decks)
        rng.shuffle(deck)
        dealt = {p: deck[5 * i:5 * i + 5] for i, p in enumerate(order)}
        stock = deck[5 * n:]
        if not hidden:
            table.emit({"event": "deal", "hands": {p: [c.code for c in dealt[p]]
                                                   for p in order}})
        for p in order:
            out = choose_discards(dealt[p])[:len(stock)]
            final = [c for c in dealt[p] if c not in out]
            final += stock[:len(out)]
            stock = stock[len(out):]
            table.reveal(p, final, final)
        dealer = players[(players.index(dealer) + 1) % n]
    return table.events
