"""Training scenes from the synthetic table renderer: whole board frames as a webcam sees them.

The renderer knows every card's box and whether a corner index shows, so its frames become
YOLO-labelled training images of the exact situation the app faces (piles growing in seat
zones, trick areas, chips, hands reaching in, camera perspective and lighting), drawn with the
training deck designs. Held-out decks are never used. Labels follow the card detector's rule:
a card is labelled when at least one corner index is visible, with a box around the part of
it that shows (an earlier version boxed the whole card, so a card mostly covered by the next
one in a revealed row got a box over its neighbour).

    python -m vision.training.table_dataset --videos 160 --frames 5 \
        --out datasets/cards/table-train
    python -m vision.training.table_dataset --views --videos 300 --frames 3 \
        --out datasets/cards/views-train

``--views`` writes what the live pipeline feeds the detector instead: each readable zone
warped top-down and upright for its seat (`vision.zones`), with a margin of 8 to 45 board
units, labelled from the cards' poses on the table.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.cards import CARD_CODES

if TYPE_CHECKING:
    from vision.render.table import FrameTruth

GAMES = ("michigan-rummy", "great-lakes", "pressman", "boodle", "oh-claire")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")


def _box_line(code: str, pts: np.ndarray, w: int, h: int, min_px: float) -> str | None:
    """The YOLO label line of a card whose visible part has outline ``pts`` (image pixels),
    or None when that part lies mostly outside the image or is too small to label."""
    if not len(pts):
        return None
    x1, y1 = max(0.0, float(pts[:, 0].min())), max(0.0, float(pts[:, 1].min()))
    x2, y2 = min(float(w), float(pts[:, 0].max())), min(float(h), float(pts[:, 1].max()))
    cx, cy = float(pts[:, 0].mean()), float(pts[:, 1].mean())
    if not (0 <= cx < w and 0 <= cy < h) or x2 - x1 < min_px or y2 - y1 < min_px:
        return None
    return (f"{CARD_CODES.index(code)} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
            f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")


def label_lines(truth: FrameTruth, board_to_image: np.ndarray, w: int, h: int,
                min_px: float = 6.0) -> list[str]:
    """Labels of the cards of a rendered frame in an image that ``board_to_image`` maps the
    table into (the frame itself, or a zone view): a card whose corner index shows gets the
    box of its visible part (the detector's convention; `vision.training.scenes` labels the
    same way).
    ``truth`` must have been rendered with ``outlines=True``.
    """
    from calibration.profile import apply_homography

    if len(truth.outlines) != len(truth.cards):
        raise ValueError("render the frame with outlines=True to label it")
    lines = []
    for (code, _box, visible), outline in zip(truth.cards, truth.outlines, strict=True):
        if not visible or not len(outline):
            continue
        line = _box_line(code, apply_homography(board_to_image, outline), w, h, min_px)
        if line is not None:
            lines.append(line)
    return lines


def generate(out: Path, videos: int, frames: int, seed: int, decks: list[str],
             views: bool = False) -> int:
    """Render ``frames`` frames from each of ``videos`` simulated games; returns images written."""
    from tqdm import tqdm

    from vision.render.demo import simulated_round
    from vision.render.plan import RenderConfig
    from vision.render.table import TableVideo
    from vision.zones import rectify, zone_views

    rng = random.Random(seed)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    written = 0
    for v in tqdm(range(videos), desc=f"table scenes -> {out.name}", unit="game"):
        game = rng.choice(GAMES)
        n = rng.randint(3, 5) if game == "oh-claire" else rng.randint(3, 6)
        events = simulated_round(game, NAMES[:n], seed=seed * 1000 + v)
        width, height = rng.choice([(640, 480), (640, 480), (800, 600), (512, 384)])
        cfg = RenderConfig(width=width, height=height, deck=rng.choice(decks),
                           seed=seed * 1000 + v, camera_jitter=rng.uniform(6, 30),
                           lighting=rng.uniform(0.1, 0.45), noise=rng.uniform(1, 8),
                           hands=rng.random() < 0.8)
        video = TableVideo(events, cfg)
        profile = video.profile()  # the same table for every frame of the game
        # One frame of each game comes from its last 15%: the fullest piles and, at the end
        # of a round, the hands revealed in rows (rare in time, but where reading is hardest).
        times = sorted([rng.uniform(0.3, video.duration) for _ in range(frames - 1)]
                       + [rng.uniform(0.85, 1.0) * video.duration])
        for k, t in enumerate(times):
            truth = video.render(t, k, outlines=True)
            img = truth.image
            if rng.random() < 0.3:   # defocus / motion blur as webcams show it
                ksize = rng.choice([3, 5])
                img = cv2.GaussianBlur(img, (ksize, ksize), 0)
            if rng.random() < 0.5:   # colour cast
                gains = np.array([rng.uniform(0.8, 1.2) for _ in range(3)], np.float32)
                img = np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)
            name = f"table_{seed}_{v:04d}_{k}"
            quality = rng.randint(55, 95)
            if views:
                for j, view in enumerate(zone_views(profile, 320, rng.uniform(8, 45))):
                    vimg = rectify(img, view)
                    cv2.imwrite(str(out / "images" / f"{name}_z{j}.jpg"), vimg,
                                [cv2.IMWRITE_JPEG_QUALITY, quality])
                    to_view = np.linalg.inv(profile.inverse @ view.to_image)
                    lines = label_lines(truth, to_view, vimg.shape[1], vimg.shape[0])
                    (out / "labels" / f"{name}_z{j}.txt").write_text(
                        "\n".join(lines) + ("\n" if lines else ""))
                    written += 1
                continue
            cv2.imwrite(str(out / "images" / f"{name}.jpg"), img,
                        [cv2.IMWRITE_JPEG_QUALITY, quality])
            lines = label_lines(truth, video.h_board, img.shape[1], img.shape[0])
            (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
            written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--videos", type=int, default=160)
    ap.add_argument("--frames", type=int, default=5, help="frames sampled from each game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path("datasets/cards/table-train"))
    ap.add_argument("--decks", default="train", help="'train' (all training decks) or a list")
    ap.add_argument("--views", action="store_true", help="zone views instead of whole frames")
    args = ap.parse_args(argv)
    from vision.render.decks import HELDOUT_DECKS, TRAIN_DECKS, available_decks

    have = available_decks()
    decks = ([d for d in TRAIN_DECKS if d in have] if args.decks == "train"
             else args.decks.split(","))
    if set(decks) & set(HELDOUT_DECKS):
        raise SystemExit(f"held-out decks are never trained on: {set(decks) & set(HELDOUT_DECKS)}")
    missing = [d for d in decks if d not in have]
    if missing or not decks:
        raise SystemExit(f"deck designs not installed: {missing or TRAIN_DECKS} (installed: "
                         f"{', '.join(have) or 'none'}; apt install kdegames-card-data-kf5)")
    n = generate(args.out, args.videos, args.frames, args.seed, decks, args.views)
    print(f"wrote {n} images to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
