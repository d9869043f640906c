"""What a Michigan round is made of: the sequence in play, the leads and stops later cards may
prove illegal, the offences proven, the facts that move chips and the transfers they made; and
`MichiganState`, everything that changes during a game (rolled back as a whole on a bad event).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.cards import Card
from companion.referee import GameState


class Seq(NamedTuple):
    """The sequence being played: its suit, the last card's rank and player, the led rank."""

    suit: str
    rank: int
    player: str
    line: int
    start: int


class Lead(NamedTuple):
    """A lead whose legality later evidence may disprove (MR-4, MR-6, BO-4)."""

    line: int
    player: str
    card: Card
    leader: str                  # who had the first right to lead
    allowed: frozenset[str]      # suits the lead should be in
    between: tuple[str, ...]     # players ahead of `player` in the turn (lead in allowed suit)
    lower: bool = False          # illegal-lead proven
    colour: bool = False         # wrong-colour-lead proven
    turn: bool = False           # out-of-turn proven
    other_line: int = 0          # first line another player showed an allowed suit


class Stop(NamedTuple):
    """A sequence stopped at ``after`` by the lead at ``line``; ``card`` was next (PR-6)."""

    line: int
    card: Card
    after: Card


class Offence(NamedTuple):
    line: int
    player: str
    rule: str
    proof_line: int
    card: Card | None = None


class Fact(NamedTuple):
    """Something that moves chips in a round, in the order it happened at the table."""

    line: int
    order: int
    kind: str
    player: str = ""
    cup: str = ""
    data: tuple[Any, ...] = ()


class Move(NamedTuple):
    """A transfer the round's settlement made (``note``: what to announce, if anything)."""

    source: str
    target: str
    amount: int
    reason: str
    line: int
    note: str


@dataclass
class MichiganState(GameState):
    """Everything that changes during a Michigan game; values are immutable, containers are
    copied shallowly on checkpoint (see ``__deepcopy__``)."""

    phase: str = "setup"            # setup | deal | play | reveal | between | over
    dealer: str = ""
    round_line: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    dummy_count: int = 0
    dummy_done: bool = False
    dummy_taker: str = ""
    dummy_line: int = 0
    given_up: int = 0               # cards in the hand given up for the dummy (dead, MR-3)
    hands: dict[str, frozenset[Card]] | None = None     # full information only
    deal_line: int = 0
    played: dict[Card, tuple[str, int]] = field(default_factory=dict)
    shown: dict[str, tuple[Card, ...]] = field(default_factory=dict)   # played this round
    revealed: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    seq: Seq | None = None
    lead_by: str = ""               # after a dump: the dumper leads any suit (GL-3)
    ace: tuple[str, int] | None = None   # an Ace just played as a follow (GL-2)
    leads: list[Lead] = field(default_factory=list)
    stops: list[Stop] = field(default_factory=list)
    offences: list[Offence] = field(default_factory=list)
    barred: frozenset[str] = frozenset()
    winner: str = ""
    facts: list[Fact] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    start: dict[str, int] = field(default_factory=dict)
    settled: tuple[int, int] = (-1, -1)     # (facts, offences) when last settled

    def __deepcopy__(self, memo: dict[int, Any]) -> MichiganState:
        new = object.__new__(type(self))
        d = new.__dict__
        for k, v in self.__dict__.items():
            if type(v) is dict:
                v = dict(v)
            elif type(v) is list:
                v = list(v)
            d[k] = v
        return new


def left_of(players: Sequence[str], player: str) -> list[str]:
    """The other players in turn order, starting at ``player``'s left."""
    i = players.index(player)
    n = len(players)
    return [players[(i + k) % n] for k in range(1, n)]
