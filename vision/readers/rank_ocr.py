"""The rank of a corner index read by an off-the-shelf text recogniser, scored per rank.

The recogniser is PP-OCRv4's (``ch_PP-OCRv4_rec_infer.onnx``), shipped inside the
``rapidocr-onnxruntime`` wheel (Apache-2.0; nothing is downloaded). We run its ONNX file with
onnxruntime ourselves: instead of decoding free text, the likelihood of each of the 13 rank
strings (``A``, ``2`` ... ``10``, ``J``, ``Q``, ``K``) is computed from its CTC output, so the
answer is a distribution over ranks that fuses with the rank head's.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.readers.onnx import cpu_session

#: The rank strings in `vision.readers.index_heads.RANKS` order.
RANK_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Height and width the recogniser reads (its training height is 48).
HEIGHT, WIDTH = 48, 72


def recogniser_path() -> Path | None:
    """The recogniser inside the installed ``rapidocr-onnxruntime`` wheel, or None."""
    spec = importlib.util.find_spec("rapidocr_onnxruntime")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "models" / "ch_PP-OCRv4_rec_infer.onnx"
    return path if path.exists() else None


def _ctc_log_likelihood(logp: np.ndarray, label: Sequence[int], blank: int = 0) -> float:
    """log p(label | frame log-probabilities ``logp`` (T, C)) by the CTC forward pass."""
    ext = [blank]
    for c in label:
        ext += [c, blank]
    s_len, t_len = len(ext), logp.shape[0]
    alpha = np.full(s_len, -np.inf)
    alpha[0] = logp[0, ext[0]]
    if s_len > 1:
        alpha[1] = logp[0, ext[1]]
    for t in range(1, t_len):
        prev = alpha
        alpha = np.full(s_len, -np.inf)
        for s in range(s_len):
            a = prev[s]
            if s >= 1:
                a = np.logaddexp(a, prev[s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                a = np.logaddexp(a, prev[s - 2])
            alpha[s] = a + logp[t, ext[s]]
    return float(np.logaddexp(alpha[-1], alpha[-2]) if s_len > 1 else alpha[-1])


class RankOCR:
    """Scores the 13 ranks for upright index patches with the PP-OCRv4 recogniser."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 1) -> None:
        path = Path(model_path) if model_path else recogniser_path()
        if path is None or not path.exists():
            raise FileNotFoundError("the PP-OCRv4 recogniser was not found: install "
                                    "rapidocr-onnxruntime (pip install -e '.[vision]')")
        self.session = cpu_session(path, threads)
        chars = self.session.get_modelmeta().custom_metadata_map["character"].splitlines()
        table = {c: i + 1 for i, c in enumerate(chars)}  # 0 is the CTC blank
        self.labels = [[table[c] for c in text] for text in RANK_TEXT]
        self.input = self.session.get_inputs()[0].name

    def prepare(self, upright: np.ndarray) -> np.ndarray:
        """One upright index cut (grey or BGR) -> the recogniser's input (3, H, W): the rank
        is the upper part of the index."""
        img = upright if upright.ndim == 3 else cv2.cvtColor(upright, cv2.COLOR_GRAY2BGR)
        h, w = img.shape[:2]
        top = img[: max(2, int(round(h * 0.58)))]
        th, tw = top.shape[:2]
        nw = min(WIDTH, max(8, int(round(tw * HEIGHT / th))))
        resized = cv2.resize(top, (nw, HEIGHT), interpolation=cv2.INTER_LINEAR)
        x = resized.astype(np.float32).transpose(2, 0, 1) / 255.0
        out = np.zeros((3, HEIGHT, WIDTH), np.float32)
        out[:, :, :nw] = (x - 0.5) / 0.5
        return out

    def rank_probs(self, uprights: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """For each upright cut: rank probabilities (N, 13) and how well the best rank string
        explains the picture (N,), a log-likelihood (near 0: clearly that text)."""
        if not len(uprights):
            return np.zeros((0, 13)), np.zeros(0)
        batch = np.stack([self.prepare(u) for u in uprights])
        probs = np.asarray(self.session.run(None, {self.input: batch})[0])  # (N, T, C)
        logp = np.log(np.clip(probs, 1e-9, 1.0))
        ll = np.array([[_ctc_log_likelihood(lp, lab) for lab in self.labels] for lp in logp])
        e = np.exp(ll - ll.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True), ll.max(axis=1)
