"""A saved table profile: the board's homography, its named cups and the zones around it.

Zones and cups are kept in board units, so a nudged camera only needs a new homography (re-fitted
from the board), never re-drawn zones. Profiles are JSON files a user can adjust by hand.
"""

from __future__ import annotations

import json
import math
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
    def from_json(cls, data: Any) -> TableProfile:
        """Build a profile from its JSON; `ProfileError` naming the field when one is missing or
        wrong (a profile is a file people edit by hand), or when it has no zones."""
        if not isinstance(data, dict):
            raise ProfileError(f"a table profile is a JSON object, not {_kind(data)}")
        version = data.get("version", 1)
        if not _is_int(version) or version < 1:
            raise ProfileError(f"version: expected a whole number >= 1, got {version!r}")
        if version > PROFILE_VERSION:
            raise ProfileError(f"version: profile version {version} is newer than this program")
        if "homography" not in data:
            raise ProfileError("homography: missing (the 3x3 board-to-image matrix)")
        h = _numbers(data["homography"], "homography", (3, 3))
        if abs(float(np.linalg.det(h))) < 1e-12:
            raise ProfileError("homography: the matrix cannot be inverted (its determinant is 0)")
        size = data.get("image_size", [640, 480])
        if (not isinstance(size, list) or len(size) != 2
                or not all(_is_int(v) and 0 < v <= 100_000 for v in size)):
            raise ProfileError(f"image_size: expected [width, height] in pixels, got {size!r}")
        game = data.get("game", "michigan-rummy")
        if not isinstance(game, str) or not game:
            raise ProfileError(f"game: expected a game name, got {game!r}")
        seats = data.get("seats", 4)
        if not _is_int(seats) or not 1 <= seats <= 12:
            raise ProfileError(f"seats: expected a whole number from 1 to 12, got {seats!r}")
        meta = data.get("meta") or {}
        if not isinstance(meta, dict):
            raise ProfileError(f"meta: expected an object, got {_kind(meta)}")
        cups = [_cup(c, f"cups[{i}]") for i, c in enumerate(_list(data.get("cups", []), "cups"))]
        zones = [_zone(z, f"zones[{i}]")
                 for i, z in enumerate(_list(data.get("zones", []), "zones"))]
        if not zones:
            raise ProfileError("zones: the profile has no zones, so no card on the table would "
                               "ever be read; run `companion calibrate` again or add zones")
        return cls(h, (int(size[0]), int(size[1])), cups, zones, game, int(seats), dict(meta))

    def save(self, path: str | os.PathLike[str]) -> Path:
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(out.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, out)
        return out

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> TableProfile:
        """Read a profile file: OSError when it cannot be read, `ProfileError` (naming the file
        and the field) when it is not a valid profile."""
        with open(path, "rb") as fh:
            raw = fh.read(MAX_PROFILE_BYTES + 1)
        if len(raw) > MAX_PROFILE_BYTES:
            raise ProfileError(f"table profile {path}: larger than {MAX_PROFILE_BYTES:,} bytes; "
                               f"not a profile")
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise ProfileError(f"table profile {path}: not a text file") from None
        except json.JSONDecodeError as exc:
            raise ProfileError(f"table profile {path}: not valid JSON ({exc.msg} at line "
                               f"{exc.lineno}, column {exc.colno})") from None
        except (ValueError, RecursionError) as exc:
            raise ProfileError(f"table profile {path}: not valid JSON ({exc})") from None
        try:
            return cls.from_json(data)
        except ProfileError as exc:
            raise ProfileError(f"table profile {path}: {exc}") from None


#: A profile is a few kilobytes; anything far larger is not one.
MAX_PROFILE_BYTES = 4 << 20
ZONE_KINDS = ("pile", "trump", "discard", "stock", "hidden")


class ProfileError(ValueError):
    """A table profile that cannot be used; the message names the field and says why."""


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false",
            type(None): "null"}.get(type(value), "a number")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ProfileError(f"{where}: expected a list, got {_kind(value)}")
    return value


def _numbers(value: Any, where: str, shape: tuple[int, ...]) -> np.ndarray:
    """Finite numbers of the given shape (nested lists)."""
    def ok(v: Any, dims: tuple[int, ...]) -> bool:
        if not dims:
            return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        return isinstance(v, list) and len(v) == dims[0] and all(ok(x, dims[1:]) for x in v)

    if not ok(value, shape):
        what = "x".join(str(d) for d in shape)
        raise ProfileError(f"{where}: expected {what} finite numbers, got {value!r:.80}")
    return np.asarray(value, dtype=np.float64)


def _name(data: dict[str, Any], where: str) -> str:
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ProfileError(f"{where}.name: expected a name, got {name!r}")
    return name


def _cup(data: Any, where: str) -> Cup:
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: expected an object, got {_kind(data)}")
    name = _name(data, where)
    center = _numbers(data.get("center"), f"{where}.center", (2,))
    radius = data.get("radius")
    if not isinstance(radius, (int, float)) or isinstance(radius, bool) or not (
            math.isfinite(radius) and radius > 0):
        raise ProfileError(f"{where}.radius: expected a number > 0, got {radius!r}")
    return Cup(name, (float(center[0]), float(center[1])), float(radius))


def _zone(data: Any, where: str) -> Zone:
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: expected an object, got {_kind(data)}")
    name = _name(data, where)
    kind = data.get("kind", "pile")
    if kind not in ZONE_KINDS:
        raise ProfileError(f"{where}.kind: expected one of {', '.join(ZONE_KINDS)}, got {kind!r}")
    poly = _list(data.get("polygon"), f"{where}.polygon")
    if len(poly) < 3:
        raise ProfileError(f"{where}.polygon: a zone needs at least 3 corners, got {len(poly)}")
    pts = _numbers(poly, f"{where}.polygon", (len(poly), 2))
    seat = data.get("seat")
    if seat is not None and (not _is_int(seat) or seat < 0):
        raise ProfileError(f"{where}.seat: expected a seat number >= 0 or null, got {seat!r}")
    meta = data.get("meta") or {}
    if not isinstance(meta, dict):
        raise ProfileError(f"{where}.meta: expected an object, got {_kind(meta)}")
    return Zone(name, kind, tuple((float(x), float(y)) for x, y in pts), seat, dict(meta))
