"""Tests for companion.poker: golden category counts, words, order, wild cards, two decks, and
best/worst hands cross-checked against brute force with a separately written reference."""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import Card, cards, full_deck
from companion.poker import (
    Category,
    HandRank,
    best_hand,
    code_of,
    evaluate,
    rank5_fast,
    score_category,
    worst_hand,
)

C = Category
DECK = full_deck()
TWO_DECKS = full_deck(2)

# --- a reference evaluator, written independently of the module ------------------------------


def ref_rank(hand: Sequence[Card], ace_low: bool = False, five_ok: bool = True
             ) -> tuple[int, tuple[int, ...]]:
    """(category, key) of 5 cards without wilds: the best of every reading that applies."""
    ranks = sorted((c.rank for c in hand), reverse=True)
    counts = Counter(ranks)
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    shape = [n for n, _ in groups]
    by_group = tuple(r for _, r in groups)
    if shape == [5]:
        options = [(9, by_group) if five_ok else (7, (ranks[0], ranks[0]))]
    elif shape[0] == 4:
        options = [(7, by_group)]
    elif shape == [3, 2]:
        options = [(6, by_group)]
    elif shape[0] == 3:
        options = [(3, by_group)]
    elif shape[:2] == [2, 2]:
        options = [(2, by_group)]
    elif shape[0] == 2:
        options = [(1, by_group)]
    else:
        options = [(0, tuple(ranks))]
    flush = len({c.suit for c in hand}) == 1
    straight_top = 0
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ace_low and ranks == [14, 5, 4, 3, 2]:
            straight_top = 5
    if flush:
        options.append((5, tuple(ranks)))
    if straight_top:
        options.append((4, (straight_top,)))
        if flush:
            options.append((8, (straight_top,)))
    return max(options)


def ref_wild(hand: Sequence[Card], wilds: Sequence[Card], ace_low: bool = False,
             five_ok: bool = True) -> tuple[int, tuple[int, ...]]:
    """Every wild card replaced by every card of the deck, best reading (brute force)."""
    wild_set = set(wilds)
    real = [c for c in hand if c not in wild_set]
    k = len(hand) - len(real)
    best: tuple[int, tuple[int, ...]] | None = None
    for subst in itertools.combinations_with_replacement(DECK, k):
        r = ref_rank(real + list(subst), ace_low, five_ok)
        if not five_ok and r[0] == 9:
            continue
        if not five_ok and r[0] == 7 and r[1][0] == r[1][1] and len(real) < 5:
            continue  # a wild never makes a fifth card of the rank when five of a kind is off
        if best is None or r > best:
            best = r
    assert best is not None
    return best


def value(h: HandRank) -> tuple[int, tuple[int, ...]]:
    return int(h.category), h.key


def is_sub_multiset(part: Sequence[Card], whole: Sequence[Card]) -> bool:
    return not Counter(part) - Counter(whole)


# --- golden counts ---------------------------------------------------------------------------

GOLDEN_HIGH_OR_LOW = {
    C.STRAIGHT_FLUSH: 40, C.FOUR_OF_A_KIND: 624, C.FULL_HOUSE: 3744, C.FLUSH: 5108,
    C.STRAIGHT: 10200, C.THREE_OF_A_KIND: 54912, C.TWO_PAIR: 123552, C.ONE_PAIR: 1098240,
    C.HIGH_CARD: 1302540,
}
# Ace high only (MR-11): the 4 wheel straight flushes become flushes, the 1,020 other wheels
# become ace-high hands.
GOLDEN_ACE_HIGH = dict(GOLDEN_HIGH_OR_LOW)
GOLDEN_ACE_HIGH.update({C.STRAIGHT_FLUSH: 36, C.FLUSH: 5112, C.STRAIGHT: 9180,
                        C.HIGH_CARD: 1303560})


@pytest.mark.slow
@pytest.mark.parametrize("ace_low, golden", [(True, GOLDEN_HIGH_OR_LOW),
                                             (False, GOLDEN_ACE_HIGH)])
def test_golden_category_counts(ace_low: bool, golden: dict[Category, int]) -> None:
    start = time.perf_counter()
    codes = [code_of(c) for c in DECK]
    counts: Counter[int] = Counter()
    fast = rank5_fast
    for a, b, c, d, e in itertools.combinations(codes, 5):
        counts[fast(a, b, c, d, e, ace_low=ace_low) >> 20] += 1
    assert sum(counts.values()) == 2_598_960
    assert {Category(k): v for k, v in counts.items()} == golden
    assert time.perf_counter() - start < 60


def test_fast_path_agrees_with_evaluate() -> None:
    for combo in itertools.islice(itertools.combinations(DECK, 5), 0, 2_598_960, 9973):
        for ace_low in (False, True):
            h = evaluate(combo, ace_low=ace_low)
            s = rank5_fast(*map(code_of, combo), ace_low=ace_low)
            assert s == h.score
            assert score_category(s) == h.category
            assert value(h) == ref_rank(combo, ace_low)


# --- words ------------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, text", [
    ("KC KD KH 4S 4C", "Full house, kings over fours (K♣ K♦ K♥ 4♠ 4♣)"),
    ("4S KC 4C KD KH", "Full house, kings over fours (K♣ K♦ K♥ 4♠ 4♣)"),
    ("TS 9H 8D 7C 6S", "Straight, ten high (10♠ 9♥ 8♦ 7♣ 6♠)"),
    ("JC 7H 2C JD 7S", "Two pair, jacks and sevens (J♣ J♦ 7♥ 7♠ 2♣)"),
    ("8C AH 8D 5S 2C", "Pair of eights (8♣ 8♦ A♥ 5♠ 2♣)"),
    ("AS KD 9H 5S 2C", "Ace high (A♠ K♦ 9♥ 5♠ 2♣)"),
    ("2H KH 9H 5H 7H", "Flush, king high (K♥ 9♥ 7♥ 5♥ 2♥)"),
    ("9C 9D 2C 9H 9S", "Four of a kind, nines (9♣ 9♦ 9♥ 9♠ 2♣)"),
    ("6C 6D 6H AS 2C", "Three of a kind, sixes (6♣ 6♦ 6♥ A♠ 2♣)"),
    ("9S KS JS TS QS", "Straight flush, king high (K♠ Q♠ J♠ 10♠ 9♠)"),
    ("AS 2D 3C 4H 5S", "Ace high (A♠ 5♠ 4♥ 3♣ 2♦)"),
])
def test_str(hand: str, text: str) -> None:
    assert str(evaluate(cards(hand))) == text


def test_wheel_with_ace_low() -> None:
    h = evaluate(cards("AS 2D 3C 4H 5S"), ace_low=True)
    assert h.describe() == "Straight, five high"
    assert [c.rank for c in h.cards] == [5, 4, 3, 2, 14]
    assert h < evaluate(cards("2D 3C 4H 5S 6S"), ace_low=True)
    sf = evaluate(cards("AH 2H 3H 4H 5H"), ace_low=True)
    assert sf.category == C.STRAIGHT_FLUSH and sf.key == (5,)
    assert evaluate(cards("AH 2H 3H 4H 5H")).category == C.FLUSH


def test_labels_and_five_of_a_kind_words() -> None:
    assert C.FULL_HOUSE.label == "Full house"
    assert C.HIGH_CARD.label == "High card"
    assert [c.label for c in C][-1] == "Five of a kind"
    h = evaluate(cards("AS AS AD AD AH"))  # two decks
    assert h.describe() == "Five of a kind, aces"
    assert evaluate(cards("6S 6S 6D 6D 6H")).describe() == "Five of a kind, sixes"


# --- order ------------------------------------------------------------------------------------

def test_order_between_categories() -> None:
    ladder = ["AS KD 9H 5S 2C", "2C 2D 3H 4S 5C", "3C 3D 2H 2S 4C", "2C 2D 2H 3S 4C",
              "2C 3D 4H 5S 6C", "2C 3C 4C 5C 7C", "2C 2D 2H 3S 3C", "2C 2D 2H 2S 3C",
              "2C 3C 4C 5C 6C", "2C 2C 2D 2D 2H"]
    values = [evaluate(cards(h)) for h in ladder]
    assert [h.category for h in values] == list(C)
    assert values == sorted(values)


def test_ties_ignore_suits() -> None:
    a = evaluate(cards("KC KD 4H 4S 9C"))
    b = evaluate(cards("KH KS 4C 4D 9D"))
    assert a == b and hash(a) == hash(b) and not a < b and not a > b
    assert len({a, b}) == 1
    assert evaluate(cards("KC KD 4H 4S TC")) > a
    assert evaluate(cards("AS KS QS JS 9S")) > evaluate(cards("AH KH QH JH 8H"))


def test_kickers_decide() -> None:
    assert evaluate(cards("8C 8D AH 5S 3C")) > evaluate(cards("8H 8S AC 5D 2C"))
    assert evaluate(cards("QC QD QH 9S 2C")) > evaluate(cards("JC JD JH AS KC"))
    assert evaluate(cards("5C 5D 5H 2S 2C")) < evaluate(cards("6C 6D 6H 2S 2C"))


def test_evaluate_needs_five() -> None:
    with pytest.raises(ValueError, match="4"):
        evaluate(cards("2C 3C 4C 5C"))
    with pytest.raises(ValueError, match="6"):
        evaluate(cards("2C 3C 4C 5C 6C 7C"))


# --- wild cards (WA-5) ------------------------------------------------------------------------

WA5 = frozenset(cards("KH TD 7S 4C"))


@pytest.mark.parametrize("hand, text", [
    ("KH 9C 9D 2S 3S", "Three of a kind, nines"),
    ("KH 9C 9D 2S 2D", "Full house, nines over twos"),
    ("KH 9C TC JC QC", "Straight flush, king high"),
    ("KH 9C TC JC 2C", "Flush, ace high"),
    ("KH 9C TD JC 2C", "Flush, ace high"),
    ("KH TD 9C 8D 2S", "Three of a kind, nines"),
    ("KH TD 9C 8D 6S", "Straight, ten high"),
    ("KH TD 7S 4C 2D", "Five of a kind, twos"),
    ("KH TD 7S 4C AH", "Five of a kind, aces"),
    ("KH 9C 8D 3S 2S", "Pair of nines"),
    ("AS AD AC AH KH", "Five of a kind, aces"),
])
def test_wilds(hand: str, text: str) -> None:
    assert evaluate(cards(hand), wilds=WA5).describe() == text


def test_wilds_without_five_of_a_kind() -> None:
    # four wilds and a two: the best hand containing the two is the 6-high straight flush
    h = evaluate(cards("KH TD 7S 4C 2D"), wilds=WA5, five_of_a_kind=False)
    assert h.describe() == "Straight flush, six high"
    h = evaluate(cards("AS AD AC AH KH"), wilds=WA5, five_of_a_kind=False)
    assert (h.category, h.key) == (C.FOUR_OF_A_KIND, (14, 13))
    # five real cards of one rank (two decks) with five of a kind off: four and a kicker
    h = evaluate(cards("6S 6S 6D 6D 6H"), five_of_a_kind=False)
    assert (h.category, h.key) == (C.FOUR_OF_A_KIND, (6, 6))


def test_all_wild() -> None:
    h = evaluate(cards("KH KH TD TD 7S"), wilds=WA5)  # two decks: every copy is wild
    assert h.describe() == "Five of a kind, aces"
    h = evaluate(cards("KH KH TD TD 7S"), wilds=WA5, five_of_a_kind=False)
    assert h.describe() == "Straight flush, ace high"


def test_wild_cards_shown_in_place() -> None:
    h = evaluate(cards("KH 9C TC JC QC"), wilds=WA5)
    assert [str(c) for c in h.cards] == ["KH", "QC", "JC", "TC", "9C"]
    h = evaluate(cards("2D KH 9C 8D 3S"), wilds=WA5)
    assert [str(c) for c in h.cards] == ["9C", "KH", "8D", "3S", "2D"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True),
       st.lists(st.sampled_from(DECK), min_size=1, max_size=2), st.booleans(), st.booleans())
def test_wilds_against_brute_force(hand: list[Card], wild_pick: list[Card], ace_low: bool,
                                   five_ok: bool) -> None:
    wilds = [c for c in wild_pick if c in hand][:2] or hand[:1]
    h = evaluate(hand, wilds=wilds, ace_low=ace_low, five_of_a_kind=five_ok)
    assert value(h) == ref_wild(hand, wilds, ace_low, five_ok)
    assert Counter(h.cards) == Counter(hand)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from([c for c in DECK if c not in WA5]), min_size=2, max_size=2),
       st.booleans())
def test_three_wilds_against_brute_force(real: list[Card], ace_low: bool) -> None:
    wild = cards("KH TD 7S")
    hand = real + wild
    assert value(evaluate(hand, wilds=WA5, ace_low=ace_low)) == ref_wild(hand, wild, ace_low)


# --- two decks --------------------------------------------------------------------------------

def test_two_decks_flush_with_a_pair() -> None:
    h = evaluate(cards("5C 5C 7C 9C JC"))
    assert h.describe() == "Flush, jack high" and h.key == (11, 9, 7, 5, 5)
    assert h > evaluate(cards("JC JD JH 9S 7C"))
    assert evaluate(cards("5C 5C 7C 7C 9C")).category == C.FLUSH


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TWO_DECKS), min_size=5, max_size=5), st.booleans())
def test_two_deck_hands_against_reference(hand: list[Card], ace_low: bool) -> None:
    assert value(evaluate(hand, ace_low=ace_low)) == ref_rank(hand, ace_low)
    assert value(evaluate(hand, five_of_a_kind=False)) == ref_rank(hand, False, False)


# --- best hand --------------------------------------------------------------------------------

def test_best_hand_examples() -> None:
    h = best_hand(cards("2C 9H 9S 7D 5C 9C JD"))
    assert str(h) == "Three of a kind, nines (9♥ 9♠ 9♣ J♦ 7♦)"
    h = best_hand(cards("AS 2D 3C 4H 5S 9D KC"))
    assert h.describe() == "Ace high" and h.key == (14, 13, 9, 5, 4)
    h = best_hand(cards("AS 2D 3C 4H 5S 9D KC"), ace_low=True)
    assert h.describe() == "Straight, five high"
    h = best_hand(cards("2H 3H 4H 5H 7H 6C 9H AH"))
    assert h.describe() == "Flush, ace high" and h.key == (14, 9, 7, 5, 4)
    h = best_hand(cards("KC KD KH QC QD QH 2S"))
    assert h.describe() == "Full house, kings over queens"
    h = best_hand(cards("TC TD TH TS 9C 9D 9H 9S"))
    assert (h.category, h.key) == (C.FOUR_OF_A_KIND, (10, 9))


def test_best_hand_of_five_is_evaluate() -> None:
    hand = cards("KC KD KH 4S 4C")
    assert best_hand(hand) == evaluate(hand)
    assert best_hand(hand).cards == evaluate(hand).cards


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=9, unique=True), st.booleans())
def test_best_and_worst_against_brute_force(hand: list[Card], ace_low: bool) -> None:
    every = [evaluate(combo, ace_low=ace_low) for combo in itertools.combinations(hand, 5)]
    best, worst = best_hand(hand, ace_low=ace_low), worst_hand(hand, ace_low=ace_low)
    assert best == max(every) and worst == min(every)
    for h in (best, worst):
        assert len(h.cards) == 5 and is_sub_multiset(h.cards, hand)
        assert evaluate(h.cards, ace_low=ace_low) == h


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(TWO_DECKS), min_size=5, max_size=8), st.booleans())
def test_two_decks_best_and_worst_against_brute_force(hand: list[Card], ace_low: bool) -> None:
    every = [value(evaluate(combo, ace_low=ace_low)) for combo in itertools.combinations(hand, 5)]
    assert value(best_hand(hand, ace_low=ace_low)) == max(every)
    worst = worst_hand(hand, ace_low=ace_low)
    assert value(worst) == min(every) and is_sub_multiset(worst.cards, hand)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=7), st.booleans())
def test_best_hand_with_wilds_against_brute_force(hand: list[Card], ace_low: bool) -> None:
    best = best_hand(hand, wilds=WA5, ace_low=ace_low)
    every = [evaluate(combo, wilds=WA5, ace_low=ace_low)
             for combo in itertools.combinations(hand, 5)]
    assert best == max(every)
    assert is_sub_multiset(best.cards, hand)
    assert evaluate(best.cards, wilds=WA5, ace_low=ace_low) == best


def test_best_and_worst_of_many_cards() -> None:
    import random

    rng = random.Random(7)
    for _ in range(3):
        hand = rng.sample(DECK, 17)
        start = time.perf_counter()
        best, worst = best_hand(hand), worst_hand(hand)
        assert time.perf_counter() - start < 0.5
        every = [rank5_fast(*map(code_of, combo)) for combo in itertools.combinations(hand, 5)]
        assert best.score == max(every) and worst.score == min(every)


# --- fewer than five cards (PR-4) -------------------------------------------------------------

def test_partial_hands() -> None:
    assert best_hand(cards("9C 9D")).describe() == "Pair of nines"
    assert best_hand(cards("9C 9D")).key == (9,)
    assert best_hand(cards("AS")).describe() == "Ace high"
    assert best_hand(cards("KS KD 2C 2D")).describe() == "Two pair, kings and twos"
    assert best_hand(cards("7S 7D 7C 2D")).key == (7, 2)
    assert best_hand(cards("7S 7D 7C 7H")).describe() == "Four of a kind, sevens"
    assert best_hand(cards("2C 2D")) > best_hand(cards("AS KS QD JC"))
    assert best_hand(cards("2C 2D")) > evaluate(cards("AS KS QD JC 9H"))
    assert best_hand(cards("8C 8D AS")) > best_hand(cards("8H 8S KS"))
    assert best_hand(cards("8C 8D AS")) < evaluate(cards("8H 8S AC 3D 2D"))
    assert best_hand(cards("KS QS")) == best_hand(cards("KD QC"))
    assert worst_hand(cards("KS QS")) == best_hand(cards("KS QS"))
    assert best_hand(cards("9C KH"), wilds=WA5).describe() == "Pair of nines"
    with pytest.raises(ValueError):
        best_hand([])
    with pytest.raises(ValueError):
        worst_hand([])


# --- worst hand (GL-6) ------------------------------------------------------------------------

def test_worst_hand_examples() -> None:
    assert worst_hand(DECK).key == (7, 5, 4, 3, 2)
    assert worst_hand(DECK, ace_low=True).key == (7, 5, 4, 3, 2)
    # ace high only: A-2-3-4-5 is just ace high, and 6-5-4-3-2 is a straight
    assert worst_hand(cards("AS 2D 3C 4H 5S 6D")).key == (14, 5, 4, 3, 2)
    # with ace low too, A-2-3-4-5 and 2-3-4-5-6 are straights, A-2-3-4-6 is not
    assert worst_hand(cards("AS 2D 3C 4H 5S 6D"), ace_low=True).key == (14, 6, 4, 3, 2)
    h = worst_hand(cards("AS 2D 3C 4H 5S"), ace_low=True)
    assert h.describe() == "Straight, five high"
    # all one suit: a flush cannot be avoided
    h = worst_hand(cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S"))
    assert h.describe() == "Flush, seven high"
    h = worst_hand(cards("2C 3C 4C 5C 6C 2D 3D 4D 5D 6D"))
    assert (h.category, h.key) == (C.ONE_PAIR, (2, 5, 4, 3))
    # avoid the flush by taking the card of another suit
    h = worst_hand(cards("2C 3C 4C 5C 7C 7D"))
    assert (h.category, h.key) == (C.HIGH_CARD, (7, 5, 4, 3, 2))
    assert len({c.suit for c in h.cards}) == 2


def test_every_five_ranks_against_reference() -> None:
    """Every multiset of 5 ranks (two decks: up to five of one), unsuited and suited."""
    for ranks in itertools.combinations_with_replacement(range(2, 15), 5):
        plain = [Card(r, "CDHS"[i % 4]) for i, r in enumerate(ranks)]
        hands = [plain]
        if max(Counter(ranks).values()) <= 2:
            hands.append([Card(r, "S") for r in ranks])
        for hand in hands:
            for ace_low in (False, True):
                s = rank5_fast(*map(code_of, hand), ace_low=ace_low)
                assert value(evaluate(hand, ace_low=ace_low)) == ref_rank(hand, ace_low)
                assert s == evaluate(hand, ace_low=ace_low).score
