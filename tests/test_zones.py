"""Zone views: each readable zone cut out of the frame top-down and upright for its seat, the
detector run on the views, and its boxes brought back to the frame (no model needed here)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import pytest

from calibration.layout import Zone, default_zones
from calibration.profile import TableProfile, apply_homography
from companion.cards import CARD_CODES
from vision.detections import Detections
from vision.readers.detector import CardDetector, default_model_path
from vision.zones import ZoneReader, rectify, zone_views


def camera() -> np.ndarray:
    """Board units -> pixels of a 640x480 camera looking from seat 0's side (a trapezoid)."""
    src = np.array([[-100, -100], [100, -100], [100, 100], [-100, 100]], np.float32)
    dst = np.array([[90, 15], [550, 15], [650, 470], [-10, 470]], np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64)


def profile(zones: list[Zone] | None = None, seats: int = 4) -> TableProfile:
    zs = zones if zones is not None else default_zones(seats)
    return TableProfile(camera(), (640, 480), [], zs, "michigan-rummy", seats)


def test_each_view_is_upright_for_its_seat() -> None:
    """The seat's side of its zone is at the bottom of the view and the board at the top."""
    prof = profile()
    views = zone_views(prof)
    assert [v.zone for v in views] == [0, 1, 2, 3]
    for view in views:
        zone = prof.zones[view.zone]
        w, h = view.size
        to_board = prof.inverse @ view.to_image
        centre = apply_homography(to_board, np.array([[w / 2, h / 2]]))[0]
        assert np.allclose(centre, zone.center, atol=0.5)  # to a pixel of rounding
        top, bottom = apply_homography(to_board, np.array([[w / 2, 0.0], [w / 2, h]]))
        # the bottom edge is further from the board centre (nearer the seat) than the top
        assert np.hypot(*bottom) > np.hypot(*zone.center) > np.hypot(*top)


def test_rectify_cuts_the_zone_out_of_the_frame() -> None:
    prof = profile()
    frame = np.zeros((480, 640, 3), np.uint8)
    polys = prof.zone_polygons_px()
    cv2.fillPoly(frame, [np.round(polys[2]).astype(np.int32)], (0, 0, 255))  # seat 2 red
    view = zone_views(prof)[2]
    img = rectify(frame, view)
    assert img.shape[:2] == (view.size[1], view.size[0])
    w, h = view.size
    assert tuple(img[h // 2, w // 2]) == (0, 0, 255)  # the zone fills the middle
    assert tuple(img[2, 2]) != (0, 0, 255)  # the margin around it does not
    other = rectify(frame, zone_views(prof)[0])
    assert not (other == (0, 0, 255)).all(axis=2).any()  # seat 0's view never sees seat 2's


def test_hidden_zones_get_no_view() -> None:
    zones = [*default_zones(3), Zone("dummy", "hidden", ((-10.0, -10.0), (10.0, -10.0),
                                                          (10.0, 10.0), (-10.0, 10.0)))]
    assert [v.zone for v in zone_views(profile(zones, seats=3))] == [0, 1, 2]


class CentreDetector:
    """Reads one card in the middle of every view and one in its top-left margin."""

    names = CARD_CODES

    def __init__(self) -> None:
        self.calls: list[int] = []

    def detect_many(self, frames_bgr: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]:
        self.calls.append(len(frames_bgr))
        out = []
        for k, img in enumerate(frames_bgr):
            h, w = img.shape[:2]
            boxes = np.array([[w / 2 - 30, h / 2 - 40, w / 2 + 30, h / 2 + 40],
                              [0, 0, 20, 20]], np.float32)
            out.append(Detections(boxes, np.array([0.9, 0.9]), np.array([k, 40 + k])))
        return out


def test_reader_maps_boxes_back_and_keeps_each_card_in_its_own_zone() -> None:
    prof = profile()
    det = CentreDetector()
    reader = ZoneReader(det)
    found = reader.detect_table(np.zeros((480, 640, 3), np.uint8), prof)
    assert det.calls == [4]  # one batched call for the four views
    assert found.labels == [CARD_CODES[k] for k in range(4)]  # margin readings dropped
    board = apply_homography(prof.inverse, found.centers)
    assert list(prof.zone_index(board)) == [0, 1, 2, 3]
    for z, (x, y) in enumerate(board):
        cx, cy = prof.zones[z].center
        assert abs(x - cx) < 3 and abs(y - cy) < 3
    # a re-fitted camera gets new views
    moved = prof.with_homography(prof.homography @ np.array([[1, 0, 5], [0, 1, 0], [0, 0, 1.0]]))
    again = reader.detect_table(np.zeros((480, 640, 3), np.uint8), moved)
    assert np.allclose(apply_homography(moved.inverse, again.centers), board, atol=0.5)


class EdgeDetector:
    """Reads long boxes lying across a view at many places, many of them over a zone's edge."""

    names = CARD_CODES

    def detect_many(self, frames_bgr: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]:
        out = []
        for img in frames_bgr:
            h, w = img.shape[:2]
            boxes = np.array([[x, y, x + 70, y + 140] for x in np.linspace(0, w - 70, 23)
                              for y in np.linspace(0, h - 140, 17)], np.float32)
            out.append(Detections(boxes, np.full(len(boxes), 0.9), np.zeros(len(boxes), int)))
        return out


def test_a_card_kept_for_a_zone_lies_in_that_zone_where_the_tracker_places_it() -> None:
    """Through a perspective the middle of the box around a view box's mapped corners is not
    where its centre maps to: a card near a zone's edge was kept by the view and dropped by
    the tracker, which places each card by its frame box's centre (seed 105's A♥)."""
    prof = profile()
    found = ZoneReader(EdgeDetector()).detect_table(np.zeros((480, 640, 3), np.uint8), prof)
    assert len(found) > 100
    zones = prof.zone_index(apply_homography(prof.inverse, found.centers))
    assert (zones >= 0).all()
    # each box still spans the mapped corners' extent
    assert (found.xyxy[:, 2] - found.xyxy[:, 0] > 20).all()


@pytest.mark.skipif(not default_model_path().exists(), reason="models/cards.onnx missing")
def test_detect_many_equals_detect_one_by_one() -> None:
    from vision.render.demo import simulated_round
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo

    video = TableVideo(simulated_round("michigan-rummy", seed=3), RenderConfig(seed=3))
    frames = [video.render(t, int(t * 10)).image for t in (8.0, 16.0)]
    det = CardDetector()
    views = zone_views(video.profile())
    images = [rectify(f, v) for f in frames for v in views]
    together = det.detect_many(images)
    for img, d in zip(images, together, strict=True):
        one = det.detect(img)
        assert one.labels == d.labels
        assert np.allclose(one.xyxy, d.xyxy, atol=1e-3)
    assert sum(len(d) for d in together) > 0


def test_unchanged_views_keep_their_reading_and_a_changed_one_is_read_again() -> None:
    prof = profile()
    det = CentreDetector()
    reader = ZoneReader(det, margin=2.0, still_diff=2.0, refresh_every=5, agree=1)
    frame = np.full((480, 640, 3), 90, np.uint8)
    first = reader.detect_table(frame, prof)
    again = reader.detect_table(frame.copy(), prof)
    assert det.calls == [4] and reader.last_read == 0  # nothing moved: no detector run
    assert again.labels == first.labels and np.allclose(again.xyxy, first.xyxy)
    moved = frame.copy()
    poly = np.round(prof.zone_polygons_px()[1]).astype(np.int32)
    cv2.fillPoly(moved, [poly], (250, 250, 250))  # something lands in seat 1's zone
    reader.detect_table(moved, prof)
    assert det.calls == [4, 1] and reader.last_read == 1
    for _ in range(2):
        reader.detect_table(moved, prof)
    assert det.calls == [4, 1]  # the untouched views are not due yet (4 frames)
    for _ in range(3):
        reader.detect_table(moved, prof)
    # Due after 5 frames, read again one a frame, in frames that read no view for a change.
    assert det.calls == [4, 1, 1, 1, 1]
    reader.detect_table(frame, prof)  # seat 1's card gone: only its view is read
    assert det.calls == [4, 1, 1, 1, 1, 1] and reader.last_read == 1
    every = ZoneReader(det, still_diff=0)
    every.detect_table(frame, prof)
    every.detect_table(frame, prof)
    assert det.calls[-2:] == [4, 4]


def test_views_due_again_wait_for_a_frame_that_reads_no_change() -> None:
    """A still view due to be read again is not read beside a view read for a change (a
    card landing), unless it has waited twice ``refresh_every`` frames."""
    prof = profile()
    det = CentreDetector()
    reader = ZoneReader(det, margin=2.0, still_diff=2.0, refresh_every=3, agree=1)
    frame = np.full((480, 640, 3), 90, np.uint8)
    reader.detect_table(frame, prof)
    poly = np.round(prof.zone_polygons_px()[1]).astype(np.int32)
    for k in range(6):  # seat 1's view changes in every frame: a hand lays a card there
        busy = frame.copy()
        cv2.fillPoly(busy, [poly], (120 + 20 * k,) * 3)
        reader.detect_table(busy, prof)
    # The other three views were due from the third frame on and waited; in the sixth
    # they had waited twice refresh_every and were read with seat 1's.
    assert det.calls == [4, 1, 1, 1, 1, 1, 4]


class SteadyOrFlickering:
    """Reads one card in the middle of every view: always 2♣, or (``flicker``) 2♣ and 3♣
    in turn from one call to the next."""

    names = CARD_CODES

    def __init__(self, flicker: bool) -> None:
        self.flicker = flicker
        self.calls: list[int] = []

    def detect_many(self, frames_bgr: Sequence[np.ndarray], conf: float | None = None,
                    card_conf: float | None = None) -> list[Detections]:
        self.calls.append(len(frames_bgr))
        code = len(self.calls) % 2 if self.flicker else 0
        out = []
        for img in frames_bgr:
            h, w = img.shape[:2]
            box = np.array([[w / 2 - 30, h / 2 - 40, w / 2 + 30, h / 2 + 40]], np.float32)
            out.append(Detections(box, np.array([0.9]), np.array([code])))
        return out


@pytest.mark.parametrize("flicker", [False, True])
def test_a_still_view_is_kept_only_once_its_readings_agree(flicker: bool) -> None:
    """A still picture is read until the detector said the same cards ``agree`` times in a
    row; then its reading is kept. A detector that keeps changing its mind about the same
    picture (a misread as a hand leaves) is asked again every frame."""
    prof = profile()
    det = SteadyOrFlickering(flicker)
    reader = ZoneReader(det, still_diff=2.0, refresh_every=100, agree=3)
    frame = np.full((480, 640, 3), 90, np.uint8)
    for _ in range(6):
        reader.detect_table(frame, prof)
    assert det.calls == ([4] * 6 if flicker else [4, 4, 4])
