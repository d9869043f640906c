"""Michigan Rum bots and simulator: whole games written as the referee's event log.

Bots meld what they can, lay off, sometimes dig deep in the discard pile for a card they can
use, and (with ``mistakes``) break RU-2 / RU-3 so the referee has something to catch.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.cards import Card, full_deck
from companion.games.rum.melds import (
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Meld,
    MeldError,
    MeldKind,
    RumRules,
    card_points,
    hand_points,
    join_meld,
    layoff_side,
    meld_points,
    shape_meld,
)
from companion.referee import register_simulator

#: A round in which nobody goes out is stopped after this many turns (only with stock reuse).
MAX_TURNS = 400
#: Safety net for games whose target cannot be reached.
MAX_ROUNDS = 500


@dataclass
class RoundRecord:
    """How a simulated round ended, for property tests: where every card is."""

    dealer: str
    out: str | None
    hands: dict[str, list[Card]]
    pile: list[Card]
    stock: list[Card]
    melds: list[list[Card]]
    points: dict[str, int]  # points each player scored in this round


@dataclass
class SimGame:
    """A simulated game: its events, the bots' own score tally, the rule breaks they made
    (line, player, rule id) and a record of every round."""

    events: list[dict[str, Any]] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)
    mistakes: list[tuple[int, str, str]] = field(default_factory=list)
    rounds: list[RoundRecord] = field(default_factory=list)

    def emit(self, event: dict[str, Any]) -> int:
        self.events.append(event)
        return len(self.events)  # the line number replay_dicts gives it


def candidate_melds(hand: Sequence[Card]) -> list[tuple[MeldKind, list[Card]]]:
    """Every set of a rank (3 or 4 cards) and every longest run (ace low or high) in a hand."""
    out: list[tuple[MeldKind, list[Card]]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, set[int]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, set()).add(c.rank)
    for group in by_rank.values():
        if len(group) >= 3:
            out.append(("set", sorted(group)))
    for suit, ranks in by_suit.items():
        present = set(ranks) | ({1} if 14 in ranks else set())
        segment: list[int] = []
        for r in range(1, 16):
            if r in present and not (r == 14 and segment and segment[0] == 1):
                segment.append(r)
                continue
            if len(segment) >= 3:
                out.append(("run", [Card(14 if x == 1 else x, suit) for x in segment]))
            segment = [r] if r in present else []
    return out


def best_melds(hand: Sequence[Card], avoid: Card | None = None,
               rules: RumRules | None = None) -> list[tuple[MeldKind, list[Card]]]:
    """Non-overlapping melds chosen greedily by points (never using ``avoid``)."""
    rules = rules or RumRules()
    cands = [(k, cs) for k, cs in candidate_melds(hand) if avoid not in cs]
    cands.sort(key=lambda kc: -meld_points(kc[0], kc[1], rules))
    used: set[Card] = set()
    chosen: list[tuple[MeldKind, list[Card]]] = []
    for kind, cs in cands:
        if used.isdisjoint(cs):
            chosen.append((kind, cs))
            used.update(cs)
    return chosen


def use_for(c: Card, hand: Sequence[Card], melds: Sequence[Meld],
            rules: RumRules) -> tuple[str, list[Card], int, int] | None:
    """How a bot would use ``c`` at once: ("meld", cards, 0, points) or ("layoff", [c], meld
    number, points); None when it cannot."""
    best: tuple[str, list[Card], int, int] | None = None
    near = [x for x in hand if x.rank == c.rank or x.suit == c.suit]  # only these can join c
    for kind, cs in candidate_melds(near):
        if c in cs:
            pts = meld_points(kind, cs, rules)
            if best is None or pts > best[3]:
                best = ("meld", cs, 0, pts)
    if best is not None:
        return best
    for m in melds:
        side = layoff_side(m, c)
        if side is not None:
            return ("layoff", [c], m.number, card_points(c, rules, low_ace=side == "low"))
    return None


def keep_value(x: Card, hand: Sequence[Card], rules: RumRules) -> float:
    """How much a bot wants to keep ``x``: partners for sets and runs, minus its weight."""
    v = 0.0
    for y in hand:
        if y == x:
            continue
        if y.rank == x.rank:
            v += 3
        elif y.suit == x.suit:
            d = abs(y.rank - x.rank)
            if x.rank == 14 or y.rank == 14:
                d = min(d, abs((1 if x.rank == 14 else x.rank) - (1 if y.rank == 14 else y.rank)))
            v += 2 if d == 1 else 1 if d == 2 else 0
    return v - card_points(x, rules) / 15


class _Round:
    """One round being played by bots."""

    def __init__(self, sim: SimGame, players: list[str], dealer: str, rng: random.Random,
                 rules: RumRules, hidden: bool, mistakes: float) -> None:
        self.sim, self.players, self.dealer, self.rng = sim, players, dealer, rng
        self.rules, self.hidden, self.mistakes = rules, hidden, mistakes
        self.points = {p: 0 for p in players}
        self.melds: list[Meld] = []
        deck = full_deck()
        rng.shuffle(deck)
        size = rules.hand_size(len(players))
        d = players.index(dealer)
        order = [players[(d + 1 + k) % len(players)] for k in range(len(players))]
        self.hands: dict[str, list[Card]] = {p: [] for p in players}
        for k in range(size * len(players)):  # one card at a time from the dealer's left
            self.hands[order[k % len(order)]].append(deck[k])
        self.stock = deck[size * len(players):]  # top first
        self.pile: list[Card] = []
        self.order = order
        self.out: str | None = None

    def score(self, p: str, pts: int) -> None:
        self.points[p] += pts
        self.sim.scores[p] += pts

    def mistake(self) -> bool:
        return self.mistakes > 0 and self.rng.random() < self.mistakes

    def play(self) -> RoundRecord:
        sim = self.sim
        sim.emit({"event": "round", "dealer": self.dealer})
        if not self.hidden:
            sim.emit({"event": "deal",
                      "hands": {p: [c.code for c in self.hands[p]] for p in self.players},
                      "stock": [c.code for c in self.stock]})
        up = self.stock.pop(0)
        self.pile.append(up)
        sim.emit({"event": "upcard", "card": up.code})
        p = self.order[0]
        turns = 0
        while True:
            turns += 1
            if turns > MAX_TURNS:
                sim.emit({"event": "end-round"})
                break
            ended = self.turn(p)
            if self.out is not None:
                self.reveals()
                break
            if ended:
                break
            p = self.players[(self.players.index(p) + 1) % len(self.players)]
        return RoundRecord(self.dealer, self.out, {q: list(h) for q, h in self.hands.items()},
                           list(self.pile), list(self.stock),
                           [list(m.cards) for m in self.melds], dict(self.points))

    # --- one turn ----------------------------------------------------------------------------
    def choose_draw(self, p: str) -> tuple[int, tuple[str, list[Card], int, int] | None]:
        """Index of the pile card to take (-1: the stock) and how it will be used."""
        hand = self.hands[p]
        options: list[tuple[float, int, tuple[str, list[Card], int, int]]] = []
        for j in range(len(self.pile)):
            taken = self.pile[j:]
            use = use_for(self.pile[j], hand + taken, self.melds, self.rules)
            if use is not None:
                value = use[3] - 2.0 * (len(taken) - 1)
                options.append((value, j, use))
        if not options:
            return -1, None
        deep = [o for o in options if o[0] >= -6]
        if len(deep) > 1 and self.rng.random() < 0.25:
            _, j, use = min(deep, key=lambda o: o[1])  # dig deep now and then
            return j, use
        value, j, use = max(options, key=lambda o: (o[0], -o[1]))
        if value >= 4 or self.rng.random() < 0.5:
            return j, use
        return -1, None

    def turn(self, p: str) -> bool:
        """Play one turn; True when the round ended with the stock exhausted."""
        sim, hand = self.sim, self.hands[p]
        j, use = self.choose_draw(p)
        unused: Card | None = None
        if j < 0 and self.pile and self.mistake():
            j, use = len(self.pile) - 1, None  # takes the top card and will not use it
        if j >= 0:
            chosen = self.pile[j]
            taken = self.pile[j:]
            del self.pile[j:]
            hand.extend(taken)
            draw_line = sim.emit({"event": "draw", "player": p, "from": "discard",
                                  "card": chosen.code})
            if use is None:
                unused = chosen
                sim.mistakes.append((draw_line, p, "discard-draw-unused"))
            elif use[0] == "meld":
                self.meld(p, use[1])
            else:
                self.layoff(p, chosen, use[2])
        else:
            hand.append(self.stock.pop(0))
            sim.emit({"event": "draw", "player": p, "from": "stock"})
        if len(hand) >= 3 and self.mistake():
            self.invalid_meld(p)
        for kind_cards in best_melds(hand, avoid=unused, rules=self.rules):
            if len(hand) == 0:
                break
            self.meld(p, kind_cards[1])
        self.layoffs(p, unused)
        if self.melds and hand and self.mistake():
            self.invalid_layoff(p)
        if not hand:
            self.out = p
            return False
        if unused is not None and len(hand) > 1 and unused in hand:
            options = [c for c in hand if c != unused]
        else:
            options = list(hand)
        rules = self.rules
        drop = min(options, key=lambda c: (keep_value(c, hand, rules), -card_points(c, rules),
                                           c))
        hand.remove(drop)
        self.pile.append(drop)
        sim.emit({"event": "discard", "player": p, "card": drop.code})
        if not hand:
            self.out = p
            return False
        if not self.stock:
            if self.rules.stock_out == "reuse" and len(self.pile) >= 2:
                self.stock = self.pile[:-1]
                self.pile = self.pile[-1:]
                return False
            return True
        return False

    def meld(self, p: str, cs: list[Card]) -> None:
        kind, ordered = shape_meld(cs)
        for c in cs:
            self.hands[p].remove(c)
        shown = list(cs)
        self.rng.shuffle(shown)  # the referee must not depend on the order cards are listed
        self.sim.emit({"event": "meld", "player": p, "cards": [c.code for c in shown]})
        self.melds.append(Meld(len(self.melds) + 1, p, kind, ordered))
        self.score(p, meld_points(kind, ordered, self.rules))

    def layoff(self, p: str, c: Card, number: int) -> None:
        meld = self.melds[number - 1]
        side = layoff_side(meld, c)
        assert side is not None
        ref: int | str | None = number
        roll = self.rng.random()
        if roll < 0.3:
            ref = meld.cards[0].code  # name the meld by one of its cards
        elif roll < 0.4 and sum(1 for m in self.melds if layoff_side(m, c)) == 1:
            ref = None  # leave it to the referee: only one meld fits
        self.hands[p].remove(c)
        event: dict[str, Any] = {"event": "layoff", "player": p, "card": c.code}
        if ref is not None:
            event["meld"] = ref
        self.sim.emit(event)
        join_meld(meld, c, side)
        self.score(p, card_points(c, self.rules, low_ace=side == "low"))

    def layoffs(self, p: str, unused: Card | None) -> None:
        hand = self.hands[p]
        changed = True
        while changed and hand:
            changed = False
            for c in list(hand):
                if c == unused:
                    continue
                for m in self.melds:
                    if layoff_side(m, c) is not None:
                        self.layoff(p, c, m.number)
                        changed = True
                        break

    def invalid_meld(self, p: str) -> None:
        hand = self.hands[p]
        picks: list[Card] | None = None
        for c in hand:
            if c.rank == 14:
                corner = [Card(13, c.suit), c, Card(2, c.suit)]
                if all(x in hand for x in corner):
                    picks = corner
        for _ in range(10):
            if picks is not None:
                break
            trial = self.rng.sample(hand, 3)
            try:
                shape_meld(trial)
            except MeldError:
                picks = trial
        if picks is None:
            return
        line = self.sim.emit({"event": "meld", "player": p, "cards": [c.code for c in picks]})
        self.sim.mistakes.append((line, p, "invalid-meld"))

    def invalid_layoff(self, p: str) -> None:
        c = self.rng.choice(self.hands[p])
        misfits = [m for m in self.melds if layoff_side(m, c) is None]
        if not misfits:
            return
        m = self.rng.choice(misfits)
        line = self.sim.emit({"event": "layoff", "player": p, "card": c.code, "meld": m.number})
        self.sim.mistakes.append((line, p, "invalid-meld"))

    def reveals(self) -> None:
        assert self.out is not None
        k = self.players.index(self.out)
        total = 0
        for i in range(1, len(self.players)):
            q = self.players[(k + i) % len(self.players)]
            hand = list(self.hands[q])
            self.rng.shuffle(hand)
            self.sim.emit({"event": "reveal", "player": q, "cards": [c.code for c in hand]})
            total += hand_points(hand, self.rules)
        self.score(self.out, total)


def play_game(players: Sequence[str], rounds: int | None = None, seed: int = 0,
              hidden: bool = False, mistakes: float = 0.0,
              house: Mapping[str, Any] | None = None) -> SimGame:
    """Bots play a whole game of Michigan Rum (to the target, or ``rounds`` rounds)."""
    names = list(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"Michigan Rum is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    overrides = dict(house or {})
    if rounds is not None:
        overrides["rounds"] = rounds
    rules = RumRules.load(overrides)
    rng = random.Random(seed)
    sim = SimGame(scores={p: 0 for p in names})
    game: dict[str, Any] = {"event": "game", "game": GAME, "players": names}
    if rounds is not None:
        game["rounds"] = rounds
    if house:
        game["house"] = dict(house)
    sim.emit(game)
    dealer = names[0]
    for n in range(1, MAX_ROUNDS + 1):
        rnd = _Round(sim, names, dealer, rng, rules, hidden, mistakes)
        sim.rounds.append(rnd.play())
        best = max(sim.scores.values())
        if (rules.target and best >= rules.target) or (rules.rounds and n >= rules.rounds):
            break
        dealer = names[(names.index(dealer) + 1) % len(names)]
    return sim


@register_simulator(GAME)
def simulate(players: list[str], rounds: int | None = None, seed: int = 0,
             hidden: bool = False, mistakes: float = 0.0, chips: int | None = None,
             game: str = GAME, house: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The event log of a simulated game (``chips`` is ignored: Michigan Rum scores points)."""
    return play_game(players, rounds, seed, hidden, mistakes, house).events
