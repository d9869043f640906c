"""Great Lakes (GL-1..GL-6), Pressman (PR-1..PR-7) and boodle (BO-1..BO-7) on hand-written rounds.

Each round runs hidden (camera) and with its deal (full information); chips must agree, and the
expected chips are worked out by hand from RULINGS.md in the comments.
"""

from __future__ import annotations

from collections import Counter

from michigan_helpers import Table, run

from companion.referee import Replay

# Pressman without the Poker Pool and without MR-13, so that only the ruling under test moves
# chips: 7 cups + the Jackpot, ante 1 per area (8), the dealer 2 per area (16).
QUIET_PR = {"disk": ["TH", "JS", "KC", "AH", "QH", "Q-K hearts", "7-8-9 any one suit"],
            "lowest_total_wins": False}
SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def found(result: Replay) -> Counter[tuple[str, str]]:
    assert result.referee is not None
    return Counter((v.player, v.rule) for v in result.referee.violations)


def texts(result: Replay) -> str:
    return " | ".join(a["text"] for a in result.report()["announcements"])


def both(t: Table) -> tuple[Replay, Replay]:
    h, f = run(t.hidden()), run(t.full())
    assert [e.text for e in h.errors] == [] and [e.text for e in f.errors] == []
    assert h.report()["chips"] == f.report()["chips"]
    assert h.report()["pots"] == f.report()["pots"]
    assert found(h) == found(f)
    return h, f


# --- Great Lakes ----------------------------------------------------------------------------

def test_gl1_disk() -> None:
    r = run(Table("great-lakes").round("Ann").hidden()).report()
    assert list(r["pots"]) == ["KD", "QS", "JH", "Ace-2", "Full House Dump", "5-Card Straight",
                               "6 Lead", "Loser's Kitty", "Jackpot"]


ACE2_HANDS = {"Bob": "QC 2H 3H 4H 5H 6H 7H 8H 9H TH 2S",
              "Cy": "KC AC 2C 2D 3D 4D 5D 6D 7D 8D 9D"}


def test_gl2_ace_then_a_two_of_any_suit_wins_and_waives_the_colour() -> None:
    t = Table("great-lakes").round("Ann", ACE2_HANDS).plays("Bob QC, Cy KC AC 2C")
    t.end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter()
    assert h.report()["pots"]["Ace-2"] == 0
    assert "Cy wins Ace-2: 4 chips." in texts(h)


def test_gl2_without_the_ace2_cup_the_same_lead_is_the_wrong_colour() -> None:
    t = Table("michigan-rummy").round("Ann", ACE2_HANDS).plays("Bob QC, Cy KC AC 2C")
    t.end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter({("Cy", "wrong-colour-lead"): 1})


def test_gl2a_a_led_ace_does_not_count() -> None:
    bob = "AC 2H 3H 4H 5H 6H 7H 8H 9H TH 2S"
    t = Table("great-lakes").round("Ann", {"Bob": bob}).plays("Bob AC 2H")
    r = run(t.hidden())
    assert r.errors == [] and r.report()["pots"]["Ace-2"] == 4


def test_gl2_one_event_with_the_ace_and_the_two() -> None:
    t = Table("great-lakes").round("Ann", ACE2_HANDS).plays("Bob QC, Cy KC")
    t.play("Cy", "AC", "2C")
    r = run(t.hidden())
    assert found(r) == Counter() and r.report()["pots"]["Ace-2"] == 0


DUMP_HANDS = {"Bob": "JC 2H 3H 4H 5H 6H 7H 8H 9H TH 2S",
              "Cy": "QC QS JH JD 2C 3C 4C 5C 6C 7C 8C", "Dee": "KC"}


def test_gl3_full_house_dump_wins_and_gl3a_its_other_cards_win_nothing() -> None:
    # J♣ by Bob; Cy dumps Q♣ Q♠ J♥ J♦ (J J J Q Q), then leads 2♣ (any suit, lowest).
    t = Table("great-lakes").round("Ann", DUMP_HANDS).plays("Bob JC")
    t.play("Cy", "QC", "QS", "JH", "JD")
    mid = run(t.hidden())
    assert mid.referee is not None and mid.referee.turn() == "Cy"
    t.plays("Cy 2C").end(end_round=True)
    h, f = both(t)
    pots = h.report()["pots"]
    assert pots["Full House Dump"] == 0
    assert pots["QS"] == 4 and pots["JH"] == 4          # played out of sequence (GL-3a)
    assert found(h) == Counter()                        # Dee's K♣: the dump ended the clubs
    assert "Cy wins Full House Dump: 4 chips." in texts(h)


def test_gl3_a_dump_onto_ones_own_card_is_not_a_dump() -> None:
    t = Table("great-lakes").round("Ann", {"Bob": "4C 5C 5D 4D 4H"}, dummy="2C 3C")
    t.play("Bob", "4C").play("Bob", "5C", "5D", "4D", "4H")
    r = run(t.hidden())
    assert r.report()["pots"]["Full House Dump"] == 4
    assert found(r)[("Bob", "out-of-sequence")] == 1


def test_gl4_five_card_straight() -> None:
    # 7♦ by Bob; Cy plays 8♦ 6♠ 9♥ 10♣: 6-7-8-9-10.
    bob = "7D 2H 3H 4H 5H 6H 7H 8H TH 2S 3S"
    t = Table("great-lakes").round("Ann", {"Bob": bob, "Cy": "8D 6S 9H TC 2C"})
    t.plays("Bob 7D").play("Cy", "8D", "6S", "9H", "TC").plays("Cy 2C").end(end_round=True)
    h, f = both(t)
    assert h.report()["pots"]["5-Card Straight"] == 0
    assert found(h) == Counter()


def test_gl5_six_lead_wins_when_legal() -> None:
    bob = "6C 2H 3H 4H 5H 7H 8H 9H TH 2S 3S"
    t = Table("great-lakes").round("Ann", {"Bob": bob}, dummy="2C 3C 4C 5C").plays("Bob 6C")
    t.end(end_round=True)
    h, f = both(t)
    assert h.report()["pots"]["6 Lead"] == 0 and found(h) == Counter()


def test_gl5_an_illegal_six_lead_does_not_win() -> None:
    t = Table("great-lakes").round("Ann", {"Bob": "6H 3H"}).plays("Bob 6H")
    assert run(t.hidden()).report()["pots"]["6 Lead"] == 0       # not known yet
    t.end(end_round=True)
    h, f = both(t)
    assert h.report()["pots"]["6 Lead"] == 4
    assert found(h) == Counter({("Bob", "illegal-lead"): 1})


def test_gl6_losers_kitty_goes_to_the_worst_hand() -> None:
    t = Table("great-lakes", players=("Ann", "Bob", "Cy")).round(
        "Ann", {"Ann": "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C",
                "Bob": "JC JD JH JS TC TD TH TS 9C 9D 9H 9S 8C"})
    t.end(end_round=True)
    h, f = both(t)
    # Ann's worst five: a pair of twos; Cy's a pair of fives; Bob's a pair of nines.
    assert "Loser's Kitty: Ann, Pair of twos" in texts(h)
    assert h.report()["pots"]["Loser's Kitty"] == 0


# --- Pressman ---------------------------------------------------------------------------------

def test_pr1_pr2_disk_and_ante() -> None:
    r = run(Table("pressman").round("Ann").hidden()).report()
    assert list(r["pots"]) == ["TH", "JS", "KC", "AH", "QH", "Q-K hearts",
                               "7-8-9 any one suit", "Poker Pool", "Jackpot"]
    assert all(v == 5 for v in r["pots"].values())
    assert r["chips"] == {"Ann": 50 - 18, "Bob": 41, "Cy": 41, "Dee": 41}


def test_pr3_out_collects_per_card_and_pr4_pool_is_hand_cards_only() -> None:
    # 6 players, dealer Fay: Ann plays 2♣..9♣ and is out. 7-8-9 (7 chips) and the Jackpot
    # (7) are hers, and 1 chip per card left: 8 + 8 + 7 + 7 + 7 = 37. Ann has no cards, so
    # the Pool goes to Bob's four queens (Cy has four tens).
    t = Table("pressman", players=SIX).round("Fay", {"Ann": "2C 3C 4C 5C 6C 7C 8C 9C"})
    t.plays("Ann 2C 3C 4C 5C 6C 7C 8C 9C").end()
    h, f = both(t)
    c = h.report()["chips"]
    assert c["Ann"] == 50 - 9 + 7 + 7 + 37
    assert c["Bob"] == 50 - 9 - 8 + 7
    assert c["Cy"] == 50 - 9 - 8
    assert "Poker Pool: Bob, Four of a kind, queens" in texts(h)


def pr5_table(game: str = "pressman") -> Table:
    """Bob leads 7♣ holding 2♣ (PR-5), completes 7-8-9 in clubs; Dee completes it in
    diamonds later; the proof comes with Bob's reveal."""
    t = Table(game, house=QUIET_PR).round(
        "Ann", {"Bob": "7C 2C 9C 7D 2S 3S 4S 5S 6S 7S 8S",
                "Cy": "8C 8D 2H 3H 4H 5H 6H 7H 8H 9H JC",
                "Dee": "9D 3C 4C 5C 6C 2D 3D 4D 5D 6D"}, dummy="TC TD")
    return t.plays("Bob 7C, Cy 8C, Bob 9C, Bob 7D, Cy 8D, Dee 9D")


def test_pr5_illegal_lead_fine_and_forfeit_pr5a_cup_goes_to_the_next_completer() -> None:
    t = pr5_table()
    before = run(t.hidden()).report()
    assert before["chips"]["Bob"] == 42 + 5                  # hidden: Bob holds the cup, for now
    t.end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter({("Bob", "illegal-lead"): 1})
    # Bob pays 1 to each (PR-5) and loses 7-8-9, which Dee completed later (PR-5a).
    assert h.report()["chips"] == {"Ann": 34 + 1, "Bob": 42 - 3, "Cy": 42 + 1, "Dee": 42 + 1 + 5}
    assert "Taken back: Bob wins 7-8-9 any one suit: 5 chips." in texts(h)
    assert "Dee wins 7-8-9 any one suit: 5 chips." in texts(h)


def test_pr5_flagged_only_in_michigan_rummy_but_the_cup_is_still_not_legal() -> None:
    # Same plays under University Games rules: no fine, no forfeit -- but MR-8 still gives
    # a money card only for a legal play, and 7-8-9 is not on this disk anyway.
    t = Table("michigan-rummy", house={"lowest_total_wins": False}).round(
        "Ann", {"Bob": "7C 2C 9C 7D 2S 3S 4S 5S 6S 7S 8S"}, dummy="TC")
    t.plays("Bob 7C").end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter({("Bob", "illegal-lead"): 1})
    assert not any("penalty" in m.reason for m in h.referee.ledger.history)  # type: ignore


def test_pr6_withholder_pays_the_holder_of_the_unwon_money_card_of_that_suit() -> None:
    # Clubs stop at 4♣ while Dee holds 5♣; the K♣ cup (5 chips) is still full at the end and
    # Cy holds K♣: Dee pays Cy 5.
    t = Table("pressman", house=QUIET_PR).round(
        "Ann", {"Bob": "2C 4C 2D 2S 3S 4S 5S 6S 7S 8S 9S",
                "Cy": "3C KC 2H 3H 4H 5H 6H 7H 8H 9H JH", "Dee": "5C"})
    t.plays("Bob 2C, Cy 3C, Bob 4C, Bob 2D").end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter({("Dee", "withheld"): 1})
    assert h.report()["chips"] == {"Ann": 34, "Bob": 42, "Cy": 47, "Dee": 37}


def barred_table(game: str = "pressman") -> Table:
    """6 players, dealer Fay. Bob withholds 4♣, later leads it and plays out: PR-6 bars him."""
    t = Table(game, players=SIX, house=QUIET_PR if game == "pressman" else None).round(
        "Fay", {"Ann": "2C 3C 2D 3D 5H 6H 7H 8H", "Bob": "4C 5C 6C 7C 8C 9C TC JC",
                "Cy": "2H"}, dummy="4D QC")
    return t.plays("Ann 2C 3C 2D 3D, Bob 4C 5C 6C 7C 8C 9C TC JC")


def test_pr6_a_withholder_who_goes_out_first_does_not_win() -> None:
    t = barred_table()
    mid = run(t.hidden())
    # Q♣ may still be live as far as the table knows: anyone holding it may follow.
    assert mid.referee is not None and mid.referee.turn() is None
    assert "Bob has no cards left but withheld a card: play goes on." in texts(mid)
    t.plays("Cy 2H").end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter({("Bob", "withheld"): 1})
    r = h.report()
    assert r["pots"]["Jackpot"] == 7                # nobody went out (MR-13 off here)
    assert r["pots"]["7-8-9 any one suit"] == 7      # forfeited from the stop on
    # Bob: ante 8, then the K♣ cup (7) to Cy, who holds K♣ (PR-6); no payments per card.
    assert r["chips"]["Bob"] == 50 - 8 - 7
    assert r["chips"]["Cy"] == 50 - 8 + 7


def test_pr6_in_michigan_rummy_the_same_player_simply_goes_out() -> None:
    t = barred_table("michigan-rummy")
    r = run(t.hidden())
    assert found(r) == Counter({("Bob", "withheld"): 1})
    assert "Bob is out and takes the Jackpot" in texts(r)


def test_pr7_wrong_colour_is_penalised_and_pr6a_each_penalty_is_paid() -> None:
    one = Table("pressman", house=QUIET_PR).round(
        "Ann", {"Bob": "2C 3C", "Cy": "4C 2S 2H"}, dummy="5C")
    one.plays("Bob 2C, Bob 3C, Cy 4C, Cy 2S").end(end_round=True)
    h, f = both(one)
    assert found(h) == Counter({("Cy", "wrong-colour-lead"): 1})
    assert h.report()["chips"] == {"Ann": 35, "Bob": 43, "Cy": 39, "Dee": 43}
    # Leading 3♠ while holding 2♠ and 2♥: not the lowest and the wrong colour -> two fines.
    two = Table("pressman", house=QUIET_PR).round(
        "Ann", {"Bob": "2C 3C", "Cy": "4C 3S 2S 2H"}, dummy="5C")
    two.plays("Bob 2C, Bob 3C, Cy 4C, Cy 3S").end(end_round=True)
    h2, f2 = both(two)
    assert found(h2) == Counter({("Cy", "wrong-colour-lead"): 1, ("Cy", "illegal-lead"): 1})
    assert h2.report()["chips"] == {"Ann": 36, "Bob": 44, "Cy": 36, "Dee": 44}


# --- boodle -----------------------------------------------------------------------------------

def test_bo1_bo2_boodle_cards_and_ante() -> None:
    r = run(Table("boodle").round("Ann").hidden()).report()
    assert r["pots"] == {"AH": 5, "KC": 5, "QD": 5, "JS": 5}
    assert r["chips"] == {"Ann": 42, "Bob": 46, "Cy": 46, "Dee": 46}


def test_bo3_the_extra_hand_is_dealt_first() -> None:
    # Dummy, Bob 11; Cy, Dee, Ann 10 (in Michigan Rummy Cy would have 11).
    t = Table("boodle").round("Ann").end(end_round=True)
    reveal = next(e for e in t.hidden() if e["event"] == "reveal" and e["player"] == "Cy")
    assert len(reveal["cards"]) == 10
    assert run(t.hidden()).errors == []


def test_bo4_new_sequence_in_any_other_suit() -> None:
    hands = {"Bob": "2C 3C", "Cy": "4C 2S 6C"}
    ok = Table("boodle").round("Ann", hands, dummy="5C").plays("Bob 2C 3C, Cy 4C 2S")
    ok.end(end_round=True)
    h, f = both(ok)
    assert found(h) == Counter()                     # a spade after clubs is fine in boodle
    same = Table("boodle").round("Ann", hands, dummy="5C").plays("Bob 2C 3C, Cy 4C 6C")
    same.end(end_round=True)
    h2, f2 = both(same)
    assert found(h2) == Counter({("Cy", "wrong-colour-lead"): 1})
    # BO-5 names PR-5 and PR-6 only: the suit rule is flagged, not fined.
    assert not any("penalty" in m.reason for m in h2.referee.ledger.history)  # type: ignore


def test_bo5_withheld_pays_the_holder_of_the_boodle_card() -> None:
    t = Table("boodle").round(
        "Ann", {"Bob": "2C 4C 2D 2S 3S 4S 5S 6S 7S 8S 9S",
                "Cy": "3C KC 2H 3H 4H 5H 6H 7H 8H 9H", "Dee": "5C"})
    t.plays("Bob 2C, Cy 3C, Bob 4C, Bob 2D").end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter({("Dee", "withheld"): 1})
    assert h.report()["chips"] == {"Ann": 42, "Bob": 46, "Cy": 51, "Dee": 41}


def test_bo5_illegal_lead_is_fined() -> None:
    t = Table("boodle").round("Ann", {"Bob": "7C 2C"}).plays("Bob 7C").end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter({("Bob", "illegal-lead"): 1})
    assert h.report()["chips"] == {"Ann": 43, "Bob": 43, "Cy": 47, "Dee": 47}


def test_bo6_going_out_collects_one_chip_per_card_left() -> None:
    # Boodle, 6 players, dealer Fay: dummy, Ann, Bob 8 cards; Cy, Dee, Eve, Fay 7.
    t = Table("boodle", players=SIX).round("Fay", {"Ann": "2C 3C 4C 5C 6C 7C 8C 9C"})
    t.plays("Ann 2C 3C 4C 5C 6C 7C 8C 9C")
    r = run(t.hidden())
    assert r.report()["chips"]["Ann"] == 50 - 4 + 8 + 7 * 4
    assert "Ann is out and collects 36 chips for the cards left." in texts(r)


def test_bo7_boodle_cards_carry_over_and_are_divided_at_the_end() -> None:
    t = Table("boodle", players=("Ann", "Bob", "Cy"), rounds=2).round("Ann")
    t.end(end_round=True).round("Bob").end(end_round=True)
    r = run(t.hidden()).report()
    # Round 1: each card 1 + 1 + 2 = 4; round 2 the same: 8 each, 32 in all: 10 each, 2 stay.
    assert r["finished"] is True
    assert r["chips"] == {"Ann": 50 - 8 - 4 + 10, "Bob": 50 - 4 - 8 + 10, "Cy": 50 - 8 + 10}
    assert sum(r["pots"].values()) == 2
