"""A played card the camera never reads: rendered rounds of the five games, read by the demo
table's truth reader blind to one card played in the round (laid and covered before any frame
shows it), through the whole pipeline, its questions answered from the truth as
`bench_noisy_reader.py` answers them. For each game it prints how many rounds end:

- exact: the log equals the truth and nobody was asked anything (the log alone placed it);
- exact once answered: the log equals the truth after the truthful answers;
- wrong, asked: still wrong, but in a card a question was about;
- wrong in silence: still wrong in a card no question was about;

and the questions a run put on average, and how many answers were typed in or named in a
dialog ("Cy: another card…") rather than clicked.

The cards are drawn per round from its plays of one card (``--per-round``, seeded by the
round's seed), so two runs measure the same cases; with ``--in-moves``, from its moves of
several cards (Great Lakes dumps and straights; the other games make none).

    python benchmarks/bench_missed_card.py --seeds 8 --per-round 3
    python benchmarks/bench_missed_card.py --games great-lakes --in-moves --seeds 8
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_noisy_reader import GAMES, Outcome, run_round  # noqa: E402

from vision.render.demo import simulated_round  # noqa: E402

NO_NOISE = {"misread": 0.0, "drop": 0.0}


def cases(game: str, seed: int, per_round: int, in_moves: bool = False) -> list[str]:
    """The cards of round ``seed`` of ``game`` that go unread, one per run: drawn from its
    plays of one card, or with ``in_moves`` from its moves of several (a Great Lakes dump or
    straight, GL-3, GL-4)."""
    events = simulated_round(game, seed=seed)
    plays = [str(c) for e in events if e.get("event") == "play" for c in e.get("cards") or []] \
        if in_moves else [str(e["card"]) for e in events
                          if e.get("event") == "play" and "card" in e]
    return random.Random(seed).sample(plays, min(per_round, len(plays)))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--first-seed", type=int, default=20)
    ap.add_argument("--seeds", type=int, default=8, help="rounds per game")
    ap.add_argument("--per-round", type=int, default=3, help="cards left unread, one per run")
    ap.add_argument("--in-moves", action="store_true",
                    help="draw the cards from moves of several cards (Great Lakes dumps)")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per run")
    args = ap.parse_args(argv)
    rows = []
    for game in [g for g in args.games.split(",") if g]:
        began = time.perf_counter()
        done: list[Outcome] = []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            for card in cases(game, seed, args.per_round, args.in_moves):
                if args.verbose:
                    print(f"[{card} unread]", end="", flush=True)
                done.append(run_round(game, seed, NO_NOISE, 10.0, args.verbose,
                                      never=frozenset({card})))
        rows.append((game, len(done), sum(o.exact for o in done),
                     sum(o.exact_answered and not o.exact for o in done),
                     sum(not o.exact_answered and not o.silent for o in done),
                     sum(o.silent for o in done),
                     sum(o.questions for o in done) / max(1, len(done)),
                     sum(o.typed for o in done), time.perf_counter() - began))
    print()
    print(f"seeds {args.first_seed}-{args.first_seed + args.seeds - 1}, {args.per_round} "
          f"card(s) a round{' of its moves of several cards' if args.in_moves else ''}, "
          f"each never read in one run")
    print("| game | runs | exact | exact once answered | wrong, asked | wrong in silence | "
          "questions / run | typed | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for game, n, exact, answered, asked, silent, qpr, typed, secs in rows:
        print(f"| {game} | {n} | {exact} | {answered} | {asked} | {silent} | {qpr:.2f} | "
              f"{typed} | {secs:.0f} |")
    total = [sum(r[i] for r in rows) for i in (1, 2, 3, 4, 5, 7)]
    print(f"| all | {total[0]} | {total[1]} | {total[2]} | {total[3]} | {total[4]} | | "
          f"{total[5]} | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
