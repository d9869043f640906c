"""Commands given a path they cannot use say so in one line (issue 15, finding 11): detect's
--annotate names a folder, never draws over a photo it reads, and refuses a file before loading
a model; calibrate on a camera that is not there prints no OpenCV noise before its message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_annotate_into_a_file_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo, existing = tmp_path / "table.png", tmp_path / "notes.txt"
    cv2.imwrite(str(photo), np.full((64, 64, 3), 90, np.uint8))
    existing.write_text("keep me")
    assert main(["detect", str(photo), "--annotate", str(existing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--annotate wants a folder" in err and str(existing) in err
    assert existing.read_text() == "keep me"


def test_annotate_never_draws_over_the_photo_it_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((64, 64, 3), 90, np.uint8))
    before = photo.read_bytes()
    assert main(["detect", str(photo), "--reader", "card", "--annotate", str(tmp_path)]) == 2
    assert photo.read_bytes() == before
    assert "not drawing over the photo" in capsys.readouterr().err
    out = tmp_path / "drawn"
    assert main(["detect", str(photo), "--reader", "card", "--annotate", str(out)]) == 0
    assert (out / "table.png").is_file()


@pytest.mark.skipif(not sys.platform.startswith("linux") or os.path.exists("/dev/video7"),
                    reason="needs a Linux machine without a camera at index 7")
def test_calibrate_without_a_camera_says_one_line() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "companion", "calibrate", "7"], env=env,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2
    lines = done.stderr.splitlines()  # one line, with why (the device is not there)
    assert len(lines) == 1 and lines[0].startswith("companion calibrate: cannot open camera 7")
    assert "/dev/video7" in lines[0]


def test_detect_deck_profile_is_checked_before_reading(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``detect --deck`` gives the index readers the profile when they are loaded (so they
    read on the models it was taught on); a file that is not an index deck profile is
    refused in one line naming it, and a good one reads."""
    from vision.readers.index_reader import available

    if not available():
        pytest.skip("the index models are not installed")
    from vision.readers.index_heads import DECK_KIND
    from vision.readers.teach_index import shipped_layers

    photo, bad, good = tmp_path / "table.png", tmp_path / "bad.json", tmp_path / "deck.json"
    cv2.imwrite(str(photo), np.full((64, 64, 3), 90, np.uint8))
    bad.write_text('{"kind": "thresholds"}')
    assert main(["detect", str(photo), "--reader", "index", "--deck", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "not a deck profile" in err
    good.write_text(json.dumps({"kind": DECK_KIND, **{
        k: v.tolist() for k, v in shipped_layers().items()}}))
    assert main(["detect", str(photo), "--reader", "index", "--deck", str(good),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == []
