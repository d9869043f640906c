"""Heads that fade a patch outside its index box: the neighbouring card's pips beside a
narrow index are not there to be read as its suit (`vision.readers.index_heads.fade_outside`),
and training fades its patches the same way (`train_index_heads --fade`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from vision.readers.index_heads import (  # noqa: E402
    PATCH,
    PATCH_MARGIN,
    box_extent,
    fade_outside,
    heads_path,
    index_patch,
)

#: A tall, narrow index box in a frame, and a dark pip beside it (a neighbour's).
BOX = (100.0, 50.0, 118.0, 90.0)


def _frame() -> np.ndarray:
    frame = np.full((200, 240), 230, np.uint8)
    frame[55:85, 104:114] = 20  # the index itself, inside its box
    frame[60:75, 86:94] = 10  # a neighbouring card's pip, left of the box
    return frame


def test_box_extent_is_the_box_in_its_square_patch() -> None:
    w, h = box_extent(BOX)
    assert h == pytest.approx(1 / (1 + 2 * PATCH_MARGIN))
    assert w == pytest.approx(18 / 40 * h)
    assert box_extent((0, 0, 40, 10)) == pytest.approx((h, h / 4))


def test_fade_keeps_the_index_and_takes_out_what_lies_beside_it() -> None:
    frame = _frame()
    plain = index_patch(frame, BOX)
    faded = fade_outside(plain[None], np.asarray([box_extent(BOX)]))[0]
    assert faded.shape == plain.shape and faded.dtype == np.uint8
    middle = slice(PATCH // 2 - 4, PATCH // 2 + 4)
    np.testing.assert_array_equal(faded[middle, middle], plain[middle, middle])
    # The neighbour's pip is in the plain patch's left margin, and gone once faded.
    assert plain[:, :6].min() < 60
    assert faded[:, :6].min() > 200
    # A patch whose box fills it is left almost whole; empty input stays empty.
    full = fade_outside(plain[None], np.asarray([[1.0, 1.0]]))[0]
    assert np.abs(full.astype(int) - plain).max() <= 1
    assert fade_outside(np.zeros((0, PATCH, PATCH), np.uint8), np.zeros((0, 2))).shape[0] == 0


def test_heads_cut_faded_patches_only_when_trained_so(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    from vision.readers.index_heads import IndexHeads

    src = heads_path()
    if not src.exists():
        pytest.skip("index heads not installed")
    shutil.copy(src, tmp_path / "heads.onnx")
    meta = json.loads(src.with_suffix(".json").read_text())
    (tmp_path / "heads.json").write_text(json.dumps({**meta, "fade": True}))
    frame = _frame()
    plain = IndexHeads(src).cut(frame, [BOX])
    faded = IndexHeads(tmp_path / "heads.onnx").cut(frame, [BOX])
    np.testing.assert_array_equal(plain[0], index_patch(frame, BOX))
    assert IndexHeads(tmp_path / "heads.onnx").fade and not IndexHeads(src).fade
    assert plain[0, :, :6].min() < 60 and faded[0, :, :6].min() > 200
    assert IndexHeads(src).cut(frame, np.zeros((0, 4))).shape == (0, PATCH, PATCH)


def test_training_fades_each_patch_about_its_box_turned_as_the_patch_was() -> None:
    from vision.training.train_index_heads import augment, faded, faded_extent

    ext = np.array([0.4, 0.77])
    np.testing.assert_allclose(faded_extent(ext, 90.0, 1.0), [0.77, 0.4], atol=1e-9)
    np.testing.assert_allclose(faded_extent(ext, 0.0, 1.1), ext * 1.1)
    tilted = faded_extent(ext, 30.0, 1.0)
    assert (tilted > ext.min()).all()  # the upright box around a tilted one is larger
    frame = _frame()
    x = np.stack([index_patch(frame, BOX)] * 8)
    extent = np.asarray([box_extent(BOX)] * 4 + [[np.nan, np.nan]] * 4, np.float32)
    data = {"x": x, "extent": extent}
    out = faded(data)["x"]
    assert (out[:4, :, :6].min(axis=(1, 2)) > 200).all()  # box known: faded
    np.testing.assert_array_equal(out[4:], x[4:])  # not known: left
    # In augment, contrast and noise come after the fade, so compare the margin's spread.
    aug, _ = augment(np.random.default_rng(0), x[:4], np.zeros(4, np.int64), extent=extent[:4])
    plain, _ = augment(np.random.default_rng(0), x[:4], np.zeros(4, np.int64))
    assert aug.shape == x[:4].shape
    assert not np.array_equal(aug, plain)


def test_crops_record_the_box_each_patch_was_cut_around() -> None:
    from vision.training.index_data import _Patches

    out = _Patches()
    frame = _frame()
    out.index(index_patch(frame, BOX), "QS", 0, BOX)
    out.negative(index_patch(frame, BOX))
    packed = out.pack()
    assert packed["extent"].shape == (2, 2)
    np.testing.assert_allclose(packed["extent"][0], box_extent(BOX), rtol=1e-6)
    assert np.isnan(packed["extent"][1]).all()
