"""Michigan Rum simulated games: scores add up, every bot mistake is caught, nothing leaks.

The bots keep their own tally; the referee must agree with it, and every round's points must
equal what the 52 cards say (RU-4) wherever they ended up.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import Card, full_deck
from companion.cli import main
from companion.games.rum.sim import RoundRecord, SimGame, play_game
from companion.referee import find_simulator, replay_dicts

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


def value(c: Card) -> int:
    """RU-4 card values, written out again here: A 15, K Q J 10, others face value."""
    return 15 if c.rank == 14 else 10 if c.rank >= 11 else c.rank


DECK_POINTS = sum(value(c) for c in full_deck())


def round_points(rec: RoundRecord) -> int:
    """What a round must have scored, from where its cards lie: every card on the table (a
    low ace counts 1), plus every card left in a hand when somebody went out."""
    table = 0
    for m in rec.melds:
        for k, c in enumerate(m):
            low_ace = c.rank == 14 and k == 0 and len(m) > 1 and m[1].rank == 2 \
                and m[1].suit == c.suit
            table += 1 if low_ace else value(c)
    hands = sum(value(c) for h in rec.hands.values() for c in h)
    return table + (hands if rec.out else 0)


def check_game(g: SimGame, target: int = 500) -> dict[str, Any]:
    report = replay_dicts(g.events).report()
    assert report["errors"] == []
    assert report["chips"] == g.scores
    assert report["pots"] == {}
    found = sorted((v["line"], v["player"], v["rule"]) for v in report["violations"])
    assert found == sorted(g.mistakes)
    assert report["round"] == len(g.rounds)
    # Scores add up: each round's points are what its cards are worth...
    totals = {p: 0 for p in g.scores}
    for rec in g.rounds:
        assert sum(rec.points.values()) == round_points(rec)
        everywhere = [c for h in rec.hands.values() for c in h] + rec.pile + rec.stock + \
            [c for m in rec.melds for c in m]
        assert sorted(everywhere) == sorted(full_deck())
        if rec.out:
            assert rec.hands[rec.out] == []
            on_table = sum(value(c) for c in everywhere) - sum(value(c) for c in rec.pile) \
                - sum(value(c) for c in rec.stock)
            lows = sum(14 for m in rec.melds for k, c in enumerate(m)
                       if c.rank == 14 and k == 0 and len(m) > 1 and m[1].rank == 2)
            assert sum(rec.points.values()) == on_table - lows
        for p, n in rec.points.items():
            totals[p] += n
    assert totals == report["chips"]
    # ...and the game stops at the end of the first round that reaches the target (RU-4).
    running = {p: 0 for p in g.scores}
    for k, rec in enumerate(g.rounds, start=1):
        for p, n in rec.points.items():
            running[p] += n
        if k < len(g.rounds):
            assert max(running.values()) < target
    assert max(running.values()) >= target
    assert report["finished"]
    return report


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6), st.booleans(),
       st.sampled_from([0.0, 0.0, 0.05, 0.2]))
def test_simulated_games_add_up(n: int, seed: int, hidden: bool, mistakes: float) -> None:
    g = play_game(NAMES[:n], seed=seed, hidden=hidden, mistakes=mistakes)
    report = check_game(g)
    if mistakes == 0:
        assert report["violations"] == []


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10**6))
def test_games_with_the_stock_turned_over_add_up(n: int, seed: int) -> None:
    g = play_game(NAMES[:n], seed=seed, hidden=True, mistakes=0.05,
                  house={"stock_out": "reuse", "target": 250})
    check_game(g, target=250)


def test_a_rounds_limit_stops_the_game() -> None:
    g = play_game(NAMES[:4], rounds=2, seed=5)
    report = replay_dicts(g.events).report()
    assert report["round"] == 2 and report["finished"] and report["chips"] == g.scores


def test_bots_meld_and_sometimes_draw_deep() -> None:
    deep = melds = taken = 0
    for seed in range(4):
        g = play_game(NAMES[:4], seed=seed, hidden=True)
        pile: list[str] = []
        for ev in g.events:
            kind = ev["event"]
            if kind == "upcard":
                pile = [ev["card"]]
            elif kind == "discard":
                pile.append(ev["card"])
            elif kind == "draw" and ev["from"] == "discard":
                k = pile.index(ev["card"])
                taken += 1
                deep += len(pile) - k >= 3
                del pile[k:]
            elif kind == "meld":
                melds += 1
        assert all(rec.melds for rec in g.rounds)
    assert melds > 20 and taken > 10 and deep > 0


def test_announcements_are_the_same_with_or_without_the_deal() -> None:
    # The same game logged with full information and as the camera sees it: the deal must not
    # change a word of what is said (hidden hands and the stock stay hidden).
    full = play_game(NAMES[:3], seed=11, hidden=False, mistakes=0.1)
    seen = play_game(NAMES[:3], seed=11, hidden=True, mistakes=0.1)
    said_full = [a["text"] for a in replay_dicts(full.events).report()["announcements"]]
    said_seen = [a["text"] for a in replay_dicts(seen.events).report()["announcements"]]
    assert said_full == said_seen
    assert any(ev["event"] == "deal" for ev in full.events)
    assert not any(ev["event"] == "deal" for ev in seen.events)


def test_stock_draws_are_never_announced_by_card() -> None:
    g = play_game(NAMES[:2], seed=3, hidden=False)
    report = replay_dicts(g.events).report()
    by_line = {a["line"]: a["text"] for a in report["announcements"]}
    for line, ev in enumerate(g.events, start=1):
        if ev["event"] == "draw" and ev["from"] == "stock":
            assert by_line[line].endswith("draws from the stock")


MUTATIONS = ["drop", "swap", "card", "player", "garble", "duplicate"]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=6))
def test_corrupted_logs_never_crash_the_referee(seed: int, mutations: list[str]) -> None:
    rng = random.Random(seed)
    events = [dict(e) for e in play_game(NAMES[:3], rounds=2, seed=seed % 50,
                                         hidden=rng.random() < 0.5, mistakes=0.1).events]
    for m in mutations:
        k = rng.randrange(1, len(events))
        if m == "drop":
            del events[k]
        elif m == "swap":
            j = rng.randrange(1, len(events))
            events[k], events[j] = events[j], events[k]
        elif m == "card":
            for key in ("card", "cards"):
                if key in events[k]:
                    events[k][key] = rng.choice(["2C", "ZZ", 7, None, ["AS"], ["AS", "AS"]])
        elif m == "player":
            events[k]["player"] = rng.choice(["Zed", None, 3, "Ann"])
        elif m == "garble":
            events[k] = {"event": rng.choice(["meld", "layoff", "draw", "reveal", "round"]),
                         "meld": rng.choice([0, -1, "XX", 99, None])}
        else:
            events.insert(k, dict(events[k]))
    report = replay_dicts(events).report()
    json.dumps(report)
    assert not any("internal error" in e["text"] for e in report["errors"])
    assert set(report["chips"]) == set(NAMES[:3])
    assert all(isinstance(v, int) and v >= 0 for v in report["chips"].values())


def test_the_command_line_simulates_and_referees(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rum.jsonl"
    assert main(["simulate", "--game", "michigan-rum", "--players", "4", "--seed", "7",
                 "--hidden", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["referee", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    g = play_game(NAMES[:4], seed=7, hidden=True)
    assert report["game"] == "michigan-rum" and report["finished"]
    assert report["chips"] == g.scores and report["errors"] == []
    assert max(report["chips"].values()) >= 500
    assert find_simulator("michigan-rum")(players=NAMES[:2], rounds=1, seed=1, hidden=True,
                                          mistakes=0.0, chips=None, game="michigan-rum")
