"""Read the table zone by zone: each readable zone is warped to a top-down view, upright as
its seat sees it, and the detector runs on those views instead of the whole frame.

Why: seen from a laptop on one side of the table, the far seat's cards are small and upside
down and the side seats' cards lie sideways and foreshortened. Rectified through the table
profile's homography, every pile looks like a pile photographed from above, with its cards
at about the same size (``view_px`` sets it) whatever the seat. It also means the detector
never sees anything outside the calibrated zones: players' hands and the dummy are not read.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import cv2
import numpy as np

from calibration.layout import Zone, seat_angle
from calibration.profile import TableProfile, apply_homography
from vision.detections import Detections


class ManyDetector(Protocol):
    """A detector that reads several images at once (`CardDetector.detect_many`)."""

    names: tuple[str, ...]

    def detect_many(self, frames_bgr: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]: ...


@dataclass(frozen=True)
class ZoneView:
    """How one zone is cut out of the frame.

    ``to_image`` maps view pixels to frame pixels (3x3 homography); ``size`` is the view's
    (width, height); ``zone`` indexes ``profile.zones``.
    """

    zone: int
    to_image: np.ndarray
    size: tuple[int, int]


def view_angle(zone: Zone, seats: int) -> float:
    """Direction (radians, board axes) that is "down" in the zone's view.

    A seat's pile is seen as that player sees it (their side of the table at the bottom);
    shared areas (trump, discard, stock) are seen as the camera sees them (board south).
    """
    if zone.seat is not None and seats > 0:
        return seat_angle(zone.seat, seats)
    return math.pi / 2


def zone_views(profile: TableProfile, view_px: int = 320, margin: float = 8.0
               ) -> list[ZoneView]:
    """A view for every readable zone of ``profile``: the zone plus ``margin`` board units
    around it (a card laid across the edge is still seen whole), ``view_px`` on its long side.
    """
    views = []
    for i, zone in enumerate(profile.zones):
        if zone.kind == "hidden":
            continue
        a = view_angle(zone, profile.seats)
        down = np.array([math.cos(a), math.sin(a)])
        right = np.array([down[1], -down[0]])
        c = np.asarray(zone.center, np.float64)
        poly = np.asarray(zone.polygon, np.float64) - c
        u, v = poly @ right, poly @ down
        u0, u1 = float(u.min()) - margin, float(u.max()) + margin
        v0, v1 = float(v.min()) - margin, float(v.max()) + margin
        scale = view_px / max(u1 - u0, v1 - v0)  # view pixels per board unit
        w, h = max(8, int(round((u1 - u0) * scale))), max(8, int(round((v1 - v0) * scale)))
        origin = c + u0 * right + v0 * down
        to_board = np.array([[right[0] / scale, down[0] / scale, origin[0]],
                             [right[1] / scale, down[1] / scale, origin[1]],
                             [0.0, 0.0, 1.0]])
        views.append(ZoneView(i, profile.homography @ to_board, (w, h)))
    return views


def rectify(frame: np.ndarray, view: ZoneView) -> np.ndarray:
    """The zone's view cut out of ``frame`` (outside the frame is grey)."""
    return np.asarray(cv2.warpPerspective(
        frame, np.linalg.inv(view.to_image), view.size, flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT, borderValue=(114, 114, 114)))


def boxes_to_image(boxes: np.ndarray, to_image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """View boxes -> (frame boxes as large as the box around their four mapped corners and
    centred on the mapped box centre, those centres). Centred so, a frame box's centre is
    the point the zone was chosen by: through a perspective the middle of the box around the
    corners lies off the mapped centre (by 2 px for a card at the demo table's edge), and a
    card near a zone's edge was kept by the view and then dropped by the tracker, which
    places each card by its box's centre (Dee's A♥, seed 105: unread for 0.8 s, then logged
    with the next card as one play)."""
    if not len(boxes):
        return np.zeros((0, 4), np.float32), np.zeros((0, 2), np.float64)
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    corners = np.stack([np.column_stack([x1, y1]), np.column_stack([x2, y1]),
                        np.column_stack([x2, y2]), np.column_stack([x1, y2])], axis=1)
    img = apply_homography(to_image, corners.reshape(-1, 2)).reshape(-1, 4, 2)
    centres = apply_homography(to_image, np.column_stack([(x1 + x2) / 2, (y1 + y2) / 2]))
    half_w = (img[:, :, 0].max(1) - img[:, :, 0].min(1)) / 2
    half_h = (img[:, :, 1].max(1) - img[:, :, 1].min(1)) / 2
    out = np.column_stack([centres[:, 0] - half_w, centres[:, 1] - half_h,
                           centres[:, 0] + half_w, centres[:, 1] + half_h]).astype(np.float32)
    return out, centres


#: ``still_diff`` of the table's reader (`companion watch`, the demo, the camera window): a
#: still zone whose reading agreed 3 times in a row is not read again until some patch of
#: its picture changes by this many grey levels (or 15 frames pass). A still view of the
#: rendered table, through video compression, differs by at most 2-3 between frames; a hand
#: leaving a corner of it by 96 and more (docs/pipeline.md).
TABLE_STILL_DIFF = 8.0


class ZoneReader:
    """Runs a detector on the rectified zone views of a frame; `Detections` in frame pixels.

    Each zone keeps only the cards whose centre lies inside its own polygon, so a card seen in
    the margin of two views is reported once, by the zone it lies in.

    - ``view_px``: the long side of a view (the detector letterboxes it to its input size).
    - ``margin`` (board units) of table shown around each zone: a wider view shows the cards
      smaller but with more context. Measured on 500 frames of 5 rendered games (the share of
      frames in which each zone's top card is read, and wrong readings per frame): margin 8:
      0.922 / 0.078; 20: 0.906 / 0.130; 35: 0.948 / 0.080; 45: 0.923 / 0.060; the whole frame
      instead of views: 0.698 / 0.142 (docs/pipeline.md).
    - ``conf`` / ``card_conf``: the detector's score thresholds for the views (its own when
      None). The tracker's ``min_confidence`` and ``confirm_below`` act after them.
    - ``still_diff``: a view whose 32x32 grey thumbnail differs nowhere from the one last
      read by this much (grey levels, each thumbnail pixel the average of a patch of the
      view) keeps its last reading instead of running the detector again, once its picture
      has been read the same way (the same cards) ``agree`` times in a row (off, 0, by
      default). ``refresh_every``: a kept reading is read again after this many frames, in
      a frame in which no view is read for a change or a reading not yet agreed, one such
      view a frame (after twice this many, in any frame). A first version compared the mean
      difference of the whole thumbnail and kept every first reading (``agree`` 1): much
      faster (the pipeline benchmark: 101 instead of 16 frames per second) but a hand
      leaving a corner of a view moved the mean by less than 2 grey levels (its patches by
      96), and a reading made as it left stuck: on four rendered games it cost 1-3 plays of
      ~35. With the largest patch difference and ``agree`` a reading is kept only once the
      detector has said the same about a still picture several times.
    """

    def __init__(self, detector: ManyDetector, view_px: int = 320, margin: float = 35.0,
                 conf: float | None = None, card_conf: float | None = None,
                 still_diff: float = 0.0, refresh_every: int = 15, agree: int = 3) -> None:
        self.detector = detector
        self.view_px = view_px
        self.margin = margin
        self.conf = conf
        self.card_conf = card_conf
        self.still_diff = still_diff
        self.refresh_every = refresh_every
        self.agree = max(1, int(agree))
        self._key: tuple[Any, ...] | None = None
        self._views: list[ZoneView] = []
        #: Per view: (thumbnail it was read on, its detections, frames since it was read, how
        #: many reads in a row of a still picture gave these cards).
        self._last: dict[int, tuple[np.ndarray, Detections, int, int]] = {}
        #: Views actually run through the detector on the last frame (for benchmarks/tests).
        self.last_read = 0

    @property
    def names(self) -> tuple[str, ...]:
        return self.detector.names

    @property
    def deck_known(self) -> bool:
        """Whether its detector reads this deck as surely as the decks it was measured on
        (`vision.readers.deck_check.DeckCheck.deck_known`; true for a detector that does
        not say)."""
        return bool(getattr(self.detector, "deck_known", True))

    def views(self, profile: TableProfile) -> list[ZoneView]:
        key = (profile.homography.tobytes(), tuple(profile.zones), profile.seats)
        if key != self._key:
            self._views = zone_views(profile, self.view_px, self.margin)
            self._key = key
            self._last.clear()
        return self._views

    def _read(self, frame: np.ndarray, views: list[ZoneView]) -> list[Detections]:
        """Each view's detections: read again where the view changed, kept where it did not."""
        images = [rectify(frame, v) for v in views]
        if self.still_diff <= 0:  # every view, every frame: nothing to compare or keep
            self.last_read = len(images)
            return self.detector.detect_many(images, self.conf, self.card_conf)
        thumbs = [cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img,
                             (32, 32), interpolation=cv2.INTER_AREA).astype(np.float32)
                  for img in images]
        todo, still, due = [], [], []
        for k, (view, thumb) in enumerate(zip(views, thumbs, strict=True)):
            last = self._last.get(view.zone)
            same = (last is not None
                    and float(np.max(np.abs(thumb - last[0]))) < self.still_diff)
            still.append(same)
            if last is None or not same or last[3] < self.agree:
                todo.append(k)
            elif last[2] + 1 >= self.refresh_every:
                due.append((last[2], k))
        # A still view read again only because it is due waits for a frame in which no view
        # is read for a change, and such frames read one each, the longest unread first: read
        # with a card that just landed, they delayed its announcement by a network run each.
        # One unread for twice `refresh_every` frames is read whatever the frame holds.
        due.sort(key=lambda d: -d[0])
        overdue = [k for unread, k in due if unread + 1 >= 2 * self.refresh_every]
        if overdue or todo:
            todo = sorted(todo + overdue)
        elif due:
            todo = [due[0][1]]
        fresh = (self.detector.detect_many([images[k] for k in todo], self.conf, self.card_conf)
                 if todo else [])
        out: list[Detections] = []
        got = dict(zip(todo, fresh, strict=True))
        for k, view in enumerate(views):
            last = self._last.get(view.zone)
            if k in got:
                dets = got[k]
                agreed = (last is not None and still[k]
                          and sorted(dets.labels) == sorted(last[1].labels))
                streak = last[3] + 1 if last is not None and agreed else 1
                self._last[view.zone] = (thumbs[k], dets, 0, streak)
                out.append(dets)
            else:
                assert last is not None
                thumb, dets, age, streak = last
                self._last[view.zone] = (thumb, dets, age + 1, streak)
                out.append(dets)
        self.last_read = len(todo)
        return out

    def detect_table(self, frame: np.ndarray, profile: TableProfile,
                     zones: Collection[int] | None = None) -> Detections:
        """The cards lying in ``profile``'s readable zones of ``frame`` (only in ``zones``,
        indices into ``profile.zones``, when given)."""
        views = self.views(profile)
        if zones is not None:
            views = [v for v in views if v.zone in zones]
        if not views:
            return Detections.empty(self.names)
        found = self._read(frame, views)
        boxes, scores, cls = [], [], []
        for view, dets in zip(views, found, strict=True):
            if not len(dets):
                continue
            img_boxes, centres = boxes_to_image(dets.xyxy, view.to_image)
            board = apply_homography(profile.inverse, centres)
            inside = profile.zone_index(board) == view.zone
            boxes.append(img_boxes[inside])
            scores.append(dets.confidence[inside])
            cls.append(dets.class_id[inside])
        if not boxes:
            return Detections.empty(self.names)
        return Detections(np.concatenate(boxes), np.concatenate(scores), np.concatenate(cls),
                          self.names)
