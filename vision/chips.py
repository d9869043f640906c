"""The chip tally: count the chips seen in each cup of the board and compare with the ledger.

A classical counter (no model): the board is rectified through the profile's homography, each
cup's inside is cut out, the cup's own colour is taken from its rim, and what differs from it is
measured in chip areas. Limits (measured in tests/test_chips.py): chips piled on top of each
other hide one another, so a very full cup reads short; the counter is a check, never the truth.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

import cv2
import numpy as np

from calibration.layout import BOARD_HALF
from calibration.profile import TableProfile

#: Rectified board resolution: pixels per board unit.
SCALE = 4.0
#: A chip's radius in board units (University Games chips on a board about 22 cm wide).
CHIP_RADIUS = 2.4


def ledger_cups(accounts: Mapping[str, int], players: Iterable[str],
                cups: Iterable[str]) -> dict[str, int]:
    """Chips the ledger puts in each physical cup: the cup's account plus per-player accounts
    kept in it (Oh Claire! number cups hold ``"Bob:3"``, OC-5)."""
    people = set(players)
    out: dict[str, int] = {}
    for cup in cups:
        n = int(accounts.get(cup, 0)) if cup not in people else 0
        n += sum(int(v) for k, v in accounts.items() if k.endswith(":" + cup))
        known = cup in accounts or any(k.endswith(":" + cup) for k in accounts)
        if known:
            out[cup] = n
    return out


def rectify_board(frame: np.ndarray, profile: TableProfile, scale: float = SCALE,
                  margin: float = 0.0) -> np.ndarray:
    """The board seen from straight above, ``scale`` px per board unit."""
    half = BOARD_HALF + margin
    size = int(round(2 * half * scale))
    to_img = np.array([[1 / scale, 0, -half], [0, 1 / scale, -half], [0, 0, 1]], np.float64)
    h = profile.homography @ to_img  # rectified px -> board -> image
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    return cv2.warpPerspective(frame, h, (size, size), flags=flags)


class ChipCounter:
    """Counts chips per cup on a frame, given the table profile.

    ``diff`` is the colour distance (0..441) at which a pixel no longer looks like the cup;
    raising it misses pale chips on a pale cup, lowering it counts shadows as chips.
    """

    def __init__(self, diff: float = 60.0, chip_radius: float = CHIP_RADIUS,
                 fill: float = 0.72, peaks: bool = True) -> None:
        self.peaks = peaks
        self.diff = diff
        self.chip_radius = chip_radius
        self.fill = fill

    def __call__(self, frame: np.ndarray, profile: TableProfile) -> dict[str, int]:
        return self.count(frame, profile)

    def count(self, frame: np.ndarray, profile: TableProfile) -> dict[str, int]:
        board = rectify_board(frame, profile)
        lab = cv2.cvtColor(cv2.GaussianBlur(board, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
        out: dict[str, int] = {}
        chip_area = math.pi * (self.chip_radius * SCALE) ** 2 * self.fill
        for cup in profile.cups:
            cx = (cup.center[0] + BOARD_HALF) * SCALE
            cy = (cup.center[1] + BOARD_HALF) * SCALE
            r = cup.radius * SCALE
            yy, xx = np.ogrid[:board.shape[0], :board.shape[1]]
            d = np.hypot(xx - cx, yy - cy)
            inside = d <= r * 0.97
            if not inside.any():
                continue
            pix = lab[inside]
            bg = self._background(pix)
            dist = np.linalg.norm(pix - bg, axis=1)
            fg = dist > self.diff
            mask: np.ndarray = np.zeros(board.shape[:2], np.uint8)
            mask[inside] = fg.astype(np.uint8) * 255
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            area = float(np.count_nonzero(mask))
            by_area = int(round(area / chip_area))
            out[cup.name] = max(by_area, self._peaks(mask)) if self.peaks else by_area
        return out

    def _peaks(self, mask: np.ndarray) -> int:
        """Chips whose centres show: local maxima of the distance to the cup's colour that are
        at least half a chip's radius deep (overlapping chips each keep their own centre)."""
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        r = self.chip_radius * SCALE
        k = max(3, int(r) | 1)
        local = cv2.dilate(dist, np.ones((k, k), np.uint8))
        peaks = (dist >= local - 1e-3) & (dist >= 0.55 * r)
        n, _ = cv2.connectedComponents(peaks.astype(np.uint8))
        return n - 1

    @staticmethod
    def _background(pix: np.ndarray) -> np.ndarray:
        """The cup's own colour: the densest colour cluster among its pixels."""
        q = np.round(pix / 12.0).astype(np.int32)
        keys, inv, counts = np.unique(q, axis=0, return_inverse=True, return_counts=True)
        top = int(np.argmax(counts))
        return np.asarray(pix[inv.reshape(-1) == top].mean(axis=0))


def compare(seen: Mapping[str, int], ledger: Mapping[str, int]) -> list[str]:
    """Sentences for every cup where what is seen disagrees with the ledger."""
    out = []
    for cup, want in ledger.items():
        got = seen.get(cup)
        if got is None or got == want:
            continue
        word = "short" if got < want else "over"
        out.append(f"{cup} looks {word}: ledger {want}, seen {got}")
    return out
