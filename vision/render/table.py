"""The synthetic table seen through a camera: `TableVideo` renders a game log's frames on the
fly (the table painted top-down by `vision.render.paint` as `vision.render.plan` lays the game
out, seen through a tilted camera with uneven light), each with its cards' true boxes
(`FrameTruth`); `render_video` writes them to a file with the ground truth beside it.

It is the app's built-in demo table (`vision.render.demo`) and the tests' end-to-end material.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.layout import (
    CARD_H,
    CARD_W,
    board_cups,
    default_zones,
    seat_angle,
)
from vision.render.paint import (
    CANVAS_SCALE,
    TABLE_HALF,
    board_to_canvas,
    card_corners,
    card_points,
    card_sprite,
    draw_board,
    draw_chips,
    draw_hand,
    paste,
    to_px,
    visible_outline,
)
from vision.render.plan import (
    GroundTruth,
    Move,
    Placed,
    RenderConfig,
    plan_game,
    pots_after,
    write_truth,
)

#: The grey level a dim webcam's picture is squeezed towards (`RenderConfig.contrast`).
DIM_GREY = 90.0


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


@dataclass
class FrameTruth:
    """What a rendered frame shows: time, the frame, and each card with its box in frame
    pixels and whether a corner index is visible (not covered by another card or a hand)."""

    index: int
    t: float
    image: np.ndarray
    cards: list[tuple[str, tuple[float, float, float, float], bool]]
    #: Each card's pose on the table, in the order of ``cards``: (x, y, angle) in board
    #: units and `paste` degrees (for labels in other views than the frame).
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
        self._initial_pots = pots_after(self.truth.events[:3])[-1] if self.truth.events else {}
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
                paste(base, card_sprite(cfg.deck, placed.code), placed.x, placed.y,
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
                paste(canvas, card_sprite(cfg.deck, placed.code), placed.x + dx,
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
            draw_hand(canvas, flying.seat, len(self.players), hx, hy, ids)
        frame = cv2.warpPerspective(canvas, self.h_canvas, (cfg.width, cfg.height),
                                    flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        frame = self._finish(frame, index)
        cards = [(code, self._box(x, y, ang), self._visible(ids, i, x, y, ang))
                 for i, (code, x, y, ang) in enumerate(entries)]
        truth = FrameTruth(index, t, frame, cards, [(x, y, ang) for _c, x, y, ang in entries])
        if outlines:
            truth.outlines = [visible_outline(ids, i, x, y, ang)
                              for i, (_code, x, y, ang) in enumerate(entries)]
        return truth

    def _finish(self, frame: np.ndarray, index: int) -> np.ndarray:
        cfg = self.config
        out = frame.astype(np.float32) * self._light
        rng = np.random.default_rng(cfg.seed * 100003 + index)
        if cfg.contrast != 1.0:
            out = DIM_GREY + (out - DIM_GREY) * cfg.contrast
        if cfg.blur > 0:
            out = cv2.GaussianBlur(out, (0, 0), cfg.blur)
        if cfg.noise > 0:
            out += rng.normal(0, cfg.noise, out.shape[:2])[:, :, None].astype(np.float32)
        img = np.clip(out, 0, 255).astype(np.uint8)
        if cfg.salt > 0:
            spots = rng.random(img.shape[:2])
            img[spots < cfg.salt / 2] = 0
            img[spots > 1 - cfg.salt / 2] = 255
        return img

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
            px, py = to_px(float(cx), float(cy))
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
