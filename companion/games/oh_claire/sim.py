"""Simulated Oh Claire! games: bots that bid from their hand's strength and aim at the exact bid.

`simulate` writes a whole game as DESIGN.md events; the referee itself keeps the seats, dealer and
chips while the bots play, so a simulated log is legal unless ``mistakes`` asks for rule breaks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.cards import Card, full_deck
from companion.events import Event
from companion.games.oh_claire.referee import OhClaireReferee
from companion.games.oh_claire.rules import GAME, trick_winner
from companion.referee import register_simulator

#: Expected tricks from a trump card by rank (a low trump still wins a ruff now and then).
TRUMP_VALUE = {14: 1.0, 13: 0.85, 12: 0.7, 11: 0.55, 10: 0.45}
#: Tricks a middling card picks up on average (more with fewer players at the table); measured
#: from bot games so that bids are right on average.
CARD_BONUS = {2: 0.15, 3: 0.07, 4: 0.02, 5: 0.0}


class Bot:
    """A player who estimates the tricks their hand will take and then plays to hit it exactly.

    It sees only its own hand and the cards on the table (no peeking at other hands).
    """

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.rng = rng

    # --- bidding -----------------------------------------------------------------------------
    @staticmethod
    def estimate(hand: Sequence[Card], trump: str, players: int) -> float:
        """Expected tricks: high trumps, aces and guarded kings, plus ruffs in short suits."""
        by_suit: dict[str, int] = {}
        for c in hand:
            by_suit[c.suit] = by_suit.get(c.suit, 0) + 1
        trumps = by_suit.get(trump, 0)
        est = 0.0
        for c in hand:
            if c.suit == trump:
                est += TRUMP_VALUE.get(c.rank, 0.35 if trumps >= 3 else 0.2)
            elif c.rank == 14:
                est += 0.9 if by_suit[c.suit] <= 4 else 0.7
            elif c.rank == 13:
                est += 0.55 if 2 <= by_suit[c.suit] <= 4 else 0.3
            elif c.rank == 12:
                est += 0.25 if 3 <= by_suit[c.suit] <= 4 else 0.1
        # Short side suits let low trumps ruff.
        short = sum(1 for s in "CDHS" if s != trump and by_suit.get(s, 0) <= 1)
        est += min(short, max(trumps - 2, 0)) * 0.3
        return est + len(hand) * CARD_BONUS.get(players, 0.0)

    def bid(self, hand: Sequence[Card], trump: str, players: int, forbidden: int | None) -> int:
        raw = self.estimate(hand, trump, players)
        bid = max(0, min(len(hand), round(raw)))
        if bid == forbidden:                              # OC-3: go the nearer way round
            up, down = bid + 1, bid - 1
            if down < 0 or (up <= len(hand) and raw >= bid):
                bid = up
            else:
                bid = down
        return bid

    # --- play --------------------------------------------------------------------------------
    def play(self, hand: Sequence[Card], trick: Sequence[tuple[str, Card]], trump: str,
             need: int, last: bool, revoke: bool = False) -> Card:
        """Choose a card: win a trick while tricks are still needed, duck once the bid is made.

        ``revoke`` (a deliberate mistake) plays off-suit although the player can follow.
        """
        if not trick:
            return self._lead(hand, trump, need)
        led = trick[0][1].suit
        follow = [c for c in hand if c.suit == led]
        if revoke and follow and len(follow) < len(hand):
            legal = [c for c in hand if c.suit != led]
        else:
            legal = follow or list(hand)
        best = trick_winner(trick, trump)[1]
        winners = [c for c in legal if _beats(c, best, led, trump)]
        losers = [c for c in legal if c not in winners]
        if need > 0:
            if winners:
                return min(winners, key=_strength(trump)) if last else \
                    max(winners, key=_strength(trump))
            return min(losers, key=_strength(trump))
        if losers:
            return max(losers, key=_strength(trump))
        return max(winners, key=_strength(trump)) if last else min(winners, key=_strength(trump))

    @staticmethod
    def _lead(hand: Sequence[Card], trump: str, need: int) -> Card:
        key = _strength(trump)
        if need > 0:
            aces = [c for c in hand if c.rank >= 13 and c.suit != trump]
            return max(aces, key=key) if aces else max(hand, key=key)
        side = [c for c in hand if c.suit != trump]
        return min(side or hand, key=lambda c: c.rank)


def _strength(trump: str) -> Any:
    return lambda c: (c.suit == trump, c.rank)


def _beats(c: Card, best: Card, led: str, trump: str) -> bool:
    if c.suit == best.suit:
        return c.rank > best.rank
    return c.suit == trump


@register_simulator(GAME)
def simulate(players: list[str], rounds: int | None = None, seed: int = 0, hidden: bool = False,
             mistakes: float = 0.0, chips: int | None = None, game: str = GAME,
             **_opts: Any) -> list[dict[str, Any]]:
    """Bots play a whole game of Oh Claire!; returns the event log as dicts.

    ``hidden`` leaves out the `deal` events (what a camera sees). ``mistakes`` is the chance, at
    each opportunity, that a bot revokes, bids out of turn, plays out of turn, or (as dealer)
    bids the forbidden number.
    """
    rng = random.Random(seed)
    setup: dict[str, Any] = {"event": "game", "game": GAME, "players": list(players),
                             "chips": 24 if chips is None else chips}
    if rounds is not None:
        setup["rounds"] = rounds
    try:
        referee = OhClaireReferee(Event(setup, 1))
    except (ValueError, TypeError) as exc:
        raise ValueError(str(exc)) from None
    bots = {p: Bot(p, rng) for p in players}
    log: list[dict[str, Any]] = [setup]

    def emit(ev: dict[str, Any]) -> None:
        log.append(ev)
        referee.apply(Event(ev, len(log)))

    st = referee.state
    while not st.finished:
        emit({"event": "round", "dealer": referee.next_dealer()})
        active = list(st.active)
        deck = full_deck()
        rng.shuffle(deck)
        hands = {p: sorted(deck[i * st.cards:(i + 1) * st.cards]) for i, p in enumerate(active)}
        trump = deck[len(active) * st.cards]
        if not hidden:
            emit({"event": "deal", "hands": {p: [c.code for c in h] for p, h in hands.items()}})
        emit({"event": "trump", "card": trump.code})
        order = referee.bid_order()
        if len(order) > 2 and rng.random() < mistakes:        # two non-dealers swap turns
            i = rng.randrange(len(order) - 2)
            order[i], order[i + 1] = order[i + 1], order[i]
        for p in order:
            forbidden = referee.forbidden_bid() if p == st.dealer else None
            bid = bots[p].bid(hands[p], trump.suit, len(active), forbidden)
            if forbidden is not None and rng.random() < mistakes:
                bid = forbidden                               # a dealer-bid mistake
            emit({"event": "bid", "player": p, "tricks": bid})
        while st.phase == "play":
            seq = referee.trick_order()
            if rng.random() < mistakes:                       # someone plays out of turn
                i = rng.randrange(len(seq) - 1)
                seq[i], seq[i + 1] = seq[i + 1], seq[i]
            for k, p in enumerate(seq):
                need = st.bids[p] - st.taken[p]
                c = bots[p].play(hands[p], st.trick, trump.suit, need, k == len(seq) - 1,
                                 revoke=rng.random() < mistakes)
                hands[p].remove(c)
                emit({"event": "play", "player": p, "card": c.code})
    return log
