"""Cards drawn on pictures for people: each detected card's box labelled as people write it
(``10♦ 0.95``, not ``TD 0.95``). OpenCV's fonts have no suit signs, so the signs are drawn.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.cards import Card
from vision.detections import Detections

_FONT = cv2.FONT_HERSHEY_SIMPLEX
_WHITE = (255, 255, 255)


def draw_suit(img: np.ndarray, suit: str, x: int, y: int, size: int,
              colour: tuple[int, int, int] = _WHITE) -> None:
    """Draw the suit sign ``suit`` (C, D, H, S) filling the square of side ``size`` whose top
    left corner is (x, y)."""
    s = float(size)
    cx = x + s / 2
    r = max(1, int(round(s * 0.26)))

    def pts(*xy: tuple[float, float]) -> np.ndarray:
        return np.array([[int(round(px)), int(round(py))] for px, py in xy], np.int32)

    def disc(px: float, py: float, radius: int = r) -> None:
        cv2.circle(img, (int(round(px)), int(round(py))), radius, colour, -1, cv2.LINE_AA)

    if suit == "D":
        cv2.fillPoly(img, [pts((cx, y), (x + s * 0.85, y + s / 2), (cx, y + s),
                               (x + s * 0.15, y + s / 2))], colour, cv2.LINE_AA)
    elif suit == "H":
        disc(cx - s * 0.22, y + s * 0.32)
        disc(cx + s * 0.22, y + s * 0.32)
        cv2.fillPoly(img, [pts((x + s * 0.03, y + s * 0.42), (x + s * 0.97, y + s * 0.42),
                               (cx, y + s))], colour, cv2.LINE_AA)
    elif suit == "S":
        disc(cx - s * 0.22, y + s * 0.58)
        disc(cx + s * 0.22, y + s * 0.58)
        cv2.fillPoly(img, [pts((x + s * 0.03, y + s * 0.5), (x + s * 0.97, y + s * 0.5),
                               (cx, y))], colour, cv2.LINE_AA)
        cv2.fillPoly(img, [pts((cx, y + s * 0.6), (cx + s * 0.2, y + s), (cx - s * 0.2, y + s))],
                     colour, cv2.LINE_AA)
    elif suit == "C":
        disc(cx, y + s * 0.25)
        disc(cx - s * 0.25, y + s * 0.58)
        disc(cx + s * 0.25, y + s * 0.58)
        cv2.fillPoly(img, [pts((cx, y + s * 0.45), (cx + s * 0.2, y + s), (cx - s * 0.2, y + s))],
                     colour, cv2.LINE_AA)
    else:
        raise ValueError(f"not a suit: {suit!r}")


def draw_card_label(img: np.ndarray, code: str, x: int, y: int, scale: float,
                    colour: tuple[int, int, int] = _WHITE, after: str = "") -> int:
    """Write ``code`` as people read it (rank, suit sign) then ``after``, baseline at y;
    returns the width drawn."""
    card = Card.parse(code)
    rank = "10" if card.rank == 10 else card.rank_char
    (rw, th), _ = cv2.getTextSize(rank, _FONT, scale, 1)
    cv2.putText(img, rank, (x, y), _FONT, scale, colour, 1, cv2.LINE_AA)
    size = max(5, th + 1)
    draw_suit(img, card.suit, x + rw + 1, y - size + 1, size, colour)
    width = rw + 1 + size
    if after:
        cv2.putText(img, after, (x + width, y), _FONT, scale, colour, 1, cv2.LINE_AA)
        width += cv2.getTextSize(after, _FONT, scale, 1)[0][0]
    return width


def label_width(code: str, scale: float, after: str = "") -> tuple[int, int]:
    """Width and height of the label `draw_card_label` writes."""
    card = Card.parse(code)
    rank = "10" if card.rank == 10 else card.rank_char
    (rw, th), _ = cv2.getTextSize(rank, _FONT, scale, 1)
    extra = cv2.getTextSize(after, _FONT, scale, 1)[0][0] if after else 0
    return rw + 1 + max(5, th + 1) + extra, th


def annotate(frame_bgr: np.ndarray, dets: Detections) -> np.ndarray:
    """A copy of the frame with each card's box and its name and score (``10♦ 0.95``)."""
    out = frame_bgr.copy()
    scale = max(0.4, min(out.shape[:2]) / 900)
    for name, (x1, y1, x2, y2), score in dets:
        colour = (40, 40, 230) if name[1] in "HD" else (40, 160, 40)
        p1, p2 = (int(x1), int(y1)), (int(x2), int(y2))
        cv2.rectangle(out, p1, p2, colour, max(1, int(2 * scale)), cv2.LINE_AA)
        after = f" {score:.2f}"
        tw, th = label_width(name, scale, after)
        cv2.rectangle(out, (p1[0], max(0, p1[1] - th - 6)), (p1[0] + tw + 4, max(th + 6, p1[1])),
                      colour, -1)
        draw_card_label(out, name, p1[0] + 2, max(th + 2, p1[1] - 3), scale, _WHITE, after)
    return out
