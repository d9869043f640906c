"""The names the system gives the webcams (video4linux's on Linux), read from sysfs without
opening a camera: the setup dialog's list (`ui.camera`) and a camera source's label
(`vision.sources.camera.CaptureSource`). Standard library only: the window names cameras
without loading OpenCV.
"""

from __future__ import annotations

import sys
from pathlib import Path

SYSFS_VIDEO = Path("/sys/class/video4linux")


def node_name(node: Path) -> str:
    """The name video4linux gives device ``node`` ("" when it gives none or cannot be read)."""
    try:
        return (node / "name").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def linux_cameras(sysfs: Path = SYSFS_VIDEO) -> dict[int, str]:
    """The capture devices video4linux lists, by index, with their names. A webcam often has
    a second node for metadata (its ``index`` attribute is not 0), which is left out."""
    found: dict[int, str] = {}
    for node in sysfs.glob("video*"):
        number = node.name.removeprefix("video")
        if not number.isdigit():
            continue
        try:
            if (node / "index").read_text(encoding="utf-8").strip() not in ("", "0"):
                continue
        except OSError:
            pass  # no index attribute: an older kernel, every node is a capture device
        found[int(number)] = node_name(node) or f"Camera {number}"
    return dict(sorted(found.items()))


def camera_name(index: int, platform: str = sys.platform, sysfs: Path = SYSFS_VIDEO
                ) -> str | None:
    """The name the system gives webcam ``index`` (Linux: its video4linux name), or None."""
    if not platform.startswith("linux"):
        return None
    return node_name(sysfs / f"video{index}") or None
