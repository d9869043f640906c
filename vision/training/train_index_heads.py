"""Training recipe for the index heads: rank, suit, orientation and is-index from one grey patch.

    python -m vision.training.index_data --crops-only          # datasets/index/crops-*.npz
    python -m vision.training.train_index_heads --minutes 12   # train, export the heads' ONNX
    python -m vision.training.train_index_heads --eval-only    # re-measure the shipped heads

A small CNN trained from scratch with torch on the CPU (time-budgeted, resumable from its last
state); exported to ONNX with four named outputs. Training only: the app runs the ONNX file
through `vision.readers.index_heads.IndexHeads`.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np

from vision.readers.index_heads import (
    PATCH,
    PATCH_MARGIN,
    RANKS,
    SUITS,
    fade_outside,
    normalise,
    softmax,
)

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "datasets" / "index"
STATE = REPO / "runs" / "index" / "heads.pt"
OUT = REPO / "models" / "index_heads.onnx"
#: The shipped heads' training state, committed so that a later session can go on training.
CHECKPOINT = REPO / "models" / "checkpoints" / "index_heads.pt"


def build_model() -> Any:
    import torch
    from torch import nn

    def conv(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
        return [nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class Heads(nn.Module):
        """About 15 M multiply-adds per patch: it must train in minutes on one CPU thread."""

        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(*conv(1, 24, 2), *conv(24, 32), nn.MaxPool2d(2),
                                      *conv(32, 64), *conv(64, 64), nn.MaxPool2d(2),
                                      *conv(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                      nn.Dropout(0.1))
            self.rank = nn.Linear(128, len(RANKS))
            self.suit = nn.Linear(128, len(SUITS))
            self.orient = nn.Linear(128, 4)
            self.is_index = nn.Linear(128, 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
            f = self.body(x)
            return self.rank(f), self.suit(f), self.orient(f), self.is_index(f)[:, 0]

    return Heads()


def state_from_onnx(path: Path, patches: np.ndarray) -> dict[str, Any]:
    """A trainable state dict for `build_model` from exported heads (`export`), whose
    batch norms the export folded into the convolutions. Each batch norm is given back the
    statistics of its convolution's output on ``patches`` (normalised like the runtime's) and
    the scale and shift that undo them, so the rebuilt model computes exactly what the ONNX
    file computes in evaluation and trains on from there as from the original state."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    init = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    fused = [(init[n.input[1]], init[n.input[2]]) for n in graph.node if n.op_type == "Conv"]
    model = build_model()
    convs = [m for m in model.body if isinstance(m, torch.nn.Conv2d)]
    norms = [m for m in model.body if isinstance(m, torch.nn.BatchNorm2d)]
    if len(fused) != len(convs):
        raise ValueError(f"{path}: {len(fused)} convolutions, the heads have {len(convs)}")
    stats: list[tuple[torch.Tensor, torch.Tensor]] = []
    with torch.no_grad():
        for conv, bn, (w, b) in zip(convs, norms, fused, strict=True):
            assert bn.running_mean is not None and bn.running_var is not None
            conv.weight.copy_(torch.from_numpy(w.copy()))
            bn.running_mean.zero_()
            bn.running_var.fill_(1 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b.copy()))
        for name in ("rank", "suit", "orient", "is_index"):
            layer = getattr(model, name)
            layer.weight.copy_(torch.from_numpy(init[f"m.{name}.weight"]))
            layer.bias.copy_(torch.from_numpy(init[f"m.{name}.bias"]))
        hooks = [c.register_forward_hook(lambda _m, _i, o: stats.append(
            (o.mean(dim=(0, 2, 3)), o.var(dim=(0, 2, 3))))) for c in convs]
        model.eval()
        model(torch.from_numpy(normalise(patches)))
        for h in hooks:
            h.remove()
        for bn, (_w, b), (mu, var) in zip(norms, fused, stats, strict=True):
            assert bn.running_mean is not None and bn.running_var is not None
            bn.running_mean.copy_(mu)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(torch.from_numpy(b) + mu)
    return {"model": model.state_dict(), "step": 0}


def load(path: Path) -> dict[str, np.ndarray]:
    """A crops split; ``extent`` (each box's width and height in its patch) NaN where the
    split was cut before it was kept."""
    with np.load(path) as z:
        data = {k: z[k] for k in z.files}
    if "extent" not in data:
        data["extent"] = np.full((len(data["x"]), 2), np.nan, np.float32)
    return data


def faded(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A crops split with each patch faded outside its box (`fade_outside`), as heads that
    fade read it; patches whose box is not known are left as they are."""
    known = ~np.isnan(data["extent"]).any(axis=1)
    x = data["x"].copy()
    x[known] = fade_outside(x[known], data["extent"][known])
    return {**data, "x": x}


def faded_extent(extent: np.ndarray, angle: float, zoom: float) -> np.ndarray:
    """A box's extent in its patch after the patch was turned ``angle`` degrees and zoomed:
    the upright box around the turned one, as the localiser would box the tilted index."""
    a = math.radians(angle)
    w, h = float(extent[0]), float(extent[1])
    return np.array([abs(w * math.cos(a)) + abs(h * math.sin(a)),
                     abs(w * math.sin(a)) + abs(h * math.cos(a))]) * zoom


def augment(rng: np.random.Generator, x: np.ndarray, orient: np.ndarray,
            wide_tilt: float = 0.0, shapes: bool = False, webcam: float = 0.0,
            extent: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Quarter turns (orientation follows), inversion, contrast, blur, noise, tilts: small
    ones, and for a ``wide_tilt`` share of the patches any tilt up to 40 degrees (an index of a
    card lying askew, which the quarter turns alone never bring upright). With ``shapes``,
    also what other decks and tables change (`reshape`); a ``webcam`` share of the patches is
    seen as a webcam across a table shows an index (`webcam_view`). With ``extent`` (each
    patch's box in it, `box_extent`), what lies outside the box is faded as heads that fade
    read it (`fade_outside`; after the tilt and the camera's spoilers, as the runtime fades a
    patch cut from a spoilt frame; patches whose box is not known are left)."""
    import cv2

    out = np.empty_like(x)
    ori = orient.copy()
    for i in range(len(x)):
        p = x[i]
        u = rng.random()
        angle, zoom = 0.0, 1.0
        if u < 0.5:  # a tilt and zoom about the centre
            angle = rng.uniform(-40, 40) if u < wide_tilt else rng.normal(0, 10)
            zoom = rng.uniform(0.9, 1.1)
            m = cv2.getRotationMatrix2D((PATCH / 2, PATCH / 2), angle, zoom)
            p = cv2.warpAffine(p, m, (PATCH, PATCH), borderMode=cv2.BORDER_REPLICATE)
        if shapes:
            p = reshape(rng, p, x[int(rng.integers(0, len(x)))])
        if rng.random() < webcam:
            p = webcam_view(rng, p)
        if rng.random() < 0.2:
            p = cv2.GaussianBlur(p, (0, 0), rng.uniform(0.5, 1.3))
        if extent is not None and not np.isnan(extent[i]).any():
            p = fade_outside(p[None], faded_extent(extent[i], angle, zoom)[None])[0]
        k = int(rng.integers(0, 4))
        p = np.rot90(p, k)
        if ori[i] >= 0:
            ori[i] = (ori[i] - k) % 4  # turned k quarter turns anticlockwise
        f = p.astype(np.float32)
        if rng.random() < 0.15:
            f = 255 - f  # light ink on a dark face
        f = (f - 128) * rng.uniform(0.5, 1.3) + 128 + rng.normal(0, 20)
        if rng.random() < 0.3:
            f += rng.normal(0, rng.uniform(3, 12), f.shape)
        if rng.random() < 0.1:  # salt and pepper
            s = rng.random(f.shape)
            f[s < 0.01] = 0
            f[s > 0.99] = 255
        out[i] = np.clip(f, 0, 255).astype(np.uint8)
    return out, ori


def webcam_view(rng: np.random.Generator, p: np.ndarray) -> np.ndarray:
    """One patch as a cheap webcam across a table shows it, spoilt at the size the index has
    in the frame, not at the patch's: the patch shrunk so the index is 11-30 px tall, its
    contrast squashed towards a grey cast (dim, washed out), blurred, noised, sprinkled with
    salt and pepper that the reader's median filter then smears (`despeckled`), JPEG'd, and
    enlarged back as `index_patch` enlarges a small box. A one-pixel blur in a frame where the
    index is 15 px tall spreads over four of the patch's 48 pixels: the blur and noise of
    `augment`, drawn on the patch itself, never reach that."""
    import cv2

    side = max(8, round(rng.uniform(11, 30) * (1 + 2 * PATCH_MARGIN)))
    f: np.ndarray = cv2.resize(p, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    gain = rng.uniform(0.35, 0.9)
    f = f * gain + rng.uniform(0, 255 * (1 - gain))
    if rng.random() < 0.7:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.2))
    f += rng.normal(0, rng.uniform(1, 10), f.shape)
    u: np.ndarray = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        s = rng.random(u.shape)
        share = rng.uniform(0.003, 0.015)
        u[s < share] = 0
        u[s > 1 - share] = 255
        u = cv2.medianBlur(u, 3)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", u, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 80))])
        back = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE) if ok else None
        if back is not None:
            u = back
    return np.asarray(cv2.resize(u, (PATCH, PATCH), interpolation=cv2.INTER_LINEAR))


def reshape(rng: np.random.Generator, p: np.ndarray, other: np.ndarray) -> np.ndarray:
    """One patch as another deck or a crowded table might show it: the type narrower or wider
    (the index stretched across, 0.75-1.3), its strokes bolder or finer (half-blended with a
    grey erosion or dilation), and a strip of another patch along one side (the neighbouring
    card's index beside it in a pile or spread; the labels stay this patch's)."""
    import cv2

    if rng.random() < 0.3:
        a = float(np.exp(rng.uniform(np.log(0.75), np.log(1.3))))
        m = np.array([[a, 0, PATCH / 2 * (1 - a)], [0, 1, 0]], np.float64)
        p = cv2.warpAffine(p, m, (PATCH, PATCH), borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.2:
        k = np.ones((2, 2), np.uint8)
        bold = cv2.erode(p, k) if rng.random() < 0.5 else cv2.dilate(p, k)
        p = ((p.astype(np.uint16) + bold) // 2).astype(np.uint8)
    if rng.random() < 0.2:
        w = int(rng.integers(6, 14))
        p = p.copy()
        side = int(rng.integers(0, 4))  # which edge: left, right, top, bottom
        src = other[:, PATCH // 2 - w // 2:PATCH // 2 - w // 2 + w]  # the other's index
        if side == 0:
            p[:, :w] = src
        elif side == 1:
            p[:, PATCH - w:] = src
        elif side == 2:
            p[:w, :] = src.T
        else:
            p[PATCH - w:, :] = src.T
    return p


def evaluate(predict: Any, data: dict[str, np.ndarray]) -> dict[str, float]:
    """Shares right on a crops split: rank, suit, both (the code), orientation (where known),
    and is-index (indices and negatives)."""
    probs = predict(data["x"])
    pos = data["is_index"] == 1
    rank_ok = probs["rank"].argmax(1) == data["rank"]
    suit_ok = probs["suit"].argmax(1) == data["suit"]
    known = pos & (data["orient"] >= 0)
    res = {"indices": float(pos.sum()), "negatives": float((~pos).sum()),
           "rank": float(rank_ok[pos].mean()) if pos.any() else math.nan,
           "suit": float(suit_ok[pos].mean()) if pos.any() else math.nan,
           "code": float((rank_ok & suit_ok)[pos].mean()) if pos.any() else math.nan,
           "orient": float((probs["orient"].argmax(1) == data["orient"])[known].mean())
           if known.any() else math.nan,
           "is_index": float(((probs["is_index"] > 0.5) == pos).mean())}
    return res


def train(minutes: float, lr: float, threads: int, seed: int, resume: bool,
          real_share: float = 0.0, wide_tilt: float = 0.0, from_onnx: Path | None = None,
          drawn: bool = False, shapes: bool = False, state_path: Path = STATE,
          clutter: bool = False, webcam: float = 0.0, fade: bool = False) -> Any:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    data = load(DATA / "crops-train.npz")
    # Real indices mined from whole-card photos; the localiser's own boxes, true and false;
    # with ``drawn``, indices drawn in type faces (`vision.training.font_indices`; tried in
    # the tenth session, not in the shipped recipe); with ``clutter``, real table clutter as
    # negatives (`vision.training.index_data.clutter_negatives`).
    extras = (["crops-mined.npz", "crops-proposals.npz"] + (["crops-fonts.npz"] if drawn else [])
              + (["crops-clutter.npz"] if clutter else []))
    for extra in extras:
        if (DATA / extra).exists():
            more = load(DATA / extra)
            data = {k: np.concatenate([data[k], more[k]]) for k in data}
    # Chosen by the code read right on the true index boxes of the validation scenes and, when
    # built, on the localiser's own boxes of the validation scenes and photos.
    vals = [load(DATA / name) for name in ("crops-val.npz", "crops-proposals-val.npz")
            if (DATA / name).exists()]
    if fade:  # heads that fade are chosen on patches faded as the runtime fades them
        vals = [faded(v) for v in vals]
    extent = data["extent"] if fade else None
    # Real indices (their orientation is unknown) and everything else, sampled apart so that
    # ``real_share`` of each batch is real.
    real = np.flatnonzero((data["orient"] < 0) & (data["is_index"] == 1))
    other = np.setdiff1d(np.arange(len(data["x"])), real)
    n, batch = len(data["x"]), 96
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    step0 = 0
    start = state_path if state_path.exists() else CHECKPOINT
    if from_onnx is not None:
        sample = rng.permutation(n)[:4096]  # batch-norm statistics as training sees patches
        seen = augment(rng, data["x"][sample], data["orient"][sample].astype(np.int64),
                       wide_tilt, shapes, webcam,
                       None if extent is None else extent[sample])[0]
        model.load_state_dict(state_from_onnx(from_onnx, seen)["model"])
        print(f"started from {from_onnx}")
    elif resume and start.exists():
        state = torch.load(start, weights_only=False)
        model.load_state_dict(state["model"])
        step0 = int(state.get("step", 0))
        print(f"resumed from {start} at step {step0}")
    print(f"{n} training patches ({int(data['is_index'].sum())} indices, {len(real)} real)")
    t0, step, best = time.time(), 0, -1.0
    budget = minutes * 60
    state_path.parent.mkdir(parents=True, exist_ok=True)
    while time.time() - t0 < budget:
        frac = min(1.0, (time.time() - t0) / budget)
        for g in opt.param_groups:  # warm-up then cosine, on the clock
            g["lr"] = lr * min(1.0, (step + 1) / 200) * (0.05 + 0.95 * 0.5 * (1 + math.cos(
                math.pi * frac)))
        if real_share > 0 and len(real):
            k = int(round(batch * real_share))
            idx = np.concatenate([real[rng.integers(0, len(real), k)],
                                  other[rng.integers(0, len(other), batch - k)]])
        else:
            idx = rng.integers(0, n, batch)
        xb, ob = augment(rng, data["x"][idx], data["orient"][idx].astype(np.int64), wide_tilt,
                         shapes, webcam, None if extent is None else extent[idx])
        x = torch.from_numpy(normalise(xb))
        r = torch.from_numpy(data["rank"][idx].astype(np.int64))
        s = torch.from_numpy(data["suit"][idx].astype(np.int64))
        o = torch.from_numpy(ob)
        isx = torch.from_numpy(data["is_index"][idx].astype(np.float32))
        model.train()
        lr_, ls_, lo_, li_ = model(x)
        pos = isx > 0.5
        loss = F.binary_cross_entropy_with_logits(li_, isx)
        if pos.any():
            loss = loss + F.cross_entropy(lr_[pos], r[pos], label_smoothing=0.05) \
                + F.cross_entropy(ls_[pos], s[pos], label_smoothing=0.05)
        known = pos & (o >= 0)
        if known.any():
            loss = loss + 0.5 * F.cross_entropy(lo_[known], o[known])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 500 == 0 or time.time() - t0 >= budget:
            score = []
            for k, val in enumerate(vals):
                res = evaluate(lambda xs: predict_torch(model, xs), val)
                score.append(res["code"])
                print(f"step {step0 + step} ({time.time() - t0:.0f} s) loss {loss.item():.3f} "
                      f"val{k} code {res['code']:.3f} rank {res['rank']:.3f} "
                      f"suit {res['suit']:.3f} orient {res['orient']:.3f} "
                      f"is_index {res['is_index']:.3f}", flush=True)
            state = {"model": model.state_dict(), "step": step0 + step}
            torch.save(state, state_path)
            if float(np.mean(score)) >= best:
                best = float(np.mean(score))
                torch.save(state, state_path.with_name("heads-best.pt"))
    return model


def predict_torch(model: Any, patches: np.ndarray) -> dict[str, np.ndarray]:
    import torch

    model.eval()
    outs: list[list[np.ndarray]] = [[], [], [], []]
    with torch.no_grad():
        for i in range(0, len(patches), 512):
            res = model(torch.from_numpy(normalise(patches[i:i + 512])))
            for k, t in enumerate(res):
                outs[k].append(t.numpy())
    rank, suit, ori, isx = (np.concatenate(o) for o in outs)
    return {"rank": softmax(rank), "suit": softmax(suit), "orient": softmax(ori),
            "is_index": 1 / (1 + np.exp(-isx))}


def export(model: Any, out: Path = OUT, fade: bool = False) -> Path:
    import torch

    class WithFeature(torch.nn.Module):
        """The heads plus the 128-value feature they read (teach-deck refits the rank and
        suit layers on it)."""

        def __init__(self) -> None:
            super().__init__()
            self.m = model

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
            f = self.m.body(x)
            return (self.m.rank(f), self.m.suit(f), self.m.orient(f), self.m.is_index(f)[:, 0],
                    f)

    model.eval()
    dummy = torch.zeros(1, 1, PATCH, PATCH)
    out.parent.mkdir(parents=True, exist_ok=True)
    names = ["rank", "suit", "orient", "is_index", "feature"]
    torch.onnx.export(WithFeature().eval(), (dummy,), str(out), input_names=["patch"],
                      output_names=names, opset_version=17,
                      dynamic_axes={"patch": {0: "n"}, **{k: {0: "n"} for k in names}},
                      dynamo=False)
    # The rank and suit layers as arrays, so teach-deck can refit them without torch.
    np.savez(out.with_name(out.stem + "-layers.npz"),
             rank_w=model.rank.weight.detach().numpy(), rank_b=model.rank.bias.detach().numpy(),
             suit_w=model.suit.weight.detach().numpy(), suit_b=model.suit.bias.detach().numpy())
    meta: dict[str, Any] = {"ranks": RANKS, "suits": SUITS, "patch": PATCH,
                            "input": "grey patch, per-patch normalised "
                                     "(vision.readers.index_heads.normalise)"}
    if fade:
        meta["fade"] = True  # read patches faded outside their box (IndexHeads.cut)
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--resume", action="store_true",
                    help="continue from runs/index/heads.pt, else models/checkpoints/")
    ap.add_argument("--real-share", type=float, default=0.0,
                    help="share of each batch drawn from the real index patches")
    ap.add_argument("--wide-tilt", type=float, default=0.0,
                    help="share of patches tilted by up to 40 degrees (else up to ~20)")
    ap.add_argument("--from-onnx", type=Path, default=None,
                    help="start from exported heads (e.g. models/index_heads.onnx) instead "
                         "of a saved state")
    ap.add_argument("--drawn", action="store_true",
                    help="also train on datasets/index/crops-fonts.npz (python -m "
                         "vision.training.font_indices; not in the shipped recipe)")
    ap.add_argument("--clutter", action="store_true",
                    help="also train on datasets/index/crops-clutter.npz (python -m "
                         "vision.training.index_data --clutter): real table clutter as "
                         "negatives")
    ap.add_argument("--shapes", action="store_true",
                    help="also narrower and wider type, bolder and finer strokes, and a "
                         "neighbour's index along one side (`reshape`)")
    ap.add_argument("--webcam", type=float, default=0.0,
                    help="share of patches spoilt as a webcam across a table shows an index, "
                         "at the index's own size in the frame (`webcam_view`)")
    ap.add_argument("--fade", action="store_true",
                    help="train (and export) heads that read patches faded outside their "
                         "box (`fade_outside`): a neighbouring card's pips beside a narrow "
                         "index are not read as its suit")
    ap.add_argument("--out", type=Path, default=OUT,
                    help="where to export (and measure) the heads' ONNX")
    ap.add_argument("--state", type=Path, default=STATE,
                    help="the training state to write and resume from (and, beside it, "
                         "heads-best.pt)")
    ap.add_argument("--eval-only", action="store_true", help="measure the heads at --out")
    ap.add_argument("--export-only", action="store_true",
                    help="export the best state (runs/index/heads-best.pt) and measure it")
    args = ap.parse_args(argv)
    if not args.eval_only:
        import torch

        if not args.export_only:
            train(args.minutes, args.lr, args.threads, args.seed, args.resume,
                  args.real_share, args.wide_tilt, args.from_onnx, args.drawn, args.shapes,
                  args.state, args.clutter, args.webcam, args.fade)
        model = build_model()
        model.load_state_dict(torch.load(args.state.with_name("heads-best.pt"),
                                         weights_only=False)["model"])
        print(f"exported {export(model, args.out, args.fade)}")
    from vision.readers.index_heads import IndexHeads

    for tta in (False, True):
        heads = IndexHeads(args.out, tta=tta)
        for split in ("crops-val", "crops-real-val", "crops-proposals-val", "crops-heldout"):
            path = DATA / f"{split}.npz"
            if path.exists():
                data = load(path)
                res = evaluate(heads.read, faded(data) if heads.fade else data)
                print(f"{split} (tta={tta}): " + ", ".join(
                    f"{k} {v:.3f}" if k not in ("indices", "negatives") else f"{k} {int(v)}"
                    for k, v in res.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
