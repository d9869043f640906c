"""Benchmark: milliseconds to replay a whole 5-round game log with the Michigan-family referee.

DESIGN.md asks for under 50 ms per 5-round game (the replay includes the per-event checkpoint).
Run: ``PYTHONPATH=. python benchmarks/bench_referee.py [--repeat 30]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from companion.events import Event
from companion.referee import find_simulator, replay

EXAMPLES = Path(__file__).resolve().parents[1] / "tests" / "golden"
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def from_example(name: str, rounds: int = 5) -> list[dict[str, Any]]:
    """A ``rounds``-round log made by repeating the rounds of an example game."""
    lines = [json.loads(x) for x in (EXAMPLES / f"{name}.jsonl").read_text().splitlines() if x]
    head, parts = lines[0], []
    for ev in lines[1:]:
        if ev["event"] == "round":
            parts.append([ev])
        else:
            parts[-1].append(ev)
    out = [dict(head, rounds=rounds)]
    for i in range(rounds):
        out.extend(parts[i % len(parts)])
    return out


def simulated(game: str, seed: int, hidden: bool, mistakes: float) -> list[dict[str, Any]] | None:
    try:
        sim = find_simulator(game)
    except (ValueError, ImportError):
        return None
    return sim(PLAYERS, 5, seed, hidden, mistakes, 50, game=game)


def time_replay(events: list[dict[str, Any]], repeat: int) -> tuple[float, float, int]:
    evs = [Event(e, n) for n, e in enumerate(events, start=1)]
    result = replay(evs)
    assert result.referee is not None and not result.errors, result.errors[:3]
    assert result.referee.state.finished, "the log is not a whole game"
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        replay(evs)
        times.append((time.perf_counter() - t0) * 1000)
    return min(times), statistics.median(times), len(evs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    logs: list[tuple[str, list[dict[str, Any]]]] = [
        ("michigan-rummy-mistakes x5 rounds", from_example("michigan-rummy-mistakes")),
        ("pressman-mistakes x5 rounds", from_example("pressman-mistakes")),
    ]
    for game in ("michigan-rummy", "great-lakes", "pressman", "boodle"):
        for hidden in (True, False):
            ev = simulated(game, 7, hidden, 0.1)
            if ev is not None:
                logs.append((f"{game} simulated, {'hidden' if hidden else 'full'}", ev))
    worst = 0.0
    for label, events in logs:
        best, median, n = time_replay(events, args.repeat)
        worst = max(worst, median)
        print(f"{label:<40} {n:>4} events  best {best:6.1f} ms  median {median:6.1f} ms")
    print(f"slowest median: {worst:.1f} ms per 5-round game (bar: 50 ms)")


if __name__ == "__main__":
    main()
