"""The chips a Michigan round moves: its facts (antes, a dummy sold, cups won, the Jackpot,
payments for cards left, fines, withheld cards, poker pots) settled in the order they happened,
as if every offence proven later had been known when it happened (PR-5a).

The referee records facts as the round goes; `round_moves` turns them into transfers from the
round's start, so that a proof that changes the past only changes the difference.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.cards import Card
from companion.games.michigan.board import JACKPOT, Rules, card_points
from companion.games.michigan.state import Fact, MichiganState, Move, left_of
from companion.ledger import Ledger
from companion.poker import HandRank, best_hand, worst_hand
from companion.referee import join_words, plural

#: Violations of a lead: a money card led this way was not played legally (MR-8, GL-5).
LEAD_RULES = frozenset({"illegal-lead", "wrong-colour-lead", "out-of-turn", "out-of-sequence"})


def n_chips(n: int) -> str:
    """``1 chip``, ``3 chips``."""
    return plural(n, "chip")


def showdown_facts(st: MichiganState, rules: Rules, players: Sequence[str], line: int) -> None:
    """Every hand is known at ``line``: add the round's last facts to ``st`` -- what each
    proven withholder pays (PR-6), who wins each poker cup (MR-10, PR-4, GL-6) and, when nobody
    went out, the Jackpot by lowest total (MR-13)."""
    holders = {c: p for p, cs in st.revealed.items() for c in cs}
    if rules.penalize_withheld:                                # PR-6
        # In the order the offences happened, not the order they were proven (PR-5a).
        for off in sorted(st.offences, key=lambda o: (o.line, players.index(o.player),
                                                      o.card or Card(2, "C"))):
            if off.rule != "withheld" or off.card is None:
                continue
            for cup in rules.cups:
                if cup.card is not None and cup.card.suit == off.card.suit:
                    h = holders.get(cup.card)
                    if h and h != off.player:
                        st.facts.append(Fact(line, len(st.facts), "whpay", off.player,
                                             cup.name, (h,)))
    ace_low = not rules.ace_high_only
    for cup in rules.cups:
        hands: dict[str, HandRank] = {}
        if cup.kind in ("kitty", "losers"):                           # MR-10, GL-6
            for p in players:
                cs = st.shown.get(p, ()) + st.revealed.get(p, ())
                if cs:
                    hands[p] = (best_hand(cs, ace_low=ace_low) if cup.kind == "kitty"
                                else worst_hand(cs, ace_low=ace_low))
        elif cup.kind == "pool":                                      # PR-4
            for p, cs in st.revealed.items():
                if cs:
                    hands[p] = best_hand(cs, ace_low=ace_low)
        else:
            continue
        if not hands:
            continue
        target = (max if cup.kind != "losers" else min)(hands.values())
        winners = tuple(p for p in players if p in hands and hands[p] == target)
        st.facts.append(Fact(line, len(st.facts), "pot", "", cup.name,
                             (winners, target.describe())))
    if not st.winner and rules.jackpot and rules.lowest_total_wins:   # MR-13
        totals = {p: sum(card_points(c) for c in st.revealed.get(p, ()))
                  for p in players
                  if p not in st.barred and (p in st.revealed or st.counts[p] == 0)}
        if totals:
            low = min(totals.values())
            winners = tuple(p for p in players if totals.get(p) == low)
            st.facts.append(Fact(line, len(st.facts), "pot", "", JACKPOT,
                                 (winners, f"lowest total, {low}")))


def round_moves(st: MichiganState, rules: Rules, areas: Sequence[str],
                players: Sequence[str]) -> list[Move]:
    """The round's transfers from its start, as if every proven offence had been known
    when it happened (PR-5a): forfeited cups stay in play for the others."""
    r = rules
    bal = dict(st.start)
    moves: list[Move] = []
    forfeit: dict[str, int] = {}
    bad_leads: set[tuple[str, int]] = set()
    for off in st.offences:
        if off.rule in r.penalised:
            forfeit[off.player] = min(forfeit.get(off.player, off.line), off.line)
        if off.rule in LEAD_RULES:
            bad_leads.add((off.player, off.line))

    def pay(src: str, dst: str, amount: int, reason: str, line: int, note: str = "",
            exact: bool = False) -> int:
        amount = min(amount, bal[src])
        if amount <= 0 or src == dst:
            return 0
        bal[src] -= amount
        bal[dst] += amount
        moves.append(Move(src, dst, amount, reason, line, note))
        return amount

    for f in sorted(st.facts):
        if f.kind == "ante":                                        # MR-2, PR-2, BO-2
            for p in left_of(players, f.player) + [f.player]:
                each = r.dealer_ante if p == f.player else r.ante
                for a in areas:
                    pay(p, a, each, "ante", f.line)
                if p == f.player and r.jackpot:
                    pay(p, JACKPOT, r.dealer_jackpot_extra, "ante", f.line)
        elif f.kind == "sale":                                      # MR-3
            dealer, price = f.data
            pay(f.player, dealer, price, "dummy bought", f.line)
        elif f.kind == "cup":                                       # MR-8, GL-2..5
            lead_line = f.data[0]
            if f.line >= forfeit.get(f.player, 1 << 60):
                continue
            if lead_line and (f.player, lead_line) in bad_leads:
                continue
            cup = next(c for c in r.cups if c.name == f.cup)
            amount = bal[f.cup]
            if amount:
                pay(f.cup, f.player, amount, f"{cup.label} cup", f.line,
                    f"{f.player} wins {cup.label}: {n_chips(amount)}.")
        elif f.kind == "jackpot":                                   # MR-7
            amount = bal[JACKPOT]
            pay(JACKPOT, f.player, amount, "Jackpot: out first", f.line,
                f"{f.player} is out and takes the Jackpot: {n_chips(amount)}.")
        elif f.kind == "outpay":                                    # PR-3, BO-6
            got, k = 0, len(moves)
            for p, n in f.data:
                got += pay(p, f.player, n * r.out_payment, "cards left when out", f.line)
            if len(moves) > k:
                out = "" if r.jackpot else " is out and"
                moves[-1] = moves[-1]._replace(
                    note=f"{f.player}{out} collects {n_chips(got)} for the cards left.")
        elif f.kind == "fine":                                      # PR-5, PR-7
            for p in left_of(players, f.player):
                pay(f.player, p, r.lead_fine, "penalty for a lead", f.line)
        elif f.kind == "whpay":                                     # PR-6
            (holder,) = f.data
            cup = next(c for c in r.cups if c.name == f.cup)
            amount = bal[f.cup]
            if amount:
                pay(f.player, holder, amount, f"withheld card, {cup.label} unclaimed", f.line,
                    f"{f.player} pays {holder} {n_chips(amount)} for {cup.label}.")
        elif f.kind == "pot":                                       # MR-10, PR-4, GL-6
            winners, what = f.data
            share = bal[f.cup] // len(winners)
            if share and winners:
                for w in winners:
                    pay(f.cup, w, share, f.cup, f.line)
                sfx = " each" if len(winners) > 1 else ""
                moves[-1] = moves[-1]._replace(
                    note=f"{f.cup}: {join_words(winners)}, {what}, {n_chips(share)}{sfx}.")
    return moves


def pay_moves(ledger: Ledger, old: Sequence[Move], new: Sequence[Move], line: int) -> list[str]:
    """Bring the ledger from the round's transfers ``old`` to ``new`` (settled again at
    ``line``): only the new transfers when the past is unchanged, else the difference, paid in
    as few transfers as it takes; returns what to announce (cups taken back, cups won)."""
    notes: list[str] = []
    if new[:len(old)] == old:
        for m in new[len(old):]:
            ledger.transfer(m.source, m.target, m.amount, m.reason, m.line)
            if m.note:
                notes.append(m.note)
        return notes
    delta: Counter[str] = Counter()
    for m in new:
        delta[m.target] += m.amount
        delta[m.source] -= m.amount
    for m in old:
        delta[m.target] -= m.amount
        delta[m.source] += m.amount
    payers = [(a, -d) for a, d in delta.items() if d < 0]
    payees = {a: d for a, d in delta.items() if d > 0}
    for a, owe in payers:
        for b in payees:
            give = min(owe, payees[b])
            if give:
                ledger.transfer(a, b, give, f"settled again after the proof at line {line} "
                                            f"(PR-5a)", line)
                payees[b] -= give
                owe -= give
    gone = Counter(m.note for m in old if m.note) - Counter(m.note for m in new if m.note)
    came = Counter(m.note for m in new if m.note) - Counter(m.note for m in old if m.note)
    for note in gone.elements():
        notes.append(f"Taken back: {note.rstrip('.')}.")
    notes.extend(came.elements())
    return notes


def divide_board(ledger: Ledger, areas: Sequence[str], players: Sequence[str],
                 line: int) -> tuple[int, int]:
    """MR-12, the end of the game: the chips left in the cups are shared equally, cup by cup in
    the disk's order; returns each player's share and the chips that stay on the board."""
    board = [a for a in areas if ledger[a] > 0]
    total = sum(ledger[a] for a in board)
    share = total // len(players)
    if share:
        for p in players:
            need = share
            for a in board:
                take = min(need, ledger[a])
                if take:
                    ledger.transfer(a, p, take, "end of game: board divided (MR-12)", line)
                    need -= take
    return share, total - share * len(players)
