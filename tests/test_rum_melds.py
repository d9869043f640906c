"""Michigan Rum melds and points: sets, runs, the corner (RU-3), card values (RU-4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import CARD_CODES, Card, cards
from companion.games.rum.melds import (
    Meld,
    MeldError,
    RumRules,
    card_points,
    hand_points,
    join_meld,
    layoff_refusal,
    layoff_side,
    meld_points,
    shape_meld,
)


def shape(text: str) -> tuple[str, list[str]]:
    kind, ordered = shape_meld(cards(text))
    return kind, [c.code for c in ordered]


def refusal(text: str) -> str:
    with pytest.raises(MeldError) as exc:
        shape_meld(cards(text))
    return str(exc.value)


# --- RU-3: what is a meld ---------------------------------------------------------------------
def test_ru3_sets_of_three_and_four_of_a_rank() -> None:
    assert shape("5C 5D 5H")[0] == "set"
    assert shape("KS KH KC KD") == ("set", ["KC", "KD", "KH", "KS"])


def test_ru3_runs_of_three_or_more_in_one_suit_are_put_low_to_high() -> None:
    assert shape("7H 5H 6H") == ("run", ["5H", "6H", "7H"])
    assert shape("9S TS JS QS KS")[1] == ["9S", "TS", "JS", "QS", "KS"]


@pytest.mark.parametrize("text,order", [
    ("2D AD 3D", ["AD", "2D", "3D"]),        # ace low
    ("AD QD KD", ["QD", "KD", "AD"]),        # ace high
    ("4C 2C 5C AC 3C", ["AC", "2C", "3C", "4C", "5C"]),
])
def test_ru3_ace_is_high_or_low(text: str, order: list[str]) -> None:
    assert shape(text) == ("run", order)


@pytest.mark.parametrize("text,shown", [
    ("KH AH 2H", "K♥-A♥-2♥"),
    ("2S KS AS", "K♠-A♠-2♠"),
    ("QC 3C KC AC 2C", "Q♣-K♣-A♣-2♣-3♣"),
])
def test_ru3_never_round_the_corner(text: str, shown: str) -> None:
    reason = refusal(text)
    assert "goes round the corner" in reason
    assert reason.startswith(shown)


def test_ru3_invalid_melds_say_why() -> None:
    assert "at least 3" in refusal("5C 5D")
    assert "missing" in refusal("5H 6H 8H") and "7♥" in refusal("5H 6H 8H")
    assert "neither a set" in refusal("5H 6H 7S")
    # A gap with an ace: the reading with fewer missing cards is named (A-2-4: the 3).
    assert "3♦ is missing" in refusal("AD 2D 4D")
    assert "round the corner" not in refusal("AD 2D 4D")


def test_the_same_card_twice_is_no_meld() -> None:
    with pytest.raises(MeldError):
        shape_meld([Card(5, "H"), Card(5, "H"), Card(5, "D")])


SUIT_RUNS = st.tuples(st.sampled_from("CDHS"), st.integers(1, 12), st.integers(3, 12))


@settings(max_examples=200, deadline=None)
@given(SUIT_RUNS)
def test_ru3_every_straight_run_is_valid_and_every_wrapped_one_is_not(
        spec: tuple[str, int, int]) -> None:
    suit, start, length = spec
    ranks = [start + k for k in range(length)]  # 1 = low ace ... 14 = high ace
    codes = [Card(14 if r == 1 else (r if r <= 14 else r - 13), suit) for r in ranks]
    wraps = ranks[-1] > 14  # goes past the high ace back to 2...
    if len(set(codes)) != len(codes):
        return
    if wraps:
        with pytest.raises(MeldError, match="round the corner"):
            shape_meld(codes)
    else:
        kind, ordered = shape_meld(list(reversed(codes)))
        assert kind == "run" and ordered == codes


# --- RU-4: points -------------------------------------------------------------------------------
def test_ru4_card_values() -> None:
    assert [card_points(c) for c in cards("2C 9D TH JS QC KD AH")] == [2, 9, 10, 10, 10, 10, 15]
    assert card_points(Card(14, "S"), low_ace=True) == 1


@pytest.mark.parametrize("text,points", [
    ("5H 6H 7H", 18),
    ("JD QD KD", 30),
    ("AC 2C 3C", 6),        # the ace is the low end: 1
    ("QS KS AS", 35),       # the ace is high: 15
    ("AC AD AH", 45),       # a set of aces: 15 each
    ("AD 2D 3D 4D 5D", 15),
])
def test_ru4_meld_points(text: str, points: int) -> None:
    kind, ordered = shape_meld(cards(text))
    assert meld_points(kind, ordered) == points


def test_ru4_an_ace_left_in_hand_counts_15() -> None:
    assert hand_points(cards("AS 2S 3S")) == 20


def test_house_rules_change_the_values() -> None:
    rules = RumRules.load({"ace_high_points": 11, "ace_low_points": 5, "face_points": 12})
    kind, ordered = shape_meld(cards("AC 2C 3C"))
    assert meld_points(kind, ordered, rules) == 10
    kind, ordered = shape_meld(cards("QC KC AC"))
    assert meld_points(kind, ordered, rules) == 35


def test_house_rule_defaults_come_from_the_data_file() -> None:
    rules = RumRules.load()
    assert (rules.target, rules.hand_two_players, rules.hand_more_players) == (500, 13, 7)
    assert (rules.ace_high_points, rules.ace_low_points, rules.stock_out) == (15, 1, "end")
    with pytest.raises(ValueError):
        RumRules.load({"stock_out": "shuffle"})
    with pytest.raises(ValueError):
        RumRules.load({"no_such_rule": 1})


# --- lay-offs (RU-3) ----------------------------------------------------------------------------
def meld(text: str, number: int = 1) -> Meld:
    kind, ordered = shape_meld(cards(text))
    return Meld(number, "Ann", kind, ordered)


@pytest.mark.parametrize("on,card_,side", [
    ("5H 6H 7H", "8H", "high"),
    ("5H 6H 7H", "4H", "low"),
    ("5C 5D 5H", "5S", "set"),
    ("JD QD KD", "AD", "high"),
    ("2D 3D 4D", "AD", "low"),
    ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AS", "high"),   # both ends: the high reading
])
def test_layoff_fits(on: str, card_: str, side: str) -> None:
    assert layoff_side(meld(on), Card.parse(card_)) == side


@pytest.mark.parametrize("on,card_,words", [
    ("5H 6H 7H", "9H", "takes 4♥ or 8♥"),
    ("5H 6H 7H", "8S", "not of the suit"),
    ("QC KC AC", "2C", "round the corner"),
    ("AC 2C 3C", "KC", "round the corner"),
    ("5C 5D 5H", "6C", "does not match"),
])
def test_layoff_misfits_say_why(on: str, card_: str, words: str) -> None:
    m = meld(on)
    c = Card.parse(card_)
    assert layoff_side(m, c) is None
    assert words in layoff_refusal(m, c)


def test_join_meld_keeps_runs_in_order_and_low_ace_scores_one() -> None:
    m = meld("2D 3D 4D")
    join_meld(m, Card.parse("AD"), "low")
    join_meld(m, Card.parse("5D"), "high")
    assert [c.code for c in m.cards] == ["AD", "2D", "3D", "4D", "5D"]
    assert m.low == 1 and m.high == 5
    assert meld_points("run", m.cards) == 15


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(CARD_CODES), min_size=3, max_size=6, unique=True))
def test_shape_meld_either_accepts_a_true_meld_or_gives_a_reason(codes: list[str]) -> None:
    cs = cards(codes)
    ranks = {c.rank for c in cs}
    suits = {c.suit for c in cs}
    is_set = len(ranks) == 1 and len(cs) <= 4
    straight = False
    if len(suits) == 1:
        for reading in ([c.rank for c in cs], [1 if c.rank == 14 else c.rank for c in cs]):
            s = sorted(reading)
            straight = straight or s == list(range(s[0], s[0] + len(s)))
    try:
        kind, ordered = shape_meld(cs)
    except MeldError as exc:
        assert not is_set and not straight
        assert str(exc)
    else:
        assert is_set or straight
        assert sorted(ordered) == sorted(cs)
        assert kind == ("set" if is_set else "run")
