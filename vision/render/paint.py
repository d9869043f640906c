"""Painting the synthetic table top-down: felt, the wooden board with its cups and money-card
disk, chips in the cups, card faces (the demo deck's shipped atlas, or any deck through
`vision.render.decks`), a forearm reaching in; card geometry in board units.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from calibration.layout import (
    BOARD_HALF,
    CARD_H,
    CARD_W,
    Cup,
    board_cups,
    seat_angle,
)
from vision.render.plan import DEMO_DECK, cup_chips

#: Chip colours (BGR) drawn in rotation.
CHIP_COLOURS = [(40, 40, 200), (235, 235, 235), (170, 90, 30), (40, 170, 230)]


CHIP_RADIUS = 2.4


#: Canvas resolution: pixels per board unit of the top-down table image.
CANVAS_SCALE = 4.0


#: Half-extent of the table shown, board units.
TABLE_HALF = 100.0


def _canvas_size() -> int:
    return int(round(2 * TABLE_HALF * CANVAS_SCALE))


def board_to_canvas() -> np.ndarray:
    s = CANVAS_SCALE
    return np.array([[s, 0, TABLE_HALF * s], [0, s, TABLE_HALF * s], [0, 0, 1]], np.float64)


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


def to_px(x: float, y: float) -> tuple[int, int]:
    s = CANVAS_SCALE
    return (int(round((x + TABLE_HALF) * s)), int(round((y + TABLE_HALF) * s)))


def draw_board(game: str, seed: int = 0, disk: list[str] | None = None) -> np.ndarray:
    """The table canvas (top-down, ``CANVAS_SCALE`` px per unit): felt, the wooden board with
    its title strip (south edge), the money-card disk labels and empty cups."""
    rng = np.random.default_rng(seed + 101)
    size = _canvas_size()
    canvas = _felt(size, rng)
    b = BOARD_HALF
    x1, y1 = to_px(-b, -b)
    x2, y2 = to_px(b, b)
    wood = _wood(x2 - x1, rng, (60, 120, 185))
    canvas[y1:y2, x1:x2] = wood
    cv2.rectangle(canvas, (x1, y1), (x2 - 1, y2 - 1), (25, 55, 95), 6)
    # Title strip along the south edge: tells calibration which way the board faces.
    sy1 = to_px(0, b - 9)[1]
    cv2.rectangle(canvas, (x1 + 8, sy1), (x2 - 8, y2 - 8), (40, 40, 170), -1)
    cv2.putText(canvas, "MICHIGAN RUMMY", (x1 + 95, y2 - 14), cv2.FONT_HERSHEY_DUPLEX, 0.9,
                (200, 235, 245), 2, cv2.LINE_AA)
    # The disk: a lighter ring under the cups.
    cx, cy = to_px(0, 0)
    cv2.circle(canvas, (cx, cy), int(44 * CANVAS_SCALE), (120, 170, 215), -1, cv2.LINE_AA)
    cv2.circle(canvas, (cx, cy), int(44 * CANVAS_SCALE), (30, 60, 100), 3, cv2.LINE_AA)
    for cup in board_cups(game, disk):
        _draw_cup(canvas, cup)
    return canvas


def _draw_cup(canvas: np.ndarray, cup: Cup) -> None:
    px, py = to_px(*cup.center)
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
            px, py = to_px(x, y)
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
def card_sprite(deck: str, code: str) -> np.ndarray:
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


def paste(canvas: np.ndarray, sprite: np.ndarray, x: float, y: float, angle: float,
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


def draw_hand(canvas: np.ndarray, seat: int, seats: int, x: float, y: float,
               ids: np.ndarray | None = None) -> None:
    """A forearm and hand reaching from the seat's side of the table to (x, y)."""
    ang = seat_angle(seat, seats)
    far = (x + 140 * math.cos(ang), y + 140 * math.sin(ang))
    palm = (x + 15 * math.cos(ang), y + 15 * math.sin(ang))
    skin = (120, 150, 200)
    p0, p1 = to_px(*palm), to_px(*far)
    cv2.line(canvas, p0, p1, (60, 60, 110), int(16 * CANVAS_SCALE), cv2.LINE_AA)  # sleeve
    cv2.ellipse(canvas, p0, (int(9 * CANVAS_SCALE), int(11 * CANVAS_SCALE)),
                math.degrees(ang), 0, 360, skin, -1, cv2.LINE_AA)
    for k in (-1.5, -0.5, 0.5, 1.5):  # fingers towards the card
        tang = ang + math.pi / 2
        fx = palm[0] + k * 4 * math.cos(tang) - 10 * math.cos(ang)
        fy = palm[1] + k * 4 * math.sin(tang) - 10 * math.sin(ang)
        cv2.line(canvas, p0, to_px(fx, fy), skin, int(3.2 * CANVAS_SCALE), cv2.LINE_AA)
    if ids is not None:
        cv2.line(ids, p0, p1, -2, int(16 * CANVAS_SCALE))
        cv2.ellipse(ids, p0, (int(11 * CANVAS_SCALE), int(13 * CANVAS_SCALE)),
                    math.degrees(ang), 0, 360, -2, -1)


def visible_outline(ids: np.ndarray, ident: int, x: float, y: float,
                     angle: float) -> np.ndarray:
    """Convex outline (board units) of the canvas pixels that show card ``ident``."""
    corners = np.array([to_px(float(cx), float(cy)) for cx, cy in card_corners(x, y, angle)])
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
    on a card centred at (x, y) and turned ``angle`` degrees as `paste` turns it."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    return np.array([(x + px * ca + py * sa, y - px * sa + py * ca) for px, py in offsets])


def card_corners(x: float, y: float, angle: float) -> np.ndarray:
    """The four corners (board units) of a card centred at (x, y), turned ``angle`` degrees."""
    w, h = CARD_W / 2, CARD_H / 2
    return card_points(x, y, angle, [(-w, -h), (w, -h), (w, h), (-w, h)])
