"""Which card reader the app uses (`load_reader`): the index-first reader, the whole-card
detector with its crop classifier, or the two together; ``"auto"`` picks by where it reads
(the live table or photos) and by which models are installed.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from vision.readers.index_heads import photo_heads_path
from vision.readers.index_reader import IndexReader, available, photo_localiser_path

#: What ``"auto"`` picks at the table when one reader is asked for (zone views, read many
#: times a second): the whole-card detector, which reads the rendered test games' plays where
#: the index reader does not yet and is fast enough for the live pipeline (models/INDEX.md).
#: The table itself (`table_reader`, ``companion watch`` with no reader named) starts with
#: the hybrid and hands over to this one for a deck it knows (`checked_table_reader`).
DEFAULT_READER = "card"


#: What ``"auto"`` picks for photos (`companion detect`): the hybrid, which reads more of the
#: cards of decks the crop classifier never saw, at some 9x the time (some 300 against 33 ms
#: a 640x480 frame on 2 cores: models/README.md, models/INDEX.md "Nineteenth session").
PHOTO_READER = "hybrid"

#: The localiser's threshold when the index readers read photos (the reader's own default,
#: 0.25, stays at the table), and below which score a box counts only where the heads are
#: sure it is an index (is-index 0.9): real close-ups, grey and noisy, had indices read right
#: at is-index 0.95 boxed at 0.07-0.18. Hybrid, real photos held out by time
#: (`bench_real_closeups.py`) recall 0.695 -> 0.800; every 8th real whole-card training
#: photo 0.996 / 0.977 -> 0.994 / 0.988; phantoms on 150 empty tables of the training designs
#: 44 -> 45 (50 without the sureness rule). models/INDEX.md, "Ninth session".
PHOTO_INDEX_CONF, PHOTO_FAINT_BELOW = 0.1, 0.25

#: Whether photos' indices read unsurely in their four quarter turns are read again turned an
#: eighth (`IndexHeads` ``eighths``). Hybrid, real photos without the dev sets
#: (`bench_real_pooled.py --without-dev`): 842 right, 14 wrong, 139 missed -> 855 / 11 / 126
#: (clean close-ups 74 -> 77, close-ups webcam 59 -> 66); training designs' rendered tables
#: (`bench_reader_conditions.py --designs train --seed 11 --scenes 20`) 0.876 / 0.492 ->
#: 0.877 / 0.506; some 20 ms more a 640x480 frame. models/INDEX.md, "Nineteenth session".
#: The table's readers, measured with the rounds they read, do not.
PHOTO_EIGHTHS = True

#: How many times a photo no larger than 1.5 times the localiser's input (a webcam frame) is
#: also read magnified, and how surely an index only that look finds must be read to count
#: (`IndexReader` ``magnify``, ``magnified_sure``; 1: not magnified). Twice, 0.85: held-out
#: rendered scenes (`bench_reader_conditions.py --scenes 12 --empty 20`) 0.907 / 0.479 ->
#: 0.906 / 0.498 (seed 7: 0.887 / 0.520 -> 0.885 / 0.525), the training designs' (seed 11)
#: 0.876 / 0.495 -> 0.879 / 0.498, but all real photos (`bench_real_pooled.py`) 1391 / 28 /
#: 165 -> 1391 / 29 / 165 at four times the time: not taken (models/INDEX.md,
#: "Twenty-eighth session"; `bench_reader_conditions.py --magnify 2` measures it).
PHOTO_MAGNIFY, PHOTO_MAGNIFIED_SURE = 1.0, 0.85

#: How well the rank OCR's likeliest rank must explain an index it reads in a photo (its CTC
#: log-likelihood: 0 is that text beyond doubt) for its vote to count (`IndexReader`
#: ``ocr_sure``). On the held-out designs' true index boxes (`bench_index_stages.py
#: --ocr`) the OCR names 0.63 of the ranks, the rank head 0.89, and the OCR fused
#: everywhere costs the head ranks it had right; at -4 the OCR keeps its vote on the
#: indices whose text it reads clearly. Chosen on the training designs' rendered tables
#: (`bench_reader_conditions.py --designs train`, seeds 7 and 11, 12 scenes): 0.902 /
#: 0.573 -> 0.910 / 0.567; real photos without the dev sets (`bench_real_pooled.py
#: --without-dev`) 864 / 9 / 117 either way. models/INDEX.md, "Forty-eighth session".
PHOTO_OCR_SURE = -4.0

#: A photo whose grey levels span less than this (1st to 99.5th percentile: a dim room, a
#: grey webcam frame) is also read with them stretched to black and white (`IndexReader`
#: ``level_below``), for the indices the localiser finds only there; a card read so counts
#: where no card of the photo itself lies. Chosen on the training designs' rendered tables
#: (`bench_reader_conditions.py --designs train --seed 11 --scenes 12`): 0.891 / 0.560 as
#: before, 0.894 / 0.577 at 170, 0.885 / 0.577 at 210. Held-out designs 0.929 / 0.491 ->
#: 0.930 / 0.498, no phantom on 200 empty tables; all real photos (`bench_real_pooled.py`)
#: 1401 / 21 / 155 -> 1404 / 22 / 152 (right / wrong / missed). models/INDEX.md,
#: "Fifty-second session".
PHOTO_LEVEL_BELOW = 170.0

#: A photo no larger than twice the localiser's size (a webcam frame, a phone's small copy)
#: is also read with its edges sharpened this much (`IndexReader` ``sharpen``: an unsharp
#: mask at 1.5 px), for the soft small indices the localiser finds only there; a card read
#: so counts where no card of the photo itself lies. Chosen on the training designs'
#: rendered tables (`bench_reader_conditions.py --designs train --seed 11 --scenes 12`):
#: 0.894 / 0.577 as before, 0.895 / 0.583 at 1, 0.891 / 0.586 at 2 (a blur of 1 px, not
#: 1.5, at 1: 0.885 / 0.577). models/INDEX.md, "Fifty-third session".
PHOTO_SHARPEN = 1.0


def load_reader(reader: str = "auto", model: str | Path | None = None,
                conf: float | None = None, threads: int = 2, table: bool = False,
                **kwargs: Any) -> Any:
    """The card reader the app uses: ``"index"`` (index-first), ``"card"`` (the whole-card
    detector with its crop classifier, or ``model``), ``"hybrid"`` (card boxes named by the
    crop classifier and the indices inside them together), or ``"auto"``: `DEFAULT_READER`
    at the table, `PHOTO_READER` otherwise, unless a whole-card ``model`` is named or the
    index models are missing. ``table``: the reader reads zone views at the table, where a
    card's place comes from its zone (the index reader then skips the whole-card boxes).
    Photos read with no ``deck`` profile use the photo localiser and heads where installed
    (`photo_localiser_path`, `photo_heads_path`); the table and taught decks the others."""
    reader = resolve_reader(reader, model, table)
    if conf is not None:
        kwargs["conf"] = conf
    if reader in ("index", "hybrid"):
        # Photos are also read in negative where indices show there and not in the photo (a
        # deck printed gold on black), and at half size for a close-up's large indices
        # (`IndexReader.index_looks`); zone views at the table, where cards lie small, are not.
        kwargs.setdefault("negative", not table)
        kwargs.setdefault("coarse", not table)
        if not table:
            kwargs.setdefault("index_conf", PHOTO_INDEX_CONF)
            kwargs.setdefault("faint_below", PHOTO_FAINT_BELOW)
            # A card in a photo lies at any angle; one at some 45 degrees is read again
            # turned an eighth (`PHOTO_EIGHTHS`).
            kwargs.setdefault("eighths", PHOTO_EIGHTHS)
            kwargs.setdefault("magnify", PHOTO_MAGNIFY)
            kwargs.setdefault("magnified_sure", PHOTO_MAGNIFIED_SURE)
            kwargs.setdefault("ocr_sure", PHOTO_OCR_SURE)
            kwargs.setdefault("level_below", PHOTO_LEVEL_BELOW)
            kwargs.setdefault("sharpen", PHOTO_SHARPEN)
            if kwargs.get("deck") is None:
                # The photo models, where installed; with a deck profile the models it was
                # taught on (its layers read those heads' feature), as at the table.
                kwargs.setdefault("localiser", photo_localiser_path())
                kwargs.setdefault("heads", photo_heads_path())
        if table:
            # Zone views are small (320 px): read at the second look's 384 px, not upscaled
            # to the photos' 640. A taught deck's rendered round (dondorf, seed 3): 39 of 39
            # card events right either way, 7.9 frames a second against 5.8.
            kwargs.setdefault("imgsz", SECOND_LOOK_PX)
    if reader == "index":
        return IndexReader(threads=threads, card_boxes=not table, **kwargs)
    if reader == "hybrid":
        if table:
            # At the table every card is read in a card box: an index outside every box is
            # mostly a lower card of a pile showing as a card lands on it (logged again with
            # it), and the second look reads the spread hands. Rendered rounds, the demo's
            # deck, seeds 100-109: 5 wrong in silence with such cards, 2 without (8 exact
            # once answered against 5); the design dondorf, seeds 100-104: alike.
            kwargs.setdefault("loose_conf", math.inf)
            # Each card box's pips vote on its suit within its colour (`pip_suits`): zone
            # views of three rounds (`bench_table_courts.py --courts-by-index [--pip-suits]`),
            # the held-out tigullio deck: hybrid readings of the other suit of the colour 2 -> 0
            # (wrong readings of pip cards 3 -> 2); dondorf and the demo's deck unchanged.
            kwargs.setdefault("pip_suits", True)
            # An index whose ink cannot be its card box's pips' and that reads the other
            # colour than the crop classifier is another card's (`ink_check`): tigullio Great
            # Lakes 2506's 4♠ over a red 7 read 7♠ without it, 4♠ with it; the zone views of
            # three rounds (`bench_table_courts.py ... --ink-check`) unchanged on the held-out
            # tigullio and dondorf decks and the demo's deck.
            kwargs.setdefault("ink_check", True)
        return IndexReader(threads=threads, card_boxes=True, whole_cards=True, **kwargs)
    from vision.readers.detector import CardDetector

    return CardDetector(model, threads=threads, **kwargs)


def resolve_reader(reader: str = "auto", model: str | Path | None = None,
                   table: bool = False) -> str:
    """The reader `load_reader` loads for ``reader``: ``"auto"`` becomes `DEFAULT_READER`
    at the table and `PHOTO_READER` otherwise, or ``"card"`` when a whole-card ``model`` is
    named or the index models are missing; any other name stays."""
    if reader != "auto":
        return reader
    best = DEFAULT_READER if table else PHOTO_READER
    return best if model is None and available() else "card"


#: Board units of table shown around a zone in the second look's views, the least confidence
#: of a card it reads, and the localiser's threshold (see `second_look`).
SECOND_LOOK_MARGIN, SECOND_LOOK_CONF, SECOND_LOOK_INDEX_CONF = 10.0, 0.35, 0.1
#: The side of the second look's zone views, and the size its localiser reads them at: a
#: zone view is small, its indices come out large at 384 px (photos are read at 640).
SECOND_LOOK_PX = 384


def second_look(threads: int = 2) -> Any:
    """The reader the live table asks for a second look at a hand shown whose cards the
    table reader did not all see (`vision.pipeline.questions.Questions._look_again`): the
    index reader, which reads each corner index a spread leaves showing, in zone views
    (`vision.zones.ZoneReader`); None when the index models are not installed."""
    if not available():
        return None
    from vision.readers.index_heads import table_heads_path
    from vision.zones import ZoneReader

    # Lower thresholds than the reader's own (card 0.5, localiser 0.25): the table takes a
    # card of the second look only in a hand it accepts as a whole (the count the player
    # holds, no card played twice, no rule broken), and the heads' is-index score weighs each
    # box. Rendered spreads: a J♥ read 0.44 (its narrow index) was read in 1 of 12 frames at
    # 0.5 and in 12 of 12 at 0.35; a Q♣ boxed 0.17 (is-index 0.98, read 0.92) was never read.
    # An index box whose rank and suit sign are two inks is not read (`mixed_ink`): a box
    # round one card's rank and the next card's suit sign in a spread hand makes a card
    # nobody holds, which the table takes where the hand's count fits (tigullio Michigan
    # 2405: Bob's hand over his 9♦, the 9♦'s red 9 and his 10♣'s club read 9♣ 0.91, and the
    # round wrong in silence; exact once answered with it). In the zone views of three
    # rounds (`bench_table_courts.py ... --mixed-ink`) the index reader lost 2 right
    # readings of 257 on tigullio (and 1 wrong of 8), none on dondorf or the demo's deck:
    # the table reader reads without it.
    reader = IndexReader(threads=threads, card_boxes=False, conf=SECOND_LOOK_CONF,
                         index_conf=SECOND_LOOK_INDEX_CONF, imgsz=SECOND_LOOK_PX,
                         heads=table_heads_path(), mixed_ink=True)
    # Views as large as the localiser's input and tight around the zone (10 board units of
    # table around it, not the card reader's 35): the indices then come out large enough to
    # be found. On the demo table's revealed hands (Michigan seed 0, three frames) the index
    # reader read 2 of 11 shown cards in the card reader's views and all 11 in these.
    return ZoneReader(reader, view_px=reader.imgsz, margin=SECOND_LOOK_MARGIN)


def table_reader(deck: str | Path | dict[str, Any] | None = None) -> Any:
    """The reader at the table (the camera window, the demo) on each zone's view, a still
    zone read once it was read the same way a few times (`vision.zones.TABLE_STILL_DIFF`):
    the hybrid, then the card detector once the first court cards show the deck is one it
    knows (`checked_table_reader`). With ``deck``, a profile from ``companion teach-deck``
    (its file or its contents), the hybrid reads the views with that deck's profile
    throughout: on a deck design the models never saw it reads the table far better
    (models/INDEX.md, "Eighth session")."""
    from vision.zones import TABLE_STILL_DIFF, ZoneReader

    if deck is not None:
        data = deck if isinstance(deck, dict) else read_deck_profile(deck)
        return ZoneReader(load_reader("hybrid", table=True, deck=data),
                          still_diff=TABLE_STILL_DIFF)
    return ZoneReader(checked_table_reader(), still_diff=TABLE_STILL_DIFF)


def checked_table_reader() -> Any:
    """What reads the table's zone views when no deck was taught: the hybrid until the first
    court cards show whether the deck is one the card reader knows, then the card reader for
    such a deck (`vision.readers.deck_check.DeckCheck`); the card reader alone where the index
    models are missing. Rendered rounds of five games (`bench_noisy_reader.py --rounds 10
    --settings model [--deck dondorf]`), seeds 100-109 at 44c703c: on the held-out design
    dondorf 10 exact, none wrong in silence, no question (the card reader alone on 100-104:
    0 exact, 4 wrong in silence, 9.00 questions a round); on the demo's deck 6 exact, none
    wrong in silence, 0.40 questions a round (models/INDEX.md, "Twenty-second and
    twenty-third sessions")."""
    from vision.readers.detector import CardDetector

    if not available():
        return CardDetector()
    from vision.readers.deck_check import DeckCheck

    # Until the deck is judged, and for good on a deck the card reader does not know, the
    # hybrid takes which court a card is from its indices (`IndexReader` ``courts_by_index``):
    # the crop classifier tells a court's picture from pips on any deck, but names the courts
    # of a deck it never saw wrongly half the time. Court readings, right / wrong, in zone
    # views of three rounds (`bench_table_courts.py [--courts-by-index]`): the held-out
    # tigullio deck 39 / 13 -> 55 / 2; dondorf and the demo's deck unchanged. Rarely do
    # enough court cards show in one round to judge a deck (tigullio, Great Lakes 301: 2 of
    # 6), so it is the hybrid that reads it (models/INDEX.md, "Fortieth and forty-first
    # sessions").
    return DeckCheck(CardDetector(), load_reader("index", table=True),
                     lambda: load_reader("hybrid", table=True, courts_by_index=True))


def read_deck_profile(path: str | Path) -> dict[str, Any]:
    """A deck profile written by ``companion teach-deck``, checked; a ValueError names the
    file and what is wrong with it."""
    import json

    from vision.readers.index_heads import load_deck_layers

    try:
        data = json.loads(Path(path).read_text())
    except OSError as exc:
        raise ValueError(f"deck profile {path}: {exc.strerror or exc}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"deck profile {path}: not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError(f"deck profile {path}: not a profile written by companion teach-deck")
    try:
        load_deck_layers(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"deck profile {path}: {exc}") from exc
    return data


def demo_readers(source: Any, which: str = "model", fallible: float = 0.0
                 ) -> tuple[Any, str, Any]:
    """Who reads the demo table's cards: (table reader, how to say it to people, second
    look or None). ``source`` is the demo's `vision.render.demo.RenderedSource` (or
    anything with its ``last`` `FrameTruth`).

    ``which="model"`` (the default, as at a real table): the shipped card detector zone by
    zone, and the index reader's second look (`second_look`) where its
    models are installed; the renderer's truth stands in, and says why, where the card model
    is missing, cannot be loaded or is turned off (``COMPANION_NO_DETECTOR=1``, as the UI
    tests do). ``which="truth"``: the renderer's own knowledge of which cards show (every
    card right, to show the referee alone); ``fallible`` > 0 makes it misread and miss that
    share of the cards in each frame, and misread a few the same way for seconds."""
    from companion.diagnostics import log_failure, where_logged
    from vision.render.truth import FallibleReader, TruthDetector

    if fallible > 0 and which == "truth":
        return (FallibleReader(source, misread=fallible, drop=fallible, stuck=0.03),
                f"the demo itself, made to misread and miss {fallible:.0%} of its readings "
                f"(the app asks when the table contradicts a reading)", None)
    why = ""
    if which == "model":
        if os.environ.get("COMPANION_NO_DETECTOR") == "1":
            why = " (the card model is turned off here: COMPANION_NO_DETECTOR=1)"
        else:
            try:
                from vision.readers.detector import default_model_path

                if default_model_path().is_file():
                    return table_reader(), "the card models, as at your table", second_look()
                why = " (no card model is installed)"
            except Exception as exc:  # noqa: BLE001 - no weights or no onnxruntime
                log_failure("the card detector could not be loaded for the demo", exc)
                why = f" (the card model could not be loaded; {where_logged()})"
    return (TruthDetector(source),
            "the demo itself (it knows which cards show; at your table the card models read "
            "them)" + why, None)
