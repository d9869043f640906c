"""Deck designs: every installed design renders all 52 cards and its back as BGRA images."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from deck_helpers import svg_renderer_missing  # noqa: E402

from companion.cards import CARD_CODES  # noqa: E402
from vision.render import decks  # noqa: E402


def test_split_is_disjoint_and_known() -> None:
    assert not set(decks.TRAIN_DECKS) & set(decks.HELDOUT_DECKS)
    assert len(decks.HELDOUT_DECKS) == 2
    assert not set(decks.TRAIN_DECKS) & decks.EXCLUDED_DECKS


def test_element_ids() -> None:
    assert decks.element_id("oxygen", "QH") == "queen_heart"
    assert decks.element_id("oxygen", "AS") == "1_spade"
    assert decks.element_id("oxygen", "TD") == "10_diamond"
    assert decks.element_id("bonded", "KC") == "club_king"


_cannot_draw = ("no deck designs installed (apt install kdegames-card-data-kf5)"
                if not decks.available_decks() else svg_renderer_missing())


@pytest.mark.skipif(_cannot_draw is not None, reason=_cannot_draw or "")
def test_render_card_and_back() -> None:
    deck = "standard" if "standard" in decks.available_decks() else decks.available_decks()[0]
    img = decks.render_card(deck, "QH", 120)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 4
    assert img.shape[0] == 120 and 60 < img.shape[1] < 110
    assert img[60, img.shape[1] // 2, 3] == 255  # opaque middle
    back = decks.render_back(deck, 120)
    assert back.shape[0] == 120
    # Different cards differ.
    other = decks.render_card(deck, "2C", 120)
    assert other.shape == img.shape and np.abs(other.astype(int) - img.astype(int)).mean() > 5
    assert decks.render_card(deck, "QH", 120) is img  # cached
    with pytest.raises(ValueError):
        decks.render_card(deck, "1X", 120)
    assert len(CARD_CODES) == 52
