"""`vision.denoise.StillAverage`: a webcam's noise averaged away where the table lies still,
the frame itself wherever something moved."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.denoise import StillAverage
from vision.detections import Detections


def table(card_at: tuple[int, int] | None = None) -> np.ndarray:
    """A clean 480 x 640 picture: green cloth, and a white card with a dark mark."""
    img = np.zeros((480, 640, 3), np.uint8)
    img[:] = (60, 110, 50)
    if card_at is not None:
        x, y = card_at
        img[y:y + 90, x:x + 60] = 235
        cv2.putText(img, "7", (x + 4, y + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (20, 20, 20), 2)
    return img


def noisy(img: np.ndarray, rng: np.random.Generator, sigma: float = 12.0) -> np.ndarray:
    grain = rng.normal(0, sigma, img.shape[:2])[:, :, None]
    return np.clip(img.astype(np.float32) + grain, 0, 255).astype(np.uint8)


def error(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.float32) - b.astype(np.float32)).mean())


def test_noise_shrinks_where_the_table_lies_still() -> None:
    rng = np.random.default_rng(1)
    clean = table((300, 200))
    average = StillAverage(depth=8)
    first = average(noisy(clean, rng))
    for _ in range(10):
        out = average(noisy(clean, rng))
    # Eight frames averaged: the noise about a third of one frame's (1 / sqrt(8)).
    assert error(out, clean) < 0.45 * error(first, clean)
    assert error(first, clean) > 5


def test_a_card_that_lands_is_seen_at_once_and_whole() -> None:
    rng = np.random.default_rng(2)
    average = StillAverage(depth=8)
    for _ in range(10):
        average(noisy(table(), rng, 4.0))
    landed = table((300, 200))
    frame = noisy(landed, rng, 4.0)
    out = average(frame)
    card = (slice(200, 290), slice(300, 360))
    # Where the card landed the picture is this frame's, not a blend with the cloth before.
    assert np.array_equal(out[card], frame[card])
    # Far from it, the cloth is still averaged.
    assert error(out[:100, :100], landed[:100, :100]) < error(frame[:100, :100],
                                                             landed[:100, :100])


def test_salt_and_pepper_is_taken_out_before_averaging() -> None:
    rng = np.random.default_rng(3)
    clean = table((100, 100))
    average = StillAverage(depth=8)
    for _ in range(9):
        frame = clean.copy()
        spots = rng.random(frame.shape[:2])
        frame[spots < 0.01] = 0
        frame[spots > 0.99] = 255
        out = average(frame)
    assert np.abs(out.astype(int) - clean).max(axis=2).astype(bool).mean() < 0.002


def test_a_frame_of_another_size_starts_again() -> None:
    average = StillAverage(depth=4)
    average(table())
    small = cv2.resize(table((10, 10)), (320, 240))
    assert np.array_equal(average(small), small)


def test_depth_one_changes_nothing_but_specks() -> None:
    frame = noisy(table((50, 60)), np.random.default_rng(4))
    assert np.array_equal(StillAverage(depth=1)(frame), frame)
    with pytest.raises(ValueError):
        StillAverage(depth=0)


def test_only_the_specks_change_not_a_thin_stroke() -> None:
    from vision.denoise import without_specks

    rng = np.random.default_rng(5)
    clean = np.full((120, 160, 3), 230, np.uint8)
    clean[20:100, 80] = 30  # a one-pixel stroke, as a far seat's small index draws it
    frame = clean.copy()
    spots = rng.random(frame.shape[:2])
    frame[spots < 0.01] = 0
    frame[spots > 0.99] = 255
    out = without_specks(frame)
    spared = (spots[20:100, 80] >= 0.01) & (spots[20:100, 80] <= 0.99)
    assert spared.sum() > 70
    # The stroke stays wherever no speck fell on it (a median filter would erase it all).
    assert np.array_equal(out[20:100, 80][spared], clean[20:100, 80][spared])
    assert not np.array_equal(cv2.medianBlur(frame, 3)[20:100, 80], clean[20:100, 80])
    assert (np.abs(out.astype(int) - clean).max(axis=2) > 40).mean() < 0.001
    assert without_specks(clean) is clean  # a clean frame is left alone


class Seen:
    """A detector that keeps each frame the pipeline gives it and reads no card."""

    def __init__(self) -> None:
        self.frames: list[np.ndarray] = []

    def detect(self, frame_bgr: np.ndarray) -> Detections:
        self.frames.append(frame_bgr)
        return Detections.empty()


@pytest.mark.parametrize("average", [8, 0])
def test_the_pipeline_reads_the_averaged_picture(tmp_path: Path, average: int) -> None:
    from calibration.profile import TableProfile
    from vision.pipeline.table import TablePipeline

    profile = TableProfile.propose(np.eye(3), (640, 480), "michigan-rummy", 4)
    setup = {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy"],
             "chips": 20}
    seen = Seen()
    pipe = TablePipeline(profile, seen, setup, tmp_path / "g.jsonl", average=average)
    rng = np.random.default_rng(6)
    clean = table((300, 200))
    for i in range(10):
        pipe.process(noisy(clean, rng), i * 0.1, i)
    first, last = error(seen.frames[0], clean), error(seen.frames[-1], clean)
    if average:
        assert last < 0.45 * first
    else:
        assert last > 0.8 * first
    # A camera away for long starts the average again: its first frame is read as it came.
    frame = noisy(clean, rng)
    pipe.process(frame, 30.0, 10, gap=20.0)
    assert np.array_equal(seen.frames[-1], frame)


def test_an_arm_across_most_of_the_table_is_not_blended_in() -> None:
    rng = np.random.default_rng(7)
    average = StillAverage(depth=8)
    clean = table((500, 300))
    for _ in range(10):
        average(noisy(clean, rng))
    # A sleeve sweeps over three quarters of the frame (more than the quietest quarter).
    arm = clean.copy()
    arm[:, :480] = (40, 60, 150)
    frame = noisy(arm, rng)
    out = average(frame)
    assert np.array_equal(out[:, :460], frame[:, :460])
    assert error(out[:, 560:], clean[:, 560:]) < 0.6 * error(frame[:, 560:], clean[:, 560:])
