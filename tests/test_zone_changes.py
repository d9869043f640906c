"""`ZoneChanges`: a zone that comes to rest in another picture (a card laid) is a change,
once; a hand passing over it and leaving it as it was, camera noise, or a picture that
never rests are not."""

from __future__ import annotations

import numpy as np

from vision.pipeline.changes import ZoneChanges

H, W = 120, 160
ZONE = (40, 30, 120, 90)  # x1 y1 x2 y2


def _table(seed: int = 0, card: bool = False, hand: bool = False,
           noise: float = 0.0, hand_at: int = 50) -> np.ndarray:
    frame = np.full((H, W, 3), (40, 110, 50), np.uint8)  # green cloth
    if card:
        frame[40:80, 60:90] = 235  # a white card in the zone
    if hand:
        frame[20:100, hand_at:hand_at + 60] = (90, 140, 200)  # an arm over it
    if noise:
        rng = np.random.default_rng(seed)
        frame = np.clip(frame + rng.normal(0, noise, frame.shape), 0, 255).astype(np.uint8)
    return frame


def _run(frames: list[np.ndarray]) -> list[tuple[int, list[int]]]:
    watch = ZoneChanges([ZONE], still_frames=3)
    return [(k, ch) for k, f in enumerate(frames) if (ch := watch.update(f))]


def test_a_card_laid_is_one_change_once_the_zone_rests() -> None:
    frames = ([_table(k, noise=4) for k in range(6)] + [_table(k, hand=True) for k in range(3)]
              + [_table(k, card=True, noise=4) for k in range(10)])
    assert _run(frames) == [(9 + 3, [0])]  # the third still frame after the hand left


def test_a_hand_that_passes_and_leaves_nothing_is_no_change() -> None:
    frames = ([_table(k, card=True, noise=4) for k in range(6)]
              + [_table(k, card=True, hand=True, hand_at=20 + 12 * k) for k in range(6)]
              + [_table(k, card=True, noise=4) for k in range(10)])
    assert _run(frames) == []


def test_noise_alone_and_a_picture_that_never_rests_are_no_change() -> None:
    assert _run([_table(k, noise=6) for k in range(30)]) == []
    moving = [_table(card=bool(k % 2), hand=k % 3 == 0) for k in range(30)]
    assert _run(moving) == []


def test_a_zone_outside_the_frame_is_never_read() -> None:
    watch = ZoneChanges.of_polygons([np.array([[200.0, 10], [300, 10], [300, 50], [200, 50]])],
                                    (H, W))
    assert watch.boxes == [(200, 10, 160, 50)]
    assert watch.update(_table()) == [] and watch.thumbnail(_table(), 0) is None


def test_the_share_changed_is_measured_against_the_rest_before_a_moment() -> None:
    """`changed_share`: the share of the zone's picture a card laid changed, against the
    picture it rested in before the card came to rest, as it lands and once it rests."""
    watch = ZoneChanges([ZONE], still_frames=3)
    bare, laid = _table(), _table(card=True)
    for k in range(4):
        watch.update(bare, t=0.1 * k)
    assert watch.changed_share(bare, 0, since=1.0) == 0.0
    # (the card fills 30 x 40 of the zone's 80 x 60 pixels: a quarter of its picture)
    landing = watch.changed_share(laid, 0, since=1.0)
    assert landing is not None and 0.2 < landing < 0.3
    for k in range(4):
        watch.update(laid, t=1.0 + 0.1 * k)
    assert watch.changed_share(laid, 0, since=1.0) == landing  # its rest against the one before
    assert watch.changed_share(laid, 0, since=2.0) == 0.0  # nothing since it rested
    assert ZoneChanges([ZONE]).changed_share(bare, 0, since=0.0) is None  # never rested


def test_a_zone_keeps_when_it_began_to_move_and_came_to_rest_in_a_new_picture() -> None:
    """A card laid is a move then a new picture at rest; a hand passing over and leaving
    the zone as it was is a move only."""
    watch = ZoneChanges([ZONE], still_frames=3)
    frames = [_table()] * 5 + [_table(hand=True)] * 2 + [_table(card=True)] * 5 \
        + [_table(card=True, hand=True)] * 2 + [_table(card=True)] * 5
    for k, frame in enumerate(frames):
        watch.update(frame, t=float(k))
    # (at rest on the third frame alike after the first: the card lies from frame 7)
    assert watch.motions(0) == [5.0, 12.0]
    assert watch.landings(0) == [10.0]
    assert watch.moved_at(0) == 12.0
    assert watch.at_rest_since(0) == 17.0


def test_a_zone_watched_again_where_the_camera_moved_it_began_to_move_then() -> None:
    """`follow`: once the board is fitted again after the camera was nudged, a zone whose
    box moved is watched at its new place; it began to move at that moment, and its next
    rest is its starting picture, not a card laid. A fit's jitter of a pixel or two moves
    nothing."""
    watch = ZoneChanges([ZONE, (0, 0, 30, 30)], still_frames=3)
    for k in range(5):
        watch.update(_table(card=True), t=float(k))
    moved = [ZONE[0] - 20, ZONE[1] + 10, ZONE[2] - 20, ZONE[3] + 10]
    square = [[moved[0], moved[1]], [moved[2], moved[1]], [moved[2], moved[3]],
              [moved[0], moved[3]]]
    corner = [[1.0, 1.0], [31, 1], [31, 31], [1, 31]]  # (one pixel off: the same place)
    assert watch.follow([np.array(square, float), np.array(corner)], (H, W), t=5.0) == [0]
    assert watch.boxes == [tuple(moved), (0, 0, 30, 30)]
    assert watch.motions(0) == [5.0] and watch.motions(1) == []
    for k in range(6, 12):
        assert watch.update(_table(card=True), t=float(k)) == []
    # (at rest on the third frame alike after the first at its new place)
    assert watch.landings(0) == [] and watch.at_rest_since(0) == 9.0
