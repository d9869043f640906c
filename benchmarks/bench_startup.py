"""Benchmark: how long `companion referee` takes from the shell, and what it imports.

Issue 15 (finding 14) asks that the referee start in well under 100 ms and never load OpenCV or
numpy. Each run is a fresh interpreter (`python -m companion referee LOG --quiet` on a simulated
5-round game); the figure that counts is the median wall time minus that of a bare interpreter
(`python -c pass`), i.e. what the companion adds to Python's own start. Bytecode is cached (in
a temporary folder) as an installed app's is, after one warm-up run: without the cache every
run compiles every module again, which costs more than everything else together.
Run: ``PYTHONPATH=. python benchmarks/bench_startup.py [--repeat 15]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What a fresh interpreter reports after a referee run: the heavy modules it loaded.
PROBE = ("import sys; from companion.cli import main; main(['referee', sys.argv[1], '--quiet']);"
         "print(sorted({m.split('.')[0] for m in sys.modules} & {'cv2', 'numpy', 'PySide6', "
         "'onnxruntime', 'vision', 'ui', 'calibration'}), file=sys.stderr)")


def wall_ms(cmd: list[str], env: dict[str, str], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, check=True)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(ROOT), PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"))
        log = str(Path(tmp) / "game.jsonl")
        subprocess.run([sys.executable, "-m", "companion", "simulate", "--players", "4",
                        "--out", log], env=env, check=True, stderr=subprocess.DEVNULL)
        referee_cmd = [sys.executable, "-m", "companion", "referee", log, "--quiet"]
        wall_ms(referee_cmd, env, 1)  # warm-up: the bytecode cache
        bare = wall_ms([sys.executable, "-c", "pass"], env, args.repeat)
        referee = wall_ms(referee_cmd, env, args.repeat)
        probe = subprocess.run([sys.executable, "-c", PROBE, log], env=env, text=True,
                               capture_output=True, check=True)
    added = statistics.median(referee) - statistics.median(bare)
    print(f"bare interpreter:         median {statistics.median(bare):6.1f} ms "
          f"(min {min(bare):.1f}) over {args.repeat} runs")
    print(f"companion referee (5 rounds, --quiet): median {statistics.median(referee):6.1f} ms "
          f"(min {min(referee):.1f})")
    print(f"added by the companion:   {added:6.1f} ms median, "
          f"{min(referee) - min(bare):.1f} ms best case (goal: well under 100 ms)")
    print(f"heavy modules loaded:     {probe.stderr.strip() or '[]'} (goal: [])")


if __name__ == "__main__":
    main()
