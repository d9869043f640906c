"""Michigan Rum referee: turns, the discard-pile rule, melds, lay-offs, going out, the game to 500.

Logs are written by hand (hidden mode unless a test deals); every expected score is worked out
from RULINGS.md RU-1..RU-4 in the comments.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.cards import Card
from companion.games.rum.referee import RumReferee, RumState
from companion.referee import Replay, replay_dicts

PLAYERS = ["Ann", "Bob", "Cy"]


def game(*lines: dict[str, Any], players: list[str] | None = None,
         house: dict[str, Any] | None = None, dealer: str = "Ann",
         upcard: str | None = "7H") -> list[dict[str, Any]]:
    """game (line 1), round (2), upcard (3), then ``lines`` from line 4."""
    head: dict[str, Any] = {"event": "game", "game": "michigan-rum",
                            "players": players or PLAYERS}
    if house:
        head["house"] = house
    out = [head, {"event": "round", "dealer": dealer}]
    if upcard:
        out.append({"event": "upcard", "card": upcard})
    return out + list(lines)


def draw(p: str, card: str | None = None) -> dict[str, Any]:
    if card is None:
        return {"event": "draw", "player": p, "from": "stock"}
    return {"event": "draw", "player": p, "from": "discard", "card": card}


def meld(p: str, text: str) -> dict[str, Any]:
    return {"event": "meld", "player": p, "cards": text.split()}


def layoff(p: str, card: str, on: int | str | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"event": "layoff", "player": p, "card": card}
    if on is not None:
        ev["meld"] = on
    return ev


def discard(p: str, card: str) -> dict[str, Any]:
    return {"event": "discard", "player": p, "card": card}


def reveal(p: str, text: str) -> dict[str, Any]:
    return {"event": "reveal", "player": p, "cards": text.split()}


def run(events: list[dict[str, Any]]) -> tuple[dict[str, Any], Replay]:
    result = replay_dicts(events)
    report = result.report()
    json.dumps(report)  # the report is plain JSON
    return report, result


def state(result: Replay) -> RumState:
    assert isinstance(result.referee, RumReferee)
    return result.referee.state


def rules_of(report: dict[str, Any]) -> list[tuple[int, str, str, int]]:
    return [(v["line"], v["player"], v["rule"], v["proof_line"]) for v in report["violations"]]


def error_lines(report: dict[str, Any]) -> list[int]:
    return [e["line"] for e in report["errors"]]


def texts(report: dict[str, Any]) -> list[str]:
    return [a["text"] for a in report["announcements"]]


# --- starting a game (RU-1) ---------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 7])
def test_two_to_six_players(n: int) -> None:
    report, result = run(game(players=[f"P{i}" for i in range(n)]))
    assert result.referee is None
    assert "2 to 6 players" in report["errors"][0]["text"]


def test_report_has_points_as_chips_and_no_pots() -> None:
    report, _ = run(game(draw("Bob"), meld("Bob", "5C 5D 5S")))
    assert report["game"] == "michigan-rum"
    assert report["chips"] == {"Ann": 0, "Bob": 15, "Cy": 0}
    assert report["pots"] == {}


def test_ru1_the_deal_gives_13_cards_with_two_players_and_7_with_more() -> None:
    hands2 = {"Ann": "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC".split(),
              "Bob": "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD".split()}
    report, _ = run(game({"event": "deal", "hands": hands2}, {"event": "upcard", "card": "2H"},
                         players=["Ann", "Bob"], upcard=None))
    assert report["errors"] == []
    hands3 = {p: hands2["Ann"][:7] if p == "Ann" else [] for p in PLAYERS}
    report, _ = run(game({"event": "deal", "hands": hands3}, upcard=None))
    assert error_lines(report) == [3]
    seven = {"Ann": "2C 3C 4C 5C 6C 7C 8C".split(), "Bob": "2D 3D 4D 5D 6D 7D 8D".split(),
             "Cy": "2H 3H 4H 5H 6H 7H 8H".split()}
    report, _ = run(game({"event": "deal", "hands": seven}, {"event": "upcard", "card": "9S"},
                         upcard=None))
    assert report["errors"] == []


@pytest.mark.parametrize("players,stock", [(["Ann", "Bob"], 25), (PLAYERS, 30),
                                           (["A", "B", "C", "D", "E", "F"], 9)])
def test_ru1_stock_size_follows_the_deal_and_its_end_ends_the_round(players: list[str],
                                                                     stock: int) -> None:
    # 52 cards - hands (13 each for two, 7 each for more) - the up card = the stock. Every
    # player draws from the stock and throws back a card nobody saw before; with the default
    # house rule the round ends with nobody out when a turn ends on an empty stock.
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA" if r + s != "7H"]
    events: list[dict[str, Any]] = []
    for k in range(stock):
        p = players[(k + 1) % len(players)]
        events += [draw(p), discard(p, deck[k])]
    report, result = run(game(*events, players=players, dealer=players[0]))
    assert report["errors"] == []
    assert state(result).phase == "idle"
    assert "The stock is empty: the round ends, nobody went out" in texts(report)
    # One draw fewer and the round is still in play.
    report, result = run(game(*events[:-2], players=players, dealer=players[0]))
    assert state(result).phase == "draw" and state(result).stock == 1


def test_ru1_the_up_card_starts_the_discard_pile() -> None:
    report, _ = run(game(draw("Bob", "7H"), meld("Bob", "7C 7D 7H"), discard("Bob", "2S")))
    assert report["errors"] == [] and report["violations"] == []
    assert report["chips"]["Bob"] == 21


# --- turns (RU-2) -------------------------------------------------------------------------------
def test_the_player_left_of_the_dealer_draws_first_and_turns_go_left() -> None:
    report, result = run(game(draw("Bob"), discard("Bob", "2S"), draw("Cy"),
                              discard("Cy", "3S"), draw("Ann"), discard("Ann", "4S"),
                              dealer="Ann"))
    assert report["violations"] == [] and report["errors"] == []
    assert result.referee is not None and result.referee.turn() == "Bob"
    assert "Round 1: Ann deals 7 cards each; Bob plays first" in texts(report)
    assert "Bob discards 2♠. Next: Cy" in texts(report)


def test_out_of_turn_is_flagged_and_ignored() -> None:
    report, result = run(game(draw("Cy"), draw("Bob"), discard("Bob", "2S")))
    assert rules_of(report) == [(4, "Cy", "out-of-turn", 4)]
    assert state(result).hand_size["Cy"] == 7
    assert result.referee is not None and result.referee.turn() == "Cy"


def test_ru2_draw_first_then_meld_then_discard() -> None:
    report, _ = run(game(meld("Bob", "5C 5D 5S"), discard("Bob", "2S"), draw("Bob"),
                         draw("Bob")))
    assert error_lines(report) == [4, 5, 7]
    assert "must draw" in report["errors"][0]["text"]
    assert "already drawn" in report["errors"][2]["text"]


def test_ru2_taking_a_deep_card_takes_every_card_above_it() -> None:
    events = game(draw("Bob"), discard("Bob", "2S"), draw("Cy"), discard("Cy", "KD"),
                  draw("Ann", "7H"), meld("Ann", "7C 7D 7H"),
                  # Ann now holds 2S and KD too (taken with 7H): she may meld with them...
                  meld("Ann", "QD JD KD"),
                  discard("Ann", "2S"))
    report, result = run(events)
    assert report["errors"] == [] and report["violations"] == []
    assert report["chips"]["Ann"] == 21 + 30
    st = state(result)
    assert [c.code for c in st.pile] == ["2S"]
    # 7 dealt + 3 taken - 6 melded - 1 discarded
    assert st.hand_size["Ann"] == 3
    assert "Ann takes 7♥ and the 2 cards above it from the discard pile; 7♥ must be used " \
           "this turn" in texts(report)


def test_ru2_cards_taken_from_the_pile_are_gone_from_it() -> None:
    events = game(draw("Bob"), discard("Bob", "2S"), draw("Cy", "7H"), meld("Cy", "7C 7D 7H"),
                  discard("Cy", "3S"), draw("Ann", "2S"))
    report, _ = run(events)
    assert error_lines(report) == [9]
    assert "not in the discard pile" in report["errors"][0]["text"]


def test_ru2_the_chosen_card_must_be_used_that_turn() -> None:
    # Bob takes the up card 7H, melds something else and discards: line 4 broken, proven at 6.
    report, _ = run(game(draw("Bob", "7H"), meld("Bob", "5C 5D 5S"), discard("Bob", "2S")))
    assert rules_of(report) == [(4, "Bob", "discard-draw-unused", 6)]
    # ...also when he throws the chosen card itself back.
    report, _ = run(game(draw("Bob", "7H"), discard("Bob", "7H")))
    assert rules_of(report) == [(4, "Bob", "discard-draw-unused", 5)]


def test_ru2_a_lay_off_uses_the_chosen_card() -> None:
    events = game(draw("Bob"), meld("Bob", "8H 9H TH"), discard("Bob", "2S"),
                  draw("Cy", "2S"), meld("Cy", "2C 2D 2S"), discard("Cy", "JH"),
                  draw("Ann", "JH"), layoff("Ann", "JH", 1), discard("Ann", "3C"))
    report, _ = run(events)
    assert report["violations"] == [] and report["errors"] == []
    assert report["chips"] == {"Bob": 27, "Cy": 6, "Ann": 10}


def test_ru2_a_rejected_meld_does_not_use_the_chosen_card() -> None:
    report, _ = run(game(draw("Bob", "7H"), meld("Bob", "7H 8S 9S"), discard("Bob", "2S")))
    assert rules_of(report) == [(5, "Bob", "invalid-meld", 5),
                                (4, "Bob", "discard-draw-unused", 6)]


def test_ru2_the_rule_is_about_the_chosen_card_not_the_ones_above_it() -> None:
    events = game(draw("Bob"), discard("Bob", "2S"), draw("Cy", "7H"),
                  meld("Cy", "7C 7D 7H"), discard("Cy", "2S"))
    report, _ = run(events)
    assert report["violations"] == [] and report["errors"] == []


def test_ru2_the_rule_starts_afresh_each_turn() -> None:
    events = game(draw("Bob", "7H"), meld("Bob", "7C 7D 7H"), discard("Bob", "2S"),
                  draw("Cy"), discard("Cy", "3S"))
    report, _ = run(events)
    assert report["violations"] == []


# --- melds and lay-offs (RU-3) ------------------------------------------------------------------
def test_ru3_an_invalid_meld_is_flagged_not_scored_and_the_cards_stay_in_hand() -> None:
    events = game(draw("Bob"), meld("Bob", "KH AH 2H"), meld("Bob", "AH 2H 3H"))
    report, result = run(events)
    assert rules_of(report) == [(5, "Bob", "invalid-meld", 5)]
    assert "K♥-A♥-2♥ goes round the corner" in report["violations"][0]["text"]
    assert report["chips"]["Bob"] == 6  # only A-2-3: 1 + 2 + 3
    st = state(result)
    assert st.hand_size["Bob"] == 8 - 3
    assert [c.code for c in st.known["Bob"]] == ["KH"]  # shown, so known to be in his hand
    assert len(st.melds) == 1
    assert any(t.startswith("Not a meld: K♥-A♥-2♥ goes round the corner") for t in texts(report))


def test_ru3_a_player_cannot_show_more_cards_than_he_holds() -> None:
    # Bob holds 8 after drawing; a meld of 9 cards cannot come from his hand.
    report, _ = run(game(draw("Bob"), meld("Bob", "2S 3S 4S 5S 6S 7S 8S 9S TS")))
    assert error_lines(report) == [5]


def test_ru3_lay_offs_go_on_any_meld_and_score_for_who_lays_them_off() -> None:
    events = game(draw("Bob"), meld("Bob", "5D 6D 7D"), discard("Bob", "2S"),
                  draw("Cy"), layoff("Cy", "8D", 1), layoff("Cy", "4D", "6D"),
                  layoff("Cy", "3D"), discard("Cy", "3S"))
    report, result = run(events)
    assert report["errors"] == [] and report["violations"] == []
    assert report["chips"] == {"Ann": 0, "Bob": 18, "Cy": 8 + 4 + 3}
    assert [c.code for c in state(result).melds[0].cards] == ["3D", "4D", "5D", "6D", "7D", "8D"]
    assert "Cy lays off 8♦ on meld 1: 8 points, Cy has 8" in texts(report)


def test_ru3_a_lay_off_that_does_not_fit_is_flagged_and_not_scored() -> None:
    events = game(draw("Bob"), meld("Bob", "QH KH AH"), discard("Bob", "2S"),
                  draw("Cy"), layoff("Cy", "2H", 1), layoff("Cy", "9C", 1),
                  layoff("Cy", "9D"), discard("Cy", "2H"))
    report, result = run(events)
    assert rules_of(report) == [(8, "Cy", "invalid-meld", 8), (9, "Cy", "invalid-meld", 9),
                                (10, "Cy", "invalid-meld", 10)]
    assert "round the corner" in report["violations"][0]["text"]
    assert "fits no meld" in report["violations"][2]["text"]
    assert report["chips"]["Cy"] == 0
    assert state(result).hand_size["Cy"] == 7


def test_ru3_a_lay_off_names_a_meld_that_exists() -> None:
    events = game(draw("Bob"), meld("Bob", "5D 6D 7D"), layoff("Bob", "8D", 2),
                  layoff("Bob", "8D", "9C"))
    report, _ = run(events)
    assert error_lines(report) == [6, 7]


def test_ru4_aces_on_runs_score_by_the_end_they_join() -> None:
    events = game(draw("Bob"), meld("Bob", "2D 3D 4D"), meld("Bob", "JS QS KS"),
                  layoff("Bob", "AD", 1), layoff("Bob", "AS", 2), discard("Bob", "9C"))
    report, _ = run(events)
    # 2+3+4 = 9, J+Q+K = 30, low ace 1, high ace 15.
    assert report["chips"]["Bob"] == 9 + 30 + 1 + 15
    assert "Bob lays off A♦ on meld 1: 1 point, Bob has 40" in texts(report)


def test_cards_on_the_table_cannot_be_played_again() -> None:
    events = game(draw("Bob"), meld("Bob", "5D 6D 7D"), discard("Bob", "2S"),
                  draw("Cy"), meld("Cy", "5C 5H 5D"))
    report, _ = run(events)
    assert error_lines(report) == [8]
    assert "on the table" in report["errors"][0]["text"]


# --- going out and scoring (RU-4) ---------------------------------------------------------------
def out_round() -> list[dict[str, Any]]:
    # Bob: 7 dealt + 1 drawn = 8 = a set of four (5s: 20) + a run (9-10-J hearts: 29) + 1 discard.
    return game(draw("Bob"), meld("Bob", "5C 5D 5H 5S"), meld("Bob", "9H TH JH"),
                discard("Bob", "2C"),
                reveal("Cy", "AS KD 3C 4D 8S 9C 2D"),     # 15+10+3+4+8+9+2 = 51
                reveal("Ann", "AC 2S 3S 4S QC JC TC"))    # 15+2+3+4+10+10+10 = 54


def test_ru4_going_out_scores_every_card_left_in_the_other_hands() -> None:
    report, result = run(out_round())
    assert report["errors"] == [] and report["violations"] == []
    assert report["chips"] == {"Ann": 0, "Bob": 20 + 29 + 51 + 54, "Cy": 0}
    assert state(result).phase == "idle" and not report["finished"]
    said = texts(report)
    assert "Bob goes out! Cy, Ann: show your cards" in said
    assert "Bob scores 105 for going out, has 154" in said
    assert "Scores: Bob 154, Ann 0, Cy 0" in said


def test_ru4_hands_are_not_subtracted_from_their_holders() -> None:
    events = game(draw("Bob"), meld("Bob", "5C 5D 5H"), discard("Bob", "2S"),     # Bob 15
                  draw("Cy"), meld("Cy", "8C 8D 8S"), discard("Cy", "9S"),        # Cy 24
                  draw("Ann"), discard("Ann", "3S"),
                  draw("Bob"), meld("Bob", "9H TH JH QH"), discard("Bob", "AS"),  # Bob +39, out
                  reveal("Cy", "KD KS 2D 3D"),                    # 10+10+2+3 = 25
                  reveal("Ann", "4C 6C 7C 4D 6D 7D 4H"))          # 4+6+7+4+6+7+4 = 38
    report, _ = run(events)
    assert report["errors"] == [] and report["violations"] == []
    assert report["chips"] == {"Ann": 0, "Bob": 15 + 39 + 25 + 38, "Cy": 24}


def test_going_out_by_melding_every_card_needs_no_discard() -> None:
    events = game(draw("Bob"), meld("Bob", "5C 5D 5H 5S"), meld("Bob", "9H TH JH QH"),
                  reveal("Cy", "2C 3C 4C 6D 7D 8D 9D"), reveal("Ann", "2D 3D 4D 6C 7C 8C 9C"))
    report, _ = run(events)
    assert report["errors"] == []
    # 20 + 39 for the melds, then 39 + 39 from the hands.
    assert report["chips"]["Bob"] == 20 + 39 + 39 + 39


def test_reveals_must_match_what_the_table_knows() -> None:
    events = out_round()
    events[-1] = reveal("Ann", "AC 2S 3S")                      # Ann holds 7 cards
    report, _ = run(events)
    assert error_lines(report) == [9]
    events[-1] = reveal("Ann", "5C 2S 3S 4S QC JC TC")          # 5C is on the table
    report, _ = run(events)
    assert error_lines(report) == [9]
    events[-1] = reveal("Bob", "AC")                            # Bob went out
    report, _ = run(events)
    assert error_lines(report) == [9]


def test_a_reveal_must_show_the_cards_known_from_the_discard_pile() -> None:
    # Cy takes the up card 7H and Bob's 2S above it: everyone saw 2S go into Cy's hand.
    events = game(draw("Bob"), discard("Bob", "2S"), draw("Cy", "7H"), meld("Cy", "7C 7D 7H"),
                  discard("Cy", "9S"), draw("Ann"), meld("Ann", "5C 5D 5H 5S"),
                  meld("Ann", "9H TH JH QH"),
                  reveal("Bob", "2C 3C 4C 6D 8D 9D TD"),
                  reveal("Cy", "3S 4S 6S 8S KS"))               # 2S missing: Cy holds it
    report, _ = run(events)
    assert error_lines(report) == [13]
    assert "2♠" in report["errors"][0]["text"]


def test_play_stops_while_hands_are_shown() -> None:
    events = out_round()[:-2] + [draw("Cy")]
    report, _ = run(events)
    assert error_lines(report) == [8]
    assert "waiting for" in report["errors"][0]["text"]


def test_ru4_the_game_ends_at_the_end_of_the_round_that_reaches_the_target() -> None:
    events = game(draw("Bob"), meld("Bob", "JC JD JH"), discard("Bob", "2S"),
                  draw("Cy"), discard("Cy", "3S"), house={"target": 30})
    report, result = run(events)
    assert report["chips"]["Bob"] == 30 and not report["finished"]  # the round goes on
    events += [{"event": "end-round"}]
    report, _ = run(events)
    assert report["finished"]
    assert "Bob wins the game with 30 points" in texts(report)
    report, _ = run(events + [{"event": "round", "dealer": "Bob"}])
    assert error_lines(report) == [10] and "over" in report["errors"][0]["text"]


def test_ru4_the_default_target_is_500() -> None:
    events = out_round()
    assert run(events)[0]["chips"]["Bob"] == 154
    rounds = list(events)
    for _ in range(2):  # two more of the same round: 3 x 154 = 462 < 500
        rounds += [{"event": "round", "dealer": "Ann"}] + events[2:]
    report, _ = run(rounds)
    assert report["chips"]["Bob"] == 462 and not report["finished"]
    rounds += [{"event": "round", "dealer": "Ann"}] + events[2:]
    report, _ = run(rounds)
    assert report["chips"]["Bob"] == 616 and report["finished"]
    assert report["round"] == 4


def test_a_tie_at_the_top_shares_the_win() -> None:
    events = game(draw("Bob"), meld("Bob", "JC JD JH"), discard("Bob", "2S"),
                  draw("Cy"), meld("Cy", "QC QD QH"), discard("Cy", "3S"),
                  {"event": "end-round"}, house={"target": 30})
    report, _ = run(events)
    assert report["finished"] and "Bob and Cy share the win with 30 points" in texts(report)


def test_rounds_limit_ends_the_game() -> None:
    events = game(draw("Bob"), meld("Bob", "5C 5D 5H"), {"event": "end-round"})
    events[0]["rounds"] = 1
    report, _ = run(events)
    assert report["finished"] and "Bob wins the game with 15 points" in texts(report)


# --- the stock runs out: house rule --------------------------------------------------------------
def test_stock_reuse_turns_the_pile_over() -> None:
    players = ["Ann", "Bob"]
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA" if r + s != "7H"]
    events: list[dict[str, Any]] = []
    for k in range(25):
        p = players[(k + 1) % 2]
        events += [draw(p), discard(p, deck[k])]
    report, result = run(game(*events, players=players, house={"stock_out": "reuse"}))
    assert report["errors"] == []
    st = state(result)
    assert st.phase == "draw" and st.stock == 25 and [c.code for c in st.pile] == [deck[24]]
    # The new stock is the old pile turned over: its top card was the up card.
    assert st.stock_order is not None and st.stock_order[0].code == "7H"
    assert any("turned over" in t for t in texts(report))


# --- hidden information ---------------------------------------------------------------------------
def test_announcements_never_name_a_card_drawn_from_the_stock_or_a_dealt_card() -> None:
    hands = {"Ann": "2C 3C 4C 5C 6C 7C 8C".split(), "Bob": "2D 3D 4D 5D 6D 7D 8D".split(),
             "Cy": "2H 3H 4H 5H 6H 8H 9H".split()}
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    dealt = {c for h in hands.values() for c in h}
    stock = ["7H"] + [c for c in deck if c not in dealt and c != "7H"]
    events = game({"event": "deal", "hands": hands, "stock": stock}, upcard=None)
    events += [{"event": "upcard", "card": "7H"}, draw("Bob"), discard("Bob", "8D")]
    report, result = run(events)
    assert report["errors"] == []
    said = " ".join(texts(report))
    drawn = stock[1]
    assert Card.parse(drawn).pretty() not in said
    for c in hands["Bob"][:-1] + hands["Ann"] + hands["Cy"]:
        assert Card.parse(c).pretty() not in said
    assert Card.parse(drawn) in state(result).known["Bob"]


def test_a_full_deal_lets_the_referee_check_every_card() -> None:
    hands = {"Ann": "2C 3C 4C 5C 6C 7C 8C".split(), "Bob": "2D 3D 4D 5D 6D 7D 8D".split(),
             "Cy": "2H 3H 4H 5H 6H 8H 9H".split()}
    events = game({"event": "deal", "hands": hands}, {"event": "upcard", "card": "7H"},
                  upcard=None)
    report, _ = run(events + [draw("Bob"), meld("Bob", "9C TC JC")])
    assert error_lines(report) == [6]  # Bob was dealt diamonds; the drawn card is one card
    report, _ = run(events + [draw("Bob"), meld("Bob", "2D 3D 4D")])
    assert report["errors"] == [] and report["chips"]["Bob"] == 9


# --- corrupted logs -------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [
    {"event": "draw", "player": "Bob", "from": "sky"},
    {"event": "draw", "player": "Zed", "from": "stock"},
    {"event": "meld", "player": "Bob", "cards": "5C 5D 5S"},
    {"event": "meld", "player": "Bob", "cards": ["5C", "5C", "5S"]},
    {"event": "meld", "player": "Bob", "cards": ["5X", "5D", "5S"]},
    {"event": "layoff", "player": "Bob"},
    {"event": "layoff", "player": "Bob", "card": "5C", "meld": 1.5},
    {"event": "discard", "player": "Bob", "card": None},
    {"event": "reveal", "player": "Bob", "cards": ["5C"]},
    {"event": "upcard", "card": "8H"},
    {"event": "deal", "hands": {}},
    {"event": "play", "player": "Bob", "card": "5C"},
])
def test_a_bad_line_is_reported_and_changes_nothing(bad: dict[str, Any]) -> None:
    base = game(draw("Bob"), meld("Bob", "9C TC JC"))
    good, _ = run(base + [discard("Bob", "2S")])
    report, _ = run(base + [bad, discard("Bob", "2S")])
    assert error_lines(report) == [6]
    assert "internal error" not in report["errors"][0]["text"]
    assert report["chips"] == good["chips"]
    assert texts(report) == texts(good)
