"""Deck designs: every installed design renders all 52 cards and its back as BGRA images."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from deck_helpers import decks_missing, svg_renderer_missing  # noqa: E402

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


def _ink_share(img: np.ndarray, box: tuple[float, float, float, float]) -> float:
    """The share of a card box (fractions of the card) that is ink, not paper."""
    h, w = img.shape[:2]
    ink = decks.card_ink(img)
    x1, y1, x2, y2 = box
    return float(ink[int(y1 * h):int(np.ceil(y2 * h)), int(x1 * w):int(np.ceil(x2 * w))].mean())


def test_corner_index_layouts_are_declared_apart() -> None:
    assert not decks.SPLIT_INDEX_DECKS & decks.FOUR_INDEX_DECKS
    assert decks.SPLIT_INDEX_DECKS <= set(decks.TRAIN_DECKS)
    assert decks.corner_index_boxes("oxygen", "5D") == []  # no corner to label, no drawing


@pytest.mark.skipif(decks_missing("standard", "xskat-french") is not None,
                    reason=decks_missing("standard", "xskat-french") or "")
def test_corner_index_boxes_follow_the_design() -> None:
    # An ordinary deck: the top-left index and the bottom-right one turned half a turn.
    tl, br = decks.corner_index_boxes("standard", "2C")
    assert np.allclose(br, (1 - tl[2], 1 - tl[3], 1 - tl[0], 1 - tl[1]))
    # A four-index deck also labels the top-right (upright) and bottom-left (turned) ones,
    # where it prints as much ink as in the top-left; the ordinary deck prints next to none.
    for code in ("AS", "2C", "3H"):
        boxes = decks.corner_index_boxes("xskat-french", code)
        assert len(boxes) == 4
        card = decks.render_card("xskat-french", code, 240)
        tl_ink, tr_ink = _ink_share(card, boxes[0]), _ink_share(card, boxes[2])
        assert 0.8 < tr_ink / tl_ink < 1.25
        assert np.allclose(boxes[3], (1 - boxes[2][2], 1 - boxes[2][3], 1 - boxes[2][0],
                                      1 - boxes[2][1]))
        plain = decks.render_card("standard", code, 240)
        x1, y1, x2, y2 = decks.corner_index_box("standard", code)
        assert _ink_share(plain, (1 - x2, y1, 1 - x1, y2)) < 0.2 * _ink_share(plain,
                                                                             (x1, y1, x2, y2))


def test_index_columns_end_at_a_gap_after_the_index() -> None:
    h, w = 240, 170
    cols = np.zeros(44, bool)
    cols[3] = True            # the card's border line before the index: not its end
    cols[8:10] = True
    cols[13:25] = True        # "1"
    cols[27:33] = True        # "0", two columns on: one index
    cols[38:44] = True        # a pip beside it, five columns on
    assert decks.index_columns(cols, h, w) == 33
    assert decks.index_columns(cols[:35], h, w) == 35  # nothing beside: the region's end
    assert decks.index_columns(np.zeros(44, bool), h, w) == 44


def _folder_deck(root: Path, name: str) -> None:
    folder = root / f"{decks.CARD_FOLDER}{name}"
    folder.mkdir(parents=True)
    for k, code in enumerate((*CARD_CODES, "back")):
        shade = 40 + 3 * k
        (folder / f"{code}.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140">'
            '<rect x="1" y="1" width="98" height="138" rx="6" fill="#fff" stroke="#000"/>'
            f'<rect x="6" y="6" width="12" height="30" fill="rgb({shade},0,0)"/></svg>')


@pytest.mark.skipif(svg_renderer_missing() is not None, reason=svg_renderer_missing() or "")
def test_a_folder_of_card_files_is_a_design(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    _folder_deck(tmp_path, "plain")
    (tmp_path / f"{decks.CARD_FOLDER}short").mkdir()  # a folder lacking cards is no design
    monkeypatch.setattr(decks, "DECK_DIRS", (tmp_path,))
    monkeypatch.setenv("MICHIGAN_CACHE", str(tmp_path / "cache"))
    decks._deck_index.cache_clear()
    try:
        assert decks.available_decks() == ["plain"]
        card = decks.render_card("plain", "2C", 140)
        assert card.shape[0] == 140 and 95 <= card.shape[1] <= 105
        assert card[70, 50, 3] == 255 and card[0, 0, 3] < 128  # rounded corner left clear
        assert decks.render_back("plain", 140).shape[0] == 140
        x1, y1, x2, y2 = decks.corner_index_box("plain", "QH")
        assert x1 < 0.08 and y1 < 0.05 and 0.16 < x2 < 0.21 and 0.24 < y2 < 0.28
    finally:
        decks._deck_index.cache_clear()
        decks._cached.cache_clear()
