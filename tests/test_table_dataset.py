"""Training scenes from the table renderer: whole frames and zone views, labelled in YOLO
format with the card codes, only cards whose corner index shows, held-out decks refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from calibration.profile import apply_homography
from companion.cards import CARD_CODES
from vision.table_dataset import _view_lines, main
from vision.table_render import RenderConfig, TableVideo, card_corners, simulated_round
from vision.zones import zone_views


def read_labels(path: Path) -> list[tuple[str, float, float, float, float]]:
    rows = []
    for line in path.read_text().splitlines():
        c, *xywh = line.split()
        rows.append((CARD_CODES[int(c)], *(float(v) for v in xywh)))
    return rows


def test_zone_view_labels_sit_on_the_cards_and_skip_covered_ones() -> None:
    video = TableVideo(simulated_round("michigan-rummy", seed=4), RenderConfig(seed=4))
    truth = video.render(video.duration * 0.7, 1)
    profile = video.profile()
    visible = {c for c, _b, vis in truth.cards if vis}
    hidden = {c for c, _b, vis in truth.cards if not vis}
    assert visible and hidden  # a late frame has piles with covered cards
    seen: set[str] = set()
    for view in zone_views(profile):
        w, h = view.size
        to_view = np.linalg.inv(profile.inverse @ view.to_image)
        for line in _view_lines(truth, profile, view, w, h):
            c, cx, cy, bw, bh = line.split()
            code = CARD_CODES[int(c)]
            assert code in visible
            seen.add(code)
            (x, y, ang), = [p for (cc, _b, _v), p in zip(truth.cards, truth.poses, strict=True)
                            if cc == code]
            centre = apply_homography(to_view, card_corners(x, y, ang)).mean(axis=0)
            assert abs(float(cx) * w - centre[0]) < 0.5 * float(bw) * w
            assert abs(float(cy) * h - centre[1]) < 0.5 * float(bh) * h
    in_zones = {c for (c, b, vis) in truth.cards if vis and profile.zone_index(
        profile.image_to_board(np.array([[(b[0] + b[2]) / 2, (b[1] + b[3]) / 2]])))[0] >= 0}
    assert in_zones <= seen


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
