"""The table in board coordinates: the board square, its cups named from the chosen disk, and
the zones proposed around it (a played-card pile per seat, trump, discard and stock areas).

Board units: the board is the square -50..50 on both axes, x to the right and y towards the
camera (south). Seats are placed clockwise from the south edge, as players sit (RULINGS: seats
are listed clockwise). Everything here is pure geometry; nothing reads pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

#: Half the side of the board square, in board units (the board spans -50..50).
BOARD_HALF = 50.0
#: Radius of the ring of money cups around the Jackpot, and their radius (board units).
CUP_RING = 33.0
CUP_RADIUS = 9.5
#: Radius of the central Jackpot cup.
JACKPOT_RADIUS = 13.0
#: Size of a card in board units (a poker card, 63 x 88 mm, on a board about 22 cm wide).
CARD_W = 24.0
CARD_H = 34.0

#: The money-card disks, cup names in order clockwise from the top of the board (+ Jackpot).
DISKS: dict[str, list[str]] = {
    # MR-14 (University Games default disk)
    "michigan-rummy": ["AS", "KD", "QS", "JH", "TD", "8-9-10 any one suit", "Q-K hearts",
                       "Poker Kitty"],
    # GL-1
    "great-lakes": ["KD", "QS", "JH", "Ace-2", "Full House Dump", "5-Card Straight", "6 Lead",
                    "Loser's Kitty"],
    # PR-1
    "pressman": ["TH", "JS", "KC", "AH", "QH", "Q-K hearts", "7-8-9 any one suit",
                 "Poker Pool"],
    # BO-1 (boodle cards; no Jackpot)
    "boodle": ["AH", "KC", "QD", "JS"],
    # OC-5: number cups 0-7
    "oh-claire": ["0", "1", "2", "3", "4", "5", "6", "7"],
    # WA-2
    "wanagan": ["1 Pair", "2 Pair", "3 of a Kind", "Full House", "Any Flush", "Any Straight",
                "4 of a Kind", "Wanagan"],
    "michigan-rum": [],
}
#: Games played without a central Jackpot cup (BO-1).
NO_JACKPOT = frozenset({"boodle", "michigan-rum"})
#: Extra table areas each game needs besides one played-card zone per seat.
EXTRA_ZONES: dict[str, list[str]] = {
    "oh-claire": ["trump"],
    "michigan-rum": ["discard", "stock"],
}

Point = tuple[float, float]


@dataclass(frozen=True)
class Cup:
    """A cup of the board: its name on the disk, centre and radius in board units."""

    name: str
    center: Point
    radius: float

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "center": list(self.center), "radius": self.radius}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Cup:
        c = data["center"]
        return cls(str(data["name"]), (float(c[0]), float(c[1])), float(data["radius"]))


@dataclass(frozen=True)
class Zone:
    """A named area of the table in board units.

    ``kind``: ``pile`` (cards a seat lays face up), ``trump``, ``discard``, ``stock``, or
    ``hidden`` (never read, masked out of anything shown or stored). ``seat`` is the seat
    index for a pile, None otherwise.
    """

    name: str
    kind: str
    polygon: tuple[Point, ...]
    seat: int | None = None
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def center(self) -> Point:
        xs = [p[0] for p in self.polygon]
        ys = [p[1] for p in self.polygon]
        return (sum(xs) / len(xs), sum(ys) / len(ys))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind,
                               "polygon": [[round(x, 3), round(y, 3)] for x, y in self.polygon]}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.meta:
            out["meta"] = self.meta
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Zone:
        poly = tuple((float(p[0]), float(p[1])) for p in data["polygon"])
        if len(poly) < 3:
            raise ValueError(f"zone {data.get('name')!r} needs at least 3 corners")
        seat = data.get("seat")
        return cls(str(data["name"]), str(data.get("kind", "pile")), poly,
                   int(seat) if seat is not None else None, dict(data.get("meta") or {}))


def seat_angle(seat: int, seats: int) -> float:
    """Direction (radians, image convention: y down) from the board centre to a seat.

    Seat 0 sits at the south edge (nearest the camera); the others follow clockwise.
    """
    return math.pi / 2 + seat * 2 * math.pi / seats


def _rect(center: Point, along: float, across: float, angle: float) -> tuple[Point, ...]:
    """A rectangle ``along`` wide (tangential) and ``across`` deep (radial) facing ``angle``."""
    cx, cy = center
    rx, ry = math.cos(angle), math.sin(angle)  # radial unit vector
    tx, ty = -ry, rx  # tangential
    pts = []
    for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        pts.append((round(cx + a * along / 2 * tx + b * across / 2 * rx, 3),
                    round(cy + a * along / 2 * ty + b * across / 2 * ry, 3)))
    return tuple(pts)


def _edge_distance(angle: float) -> float:
    """Distance from the centre to the board's edge in direction ``angle``."""
    c, s = abs(math.cos(angle)), abs(math.sin(angle))
    return BOARD_HALF / max(c, s)


def board_cups(game: str, disk: list[str] | None = None) -> list[Cup]:
    """The cups of the board for ``game``: the disk's cups clockwise from the top, then Jackpot.

    A disk with fewer than 8 names leaves the remaining cups unnamed (``cup-6``...).
    """
    names = list(disk if disk is not None else DISKS.get(game, []))
    cups: list[Cup] = []
    for k in range(8):
        ang = -math.pi / 2 + k * math.pi / 4
        name = names[k] if k < len(names) else f"cup-{k + 1}"
        cups.append(Cup(name, (round(CUP_RING * math.cos(ang), 3),
                               round(CUP_RING * math.sin(ang), 3)), CUP_RADIUS))
    if game not in NO_JACKPOT:
        cups.append(Cup("Jackpot", (0.0, 0.0), JACKPOT_RADIUS))
    else:
        cups.append(Cup("centre", (0.0, 0.0), JACKPOT_RADIUS))
    return cups


def default_zones(seats: int, game: str = "michigan-rummy",
                  depth: float = 44.0, width: float = 60.0) -> list[Zone]:
    """Proposed zones: a played-card pile in front of each seat, plus the game's extra areas.

    Each pile is a ``width`` x ``depth`` rectangle just outside the board edge facing its seat
    (so cards laid in front of a player, never their hand held further back, are read).
    Extra areas (trump, discard, stock) sit between seats, starting between seat 0 and seat 1.
    """
    if seats < 1:
        raise ValueError("a table needs at least one seat")
    zones: list[Zone] = []
    for i in range(seats):
        ang = seat_angle(i, seats)
        r = _edge_distance(ang) + 2.0 + depth / 2
        center = (r * math.cos(ang), r * math.sin(ang))
        w = min(width, 2 * math.pi * r / seats * 0.85)
        zones.append(Zone(f"seat-{i}", "pile", _rect(center, w, depth, ang), seat=i))
    for j, kind in enumerate(EXTRA_ZONES.get(game, [])):
        ang = seat_angle(j, seats) + math.pi / seats
        r = _edge_distance(ang) + 30.0
        center = (r * math.cos(ang), r * math.sin(ang))
        poly = _rect(center, CARD_H + 14, CARD_W + 14, 0.0)  # upright card
        zones.append(Zone(kind, kind, poly))
    return zones


def table_extent(zones: list[Zone], margin: float = 6.0) -> tuple[float, float, float, float]:
    """The bounding box (x1, y1, x2, y2) of the board and all zones, in board units."""
    xs = [-BOARD_HALF, BOARD_HALF] + [p[0] for z in zones for p in z.polygon]
    ys = [-BOARD_HALF, BOARD_HALF] + [p[1] for z in zones for p in z.polygon]
    return (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)
