"""A synthetic card table: a wooden board with 8 cups around a Jackpot cup and the money-card
disk, chips in the cups, seats' piles growing as a game log is played, hands reaching in, seen
through a tilted camera with uneven light. Writes a video plus the ground-truth log.

It is the app's built-in demo table and the tests' end-to-end material: `TableVideo` renders
frames on the fly (with each frame's true card boxes), `render_video` writes them to a file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.layout import (
    BOARD_HALF,
    CARD_H,
    CARD_W,
    Cup,
    Zone,
    board_cups,
    default_zones,
    seat_angle,
)
from vision.sources.camera import Frame, FrameSource

#: Events the camera sees (cards laid face up); everything else is entered by people.
VISUAL_EVENTS = frozenset({"play", "reveal", "trump"})
#: Events after which the table is cleared (cards collected for a new deal).
NEW_DEAL_EVENTS = frozenset({"round", "hand"})
#: The deck design of the demo table (one of vision.decks.TRAIN_DECKS).
DEMO_DECK = "standard"
#: Chip colours (BGR) drawn in rotation.
CHIP_COLOURS = [(40, 40, 200), (235, 235, 235), (170, 90, 30), (40, 170, 230)]
CHIP_RADIUS = 2.4
#: Canvas resolution: pixels per board unit of the top-down table image.
CANVAS_SCALE = 4.0
#: Half-extent of the table shown, board units.
TABLE_HALF = 100.0


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


def _pots_after(events: Sequence[Mapping[str, Any]]) -> list[dict[str, int]]:
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
        """Rotation (degrees, as `_paste` takes it) of a card laid by ``seat`` the right way up
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
    pots = _pots_after(log)
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


# --- drawing ---------------------------------------------------------------------------------

def _canvas_size() -> int:
    return int(round(2 * TABLE_HALF * CANVAS_SCALE))


def board_to_canvas() -> np.ndarray:
    s = CANVAS_SCALE
    return np.array([[s, 0, TABLE_HALF * s], [0, s, TABLE_HALF * s], [0, 0, 1]], np.float64)


def camera_homography(config: RenderConfig) -> np.ndarray:
    """Board units -> frame pixels for a camera looking at the table from seat 0's side."""
    rng = np.random.default_rng(config.seed)
    w, h = config.width, config.height
    j = config.camera_jitter
    src = np.array([[-TABLE_HALF, -TABLE_HALF], [TABLE_HALF, -TABLE_HALF],
                    [TABLE_HALF, TABLE_HALF], [-TABLE_HALF, TABLE_HALF]], np.float32)
    dst = np.array([[0.13 * w, 0.03 * h], [0.87 * w, 0.03 * h],
                    [1.02 * w, 0.985 * h], [-0.02 * w, 0.985 * h]], np.float32)
    dst += rng.uniform(-j, j, size=dst.shape).astype(np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64)


def _wood(size: int, rng: np.random.Generator, base: tuple[int, int, int]) -> np.ndarray:
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    phase = rng.uniform(0, 6.28)
    grain = np.sin(xx * 0.05 + 3.0 * np.sin(yy * 0.013 + phase)) * 0.5 + 0.5
    fine = np.sin(xx * 0.31 + yy * 0.02) * 0.5 + 0.5
    shade = 0.82 + 0.13 * grain + 0.05 * fine
    img = np.empty((size, size, 3), np.float32)
    for c in range(3):
        img[:, :, c] = base[c] * shade
    return np.clip(img, 0, 255).astype(np.uint8)


def _felt(size: int, rng: np.random.Generator) -> np.ndarray:
    img = np.full((size, size, 3), (52, 96, 40), np.uint8)
    noise = rng.normal(0, 5, (size, size, 1)).astype(np.int16)
    return np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def _to_px(x: float, y: float) -> tuple[int, int]:
    s = CANVAS_SCALE
    return (int(round((x + TABLE_HALF) * s)), int(round((y + TABLE_HALF) * s)))


def draw_board(game: str, seed: int = 0, disk: list[str] | None = None) -> np.ndarray:
    """The table canvas (top-down, ``CANVAS_SCALE`` px per unit): felt, the wooden board with
    its title strip (south edge), the money-card disk labels and empty cups."""
    rng = np.random.default_rng(seed + 101)
    size = _canvas_size()
    canvas = _felt(size, rng)
    b = BOARD_HALF
    x1, y1 = _to_px(-b, -b)
    x2, y2 = _to_px(b, b)
    wood = _wood(x2 - x1, rng, (60, 120, 185))
    canvas[y1:y2, x1:x2] = wood
    cv2.rectangle(canvas, (x1, y1), (x2 - 1, y2 - 1), (25, 55, 95), 6)
    # Title strip along the south edge: tells calibration which way the board faces.
    sy1 = _to_px(0, b - 9)[1]
    cv2.rectangle(canvas, (x1 + 8, sy1), (x2 - 8, y2 - 8), (40, 40, 170), -1)
    cv2.putText(canvas, "MICHIGAN RUMMY", (x1 + 95, y2 - 14), cv2.FONT_HERSHEY_DUPLEX, 0.9,
                (200, 235, 245), 2, cv2.LINE_AA)
    # The disk: a lighter ring under the cups.
    cx, cy = _to_px(0, 0)
    cv2.circle(canvas, (cx, cy), int(44 * CANVAS_SCALE), (120, 170, 215), -1, cv2.LINE_AA)
    cv2.circle(canvas, (cx, cy), int(44 * CANVAS_SCALE), (30, 60, 100), 3, cv2.LINE_AA)
    for cup in board_cups(game, disk):
        _draw_cup(canvas, cup)
    return canvas


def _draw_cup(canvas: np.ndarray, cup: Cup) -> None:
    px, py = _to_px(*cup.center)
    r = int(cup.radius * CANVAS_SCALE)
    cv2.circle(canvas, (px, py), r + 3, (20, 40, 70), -1, cv2.LINE_AA)
    inner = (150, 40, 30) if cup.name == "Jackpot" else (40, 70, 30)
    cv2.circle(canvas, (px, py), r, inner, -1, cv2.LINE_AA)
    light = tuple(int(c * 1.15) for c in inner)
    cv2.circle(canvas, (px - r // 5, py - r // 5), int(r * 0.8), light, -1, cv2.LINE_AA)
    label = cup.name if len(cup.name) <= 8 else cup.name[:8]
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.4, 1)
    if cup.name != "Jackpot":
        # labels outside the cup, towards the board centre's ring edge
        ang = math.atan2(cup.center[1], cup.center[0])
        lx = px + int(math.cos(ang) * (r + 14)) - tw // 2
        ly = py + int(math.sin(ang) * (r + 14)) + th // 2
        cv2.putText(canvas, label, (lx, ly), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (20, 20, 20), 1,
                    cv2.LINE_AA)


def chip_spots(cup: Cup, n: int, seed: int) -> list[tuple[float, float]]:
    """Where ``n`` chips lie in ``cup`` (board units): spread out, overlapping only when full."""
    rng = np.random.default_rng(seed)
    spots: list[tuple[float, float]] = []
    lim = cup.radius - CHIP_RADIUS - 0.6
    for _ in range(n):
        best, best_d = (0.0, 0.0), -1.0
        for _try in range(25):
            r = lim * math.sqrt(float(rng.random()))
            a = float(rng.uniform(0, 2 * math.pi))
            p = (cup.center[0] + r * math.cos(a), cup.center[1] + r * math.sin(a))
            d = min((math.hypot(p[0] - q[0], p[1] - q[1]) for q in spots), default=99.0)
            if d > best_d:
                best, best_d = p, d
            if d >= 2 * CHIP_RADIUS + 0.5:
                break
        spots.append(best)
    return spots


def draw_chips(canvas: np.ndarray, cups: Sequence[Cup], pots: Mapping[str, int], seed: int,
               cap: int = 40) -> dict[str, int]:
    """Draw the chips of ``pots`` in their cups; returns how many were drawn per cup."""
    drawn: dict[str, int] = {}
    r = int(round(CHIP_RADIUS * CANVAS_SCALE))
    for k, cup in enumerate(cups):
        n = min(cup_chips(pots, cup.name), cap)
        drawn[cup.name] = n
        for j, (x, y) in enumerate(chip_spots(cup, n, seed * 1000 + k * 37 + n)):
            px, py = _to_px(x, y)
            col = CHIP_COLOURS[(j + k) % len(CHIP_COLOURS)]
            cv2.circle(canvas, (px, py), r, (20, 20, 20), -1, cv2.LINE_AA)
            cv2.circle(canvas, (px, py), r - 2, col, -1, cv2.LINE_AA)
            cv2.circle(canvas, (px, py), r // 2, tuple(int(c * 0.8) for c in col), 1, cv2.LINE_AA)
    return drawn


#: The demo deck's 52 cards pre-rendered (13 x 4 grid, CARD_CODES order), so the demo table
#: needs no SVG renderer.
DEMO_ATLAS = Path(__file__).resolve().parent / "assets" / "demo-deck.png"


@lru_cache(maxsize=1)
def _atlas() -> np.ndarray | None:
    img = cv2.imread(str(DEMO_ATLAS), cv2.IMREAD_UNCHANGED) if DEMO_ATLAS.exists() else None
    return img if img is not None and img.ndim == 3 and img.shape[2] == 4 else None


@lru_cache(maxsize=256)
def _card_sprite(deck: str, code: str) -> np.ndarray:
    from companion.cards import CARD_CODES

    h = int(round(CARD_H * CANVAS_SCALE))
    w = int(round(CARD_W * CANVAS_SCALE))
    atlas = _atlas() if deck == DEMO_DECK else None
    if atlas is not None and atlas.shape[0] == 4 * h and atlas.shape[1] == 13 * w:
        r, c = divmod(CARD_CODES.index(code), 13)
        return np.ascontiguousarray(atlas[r * h:(r + 1) * h, c * w:(c + 1) * w])
    from vision.render.decks import render_card

    img = np.array(render_card(deck, code, h))
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)


def _paste(canvas: np.ndarray, sprite: np.ndarray, x: float, y: float, angle: float,
           ids: np.ndarray | None = None, ident: int = 0) -> None:
    """Alpha-blend a BGRA sprite centred at board point (x, y), rotated ``angle`` degrees."""
    h, w = sprite.shape[:2]
    cx, cy = (x + TABLE_HALF) * CANVAS_SCALE, (y + TABLE_HALF) * CANVAS_SCALE
    if abs(angle) > 0.01:
        diag = int(math.ceil(math.hypot(w, h))) + 2
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[0, 2] += (diag - w) / 2
        m[1, 2] += (diag - h) / 2
        sprite = cv2.warpAffine(sprite, m, (diag, diag), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        h, w = diag, diag
    x0, y0 = int(round(cx - w / 2)), int(round(cy - h / 2))
    H, W = canvas.shape[:2]
    sx0, sy0 = max(0, -x0), max(0, -y0)
    sx1, sy1 = min(w, W - x0), min(h, H - y0)
    if sx1 <= sx0 or sy1 <= sy0:
        return
    region = canvas[y0 + sy0:y0 + sy1, x0 + sx0:x0 + sx1]
    spr = sprite[sy0:sy1, sx0:sx1]
    a = spr[:, :, 3:4].astype(np.float32) / 255.0
    region[:] = (spr[:, :, :3] * a + region * (1 - a)).astype(np.uint8)
    if ids is not None:
        ids[y0 + sy0:y0 + sy1, x0 + sx0:x0 + sx1][spr[:, :, 3] > 128] = ident


def _draw_hand(canvas: np.ndarray, seat: int, seats: int, x: float, y: float,
               ids: np.ndarray | None = None) -> None:
    """A forearm and hand reaching from the seat's side of the table to (x, y)."""
    ang = seat_angle(seat, seats)
    far = (x + 140 * math.cos(ang), y + 140 * math.sin(ang))
    palm = (x + 15 * math.cos(ang), y + 15 * math.sin(ang))
    skin = (120, 150, 200)
    p0, p1 = _to_px(*palm), _to_px(*far)
    cv2.line(canvas, p0, p1, (60, 60, 110), int(16 * CANVAS_SCALE), cv2.LINE_AA)  # sleeve
    cv2.ellipse(canvas, p0, (int(9 * CANVAS_SCALE), int(11 * CANVAS_SCALE)),
                math.degrees(ang), 0, 360, skin, -1, cv2.LINE_AA)
    for k in (-1.5, -0.5, 0.5, 1.5):  # fingers towards the card
        tang = ang + math.pi / 2
        fx = palm[0] + k * 4 * math.cos(tang) - 10 * math.cos(ang)
        fy = palm[1] + k * 4 * math.sin(tang) - 10 * math.sin(ang)
        cv2.line(canvas, p0, _to_px(fx, fy), skin, int(3.2 * CANVAS_SCALE), cv2.LINE_AA)
    if ids is not None:
        cv2.line(ids, p0, p1, -2, int(16 * CANVAS_SCALE))
        cv2.ellipse(ids, p0, (int(11 * CANVAS_SCALE), int(13 * CANVAS_SCALE)),
                    math.degrees(ang), 0, 360, -2, -1)


@dataclass
class FrameTruth:
    """What a rendered frame shows: time, the frame, and each card with its box in frame
    pixels and whether a corner index is visible (not covered by another card or a hand)."""

    index: int
    t: float
    image: np.ndarray
    cards: list[tuple[str, tuple[float, float, float, float], bool]]
    #: Each card's pose on the table, in the order of ``cards``: (x, y, angle) in board
    #: units and `_paste` degrees (for labels in other views than the frame).
    poses: list[tuple[float, float, float]] = field(default_factory=list)
    #: With ``render(..., outlines=True)``: each card's visible part (not covered by other
    #: cards or a hand) as a convex outline in board units, in the order of ``cards``; an
    #: empty array for a card wholly covered. Training labels box this part, as the
    #: detector's box convention asks (a box surrounds the visible part of a card).
    outlines: list[np.ndarray] = field(default_factory=list)


class TableVideo:
    """Renders a game log as camera frames, on the fly.

    >>> # video = TableVideo(events); for f in video.frames(): ...
    """

    def __init__(self, events: Sequence[Mapping[str, Any]], config: RenderConfig | None = None,
                 disk: list[str] | None = None) -> None:
        self.config = config or RenderConfig()
        self.truth = plan_game(events, self.config)
        first = self.truth.events[0]
        self.game = str(first.get("game"))
        self.players = [str(p) for p in first.get("players") or []]
        self.cups = board_cups(self.game, disk)
        self.zones = default_zones(len(self.players), self.game)
        self.board_canvas = draw_board(self.game, self.config.seed, disk)
        self.h_board = camera_homography(self.config)
        self.h_canvas = self.h_board @ np.linalg.inv(board_to_canvas())
        self._light = self._lighting()
        self._initial_pots = _pots_after(self.truth.events[:3])[-1] if self.truth.events else {}
        self._static_key: Any = None
        self._static: tuple[np.ndarray, np.ndarray] = (self.board_canvas, self.board_canvas)

    @property
    def duration(self) -> float:
        return self.truth.duration

    @property
    def frame_count(self) -> int:
        return int(math.floor(self.duration * self.config.fps)) + 1

    def _lighting(self) -> np.ndarray:
        cfg = self.config
        rng = np.random.default_rng(cfg.seed + 3)
        yy, xx = np.mgrid[0:cfg.height, 0:cfg.width].astype(np.float32)
        lx, ly = rng.uniform(0.2, 0.8) * cfg.width, rng.uniform(-0.2, 0.4) * cfg.height
        d = np.hypot(xx - lx, yy - ly) / math.hypot(cfg.width, cfg.height)
        gain = 1.0 + cfg.lighting * (0.5 - d)
        return gain[:, :, None].astype(np.float32)

    def _state_at(self, t: float) -> tuple[list[tuple[Placed, int]], Move | None, float,
                                            dict[str, int]]:
        """Cards lying on the table at time t (with their move index), the move in flight and
        its progress 0..1 (reach) / 1..2 (retract), and the board's chips."""
        lying: list[tuple[Placed, int]] = []
        flying: Move | None = None
        progress = 0.0
        pots = dict(self._initial_pots)
        for k, mv in enumerate(self.truth.moves):
            if mv.t0 > t:
                break
            if mv.clears_before:
                lying = []
            if t < mv.t_placed:
                flying, progress = mv, (t - mv.t0) / max(1e-6, mv.t_placed - mv.t0)
                break
            lying.extend((c, k) for c in mv.cards)
            if t < mv.t_free:
                flying = mv
                progress = 1.0 + max(0.0, t - mv.t_placed - self.config.hold) / max(
                    1e-6, self.config.retract)
            pots = mv.pots
            if mv.trick_clear_after is not None and t >= mv.trick_clear_after:
                lying = [(c, j) for c, j in lying if self.truth.moves[j].event.get("event")
                         != "play"]
        return lying, flying, progress, pots

    def render(self, t: float, index: int = 0, outlines: bool = False) -> FrameTruth:
        cfg = self.config
        lying, flying, progress, pots = self._state_at(t)
        key = (tuple((p.code, p.x, p.y) for p, _ in lying), tuple(sorted(pots.items())))
        if self._static_key != key:
            base = self.board_canvas.copy()
            draw_chips(base, self.cups, pots, cfg.seed)
            base_ids = np.full(base.shape[:2], -1, np.int32)
            for ident, (placed, _k) in enumerate(lying):
                _paste(base, _card_sprite(cfg.deck, placed.code), placed.x, placed.y,
                       placed.angle, base_ids, ident)
            self._static = (base, base_ids)
            self._static_key = key
        canvas = self._static[0].copy()
        ids = self._static[1].copy()
        entries: list[tuple[str, float, float, float]] = [
            (p.code, p.x, p.y, p.angle) for p, _ in lying]
        if flying is not None and progress < 1.0:
            seat_ang = seat_angle(flying.seat, len(self.players))
            off = (1.0 - progress) * 90.0
            dx, dy = off * math.cos(seat_ang), off * math.sin(seat_ang)
            for placed in flying.cards:
                ident = len(entries)
                _paste(canvas, _card_sprite(cfg.deck, placed.code), placed.x + dx,
                       placed.y + dy, placed.angle + 25 * (1 - progress), ids, ident)
                entries.append((placed.code, placed.x + dx, placed.y + dy, placed.angle))
        if flying is not None and cfg.hands and progress < 2.0:
            seat_ang = seat_angle(flying.seat, len(self.players))
            cxs = [c.x for c in flying.cards]
            cys = [c.y for c in flying.cards]
            hx, hy = float(np.mean(cxs)), float(np.mean(cys))
            if progress < 1.0:
                off = (1.0 - progress) * 90.0
            else:
                off = (progress - 1.0) * 110.0
            hx += off * math.cos(seat_ang) + 8 * math.cos(seat_ang)
            hy += off * math.sin(seat_ang) + 8 * math.sin(seat_ang)
            _draw_hand(canvas, flying.seat, len(self.players), hx, hy, ids)
        frame = cv2.warpPerspective(canvas, self.h_canvas, (cfg.width, cfg.height),
                                    flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        frame = self._finish(frame, index)
        cards = [(code, self._box(x, y, ang), self._visible(ids, i, x, y, ang))
                 for i, (code, x, y, ang) in enumerate(entries)]
        truth = FrameTruth(index, t, frame, cards, [(x, y, ang) for _c, x, y, ang in entries])
        if outlines:
            truth.outlines = [_visible_outline(ids, i, x, y, ang)
                              for i, (_code, x, y, ang) in enumerate(entries)]
        return truth

    def _finish(self, frame: np.ndarray, index: int) -> np.ndarray:
        cfg = self.config
        out = frame.astype(np.float32) * self._light
        if cfg.noise > 0:
            rng = np.random.default_rng(cfg.seed * 100003 + index)
            out += rng.normal(0, cfg.noise, out.shape[:2])[:, :, None].astype(np.float32)
        return np.clip(out, 0, 255).astype(np.uint8)

    def _box(self, x: float, y: float, angle: float) -> tuple[float, float, float, float]:
        from calibration.profile import apply_homography

        img = apply_homography(self.h_board, card_corners(x, y, angle))
        return (float(img[:, 0].min()), float(img[:, 1].min()), float(img[:, 0].max()),
                float(img[:, 1].max()))

    def _visible(self, ids: np.ndarray, ident: int, x: float, y: float,
                 angle: float = 0.0) -> bool:
        """True when either corner index of the card is mostly uncovered."""
        a = math.radians(angle)
        upright = abs(math.cos(a)) >= abs(math.sin(a))
        indices = [(-(CARD_W / 2 - 2.5), -(CARD_H / 2 - 4.5)), (CARD_W / 2 - 2.5, CARD_H / 2 - 4.5)]
        for cx, cy in card_points(x, y, angle, indices):
            px, py = _to_px(float(cx), float(cy))
            r = int(2 * CANVAS_SCALE)
            ry, rx = (2 * r, r) if upright else (r, 2 * r)  # the index is tall
            patch = ids[max(0, py - ry):py + ry, max(0, px - rx):px + rx]
            if patch.size and float(np.mean(patch == ident)) > 0.6:
                return True
        return False

    def frames(self, start: float = 0.0) -> Iterator[FrameTruth]:
        """Every frame of the game at ``fps``, from ``start`` seconds."""
        fps = self.config.fps
        i = int(math.ceil(start * fps))
        while i / fps <= self.duration:
            yield self.render(i / fps, i)
            i += 1

    def profile(self) -> Any:
        """The table profile a perfect calibration would find (for tests and the demo)."""
        from calibration.profile import TableProfile

        return TableProfile(self.h_board, (self.config.width, self.config.height), self.cups,
                            self.zones, self.game, len(self.players),
                            {"source": "rendered", "seed": self.config.seed})


def _visible_outline(ids: np.ndarray, ident: int, x: float, y: float,
                     angle: float) -> np.ndarray:
    """Convex outline (board units) of the canvas pixels that show card ``ident``."""
    corners = np.array([_to_px(float(cx), float(cy)) for cx, cy in card_corners(x, y, angle)])
    h, w = ids.shape[:2]
    x0, y0 = max(0, int(corners[:, 0].min()) - 2), max(0, int(corners[:, 1].min()) - 2)
    x1, y1 = min(w, int(corners[:, 0].max()) + 3), min(h, int(corners[:, 1].max()) + 3)
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, 2))
    ys, xs = np.nonzero(ids[y0:y1, x0:x1] == ident)
    if len(xs) < 3:
        return np.zeros((0, 2))
    pts = np.column_stack([xs + x0, ys + y0]).astype(np.int32)
    hull = cv2.convexHull(pts).reshape(-1, 2).astype(np.float64)
    return hull / CANVAS_SCALE - TABLE_HALF


def card_points(x: float, y: float, angle: float,
                offsets: Sequence[tuple[float, float]]) -> np.ndarray:
    """Points given in the card's own frame (board units from its centre, x right, y down)
    on a card centred at (x, y) and turned ``angle`` degrees as `_paste` turns it."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    return np.array([(x + px * ca + py * sa, y - px * sa + py * ca) for px, py in offsets])


def card_corners(x: float, y: float, angle: float) -> np.ndarray:
    """The four corners (board units) of a card centred at (x, y), turned ``angle`` degrees."""
    w, h = CARD_W / 2, CARD_H / 2
    return card_points(x, y, angle, [(-w, -h), (w, -h), (w, h), (-w, h)])


def render_video(events: Sequence[Mapping[str, Any]], out: str | Path,
                 config: RenderConfig | None = None, truth_path: str | Path | None = None
                 ) -> GroundTruth:
    """Render ``events`` to a video file ``out`` (.mp4 or .avi) and write the ground truth:
    ``<out>.truth.jsonl`` (the whole log, visual events with times) and ``<out>.script.jsonl``
    (the events people enter, with ``at``)."""
    video = TableVideo(events, config)
    cfg = video.config
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fourcc = cv2.VideoWriter.fourcc(*("mp4v" if out.suffix.lower() == ".mp4" else "MJPG"))
    writer = cv2.VideoWriter(str(out), fourcc, cfg.fps, (cfg.width, cfg.height))
    if not writer.isOpened():
        raise OSError(f"cannot write video {out}")
    try:
        for ft in video.frames():
            writer.write(ft.image)
    finally:
        writer.release()
    base = Path(truth_path) if truth_path else out.with_suffix("")
    write_truth(video.truth, base)
    return video.truth


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


def simulated_round(game: str = "michigan-rummy", players: Sequence[str] = ("Ann", "Bob", "Cy",
                                                                             "Dee"),
                    seed: int = 0, max_rounds: int = 1) -> list[dict[str, Any]]:
    """A simulated game log cut after ``max_rounds`` rounds (hands), hidden mode."""
    from companion.referee import find_simulator

    sim = find_simulator(game)
    events = sim(players=list(players), rounds=max_rounds, seed=seed, hidden=True, mistakes=0.0,
                 chips=None, game=game)
    out: list[dict[str, Any]] = []
    rounds = 0
    for ev in events:
        if ev.get("event") == "round":
            rounds += 1
            if rounds > max_rounds:
                break
        out.append(dict(ev))
    return out


class RenderedSource(FrameSource):
    """A `vision.sources.FrameSource` drawing a game log on the fly (the demo table).

    ``realtime=True`` paces frames to the wall clock (as a camera would deliver them);
    otherwise frames come as fast as they are asked for. ``last`` is the latest `FrameTruth`
    (true card boxes, for tests and the oracle detector).
    """

    def __init__(self, video: TableVideo, realtime: bool = False, loop: bool = False) -> None:
        self.video = video
        self.realtime = realtime
        self.loop = loop
        self.live = realtime
        self.name = f"demo table ({video.game})"
        self.last: FrameTruth | None = None
        self._frames = video.frames()
        self._start: float | None = None
        self._closed = False
        self._offset = 0.0

    @property
    def fps(self) -> float | None:
        return self.video.config.fps

    @property
    def truth(self) -> GroundTruth:
        return self.video.truth

    def read(self) -> Frame | None:
        if self._closed:
            return None
        try:
            ft = next(self._frames)
        except StopIteration:
            if not self.loop:
                return None
            self._offset += self.video.duration
            self._frames = self.video.frames()
            ft = next(self._frames)
        if self.realtime:
            import time

            now = time.monotonic()
            if self._start is None:
                self._start = now - ft.t
            wait = self._start + self._offset + ft.t - now
            if wait > 0:
                time.sleep(wait)
        self.last = ft
        return Frame(ft.image, self._offset + ft.t, ft.index)

    def skip(self, count: int) -> int:
        """Pass over the next ``count`` frames without drawing them."""
        fps = self.video.config.fps
        first = self.last.index + 1 if self.last is not None else 0
        end = first
        while end < first + count and end / fps <= self.video.duration:
            end += 1
        self._frames = self._frames_from(end)
        return end - first

    def _frames_from(self, index: int) -> Iterator[FrameTruth]:
        fps = self.video.config.fps
        while index / fps <= self.video.duration:
            yield self.video.render(index / fps, index)
            index += 1

    def close(self) -> None:
        self._closed = True



def demo_source(seed: int = 0, game: str = "michigan-rummy", realtime: bool = False,
                config: RenderConfig | None = None, players: Sequence[str] | None = None,
                rounds: int = 1) -> tuple[RenderedSource, GroundTruth]:
    """The built-in demo table: ``rounds`` simulated rounds of ``game`` rendered on the fly,
    with their ground truth (the log, the visual events with their times, the script of typed
    events). ``players`` names the seats (default: Ann, Bob, Cy, Dee)."""
    events = (simulated_round(game, players, seed=seed, max_rounds=rounds) if players
              else simulated_round(game, seed=seed, max_rounds=rounds))
    cfg = config or RenderConfig(seed=seed)
    video = TableVideo(events, cfg)
    return RenderedSource(video, realtime=realtime), video.truth


class TruthDetector:
    """A stand-in detector for the rendered table: reports the cards whose corner index is
    visible in the frame the source delivered last, optionally with box jitter, dropped
    cards and misreads. For tests of everything after the model, and a demo without weights.
    """

    def __init__(self, source: RenderedSource, *, jitter: float = 0.0, drop: float = 0.0,
                 misread: float = 0.0, confidence: float = 0.9, seed: int = 0) -> None:
        self.source = source
        self.jitter = jitter
        self.drop = drop
        self.misread = misread
        self.confidence = confidence
        self._rng = np.random.default_rng(seed)

    def detect(self, frame_bgr: np.ndarray) -> Any:
        from companion.cards import CARD_CODES
        from vision.detections import Detections

        ft = self.source.last
        if ft is None:
            return Detections.empty()
        boxes, confs, ids = [], [], []
        for code, box, visible in ft.cards:
            if not visible or self._rng.random() < self.drop:
                continue
            if self._rng.random() < self.misread:
                code = CARD_CODES[int(self._rng.integers(0, 52))]
            j = self._rng.normal(0, self.jitter, 4) if self.jitter else np.zeros(4)
            boxes.append(np.array(box) + j)
            confs.append(self.confidence)
            ids.append(CARD_CODES.index(code))
        if not boxes:
            return Detections.empty()
        return Detections(np.array(boxes), np.array(confs), np.array(ids))
