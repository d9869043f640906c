"""The chip ledger: every player's chips, every cup on the board, and every chip movement.

The only operation is a transfer with a reason and the event line that caused it, so the total
never changes (checked after every transfer) and the history explains every chip.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple


class LedgerError(ValueError):
    """A transfer that cannot happen (unknown account, negative amount, overdraft)."""


class Transfer(NamedTuple):
    """One movement of chips: ``amount`` from ``source`` to ``target``."""

    source: str
    target: str
    amount: int
    reason: str
    line: int | None = None
    round: int = 0


@dataclass
class Ledger:
    """Chip accounts keyed by name: players, cups (``"AS"``, ``"Poker Kitty"``), ``"Jackpot"``.

    ``players`` names the accounts that belong to people (the rest is the board).
    Accounts never go below zero; `pay` moves what a payer has when they owe more.

    >>> book = Ledger.open({"Ann": 5, "Bob": 5}, cups=["Jackpot"])
    >>> book.transfer("Ann", "Jackpot", 2, "ante")
    2
    >>> book.split("Jackpot", ["Ann", "Bob"], "tie")
    {'Ann': 1, 'Bob': 1}
    >>> book.balances()
    {'Ann': 4, 'Bob': 6, 'Jackpot': 0}
    """

    accounts: dict[str, int] = field(default_factory=dict)
    players: tuple[str, ...] = ()
    history: list[Transfer] = field(default_factory=list)
    round: int = 0
    #: Chips held by each account at the end of each closed round (for charts).
    round_history: list[dict[str, int]] = field(default_factory=list)
    _total: int = 0

    @classmethod
    def open(cls, players: Mapping[str, int], cups: Iterable[str] = ()) -> Ledger:
        """Start a ledger: players with their starting chips, and empty cups."""
        accounts: dict[str, int] = {}
        for name, chips in players.items():
            if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
                raise LedgerError(f"starting chips for {name!r} must be a whole number >= 0, "
                                  f"got {chips!r}")
            accounts[name] = chips
        for cup in cups:
            if cup in accounts:
                raise LedgerError(f"cup {cup!r} has the same name as a player")
            accounts[cup] = 0
        book = cls(accounts=accounts, players=tuple(players))
        book._total = sum(accounts.values())
        return book

    # --- queries ---------------------------------------------------------------------------
    def __getitem__(self, name: str) -> int:
        try:
            return self.accounts[name]
        except KeyError:
            raise LedgerError(f"no account named {name!r}") from None

    def __contains__(self, name: object) -> bool:
        return name in self.accounts

    @property
    def total(self) -> int:
        return self._total

    def balances(self) -> dict[str, int]:
        return dict(self.accounts)

    def player_chips(self) -> dict[str, int]:
        return {p: self.accounts[p] for p in self.players}

    def board(self) -> dict[str, int]:
        """Chips in every cup / area that does not belong to a player."""
        return {k: v for k, v in self.accounts.items() if k not in self.players}

    def add_account(self, name: str) -> None:
        """Add an empty account (a cup that appears mid-game)."""
        self.accounts.setdefault(name, 0)

    # --- the one operation -----------------------------------------------------------------
    def transfer(self, source: str, target: str, amount: int, reason: str,
                 line: int | None = None) -> int:
        """Move exactly ``amount`` chips; raise `LedgerError` when ``source`` has fewer."""
        if source not in self.accounts:
            raise LedgerError(f"no account named {source!r}")
        if target not in self.accounts:
            raise LedgerError(f"no account named {target!r}")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise LedgerError(f"amount must be a whole number >= 0, got {amount!r}")
        if self.accounts[source] < amount:
            raise LedgerError(f"{source} has {self.accounts[source]} chips, cannot pay {amount} "
                              f"({reason})")
        if amount == 0 or source == target:
            return 0
        self.accounts[source] -= amount
        self.accounts[target] += amount
        self.history.append(Transfer(source, target, amount, reason, line, self.round))
        self._check()
        return amount

    # --- helpers built on transfer ---------------------------------------------------------
    def pay(self, source: str, target: str, amount: int, reason: str,
            line: int | None = None) -> int:
        """Pay up to ``amount``: a payer who owes more pays what they have. Returns chips paid."""
        return self.transfer(source, target, min(amount, self.accounts.get(source, 0)),
                             reason, line)

    def empty_into(self, source: str, target: str, reason: str, line: int | None = None) -> int:
        """Move everything in ``source`` to ``target``."""
        return self.transfer(source, target, self.accounts[source], reason, line)

    def split(self, pot: str, winners: Sequence[str], reason: str,
              line: int | None = None) -> dict[str, int]:
        """Share the whole pot equally among ``winners``; the remainder stays in the pot."""
        if not winners:
            return {}
        share = self[pot] // len(winners)
        paid: dict[str, int] = {}
        for w in winners:
            paid[w] = paid.get(w, 0) + self.transfer(pot, w, share, reason, line)
        return paid

    def mark(self) -> tuple[dict[str, int], int, int, int]:
        """A restore point for `rollback` (used to undo an event that turned out impossible)."""
        return dict(self.accounts), len(self.history), self.round, len(self.round_history)

    def rollback(self, mark: tuple[dict[str, int], int, int, int]) -> None:
        """Undo every transfer made since `mark` (the total is unchanged by construction)."""
        accounts, n_hist, rnd, n_rounds = mark
        self.accounts = dict(accounts)
        del self.history[n_hist:]
        del self.round_history[n_rounds:]
        self.round = rnd

    def close_round(self) -> None:
        """Record every account's chips at the end of a round (for the chips-per-round chart)."""
        self.round_history.append(self.balances())
        self.round += 1

    def _check(self) -> None:
        total = sum(self.accounts.values())
        if total != self._total or any(v < 0 for v in self.accounts.values()):
            raise AssertionError(f"ledger out of balance: {total} != {self._total} "
                                 f"or a negative account in {self.accounts}")
