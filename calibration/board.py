"""Find the board in a camera frame: its four corners, which way it faces, and the homography
from board units to pixels; then check it by looking for the 8 cups and the Jackpot cup.

Classical vision (edges, contours, a perspective fit), no model: a square board with a dark rim
on a contrasting table. The side carrying the title strip is the south edge (seat 0's side);
without a strip, the edge nearest the camera is taken as south.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.layout import BOARD_HALF, board_cups

#: Board corners in board units, clockwise from the north-west corner.
BOARD_CORNERS = np.array([[-BOARD_HALF, -BOARD_HALF], [BOARD_HALF, -BOARD_HALF],
                          [BOARD_HALF, BOARD_HALF], [-BOARD_HALF, BOARD_HALF]], np.float32)
#: Rectified board resolution used for checking, px per board unit.
CHECK_SCALE = 2.0


@dataclass
class BoardFit:
    """A board found in a frame: ``homography`` maps board units to pixels; ``corners`` are
    its corners in pixels (NW, NE, SE, SW); ``score`` is the cup evidence (higher is surer;
    above ``MIN_SCORE`` it is accepted); ``oriented`` says the title strip was seen."""

    homography: np.ndarray
    corners: np.ndarray
    score: float
    oriented: bool


MIN_SCORE = 0.25


def _quads(frame: np.ndarray, min_area: float) -> list[np.ndarray]:
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    out: list[np.ndarray] = []
    for lo, hi in ((40, 120), (20, 60)):
        edges = cv2.Canny(gray, lo, hi)
        edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if cv2.contourArea(c) < min_area:
                continue
            hull = cv2.convexHull(c)
            peri = cv2.arcLength(hull, True)
            for eps in (0.02, 0.035, 0.05):
                approx = cv2.approxPolyDP(hull, eps * peri, True)
                if len(approx) == 4 and cv2.isContourConvex(approx):
                    out.append(approx.reshape(4, 2).astype(np.float32))
                    break
    return out


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners ordered clockwise starting from the one nearest the image's top-left."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(q[:, 0] + q[:, 1]))
    return np.roll(q, -start, axis=0)


def rectify(frame: np.ndarray, homography: np.ndarray, scale: float = CHECK_SCALE,
            margin: float = 0.0) -> np.ndarray:
    """The board seen from above: ``scale`` px per board unit, ``margin`` units around it."""
    half = BOARD_HALF + margin
    size = int(round(2 * half * scale))
    to_board = np.array([[1 / scale, 0, -half], [0, 1 / scale, -half], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(frame, homography @ to_board, (size, size),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)


def cup_score(board_img: np.ndarray, scale: float = CHECK_SCALE) -> float:
    """How much the rectified board looks like 8 cups around a Jackpot cup: the mean contrast
    between each cup's inside and the ring just outside it (cups are recessed, darker)."""
    gray = cv2.cvtColor(board_img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    yy, xx = np.mgrid[0:gray.shape[0], 0:gray.shape[1]]
    contrasts = []
    for cup in board_cups("michigan-rummy"):
        cx = (cup.center[0] + BOARD_HALF) * scale
        cy = (cup.center[1] + BOARD_HALF) * scale
        d = np.hypot(xx - cx, yy - cy) / (cup.radius * scale)
        inner = gray[d < 0.7]
        ring = gray[(d > 1.25) & (d < 1.6)]
        if inner.size == 0 or ring.size == 0:
            return 0.0
        contrasts.append((float(np.median(ring)) - float(np.median(inner))) / 255.0)
    return float(np.mean(np.clip(contrasts, -1, 1)) * 4)


def _strip_side(board_img: np.ndarray, scale: float = CHECK_SCALE) -> tuple[int, float]:
    """Which edge (0 N, 1 E, 2 S, 3 W) carries the title strip, and how clearly."""
    hsv = cv2.cvtColor(board_img, cv2.COLOR_BGR2HSV).astype(np.float32)
    n = board_img.shape[0]
    band = int(7 * scale)
    mid = slice(int(n * 0.2), int(n * 0.8))
    sides = [hsv[2:band, mid], hsv[mid, n - band:n - 2], hsv[n - band:n - 2, mid],
             hsv[mid, 2:band]]
    centre = hsv[int(n * 0.05):int(n * 0.95), int(n * 0.05):int(n * 0.95)]
    base_h = float(np.median(centre[:, :, 0]))
    # the strip's hue differs from the wood's: red strip vs orange wood
    scores = []
    for s in sides:
        hue = s[:, :, 0]
        dh = np.minimum(np.abs(hue - base_h), 180 - np.abs(hue - base_h))
        scores.append(float(np.mean(dh > 6)))
    best = int(np.argmax(scores))
    others = sorted(scores)[:-1]
    return best, scores[best] - max(others)


def detect_board(frame: np.ndarray, min_area_frac: float = 0.04) -> BoardFit | None:
    """Find the board; None when no quadrilateral looks like a board with cups."""
    h, w = frame.shape[:2]
    best: BoardFit | None = None
    seen: list[np.ndarray] = []
    for quad in _quads(frame, min_area_frac * w * h):
        q = _order(quad)
        if any(float(np.abs(q - s).max()) < 3 for s in seen):
            continue
        seen.append(q)
        hom = cv2.getPerspectiveTransform(BOARD_CORNERS, q)
        img = rectify(frame, hom)
        score = cup_score(img)
        if score < MIN_SCORE or (best is not None and score <= best.score):
            continue
        side, clarity = _strip_side(img)
        oriented = clarity > 0.3
        if not oriented:
            # no strip: south is the edge nearest the camera (the bottom of the image)
            mids = [(q[i] + q[(i + 1) % 4]) / 2 for i in range(4)]
            side = int(np.argmax([m[1] for m in mids]))
        q = np.roll(q, -(side - 2), axis=0)  # rotate so the strip's edge becomes south
        hom = cv2.getPerspectiveTransform(BOARD_CORNERS, q)
        best = BoardFit(np.asarray(hom, np.float64), q, score, oriented)
    return best


def refine_with_cups(frame: np.ndarray, fit: BoardFit) -> BoardFit:
    """Sharpen a fit with the cups' centres found by a circle search (kept if it helps)."""
    scale = 4.0
    img = rectify(frame, fit.homography, scale)
    gray = cv2.medianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), 5)
    src, dst = [], []
    for cup in board_cups("michigan-rummy"):
        r = cup.radius * scale
        circles = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1.2, minDist=r,
                                   param1=80, param2=18, minRadius=int(r * 0.8),
                                   maxRadius=int(r * 1.35))
        if circles is None:
            continue
        cx = (cup.center[0] + BOARD_HALF) * scale
        cy = (cup.center[1] + BOARD_HALF) * scale
        c = circles[0]
        d = np.hypot(c[:, 0] - cx, c[:, 1] - cy)
        k = int(np.argmin(d))
        if d[k] < r * 0.4:
            src.append(cup.center)
            dst.append((c[k, 0] / scale - BOARD_HALF, c[k, 1] / scale - BOARD_HALF))
    if len(src) < 6:
        return fit
    # dst are board points as seen through the current fit: map them to pixels
    from calibration.profile import apply_homography

    px = apply_homography(fit.homography, np.array(dst))
    pts_src = np.vstack([np.array(src, np.float32), BOARD_CORNERS])
    pts_dst = np.vstack([px.astype(np.float32), fit.corners.astype(np.float32)])
    hom, _ = cv2.findHomography(pts_src, pts_dst, 0)
    if hom is None:
        return fit
    new = BoardFit(np.asarray(hom, np.float64), fit.corners, fit.score, fit.oriented)
    new.score = cup_score(rectify(frame, new.homography))
    return new if new.score >= fit.score * 0.98 else fit
