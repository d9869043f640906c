"""Seeded fuzz of the event log: 2,000 mutated logs of every game, read from bytes and replayed.

Mutations (issue 16): lines dropped, doubled, swapped, fields and events garbled, absurd lines
(deep nesting, numbers of thousands of digits, NaN, lines over the length limit), lone carriage
returns, undecodable bytes, a torn last line, corrections of any line (corrections included).
Every log must replay without an exception or an internal error, conserve chips, print, and name
every problem by a line that exists and holds what the problem says; an absurd line added to a
good log is named and the rest of the game is scored as before.
"""

from __future__ import annotations

import io
import json
import random
from functools import cache
from typing import Any

import pytest

from companion.commands import format_report
from companion.events import MAX_LINE_BYTES, Log, parse_line, read_lines
from companion.referee import Replay, find_simulator, replay, replay_dicts

GAMES = ["michigan-rummy", "great-lakes", "pressman", "boodle", "oh-claire", "wanagan",
         "michigan-rum"]
LOGS_PER_GAME = 2000
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]

VALUES: list[Any] = [None, [], {}, "", "AS", "ZZ", "10♣", -1, 0, 3, 10 ** 14, -(10 ** 14), 1.5,
                     True, ["AS", "AS"], ["2C", "3C", "4C"], {"Ann": []}, "Zed", "x" * 300,
                     [[[["AS"]]]]]
KEYS = ["event", "player", "card", "cards", "dealer", "action", "buyer", "price", "hands",
        "dummy", "line", "with", "chips", "players", "rounds", "tricks", "trump", "kind", "from",
        "meld", "house", "game"]
KINDS = ["play", "reveal", "dummy", "round", "deal", "end-round", "bid", "trump", "hand",
         "draw", "meld", "layoff", "discard", "correct", "game", "x"]


@cache
def base_logs(game: str) -> tuple[tuple[str, ...], ...]:
    """Two short games with rule breaking: one as a camera sees it, one with the deals."""
    sim = find_simulator(game)
    out = []
    for seed, hidden in ((1, True), (2, False)):
        for mistakes in (0.3, 0.1, 0.0):     # some bot mistakes are lines a referee refuses
            events = sim(players=PLAYERS[:3], rounds=1, seed=seed, hidden=hidden,
                         mistakes=mistakes, chips=None, game=game)
            if not replay_dicts(events).errors:
                break
        out.append(tuple(json.dumps(e, ensure_ascii=False) for e in events))
    return tuple(out)


def absurd_line(rng: random.Random) -> str:
    """A line that must be refused whole, with a reason."""
    k = rng.choice([33, 200, 1000, 5000])
    return rng.choice([
        "[" * k + "]" * k,
        '{"event":"play","player":"Ann","card":' + "[" * k + "]" * k + "}",
        '{"event":"game","game":"pressman","players":["Ann","Bob","Cy"],"chips":'
        + "9" * rng.choice([16, 400, 4300, 5000]) + "}",
        '{"event":"dummy","action":"sell","buyer":"Bob","price":1e999}',
        '{"event":"bid","player":"Ann","tricks":NaN}',
        '{"event":"play","player":"Ann","card":"' + "A" * (MAX_LINE_BYTES + 5) + '"}',
    ])


def mutate(lines: list[str], rng: random.Random) -> list[str]:
    out = list(lines)
    for _ in range(rng.randint(1, 5)):
        i = rng.randrange(1, len(out)) if len(out) > 1 else 0
        kind = rng.choice(["drop", "duplicate", "swap", "field", "event", "absurd", "cr",
                           "correct", "correct"])
        if kind == "drop":
            del out[i]
        elif kind == "duplicate":
            out.insert(i, out[i])
        elif kind == "swap":
            j = rng.randrange(1, len(out))
            out[i], out[j] = out[j], out[i]
        elif kind == "field":
            try:
                ev = json.loads(out[i])
            except (ValueError, RecursionError):
                continue
            if isinstance(ev, dict):
                ev[rng.choice(KEYS)] = rng.choice(VALUES)
                out[i] = json.dumps(ev, ensure_ascii=False)
        elif kind == "event":
            ev = {"event": rng.choice(KINDS)}
            for key in rng.sample(KEYS[1:], rng.randint(0, 3)):
                ev[key] = rng.choice(VALUES)
            out.insert(i, json.dumps(ev))
        elif kind == "absurd":
            out.insert(i, absurd_line(rng))
        elif kind == "cr":
            at = rng.randrange(len(out[i]) + 1)
            out[i] = out[i][:at] + "\r" + out[i][at:]
        else:                                 # a correction of any earlier line
            target = rng.randint(1, len(out))
            new = rng.choice([None, "copy", "correct", "junk"])
            with_: Any = None
            if new == "copy":
                try:
                    with_ = json.loads(out[rng.randrange(len(out))])
                except (ValueError, RecursionError):
                    with_ = None
            elif new == "correct":
                with_ = {"event": "correct", "line": 1, "with": None}
            elif new == "junk":
                with_ = rng.choice(VALUES)
            out.append(json.dumps({"event": "correct", "line": target, "with": with_}))
    return out


def to_bytes(lines: list[str], rng: random.Random) -> bytes:
    data = ("\n".join(lines) + "\n").encode("utf-8")
    roll = rng.random()
    if roll < 0.05:                            # undecodable bytes and NULs
        at = rng.randrange(len(data))
        data = data[:at] + rng.choice([b"\xff\xfe", b"\x00", b"\xc3"]) + data[at:]
    elif roll < 0.10:                          # a torn last line (killed mid-write)
        data = data[:rng.randrange(len(data))]
    elif roll < 0.15:                          # Windows line ends
        data = data.replace(b"\n", b"\r\n")
    return data


def read(data: bytes) -> Log:
    log = Log()
    read_lines(io.BytesIO(data), log)
    return log


def check(data: bytes, where: str) -> tuple[Log, Replay]:
    """Read and replay ``data``; everything the issue asks of any log, whatever it holds."""
    log = read(data)
    result = replay(log)
    report = result.report()
    json.dumps(report, ensure_ascii=False)
    format_report(report)
    raw = data.split(b"\n")
    n_lines = len(raw) - (1 if data.endswith(b"\n") else 0)
    for e in result.errors:
        assert "internal error" not in e.text, (where, e)
        if e.line == 0:
            assert e.text == "the log holds no events", (where, e)
            continue
        assert 1 <= e.line <= n_lines and e.text.startswith(f"line {e.line}:"), (where, e)
        assert raw[e.line - 1].strip(), (where, e)        # the named line holds something
    for e in log.errors:                                   # and it is the line that is bad
        text = raw[e.line - 1].decode("utf-8", errors="replace").strip().lstrip("\ufeff")
        if len(raw[e.line - 1]) <= MAX_LINE_BYTES and "longer than" not in e.text:
            with pytest.raises(ValueError):
                parse_line(text, e.line)
    if result.referee is not None:
        book = result.referee.ledger
        balances = book.balances()
        assert sum(balances.values()) == book.total, where         # chips conserved
        if report["game"] != "michigan-rum":          # its report carries points, not chips
            assert sum(report["chips"].values()) + sum(report["pots"].values()) == book.total
        assert all(type(v) is int for v in report["chips"].values()), where
        assert all(v >= 0 for v in balances.values()), where
    return log, result


@pytest.mark.parametrize("game", GAMES)
def test_mutated_logs_never_crash_conserve_chips_and_name_their_lines(game: str) -> None:
    rng = random.Random(f"issue-16:{game}")
    bases = base_logs(game)
    originals = [replay(read(("\n".join(b) + "\n").encode())) for b in bases]
    for o in originals:
        assert o.referee is not None and o.errors == []
    kinds = {"mutated": 0, "absurd": 0, "cr": 0}
    for n in range(LOGS_PER_GAME):
        which = rng.randrange(len(bases))
        lines = list(bases[which])
        where = f"{game} log {n}"
        if n % 8 == 0:
            # One absurd line in a good log: named, and the rest of the game scored as before.
            at = rng.randint(2, len(lines) + 1)
            lines.insert(at - 1, absurd_line(rng))
            data = ("\n".join(lines) + "\n").encode()
            log, result = check(data, where)
            assert [e.line for e in result.errors] == [at], (where, result.errors)
            before, after = originals[which].report(), result.report()
            assert (after["chips"], after["pots"], after["round"]) == (
                before["chips"], before["pots"], before["round"]), where
            kinds["absurd"] += 1
        elif n % 8 == 1:
            # A lone carriage return inside one line: at most that line is refused, and every
            # other line keeps its number.
            at = rng.randrange(len(lines))
            cut = rng.randrange(1, len(lines[at]))
            lines[at] = lines[at][:cut] + "\r" + lines[at][cut:]
            data = ("\n".join(lines) + "\n").encode()
            log, result = check(data, where)
            assert [e.line for e in log.errors] in ([], [at + 1]), (where, log.errors)
            expected = [k for k in range(1, len(lines) + 1) if k != at + 1 or not log.errors]
            assert [e.line for e in log.events] == expected, where
            kinds["cr"] += 1
        else:
            check(to_bytes(mutate(lines, rng), rng), where)
            kinds["mutated"] += 1
    assert sum(kinds.values()) == LOGS_PER_GAME >= 2000
    assert min(kinds.values()) >= 250, kinds
