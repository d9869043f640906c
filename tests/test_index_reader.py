"""Index-first reading: patches, orientation, per-card fusion, the rank OCR's CTC scoring, and
the rendered index labels the localiser and heads are trained on."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from companion.cards import CARD_CODES  # noqa: E402
from vision.readers.index_heads import (  # noqa: E402
    PATCH,
    RANKS,
    SUITS,
    IndexReading,
    cut_patches,
    index_patch,
    orientation_of,
)
from vision.readers.index_reader import fuse_cards, implied_card_box, in_frame  # noqa: E402


def _onehot(n: int, i: int, p: float = 0.9) -> np.ndarray:
    v = np.full(n, (1 - p) / (n - 1))
    v[i] = p
    return v


def reading(code: str, box: tuple[float, float, float, float], p: float = 0.9,
            is_index: float = 0.95, score: float = 0.8, orient: int = 0) -> IndexReading:
    return IndexReading(box, score, _onehot(13, RANKS.index(code[0]), p),
                        _onehot(4, SUITS.index(code[1]), p), orient, is_index)


def test_orientation_follows_the_index_top() -> None:
    quad = np.array([[0, 0], [10, 0], [10, 20], [0, 20]], float)  # reading order, upright
    assert orientation_of(quad) == 0
    rot = {1: quad[[3, 0, 1, 2]], 2: quad[[2, 3, 0, 1]], 3: quad[[1, 2, 3, 0]]}
    assert orientation_of(rot[2]) == 2
    # Top edge on the right-hand side: the index's top points right.
    right = np.array([[20, 0], [20, 10], [0, 10], [0, 0]], float)
    assert orientation_of(right) == 1
    left = np.array([[0, 10], [0, 0], [20, 0], [20, 10]], float)
    assert orientation_of(left) == 3


def test_rot90_by_the_orientation_turns_a_patch_upright() -> None:
    img = np.zeros((40, 40), np.uint8)
    img[5:10, 15:25] = 255  # a bar at the top: "up" is up
    for k in range(4):
        turned = np.rot90(img, -k)  # the index's top now points k quarter turns clockwise
        assert np.array_equal(np.rot90(turned, k), img)


def test_index_patch_is_square_grey_and_centred() -> None:
    frame = np.full((200, 300, 3), 255, np.uint8)
    frame[50:90, 100:120] = 0
    p = index_patch(frame, (100, 50, 120, 90))
    assert p.shape == (PATCH, PATCH) and p.dtype == np.uint8
    centre = p[PATCH // 2 - 3:PATCH // 2 + 3, PATCH // 2 - 3:PATCH // 2 + 3]
    assert centre.max() < 30 and p[:, :3].min() > 200  # dark middle, paper at the sides


def test_two_corners_of_one_card_are_one_card_placed_where_the_card_lies() -> None:
    # A 100 x 140 card at (0, 0): indices 28 px tall, upright top left, upside down bottom right.
    dets = fuse_cards([reading("QH", (5, 5, 20, 33)),
                       reading("QH", (80, 107, 95, 135), orient=2)])
    assert dets.labels == ["QH"]
    x1, y1, x2, y2 = dets.xyxy[0]
    assert abs((x1 + x2) / 2 - 50) < 8 and abs((y1 + y2) / 2 - 70) < 8
    # The indices are a fifth of this card's height (most decks' are 0.28: the card their
    # size implies is 100 px tall); the box still reaches both corners, which hold them whole.
    assert x1 <= 5 and y1 <= 5 and x2 >= 95 and y2 >= 135
    assert 125 < y2 - y1 < 145 and 85 < x2 - x1 < 105


def test_a_card_implied_by_its_indices_holds_them_where_its_corners_disagree() -> None:
    """A sideways card whose large indices imply a card too small for both (held-out dark
    recolour, scene 3: a 6♦ boxed between its corners, neither inside): the box holds both."""
    dets = fuse_cards([reading("6D", (228, 149, 271, 200), orient=1),
                       reading("6D", (139, 250, 177, 306), orient=3)])
    x1, y1, x2, y2 = dets.xyxy[0]
    assert x1 <= 139 and y1 <= 149 and x2 >= 271 and y2 >= 306
    assert x2 - x1 < 180 and y2 - y1 < 180


def test_a_corner_of_another_card_read_as_the_same_code_does_not_stretch_the_box() -> None:
    """Readings of one code are grouped; one far from the others (a second deck's card, or
    a misreading) leaves the box where the near ones put it."""
    dets = fuse_cards([reading("QH", (5, 5, 20, 33)),
                       reading("QH", (80, 107, 95, 135), orient=2),
                       reading("QH", (505, 305, 520, 333))], decks=1)
    assert dets.xyxy[0][2] < 300 or dets.xyxy[0][0] > 300


@pytest.mark.parametrize("orient", [0, 1, 2, 3])
def test_one_index_implies_its_card_whichever_way_it_points(orient: int) -> None:
    """An index alone (its card's other corner covered) places the card where both would."""
    card_w, card_h, ih = 71.0, 100.0, 28.0
    # The index centre in the upright card, then the card turned ``orient`` quarters clockwise
    # about its centre (50, 50) in the image.
    ix, iy = 50 - 0.9 * ih, 50 - 1.1 * ih
    for _ in range(orient):
        ix, iy = 50 - (iy - 50), 50 + (ix - 50)
    iw, ihh = (ih, 15.0) if orient % 2 else (15.0, ih)
    x1, y1, x2, y2 = implied_card_box((ix - iw / 2, iy - ihh / 2, ix + iw / 2, iy + ihh / 2),
                                      orient)
    assert abs((x1 + x2) / 2 - 50) < 1e-6 and abs((y1 + y2) / 2 - 50) < 1e-6
    w, h = (card_h, card_w) if orient % 2 else (card_w, card_h)
    assert abs((x2 - x1) - w) < 1 and abs((y2 - y1) - h) < 1


def test_a_card_cut_by_the_frame_edge_is_reported_where_it_shows() -> None:
    """An index by the frame's edge implies a card reaching past it (held-out dark recolour,
    scene 0: a 2♥ reported at x -101..41 where 0..46 showed): the box is cut to the frame."""
    from vision.detections import Detections

    box = implied_card_box((600, 380, 638, 434), 0)  # upright: the card lies right and down
    assert box[2] > 640 and box[3] > 480
    dets = in_frame(Detections(np.array([box, (10, 10, 60, 90)], np.float32),
                               np.array([0.9, 0.8], np.float32), np.array([1, 2])), 640, 480)
    assert dets.xyxy[0].tolist() == pytest.approx([box[0], box[1], 640, 480])
    assert dets.xyxy[1].tolist() == [10, 10, 60, 90]
    assert dets.class_id.tolist() == [1, 2] and len(in_frame(dets[:0], 640, 480)) == 0


def test_corners_vote_and_the_surer_wins() -> None:
    card = np.array([[0, 0, 100, 140]], np.float32)
    dets = fuse_cards([reading("6C", (5, 5, 15, 25), p=0.95),
                       reading("6S", (85, 115, 95, 135), p=0.6, orient=2)], card,
                      min_conf=0.1)
    assert dets.labels == ["6C"]
    assert dets.xyxy[0].tolist() == [0, 0, 100, 140]


def test_a_card_box_over_a_spread_splits_by_code() -> None:
    box = np.array([[0, 0, 300, 140]], np.float32)  # one box around an overlapped row
    dets = fuse_cards([reading("TH", (5, 5, 15, 25)), reading("JH", (45, 5, 55, 25)),
                       reading("QH", (85, 5, 95, 25))], box)
    assert sorted(dets.labels) == ["JH", "QH", "TH"]


def test_a_deck_holds_each_card_once() -> None:
    far = [reading("AS", (0, 0, 10, 20), p=0.99), reading("AS", (500, 500, 510, 520), p=0.7)]
    cards = np.array([[0, 0, 60, 80], [480, 480, 560, 600]], np.float32)
    assert fuse_cards(far, cards).labels == ["AS"]
    assert fuse_cards(far, cards, decks=2, min_conf=0.2).labels == ["AS", "AS"]


def test_unsure_and_not_an_index_are_dropped() -> None:
    assert len(fuse_cards([reading("5D", (0, 0, 10, 20), p=0.3)])) == 0
    assert len(fuse_cards([reading("5D", (0, 0, 10, 20), is_index=0.05)])) == 0
    assert len(fuse_cards([])) == 0


def test_ctc_likelihood_prefers_the_written_rank() -> None:
    from vision.readers.rank_ocr import _ctc_log_likelihood

    # Frames: blank, '1', '1', blank, '0' (classes: 0 blank, 1 '1', 2 '0', 3 'J').
    probs = np.full((5, 4), 0.02)
    for t, c in enumerate([0, 1, 1, 0, 2]):
        probs[t, c] = 0.94
    logp = np.log(probs / probs.sum(1, keepdims=True))
    ten = _ctc_log_likelihood(logp, [1, 2])
    assert ten > _ctc_log_likelihood(logp, [3]) + 5
    assert ten > _ctc_log_likelihood(logp, [1]) + 2
    assert math.isfinite(ten) and ten < 0


def test_ctc_repeated_letters_need_a_blank_between() -> None:
    from vision.readers.rank_ocr import _ctc_log_likelihood

    logp = np.log(np.full((1, 3), 1 / 3))
    assert _ctc_log_likelihood(logp, [1, 1]) == -math.inf  # "11" cannot fit in one frame


def test_rendered_scenes_label_each_readable_index() -> None:
    scenes = pytest.importorskip("vision.training.scenes")
    decks = pytest.importorskip("vision.render.decks")
    pytest.importorskip("cairosvg")
    if "standard" not in decks.available_decks():
        pytest.skip("the Debian deck designs are not installed")
    rng = np.random.default_rng(3)
    codes = ["2C", "7D", "QH", "AS"]
    scene = scenes.render_scene(rng, ["standard"], kind="scatter", clean=True, codes=codes,
                                card_height=160)
    assert {c for c, _ in scene.indices} <= set(codes)
    assert len(scene.indices) >= 4  # clean scatter: most cards show both corners
    h, w = scene.image.shape[:2]
    for code, quad in scene.indices:
        assert code in CARD_CODES and quad.shape == (4, 2)
        assert (quad[:, 0] >= -1).all() and (quad[:, 0] <= w + 1).all()
        # The index is small and lies on a card box of the same code.
        box = dict((c, b) for c, b in scene.cards)[code]
        cx, cy = quad.mean(axis=0)
        assert box[0] - 1 <= cx <= box[2] + 1 and box[1] - 1 <= cy <= box[3] + 1
        side = np.linalg.norm(quad[1] - quad[0])
        assert 4 < side < 60


def test_restyle_turns_every_suit_one_ink() -> None:
    from vision.training.scenes import restyle

    card = np.zeros((20, 20, 4), np.uint8)
    card[..., 3] = 255
    card[:, :] = (255, 255, 255, 255)
    card[2:6, 2:6, :3] = (0, 0, 200)  # red ink
    card[10:14, 10:14, :3] = (0, 0, 0)  # black ink
    paper, ink = np.array([10, 10, 10], np.float32), np.array([50, 190, 220], np.float32)
    out = restyle(card, paper, ink)
    assert np.abs(out[0, 0, :3].astype(int) - paper).max() <= 12
    assert np.abs(out[12, 12, :3].astype(int) - ink).max() <= 2
    assert np.abs(out[4, 4, :3].astype(int) - out[12, 12, :3].astype(int)).max() < 30


def test_refit_learns_a_deck_and_stays_near_the_shipped_layers() -> None:
    from vision.readers.teach_index import refit

    rng = np.random.default_rng(0)
    base = {"rank_w": np.zeros((13, 8), np.float32), "rank_b": np.zeros(13, np.float32),
            "suit_w": np.zeros((4, 8), np.float32), "suit_b": np.zeros(4, np.float32)}
    # Two separable "decks" of features: ranks 0 and 5, suits 1 and 3.
    feats = np.concatenate([rng.normal(0, 0.1, (20, 8)) + np.eye(8)[0],
                            rng.normal(0, 0.1, (20, 8)) + np.eye(8)[1]]).astype(np.float32)
    ranks = np.array([0] * 20 + [5] * 20)
    suits = np.array([1] * 20 + [3] * 20)
    out = refit(feats, ranks, suits, base, steps=400, lr=0.5)
    pr = feats @ out["rank_w"].T + out["rank_b"]
    ps = feats @ out["suit_w"].T + out["suit_b"]
    assert (pr.argmax(1) == ranks).all() and (ps.argmax(1) == suits).all()
    # The pull keeps untouched outputs where they were.
    assert np.abs(out["rank_w"][7]).max() < 0.5
    strong = refit(feats, ranks, suits, base, steps=400, lr=0.5, pull=1.0)
    assert np.abs(strong["rank_w"]).max() < np.abs(out["rank_w"]).max()


def test_a_refit_that_reads_unseen_cards_no_better_is_not_kept() -> None:
    from vision.readers.teach_index import refit_checked

    rng = np.random.default_rng(1)
    eye = np.eye(17, dtype=np.float32)
    base = {"rank_w": np.zeros((13, 17), np.float32), "rank_b": np.zeros(13, np.float32),
            "suit_w": np.zeros((4, 17), np.float32), "suit_b": np.zeros(4, np.float32)}
    ranks = np.repeat(np.arange(13), 4)
    suits = np.tile(np.arange(4), 13)
    # Features that carry rank and suit (one dimension each): refitting learns what carries
    # to the cards it did not see.
    feats = (eye[ranks] + eye[13 + suits] + rng.normal(0, 0.05, (52, 17))).astype(np.float32)
    layers, gain = refit_checked(feats, ranks, suits, base)
    assert gain > 0.5 and layers is not base
    # Layers that already read every card: a refit cannot read the unseen half better, and
    # the shipped layers stay.
    sure = {"rank_w": 5 * eye[:13], "rank_b": np.zeros(13, np.float32),
            "suit_w": 5 * eye[13:], "suit_b": np.zeros(4, np.float32)}
    layers, gain = refit_checked(feats, ranks, suits, sure)
    assert gain <= 0 and layers is sure


def test_a_deck_printed_light_on_dark_is_read_in_negative() -> None:
    from vision.readers.index_reader import as_light_face

    frame = np.full((4, 4, 3), 20, np.uint8)
    frame[1, 1] = (60, 185, 225)  # gold ink on a black face
    gold = as_light_face(frame, np.array([20, 18, 16.0]), np.array([60, 185, 225.0]))
    assert gold[0, 0].min() > 200 and gold[1, 1].max() < 200
    plain = as_light_face(frame, np.array([250, 250, 250.0]), np.array([10, 10, 10.0]))
    assert plain is frame  # dark ink on a light face: as the models know cards


def _shipped_models_and_decks() -> Any:
    """The index reader module, once the shipped index models and the Debian deck designs
    are known to be installed (else the test is skipped)."""
    from vision.readers import index_reader

    pytest.importorskip("onnxruntime")
    if not index_reader.available():
        pytest.skip("the index models are not installed")
    decks = pytest.importorskip("vision.render.decks")
    pytest.importorskip("cairosvg")
    if "standard" not in decks.available_decks():
        pytest.skip("the Debian deck designs are not installed")
    return index_reader


def test_teach_deck_finds_a_dark_face_and_the_reader_uses_it(tmp_path) -> None:  # noqa: ANN001
    index_reader = _shipped_models_and_decks()
    from vision.readers.teach_index import summary, teach
    from vision.training.scenes import render_scene

    rng = np.random.default_rng(3)
    gold = (np.array([20, 18, 16], np.float32), np.array([60, 185, 225], np.float32))
    for code in CARD_CODES[::4]:  # 13 cards shown
        s = render_scene(rng, ["standard"], size=480, kind="scatter", codes=[code],
                         card_height=220, clean=True, style=gold)
        cv2.imwrite(str(tmp_path / f"{code}.png"), s.image)
    profile = teach(tmp_path, index_reader.IndexReader(card_boxes=False, ocr=False,
                                                       threads=1))
    assert profile["face"] is not None
    assert "dark-faced deck" in summary(profile)
    reader = index_reader.IndexReader(card_boxes=False, ocr=False, threads=1, deck=profile)
    assert reader.face is not None


def test_deck_profile_is_checked(tmp_path) -> None:  # noqa: ANN001
    from vision.readers.index_heads import DECK_KIND, load_deck_layers

    bad = tmp_path / "deck.json"
    bad.write_text('{"kind": "thresholds"}')
    with pytest.raises(ValueError, match="not a deck profile"):
        load_deck_layers(bad)
    good = {"kind": DECK_KIND, "rank_w": np.zeros((13, 4)).tolist(), "rank_b": [0] * 13,
            "suit_w": np.zeros((4, 4)).tolist(), "suit_b": [0] * 4}
    assert load_deck_layers(good)["rank_w"].shape == (13, 4)
    good["rank_w"] = np.zeros((12, 4)).tolist()
    with pytest.raises(ValueError, match="13 ranks"):
        load_deck_layers(good)


def test_real_index_photos_split_by_time() -> None:
    from vision.training.index_data import split_real

    recs = [{"image": f"ammi_{i:03d}.jpg"} for i in range(20)] + [
        {"image": f"bidly_{i}.jpg"} for i in range(7)]
    train, val = split_real(recs, 0.1)
    names = [r["image"] for r in val]
    assert names == ["ammi_018.jpg", "ammi_019.jpg", "bidly_6.jpg"]
    assert not {r["image"] for r in train} & set(names)


def test_real_labels_seen_wrong_are_mended_only_where_still_wrong(tmp_path: Path) -> None:
    from vision.training.index_data import REAL_LABEL_FIXES, real_index_records

    (name, k), (was, shown) = next(iter(REAL_LABEL_FIXES.items()))
    boxes = [{"card": "2D", "box": [0, 0, 5, 5]} for _ in range(k + 1)]
    boxes[k] = {"card": was, "box": [10, 10, 15, 15]}
    other = [{"card": "2D", "box": [0, 0, 5, 5]} for _ in range(k + 1)]
    other[k] = {"card": "KH", "box": [10, 10, 15, 15]}  # mended upstream: left as it is
    recs = [{"image": name, "cards": boxes, "unique_cards": sorted({"2D", was})},
            {"image": "ammi_zzz.jpg", "cards": other, "unique_cards": ["2D", "KH"]},
            {"image": "rf100_x.jpg", "cards": [], "unique_cards": []}]
    (tmp_path / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    got = {str(r["image"]): r for r in real_index_records(tmp_path)}
    assert set(got) == {name, "ammi_zzz.jpg"}
    assert got[name]["cards"][k]["card"] == shown  # type: ignore[index]
    assert got[name]["unique_cards"] == sorted({"2D", shown})
    assert got["ammi_zzz.jpg"] == recs[1]


def test_corner_proposals_sit_in_the_card_corners() -> None:
    from vision.readers.index_heads import corner_proposals

    props = corner_proposals([100, 100, 200, 240])
    assert props.shape == (24, 4)
    assert (props[:, 0] >= 100 - 1e-3).all() and (props[:, 2] <= 200 + 1e-3).all()
    assert (props[:, 1] >= 100 - 1e-3).all() and (props[:, 3] <= 240 + 1e-3).all()


class _Cuts:
    """What a reader asks of any heads besides reading them: the patches to read."""

    def cut(self, frame: np.ndarray, boxes: Any) -> np.ndarray:
        return cut_patches(frame, boxes)


class _InkHeads(_Cuts):
    """Heads that read every patch as K♥, the surer the more ink (dark pixels) it holds, and
    call it an index when at least a quarter of it is ink."""

    def __init__(self) -> None:
        self.eighths: list[object] = []  # what each read was told of eighth turns

    def read(self, patches: np.ndarray, tta: object = None, eighths: object = None
             ) -> dict[str, np.ndarray]:
        self.eighths.append(eighths)
        ink = 1 - patches.reshape(len(patches), -1).mean(axis=1) / 255
        n = len(patches)
        rank, suit = np.full((n, 13), 0.01), np.full((n, 4), 0.01)
        rank[:, RANKS.index("K")] = suit[:, SUITS.index("H")] = 0.5 + ink
        return {"rank": rank / rank.sum(1, keepdims=True),
                "suit": suit / suit.sum(1, keepdims=True),
                "orient": np.full((n, 4), 0.25), "is_index": np.clip(2 * ink, 0, 1)}


def test_corner_vote_reads_the_corner_that_holds_an_index() -> None:
    from vision.readers.index_heads import corner_vote

    frame = np.full((300, 300, 3), 255, np.uint8)
    heads: Any = _InkHeads()
    assert corner_vote(heads, frame, [100, 80, 200, 220]) is None  # blank corners: no vote
    frame[82:120, 102:122] = 0  # an index in the top-left corner
    vote = corner_vote(heads, frame, [100, 80, 200, 220])
    assert vote is not None and CARD_CODES[int(vote.argmax())] == "KH"
    assert vote.shape == (52,) and abs(float(vote.sum()) - 1) < 1e-6
    # The corners' boxes lie square to the card box: the best of each is not read again
    # turned an eighth (text on no card would read as an index so).
    assert heads.eighths[-1] is False


def test_only_unsure_patches_are_read_in_all_four_turns() -> None:
    from vision.readers.index_heads import IndexHeads

    batches: list[int] = []

    def logits(patches: np.ndarray) -> dict[str, np.ndarray]:
        # A bright patch is read surely as 7♠, a dark one as anything.
        batches.append(len(patches))
        bright = patches.reshape(len(patches), -1).mean(axis=1) > 128
        rank, suit = np.zeros((len(patches), 13)), np.zeros((len(patches), 4))
        rank[bright, RANKS.index("7")] = suit[bright, SUITS.index("S")] = 20.0
        return {"rank": rank, "suit": suit, "orient": np.zeros((len(patches), 4)),
                "is_index": np.zeros(len(patches))}

    heads = IndexHeads.__new__(IndexHeads)
    heads.tta, heads.layers, heads.eighths = "unsure", None, False
    heads.logits = logits  # type: ignore[method-assign]
    patches = np.zeros((5, PATCH, PATCH), np.uint8)
    patches[:3] = 200
    out = heads.read(patches)
    assert batches == [5, 4 * 2]  # all once, then the two unsure ones in four turns
    assert (out["rank"][:3].argmax(1) == RANKS.index("7")).all()
    assert np.allclose(out["rank"][3:], 1 / 13)
    batches.clear()
    heads.read(patches, tta=True)
    assert batches == [4 * 5]


def _bar(angle: float) -> np.ndarray:
    """A grey patch with a dark bar through its centre at ``angle`` degrees."""
    patch = np.full((PATCH, PATCH), 220, np.uint8)
    c = (PATCH - 1) / 2
    d = np.array([np.cos(np.radians(angle)), -np.sin(np.radians(angle))]) * PATCH * 0.3
    cv2.line(patch, (round(c - d[0]), round(c - d[1])), (round(c + d[0]), round(c + d[1])),
             30, 5)
    return patch


def _reads_level_bars(patches: np.ndarray) -> dict[str, np.ndarray]:
    """Fake heads: a patch whose dark pixels lie along one row or one column (a bar level
    or upright) is read surely as 7♠ and an index; any other as nothing in particular."""
    n = len(patches)
    rank, suit = np.zeros((n, 13)), np.zeros((n, 4))
    isx = np.full(n, -2.0)
    for i, p in enumerate(patches):
        ys, xs = np.nonzero(p < 100)
        if len(ys) and min(np.ptp(ys), np.ptp(xs)) <= 8:
            rank[i, RANKS.index("7")] = suit[i, SUITS.index("S")] = 20.0
            isx[i] = 4.0
    return {"rank": rank, "suit": suit, "orient": np.zeros((n, 4)), "is_index": isx}


@pytest.mark.parametrize("eighths", [False, True])
def test_an_index_lying_at_45_degrees_is_read_again_turned_an_eighth(eighths: bool) -> None:
    from vision.readers.index_heads import IndexHeads, eighth_turned

    assert _reads_level_bars(eighth_turned(_bar(45.0)[None]))["is_index"][0] > 0
    heads = IndexHeads.__new__(IndexHeads)
    heads.tta, heads.layers, heads.eighths = "unsure", None, eighths
    batches: list[int] = []

    def logits(patches: np.ndarray) -> dict[str, np.ndarray]:
        batches.append(len(patches))
        return _reads_level_bars(patches)

    heads.logits = logits  # type: ignore[method-assign]
    level, tilted = _bar(0.0), _bar(45.0)
    out = heads.read(np.stack([level, tilted, tilted]))
    assert out["rank"][0].argmax() == RANKS.index("7") and out["is_index"][0] > 0.9
    if eighths:
        # The level bar is sure in one look; the tilted ones are read in their four quarter
        # turns, then again turned an eighth, where they read surely.
        assert batches == [3, 4 * 2, 4 * 2]
        assert (out["rank"][1:].argmax(1) == RANKS.index("7")).all()
        assert (out["suit"][1:].argmax(1) == SUITS.index("S")).all()
        assert (out["rank"][1:].max(1) > 0.99).all() and (out["is_index"][1:] > 0.9).all()
    else:
        assert batches == [3, 4 * 2]
        assert np.allclose(out["rank"][1:], 1 / 13) and (out["is_index"][1:] < 0.2).all()


def test_an_eighth_turn_is_kept_only_where_it_reads_surer() -> None:
    from vision.readers.index_heads import IndexHeads

    def logits(patches: np.ndarray) -> dict[str, np.ndarray]:
        # A level bar (read once and in quarter turns) is a fairly sure 9♥, too unsure to
        # pass; turned an eighth it is a less sure 2♣.
        n = len(patches)
        level = _reads_level_bars(patches)["is_index"] > 0
        rank, suit = np.zeros((n, 13)), np.zeros((n, 4))
        rank[level, RANKS.index("9")] = suit[level, SUITS.index("H")] = 3.0
        rank[~level, RANKS.index("2")] = suit[~level, SUITS.index("C")] = 0.5
        return {"rank": rank, "suit": suit, "orient": np.zeros((n, 4)),
                "is_index": np.full(n, 2.0)}

    heads = IndexHeads.__new__(IndexHeads)
    heads.tta, heads.layers, heads.eighths = True, None, True
    heads.logits = logits  # type: ignore[method-assign]
    patch = _bar(0.0)[None]
    out = heads.read(patch)
    assert out["rank"][0].max() < 0.9  # unsure, so it was read turned an eighth too
    assert out["rank"][0].argmax() == RANKS.index("9")
    assert out["suit"][0].argmax() == SUITS.index("H")


def test_photos_are_read_with_eighth_turns_and_the_table_without() -> None:
    from vision.readers import index_reader
    from vision.readers.load import load_reader

    if not index_reader.available():
        pytest.skip("index models not installed")
    assert load_reader("index").heads.eighths
    assert not load_reader("index", table=True).heads.eighths


class _CountingOCR:
    """A rank OCR that reads every index as a 2, as sure as ``sure`` says for each cut in
    turn (its CTC log-likelihood; 0 for every one by default), and remembers how many it
    read."""

    def __init__(self, sure: list[float] | None = None) -> None:
        self.read = 0
        self.sure = sure

    def rank_probs(self, cuts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        self.read += len(cuts)
        p = np.full((len(cuts), 13), 1e-4)
        p[:, RANKS.index("2")] = 1
        sure = np.zeros(len(cuts)) if self.sure is None else np.array(self.sure[:len(cuts)])
        return p / p.sum(1, keepdims=True), sure


def test_the_hybrid_asks_the_ocr_only_about_cards_the_classifier_is_unsure_of() -> None:
    from vision.readers.index_reader import IndexReader

    class Classifier:
        def crops(self, frame: np.ndarray, boxes: np.ndarray) -> np.ndarray:
            return np.zeros((len(boxes), 8, 8, 3), np.uint8)

        def classify_patches(self, crops: np.ndarray) -> tuple[Any, Any, np.ndarray]:
            p = np.full((len(crops), 52), 0.01 / 51)
            p[0] = 0.2 / 51
            p[0, CARD_CODES.index("9H")] = 0.8  # the first box: 80% sure
            p[1, CARD_CODES.index("4C")] = 0.99  # the second: sure
            return None, None, p

    class Detector:
        classifier = Classifier()
        agnostic_iou, card_conf, class_smoothing = 0.7, 0.3, 0.0

        def _candidates(self, frame: np.ndarray, conf: float) -> tuple[Any, Any, Any]:
            boxes = np.array([[0, 0, 100, 140], [200, 0, 300, 140]], np.float32)
            return boxes, np.full((2, 52), 0.9 / 52), None

    reader = IndexReader.__new__(IndexReader)
    reader.card_detector, reader.ocr = Detector(), _CountingOCR()  # type: ignore[assignment]
    reader.ocr_mode, reader.ocr_below, reader.decks = True, 0.9, 1
    reader.index_weight, reader.corner_gate, reader.corner_weight = 1.0, 0.9, 0.3
    reader.loose_conf, reader.faceless, reader.alike = 0.6, 120.0, True
    unsure_rank = np.full(13, 0.3 / 12)
    unsure_rank[RANKS.index("9")] = 0.7
    hearts, clubs = np.array([0.01, 0.01, 0.97, 0.01]), np.array([0.97, 0.01, 0.01, 0.01])
    readings = [IndexReading((5, 5, 25, 45), 0.9, unsure_rank, hearts, 0, 1.0),
                IndexReading((205, 5, 225, 45), 0.9, unsure_rank, clubs, 0, 1.0)]
    frame = np.full((200, 320, 3), 255, np.uint8)
    got = reader._with_whole_cards(frame, readings, 0.3)
    assert reader.ocr.read == 1  # only the index of the box the classifier is unsure of
    assert set(got.labels) == {"9H", "4C"}  # one OCR'd 2 does not outvote two 9s


def test_the_ocr_votes_only_where_its_rank_explains_the_index_well() -> None:
    from vision.readers.index_reader import IndexReader

    unsure_rank = np.full(13, 0.4 / 12)
    unsure_rank[RANKS.index("7")] = 0.6
    clubs = np.array([0.97, 0.01, 0.01, 0.01])
    readings = [IndexReading((5, 5, 25, 45), 0.9, unsure_rank, clubs, 0, 1.0),
                IndexReading((105, 5, 125, 45), 0.9, unsure_rank, clubs, 0, 1.0)]
    frame = np.full((60, 160, 3), 255, np.uint8)
    reader = IndexReader.__new__(IndexReader)
    reader.ocr_mode, reader.ocr_below = True, 0.9
    reader.ocr = _CountingOCR([-0.5, -6.0])  # type: ignore[assignment]
    assert [r.code for r in reader.fuse_ocr(frame, readings)] == ["2C", "2C"]  # (default)
    reader.ocr_sure = -4.0
    # The first index's 2 is read clearly and outvotes the unsure 7; the second's is a
    # guess (its likeliest text explains the picture poorly): the rank head's 7 stands.
    assert [r.code for r in reader.fuse_ocr(frame, readings)] == ["2C", "7C"]


def _hybrid(boxes: np.ndarray, favourite: str) -> Any:
    """An index reader with whole-card boxes and a crop classifier sure of ``favourite``."""
    from vision.readers.index_reader import IndexReader

    class Classifier:
        def crops(self, frame: np.ndarray, boxes: np.ndarray) -> np.ndarray:
            return np.zeros((len(boxes), 8, 8, 3), np.uint8)

        def classify_patches(self, crops: np.ndarray) -> tuple[Any, Any, np.ndarray]:
            p = np.full((len(crops), 52), 0.1 / 51)
            p[:, CARD_CODES.index(favourite)] = 0.9
            return None, None, p

    class Detector:
        classifier = Classifier()
        agnostic_iou, card_conf, class_smoothing = 0.7, 0.3, 0.0

        def _candidates(self, frame: np.ndarray, conf: float) -> tuple[Any, Any, Any]:
            return boxes, np.full((len(boxes), 52), 0.9 / 52), None

    reader = IndexReader.__new__(IndexReader)
    reader.card_detector, reader.ocr = Detector(), None  # type: ignore[assignment]
    reader.ocr_mode, reader.ocr_below, reader.decks = False, 0.9, 1
    reader.index_weight, reader.corner_gate, reader.corner_weight = 1.0, 0.9, 0.3
    reader.loose_conf, reader.faceless, reader.alike = 0.6, 120.0, False
    return reader


def test_an_unsure_card_box_with_no_index_anywhere_is_left_out(monkeypatch) -> None:  # noqa: ANN001
    # Three boxes 140 px tall, no index found by the localiser in any: the classifier is sure
    # of the first; the second's corners hold an index; the third's hold none (a card back).
    import vision.readers.index_reader as ir

    boxes = np.array([[0, 0, 100, 140], [110, 0, 210, 140], [220, 0, 320, 140]], np.float32)
    reader = _hybrid(boxes, "QH")
    sure = np.full(52, 0.01 / 51)
    sure[CARD_CODES.index("QH")] = 0.99
    unsure = np.full(52, 0.4 / 51)
    unsure[CARD_CODES.index("KC")] = 0.6

    class Classifier:
        def crops(self, frame: np.ndarray, b: np.ndarray) -> np.ndarray:
            return np.zeros((len(b), 8, 8, 3), np.uint8)

        def classify_patches(self, crops: np.ndarray) -> tuple[Any, Any, np.ndarray]:
            return None, None, np.stack([sure, unsure, unsure[::-1]])

    reader.card_detector.classifier = Classifier()
    seven = np.full(52, 0.01 / 51)
    seven[CARD_CODES.index("7D")] = 0.99
    asked = []

    def corners(heads: Any, grey: np.ndarray, box: np.ndarray) -> np.ndarray | None:
        asked.append(float(box[0]))
        return seven if box[0] == 110 else None

    monkeypatch.setattr(ir, "corner_vote", corners)
    reader.heads = None  # type: ignore[assignment]
    frame = np.full((200, 320, 3), 255, np.uint8)
    got = reader._with_whole_cards(frame, [], 0.3)
    assert asked == [110.0, 220.0]  # the sure box's corners are not read
    assert sorted(got.xyxy[:, 0].tolist()) == [0, 110]
    reader.faceless = 0.0  # kept, named by the classifier alone
    assert sorted(reader._with_whole_cards(frame, [], 0.3).xyxy[:, 0].tolist()) == [0, 110, 220]
    reader.faceless = 150.0  # a card this small may hide its indices from the localiser
    assert len(reader._with_whole_cards(frame, [], 0.3)) == 3


def test_card_boxes_read_alike_with_no_index_are_backs() -> None:
    # Three face-down cards apart on the table, a back printed with a large K: the classifier
    # reads each as K♣ (sure), the localiser finds no index in any. A deck holds K♣ once:
    # they are backs, and none is reported. With an index inside one, that one is a card.
    boxes = np.array([[0, 0, 100, 140], [110, 0, 210, 140], [220, 0, 320, 140]], np.float32)
    reader = _hybrid(boxes, "KC")
    reader.alike = True
    frame = np.full((200, 320, 3), 255, np.uint8)
    assert len(reader._with_whole_cards(frame, [], 0.3)) == 0
    got = reader._with_whole_cards(frame, [reading("KC", (225, 5, 240, 30))], 0.3)
    assert got.labels == ["KC"] and got.xyxy[0, 0] >= 220
    # The back's large K boxed as an index in the middle of a card: still a back.
    middle = reading("KC", (40, 55, 60, 85))
    assert len(reader._with_whole_cards(frame, [middle], 0.3)) == 0
    reader.alike = False  # the likeliest of the alike boxes kept (one per deck)
    assert len(reader._with_whole_cards(frame, [], 0.3)) == 1


def test_an_index_by_a_corner_is_off_centre_and_one_in_the_middle_is_not() -> None:
    from vision.readers.index_reader import off_centre

    card = (0, 0, 100, 140)
    assert off_centre(card, (5, 5, 20, 35))  # the top-left corner index
    assert off_centre(card, (80, 105, 95, 135))  # the bottom-right one
    assert not off_centre(card, (40, 55, 60, 85))  # a large letter in the card's middle


def test_alike_backs_counts_boxes_apart_and_decks() -> None:
    from vision.readers.index_reader import alike_backs

    kc = np.zeros(52)
    kc[CARD_CODES.index("KC")] = 1.0
    qh = np.zeros(52)
    qh[CARD_CODES.index("QH")] = 1.0
    apart = np.array([[0, 0, 100, 140], [110, 0, 210, 140], [220, 0, 320, 140]], np.float32)
    assert alike_backs(apart, [kc, kc, qh], [True] * 3) == [0, 1]
    assert alike_backs(apart, [kc, kc, qh], [True, False, True]) == []  # one has an index
    assert alike_backs(apart, [kc, kc, kc], [True] * 3, decks=2) == [0, 1, 2]
    assert alike_backs(apart, [kc, kc, qh], [True] * 3, decks=2) == []  # two decks: two K♣
    # Two boxes around one card (one's centre inside the other) are one card, not two.
    nested = np.array([[0, 0, 100, 140], [10, 10, 110, 150]], np.float32)
    assert alike_backs(nested, [kc, kc], [True, True]) == []


def test_a_whole_card_box_around_a_pile_names_every_card_whose_index_shows() -> None:
    # The detector drew one box around a pile of three cards (each lower card shows its
    # index strip); the crop classifier names the top card. Each index is a card.
    box = np.array([[0, 0, 200, 140]], np.float32)
    reader = _hybrid(box, "QH")
    frame = np.full((200, 320, 3), 255, np.uint8)
    got = reader._with_whole_cards(frame, [reading("TH", (5, 5, 15, 25)),
                                           reading("JH", (45, 5, 55, 25)),
                                           reading("QH", (85, 5, 95, 25))], 0.5)
    assert sorted(got.labels) == ["JH", "QH", "TH"]
    qh = got.xyxy[got.labels.index("QH")]  # the box's own card, cut to that card
    assert 55 < qh[0] <= 85 and qh[2] >= 95 and qh[1] <= 5 and qh[3] >= 25
    th = got.xyxy[got.labels.index("TH")]
    assert th[0] < 15 and th[2] < 100  # the lower card lies about its index


def test_one_cards_two_corners_read_two_ways_stay_one_card() -> None:
    from vision.readers.index_reader import split_box

    two = [reading("6C", (5, 5, 15, 25)), reading("6S", (85, 115, 95, 135), orient=2)]
    probs = np.full(52, 1 / 52)
    assert split_box(two, probs) == (two, [])
    # Three cards of a spread (all pointing one way): the classifier's card keeps the box.
    row = [reading("2D", (5, 5, 15, 25)), reading("3D", (45, 5, 55, 25)),
           reading("4D", (85, 5, 95, 25), p=0.6)]
    probs[CARD_CODES.index("4D")] = 1.0
    own, others = split_box(row, probs)
    assert [r.code for r in own] == ["4D"]
    assert sorted(r.code for group in others for r in group) == ["2D", "3D"]


def test_an_index_of_the_kind_the_classifier_rules_out_is_another_cards() -> None:
    from vision.readers.index_reader import COURT_SURE, PIPS_SURE, other_kind

    # Oh Claire! 309 on the held-out tigullio deck: a far Q♦ whose small corners the heads
    # read as 10♦ and 8♦; the crop classifier, unsure which court, surely saw a court.
    corners = [reading("TD", (5, 5, 15, 25)), reading("8D", (85, 115, 95, 135), orient=2),
               reading("QD", (5, 5, 15, 25), p=0.5)]
    court = np.zeros(52)
    for code, p in (("QD", 0.4), ("JD", 0.2), ("KD", 0.2), ("8D", 0.1), ("TD", 0.1)):
        court[CARD_CODES.index(code)] = p
    assert court[[CARD_CODES.index(c) for c in ("QD", "JD", "KD")]].sum() >= COURT_SURE
    own, strays = other_kind(corners, court)
    assert [r.code for r in own] == ["QD"] and [r.code for r in strays] == ["TD", "8D"]
    # A box surely not a court: a court's index in it is another card's.
    pips = np.zeros(52)
    pips[CARD_CODES.index("TD")] = 1.0 - PIPS_SURE / 2
    pips[CARD_CODES.index("QD")] = PIPS_SURE / 2
    own, strays = other_kind(corners, pips)
    assert [r.code for r in own] == ["TD", "8D"] and [r.code for r in strays] == ["QD"]
    # Unsure of the kind: every index stays.
    even = np.zeros(52)
    even[CARD_CODES.index("TD")] = even[CARD_CODES.index("QD")] = 0.5
    assert other_kind(corners, even) == (corners, [])


def test_on_a_deck_the_classifier_does_not_know_the_indices_say_which_court() -> None:
    from vision.readers.index_reader import (
        courts_pooled,
        reads_a_court,
        reads_another_court,
        vote,
    )

    # Great Lakes 101 on the held-out tigullio deck: the crop classifier calls a J♦ a K♦.
    probs = np.zeros(52)
    for code, p in (("KD", 0.6), ("JD", 0.2), ("QH", 0.1), ("9D", 0.1)):
        probs[CARD_CODES.index(code)] = p
    pooled = courts_pooled(probs)
    at = {c: pooled[CARD_CODES.index(c)] for c in ("JD", "QD", "KD", "QH", "JH", "9D")}
    # Which court is left open; court or not, and the suit, stay as the classifier says.
    assert np.allclose([at["JD"], at["QD"], at["KD"]], 0.8 / 3)
    assert np.allclose([at["QH"], at["JH"]], 0.1 / 3) and at["9D"] == 0.1
    assert np.isclose(pooled.sum(), probs.sum())
    # The index in the box decides the court ...
    voted = pooled * vote(reading("JD", (5, 5, 15, 25)))
    assert CARD_CODES[int(voted.argmax())] == "JD"
    # ... where one reads a court rank; where none does, the classifier names the card.
    assert reads_a_court([reading("9D", (5, 5, 15, 25)), reading("JD", (5, 5, 15, 25), p=0.4)])
    assert not reads_a_court([reading("9D", (5, 5, 15, 25))])
    assert not reads_a_court([])
    # Pooled only where an index reads another court than the classifier's: an index that
    # reads its K in another suit leaves the classifier's suit as sure as it was.
    assert reads_another_court([reading("JD", (5, 5, 15, 25))], probs)
    assert not reads_another_court([reading("KC", (5, 5, 15, 25))], probs)
    assert not reads_another_court([reading("9D", (5, 5, 15, 25))], probs)


def test_a_court_index_misread_as_pips_still_says_which_court(monkeypatch) -> None:  # noqa: ANN001
    # Pressman 102 on the held-out tigullio deck: a J♦ whose small serif J the heads read as a
    # 7 (0.6), with a little more of its rank on J than on Q or K; the crop classifier sure it
    # is a court card, and naming it K♦. The 7 is not this card's vote (it is of the kind the
    # classifier rules out), but among the courts it says J.
    import vision.readers.index_reader as ir

    boxes = np.array([[0, 0, 50, 70]], np.float32)  # a card as small as in a zone view
    reader = _hybrid(boxes, "KD")
    cls = np.full(52, 0.14 / 49)
    for code, q in (("KD", 0.71), ("JD", 0.11), ("QD", 0.04)):
        cls[CARD_CODES.index(code)] = q

    class Classifier:
        def crops(self, frame: np.ndarray, b: np.ndarray) -> np.ndarray:
            return np.zeros((len(b), 8, 8, 3), np.uint8)

        def classify_patches(self, crops: np.ndarray) -> tuple[Any, Any, np.ndarray]:
            return None, None, cls[None]

    reader.card_detector.classifier = Classifier()
    monkeypatch.setattr(ir, "corner_vote", lambda heads, grey, box: None)
    reader.heads = None  # type: ignore[assignment]
    reader.loose_conf = math.inf  # as the table's hybrid: every card is read in a card box
    rank = np.full(13, 0.366 / 10)
    for r, q in (("7", 0.6), ("J", 0.03), ("Q", 0.0), ("K", 0.004)):
        rank[RANKS.index(r)] = q
    diamonds = np.full(4, 0.01)
    diamonds[SUITS.index("D")] = 0.97
    seven = IndexReading((3, 3, 10, 18), 0.5, rank, diamonds, 0, 1.0)
    frame = np.full((200, 320, 3), 255, np.uint8)
    assert reader._with_whole_cards(frame, [seven], 0.3).labels == ["KD"]
    reader.courts_by_index = True
    assert reader._with_whole_cards(frame, [seven], 0.3).labels == ["JD"]
    # Another card's index there, with next to nothing on the courts, says nothing.
    three = IndexReading((3, 3, 10, 18), 0.5, _onehot(13, RANKS.index("3"), 0.99), diamonds,
                         0, 1.0)
    assert ir.court_hint([three]) is None
    assert reader._with_whole_cards(frame, [three], 0.3).labels == ["KD"]


def test_a_free_shape_localiser_input_is_padded_only_to_its_stride() -> None:
    from vision.readers.detector import letterbox

    frame = np.zeros((480, 640, 3), np.uint8)
    square, r, pad = letterbox(frame, 640)
    assert square.shape[:2] == (640, 640) and r == 1 and pad == (0, 80)
    rect, r, pad = letterbox(frame, 640, 32)
    assert rect.shape[:2] == (480, 640) and pad == (0, 0)
    small, r, pad = letterbox(np.zeros((100, 300, 3), np.uint8), 384, 32)
    assert small.shape[:2] == (128, 384) and r == 1.28 and pad == (0, 0)


def test_a_large_photo_is_also_read_in_overlapping_tiles() -> None:
    from vision.readers.index_reader import IndexReader

    reader = IndexReader.__new__(IndexReader)
    reader.imgsz, reader.free_shape, reader.tile = 640, True, True
    assert reader.tiles(640, 480) == [] and reader.tiles(960, 720) == []  # one look will do
    tiles = reader.tiles(1280, 720)  # a 720p webcam frame: tiles at its own resolution
    assert {scale for _, scale in tiles} == {1.0}
    covered = np.zeros((720, 1280), bool)
    for (x0, y0, x1, y1), _ in tiles:
        assert x1 - x0 <= 640 and y1 - y0 <= 640
        covered[y0:y1, x0:x1] = True
    assert covered.all()
    big = reader.tiles(4032, 3024)  # a phone photo: read at twice the input size, not more
    assert all(abs(scale - 1280 / 4032) < 1e-9 for _, scale in big)
    spans = [(x1 - x0) * scale for (x0, _, x1, _), scale in big]
    assert max(spans) <= 640.5 and len(big) == 6
    (a, _, b, _), _ = big[0]
    (c, _, d, _), _ = big[1]
    assert c < b  # neighbours overlap, so an index cut by one tile's edge is whole in the next
    reader.tile = False
    assert reader.tiles(4032, 3024) == []


def test_a_close_up_is_also_looked_at_half_size_for_large_indices() -> None:
    from vision.readers.index_reader import IndexReader

    class Reader(IndexReader):
        def __init__(self, coarse: bool) -> None:
            self.imgsz, self.free_shape, self.tile, self.coarse = 640, True, True, coarse
            self.index_conf, self.sizes = 0.25, []

        def _localise(self, frame: np.ndarray, thr: float, size: int | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
            self.sizes.append(size)
            if size is None:  # the full look: one small index
                return np.array([[10, 10, 30, 40]], np.float32), np.array([0.5], np.float32)
            # the half-size look: a close-up's large index (120 px), and a small box (30 px)
            return (np.array([[100, 100, 200, 220], [300, 300, 320, 330]], np.float32),
                    np.array([0.7, 0.6], np.float32))

    frame = np.zeros((640, 640, 3), np.uint8)
    both = Reader(coarse=True)
    boxes, scores, coarse = both.index_looks(frame)
    assert both.sizes == [None, 320]
    assert boxes.tolist() == [[10, 10, 30, 40], [100, 100, 200, 220]]
    assert scores.tolist() == pytest.approx([0.5, 0.7]) and coarse.tolist() == [False, True]
    one = Reader(coarse=False)
    assert one.index_boxes(frame)[0].tolist() == [[10, 10, 30, 40]] and one.sizes == [None]

    # What the coarse look boxes counts only where the heads are sure it is an index (it
    # also boxes large art: a card back's letter).
    class Heads(_Cuts):
        def read(self, patches: np.ndarray) -> dict[str, np.ndarray]:
            n = len(patches)
            return {"rank": np.full((n, 13), 1 / 13), "suit": np.full((n, 4), 0.25),
                    "orient": np.zeros((n, 4)), "is_index": np.array([0.6, 0.95, 0.6])}

    both.heads, both.faint_below, both.faint_index, both.ocr = Heads(), 0.0, 0.9, None
    three = np.array([[10, 10, 30, 40], [100, 100, 200, 220], [300, 300, 400, 420]],
                     np.float32)
    read = both.read_indices(frame, three, np.full(3, 0.5, np.float32),
                             looks=np.array([False, True, True]))
    assert [r.box[0] for r in read] == [10, 100]


def test_a_small_frame_is_also_read_magnified_where_only_sure_readings_count() -> None:
    from vision.readers.index_reader import FULL_LOOK, MAGNIFIED_LOOK, IndexReader

    class Reader(IndexReader):
        def __init__(self, magnify: float) -> None:
            self.imgsz, self.free_shape, self.tile, self.coarse = 640, True, True, False
            self.index_conf, self.magnify = 0.25, magnify

        def _localise(self, frame: np.ndarray, thr: float, size: int | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
            if frame.shape[:2] == (480, 640):  # the frame itself: one index
                return np.array([[20, 20, 40, 50]], np.float32), np.array([0.5], np.float32)
            # each tile, magnified to 640 px: an index by its top-left corner
            assert frame.shape[:2] == (640, 640)
            return np.array([[40, 40, 80, 100]], np.float32), np.array([0.6], np.float32)

    frame = np.zeros((480, 640, 3), np.uint8)
    assert Reader(1.0).tiles(640, 480) == []
    tiles = Reader(2.0).tiles(640, 480)
    assert [t[0][:2] for t in tiles] == [(0, 0), (240, 0), (320, 0), (0, 160), (240, 160),
                                         (320, 160)]
    assert all(x1 - x0 == 320 and y1 - y0 == 320 and s == 2.0 for (x0, y0, x1, y1), s in tiles)
    assert Reader(2.0).tiles(1280, 720) == Reader(1.0).tiles(1280, 720)  # a large frame's own
    boxes, scores, looks = Reader(2.0).index_looks(frame)
    got = sorted(zip(boxes.tolist(), looks.tolist(), strict=True))
    # The first tile's index is the one the frame itself showed; the others only a tile found.
    assert got[0] == ([20, 20, 40, 50], FULL_LOOK) and len(got) == 6
    assert {look for _, look in got[1:]} == {MAGNIFIED_LOOK}
    assert [20, 180, 40, 210] in boxes.tolist() and [340, 180, 360, 210] in boxes.tolist()

    class Heads(_Cuts):  # every patch a QS, read as sure as its rank
        def read(self, patches: np.ndarray) -> dict[str, np.ndarray]:
            rank = np.full((3, 13), 0.0)
            rank[:, RANKS.index("Q")] = [0.5, 0.95, 0.6]
            suit = np.zeros((3, 4))
            suit[:, SUITS.index("S")] = 1.0
            return {"rank": rank, "suit": suit, "orient": np.zeros((3, 4)),
                    "is_index": np.ones(3)}

    reader = Reader(2.0)
    reader.heads, reader.faint_below, reader.ocr, reader.magnified_sure = Heads(), 0.0, None, 0.85
    reader.regrow = reader.gaps = False
    three = np.array([[10, 10, 30, 40], [100, 100, 120, 130], [300, 300, 320, 330]], np.float32)
    read = reader.read_indices(frame, three, np.full(3, 0.5, np.float32),
                               looks=np.array([FULL_LOOK, MAGNIFIED_LOOK, MAGNIFIED_LOOK]))
    # the frame's own unsure reading stays; of the magnified tiles' only the sure one
    assert [r.box[0] for r in read] == [10, 100]


def test_two_boxes_of_one_index_keep_the_surer_reading() -> None:
    from vision.readers.index_reader import surest_of_each

    loose = reading("QH", (10, 10, 40, 50), p=0.6)  # the full look's box, read unsurely
    tight = reading("QH", (12, 12, 42, 52), p=0.95)  # the half-size look's, read surely
    apart = reading("7C", (200, 10, 230, 50), p=0.5)
    assert surest_of_each([loose, apart, tight]) == [apart, tight]
    assert surest_of_each([loose, apart]) == [loose, apart]


def test_detect_takes_folders(tmp_path) -> None:  # noqa: ANN001
    from vision.cli import _expand_images

    (tmp_path / "b.jpg").write_bytes(b"")
    (tmp_path / "a.PNG").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("")
    (tmp_path / ".hidden.jpg").write_bytes(b"")
    (tmp_path / "c.tif").write_bytes(b"")
    (tmp_path / "d.heic").write_bytes(b"")  # listed, so that it is refused by name
    got = _expand_images([str(tmp_path), "x.jpg"])
    assert got == [str(tmp_path / n) for n in ("a.PNG", "b.jpg", "c.tif", "d.heic")] + ["x.jpg"]


def test_the_shipped_index_reader_reads_a_rendered_table() -> None:
    index_reader = _shipped_models_and_decks()
    from vision.training.scenes import render_scene

    reader = index_reader.IndexReader(threads=1, ocr=False)
    rng = np.random.default_rng(11)
    scene = render_scene(rng, ["standard"], kind="scatter", clean=True,
                         codes=["2C", "7D", "QH", "AS", "TS"], card_height=170)
    boxes, scores = reader.index_boxes(scene.image, 0.05)
    assert boxes.shape[1] == 4 and len(boxes) == len(scores)
    dets = reader.detect(scene.image, conf=0.0)
    assert all(code in CARD_CODES for code in dets.labels)
    assert len(set(dets.labels)) == len(dets.labels)  # one deck: each code once


def test_auto_reads_photos_with_the_hybrid_and_the_table_with_the_card_reader() -> None:
    from vision.readers import index_reader, load
    from vision.readers.detector import CardDetector

    pytest.importorskip("onnxruntime")
    if not index_reader.available():
        pytest.skip("the index models are not installed")
    photo = load.load_reader("auto", threads=1, ocr=False)
    assert isinstance(photo, index_reader.IndexReader) and photo.card_detector is not None
    assert photo.card_detector.classifier is not None  # the crop classifier votes too
    # Photos: the localiser's boxes down to 0.1 (the heads' is-index weighs each); at the
    # table the reader's own 0.25.
    assert photo.index_conf == load.PHOTO_INDEX_CONF == 0.1
    assert photo.faint_below == load.PHOTO_FAINT_BELOW == 0.25
    assert load.load_reader("hybrid", threads=1, ocr=False, table=True).index_conf == 0.25
    # Photos: the OCR votes only where its rank explains the index well; the table as before.
    assert photo.ocr_sure == load.PHOTO_OCR_SURE == -4.0
    assert load.load_reader("hybrid", threads=1, ocr=False, table=True).ocr_sure == -math.inf
    assert load.load_reader("index", threads=1, ocr=False, index_conf=0.3).index_conf == 0.3
    assert isinstance(load.load_reader("auto", threads=1, table=True), CardDetector)
    assert isinstance(load.load_reader("auto", "models/cards.onnx", threads=1),
                      CardDetector)  # a whole-card model named: the card reader


def test_photos_are_read_with_the_photo_models_and_a_taught_deck_with_its_own() -> None:
    """Photos get the photo localiser and heads where installed; the table, and a deck
    profile (whose layers read the feature of the heads it was refitted on), the others."""
    from vision.readers import index_heads, index_reader, load
    from vision.readers.teach_index import shipped_layers

    pytest.importorskip("onnxruntime")
    if not index_reader.available():
        pytest.skip("the index models are not installed")
    photo_loc, photo_heads = index_reader.photo_localiser_path(), index_heads.photo_heads_path()
    photo = load.load_reader("index", threads=1, ocr=False)
    assert photo.localiser_path == photo_loc and photo.heads.path == photo_heads
    table = load.load_reader("hybrid", threads=1, ocr=False, table=True)
    assert table.localiser_path == index_reader.localiser_path()
    assert table.heads.path == index_heads.heads_path()
    profile = {"kind": index_heads.DECK_KIND,
               **{k: v.tolist() for k, v in shipped_layers().items()}}
    taught = load.load_reader("index", threads=1, ocr=False, deck=profile)
    assert taught.localiser_path == index_reader.localiser_path()
    assert taught.heads.path == index_heads.heads_path()
    assert taught.heads.layers is not None
    # A profile given to a reader already reading with the photo heads moves it onto the
    # heads the profile was refitted on.
    photo.use_deck(profile)
    assert photo.heads.path == index_heads.heads_path() and photo.heads.layers is not None


def test_the_table_reads_an_unjudged_deck_with_courts_taken_from_the_indices() -> None:
    from vision.readers import index_reader, load
    from vision.readers.deck_check import DeckCheck

    pytest.importorskip("onnxruntime")
    if not index_reader.available():
        pytest.skip("the index models are not installed")
    table = load.checked_table_reader()
    assert isinstance(table, DeckCheck) and table.choice is None
    assert table.active.courts_by_index and table.active.card_detector.classifier is not None
    # Photos, where no deck is judged, keep the crop classifier's word on the courts.
    assert not load.load_reader("hybrid", threads=1, ocr=False).courts_by_index


def test_resolve_reader_names_what_auto_loads() -> None:
    from vision.readers import index_reader, load

    assert load.resolve_reader("index") == "index"
    assert load.resolve_reader("auto", "models/cards.onnx") == "card"
    if index_reader.available():
        assert load.resolve_reader("auto") == load.PHOTO_READER
        assert load.resolve_reader("auto", table=True) == load.DEFAULT_READER


def test_one_deck_a_code_read_on_two_cards_goes_to_the_surer_and_the_other_reads_on() -> None:
    from vision.detections import Detections
    from vision.readers.index_reader import one_per_deck

    def dist(first: str, p: float, second: str) -> np.ndarray:
        d = np.full(52, (1 - p - 0.2) / 50)
        d[CARD_CODES.index(first)], d[CARD_CODES.index(second)] = p, 0.2
        return d

    boxes = np.array([[0, 0, 50, 70], [100, 0, 150, 70], [200, 0, 250, 70]], np.float32)
    dists = [dist("9D", 0.9, "6D"), dist("9D", 0.6, "6D"), dist("KS", 0.8, "KC")]
    conf = np.sqrt(np.array([0.9, 0.6, 0.8], np.float32))
    dets = Detections(boxes, conf, np.array([CARD_CODES.index(c) for c in ("9D", "9D", "KS")]))
    got = one_per_deck(dets, dists, np.ones(3), decks=1, min_conf=0.4)
    assert sorted(got.labels) == ["6D", "9D", "KS"]
    assert got.xyxy[got.labels.index("6D")].tolist() == [100, 0, 150, 70]
    assert sorted(one_per_deck(dets, dists, np.ones(3), decks=2, min_conf=0.4).labels) == [
        "9D", "9D", "KS"]
    # The next code too unlikely: the card is dropped rather than named at random.
    assert sorted(one_per_deck(dets, dists, np.ones(3), decks=1, min_conf=0.5).labels) == [
        "9D", "KS"]


def test_a_photo_is_read_in_negative_only_where_indices_show_there_alone() -> None:
    from vision.detections import Detections
    from vision.readers.index_reader import IndexReader, overlapped

    assert overlapped(np.array([[0, 0, 10, 20]], np.float32),
                      np.array([[1, 1, 11, 21], [50, 50, 60, 70]], np.float32)).tolist() == [
        True, False]

    class Reader(IndexReader):
        def __init__(self, negative_boxes: np.ndarray) -> None:
            self.negative_boxes, self.reads = negative_boxes, 0

        def index_looks(self, frame: np.ndarray, index_conf: float | None = None
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            n = len(self.negative_boxes)
            return self.negative_boxes, np.full(n, 0.9, np.float32), np.zeros(n, bool)

        def _read(self, frame: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                  min_conf: float, used: list[IndexReading] | None = None,
                  looks: np.ndarray | None = None) -> Detections:
            self.reads += 1
            if used is not None:
                used.extend([reading("QS", (2, 2, 12, 22)), reading("4H", (102, 2, 112, 22)),
                             # a dark card back's large letter, in the negative: mid-card
                             reading("KC", (215, 20, 235, 50))])
            return Detections(np.array([[0, 0, 50, 70], [100, 0, 150, 70], [200, 0, 250, 70],
                                        [0, 80, 50, 150]], np.float32),
                              np.full(4, 0.9, np.float32),
                              np.array([CARD_CODES.index(c) for c in ("QS", "4H", "KC", "7D")]))

    frame = np.zeros((160, 260, 3), np.uint8)
    seen = Detections(np.array([[0, 0, 50, 70]], np.float32), np.array([0.9], np.float32),
                      np.array([CARD_CODES.index("QS")]))
    found = np.array([[2, 2, 12, 22]], np.float32)
    same = Reader(found)  # the negative shows only the index the photo showed: not read
    assert same._and_negative(frame, found, seen, None, 0.5) is seen and same.reads == 0
    more = Reader(np.array([[2, 2, 12, 22], [102, 2, 112, 22]], np.float32))
    got = more._and_negative(frame, found, seen, None, 0.5)
    # QS read once; 4H added, its index by a corner of its box; not the KC whose only index is
    # in the middle of its box (a back's art), nor the 7D that no index was read for (the
    # crop classifier never saw a card in negative).
    assert more.reads == 1 and got.labels == ["QS", "4H"]
    # The negative look's index readings are handed back when asked for.
    readings: list[IndexReading] = []
    Reader(np.array([[102, 2, 112, 22]], np.float32))._and_negative(frame, found, seen, None,
                                                                     0.5, readings)
    assert [r.code for r in readings] == ["QS", "4H", "KC"]


def two_looks_reader(other: Any, negative: bool = False, level_below: float = 0.0,
                     sharpen: float = 0.0) -> Any:
    """An index reader whose localiser finds a QS index in a frame and, in the frame's other
    look (``other(picture)`` says whether a picture is it), a 4H one besides; ``looks``
    counts the pictures it localised in."""
    from vision.detections import Detections
    from vision.readers.index_reader import IndexReader

    class Reader(IndexReader):
        def __init__(self) -> None:
            self.face, self.conf, self.negative = None, 0.5, negative
            self.level_below, self.looks = level_below, 0
            self.sharpen, self.imgsz = sharpen, 640

        def index_looks(self, frame: np.ndarray, index_conf: float | None = None
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            self.looks += 1
            boxes = [[2, 2, 12, 22], [102, 2, 112, 22]][:2 if other(frame) else 1]
            return (np.array(boxes, np.float32), np.full(len(boxes), 0.9, np.float32),
                    np.zeros(len(boxes), bool))

        def _read(self, frame: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                  min_conf: float, used: list[IndexReading] | None = None,
                  looks: np.ndarray | None = None) -> Detections:
            codes = ["QS", "4H"][:len(boxes)]
            if used is not None:
                used.extend(reading(c, tuple(b)) for c, b in zip(codes, boxes.tolist(),
                                                                  strict=True))
            cards = [[0, 0, 50, 70], [100, 0, 150, 70]][:len(codes)]
            return Detections(np.array(cards, np.float32), np.full(len(codes), 0.9, np.float32),
                              np.array([CARD_CODES.index(c) for c in codes]))

    return Reader()


def test_a_frame_is_read_with_the_index_readings_of_both_looks() -> None:
    # The photo (black) shows a QS index; its negative (white) a 4H one besides.
    def looks() -> Any:
        return two_looks_reader(lambda f: f.mean() >= 128, negative=True)

    frame = np.zeros((160, 260, 3), np.uint8)
    dets, readings = looks().read_frame(frame)
    assert dets.labels == ["QS", "4H"] == looks().detect(frame).labels
    # The photo's own reading first, then the negative's (its QS and the 4H it alone shows).
    assert [r.code for r in readings] == ["QS", "QS", "4H"]


def test_a_dim_frame_is_also_read_with_its_levels_stretched() -> None:
    from vision.readers.index_reader import grey_percentiles, levelled

    # A frame whose grey levels span the whole range is left alone; a dim one is stretched
    # to black and white, every channel alike (a red suit stays red).
    full = np.zeros((100, 100, 3), np.uint8)
    full[50:] = 255
    assert levelled(full, 170) is None
    dim = np.full((100, 100, 3), 10, np.uint8)
    dim[40:60, 40:60] = (10, 10, 60)  # a dark red patch
    dim[60:] = 50
    out = levelled(dim, 170)
    assert out is not None and out.dtype == np.uint8
    assert out[0, 0].tolist() == [0, 0, 0] and out[99, 99].tolist() == [255, 255, 255]
    assert out[50, 50, 2] == 255 and out[50, 50, 0] == 0
    assert levelled(dim, 30) is None  # (levels 10-50: 40 apart)
    # Its percentiles come from the grey histogram, exactly as numpy's would.
    rng = np.random.default_rng(5)
    for shape, top in (((37, 53), 256), ((480, 640), 90), ((1, 7), 3)):
        grey = rng.integers(0, top, shape).astype(np.uint8)
        qs = (1.0, 99.5, 50.0, 33.3)
        assert grey_percentiles(grey, qs) == np.percentile(grey, qs).tolist()

    # In the dim frame the localiser finds a QS index; stretched, a 4H one besides.
    def stretched(f: np.ndarray) -> bool:
        return bool(f.max() == 255)

    frame = np.full((160, 260, 3), 20, np.uint8)
    frame[80:] = 70
    assert two_looks_reader(stretched).detect(frame).labels == ["QS"]
    reader = two_looks_reader(stretched, level_below=170.0)
    dets, readings = reader.read_frame(frame)
    assert dets.labels == ["QS", "4H"] and [r.code for r in readings] == ["QS", "QS", "4H"]
    # A frame that spans the range is looked at once.
    frame[80:] = 250
    reader = two_looks_reader(stretched, level_below=170.0)
    assert reader.detect(frame).labels == ["QS"] and reader.looks == 1


def test_a_small_frame_is_also_read_with_its_edges_sharpened() -> None:
    import cv2

    from vision.readers.index_reader import sharpened

    # A soft edge between grey 100 and 150 is made steeper, overshooting on both sides; a
    # flat frame, or one sharpened by nothing, is left as it was.
    soft = np.full((60, 120, 3), 100, np.uint8)
    soft[:, 60:] = 150
    soft = cv2.GaussianBlur(soft, (0, 0), 1.5)
    out = sharpened(soft, 1.0)
    assert out.dtype == np.uint8 and out.shape == soft.shape
    steepest = np.abs(np.diff(soft[30, :, 0].astype(int))).max()
    assert np.abs(np.diff(out[30, :, 0].astype(int))).max() > steepest
    assert out.min() < 100 and out.max() > 150
    flat = np.full((60, 120, 3), 77, np.uint8)
    assert np.array_equal(sharpened(flat, 2.0), flat)
    assert np.array_equal(sharpened(soft, 0.0), soft)

    # In the soft frame the localiser finds a QS index; sharpened, a 4H one besides.
    def sharp(f: np.ndarray) -> bool:
        return bool(f.min() < 99)

    frame = np.full((160, 260, 3), 100, np.uint8)
    frame[:, 130:] = 150
    frame = cv2.GaussianBlur(frame, (0, 0), 1.5)
    assert two_looks_reader(sharp).detect(frame).labels == ["QS"]
    reader = two_looks_reader(sharp, sharpen=1.0)
    dets, readings = reader.read_frame(frame)
    assert dets.labels == ["QS", "4H"] and [r.code for r in readings] == ["QS", "QS", "4H"]
    assert reader.looks == 2
    # A frame over twice the localiser's size is sharpened by its shrinking: looked at once.
    large = np.full((200, 1400, 3), 100, np.uint8)
    large[:, 700:] = 150
    large = cv2.GaussianBlur(large, (0, 0), 1.5)
    reader = two_looks_reader(sharp, sharpen=1.0)
    assert reader.detect(large).labels == ["QS"] and reader.looks == 1


def test_a_card_read_in_the_levelled_look_on_a_card_already_read_is_that_card() -> None:
    from vision.detections import Detections
    from vision.readers.index_reader import IndexReader

    class Reader(IndexReader):
        """The frame reads an A♠ (its index unsurely as A♦); stretched, the index reads A♦
        on nearly the same box, and a 4H index besides on a card of its own."""

        def __init__(self) -> None:
            self.face, self.conf, self.negative, self.level_below = None, 0.5, False, 170.0

        def index_looks(self, frame: np.ndarray, index_conf: float | None = None
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            boxes = [[2, 2, 12, 22], [102, 2, 112, 22]][:1 if frame.max() < 255 else 2]
            return (np.array(boxes, np.float32), np.full(len(boxes), 0.9, np.float32),
                    np.zeros(len(boxes), bool))

        def _read(self, frame: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                  min_conf: float, used: list[IndexReading] | None = None,
                  looks: np.ndarray | None = None) -> Detections:
            levelled = frame.max() == 255
            if used is not None:
                used.append(reading("AD", (2, 2, 12, 22), p=0.8 if levelled else 0.5))
                if levelled:
                    used.append(reading("4H", (102, 2, 112, 22)))
            cards, codes = ([[4, 0, 52, 72], [100, 0, 150, 70]], ["AD", "4H"]) if levelled \
                else ([[0, 0, 50, 70]], ["AS"])
            return Detections(np.array(cards, np.float32), np.full(len(codes), 0.9, np.float32),
                              np.array([CARD_CODES.index(c) for c in codes]))

    frame = np.full((160, 260, 3), 20, np.uint8)
    frame[80:] = 70
    assert Reader().detect(frame).labels == ["AS", "4H"]


def test_an_index_read_unsurely_in_the_photo_is_read_again_in_its_negative() -> None:
    from vision.detections import Detections
    from vision.readers.index_reader import IndexReader

    class Reader(IndexReader):
        def __init__(self, sureness: float) -> None:
            self.sureness, self.negative_reads = sureness, 0
            self.face, self.negative, self.conf = None, True, 0.5

        def index_looks(self, frame: np.ndarray, index_conf: float | None = None
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            return (np.array([[2, 2, 12, 22]], np.float32), np.array([0.9], np.float32),
                    np.zeros(1, bool))

        def _read(self, frame: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                  min_conf: float, used: list[IndexReading] | None = None,
                  looks: np.ndarray | None = None) -> Detections:
            negative = bool(frame[0, 0, 0])
            self.negative_reads += negative
            r = reading("QS", (2, 2, 12, 22), p=1.0, is_index=0.9 if negative else self.sureness)
            if used is not None:
                used.append(r)
            if r.confidence < min_conf:
                return Detections(np.zeros((0, 4), np.float32), np.zeros(0, np.float32),
                                  np.zeros(0, int))
            return Detections(np.array([[0, 0, 50, 70]], np.float32),
                              np.array([r.confidence], np.float32),
                              np.array([CARD_CODES.index("QS")]))

    frame = np.zeros((80, 60, 3), np.uint8)
    sure = Reader(0.8)  # the photo's reading is sure: the negative is not read
    assert sure.detect(frame).labels == ["QS"] and sure.negative_reads == 0
    unsure = Reader(0.3)  # found in both, read unsurely in the photo: read in negative too
    assert unsure.detect(frame).labels == ["QS"] and unsure.negative_reads == 1


def test_a_card_counts_as_indexed_only_by_an_index_of_its_code_in_a_corner() -> None:
    from vision.readers.index_reader import cornered

    card = (0, 0, 100, 140)
    assert cornered(card, "QS", [reading("QS", (5, 5, 20, 35))])
    assert cornered(card, "QS", [reading("QS", (80, 105, 95, 135), orient=2)])
    assert not cornered(card, "QS", [reading("QS", (40, 55, 60, 85))])  # mid-card art
    assert not cornered(card, "QS", [reading("QH", (5, 5, 20, 35))])  # another card's
    assert not cornered(card, "QS", [reading("QS", (5, 5, 20, 35), is_index=0.3)])
    assert not cornered(card, "QS", [reading("QS", (205, 5, 220, 35))])  # outside the box
    assert not cornered(card, "QS", [])
    # A close-up's large index: its centre in the middle band, the box itself by the corner.
    assert cornered(card, "QS", [reading("QS", (12, 16, 58, 82))])
    # As large as a back's letter, or the card's size: no card's corner index.
    assert not cornered(card, "QS", [reading("QS", (2, 2, 80, 100))])


def test_a_card_cut_by_the_frame_edge_has_its_middle_past_the_edge() -> None:
    from vision.readers.index_reader import cornered, past_edges

    # The held-out dark 5♥: a card 285 px tall, 101 px of it left of the frame's right edge;
    # its own index 25 px from the box's left side lies in the box's middle band.
    card, index = (539, 99, 640, 384), reading("5H", (539, 150, 590, 215))
    assert not cornered(card, "5H", [index])
    grown = past_edges(card, 640, 480)
    assert grown.tolist() == [539, 99, 539 + 285, 384]
    assert cornered(grown, "5H", [index])
    # Cut at the left edge, or a landscape card at the top or bottom: grown out past it.
    assert past_edges((0, 99, 101, 384), 640, 480).tolist() == [101 - 285, 99, 101, 384]
    assert past_edges((100, 0, 385, 101), 640, 480).tolist() == [100, 101 - 285, 385, 101]
    assert past_edges((100, 379, 385, 480), 640, 480).tolist() == [100, 379, 385, 379 + 285]
    # A card inside the frame, or cut along its longer side, is left as it is.
    assert past_edges((200, 99, 301, 384), 640, 480).tolist() == [200, 99, 301, 384]
    assert past_edges((0, 100, 285, 201), 640, 480).tolist() == [0, 100, 285, 201]


def test_a_box_over_two_overlapped_cards_is_cut_to_its_own_card() -> None:
    from vision.detections import Detections
    from vision.readers.index_reader import own_boxes

    # A spread left to right, cards 70 x 100 with 14 x 28 indices: the 9♣ lies on the K♠,
    # whose left strip shows. Both boxes were drawn around the pair.
    ks, nc = reading("KS", (4, 4, 18, 32)), reading("9C", (44, 4, 58, 32))
    dets = Detections(np.array([[0, 0, 110, 100], [0, 0, 110, 100], [200, 0, 270, 100]],
                               np.float32),
                      np.array([0.9, 0.8, 0.9], np.float32),
                      np.array([CARD_CODES.index(c) for c in ("KS", "9C", "AD")], np.int64))
    got = own_boxes(dets, [ks, nc, reading("AD", (204, 4, 218, 32))])
    k, n = got.xyxy[0], got.xyxy[1]
    assert k[0] <= 4 and k[2] <= 44  # the K♠ ends where the 9♣ lying on it begins
    assert n[0] > 18 and n[0] <= 44 and n[2] >= 100  # the 9♣ no longer covers the K♠'s strip
    assert got.xyxy[2].tolist() == [200, 0, 270, 100]  # a card alone keeps its box
    # A cascade downwards: the 9♣ lies on the K♠ below its index. The K♠ ends above the 9♣;
    # the 9♣ is not cut by the K♠ (the K♠ it covers reaches over the 9♣'s own index).
    down = own_boxes(dets[np.array([0, 1])], [reading("KS", (4, 4, 18, 32)),
                                               reading("9C", (10, 40, 24, 68))])
    k, n = down.xyxy
    assert k[1] <= 4 and 32 <= k[3] <= 40 and k[2] >= 18
    assert n[1] <= 40 and n[3] >= 68 and n[0] <= 10 and n[2] >= 24


def test_boxes_without_other_cards_inside_are_left_alone() -> None:
    from vision.detections import Detections
    from vision.readers.index_reader import own_boxes

    dets = Detections(np.array([[0, 0, 70, 100], [80, 0, 150, 100]], np.float32),
                      np.array([0.9, 0.9], np.float32),
                      np.array([CARD_CODES.index("2H"), CARD_CODES.index("3H")], np.int64))
    got = own_boxes(dets, [reading("2H", (4, 4, 18, 32)), reading("3H", (84, 4, 98, 32)),
                           reading("2H", (52, 68, 66, 96), orient=2)])
    assert np.array_equal(got.xyxy, dets.xyxy)


def test_salt_and_pepper_is_filtered_and_a_clean_frame_left_as_it_is() -> None:
    from vision.readers.detector import IMPULSE_SHARE, despeckled, impulse_share

    rng = np.random.default_rng(5)
    clean = np.full((120, 160, 3), 200, np.uint8)
    cv2.putText(clean, "10", (20, 60), cv2.FONT_HERSHEY_PLAIN, 1.0, (0, 0, 0), 1)  # thin
    cv2.line(clean, (0, 90), (159, 90), (30, 30, 30), 1)
    assert impulse_share(clean) <= IMPULSE_SHARE
    assert despeckled(clean) is clean  # a small index's 1-px strokes are kept
    noisy = clean.copy()
    spots = rng.random(clean.shape[:2])
    noisy[spots < 0.01] = 0
    noisy[spots > 0.99] = 255
    assert impulse_share(noisy) > IMPULSE_SHARE
    out = despeckled(noisy)
    away = np.abs(out.astype(int) - 200).max(axis=2) > 60
    away[50:100] = False  # the text and the line
    assert away.mean() < 0.001  # the specks are gone


def test_a_faint_box_counts_only_where_the_heads_are_sure_it_is_an_index() -> None:
    from vision.readers.index_reader import IndexReader

    class Heads(_Cuts):
        def read(self, patches: np.ndarray) -> dict[str, np.ndarray]:
            n = len(patches)
            return {"rank": np.full((n, 13), 1 / 13), "suit": np.full((n, 4), 0.25),
                    "orient": np.tile([1.0, 0, 0, 0], (n, 1)),
                    "is_index": np.array([0.95, 0.6, 0.6, 0.95])[:n]}

    reader = IndexReader.__new__(IndexReader)
    reader.heads = Heads()  # type: ignore[assignment]
    reader.faint_below, reader.faint_index = 0.25, 0.9
    frame = np.full((100, 100, 3), 200, np.uint8)
    boxes = np.array([[10 + 20 * i, 10, 20 + 20 * i, 30] for i in range(4)], np.float32)
    scores = np.array([0.12, 0.12, 0.4, 0.4], np.float32)  # faint, faint, clear, clear
    kept = reader.read_indices(frame, boxes, scores, ocr=False)
    assert [(r.score, r.is_index) for r in kept] == [(pytest.approx(0.12), 0.95),
                                                     (pytest.approx(0.4), 0.6),
                                                     (pytest.approx(0.4), 0.95)]
    reader.faint_below = 0.0  # off (the table's readers): every box the localiser gave
    assert len(reader.read_indices(frame, boxes, scores, ocr=False)) == 4


def test_every_network_of_the_hybrid_stops_its_threads_at_the_end_of_each_run() -> None:
    """The hybrid runs up to five networks a frame; a session whose threads spin on after its
    run holds the cores the next network needs (`vision.readers.onnx`)."""
    from vision.readers import index_reader, load

    pytest.importorskip("onnxruntime")
    if not index_reader.available():
        pytest.skip("the index models are not installed")
    reader = load.load_reader("hybrid", threads=2)
    sessions = [reader.session, reader.heads.session]
    if reader.ocr is not None:
        sessions.append(reader.ocr.session)
    if reader.card_detector is not None:
        sessions.append(reader.card_detector.session)
        if reader.card_detector.classifier is not None:
            sessions.append(reader.card_detector.classifier.session)
    assert len(sessions) >= 2
    for s in sessions:
        opts = s.get_session_options()
        assert opts.get_session_config_entry("session.force_spinning_stop") == "1"
        assert (opts.intra_op_num_threads, opts.inter_op_num_threads) == (2, 1)


@pytest.mark.parametrize(("orient", "grown"), [(0, (10, 20, 30, 50)), (1, (0, 20, 30, 40)),
                                               (2, (10, 10, 30, 40)), (3, (10, 20, 40, 40))])
def test_a_box_grows_toward_the_foot_of_its_index(orient: int, grown: tuple[int, ...]) -> None:
    from vision.readers.index_reader import foot_grown

    # A 20 x 20 box grown half its length toward where the index's suit lies under the rank
    # (the top pointing up, right, down, left), kept inside the 100 x 45 frame.
    assert foot_grown((10, 20, 30, 40), orient, 100, 45) == pytest.approx(
        tuple(min(v, 45) if k % 2 else v for k, v in enumerate(grown)))


def _card_on_felt(deck: str, code: str, height: int) -> tuple[np.ndarray, np.ndarray]:
    """A rendered card on green felt, and its top-left index box cut off under the rank (the
    top 55% of the index: the localiser's box around a rank alone)."""
    from vision.render.decks import corner_index_box, render_card

    card = render_card(deck, code, height)
    h, w = card.shape[:2]
    frame = np.full((h + 40, w + 40, 3), (40, 110, 40), np.uint8)
    alpha = card[:, :, 3:4] / 255.0
    frame[20:20 + h, 20:20 + w] = (card[:, :, :3] * alpha
                                   + frame[20:20 + h, 20:20 + w] * (1 - alpha)).astype(np.uint8)
    x1, y1, x2, y2 = corner_index_box(deck, code)
    box = [20 + x1 * w, 20 + y1 * h, 20 + x2 * w, 20 + (y1 + 0.55 * (y2 - y1)) * h]
    return frame, np.array([box], np.float32)


@pytest.mark.parametrize("code", ["7H", "2S", "KS"])
def test_an_index_boxed_at_its_rank_is_read_again_with_its_suit(code: str) -> None:
    index_reader = _shipped_models_and_decks()
    from vision.readers.index_heads import table_heads_path
    from vision.render.plan import DEMO_DECK

    frame, box = _card_on_felt(DEMO_DECK, code, 120)
    score = np.array([0.3], np.float32)
    kw: dict[str, Any] = {"card_boxes": False, "heads": table_heads_path(), "ocr": False}
    cut = index_reader.IndexReader(regrow=False, **kw).read_indices(frame, box, score)[0]
    # Without the suit the heads read the rank and guess the suit unsurely.
    assert cut.confidence < index_reader.REGROW_BELOW
    assert cut.rank.max() >= index_reader.REGROW_RANK
    again = index_reader.IndexReader(**kw).read_indices(frame, box, score)[0]
    assert again.code == code and again.confidence > 0.9
    assert again.box[3] > box[0, 3] and again.box[:3] == pytest.approx(box[0, :3])


def test_a_regrown_reading_that_changes_the_rank_is_not_kept() -> None:
    from vision.readers.index_reader import IndexReader

    reader = IndexReader.__new__(IndexReader)

    class Heads(_Cuts):
        def read(self, patches: np.ndarray) -> dict[str, np.ndarray]:
            # The grown box holds the next card's index: surely a 9♣.
            n = len(patches)
            return {"rank": np.tile(_onehot(13, RANKS.index("9"), 0.99), (n, 1)),
                    "suit": np.tile(_onehot(4, SUITS.index("C"), 0.99), (n, 1)),
                    "orient": np.tile(np.eye(4)[0], (n, 1)), "is_index": np.ones(n)}

    reader.heads = Heads()  # type: ignore[assignment]
    grey = np.zeros((100, 100), np.uint8)
    unsure = reading("7H", (10, 10, 30, 30), p=0.7)
    sure = reading("QS", (50, 10, 70, 30), p=0.99)
    out = reader.regrown(grey, [unsure, sure])
    assert out == [unsure, sure]
    # The same rank read surer is kept, with the grown box.
    reader.heads.read = lambda p: {  # type: ignore[method-assign]
        "rank": np.tile(_onehot(13, RANKS.index("7"), 0.99), (len(p), 1)),
        "suit": np.tile(_onehot(4, SUITS.index("H"), 0.99), (len(p), 1)),
        "orient": np.tile(np.eye(4)[0], (len(p), 1)), "is_index": np.ones(len(p))}
    out = reader.regrown(grey, [unsure, sure])
    assert out[0].code == "7H" and out[0].box == (10, 10, 30, 40) and out[1] is sure


def test_gap_boxes_lie_at_the_spreads_steps_between_sure_indices() -> None:
    from vision.readers.index_reader import spread_gap_boxes

    # Indices 20 px wide every 30 px along a row tilted 1 in 10; those at steps 2 and 3 are
    # missing.
    row = [reading("2C", (30 * k, 3 * k, 30 * k + 20, 3 * k + 30)) for k in (0, 1, 4)]
    boxes = spread_gap_boxes(row)
    assert boxes == [pytest.approx((60, 6, 80, 36)), pytest.approx((90, 9, 110, 39))]
    # Not where another index lies between, nor for indices of another size or way up, nor
    # with no spacing to go by.
    assert spread_gap_boxes(row + [reading("3C", (75, 7, 95, 37))]) == []
    assert spread_gap_boxes([row[0], row[1], reading("4C", (120, 12, 150, 57))]) == []
    assert spread_gap_boxes([row[0], row[1], reading("4C", (120, 12, 140, 42), orient=2)]) == []
    assert spread_gap_boxes([row[0], row[2]]) == []
    # A gap that is not a whole number of steps is no spread.
    assert spread_gap_boxes([row[0], row[1], reading("5C", (135, 13, 155, 43))]) == []


def test_a_spreads_unboxed_indices_are_read_at_its_steps() -> None:
    index_reader = _shipped_models_and_decks()
    from vision.readers.index_heads import table_heads_path
    from vision.render.decks import corner_index_box, render_card
    from vision.render.plan import DEMO_DECK

    # Five cards spread left to right, each covering the one before but its index strip.
    codes, height, step = ["4C", "TC", "QC", "AC", "7H"], 160, 48
    w = render_card(DEMO_DECK, codes[0], height).shape[1]
    frame = np.full((height + 40, 20 + step * 4 + w + 20, 3), (40, 110, 40), np.uint8)
    boxes = []
    for k, code in enumerate(codes):
        card = render_card(DEMO_DECK, code, height)
        x, h = 20 + step * k, card.shape[0]
        alpha = card[:, :, 3:4] / 255.0
        frame[20:20 + h, x:x + w] = (card[:, :, :3] * alpha
                                     + frame[20:20 + h, x:x + w] * (1 - alpha)).astype(np.uint8)
        x1, y1, x2, y2 = corner_index_box(DEMO_DECK, code)
        boxes.append([x + x1 * w, 20 + y1 * h, x + x2 * w, 20 + y2 * h])
    found = np.array([boxes[k] for k in (0, 1, 4)], np.float32)  # the localiser missed two
    score = np.full(len(found), 0.6, np.float32)
    kw: dict[str, Any] = {"card_boxes": False, "heads": table_heads_path(), "ocr": False}
    without = index_reader.IndexReader(gaps=False, **kw).read_indices(frame, found, score)
    assert sorted(r.code for r in without) == sorted(["4C", "TC", "7H"])
    read = index_reader.IndexReader(**kw).read_indices(frame, found, score)
    assert sorted(r.code for r in read) == sorted(codes)
    assert all(r.confidence >= index_reader.GAP_SURE for r in read)


def test_a_card_read_in_negative_over_another_stands_where_the_frame_read_it_alike() -> None:
    """A dark cascade (held-out dark recolour, scene 7): the Q♠'s index, read Q♠ in the frame
    too but too unsurely for a card there, lies in the box the A♠'s index implies. Read in
    negative it stands, since both looks read that index alike; not where the frame read it
    as another card, or never boxed it."""
    from vision.readers.index_reader import read_otherwise

    card = (200, 100, 380, 235)
    negative = [reading("QS", (325, 179, 374, 223)), reading("QS", (203, 104, 256, 156))]
    neighbours = [reading("8D", (335, 163, 386, 209)), reading("AS", (307, 204, 359, 242))]
    assert not read_otherwise("QS", card, negative,
                              [*neighbours, reading("QS", (325, 181, 372, 223), p=0.8)])
    assert read_otherwise("QS", card, negative,
                          [*neighbours, reading("QD", (325, 181, 372, 223))])
    assert read_otherwise("QS", card, negative, neighbours)
    # (an index of its code outside the box is not its own)
    assert read_otherwise("QS", (0, 0, 100, 100), negative,
                          [reading("QS", (325, 181, 372, 223))])
