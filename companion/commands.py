"""The core subcommands: `companion referee` (replay a log) and `companion simulate` (bots play).

Both need only the standard library; the pixel and window subcommands are registered elsewhere.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from typing import Any

from companion.cards import pretty_name
from companion.events import read_log, write_log
from companion.referee import GAME_MODULES, find_simulator, replay, replay_dicts


def register_referee(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "referee",
        help="replay a game log and print chips, announcements and violations",
        description=(
            "Replay an event log (JSON Lines) and print the state of the game: chips in front "
            "of each player and in every cup, what was announced after each event, every rule "
            "broken with the line that proves it, and every line that could not be used. "
            "Exit status 0 when the log was read (violations are findings), 2 when the file "
            "cannot be read. The log's events and the report are described in docs/events.md, "
            "the rulings the referee applies in docs/rules.md (both in the repository)."
        ),
    )
    p.add_argument("log", help="the game's event log (.jsonl)")
    p.add_argument("--json", action="store_true",
                   help="print the report as one JSON object (docs/events.md)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="without --json: omit the announcements, print only the summary")
    p.set_defaults(func=run_referee)


def run_referee(args: argparse.Namespace) -> int:
    try:
        log = read_log(args.log)
    except OSError as exc:
        print(f"companion referee: cannot read {args.log}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    if not log.events and log.errors:
        # Not one line is an event: a photo, a table profile, some other file.
        first = min(log.errors, key=lambda e: e.line)
        print(f"companion referee: {args.log} is not an event log (JSON Lines, one event per "
              f"line): no line holds an event; {first.text}", file=sys.stderr)
        return 2
    report = replay(log).report()
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(format_report(report, announcements=not args.quiet))
    return 0


#: "line 12" in a referee's sentence, with the space and brackets around it when it has them.
_LINE_MENTION = re.compile(r"( ?\()?\bline (\d+)(?(1)\))")


def format_report(report: dict[str, Any], announcements: bool = True,
                  rounds: Sequence[int] | None = None) -> str:
    """The referee's report for people. Announcements and violations are placed by the line of
    the log they come from, or, given ``rounds`` (the round of each line, for a game whose log
    the reader never sees), by their round."""
    def place(line: int) -> str:
        if rounds is None:
            return f"line {line:>4}"
        n = rounds[line - 1]
        return f"round {n:>2}" if n else "start   "

    def said(text: str, line: int) -> str:
        """The referee's sentence; by round, its mentions of other lines become rounds (and
        go when they name the sentence's own round)."""
        if rounds is None:
            return text
        own = rounds[line - 1]

        def by_round(m: re.Match[str]) -> str:
            n = rounds[min(max(int(m.group(2)), 1), len(rounds)) - 1]
            if m.group(1):
                return "" if n == own else f" (round {n})"
            return f"round {n}"
        return _LINE_MENTION.sub(by_round, text)

    def proof(line: int, proof_line: int) -> str:
        if rounds is None:
            return f" (proof: line {proof_line})"
        later = rounds[proof_line - 1]
        return f" (proven in round {later})" if later != rounds[line - 1] else ""

    out: list[str] = []
    game = report.get("game") or "(no game)"
    state = "finished" if report.get("finished") else f"round {report.get('round')}"
    out.append(f"{game} — {state}")
    if announcements and report["announcements"]:
        out.append("")
        out.append("Announcements:")
        for a in report["announcements"]:
            out.append(f"  {place(a['line'])}: {said(a['text'], a['line'])}")
    out.append("")
    # Michigan Rum scores points, not chips (its report carries points under "chips").
    out.append("Points:" if report.get("game") == "michigan-rum" else "Chips:")
    chips = report["chips"]
    width = max((len(p) for p in chips), default=4)
    for player, n in sorted(chips.items(), key=lambda kv: (-kv[1], kv[0])):
        out.append(f"  {player:<{width}}  {n:>4}")
    pots = {k: v for k, v in report["pots"].items()}
    if pots:
        out.append("Board:")
        width = max(len(pretty_name(k)) for k in pots)
        for cup, n in pots.items():
            out.append(f"  {pretty_name(cup):<{width}}  {n:>4}")
    out.append("")
    if report["violations"]:
        out.append(f"Violations ({len(report['violations'])}):")
        for v in report["violations"]:
            out.append(f"  {place(v['line'])}: {v['player']} — {v['rule']}"
                       f"{proof(v['line'], v['proof_line'])}: {said(v['text'], v['line'])}")
    else:
        out.append("Violations: none")
    if report["errors"]:
        out.append(f"Problems in the log ({len(report['errors'])}):")
        for e in report["errors"]:
            out.append(f"  {said(e['text'], e['line']) if e['line'] else e['text']}")
    return "\n".join(out)


def round_of_each_line(events: Sequence[dict[str, Any]]) -> list[int]:
    """The round each event of a log belongs to (0 before the first ``round`` event)."""
    out, n = [], 0
    for ev in events:
        n += ev.get("event") == "round"
        out.append(n)
    return out


def register_simulate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="let bots play a whole game and write its event log",
        description=(
            "Bots play a whole game and the event log is written (to --out or standard "
            "output). Without --hidden the log includes the deal (full information); with "
            "--hidden it holds only what the camera and the players would see. --mistakes P "
            "makes the bots break rules with probability P so the referee has something to "
            "catch. With --show the referee's report (announcements, chips, violations) is "
            "printed instead of the log, each line placed by its round; with --show and --out "
            "the log is written too and the report names its lines."
        ),
    )
    p.add_argument("--game", "-g", default="michigan-rummy", choices=sorted(GAME_MODULES))
    p.add_argument("--players", "-n", nargs="+", default=["4"],
                   help="number of players, or their names (separated by spaces or commas)")
    p.add_argument("--rounds", "-r", type=int, default=None, help="rounds (game default)")
    p.add_argument("--seed", "-s", type=int, default=0)
    p.add_argument("--chips", type=int, default=None, help="starting chips per player")
    p.add_argument("--hidden", action="store_true", help="write only what the table sees")
    p.add_argument("--mistakes", type=float, default=0.0, metavar="P",
                   help="probability that a bot breaks a rule at a chance to (0..1)")
    p.add_argument("--out", "-o", help="write the log here instead of standard output")
    p.add_argument("--show", action="store_true",
                   help="print the referee's report instead of the log")
    p.set_defaults(func=run_simulate)


DEFAULT_NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


def split_names(values: str | Sequence[str]) -> list[str]:
    """Player names as typed on a command line: ``Ann Bob Cy``, ``Ann,Bob,Cy`` or a mix."""
    parts = [values] if isinstance(values, str) else list(values)
    return [n for part in parts for n in re.split(r"[,\s]+", part) if n]


def player_names(spec: str | Sequence[str]) -> list[str]:
    """``4`` (that many default names) or the players' names, spaces or commas between."""
    names = split_names(spec)
    if len(names) == 1 and names[0].isdigit():
        n = int(names[0])
        if not 2 <= n <= len(DEFAULT_NAMES):
            raise SystemExit(f"companion simulate: --players must be 2..{len(DEFAULT_NAMES)}")
        return DEFAULT_NAMES[:n]
    if len(set(names)) != len(names):
        raise SystemExit("companion simulate: player names must differ")
    return names


def run_simulate(args: argparse.Namespace) -> int:
    if not 0.0 <= args.mistakes <= 1.0:
        print("companion simulate: --mistakes must be between 0 and 1", file=sys.stderr)
        return 2
    simulate = find_simulator(args.game)
    try:
        events = simulate(players=player_names(args.players), rounds=args.rounds,
                          seed=args.seed, hidden=args.hidden, mistakes=args.mistakes,
                          chips=args.chips, game=args.game)
    except ValueError as exc:
        print(f"companion simulate: {exc}", file=sys.stderr)
        return 2
    if args.out:
        write_log(args.out, events)
        print(f"wrote {len(events)} events to {args.out}", file=sys.stderr)
    if args.show:
        report = replay_dicts(events).report()
        print(format_report(report, rounds=None if args.out else round_of_each_line(events)))
    elif not args.out:
        for ev in events:
            sys.stdout.write(json.dumps(ev, ensure_ascii=False) + "\n")
    return 0
