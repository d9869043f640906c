"""A saved table profile: the board's homography, its named cups and the zones around it.

Zones and cups are kept in board units, so a nudged camera only needs a new homography (re-fitted
from the board), never re-drawn zones. Profiles are JSON files a user can adjust by hand.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.layout import BOARD_HALF, Cup, Zone, board_cups, default_zones

PROFILE_VERSION = 1
#: Where example profiles ship.
PROFILE_DIR = Path(__file__).resolve().parent / "profiles"


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through the 3x3 homography ``h``."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return np.zeros((0, 2), np.float64)
    homog = np.column_stack([pts, np.ones(len(pts))]) @ np.asarray(h, np.float64).T
    w = homog[:, 2:3]
    w = np.where(np.abs(w) < 1e-12, 1e-12, w)
    return homog[:, :2] / w


def points_in_polygon(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Boolean mask: which of the (N, 2) points lie inside ``polygon`` (M, 2) (even-odd rule)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    poly = np.asarray(polygon, dtype=np.float64).reshape(-1, 2)
    x, y = pts[:, 0:1], pts[:, 1:2]
    x1, y1 = poly[:, 0][None, :], poly[:, 1][None, :]
    x2, y2 = np.roll(poly[:, 0], -1)[None, :], np.roll(poly[:, 1], -1)[None, :]
    crosses = (y1 > y) != (y2 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
    hits = crosses & (x < xint)
    return np.asarray(hits.sum(axis=1) % 2 == 1)


@dataclass
class TableProfile:
    """Everything the pipeline knows about a table's geometry.

    - ``homography``: 3x3, board units -> image pixels (its inverse maps pixels to the board);
    - ``image_size``: (width, height) of the frames it was fitted on;
    - ``cups`` and ``zones`` in board units; ``game`` and ``seats`` it was proposed for.
    """

    homography: np.ndarray
    image_size: tuple[int, int]
    cups: list[Cup]
    zones: list[Zone]
    game: str = "michigan-rummy"
    seats: int = 4
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.homography = np.asarray(self.homography, dtype=np.float64).reshape(3, 3)

    # --- construction ---------------------------------------------------------------------
    @classmethod
    def propose(cls, homography: np.ndarray, image_size: tuple[int, int], game: str,
                seats: int, disk: list[str] | None = None) -> TableProfile:
        """A profile with the default cups of ``game``'s disk and the default zones."""
        return cls(np.asarray(homography), image_size, board_cups(game, disk),
                   default_zones(seats, game), game, seats)

    def with_homography(self, homography: np.ndarray) -> TableProfile:
        """The same zones and cups seen through a re-fitted homography."""
        return replace(self, homography=np.asarray(homography, np.float64))

    # --- geometry ---------------------------------------------------------------------------
    @property
    def inverse(self) -> np.ndarray:
        return np.asarray(np.linalg.inv(self.homography))

    def image_to_board(self, points: np.ndarray) -> np.ndarray:
        return apply_homography(self.inverse, points)

    def board_to_image(self, points: np.ndarray) -> np.ndarray:
        return apply_homography(self.homography, points)

    def zone_index(self, board_points: np.ndarray) -> np.ndarray:
        """For each board point, the index of the readable zone holding it, or -1.

        Points in a ``hidden`` zone get -1 even where they overlap a readable zone.
        """
        pts = np.asarray(board_points, np.float64).reshape(-1, 2)
        out = np.full(len(pts), -1, dtype=np.int64)
        hidden = np.zeros(len(pts), bool)
        for i, zone in enumerate(self.zones):
            inside = points_in_polygon(pts, np.asarray(zone.polygon))
            if zone.kind == "hidden":
                hidden |= inside
            else:
                out[(out < 0) & inside] = i
        out[hidden] = -1
        return out

    def zone_polygons_px(self) -> list[np.ndarray]:
        """Each zone's polygon in image pixels (for drawing and masking)."""
        return [self.board_to_image(np.asarray(z.polygon)) for z in self.zones]

    def board_corners_px(self) -> np.ndarray:
        b = BOARD_HALF
        return self.board_to_image(np.array([[-b, -b], [b, -b], [b, b], [-b, b]]))

    def visible_mask(self, shape: tuple[int, int]) -> np.ndarray:
        """uint8 mask (255 = may be shown or stored): the board and readable zones only."""
        h, w = shape
        mask = np.zeros((h, w), np.uint8)
        polys = [self.board_corners_px()]
        polys += [p for p, z in zip(self.zone_polygons_px(), self.zones, strict=True)
                  if z.kind != "hidden"]
        for poly in polys:
            cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
        for poly, zone in zip(self.zone_polygons_px(), self.zones, strict=True):
            if zone.kind == "hidden":
                cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 0)
        return mask

    def mask_private(self, frame: np.ndarray) -> np.ndarray:
        """A copy of ``frame`` with everything outside the board and zones blacked out.

        Players' hands and the dummy lie outside the zones: they are never shown or stored.
        """
        mask = self.visible_mask(frame.shape[:2])
        out = frame.copy()
        out[mask == 0] = 0
        return out

    # --- files ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "version": PROFILE_VERSION,
            "game": self.game,
            "seats": self.seats,
            "image_size": list(self.image_size),
            "homography": [[float(v) for v in row] for row in self.homography],
            "cups": [c.to_json() for c in self.cups],
            "zones": [z.to_json() for z in self.zones],
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableProfile:
        if int(data.get("version", 1)) > PROFILE_VERSION:
            raise ValueError(f"profile version {data.get('version')} is newer than this program")
        h = np.asarray(data["homography"], dtype=np.float64)
        if h.shape != (3, 3):
            raise ValueError("profile homography must be 3x3")
        size = data.get("image_size") or [640, 480]
        return cls(h, (int(size[0]), int(size[1])),
                   [Cup.from_json(c) for c in data.get("cups", [])],
                   [Zone.from_json(z) for z in data.get("zones", [])],
                   str(data.get("game", "michigan-rummy")), int(data.get("seats", 4)),
                   dict(data.get("meta") or {}))

    def save(self, path: str | os.PathLike[str]) -> Path:
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(out.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, out)
        return out

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TableProfile:
        with open(path, encoding="utf-8") as fh:
            return cls.from_json(json.load(fh))
