"""Card codes round-trip, parsing variants, ordering, decks and the deal arithmetic (MR-1, BO-3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import (
    CARD_CODES,
    Card,
    CardError,
    cards,
    deal_order,
    format_cards,
    full_deck,
    hand_sizes,
)


def test_every_code_round_trips() -> None:
    assert len(CARD_CODES) == 52 == len(set(CARD_CODES))
    for code in CARD_CODES:
        c = Card.parse(code)
        assert c.code == code == str(c)
        assert eval(repr(c)) == c  # repr is code you can paste back


@pytest.mark.parametrize(
    ("text", "code"),
    [("10C", "TC"), ("10♥", "TH"), ("qs", "QS"), ("Q♠", "QS"), ("a♦", "AD"), (" 2c ", "2C"),
     ("t♣", "TC"), ("K♥\ufe0f", "KH")],
)
def test_parse_variants(text: str, code: str) -> None:
    assert Card.parse(text).code == code


@pytest.mark.parametrize("bad", ["", "1C", "11H", "ZZ", "5X", "C5", "AS ", "10", "♠", 5, None])
def test_bad_input_names_the_input(bad: object) -> None:
    if bad == "AS ":  # surrounding space is tolerated
        assert Card.parse(bad).code == "AS"  # type: ignore[arg-type]
        return
    with pytest.raises(CardError) as info:
        Card.parse(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_pretty_colour_and_order() -> None:
    assert Card.parse("TC").pretty() == "10♣"
    assert Card.parse("KH").pretty() == "K♥"
    assert Card.parse("KH").spoken() == "king of hearts"
    assert Card.parse("2D").colour == "red" and Card.parse("2S").colour == "black"
    assert Card.parse("AS") > Card.parse("KS") > Card.parse("2C")
    assert sorted(cards("AS 2C KH 2D")) == cards("2C 2D KH AS")
    assert format_cards(cards("5C 6C")) == "5♣ 6♣"


def test_cards_are_immutable_and_hashable() -> None:
    c = Card.parse("5C")
    with pytest.raises(AttributeError):
        c.rank = 6  # type: ignore[misc]
    assert {c, Card.parse("5c")} == {c}
    with pytest.raises(CardError):
        Card(1, "C")


@given(st.sampled_from(CARD_CODES), st.booleans(), st.booleans())
def test_parse_format_round_trip_property(code: str, lower: bool, symbol: bool) -> None:
    c = Card.parse(code)
    text = c.pretty() if symbol else code
    if lower:
        text = text.lower()
    assert Card.parse(text) == c


def test_decks() -> None:
    one = full_deck()
    assert len(one) == 52 == len(set(one))
    two = full_deck(2)
    assert len(two) == 104 and len(set(two)) == 52
    with pytest.raises(ValueError):
        full_deck(0)


def test_deal_order_mr1_dummy_last_and_bo3_first() -> None:
    seats = ["Ann", "Bob", "Cy", "Dee"]
    assert deal_order(seats, "Cy") == ["Dee", "Ann", "Bob", "Cy", "(dummy)"]
    assert deal_order(seats, "Cy", extra="first") == ["(dummy)", "Dee", "Ann", "Bob", "Cy"]
    assert deal_order(seats, "Cy", extra=None) == ["Dee", "Ann", "Bob", "Cy"]
    with pytest.raises(ValueError, match="Zed"):
        deal_order(seats, "Zed")


@pytest.mark.parametrize("n", range(3, 9))
def test_hand_sizes_mr1(n: int) -> None:
    seats = [f"P{i}" for i in range(n)]
    for dealer in seats:
        sizes = hand_sizes(seats, dealer)
        assert sum(sizes.values()) == 52
        order = deal_order(seats, dealer)
        extra = 52 % (n + 1)
        # MR-1: the first 52 mod (n+1) hands in deal order get one card more.
        for k, name in enumerate(order):
            assert sizes[name] == 52 // (n + 1) + (1 if k < extra else 0)


def test_hand_sizes_examples() -> None:
    # 5 players: 6 hands, 52 = 6*8 + 4 -> the four hands left of the dealer get 9.
    s = hand_sizes(["Ann", "Bob", "Cy", "Dee", "Eve"], "Ann")
    assert s == {"Bob": 9, "Cy": 9, "Dee": 9, "Eve": 9, "Ann": 8, "(dummy)": 8}
    # BO-3: with the extra hand dealt first it is the one that gets the extra card.
    b = hand_sizes(["Ann", "Bob", "Cy", "Dee", "Eve"], "Ann", extra="first")
    assert b["(dummy)"] == 9 and b["Eve"] == 8 and b["Ann"] == 8
