"""Calibration: the disks and zones of each game (MR-14, GL-1, PR-1, OC-5, WA-2), profiles on
disk, masking of private areas, and finding the board (and which way it faces) in rendered
frames, including after the camera is nudged."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.board import detect_board
from calibration.calibrate import CalibrationError, calibrate, draw_profile
from calibration.layout import BOARD_HALF, DISKS, Zone, board_cups, default_zones
from calibration.profile import TableProfile, apply_homography, points_in_polygon
from vision.calibrate_cli import register_calibrate, seats_from
from vision.render.plan import RenderConfig
from vision.render.table import TableVideo

SETUP = [{"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy", "Dee"]},
         {"event": "round", "dealer": "Ann"}]


def test_disks_follow_the_rulings() -> None:
    assert [c.name for c in board_cups("michigan-rummy")] == [
        "AS", "KD", "QS", "JH", "TD", "8-9-10 any one suit", "Q-K hearts", "Poker Kitty",
        "Jackpot"]  # MR-14
    assert "Full House Dump" in DISKS["great-lakes"] and "6 Lead" in DISKS["great-lakes"]  # GL-1
    assert DISKS["pressman"][:5] == ["TH", "JS", "KC", "AH", "QH"]  # PR-1
    assert DISKS["oh-claire"] == [str(n) for n in range(8)]  # OC-5 number cups 0-7
    assert board_cups("boodle")[-1].name != "Jackpot"  # BO-1: no Jackpot
    assert [c.name for c in board_cups("pressman", ["A", "B"])][:3] == ["A", "B", "cup-3"]


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_zones_one_pile_per_seat_clockwise_off_the_board(seats: int) -> None:
    zones = default_zones(seats)
    piles = [z for z in zones if z.kind == "pile"]
    assert [z.seat for z in piles] == list(range(seats))
    s0 = piles[0].center
    assert s0[1] > BOARD_HALF and abs(s0[0]) < 1e-6  # seat 0 at the camera's edge (south)
    assert piles[1].center[0] < 0  # the next seat clockwise sits to seat 0's left (west)
    for z in piles:
        poly = np.array(z.polygon)
        assert not points_in_polygon(np.array([[0.0, 0.0]]), poly)[0]
        inside_board = (np.abs(poly) < BOARD_HALF).all(axis=1)
        assert not inside_board.all()
        for other in piles:
            if other is not z:
                assert not points_in_polygon(np.array([other.center]), poly)[0]


def test_extra_areas_per_game() -> None:
    assert [z.kind for z in default_zones(4, "oh-claire")][-1] == "trump"
    assert {z.kind for z in default_zones(2, "michigan-rum")} >= {"discard", "stock"}
    with pytest.raises(ValueError):
        default_zones(0)


def test_point_in_polygon() -> None:
    square = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    pts = np.array([[5, 5], [11, 5], [-1, -1], [9.9, 0.1]])
    assert points_in_polygon(pts, square).tolist() == [True, False, False, True]


def profile_of(seed: int = 0) -> tuple[TableVideo, TableProfile]:
    video = TableVideo(SETUP, RenderConfig(seed=seed))
    return video, video.profile()


def test_profile_round_trips_through_json(tmp_path: Path) -> None:
    _, prof = profile_of()
    path = prof.save(tmp_path / "p.json")
    again = TableProfile.load(path)
    assert np.allclose(again.homography, prof.homography)
    assert again.zones == prof.zones and again.cups == prof.cups
    pts = np.array([[0.0, 0.0], [74.0, 0.0]])
    assert np.allclose(again.image_to_board(again.board_to_image(pts)), pts)
    data = json.loads(path.read_text())
    data["homography"] = [[1, 0], [0, 1]]
    with pytest.raises(ValueError):
        TableProfile.from_json(data)


def test_mask_private_blacks_out_everything_but_board_and_zones() -> None:
    video, prof = profile_of()
    frame = np.full((480, 640, 3), 200, np.uint8)
    masked = prof.mask_private(frame)
    centre = prof.board_to_image(np.array([[0.0, 0.0]]))[0].astype(int)
    seat0 = prof.board_to_image(np.array([prof.zones[0].center]))[0].astype(int)
    corner_out = prof.board_to_image(np.array([[-95.0, 95.0]]))[0].astype(int)  # between seats
    assert masked[centre[1], centre[0]].tolist() == [200, 200, 200]
    assert masked[seat0[1], seat0[0]].tolist() == [200, 200, 200]
    cx, cy = np.clip(corner_out, 0, [639, 479])
    assert masked[cy, cx].tolist() == [0, 0, 0]
    # a hidden zone (the dummy's place) is blacked out even inside a pile zone
    hidden = Zone("dummy", "hidden", ((-10.0, 60.0), (10.0, 60.0), (10.0, 80.0), (-10.0, 80.0)))
    prof.zones.append(hidden)
    masked = prof.mask_private(frame)
    assert masked[seat0[1], seat0[0]].tolist() == [0, 0, 0]
    assert prof.zone_index(np.array([[0.0, 70.0], [20.0, 70.0]])).tolist() == [-1, 0]


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_calibration_finds_the_board_and_its_zones(seed: int) -> None:
    video, truth = profile_of(seed)
    frame = video.render(0.0).image
    prof = calibrate([frame] * 3, "michigan-rummy", 4)
    for zone in prof.zones:
        want = truth.board_to_image(np.array([zone.center]))
        got = prof.board_to_image(np.array([zone.center]))
        assert np.abs(want - got).max() < 8, zone.name
    assert [c.name for c in prof.cups] == [c.name for c in truth.cups]
    assert prof.meta["oriented"] is True


def test_orientation_comes_from_the_title_strip() -> None:
    video, truth = profile_of(0)
    frame = cv2.rotate(video.render(0.0).image, cv2.ROTATE_180)
    fit = detect_board(frame)
    assert fit is not None and fit.oriented
    seat0 = apply_homography(fit.homography, np.array([[0.0, 74.0]]))[0]
    assert seat0[1] < 240  # the south edge (strip) is now at the top of the image


def test_nudged_camera_is_refitted_from_the_board() -> None:
    video, truth = profile_of(1)
    frame = video.render(0.0).image
    shift = np.float32([[1, 0, 14], [0, 1, -9]])
    moved = cv2.warpAffine(frame, shift, (640, 480), borderMode=cv2.BORDER_REPLICATE)
    fit = detect_board(moved)
    assert fit is not None
    refit = truth.with_homography(fit.homography)
    want = truth.board_to_image(np.array([z.center for z in truth.zones])) + [14, -9]
    got = refit.board_to_image(np.array([z.center for z in truth.zones]))
    assert np.abs(want - got).max() < 8


def test_no_board_is_a_plain_error() -> None:
    felt = np.full((480, 640, 3), (40, 90, 40), np.uint8)
    assert detect_board(felt) is None
    with pytest.raises(CalibrationError, match="no board found"):
        calibrate([felt] * 3, "michigan-rummy", 4)


def test_calibrate_command_saves_a_profile(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    register_calibrate(parser.add_subparsers())
    out = tmp_path / "table.json"
    preview = tmp_path / "preview.png"
    args = parser.parse_args(["calibrate", "demo:oh-claire:2", "--game", "oh-claire",
                              "--players", "Ann,Bob,Cy,Dee", "--out", str(out),
                              "--preview", str(preview), "--frames", "3"])
    assert args.func(args) == 0
    prof = TableProfile.load(out)
    assert [z.kind for z in prof.zones].count("pile") == 4 and prof.zones[-1].kind == "trump"
    assert prof.meta["players"] == ["Ann", "Bob", "Cy", "Dee"]
    assert "saved" in capsys.readouterr().out
    assert cv2.imread(str(preview)) is not None
    assert seats_from("3") == ["Seat 1", "Seat 2", "Seat 3"]


def test_draw_profile_keeps_the_frame_size() -> None:
    video, prof = profile_of()
    img = draw_profile(video.render(0.0).image, prof)
    assert img.shape == (480, 640, 3)


def test_a_soft_picture_is_told_apart_from_a_sharp_one() -> None:
    from dataclasses import replace

    from calibration.focus import SOFT_FOCUS_PX, check_focus, edge_blur, picture_blur
    from vision.render.plan import WEBCAM_SPOILT

    # The board's edges judged on rendered tables, in focus and blurred, with and without a
    # dim webcam's grain and specks: the estimate follows the blur.
    def soft(blur: float, webcam: bool) -> float:
        cfg = replace(RenderConfig(seed=3, blur=blur), **(WEBCAM_SPOILT if webcam else {}))
        video = TableVideo(SETUP, cfg)
        est = picture_blur(video.render(0.0).image, video.profile().board_corners_px())
        assert est is not None
        return est

    for webcam in (False, True):
        sharp, half, blurred = soft(0.0, webcam), soft(0.6, webcam), soft(1.2, webcam)
        assert sharp < half < blurred
        assert sharp < SOFT_FOCUS_PX - 0.2 and blurred > SOFT_FOCUS_PX + 0.1
        assert half < SOFT_FOCUS_PX
    # Nothing to judge on a blank frame; a sharp or soft picture warned of only when soft.
    assert edge_blur(np.full((120, 160, 3), 90, np.uint8)) is None
    video = TableVideo(SETUP, RenderConfig(seed=3, blur=1.2))
    assert "out of focus" in (check_focus(video.render(0.0).image) or "")
    assert check_focus(TableVideo(SETUP, RenderConfig(seed=3)).render(0.0).image) is None


def test_calibration_warns_of_a_picture_out_of_focus() -> None:
    sharp = TableVideo(SETUP, RenderConfig(seed=1)).render(0.0).image
    assert not any("focus" in w for w in calibrate([sharp] * 3, "michigan-rummy", 4).meta.get(
        "warnings", []))
    soft = TableVideo(SETUP, RenderConfig(seed=1, blur=1.5)).render(0.0).image
    prof = calibrate([soft] * 3, "michigan-rummy", 4)  # the board is still found
    assert any("out of focus" in w for w in prof.meta["warnings"])
