"""Helpers for the Michigan referee tests: build logs, add a full deal to a hidden log.

A hidden game that ran to the reveals shows every live card, so the deal (and the dummy, the
cards nobody showed) can be rebuilt and put back into the log: the same game in full mode.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.cards import CARD_CODES, Card
from companion.referee import Replay, replay_dicts

EXAMPLES = Path(__file__).resolve().parent / "golden"


def load(name: str) -> list[dict[str, Any]]:
    with open(EXAMPLES / name, encoding="utf-8") as fh:
        return [json.loads(x) for x in fh if x.strip()]


def with_deal(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same log with a full ``deal`` event after every ``round`` event (no sales or
    exchanges: the dummy is the cards nobody showed)."""
    rounds: list[list[dict[str, Any]]] = []
    head: list[dict[str, Any]] = []
    for ev in events:
        if ev["event"] == "round":
            rounds.append([ev])
        elif rounds:
            rounds[-1].append(ev)
        else:
            head.append(ev)
    out = list(head)
    players = head[0]["players"]
    for evs in rounds:
        hands: dict[str, list[str]] = {p: [] for p in players}
        for ev in evs:
            if ev["event"] == "play":
                hands[ev["player"]] += ev.get("cards") or [ev["card"]]
            elif ev["event"] == "reveal":
                hands[ev["player"]] += ev["cards"]
        shown = {Card.parse(c).code for cs in hands.values() for c in cs}
        dummy = [c for c in CARD_CODES if c not in shown]
        out.append(evs[0])
        out.append({"event": "deal", "hands": hands, "dummy": dummy})
        out.extend(evs[1:])
    return out


def run(events: list[dict[str, Any]]) -> Replay:
    return replay_dicts(events)


def chips_by_round(result: Replay) -> list[dict[str, int]]:
    assert result.referee is not None
    return [dict(h) for h in result.referee.ledger.round_history]


def game(name: str = "michigan-rummy", players: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee"),
         chips: int = 50, rounds: int = 1, **extra: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"event": "game", "game": name, "players": list(players),
                          "chips": chips, "rounds": rounds}
    ev.update(extra)
    return ev


def plays(text: str) -> list[dict[str, Any]]:
    """``"Bob 2S, Ann 3S 4S"`` -> play events (several cards after a name: one play each)."""
    out: list[dict[str, Any]] = []
    for part in text.split(","):
        bits = part.split()
        if not bits:
            continue
        for c in bits[1:]:
            out.append({"event": "play", "player": bits[0], "card": c})
    return out


_FILL_ORDER = [Card(r, s) for r in range(14, 1, -1) for s in "SHDC"]


class Table:
    """A hand-written round: chosen cards for some hands, the rest dealt from the top ranks
    (the dummy first), then plays; ``hidden()`` is the log a camera would give and ``full()``
    the same with the ``deal`` event."""

    def __init__(self, game_name: str = "michigan-rummy",
                 players: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee"),
                 chips: int | dict[str, int] = 50, rounds: int = 5,
                 house: dict[str, Any] | None = None) -> None:
        ev: dict[str, Any] = {"event": "game", "game": game_name, "players": list(players),
                              "chips": chips, "rounds": rounds}
        if house:
            ev["house"] = house
        self.players = players
        self.game_name = game_name
        self.first = game_name == "boodle" or (house or {}).get("dummy_dealt") == "first"
        self.events: list[dict[str, Any]] = [ev]
        self.deals: dict[int, dict[str, Any]] = {}
        self.hands: dict[str, list[Card]] = {}

    def round(self, dealer: str, hands: dict[str, str] | None = None, dummy: str = "",
              action: dict[str, Any] | None = None) -> Table:
        from companion.cards import cards, hand_sizes
        sizes = hand_sizes(list(self.players), dealer, extra="first" if self.first else "last")
        chosen = {p: cards(t) for p, t in (hands or {}).items()}
        chosen["(dummy)"] = cards(dummy)
        used = [c for cs in chosen.values() for c in cs]
        assert len(set(used)) == len(used), "a card chosen twice"
        rest = [c for c in _FILL_ORDER if c not in used]
        order = ["(dummy)"] + list(self.players)
        full: dict[str, list[Card]] = {}
        for who in order:
            got = list(chosen.get(who, []))
            assert len(got) <= sizes[who], f"{who} gets {sizes[who]} cards"
            while len(got) < sizes[who]:
                got.append(rest.pop(0))
            full[who] = got
        self.events.append({"event": "round", "dealer": dealer})
        self.deals[len(self.events)] = {
            "event": "deal", "hands": {p: [c.code for c in full[p]] for p in self.players},
            "dummy": [c.code for c in full["(dummy)"]]}
        self.hands = {p: list(full[p]) for p in self.players}
        if action:
            self.events.append({"event": "dummy", **action})
            taker = action.get("buyer") or (dealer if action["action"] == "exchange" else None)
            if taker:
                self.hands[taker] = list(full["(dummy)"])
        return self

    def play(self, player: str, *codes: str) -> Table:
        cs = [Card.parse(c) for c in codes]
        for c in cs:
            self.hands[player].remove(c)
        if len(cs) == 1:
            self.events.append({"event": "play", "player": player, "card": cs[0].code})
        else:
            self.events.append({"event": "play", "player": player,
                                "cards": [c.code for c in cs]})
        return self

    def plays(self, text: str) -> Table:
        """``"Bob 2S, Ann 3S 4H"``: one play event per card."""
        for part in text.split(","):
            bits = part.split()
            for c in bits[1:]:
                self.play(bits[0], c)
        return self

    def end(self, end_round: bool = False) -> Table:
        """Reveal every hand still holding cards (after an ``end-round`` if asked)."""
        if end_round:
            self.events.append({"event": "end-round"})
        for p in self.players:
            if self.hands[p]:
                self.events.append({"event": "reveal", "player": p,
                                    "cards": [c.code for c in self.hands[p]]})
        return self

    def line_of_last(self, hidden: bool = True) -> int:
        """The line number of the last event in ``hidden()`` (or ``full()``)."""
        return len(self.hidden() if hidden else self.full())

    def hidden(self) -> list[dict[str, Any]]:
        return list(self.events)

    def full(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for i, ev in enumerate(self.events, start=1):
            out.append(ev)
            if i in self.deals:
                out.append(self.deals[i])
        return out
