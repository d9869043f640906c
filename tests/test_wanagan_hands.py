"""Wanagan hand judging: which cups a 5-card hand qualifies for and how it ranks there
(RULINGS WA-1 ace high or low, WA-3 categories, WA-4 Wanagans, WA-5 wild cards per cup)."""

from __future__ import annotations

import pytest

from companion.cards import cards
from companion.games.wanagan.hands import KINDS, judge, strengths, wanagan_of, winners

WILDS = cards("KH TD 7S 4C")  # WA-5


def kinds_of(hand: str, wild: bool = False) -> set[str]:
    return set(judge(cards(hand), KINDS, wilds=WILDS if wild else ()))


def strength(hand: str, kind: str, wild: bool = False) -> int:
    return judge(cards(hand), KINDS, wilds=WILDS if wild else ())[kind].strength


# --- WA-3: a hand qualifies for the cup of its own poker category only --------------------------

@pytest.mark.parametrize("hand, expected", [
    ("2C 2D 5H 9S JC", {"pair"}),
    ("2C 2D 5H 5S JC", {"two-pair"}),
    ("2C 2D 2H 9S JC", {"three"}),
    ("7C 7H 7S KC KH", {"full-house"}),          # not three, not pair, not two pair
    ("3H 7H 9H JH KH", {"flush"}),
    ("5C 6D 7H 8S 9C", {"straight"}),
    ("5H 6H 7H 8H 9H", {"flush", "straight"}),   # straight flush: both cups
    ("9C 9D 9H 9S 2C", {"four"}),                # not three, not pair
    ("2C 5D 8H JS KC", set()),                   # high card: nothing
])
def test_each_category_qualifies_for_its_own_cup_only(hand: str, expected: set[str]) -> None:
    assert kinds_of(hand) == expected


def test_five_of_a_kind_with_two_decks_is_a_four_above_any_four() -> None:
    assert kinds_of("KS KD KH KC KS") == {"four"}
    assert strength("KS KD KH KC KS", "four") > strength("AS AD AH AC KC", "four")
    assert strength("2S 2D 2H 2C 2S", "four") > strength("AS AD AH AC KC", "four")


def test_flush_holding_a_pair_with_two_decks_is_a_flush_only() -> None:
    assert kinds_of("5H 5H 7H 9H JH") == {"flush"}


def test_within_a_cup_hands_compare_in_poker_order() -> None:
    assert strength("AC AD 3H 4S 5C", "pair") > strength("KC KD QH JS 9C", "pair")
    assert strength("AC AD 3H 4S 6C", "pair") > strength("AC AD 2H 4S 6C", "pair")  # kickers
    assert strength("9C 9D 9H 2S 2C", "full-house") > strength("8C 8D 8H AS AC", "full-house")
    # the straight flush beats any plain flush in the flush cup, any straight in the straight cup
    assert strength("2H 3H 4H 5H 6H", "flush") > strength("AC KC QC JC 9C", "flush")
    assert strength("2H 3H 4H 5H 6H", "straight") > strength("TC JD QH KS AC", "straight")


def test_exact_ties_ignore_suits_and_name_every_winner() -> None:
    judged = {p: judge(cards(h), KINDS) for p, h in
              [("Ann", "9C 9D 2H 5S 7C"), ("Bob", "9H 9S 2D 5C 7D"), ("Cy", "9H 9S 2D 5C 8D")]}
    assert winners(judged, "pair")[0] == ["Cy"]
    del judged["Cy"]
    names, best = winners(judged, "pair")
    assert names == ["Ann", "Bob"] and best is not None
    assert winners(judged, "flush") == ([], None)


# --- WA-1: the ace is high or low ----------------------------------------------------------------

def test_ace_low_straight_is_the_lowest_straight() -> None:
    assert kinds_of("AC 2D 3H 4S 5C") == {"straight"}
    assert strength("AC 2D 3H 4S 5C", "straight") < strength("2C 3D 4H 5S 6C", "straight")
    assert strength("TC JD QH KS AC", "straight") > strength("9C TD JH QS KC", "straight")


def test_no_wrap_around_straight_and_ace_high_only_option() -> None:
    assert kinds_of("KC AD 2H 3S 4C") == set()
    assert judge(cards("AC 2D 3H 4S 5C"), KINDS, ace_low=False) == {}


# --- WA-4: Wanagan, evens or odds ---------------------------------------------------------------

@pytest.mark.parametrize("hand, top", [
    ("AC 3D 5H 7S 9C", 9),     # ace low
    ("2C 4D 6H 8S TC", 10),
    ("3C 5D 7H 9S JC", 11),
    ("4C 6D 8H TS QC", 12),
    ("5C 7D 9H JS KC", 13),
    ("6C 8D TH QS AC", 14),    # ace high
])
def test_every_wanagan_and_its_top_card(hand: str, top: int) -> None:
    j = judge(cards(hand), KINDS)
    assert "wanagan" in j
    assert j["wanagan"].strength == top


@pytest.mark.parametrize("hand", [
    "2C 4D 6H 8S 8C",    # a rank twice
    "2C 4D 6H 8S QC",    # a gap
    "3C 5D 7H 9S TC",    # evens and odds mixed
    "8C TD QH AS 2C",    # no wrapping past the ace
    "JC KD AH 3S 5C",    # no wrapping the other way
    "AC 3D 5H 7S 8C",
])
def test_not_wanagans(hand: str) -> None:
    assert "wanagan" not in kinds_of(hand)


def test_higher_top_card_wins_the_wanagan_and_equal_tops_tie() -> None:
    assert strength("6C 8D TH QS AC", "wanagan") > strength("5C 7D 9H JS KC", "wanagan")
    assert strength("2C 4D 6H 8S TC", "wanagan") > strength("AC 3D 5H 7S 9C", "wanagan")
    assert strength("2C 4D 6H 8S TC", "wanagan") == strength("2D 4C 6S 8H TH", "wanagan")


def test_a_wanagan_in_one_suit_qualifies_for_the_flush_cup_too() -> None:
    assert kinds_of("2H 4H 6H 8H TH") == {"wanagan", "flush"}


def test_wanagan_text_names_the_ranks() -> None:
    assert judge(cards("AS QD TC 8H 6S"), KINDS)["wanagan"].text == "Wanagan, 6-8-10-Q-A"
    assert judge(cards("9S 7D 5C 3H AS"), KINDS)["wanagan"].text == "Wanagan, A-3-5-7-9"


def test_wanagan_of_checks_the_card_count() -> None:
    assert wanagan_of([2, 4, 6, 8]) is None
    assert wanagan_of([2, 4, 6, 8], wilds=1) == (2, 4, 6, 8, 10)


# --- WA-5: the four wild cards ------------------------------------------------------------------

@pytest.mark.parametrize("wild", ["KH", "TD", "7S", "4C"])
def test_each_wild_card_is_wild(wild: str) -> None:
    hand = f"9C 9D 9H 3S {wild}"
    assert "four" not in kinds_of(hand)
    assert "four" in kinds_of(hand, wild=True)


@pytest.mark.parametrize("other", ["KD", "TH", "7C", "4S"])
def test_other_copies_of_the_wild_ranks_are_not_wild(other: str) -> None:
    assert "four" not in kinds_of(f"9C 9D 9H 3S {other}", wild=True)


def test_a_wild_takes_the_best_value_for_each_cup_separately() -> None:
    j = judge(cards("5C 5D 9S JH 7S"), KINDS, wilds=WILDS)
    assert set(j) == {"pair", "two-pair", "three"}
    # pair cup: the wild is an ace kicker, so it beats a natural pair of fives with a king
    assert j["pair"].strength > strength("5H 5S KD JC 9D", "pair")
    assert j["pair"].strength < strength("6H 6S 2D 3C 4D", "pair")
    # two-pair cup: jacks and fives; three cup: three fives
    assert j["two-pair"].strength == strength("JC JD 5H 5S 9C", "two-pair")
    assert j["three"].strength == strength("5C 5D 5H JS 9C", "three")


def test_wilds_cannot_undo_what_the_natural_cards_make() -> None:
    assert "pair" not in kinds_of("5C 5D 5H 9S KH", wild=True)
    assert "two-pair" not in kinds_of("5C 5D 5H 9S KH", wild=True)


def test_wild_makes_a_wanagan_filling_the_gaps() -> None:
    j = judge(cards("QH 8C TD 4H KH"), KINDS, wilds=WILDS)
    assert j["wanagan"].strength == 12
    assert j["wanagan"].named() == "Wanagan, 4-6-8-10-Q (10♦ as 6, K♥ as 10)"


def test_wild_wanagan_goes_as_high_as_possible() -> None:
    # 8 and 10 natural + three wilds: 6-8-10-Q-A is the best
    assert strength("8C TC KH 7S 4C", "wanagan", wild=True) == 14
    # the ace can only sit at one end
    assert strength("AC 3C 5C 7S 4C", "wanagan", wild=True) == 9


def test_wild_takes_the_suit_for_a_flush_and_a_straight_flush() -> None:
    assert kinds_of("2H 5H 9H JH 7S") == set()
    assert kinds_of("2H 5H 9H JH 7S", wild=True) >= {"flush"}
    j = judge(cards("5D 6D 8D 9D TD"), KINDS, wilds=WILDS)  # 10♦ is wild: as 7♦, nine high
    assert {"flush", "straight"} <= set(j)
    assert j["straight"].strength == strength("5S 6S 7S 8S 9S", "straight")


def test_wilds_make_five_of_a_kind_above_any_four() -> None:
    assert strength("9C 9D 9H 9S KH", "four", wild=True) > strength("AS AD AH AC KC", "four")


def test_all_wild_hand_with_two_decks() -> None:
    j = judge(cards("KH KH TD TD 7S"), KINDS, wilds=WILDS)
    assert j["four"].strength == strength("AC AD AH AS AC", "four")
    assert j["wanagan"].strength == 14
    assert j["flush"].strength == strength("TS JS QS KS AS", "flush")


def test_fast_strengths_agree_with_judge() -> None:
    for hand in ("QH 8C TD 4H KH", "KH TD 7S 4C 2D", "2C 2D 5H 5S 9C", "AS 2S 3S 4S 5S",
                 "6C 8D TH QS AC", "7S 7C 7D 9H 9S"):
        for wilds in ((), WILDS):
            full = {k: v.strength for k, v in judge(cards(hand), KINDS, wilds=wilds).items()}
            assert strengths(cards(hand), KINDS, wilds=wilds) == full


def test_a_hand_is_five_cards() -> None:
    with pytest.raises(ValueError):
        judge(cards("2C 3C 4C 5C"), KINDS)
