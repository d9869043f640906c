"""The Michigan-family referee against an independent oracle (tests/oracle_michigan.py).

Simulated games (clean and with mistakes) must give the same chips, board remainder and
findings; hand-worked logs check both against chips computed by hand from RULINGS.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from oracle_michigan import oracle

from companion.cards import Card, full_deck
from companion.referee import find_simulator
from companion.referee.base import replay_dicts

GAMES = ("michigan-rummy", "great-lakes", "pressman", "boodle")
#: simulated games per (rule set, table size, mistake rate); run far more locally, e.g.
#: MICHIGAN_ORACLE_GAMES=200 nice python -m pytest tests/test_michigan_oracle.py
N_GAMES = 10
EXAMPLES = Path("/work/shared/examples")

Outcome = tuple[dict[str, int], int, Counter[tuple[str, str]]]


def referee_outcome(events: list[dict[str, Any]]) -> Outcome:
    rep = replay_dicts(events).report()
    assert rep["errors"] == [], rep["errors"]
    return (rep["chips"], sum(rep["pots"].values()),
            Counter((v["player"], v["rule"]) for v in rep["violations"]))


def oracle_outcome(events: list[dict[str, Any]]) -> Outcome:
    res = oracle(events)
    return res.chips, res.board_left, Counter(res.violations)


def _n_games() -> int:
    import os
    return int(os.environ.get("MICHIGAN_ORACLE_GAMES", N_GAMES))


# ---- simulated games ------------------------------------------------------------------------

@pytest.mark.parametrize("mistakes", [0.0, 0.15])
@pytest.mark.parametrize("game", GAMES)
def test_referee_agrees_with_oracle_on_simulated_games(game: str, mistakes: float) -> None:
    disagreements = []
    for players in range(3, 9):
        names = [f"P{i}" for i in range(players)]
        for seed in range(_n_games()):
            events = find_simulator(game)(players=names, rounds=5, seed=seed, hidden=False,
                                          mistakes=mistakes, chips=None, game=game)
            ref, orc = referee_outcome(events), oracle_outcome(events)
            if ref != orc:
                disagreements.append((players, seed, ref, orc))
    assert disagreements == [], disagreements[:3]


@pytest.mark.parametrize("game", GAMES)
def test_oracle_finds_every_mistake_the_bots_made(game: str) -> None:
    """A third opinion: the simulator's own list of the rules its bots broke."""
    from companion.michigan_sim import simulate_game
    for players in (3, 5, 8):
        for seed in range(_n_games()):
            sim = simulate_game([f"P{i}" for i in range(players)], 5, seed, 0.2, None, game)
            made = Counter((m[1], m[2]) for m in sim.mistakes)
            assert Counter(oracle(sim.full).violations) == made, (players, seed)


# ---- the example games, read back with the deal reconstructed ---------------------------------

def with_deals(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A hidden log made full: every card a player played or revealed was theirs; the rest is
    the dead hand (the dummy, or the hand given up for it)."""
    out: list[dict[str, Any]] = []
    players = events[0]["players"]
    rounds: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for e in events:
        if e["event"] == "round":
            rounds.append((e, []))
        elif rounds:
            rounds[-1][1].append(e)
        else:
            out.append(e)
    for start, body in rounds:
        seen: dict[str, list[str]] = {p: [] for p in players}
        taker = None
        for e in body:
            if e["event"] == "play":
                seen[e["player"]] += e.get("cards", [e.get("card")])
            elif e["event"] == "reveal":
                seen[e["player"]] += e["cards"]
            elif e["event"] == "dummy" and e["action"] != "keep":
                taker = start["dealer"] if e["action"] == "exchange" else e["buyer"]
        used = {Card.parse(c) for v in seen.values() for c in v}
        rest = [c.code for c in full_deck() if c not in used]
        hands, dummy = dict(seen), rest
        if taker:
            dummy, hands[taker] = seen[taker], rest
        out += [start, {"event": "deal", "hands": hands, "dummy": dummy}, *body]
    return out


@pytest.mark.parametrize("name", ["michigan-rummy-clean", "michigan-rummy-mistakes", "great-lakes",
                                  "pressman-mistakes", "boodle-mistakes"])
def test_oracle_reproduces_the_independent_example_results(name: str) -> None:
    events = [json.loads(line) for line in (EXAMPLES / f"{name}.jsonl").read_text().splitlines()
              if line.strip()]
    want = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    chips, board, found = oracle_outcome(with_deals(events))
    assert chips == want["chips"]
    assert board == want["board_left"]
    assert found == Counter((v["player"], v["rule"]) for v in want["violations"])


# ---- hand-worked logs ---------------------------------------------------------------------------
# Three players A, B, C (clockwise), C deals, so A leads first and every hand (the dummy too)
# holds 13 cards (MR-1). Logs stop after round 1 of 2 (no MR-12) unless said otherwise.

def make_log(game: str, hands: dict[str, str], dummy: str, plays: list[str], *,
             rounds: int = 2, chips: int = 50, dummy_event: dict[str, Any] | None = None,
             end_round: bool = False, dealer: str = "C") -> list[dict[str, Any]]:
    """A full-information log. ``plays``: "A 8S" (one card) or "A 5S 6C 7D 8S" (one move).
    Every player still holding cards reveals them at the end (in seat order)."""
    players = ["A", "B", "C"]
    deal = {p: hands[p].split() for p in players}
    assert sorted(c for h in [*deal.values(), dummy.split()] for c in h) == sorted(
        c.code for c in full_deck()), "not one deck"
    assert all(len(h) == 13 for h in deal.values()) and len(dummy.split()) == 13
    events: list[dict[str, Any]] = [
        {"event": "game", "game": game, "players": players, "chips": chips, "rounds": rounds},
        {"event": "round", "dealer": dealer},
        {"event": "deal", "hands": deal, "dummy": dummy.split()},
        dummy_event or {"event": "dummy", "action": "keep"},
    ]
    held = {p: list(h) for p, h in deal.items()}
    if dummy_event and dummy_event["action"] != "keep":
        taker = dealer if dummy_event["action"] == "exchange" else dummy_event["buyer"]
        held[taker] = dummy.split()
    for line in plays:
        who, *cs = line.split()
        for c in cs:
            held[who].remove(c)
        events.append({"event": "play", "player": who, "card": cs[0]} if len(cs) == 1
                      else {"event": "play", "player": who, "cards": cs})
    if end_round:
        events.append({"event": "end-round"})
    for p in players:
        if held[p]:
            events.append({"event": "reveal", "player": p, "cards": held[p]})
    return events


def violations(*pairs: str) -> Counter[tuple[str, str]]:
    return Counter(tuple(p.split(" ", 1)) for p in pairs)  # type: ignore[misc]


def check_oracle(events: list[dict[str, Any]], chips: dict[str, int], board: int,
                 found: Counter[tuple[str, str]]) -> None:
    assert sum(chips.values()) + board == 150, "hand arithmetic must conserve chips"
    assert oracle_outcome(events) == (chips, board, found)


def check_both(events: list[dict[str, Any]], chips: dict[str, int], board: int,
               found: Counter[tuple[str, str]]) -> None:
    check_oracle(events, chips, board, found)
    assert referee_outcome(events) == (chips, board, found)


# MR-8 / MR-13 / MR-10. Ante (MR-2): 1 in each of 8 cups + 1 Jackpot, dealer C 1 more:
# cups 3 each, Jackpot 4; A 41, B 41, C 40.
MR_COMBO_HANDS = {
    "A": "8S KH KC KD KS 4C 7C 9C JD QD AD 9H JH",
    "B": "9S 2D 5C QH 4D 5D 2S 3S 4S 5S 8D 8C TC",
    "C": "TS AH 2C 3C QC AC 6D 7D 9D TD 2H 3H 4H",
}
MR_COMBO_DUMMY = "3D 6C JS JC 6S 5H 6H 7H 8H TH 7S QS AS"


def test_mr8_combination_only_when_consecutive_in_one_sequence() -> None:
    plays = [
        "A 8S",   # opening lead (MR-4)
        "B 9S",   # TS is C's: C must follow ...
        "B 2D",   # ... but B leads: C withheld TS (MR-5); 3D dead -> stop
        "B 5C",   # 6C dead -> stop
        "B QH",
        "A KH",   # Q-K hearts played consecutively: A wins 3
        "C AH",   # Ace stops the sequence
        "C TS",   # 8S 9S TS all played, but not in one sequence: 8-9-10 cup stays (MR-8)
    ]             # JS dead -> stop; then the table records an end of round
    events = make_log("michigan-rummy", MR_COMBO_HANDS, MR_COMBO_DUMMY, plays, end_round=True)
    # MR-13 totals in hand: A KC KD KS 4C 7C 9C JD QD AD 9H JH = 100,
    # B 4D 5D 2S 3S 4S 5S 8D 8C TC = 49, C 2C 3C QC AC 6D 7D 9D TD 2H 3H 4H = 67: B +4.
    # MR-10 kitty: A four kings (KC KD KH KS) > B full house (5s over 4s) > C two pair: A +3.
    # A 41 + 3 + 3 = 47; B 41 + 4 = 45; C 40. Board: AS KD QS JH TD 8-9-10 = 6 x 3 = 18.
    check_both(events, {"A": 47, "B": 45, "C": 40}, 18, violations("C withheld"))


MR_MONEY_HANDS = {
    "A": "8D QH AH 5C 8C 4H 5H 6H 3S 5S 6S 9S 9H",
    "B": "9D KH 2C 2D 2H 2S KS QS JS 8S 7S 4S 3H",
    "C": "TD AS JH 3C 4C 6C 7C 9C JC 3D 5D 6D 7D",
}
MR_MONEY_DUMMY = "JD TC QC KC AC 4D QD KD AD 7H 8H TH TS"


def test_mr8_single_cards_and_8_9_10_mr13_three_way_tie_and_mr12_remainder() -> None:
    plays = [
        "A 8D",   # opening lead
        "B 9D",
        "C TD",   # TD single (3) + 8-9-10 (3) to C; JD dead -> stop
        "C AS",   # a legal lead wins a single money card: AS 3 to C (MR-8)
        "C JH",   # C's only heart: JH 3 to C
        "A QH",
        "B KH",   # Q-K hearts 3 to B
        "A AH",
    ]
    events = make_log("michigan-rummy", MR_MONEY_HANDS, MR_MONEY_DUMMY, plays, end_round=True,
                      rounds=1)
    # After the ante A 41, B 41, C 40; C +12 = 52; B +3 = 44.
    # MR-13: A 5C 8C 4H 5H 6H 3S 5S 6S 9S 9H = 60, B 2C 2D 2H 2S KS QS JS 8S 7S 4S 3H = 60,
    # C 3C 4C 6C 7C 9C JC 3D 5D 6D 7D = 60: three-way tie, Jackpot 4 -> 1 each, 1 stays.
    # MR-10: B four twos > A full house > C flush: B +3.  A 42, B 48, C 53.
    # Board KD 3 + QS 3 + Jackpot 1 = 7; MR-12 (last round): 2 each, 1 left on the board.
    check_both(events, {"A": 44, "B": 50, "C": 55}, 1, Counter())
