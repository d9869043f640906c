"""The synthetic table: the game laid out in time, the script of typed events, frames with
their true card boxes, video files with ground truth, and the demo source."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from deck_helpers import needs_decks

from companion.events import read_log
from vision.render.demo import demo_source, simulated_round
from vision.render.plan import VISUAL_EVENTS, RenderConfig, plan_game, split_log
from vision.render.table import TableVideo, render_video
from vision.sources.files import VideoFileSource

LOG = [
    {"event": "game", "game": "michigan-rummy", "players": ["Ann", "Bob", "Cy", "Dee"]},
    {"event": "round", "dealer": "Ann"},
    {"event": "dummy", "action": "keep"},
    {"event": "play", "player": "Bob", "card": "2S"},
    {"event": "play", "player": "Ann", "card": "3S"},
    {"event": "play", "player": "Ann", "card": "4H"},
]


def merge(visual: list[dict], script: list[dict]) -> list[dict]:
    """Rebuild a log from visual events and the script (what `watch` does)."""
    out, s = [], list(script)
    for k, ev in enumerate(visual + [None]):  # type: ignore[list-item]
        while s and s[0]["at"] <= k:
            out.append({x: v for x, v in s.pop(0).items() if x != "at"})
        if ev is not None:
            out.append(ev)
    return out


def test_split_log_and_merge_rebuild_the_log() -> None:
    events = simulated_round("oh-claire", seed=4)
    visual, script = split_log(events)
    assert all(e["event"] in VISUAL_EVENTS for e in visual)
    assert all(e["event"] not in VISUAL_EVENTS for e in script)
    assert merge(visual, script) == events
    assert script[0]["event"] == "game" and script[0]["at"] == 0


def test_plan_puts_moves_in_order_with_room_to_settle() -> None:
    cfg = RenderConfig()
    truth = plan_game(LOG, cfg)
    assert [m.event["card"] for m in truth.moves] == ["2S", "3S", "4H"]
    assert [m.seat for m in truth.moves] == [1, 0, 0]
    for a, b in zip(truth.moves, truth.moves[1:], strict=False):
        assert a.t0 < a.t_placed < a.t_free <= b.t0
    assert truth.duration > truth.moves[-1].t_free
    assert [v["t_placed"] for v in truth.visual] == [round(m.t_placed, 3) for m in truth.moves]


def test_frames_show_each_card_where_it_was_laid() -> None:
    video = TableVideo(LOG, RenderConfig(seed=2))
    prof = video.profile()
    end = video.render(video.duration)
    assert end.image.shape == (480, 640, 3) and end.image.dtype == np.uint8
    codes = [c for c, _, _ in end.cards]
    assert codes == ["2S", "3S", "4H"]
    for code, box, _visible in end.cards:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        board = prof.image_to_board(np.array([[cx, cy]]))
        zone = int(prof.zone_index(board)[0])
        want_seat = 1 if code == "2S" else 0
        assert prof.zones[zone].seat == want_seat
        assert 0 <= box[0] < box[2] <= 640 and 0 <= box[1] < box[3] <= 480
        assert 40 < box[3] - box[1] < 160  # big enough to read
    # 3S lies under 4H: still visible by its corner index
    assert [v for _, _, v in end.cards] == [True, True, True]
    before = video.render(video.truth.moves[0].t0 - 0.05)
    assert before.cards == []
    # the picture changes where the card lands
    diff = np.abs(end.image.astype(int) - before.image.astype(int)).sum(axis=2)
    x1, y1, x2, y2 = (int(v) for v in end.cards[0][1])
    assert diff[y1:y2, x1:x2].mean() > 20


def test_hand_covers_the_card_while_laying_it() -> None:
    video = TableVideo(LOG, RenderConfig(seed=0))
    mv = video.truth.moves[0]
    during = video.render(mv.t_placed + 0.05)
    (code, _, visible), = during.cards
    after = video.render(mv.t_free + 0.05)
    assert code == "2S" and after.cards[0][2] is True
    assert not np.array_equal(during.image, after.image)
    _ = visible  # may or may not be covered depending on the seat; the images differ


def test_rendering_is_deterministic() -> None:
    a = TableVideo(LOG, RenderConfig(seed=7)).render(2.0).image
    b = TableVideo(LOG, RenderConfig(seed=7)).render(2.0).image
    c = TableVideo(LOG, RenderConfig(seed=8)).render(2.0).image
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_render_video_writes_video_and_ground_truth(tmp_path: Path) -> None:
    cfg = RenderConfig(fps=5.0, width=320, height=240)
    truth = render_video(LOG, tmp_path / "t.avi", cfg)
    src = VideoFileSource(tmp_path / "t.avi")
    frames = list(src)
    assert len(frames) == int(truth.duration * 5.0) + 1
    assert frames[0].image.shape == (240, 320, 3)
    logged = [dict(e.data) for e in read_log(tmp_path / "t.truth.jsonl").events]
    assert [{k: v for k, v in e.items() if not k.startswith("t_")} for e in logged] == LOG
    script = [dict(e.data) for e in read_log(tmp_path / "t.script.jsonl").events]
    assert [(e["event"], e["at"]) for e in script] == [("game", 0), ("round", 0), ("dummy", 0)]


def test_demo_source_delivers_timed_frames_with_truth() -> None:
    src, truth = demo_source(1)
    frames = [src.read() for _ in range(3)]
    assert [f.index for f in frames if f] == [0, 1, 2]
    assert frames[1] is not None and abs(frames[1].t - 0.1) < 1e-9
    assert src.last is not None and src.last.index == 2
    assert truth.events[0]["event"] == "game"
    assert sum(e["event"] == "play" for e in truth.events) > 20
    src.close()
    assert src.read() is None


@needs_decks
def test_demo_deck_atlas_matches_the_svg_rendering() -> None:
    """The shipped atlas is the demo deck itself (so the demo needs no SVG renderer)."""
    import cv2

    from vision.render.decks import render_card
    from vision.render.paint import CANVAS_SCALE, card_sprite
    from vision.render.plan import DEMO_DECK

    sprite = card_sprite(DEMO_DECK, "QH")
    h, w = sprite.shape[:2]
    assert h == round(34 * CANVAS_SCALE)
    ref = cv2.resize(np.array(render_card(DEMO_DECK, "QH", h)), (w, h),
                     interpolation=cv2.INTER_AREA)
    assert np.abs(sprite.astype(int) - ref.astype(int)).mean() < 2
    assert not np.array_equal(card_sprite(DEMO_DECK, "QS"), sprite)


def test_demo_table_draws_without_an_svg_renderer(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """The app extra has no cairosvg: the demo deck comes from the shipped atlas alone."""
    import sys

    from companion.cards import CARD_CODES
    from vision.render.paint import CANVAS_SCALE, card_sprite
    from vision.render.plan import DEMO_DECK

    monkeypatch.setitem(sys.modules, "cairosvg", None)  # `import cairosvg` now fails
    monkeypatch.setenv("MICHIGAN_CACHE", str(tmp_path))  # and no card rendered before helps
    card_sprite.cache_clear()
    try:
        sprites = [card_sprite(DEMO_DECK, code) for code in CARD_CODES]
        end = TableVideo(LOG, RenderConfig(seed=2, deck=DEMO_DECK)).render(10_000.0)
    finally:
        card_sprite.cache_clear()
    assert {s.shape[0] for s in sprites} == {round(34 * CANVAS_SCALE)}
    assert [c for c, _, _ in end.cards] == ["2S", "3S", "4H"]


def test_a_cheap_webcam_dims_and_specks_each_frame_its_own_way() -> None:
    from dataclasses import replace

    from vision.render.plan import WEBCAM_SPOILT

    clean = TableVideo(LOG, RenderConfig(seed=2, noise=0.0)).render(1.0).image
    cfg = replace(RenderConfig(seed=2), **WEBCAM_SPOILT)
    video = TableVideo(LOG, cfg)
    one, two = video.render(1.0, 10).image, video.render(1.1, 11).image
    assert 0.003 < np.mean(one.max(axis=2) == 255) + np.mean(one.max(axis=2) == 0) < 0.03
    # half the contrast: the spread of grey levels (specks aside) about halves
    assert np.percentile(one, 95) - np.percentile(one, 5) < 0.7 * (
        np.percentile(clean, 95) - np.percentile(clean, 5))
    assert np.abs(one.astype(int) - two).mean() > 5  # each frame its own grain


def test_a_webcam_out_of_focus_draws_softer_edges() -> None:
    clean = TableVideo(LOG, RenderConfig(seed=2, noise=0.0)).render(1.0).image
    soft = TableVideo(LOG, RenderConfig(seed=2, noise=0.0, blur=1.2)).render(1.0).image
    assert soft.shape == clean.shape

    def edges(img: np.ndarray) -> float:
        grey = img.mean(axis=2)
        return float(np.abs(np.diff(grey, axis=1)).mean() + np.abs(np.diff(grey, axis=0)).mean())

    assert edges(soft) < 0.8 * edges(clean)
    # The same table, only softer: the picture as a whole hardly moves.
    assert abs(float(soft.mean()) - float(clean.mean())) < 1.0
