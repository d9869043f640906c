"""The suit within a colour from a card's pips (`vision.readers.pip_suits`): read on deck
designs the model never learnt, a vote that never changes a card's colour or rank, no vote
where no light face shows, and the table's hybrid reading the ace it misread before."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from companion.cards import CARD_CODES
from tests.deck_helpers import decks_missing
from vision.readers import pip_suits
from vision.readers.pip_suits import PipSuits, pip_masks
from vision.render.decks import render_card

pytestmark = pytest.mark.skipif(not pip_suits.available(), reason="models/pip_suits.json missing")

HELD_OUT = "tigullio-international"
needs_held_out = pytest.mark.skipif(decks_missing(HELD_OUT, "dondorf") is not None,
                                    reason=decks_missing(HELD_OUT, "dondorf") or "")


def on_felt(code: str, deck: str, height: int = 90, turn: int = 0) -> np.ndarray:
    """A card drawn ``height`` px tall on green felt, cut to its box with 2 px of felt
    around it, turned ``turn`` quarter turns."""
    card = np.asarray(render_card(deck, code, height))
    h, w = card.shape[:2]
    out = np.zeros((h + 4, w + 4, 3), np.float32)
    out[:] = (40, 110, 30)
    alpha = card[:, :, 3:4].astype(np.float32) / 255
    out[2:-2, 2:-2] = card[:, :, :3] * alpha + out[2:-2, 2:-2] * (1 - alpha)
    return np.ascontiguousarray(np.rot90(out.astype(np.uint8), turn))


@needs_held_out
@pytest.mark.parametrize("deck", [HELD_OUT, "dondorf"])
@pytest.mark.parametrize("rank", ["A", "5", "8"])
@pytest.mark.parametrize("turn", [0, 1])
def test_the_pips_of_a_deck_never_learnt_tell_the_suits_of_a_colour_apart(deck, rank, turn):
    model = PipSuits()
    for code in (rank + s for s in "CDHS"):
        odds = model.suit_odds(on_felt(code, deck, turn=turn))
        assert odds is not None, code
        pair, first = ("DH", "D") if code[1] in "DH" else ("CS", "C")
        assert (odds[pair] > 0) == (code[1] == first), (code, odds)


@needs_held_out
def test_the_vote_weighs_down_only_the_other_suit_of_each_colour():
    frame = on_felt("AD", HELD_OUT)
    vote = PipSuits().vote(frame, (0, 0, frame.shape[1], frame.shape[0]))
    assert vote is not None
    weight = dict(zip(CARD_CODES, vote, strict=True))
    # The likelier suit of each colour keeps its weight: colour and rank stay the other
    # readers' word; the courts are pictures, not pips, and get no vote.
    assert weight["AD"] == weight["9D"] == 1.0
    assert max(weight["AC"], weight["AS"]) == 1.0
    assert weight["AH"] < 0.2
    assert all(weight[r + s] == 1.0 for r in "JQK" for s in "CDHS")


def test_no_light_face_gives_no_vote():
    model = PipSuits()
    felt = np.zeros((90, 64, 3), np.uint8)
    felt[:] = (40, 110, 30)
    assert model.vote(felt, (0, 0, 64, 90)) is None
    # A dark face with light pips (a recoloured deck): its paper is not light.
    dark = np.full((90, 64, 3), 30, np.uint8)
    dark[30:50, 20:40] = 220
    assert pip_masks(dark) == []
    assert model.vote(dark, (0, 0, 64, 90)) is None
    # A box too small to hold a pip, or off the frame.
    assert model.vote(felt, (10, 10, 14, 14)) is None
    assert model.vote(felt, (100, 100, 140, 160)) is None


def test_long_shapes_are_not_pips():
    face = np.full((90, 64, 3), 235, np.uint8)
    face[20:70, 10:14] = (30, 30, 200)  # a stroke of a court's picture beside the pip
    face[40:50, 35:45] = (30, 30, 200)
    masks = pip_masks(face)
    assert [m.shape for m in masks] == [(10, 10)]


def _tigullio_table(game: str, seed: int) -> Any:
    """A rendered round of ``game`` on the held-out tigullio deck; skips where the index
    models or the deck are not installed."""
    from vision.readers.index_reader import available
    from vision.render.demo import simulated_round
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo

    if not available():
        pytest.skip("index models not installed")
    if decks_missing(HELD_OUT) is not None:
        pytest.skip(decks_missing(HELD_OUT) or "")
    return TableVideo(simulated_round(game, seed=seed),
                      replace(RenderConfig(fps=10, seed=seed), deck=HELD_OUT))


def _hybrid_reads(game: str, seed: int, t: float, zone: int, **options: bool
                  ) -> dict[bool, list[str]]:
    """The cards the table's hybrid reads (0.5 and over) in ``zone`` 's view at ``t`` of a
    rendered tigullio round, with its one option of ``options`` off and on."""
    from vision.readers.load import load_reader
    from vision.zones import rectify, zone_views

    video = _tigullio_table(game, seed)
    view = next(v for v in zone_views(video.profile(), 320, 35.0) if v.zone == zone)
    image = rectify(video.render(t).image, view)
    [name] = options
    read = {}
    for on in (False, True):
        reader = load_reader("hybrid", table=True, courts_by_index=True, **{name: on})
        dets = reader.detect_many([image])[0]
        read[on] = [dets.names[c] for c, s in zip(dets.class_id, dets.confidence, strict=True)
                    if s >= 0.5]
    return read


def test_the_table_reads_the_ace_of_diamonds_it_read_as_the_ace_of_hearts():
    """Tigullio Michigan 2405: Ann's A♦ lead, its corner pips 4 px at the table, was read as
    A♥ at 0.9 in every frame of its view by the hybrid (the crop classifier's A♥ 0.55 and the
    bottom index's vote), the middle diamond 15 px wide unweighed."""
    read = _hybrid_reads("michigan-rummy", 2405, 28.5, 0, pip_suits=True)
    assert read == {False: ["AH"], True: ["AD"]}


@pytest.mark.parametrize("text", ["{not json", '{"pairs": {}}',
                                  '{"pairs": {"DH": {"mean": [1], "scale": [1], "weights": [1]},'
                                  ' "CS": {"mean": [1], "scale": [1], "weights": [1, 2]}}}'])
def test_a_broken_model_file_is_named_in_a_clear_error(tmp_path, text):
    path = tmp_path / "pips.json"
    path.write_text(text)
    with pytest.raises(ValueError, match="pip-suit model .*pips.json"):
        PipSuits(path)
    with pytest.raises(ValueError, match="pip-suit model .*missing.json"):
        PipSuits(tmp_path / "missing.json")


@needs_held_out
@pytest.mark.parametrize("deck", [HELD_OUT, "dondorf"])
def test_a_cards_own_index_is_inked_as_its_pips_and_another_colours_is_not(deck):
    """`tints_clash`: on deck designs the model never learnt, each number card's own corner
    index (the top-left quarter of its face, by a quarter) may be the ink of its pips; the
    index of a card of the other colour may not, nor does it change its pips' tint pasted
    into its box."""
    tinted = 0
    for code in (r + s for r in "2579" for s in "CDHS"):
        card = on_felt(code, deck)
        h, w = card.shape[:2]
        corner = (slice(2, h // 4 + 2), slice(2, w // 4 + 2))
        pips, own = pip_suits.pip_tint(card), pip_suits.ink_tint(card[corner])
        assert pips is not None, code
        if own is None:
            continue  # (its ink meets the corner's edge: no tint, no check)
        tinted += 1
        assert not pip_suits.tints_clash(pips, own), (code, pips, own)
        other = on_felt(code[0] + ("H" if code[1] in "CS" else "S"), deck)[corner]
        other_tint = pip_suits.ink_tint(other)
        assert other_tint is not None and pip_suits.tints_clash(pips, other_tint), code
        mixed = card.copy()
        mixed[corner] = other  # another card's index where this one's lies
        assert pip_suits.pip_tint(mixed) == pytest.approx(pips, abs=2.0), code
    assert tinted >= 12


def test_no_tint_where_too_few_pips_or_no_ink_show():
    face = np.full((90, 64, 3), 235, np.uint8)
    assert pip_suits.ink_tint(face) is None  # a blank corner
    face[40:50, 28:38] = 20  # one pip alone: an ace's, or a box cut through its pips
    assert pip_suits.pip_tint(face) is None
    # One colour for every suit (a plain-inked deck): nothing clashes.
    assert not pip_suits.tints_clash((1.0, -2.0), (3.0, 1.0))
    assert not pip_suits.tints_clash((30.0, 15.0), (26.0, 12.0))


def test_the_hybrid_reads_a_4_whose_box_holds_a_red_7_beneath_it():
    """Tigullio Great Lakes 2506: Cy's 4♠ lay on his 7♥, whose red 7s showed inside the 4♠'s
    card box beside both its indices; the hybrid read 7♠ (0.6) in every frame. Without the
    indices whose ink cannot be its black pips', the 4♠."""
    read = _hybrid_reads("great-lakes", 2506, 28.5, 2, ink_check=True)
    assert read == {False: ["7S"], True: ["4S"]}


@needs_held_out
@pytest.mark.parametrize("deck", [HELD_OUT, "dondorf"])
def test_an_index_whose_rank_and_suit_sign_are_two_cards_inks_is_told(deck):
    """`glyph_tints`: a corner index's rank (its upper half, upright) and suit sign (its
    lower half) are one ink on a card of either colour, turned any way; a red rank over a
    black suit sign (two cards' corners in one box) clash."""
    from vision.readers.index_reader import IndexReading, two_inks

    def corner(code: str) -> np.ndarray:
        card = on_felt(code, deck, height=120)
        h, w = card.shape[:2]
        return card[3:h // 4 + 3, 3:w // 5 + 3]

    def reading(box: tuple[float, float, float, float], orient: int) -> IndexReading:
        return IndexReading(box, 1.0, np.ones(13) / 13, np.ones(4) / 4, orient, 1.0)

    told = inked = 0
    for code in ("9D", "9C", "5H", "5S", "AD", "AS"):
        picture = corner(code)
        h, w = picture.shape[:2]
        inked += None not in pip_suits.glyph_tints(picture, 0)
        for turn in range(4):
            turned = np.ascontiguousarray(np.rot90(picture, -turn))
            box = (0.0, 0.0, float(turned.shape[1]), float(turned.shape[0]))
            assert not two_inks(turned, reading(box, turn)), (code, turn)
        red, black = corner("9D"), corner(code[0] + "C")
        mixed = red.copy()
        mixed[h // 2:] = black[h // 2:h]
        told += two_inks(mixed, reading((0.0, 0.0, float(w), float(h)), 0))
    assert told == 6
    assert inked >= 4  # (else a glyph meets the corner's edge: no tint, nothing told)


def test_the_second_look_does_not_read_a_rank_and_a_suit_sign_of_two_cards_as_one():
    """Tigullio Michigan 2405: Bob's hand shown over his 9♦, whose red 9 peeked out above his
    10♣; the second look boxed the 9 with the 10♣'s club below it and read 9♣ 0.91, a card
    nobody held, and the hand was logged with it in silence. Its ``mixed_ink`` leaves that
    box unread; every card of the hand it read is still read."""
    from vision.readers.load import second_look
    from vision.zones import rectify

    video = _tigullio_table("michigan-rummy", 2405)
    look = second_look()
    assert look is not None and look.detector.mixed_ink
    view = next(v for v in look.views(video.profile()) if v.zone == 1)
    image = rectify(video.render(30.5).image, view)
    read = {}
    for mixed in (False, True):
        look.detector.mixed_ink = mixed
        dets = look.detector.detect_many([image], look.conf, look.card_conf)[0]
        read[mixed] = {dets.names[c] for c, s in zip(dets.class_id, dets.confidence, strict=True)
                       if s >= 0.5}
    assert "9C" in read[False] and "9C" not in read[True]
    assert {"7C", "TC", "AH", "2S", "AS"} <= read[True]
