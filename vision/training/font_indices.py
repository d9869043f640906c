"""Corner indices drawn from type faces and drawn pips, for the index heads (issue 14).

The heads learn ranks and suits from the twelve installed deck designs and real photos; on a
deck design they never saw they misread what that deck draws its own way (a J set beside its
suit, a Q with a long tail, a spade with a thin stem). This draws indices the decks do not:
the rank in a type face installed on the machine (Debian's font packages, read with Pillow)
and the suit as a pip drawn with random proportions (or a suit glyph where the face has
one), stacked or side by side, dark on light, on a card corner with its edges, a neighbouring
pip and table beyond; then shrunk to a small index (13-60 px) and spoilt as cameras spoil
them (blur, noise, JPEG). Each is cut the way the reader cuts (`index_patch` around the
index's box, jittered), upright (orientation 0); `train_index_heads` turns them.

    python -m vision.training.font_indices --count 8000   # datasets/index/crops-fonts.npz
    python -m vision.training.train_index_heads --drawn ... # train the heads with them too

Tried in the tenth session and not in the shipped recipe: 20 minutes of the heads with these
read real indices worse (models/INDEX.md, "Tenth session"). Training only: the app never
imports this module.
"""

from __future__ import annotations

import argparse
import glob
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.readers.index_heads import RANKS, SUITS, index_patch

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "datasets" / "index" / "crops-fonts.npz"
#: Where Debian installs type faces (fonts-dejavu, fonts-freefont-ttf, fonts-liberation2,
#: fonts-urw-base35, ...): the more faces, the more rank shapes.
FONT_GLOBS = ("/usr/share/fonts/**/*.ttf", "/usr/share/fonts/**/*.otf")
SUIT_GLYPHS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
#: What a rank is printed as: its letter or number, the ten as "10" (drawn narrow, and some
#: times squeezed to one digit's width, as many decks print it).
RANK_TEXT = {r: [r] for r in RANKS} | {"T": ["10"]}


def font_files() -> list[str]:
    """The installed type faces that draw every rank (letters and digits), sorted."""
    files = sorted({f for g in FONT_GLOBS for f in glob.glob(g, recursive=True)})
    return [f for f in files if "emoji" not in f.lower() and "symbol" not in f.lower()
            and "dingbat" not in f.lower()]


def _covers(font: Any, text: str) -> bool:
    """Whether ``font`` draws every character of ``text``: each drawn unlike the face's
    missing-glyph box (what it draws for a private-use code point) and not blank."""
    def drawn(ch: str) -> tuple[bytes, tuple[int, int]]:
        mask = font.getmask(ch)
        return bytes(mask), tuple(mask.size)

    missing = drawn("\U0010fffd")
    return all(d != missing and any(d[0]) for d in map(drawn, text))


def pip(rng: np.random.Generator, suit: str, size: int) -> np.ndarray:
    """A suit pip drawn as a mask (``size`` x ``size``, uint8 0/255) with random proportions:
    the shapes decks print vary (fat or thin hearts, long or short spade stems, round or
    pointed diamonds)."""
    s = 4 * size  # drawn large, then shrunk: smooth edges
    m = np.zeros((s, s), np.uint8)
    c = s / 2
    if suit == "D":
        w = rng.uniform(0.28, 0.45) * s
        bulge = rng.uniform(-0.1, 0.15)  # concave (-) or convex (+) sides
        pts = []
        corners = [(c, 0.03 * s), (c + w, c), (c, 0.97 * s), (c - w, c)]
        for k in range(4):
            (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 4]
            for t in np.linspace(0, 1, 12, endpoint=False):
                mx, my = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                nx, ny = mx - c, my - c
                f = 1 + bulge * math.sin(math.pi * t)
                pts.append((c + nx * f, c + ny * f))
        cv2.fillPoly(m, [np.array(pts, np.int32)], 255)
    elif suit in ("H", "S"):
        r = rng.uniform(0.2, 0.27) * s
        lobe_y = rng.uniform(0.3, 0.4) * s
        tip = rng.uniform(0.85, 0.95) * s
        dx = r * rng.uniform(0.85, 1.0)
        cv2.circle(m, (int(c - dx), int(lobe_y)), int(r), 255, -1)
        cv2.circle(m, (int(c + dx), int(lobe_y)), int(r), 255, -1)
        side = rng.uniform(0.85, 1.05)
        cv2.fillPoly(m, [np.array([(c - dx - r * side, lobe_y + r * 0.3),
                                   (c + dx + r * side, lobe_y + r * 0.3), (c, tip)], np.int32)],
                     255)
        cv2.rectangle(m, (int(c - dx), int(lobe_y)), (int(c + dx), int(lobe_y + r)), 255, -1)
        if suit == "S":
            m = np.ascontiguousarray(m[::-1])  # a heart upside down, then a stem
            m = np.roll(m, -int(0.12 * s), axis=0)
            _stem(rng, m, c, s)
    else:  # clubs: three round leaves and a stem
        r = rng.uniform(0.15, 0.2) * s
        top = (c, rng.uniform(0.22, 0.3) * s)
        spread = rng.uniform(1.1, 1.5) * r
        low_y = top[1] + rng.uniform(1.3, 1.7) * r
        for x, y in (top, (c - spread, low_y), (c + spread, low_y)):
            cv2.circle(m, (int(x), int(y)), int(r), 255, -1)
        cv2.circle(m, (int(c), int((top[1] + low_y) / 2 + r * 0.3)), int(r * 0.6), 255, -1)
        _stem(rng, m, c, s)
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)


def _stem(rng: np.random.Generator, m: np.ndarray, c: float, s: int) -> None:
    """A spade's or club's stem: a triangle flaring to the bottom."""
    top = rng.uniform(0.5, 0.62) * s
    half = rng.uniform(0.06, 0.14) * s
    neck = rng.uniform(0.01, 0.04) * s
    cv2.fillPoly(m, [np.array([(c - neck, top), (c + neck, top), (c + half, 0.96 * s),
                               (c - half, 0.96 * s)], np.int32)], 255)


def _text_mask(font: Any, text: str, height: int, narrow: float) -> np.ndarray:
    """``text`` in ``font`` as a tight mask scaled to ``height`` px (x ``narrow`` wide)."""
    from PIL import Image, ImageDraw

    box = font.getbbox(text)
    w, h = max(1, box[2] - box[0]), max(1, box[3] - box[1])
    img = Image.new("L", (w + 4, h + 4), 0)
    ImageDraw.Draw(img).text((2 - box[0], 2 - box[1]), text, fill=255, font=font)
    a = np.asarray(img)
    ys, xs = np.nonzero(a > 40)
    if not len(xs):
        return np.zeros((height, max(1, height // 2)), np.uint8)
    a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    sc = height / a.shape[0]
    return cv2.resize(a, (max(1, round(a.shape[1] * sc * narrow)), height),
                      interpolation=cv2.INTER_AREA)


def draw_index(rng: np.random.Generator, fonts: list[Any], rank: str, suit: str
               ) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A card's top-left corner at about 100 px per index height, grey uint8, and the box of
    its index (rank and suit) in it."""
    font = fonts[int(rng.integers(0, len(fonts)))]
    text = RANK_TEXT[rank][int(rng.integers(0, len(RANK_TEXT[rank])))]
    rank_h = int(rng.uniform(44, 60))
    narrow = rng.uniform(0.65, 1.15) * (0.8 if text == "10" else 1.0)
    rm = _text_mask(font, text, rank_h, narrow)
    if text == "10" and rng.random() < 0.3:  # a "10" squeezed to one digit's width
        rm = cv2.resize(rm, (max(1, int(rm.shape[1] * 0.7)), rm.shape[0]))
    suit_h = int(rank_h * rng.uniform(0.6, 0.95))
    use_glyph = rng.random() < 0.35 and _covers(font, SUIT_GLYPHS[suit])
    sm = _text_mask(font, SUIT_GLYPHS[suit], suit_h, 1.0) if use_glyph else pip(rng, suit,
                                                                                 suit_h)
    beside = rng.random() < 0.15  # the suit set beside the rank (some decks' court cards)
    gap = int(rank_h * rng.uniform(0.05, 0.2))
    if beside:
        ih, iw = max(rm.shape[0], sm.shape[0]), rm.shape[1] + gap + sm.shape[1]
    else:
        ih, iw = rm.shape[0] + gap + sm.shape[0], max(rm.shape[1], sm.shape[1])
    margin = int(rng.uniform(0.15, 0.5) * rank_h)
    W, H = iw + 3 * rank_h, ih + 3 * rank_h
    paper = rng.uniform(170, 255)
    ink = rng.uniform(0, min(110, paper - 60))
    canvas = np.full((H, W), paper, np.float32)
    # The table beyond the card's top and left edges (where the corner shows them), a shade.
    table = rng.uniform(0, 255)
    ex, ey = int(rng.uniform(0.2, 1.0) * margin), int(rng.uniform(0.2, 1.0) * margin)
    if rng.random() < 0.7:
        canvas[:ey, :] = table
        canvas[:, :ex] = table
        if rng.random() < 0.5:  # a printed border line inside the edge
            t = max(1, int(rank_h * 0.04))
            cv2.rectangle(canvas, (ex + t, ey + t), (W + 10, H + 10), float(ink), t)
    x0, y0 = ex + margin, ey + margin
    ink_mask = np.zeros((H, W), np.float32)
    if beside:
        ink_mask[y0:y0 + rm.shape[0], x0:x0 + rm.shape[1]] = rm / 255
        sx = x0 + rm.shape[1] + gap
        sy = y0 + (rm.shape[0] - sm.shape[0]) // 2
        ink_mask[sy:sy + sm.shape[0], sx:sx + sm.shape[1]] = sm / 255
    else:
        rx = x0 + (iw - rm.shape[1]) // 2 if rng.random() < 0.7 else x0
        ink_mask[y0:y0 + rm.shape[0], rx:rx + rm.shape[1]] = rm / 255
        sx = x0 + (iw - sm.shape[1]) // 2
        sy = y0 + rm.shape[0] + gap
        ink_mask[sy:sy + sm.shape[0], sx:sx + sm.shape[1]] = sm / 255
    # A neighbouring pip or a court card's frame below and to the right, sometimes.
    if rng.random() < 0.5:
        big = pip(rng, suit, int(rank_h * rng.uniform(0.9, 1.6)))
        px = min(W - big.shape[0], x0 + iw + int(rank_h * rng.uniform(0.3, 1.0)))
        py = min(H - big.shape[0], y0 + int(rank_h * rng.uniform(0.2, 1.5)))
        ink_mask[py:py + big.shape[0], px:px + big.shape[1]] = np.maximum(
            ink_mask[py:py + big.shape[0], px:px + big.shape[1]], big / 255)
    canvas = canvas * (1 - ink_mask) + ink * ink_mask
    return canvas, (float(x0), float(y0), float(x0 + iw), float(y0 + ih))


def spoil(rng: np.random.Generator, img: np.ndarray, box: tuple[float, float, float, float]
          ) -> tuple[np.ndarray, np.ndarray]:
    """The corner shrunk so its index is 13-60 px tall (smaller, spoilt, a person cannot
    read it either), lit unevenly, blurred, noisy and JPEG compressed as cameras leave it;
    and the index's box at that size."""
    h_index = box[3] - box[1]
    target = float(np.exp(rng.uniform(np.log(13), np.log(60))))
    s = target / h_index
    small = cv2.resize(img, (max(8, round(img.shape[1] * s)), max(8, round(img.shape[0] * s))),
                       interpolation=cv2.INTER_AREA)
    b = np.array(box, np.float32) * s
    f = small.astype(np.float32)
    yy, xx = np.mgrid[0:f.shape[0], 0:f.shape[1]].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(angle) + yy * math.sin(angle)) / max(f.shape)
    f = f * rng.uniform(0.45, 1.1) * (1 + rng.uniform(-0.3, 0.3) * ramp) + rng.uniform(-20, 30)
    if rng.random() < 0.5:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.2 if target > 20 else 0.6))
    f += rng.normal(0, rng.uniform(0, 10), f.shape)
    if rng.random() < 0.2 and target > 16:
        spots = rng.random(f.shape)
        f[spots < 0.01] = 0
        f[spots > 0.99] = 255
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 90))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    return out, b


def build(count: int, seed: int = 0, fonts_limit: int | None = None) -> dict[str, np.ndarray]:
    """``count`` patches of drawn indices, every rank and suit equally often, in the crops
    format (`vision.training.index_data`): x, rank, suit, orient (0: upright), is_index."""
    from PIL import ImageFont

    rng = np.random.default_rng(seed)
    fonts = []
    for path in font_files()[:fonts_limit]:
        try:
            font = ImageFont.truetype(path, 96)
        except OSError:
            continue
        if _covers(font, "0123456789AJQK"):
            fonts.append(font)
    if not fonts:
        raise SystemExit("no type faces installed (Debian fonts-dejavu-core and others)")
    xs, ranks, suits = [], [], []
    for i in range(count):
        r, s = i % len(RANKS), (i // len(RANKS)) % len(SUITS)
        img, box = draw_index(rng, fonts, RANKS[r], SUITS[s])
        small, b = spoil(rng, img, box)
        w, h = b[2] - b[0], b[3] - b[1]
        b = b + np.array([w, h, w, h], np.float32) * rng.normal(0, 0.08, 4).astype(np.float32)
        xs.append(index_patch(small, b))
        ranks.append(r)
        suits.append(s)
    n = len(xs)
    print(f"{n} drawn indices from {len(fonts)} type faces")
    return {"x": np.stack(xs), "rank": np.array(ranks, np.int64),
            "suit": np.array(suits, np.int64), "orient": np.zeros(n, np.int64),
            "is_index": np.ones(n, np.int64)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--sheet", type=Path, default=None, help="also write a PNG of 96 patches")
    args = ap.parse_args(argv)
    data = build(args.count, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **data)  # type: ignore[arg-type]
    print(f"wrote {args.out}")
    if args.sheet:
        rows = [np.hstack(list(data["x"][k:k + 16])) for k in range(0, 96, 16)]
        cv2.imwrite(str(args.sheet), cv2.resize(np.vstack(rows), None, fx=1.5, fy=1.5))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
