"""Poker hands for the Kitty, Poker Pool and Wanagan cups: rank 5 cards, find the best and
the worst 5-card hand among any number, with ace high or high-or-low, wild cards and two decks.

>>> evaluate(cards("KC KD KH 4S 4C")).describe()
'Full house, kings over fours'
>>> str(best_hand(cards("2C 9H 9S 7D 5C 9C JD")))
'Three of a kind, nines (9♥ 9♠ 9♣ J♦ 7♦)'
>>> best_hand(cards("AS 2D 3C 4H 5S 9D")).describe()    # ace high only (MR-11)
'Ace high'
>>> best_hand(cards("AS 2D 3C 4H 5S 9D"), ace_low=True).describe()
'Straight, five high'
>>> worst_hand(cards("2C 3D 4H 5S 6C 7D 8H")).describe()
'Seven high'
>>> evaluate(cards("AS AD AC AH KH"), wilds=cards("KH")).describe()
'Five of a kind, aces'

Conventions (RULINGS MR-10, MR-11, GL-6, PR-4, WA-3, WA-5):

- Ace is high only unless ``ace_low=True``; then A-2-3-4-5 is also a straight (five high). An
  ace is never low in a high-card comparison.
- A wild card stands for any card, of any rank and suit, including a copy of a card already in
  the hand (that is how five of a kind arises with one deck). Every copy of a wild card is wild.
  Each takes the value that makes the best hand.
- Two decks: duplicate cards are allowed. A flush may hold a pair (it still ranks as a flush, by
  its cards high to low); five of a kind is the highest category (above a straight flush).
  ``five_of_a_kind=False`` disallows it: wilds then never make it, and five real cards of one
  rank count as four of a kind with a kicker of that rank. ``None`` (the default) allows it:
  it can only arise with wilds or duplicate cards anyway.
- Fewer than 5 cards (PR-4) are ranked as they are: high card, pair, two pair, three or four
  of a kind, the key made of the cards present; such a hand compares correctly with full hands.

Fast internal path: cards as integer codes ``rank * 4 + suit`` (suit index in ``"CDHS"``), see
`code_of`; `rank5_fast` scores 5 codes as an `int` that orders like `HandRank`.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations

from .cards import RANK_NAMES, SUITS, Card, cards, format_cards

__all__ = [
    "Category",
    "HandRank",
    "evaluate",
    "best_hand",
    "worst_hand",
    "rank5_fast",
    "code_of",
    "score_category",
    "cards",  # re-exported from companion.cards for convenience (and the doctests)
]


class Category(IntEnum):
    """Poker hand categories, weakest first."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9

    @property
    def label(self) -> str:
        """The category for people: ``"Full house"``."""
        return _LABELS[self]


_LABELS = {
    Category.HIGH_CARD: "High card",
    Category.ONE_PAIR: "One pair",
    Category.TWO_PAIR: "Two pair",
    Category.THREE_OF_A_KIND: "Three of a kind",
    Category.STRAIGHT: "Straight",
    Category.FLUSH: "Flush",
    Category.FULL_HOUSE: "Full house",
    Category.FOUR_OF_A_KIND: "Four of a kind",
    Category.STRAIGHT_FLUSH: "Straight flush",
    Category.FIVE_OF_A_KIND: "Five of a kind",
}

_CATS = tuple(Category)
HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE, STRAIGHT, FLUSH, FULL_HOUSE, FOUR, SF, FIVE = range(10)


def _name(rank: int) -> str:
    return RANK_NAMES[rank]


def _plural(rank: int) -> str:
    n = RANK_NAMES[rank]
    return n + "es" if n.endswith("x") else n + "s"


@dataclass(frozen=True, order=True)
class HandRank:
    """The value of a poker hand: its category, the tie-break ranks, and its cards.

    Comparison and hashing use ``(category, key)`` only, so hands of equal value compare
    equal whatever their suits. ``key`` lists ranks (2..14) in order of importance, e.g.
    ``(13, 4)`` for kings over fours, ``(5,)`` for a five-high straight. ``cards`` are the
    cards of the hand arranged for display (the groups first, then kickers, high to low);
    wild cards appear as themselves, in the place of the card they stand for.
    """

    category: Category
    key: tuple[int, ...]
    cards: tuple[Card, ...] = field(default=(), compare=False)

    def describe(self) -> str:
        """The hand in words: ``"Full house, kings over fours"``, ``"Pair of eights"``."""
        c, k = self.category, self.key
        if not k:
            return c.label
        if c == FIVE:
            return f"Five of a kind, {_plural(k[0])}"
        if c == SF:
            return f"Straight flush, {_name(k[0])} high"
        if c == FOUR:
            return f"Four of a kind, {_plural(k[0])}"
        if c == FULL_HOUSE:
            return f"Full house, {_plural(k[0])} over {_plural(k[1])}"
        if c == FLUSH:
            return f"Flush, {_name(k[0])} high"
        if c == STRAIGHT:
            return f"Straight, {_name(k[0])} high"
        if c == THREE:
            return f"Three of a kind, {_plural(k[0])}"
        if c == TWO_PAIR:
            return f"Two pair, {_plural(k[0])} and {_plural(k[1])}"
        if c == ONE_PAIR:
            return f"Pair of {_plural(k[0])}"
        return f"{_name(k[0]).capitalize()} high"

    def __str__(self) -> str:
        return f"{self.describe()} ({format_cards(self.cards)})"

    @property
    def score(self) -> int:
        """An `int` that orders like the hand (as returned by `rank5_fast`)."""
        return _pack(self.category, self.key)


# --- integer encoding -------------------------------------------------------------------------

_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def code_of(card: Card) -> int:
    """The integer code of a card for the fast path: ``rank * 4 + suit index`` (8..59)."""
    return card.rank << 2 | _SUIT_INDEX[card.suit]


def _pack(category: int, key: Sequence[int]) -> int:
    """``category`` in bits 20+, then up to five key ranks as nibbles, most important first."""
    s = category
    for i in range(5):
        s = s << 4 | (key[i] if i < len(key) else 0)
    return s


def score_category(score: int) -> Category:
    """The category of a score from `rank5_fast`."""
    return _CATS[score >> 20]


# --- the search for the best hand -------------------------------------------------------------

_DESC = tuple(range(14, 1, -1))


def _straight_top(mask: int, wilds: int, ace_low: bool) -> int:
    """The top rank of the highest straight in a rank bit mask (bit r = rank r present) when up to
    ``wilds`` ranks may be filled in; 0 when there is none."""
    if ace_low and mask >> 14 & 1:
        mask |= 2
    if not wilds:
        s = mask & mask >> 1 & mask >> 2 & mask >> 3 & mask >> 4
        return s.bit_length() + 3 if s else 0
    low = 5 if ace_low else 6
    for top in range(14, low - 1, -1):
        if 5 - (mask >> (top - 4) & 31).bit_count() <= wilds:
            return top
    return 0


def _kickers(cnt: list[int], exclude: Collection[int], k: int, wilds: int) -> tuple[int, ...]:
    """The ``k`` best kicker ranks: leftover wilds (as the best rank not excluded), then real
    cards high to low, skipping the excluded ranks."""
    out: list[int] = []
    if wilds:
        best = 14 if 14 not in exclude else 13 if 13 not in exclude else 12
        out.extend([best] * min(wilds, k))
    for r in _DESC:
        if len(out) >= k:
            break
        if cnt[r] and r not in exclude:
            out.extend([r] * min(cnt[r], k - len(out)))
    return tuple(out)


def _solve(codes: Sequence[int], wilds: int, ace_low: bool, five_ok: bool
           ) -> tuple[int, tuple[int, ...], int]:
    """Best 5-card hand among the real cards ``codes`` plus ``wilds`` wild cards (together at
    least 5). Returns (category, key, suit of the flush or -1)."""
    cnt = [0] * 15
    by_suit: list[list[int]] = [[], [], [], []]
    smask = [0, 0, 0, 0]
    mask = 0
    for c in codes:
        r = c >> 2
        s = c & 3
        cnt[r] += 1
        by_suit[s].append(r)
        smask[s] |= 1 << r
        mask |= 1 << r
    w = wilds
    top_count = max(cnt) + w
    if five_ok and top_count >= 5:
        for r in _DESC:
            if cnt[r] + w >= 5:
                return FIVE, (r,), -1
    flush_suits = [s for s in range(4) if len(by_suit[s]) + w >= 5]
    if flush_suits:
        best_t, best_s = 0, -1
        for s in flush_suits:
            t = _straight_top(smask[s], w, ace_low)
            if t > best_t:
                best_t, best_s = t, s
        if best_t:
            return SF, (best_t,), best_s
    if top_count >= 4:
        for r in _DESC:
            if cnt[r] + w >= 4:
                left = w - max(0, 4 - cnt[r])
                if cnt[r] > 4:  # two decks, five of a kind not allowed: the fifth is the kicker
                    return FOUR, (r, r), -1
                return FOUR, (r, *_kickers(cnt, (r,), 1, left)), -1
    if top_count >= 3:
        for t in _DESC:
            if cnt[t] + w >= 3:
                rem = w - max(0, 3 - cnt[t])
                for p in _DESC:
                    if p != t and cnt[p] + rem >= 2:
                        return FULL_HOUSE, (t, p), -1
    if flush_suits:
        best_key: tuple[int, ...] = ()
        best_s = -1
        for s in flush_suits:
            key = tuple(sorted(by_suit[s], reverse=True)[:5 - w])
            key = ((14,) * w + key)[:5] if w else key
            if key > best_key:
                best_key, best_s = key, s
        return FLUSH, best_key, best_s
    t = _straight_top(mask, w, ace_low)
    if t:
        return STRAIGHT, (t,), -1
    if top_count >= 3:
        for r in _DESC:
            if cnt[r] + w >= 3:
                left = w - max(0, 3 - cnt[r])
                return THREE, (r, *_kickers(cnt, (r,), 2, left)), -1
    if top_count >= 2:
        pairs = [r for r in _DESC if cnt[r] >= 2]
        if len(pairs) >= 2 and not w:
            h, lo = pairs[0], pairs[1]
            return TWO_PAIR, (h, lo, *_kickers(cnt, (h, lo), 1, 0)), -1
        for r in _DESC:
            if cnt[r] + w >= 2:
                left = w - max(0, 2 - cnt[r])
                return ONE_PAIR, (r, *_kickers(cnt, (r,), 3, left)), -1
    return HIGH_CARD, _kickers(cnt, (), 5, w), -1


def _solve_partial(codes: Sequence[int], wilds: int) -> tuple[int, tuple[int, ...], int]:
    """Rank fewer than 5 cards as they are (PR-4): groups of equal rank only. Wild cards join the
    biggest (then highest) group; with no real card they are aces."""
    cnt = [0] * 15
    for c in codes:
        cnt[c >> 2] += 1
    if wilds:
        target = max(_DESC, key=lambda r: (cnt[r], r)) if codes else 14
        cnt[target] += wilds
    groups = sorted(((cnt[r], r) for r in _DESC if cnt[r]), reverse=True)
    big, r0 = groups[0]
    singles = tuple(r for n, r in groups if n == 1)
    if big >= 4:
        return FOUR, (r0, *singles), -1
    if big == 3:
        return THREE, (r0, *singles), -1
    if big == 2:
        if len(groups) > 1 and groups[1][0] == 2:
            return TWO_PAIR, (r0, groups[1][1]), -1
        return ONE_PAIR, (r0, *singles), -1
    return HIGH_CARD, singles, -1


# --- display ----------------------------------------------------------------------------------

def _demand(category: int, key: tuple[int, ...]) -> list[int]:
    """The ranks of the hand's cards in display order."""
    if category in (SF, STRAIGHT):
        t = key[0]
        return [r if r > 1 else 14 for r in range(t, t - 5, -1)]
    if category == FIVE:
        return [key[0]] * 5
    if category == FULL_HOUSE:
        return [key[0]] * 3 + [key[1]] * 2
    if category == TWO_PAIR:
        return [key[0]] * 2 + [key[1]] * 2 + list(key[2:])
    size = {FOUR: 4, THREE: 3, ONE_PAIR: 2}.get(category, 1)
    return [key[0]] * size + list(key[1:])


def _arrange(category: int, key: tuple[int, ...], suit: int, real: Sequence[Card],
             wild: Sequence[Card]) -> tuple[Card, ...]:
    """Pick the cards that make the hand from ``real`` (in their order) and ``wild``."""
    pool = list(real)
    if suit >= 0:
        pool = [c for c in pool if c.suit == SUITS[suit]]
    used = [False] * len(pool)
    spare = list(wild)
    out: list[Card] = []
    for r in _demand(category, key):
        for i, c in enumerate(pool):
            if not used[i] and c.rank == r:
                used[i] = True
                out.append(c)
                break
        else:
            if not spare:  # pragma: no cover - the search guarantees enough cards
                raise AssertionError(f"cannot arrange {category} {key} from {real} + {wild}")
            out.append(spare.pop(0))
    return tuple(out)


# --- five-card tables for the fast path --------------------------------------------------------

_PRIMES = (0, 0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
#: Per card code: the prime of its rank, and the bit of its suit.
_PRIME = [0] * 60
_SUITBIT = [0] * 60
for _c in range(8, 60):
    _PRIME[_c] = _PRIMES[_c >> 2]
    _SUITBIT[_c] = 1 << (_c & 3)

# Per ace mode: prime product of the 5 ranks -> score (no flush / flush). Also, for `evaluate`,
# the category, key and a display weight per rank.
_Info = tuple[Category, tuple[int, ...], tuple[int, ...]]
_PLAIN: list[dict[int, int]] = [{}, {}]
_FLUSHED: list[dict[int, int]] = [{}, {}]
_PLAIN_INFO: list[dict[int, _Info]] = [{}, {}]
_FLUSH_INFO: list[dict[int, _Info]] = [{}, {}]
_BUILD_LOCK = threading.Lock()


def _weights(category: int, key: tuple[int, ...]) -> tuple[int, ...]:
    """Per rank (index 0..14), the display position of that rank's cards: sort by it."""
    w = [99] * 15
    for i, r in enumerate(_demand(category, key)):
        if w[r] == 99:
            w[r] = i
    return tuple(w)


def _build_tables() -> None:
    """Fill the tables (about 0.1 s, done on first use rather than at import)."""
    with _BUILD_LOCK:
        if not _PLAIN[1]:
            _fill_tables()


def _fill_tables() -> None:
    from itertools import combinations_with_replacement

    for ranks in combinations_with_replacement(range(2, 15), 5):
        p = 1
        for r in ranks:
            p *= _PRIMES[r]
        plain = [r << 2 | i % 4 for i, r in enumerate(ranks)]  # suits 0 1 2 3 0: no flush
        cat, key, _ = _solve(plain, 0, False, True)
        _PLAIN[0][p] = _pack(cat, key)
        _PLAIN_INFO[0][p] = (_CATS[cat], key, _weights(cat, key))
        if max(ranks.count(r) for r in ranks) <= 2:  # at most two of a card: two decks
            cat, key, _ = _solve([r << 2 for r in ranks], 0, False, True)
            _FLUSHED[0][p] = _pack(cat, key)
            _FLUSH_INFO[0][p] = (_CATS[cat], key, _weights(cat, key))
    # Ace high-or-low differs only for A-2-3-4-5 (the wheel).
    _PLAIN[1].update(_PLAIN[0])
    _FLUSHED[1].update(_FLUSHED[0])
    _PLAIN_INFO[1].update(_PLAIN_INFO[0])
    _FLUSH_INFO[1].update(_FLUSH_INFO[0])
    wheel = [14, 5, 4, 3, 2]
    p = _PRIMES[14] * _PRIMES[5] * _PRIMES[4] * _PRIMES[3] * _PRIMES[2]
    for suits, plain_t, info_t in (([0, 1, 2, 3, 0], _PLAIN, _PLAIN_INFO),
                                   ([0] * 5, _FLUSHED, _FLUSH_INFO)):
        cat, key, _ = _solve([r << 2 | s for r, s in zip(wheel, suits, strict=True)], 0, True,
                             True)
        plain_t[1][p] = _pack(cat, key)
        info_t[1][p] = (_CATS[cat], key, _weights(cat, key))


def rank5_fast(a: int, b: int, c: int, d: int, e: int, *, ace_low: bool = False) -> int:
    """Score five card codes (see `code_of`); a higher score is a better hand. Five of a kind is
    allowed (two decks); there are no wild cards here.

    >>> from companion.cards import cards
    >>> s = rank5_fast(*map(code_of, cards("TS JS QS KS AS")))
    >>> score_category(s).label
    'Straight flush'
    """
    p = _PRIME[a] * _PRIME[b] * _PRIME[c] * _PRIME[d] * _PRIME[e]
    flush = _SUITBIT[a] & _SUITBIT[b] & _SUITBIT[c] & _SUITBIT[d] & _SUITBIT[e]
    try:
        return (_FLUSHED if flush else _PLAIN)[ace_low][p]
    except KeyError:
        if not p:
            raise ValueError(f"not five card codes: {(a, b, c, d, e)}") from None
        if _PLAIN[1]:  # more than two copies of a card (three decks or more)
            return _pack(*_solve((a, b, c, d, e), 0, ace_low, True)[:2])
        _build_tables()
        return rank5_fast(a, b, c, d, e, ace_low=ace_low)


# --- public API -------------------------------------------------------------------------------

def _split(cards_: Sequence[Card], wilds: Collection[Card]) -> tuple[list[Card], list[Card]]:
    if not wilds:
        return list(cards_), []
    wild_set = set(wilds)
    real = [c for c in cards_ if c not in wild_set]
    wild = [c for c in cards_ if c in wild_set]
    return real, wild


def _make(category: int, key: tuple[int, ...], suit: int, real: Sequence[Card],
          wild: Sequence[Card]) -> HandRank:
    return HandRank(_CATS[category], key, _arrange(category, key, suit, real, wild))


def evaluate(cards: Sequence[Card], *, ace_low: bool = False, wilds: Collection[Card] = (),
             five_of_a_kind: bool | None = None) -> HandRank:
    """Rank exactly 5 cards.

    ``ace_low``: A-2-3-4-5 is also a straight (not in the Michigan games, MR-11).
    ``wilds``: cards that are wild wherever they appear (WA-5), each taking the best value.
    ``five_of_a_kind``: allowed unless False (see the module docstring).
    """
    if len(cards) != 5:
        raise ValueError(f"evaluate needs exactly 5 cards, got {len(cards)}")
    five_ok = five_of_a_kind is not False
    if not wilds:
        a, b, c, d, e = cards
        p = (_PRIMES[a.rank] * _PRIMES[b.rank] * _PRIMES[c.rank] * _PRIMES[d.rank]
             * _PRIMES[e.rank])
        try:
            if a.suit == b.suit == c.suit == d.suit == e.suit:
                cat, key, w = _FLUSH_INFO[ace_low][p]
            else:
                cat, key, w = _PLAIN_INFO[ace_low][p]
        except KeyError:
            if not _PLAIN[1]:
                _build_tables()
                return evaluate(cards, ace_low=ace_low, five_of_a_kind=five_of_a_kind)
            # more than two copies of a card (three decks or more): the general search
            return best_hand(cards, ace_low=ace_low, five_of_a_kind=five_of_a_kind)
        if cat == FIVE and not five_ok:
            cat, key = Category.FOUR_OF_A_KIND, (key[0], key[0])
        return HandRank(cat, key, tuple(sorted(cards, key=lambda x: w[x.rank])))
    return best_hand(cards, ace_low=ace_low, wilds=wilds, five_of_a_kind=five_of_a_kind)


def best_hand(cards: Sequence[Card], *, ace_low: bool = False, wilds: Collection[Card] = (),
              five_of_a_kind: bool | None = None) -> HandRank:
    """The best 5-card hand among any number of cards (MR-10, WA-3).

    Fewer than 5 cards are ranked as they are (PR-4); no cards at all is a `ValueError`.
    """
    if not cards:
        raise ValueError("best_hand needs at least 1 card, got none")
    real, wild = _split(cards, wilds)
    codes = [c.rank << 2 | _SUIT_INDEX[c.suit] for c in real]
    if len(cards) < 5:
        cat, key, suit = _solve_partial(codes, len(wild))
    else:
        cat, key, suit = _solve(codes, len(wild), ace_low, five_of_a_kind is not False)
    return _make(cat, key, suit, real, wild)


def _is_straight(ranks: Sequence[int], ace_low: bool) -> bool:
    """``ranks``: 5 distinct ranks, high to low."""
    if ranks[0] - ranks[4] == 4:
        return True
    return ace_low and ranks[0] == 14 and ranks[1] == 5


def worst_hand(cards: Sequence[Card], *, ace_low: bool = False) -> HandRank:
    """The lowest 5-card hand among any number of cards (GL-6 Loser's Kitty).

    Exact: it first looks for the lowest high-card hand (five different ranks, not a straight,
    not all one suit), which is what almost every round hand holds, and otherwise compares
    every 5 cards. Fewer than 5 cards are ranked as they are; no cards is a `ValueError`.
    """
    if not cards:
        raise ValueError("worst_hand needs at least 1 card, got none")
    if len(cards) < 5:
        return best_hand(cards, ace_low=ace_low)
    suits_of: dict[int, int] = {}
    for c in cards:
        suits_of[c.rank] = suits_of.get(c.rank, 0) | 1 << _SUIT_INDEX[c.suit]
    present = sorted(suits_of)  # low to high
    chosen: list[int] = []

    def dfs(limit: int) -> bool:
        # choose the next rank (below ``limit``), lowest first; lexicographically least hand
        need = 5 - len(chosen)
        if need == 0:
            if _is_straight(chosen, ace_low):
                return False
            common = 15
            for r in chosen:
                common &= suits_of[r]
            # all one suit is forced only when every rank has just that one suit
            return not (common.bit_count() == 1 and all(suits_of[r] == common for r in chosen))
        for i, r in enumerate(present):
            if r >= limit:
                break
            if i + 1 < need:
                continue
            chosen.append(r)
            if dfs(r):
                return True
            chosen.pop()
        return False

    if dfs(15):
        picked: list[Card] = []
        for r in chosen:
            picked.append(next(c for c in cards if c.rank == r))
        if len({c.suit for c in picked}) == 1:
            # swap one card for another suit of the same rank (it exists, see dfs)
            for i, r in enumerate(chosen):
                other = next((c for c in cards if c.rank == r and c.suit != picked[0].suit), None)
                if other is not None:
                    picked[i] = other
                    break
        return HandRank(Category.HIGH_CARD, tuple(chosen), tuple(picked))
    codes = [c.rank << 2 | _SUIT_INDEX[c.suit] for c in cards]
    best_score, best_combo = None, None
    for combo in combinations(range(len(cards)), 5):
        s = rank5_fast(*(codes[i] for i in combo), ace_low=ace_low)
        if best_score is None or s < best_score:
            best_score, best_combo = s, combo
    assert best_combo is not None
    return evaluate([cards[i] for i in best_combo], ace_low=ace_low)
