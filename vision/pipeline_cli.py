"""`companion watch` (run the live pipeline headless, appending events to a log and printing the
referee's announcements) and `companion render-table` (write a synthetic table video and its
ground truth). Registered through the ``companion.commands`` entry points.
"""

from __future__ import annotations

import argparse
import errno
import json
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

from calibration.calibrate import CalibrationError, calibrate
from calibration.profile import TableProfile
from companion.commands import split_names
from companion.events import (
    Event,
    EventLog,
    LogFileError,
    LogWriteError,
    describe_event,
    read_log,
)
from companion.referee import GAME_MODULES
from vision.denoise import AVERAGE_FRAMES
from vision.pipeline.results import FrameResult, TableReader
from vision.pipeline.table import TablePipeline
from vision.prompt import enter_typed
from vision.sources.frames import FrameSource
from vision.tracker import TrackerConfig
from vision.zones import TABLE_STILL_DIFF

#: Events the camera logs (each one counts towards a script event's "at").
VISUAL = frozenset({"play", "reveal", "trump"})
#: Fields of a logged event that say when and how surely it was seen, not what happened: a
#: resumed game logs the same events with other values here.
EVIDENCE = ("t", "confidence", "frame")
#: Seconds of frames before the resume point shown to the tracker alone, so that the cards
#: already lying on the table (and in the log) count without a word.
WARM_UP_S = 4.0


def register_watch(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch",
        help="watch a table: cards laid down become events in the log, announced as they come",
        description=(
            "Run the live pipeline on SOURCE (webcam index, stream URL, video file, image "
            "folder, or 'demo'): detect cards in the calibrated zones, wait until each lies "
            "still, append play/reveal/trump events to the log and print the referee's "
            "announcements. A new game starts its first round itself (--dealer deals); "
            "later rounds and the other events people enter (dummy, sales, bids) come from "
            "--script. Uncertain readings are held and listed, never guessed. Run again on "
            "the same log, it goes on with the same game (a video file or the demo from where "
            "the log ends); a lost or frozen camera is said at once and reopened."
        ),
    )
    p.add_argument("source")
    p.add_argument("--game", choices=sorted(GAME_MODULES),
                   help="game name (not needed with --script or an existing log)")
    p.add_argument("--players", nargs="+",
                   help="players clockwise from the camera's seat (spaces or commas between)")
    p.add_argument("--dealer", help="who deals the first round (default: the first player)")
    p.add_argument("--chips", type=int, help="starting chips for everyone")
    p.add_argument("--rounds", type=int, help="rounds to play")
    p.add_argument("--profile", help="table profile JSON (default: calibrate from the source)")
    p.add_argument("--log", required=True,
                   help="event log to append to (JSON Lines; one writer at a time)")
    p.add_argument("--script", help="JSON Lines of events people enter, each with \"at\": how "
                                    "many card events precede it (render-table writes one)")
    p.add_argument("--prompt", action="store_true",
                   help="read typed events from standard input even when it is not a terminal "
                        "(at a terminal they are always read): round [DEALER], keep, exchange, "
                        "sell BUYER PRICE, bid PLAYER TRICKS, trump CARD, hand KIND, "
                        "play PLAYER CARD..., end; help lists them")
    p.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="auto",
                   help="card reader for --detector model: index-first or the whole-card "
                        "detector (default: the shipped choice, models/README.md)")
    p.add_argument("--model", help="whole-card detector weights (default: models/cards.onnx)")
    p.add_argument("--deck", help="a deck profile written by `companion teach-deck`: the table "
                                  "is then read by the card boxes and the corner indices "
                                  "together (the hybrid reader) with that deck's profile; "
                                  "for a deck unlike the usual ones (models/INDEX.md)")
    p.add_argument("--no-second-look", dest="second_look", action="store_false",
                   help="do not read a hand shown again with the index reader when the card "
                        "reader saw fewer cards than the player holds")
    p.add_argument("--detector", choices=["model", "truth"], default="model",
                   help="'truth' reads the demo table's own boxes (no model needed)")
    p.add_argument("--misread", type=float, default=0.0, metavar="P",
                   help="demo only: the demo's own reader misreads each card in each frame with "
                        "probability P (e.g. 0.05), to see how the app copes with a fallible "
                        "camera (implies --detector truth)")
    p.add_argument("--drop", type=float, default=0.0, metavar="P",
                   help="demo only: ... and misses each card in each frame with probability P")
    p.add_argument("--stuck", type=float, default=0.0, metavar="P",
                   help="demo only: ... and misreads this share of the cards the same way for "
                        "2-5 s (as a real model does)")
    p.add_argument("--imgsz", type=int, help="detector input size (default: the model's)")
    p.add_argument("--classifier", default="auto",
                   help="auto (the shipped crop classifier names the cards the shipped model "
                        "finds; with --model, the model's own classes), none, or a classifier "
                        "path (e.g. models/card_classifier.onnx with --model)")
    p.add_argument("--full-frame", action="store_true",
                   help="run the model on the whole frame instead of on each zone's "
                        "rectified view (slower to read side and far seats; for comparison)")
    p.add_argument("--still-diff", type=float, default=TABLE_STILL_DIFF,
                   help="keep the last reading of a zone whose picture changed less than "
                        "this (grey levels) once it was read the same 3 times in a row; 0 "
                        "reads every zone in every frame (slower: frames are dropped on a "
                        "slow machine) (default: %(default)s)")
    p.add_argument("--average", type=int, default=AVERAGE_FRAMES, metavar="FRAMES",
                   help="average away a webcam's noise over up to this many frames wherever "
                        "the picture lies still (1 or 0: each frame as it comes) "
                        "(default: %(default)s)")
    p.add_argument("--still-time", type=float, default=TrackerConfig.still_time,
                   help="seconds a card must lie still before it counts")
    p.add_argument("--confirm-below", type=float, default=TrackerConfig.confirm_below,
                   help="hold readings scoring below this for confirmation")
    p.add_argument("--realtime", action="store_true",
                   help="drop stale frames of a file as if it were a live camera")
    p.add_argument("--chip-check", action="store_true", help="count chips in the cups")
    p.add_argument("--refit-every", type=float, default=5.0,
                   help="seconds between looks for a moved board (0: never)")
    p.add_argument("--json", action="store_true", help="print one JSON object per event")
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.set_defaults(func=run_watch)


def _load_script(path: str | None) -> list[dict[str, Any]]:
    if not path:
        return []
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                out.append(json.loads(line))
    return out


def build_detector(args: argparse.Namespace, source: Any) -> Any:
    noise = {k: float(getattr(args, k, 0.0) or 0.0) for k in ("misread", "drop", "stuck")}
    if any(noise.values()):
        from vision.render.demo import RenderedSource
        from vision.render.truth import FallibleReader

        if not isinstance(source, RenderedSource):
            raise ValueError("--misread, --drop and --stuck work only with the 'demo' source")
        return FallibleReader(source, misread=noise["misread"], drop=noise["drop"],
                              stuck=noise["stuck"])
    if args.detector == "truth":
        from vision.render.demo import RenderedSource
        from vision.render.truth import TruthDetector

        if not isinstance(source, RenderedSource):
            raise ValueError("--detector truth works only with the 'demo' source")
        return TruthDetector(source)
    from vision.readers.index_reader import available
    from vision.readers.load import load_reader, read_deck_profile, resolve_reader

    kwargs: dict[str, Any] = {}
    reader = getattr(args, "reader", "auto")
    deck = getattr(args, "deck", None)
    if deck:
        if not available():
            raise ValueError("--deck needs the index models (models/index_*.onnx)")
        if reader == "auto":
            reader = "hybrid"
        if reader not in ("index", "hybrid"):
            raise ValueError("--deck is read by the index readers: --reader hybrid or index")
        kwargs["deck"] = read_deck_profile(deck)
    if (reader == "auto" and not deck and not args.model and not args.full_frame
            and not args.imgsz and getattr(args, "classifier", "auto") == "auto"):
        from vision.readers.load import checked_table_reader
        from vision.zones import ZoneReader

        # The table's own choice: the hybrid until the deck is known (`DeckCheck`).
        return ZoneReader(checked_table_reader(), still_diff=args.still_diff)
    # The table's choice even for --full-frame (`DEFAULT_READER`, or the card reader).
    reader = resolve_reader(reader, args.model, table=True)
    if reader == "card":
        if args.imgsz:
            kwargs["imgsz"] = args.imgsz
        choice = getattr(args, "classifier", "auto")
        kwargs["classifier"] = False if choice == "none" else choice
    detector = load_reader(reader, args.model, table=not args.full_frame, **kwargs)
    if args.full_frame:
        return detector
    from vision.zones import ZoneReader

    return ZoneReader(detector, still_diff=args.still_diff)


def build_second_look(args: argparse.Namespace, detector: Any) -> Any:
    """The index reader in zone views, for a second look at hands shown, when the table is
    read by a model in zone views (`build_detector`'s `ZoneReader`: not the demo's truth or
    its noisy double, not --full-frame) and the index models are there."""
    from vision.zones import ZoneReader

    if not getattr(args, "second_look", True) or not isinstance(detector, ZoneReader):
        return None
    from vision.readers.load import second_look

    return second_look()


class WatchLog(EventLog):
    """The log as `watch` writes it. From a recorded source (a video file, the demo), every
    event says which frame was being read when it was logged (``"frame"``), so a restarted
    `watch` goes on from there (`resume_frame`). When the disk is full it waits for space,
    saying so once (``on_full``), and writes the event then: the log stays whole."""

    def __init__(self, path: str | Path, on_full: Callable[[str], None] | None = None,
                 retry_every: float = 2.0, sleep: Callable[[float], None] = time.sleep
                 ) -> None:
        super().__init__(path)
        #: The frame being read (None: not stamped, a live source or before the first frame).
        self.frame: int | None = None
        self.on_full = on_full
        self.retry_every = retry_every
        self._sleep = sleep

    def append(self, event: Mapping[str, Any]) -> int:
        if self.frame is not None and "frame" not in event:
            event = {**event, "frame": self.frame}
        told = False
        while True:
            try:
                return super().append(event)
            except LogWriteError as exc:
                if exc.errno != errno.ENOSPC or self.on_full is None:
                    raise
                if not told:
                    self.on_full(f"{exc}. Waiting for space (Ctrl+C stops; the same command "
                                 f"goes on later)…")
                    told = True
                self._sleep(self.retry_every)


class WatchPipeline(TablePipeline):
    """The pipeline as `watch` runs it: the log learns which frame each event comes from."""

    stamp_frames = False

    def process(self, frame: np.ndarray, t: float, index: int = 0,
                gap: float = 0.0) -> FrameResult:
        if self.stamp_frames and isinstance(self.log, WatchLog):
            self.log.frame = index
        return super().process(frame, t, index, gap)


def resume_frame(events: Sequence[Event]) -> int | None:
    """The frame of a recorded source to go on from, for a log `watch` wrote from it: the
    frame after the last one whose events are all in the log, or that frame itself when the
    log ends with the people's events logged just before its card (the card comes again).
    None when no event says its frame (start from the first)."""
    stamped = [e for e in events if isinstance(e.get("frame"), int)
               and not isinstance(e.get("frame"), bool) and e.get("frame") >= 0]
    if not stamped:
        return None
    last = stamped[-1]
    return int(last["frame"]) + (1 if last.kind in VISUAL else 0)


def unlogged_script(script: Sequence[Mapping[str, Any]], events: Sequence[Event]
                    ) -> list[dict[str, Any]]:
    """The script events a log does not hold yet. One with ``"at": n`` is logged before the
    (n+1)-th card event, so those before the log's last card event are in; those due right
    after it are in when the log's last events are they, in order."""
    count = sum(1 for e in events if e.kind in VISUAL)
    last_visual = max((i for i, e in enumerate(events) if e.kind in VISUAL), default=-1)
    tail = [e for e in events[last_visual + 1:] if e.kind not in ("game", "correct")]
    out: list[dict[str, Any]] = []
    for entry in sorted(script, key=lambda e: int(e.get("at", 0))):
        at = int(entry.get("at", 0))
        if entry.get("event") == "game" or at < count:
            continue
        if at == count and tail and _same_event(tail[0].data, entry):
            tail.pop(0)
            continue
        tail = []  # in order: once one is missing, the rest are missing too
        out.append(dict(entry))
    return out


def _same_event(logged: Mapping[str, Any], entry: Mapping[str, Any]) -> bool:
    def bare(ev: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in ev.items() if k not in ("at", *EVIDENCE)}
    return bare(logged) == bare(entry)


def warm_up(pipe: TablePipeline, source: FrameSource, start: int) -> int:
    """Go on from frame ``start`` of a recorded source: pass over the frames before it,
    showing the last `WARM_UP_S` seconds of them to the tracker alone (the cards lying on the
    table then count without a word, as they did before). Returns the frames passed."""
    fps = source.fps or 10.0
    quiet = max(0, start - int(round(WARM_UP_S * fps)))
    passed = source.skip(quiet)
    while passed < start:
        frame = source.read()
        if frame is None:
            break
        passed += 1
        # Averaged as the pipeline averages it, so that the picture goes on from here as it
        # would have without the stop.
        image = pipe.averaged(frame.image, frame.gap)
        dets = (pipe.detector.detect_table(image, pipe.profile)
                if isinstance(pipe.detector, TableReader) else pipe.detector.detect(image))
        pipe.tracker.update(frame.t, dets, pipe.profile.inverse)
    return passed


def _say(text: str) -> None:
    print(f"companion watch: {text}", file=sys.stderr, flush=True)


def _refuse(message: str) -> int:
    print(f"companion watch: {message}", file=sys.stderr)
    return 2


def run_watch(args: argparse.Namespace) -> int:
    from vision.sources.parse import parse_source

    script = _load_script(args.script)
    players = split_names(args.players or [])
    if len(set(players)) != len(players):
        return _refuse(f"player names must differ: {', '.join(players)}")
    setup: dict[str, Any] | None = None
    if args.game:
        setup = {"event": "game", "game": args.game, "players": players}
        if args.chips is not None:
            setup["chips"] = args.chips
        if args.rounds is not None:
            setup["rounds"] = args.rounds
        script = [e for e in script if e.get("event") != "game"]
    try:
        source = parse_source(args.source, game=args.game, players=players or None,
                              on_status=_say)   # "Camera lost, reconnecting…", "Camera back"
    except (OSError, ValueError) as exc:
        return _refuse(str(exc))
    from vision.render.demo import RenderedSource

    if not args.script and isinstance(source, RenderedSource):
        # The demo table plays its own game: its typed events (round, dummy...) are its script.
        script = [dict(e) for e in source.truth.script]
        demo_game = next(e for e in script if e.get("event") == "game")
        if setup is not None:
            if setup["game"] != demo_game.get("game"):
                return _refuse(f"the demo table {args.source!r} plays {demo_game.get('game')}, "
                               f"not {setup['game']}")
            setup["players"] = list(demo_game.get("players") or [])
            script = [e for e in script if e.get("event") != "game"]
    game_ev = setup or next((e for e in script if e.get("event") == "game"), None)
    new_log = not Path(args.log).exists() or Path(args.log).stat().st_size == 0
    logged: list[Event] = []
    if not new_log:  # resuming: the log says which game it is and how far it went
        try:
            logged = read_log(args.log).events
        except OSError as exc:
            return _refuse(str(LogFileError(exc.errno, exc.strerror or str(exc), args.log)))
        if game_ev is None:
            game_ev = next((dict(e.data) for e in logged if e.kind == "game"), None)
        script = unlogged_script(script, logged)
    if new_log and game_ev is None:
        return _refuse("a new log needs its game: --game G --players A B C (or a --script "
                       "holding the game event)")
    if not players:
        players = list((game_ev or {}).get("players") or [])
    if new_log and not players:
        return _refuse("a new log needs the players: --players A B C (clockwise from the "
                       "camera's seat)")
    game = str((game_ev or {}).get("game") or "michigan-rummy")
    if game not in GAME_MODULES:
        return _refuse(f"unknown game {game!r} (known: {', '.join(sorted(GAME_MODULES))})")
    if args.dealer is not None and args.dealer not in players:
        return _refuse(f"the dealer {args.dealer!r} is not one of the players "
                       f"({', '.join(players)})")
    if args.profile:
        profile = TableProfile.load(args.profile)
    else:
        try:
            if source.live:
                frames = [f.image for f in islice(iter(source), 30)]
            else:
                probe = parse_source(args.source)
                frames = [f.image for f in islice(iter(probe), 30)]
                probe.close()
            profile = calibrate(frames, str(game), max(1, len(players)))
        except CalibrationError as exc:
            print(f"companion watch: {exc}", file=sys.stderr)
            return 1
        for warn in profile.meta.get("warnings", []):
            print(f"companion watch: warning: {warn}", file=sys.stderr)
    try:
        detector = build_detector(args, source)
    except (OSError, ValueError) as exc:
        print(f"companion watch: cannot load the detector: {exc}", file=sys.stderr)
        return 2
    from vision.chips import ChipCounter

    look = build_second_look(args, detector)
    config = TrackerConfig(still_time=args.still_time, confirm_below=args.confirm_below)
    from calibration.calibrate import make_refit

    try:
        log = WatchLog(args.log, on_full=_say)   # one writer: the lock says who else writes
    except LogFileError as exc:
        return _refuse(str(exc))
    if log.sealed_line is not None:
        _say(f"line {log.sealed_line} of {args.log} was cut short (the last run stopped while "
             f"writing it); it is kept, reported as damaged and skipped, and its event is read "
             f"from the table again")
    pipe = WatchPipeline(profile, detector, setup, log, script=script,
                         tracker_config=config,
                         chip_counter=ChipCounter() if args.chip_check else None,
                         refit=make_refit(profile) if args.refit_every > 0 else None,
                         refit_every=args.refit_every or 5.0,
                         # nobody answers at a terminal: later readings go on being logged
                         queue_questions=False, second_look=look,
                         average=args.average)
    if pipe.referee is None:
        log.close()
        return _refuse(f"cannot referee {args.log}: " + "; ".join(pipe.errors))
    pipe.stamp_frames = not source.live
    start = resume_frame(logged) if pipe.stamp_frames else None
    if start:
        passed = warm_up(pipe, source, start)
        if passed < start:
            log.close()
            return _refuse(f"{args.log} goes on to frame {start} of {args.source}, which has "
                           f"only {passed}: is it the same video?")
        _say(f"going on with {args.log} after line {log.lines}, from frame {start} of "
             f"{args.source}")
    first = _start_first_round(pipe, args.dealer)
    if first and not args.quiet:
        if args.json:
            print(json.dumps({"line": first[0], **first[1]}, ensure_ascii=False), flush=True)
        else:
            print(f"[   0.00s] line {first[0]}: {first[1]['dealer']} deals the first round",
                  flush=True)
            for text in first[2]:
                print(f"           {text}", flush=True)

    typed = _typed_lines(args.prompt)

    def show(res: FrameResult) -> None:
        while typed is not None and not typed.empty():  # between frames: the pipeline's thread
            logged, said = enter_typed(pipe, typed.get())
            if logged is not None:
                print(f"[{res.t:7.2f}s] line {logged[0]}: {describe_event(logged[1])}", flush=True)
            for text in said:
                print(f"           {text}", flush=True)
        if args.quiet:
            return
        for line, ev in res.events:
            if args.json:
                print(json.dumps({"line": line, **ev}, ensure_ascii=False), flush=True)
            else:
                print(f"[{res.t:7.2f}s] line {line}: {describe_event(ev)}", flush=True)
        if not args.json:
            for text in res.announcements:
                print(f"           {text}", flush=True)
            for text in res.notes:
                print(f"           ({text})", flush=True)

    stop = threading.Event()
    try:
        stats = pipe.run(source, stop, show, realtime=True if args.realtime else None)
    except KeyboardInterrupt:
        stop.set()
        log.close()
        return 130
    except LogFileError as exc:   # the log cannot be written: it is whole up to here
        log.close()
        _say(f"{exc}; stopped. Run the same command again to go on")
        return 1
    if source.ended_early:
        log.close()   # the rest of the script waits for the rest of the game
        _say(f"{source.ended_early}: the game stops here, unfinished ({stats.events} events "
             f"logged to {args.log}). Run the same command on the whole source to go on")
        return 1
    tail = pipe.finish()
    if not args.quiet and not args.json:
        for text in tail:
            print(f"           {text}")
    held = list(pipe.pending.values())
    print(f"{stats.frames} frames in {stats.seconds:.1f} s ({stats.fps:.1f} fps), "
          f"{stats.dropped} dropped; {stats.events} events logged to {args.log}; "
          f"{len(held)} readings await confirmation", file=sys.stderr)
    for p in held:
        print(f"  unconfirmed: {p.describe()}", file=sys.stderr)
    return 0


def _typed_lines(wanted: bool) -> queue.Queue[str] | None:
    """Lines typed at the terminal (or piped with --prompt), read on their own thread, for the
    pipeline to log between frames; None when there is nobody to type."""
    if not (wanted or sys.stdin.isatty()):
        return None
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for text in sys.stdin:
            if text.strip():
                lines.put(text.strip())

    threading.Thread(target=read, name="typed events", daemon=True).start()
    if sys.stdin.isatty():
        _say("type what the camera cannot see: round, keep, exchange, sell, bid, trump, hand, "
             "play, end (help lists them)")
    return lines


def _start_first_round(pipe: TablePipeline, dealer: str | None
                       ) -> tuple[int, dict[str, Any], list[str]] | None:
    """Log the first round of a game that has not begun, when no script will: at a real table
    the camera cannot see the deal, and every card would be held as out of a round. Returns
    the line, the event and the announcements, or None when a round is already under way."""
    ref = pipe.referee
    if ref is None or ref.state.round > 0 or ref.state.finished:
        return None
    if any(e.get("event") == "round" for e in pipe.script):
        return None
    event = {"event": "round", "dealer": dealer or pipe.players[0]}
    line, said = pipe.inject(event)
    return line, event, said


def register_render_table(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "render-table",
        help="render a simulated game on a synthetic table to a video, with its ground truth",
        description=(
            "Simulate a game (or read a log), draw it on a synthetic table (board, cups, chips, "
            "piles growing, hands reaching in, camera perspective and lighting) and write "
            "OUT (video), OUT.truth.jsonl (the log) and OUT.script.jsonl (the events people "
            "enter, for `companion watch --script`)."
        ),
    )
    p.add_argument("--out", required=True, help="video file (.mp4 or .avi)")
    p.add_argument("--game", default="michigan-rummy", choices=sorted(GAME_MODULES))
    p.add_argument("--players", nargs="+", default=["Ann", "Bob", "Cy", "Dee"],
                   help="names (spaces or commas between)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rounds", type=int, default=1, help="rounds (hands) to keep")
    p.add_argument("--log", help="render this log instead of simulating")
    p.add_argument("--fps", type=float, default=10.0)
    p.add_argument("--width", type=int, default=640)
    p.add_argument("--height", type=int, default=480)
    p.add_argument("--deck", help="deck design (default: the demo deck)")
    p.add_argument("--webcam", action="store_true",
                   help="spoil the frames as a cheap webcam in a dim room does: sensor noise "
                        "of 14 grey levels, 1%% of the pixels black or white, half the "
                        "contrast")
    p.add_argument("--blur", type=float, default=0.0,
                   help="draw the table out of focus: a blur of this many pixels (1.2: a "
                        "webcam that misreads cards; `companion calibrate` warns of it)")
    p.set_defaults(func=run_render_table)


def run_render_table(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from vision.render.demo import simulated_round
    from vision.render.plan import DEMO_DECK, WEBCAM_SPOILT, RenderConfig
    from vision.render.table import render_video

    if args.log:
        events = _load_script(args.log)
    else:
        names = split_names(args.players)
        if len(set(names)) != len(names):
            print(f"companion render-table: player names must differ: {', '.join(names)}",
                  file=sys.stderr)
            return 2
        events = simulated_round(args.game, names, seed=args.seed, max_rounds=args.rounds)
    cfg = RenderConfig(width=args.width, height=args.height, fps=args.fps, seed=args.seed,
                       deck=args.deck or DEMO_DECK)
    if args.webcam:
        cfg = replace(cfg, **WEBCAM_SPOILT)
    if args.blur < 0:
        print(f"companion render-table: --blur {args.blur}: a blur is 0 pixels or more",
              file=sys.stderr)
        return 2
    cfg = replace(cfg, blur=args.blur)
    truth = render_video(events, args.out, cfg)
    base = Path(args.out).with_suffix("")
    print(f"wrote {args.out} ({truth.duration:.1f} s, {len(truth.visual)} card events), "
          f"{base}.truth.jsonl, {base}.script.jsonl")
    return 0
