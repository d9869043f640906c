"""The built-in demo table: a simulated game drawn as a camera would see it, event by event.

Bots play a game (the simulator's hidden log: only what the table shows); each event is drawn
onto a synthetic top-down picture of the board and the seats' piles through a camera-like
homography, so the window can show outlines, names, cups and evidence exactly as with a camera.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.layout import CARD_H, CARD_W, default_zones, table_extent
from calibration.profile import TableProfile
from companion.cards import Card
from companion.referee import find_simulator

DEMO_PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
FRAME_SIZE = (960, 640)
#: Cards shown in a seat's pile at most (older ones are covered).
PILE_MAX = 5


@dataclass(frozen=True)
class CardMark:
    """A card visible in a frame: its code, its outline in image pixels and its log line."""

    code: str
    polygon: tuple[tuple[float, float], ...]
    line: int = 0


@dataclass
class TableView:
    """What lies face up on the table now: cards per zone name, with the line that put them."""

    piles: dict[str, list[tuple[str, int]]] = field(default_factory=dict)

    def clear(self) -> None:
        self.piles.clear()

    def put(self, zone: str, code: str, line: int) -> None:
        pile = self.piles.setdefault(zone, [])
        pile.append((code, line))
        del pile[:-PILE_MAX]


def camera_profile(game: str, seats: int, size: tuple[int, int] = FRAME_SIZE) -> TableProfile:
    """A table profile whose homography looks at the table from a laptop across it."""
    zones = default_zones(seats, game)
    x1, y1, x2, y2 = table_extent(zones)
    w, h = size
    src = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)
    dst = np.array([[w * 0.16, h * 0.03], [w * 0.84, h * 0.03], [w * 0.98, h * 0.97],
                    [w * 0.02, h * 0.97]], np.float32)
    hom = cv2.getPerspectiveTransform(src, dst)
    return TableProfile.propose(hom, size, game, seats)


class TableRenderer:
    """Draws the board, its cups and the face-up cards of a `TableView` through a profile."""

    def __init__(self, profile: TableProfile) -> None:
        self.profile = profile
        self._base = self._draw_base()

    def _px(self, pts: Sequence[tuple[float, float]]) -> np.ndarray:
        return self.profile.board_to_image(np.asarray(pts, np.float64))

    def _draw_base(self) -> np.ndarray:
        w, h = self.profile.image_size
        rng = np.random.default_rng(7)
        felt = np.empty((h, w, 3), np.uint8)
        felt[:] = (58, 96, 40)  # BGR green felt
        noise = rng.normal(0, 5, (h, w, 1)).astype(np.int16)
        img = np.clip(felt.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        board = np.round(self.profile.board_corners_px()).astype(np.int32)
        cv2.fillConvexPoly(img, board, (60, 110, 165), lineType=cv2.LINE_AA)
        cv2.polylines(img, [board], True, (30, 60, 90), 3, cv2.LINE_AA)
        for cup in self.profile.cups:
            ring = [(cup.center[0] + cup.radius * np.cos(a), cup.center[1] + cup.radius * np.sin(a))
                    for a in np.linspace(0, 2 * np.pi, 40, endpoint=False)]
            poly = np.round(self._px(ring)).astype(np.int32)
            cv2.fillPoly(img, [poly], (40, 75, 120), lineType=cv2.LINE_AA)
            cv2.polylines(img, [poly], True, (20, 40, 70), 2, cv2.LINE_AA)
        return img

    def card_polygon(self, center: tuple[float, float]) -> np.ndarray:
        cx, cy = center
        hw, hh = CARD_W / 2, CARD_H / 2
        return self._px([(cx - hw, cy - hh), (cx + hw, cy - hh), (cx + hw, cy + hh),
                         (cx - hw, cy + hh)])

    def render(self, view: TableView) -> tuple[np.ndarray, list[CardMark]]:
        img = self._base.copy()
        marks: list[CardMark] = []
        zones = {z.name: z for z in self.profile.zones}
        for name, pile in view.piles.items():
            zone = zones.get(name)
            if zone is None or not pile:
                continue
            zx, zy = zone.center
            xs = [p[0] for p in zone.polygon]
            span = max(xs) - min(xs)
            step = min(13.0, max(0.0, (span - CARD_W) / max(1, len(pile) - 1)))
            start = zx - step * (len(pile) - 1) / 2
            for k, (code, line) in enumerate(pile):
                poly = self.card_polygon((start + k * step, zy))
                self._draw_card(img, poly, code)
                marks.append(CardMark(code, tuple((float(x), float(y)) for x, y in poly), line))
        return img, marks

    @staticmethod
    def _draw_card(img: np.ndarray, poly: np.ndarray, code: str) -> None:
        p = np.round(poly).astype(np.int32)
        cv2.fillConvexPoly(img, p, (245, 245, 242), lineType=cv2.LINE_AA)
        cv2.polylines(img, [p], True, (90, 90, 90), 1, cv2.LINE_AA)
        card = Card.parse(code)
        colour = (30, 30, 200) if card.colour == "red" else (20, 20, 20)
        rank = "10" if card.rank == 10 else code[0]
        x0, y0 = p[0]
        cv2.putText(img, rank, (int(x0) + 3, int(y0) + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    colour, 2, cv2.LINE_AA)
        cx, cy = poly.mean(axis=0)
        _draw_suit(img, card.suit, (float(cx), float(cy) + 4), 9.0, colour)


def _draw_suit(img: np.ndarray, suit: str, c: tuple[float, float], r: float,
               colour: tuple[int, int, int]) -> None:
    """A rough suit pip, enough to tell the suits apart at a glance."""
    x, y = c
    if suit == "D":
        pts = np.array([(x, y - r), (x + 0.7 * r, y), (x, y + r), (x - 0.7 * r, y)], np.int32)
        cv2.fillConvexPoly(img, pts, colour, lineType=cv2.LINE_AA)
        return
    if suit in "HS":
        sign = 1 if suit == "H" else -1
        cv2.circle(img, (int(x - r / 2), int(y - sign * r / 3)), int(r / 2), colour, -1,
                   cv2.LINE_AA)
        cv2.circle(img, (int(x + r / 2), int(y - sign * r / 3)), int(r / 2), colour, -1,
                   cv2.LINE_AA)
        pts = np.array([(x - r, y - sign * r / 5), (x + r, y - sign * r / 5), (x, y + sign * r)],
                       np.int32)
        cv2.fillConvexPoly(img, pts, colour, lineType=cv2.LINE_AA)
    else:  # clubs
        for dx, dy in ((0, -r / 2), (-r / 2, r / 6), (r / 2, r / 6)):
            cv2.circle(img, (int(x + dx), int(y + dy)), int(r / 2.2), colour, -1, cv2.LINE_AA)
    if suit in "SC":
        stem = np.array([(x, y), (x - r / 3, y + r), (x + r / 3, y + r)], np.int32)
        cv2.fillConvexPoly(img, stem, colour, lineType=cv2.LINE_AA)


class DemoTable:
    """A simulated game shown event by event: `step` applies the next event and draws it.

    ``events`` is the whole game's log (the game event first). ``start`` skips events already
    logged (resuming a demo game).
    """

    def __init__(self, events: list[dict[str, Any]], start: int = 1,
                 size: tuple[int, int] = FRAME_SIZE) -> None:
        if not events or events[0].get("event") != "game":
            raise ValueError("the demo needs a log starting with its game event")
        self.events = events
        self.setup = events[0]
        self.players: list[str] = list(self.setup["players"])
        self.game = str(self.setup["game"])
        self.profile = camera_profile(self.game, len(self.players), size)
        self.renderer = TableRenderer(self.profile)
        self.view = TableView()
        self._trick = 0
        self.index = 1
        for _ in range(1, max(1, start)):
            self._show(self.events[self.index], 0)
            self.index += 1

    @classmethod
    def simulated(cls, game: str = "michigan-rummy", players: Sequence[str] = DEMO_PLAYERS,
                  seed: int = 1, rounds: int | None = 2, mistakes: float = 0.08,
                  chips: int | None = 50, start: int = 1) -> DemoTable:
        simulate = find_simulator(game)
        events = simulate(players=list(players), rounds=rounds, seed=seed, hidden=True,
                          mistakes=mistakes, chips=chips, game=game)
        return cls(events, start=start)

    @property
    def done(self) -> bool:
        return self.index >= len(self.events)

    def seat_zone(self, player: str) -> str:
        return f"seat-{self.players.index(player)}"

    def frame(self) -> tuple[np.ndarray, list[CardMark]]:
        return self.renderer.render(self.view)

    def step(self, line_of: Callable[[], int] | None = None) -> dict[str, Any] | None:
        """Apply the next event to the table picture; returns it (None when the game is over)."""
        if self.done:
            return None
        ev = self.events[self.index]
        self.index += 1
        self._show(ev, line_of() if line_of else 0)
        return ev

    def _show(self, ev: dict[str, Any], line: int) -> None:
        kind = ev.get("event")
        player = ev.get("player")
        if kind == "round" or kind == "hand":
            self.view.clear()
            self._trick = 0
        elif kind == "play" and isinstance(player, str) and player in self.players:
            if self.game == "oh-claire":
                if self._trick % len(self.players) == 0:
                    self.view.piles = {k: v for k, v in self.view.piles.items() if k == "trump"}
                self._trick += 1
            codes = ev.get("cards") or [ev.get("card")]
            for code in codes:
                if isinstance(code, str):
                    self.view.put(self.seat_zone(player), code, line)
        elif kind in ("reveal", "meld") and isinstance(player, str) and player in self.players:
            zone = self.seat_zone(player)
            if kind == "reveal":
                self.view.piles[zone] = []
            for code in ev.get("cards") or []:
                self.view.put(zone, str(code), line)
        elif kind == "layoff" and isinstance(player, str) and player in self.players:
            self.view.put(self.seat_zone(player), str(ev.get("card")), line)
        elif kind in ("discard", "upcard"):
            self.view.put("discard", str(ev.get("card")), line)
        elif kind == "draw" and ev.get("from") == "discard":
            pile = self.view.piles.get("discard", [])
            if pile:
                pile.pop()
        elif kind == "trump":
            self.view.piles["trump"] = [(str(ev.get("card")), line)]
