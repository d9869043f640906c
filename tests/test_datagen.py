"""Scene generator: labels match the cards dealt, boxes lie in the frame, YOLO lines are valid."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from deck_helpers import needs_decks  # noqa: E402

from companion.cards import CARD_CODES  # noqa: E402
from vision.training import scenes  # noqa: E402


@needs_decks
def test_scattered_scene_labels_every_dealt_card() -> None:
    rng = np.random.default_rng(2)
    codes = ["QH", "7C", "AS", "TD"]
    scene = scenes.render_scene(rng, ["standard"], size=640, kind="scatter", clean=True,
                                codes=codes, card_height=170)
    h, w = scene.image.shape[:2]
    assert max(h, w) == 640 and scene.image.dtype == np.uint8
    assert {c for c, _ in scene.cards} <= set(codes)
    for _, (x1, y1, x2, y2) in scene.cards:
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
    for line in scene.yolo_lines():
        cls, *xywh = line.split()
        assert 0 <= int(cls) < len(CARD_CODES)
        assert all(0 <= float(v) <= 1 for v in xywh)


@needs_decks
def test_empty_scene_has_no_labels() -> None:
    scene = scenes.render_scene(np.random.default_rng(0), ["standard"], empty=True)
    assert scene.cards == [] and scene.kind == "empty"


@needs_decks
def test_pile_labels_cards_whose_corner_shows() -> None:
    codes = ["5H", "9S", "KD", "3C"]
    scene = scenes.render_scene(np.random.default_rng(1), ["standard"], size=640, kind="pile",
                                clean=True, codes=codes, card_height=200)
    assert {c for c, _ in scene.cards} == set(codes)
