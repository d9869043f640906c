"""The source a user names: ``0`` (a webcam), a stream URL, a folder of pictures, a picture, a
video file, or ``demo`` (the rendered demo table, `vision.render.demo`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from vision.images import read_image
from vision.sources.camera import CaptureSource
from vision.sources.files import IMAGE_SUFFIXES, ImageFolderSource, VideoFileSource
from vision.sources.frames import ArraySource, FrameSource


def parse_source(spec: str | int, *, game: str | None = None,
                 players: Sequence[str] | None = None,
                 on_status: Callable[[str], None] | None = None) -> FrameSource:
    """Open a source from what a user types: ``0`` (webcam index), a URL (``http://``,
    ``rtsp://``), a folder of images, a video file, or ``demo`` / ``demo:GAME:SEED[:ROUNDS]``
    (the rendered demo table, e.g. ``demo:oh-claire:3``; ``demo:michigan-rummy:3:2`` plays two
    rounds). The demo table plays ``game`` (when the spec names none) with ``players`` when
    they are given. A camera or stream tells ``on_status`` when it is lost and back."""
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CaptureSource(int(spec), on_status=on_status)
    text = str(spec).strip()
    if text == "demo" or text.startswith("demo:"):
        from vision.render.demo import demo_source

        demo_game, numbers = game or "michigan-rummy", []
        for part in text.split(":")[1:]:
            if part.isdigit():
                numbers.append(int(part))
            elif part:
                demo_game = part
        seed, rounds = (numbers + [0, 1])[0], (numbers[1:] + [1])[0]
        if len(numbers) > 2 or rounds < 1:
            raise ValueError(f"a demo table is demo:GAME:SEED:ROUNDS (rounds at least 1), "
                             f"not {text!r}")
        return demo_source(seed, game=demo_game, players=players, rounds=rounds)[0]
    if "://" in text:
        return CaptureSource(text, on_status=on_status)
    path = Path(text)
    if path.is_dir():
        return ImageFolderSource(path)
    if path.is_file():
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return ArraySource([read_image(path)], name=str(path))   # ImageError: why not
        return VideoFileSource(path)
    raise FileNotFoundError(f"no camera, stream, folder or file called {text!r}")
