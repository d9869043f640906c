"""Oh Claire!'s rules as data and small pure functions: the house rules (data/oh-claire.toml,
overridable by name from the game event), who wins a trick (OC-4) and the words the referee and
the bots share.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from companion import house
from companion.cards import SUIT_NAMES, Card
from companion.referee import join_words as join_words  # re-exported for the Oh Claire! modules
from companion.referee import plural as plural

GAME = "oh-claire"
JACKPOT = "Jackpot"


# --- house rules (data, overridable by name from the game event) ---------------------------------
@dataclass(frozen=True)
class HouseRules:
    """The settings a table may change; defaults are RULINGS.md's (see data/oh-claire.toml)."""

    chips: int = 24                                   # OC-1
    players: tuple[int, int] = (3, 5)                 # OC-1
    schedule: tuple[int, ...] = (10, 9, 8, 7, 6, 5, 6, 7, 8, 9, 10)  # OC-1
    dealer_restriction: bool = True                   # OC-3
    cup_chip: int = 1                                 # OC-5
    pay_maker: int = 2                                # OC-5
    pay_jackpot: int = 1                              # OC-5
    revoke_misses_bid: bool = True                    # OC-6
    eliminated_win_jackpot: bool = False              # OC-7
    number_cups: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)  # OC-5 (the board, not a rule)

    def check(self) -> HouseRules:
        """Raise ValueError when a setting cannot be played with."""
        lo, hi = self.players
        if not 2 <= lo <= hi:
            raise ValueError(f"house rule players must be [min, max] with 2 <= min <= max, "
                             f"got {list(self.players)}")
        if not self.schedule or any(n < 1 for n in self.schedule):
            raise ValueError("house rule schedule must list at least one hand of 1+ cards")
        if hi * max(self.schedule) + 1 > 52:
            raise ValueError(f"{hi} players cannot each be dealt {max(self.schedule)} cards and "
                             f"a trump card from one deck")
        for name in ("chips", "cup_chip", "pay_maker", "pay_jackpot"):
            if getattr(self, name) < 0:
                raise ValueError(f"house rule {name} must be >= 0")
        if len(set(self.number_cups)) != len(self.number_cups):
            raise ValueError("number cups must differ")
        return self


def _int(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"house rule {name} must be a whole number, got {value!r}")
    return value


def _coerce(name: str, value: Any, default: Any) -> Any:
    """A house-rule value in the type of its default (ValueError with a plain reason)."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ValueError(f"house rule {name} must be true or false, got {value!r}")
        return value
    if isinstance(default, int):
        return _int(value, name)
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple):
            raise ValueError(f"house rule {name} must be a list, got {value!r}")
        items = tuple(_int(v, name) for v in value)
        if name == "players" and len(items) != 2:
            raise ValueError(f"house rule players must be [min, max], got {value!r}")
        return items
    raise ValueError(f"house rule {name} cannot be set")  # pragma: no cover


def house_rules(overrides: Mapping[str, Any] | None = None) -> HouseRules:
    """The house rules: data/oh-claire.toml's defaults, then ``overrides`` by name (from the log).

    Unknown names or values of the wrong kind raise ValueError, so a misspelt rule is never
    silently ignored.
    """
    base = HouseRules()
    known = {f.name: getattr(base, f.name) for f in fields(HouseRules)}
    values: dict[str, Any] = {}
    for name, value in house.house_settings(GAME, overrides).items():
        if name in known:
            values[name] = _coerce(name, value, known[name])
    cups = house.game_data(GAME).get("board", {}).get("number_cups")
    if cups is not None:
        values["number_cups"] = _coerce("number_cups", cups, known["number_cups"])
    return replace(base, **values).check()


# --- small helpers -------------------------------------------------------------------------------
def suit_word(suit: str) -> str:
    return SUIT_NAMES[suit]


def trick_winner(plays: Sequence[tuple[str, Card]], trump: str) -> tuple[str, Card]:
    """OC-4: the highest trump wins, else the highest card of the suit led (the first card)."""
    led = plays[0][1].suit
    best = plays[0]
    for who, c in plays[1:]:
        b = best[1]
        if c.suit == b.suit:
            if c.rank > b.rank:
                best = (who, c)
        elif c.suit == trump and b.suit != trump:
            best = (who, c)
        # a card of another suit (neither led nor trump) never wins
    assert best[1].suit in (led, trump)
    return best


def cup_account(player: str, number: int) -> str:
    """The ledger account of ``player``'s own chips in number cup ``number`` (e.g. "Ann:3")."""
    return f"{player}:{number}"


