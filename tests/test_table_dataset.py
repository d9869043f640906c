"""Training scenes from the table renderer: whole frames and zone views, labelled in YOLO
format with the card codes, only cards whose corner index shows, held-out decks refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from deck_helpers import needs_decks

from calibration.profile import apply_homography
from companion.cards import CARD_CODES
from vision.render.demo import simulated_round
from vision.render.paint import card_corners
from vision.render.plan import RenderConfig
from vision.render.table import FrameTruth, TableVideo
from vision.training.table_dataset import label_lines, main
from vision.zones import zone_views


def read_labels(path: Path) -> list[tuple[str, float, float, float, float]]:
    rows = []
    for line in path.read_text().splitlines():
        c, *xywh = line.split()
        rows.append((CARD_CODES[int(c)], *(float(v) for v in xywh)))
    return rows


def _labelled(truth: FrameTruth, to_image: np.ndarray, w: int, h: int
              ) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(code, label box, whole-card box) in image pixels for each label line."""
    out = []
    for line in label_lines(truth, to_image, w, h):
        c, cx, cy, bw, bh = (float(v) for v in line.split())
        code = CARD_CODES[int(c)]
        box = np.array([(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w,
                        (cy + bh / 2) * h])
        (x, y, ang), = [p for (cc, _b, _v), p in zip(truth.cards, truth.poses, strict=True)
                        if cc == code]
        pts = apply_homography(to_image, card_corners(x, y, ang))
        whole = np.array([pts[:, 0].min(), pts[:, 1].min(), pts[:, 0].max(), pts[:, 1].max()])
        out.append((code, box, whole))
    return out


def test_zone_view_labels_sit_on_the_cards_and_skip_covered_ones() -> None:
    video = TableVideo(simulated_round("michigan-rummy", seed=4), RenderConfig(seed=4))
    truth = video.render(video.duration * 0.7, 1, outlines=True)
    profile = video.profile()
    visible = {c for c, _b, vis in truth.cards if vis}
    hidden = {c for c, _b, vis in truth.cards if not vis}
    assert visible and hidden  # a late frame has piles with covered cards
    seen: set[str] = set()
    for view in zone_views(profile):
        w, h = view.size
        to_view = np.linalg.inv(profile.inverse @ view.to_image)
        for code, box, whole in _labelled(truth, to_view, w, h):
            assert code in visible
            seen.add(code)
            # The label boxes the visible part: inside the whole card (up to the sprite's
            # rasterising, about a board unit).
            tol = 0.08 * max(whole[2] - whole[0], whole[3] - whole[1])
            assert box[0] >= whole[0] - tol and box[1] >= whole[1] - tol
            assert box[2] <= whole[2] + tol and box[3] <= whole[3] + tol
    in_zones = {c for (c, b, vis) in truth.cards if vis and profile.zone_index(
        profile.image_to_board(np.array([[(b[0] + b[2]) / 2, (b[1] + b[3]) / 2]])))[0] >= 0}
    assert in_zones <= seen


def test_a_revealed_row_is_labelled_card_by_card_around_what_shows() -> None:
    """In a hand spread in a row each card covers most of the one before: that one's label
    is the strip that shows (with its index), not a whole-card box over its neighbour."""
    events = simulated_round("michigan-rummy", seed=11)
    video = TableVideo(events, RenderConfig(seed=11))
    truth = video.render(video.duration, 1, outlines=True)
    revealed = [c for e in events if e.get("event") == "reveal" for c in e["cards"]]
    w, h = video.config.width, video.config.height
    rows = {code: (box, whole) for code, box, whole in _labelled(truth, video.h_board, w, h)}
    strips = [c for c in revealed if c in rows]
    assert len(strips) >= len(revealed) - 1
    narrowed = 0
    for code in strips:
        box, whole = rows[code]
        area = (box[2] - box[0]) * (box[3] - box[1])
        if area < 0.75 * (whole[2] - whole[0]) * (whole[3] - whole[1]):
            narrowed += 1
    assert narrowed >= 2  # the covered cards of each multi-card reveal


@needs_decks
def test_views_command_writes_images_with_labels(tmp_path: Path) -> None:
    assert main(["--views", "--videos", "1", "--frames", "1", "--seed", "3",
                 "--out", str(tmp_path / "v")]) == 0
    images = sorted((tmp_path / "v" / "images").glob("*.jpg"))
    assert len(images) >= 3  # one per readable zone
    for img in images:
        for _code, *xywh in read_labels(tmp_path / "v" / "labels" / f"{img.stem}.txt"):
            assert all(0.0 <= v <= 1.0 for v in xywh)


def test_held_out_decks_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["--videos", "1", "--decks", "dondorf", "--out", str(tmp_path / "x")])


def test_decks_not_installed_are_refused_by_name(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.render.decks

    monkeypatch.setattr(vision.render.decks, "available_decks", lambda: ["standard"])
    with pytest.raises(SystemExit, match="not installed: \\['oxygen'\\]"):
        main(["--videos", "1", "--decks", "standard,oxygen", "--out", str(tmp_path / "x")])
    monkeypatch.setattr(vision.render.decks, "available_decks", lambda: [])
    with pytest.raises(SystemExit, match="installed: none"):
        main(["--videos", "1", "--out", str(tmp_path / "y")])
