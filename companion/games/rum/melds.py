"""Michigan Rum's vocabulary: the house rules, card points (RU-4) and what makes a meld or a
layoff (RU-3). Pure functions that the referee and the bots share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from companion.cards import RANK_NAMES, Card, format_cards
from companion.house import house_settings

GAME = "michigan-rum"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
DECK_SIZE = 52

MeldKind = Literal["set", "run"]
Side = Literal["set", "low", "high"]


# --- house rules -------------------------------------------------------------------------------
@dataclass(frozen=True)
class RumRules:
    """The settings of one game (companion/data/michigan-rum.toml, overridable by name)."""

    target: int = 500
    rounds: int = 0
    hand_two_players: int = 13
    hand_more_players: int = 7
    ace_high_points: int = 15
    ace_low_points: int = 1
    face_points: int = 10
    stock_out: str = "end"

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None) -> RumRules:
        """The TOML defaults with ``overrides`` by name; ValueError for a value out of range."""
        s = house_settings(GAME, overrides)
        rules = cls(**{k: s[k] for k in cls.__dataclass_fields__})
        for name in ("target", "rounds", "ace_high_points", "ace_low_points", "face_points"):
            if getattr(rules, name) < 0:
                raise ValueError(f"house rule {name!r} cannot be negative")
        for name in ("hand_two_players", "hand_more_players"):
            if getattr(rules, name) < 1:
                raise ValueError(f"house rule {name!r} must be at least 1")
        if rules.stock_out not in ("end", "reuse"):
            raise ValueError(f"house rule 'stock_out' must be \"end\" or \"reuse\", "
                             f"got {rules.stock_out!r}")
        return rules

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player (RU-1)."""
        return self.hand_two_players if players == 2 else self.hand_more_players


DEFAULT_RULES = RumRules()


# --- points and melds (RU-3, RU-4) --------------------------------------------------------------
def card_points(c: Card, rules: RumRules = DEFAULT_RULES, *, low_ace: bool = False) -> int:
    """Points of one card (RU-4): A = 15, or 1 at the low end of a run; K Q J = 10; else face."""
    if c.rank == 14:
        return rules.ace_low_points if low_ace else rules.ace_high_points
    if c.rank >= 11:
        return rules.face_points
    return c.rank


def hand_points(cs: Sequence[Card], rules: RumRules = DEFAULT_RULES) -> int:
    """Points of cards left in a hand (an ace counts high: it is the low end of no run)."""
    return sum(card_points(c, rules) for c in cs)


class MeldError(ValueError):
    """Cards that do not form a meld; the message says why, for people."""


def _dash(cs: Sequence[Card]) -> str:
    return "-".join(c.pretty() for c in cs)


def _rank_card(rank: int, suit: str) -> Card:
    return Card(14 if rank == 1 else rank, suit)


def shape_meld(cs: Sequence[Card]) -> tuple[MeldKind, list[Card]]:
    """Classify cards as a set or a run (RU-3) and put them in table order (runs low to high).

    Raises `MeldError` with the reason: too few cards, mixed ranks and suits, a gap, or a run
    that goes round the corner (K-A-2).

    >>> shape_meld([Card.parse("2H"), Card.parse("AH"), Card.parse("3H")])[1]
    [Card.parse('AH'), Card.parse('2H'), Card.parse('3H')]
    >>> try:
    ...     shape_meld([Card.parse("KH"), Card.parse("AH"), Card.parse("2H")])
    ... except MeldError as exc:
    ...     print(exc)
    K♥-A♥-2♥ goes round the corner: an ace is high or low, not both
    """
    cards_ = list(cs)
    n = len(cards_)
    if len(set(cards_)) != n:
        raise MeldError(f"{format_cards(cards_)} holds the same card twice")
    if n < 3:
        raise MeldError(f"{format_cards(cards_) or 'no cards'}: a meld needs at least 3 cards")
    ranks = {c.rank for c in cards_}
    suits = {c.suit for c in cards_}
    if len(ranks) == 1:
        if n > 4:
            raise MeldError(f"{format_cards(cards_)}: a set holds 3 or 4 cards")
        return "set", sorted(cards_, key=lambda c: "CDHS".index(c.suit))
    if len(suits) != 1:
        raise MeldError(f"{format_cards(cards_)} is neither a set (one rank) nor a run "
                        f"(one suit)")
    if len(ranks) != n:
        raise MeldError(f"{format_cards(cards_)}: a run cannot hold a rank twice")
    suit = next(iter(suits))
    high = sorted(c.rank for c in cards_)
    if high == list(range(high[0], high[0] + n)):
        return "run", sorted(cards_)
    if 14 in ranks:
        low = sorted(1 if r == 14 else r for r in ranks)
        if low == list(range(1, n + 1)):
            return "run", [Card(14, suit)] + sorted(c for c in cards_ if c.rank != 14)
        # Round the corner: consecutive on the circle 2..K-A-2 but not on the line (RU-3).
        idx = sorted(r - 2 for r in ranks)  # 2 -> 0 ... A -> 12
        gaps = [(idx[(k + 1) % n] - idx[k]) % 13 for k in range(n)]
        if sum(1 for g in gaps if g != 1) == 1:
            start = (gaps.index(next(g for g in gaps if g != 1)) + 1) % n
            order = [Card(idx[(start + k) % n] + 2, suit) for k in range(n)]
            raise MeldError(f"{_dash(order)} goes round the corner: an ace is high or low, "
                            f"not both")
    readings = [high]
    if 14 in ranks:
        readings.append(sorted(1 if r == 14 else r for r in ranks))
    best: list[int] | None = None
    for rs in readings:
        missing = [r for r in range(rs[0], rs[-1] + 1) if r not in rs]
        if best is None or len(missing) < len(best):
            best = missing
    gap = " ".join(_rank_card(r, suit).pretty() for r in best or [])
    verb = "is" if len(best or []) == 1 else "are"
    raise MeldError(f"{format_cards(sorted(cards_))} is not a run: {gap} {verb} missing")


@dataclass
class Meld:
    """A meld on the table: its number in table order (1, 2, ... each round), who laid it down,
    its kind and its cards (runs low to high)."""

    number: int
    owner: str
    kind: MeldKind
    cards: list[Card]

    @property
    def low(self) -> int:
        """A run's lowest rank, 1 for a low ace."""
        first = self.cards[0]
        return 1 if self.kind == "run" and first.rank == 14 else first.rank

    @property
    def high(self) -> int:
        return self.cards[-1].rank

    def describe(self) -> str:
        return format_cards(self.cards)


def meld_points(kind: MeldKind, ordered: Sequence[Card], rules: RumRules = DEFAULT_RULES) -> int:
    """Points of a meld as laid down (RU-4): a run's first card is a low ace in A-2-3..."""
    total = 0
    for k, c in enumerate(ordered):
        low = kind == "run" and k == 0 and c.rank == 14  # runs are stored low to high
        total += card_points(c, rules, low_ace=low)
    return total


def layoff_side(meld: Meld, c: Card) -> Side | None:
    """Where ``c`` joins ``meld`` (RU-3): the set, the low or the high end of a run; None if it
    does not fit. An ace on a run 2..K goes high (the reading that scores 15)."""
    if meld.kind == "set":
        return "set" if c.rank == meld.cards[0].rank and c not in meld.cards else None
    if c.suit != meld.cards[0].suit or c in meld.cards:
        return None
    low, high = meld.low, meld.high
    if c.rank == 14:
        if high == 13:
            return "high"
        if low == 2:
            return "low"
        return None
    if c.rank == high + 1 and high < 14:
        return "high"
    if c.rank == low - 1:
        return "low"
    return None


def layoff_refusal(meld: Meld, c: Card) -> str:
    """Why ``c`` does not fit ``meld``, for people."""
    where = f"meld {meld.number} ({meld.describe()})"
    if meld.kind == "set":
        return f"{c.pretty()} does not match {where}: it needs a " \
               f"{RANK_NAMES[meld.cards[0].rank]}"
    suit = meld.cards[0].suit
    if c.suit != suit:
        return f"{c.pretty()} is not of the suit of {where}"
    if (meld.high == 14 and c.rank == 2) or (meld.low == 1 and c.rank == 13):
        joined = [*meld.cards, c] if c.rank == 2 else [c, *meld.cards]
        return f"{c.pretty()} on {where} would go round the corner " \
               f"({_dash(joined)}): an ace is high or low, not both"
    ends = []
    if meld.low > 1:
        ends.append(_rank_card(meld.low - 1, suit).pretty())
    if meld.high < 14:
        ends.append(_rank_card(meld.high + 1, suit).pretty())
    need = " or ".join(ends) if ends else "nothing more"
    return f"{c.pretty()} does not extend {where}: it takes {need}"


def join_meld(meld: Meld, c: Card, side: Side) -> None:
    """Add ``c`` to ``meld`` at ``side`` (as found by `layoff_side`)."""
    if side == "low":
        meld.cards.insert(0, c)
    elif side == "high":
        meld.cards.append(c)
    else:
        meld.cards.append(c)
        meld.cards.sort(key=lambda x: "CDHS".index(x.suit))
