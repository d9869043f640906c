"""The calibration procedure: find the board in a few frames, name its cups from the chosen
disk, propose the zones around it, and hand back a `TableProfile` the user can save and adjust.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import cv2
import numpy as np

from calibration.board import BOARD_CORNERS, BoardFit, detect_board, refine_with_cups
from calibration.focus import check_focus
from calibration.layout import CARD_H, CARD_W
from calibration.profile import TableProfile


class CalibrationError(RuntimeError):
    """The board could not be found (the message says what to try)."""


def fit_board(frames: Iterable[np.ndarray], needed: int = 3, max_frames: int = 60
              ) -> tuple[BoardFit, tuple[int, int], np.ndarray]:
    """Detect the board in up to ``max_frames`` frames; the median of ``needed`` good fits,
    the frames' size, and the last frame the board was found in."""
    fits: list[BoardFit] = []
    size = (0, 0)
    last: np.ndarray | None = None
    for i, frame in enumerate(frames):
        if i >= max_frames:
            break
        size = (frame.shape[1], frame.shape[0])
        fit = detect_board(frame)
        if fit is not None:
            fits.append(fit)
            last = frame
            if len(fits) >= needed:
                break
    if not fits or last is None:
        raise CalibrationError(
            "no board found: make sure the whole board is in view, not covered by cards or "
            "hands, and lit evenly; then run `companion calibrate` again")
    corners = np.median(np.stack([f.corners for f in fits]), axis=0).astype(np.float32)
    hom = cv2.getPerspectiveTransform(BOARD_CORNERS, corners)
    fit = BoardFit(np.asarray(hom, np.float64), corners, max(f.score for f in fits),
                   any(f.oriented for f in fits))
    return refine_with_cups(last, fit), size, last


def calibrate(frames: Iterable[np.ndarray], game: str, seats: int,
              disk: list[str] | None = None) -> TableProfile:
    """A profile for ``game`` with ``seats`` players from frames of the (empty) table; its
    ``meta["warnings"]`` say what the user should mend (`check_zones`, `check_focus`)."""
    fit, size, last = fit_board(frames)
    profile = TableProfile.propose(fit.homography, size, game, seats, disk)
    profile.meta.update({"board_score": round(fit.score, 3), "oriented": fit.oriented})
    warn = check_zones(profile)
    soft = check_focus(last, profile.board_corners_px())
    if soft is not None:
        warn.append(soft)
    if warn:
        profile.meta["warnings"] = warn
    return profile


def check_zones(profile: TableProfile) -> list[str]:
    """Warnings a user should act on: zones out of view, cards too small to read there."""
    w, h = profile.image_size
    out = []
    for zone, poly in zip(profile.zones, profile.zone_polygons_px(), strict=True):
        if zone.kind == "hidden":
            continue
        cx, cy = poly.mean(axis=0)
        if not (0 <= cx < w and 0 <= cy < h):
            out.append(f"zone {zone.name} is out of the camera's view")
            continue
        c = np.array(zone.center)
        card = profile.board_to_image(np.array([c - (CARD_W / 2, CARD_H / 2),
                                                c + (CARD_W / 2, CARD_H / 2)]))
        if abs(card[1, 1] - card[0, 1]) < 40:
            out.append(f"cards in zone {zone.name} look small ({abs(card[1, 1] - card[0, 1]):.0f}"
                       f" px tall): move the camera closer")
    return out


def draw_profile(frame: np.ndarray, profile: TableProfile, mask: bool = True) -> np.ndarray:
    """The frame with the board, cups and zones drawn (private areas blacked out)."""
    out = profile.mask_private(frame) if mask else frame.copy()
    cv2.polylines(out, [np.round(profile.board_corners_px()).astype(np.int32)], True,
                  (0, 255, 255), 2)
    for cup in profile.cups:
        c = profile.board_to_image(np.array([cup.center]))[0]
        e = profile.board_to_image(np.array([(cup.center[0] + cup.radius, cup.center[1])]))[0]
        r = int(max(3, np.hypot(*(e - c))))
        cv2.circle(out, (int(c[0]), int(c[1])), r, (255, 200, 0), 1, cv2.LINE_AA)
        cv2.putText(out, cup.name[:10], (int(c[0]) - r, int(c[1]) + 3),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.3, (255, 255, 255), 1, cv2.LINE_AA)
    for zone, poly in zip(profile.zones, profile.zone_polygons_px(), strict=True):
        col = (0, 0, 255) if zone.kind == "hidden" else (0, 255, 0)
        cv2.polylines(out, [np.round(poly).astype(np.int32)], True, col, 2)
        x, y = np.round(poly.min(axis=0)).astype(int)
        cv2.putText(out, zone.name, (int(x), int(y) - 3), cv2.FONT_HERSHEY_SIMPLEX, 0.4, col, 1,
                    cv2.LINE_AA)
    return out


def make_refit(profile: TableProfile, min_shift: float = 4.0, min_score: float | None = None
               ) -> Callable[[np.ndarray], np.ndarray | None]:
    """A re-fitter for a running pipeline: finds the board again in a frame and returns the new
    homography when the board moved by more than ``min_shift`` pixels (mean over its corners),
    else None (not found, covered, or not moved: keep the current fit)."""
    current = {"corners": profile.board_corners_px().astype(np.float32)}
    base = float(profile.meta.get("board_score", 1.0))
    threshold = min_score if min_score is not None else 0.7 * base

    def refit(frame: np.ndarray) -> np.ndarray | None:
        fit = detect_board(frame)
        if fit is None or fit.score < threshold:
            return None
        shift = float(np.mean(np.hypot(*(fit.corners - current["corners"]).T)))
        if shift < min_shift:
            return None
        current["corners"] = fit.corners
        return fit.homography

    return refit
