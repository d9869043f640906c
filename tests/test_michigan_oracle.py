"""The Michigan-family referee against an independent oracle (tests/oracle_michigan.py).

Simulated games (clean, with mistakes, hidden, short of chips) and rule-breaking random games
must give the same chips, board remainder and findings; hand-worked logs check both against
chips computed by hand from RULINGS.md.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from oracle_michigan import oracle, random_game

from companion.cards import Card, full_deck
from companion.referee import find_simulator, replay_dicts

GAMES = ("michigan-rummy", "great-lakes", "pressman", "boodle")
#: simulated games per (rule set, table size, mistake rate); run far more locally, e.g.
#: MICHIGAN_ORACLE_GAMES=200 nice python -m pytest tests/test_michigan_oracle.py
N_GAMES = 6
EXAMPLES = Path(__file__).parent / "golden"   # the shared example games, copied

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

#: (hidden log?, mistake rate, chips each or None for the default): the hidden referee must
#: reach the oracle's full-information result (PR-5a: as if known when it happened); few chips
#: make players run short (common conventions: nobody goes below zero).
SETTINGS = [(False, 0.0, None), (False, 0.15, None), (True, 0.15, None), (False, 0.3, 6),
            (True, 0.3, 6)]


@pytest.mark.parametrize(("hidden", "mistakes", "chips"), SETTINGS)
@pytest.mark.parametrize("game", GAMES)
def test_referee_agrees_with_oracle_on_simulated_games(game: str, hidden: bool, mistakes: float,
                                                        chips: int | None) -> None:
    disagreements = []
    for players in range(3, 9):
        names = [f"P{i}" for i in range(players)]
        for seed in range(_n_games()):
            kw = dict(players=names, rounds=5, seed=seed, mistakes=mistakes, chips=chips,
                      game=game)
            full = find_simulator(game)(hidden=False, **kw)
            log = find_simulator(game)(hidden=True, **kw) if hidden else full
            assert hidden != any(e["event"] == "deal" for e in log)
            ref, orc = referee_outcome(log), oracle_outcome(full)
            if ref != orc:
                disagreements.append((players, seed, ref, orc))
    assert disagreements == [], disagreements[:3]


@pytest.mark.parametrize("game", GAMES)
def test_oracle_finds_every_mistake_the_bots_made(game: str) -> None:
    """A third opinion: the simulator's own list of the rules its bots broke."""
    from companion.games.michigan.sim import simulate_game
    for players in (3, 5, 8):
        for seed in range(_n_games()):
            sim = simulate_game([f"P{i}" for i in range(players)], 5, seed, 0.2, None, game)
            made = Counter((m[1], m[2]) for m in sim.mistakes)
            assert Counter(oracle(sim.full).violations) == made, (players, seed)


# ---- games where players break rules the bots never break --------------------------------------
# (out-of-turn leads, dummies taken with a money card, dumps and straights of every shape,
# recorded ends of round): random_game plays them from the oracle's view of the table.

@functools.cache
def _rule_breaking_outcomes(game: str, hidden: bool) -> list[tuple[int, int, Outcome, Outcome]]:
    """(players, seed, referee's outcome, oracle's outcome) for each rule-breaking game."""
    out = []
    for players in range(3, 9):
        for seed in range(_n_games()):
            full = random_game(game, players, seed)
            log = [e for e in full if e["event"] != "deal"] if hidden else full
            out.append((players, seed, referee_outcome(log), oracle_outcome(full)))
    return out


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_chips_agree_on_rule_breaking_games(game: str, hidden: bool) -> None:
    bad = []
    for players, seed, ref, orc in _rule_breaking_outcomes(game, hidden):
        if ref[:2] != orc[:2]:
            bad.append((players, seed, ref[:2], orc[:2]))
    assert bad == [], bad[:3]


@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("game", GAMES)
def test_findings_agree_on_rule_breaking_games(game: str, hidden: bool) -> None:
    bad = []
    for players, seed, ref, orc in _rule_breaking_outcomes(game, hidden):
        found = orc[2]
        if ref[2] != found:
            bad.append((players, seed))
    assert bad == [], bad[:3]


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


def test_mr3_exchange_with_a_money_card_is_ineligible() -> None:
    # C (dealer) holds TD, a money card, and exchanges anyway: flagged; C plays the dummy's
    # cards and C's own hand is dead (TS and 6D stop their suits).
    plays = ["A 8S", "B 9S", "B 2D", "C 3D", "B 4D", "B 5D"]
    events = make_log("michigan-rummy", MR_COMBO_HANDS, MR_COMBO_DUMMY, plays, end_round=True,
                      dummy_event={"event": "dummy", "action": "exchange"})
    # MR-13: A KH KC KD KS 4C 7C 9C JD QD AD 9H JH = 110 (only 8S played),
    # B 5C QH 2S 3S 4S 5S 8D 8C TC = 55, C (dummy) 6C JS JC 6S 5H 6H 7H 8H TH 7S QS AS = 96:
    # B +4. Kitty: A four kings > C full house (sixes) > B full house (fives): A +3.
    # A 41 + 3 = 44, B 41 + 4 = 45, C 40; board 7 cups x 3 = 21.
    check_both(events, {"A": 44, "B": 45, "C": 40}, 21, violations("C ineligible-dummy"))


def test_mr3_sold_dummy_price_to_dealer_and_ineligible_buyer() -> None:
    # A buys the dummy for 2 while holding KD and JH (money cards): flagged, sale stands.
    plays = ["A 3D", "B 4D", "B 5D", "C 6D", "C 7D", "B 8D", "C 9D",
             "C TD"]   # TD single 3 + 8-9-10 (8D 9D TD in one sequence) 3 to C; JD dead
    events = make_log("michigan-rummy", MR_COMBO_HANDS, MR_COMBO_DUMMY, plays, end_round=True,
                      dummy_event={"event": "dummy", "action": "sell", "buyer": "A", "price": 2})
    # Ante A 41, B 41, C 40; sale A -> C 2: A 39, C 42; C +6 = 48.
    # MR-13: A (dummy) 96, B 9S 2D 5C QH 2S 3S 4S 5S 8C TC = 58, C TS AH 2C 3C QC AC 2H 3H 4H
    # = 56: C +4 = 52. Kitty: A full house sixes over jacks > B fives over fours: A +3 = 42.
    # Board: AS KD QS JH Q-K = 15.
    check_both(events, {"A": 42, "B": 41, "C": 52}, 15, violations("A ineligible-dummy"))


# Great Lakes (GL-1 disk). Same ante as MR-2: cups 3, Jackpot 4; A 41, B 41, C 40.
GL_ACE2_HANDS = {
    "A": "6S AH 2C QD 6C 7C 8C 9C TC 8S 9S TS JS",
    "B": "KD 2S 3D 3S 4C 5C 7D 2D 4D 5D 6D 8D 9D",
    "C": "AD 2H JC QC KC AC TD JD 4H 5H 6H 7H 8H",
}
GL_ACE2_DUMMY = "7S 3C 3H 9H TH JH QH KH QS KS AS 4S 5S"


def test_gl2_ace2_gl2a_gl5_six_lead_gl6_losers_kitty() -> None:
    plays = [
        "A 6S",   # GL-5: a legal 6 lead (the opening lead included): A +3; 7S dead
        "A AH",   # an Ace led, not followed ...
        "A 2C",   # ... so this 2 wins nothing (GL-2a); 3C dead
        "A QD",
        "B KD",   # KD 3 to B
        "C AD",   # an Ace that continues the sequence
        "C 2H",   # GL-2: C's very next play, a 2 of the same colour (waived): Ace-2 3 to C
    ]
    events = make_log("great-lakes", GL_ACE2_HANDS, GL_ACE2_DUMMY, plays, end_round=True)
    # MR-13: A 6C 7C 8C 9C TC 8S 9S TS JS = 77, B 2S 3D 3S 4C 5C 7D 2D 4D 5D 6D 8D 9D = 58,
    # C JC QC KC AC TD JD 4H 5H 6H 7H 8H = 91: B +4.
    # GL-6: B holds 2 3 4 5 7 of mixed suits (7-5-4-3-2, the worst hand); A and C hold no 3.
    # A 41 + 3 = 44; B 41 + 3 + 4 + 3 = 51; C 40 + 3 = 43; board QS JH FH-dump straight = 12.
    check_both(events, {"A": 44, "B": 51, "C": 43}, 12, Counter())


GL_DUMP_HANDS = {
    "A": "4S 3C TH 5C JC QC AC KD AD QH KH AH AS",
    "B": "5S 5H 4D 4C 2D JH QS KC 9D 6C 8C 9C TC",
    "C": "3D 2C 4H 5D 7S 6D 7D 8D 2H 3H 2S 3S 6S",
}
GL_DUMP_DUMMY = "7C TD JD QD 6H 7H 8H 9H 8S 9S TS JS KS"


def test_gl3_dump_gl4_straight_gl3a_only_next_card_wins_and_suits_stop() -> None:
    plays = [
        "A 4S",
        "B 5S 5H 4D 4C",   # GL-3: 4S + 5S 5H 4D 4C is a full house: B +3; B leads next
        "B 2D",            # any suit after a dump
        "C 3D",            # 4D went out in the dump: diamonds stop here (GL-3a), no withheld
        "C 2C",
        "A 3C",            # 4C went out too: stop
        "A TH",
        "B JH QS KC 9D",   # GL-4: 9 T J Q K straight: B +3; JH is next in sequence: +3;
                           # QS and KC are out of sequence and win nothing (GL-3a)
        "B 6C",            # GL-5 after a dump (any suit is the right colour): B +3; 7C dead
    ]
    events = make_log("great-lakes", GL_DUMP_HANDS, GL_DUMP_DUMMY, plays, end_round=True)
    # MR-13: A 5C JC QC AC KD AD QH KH AH AS = 99, B 8C 9C TC = 27, C (11 cards) = 53: B +4.
    # GL-6: C has 2C 3D 4H 5D 7S (7-5-4-3-2); A holds no 2, B no 3: C +3.
    # A 41; B 41 + 3 + 3 + 3 + 3 + 4 = 57; C 40 + 3 = 43; board KD QS Ace-2 = 9.
    check_both(events, {"A": 41, "B": 57, "C": 43}, 9, Counter())


# Pressman (PR-1 disk). PR-2 ante: non-dealers 1 in each of 9 areas, dealer 2: every area 4;
# A 41, B 41, C 32. A goes out in every Pressman log below.
PR_LEAD_HANDS = {
    "A": "2S 3S 4S 5S 2H 3H 4H 2C 8D 9C JH KH KS",
    "B": "3C 2D 5D 7D 9D 7C QH JC QC KC AC JD QD",
    "C": "6D 8C 7S 8S 9S TS JS 5C 6C 3D 4D 6H 7H",
}
PR_LEAD_DUMMY = "6S 5H 4C TD TC AH KD AD 8H 9H TH QS AS"


def test_pr5_illegal_lead_pr5a_forfeited_cup_won_later_pr3_pr4() -> None:
    plays = [
        "A 2S", "A 3S", "A 4S", "A 5S",   # 6S dead
        "A 2H", "A 3H", "A 4H",           # 5H dead
        "A 2C", "B 3C",                   # 4C dead
        "B 5D",   # PR-5: B holds 2D: pays 1 to A and C; no money cup from here on
        "C 6D", "B 7D", "A 8D",
        "B 9D",   # B completes 7-8-9 but collects nothing: the cup stays (PR-5a); TD dead
        "B 7C", "C 8C",
        "A 9C",   # A completes 7-8-9 (clubs) in one sequence: A wins it (PR-5a); TC dead
        "A JH",
        "B QH",   # QH is B's: forfeited, the cup stays
        "A KH",   # Q-K hearts completed by A: A wins it; AH dead
        "A KS",   # A's last card: out (PR-3)
    ]
    events = make_log("pressman", PR_LEAD_HANDS, PR_LEAD_DUMMY, plays)
    # A 41 +1 (PR-5) +4 (7-8-9) +4 (Q-K) +4 (Jackpot) +7 (B's 7 cards) +11 (C's 11) = 72.
    # B 41 - 2 - 7 = 32. C 32 + 1 - 11 = 22, then PR-4 Poker Pool: C's 7S 8S 9S TS JS
    # (straight flush) beats B's two pair; A, with no cards, cannot win it: C +4 = 26.
    # Board: TH JS KC AH QH = 5 x 4 = 20.
    check_both(events, {"A": 72, "B": 32, "C": 26}, 20, violations("B illegal-lead"))


PR_WITHHELD_HANDS = {
    "A": "2S 3S 4S 5S 2H 3H 4H 5H 2C QC 7D 8D 9D",
    "B": "6H 3C KC 5C 6C 7C 8C 9C TC 2D 3D 4D 5D",
    "C": "7H JC AC 6D TH QH TD JD QD KD AD 9H JH",
}
PR_WITHHELD_DUMMY = "6S 4C 8H AH KH 7S 8S 9S TS JS QS KS AS"


def test_pr6_withheld_forfeit_and_round_end_payments() -> None:
    plays = [
        "A 2S", "A 3S", "A 4S", "A 5S",   # 6S dead
        "A 2H", "A 3H", "A 4H", "A 5H",   # 6H is B's ...
        "A 2C",   # ... but A leads: B withheld 6H (PR-6)
        "B 3C",   # 4C dead
        "B 6H", "C 7H",                   # 8H dead
        "C JC", "A QC",
        "B KC",   # after B's offence: KC stays on the board
        "C AC",
        "C 6D", "A 7D", "A 8D",
        "A 9D",   # 7-8-9 (diamonds) to A; A's last card: out
    ]
    events = make_log("pressman", PR_WITHHELD_HANDS, PR_WITHHELD_DUMMY, plays)
    # A 41 + 4 (7-8-9) + 4 (Jackpot) + 10 (B's cards) + 9 (C's) = 68. B 41 - 10 = 31,
    # C 32 - 9 = 23. PR-6 at round end: B withheld a heart; heart money cups still holding
    # chips: TH (4, C holds TH) and QH (4, C holds QH) -> B pays C 8; AH (4) is dead, nobody
    # holds it. B 23, C 31. Poker Pool: C's TD JD QD KD AD royal flush: C +4 = 35.
    # Board: TH JS KC AH QH Q-K = 24.
    check_both(events, {"A": 68, "B": 23, "C": 35}, 24, violations("B withheld"))


# Boodle (BO-1 cards AH KC QD JS, no Jackpot). BO-2 ante: 1 per card, dealer 2: each card 4;
# A 46, B 46, C 42. BO-3 deals the extra hand first; with 3 players every hand is 13 anyway.
BO_HANDS = {
    "A": "2S 3S 4S 2C 3C TD 2H 3H 4H 6H AC AD AS",
    "B": "4C 7H 5H QD 2D 3D 4D 5D 6D 7D 8D QC KC",
    "C": "8H JS 9D JD 6C 7C 8C 9C TC JC TH JH KS",
}
BO_DUMMY = "5S 5C 9H QS KD QH KH AH 6S 7S 8S 9S TS"


def test_bo4_bo5_bo6_bo7_boodle_round() -> None:
    plays = [
        "A 2S", "A 3S", "A 4S",   # 5S dead
        "A 2C",   # BO-4: any suit but spades (same colour is fine)
        "A 3C", "B 4C",           # 5C dead
        "B 7H",   # BO-5 (PR-5): B holds 5H: pays 1 to A and C
        "C 8H",                   # 9H dead
        "C JS",   # JS boodle card: C +4; QS dead
        "C 9D", "A TD",           # JD is C's ...
        "A 2H",   # ... but A leads: C withheld JD
        "A 3H", "A 4H", "B 5H", "A 6H",   # 7H already played: stop
        "A AC", "A AD",
        "A AS",   # out (BO-6)
    ]
    events = make_log("boodle", BO_HANDS, BO_DUMMY, plays, rounds=1)
    # A 46 + 1 + 10 (B's cards) + 10 (C's) = 67. B 46 - 2 - 10 = 34. C 42 + 1 + 4 - 10 = 37.
    # BO-5 (PR-6): C withheld a diamond; QD still holds 4 and B holds QD: C pays B 4:
    # B 38, C 33. Board AH KC QD = 12; BO-7 (last round): 4 each: A 71, B 42, C 37.
    check_both(events, {"A": 71, "B": 42, "C": 37}, 0, violations("B illegal-lead", "C withheld"))


def test_mr6_lead_out_of_turn_is_flagged_and_wins_no_single_card() -> None:
    plays = [
        "A 8S", "B 9S",
        "C TS",   # 8-9-10 (spades) in one sequence: C +3; JS dead: C must lead (red)
        "A JD",   # A leads instead: out-of-turn (MR-6)
        "A QD",
        "A KD",   # a follow is a legal play: KD 3 to A (MR-8)
        "A AD",
    ]
    events = make_log("michigan-rummy", MR_COMBO_HANDS, MR_COMBO_DUMMY, plays, end_round=True)
    # MR-13: A KH KC KS 4C 7C 9C 9H JH = 69, B 2D 5C QH 4D 5D 2S 3S 4S 5S 8D 8C TC = 66,
    # C AH 2C 3C QC AC 6D 7D 9D TD 2H 3H 4H = 78: B +4. Kitty: A four kings +3.
    # A 41 + 3 + 3 = 47, B 41 + 4 = 45, C 40 + 3 = 43; board AS QS JH TD Q-K = 15.
    check_both(events, {"A": 47, "B": 45, "C": 43}, 15, violations("A out-of-turn"))


def test_mr3_q_k_hearts_cards_count_as_money_cards_for_the_dummy() -> None:
    # B holds QH (a card the Q-K hearts cup names) and buys the dummy for 1: flagged (the
    # convention both sides follow; RULINGS do not define "money card" for MR-3).
    events = make_log("michigan-rummy", MR_COMBO_HANDS, MR_COMBO_DUMMY, ["A 4C"], end_round=True,
                      dummy_event={"event": "dummy", "action": "sell", "buyer": "B", "price": 1})
    # B pays C 1: B 40, C 41. 5C is dead (B's hand given up): stop. MR-13: A (12 cards after
    # 4C) 8S KH KC KD KS 7C 9C JD QD AD 9H JH = 114, B (dummy) = 3+6+10+10+6+5+6+7+8+10+7+10
    # +11 = 99, C = 10+11+2+3+10+11+6+7+9+10+2+3+4 = 88: C +4 = 45. Kitty: A four kings +3.
    check_both(events, {"A": 44, "B": 40, "C": 45}, 21, violations("B ineligible-dummy"))


# MR-6: C played the last card (TS; JS is dead) and holds red cards, so C has the lead. A leads
# 4C, a black card after a black sequence, while holding red ones: two rules broken at once.
OUT_OF_TURN_WRONG_COLOUR = ["A 8S", "B 9S", "C TS", "A 4C", "B 5C"]   # 6C dead


def _out_of_turn_wrong_colour_log() -> list[dict[str, Any]]:
    return make_log("michigan-rummy", MR_COMBO_HANDS, MR_COMBO_DUMMY, OUT_OF_TURN_WRONG_COLOUR,
                    end_round=True)


# C +3 (8-9-10 spades). MR-13: A KH KC KD KS 7C 9C JD QD AD 9H JH = 106, B 2D QH 4D 5D 2S 3S
# 4S 5S 8D 8C TC = 61, C AH 2C 3C QC AC 6D 7D 9D TD 2H 3H 4H = 78: B +4. Kitty: A +3.
OUT_OF_TURN_WRONG_COLOUR_CHIPS = {"A": 44, "B": 45, "C": 43}


def test_mr6_out_of_turn_and_wrong_colour_oracle() -> None:
    check_oracle(_out_of_turn_wrong_colour_log(), OUT_OF_TURN_WRONG_COLOUR_CHIPS, 18,
                 violations("A out-of-turn", "A wrong-colour-lead"))


def test_mr6_out_of_turn_and_wrong_colour_referee() -> None:
    assert referee_outcome(_out_of_turn_wrong_colour_log()) == (
        OUT_OF_TURN_WRONG_COLOUR_CHIPS, 18, violations("A out-of-turn", "A wrong-colour-lead"))


# Common conventions: "A player who owes more chips than they have pays what they have."
# Great Lakes, 10 chips each: after the ante A 1, B 1, C 0 (cups 3, Jackpot 4). B (no KD QS JH:
# eligible) buys the dummy for 3 but has 1: pays 1, B 0, C 1. A leads 4C; 5C is dead (B's
# hand given up). MR-13: A 114, B (dummy) 99, C 88: C +4. GL-6: C's worst 7-6-4-3-2 is below
# B's 8-7-6-5-3 and A's J-9-8-7-4: C +3. A 1, B 0, C 8; board 28 - 7 = 21.
def _short_buyer_log() -> list[dict[str, Any]]:
    return make_log("great-lakes", MR_COMBO_HANDS, MR_COMBO_DUMMY, ["A 4C"], end_round=True,
                    chips=10,
                    dummy_event={"event": "dummy", "action": "sell", "buyer": "B", "price": 3})


def test_dummy_price_beyond_the_buyers_chips_oracle() -> None:
    assert oracle_outcome(_short_buyer_log()) == ({"A": 1, "B": 0, "C": 8}, 21, Counter())


def test_dummy_price_beyond_the_buyers_chips_referee() -> None:
    assert referee_outcome(_short_buyer_log()) == ({"A": 1, "B": 0, "C": 8}, 21, Counter())


PR_OUT_FIRST_HANDS = {
    "A": "2C 3D 2S 2H KH AH 9C TC JC QC KC AC 9H",
    "B": "3C 4C 2D 5S 6S 7S 4D 5D 6D 7D 8D 9D TD",
    "C": "3H 4S QH 6C 7C 8C QD KD AD 9S TS JS QS",
}
PR_OUT_FIRST_DUMMY = "5C 3S 4H 8S JD 5H 6H 7H 8H TH JH KS AS"


def test_pr6_withholder_out_first_wins_nothing_pr7_wrong_colour() -> None:
    plays = [
        "A 2C", "B 3C", "B 4C",           # 5C dead
        "B 2D", "A 3D",                   # 4D is B's ...
        "A 2S",   # ... but A leads: B withheld 4D (PR-6); 3S dead
        "A 2H", "C 3H",                   # 4H dead
        "C 4S", "B 5S", "B 6S", "B 7S",   # 8S dead
        "B 4D", "B 5D", "B 6D", "B 7D", "B 8D",
        "B 9D",   # 7-8-9 by B, after B's offence: the cup stays
        "B TD",   # B's last card: B withheld, so no Jackpot, no payments; play goes on
        "C QH",   # C has the lead (B has no card); a red lead after diamonds while C holds
                  # black cards: PR-7, C pays A and B 1 each; QH stays on the board
        "A KH",   # Q-K hearts to A
        "A AH",   # AH to A
        "A 9C", "A TC", "A JC", "A QC",
        "A KC",   # KC to A
        "A AC",
        "A 9H",   # A's last card: out (PR-3)
    ]
    events = make_log("pressman", PR_OUT_FIRST_HANDS, PR_OUT_FIRST_DUMMY, plays)
    # Ante A 41, B 41, C 32 (every area 4). PR-7: C 30, A 42, B 42.
    # A + 4 (Q-K) + 4 (AH) + 4 (KC) + 4 (Jackpot) + 10 (C's 10 cards; B has none) = 68.
    # C 30 - 10 = 20, then the Poker Pool (C alone holds cards) +4 = 24. No diamond money cup,
    # so B's withheld 4D costs nothing at round end. Board: TH JS QH 7-8-9 = 16.
    check_both(events, {"A": 68, "B": 42, "C": 24}, 16,
               violations("B withheld", "C wrong-colour-lead"))


PR_POOL_HANDS = {
    "A": "2S 3S 4S 6C 7C 8C 9C TC 2D 3D 4D 5D 6D",
    "B": "5S 6S 7S 2H 3H 2C 3C 4C 5C AC AD AH AS",
    "C": "QC KC 7D 8D 9D JD 5H 6H 8H 9H TS JS QS",
}
PR_POOL_DUMMY = "8S 4H JC TD QD KD 7H TH JH QH KH 9S KS"


def test_pr4_four_cards_left_beat_thirteen() -> None:
    plays = [
        "A 2S", "A 3S", "A 4S", "B 5S", "B 6S", "B 7S",   # 8S dead
        "B 2H", "B 3H",                                   # 4H dead
        "B 2C", "B 3C", "B 4C", "B 5C",
        "A 6C", "A 7C", "A 8C", "A 9C", "A TC",   # 7-8-9 (clubs) to A; JC dead
        "A 2D", "A 3D", "A 4D", "A 5D", "A 6D",   # A's last card: out
    ]
    events = make_log("pressman", PR_POOL_HANDS, PR_POOL_DUMMY, plays)
    # A 41 + 4 (7-8-9) + 4 (Jackpot) + 4 (B's 4 cards) + 13 (C's 13) = 66; B 41 - 4 = 37;
    # C 32 - 13 = 19. PR-4: B's four cards, four aces, are compared as they are and beat C's
    # best of 13 (a straight, 9 to K); A has no card: B +4 = 41. Board: TH JS KC AH QH Q-K = 24.
    check_both(events, {"A": 66, "B": 41, "C": 19}, 24, Counter())
