"""Exact chips from a fallible reader (issue 18): rendered rounds of five games read by the demo
table's truth reader made fallible (`vision.render.truth.FallibleReader`), through the pipeline
(zones, tracker, referee, log). For each noise setting it prints:

- rounds exact: the log equals the truth and nobody was asked anything;
- wrong in silence: rounds whose log is still wrong after every question was answered
  truthfully, in a card no question was about (an error nobody was asked about);
- questions per round: held readings a person answered (each stays up ``--answer-after``
  seconds of table time first, as a person takes a moment; the camera's later readings
  settle some of them before that: "settled by the camera");
- exact once answered: rounds whose log equals the truth after the truthful answers.

The harness answers a question from the truth: it picks the one-click answer that is true
(`_true_option`: place by place it puts right or adds rightly a card event and puts wrong
none, and the truth then explains more of the log in order, whatever earlier error it is
not about) when one is, otherwise
types the true events of that player or those cards ("something else"), or rejects a
reading of nothing. Logs are compared with corrections applied, the vision's extra fields
dropped, a revealed hand as a set of cards and the hands shown together at the end of a
round in any order. What people enter (a round ended by hand, MR-13) goes in once the table
has logged every move before it, or at the latest as the next move begins (`enter_by_hand`).
Frames are small (160 x 120, no sensor noise) and the profile is the
renderer's own (calibration is measured elsewhere): the reader's errors are what is
measured.

    python benchmarks/bench_noisy_reader.py --rounds 50 --settings 2,5,stuck
    python benchmarks/bench_noisy_reader.py --rounds 10 --settings model -v   # the models

The ``model`` setting reads the same rounds with the shipped models instead (issue 14): the
whole-card reader zone by zone and the index reader's second looks, on 640 x 480 frames with
the renderer's sensor noise (about 1.5 min a round on 2 cores). ``webcam`` reads them on the
frames of a cheap webcam in a dim room (`WEBCAM_SPOILT`), averaged where the table lies still
as the pipeline does; ``soft`` on those frames out of focus too (a blur of 1.2 px);
``webcam-raw`` and ``model-raw`` read each frame as it comes (no averaging).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.cards import CARD_CODES  # noqa: E402
from companion.events import Event, apply_corrections, read_log  # noqa: E402
from vision.denoise import AVERAGE_FRAMES  # noqa: E402
from vision.pipeline.results import Pending, picked, placed_play  # noqa: E402
from vision.pipeline.table import TablePipeline  # noqa: E402
from vision.readers.load import demo_readers  # noqa: E402
from vision.render.demo import RenderedSource, simulated_round  # noqa: E402
from vision.render.plan import VISUAL_EVENTS, WEBCAM_SPOILT, RenderConfig  # noqa: E402
from vision.render.table import TableVideo  # noqa: E402
from vision.render.truth import FallibleReader  # noqa: E402

GAMES = ("michigan-rummy", "great-lakes", "pressman", "boodle", "oh-claire")
#: Fields only the vision adds (or the renderer's truth has).
EXTRA = ("t", "confidence", "t_placed", "t_free")
SETTINGS: dict[str, dict[str, float]] = {
    "0": {"misread": 0.0, "drop": 0.0},
    "2": {"misread": 0.02, "drop": 0.02},
    "5": {"misread": 0.05, "drop": 0.05},
    "stuck": {"stuck": 0.03},
    # The shipped models (the whole-card reader zone by zone, the index reader's second
    # looks) on full-size frames (640 x 480, with the renderer's sensor noise).
    "model": {"model": 1.0},
    # The same on the frames of a cheap webcam in a dim room (`WEBCAM_SPOILT`), averaged
    # where the table lies still as the pipeline averages them (`vision.denoise.StillAverage`) ...
    "webcam": {"model": 1.0, "webcam": 1.0},
    # ... and with its focus soft too (`RenderConfig` ``blur``, pixels).
    "soft": {"model": 1.0, "webcam": 1.0, "blur": 1.2},
    # ... and each frame read as it comes (``average`` 0), as before averaging, for both.
    "webcam-raw": {"model": 1.0, "webcam": 1.0, "raw": 1.0},
    "model-raw": {"model": 1.0, "raw": 1.0},
}


def normalise(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Corrections applied, the vision's extra fields dropped, and the orders a camera cannot
    know made canonical (a revealed hand is a set; a multi-card play keeps its first card)."""
    resolved, _ = apply_corrections([Event(dict(e), i + 1) for i, e in enumerate(events)])
    out = []
    for ev in resolved:
        row = {k: v for k, v in ev.data.items() if k not in EXTRA}
        if row.get("event") == "play" and "cards" in row:
            row["cards"] = row["cards"][:1] + sorted(row["cards"][1:])
        if row.get("event") == "reveal":
            row["cards"] = sorted(row["cards"])
        out.append(row)
    # The hands shown at the end of a round are shown together: their order is not the game's.
    k = 0
    while k < len(out):
        j = k
        while j < len(out) and out[j].get("event") == "reveal":
            j += 1
        out[k:j] = sorted(out[k:j], key=lambda e: str(e.get("player")))
        k = max(j, k + 1)
    return out


@dataclass
class Outcome:
    game: str
    seed: int
    exact: bool = False
    exact_answered: bool = False
    questions: int = 0
    settled: int = 0  # held, then settled by the camera's own later readings before an answer
    needed: int = 0  # questions whose truthful answer was not "nothing happened"
    typed: int = 0  # answers that were none of the one-click ones
    texts: list[str] = field(default_factory=list)
    diff: str = ""
    #: Every card a question was about (its reading and its answers).
    asked_cards: set[str] = field(default_factory=set)
    #: Wrong after the answers, in a card no question was about (or only in order, unasked).
    silent: bool = False


def _cards(events: Sequence[Mapping[str, Any]]) -> set[str]:
    out: set[str] = set()
    for ev in events:
        for item in [ev, ev.get("with") or {}]:
            if "card" in item:
                out.add(str(item["card"]))
            out.update(str(c) for c in item.get("cards") or [])
    return out


def _visual(events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in normalise(events) if e.get("event") in VISUAL_EVENTS]


def _common(got: list[dict[str, Any]], truth: list[dict[str, Any]]) -> int:
    """How many events of ``got`` the truth explains in order (their longest common
    subsequence)."""
    keys = [json.dumps(e, sort_keys=True) for e in truth]
    row = [0] * (len(keys) + 1)
    for e in got:
        k = json.dumps(e, sort_keys=True)
        prev, row = row, [0]
        for j, t in enumerate(keys):
            row.append(prev[j] + 1 if k == t else max(prev[j + 1], row[j]))
    return row[-1]


def _added(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[int]:
    """The places in ``after`` of the lines it adds to ``before`` when it is ``before`` with
    lines added and none changed; [] otherwise."""
    out, i = [], 0
    for j, e in enumerate(after):
        if i < len(before) and e == before[i]:
            i += 1
        else:
            out.append(j)
    return out if i == len(before) else []


def _between_as_played(got: list[dict[str, Any]], i: int,
                       truth_visual: list[dict[str, Any]]) -> bool:
    """Whether the play ``got[i]`` follows the same card event as in the truth and comes
    before the same one (or last)."""
    return got[i].get("event") == "play" and any(
        t == got[i] and (0 < i and 0 < j and got[i - 1] == truth_visual[j - 1])
        and (i + 1 == len(got) or j + 1 < len(truth_visual) and got[i + 1] == truth_visual[j + 1])
        for j, t in enumerate(truth_visual))


def _true_option(log: list[dict[str, Any]], events: list[dict[str, Any]],
                 truth_visual: list[dict[str, Any]]) -> bool:
    """Whether a one-click answer is true as a person judges it, whatever earlier error it is
    not about (Oh Claire! 317: "Ann's 3♦ was 3♥" is true although Dee's 6♣, read as 9♣ for
    as long as it showed, is still logged as 9♣). Two checks, each guarding the other: place
    by place, the answer puts right or adds rightly a card event of the log and puts wrong
    none (what it changes is right: Boodle 113, "Cy's 7♣ was 7♠" logs Cy's new 7♣ rightly
    but his first card was 2♣); and the truth then explains, in its order, more of the log's
    card events and leaves no more unexplained, or as many and fewer unexplained (place by
    place alone is fooled where an earlier card is missing and every later one stands a
    place off: Boodle 518, "10♠, then A♣" where Cy's A♣ came first; in order alone, by a
    card matched to a later one: Great Lakes 446)."""
    before, after = _visual(log), _visual(log + events)

    def wrong(got: list[dict[str, Any]]) -> set[int]:
        return {i for i, e in enumerate(got) if i >= len(truth_visual) or e != truth_visual[i]}

    bad_before, bad_after = wrong(before), wrong(after)
    changed = {i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b}
    in_place = bad_after <= bad_before and not changed & bad_after \
        and (bad_after != bad_before or len(after) > len(before))
    # Lines added and nothing else changed: each added play right where it stands, each
    # added hand shown one the truth shows (the lines after a play moved a place; some may
    # stay wrong for a later card still missing: Great Lakes 1106, Bob's Q♠ added before
    # Dee's K♠, with his hand, where Cy's K♦ is missing later too).
    # A play added is right where it stands also where it comes between the same two card
    # events as in the truth, an earlier card still missing (Great Lakes 1506, tigullio:
    # "Ann played 4♣ before Ann's 5♣", between her 3♥ and 5♣ as played, where Cy's 2♦ was
    # never logged earlier: every later line stands a place off).
    added = _added(before, after)
    in_place = in_place or bool(added) and all(
        i < len(truth_visual) and after[i] == truth_visual[i]
        or after[i].get("event") == "reveal" and after[i] in truth_visual
        or _between_as_played(after, i, truth_visual) for i in added)
    # More explained and no more unexplained; or as much explained and less unexplained (a
    # line withdrawn: one card logged twice, Boodle 623).
    had, has = _common(before, truth_visual), _common(after, truth_visual)
    return in_place and has >= had and len(after) - has <= len(before) - had \
        and (has > had or len(after) < len(before))


def _rightness(log: list[dict[str, Any]], events: list[dict[str, Any]],
               truth_visual: list[dict[str, Any]]) -> tuple[int, int]:
    """How right the log is once ``events`` are logged: the card events the truth explains in
    order, and less the ones it does not."""
    after = _visual(log + events)
    has = _common(after, truth_visual)
    return has, has - len(after)


def truthful_answer(p: Pending, log: list[dict[str, Any]], truth_visual: list[dict[str, Any]],
                    truth_times: list[float]) -> tuple[list[dict[str, Any]] | None, bool]:
    """(events to log, one-click?) for question ``p``, from the truth; None: reject it. Of the
    true one-click answers, the person takes the one that leaves the log most right, the
    first of equals (Pressman 1092: "Dee played 4♥? (after 3♦ the lead is in a black suit)
    — 4♥ / ... / Dee's 3♦ was 3♥": both are true, and the person who saw the 3♥ takes the
    second, where the first left the 3♦ wrong)."""
    true = [[dict(e) for e in o.events] for o in p.options if o.events and o.picks is None
            and _true_option(log, [dict(e) for e in o.events], truth_visual)]
    # An answer that picks a player's card ("Cy: another card…"): the person names the card
    # they saw in the dialog it opens (a click on the card picker, counted as typed); taken
    # over a one-click answer only where it leaves the log more right (Boodle 402: Cy's 2♦
    # never read before his 2♥; "2♦" for the 2♥ logs a true card, but not the 2♥).
    # (given, what it logs)
    named = [(evs, evs) for o in p.options if o.picks is not None and not o.places
             for card in CARD_CODES
             if _true_option(log, evs := picked(o.events, card), truth_visual)]
    # "Cy: another card, earlier…": named, the card's places are offered, or the one logged;
    # the person who saw where it was played judges it by that place's events.
    named += [(picked(o.events, str(placed_play(a.events[0]).get("card"))), evs)
              for o in p.options if o.picks is not None for a in o.places
              if _true_option(log, evs := [dict(e) for e in a.events], truth_visual)]
    best = max(true, key=lambda evs: _rightness(log, evs, truth_visual)) if true else None
    if named:
        pick = max(named, key=lambda n: _rightness(log, n[1], truth_visual))
        if best is None or _rightness(log, pick[1], truth_visual) \
                > _rightness(log, best, truth_visual):
            return pick[0], False
    if best is not None:
        return best, True
    # The true moves around the moment the cards settled that the log lacks, of the player
    # asked about or with a card the question names (an earlier error elsewhere in the log
    # is not what this question is about: Oh Claire! 328, "Dee played Q♠ or Q♣?" is
    # answered "as logged", not with Cy's 2♠ logged as 2♣ a moment before).
    got = _visual(log)
    lo, hi = p.observation.t_still - 2.5, p.observation.t_still + 0.6
    about = _cards([p.event or {}, {"cards": p.observation.cards},
                    *(e for o in p.options for e in o.events)])
    who = (p.event or {}).get("player")
    want = []
    for e, t in zip(truth_visual, truth_times, strict=True):
        if e in got:
            got.remove(e)
        elif lo <= t <= hi and (e.get("player") == who or _cards([e]) & about):
            want.append(e)
    if not want:
        return None, any(not o.events for o in p.options)
    for option in p.options:
        plain = [dict(e) for e in option.events if e.get("event") != "correct"]
        if len(plain) == len(option.events) and _visual(plain) == want:
            return plain, True
    return want, False


def enter_by_hand(pipe: TablePipeline, moves: Sequence[Any], now: float) -> None:
    """What people enter (the script: a round ended by hand, MR-13; a bid; a new round),
    entered at the latest as the next move's cards start to be laid, as a person records it,
    where the table holds nothing for them. The table itself logs the script once it has
    logged every move before it; with a card it never read it never does (Michigan 83:
    Bob's K♥ never read, the round ended by hand, and the hands shown read as plays)."""
    while pipe.script and not pipe.holding:
        at = int(pipe.script[0].get("at", 0))
        if at >= len(moves) or now < moves[at].t0:
            return
        pipe.inject({k: v for k, v in pipe.script.pop(0).items() if k != "at"})


def run_round(game: str, seed: int, noise: Mapping[str, float], fps: float,
              verbose: bool, answer_after: float = 3.0, deck: str | None = None,
              never: frozenset[str] = frozenset()) -> Outcome:
    """One rendered round through the pipeline, its questions answered from the truth.
    ``never``: cards the fallible reader never reads."""
    events = simulated_round(game, seed=seed)
    look = None
    if noise.get("model"):
        cfg = RenderConfig(fps=fps, seed=seed)
        if noise.get("webcam"):
            cfg = replace(cfg, **WEBCAM_SPOILT)
        if noise.get("blur"):
            cfg = replace(cfg, blur=noise["blur"])
        video = TableVideo(events, cfg if deck is None else replace(cfg, deck=deck))
        source = RenderedSource(video)
        reader, name, look = demo_readers(source, "model")
        if look is None:
            raise SystemExit(f"the shipped models cannot be loaded: {name}")
    else:
        # Small frames without sensor noise: the reader here reads the renderer's truth, so
        # only the cards' visibility (computed on the table canvas) matters, not the pixels.
        video = TableVideo(events, RenderConfig(width=160, height=120, fps=fps, seed=seed,
                                                noise=0.0))
        source = RenderedSource(video)
        reader = FallibleReader(source, seed=seed * 7919 + 17,
                                misread=noise.get("misread", 0.0), drop=noise.get("drop", 0.0),
                                stuck=noise.get("stuck", 0.0))
        reader.never = never
    truth = video.truth
    truth_visual = _visual(truth.events)
    truth_times = [float(e.get("t_placed", 0.0)) for e in truth.visual]
    out = Outcome(game, seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        pipe = TablePipeline(video.profile(), reader, None, path, script=truth.script,
                             second_look=look,
                             average=0 if noise.get("raw") else AVERAGE_FRAMES)
        shown: set[int] = set()

        def answer_all(now: float) -> None:
            while pipe.pending:
                # (an answer may put a question anew: a hand typed in a card short)
                shown.update(pipe.pending)
                pid, held = next(iter(pipe.pending.items()))
                if now - held.asked < answer_after:
                    return  # a person takes a moment to look
                out.questions += 1
                out.texts.append(held.describe())
                out.asked_cards.update(_cards([held.event, {"cards": held.observation.cards},
                                               *(e for o in held.options for e in o.events)]))
                log = [dict(e.data) for e in read_log(path).events]
                evs, clicked = truthful_answer(held, log, truth_visual, truth_times)
                if evs is None:
                    pipe.reject(pid)
                    continue
                out.needed += 1
                out.typed += 0 if clicked else 1
                pipe.answer(pid, evs)

        while True:
            frame = source.read()
            if frame is None:
                break
            pipe.process(frame.image, frame.t, frame.index)
            answer_all(frame.t)
            enter_by_hand(pipe, truth.moves, frame.t)
        answer_all(float("inf"))
        while pipe.flush().pending:  # the video ended: what waited behind the last questions
            answer_all(float("inf"))
        pipe.finish()
        got = [dict(e.data) for e in read_log(path).events]
        out.settled = len(shown) - out.questions
    norm_got, norm_truth = normalise(got), normalise(truth.events)
    out.exact_answered = norm_got == norm_truth
    out.exact = out.exact_answered and out.questions == 0
    if not out.exact_answered:
        extra, missing = list(norm_got), []
        for e in norm_truth:
            if e in extra:
                extra.remove(e)
            else:
                missing.append(e)
        wrong = _cards(extra + missing)
        out.silent = bool(wrong - out.asked_cards) or (not wrong and out.questions == 0)
    if not out.exact_answered:
        for i, (a, b) in enumerate(zip(norm_got, norm_truth, strict=False)):
            if a != b:
                out.diff = f"event {i}: logged {a} / truth {b}"
                break
        else:
            out.diff = f"{len(norm_got)} events logged, {len(norm_truth)} true"
    if verbose:
        state = "exact" if out.exact else "exact once answered" if out.exact_answered \
            else "WRONG IN SILENCE" if out.silent else "wrong, asked"
        print(f"  {game:15s} seed {seed:3d}: {state}; {out.questions} question(s) "
              f"{out.texts} {out.diff}", flush=True)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=10,
                    help="rounds per setting, spread evenly over the five games")
    ap.add_argument("--settings", default="2,5,stuck",
                    help="comma-separated: 0 (no noise), 2 and 5 (per-frame misread and drop "
                         "rates in percent, e.g. 3.5), stuck (3%% of cards misread the same "
                         "way for 2-5 s), model (the shipped models, full-size frames), "
                         "webcam (the models on a cheap webcam's frames, averaged where "
                         "still), webcam-raw and model-raw (each frame read as it comes)")
    ap.add_argument("--first-seed", type=int, default=100)
    ap.add_argument("--fps", type=float, default=10.0)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--answer-after", type=float, default=3.0,
                    help="seconds (table time) a question stays up before the harness answers "
                         "it, as a person would; the camera's later readings may settle it "
                         "first")
    ap.add_argument("--deck", default=None,
                    help="model setting: the deck design on the table (default the demo's; "
                         "e.g. dondorf, a held-out design the models never saw)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per round")
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    noises: dict[str, dict[str, float]] = {}
    for name in args.settings.split(","):
        rate = None if name in SETTINGS else float(name) / 100.0
        noises[name] = SETTINGS[name] if rate is None else {"misread": rate, "drop": rate}
        print(f"setting {name}: {noises[name]}", flush=True)
    # Round k of every setting before round k + 1 of any: a run cut short still covers all.
    outcomes: dict[str, list[Outcome]] = {name: [] for name in noises}
    seconds = dict.fromkeys(noises, 0.0)
    for k in range(args.rounds):
        for name, noise in noises.items():
            began = time.perf_counter()
            if args.verbose:
                print(f"[{name}]", end="", flush=True)
            outcomes[name].append(run_round(games[k % len(games)], args.first_seed + k, noise,
                                            args.fps, args.verbose, args.answer_after,
                                            args.deck))
            seconds[name] += time.perf_counter() - began
    rows = []
    for name, done in outcomes.items():
        n = len(done)
        rows.append((name, n, sum(o.exact for o in done), sum(o.silent for o in done),
                     sum(o.questions for o in done) / max(1, n),
                     sum(o.questions == 0 for o in done),
                     sum(o.exact_answered for o in done),
                     sum(o.typed for o in done), sum(o.settled for o in done), seconds[name]))
    print()
    print(f"{', '.join(games)}; seeds {args.first_seed}-{args.first_seed + args.rounds - 1}; "
          f"questions answered {args.answer_after:g} s after they are put")
    print("| setting | rounds | exact | wrong in silence | questions / round | rounds without "
          "a question | exact once answered | answers typed | settled by the camera | "
          "seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, n, exact, silent, qpr, quiet, answered, typed, settled, secs in rows:
        print(f"| {name} | {n} | {exact} | {silent} | {qpr:.2f} | {quiet} | {answered} | "
              f"{typed} | {settled} | {secs:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
