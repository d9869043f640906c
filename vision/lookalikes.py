"""Cards a reader takes for one another: a small corner index seen at an angle (6 and 9; J, Q
and K...) or a small pip of the other suit of its colour. The pipeline asks about these first
(`vision.pipeline.questions`); the demo's fallible reader makes these mistakes
(`vision.render.truth`).
"""

from __future__ import annotations

#: Ranks a reader takes for one another (a small index seen at an angle).
RANK_LOOKALIKE = {"6": "9", "9": "6", "J": "Q", "Q": "K", "K": "Q", "8": "3", "3": "8",
                  "T": "J", "A": "4", "4": "A", "5": "6", "7": "T", "2": "7"}
#: Court ranks a reader takes for one another on a deck it does not know (its J, Q and K
#: indices alike in a figure's frame: a J♣ read as K♣, a Q♣ as J♣).
COURTS = "JQK"
#: Suits a reader takes for one another (the same colour, a small pip).
SUIT_LOOKALIKE = {"C": "S", "S": "C", "D": "H", "H": "D"}


def lookalikes(code: str) -> list[str]:
    """Cards a reader easily takes ``code`` for: the other suit of its colour, a rank that
    looks alike, then the other two suits."""
    rank, suit = code[0], code[1]
    out = [rank + SUIT_LOOKALIKE[suit], RANK_LOOKALIKE[rank] + suit,
           RANK_LOOKALIKE[rank] + SUIT_LOOKALIKE[suit]]
    out += [rank + s for s in "CDHS" if s not in (suit, SUIT_LOOKALIKE[suit])]
    return out


def either_alike(a: str, b: str) -> bool:
    """Whether either card is among the other's `lookalikes` (any suit of its rank too)."""
    return a in lookalikes(b) or b in lookalikes(a)


def confusable(code: str) -> list[str]:
    """Cards a reader takes ``code`` for or takes for ``code``, one change before two: the
    other suit of its colour, a rank that looks alike either way (a 10 is read as a J, a 7
    as a 10; a court card as any other court card), then both changed. A reading of 10♥ may
    be a 7♥ as much as a J♥."""
    rank, suit = code[0], code[1]
    ranks = [RANK_LOOKALIKE[rank], *(r for r, seen_as in RANK_LOOKALIKE.items()
                                     if seen_as == rank and r != RANK_LOOKALIKE[rank])]
    if rank in COURTS:
        ranks += [r for r in COURTS if r != rank and r not in ranks]
    other = SUIT_LOOKALIKE[suit]
    return [rank + other, *(r + suit for r in ranks), *(r + other for r in ranks)]


def alike(a: str, b: str) -> bool:
    """Whether a reader easily takes either card for the other (`confusable`)."""
    return b in confusable(a)
