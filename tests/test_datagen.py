"""Scene generator: labels match the cards dealt, boxes lie in the frame, YOLO lines are valid."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from deck_helpers import decks_missing, needs_decks  # noqa: E402

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


def test_real_small_sheets_shrink_real_photos_and_keep_their_index_boxes(tmp_path) -> None:  # noqa: ANN001
    import cv2

    from vision.training.index_data import real_small_sheets

    # A 640x480 "photo": a black index mark 60 px tall, and one 12 px tall that the shrinking
    # leaves under 10 px (painted over, not labelled).
    photo = np.full((480, 640, 3), 235, np.uint8)
    photo[100:160, 200:240] = 20
    photo[300:312, 400:408] = 20
    cv2.imwrite(str(tmp_path / "p.jpg"), photo)
    rec = {"image": "p.jpg", "width": 640, "height": 480,
           "cards": [{"card": "index", "box": [200, 100, 240, 160]},
                     {"card": "index", "box": [400, 300, 408, 312]}]}
    out = tmp_path / "sheets"
    assert real_small_sheets([rec], out, 8, seed=1, src=tmp_path) == 8
    grids = set()
    for k in range(8):
        img = cv2.imread(str(out / "images" / f"real-small-{k:05d}.jpg"))
        h, w = img.shape[:2]
        rows = (out / "labels" / f"real-small-{k:05d}.txt").read_text().split("\n")
        boxes = [[float(v) for v in r.split()[1:]] for r in rows if r.strip()]
        # The photo alone (its small mark kept when shrunk less than 10/12), or a 2x2 or 3x3
        # grid of it, one mark each.
        assert len(boxes) in (1, 2, 4, 9)
        for cx, cy, _bw, bh in boxes:  # each label lies on a dark mark of the sheet
            x, y = int(cx * w), int(cy * h)
            assert img[y, x].mean() < img.mean()
            assert 7 <= bh * h <= 80  # 10-60 px as placed, then stretched 0.7-1.3
        grids.add("alone" if len(boxes) <= 2 else "grid")
    assert grids == {"alone", "grid"}


def test_drawn_indices_give_every_rank_and_suit_as_the_heads_read_them() -> None:
    pytest.importorskip("PIL")
    from vision.readers.index_heads import PATCH, RANKS, SUITS
    from vision.training import font_indices

    if not font_indices.font_files():
        pytest.skip("no type faces installed (Debian fonts-dejavu-core)")
    data = font_indices.build(2 * len(RANKS) * len(SUITS), seed=3, fonts_limit=4)
    assert data["x"].shape == (104, PATCH, PATCH) and data["x"].dtype == np.uint8
    assert np.bincount(data["rank"], minlength=len(RANKS)).tolist() == [8] * len(RANKS)
    assert np.bincount(data["suit"], minlength=len(SUITS)).tolist() == [26] * len(SUITS)
    assert (data["orient"] == 0).all() and (data["is_index"] == 1).all()
    # Each patch holds ink on paper, not a blank (the index is inside its patch).
    assert (data["x"].reshape(len(data["x"]), -1).std(axis=1) > 8).mean() > 0.9


def test_drawn_pips_differ_by_suit() -> None:
    from vision.training.font_indices import pip

    rng = np.random.default_rng(0)
    masks = {s: pip(rng, s, 64) > 127 for s in "CDHS"}
    for m in masks.values():
        assert 0.15 < m.mean() < 0.8
    # A heart is not a spade (a heart upside down with a stem), nor a diamond a club.
    assert (masks["H"] != masks["S"]).mean() > 0.1
    assert (masks["D"] != masks["C"]).mean() > 0.1


def test_clutter_negatives_are_boxes_off_every_card_that_the_heads_doubt(tmp_path: Path
                                                                          ) -> None:
    import cv2

    from vision.training.index_data import clutter_negatives

    img = np.full((200, 300, 3), 120, np.uint8)
    img[150:180, 250:270] = 10  # the one box the heads will call an index
    cv2.imwrite(str(tmp_path / "a.jpg"), img)
    rec = {"image": "a.jpg", "cards": [{"card": "7C", "box": [40, 40, 100, 130]}]}
    boxes = np.array([[50, 50, 70, 80],      # on the card
                      [104, 60, 120, 90],    # within a tenth of the card's size of it
                      [200, 20, 220, 50],    # off every card: clutter
                      [250, 150, 270, 180]],  # off every card, but read as an index
                     np.float32)

    class Heads:
        def read(self, x: Any) -> dict[str, Any]:  # dark patches are "indices"
            return {"is_index": np.where(x.reshape(len(x), -1).mean(1) < 100, 0.95, 0.3)}

    out = clutter_negatives(lambda _img, _conf: boxes, Heads(), [rec], src=tmp_path)
    assert len(out["x"]) == 1 and (out["is_index"] == 0).all() and (out["rank"] == -1).all()


def test_webcam_view_spoils_a_patch_at_the_index_size_in_the_frame() -> None:
    import cv2

    from vision.readers.index_heads import PATCH
    from vision.training.train_index_heads import augment, webcam_view

    p = np.full((PATCH, PATCH), 235, np.uint8)
    p[10:38, 20:23] = 15  # a thin stroke, 3 patch pixels wide
    p[10:13, 20:32] = 15
    edges = cv2.Laplacian(p.astype(np.float32), cv2.CV_32F)
    for seed in range(30):
        q = webcam_view(np.random.default_rng(seed), p)
        assert q.shape == p.shape and q.dtype == np.uint8
        # Contrast squashed, and the stroke softened at the frame's scale: the sharpest edge
        # of the spoilt patch is far weaker than the clean one's.
        assert int(q.max()) - int(q.min()) < 255 - 15
        assert np.abs(cv2.Laplacian(q.astype(np.float32), cv2.CV_32F)).max() < np.abs(
            edges).max()
        # Still the same patch: darker where the stroke was than on the paper beside it.
        assert q[12:36, 20:23].mean() < q[12:36, 34:44].mean()
    x = np.stack([p] * 16)
    out, _ = augment(np.random.default_rng(1), x, np.zeros(16, np.int64), webcam=1.0)
    assert out.shape == x.shape


def test_reshaped_patches_stay_patches_and_borrow_only_an_edge() -> None:
    from vision.readers.index_heads import PATCH
    from vision.training.train_index_heads import augment, reshape

    p = np.full((PATCH, PATCH), 230, np.uint8)
    p[12:36, 18:30] = 20  # an index-like block of ink in the middle
    other = np.full((PATCH, PATCH), 230, np.uint8)
    other[:, PATCH // 2 - 8:PATCH // 2 + 8] = 0  # another patch's index, dark down its middle
    middle = slice(PATCH // 2 - 4, PATCH // 2 + 4)
    borrowed = 0
    for seed in range(200):
        q = reshape(np.random.default_rng(seed), p, other)
        assert q.shape == p.shape and q.dtype == np.uint8
        # The patch's own index stays where it was: its middle is still dark ink.
        assert q[middle, middle].mean() < 60
        borrowed += int((q[:, :4] < 60).all() or (q[:, -4:] < 60).all()
                        or (q[:4] < 60).all() or (q[-4:] < 60).all())
    assert 20 <= borrowed <= 60  # a neighbour's strip along one edge in about a fifth
    x = np.stack([p] * 8)
    out, orient = augment(np.random.default_rng(0), x, np.zeros(8, np.int64), shapes=True)
    assert out.shape == x.shape and orient.shape == (8,)


@pytest.mark.skipif(decks_missing("xskat-french") is not None,
                    reason=decks_missing("xskat-french") or "")
def test_a_four_index_card_lying_alone_shows_four_indices() -> None:
    scene = scenes.render_scene(np.random.default_rng(2), ["xskat-french"], size=640,
                                kind="scatter", clean=True, codes=["7C"], card_height=150)
    assert [c for c, _ in scene.indices] == ["7C"] * 4
    # The turned indices (odd places) read the other way up: their reading order's "down"
    # (first corner to last) points against the upright ones'.
    down = [quad[3] - quad[0] for _, quad in scene.indices]
    assert float(np.dot(down[0], down[2])) > 0 and float(np.dot(down[1], down[3])) > 0
    assert float(np.dot(down[0], down[1])) < 0


def test_real_index_photos_weighed_more_in_a_copy_of_the_dataset(tmp_path: Path) -> None:
    from vision.training.train_index import training_data

    data = tmp_path / "data.yaml"
    data.write_text("path: /x\ntrain: [synth-train, real-train, real-train]\n"
                    "val: [synth-val, real-val]\nnc: 1\n")
    assert training_data(data, 0) == data
    out = training_data(data, 5)
    assert out == tmp_path / "data-real5.yaml"
    lines = out.read_text().splitlines()
    assert lines[1] == "train: [synth-train" + ", real-train" * 5 + "]"
    assert lines[0] == "path: /x" and lines[2] == "val: [synth-val, real-val]"
    assert "real-train, real-train]" in data.read_text()  # the original is left as it is
    with pytest.raises(FileNotFoundError, match="clutter-images"):
        training_data(data, 0, clutter=True)  # no stretches of table cut yet
    (tmp_path / "real-clutter" / "images").mkdir(parents=True)
    out = training_data(data, 2, clutter=True)
    assert out == tmp_path / "data-real2-clutter.yaml"
    assert out.read_text().splitlines()[1] == (
        "train: [synth-train, real-train, real-train, real-clutter]")
    assert training_data(data, 0, clutter=True).read_text().splitlines()[1] == (
        "train: [synth-train, real-train, real-train, real-clutter]")
    with pytest.raises(FileNotFoundError, match="real-small"):
        training_data(data, 0, small=True)  # no small sheets made yet
    (tmp_path / "real-small-train" / "images").mkdir(parents=True)
    out = training_data(data, 0, clutter=True, small=True)
    assert out == tmp_path / "data-clutter-small.yaml"
    assert out.read_text().splitlines()[1] == (
        "train: [synth-train, real-train, real-train, real-clutter, real-small-train]")
    data.write_text("train: [synth-train]\n")
    with pytest.raises(ValueError, match="no real-train"):
        training_data(data, 3)


def test_background_rect_is_the_largest_stretch_off_every_card() -> None:
    from vision.training.index_data import background_rect

    taken = np.zeros((720, 960), bool)
    taken[100:600, 200:500] = True  # one card: the widest free stretch is right of it
    assert background_rect(taken) == (504, 0, 960, 720)
    taken[:, 600:] = True  # now the stretch left of it (200 px wide) is the largest
    x0, y0, x1, y1 = background_rect(taken)  # type: ignore[misc]
    assert (x0, y0, x1, y1) == (0, 0, 200, 720) and not taken[y0:y1, x0:x1].any()
    assert background_rect(np.ones((300, 300), bool)) is None
    narrow = np.ones((400, 400), bool)
    narrow[:, :96] = False  # free, but narrower than the least side kept
    assert background_rect(narrow) is None


def test_clutter_images_are_table_off_every_card_with_no_index_labelled(tmp_path: Path
                                                                       ) -> None:
    import cv2

    from vision.training.index_data import clutter_images

    img = np.full((480, 640, 3), 200, np.uint8)
    img[:, 400:] = 30  # the table right of the card is dark
    cv2.imwrite(str(tmp_path / "a.jpg"), img)
    cv2.imwrite(str(tmp_path / "b.jpg"), img)
    recs = [{"image": "a.jpg", "cards": [{"card": "7C", "box": [20, 20, 360, 460]}]},
            {"image": "b.jpg", "cards": [{"card": "2H", "box": [20, 20, 360, 460]}]},
            {"image": "gone.jpg", "cards": []}]
    seen = iter([False, True])  # b's stretch holds what looks like an index: left out
    n = clutter_images(recs, tmp_path / "out", lambda cut: next(seen), src=tmp_path)
    assert n == 1
    cut = cv2.imread(str(tmp_path / "out" / "images" / "a.jpg"))
    assert cut.shape[1] <= 640 - 396 and cut.mean() < 40  # only the dark table, no card
    assert (tmp_path / "out" / "labels" / "a.txt").read_text() == ""
    assert not (tmp_path / "out" / "images" / "b.jpg").exists()


class _QueuedHeads:
    """Heads that give, call by call, readings set by the test: a list of (code, is_index)
    per patch, or ``None`` for every patch read as no card at all."""

    def __init__(self, *calls: list[tuple[str, float]] | None) -> None:
        self.calls = list(calls)

    def read(self, patches: Any) -> dict[str, Any]:
        readings = self.calls.pop(0) if self.calls else None
        n = len(patches)
        rank, suit, index = np.full((n, 13), 1 / 13), np.full((n, 4), 0.25), np.zeros(n)
        for k, (code, is_index) in enumerate(readings or []):
            rank[k] = 0.0
            suit[k] = 0.0
            rank[k, "23456789TJQKA".index(code[0])] = 1.0
            suit[k, "CDHS".index(code[1])] = 1.0
            index[k] = is_index
        return {"rank": rank, "suit": suit, "is_index": index}


def test_mined_index_boxes_label_a_photo_only_when_every_index_is_found() -> None:
    from vision.training.index_data import mined_index_boxes

    img = np.full((480, 640, 3), 128, np.uint8)
    cards = [{"card": "7C", "box": [20, 20, 220, 300]}, {"card": "TH", "box": [300, 20, 500, 300]}]
    boxes = np.array([[25, 25, 60, 80], [180, 240, 215, 295],     # 7C's two corners
                      [28, 28, 58, 76],                           # 7C's first again, tighter
                      [305, 25, 340, 80], [460, 240, 495, 295],   # TH's two corners
                      [560, 400, 600, 460]], np.float32)          # the table, faint
    scores = np.array([0.9, 0.8, 0.5, 0.7, 0.6, 0.05], np.float32)
    sure = [("7C", 1.0), ("7C", 1.0), ("7C", 0.9), ("TH", 1.0), ("TH", 0.8), ("AS", 0.2)]

    found = mined_index_boxes(img, cards, boxes, scores, _QueuedHeads(sure))
    assert found is not None  # one box per index: the tighter, lower-scored double goes
    assert sorted(map(tuple, found.tolist())) == sorted(
        map(tuple, boxes[[0, 1, 3, 4]].tolist()))
    # A card with one index found: the other would be taught as table.
    one = [("7C", 1.0), ("AS", 0.2), ("7C", 0.9), ("TH", 1.0), ("TH", 0.8), ("AS", 0.2)]
    assert mined_index_boxes(img, cards, boxes, scores, _QueuedHeads(one)) is None
    # A box off both cards that looks like an index: an unlabelled card.
    stray = sure[:5] + [("AS", 0.9)]
    strong = scores.copy()
    strong[5] = 0.6
    assert mined_index_boxes(img, cards, boxes, strong, _QueuedHeads(stray)) is None
    # A corner of the 10 of hearts holds its index where the localiser boxed none.
    corners = [("TH", 1.0)] * 24
    assert mined_index_boxes(img, cards, boxes, scores,
                             _QueuedHeads(sure, None, corners)) is None
    assert mined_index_boxes(img, cards, boxes, scores, _QueuedHeads(sure, None, corners),
                             corners=False) is not None  # that check alone left it out
    assert mined_index_boxes(img, cards, np.zeros((0, 4), np.float32), np.zeros(0),
                             _QueuedHeads()) is None


def test_real_mined_photos_join_a_copy_of_the_dataset(tmp_path: Path) -> None:
    from vision.training.train_index import training_data

    data = tmp_path / "data.yaml"
    data.write_text("train: [synth-train, real-train]\nval: [synth-val]\n")
    with pytest.raises(FileNotFoundError, match="mined-images"):
        training_data(data, 0, mined=True)
    for folder in ("real-mined", "real-mined-small"):
        (tmp_path / folder / "images").mkdir(parents=True)
    out = training_data(data, 0, mined=True)
    assert out == tmp_path / "data-mined.yaml"
    assert out.read_text().splitlines()[0] == (
        "train: [synth-train, real-train, real-mined, real-mined-small]")


def test_mined_images_link_only_the_photos_whose_every_index_is_found(tmp_path: Path) -> None:
    import cv2

    from vision.training.index_data import mined_images

    photo = np.full((480, 640, 3), 200, np.uint8)
    for name in ("a.jpg", "b.jpg"):
        cv2.imwrite(str(tmp_path / name), photo)
    card = {"card": "QS", "box": [100, 100, 300, 400]}
    recs = [{"image": "a.jpg", "cards": [card]}, {"image": "b.jpg", "cards": [card]},
            {"image": "gone.jpg", "cards": [card]}]
    boxes = np.array([[105, 105, 140, 160], [260, 340, 295, 395]], np.float32)
    # a.jpg: both corners read as the queen; b.jpg: one corner only, so it is left out.
    heads = _QueuedHeads([("QS", 1.0), ("QS", 1.0)], None, [("QS", 1.0), ("2C", 1.0)])
    kept, indices = mined_images(recs, tmp_path / "mined", tmp_path / "small", 4, 1,
                                 lambda img: (boxes, np.array([0.9, 0.8])), heads,
                                 src=tmp_path)
    assert (kept, indices) == (1, 2)
    assert (tmp_path / "mined" / "images" / "a.jpg").is_symlink()
    assert not (tmp_path / "mined" / "images" / "b.jpg").exists()
    rows = (tmp_path / "mined" / "labels" / "a.txt").read_text().split()
    assert len(rows) == 10 and rows[0] == "0"
    assert np.allclose([float(v) for v in rows[1:5]],
                       [122.5 / 640, 132.5 / 480, 35 / 640, 55 / 480], atol=1e-4)
    assert len(list((tmp_path / "small" / "images").glob("*.jpg"))) == 4


def test_hard_images_link_each_image_once_per_index_the_localiser_misses(tmp_path: Path) -> None:
    import cv2

    from vision.training.index_data import hard_images
    from vision.training.train_index import training_data

    scenes_dir = tmp_path / "synth-train"
    for sub in ("images", "labels"):
        (scenes_dir / sub).mkdir(parents=True)
    frame = np.full((100, 200, 3), 128, np.uint8)
    # Three images: two indices each, a third, four; the localiser below finds the box at
    # x 20-40 only (and, in the last image, a box far off every index).
    rows = {"a": ["0 0.15 0.3 0.1 0.2", "0 0.75 0.3 0.1 0.2"],
            "b": ["0 0.15 0.3 0.1 0.2"],
            "c": ["0 0.15 0.3 0.1 0.2"] + [f"0 {x} 0.7 0.05 0.2" for x in (0.4, 0.6, 0.8)]}
    for stem, lines in rows.items():
        cv2.imwrite(str(scenes_dir / "images" / f"{stem}.jpg"), frame)
        (scenes_dir / "labels" / f"{stem}.txt").write_text("\n".join(lines) + "\n")
    (scenes_dir / "images" / "broken.jpg").write_text("not an image")

    def localise(img: np.ndarray) -> np.ndarray:
        assert img.shape == (100, 200, 3)
        return np.array([[19, 19, 41, 41], [150, 80, 160, 90]], np.float32)

    assert hard_images([scenes_dir], tmp_path / "hard", localise, most=2) == 3
    links = sorted(p.name for p in (tmp_path / "hard" / "images").iterdir())
    assert links == ["synth-train-a-0.jpg", "synth-train-c-0.jpg", "synth-train-c-1.jpg"]
    label = tmp_path / "hard" / "labels" / "synth-train-c-1.txt"
    assert label.is_symlink() and label.read_text().count("\n") == 4
    # Mined again with a localiser that finds everything: the old links go.
    assert hard_images([scenes_dir], tmp_path / "hard", lambda img: np.array(
        [[19, 19, 41, 41], [140, 19, 160, 41]] + [[x - 6, 60, x + 6, 80] for x in (80, 120, 160)],
        np.float32), most=2) == 0
    assert not list((tmp_path / "hard" / "labels").iterdir())

    data = tmp_path / "data.yaml"
    data.write_text("train: [synth-train, real-train]\nval: [synth-val]\n")
    out = training_data(data, 0, hard=True)
    assert out == tmp_path / "data-hard.yaml"
    assert out.read_text().splitlines()[0] == "train: [synth-train, real-train, hard]"
