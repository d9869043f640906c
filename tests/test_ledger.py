"""The chip ledger: transfers only, conservation after every transfer, splits, history."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ledger import Ledger, LedgerError


def new() -> Ledger:
    return Ledger.open({"Ann": 10, "Bob": 10, "Cy": 10}, cups=["Jackpot", "AS"])


def test_transfer_moves_exact_chips_and_records_reason_and_line() -> None:
    book = new()
    assert book.transfer("Ann", "Jackpot", 3, "ante", line=2) == 3
    assert book["Ann"] == 7 and book["Jackpot"] == 3
    t = book.history[-1]
    assert (t.source, t.target, t.amount, t.reason, t.line) == ("Ann", "Jackpot", 3, "ante", 2)
    assert book.total == 30


def test_overdraft_is_refused_and_pay_pays_what_there_is() -> None:
    book = new()
    with pytest.raises(LedgerError, match="Ann has 10"):
        book.transfer("Ann", "Bob", 11, "penalty")
    assert book["Ann"] == 10  # nothing moved
    # Common convention: a player who owes more pays what they have; never below zero.
    assert book.pay("Ann", "Bob", 25, "penalty") == 10
    assert book["Ann"] == 0 and book["Bob"] == 20


@pytest.mark.parametrize("bad", [-1, 1.5, True, "2"])
def test_bad_amounts(bad: object) -> None:
    with pytest.raises(LedgerError):
        new().transfer("Ann", "Bob", bad, "x")  # type: ignore[arg-type]


def test_unknown_accounts() -> None:
    with pytest.raises(LedgerError, match="Zed"):
        new().transfer("Zed", "Bob", 1, "x")
    with pytest.raises(LedgerError, match="Zed"):
        new()["Zed"]


def test_split_leaves_the_remainder_in_the_pot() -> None:
    book = new()
    book.transfer("Ann", "Jackpot", 7, "ante")
    paid = book.split("Jackpot", ["Bob", "Cy"], "tie")
    assert paid == {"Bob": 3, "Cy": 3}
    assert book["Jackpot"] == 1  # remainder carried over


def test_round_history_and_board() -> None:
    book = new()
    book.transfer("Ann", "AS", 1, "ante")
    book.close_round()
    book.transfer("AS", "Bob", 1, "won AS")
    book.close_round()
    assert [h["Bob"] for h in book.round_history] == [10, 11]
    assert book.board() == {"Jackpot": 0, "AS": 0}
    assert book.player_chips() == {"Ann": 9, "Bob": 11, "Cy": 10}


def test_rollback_undoes_transfers() -> None:
    book = new()
    mark = book.mark()
    book.transfer("Ann", "AS", 4, "x")
    book.close_round()
    book.rollback(mark)
    assert book.balances() == new().balances() and not book.history and book.round == 0


def test_bad_opening() -> None:
    with pytest.raises(LedgerError):
        Ledger.open({"Ann": -1})
    with pytest.raises(LedgerError):
        Ledger.open({"Ann": 1}, cups=["Ann"])


names = st.sampled_from(["Ann", "Bob", "Cy", "Jackpot", "AS"])


@settings(max_examples=300)
@given(st.lists(st.tuples(names, names, st.integers(0, 15), st.sampled_from(["t", "p", "s"])),
                max_size=60))
def test_total_is_conserved_whatever_happens(ops: list[tuple[str, str, int, str]]) -> None:
    book = new()
    for src, dst, n, op in ops:
        try:
            if op == "t":
                book.transfer(src, dst, n, "t")
            elif op == "p":
                book.pay(src, dst, n, "p")
            else:
                book.split(src, [dst, "Cy"], "s")
        except LedgerError:
            pass
        assert sum(book.balances().values()) == 30 == book.total
        assert all(v >= 0 for v in book.balances().values())
    # The history explains every chip: replaying it from the start gives the same balances.
    replayed = new().balances()
    for t in book.history:
        replayed[t.source] -= t.amount
        replayed[t.target] += t.amount
    assert replayed == book.balances()
