"""Benchmark: card-level precision and recall on the real dev photos spoilt as a cheap webcam or
a phone spoils pictures of a table, one condition at a time.

The real photos of `../shared/real-cards-dev` (never trained on) are copied into a temporary
folder with each condition applied (seeded), then read by the reader as `companion detect`
reads photos (`vision.training.detector_eval.evaluate`). The photos stay outside the project.

- ``clean``: as they are;
- ``grey``: grayscale;
- ``webcam``: dim (x0.55) with a grey-green cast, soft (Gaussian blur 1.2 px), sensor noise
  (sigma 6), 1% salt and 1% pepper, JPEG quality 45;
- ``webcam-small``: the same at 0.6 of the size (indices 6-10 px tall);
- ``stretched``: squashed to a square (the issue's frames stretched to 640 x 640).

    python benchmarks/bench_real_spoilt.py [--reader hybrid|index|card] [--conditions webcam,grey]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.readers.load import load_reader  # noqa: E402
from vision.training.detector_eval import evaluate  # noqa: E402

CONDITIONS = ("clean", "grey", "webcam", "webcam-small", "stretched")


def spoil(image: np.ndarray, condition: str, rng: np.random.Generator
          ) -> tuple[np.ndarray, float, float]:
    """The image in ``condition``, and the x and y scale its boxes take."""
    h, w = image.shape[:2]
    if condition == "clean":
        return image, 1.0, 1.0
    if condition == "grey":
        return cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR), 1, 1
    if condition == "stretched":
        side = max(h, w)
        return cv2.resize(image, (side, side), interpolation=cv2.INTER_LINEAR), side / w, side / h
    scale = 0.6 if condition == "webcam-small" else 1.0
    if scale != 1.0:
        image = cv2.resize(image, (round(w * scale), round(h * scale)),
                           interpolation=cv2.INTER_AREA)
    soft = cv2.GaussianBlur(image, (0, 0), 1.2)
    f = soft.astype(np.float32) * 0.55 + np.array([20, 22, 18], np.float32)
    f += rng.normal(0, 6, f.shape)
    spots = rng.random(f.shape[:2])
    f[spots < 0.01] = 0
    f[spots > 0.99] = 255
    ok, buf = cv2.imencode(".jpg", np.clip(f, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, 45])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out, out.shape[1] / w, out.shape[0] / h


def spoilt_set(src: Path, dst: Path, condition: str, seed: int) -> None:
    """Copy the labelled photos of ``src`` into ``dst`` in ``condition``, boxes scaled."""
    rng = np.random.default_rng([seed, CONDITIONS.index(condition)])
    lines = []
    for line in (src / "labels.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        image = cv2.imread(str(src / rec["image"]))
        if image is None:
            raise FileNotFoundError(src / rec["image"])
        out, sx, sy = spoil(image, condition, rng)
        cv2.imwrite(str(dst / Path(rec["image"]).with_suffix(".png").name), out)
        rec["image"] = Path(rec["image"]).with_suffix(".png").name
        rec["width"], rec["height"] = out.shape[1], out.shape[0]
        for card in rec["cards"]:
            x1, y1, x2, y2 = card["box"]
            card["box"] = [x1 * sx, y1 * sy, x2 * sx, y2 * sy]
        lines.append(json.dumps(rec))
    (dst / "labels.jsonl").write_text("\n".join(lines) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dev", default=str(ROOT.parent / "shared" / "real-cards-dev"))
    ap.add_argument("--reader", choices=["auto", "index", "hybrid", "card"], default="auto")
    ap.add_argument("--conditions", default=",".join(CONDITIONS))
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    src = Path(args.dev)
    if not (src / "labels.jsonl").is_file():
        print(f"no labelled photos in {src}")
        return 2
    reader = load_reader(args.reader)
    print(f"reader: {args.reader} ({type(reader).__name__}); photos: {src}")
    t0 = time.time()
    for condition in args.conditions.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            spoilt_set(src, Path(tmp), condition, args.seed)
            r = evaluate(reader, tmp)
        print(f"  {condition:<13} {r['cards']:4d} cards: precision {r['card_precision']:.3f} "
              f"recall {r['card_recall']:.3f}", flush=True)
    print(f"  {time.time() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
