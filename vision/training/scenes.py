"""Training scenes for the card readers: real deck designs composited onto card tables.

Each scene is laid out on a flat table plane (scattered cards, piles with offsets, fanned hands,
rows of revealed cards, a board with chips), seen through a random camera (perspective up to
about 60 degrees, scale, rotation) and then spoiled like a real webcam frame (lamp gradients,
colour casts, glare, shadows, hands and arms over the cards, blur, noise, JPEG). Labels are YOLO
boxes, one per physical card around its visible part, given only where its corner index (or most
of the card) can be seen. Class ids index `companion.cards.CARD_CODES`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.cards import CARD_CODES
from vision.render import decks
from vision.training.legibility import legible

#: A card's index counts as readable when at least this share of its index box is visible.
INDEX_VISIBLE = 0.75
#: A card without a readable index is still labelled when this share of it is visible.
BODY_VISIBLE = 0.6


@dataclass
class Placed:
    """One card on the table plane: which card, its 3x3 plane transform, and its image."""

    code: str | None  # None for a face-down card (never labelled)
    deck: str
    matrix: np.ndarray  # card pixels -> plane pixels (3x3)
    image: np.ndarray  # BGRA
    index_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    index_vis: list[float] = field(default_factory=list)  # share of each index box visible


@dataclass
class Scene:
    """A rendered scene: the BGR image and its cards ``(code, (x1, y1, x2, y2))``."""

    image: np.ndarray
    cards: list[tuple[str, tuple[float, float, float, float]]]
    kind: str = ""
    #: Each readable corner index: its card code and its quad in frame pixels, corners in
    #: reading order (the index's own top-left, top-right, bottom-right, bottom-left).
    indices: list[tuple[str, np.ndarray]] = field(default_factory=list)

    def yolo_lines(self) -> list[str]:
        h, w = self.image.shape[:2]
        out = []
        for code, (x1, y1, x2, y2) in self.cards:
            cx, cy = (x1 + x2) / 2 / w, (y1 + y2) / 2 / h
            out.append(f"{CARD_CODES.index(code)} {cx:.6f} {cy:.6f} "
                       f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
        return out


# ---------------------------------------------------------------- table surfaces

def _f32(values: object) -> np.ndarray:
    return np.asarray(values, np.float32)


def _noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Smooth value noise in 0..1 with features about ``scale`` pixels wide."""
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.random((sh, sw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _random_colour(rng: np.random.Generator) -> np.ndarray:
    hsv = np.array([[[rng.integers(0, 180), rng.integers(20, 230), rng.integers(40, 230)]]],
                   np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def table_surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A procedural table top (wood, felt, cloth, plastic, patterned), BGR uint8."""
    kind = rng.choice(["wood", "felt", "cloth", "plastic", "pattern", "stone"],
                      p=[0.25, 0.2, 0.2, 0.1, 0.15, 0.1])
    base = _random_colour(rng)
    if kind == "wood":
        base = _f32([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 200)])
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        u = xx * np.cos(ang) + yy * np.sin(ang)
        warp = _noise(rng, h, w, rng.uniform(40, 160)) * rng.uniform(10, 60)
        grain = 0.5 + 0.5 * np.sin((u + warp) / rng.uniform(2, 9))
        tone = 0.75 + 0.35 * grain * _noise(rng, h, w, 30)
        img = base[None, None] * tone[..., None]
        planks = rng.uniform(80, 300)
        v = xx * -np.sin(ang) + yy * np.cos(ang)
        seams = (np.abs(((v / planks) % 1.0) - 0.5) > 0.495).astype(np.float32)
        img *= (1 - 0.35 * seams)[..., None]
    elif kind == "felt":
        if rng.random() < 0.6:
            base = _f32([rng.uniform(20, 80), rng.uniform(80, 150), rng.uniform(10, 60)])
        fine = rng.normal(0, rng.uniform(4, 14), (h, w)).astype(np.float32)
        img = base[None, None] + fine[..., None] + (_noise(rng, h, w, 80)[..., None] - 0.5) * 30
    elif kind == "cloth":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(3, 12)
        weave = (np.sin(xx / p * np.pi) * np.sin(yy / p * np.pi)) * rng.uniform(5, 25)
        img = base[None, None] + weave[..., None] + rng.normal(0, 6, (h, w, 1)).astype(np.float32)
        if rng.random() < 0.5:  # checked / striped table cloth
            c2 = _random_colour(rng)
            period = rng.uniform(15, 80)
            m = ((xx // period + (yy // period if rng.random() < 0.6 else 0)) % 2)[..., None]
            img = img * (1 - m) + (c2[None, None] + weave[..., None]) * m
    elif kind == "plastic":
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        img += (_noise(rng, h, w, 200)[..., None] - 0.5) * 25
    elif kind == "pattern":  # floral / blotchy fabric, carpet
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
        for _ in range(int(rng.integers(2, 4))):
            c = _random_colour(rng)
            m = (_noise(rng, h, w, rng.uniform(8, 60)) > rng.uniform(0.55, 0.7))
            img[m] = c
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2))
        img += rng.normal(0, 8, (h, w, 1)).astype(np.float32)
    else:  # stone / laminate
        n = _noise(rng, h, w, 6) * 0.5 + _noise(rng, h, w, 40) * 0.5
        img = base[None, None] * (0.7 + 0.6 * n[..., None])
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- layouts

def _card_matrix(cx: float, cy: float, angle_deg: float, scale: float, w: int,
                 h: int) -> np.ndarray:
    """Card pixels (w x h) -> plane: scale, rotate about the centre, move the centre to cx, cy."""
    a = math.radians(angle_deg)
    c, s = math.cos(a) * scale, math.sin(a) * scale
    m = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)
    m[0, 2] = cx - (c * w / 2 - s * h / 2)
    m[1, 2] = cy - (s * w / 2 + c * h / 2)
    return m


def _layout(rng: np.random.Generator, kind: str, n: int, pw: int, ph: int, card_h: float
            ) -> list[tuple[float, float, float, bool]]:
    """Card centres, angles and face-up flags in placement order (later on top)."""
    card_w = card_h * 0.7
    out: list[tuple[float, float, float, bool]] = []
    cx, cy = rng.uniform(0.3, 0.7) * pw, rng.uniform(0.3, 0.7) * ph
    base = rng.uniform(-180, 180) if rng.random() < 0.5 else rng.normal(0, 10)
    if kind == "scatter":
        for _ in range(n):
            out.append((rng.uniform(0.1, 0.9) * pw, rng.uniform(0.1, 0.9) * ph,
                        rng.uniform(-180, 180), rng.random() > 0.08))
    elif kind == "pile":  # a stack with offsets: lower cards show only their corner
        dx, dy = rng.uniform(0.12, 0.3) * card_w, rng.uniform(0.1, 0.25) * card_h
        if rng.random() < 0.5:
            dx *= -1
        if rng.random() < 0.3:
            dy *= -1
        for i in range(n):
            jitter = rng.normal(0, 0.02 * card_w, 2)
            out.append((cx + i * dx + jitter[0], cy + i * dy + jitter[1],
                        base + rng.normal(0, 4), True))
    elif kind == "fan":  # a hand fanned about a pivot below the cards
        spread = rng.uniform(6, 14)
        radius = card_h * rng.uniform(0.6, 1.0)
        start = -spread * (n - 1) / 2
        for i in range(n):
            a = base + start + i * spread
            r = math.radians(a)
            out.append((cx + radius * math.sin(r), cy - radius * math.cos(r), a, True))
    elif kind == "row":  # revealed cards laid in an overlapping row (or a cascade)
        step = rng.uniform(0.22, 1.1 if n < 6 else 0.5) * card_w
        r = math.radians(base)
        vertical = rng.random() < 0.3
        for i in range(n):
            ox, oy = (0.0, i * step * 1.2) if vertical else (i * step, 0.0)
            out.append((cx + ox * math.cos(r) - oy * math.sin(r) - n * step * 0.4,
                        cy + ox * math.sin(r) + oy * math.cos(r), base + rng.normal(0, 3), True))
    else:  # "board": a few neat piles of revealed cards in a grid, as on a Michigan board
        cols = int(rng.integers(2, 5))
        gap = card_w * rng.uniform(1.15, 1.6)
        for i in range(n):
            gx, gy = i % cols, i // cols
            out.append((cx + (gx - cols / 2) * gap, cy + (gy - 1) * card_h * 1.2,
                        base + rng.normal(0, 6), rng.random() > 0.1))
    if kind != "scatter" and out:
        # Move the group so its centre lies in the middle part of the plane.
        mx = float(np.mean([o[0] for o in out]))
        my = float(np.mean([o[1] for o in out]))
        tx, ty = rng.uniform(0.3, 0.7) * pw - mx, rng.uniform(0.3, 0.7) * ph - my
        out = [(x + tx, y + ty, a, f) for x, y, a, f in out]
    return out


def _draw_chip(rng: np.random.Generator, plane: np.ndarray, ids: np.ndarray, x: float, y: float,
               r: float) -> None:
    colour = tuple(float(v) for v in _random_colour(rng))
    centre = (int(x), int(y))
    cv2.circle(plane, (centre[0] + 2, centre[1] + 3), int(r), (20, 20, 20), -1, cv2.LINE_AA)
    cv2.circle(plane, centre, int(r), colour, -1, cv2.LINE_AA)
    cv2.circle(plane, centre, int(r * 0.7), (235, 235, 235), max(1, int(r * 0.12)), cv2.LINE_AA)
    for k in range(6):
        a = k * math.pi / 3
        p1 = (int(x + r * 0.75 * math.cos(a)), int(y + r * 0.75 * math.sin(a)))
        p2 = (int(x + r * 0.98 * math.cos(a)), int(y + r * 0.98 * math.sin(a)))
        cv2.line(plane, p1, p2, (240, 240, 240), max(1, int(r * 0.18)), cv2.LINE_AA)
    cv2.circle(ids, centre, int(r), 0, -1)


def _draw_arm(rng: np.random.Generator, plane: np.ndarray, ids: np.ndarray) -> None:
    """A hand and forearm reaching in from an edge (skin tone or sleeve), covering cards."""
    ph, pw = plane.shape[:2]
    skin = _f32([rng.uniform(60, 170), rng.uniform(90, 190), rng.uniform(130, 235)])
    edge = int(rng.integers(0, 4))
    tip = np.array([rng.uniform(0.2, 0.8) * pw, rng.uniform(0.2, 0.8) * ph])
    start = {0: (tip[0] + rng.normal(0, 100), -50), 1: (tip[0] + rng.normal(0, 100), ph + 50),
             2: (-50, tip[1] + rng.normal(0, 100)), 3: (pw + 50, tip[1] + rng.normal(0, 100))}[edge]
    width = rng.uniform(0.08, 0.16) * min(pw, ph)
    mask = np.zeros(ids.shape, np.uint8)
    cv2.line(mask, (int(start[0]), int(start[1])), (int(tip[0]), int(tip[1])), 255,
             int(width), cv2.LINE_AA)
    cv2.ellipse(mask, (int(tip[0]), int(tip[1])), (int(width * 0.75), int(width * 0.6)),
                float(rng.uniform(0, 180)), 0, 360, 255, -1, cv2.LINE_AA)
    sleeve = rng.random() < 0.4
    colour = _random_colour(rng) if sleeve else skin
    shade = 0.75 + 0.35 * _noise(rng, ids.shape[0], ids.shape[1], 60)
    m = (mask.astype(np.float32) / 255)[..., None]
    # Soft shadow of the arm first, then the arm itself.
    sh = cv2.GaussianBlur(np.roll(m[..., 0], (int(width * 0.2), int(width * 0.15)), (0, 1)),
                          (0, 0), width * 0.2)
    plane[:] = (plane * (1 - 0.45 * sh[..., None])).astype(np.uint8)
    arm = colour[None, None] * shade[..., None]
    plane[:] = (plane * (1 - m) + arm * m).clip(0, 255).astype(np.uint8)
    ids[mask > 127] = 0


def _paste(plane: np.ndarray, ids: np.ndarray, card: Placed, card_id: int,
           shadow: float, rng: np.random.Generator) -> None:
    """Draw the card (and its soft drop shadow) on the plane, inside its bounding region only."""
    ph, pw = plane.shape[:2]
    hh, ww = card.image.shape[:2]
    corners = _f32([[[0, 0], [ww, 0], [ww, hh], [0, hh]]])
    pts = cv2.transform(corners, card.matrix[:2])[0]
    off = hh * abs(float(np.linalg.det(card.matrix[:2, :2]))) ** 0.5 * 0.02 + 1
    margin = int(off * 5) + 2
    x0 = max(0, int(pts[:, 0].min()) - margin)
    y0 = max(0, int(pts[:, 1].min()) - margin)
    x1 = min(pw, int(pts[:, 0].max()) + margin + 1)
    y1 = min(ph, int(pts[:, 1].max()) + margin + 1)
    if x1 <= x0 or y1 <= y0:
        return
    m = card.matrix[:2].copy()
    m[:, 2] -= (x0, y0)
    warped = cv2.warpAffine(card.image, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3].astype(np.float32) / 255
    roi: np.ndarray = plane[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        sh = cv2.GaussianBlur(alpha, (0, 0), off * 1.5)
        sh = np.roll(sh, (int(off), int(off * 0.7)), (0, 1))
        roi *= 1 - shadow * sh[..., None]
    a = alpha[..., None]
    roi = roi * (1 - a) + warped[:, :, :3] * a
    plane[y0:y1, x0:x1] = roi.clip(0, 255).astype(np.uint8)
    ids[y0:y1, x0:x1][alpha > 0.5] = card_id


def _card_image(rng: np.random.Generator, deck: str, code: str | None, h: int) -> np.ndarray:
    img = (decks.render_back(deck, h) if code is None else decks.render_card(deck, code, h)).copy()
    # Paper tone and wear: slight gain, offset, and a faint dirt texture.
    bgr: np.ndarray = img[:, :, :3].astype(np.float32)
    bgr = bgr * rng.uniform(0.85, 1.05) + rng.uniform(-10, 10, 3)
    if rng.random() < 0.3:
        bgr *= (0.92 + 0.08 * _noise(rng, img.shape[0], img.shape[1], 20))[..., None]
    img[:, :, :3] = bgr.clip(0, 255).astype(np.uint8)
    return img


# ---------------------------------------------------------------- camera and spoilers

def _camera(rng: np.random.Generator, pw: int, ph: int, out_w: int, out_h: int,
            tilt_max: float) -> np.ndarray:
    """A homography from the table plane to the frame: perspective tilt, rotation, crop."""
    tilt = math.radians(rng.uniform(0, tilt_max))
    k = max(0.35, math.cos(tilt))  # far edge shrinks as the camera leans over
    src = _f32([[0, 0], [pw, 0], [pw, ph], [0, ph]])
    # Plane viewed from the near edge: the far (top) side narrower and foreshortened.
    top = (1 - k) / 2
    dst = _f32([[top, 1 - k], [1 - top, 1 - k], [1, 1], [0, 1]])
    dst[:, 1] = (dst[:, 1] - (1 - k)) / k
    h1 = cv2.getPerspectiveTransform(src, dst * _f32([pw, ph]))
    # Rotate about the centre, zoom so the plane covers the frame, jitter the corners.
    ang = rng.uniform(-180, 180) if rng.random() < 0.3 else rng.normal(0, 12)
    zoom = max(out_w / pw, out_h / ph) * rng.uniform(1.0, 1.35)
    r = cv2.getRotationMatrix2D((pw / 2, ph / 2), ang, 1.0)
    r3 = np.vstack([r, [0, 0, 1]])
    t = np.array([[zoom, 0, out_w / 2 - zoom * pw / 2], [0, zoom, out_h / 2 - zoom * ph / 2],
                  [0, 0, 1]])
    hom = t @ r3 @ h1
    jit = rng.normal(0, 0.02 * min(out_w, out_h), (4, 2)).astype(np.float32)
    q = _f32([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]])
    hj = cv2.getPerspectiveTransform(q, q + jit)
    return hj @ hom


def _light(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    f: np.ndarray = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # Lamp: a radial or linear brightness gradient.
    if rng.random() < 0.7:
        lx, ly = rng.uniform(-0.3, 1.3) * w, rng.uniform(-0.3, 1.3) * h
        d = np.sqrt((xx - lx) ** 2 + (yy - ly) ** 2) / max(h, w)
        g = 1.15 - rng.uniform(0.2, 0.9) * d
    else:
        a = rng.uniform(0, 2 * np.pi)
        g = 1 + rng.uniform(-0.4, 0.4) * ((xx / w - 0.5) * np.cos(a) + (yy / h - 0.5) * np.sin(a))
    f *= np.clip(g, 0.25, 1.5)[..., None]
    # Colour cast (warm lamp / cold daylight / LED), exposure, gamma.
    cast = {0: (0.75, 0.95, 1.2), 1: (1.2, 1.0, 0.85), 2: (1.0, 1.0, 1.0)}[int(rng.integers(0, 3))]
    f *= _f32(cast) * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    f *= rng.choice([rng.uniform(0.35, 0.7), rng.uniform(0.7, 1.25)], p=[0.25, 0.75])
    f = 255 * (np.clip(f, 0, 255) / 255) ** rng.uniform(0.7, 1.4)
    # Glare: a bright soft blob (a lamp reflected in glossy cards).
    if rng.random() < 0.3:
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        rad = rng.uniform(0.05, 0.25) * max(w, h)
        blob = np.exp(-(((xx - gx) ** 2 + ((yy - gy) * rng.uniform(0.5, 2)) ** 2) / rad ** 2))
        f += (blob * rng.uniform(60, 200))[..., None]
    return np.clip(f, 0, 255).astype(np.uint8)


def _degrade(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    r = rng.random()
    if r < 0.25:  # motion blur
        k = int(rng.integers(3, 12))
        kern: np.ndarray = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1)
        kern = cv2.warpAffine(kern, rot, (k, k))
        img = cv2.filter2D(img, -1, kern / max(kern.sum(), 1e-6))
    elif r < 0.5:  # defocus
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.6, 2.2))
    f = img.astype(np.float32)
    sigma = rng.choice([rng.uniform(1, 4), rng.uniform(4, 12)], p=[0.7, 0.3])
    f += rng.normal(0, sigma, f.shape).astype(np.float32)
    if rng.random() < 0.3:  # chroma noise, low-light webcams
        f += cv2.resize(rng.normal(0, sigma, (f.shape[0] // 4 + 1, f.shape[1] // 4 + 1, 3)),
                        (f.shape[1], f.shape[0])).astype(np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:  # low-resolution camera upscaled
        s = rng.uniform(0.45, 0.8)
        small = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    q = int(rng.integers(30, 96))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return img if out is None else np.asarray(out)


# ---------------------------------------------------------------- one scene

KINDS = ("scatter", "pile", "fan", "row", "board")


def render_scene(rng: np.random.Generator, deck_names: Sequence[str], size: int = 640,
                 kind: str | None = None, empty: bool = False, tilt_max: float = 60.0,
                 clean: bool = False, codes: Sequence[str] | None = None,
                 card_height: float | None = None, restyle_p: float = 0.0,
                 webcam_p: float = 0.0, closeup_p: float = 0.0,
                 style: tuple[np.ndarray, np.ndarray] | None = None) -> Scene:
    """Render one table scene with known cards.

    ``kind`` picks a layout (`KINDS`), ``empty`` draws only the table, chips, backs and arms
    (no card faces), ``clean`` skips lighting and camera spoilers (for tests), ``codes`` fixes
    which cards are dealt, ``card_height`` fixes their height in frame pixels (about).
    ``restyle_p`` recolours that share of the face-up cards (`restyle`: dark faces, gold or
    silver indices, one-colour suits); ``webcam_p`` gives that share of scenes the extra
    spoilers of cheap webcams (`webcam`: grey, dim, salt-and-pepper, stretched);
    ``closeup_p`` that share of scenes shows a few cards larger than the frame; ``style``
    (paper, ink) recolours every face of this scene's deck.
    """
    aspect = rng.choice([4 / 3, 16 / 9, 3 / 4, 1.0])
    out_w, out_h = (size, int(size / aspect)) if aspect >= 1 else (int(size * aspect), size)
    pw, ph = int(out_w * 1.2), int(out_h * 1.2)
    plane = table_surface(rng, ph, pw)
    ids = np.zeros((ph, pw), np.int32)
    kind = kind or str(rng.choice(KINDS, p=[0.2, 0.25, 0.2, 0.2, 0.15]))
    deck = str(rng.choice(list(deck_names)))
    # Card height in plane pixels: 40..400 px in the frame, mostly 60..220.
    if card_height is None and closeup_p and rng.random() < closeup_p:
        card_h = float(rng.uniform(0.6, 1.5) * ph)  # a close-up: cards cut by the frame edge
    elif card_height is None:
        card_h = float(np.exp(rng.uniform(np.log(60), np.log(min(400, ph * 0.75)))))
    else:
        card_h = float(card_height)
    n_max = {"scatter": 9, "pile": 8, "fan": 13, "row": 10, "board": 8}[kind]
    n = len(codes) if codes is not None else int(rng.integers(1 if kind == "scatter" else 2,
                                                              n_max + 1))
    if not codes and card_h > 0.3 * ph:
        n = min(n, 4 if kind in ("scatter", "board") else 6)
    chosen = list(codes) if codes is not None else list(rng.choice(CARD_CODES, n, replace=False))
    placed: list[Placed] = []
    render_h = int(np.clip(round(card_h * 1.3), 48, 480))
    # One deck per scene: every face of it recoloured the same way, or none.
    if style is None and restyle_p and rng.random() < restyle_p:
        style = restyle_colours(rng)
    layout = _layout(rng, kind, n, pw, ph, card_h)
    for (x, y, a, face_up), code in zip(layout, chosen, strict=False):
        up = face_up and not empty
        img = _card_image(rng, deck, code if up else None, render_h)
        sc = card_h / img.shape[0]
        m = _card_matrix(x, y, a, sc, img.shape[1], img.shape[0])
        boxes: list[tuple[float, float, float, float]] = []
        if up:
            boxes = decks.corner_index_boxes(deck, code)  # the turned ones at odd places
            if style is not None:
                img = restyle(img, *style)
        placed.append(Placed(code if up else None, deck, m, img, boxes))
    # Chips on the board, face-down backs (the dummy, other hands) as distractors.
    if not clean:
        for _ in range(int(rng.integers(0, 12)) if rng.random() < 0.5 else 0):
            _draw_chip(rng, plane, ids, rng.uniform(0, pw), rng.uniform(0, ph),
                       card_h * rng.uniform(0.12, 0.22))
    if (empty or rng.random() < 0.25) and not clean:
        for _ in range(int(rng.integers(1, 6))):
            img = _card_image(rng, deck, None, render_h)
            m = _card_matrix(rng.uniform(0, pw), rng.uniform(0, ph), rng.uniform(-180, 180),
                             card_h / img.shape[0], img.shape[1], img.shape[0])
            placed.insert(0, Placed(None, deck, m, img))
    # Paint, tracking which card owns each plane pixel.
    shadow = 0.0 if clean else float(rng.uniform(0.1, 0.5))
    for i, card in enumerate(placed, start=1):
        _paste(plane, ids, card, i, shadow, rng)
    if not clean and rng.random() < 0.2:
        for _ in range(int(rng.integers(1, 3))):
            _draw_arm(rng, plane, ids)
    # Decide labels on the plane (occlusion does not change under the camera).
    labelled: dict[int, str] = {}
    for i, card in enumerate(placed, start=1):
        if card.code is None:
            continue
        own = ids == i
        hh, ww = card.image.shape[:2]
        total = float(hh * ww) * abs(np.linalg.det(card.matrix[:2, :2]))
        vis_body = own.sum() / max(total, 1.0)
        best_index = 0.0
        card.index_vis = []
        for (x1, y1, x2, y2) in card.index_boxes:
            poly = _f32([[x1 * ww, y1 * hh], [x2 * ww, y1 * hh], [x2 * ww, y2 * hh],
                               [x1 * ww, y2 * hh]])
            poly = cv2.transform(poly[None], card.matrix[:2])[0]
            mask = np.zeros(ids.shape, np.uint8)
            cv2.fillConvexPoly(mask, poly.astype(np.int32), 1)
            area = mask.sum()
            vis = float((own & (mask > 0)).sum()) / area if area else 0.0
            card.index_vis.append(vis)
            best_index = max(best_index, vis)
        if best_index >= INDEX_VISIBLE or vis_body >= BODY_VISIBLE:
            labelled[i] = card.code
    # Camera.
    hom = (_camera(rng, pw, ph, out_w, out_h, 0 if clean else tilt_max))
    if clean:
        hom = np.array([[1, 0, -(pw - out_w) / 2], [0, 1, -(ph - out_h) / 2], [0, 0, 1]])
    frame = cv2.warpPerspective(plane, hom, (out_w, out_h), flags=cv2.INTER_AREA,
                                borderMode=cv2.BORDER_REFLECT)
    id_frame = cv2.warpPerspective(ids.astype(np.float32), hom, (out_w, out_h),
                                   flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                                   borderValue=0).astype(np.int32)
    cards: list[tuple[str, tuple[float, float, float, float]]] = []
    for i, code in labelled.items():
        ys, xs = np.nonzero(id_frame == i)
        if len(xs) < 30:
            continue
        x1, y1, x2, y2 = float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)
        if min(x2 - x1, y2 - y1) < 6:
            continue
        # The index must still be inside the frame: check the card's corners in frame space.
        card = placed[i - 1]
        hh, ww = card.image.shape[:2]
        seen = False
        for (bx1, by1, bx2, by2) in card.index_boxes:
            c = _f32([[[(bx1 + bx2) / 2 * ww, (by1 + by2) / 2 * hh]]])
            c = cv2.perspectiveTransform(cv2.transform(c, card.matrix[:2]), hom)[0, 0]
            if 0 <= c[0] < out_w and 0 <= c[1] < out_h and id_frame[int(c[1]), int(c[0])] == i:
                seen = True
        if seen or len(xs) >= BODY_VISIBLE * total_area(card, hom):
            cards.append((code, (x1, y1, x2, y2)))
    indices = _index_quads(placed, hom, id_frame)
    unspoilt = frame
    if not clean:
        frame = _light(rng, frame)
        frame = _degrade(rng, frame)
    scene = Scene(frame, cards, kind if not empty else "empty", indices)
    if not clean and webcam_p and rng.random() < webcam_p:
        scene = webcam(rng, scene)
    if not clean and scene.indices:
        # Readable on the table is not readable in the frame: keep only the indices that
        # lighting, blur, noise and the webcam left legible (`legibility`).
        keep = legible(unspoilt, scene.image, [q for _, q in indices],
                       [q for _, q in scene.indices])
        scene.indices = [ix for ix, ok in zip(scene.indices, keep, strict=True) if ok]
    return scene


def _index_quads(placed: Sequence[Placed], hom: np.ndarray, id_frame: np.ndarray
                 ) -> list[tuple[str, np.ndarray]]:
    """The readable corner indices in frame pixels: at least `INDEX_VISIBLE` of the index
    uncovered on the table and its centre inside the frame on its own card."""
    out_h, out_w = id_frame.shape
    found: list[tuple[str, np.ndarray]] = []
    for i, card in enumerate(placed, start=1):
        if card.code is None:
            continue
        hh, ww = card.image.shape[:2]
        for k, ((x1, y1, x2, y2), vis) in enumerate(zip(card.index_boxes, card.index_vis,
                                                        strict=False)):
            if vis < INDEX_VISIBLE:
                continue
            quad = _f32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
            if k % 2:  # a turned corner reads upside down: its own top-left is (x2, y2)
                quad = quad[[2, 3, 0, 1]]
            pts = quad * _f32([ww, hh])
            pts = cv2.perspectiveTransform(cv2.transform(pts[None], card.matrix[:2]), hom)[0]
            c = pts.mean(axis=0)
            inside = (pts[:, 0] >= -1) & (pts[:, 0] <= out_w + 1) & (pts[:, 1] >= -1) & (
                pts[:, 1] <= out_h + 1)
            if not inside.all() or id_frame[int(c[1]), int(c[0])] != i:
                continue
            found.append((card.code, pts.astype(np.float32)))
    return found


def restyle_colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Paper and ink colours (BGR) of an unusual deck: a black face with gold or silver
    indices, a light face with every suit in one ink, or two contrasting colours."""
    choice = rng.random()
    if choice < 0.4:  # dark face, metallic ink
        paper = _f32(rng.uniform(0, 60, 3))
        ink = _f32([rng.uniform(30, 90), rng.uniform(150, 215), rng.uniform(190, 250)]) \
            if rng.random() < 0.6 else _f32([rng.uniform(170, 235)] * 3)
    elif choice < 0.7:  # light face, one ink for every suit
        paper = _f32(rng.uniform(190, 255, 3))
        ink = _f32(rng.uniform(0, 120, 3))
    else:  # any two contrasting colours
        paper = _random_colour(rng)
        ink = _random_colour(rng)
        if abs(float(paper.mean() - ink.mean())) < 70:
            ink = 255 - paper
    return paper, ink


def restyle(card: np.ndarray, paper: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """Recolour a card face (BGRA): its paper becomes ``paper`` and all its ink, black and
    red alike, becomes ``ink``."""
    bgr = card[:, :, :3].astype(np.float32)
    lum = (bgr @ _f32([0.114, 0.587, 0.299]))[..., None] / 255.0
    ink_share = np.clip((0.92 - lum) / 0.75, 0, 1)
    out = card.copy()
    out[:, :, :3] = (paper * (1 - ink_share) + ink * ink_share).clip(0, 255).astype(np.uint8)
    return out


def webcam(rng: np.random.Generator, scene: Scene) -> Scene:
    """Cheap-webcam spoilers on a rendered scene: grey cast and dim exposure, grayscale,
    salt-and-pepper noise, soft focus, and a non-uniform stretch (boxes follow)."""
    f = scene.image.astype(np.float32)
    if rng.random() < 0.5:  # dim and grey: contrast squeezed towards a grey level
        grey = rng.uniform(60, 130)
        f = grey + (f - grey) * rng.uniform(0.35, 0.7)
    img: np.ndarray = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.4:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 1.8))
    if rng.random() < 0.4:
        amount = rng.uniform(0.003, 0.03)
        salt = rng.random(img.shape[:2])
        img[salt < amount / 2] = 0
        img[salt > 1 - amount / 2] = 255
    h, w = img.shape[:2]
    sx, sy = 1.0, 1.0
    if rng.random() < 0.4:  # exported stretched to a square, or resized by a driver
        nw, nh = (max(h, w), max(h, w)) if rng.random() < 0.5 else (
            int(w * rng.uniform(0.7, 1.3)), int(h * rng.uniform(0.7, 1.3)))
        sx, sy = nw / w, nh / h
        img = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)
    scale = _f32([sx, sy])
    cards = [(c, (b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy)) for c, b in scene.cards]
    indices = [(c, q * scale) for c, q in scene.indices]
    return Scene(img, cards, scene.kind, indices)


def total_area(card: Placed, hom: np.ndarray) -> float:
    """The card's full area in frame pixels (to compare with its visible pixels)."""
    hh, ww = card.image.shape[:2]
    corners = _f32([[[0, 0], [ww, 0], [ww, hh], [0, hh]]])
    pts = cv2.perspectiveTransform(cv2.transform(corners, card.matrix[:2]), hom)[0]
    return float(abs(cv2.contourArea(pts)))
