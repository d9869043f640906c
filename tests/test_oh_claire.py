"""Oh Claire! referee: every ruling OC-1..OC-7 on small hand-made games, errors, and the example.

Scenarios shrink the schedule with the ``schedule`` house rule so that each hand is short; every
expected chip count below was worked out by hand from RULINGS.md.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.cards import cards
from companion.games.oh_claire.referee import OhClaireReferee
from companion.games.oh_claire.rules import HouseRules, house_rules, trick_winner
from companion.referee import Replay, replay_dicts, replay_file

EXAMPLES = Path(__file__).resolve().parent / "golden"
if not EXAMPLES.exists():  # the examples also travel with the repository's tests, if copied
    EXAMPLES = Path(__file__).resolve().parent / "examples"

Ev = dict[str, Any]


def game(players: tuple[str, ...] = ("Ann", "Bob", "Cy"), schedule: list[int] | None = None,
         chips: Any = 24, **house: Any) -> Ev:
    if schedule is not None:
        house["schedule"] = schedule
    ev: Ev = {"event": "game", "game": "oh-claire", "players": list(players), "chips": chips}
    if house:
        ev["house"] = house
    return ev


def hand(dealer: str, trump: str, bids: list[tuple[str, int]],
         plays: list[tuple[str, str]]) -> list[Ev]:
    out: list[Ev] = [{"event": "round", "dealer": dealer}, {"event": "trump", "card": trump}]
    out += [{"event": "bid", "player": p, "tricks": n} for p, n in bids]
    out += [{"event": "play", "player": p, "card": c} for p, c in plays]
    return out


def run(*parts: Ev | list[Ev]) -> Replay:
    events: list[Ev] = []
    for p in parts:
        events.extend(p if isinstance(p, list) else [p])
    return replay_dicts(events)


def chips(r: Replay) -> dict[str, int]:
    return r.report()["chips"]


def pots(r: Replay) -> dict[str, int]:
    return {k: v for k, v in r.report()["pots"].items() if v}


def texts(r: Replay) -> list[str]:
    return [a["text"] for a in r.report()["announcements"]]


def rules(r: Replay) -> list[tuple[str, str]]:
    return [(v["player"], v["rule"]) for v in r.report()["violations"]]


def errors(r: Replay) -> list[str]:
    return [e["text"] for e in r.report()["errors"]]


def total(r: Replay) -> int:
    rep = r.report()
    return sum(rep["chips"].values()) + sum(rep["pots"].values())


# --- the example -------------------------------------------------------------------------------
def test_example_game_matches_its_expected_result() -> None:
    expected = json.loads((EXAMPLES / "oh-claire.expected.json").read_text())
    rep = replay_file(str(EXAMPLES / "oh-claire.jsonl")).report()
    assert rep["errors"] == []
    assert rep["finished"] is True
    assert rep["chips"] == expected["chips"]
    assert sum(rep["pots"].values()) == expected["board_left"]
    got = Counter((v["player"], v["rule"]) for v in rep["violations"])
    assert got == Counter((v["player"], v["rule"]) for v in expected["violations"])


# --- OC-1: players, chips, schedule ---------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 6])
def test_oc1_three_to_five_players(n: int) -> None:
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")[:n]
    r = run(game(names))
    assert r.referee is None
    assert "3 to 5 players" in errors(r)[0]


def test_oc1_defaults_24_chips_and_the_11_hand_schedule() -> None:
    assert house_rules().schedule == (10, 9, 8, 7, 6, 5, 6, 7, 8, 9, 10)
    r = run({"event": "game", "game": "oh-claire", "players": ["Ann", "Bob", "Cy", "Dee"]})
    assert chips(r) == {"Ann": 24, "Bob": 24, "Cy": 24, "Dee": 24}
    seen: list[int] = []
    ref = r.referee
    assert isinstance(ref, OhClaireReferee)
    assert ref.hands_total == 11
    for dealer in ["Ann", "Bob", "Cy", "Dee"] * 3:
        if ref.state.round == 11:
            break
        # Each round event deals the next size of the schedule (a round before any card is
        # played by a new dealer starts the next hand).
        ref.apply(_event({"event": "round", "dealer": dealer}, 2 + len(seen)))
        seen.append(ref.state.cards)
    assert seen == [10, 9, 8, 7, 6, 5, 6, 7, 8, 9, 10]


def _event(data: Ev, line: int) -> Any:
    from companion.events import Event
    return Event(data, line)


def test_house_rule_overrides_and_bad_names() -> None:
    assert house_rules({"chips": 30}).chips == 30
    with pytest.raises(ValueError, match="unknown house rule"):
        house_rules({"chipz": 30})
    with pytest.raises(ValueError):
        house_rules({"schedule": [11]})          # 5 x 11 + 1 > 52
    r = run({"event": "game", "game": "oh-claire", "players": ["Ann", "Bob", "Cy"],
             "house": {"chips": 30}})
    assert chips(r) == {"Ann": 30, "Bob": 30, "Cy": 30}
    assert isinstance(house_rules(), HouseRules)


# --- OC-2 / OC-4: trumps and tricks ---------------------------------------------------------------
def test_oc4_trick_winner() -> None:
    t = list(zip(["a", "b", "c", "d"], cards("5H AH 2S KD"), strict=True))
    assert trick_winner(t, "S") == ("c", cards("2S")[0])       # the only trump wins
    assert trick_winner(t, "C") == ("b", cards("AH")[0])       # highest of the suit led
    assert trick_winner(t, "D") == ("d", cards("KD")[0])
    t2 = list(zip(["a", "b", "c"], cards("5H 3S 7S"), strict=True))
    assert trick_winner(t2, "S") == ("c", cards("7S")[0])      # the highest trump


def three_card_hand(bob_second: str = "5D") -> list[Ev]:
    """Dealer Cy, trump clubs. Bids Ann 1, Bob 1, Cy 0. Bob does not follow hearts in trick 1,
    then leads a heart in trick 3 (which proves the revoke, OC-6)."""
    return hand("Cy", "KC", [("Ann", 1), ("Bob", 1), ("Cy", 0)], [
        ("Ann", "AH"), ("Bob", bob_second), ("Cy", "2H"),      # Ann wins
        ("Ann", "3S"), ("Bob", "KS"), ("Cy", "4S"),            # Bob wins
        ("Bob", "7H"), ("Cy", "9H"), ("Ann", "8H"),            # Cy wins
    ])


def test_cards_of_tricks_taken_before_the_last_are_gathered() -> None:
    """A trick's cards go face down to its winner: the camera cannot see them where they
    were played. The last trick taken may still lie until the next trick's first card; a new
    hand gathers nothing."""
    ev = [game(schedule=[3, 3]), *three_card_hand()]
    for upto, want in [(5, ""), (8, ""), (9, ""), (10, "AH 5D 2H"), (11, "AH 5D 2H"),
                       (12, "AH 5D 2H"), (13, "AH 5D 2H 3S KS 4S"), (15, "AH 5D 2H 3S KS 4S")]:
        r = run(ev[:upto])
        assert r.referee is not None
        assert r.referee.gathered() == {str(c) for c in cards(want)}, upto
    r = run(ev, {"event": "round", "dealer": "Ann"})
    assert r.referee is not None and r.referee.gathered() == frozenset()


def test_oc2_oc4_trump_and_leads_announced() -> None:
    r = run(game(schedule=[3, 3]), three_card_hand())
    said = texts(r)
    assert "Trump: clubs (K♣)" in said
    assert "Ann leads" in said                                  # the dealer's left leads
    assert "Ann wins trick 1 with A♥ (1 taken, bid 1)" in said
    assert "Bob leads" in said                                  # the winner leads next
    assert "Bob to play: follow spades" in said


def test_oc4_trump_wins_over_the_suit_led() -> None:
    r = run(game(schedule=[1, 1]),
            hand("Cy", "KC", [("Ann", 0), ("Bob", 0), ("Cy", 0)],
                 [("Ann", "AH"), ("Bob", "2C"), ("Cy", "KH")]))
    said = texts(r)
    assert "Bob trumps with 2♣ and wins trick 1 (1 taken, bid 0)" in said
    # A one-card hand is announced in the singular, as a person says it.
    assert any(t.endswith("Cy deals 1 card each") for t in said)
    assert any(t.endswith("; 0 for 1 trick") for t in said)


# --- OC-3: bidding --------------------------------------------------------------------------------
def test_oc3_dealer_is_told_the_forbidden_number() -> None:
    r = run(game(schedule=[3, 3]), three_card_hand())
    said = texts(r)
    assert said.index("Ann to bid") < said.index("Bob to bid")
    assert "Cy to bid; Cy may not bid 1" in said                # 1 + 1 + 1 == 3 cards
    assert rules(r) == [("Bob", "revoke")]


def test_oc3_dealer_bid_making_the_total_is_a_violation() -> None:
    r = run(game(schedule=[1, 1]),
            hand("Cy", "KC", [("Ann", 0), ("Bob", 0), ("Cy", 1)], []))
    assert rules(r) == [("Cy", "dealer-bid")]
    v = r.report()["violations"][0]
    assert v["line"] == 6 and v["proof_line"] == 6
    assert "Cy may not bid 1: bids add up to 1" in texts(r)


def test_oc3_no_restriction_when_the_number_is_out_of_range() -> None:
    r = run(game(schedule=[1, 1]), hand("Cy", "KC", [("Ann", 1), ("Bob", 1)], []))
    assert "Cy to bid" in texts(r)
    assert not any("may not bid" in t for t in texts(r))


def test_oc3_out_of_turn_bid_is_flagged_and_counted() -> None:
    r = run(game(schedule=[1, 1]), hand("Cy", "KC", [("Bob", 0), ("Ann", 0)], []))
    assert rules(r) == [("Bob", "out-of-turn")]
    ref = r.referee
    assert isinstance(ref, OhClaireReferee)
    assert ref.state.bids == {"Bob": 0, "Ann": 0}
    assert ref.turn() == "Cy"


def test_dealer_restriction_can_be_turned_off() -> None:
    r = run(game(schedule=[1, 1], dealer_restriction=False),
            hand("Cy", "KC", [("Ann", 0), ("Bob", 0), ("Cy", 1)], []))
    assert rules(r) == []


# --- OC-4: turns ----------------------------------------------------------------------------------
def test_out_of_turn_play_is_flagged_and_its_card_leads() -> None:
    r = run(game(schedule=[1, 1]),
            hand("Cy", "KC", [("Ann", 0), ("Bob", 1), ("Cy", 1)],
                 [("Bob", "5D"), ("Ann", "AD"), ("Cy", "KD")]))
    assert rules(r) == [("Bob", "out-of-turn")]
    assert "Ann wins trick 1 with A♦ (1 taken, bid 0)" in texts(r)


# --- OC-5: scoring --------------------------------------------------------------------------------
def test_oc5_cups_and_payments() -> None:
    # Ann bids 1 and takes 2 (misses); Bob and Cy bid 0 and take 0 (make it).
    r = run(game(schedule=[2, 2]),
            hand("Cy", "KC", [("Ann", 1), ("Bob", 0), ("Cy", 0)],
                 [("Ann", "AH"), ("Bob", "3H"), ("Cy", "4H"),
                  ("Ann", "KS"), ("Bob", "QS"), ("Cy", "JS")]))
    assert chips(r) == {"Ann": 19, "Bob": 25, "Cy": 25}
    assert pots(r) == {"Jackpot": 1, "Bob:0": 1, "Cy:0": 1}
    said = texts(r)
    assert "Ann misses and pays 2 to Bob, 2 to Cy and 1 to the Jackpot" in said
    assert "Bob makes 0 and covers the 0" in said
    assert "Numbers covered: Ann none; Bob 0; Cy 0" in said
    ref = r.referee
    assert isinstance(ref, OhClaireReferee)
    assert ref.number_cups()[0] == {"Bob": 1, "Cy": 1}
    assert ref.number_cups()[1] == {} and ref.covered("Bob") == [0]
    assert not r.report()["finished"]


def test_oc5_short_payer_pays_in_seat_order_from_the_dealers_left_and_is_eliminated() -> None:
    # Dealer Bob: seat order from his left is Cy, Ann, Bob. Ann (3 chips) misses and owes
    # 2 + 2 + 1; she pays Cy 2 first, then Bob 1, nothing to the Jackpot.
    r = run(game(schedule=[2, 2], chips={"Ann": 3}),
            hand("Bob", "KC", [("Cy", 0), ("Ann", 0), ("Bob", 1)],
                 [("Cy", "3H"), ("Ann", "AH"), ("Bob", "4H"),
                  ("Ann", "5S"), ("Bob", "KS"), ("Cy", "6S")]),
            {"event": "round", "dealer": "Cy"}, {"event": "trump", "card": "2D"},
            {"event": "bid", "player": "Ann", "tricks": 0})
    assert chips(r) == {"Ann": 0, "Bob": 24, "Cy": 25}
    assert pots(r) == {"Bob:1": 1, "Cy:0": 1}
    said = texts(r)
    assert "Ann misses and pays 2 to Cy and 1 to Bob: out of chips" in said
    assert "Ann has no chips left and is eliminated" in said
    assert "Next hand: Cy deals 2 cards" in said
    assert any("eliminated" in e for e in errors(r))           # Ann may not bid any more
    ref = r.referee
    assert isinstance(ref, OhClaireReferee)
    assert ref.state.active == ["Bob", "Cy"] and ref.turn() == "Bob"


def test_oc5_exact_bid_above_seven_covers_no_cup() -> None:
    ann = cards("2C 3C 4C 5C 6C 7C 8C 9C")
    bob = cards("2H 3H 4H 5H 6H 7H 8H 9H")
    cy = cards("2S 3S 4S 5S 6S 7S 8S 9S")
    plays = [(p, c.code) for trio in zip(ann, bob, cy, strict=True)
             for p, c in zip(("Ann", "Bob", "Cy"), trio, strict=True)]
    r = run(game(schedule=[8]), hand("Cy", "KC", [("Ann", 8), ("Bob", 0), ("Cy", 1)], plays))
    # Ann makes 8 (no cup, costs nothing); Bob makes 0; Cy pays 2 + 2 + 1. Then OC-7:
    # Bob (1 number) takes the Jackpot's 1 chip and his cup chip back.
    assert rules(r) == []
    assert chips(r) == {"Ann": 26, "Bob": 27, "Cy": 19}
    assert pots(r) == {}
    assert "Ann makes 8" in texts(r)


# --- OC-6: revoke ---------------------------------------------------------------------------------
def test_oc6_revoke_proven_later_counts_as_a_miss() -> None:
    r = run(game(schedule=[3, 3]), three_card_hand())
    assert rules(r) == [("Bob", "revoke")]
    v = r.report()["violations"][0]
    assert (v["line"], v["proof_line"]) == (8, 13)
    # Bob took 1 as bid but revoked: he pays like Cy (who took 1 for 0).
    assert chips(r) == {"Ann": 27, "Bob": 21, "Cy": 21}
    assert pots(r) == {"Jackpot": 2, "Ann:1": 1}
    assert "Bob took 1 but revoked: counts as a miss" in texts(r)


def test_oc6_house_rule_off_keeps_the_made_bid() -> None:
    r = run(game(schedule=[3, 3], revoke_misses_bid=False), three_card_hand())
    assert rules(r) == [("Bob", "revoke")]
    assert chips(r) == {"Ann": 25, "Bob": 25, "Cy": 19}


def test_oc6_no_revoke_when_the_suit_never_reappears() -> None:
    # Bob plays a diamond on a heart lead and never plays a heart later: nothing is proven.
    r = run(game(schedule=[3, 3]), three_card_hand()[:-3] + [
        {"event": "play", "player": "Bob", "card": "7D"},
        {"event": "play", "player": "Cy", "card": "9D"},
        {"event": "play", "player": "Ann", "card": "8D"}])
    assert rules(r) == []
    assert chips(r) == {"Ann": 25, "Bob": 25, "Cy": 19}       # Ann 1/1, Bob 1/1, Cy 1/0


def test_oc6_one_card_proves_two_revokes() -> None:
    r = run(game(schedule=[3, 3]),
            hand("Cy", "KC", [("Ann", 2), ("Bob", 0), ("Cy", 0)], [
                ("Ann", "AH"), ("Bob", "5D"), ("Cy", "2H"),
                ("Ann", "KH"), ("Bob", "6D"), ("Cy", "3H"),
                ("Ann", "4S"), ("Bob", "7H"), ("Cy", "5S")]))
    assert rules(r) == [("Bob", "revoke"), ("Bob", "revoke")]
    assert [v["proof_line"] for v in r.report()["violations"]] == [14, 14]
    # Bob took 0 for 0 but revoked; Cy took 1 for 0 (5S beats 4S); Ann took 2 for 2.
    assert chips(r) == {"Ann": 27, "Bob": 21, "Cy": 21}


# --- OC-6a / OC-7: the end ------------------------------------------------------------------------
def one_card(dealer: str, bids: list[tuple[str, int]], plays: list[tuple[str, str]]) -> list[Ev]:
    return hand(dealer, "KC", bids, plays)


def test_oc7_jackpot_tie_on_numbers_goes_to_most_cup_chips() -> None:
    r = run(game(schedule=[1, 1]),
            one_card("Cy", [("Ann", 1), ("Bob", 0), ("Cy", 1)],
                     [("Ann", "AH"), ("Bob", "2H"), ("Cy", "3H")]),
            one_card("Ann", [("Bob", 1), ("Cy", 1), ("Ann", 1)],
                     [("Bob", "2S"), ("Cy", "3S"), ("Ann", "AS")]))
    # After hand 2: Ann 28 (cup 1 twice), Bob 22 (cup 0), Cy 16, Jackpot 3. Ann and Bob both
    # cover one number; Ann has 2 chips in cups, Bob 1: Ann takes the Jackpot (OC-7).
    assert r.report()["finished"] is True
    assert chips(r) == {"Ann": 33, "Bob": 23, "Cy": 16}
    assert pots(r) == {}
    assert any(t.startswith("Ann wins the Jackpot: 3 chips") for t in texts(r))
    assert texts(r)[-1] == "Ann wins the game"


def test_oc7_most_numbers_wins_and_cup_chips_go_home() -> None:
    r = run(game(schedule=[1, 1]),
            one_card("Cy", [("Ann", 1), ("Bob", 0), ("Cy", 1)],
                     [("Ann", "AH"), ("Bob", "2H"), ("Cy", "3H")]),
            one_card("Ann", [("Bob", 1), ("Cy", 0), ("Ann", 1)],
                     [("Bob", "AS"), ("Cy", "2S"), ("Ann", "3S")]))
    assert chips(r) == {"Ann": 21, "Bob": 30, "Cy": 21}
    assert pots(r) == {}


def test_oc7_full_tie_splits_and_leaves_the_remainder() -> None:
    four = ("Ann", "Bob", "Cy", "Dee")
    r = run(game(four, schedule=[1]),
            one_card("Dee", [("Ann", 0), ("Bob", 1), ("Cy", 1), ("Dee", 1)],
                     [("Ann", "2H"), ("Bob", "3H"), ("Cy", "4H"), ("Dee", "AH")]))
    # Ann makes 0, Dee makes 1; Bob and Cy each pay 2 to Ann, 2 to Dee, 1 to the Jackpot.
    # Ann and Dee tie (one number, one cup chip each): the Jackpot's 2 chips split 1 and 1.
    assert chips(r) == {"Ann": 29, "Bob": 19, "Cy": 19, "Dee": 29}
    assert pots(r) == {}
    r3 = run(game(schedule=[1]),
             one_card("Cy", [("Ann", 0), ("Bob", 0), ("Cy", 0)],
                      [("Ann", "2H"), ("Bob", "3H"), ("Cy", "AH")]))
    # Ann and Bob make 0, Cy pays 2 + 2 + 1: the Jackpot's 1 chip cannot split: it stays.
    assert chips(r3) == {"Ann": 26, "Bob": 26, "Cy": 19}
    assert pots(r3) == {"Jackpot": 1}
    assert any("split the Jackpot" in t and "1 left in the Jackpot" in t for t in texts(r3))


def four_hands() -> list[Ev]:
    """Ann starts with 1 chip, covers 1 and 0, then runs out of chips in the last hand."""
    return [
        *one_card("Cy", [("Ann", 1), ("Bob", 1), ("Cy", 1)],
                  [("Ann", "AH"), ("Bob", "2H"), ("Cy", "3H")]),
        *one_card("Ann", [("Bob", 1), ("Cy", 1), ("Ann", 0)],
                  [("Bob", "2S"), ("Cy", "AS"), ("Ann", "3S")]),
        *one_card("Bob", [("Cy", 1), ("Ann", 1), ("Bob", 1)],
                  [("Cy", "2D"), ("Ann", "3D"), ("Bob", "AD")]),
        *one_card("Cy", [("Ann", 0), ("Bob", 0), ("Cy", 0)],
                  [("Ann", "AC"), ("Bob", "2C"), ("Cy", "3C")]),
    ]


def test_oc7_eliminated_player_cannot_win_the_jackpot_by_default() -> None:
    r = run(game(schedule=[1, 1, 1, 1], chips={"Ann": 1}), four_hands())
    # Before OC-7: Ann 0 (eliminated), Bob 20, Cy 18, Jackpot 5; everyone covers 0 and 1.
    # Bob and Cy split 5 (2 each, 1 stays); every cup chip goes home, Ann's too.
    assert "Ann has no chips left and is eliminated" in texts(r)
    assert chips(r) == {"Ann": 2, "Bob": 24, "Cy": 22}
    assert pots(r) == {"Jackpot": 1}


def test_oc7_house_rule_lets_an_eliminated_player_share() -> None:
    r = run(game(schedule=[1, 1, 1, 1], chips={"Ann": 1}, eliminated_win_jackpot=True),
            four_hands())
    assert chips(r) == {"Ann": 3, "Bob": 23, "Cy": 21}
    assert pots(r) == {"Jackpot": 2}


def test_oc6a_game_ends_with_the_last_trick() -> None:
    r = run(game(schedule=[1]),
            one_card("Cy", [("Ann", 0), ("Bob", 0), ("Cy", 0)],
                     [("Ann", "2H"), ("Bob", "3H"), ("Cy", "AH")]),
            {"event": "round", "dealer": "Ann"})
    assert r.report()["finished"] is True
    assert errors(r) == ["line 10: the game is over; no more hands"]


# --- errors: impossible events never change the state ---------------------------------------------
def base_hand() -> list[Ev]:
    return [game(schedule=[2, 2]), *hand("Cy", "KC", [("Ann", 1), ("Bob", 0), ("Cy", 0)], [])]


@pytest.mark.parametrize("bad, reason", [
    ({"event": "play", "player": "Ann", "card": "KC"}, "turned-up trump"),
    ({"event": "play", "player": "Zed", "card": "2H"}, "not playing"),
    ({"event": "play", "player": "Ann", "card": "ZZ"}, "malformed"),
    ({"event": "play", "player": "Ann"}, "malformed"),
    ({"event": "play", "player": "Ann", "cards": ["2H", "3H"]}, "one card"),
    ({"event": "bid", "player": "Ann", "tricks": 1}, "bidding is over"),
    ({"event": "trump", "card": "2D"}, "trump card"),
    ({"event": "dummy", "action": "keep"}, "not an Oh Claire! event"),
    ({"event": "deal", "hands": {}}, "deal"),
])
def test_impossible_events_are_errors(bad: Ev, reason: str) -> None:
    r = replay_dicts([*base_hand(), bad])
    assert len(errors(r)) == 1 and reason in errors(r)[0]
    ref = r.referee
    assert isinstance(ref, OhClaireReferee)
    assert ref.state.phase == "play" and ref.state.trick == []


def test_card_played_twice_and_player_twice_in_a_trick_are_errors() -> None:
    plays = [{"event": "play", "player": p, "card": c}
             for p, c in [("Ann", "AH"), ("Bob", "AH"), ("Ann", "3H"), ("Bob", "4H")]]
    r = replay_dicts([*base_hand(), *plays])
    assert errors(r) == ["line 8: A♥ was already played this hand (line 7)",
                         "line 9: Ann has already played to this trick"]
    assert r.referee is not None and r.referee.turn() == "Cy"


def test_more_cards_than_dealt_is_an_error() -> None:
    plays = hand("Cy", "KC", [("Ann", 1), ("Bob", 0), ("Cy", 0)],
                 [("Ann", "AH"), ("Bob", "3H"), ("Cy", "4H"),
                  ("Ann", "KS"), ("Bob", "QS"), ("Cy", "JS"), ("Ann", "2D")])
    r = run(game(schedule=[2, 2]), plays)
    assert errors(r) == ["line 13: hand 1 is over: all its tricks have been played"]
    assert chips(r) == {"Ann": 19, "Bob": 25, "Cy": 25}


def test_deal_event_checks_cards_and_stays_secret() -> None:
    deal = {"event": "deal", "hands": {"Ann": ["AH", "KS"], "Bob": ["3H", "QS"],
                                       "Cy": ["4H", "JS"]}}
    events = [game(schedule=[2, 2]), {"event": "round", "dealer": "Cy"}, deal,
              {"event": "trump", "card": "KC"},
              *[{"event": "bid", "player": p, "tricks": n}
                for p, n in [("Ann", 1), ("Bob", 0), ("Cy", 0)]],
              {"event": "play", "player": "Ann", "card": "2D"},
              {"event": "play", "player": "Ann", "card": "AH"}]
    r = replay_dicts(events)
    assert errors(r) == ["line 8: Ann was not dealt 2♦"]
    # Nothing from the deal is ever said: the same game without it announces the same.
    hidden = replay_dicts([e for e in events if e["event"] != "deal" and e.get("card") != "2D"])
    assert texts(r) == texts(hidden)
    bad = replay_dicts([game(schedule=[2, 2]), {"event": "round", "dealer": "Cy"}, deal,
                        {"event": "trump", "card": "AH"}])
    assert "dealt to a player" in errors(bad)[0]


def test_plays_before_bidding_and_events_before_a_round() -> None:
    r = replay_dicts([game(schedule=[2, 2]), {"event": "bid", "player": "Ann", "tricks": 0},
                      {"event": "round", "dealer": "Cy"},
                      {"event": "play", "player": "Ann", "card": "2H"},
                      {"event": "trump", "card": "KC"},
                      {"event": "play", "player": "Ann", "card": "2H"},
                      {"event": "bid", "player": "Ann", "tricks": 3},
                      {"event": "bid", "player": "Ann", "tricks": True}])
    errs = errors(r)
    assert "a round event comes first" in errs[0]
    assert "no trump card" in errs[1]
    assert "bidding is not finished: Ann, Bob and Cy to bid" in errs[2]
    assert "only 2 tricks" in errs[3]
    assert "whole number" in errs[4]


def test_unfinished_hand_is_not_scored_and_the_game_goes_on() -> None:
    r = run(game(schedule=[2, 2]),
            hand("Cy", "KC", [("Ann", 1), ("Bob", 0), ("Cy", 0)],
                 [("Ann", "AH"), ("Bob", "3H")]),
            {"event": "round", "dealer": "Ann"})
    assert "Hand 1 was not finished (0 of 2 tricks): it is not scored" in texts(r)
    assert "Hand 2 of 2: Ann deals 2 cards each" in texts(r)
    assert chips(r) == {"Ann": 24, "Bob": 24, "Cy": 24}


def test_same_dealer_before_any_card_is_a_redeal() -> None:
    r = run(game(schedule=[2, 2]), {"event": "round", "dealer": "Cy"},
            {"event": "trump", "card": "KC"}, {"event": "round", "dealer": "Cy"})
    assert texts(r)[-1] == "Redeal of hand 1 of 2: Cy deals 2 cards each"
    assert r.referee is not None and r.referee.state.round == 1


def test_round_without_dealer_passes_the_deal_left() -> None:
    r = run(game(schedule=[2, 2]), {"event": "round"})
    assert texts(r) == ["Hand 1 of 2: Ann deals 2 cards each"]


def test_chips_per_player_object_and_bad_setups() -> None:
    r = run(game(chips={"Ann": 10, "Bob": 12}))
    assert chips(r) == {"Ann": 10, "Bob": 12, "Cy": 24}
    for bad in [game(chips={"Zed": 3}), game(chips="many"), game(chips=-1),
                game(players=("Ann", "Ann", "Bob")), {**game(), "rounds": 12},
                {**game(), "house": ["chips"]},
                {"event": "game", "game": "oh-claire", "players": "Ann,Bob,Cy"}]:
        res = replay_dicts([bad])
        assert res.referee is None, bad
        assert "cannot start the game" in errors(res)[0]
