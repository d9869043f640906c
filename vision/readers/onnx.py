"""One way to open an ONNX model on the CPU, for every network the readers run.

A reader runs several networks one after another on each frame (the index reader: the
localiser, the heads, the rank OCR, the whole-card detector and its crop classifier). By
default each onnxruntime session keeps its own pool of threads spinning for a while after a
run, waiting for the next; on a laptop's two cores the pool of the network that just ran
then takes the cores from the one that runs next. Sessions opened here stop their threads
spinning as each run ends (they still spin within a run, between one operator and the next,
which letting them sleep throughout would slow). `benchmarks/bench_detector.py`, 640x480
frames, this machine's 2 cores, back to back: the card reader 54-78 ms median spinning,
34-40 ms asleep, 31-35 ms stopped at each run's end; the hybrid 525-529, 335 and 269-277 ms
(models/README.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def cpu_session(path: str | Path, threads: int = 2) -> Any:
    """An onnxruntime session for ``path`` on the CPU with ``threads`` threads for each
    operator, one operator at a time, its threads stopped at the end of each run, and only
    errors logged."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = int(threads)
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    # Threads that spin on after a run hold the cores the next network needs.
    opts.add_session_config_entry("session.force_spinning_stop", "1")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
