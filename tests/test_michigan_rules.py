"""Michigan Rummy rulings MR-1..MR-14 and the common conventions, on small hand-written rounds.

Every round is checked in both modes where it matters: hidden (what the camera sees) and full
information (the same log with its ``deal``); the chips must agree.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from michigan_helpers import Table, run

from companion.referee import Replay


def found(result: Replay) -> Counter[tuple[str, str]]:
    assert result.referee is not None
    return Counter((v.player, v.rule) for v in result.referee.violations)


def report(result: Replay) -> dict[str, Any]:
    return result.report()


def both(t: Table) -> tuple[Replay, Replay]:
    """Replay hidden and full; both must read every line and reach the same chips."""
    h, f = run(t.hidden()), run(t.full())
    assert [e.text for e in h.errors] == [], h.errors
    assert [e.text for e in f.errors] == [], f.errors
    assert h.report()["chips"] == f.report()["chips"]
    assert h.report()["pots"] == f.report()["pots"]
    return h, f


def texts(result: Replay) -> list[str]:
    return [a["text"] for a in result.report()["announcements"]]


# --- MR-1 deal arithmetic ---------------------------------------------------------------------

def test_mr1_hand_sizes_come_from_the_seating() -> None:
    # 4 players, dealer Ann: Bob, Cy get 11, Dee, Ann and the dummy 10 (52 = 5 * 10 + 2).
    t = Table().round("Ann").end(end_round=True)
    h = run(t.hidden())
    assert h.errors == []
    bad = t.hidden()
    reveal_bob = next(e for e in bad if e["event"] == "reveal" and e["player"] == "Bob")
    assert len(reveal_bob["cards"]) == 11
    reveal_bob["cards"] = reveal_bob["cards"][:10]
    r = run(bad)
    assert any("Bob holds 11 cards" in e.text for e in r.errors)


def test_mr1_deal_with_wrong_sizes_is_an_error() -> None:
    t = Table().round("Ann")
    events = t.full()
    deal = events[2]
    deal["hands"]["Dee"].append(deal["dummy"].pop())
    r = run(events)
    assert [e.line for e in r.errors] == [3]
    assert "Dee should be dealt 10 cards" in r.errors[0].text


# --- MR-2 ante ---------------------------------------------------------------------------------

def test_mr2_ante_one_per_cup_and_jackpot_dealer_one_more() -> None:
    r = run(Table().round("Ann").hidden()).report()
    assert r["chips"] == {"Ann": 40, "Bob": 41, "Cy": 41, "Dee": 41}
    assert r["pots"]["Jackpot"] == 5
    assert all(r["pots"][c] == 4 for c in r["pots"] if c != "Jackpot")
    assert len(r["pots"]) == 9


def test_common_a_player_short_of_chips_pays_what_they_have() -> None:
    t = Table(chips={"Ann": 3, "Bob": 50, "Cy": 50, "Dee": 50}).round("Ann")
    r = run(t.hidden()).report()
    assert r["chips"]["Ann"] == 0
    assert sum(r["chips"].values()) + sum(r["pots"].values()) == 153


# --- MR-3 dummy --------------------------------------------------------------------------------

FIVE = ("Ann", "Bob", "Cy", "Dee", "Eve")


def test_mr3_sale_price_goes_to_dealer_and_buyer_plays_dummy_count() -> None:
    # 5 players, dealer Ann: Bob..Eve 9 cards, Ann and the dummy 8.
    t = Table(players=FIVE).round("Ann", action={"action": "sell", "buyer": "Bob", "price": 3})
    t.end(end_round=True)
    h, f = both(t)
    chips = run(t.hidden()[:3]).report()["chips"]
    assert chips["Bob"] == 50 - 9 - 3 and chips["Ann"] == 50 - 10 + 3
    reveal = next(e for e in t.hidden() if e["event"] == "reveal" and e["player"] == "Bob")
    assert len(reveal["cards"]) == 8


def test_mr3_exchange_gives_the_dealer_the_dummy_count() -> None:
    # Boodle deals the extra hand first (BO-3): with 4 players the dummy has 11 cards and
    # the dealer 10; after the exchange Ann plays with 11.
    t = Table("boodle").round("Ann", action={"action": "exchange"}).end(end_round=True)
    both(t)
    events = t.hidden()
    reveal = next(e for e in events if e["event"] == "reveal" and e["player"] == "Ann")
    assert len(reveal["cards"]) == 11
    reveal["cards"] = reveal["cards"][:10]
    r = run(events)
    assert any("Ann holds 11 cards" in e.text for e in r.errors)


def test_mr3_ineligible_buyer_is_proven_once_every_other_card_is_seen() -> None:
    # Cy holds the A of spades (a money card of the disk) and buys the dummy. The hand he gives
    # up is dead and never seen; but once every other card was played or revealed, the cards
    # never seen are that hand (by elimination), in hidden mode as with the deal.
    t = Table().round("Ann", {"Cy": "AS"}, action={"action": "sell", "buyer": "Cy", "price": 2})
    t.end(end_round=True)
    h, f = both(t)
    for result, log in ((h, t.hidden()), (f, t.full())):
        assert found(result)[("Cy", "ineligible-dummy")] == 1
        v = next(v for v in result.referee.violations  # type: ignore[union-attr]
                 if v.rule == "ineligible-dummy")
        assert v.proof_line == len(log)      # the last hand revealed
        # ...never while a hand is still to be revealed.
        assert found(run(log[:-1]))[("Cy", "ineligible-dummy")] == 0


def test_mr3_eligible_exchange_is_not_flagged() -> None:
    t = Table().round("Ann", {"Ann": "2C 3C 4C 5C 6C 7C 8C 9C 2D 3D"},
                      action={"action": "exchange"}).end(end_round=True)
    h, f = both(t)
    assert found(f) == Counter()


def test_mr3_buyer_who_bid_more_than_they_have_pays_what_they_have() -> None:
    # Common convention: a player who owes more chips than they have pays what they have.
    # After the MR-2 ante (9 chips) Cy has 1 left and pays it for a price of 5.
    t = Table(chips=10).round("Ann", action={"action": "sell", "buyer": "Cy", "price": 5})
    r = run(t.hidden())
    assert not [e for e in r.errors if e.line == 3]
    chips = r.report()["chips"]
    assert chips["Cy"] == 0 and chips["Ann"] == 10 - 10 + 1


# --- MR-4 opening lead -------------------------------------------------------------------------

def test_mr4_opening_lead_not_lowest_is_an_illegal_lead_proven_by_the_lower_card() -> None:
    t = Table().round("Ann", {"Bob": "3C 2C", "Cy": "4C", "Dee": "5C"})
    t.plays("Bob 3C, Cy 4C, Dee 5C").end(end_round=True)
    h, f = both(t)
    assert found(h) == Counter({("Bob", "illegal-lead"): 1})
    assert found(f) == Counter({("Bob", "illegal-lead"): 1})
    vh = h.referee.violations[0]  # type: ignore[union-attr]
    assert vh.line == 3
    reveal_line = next(i for i, e in enumerate(t.hidden(), 1)
                       if e["event"] == "reveal" and e["player"] == "Bob")
    assert vh.proof_line == reveal_line
    # With the deal the proof is the same card, seen at the same moment (issue 16): the full
    # log has the deal as its line 3, so every later line is one further.
    assert f.referee.violations[0].proof_line == reveal_line + 1  # type: ignore[union-attr]


def test_mr4_opening_lead_by_the_wrong_player_is_out_of_turn_at_once() -> None:
    t = Table().round("Ann", {"Cy": "2C"}).plays("Cy 2C")
    r = run(t.hidden())
    assert found(r) == Counter({("Cy", "out-of-turn"): 1})
    assert r.referee.violations[0].proof_line == 3  # type: ignore[union-attr]


# --- MR-5 follow, MR-6 new sequence ------------------------------------------------------------

def test_mr5_any_seat_follows_and_the_next_card_is_announced() -> None:
    t = Table().round("Ann", {"Bob": "2C", "Dee": "3C", "Cy": "4C"}).plays("Bob 2C, Dee 3C, Cy 4C")
    r = run(t.hidden())
    assert r.errors == [] and found(r) == Counter()
    assert texts(r)[-1] == "Next: 5♣"
    assert r.referee.turn() is None   # type: ignore[union-attr]   # whoever holds 5♣


def test_mr5_the_ace_ends_the_sequence_and_the_last_player_leads_the_other_colour() -> None:
    t = Table().round("Ann", {"Bob": "QC", "Cy": "KC AC"}, dummy="2C 3C 4C 5C 6C 7C 8C 9C TC JC")
    t.plays("Bob QC, Cy KC, Cy AC")
    r = run(t.hidden())
    assert r.errors == []
    assert texts(r)[-1] == "Nothing follows A♣. Cy leads a red suit."
    assert r.referee.turn() == "Cy"   # type: ignore[union-attr]


def test_mr6_wrong_colour_lead_proven_when_the_right_colour_is_seen() -> None:
    # The clubs stop at 4♣ (5♣ is dead): Cy must lead red, holds 2♥, leads 2♠.
    t = Table().round("Ann", {"Bob": "2C 3C", "Cy": "4C 2S 2H"}, dummy="5C")
    t.plays("Bob 2C, Bob 3C, Cy 4C, Cy 2S").end(end_round=True)
    h, f = both(t)
    assert found(h) == found(f) == Counter({("Cy", "wrong-colour-lead"): 1})
    assert h.referee.violations[0].line == 6   # type: ignore[union-attr]


def test_mr6_turn_passes_left_when_the_leader_has_no_card_of_the_colour() -> None:
    # Cy stops the clubs and holds no red card: Dee, on Cy's left, leads her lowest red card.
    cy = "4C 6C 7C 8C 9C TC 2S 3S 4S 5S 6S"
    t = Table().round("Ann", {"Bob": "2C 3C", "Cy": cy, "Dee": "2H"}, dummy="5C")
    t.plays("Bob 2C, Bob 3C, Cy 4C, Dee 2H").end(end_round=True)
    h, f = both(t)
    assert found(h) == found(f) == Counter()


def test_mr6_leading_before_a_player_who_had_the_colour_is_out_of_turn() -> None:
    # Cy stops the clubs holding 2♥, but Dee leads 3♥: out of turn, proven by Cy's 2♥.
    t = Table().round("Ann", {"Bob": "2C 3C", "Cy": "4C 2H", "Dee": "3H"}, dummy="5C")
    t.plays("Bob 2C, Bob 3C, Cy 4C, Dee 3H").end(end_round=True)
    h, f = both(t)
    assert found(h) == found(f) == Counter({("Dee", "out-of-turn"): 1})


def nobody_red(last: str) -> Table:
    """2 players, dealer Ann (Bob 18 cards, Ann 17, dummy 17): every red card is dead or
    played when Ann's clubs stop at the Ace, so nobody can lead red."""
    hearts = " ".join(f"{r}H" for r in "23456789T")
    t = Table(players=("Ann", "Bob")).round(
        "Ann", {"Bob": hearts + " 2C 3C 4C 5C 6C 2S 3S 4S 5S",
                "Ann": "7C 8C 9C TC JC QC KC AC 6S 7S 8S 9S TS JS QS KS AS"})
    t.plays(f"Bob {hearts} 2C 3C 4C 5C 6C, Ann 7C 8C 9C TC JC QC KC AC")
    return t.plays(last).end(end_round=True)


def test_mr6_nobody_has_the_colour_so_the_last_player_leads_any_suit() -> None:
    h, f = both(nobody_red("Ann 6S"))
    assert found(h) == found(f) == Counter()


def test_mr6_nobody_has_the_colour_and_another_player_leads_out_of_turn() -> None:
    h, f = both(nobody_red("Bob 2S"))
    assert found(h) == found(f) == Counter({("Bob", "out-of-turn"): 1})


def test_mr5_withheld_card_is_flagged_in_michigan_rummy_without_chips() -> None:
    # Dee holds 4♣ but lets the clubs stop at 3♣; Cy leads 2♥.
    t = Table().round("Ann", {"Bob": "2C", "Cy": "3C 2H", "Dee": "4C"})
    t.plays("Bob 2C, Cy 3C, Cy 2H").end(end_round=True)
    h, f = both(t)
    assert found(h) == found(f) == Counter({("Dee", "withheld"): 1})
    v = h.referee.violations[0]   # type: ignore[union-attr]
    assert v.line == 5    # the lead that showed the stop
    # Flagged only (no penalties in the University Games rules): no chip moves for it.
    assert not any("withheld" in m.reason for m in h.referee.ledger.history)  # type: ignore


# --- MR-7 out, MR-10 Poker Kitty ---------------------------------------------------------------

SIX = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def six_out(game: str = "michigan-rummy", **hands: str) -> Table:
    """6 players, dealer Fay: Ann (8 cards: 2♣..9♣) leads and plays out at once."""
    t = Table(game, players=SIX).round("Fay", {"Ann": "2C 3C 4C 5C 6C 7C 8C 9C", **hands})
    t.plays("Ann 2C 3C 4C 5C 6C 7C 8C 9C")
    return t


def test_mr7_going_out_takes_the_jackpot_and_ends_the_round() -> None:
    t = six_out()
    r = run(t.hidden())
    assert r.errors == []
    # Ante: 5 non-dealers pay 9, Fay 10; the Jackpot holds 5 + 2 = 7.
    assert r.report()["chips"]["Ann"] == 50 - 9 + 7
    assert any("Ann is out and takes the Jackpot: 7 chips" in x for x in texts(r))
    more = t.hidden() + [{"event": "play", "player": "Bob", "card": "KC"}]
    r2 = run(more)
    assert [e.line for e in r2.errors] == [len(more)]
    assert "round is over" in r2.errors[0].text


def test_mr10_poker_kitty_best_hand_of_played_and_held_cards_settled_at_last_reveal() -> None:
    t = six_out().end()
    h, f = both(t)
    # Ann's round hand is a straight flush, nine high (played cards count, MR-10).
    r = h.report()
    assert r["chips"]["Ann"] == 50 - 9 + 7 + 6
    assert r["pots"]["Poker Kitty"] == 0
    said = "Poker Kitty: Ann, Straight flush, nine high, 6 chips"
    assert any(x.startswith(said) for x in texts(h))


def test_mr10_kitty_tie_splits_and_the_remainder_stays() -> None:
    t = six_out(Bob="5D 6D 7D 8D 9D", Cy="5H 6H 7H 8H 9H", Dee="5S 6S 7S 8S 9S").end()
    h, f = both(t)
    r = h.report()
    assert r["pots"]["Poker Kitty"] == 2          # 6 chips, 4 winners: 1 each, 2 stay
    assert r["chips"]["Ann"] == 50 - 9 + 7 + 1
    assert r["chips"]["Bob"] == 50 - 9 + 1
    assert r["chips"]["Eve"] == 50 - 9


def test_mr10a_kitty_waits_for_every_reveal() -> None:
    t = six_out().end()
    events = t.hidden()[:-1]                      # the last reveal is missing
    r = run(events).report()
    assert r["pots"]["Poker Kitty"] == 6
    assert r["finished"] is False


def test_mr11_ace_two_three_four_five_is_not_a_straight() -> None:
    # Great Lakes: 4♣ by Bob, then Cy plays 5♣ with A 2 3: not a straight (ace high only).
    t = Table("great-lakes").round("Ann", {"Bob": "4C", "Cy": "5C AH 2S 3D"}, dummy="2C 3C")
    t.play("Bob", "4C").play("Cy", "5C", "AH", "2S", "3D")
    r = run(t.hidden())
    assert r.report()["pots"]["5-Card Straight"] == 4
    assert found(r)[("Cy", "out-of-sequence")] == 1


def test_gl2_after_an_ace_followed_the_leader_is_told_of_the_ace_two() -> None:
    # Bob leads K♠ and follows it with his A♠: he may lead a red suit or, for the Ace-2, a 2
    # of any suit. A lead of an Ace (GL-2a) earns no such mention.
    t = Table("great-lakes").round("Ann", {"Bob": "KS AS 2C", "Cy": "AD"})
    t.plays("Bob KS AS")
    said = [a["text"] for a in run(t.hidden()).report()["announcements"]]
    assert any(x.endswith("Nothing follows A♠. Bob leads a red suit, or a 2 of any suit for "
                          "the Ace-2.") for x in said), said
    t.plays("Bob 2C, Cy AD")
    said = [a["text"] for a in run(t.hidden()).report()["announcements"]]
    assert not any("Nothing follows A♦" in x and "Ace-2" in x for x in said), said


def test_mr11_house_rule_can_allow_the_wheel() -> None:
    t = Table("great-lakes", house={"ace_high_only": False})
    t.round("Ann", {"Bob": "4C", "Cy": "5C AH 2S 3D"}, dummy="2C 3C")
    t.play("Bob", "4C").play("Cy", "5C", "AH", "2S", "3D")
    r = run(t.hidden())
    assert r.errors == [] and found(r) == Counter()
    assert r.report()["pots"]["5-Card Straight"] == 0


# --- MR-8 money cups -------------------------------------------------------------------------

def test_mr8_single_money_card_won_by_a_legal_follow() -> None:
    t = Table().round("Ann", {"Bob": "QD 2D", "Cy": "KD"}, dummy="3D 4D 5D 6D 7D 8D 9D TD JD")
    t.plays("Bob 2D")
    r = run(t.hidden())
    assert r.report()["pots"]["KD"] == 4


def test_mr8_money_card_won_on_a_follow_and_announced() -> None:
    t = Table().round("Ann", {"Bob": "JD", "Cy": "QD", "Dee": "KD"},
                      dummy="2D 3D 4D 5D 6D 7D 8D 9D TD")
    t.plays("Bob JD, Cy QD, Dee KD").end(end_round=True)
    h, f = both(t)
    assert h.report()["pots"]["KD"] == 0
    assert "Dee wins K♦: 4 chips." in " ".join(texts(h))
    assert run(t.hidden()[:6]).report()["pots"]["KD"] == 0


def test_mr8_money_card_led_illegally_is_not_won() -> None:
    # Bob leads J♥ (a money card) while holding 9♥: not played legally, the cup stays.
    t = Table().round("Ann", {"Bob": "JH 9H"}).plays("Bob JH")
    h0 = run(t.hidden()).report()
    assert h0["pots"]["JH"] == 0                 # hidden: won for now
    t.end(end_round=True)
    h, f = both(t)
    assert h.report()["pots"]["JH"] == 4          # taken back once 9♥ is seen
    assert any(x.startswith("Taken back: Bob wins J♥") for x in texts(h))


def test_mr8_combination_cup_needs_the_whole_run_in_one_sequence() -> None:
    t = Table().round("Ann", {"Bob": "8C", "Cy": "9C", "Dee": "TC"}, dummy="2C 3C 4C 5C 6C 7C")
    t.plays("Bob 8C, Cy 9C, Dee TC")
    r = run(t.hidden()).report()
    assert r["pots"]["8-9-10 any one suit"] == 0
    assert r["chips"]["Dee"] == 41 + 4

    t2 = Table().round("Ann", {"Bob": "9C", "Dee": "TC"}, dummy="2C 3C 4C 5C 6C 7C 8C")
    t2.plays("Bob 9C, Dee TC")                   # 8♣ is dead: the run started at 9♣
    r2 = run(t2.hidden()).report()
    assert r2["pots"]["8-9-10 any one suit"] == 4


def test_mr8_q_k_hearts_needs_both_cards_in_one_sequence() -> None:
    t = Table().round("Ann", {"Bob": "QH", "Cy": "KH"}, dummy="2H 3H 4H 5H 6H 7H 8H 9H TH JH")
    t.plays("Bob QH, Cy KH")
    r = run(t.hidden()).report()
    assert r["pots"]["Q-K hearts"] == 0 and r["chips"]["Cy"] == 41 + 4


# --- MR-9 carry over, MR-12 end of game, MR-13 nobody out -------------------------------------

def test_mr9_unwon_cups_carry_over_to_the_next_round() -> None:
    t = Table(rounds=2).round("Ann").end(end_round=True)
    t.round("Bob")
    r = run(t.hidden()).report()
    assert r["pots"]["KD"] == 8 and r["pots"]["AS"] == 8


def test_mr12_mr13_end_of_game_lowest_total_and_board_divided_with_remainder() -> None:
    # 3 players, dealer Ann puts 2 on each cup (house rule): cups hold 4, the Jackpot 5.
    t = Table(players=("Ann", "Bob", "Cy"), house={"dealer_ante": 2}, rounds=1).round(
        "Ann", {"Ann": "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S 5C",
                "Bob": "JC JD JH JS TC TD TH TS 9C 9D 9H 9S 8C"})
    t.end(end_round=True)
    # Ann holds 2-5 (lowest total, 41: MR-13), Bob four jacks (best hand: MR-10); Cy gets
    # 8 8 7 7 7 7 6 6 6 6 5 5 5 (four sevens).
    assert sorted(c.rank for c in t.hands["Cy"]) == [5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8]
    h, f = both(t)
    r = h.report()
    assert r["finished"] is True
    # 7 cups of 4 left = 28: 9 each, 1 stays (MR-12).
    assert r["chips"] == {"Ann": 50 - 19 + 5 + 9, "Bob": 50 - 9 + 4 + 9, "Cy": 50 - 9 + 9}
    assert sum(r["pots"].values()) == 1
    assert texts(h)[-1].endswith("1 chip stays on the board.")
    assert "Game over." in texts(h)[-1]


def test_mr13_lowest_total_counts_faces_ten_and_aces_eleven() -> None:
    # Bob: A♣ + 2..7 of clubs and diamonds = 11 + 54 = 65; Cy: 10♣ + 2..7 of hearts and spades
    # = 10 + 54 = 64; Ann holds high cards. The ace counting 11 gives Cy the Jackpot alone.
    t = Table(players=("Ann", "Bob", "Cy"), house={"disk": ["AS"]}).round(
        "Ann", {"Bob": "AC 2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D",
                "Cy": "TC 2H 2S 3H 3S 4H 4S 5H 5S 6H 6S 7H 7S"})
    t.end(end_round=True)
    h, f = both(t)
    assert any("Jackpot: Cy, lowest total, 64" in x for x in texts(h))
    # Ante: the AS cup + the Jackpot (2 chips), the dealer 3; the Jackpot holds 4.
    assert h.report()["chips"] == {"Ann": 47, "Bob": 48, "Cy": 52}


def test_mr13_tied_totals_split_the_jackpot() -> None:
    t = Table(players=("Ann", "Bob", "Cy"), house={"disk": ["AS"]}).round(
        "Ann", {"Bob": "TD 2C 2D 3C 3D 4C 4D 5C 5D 6C 6D 7C 7D",
                "Cy": "TC 2H 2S 3H 3S 4H 4S 5H 5S 6H 6S 7H 7S"})
    t.end(end_round=True)
    h, f = both(t)
    assert any("Jackpot: Bob and Cy, lowest total, 64, 2 chips each" in x for x in texts(h))


def test_mr14_the_disk_is_a_house_rule() -> None:
    r = run(Table().round("Ann").hidden()).report()
    assert list(r["pots"]) == ["AS", "KD", "QS", "JH", "TD", "8-9-10 any one suit",
                               "Q-K hearts", "Poker Kitty", "Jackpot"]
    t = Table(house={"disk": ["AS", "7-8-9 any one suit", "Poker Kitty"]}).round("Ann")
    r2 = run(t.hidden()).report()
    assert list(r2["pots"]) == ["AS", "7-8-9 any one suit", "Poker Kitty", "Jackpot"]
    bad = Table(house={"disk": ["AS", "Lucky Seven"]}).round("Ann")
    r3 = run(bad.hidden())
    assert r3.referee is None and "Lucky Seven" in r3.errors[0].text


# --- errors: impossible events never change the state ------------------------------------------

def test_errors_name_their_line_and_leave_the_state_as_it_was() -> None:
    t = Table().round("Ann", {"Bob": "2C", "Cy": "3C"}).plays("Bob 2C")
    base = t.hidden()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"event": "play", "player": "Bob", "card": "2C"}, "already played"),
        ({"event": "play", "player": "Zed", "card": "3C"}, "not a player"),
        ({"event": "play", "player": "Cy", "card": "1X"}, "malformed"),
        ({"event": "play", "player": "Cy"}, "needs"),
        ({"event": "reveal", "player": "Cy", "cards": ["3C"]}, "after the round"),
        ({"event": "round", "dealer": "Bob"}, "not finished"),
        ({"event": "trump", "card": "7H"}, "not an event"),
        ({"event": "dummy", "action": "keep"}, "once"),
    ]
    before = run(base).report()
    for bad, why in cases:
        r = run(base + [bad, {"event": "play", "player": "Cy", "card": "3C"}])
        assert [e.line for e in r.errors] == [len(base) + 1], (bad, r.errors)
        assert why in r.errors[0].text, (why, r.errors[0].text)
        rep = r.report()
        assert rep["chips"] == before["chips"]
        assert texts(r)[-1] == "Next: 4♣"


def test_a_player_with_no_cards_left_cannot_play() -> None:
    t = six_out()
    events = t.hidden()[:-1]      # Ann has played 7 of her 8 cards
    events.append({"event": "play", "player": "Ann", "cards": ["9C", "TC"]})
    r = run(events)
    assert "holds only 1 cards" in r.errors[0].text


def test_play_after_the_game_ended_is_an_error() -> None:
    t = Table(players=("Ann", "Bob", "Cy"), rounds=1).round("Ann").end(end_round=True)
    events = t.hidden() + [{"event": "round", "dealer": "Bob"}]
    r = run(events)
    assert r.report()["finished"] is True
    assert "game is over" in r.errors[0].text and r.errors[0].line == len(events)


def test_bad_game_events_do_not_start_a_game() -> None:
    for setup in ({"players": ["Ann"]}, {"players": ["Ann", "Ann"]}, {"rounds": 0},
                  {"chips": {"Ann": 5}}, {"house": {"no_such_rule": 1}},
                  {"house": {"penalize_withheld": "yes"}}):
        ev = {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy"],
              "chips": 50}
        ev.update(setup)
        r = run([ev, {"event": "round", "dealer": "Ann"}])
        assert r.referee is None, setup
        assert r.errors[0].line == 1


def test_house_override_switches_pressman_penalties_on_in_michigan_rummy() -> None:
    # Dee withholds 4♣; Cy holds K♣. Flagged only by default (MR); with the PR-6 house rule
    # Dee pays Cy the K♣ cup's 4 chips at the end of the round.
    house: dict[str, Any] = {"lowest_total_wins": False, "disk": ["KC", "AS"]}
    hands = {"Bob": "2C", "Cy": "3C 2H KC", "Dee": "4C"}
    plain = Table(house=house).round("Ann", hands).plays("Bob 2C, Cy 3C, Cy 2H")
    plain.end(end_round=True)
    strict = Table(house={**house, "penalize_withheld": True}).round("Ann", hands)
    strict.plays("Bob 2C, Cy 3C, Cy 2H").end(end_round=True)
    a, b = run(plain.hidden()), run(strict.hidden())
    assert found(a) == found(b) == Counter({("Dee", "withheld"): 1})
    # Ante: 2 cups + the Jackpot: 3 chips, the dealer 4.
    assert a.report()["chips"] == {"Ann": 46, "Bob": 47, "Cy": 47, "Dee": 47}
    assert b.report()["chips"] == {"Ann": 46, "Bob": 47, "Cy": 51, "Dee": 43}


def test_house_override_fines_an_illegal_lead_in_michigan_rummy() -> None:
    house: dict[str, Any] = {"lowest_total_wins": False, "disk": ["KC", "AS"],
                             "penalize_illegal_lead": True}
    t = Table(house=house).round("Ann", {"Bob": "3C 2C"}).plays("Bob 3C").end(end_round=True)
    h, f = both(t)
    assert h.report()["chips"] == {"Ann": 47, "Bob": 44, "Cy": 48, "Dee": 48}


def test_a_second_deal_is_refused() -> None:
    t = Table().round("Ann")
    events = t.full()
    events.insert(3, dict(events[2]))
    r = run(events)
    assert [e.line for e in r.errors] == [4] and "already dealt" in r.errors[0].text


def test_several_cards_in_one_move() -> None:
    # Consecutive follows, or a lead right after an Ace, are fine in one event; a lead while
    # the sequence may go on is out of sequence.
    t = Table().round("Ann", {"Bob": "QC KC AC 2D"}, dummy="2C 3C 4C 5C 6C 7C 8C 9C TC JC")
    t.play("Bob", "QC", "KC", "AC", "2D")
    r = run(t.hidden())
    assert r.errors == [] and found(r) == Counter()
    assert texts(r)[-1] == "Next: 3♦"
    t2 = Table().round("Ann", {"Bob": "2C 3C 2D"}).play("Bob", "2C", "2D")
    assert found(run(t2.hidden())) == Counter({("Bob", "out-of-sequence"): 1})


def test_common_card_codes_accept_ten_symbols_and_lower_case() -> None:
    t = Table().round("Ann", {"Bob": "TC", "Cy": "JC", "Dee": "QC"}, dummy="2C 3C 4C 5C 6C 7C")
    events = t.hidden() + [{"event": "play", "player": "Bob", "card": "10♣"},
                           {"event": "play", "player": "Cy", "card": "jc"},
                           {"event": "play", "player": "Dee", "card": "Q♣"}]
    r = run(events)
    assert r.errors == [] and texts(r)[-1] == "Next: K♣"


def test_the_referee_says_which_card_event_it_waits_for() -> None:
    """`expects()`: plays while a round is played, reveals once someone is out, nothing
    between rounds (the camera pipeline offers an unplaceable reading as that kind)."""
    from companion.games.michigan.sim import simulate
    from companion.referee import replay_dicts

    events = simulate(["Ann", "Bob", "Cy", "Dee"], rounds=1, seed=11, hidden=True)
    first_reveal = next(i for i, e in enumerate(events) if e["event"] == "reveal")
    last_reveal = max(i for i, e in enumerate(events) if e["event"] == "reveal")
    first_play = next(i for i, e in enumerate(events) if e["event"] == "play")

    def expects(n: int) -> frozenset[str] | None:
        ref = replay_dicts(events[:n]).referee
        assert ref is not None
        return ref.expects()

    assert expects(1) == frozenset()                        # only the game event
    assert expects(first_play) == {"play"}                  # round dealt, dummy decided
    assert expects(first_reveal) == {"reveal"}             # someone went out
    assert expects(last_reveal + 1) == frozenset()          # round settled
