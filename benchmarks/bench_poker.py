"""Benchmark the poker evaluator on one core: 5-card evaluations and best-of-13 per second.

Run: ``python benchmarks/bench_poker.py`` (goals: evaluate >= 300,000/s, best of 13 >= 20,000/s).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.cards import full_deck  # noqa: E402
from companion.poker import best_hand, code_of, evaluate, rank5_fast, worst_hand  # noqa: E402


def rate(label: str, items: Sequence[object], run: Callable[[], object],
         goal: float | None = None, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    per_s = len(items) / best
    verdict = ""
    if goal is not None:
        verdict = f"  (goal {goal:,.0f}: {'met' if per_s >= goal else 'MISSED'})"
    print(f"{label:<34}{per_s:>12,.0f} /s{verdict}")
    return per_s


def main() -> None:
    rng = random.Random(2024)
    deck = full_deck()
    evaluate(deck[:5])  # build the tables outside the timing
    fives = [rng.sample(deck, 5) for _ in range(200_000)]
    codes = [tuple(code_of(c) for c in h) for h in fives]
    thirteens = [rng.sample(deck, 13) for _ in range(20_000)]
    seventeens = [rng.sample(deck, 17) for _ in range(5_000)]

    def run_fast() -> None:
        for a, b, c, d, e in codes:
            rank5_fast(a, b, c, d, e)

    def run_evaluate() -> None:
        for h in fives:
            evaluate(h)

    def run_best13() -> None:
        for h in thirteens:
            best_hand(h)

    def run_worst13() -> None:
        for h in thirteens:
            worst_hand(h)

    def run_best17() -> None:
        for h in seventeens:
            best_hand(h)

    print(f"Python {sys.version.split()[0]}, one core")
    ok = rate("rank5_fast (5 card codes)", codes, run_fast)
    ok = rate("evaluate (5 cards -> HandRank)", fives, run_evaluate, 300_000) >= 300_000
    ok &= rate("best_hand of 13 cards", thirteens, run_best13, 20_000) >= 20_000
    rate("worst_hand of 13 cards", thirteens, run_worst13)
    rate("best_hand of 17 cards", seventeens, run_best17)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
