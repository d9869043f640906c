"""Playing cards: the immutable `Card` value, card codes, decks and the deal arithmetic.

Card codes follow DESIGN.md: rank ``23456789TJQKA`` + suit ``CDHS`` (``"5C"``, ``"TD"``, ``"AS"``);
parsing also accepts ``10``, lower case and the suit symbols ``♣♦♥♠``.

>>> Card.parse("10♥")
Card.parse('TH')
>>> str(Card.parse("qs")), Card.parse("qs").pretty()
('QS', 'Q♠')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import total_ordering
from typing import Any, Literal

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}
# Variation selectors and the outline suit symbols people paste from other programs.
_SYMBOL_TO_SUIT.update({"♧": "C", "♢": "D", "♡": "H", "♤": "S"})

Colour = Literal["black", "red"]


class CardError(ValueError):
    """A card code that cannot be read; the message names the input."""


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is 2..14 (ace = 14), ``suit`` one of ``"CDHS"``.

    Cards order by rank, then suit (clubs < diamonds < hearts < spades) so that sorting is
    deterministic; games that compare within a suit only look at ``rank``.
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 2 <= self.rank <= 14:
            raise CardError(f"rank must be 2..14, got {self.rank!r}")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise CardError(f"suit must be one of C D H S, got {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card code such as ``"5C"``, ``"10h"``, ``"Q♠"``; raise `CardError` otherwise."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"not a card code: {text!r} (expected text like '5C')")
        known = _BY_CODE.get(text)    # the code as logs write it, the common case
        if known is not None:
            return known
        s = text.strip().replace("\ufe0f", "")
        if len(s) < 2:
            raise CardError(f"not a card code: {text!r} (expected rank + suit, like '5C')")
        rank_part, suit_part = s[:-1].upper(), s[-1]
        suit = _SYMBOL_TO_SUIT.get(suit_part, suit_part.upper())
        if suit not in SUITS:
            raise CardError(f"not a card code: {text!r} (unknown suit {suit_part!r})")
        if rank_part == "10":
            rank_part = "T"
        if len(rank_part) != 1 or rank_part not in RANKS:
            raise CardError(f"not a card code: {text!r} (unknown rank {s[:-1]!r})")
        return _CACHE[(RANKS.index(rank_part) + 2, suit)]

    @property
    def code(self) -> str:
        """The card code, e.g. ``"TD"``."""
        return RANKS[self.rank - 2] + self.suit

    @property
    def colour(self) -> Colour:
        return "red" if self.suit in "DH" else "black"

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank - 2]

    def pretty(self) -> str:
        """The card for people: ``10♣``, ``K♥``."""
        r = "10" if self.rank == 10 else self.rank_char
        return r + SUIT_SYMBOLS[self.suit]

    def spoken(self) -> str:
        """The card in words, for speech: ``"ten of clubs"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, SUITS.index(self.suit)) < (other.rank, SUITS.index(other.suit))

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


_CACHE: dict[tuple[int, str], Card] = {}
for _s in SUITS:
    for _r in range(2, 15):
        _CACHE[(_r, _s)] = object.__new__(Card)
        object.__setattr__(_CACHE[(_r, _s)], "rank", _r)
        object.__setattr__(_CACHE[(_r, _s)], "suit", _s)

#: Every card code, in deck order (clubs 2..A, diamonds, hearts, spades). The detector's classes.
CARD_CODES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
_BY_CODE: dict[str, Card] = {c.code: c for c in _CACHE.values()}


def pretty_name(name: str) -> str:
    """A name for people: a card code (a cup named after its card, ``AS``, ``TD``) becomes
    ``A♠``, ``10♦``; any other name (``Jackpot``, ``8-9-10 any one suit``) is left as it is."""
    return _CACHE[(RANKS.index(name[0]) + 2, name[1])].pretty() if name in CARD_CODES else name


def pretty_cards(value: Any) -> str:
    """Card codes for people ("5♣ 6♣"); anything that is not a card is shown as it is."""
    codes = value if isinstance(value, list) else [value]
    out: list[str] = []
    for code in codes:
        try:
            out.append(Card.parse(str(code)).pretty())
        except (CardError, ValueError):
            out.append(str(code))
    return " ".join(out)


def card(text: str | Card) -> Card:
    """Shorthand for `Card.parse`."""
    return Card.parse(text) if isinstance(text, str) else text


def cards(texts: Iterable[str | Card] | str) -> list[Card]:
    """Parse several codes: a list, or one string separated by spaces/commas (``"5C 6C 7C"``)."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    return [card(t) for t in texts]


def full_deck(decks: int = 1) -> list[Card]:
    """The cards of ``decks`` standard 52-card decks (two decks: every card twice)."""
    if decks < 1:
        raise ValueError(f"decks must be at least 1, got {decks}")
    one = [Card.parse(c) for c in CARD_CODES]
    return one * decks


def format_cards(cs: Iterable[Card], sep: str = " ") -> str:
    """Cards for people: ``"5♣ 6♣ 7♣"``."""
    return sep.join(c.pretty() for c in cs)


DUMMY = "(dummy)"


def deal_order(seats: Sequence[str], dealer: str, extra: Literal["last", "first"] | None = "last",
               extra_name: str = DUMMY) -> list[str]:
    """The order hands receive cards in one pass of the deal.

    Dealing starts at the dealer's left and ends with the dealer. ``extra="last"`` puts the
    extra (dummy) hand after the dealer in every pass (RULINGS MR-1); ``"first"`` deals it first,
    immediately to the dealer's left (BO-3); ``None`` deals no extra hand.
    """
    if dealer not in seats:
        raise ValueError(f"dealer {dealer!r} is not one of the players {list(seats)}")
    i = list(seats).index(dealer)
    order = [seats[(i + 1 + k) % len(seats)] for k in range(len(seats))]
    if extra == "last":
        order.append(extra_name)
    elif extra == "first":
        order.insert(0, extra_name)
    return order


def hand_sizes(seats: Sequence[str], dealer: str, extra: Literal["last", "first"] | None = "last",
               cards_total: int = 52, extra_name: str = DUMMY) -> dict[str, int]:
    """The size of every hand when ``cards_total`` cards are dealt one at a time (MR-1, BO-3).

    >>> hand_sizes(["Ann", "Bob", "Cy"], "Ann")
    {'Bob': 13, 'Cy': 13, 'Ann': 13, '(dummy)': 13}
    >>> hand_sizes(["Ann", "Bob", "Cy", "Dee", "Eve"], "Ann")
    {'Bob': 9, 'Cy': 9, 'Dee': 9, 'Eve': 9, 'Ann': 8, '(dummy)': 8}
    """
    order = deal_order(seats, dealer, extra, extra_name)
    base, more = divmod(cards_total, len(order))
    return {name: base + (1 if k < more else 0) for k, name in enumerate(order)}
