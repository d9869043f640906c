"""The Michigan-family simulator on its own: deals, dummy choices, every play checked against
RULINGS.md by a small independent checker that reads the full log (MR-1..MR-7, GL-2..GL-5,
PR-6, BO-3, BO-4), hidden/full logs, recorded mistakes and their proofs, the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.cards import Card, cards, full_deck, hand_sizes
from companion.games.michigan.sim import SimResult, simulate, simulate_game
from companion.referee import find_simulator

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("michigan-rummy", "great-lakes", "pressman", "boodle")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
#: Games per rule set for the checker loop (COMPANION_PROPERTY_GAMES runs more locally).
GAMES_PER_SET = int(os.environ.get("COMPANION_PROPERTY_GAMES", "60"))


def _ranks(ranks: str) -> set[Card]:
    return {c for c in full_deck() if c.rank_char in ranks}


# Every card pictured on or named by a cup of each disk (MR-14, GL-1, PR-1, BO-1): a player
# holding one may neither exchange for nor buy the dummy (MR-3), under the widest reading.
MONEY: dict[str, set[Card]] = {
    "michigan-rummy": set(cards("AS KD QS JH TD QH KH")) | _ranks("89T"),
    "great-lakes": set(cards("KD QS JH")) | _ranks("A26"),
    "pressman": set(cards("TH JS KC AH QH KH")) | _ranks("789"),
    "boodle": set(cards("AH KC QD JS")),
}


class Checker:
    """Replays a full log (with ``deal``) and asserts every event is what the rules allow,
    except the mistakes the simulator says it made (``{full_line: rule}``)."""

    def __init__(self, res: SimResult) -> None:
        self.res = res
        self.game = res.game
        self.players = res.players
        self.n = len(self.players)
        self.mistakes: dict[int, list[Any]] = {}
        for m in res.details + res.unproven:
            self.mistakes.setdefault(m.full_line, []).append(m)
        self.used: set[int] = set()
        self.specials: Counter[str] = Counter()
        self.only_withholders = False

    def fail(self, line: int, why: str) -> None:
        raise AssertionError(f"{self.game} line {line}: {why}\n"
                             f"{json.dumps(self.res.full[line - 1])}")

    def mistake(self, line: int, rule: str) -> Any:
        for m in self.mistakes.get(line, []):
            if m.rule == rule and id(m) not in self.used:
                self.used.add(id(m))
                return m
        return None

    def run(self) -> None:
        ev = self.res.full
        assert ev[0]["event"] == "game" and ev[0]["game"] == self.game
        i, rnd = 1, 0
        while i < len(ev):
            assert ev[i]["event"] == "round", (i + 1, ev[i])
            assert ev[i]["dealer"] == self.players[rnd % self.n]   # the deal rotates left
            i = self.round(i + 1, rnd % self.n)
            rnd += 1
        assert rnd == self.res.rounds_played == ev[0]["rounds"]
        left = [m for ms in self.mistakes.values() for m in ms if id(m) not in self.used]
        assert not left, f"recorded mistakes the log does not show: {left}"

    def round(self, i: int, dealer_ix: int) -> int:
        ev, players, game = self.res.full, self.players, self.game
        dealer = players[dealer_ix]
        deal = ev[i]
        assert deal["event"] == "deal"
        hands = {p: set(cards(deal["hands"][p])) for p in players}
        dummy = set(cards(deal["dummy"]))
        all_cards = [c for h in hands.values() for c in h] + list(dummy)
        assert sorted(all_cards) == sorted(full_deck()), "the deal is not the whole deck"
        sizes = hand_sizes(players, dealer, extra="first" if game == "boodle" else "last")
        assert {p: len(h) for p, h in hands.items()} == {p: sizes[p] for p in players}
        assert len(dummy) == sizes["(dummy)"]
        choice = ev[i + 1]
        assert choice["event"] == "dummy"
        dead = dummy
        if choice["action"] == "exchange":            # MR-3 (b)
            assert not hands[dealer] & MONEY[game], "exchanged with a money card"
            dead, hands[dealer] = hands[dealer], dummy
        elif choice["action"] == "sell":              # MR-3 (c)
            buyer = choice["buyer"]
            assert buyer != dealer and buyer in players and choice["price"] >= 1
            assert not hands[buyer] & MONEY[game], "bought with a money card"
            dead, hands[buyer] = hands[buyer], dummy
        else:
            assert choice["action"] == "keep"
        return self.play(i + 2, hands, dead, dealer_ix)

    def holder(self, hands: dict[str, set[Card]], c: Card) -> str | None:
        return next((p for p, h in hands.items() if c in h), None)

    def play(self, i: int, hands: dict[str, set[Card]], dead: set[Card], dealer_ix: int
             ) -> int:
        ev, players, n, game = self.res.full, self.players, self.n, self.game
        last: Card | None = None
        last_player = players[(dealer_ix + 1) % n]
        lead_kind = "open"       # open | stop | any (after a dump)
        ace_follow = False
        withholders: set[str] = set()
        out = False
        while i < len(ev) and ev[i]["event"] == "play":
            line = i + 1
            e = ev[i]
            p = e["player"]
            nxt = None
            if last is not None and last.rank < 14 and lead_kind == "follow":
                nxt = Card(last.rank + 1, last.suit)
                if nxt in dead or self.holder(hands, nxt) is None:
                    nxt = None
            if "cards" in e:                           # GL-3 / GL-4
                assert game == "great-lakes" and nxt is not None and last is not None
                dump = cards(e["cards"])
                assert dump[0] == nxt and p != last_player and set(dump) <= hands[p]
                assert len(dump) == 4
                ranks = sorted(c.rank for c in [last, *dump])
                counts = sorted(Counter(ranks).values())
                straight = ranks == list(range(ranks[0], ranks[0] + 5))
                assert counts == [2, 3] or straight, f"line {line}: not a dump {ranks}"
                self.specials["straight" if straight else "full-house"] += 1
                hands[p] -= set(dump)
                last, last_player, lead_kind, ace_follow = None, p, "any", False
                i += 1
                if not hands[p]:
                    out = True
                    break
                continue
            c = Card.parse(e["card"])
            if c not in hands[p]:
                self.fail(line, f"{p} does not hold {c}")
            if nxt is not None:
                holder = self.holder(hands, nxt)
                if c == nxt and p == holder:            # MR-5 follow
                    hands[p].discard(c)
                    ace_follow = c.rank == 14
                    last, last_player = c, p
                    i += 1
                    if not hands[p]:
                        if self.keeps_playing(p, withholders, hands):
                            continue
                        out = True
                        break
                    continue
                m = self.mistake(line, "withheld")
                if m is None or m.player != holder or m.card != nxt.code:
                    self.fail(line, f"{holder} should have played {nxt}")
                withholders.add(m.player)             # and this play is the lead after the stop
            # a lead: who may lead, which suits (MR-4, MR-6, BO-4, GL-2, GL-3)
            if lead_kind == "open":
                leader, allowed = last_player, set("CDHS")
            elif lead_kind == "any":
                leader, allowed = last_player, set("CDHS")
            else:
                assert last is not None
                leader, allowed = self.rightful_leader(hands, last_player, last)
            if p != leader:
                self.fail(line, f"{p} led but {leader} should lead")
            ace_two = (game == "great-lakes" and ace_follow and p == last_player
                       and c.rank == 2 and lead_kind == "follow")
            if ace_two:
                self.specials["ace-2"] += 1
            if c.suit not in allowed and not ace_two:
                m = self.mistake(line, "wrong-colour-lead")
                if m is None:
                    self.fail(line, f"{p} led {c}: the suit must be one of {sorted(allowed)}")
                assert any(x.suit in allowed for x in hands[p])
            elif lead_kind == "follow" and self.mistakes.get(line) and any(
                    m.rule == "wrong-colour-lead" for m in self.mistakes[line]):
                self.fail(line, "a wrong-colour mistake recorded for a right-colour lead")
            lower = [x for x in hands[p] if x.suit == c.suit and x.rank < c.rank]
            if lower:
                if self.mistake(line, "illegal-lead") is None:
                    self.fail(line, f"{p} led {c} holding {min(lower)}")
            if game == "great-lakes" and c.rank == 6 and not lower:
                self.specials["6-lead"] += 1
            hands[p].discard(c)
            last, last_player, lead_kind = c, p, "follow"
            ace_follow = False
            i += 1
            if not hands[p]:
                if self.keeps_playing(p, withholders, hands):
                    continue
                out = True
                break
        if i < len(ev) and ev[i]["event"] == "end-round":
            assert not out or self.only_withholders, "end-round after a player went out"
            i += 1
        else:
            assert out, (i, "the round stopped with nobody out and no end-round")
        self.only_withholders = False
        for q in players:                               # MR-10a reveals, in seat order
            if hands[q]:
                e = ev[i]
                assert e["event"] == "reveal" and e["player"] == q, (i + 1, e)
                assert set(cards(e["cards"])) == hands[q]
                i += 1
        return i

    def keeps_playing(self, p: str, withholders: set[str], hands: dict[str, set[Card]]
                      ) -> bool:
        """PR-6 / BO-5: a withholder who goes out does not end the round (unless only
        withholders hold cards: then nobody can win and the table ends the round)."""
        if self.game not in ("pressman", "boodle") or p not in withholders:
            return False
        if any(hands[q] for q in self.players if q not in withholders):
            self.specials["withholder-out"] += 1
            return True
        self.only_withholders = True
        return False

    def rightful_leader(self, hands: dict[str, set[Card]], q: str, last: Card
                        ) -> tuple[str, set[str]]:
        """MR-6 / BO-4: the last player leads another colour (suit); else the turn passes left;
        if nobody can, the last player (or the next with cards) leads any suit."""
        if self.game == "boodle":
            wanted = set("CDHS") - {last.suit}
        else:
            wanted = {"D", "H"} if last.colour == "black" else {"C", "S"}
        k = self.players.index(q)
        for j in range(self.n):
            p = self.players[(k + j) % self.n]
            if any(c.suit in wanted for c in hands[p]):
                return p, wanted
        for j in range(self.n):
            p = self.players[(k + j) % self.n]
            if hands[p]:
                return p, set("CDHS")
        raise AssertionError("nobody holds a card")


def check_proofs(res: SimResult) -> None:
    """Each recorded mistake's proof line is a later play or reveal by the offender of a card
    that proves it: a lower card of the suit led, a card of the right colour, the card kept."""
    for m in res.details:
        assert m.proof_line > m.line
        e = res.hidden[m.proof_line - 1]
        assert e["event"] in ("play", "reveal") and e["player"] == m.player
        shown = cards(e.get("cards") or [e["card"]])
        c = Card.parse(m.card)
        if m.rule == "illegal-lead":
            assert any(x.suit == c.suit and x.rank < c.rank for x in shown)
        elif m.rule == "wrong-colour-lead":
            assert any(x.colour != c.colour for x in shown)
        else:
            assert c in shown


def sim(game: str, n: int, seed: int, mistakes: float = 0.0, rounds: int = 5) -> SimResult:
    return simulate_game(NAMES[:n], rounds, seed, mistakes, None, game)


@pytest.mark.parametrize("game", GAMES)
def test_every_event_follows_the_rules(game: str) -> None:
    specials: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    for seed in range(GAMES_PER_SET):
        n = 3 + seed % 6
        res = sim(game, n, seed, mistakes=0.0 if seed % 2 else 0.08)
        checker = Checker(res)
        checker.run()
        check_proofs(res)
        assert not res.unproven, res.unproven
        specials.update(checker.specials)
        actions.update(e["action"] for e in res.full if e["event"] == "dummy")
        actions.update(e["event"] for e in res.full if e["event"] == "end-round")
        if seed % 2:
            assert not res.details
    if game == "great-lakes":   # the bots take each special now and then
        assert {"straight", "full-house", "ace-2", "6-lead"} <= set(specials), specials
    assert {"keep", "sell", "exchange", "end-round"} <= set(actions), actions


def test_mistakes_of_every_kind_are_recorded_and_proven() -> None:
    for game in GAMES:
        rules: Counter[str] = Counter()
        events: Counter[str] = Counter()
        for seed in range(12):
            res = sim(game, 4 + seed % 4, 1000 + seed, mistakes=0.15)
            checker = Checker(res)
            checker.run()
            check_proofs(res)
            rules.update(m.rule for m in res.details)
            events.update(checker.specials)
        expected = {"illegal-lead", "withheld"} | (
            set() if game == "boodle" else {"wrong-colour-lead"})
        assert set(rules) == expected, (game, rules)
        # PR-6 / BO-5: a withholder who played their last card did not end the round.
        assert (events["withholder-out"] > 0) == (game in ("pressman", "boodle")), events


def test_the_checker_catches_a_broken_log() -> None:
    """The checker is not a tautology: swap two plays of a clean game and it objects."""
    res = sim("michigan-rummy", 4, 7)
    plays = [i for i, e in enumerate(res.full) if e["event"] == "play"]
    a, b = plays[5], plays[6]
    res.full[a], res.full[b] = res.full[b], res.full[a]
    with pytest.raises(AssertionError):
        Checker(res).run()
    res = sim("pressman", 5, 8)
    i = next(i for i, e in enumerate(res.full) if e["event"] == "reveal")
    res.full[i] = {**res.full[i], "cards": res.full[i]["cards"][1:]}
    with pytest.raises(AssertionError):
        Checker(res).run()


def test_hidden_log_is_the_full_log_without_the_deal() -> None:
    res = sim("great-lakes", 6, 3, mistakes=0.1)
    assert [e for e in res.full if e["event"] != "deal"] == res.hidden
    assert sum(e["event"] == "deal" for e in res.full) == 5
    for full_line, hidden_line in res.hidden_line.items():
        assert res.full[full_line - 1] is res.hidden[hidden_line - 1]
    for m in res.details:
        assert res.hidden_line[m.full_line] == m.line
    assert res.round_ends[-1] == len(res.hidden)
    assert all(res.hidden[x]["event"] == "round" for x in res.round_ends[:-1])


def test_deterministic_by_seed_and_the_registered_simulator() -> None:
    a = simulate(NAMES[:5], 3, 42, hidden=False, mistakes=0.1, chips=30, game="boodle")
    b = find_simulator("boodle")(players=NAMES[:5], rounds=3, seed=42, hidden=False,
                                 mistakes=0.1, chips=30, game="boodle")
    c = simulate(NAMES[:5], 3, 43, hidden=False, mistakes=0.1, chips=30, game="boodle")
    assert a == b and a != c
    assert a[0] == {"event": "game", "game": "boodle", "players": NAMES[:5], "chips": 30,
                    "rounds": 3}
    hidden = simulate(NAMES[:5], 3, 42, hidden=True, mistakes=0.1, chips=30, game="boodle")
    assert hidden == [e for e in a if e["event"] != "deal"]
    for game in GAMES:
        assert find_simulator(game) is simulate


def test_deal_sizes_follow_mr1_and_bo3() -> None:
    # 5 players, 6 hands, 52 = 6 * 8 + 4: the first four hands in deal order get 9 cards.
    res = sim("michigan-rummy", 5, 1, rounds=1)
    deal = res.full[2]
    assert [len(deal["hands"][p]) for p in NAMES[:5]] == [8, 9, 9, 9, 9]   # Ann deals
    assert len(deal["dummy"]) == 8
    res = sim("boodle", 5, 1, rounds=1)
    deal = res.full[2]
    # BO-3: the extra hand is dealt first, so it and Bob, Cy, Dee get 9; Eve and Ann 8.
    assert len(deal["dummy"]) == 9
    assert [len(deal["hands"][p]) for p in NAMES[:5]] == [8, 9, 9, 9, 8]


@pytest.mark.parametrize("bad", [
    {"players": NAMES[:2]}, {"players": ["A", "A", "B"]}, {"game": "oh-claire"},
    {"mistakes": 1.5}, {"rounds": 0}, {"chips": -1},
])
def test_bad_settings_are_refused(bad: dict[str, Any]) -> None:
    kwargs: dict[str, Any] = {"players": NAMES[:4], "rounds": 1, "seed": 0, "mistakes": 0.0,
                              "chips": None, "game": "pressman", **bad}
    with pytest.raises(ValueError):
        simulate_game(**kwargs)


def test_cli_writes_a_hidden_log() -> None:
    r = subprocess.run([sys.executable, "-m", "companion", "simulate", "--game", "pressman",
                        "--players", "5", "--rounds", "2", "--seed", "1", "--hidden",
                        "--mistakes", "0.1"], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    events = [json.loads(x) for x in r.stdout.splitlines()]
    assert events[0]["event"] == "game" and events[0]["game"] == "pressman"
    assert not any(e["event"] == "deal" for e in events)
    assert sum(e["event"] == "round" for e in events) == 2
    assert events == simulate(NAMES[:5], 2, 1, hidden=True, mistakes=0.1, chips=None,
                              game="pressman")
