"""The Wanagan referee: antes, cup awards and splits, overtime hands, leftovers to the Jackpot,
the draw, the end of the game, and the errors a log can hold (RULINGS WA-1..WA-7)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games.wanagan.referee import WanaganReferee, load_rules
from companion.referee import replay_dicts, replay_file

EXAMPLES = Path(__file__).resolve().parent / "golden"
ROOT = Path(__file__).resolve().parents[1]
CUPS = ["1 Pair", "2 Pair", "3 of a Kind", "Full House", "Any Flush", "Any Straight",
        "4 of a Kind", "Wanagan"]
FOUR = ["Ann", "Bob", "Cy", "Dee"]
SIX = ["A", "B", "C", "D", "E", "F"]


def game(players: list[str], chips: Any = 100, rounds: int = 1, **extra: Any) -> dict[str, Any]:
    return {"event": "game", "game": "wanagan", "players": players, "chips": chips,
            "rounds": rounds, **extra}


def hand(kind: str, reveals: dict[str, str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"event": "hand", "kind": kind}]
    for p, cs in reveals.items():
        out.append({"event": "reveal", "player": p, "cards": cs.split()})
    return out


def run(events: list[dict[str, Any]]) -> dict[str, Any]:
    return replay_dicts(events).report()


def texts(report: dict[str, Any]) -> str:
    return "\n".join(a["text"] for a in report["announcements"])


# Nobody qualifies for anything in these 4-player hands (2-3-5-6-8, mixed suits), and they tie
# exactly as high cards. They leave every 4, 7, 9, 10, J, Q, K and A free for other hands.
NOTHING4 = {"Ann": "2C 3D 5H 6S 8C", "Bob": "2D 3H 5S 6C 8D", "Cy": "2H 3S 5C 6D 8H",
            "Dee": "2S 3C 5D 6H 8S"}


def clean(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Replay a log that must hold no error."""
    report = run(events)
    assert report["errors"] == []
    return report


# --- golden games ------------------------------------------------------------------------------

@pytest.mark.skipif(not (EXAMPLES / "wanagan.jsonl").exists(), reason="shared examples absent")
def test_the_shared_example_game() -> None:
    expected = json.loads((EXAMPLES / "wanagan.expected.json").read_text())
    report = replay_file(str(EXAMPLES / "wanagan.jsonl")).report()
    assert report["chips"] == expected["chips"]
    assert sum(report["pots"].values()) == expected["board_left"]
    assert sorted((v["player"], v["rule"]) for v in report["violations"]) == sorted(
        (v["player"], v["rule"]) for v in expected["violations"])
    assert report["errors"] == []
    assert report["finished"]
    assert "Cy: Wanagan, 4-6-8-10-Q (10♦ as 6, K♥ as 10) — wins 8 chips" in texts(report)


# Worked out by hand from RULINGS.md: six players (two decks, WA-1), 20 chips each, 2 rounds.
# Round 1 (antes 13 each, WA-2; cups 6/6/6/12/12/12/12/12):
#   main   C and D tie with 9-high straight flushes for Any Flush and Any Straight (6+6 each);
#          E's five kings (two decks) beat F's four aces for 4 of a Kind (12).
#   ot-1   A and B tie full houses, threes over nines (6 each); C and D tie two pair (3 each);
#          E three sevens (6). Left: 1 Pair 6, Wanagan 12.
#   ot-2   A B C D tie pairs of nines 7-5-2: 1 each, 2 stay in 1 Pair (WA-3). Wanagan unwon.
#   ot-3   B's K♥ is wild (pair of nines 5-3-2) and ties C and D: 0 each, 2 stay; nobody has a
#          Wanagan: 2 + 12 go to the Jackpot (WA-6).
#   draw   A B C tie two pair aces and kings: 4 each, 2 stay in the Jackpot.
#   After: A 18, B 18, C 27, D 23, E 25, F 7, Jackpot 2.
# Round 2: F has 7 chips and antes cup by cup until short: 1+1+1+2+2 (nothing in Straight, Four,
#   Wanagan), so the cups hold 6/6/6/12/12/10/10/10.
#   main   A's Wanagan in hearts wins Wanagan (10) but B's straight flush takes Any Flush (12) and
#          Any Straight (10); C five sevens (10); D full house (12); E three fives (6); F pair (6).
#   ot-1   A and B tie two pair for 2 Pair (3 each); every cup is empty: the draw comes next.
#   draw   A's wheel (ace low, WA-1) beats B's three kings: A takes the Jackpot (2).
#   Final: A 20, B 30, C 24, D 22, E 18, F 6, board 0.
OWN_GAME: list[dict[str, Any]] = [
    game(SIX, chips=20, rounds=2),
    {"event": "round", "dealer": "A"},
    *hand("main", {"A": "2C 3D 4H 5S 7C", "B": "2D 3C 4S 5H 7D", "C": "5H 6H 7H 8H 9H",
                   "D": "5D 6D 7D 8D 9D", "E": "KS KD KH KC KS", "F": "AS AD AH AC 3C"}),
    *hand("overtime-1", {"A": "3C 3D 3H 9S 9C", "B": "3S 3C 3D 9H 9D", "C": "QC QD JS JH 2S",
                         "D": "QH QS JC JD 2H", "E": "7C 7D 7H 5S 4H", "F": "8C 9D JS KD 2C"}),
    *hand("overtime-2", {"A": "9C 9D 2H 5S 7C", "B": "9H 9S 2D 5C 7D", "C": "9C 9D 2S 5H 7H",
                         "D": "9H 9S 2C 5D 7S", "E": "3C 4D 6S 8C TD", "F": "AC KH QS JD 8D"}),
    *hand("overtime-3", {"A": "2C 3D 5H 8S JC", "B": "KH 2D 3S 5C 9H", "C": "9S 9H 5S 3C 2S",
                         "D": "9C 9D 5D 3H 2H", "E": "4D 6H 8C QS AD", "F": "AC KC QH JH 8D"}),
    *hand("draw", {"A": "AS AD KC KD 2C", "B": "AH AC KH KS 2D", "C": "AS AD KC KD 2H",
                   "D": "QC QD 5C 6D 8H", "E": "2S 3S 4S 5S 7H", "F": "JC JD 3H 4H 6C"}),
    {"event": "round", "dealer": "B"},
    *hand("main", {"A": "2H 4H 6H 8H TH", "B": "9S TS JS QS KS", "C": "7C 7D 7H 7S 7C",
                   "D": "8C 8D 8S 3C 3D", "E": "5C 5D 5H JC QD", "F": "AC AD 6C 9D KC"}),
    *hand("overtime-1", {"A": "2C 2D 9H 9S 4S", "B": "2H 2S 9C 9D 4D", "C": "3C 5D 7S JH KD",
                         "D": "3H 6S 8D TC QH", "E": "4H 6D 8C TD QC", "F": "AS KH QD JS 9C"}),
    *hand("draw", {"A": "2C 3D 4H 5S AC", "B": "KC KD KH 2D 3S", "C": "QC QD 4S 6H 8C",
                   "D": "3C 5H 7C 9S JD", "E": "2H 4D 6C 8S TS", "F": "4C 4D 7H 9H JC"}),
]


def test_own_golden_game_two_decks_ties_wilds_jackpot_and_a_short_ante() -> None:
    report = run(OWN_GAME)
    assert report["errors"] == []
    assert report["violations"] == []
    assert report["finished"] and report["round"] == 2
    assert report["chips"] == {"A": 20, "B": 30, "C": 24, "D": 22, "E": 18, "F": 6}
    assert sum(report["pots"].values()) == 0
    said = texts(report)
    assert "B, C and D tie for 1 Pair with pair of nines" in said
    assert "14 chips left in cups go to the Jackpot" in said
    assert "A, B and C tie for the Jackpot with two pair, aces and kings: 4 chips each; " \
           "2 chips stay in the Jackpot" in said
    assert "F short" in said


def test_own_golden_game_round_one_state() -> None:
    # cut the log after round 1's draw: the Jackpot carries 2 chips into round 2
    cut = OWN_GAME.index({"event": "round", "dealer": "B"})
    report = run(OWN_GAME[:cut])
    assert report["chips"] == {"A": 18, "B": 18, "C": 27, "D": 23, "E": 25, "F": 7}
    assert report["pots"]["Jackpot"] == 2
    assert not report["finished"]
    assert "Next: round 2, B deals" in texts(report)


# --- WA-2 antes --------------------------------------------------------------------------------

def test_antes_fill_every_cup() -> None:
    report = run([game(FOUR), {"event": "round", "dealer": "Ann"}])
    assert report["chips"] == {p: 87 for p in FOUR}
    assert report["pots"] == {"1 Pair": 4, "2 Pair": 4, "3 of a Kind": 4, "Full House": 8,
                              "Any Flush": 8, "Any Straight": 8, "4 of a Kind": 8, "Wanagan": 8,
                              "Jackpot": 0}


def test_a_short_player_pays_what_they_have() -> None:
    report = run([game(FOUR, chips={"Ann": 3, "Bob": 100, "Cy": 100, "Dee": 100}),
                  {"event": "round", "dealer": "Ann"}])
    assert report["chips"]["Ann"] == 0
    # Ann's 3 chips went 1+1+1 into the first cups of the disk, none into Full House
    assert report["pots"]["3 of a Kind"] == 4 and report["pots"]["Full House"] == 6
    assert sum(report["chips"].values()) + sum(report["pots"].values()) == 303


# --- WA-3 awards and ties ----------------------------------------------------------------------

def test_exact_tie_splits_and_the_remainder_stays_in_the_cup() -> None:
    main = {"Ann": "9C 9D 4H 7C JC", "Bob": "9H 9S 4D 7D JD", "Cy": NOTHING4["Cy"]}
    report = clean([game(["Ann", "Bob", "Cy"]), {"event": "round", "dealer": "Ann"},
                    *hand("main", main)])
    assert report["pots"]["1 Pair"] == 1  # 3 chips, two ways: 1 each, 1 stays
    assert report["chips"] == {"Ann": 88, "Bob": 88, "Cy": 87}
    assert "Ann and Bob tie for 1 Pair with pair of nines: 1 chip each; 1 chip stays in the cup" \
        in texts(report)
    assert "Still in cups: 1 Pair 1, " in texts(report)
    assert "Next: overtime 1: pass 3 left" in texts(report)


def test_full_house_does_not_win_the_three_or_pair_cups() -> None:
    main = dict(NOTHING4, Ann="7C 7H 7S KC KH", Bob="9C 9D 4H TS JC")
    report = clean([game(FOUR), {"event": "round", "dealer": "Ann"}, *hand("main", main)])
    assert report["pots"]["Full House"] == 0
    assert report["pots"]["3 of a Kind"] == 4
    assert report["pots"]["1 Pair"] == 0  # Bob's pair of nines is the only pair
    assert report["chips"]["Ann"] == 87 + 8 and report["chips"]["Bob"] == 87 + 4


def test_straight_flush_wins_both_flush_and_straight_cups() -> None:
    main = dict(NOTHING4, Cy="9H TH JH QH KH", Dee="AC KC QC JC 9C")
    report = clean([game(FOUR), {"event": "round", "dealer": "Ann"}, *hand("main", main)])
    assert report["chips"]["Cy"] == 87 + 16
    assert report["chips"]["Dee"] == 87


# --- WA-5 the overtime hands -------------------------------------------------------------------

def start_and_main(main: dict[str, str]) -> list[dict[str, Any]]:
    return [game(FOUR), {"event": "round", "dealer": "Ann"}, *hand("main", main)]


def test_overtime_hands_come_in_order_while_cups_hold_chips() -> None:
    events = start_and_main(NOTHING4)
    report = run(events + [{"event": "hand", "kind": "draw"}])
    assert any("next hand is overtime 1" in e["text"] for e in report["errors"])
    events += hand("overtime-1", NOTHING4) + hand("overtime-2", NOTHING4)
    report = run(events)
    assert "Next: overtime 3: wilds K♥ 10♦ 7♠ 4♣" in texts(report)
    report = run(events + [{"event": "hand", "kind": "overtime-1"}])
    assert report["errors"] and "overtime 3" in report["errors"][0]["text"]


def test_wilds_count_only_in_the_third_overtime_hand() -> None:
    four_nines = dict(NOTHING4, Ann="9C 9D 9H 4D KH")  # K♥ would make four nines
    events = start_and_main(NOTHING4) + hand("overtime-1", four_nines)
    report = clean(events)
    assert report["pots"]["4 of a Kind"] == 8  # not wild yet: three nines only ...
    assert report["pots"]["3 of a Kind"] == 0  # ... which win the three cup
    events += hand("overtime-2", NOTHING4) + hand("overtime-3", four_nines)
    report = clean(events)
    assert report["pots"]["4 of a Kind"] == 0
    assert "Ann: Four of a kind, nines (K♥ as 9) — wins 8 chips (4 of a Kind)" in texts(report)


@pytest.mark.parametrize("wild", ["KH", "TD", "7S", "4C"])
def test_each_wild_wins_a_cup_in_overtime_three(wild: str) -> None:
    events = start_and_main(NOTHING4) + hand("overtime-1", NOTHING4) + hand("overtime-2",
                                                                            NOTHING4)
    events += hand("overtime-3", dict(NOTHING4, Bob=f"9C 9D 9H 4D {wild}"))
    report = clean(events)
    assert report["pots"]["4 of a Kind"] == 0 and report["pots"]["Full House"] == 0
    assert report["pots"]["3 of a Kind"] == 0
    # judged per cup (WA-5), the wild is a nine for the four cup, a four for the full house
    # cup and an ace kicker for the three cup
    assert report["chips"]["Bob"] == 87 + 8 + 8 + 4
    # 1 Pair, 2 Pair, Any Flush, Any Straight and Wanagan were not won: to the Jackpot (WA-6)
    assert report["pots"]["Jackpot"] == 4 + 4 + 8 + 8 + 8


def test_leftovers_go_to_the_jackpot_after_the_third_overtime_and_the_draw_takes_it() -> None:
    events = start_and_main(NOTHING4)
    for kind in ("overtime-1", "overtime-2", "overtime-3"):
        events += hand(kind, NOTHING4)
    report = clean(events)
    assert report["pots"]["Jackpot"] == 52
    assert all(report["pots"][c] == 0 for c in CUPS)
    assert "52 chips left in cups go to the Jackpot" in texts(report)
    events += hand("draw", dict(NOTHING4, Dee="AC 2S 3C 4S 5D"))  # the wheel (WA-1)
    report = clean(events)
    assert report["chips"]["Dee"] == 87 + 52
    assert report["finished"]


def test_draw_comes_early_once_every_cup_is_empty() -> None:
    main = {"Ann": "2H 4H 6H 8H TH", "Bob": "9S TS JS QS KS", "Cy": "7C 7D 7H 7S 3C",
            "Dee": "8C 8D 8S 3H 3D"}
    events = start_and_main(main)
    events += hand("overtime-1", {"Ann": "2C 2D 9H 9D 4S", "Bob": "QC QD 5C 6D 4D",
                                  "Cy": "AC AD AH 5S 6S", "Dee": "3C 5D 7S JH KD"})
    report = clean(events)
    assert all(report["pots"][c] == 0 for c in CUPS)
    assert "Next: 5-card draw for the Jackpot (0 chips)" in texts(report)
    report = run(events + [{"event": "hand", "kind": "overtime-2"}])
    assert report["errors"] and "every cup is empty" in report["errors"][0]["text"]


def test_draw_tie_splits_the_jackpot_and_the_remainder_carries_over() -> None:
    events = [game(FOUR, rounds=2), {"event": "round", "dealer": "Ann"}, *hand("main", NOTHING4)]
    for kind in ("overtime-1", "overtime-2", "overtime-3"):
        events += hand(kind, NOTHING4)
    events += hand("draw", dict(NOTHING4, Dee="2S 3C 4D 5D 7H"))  # three 8-highs tie
    report = clean(events)
    assert report["pots"]["Jackpot"] == 1  # 52 three ways: 17 each, 1 stays
    assert report["chips"]["Ann"] == 87 + 17 and report["chips"]["Dee"] == 87
    events.append({"event": "round", "dealer": "Bob"})
    report = clean(events)
    assert report["pots"]["Jackpot"] == 1
    assert report["chips"]["Ann"] == 87 + 17 - 13


# --- WA-7 the end of the game ------------------------------------------------------------------

def test_board_left_at_the_end_is_divided_equally_with_the_remainder_staying() -> None:
    events = start_and_main(NOTHING4)
    for kind in ("overtime-1", "overtime-2", "overtime-3"):
        events += hand(kind, NOTHING4)
    events += hand("draw", dict(NOTHING4, Dee="2S 3C 4D 5D 7H"))  # three 8-highs tie
    report = clean(events)
    # 52 three ways: 17 each, 1 stays; game over: 1 chip cannot be split four ways and stays
    assert report["pots"]["Jackpot"] == 1
    assert report["finished"]
    assert "1 chip stays on the board, too few to divide" in texts(report)
    assert report["chips"] == {"Ann": 104, "Bob": 104, "Cy": 104, "Dee": 87}


def test_end_of_game_with_two_winners_of_the_last_draw() -> None:
    events = [game(["Ann", "Bob", "Cy"], rounds=1), {"event": "round", "dealer": "Ann"}]
    nothing3 = {p: NOTHING4[p] for p in ("Ann", "Bob", "Cy")}
    for kind in ("main", "overtime-1", "overtime-2", "overtime-3"):
        events += hand(kind, nothing3)
    # draw: Ann and Bob tie: 39 two ways, 19 each, 1 stays; then WA-7: 1 chip, 3 players
    events += hand("draw", {"Ann": "AS AD KC KD 7C", "Bob": "AH AC KH KS 7D",
                            "Cy": NOTHING4["Cy"]})
    report = clean(events)
    assert report["chips"] == {"Ann": 106, "Bob": 106, "Cy": 87}
    assert report["pots"]["Jackpot"] == 1


def test_end_of_game_divides_a_large_board() -> None:
    # nobody wins a cup, and the draw is an exact 4-way tie of high cards: 52 back 13 each
    tie = NOTHING4
    events: list[dict[str, Any]] = [game(FOUR, chips=13, rounds=1),
                                    {"event": "round", "dealer": "Ann"}]
    for kind in ("main", "overtime-1", "overtime-2", "overtime-3", "draw"):
        events += hand(kind, tie)
    report = clean(events)
    assert report["chips"] == {p: 13 for p in FOUR}
    assert report["finished"]


# --- errors: impossible events leave the state as it was ---------------------------------------

def base_with_main_open() -> list[dict[str, Any]]:
    return [game(FOUR), {"event": "round", "dealer": "Ann"}, {"event": "hand", "kind": "main"}]


@pytest.mark.parametrize("shown, words", [
    (["2C", "3D", "5H", "9S"], "4 cards"),
    (["2C", "3D", "5H", "9S", "JC", "KC"], "6 cards"),
    (["2C", "2C", "5H", "9S", "JC"], "shown 2 times"),
    (["2C", "3D", "5H", "9S", "1X"], "no deck in play"),
    (["2C", "3D", "5H", "9S", "JK"], "no deck in play"),
    ("2C 3D 5H 9S JC", "list of cards"),
])
def test_bad_reveals_are_errors(shown: Any, words: str) -> None:
    events = base_with_main_open() + [{"event": "reveal", "player": "Ann", "cards": shown}]
    report = run(events)
    assert len(report["errors"]) == 1
    assert words in report["errors"][0]["text"]
    assert report["errors"][0]["text"].startswith("line 4:")


def test_a_card_shown_by_two_players_with_one_deck() -> None:
    events = base_with_main_open() + [
        {"event": "reveal", "player": "Ann", "cards": "2C 3D 5H 9S JC".split()},
        {"event": "reveal", "player": "Bob", "cards": "2C 4D 6H 8S TC".split()},
    ]
    report = run(events)
    assert len(report["errors"]) == 1
    assert "2♣" in report["errors"][0]["text"] and "Ann (line 4)" in report["errors"][0]["text"]


def test_two_decks_from_six_players_allow_each_card_twice_not_thrice() -> None:
    events: list[dict[str, Any]] = [game(SIX), {"event": "round", "dealer": "A"},
                                    {"event": "hand", "kind": "main"}]
    events += [{"event": "reveal", "player": "A", "cards": "2C 3D 5H 9S JC".split()},
               {"event": "reveal", "player": "B", "cards": "2C 3D 5H 9S JC".split()},
               {"event": "reveal", "player": "C", "cards": "2C 4D 6H 8S TC".split()}]
    report = run(events)
    assert len(report["errors"]) == 1 and report["errors"][0]["line"] == 6
    assert "2 decks are in play" in report["errors"][0]["text"]
    five = [game(FOUR + ["Eve"]), {"event": "round", "dealer": "Ann"},
            {"event": "hand", "kind": "main"},
            {"event": "reveal", "player": "Ann", "cards": "2C 3D 5H 9S JC".split()},
            {"event": "reveal", "player": "Bob", "cards": "2C 4D 6H 8S TC".split()}]
    assert len(run(five)["errors"]) == 1


def test_a_rejected_reveal_can_be_made_again_and_state_is_unchanged() -> None:
    good = base_with_main_open() + [{"event": "reveal", "player": p, "cards": cs.split()}
                                    for p, cs in NOTHING4.items()]
    bad = good[:4] + [{"event": "reveal", "player": "Bob", "cards": ["2D", "3C"]}] + good[4:]
    r_good, r_bad = run(good), run(bad)
    assert r_bad["chips"] == r_good["chips"] and r_bad["pots"] == r_good["pots"]
    assert r_bad["announcements"] == [
        {"line": a["line"] + 1 if a["line"] > 4 else a["line"], "text": a["text"]}
        for a in r_good["announcements"]]
    assert len(r_bad["errors"]) == 1


def test_a_correction_fixes_a_bad_reveal() -> None:
    events = base_with_main_open() + [{"event": "reveal", "player": p, "cards": cs.split()}
                                      for p, cs in NOTHING4.items()]
    events[3] = {"event": "reveal", "player": "Ann", "cards": ["2C", "3D"]}
    events.append({"event": "correct", "line": 4,
                   "with": {"event": "reveal", "player": "Ann", "cards": NOTHING4["Ann"].split()}})
    report = run(events)
    assert report["errors"] == []
    assert "Next: overtime 1" in texts(report)


@pytest.mark.parametrize("event, words", [
    ({"event": "reveal", "player": "Zed", "cards": ["2C", "3D", "5H", "9S", "JC"]},
     "not one of the players"),
    ({"event": "reveal", "player": "Ann", "cards": ["2D", "3C", "5S", "9H", "JD"]},
     "already revealed"),
    ({"event": "hand", "kind": "overtime-1"}, "waiting for Bob, Cy, Dee"),
    ({"event": "round", "dealer": "Bob"}, "round 1 is not over"),
    ({"event": "play", "player": "Ann", "card": "2C"}, "no place in Wanagan"),
])
def test_impossible_events(event: dict[str, Any], words: str) -> None:
    events = base_with_main_open() + [
        {"event": "reveal", "player": "Ann", "cards": NOTHING4["Ann"].split()}, event]
    report = run(events)
    assert len(report["errors"]) == 1 and words in report["errors"][0]["text"]


def test_reveal_without_a_hand_and_hand_without_a_round() -> None:
    report = run([game(FOUR), {"event": "hand", "kind": "main"},
                  {"event": "round", "dealer": "Ann"},
                  {"event": "reveal", "player": "Ann", "cards": NOTHING4["Ann"].split()},
                  {"event": "hand", "kind": "bogus"}])
    assert [e["line"] for e in report["errors"]] == [2, 4, 5]


def test_game_needs_three_players_and_valid_house_rules() -> None:
    assert run([game(["Ann", "Bob"])])["game"] is None
    assert run([game(FOUR, house={"nonsense": 1})])["game"] is None
    assert run([game(FOUR, house={"wilds": ["JH"]})])["game"] == "wanagan"


def test_house_rule_wilds_replace_the_default_ones() -> None:
    events = [game(FOUR, house={"wilds": ["JH"]}), {"event": "round", "dealer": "Ann"},
              *hand("main", NOTHING4), *hand("overtime-1", NOTHING4),
              *hand("overtime-2", NOTHING4),
              *hand("overtime-3", dict(NOTHING4, Ann="9C 9D 9H JH 4S", Bob="TC TD TH KH 4D"))]
    report = clean(events)
    assert "Next: overtime 3: wilds J♥" in texts(report)
    # J♥ wild, judged per cup (WA-5): four nines, and a full house nines over fours
    assert report["chips"]["Ann"] == 87 + 8 + 8
    assert report["chips"]["Bob"] == 87 + 4   # K♥ and 10♦ are not wild here: three tens


def test_rules_come_from_the_data_file() -> None:
    rules = load_rules()
    assert [c.name for c in rules.cups] == CUPS
    assert [c.ante for c in rules.cups] == [1, 1, 1, 2, 2, 2, 2, 2]
    assert [c.code for c in rules.wilds] == ["KH", "TD", "7S", "4C"]
    assert rules.decks(5) == 1 and rules.decks(6) == 2


# --- full information ---------------------------------------------------------------------------

def test_with_a_deal_reveals_must_come_from_the_players_cards() -> None:
    hands = {"Ann": "2C 3D 5H 9S JC 4S 7S", "Bob": "2D 3C 5S 9H JD 4H 7H",
             "Cy": "2H 4D 6C 9C KD QS QH", "Dee": "2S 4C 6D 9D KS QC QD"}
    events = base_with_main_open() + [
        {"event": "deal", "hands": {p: cs.split() for p, cs in hands.items()}},
        {"event": "reveal", "player": "Ann", "cards": "2C 3D 5H 9S AC".split()},
        {"event": "reveal", "player": "Ann", "cards": "2C 3D 5H 9S 7S".split()},
    ]
    report = run(events)
    assert len(report["errors"]) == 1 and "not among the cards dealt to Ann" in \
        report["errors"][0]["text"]


def test_announcements_never_tell_a_hand_before_everyone_reveals() -> None:
    hands = {"Ann": "2C 3D 5H 9S JC", "Bob": "AD AC AH AS KD", "Cy": "2H 4D 6C 9C KC",
             "Dee": "2S 4C 6D 9D KS"}
    events = base_with_main_open() + [
        {"event": "deal", "hands": {p: cs.split() for p, cs in hands.items()}}]
    before = run(events)["announcements"]
    events += [{"event": "reveal", "player": p, "cards": hands[p].split()}
               for p in ("Bob", "Ann", "Cy")]
    assert run(events)["announcements"] == before


# --- the command line ----------------------------------------------------------------------------

def test_cli_simulate_and_referee(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.jsonl"
    assert main(["simulate", "--game", "wanagan", "--players", "7", "--seed", "3",
                 "--rounds", "2", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["referee", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "wanagan" and report["finished"] and report["errors"] == []
    assert sum(report["chips"].values()) + sum(report["pots"].values()) == 700


def test_referee_class_is_registered() -> None:
    from companion.referee import find_referee
    assert find_referee("wanagan") is WanaganReferee


def test_house_rules_are_data_with_their_rulings() -> None:
    from companion.house import house_rules

    rules = {r.name: r for r in house_rules("wanagan")}
    assert {"cups", "wilds", "rounds", "two_decks_from", "ace_low"} <= set(rules)
    assert all(r.ruling.startswith("WA-") and r.description for r in rules.values())
    assert rules["wilds"].ruling == "WA-5"
    assert run([game(FOUR, house={"wilds": "KH"})])["game"] is None  # not a list
    assert run([game(FOUR, house={"wilds": ["ZZ"]})])["game"] is None  # not a card
    assert run([game(FOUR, house={"cups": [{"name": "X", "ante": 1, "hands": "?"}]})])[
        "game"] is None
