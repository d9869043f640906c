"""Benchmark: how long `companion referee` takes from the shell, and what it imports.

Issue 15 (finding 14) asks that the referee start in well under 100 ms and never load OpenCV or
numpy. Each run is a fresh interpreter (`python -m companion referee LOG --quiet` on a simulated
5-round game); the figure that counts is what the companion adds to Python's own start: the
referee's time minus that of a bare interpreter (`python -c pass`). Runs of the two alternate,
so that a machine busy with other work slows both alike, and each is timed twice: wall time,
and the CPU time the process used (user + system), which another program's load changes far
less. Bytecode is cached (in a temporary folder) as an installed app's is, and the data folder
is a temporary one whose house-rule cache the warm-up run fills, as the first command does for
a user: without them every run would compile every module and parse the rules again.

A development checkout (``pip install -e``) adds its import hook to every interpreter's start,
bare ones too, and that hook imports modules the companion would otherwise import itself (re,
pathlib ...): so the added figure is smaller there than in a normal install. ``--installed``
times the copy installed in ``--python``'s environment instead of this checkout.

Run: ``python benchmarks/bench_startup.py [--repeat 21]``, or for what a user gets:
``python -m venv /tmp/v && /tmp/v/bin/pip install . && python benchmarks/bench_startup.py
--python /tmp/v/bin/python --installed``.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def timed(cmd: list[str], env: dict[str, str], cwd: str) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one run, in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1000, cpu * 1000


def line(name: str, runs: list[float]) -> str:
    return f"median {statistics.median(runs):6.1f} ms, min {min(runs):6.1f}  {name}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=21, help="runs of each (default 21)")
    ap.add_argument("--python", default=sys.executable,
                    help="the interpreter to time (default: this one)")
    ap.add_argument("--installed", action="store_true",
                    help="time the companion installed for --python, not this checkout")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
        env.update(PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache"),
                   COMPANION_DATA_DIR=str(Path(tmp) / "data"))
        if not args.installed:
            env["PYTHONPATH"] = str(ROOT)
        log = str(Path(tmp) / "game.jsonl")
        subprocess.run([args.python, "-m", "companion", "simulate", "--players", "4",
                        "--out", log], env=env, check=True, stderr=subprocess.DEVNULL,
                       cwd=tmp)
        referee_cmd = [args.python, "-m", "companion", "referee", log, "--quiet"]
        bare_cmd = [args.python, "-c", "pass"]
        timed(referee_cmd, env, tmp)  # warm-up: the bytecode and house-rule caches
        bare: list[tuple[float, float]] = []
        referee: list[tuple[float, float]] = []
        for _ in range(args.repeat):
            bare.append(timed(bare_cmd, env, tmp))
            referee.append(timed(referee_cmd, env, tmp))
        probe = subprocess.run([args.python, "-c", PROBE, log], env=env, text=True,
                               capture_output=True, check=True, cwd=tmp)
        where = subprocess.run([args.python, "-c", "import companion; print(companion.__file__)"],
                               env=env, text=True, capture_output=True, check=True, cwd=tmp)
    print(f"companion from {Path(where.stdout.strip()).parent}, {args.repeat} runs of each, "
          f"alternating")
    for i, kind in enumerate(("wall", "CPU")):
        b = [r[i] for r in bare]
        r = [x[i] for x in referee]
        print(f"{kind} time")
        print("  " + line("bare interpreter", b))
        print("  " + line("companion referee (5 rounds, --quiet)", r))
        print(f"  added by the companion: {statistics.median(r) - statistics.median(b):6.1f} ms "
              f"median, {min(r) - min(b):.1f} ms best case")
    print("goal: well under 100 ms in all (issue 15); the aim: about 50 ms in all")
    print(f"heavy modules loaded: {probe.stderr.strip() or '[]'} (goal: [])")


if __name__ == "__main__":
    main()
