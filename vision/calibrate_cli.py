"""`companion calibrate`: find the board, name its cups, propose the zones and save a profile.

Registered through the ``companion.commands`` entry point (see companion/cli.py). It lives in
vision/ because it opens the camera (`vision.sources`); the procedure itself, pictures in and
a table profile out, is `calibration.calibrate`, which needs only numpy and OpenCV.
"""

from __future__ import annotations

import argparse
import sys
from itertools import islice
from pathlib import Path

import cv2
import numpy as np

from calibration.calibrate import CalibrationError, calibrate, draw_profile
from calibration.layout import DISKS


def register_calibrate(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate",
        help="find the board and its cups, propose zones per seat and save a table profile",
        description=(
            "Look at the table through SOURCE (webcam index, stream URL, video file, image "
            "folder, or 'demo'), find the board and its 8 cups + Jackpot, name the cups from "
            "the game's disk, propose a played-card zone in front of each seat (and the areas "
            "the game needs), and save the profile as JSON. Edit the JSON to adjust zones; "
            "everything outside the zones is ignored and never shown or stored."
        ),
    )
    p.add_argument("source", help="camera index, stream URL, video file, image folder or 'demo'")
    p.add_argument("--game", default="michigan-rummy", choices=sorted(DISKS))
    p.add_argument("--players", default="4",
                   help="number of seats, or the players' names clockwise (comma separated)")
    p.add_argument("--out", default="calibration/profiles/table.json",
                   help="where to save the profile (JSON)")
    p.add_argument("--preview", help="also save an image of the profile drawn on the table")
    p.add_argument("--frames", type=int, default=60, help="frames to try at most")
    p.set_defaults(func=run_calibrate)


def seats_from(text: str) -> list[str]:
    """``"4"`` -> ["Seat 1".."Seat 4"]; ``"Ann,Bob,Cy"`` -> the names."""
    text = text.strip()
    if text.isdigit():
        return [f"Seat {i + 1}" for i in range(int(text))]
    return [n.strip() for n in text.replace(" ", ",").split(",") if n.strip()]


def read_pictures(source: str, limit: int) -> list[np.ndarray] | None:
    """The pictures of SOURCE when it is a picture or a folder of them (None otherwise), each
    size-checked from its header before it is decoded; a picture that cannot be used is
    named on standard error and skipped."""
    from vision.images import ImageError, read_image
    from vision.sources.files import IMAGE_SUFFIXES

    path = Path(source)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    elif path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES:
        files = [path]
    else:
        return None
    frames: list[np.ndarray] = []
    for f in files:
        if len(frames) >= limit:
            break
        try:
            frames.append(read_image(f))
        except ImageError as exc:
            print(f"companion calibrate: {exc}; skipped", file=sys.stderr)
    return frames


def run_calibrate(args: argparse.Namespace) -> int:
    from vision.sources.parse import parse_source

    names = seats_from(args.players)
    pictures = read_pictures(args.source, args.frames)
    if pictures is not None:
        frames = pictures
        if not frames:
            print(f"companion calibrate: no picture in {args.source} could be read",
                  file=sys.stderr)
            return 2
    else:
        # OpenCV's own warnings (no camera at this index, each backend's failure) would come
        # before the one line that says what went wrong.
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            source = parse_source(args.source)
        except (OSError, ValueError) as exc:
            print(f"companion calibrate: {exc}", file=sys.stderr)
            return 2
        frames = [f.image for f in islice(iter(source), args.frames)]
        source.close()
    try:
        profile = calibrate(frames, args.game, len(names))
    except CalibrationError as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return 1
    profile.meta["players"] = names
    path = profile.save(args.out)
    print(f"board found (score {profile.meta.get('board_score')}); "
          f"{len(profile.cups)} cups: {', '.join(c.name for c in profile.cups)}")
    for zone in profile.zones:
        who = f" ({names[zone.seat]})" if zone.seat is not None and zone.seat < len(names) else ""
        print(f"zone {zone.name}{who}: {zone.kind}")
    for warn in profile.meta.get("warnings", []):
        print(f"warning: {warn}")
    print(f"saved {path}")
    if args.preview and frames:
        Path(args.preview).parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(args.preview, draw_profile(frames[-1], profile))
        print(f"preview {args.preview}")
    return 0
