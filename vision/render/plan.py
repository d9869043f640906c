"""A game log laid out on the synthetic table: when each visual event's cards are carried in
and land, where (each seat's pile, a revealed hand's fan, the trump spot), and the chips on
the board after each event (`plan_game` -> `GroundTruth`); the ground truth written beside a
rendered video (`write_truth`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from calibration.layout import (
    Zone,
    default_zones,
    seat_angle,
)

#: Events the camera sees (cards laid face up); everything else is entered by people.
VISUAL_EVENTS = frozenset({"play", "reveal", "trump"})


#: Events after which the table is cleared (cards collected for a new deal).
NEW_DEAL_EVENTS = frozenset({"round", "hand"})


#: The deck design of the demo table (one of vision.render.decks.TRAIN_DECKS).
DEMO_DECK = "standard"


@dataclass(frozen=True)
class RenderConfig:
    """How the table is drawn and how fast the game is played.

    Times are seconds: a hand reaches in for ``reach``, holds the card on its spot for
    ``hold`` and leaves over ``retract``; ``gap`` passes before the next move. A new deal
    clears the table and waits ``deal_pause``; a finished trick lies ``trick_pause``.
    """

    width: int = 640
    height: int = 480
    fps: float = 10.0
    deck: str = DEMO_DECK
    seed: int = 0
    reach: float = 0.35
    hold: float = 0.1
    retract: float = 0.25
    gap: float = 0.3
    lead_in: float = 0.6
    tail: float = 1.2
    deal_pause: float = 2.6
    trick_pause: float = 0.5
    camera_jitter: float = 12.0
    lighting: float = 0.25
    noise: float = 3.0
    hands: bool = True
    #: A cheap webcam's spoilers, per frame (off by default): ``salt`` is the share of pixels
    #: turned black or white (salt-and-pepper), ``contrast`` squeezes the picture towards a
    #: dim grey (1: as drawn; 0.5: half the contrast, a dim room); ``blur`` is a soft focus,
    #: a Gaussian blur of that many pixels before the sensor's noise (a fixed-focus webcam a
    #: little out of focus at the table's distance).
    salt: float = 0.0
    contrast: float = 1.0
    blur: float = 0.0


#: A cheap webcam in a dim room (`RenderConfig` fields): sensor noise of 14 grey levels, 1% of
#: the pixels black or white, half the contrast (`companion render-table --webcam`; the
#: benchmarks' webcam rounds).
WEBCAM_SPOILT: dict[str, Any] = {"noise": 14.0, "salt": 0.01, "contrast": 0.5}


@dataclass
class Placed:
    """A card on the table canvas: code, centre (board units), rotation (degrees)."""

    code: str
    x: float
    y: float
    angle: float = 0.0


@dataclass
class Move:
    """One visual event as the camera sees it: a hand brings ``cards`` from ``seat`` to their
    places. ``t0`` starts the reach; ``t_placed`` is when the cards lie still; ``t_free`` when
    the hand has left them."""

    event: dict[str, Any]
    seat: int
    cards: list[Placed]
    t0: float
    t_placed: float
    t_free: float
    t_end: float
    clears_before: bool = False
    trick_clear_after: float | None = None
    pots: dict[str, int] = field(default_factory=dict)


@dataclass
class GroundTruth:
    """The rendered game: every event of the log (visual ones with their times) and the
    script of events people enter (each with ``at``: how many visual events precede it)."""

    events: list[dict[str, Any]]
    visual: list[dict[str, Any]]
    script: list[dict[str, Any]]
    moves: list[Move]
    duration: float


def _visual_index(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    script: list[dict[str, Any]] = []
    k = 0
    for ev in events:
        if ev.get("event") in VISUAL_EVENTS:
            k += 1
        else:
            script.append({**ev, "at": k})
    return script


def split_log(events: Sequence[Mapping[str, Any]]) -> tuple[list[dict[str, Any]],
                                                            list[dict[str, Any]]]:
    """(visual events, script of the others with their ``at`` positions)."""
    return ([dict(e) for e in events if e.get("event") in VISUAL_EVENTS],
            _visual_index(events))


def pots_after(events: Sequence[Mapping[str, Any]]) -> list[dict[str, int]]:
    """Board chips after each event (cups only), from the referee's ledger."""
    from companion.referee import replay_dicts

    out: list[dict[str, int]] = []
    for i in range(len(events)):
        rep = replay_dicts(events[: i + 1])
        if rep.referee is None:
            out.append({})
            continue
        players = set(rep.referee.ledger.players)
        out.append({k: v for k, v in rep.referee.ledger.accounts.items() if k not in players})
    return out


def cup_chips(pots: Mapping[str, int], cup: str) -> int:
    """Chips in the physical cup ``cup``: its own account plus per-player accounts of it
    (Oh Claire! keeps each player's chips in a number cup apart: ``"Bob:3"``)."""
    return int(pots.get(cup, 0)) + sum(int(v) for k, v in pots.items()
                                       if k.endswith(":" + cup))


class TableLayout:
    """Where cards go: pile positions per seat, fans for reveals, the trump spot."""

    def __init__(self, seats: int, game: str) -> None:
        self.zones = default_zones(seats, game)
        self.seats = seats
        self.pile_count = [0] * seats

    def zone(self, kind: str, seat: int | None = None) -> Zone | None:
        for z in self.zones:
            if z.kind == kind and (seat is None or z.seat == seat):
                return z
        return None

    def clear(self) -> None:
        self.pile_count = [0] * len(self.pile_count)

    def facing(self, seat: int) -> float:
        """Rotation (degrees, as `paste` takes it) of a card laid by ``seat`` the right way up
        for that player: players lay cards facing themselves."""
        return 90.0 - math.degrees(seat_angle(seat, self.seats))

    def _seat_frame(self, seat: int, right: float, down: float) -> tuple[float, float]:
        """The zone-centre point ``right`` / ``down`` board units away as the seat sees it."""
        zone = self.zone("pile", seat)
        assert zone is not None
        cx, cy = _outward(zone.center, 4.0)  # keep clear of the board's edge
        a = seat_angle(seat, self.seats)
        dx, dy = math.cos(a), math.sin(a)  # "down" for that player: towards them
        return (cx + right * dy + down * dx, cy - right * dx + down * dy)

    def pile_spot(self, seat: int, rng: np.random.Generator) -> tuple[float, float]:
        """Next spot of a seat's pile: each card a little right of and nearer to the player
        than the previous one (as that player sees it), so the previous card's corner index
        stays visible; centred on the zone, so the spot lies inside it."""
        k = self.pile_count[seat] % 5
        self.pile_count[seat] += 1
        return self._seat_frame(seat, 4.5 * (k - 2) + float(rng.uniform(-1, 1)),
                                3.0 * (k - 2) + float(rng.uniform(-1, 1)))

    def fan_spots(self, seat: int, n: int) -> list[tuple[float, float]]:
        """Spots of cards shown together (a dump, a revealed hand), spread as players spread
        them for the table to see: rows of up to 5 across the player's side, each card 10
        units (about 40% of its width) right of the one before and each row 14 units nearer
        the player than the last, so every card shows its index and part of its face."""
        per_row = 5
        rows = (n + per_row - 1) // per_row
        out = []
        for i in range(n):
            row, col = divmod(i, per_row)
            in_row = min(per_row, n - row * per_row)
            out.append(self._seat_frame(seat, 10.0 * (col - (in_row - 1) / 2),
                                        14.0 * (row - (rows - 1) / 2)))
        return out

    def trump_spot(self) -> tuple[float, float]:
        zone = self.zone("trump")
        if zone is None:
            return (0.0, 0.0)
        return zone.center


def _outward(p: tuple[float, float], by: float) -> tuple[float, float]:
    """Point ``p`` moved ``by`` units away from the board's centre."""
    r = math.hypot(*p)
    return (p[0] + by * p[0] / r, p[1] + by * p[1] / r) if r else p


def plan_game(events: Sequence[Mapping[str, Any]], config: RenderConfig) -> GroundTruth:
    """Lay the log out in time: when each visual event's cards are carried in and land."""
    log = [dict(e) for e in events]
    if not log or log[0].get("event") != "game":
        raise ValueError("the log must start with a game event")
    players = list(log[0].get("players") or [])
    game = str(log[0].get("game"))
    seat_of = {p: i for i, p in enumerate(players)}
    layout = TableLayout(len(players), game)
    rng = np.random.default_rng(config.seed + 7)
    pots = pots_after(log)
    t = config.lead_in
    moves: list[Move] = []
    deals = 0
    plays_in_trick = 0
    pending_clear = False
    for i, ev in enumerate(log):
        kind = ev.get("event")
        if kind in NEW_DEAL_EVENTS:
            deals += 1
            if deals > 1 or moves:
                pending_clear = True
                layout.clear()
                t += config.deal_pause
            plays_in_trick = 0
            continue
        if kind not in VISUAL_EVENTS:
            continue
        if kind == "trump":
            dealer_seat = 0
            for prev in reversed(log[:i]):
                if prev.get("event") == "round" and prev.get("dealer") in seat_of:
                    dealer_seat = seat_of[str(prev["dealer"])]
                    break
            x, y = layout.trump_spot()
            placed = [Placed(str(ev["card"]), x, y)]
            seat = dealer_seat
        else:
            seat = seat_of[str(ev["player"])]
            codes = [str(ev["card"])] if "card" in ev else [str(c) for c in ev["cards"]]
            if len(codes) == 1 and kind == "play":
                x, y = layout.pile_spot(seat, rng)
                placed = [Placed(codes[0], x, y, layout.facing(seat) + float(rng.uniform(-4, 4)))]
            else:
                placed = [Placed(c, x, y, layout.facing(seat))
                          for c, (x, y) in zip(codes, layout.fan_spots(seat, len(codes)),
                                               strict=True)]
        t0 = t
        t_placed = t0 + config.reach
        t_free = t_placed + config.hold + config.retract
        move = Move(ev, seat, placed, t0, t_placed, t_free, t_free, pending_clear, pots=pots[i])
        pending_clear = False
        t = t_free + config.gap
        if game == "oh-claire" and kind == "play":
            plays_in_trick += 1
            if plays_in_trick == len(players):
                plays_in_trick = 0
                move.trick_clear_after = t_free + config.trick_pause
                t = move.trick_clear_after + config.gap
        move.t_end = t
        moves.append(move)
    visual, script = split_log(log)
    for mv, vis in zip(moves, visual, strict=True):
        vis["t_placed"] = round(mv.t_placed, 3)
        vis["t_free"] = round(mv.t_free, 3)
    return GroundTruth(log, visual, script, moves, t + config.tail)


def write_truth(truth: GroundTruth, base: Path) -> tuple[Path, Path]:
    tp = base.with_name(base.name + ".truth.jsonl")
    sp = base.with_name(base.name + ".script.jsonl")
    vis = iter(truth.visual)
    with open(tp, "w", encoding="utf-8") as fh:
        for ev in truth.events:
            row = next(vis) if ev.get("event") in VISUAL_EVENTS else ev
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    with open(sp, "w", encoding="utf-8") as fh:
        for ev in truth.script:
            fh.write(json.dumps(ev, ensure_ascii=False) + "\n")
    return tp, sp
