"""Benchmark: how many Michigan-family rounds the simulator plays per second on one core.

The quality bar (DESIGN.md) is at least 1,000 Michigan Rummy rounds a second, bots only (no
referee). Run: ``python benchmarks/bench_simulator.py [--game G] [--players N] [--seconds S]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.michigan.sim import RULES, simulate_game  # noqa: E402

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
BAR = 1000.0


def measure(game: str, players: int, seconds: float, mistakes: float, rounds: int = 5
            ) -> tuple[float, int]:
    """Rounds per second of CPU time (one process, one core) and the rounds played."""
    played, seed = 0, 0
    start = time.process_time()
    while True:
        simulate_game(NAMES[:players], rounds, seed, mistakes, None, game)
        played += rounds
        seed += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return played / elapsed, played


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", choices=sorted(RULES), action="append",
                    help="rule set (repeatable; default: all four)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    ap.add_argument("--mistakes", type=float, default=0.0)
    args = ap.parse_args(argv)
    games = args.game or ["michigan-rummy", "great-lakes", "pressman", "boodle"]
    ok = True
    for game in games:
        rate, played = measure(game, args.players, args.seconds, args.mistakes)
        mark = ""
        if game == "michigan-rummy":
            ok = rate >= BAR
            mark = "  (bar: >= 1,000: " + ("met" if ok else "NOT met") + ")"
        print(f"{game:15} {args.players} players: {rate:8,.0f} rounds/s "
              f"({played} rounds in {args.seconds:.1f} s CPU){mark}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
