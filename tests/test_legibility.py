"""Training labels keep only the corner indices a person could still read in the spoilt frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.training.legibility import MIN_INDEX_PX, legibility, legible


def _index_scene(height: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """A white card corner with a printed index ("10" over a blob) and its quad."""
    img = np.full((120, 120, 3), 235, np.uint8)
    x, y, w = 40, 30, int(height * 0.6)
    scale = height / 60
    cv2.putText(img, "10", (x, y + int(height * 0.45)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (20, 20, 20), max(1, int(scale * 2)), cv2.LINE_AA)
    cv2.circle(img, (x + w // 2, y + int(height * 0.75)), max(2, height // 7), (20, 20, 200), -1)
    quad = np.array([[x - 2, y], [x + w, y], [x + w, y + height], [x - 2, y + height]],
                    np.float32)
    return img, quad


def test_a_sharp_index_is_legible_and_a_smudge_is_not() -> None:
    img, quad = _index_scene()
    assert legible(img, img, [quad], [quad]) == [True]
    smudge = cv2.GaussianBlur(img, (0, 0), 6)
    assert legible(img, smudge, [quad], [quad]) == [False]


@pytest.mark.parametrize("spoil", ["dim", "grey", "specks", "soft"])
def test_what_a_person_still_reads_through_stays_legible(spoil: str) -> None:
    img, quad = _index_scene()
    rng = np.random.default_rng(0)
    out: np.ndarray
    if spoil == "dim":
        out = (img.astype(np.float32) * 0.45).astype(np.uint8)
    elif spoil == "grey":
        out = (100 + (img.astype(np.float32) - 100) * 0.5).astype(np.uint8)
    elif spoil == "specks":
        out = img.copy()
        salt = rng.random(img.shape[:2])
        out[salt < 0.005] = 0
        out[salt > 0.995] = 255
    else:
        out = np.asarray(cv2.GaussianBlur(img, (0, 0), 0.7))
    height, kept = legibility(img, out, [quad], [quad])[0]
    assert kept > 0.75 and height >= MIN_INDEX_PX
    assert legible(img, out, [quad], [quad]) == [True]


def test_a_tiny_index_is_not_legible_however_sharp() -> None:
    img, quad = _index_scene(40)
    small = cv2.resize(img, None, fx=0.2, fy=0.2, interpolation=cv2.INTER_AREA)
    assert legible(img, small, [quad], [quad * 0.2]) == [False]


def test_a_stretched_frame_is_compared_index_for_index() -> None:
    img, quad = _index_scene()
    wide = cv2.resize(img, (180, 120), interpolation=cv2.INTER_LINEAR)
    assert legible(img, wide, [quad], [quad * np.array([1.5, 1.0], np.float32)]) == [True]


def test_scenes_label_only_the_indices_left_legible(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.render import decks
    from vision.training import scenes

    have = [d for d in decks.TRAIN_DECKS if d in decks.available_decks()]
    if not have:
        pytest.skip("no deck design installed")

    def render(seed: int, **kw: object) -> scenes.Scene:
        return scenes.render_scene(np.random.default_rng(seed), have[:2], size=320,
                                   **kw)  # type: ignore[arg-type]

    labelled = [render(s, webcam_p=0.5) for s in range(16)]
    clean = render(0, kind="scatter", clean=True)
    monkeypatch.setattr(scenes, "legible", lambda a, b, qa, qb: [True] * len(qb))
    unfiltered = [render(s, webcam_p=0.5) for s in range(16)]
    assert len(render(0, kind="scatter", clean=True).indices) == len(clean.indices) > 0
    for got, every in zip(labelled, unfiltered, strict=True):
        assert np.array_equal(got.image, every.image)  # the same scene, fewer labels
        rest = iter(every.indices)  # the labels kept are some of the same labels, in order
        assert all(any(c == c2 and np.array_equal(q, q2) for c2, q2 in rest)
                   for c, q in got.indices)
    kept = sum(len(s.indices) for s in labelled)
    total = sum(len(s.indices) for s in unfiltered)
    assert 0.3 * total < kept < total  # some were smudges, most were not
