"""Bad input to the pixel commands is a plain message, never a traceback (issue 16, finding 5):
pictures are size-checked from their header before decoding, table profiles are validated with
errors naming the field, and a profile with no zones says so."""

from __future__ import annotations

import copy
import json
import struct
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from calibration.profile import PROFILE_DIR, ProfileError, TableProfile  # noqa: E402
from companion.cli import main  # noqa: E402
from vision.images import ImageError, ImageTooLarge, image_size, read_image  # noqa: E402


def bomb_png(path: Path, width: int = 100_000, height: int = 100_000) -> Path:
    """A tiny PNG whose header claims ``width`` x ``height`` pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                     + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b""))
    return path


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".tiff", ".webp", ".ppm"])
def test_the_size_is_read_from_the_header_of_every_kind_of_picture(
        tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"p{suffix}"
    img = np.full((37, 53, 3), 128, np.uint8)
    if not cv2.imwrite(str(path), img):
        pytest.skip(f"this OpenCV cannot write {suffix}")
    assert image_size(path) == (53, 37)
    assert read_image(path).shape == (37, 53, 3)


def test_gif_header_size(tmp_path: Path) -> None:
    path = tmp_path / "p.gif"
    path.write_bytes(b"GIF89a" + struct.pack("<HH", 640, 480) + b"\x00" * 20)
    assert image_size(path) == (640, 480)


def test_a_picture_that_claims_too_many_pixels_is_refused_before_decoding(
        tmp_path: Path) -> None:
    bomb = bomb_png(tmp_path / "bomb.png")
    assert bomb.stat().st_size < 100
    with pytest.raises(ImageTooLarge, match="claims 100000x100000 pixels, more than the 64 "
                                            "megapixels"):
        read_image(bomb)
    (tmp_path / "junk.png").write_bytes(b"not a picture")
    with pytest.raises(ImageError, match="junk.png"):
        read_image(tmp_path / "junk.png")


def test_detect_names_the_bad_picture_and_goes_on_with_the_batch(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.readers.detector import default_model_path

    if not default_model_path().is_file():
        pytest.skip("no shipped detector weights")
    bomb = bomb_png(tmp_path / "bomb.png")
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.zeros((64, 96, 3), np.uint8))
    assert main(["detect", str(bomb), str(good), "--json"]) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "claims 100000x100000 pixels" in err
    assert [json.loads(x)["image"] for x in out.splitlines()] == [str(good)]


def test_a_phone_picture_format_it_cannot_read_is_named_with_what_to_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.readers.detector import default_model_path

    heic = tmp_path / "IMG_0042.HEIC"
    heic.write_bytes(b"\x00\x00\x00\x18ftypheic" + b"\x00" * 40)
    with pytest.raises(ImageError, match="IMG_0042.HEIC is a HEIC picture.*save it as JPEG"):
        read_image(heic)
    if not default_model_path().is_file():
        pytest.skip("no shipped detector weights")
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.zeros((64, 96, 3), np.uint8))
    (tmp_path / "labels.txt").write_text("not a picture, not a picture format")
    # A folder: the HEIC photo is refused by name, the batch goes on with the PNG.
    assert main(["detect", str(tmp_path), "--json"]) == 2
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "IMG_0042.HEIC is a HEIC picture" in err
    assert [json.loads(x)["image"] for x in out.splitlines()] == [str(good)]


def test_detect_says_a_folder_holds_no_pictures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.readers.detector import default_model_path

    if not default_model_path().is_file():
        pytest.skip("no shipped detector weights")
    (tmp_path / "notes.txt").write_text("")
    assert main(["detect", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"no pictures in the folder {tmp_path}" in err and "jpg" in err


@pytest.mark.parametrize("where", ["file", "folder"])
def test_calibrate_refuses_a_picture_too_large_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    folder = tmp_path / "pics"
    folder.mkdir()
    bomb = bomb_png(folder / "bomb.png")
    source = bomb if where == "file" else folder
    status = main(["calibrate", str(source), "--out", str(tmp_path / "p.json")])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert "bomb.png claims 100000x100000 pixels" in err
    assert "no picture in" in err and not (tmp_path / "p.json").exists()


# --- table profiles ---------------------------------------------------------------------------

def _good() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (PROFILE_DIR / "demo-michigan-rummy-4.json").read_text(encoding="utf-8"))
    return data


def _set(path: str, value: Any) -> Any:
    def change(d: dict[str, Any]) -> dict[str, Any]:
        d = copy.deepcopy(d)
        keys: list[Any] = [int(k) if k.isdigit() else k for k in path.split(".")]
        target: Any = d
        for k in keys[:-1]:
            target = target[k]
        if value is KeyError:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
        return d
    return change


CORRUPTIONS = [
    (_set("homography", KeyError), "homography: missing"),
    (_set("homography", [[1, 0], [0, 1]]), "homography: expected 3x3"),
    (_set("homography", [[0] * 3] * 3), "homography: the matrix cannot be inverted"),
    (_set("homography", "identity"), "homography: expected 3x3"),
    (_set("homography.1.1", None), "homography: expected 3x3 finite numbers"),
    (_set("image_size", [640]), "image_size: expected [width, height]"),
    (_set("image_size", [-1, 480]), "image_size"),
    (_set("version", 99), "version: profile version 99 is newer"),
    (_set("version", "one"), "version: expected a whole number"),
    (_set("seats", "four"), "seats: expected a whole number"),
    (_set("game", 7), "game: expected a game name"),
    (_set("meta", [1]), "meta: expected an object"),
    (_set("cups", {"AS": 1}), "cups: expected a list"),
    (_set("cups.0", "AS"), "cups[0]: expected an object"),
    (_set("cups.0.center", [1]), "cups[0].center: expected 2 finite numbers"),
    (_set("cups.0.radius", -3), "cups[0].radius: expected a number > 0"),
    (_set("cups.1.name", ""), "cups[1].name: expected a name"),
    (_set("zones.0.polygon", [[0, 0], [1, 1]]), "zones[0].polygon: a zone needs at least 3"),
    (_set("zones.0.polygon", [[0, 0], [1, "x"], [2, 2]]), "zones[0].polygon: expected"),
    (_set("zones.0.polygon", None), "zones[0].polygon: expected a list"),
    (_set("zones.2.kind", "table"), "zones[2].kind: expected one of pile, trump"),
    (_set("zones.1.seat", "Bob"), "zones[1].seat: expected a seat number"),
    (_set("zones.0.name", None), "zones[0].name: expected a name"),
    (_set("zones", []), "zones: the profile has no zones"),
    (_set("zones", KeyError), "zones: the profile has no zones"),
]


@pytest.mark.parametrize("change, field", CORRUPTIONS, ids=[f for _, f in CORRUPTIONS])
def test_a_corrupted_profile_is_refused_naming_the_field(
        tmp_path: Path, change: Any, field: str) -> None:
    TableProfile.from_json(_good())                       # the shipped one is valid
    path = tmp_path / "table.json"
    path.write_text(json.dumps(change(_good())), encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        TableProfile.load(path)
    assert str(info.value).startswith(f"table profile {path}: {field}")


@pytest.mark.parametrize("text, reason", [
    ("", "not valid JSON"), ("{", "not valid JSON"), ("[1, 2]", "a JSON object, not a list"),
    ("[" * 5000 + "]" * 5000, "not valid JSON"), ("\xff\xfe", "not valid JSON"),
])
def test_a_profile_that_is_not_json_says_so(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "table.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError, match=reason):
        TableProfile.load(path)
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ProfileError, match="not a text file"):
        TableProfile.load(path)


def test_watch_with_a_profile_without_zones_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(_set("zones", [])(_good())), encoding="utf-8")
    status = main(["watch", "demo", "--profile", str(path), "--log", str(tmp_path / "g.jsonl"),
                   "--detector", "truth", "--quiet"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert f"table profile {path}: zones: the profile has no zones" in err


def test_frame_sources_skip_or_refuse_a_picture_too_large(tmp_path: Path) -> None:
    from vision.sources.files import ImageFolderSource
    from vision.sources.parse import parse_source

    bomb = bomb_png(tmp_path / "a-bomb.png")
    cv2.imwrite(str(tmp_path / "b-good.png"), np.zeros((24, 32, 3), np.uint8))
    folder = ImageFolderSource(tmp_path)
    frame = folder.read()
    assert frame is not None and frame.image.shape == (24, 32, 3)
    assert folder.read() is None
    assert len(folder.skipped) == 1 and "claims 100000x100000 pixels" in folder.skipped[0]
    with pytest.raises(ImageTooLarge):
        parse_source(str(bomb))
