"""The board of the Michigan family: the disk's cups (MR-14, GL-1, PR-1, BO-1), the house rules
read from a game's data file, and the card points of MR-13.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from companion.cards import SUIT_NAMES, Card, card

JACKPOT = "Jackpot"
RED, BLACK = frozenset("DH"), frozenset("CS")
ALL_SUITS = frozenset("CDHS")
_RANK_WORDS = {"T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
_SPECIAL_CUPS = {
    "poker kitty": "kitty", "poker pool": "pool", "loser's kitty": "losers", "ace-2": "ace2",
    "full house dump": "dump", "5-card straight": "straight", "6 lead": "six",
}


class Cup(NamedTuple):
    """One cup of the disk: a single money card, a combination, or a special cup."""

    name: str
    kind: str                      # single | run | kitty | pool | losers | ace2 | dump | ...
    card: Card | None = None       # single
    ranks: tuple[int, ...] = ()    # run: the ranks in order
    suit: str | None = None        # run: its one suit, or None for "any one suit"

    @property
    def label(self) -> str:
        return self.card.pretty() if self.card else self.name

    def money_cards(self) -> frozenset[Card]:
        """Cards that make a hand ineligible for the dummy (MR-3): single cards and the cards
        of a one-suit combination ("Q-K hearts"); "any one suit" combinations are not counted."""
        if self.card is not None:
            return frozenset({self.card})
        if self.kind == "run" and self.suit:
            return frozenset(Card(r, self.suit) for r in self.ranks)
        return frozenset()


def parse_cup(name: str) -> Cup:
    """Read a cup name of the disk: ``"KD"``, ``"8-9-10 any one suit"``, ``"Q-K hearts"``,
    or one of the special cups (``"Poker Kitty"``, ``"6 Lead"`` ...)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"not a cup name: {name!r}")
    text = name.strip()
    special = _SPECIAL_CUPS.get(text.lower())
    if special:
        return Cup(text, special)
    m = re.fullmatch(r"((?:10|[2-9TJQKA])(?:-(?:10|[2-9TJQKA]))+) (any one suit|clubs|diamonds|"
                     r"hearts|spades)", text, flags=re.IGNORECASE)
    if m:
        ranks = tuple(_RANK_WORDS.get(r.upper(), 0) or int(r) for r in m.group(1).split("-"))
        if any(b != a + 1 for a, b in zip(ranks, ranks[1:], strict=False)):
            raise ValueError(f"cup {name!r}: a combination must be consecutive ranks")
        where = m.group(2).lower()
        return Cup(text, "run", ranks=ranks, suit=_SUIT_WORDS.get(where))
    try:
        return Cup(card(text).code, "single", card=card(text))
    except ValueError:
        raise ValueError(f"unknown cup {name!r} on the disk") from None


class Rules(NamedTuple):
    """The house settings of one game, read (``from_settings``) from its TOML file."""

    rounds: int
    cups: tuple[Cup, ...]
    jackpot: bool
    ante: int
    dealer_ante: int
    dealer_jackpot_extra: int
    dummy_dealt: str
    dummy_needs_no_money_card: bool
    new_suit: str
    ace_high_only: bool
    out_payment: int
    lowest_total_wins: bool
    penalize_illegal_lead: bool
    penalize_wrong_colour: bool
    penalize_withheld: bool
    lead_fine: int

    @classmethod
    def from_settings(cls, s: Mapping[str, Any]) -> Rules:
        cups = tuple(parse_cup(c) for c in s["disk"])
        names = [c.name for c in cups]
        if len(set(names)) != len(names) or JACKPOT in names:
            raise ValueError(f"the disk names a cup twice: {names}")
        if s["dummy_dealt"] not in ("last", "first"):
            raise ValueError("house rule dummy_dealt must be \"last\" or \"first\"")
        if s["new_suit"] not in ("opposite-colour", "other-suit"):
            raise ValueError("house rule new_suit must be \"opposite-colour\" or \"other-suit\"")
        for key in ("rounds", "ante", "dealer_ante", "dealer_jackpot_extra", "out_payment",
                    "lead_fine"):
            if s[key] < (1 if key == "rounds" else 0):
                raise ValueError(f"house rule {key} cannot be {s[key]}")
        return cls(s["rounds"], cups, s["jackpot"], s["ante"], s["dealer_ante"],
                   s["dealer_jackpot_extra"], s["dummy_dealt"], s["dummy_needs_no_money_card"],
                   s["new_suit"], s["ace_high_only"], s["out_payment"], s["lowest_total_wins"],
                   s["penalize_illegal_lead"], s["penalize_wrong_colour"],
                   s["penalize_withheld"], s["lead_fine"])

    def allowed_after(self, suit: str) -> frozenset[str]:
        """The suits a lead may be in after a sequence of ``suit`` stopped."""
        if self.new_suit == "other-suit":            # BO-4
            return ALL_SUITS - {suit}
        return BLACK if suit in RED else RED          # MR-6

    def lead_words(self, suit: str) -> str:
        """`allowed_after` for people: ``a black suit``."""
        if self.new_suit == "other-suit":
            return f"a suit other than {SUIT_NAMES[suit]}"
        return "a black suit" if suit in RED else "a red suit"

    def cup(self, kind: str) -> Cup | None:
        return next((c for c in self.cups if c.kind == kind), None)

    @property
    def penalised(self) -> frozenset[str]:
        """Rules whose proof forfeits money cups (PR-5, PR-6, PR-7, BO-5)."""
        out = set()
        if self.penalize_illegal_lead:
            out.add("illegal-lead")
        if self.penalize_wrong_colour:
            out.add("wrong-colour-lead")
        if self.penalize_withheld:
            out.add("withheld")
        return frozenset(out)


def card_points(c: Card) -> int:
    """MR-13: 2-10 face value, J Q K = 10, A = 11."""
    return 11 if c.rank == 14 else min(c.rank, 10)


def is_full_house(ranks: Sequence[int]) -> bool:
    """Three cards of one rank and two of another (GL-3)."""
    return sorted(Counter(ranks).values()) == [2, 3]


def is_straight(ranks: Sequence[int], ace_low: bool = False) -> bool:
    """Five distinct consecutive ranks; the ace is high only unless ``ace_low`` (MR-11)."""
    if len(set(ranks)) != 5:
        return False
    if max(ranks) - min(ranks) == 4:
        return True
    low = [1 if r == 14 else r for r in ranks]
    return ace_low and max(low) - min(low) == 4
