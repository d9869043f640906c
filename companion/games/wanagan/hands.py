"""Wanagan hands: which money cups a revealed 5-card hand qualifies for and how strong it is in
each (RULINGS WA-3, WA-4), with wild cards taking their best value cup by cup (WA-5).

>>> from companion.cards import cards
>>> sorted(judge(cards("7C 7H 7S KC KH"), KINDS))
['full-house']
>>> judge(cards("6S 8D TC QH AS"), ["wanagan"])["wanagan"].text
'Wanagan, 6-8-10-Q-A'

How a hand is judged (the decisions behind WA-3..WA-5):

- Without wild cards a hand has one poker category (ace high or low, WA-1) and qualifies for
  that category's cup only: a full house for ``full-house``, not for ``three`` or ``pair``;
  a straight flush for both ``flush`` and ``straight``; five of a kind (two decks) for
  ``four``, above any four of a kind. It also qualifies for ``wanagan`` when it is one (WA-4).
- Within a cup hands compare in poker order (a straight flush beats any plain flush in the
  flush cup and any plain straight in the straight cup); Wanagans compare by their top card
  (A-3-5-7-9 tops at 9, 6-8-10-Q-A at the ace). Equal strength is an exact tie (suits never
  break ties).
- With wild cards (WA-5) every cup is judged on its own: the wilds take whatever values (any
  rank and suit, a copy of a card in the hand included) make the best hand *of that cup's
  kind*. So 5♣ 5♦ 9♠ J♥ + one wild is three fives for the three cup, a pair of fives with
  an ace kicker for the pair cup and two pair (jacks and fives) for the two-pair cup. A kind
  the natural cards rule out (a pair cup for 5♣ 5♦ 5♥ 9♠ + wild) is not reachable.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement

from companion.cards import RANKS, Card
from companion.poker import Category, HandRank, code_of, evaluate, rank5_fast, score_category

#: The kinds of hand a money cup can collect (wanagan.toml names one per cup).
KINDS: tuple[str, ...] = ("pair", "two-pair", "three", "full-house", "flush", "straight",
                          "four", "wanagan")

#: WA-3: the cup kinds each poker category qualifies for.
KINDS_OF: dict[Category, tuple[str, ...]] = {
    Category.HIGH_CARD: (),
    Category.ONE_PAIR: ("pair",),
    Category.TWO_PAIR: ("two-pair",),
    Category.THREE_OF_A_KIND: ("three",),
    Category.STRAIGHT: ("straight",),
    Category.FLUSH: ("flush",),
    Category.FULL_HOUSE: ("full-house",),
    Category.FOUR_OF_A_KIND: ("four",),
    Category.STRAIGHT_FLUSH: ("flush", "straight"),
    Category.FIVE_OF_A_KIND: ("four",),  # WA-3: counts as 4 of a Kind, above any four
}

#: WA-4: the six Wanagans as rank values (ace = 1 or 14), highest top card first.
WANAGANS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(low, low + 9, 2)) for low in range(6, 0, -1))

_RANK_LABEL = {1: "A", 10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def rank_label(value: int) -> str:
    """A rank value for people: 2..9, 10, J, Q, K, A (1 and 14 are both the ace)."""
    return _RANK_LABEL.get(value, str(value))


@dataclass(frozen=True, order=True)
class CupHand:
    """A hand as judged for one kind of cup.

    ``strength`` orders hands within the cup (equal strength is an exact tie, WA-3); ``text``
    names the hand for people, ``cards`` are the revealed cards and ``wild_as`` says what each
    wild card stood for (empty without wilds).
    """

    strength: int
    text: str = field(compare=False)
    cards: tuple[Card, ...] = field(compare=False, default=())
    wild_as: tuple[tuple[Card, str], ...] = field(compare=False, default=())

    def named(self) -> str:
        """The hand with what its wilds stood for: ``"Wanagan, 4-6-8-10-Q (10♦ as 6)"``."""
        if not self.wild_as:
            return self.text
        said = ", ".join(f"{w.pretty()} as {v}" for w, v in self.wild_as)
        return f"{self.text} ({said})"


def _card(rank: int, suit: str) -> Card:
    return Card.parse(RANKS[rank - 2] + suit)


def wanagan_of(ranks: Sequence[int], wilds: int = 0) -> tuple[int, ...] | None:
    """The best Wanagan (WA-4) that natural cards of ``ranks`` plus ``wilds`` wild cards make:
    its rank values low to high (ace as 1 or 14), or None.

    >>> wanagan_of([14, 9, 7, 5, 3])
    (1, 3, 5, 7, 9)
    >>> wanagan_of([12, 8, 4], wilds=2)
    (4, 6, 8, 10, 12)
    >>> wanagan_of([2, 4, 6, 8, 8]) is None
    True
    """
    if len(set(ranks)) != len(ranks) or len(ranks) + wilds != 5:
        return None
    for template in WANAGANS:
        if all(r in template or (r == 14 and 1 in template) for r in ranks):
            return template
    return None


@lru_cache(maxsize=8192)
def _best_with_wilds(real: tuple[Card, ...], n_wilds: int, ace_low: bool
                     ) -> dict[str, tuple[int, tuple[Card, ...]]]:
    """Per poker cup kind: the best score that ``real`` plus ``n_wilds`` wild cards reach as a
    hand of that kind, and the cards the wilds stand for (WA-5).

    Every multiset of wild ranks is tried, each once with the wilds in the suit of a possible
    flush and once breaking it: suits matter for nothing else in poker.
    """
    codes = [code_of(c) for c in real]
    suits = {c.suit for c in real}
    flush_suit = next(iter(suits)) if len(suits) == 1 else ("S" if not real else None)
    if not real:
        plain_suits = "CDHSC"[:n_wilds]
    elif flush_suit is not None:
        other = "C" if flush_suit != "C" else "D"
        plain_suits = other * n_wilds
    else:
        plain_suits = "C" * n_wilds
    best: dict[str, tuple[int, tuple[Card, ...]]] = {}
    for ranks in combinations_with_replacement(range(14, 1, -1), n_wilds):
        versions = [tuple(_card(r, s) for r, s in zip(ranks, plain_suits, strict=True))]
        if flush_suit is not None:
            versions.append(tuple(_card(r, flush_suit) for r in ranks))
        for values in versions:
            score = rank5_fast(*codes, *(code_of(v) for v in values), ace_low=ace_low)
            for kind in KINDS_OF[score_category(score)]:
                if kind not in best or score > best[kind][0]:
                    best[kind] = (score, values)
    return best


def _poker_text(rank: HandRank) -> str:
    return rank.describe()


def judge(hand: Sequence[Card], kinds: Iterable[str] = KINDS, *, wilds: Collection[Card] = (),
          ace_low: bool = True) -> dict[str, CupHand]:
    """The cup kinds among ``kinds`` that the 5-card ``hand`` qualifies for, each with the hand's
    best showing for that kind (WA-3, WA-4; wild cards choose per cup, WA-5).

    >>> from companion.cards import cards
    >>> j = judge(cards("5C 5D 9S JH 7S"), wilds=cards("7S"))
    >>> sorted(j)
    ['pair', 'three', 'two-pair']
    >>> j["three"].named()
    'Three of a kind, fives (7♠ as 5)'
    """
    if len(hand) != 5:
        raise ValueError(f"a Wanagan hand is 5 cards, got {len(hand)}")
    wanted = set(kinds)
    wild_set = set(wilds)
    real = [c for c in hand if c not in wild_set]
    wild = sorted(c for c in hand if c in wild_set)
    out: dict[str, CupHand] = {}
    if not wild:
        rank = evaluate(list(hand), ace_low=ace_low)
        for kind in KINDS_OF[rank.category]:
            if kind in wanted:
                out[kind] = CupHand(rank.score, _poker_text(rank), tuple(hand))
    else:
        best = _best_with_wilds(tuple(sorted(real)), len(wild), ace_low)
        for kind, (score, values) in best.items():
            if kind not in wanted:
                continue
            rank = evaluate(real + list(values), ace_low=ace_low)
            flushy = rank.category in (Category.FLUSH, Category.STRAIGHT_FLUSH)
            said = tuple((w, v.pretty() if flushy else rank_label(v.rank))
                         for w, v in zip(wild, sorted(values), strict=True))
            out[kind] = CupHand(score, _poker_text(rank), tuple(hand), said)
    if "wanagan" in wanted:
        template = wanagan_of([c.rank for c in real], len(wild))
        if template is not None:
            text = "Wanagan, " + "-".join(rank_label(v) for v in template)
            natural = {1 if (c.rank == 14 and 1 in template) else c.rank for c in real}
            filled = [v for v in template if v not in natural]
            said = tuple((w, rank_label(v)) for w, v in zip(wild, filled, strict=True))
            out["wanagan"] = CupHand(template[-1], text, tuple(hand), said)
    return out


def strengths(hand: Sequence[Card], kinds: Collection[str], *, wilds: Collection[Card] = (),
              ace_low: bool = True) -> dict[str, int]:
    """Like `judge` but only the strength per qualifying kind (no names): fast, for the bots."""
    wild_set = set(wilds)
    real = [c for c in hand if c not in wild_set]
    k = len(hand) - len(real)
    out: dict[str, int] = {}
    if not k:
        score = rank5_fast(*(code_of(c) for c in hand), ace_low=ace_low)
        for kind in KINDS_OF[score_category(score)]:
            if kind in kinds:
                out[kind] = score
    else:
        for kind, (score, _) in _best_with_wilds(tuple(sorted(real)), k, ace_low).items():
            if kind in kinds:
                out[kind] = score
    if "wanagan" in kinds:
        template = wanagan_of([c.rank for c in real], k)
        if template is not None:
            out["wanagan"] = template[-1]
    return out


def winners(judged: Mapping[str, Mapping[str, CupHand]], kind: str
            ) -> tuple[list[str], CupHand | None]:
    """The players (in the order of ``judged``) with the best hand of ``kind``, and that hand;
    more than one player is an exact tie (WA-3). No qualifying hand: ``([], None)``."""
    qualifying = {p: j[kind] for p, j in judged.items() if kind in j}
    if not qualifying:
        return [], None
    top = max(qualifying.values())
    return [p for p, h in qualifying.items() if h == top], top


def draw_winners(hands: Mapping[str, Sequence[Card]], *, ace_low: bool = True
                 ) -> tuple[list[str], HandRank]:
    """WA-6: the best final 5-card draw hands (poker order, ace high or low, no wilds; five of a
    kind with two decks is the top category, as in `companion.poker`), ties all listed."""
    ranks = {p: evaluate(list(cs), ace_low=ace_low) for p, cs in hands.items()}
    top = max(ranks.values())
    return [p for p, r in ranks.items() if r == top], top


__all__ = ["KINDS", "KINDS_OF", "WANAGANS", "CupHand", "draw_winners", "judge",
           "rank_label", "strengths", "wanagan_of", "winners"]
