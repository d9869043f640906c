"""Reading pictures a user names, safely: the size a file claims is read from its header and
checked before anything is decoded, so a 74-byte PNG that claims 100000x100000 pixels (or a real
but enormous one) is refused with a plain reason instead of taking gigabytes or a traceback.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import BinaryIO

import cv2
import numpy as np

#: The most pixels a picture may have (a 50-megapixel phone photo fits; 8K video is 33).
MAX_PIXELS = 64_000_000


#: Picture formats that phones and cameras write and that this build of OpenCV does not decode:
#: a file of one is refused with what to do about it, not called a damaged picture.
UNREADABLE_FORMATS = {".heic": "HEIC", ".heif": "HEIF", ".avif": "AVIF", ".dng": "raw",
                      ".cr2": "raw", ".cr3": "raw", ".nef": "raw", ".arw": "raw"}


class ImageError(ValueError):
    """A picture that cannot be used; the message names the file and says why."""


class ImageTooLarge(ImageError):
    """A picture whose header claims more than `MAX_PIXELS` pixels."""


def _u16(b: bytes, big: bool = True) -> int:
    return int(struct.unpack(">H" if big else "<H", b)[0])


def _u32(b: bytes, big: bool = True) -> int:
    return int(struct.unpack(">I" if big else "<I", b)[0])


def _jpeg(fh: BinaryIO) -> tuple[int, int] | None:
    fh.seek(2)
    for _ in range(10_000):                      # segments; a JPEG has a few dozen
        byte = fh.read(1)
        while byte and byte != b"\xff":          # tolerate junk between segments
            byte = fh.read(1)
        while byte == b"\xff":                   # fill bytes
            byte = fh.read(1)
        if not byte:
            return None
        marker = byte[0]
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:
            continue                             # no length
        if marker == 0xD9:
            return None
        head = fh.read(2)
        if len(head) < 2:
            return None
        length = _u16(head)
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE,
                      0xCF):
            sof = fh.read(5)
            if len(sof) < 5:
                return None
            return _u16(sof[3:5]), _u16(sof[1:3])
        fh.seek(max(0, length - 2), os.SEEK_CUR)
    return None


def _tiff(fh: BinaryIO, big: bool) -> tuple[int, int] | None:
    fh.seek(4)
    offset = _u32(fh.read(4), big)
    fh.seek(offset)
    head = fh.read(2)
    if len(head) < 2:
        return None
    found: dict[int, int] = {}
    for _ in range(min(_u16(head, big), 4096)):
        entry = fh.read(12)
        if len(entry) < 12:
            break
        tag, kind = _u16(entry[0:2], big), _u16(entry[2:4], big)
        if tag in (256, 257):
            found[tag] = _u16(entry[8:10], big) if kind == 3 else _u32(entry[8:12], big)
    if 256 in found and 257 in found:
        return found[256], found[257]
    return None


def _netpbm(head: bytes) -> tuple[int, int] | None:
    words: list[int] = []
    for line in head[2:].splitlines():
        for word in line.split(b"#", 1)[0].split():
            if not word.isdigit():
                return None
            words.append(int(word))
            if len(words) == 2:
                return words[0], words[1]
    return None


def image_size(path: str | os.PathLike[str]) -> tuple[int, int] | None:
    """(width, height) as the file's header claims, without decoding it; None when the
    format is not one this reads (PNG, JPEG, BMP, GIF, WebP, TIFF, PNM) or the header is
    cut short."""
    with open(path, "rb") as fh:
        head = fh.read(64)
        if head.startswith(b"\x89PNG\r\n\x1a\n") and len(head) >= 24:
            return _u32(head[16:20]), _u32(head[20:24])
        if head[:6] in (b"GIF87a", b"GIF89a") and len(head) >= 10:
            return _u16(head[6:8], False), _u16(head[8:10], False)
        if head.startswith(b"BM") and len(head) >= 26:
            if _u32(head[14:18], False) == 12:                   # OS/2 bitmap header
                return _u16(head[18:20], False), _u16(head[20:22], False)
            w, h = struct.unpack("<ii", head[18:26])
            return abs(w), abs(h)
        if head.startswith(b"RIFF") and head[8:12] == b"WEBP" and len(head) >= 30:
            kind = head[12:16]
            if kind == b"VP8 ":
                return _u16(head[26:28], False) & 0x3FFF, _u16(head[28:30], False) & 0x3FFF
            if kind == b"VP8L":
                b = head[21:25]
                return (1 + (((b[1] & 0x3F) << 8) | b[0]),
                        1 + (((b[3] & 0x0F) << 10) | (b[2] << 2) | ((b[1] & 0xC0) >> 6)))
            if kind == b"VP8X":
                return (1 + int.from_bytes(head[24:27], "little"),
                        1 + int.from_bytes(head[27:30], "little"))
            return None
        if head.startswith(b"\xff\xd8"):
            return _jpeg(fh)
        if head[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff(fh, head[:2] == b"MM")
        if len(head) > 2 and head[:1] == b"P" and head[1:2] in b"123456":
            return _netpbm(head + fh.read(448))
    return None


def check_image(path: str | os.PathLike[str], max_pixels: int = MAX_PIXELS) -> None:
    """Raise `ImageTooLarge` when the header claims more than ``max_pixels`` pixels, and
    `ImageError` when the file cannot be opened."""
    try:
        size = image_size(path)
    except OSError as exc:
        raise ImageError(f"cannot read image {path}: {exc.strerror or exc}") from None
    except (struct.error, ValueError):
        size = None                   # a damaged header: the decoder will say
    if size is not None and size[0] * size[1] > max_pixels:
        raise ImageTooLarge(f"{path} claims {size[0]}x{size[1]} pixels, more than the "
                            f"{max_pixels / 1e6:.0f} megapixels a picture may have")


def read_image(path: str | os.PathLike[str], flags: int = cv2.IMREAD_COLOR,
               max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Decode a picture after `check_image`; `ImageError` (with the file and the reason) when
    it is too large, not a picture, or damaged."""
    kind = UNREADABLE_FORMATS.get(Path(path).suffix.lower())
    if kind is not None and not Path(path).is_dir():
        raise ImageError(f"{path} is a {kind} picture, which companion cannot read: save it "
                         "as JPEG or PNG (a phone can be set to take photos as JPEG)")
    check_image(path, max_pixels)
    if Path(path).is_dir():
        raise ImageError(f"{path} is a folder, not a picture")
    try:
        img = cv2.imread(str(path), flags)
    except cv2.error as exc:
        reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else "cannot decode"
        raise ImageError(f"cannot read image {path}: {reason}") from None
    if img is None:
        raise ImageError(f"cannot read image {path} (not a picture, or damaged)")
    return img
