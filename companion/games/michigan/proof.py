"""What a card seen later proves about the past of a Michigan round (MR-4..MR-6, PR-6, PR-7).

Cards are never picked up after the deal, so a card a player shows (plays or reveals) was held
at every earlier lead and stop: it proves a lower card withheld at a lead (``illegal-lead``), an
allowed suit held at a lead in another one (``wrong-colour-lead``), a lead taken from the player
whose turn it was (``out-of-turn``), or the next card kept back when a sequence stopped
(``withheld``). These functions only find proofs; the referee says and charges them.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.cards import Card
from companion.games.michigan.state import Lead, MichiganState, Offence, Stop

#: An offence proven, with the sentence that says it.
Proof = tuple[Offence, str]

#: How each finding is named when it is announced.
RULE_WORDS = {
    "illegal-lead": "Illegal lead", "wrong-colour-lead": "Wrong-colour lead",
    "out-of-turn": "Lead out of turn", "out-of-sequence": "Cards out of sequence",
    "withheld": "Withheld card", "ineligible-dummy": "Dummy taken with a money card",
}


def evidence(st: MichiganState, player: str, shown: Iterable[Card], line: int) -> list[Proof]:
    """What the cards ``player`` shows at ``line`` prove about the round's open stops and leads,
    in the order found. The stops they settle are dropped and the leads marked in ``st``."""
    proofs: list[Proof] = []
    shown = list(shown)
    keep: list[Stop] = []
    for s in st.stops:
        if s.card not in shown:
            keep.append(s)
            continue
        proofs.append((Offence(s.line, player, "withheld", line, s.card),
                       f"{player} withheld {s.card.pretty()} when the sequence stopped "
                       f"at {s.after.pretty()}"))
    st.stops = keep
    for i, rec in enumerate(st.leads):
        new = rec
        for c in shown:
            new = _judge(new, player, c, line, proofs)
        if new != rec:
            st.leads[i] = new
    return proofs


def _judge(rec: Lead, player: str, c: Card, line: int, proofs: list[Proof]) -> Lead:
    """One lead seen in the light of one card ``player`` shows; the lead as now known."""
    lead = rec.card
    if player == rec.player:
        if c.suit == lead.suit and c.rank < lead.rank:
            if not rec.lower:
                proofs.append((Offence(rec.line, player, "illegal-lead", line),
                               f"{player} led {lead.pretty()} while holding {c.pretty()}"))
                rec = rec._replace(lower=True)
        if lead.suit not in rec.allowed and c.suit in rec.allowed:
            # PR-7 / PR-6a: a lead can be out of turn and of the wrong colour at once;
            # each rule broken is its own finding.
            if not rec.colour:
                proofs.append((Offence(rec.line, player, "wrong-colour-lead", line),
                               f"{player} led {lead.pretty()} while holding {c.pretty()} "
                               f"of a suit that had to be led"))
                rec = rec._replace(colour=True)
    elif c.suit in rec.allowed:
        if player in rec.between and not rec.turn:
            proofs.append((Offence(rec.line, rec.player, "out-of-turn", line),
                           f"{rec.player} led {lead.pretty()} but {player} had the lead"))
            rec = rec._replace(turn=True)
        if not rec.other_line:
            rec = rec._replace(other_line=line)
    return rec


def leads_out_of_turn(st: MichiganState, line: int) -> list[Proof]:
    """Once every card is known: a lead in a suit not allowed by a player who held none of the
    allowed suits was made out of turn, unless nobody held one and it was the leader's (MR-6
    last sentence). Marks those leads in ``st``."""
    proofs: list[Proof] = []
    for i, rec in enumerate(st.leads):
        if rec.card.suit in rec.allowed or rec.colour or rec.turn:
            continue
        if rec.other_line or rec.player != rec.leader:
            proof = rec.other_line or line
            proofs.append((Offence(rec.line, rec.player, "out-of-turn", proof),
                           f"{rec.player} led {rec.card.pretty()} but the lead belonged to "
                           f"another player"))
            st.leads[i] = rec._replace(turn=True)
    return proofs
