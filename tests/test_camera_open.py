"""Webcams (issue 15, finding 15): each platform's own capture backend first, the best
resolution asked for and what was granted said, cameras listed by the system's names, and a
camera that cannot be opened said with why and what to do (never a silent demo). No camera
is needed: fake captures stand in for OpenCV's."""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.sources.camera
from companion.cli import build_parser
from ui.camera import Camera, find_cameras
from vision.sources.camera import (
    CameraError,
    CameraMode,
    CaptureSource,
    ask_best_mode,
    camera_backends,
    camera_problem,
    open_camera,
)
from vision.sources.camera_names import camera_name, linux_cameras


class FakeWebcam:
    """A webcam with a list of sizes it supports: asked for one, it grants the largest that
    fits in it (as V4L2 drivers do), or its smallest."""

    def __init__(self, sizes: list[tuple[int, int]], api: int = cv2.CAP_ANY, opens: bool = True,
                 fps: float = 30.0) -> None:
        self.sizes = sorted(sizes, key=lambda s: s[0] * s[1])
        self.size = self.sizes[0]
        self.api = api
        self.opens = opens
        self.fps = fps
        self.asked: list[tuple[int, int]] = []
        self.released = False
        self._want_w = self.size[0]

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opens and not self.released

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.isOpened():
            return False, None
        return True, np.zeros((self.size[1], self.size[0], 3), np.uint8)

    def release(self) -> None:
        self.released = True

    def set(self, prop: int, value: float) -> bool:
        if prop == cv2.CAP_PROP_FRAME_WIDTH:
            self._want_w = int(value)
        elif prop == cv2.CAP_PROP_FRAME_HEIGHT:
            want = (self._want_w, int(value))
            self.asked.append(want)
            fits = [s for s in self.sizes if s[0] <= want[0] and s[1] <= want[1]]
            self.size = fits[-1] if fits else self.sizes[0]
        return True

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FRAME_WIDTH: float(self.size[0]),
                cv2.CAP_PROP_FRAME_HEIGHT: float(self.size[1]),
                cv2.CAP_PROP_FPS: self.fps}.get(prop, 0.0)

    def getBackendName(self) -> str:  # noqa: N802 - OpenCV's name
        return {cv2.CAP_V4L2: "V4L2", cv2.CAP_DSHOW: "DSHOW"}.get(self.api, "ANY")


def test_each_platform_opens_with_its_own_backend_then_opencvs_default() -> None:
    assert camera_backends("linux") == (cv2.CAP_V4L2, cv2.CAP_ANY)
    assert camera_backends("win32") == (cv2.CAP_DSHOW, cv2.CAP_MSMF, cv2.CAP_ANY)
    assert camera_backends("darwin") == (cv2.CAP_AVFOUNDATION, cv2.CAP_ANY)
    assert camera_backends("freebsd14") == (cv2.CAP_ANY,)


def test_a_backend_that_cannot_open_the_camera_falls_back_to_the_next() -> None:
    made: list[FakeWebcam] = []

    def video_capture(index: int, api: int) -> FakeWebcam:
        cam = FakeWebcam([(640, 480), (1920, 1080)], api, opens=api != cv2.CAP_DSHOW)
        made.append(cam)
        return cam

    cap = open_camera(1, platform="win32", video_capture=video_capture)
    assert [c.api for c in made] == [cv2.CAP_DSHOW, cv2.CAP_MSMF]
    assert made[0].released and cap is made[1] and not made[1].released
    assert made[1].size == (1920, 1080)      # and asked for its best picture

    def never(index: int, api: int) -> FakeWebcam:
        return FakeWebcam([(640, 480)], api, opens=False)

    assert open_camera(1, platform="linux", video_capture=never) is None


@pytest.mark.parametrize(("sizes", "granted", "asked"), [
    ([(640, 480), (1280, 720), (1920, 1080), (3840, 2160)], (1920, 1080), [(1920, 1080)]),
    ([(640, 480), (1280, 720)], (1280, 720), [(1920, 1080), (1280, 720)]),
    # a nearby size granted for the first ask is kept over the smaller one of the second
    ([(640, 480), (1280, 720), (1600, 896)], (1600, 896),
     [(1920, 1080), (1280, 720), (1600, 896)]),
    ([(640, 480)], (640, 480), [(1920, 1080), (1280, 720)]),
])
def test_the_best_resolution_the_camera_gives_is_asked_for(
        sizes: list[tuple[int, int]], granted: tuple[int, int],
        asked: list[tuple[int, int]]) -> None:
    cam = FakeWebcam(sizes)
    ask_best_mode(cam)
    assert cam.size == granted and cam.asked == asked


def test_what_the_camera_granted_is_said_when_it_opens() -> None:
    said: list[str] = []

    def opener(spec: int | str) -> FakeWebcam:
        cam = FakeWebcam([(640, 480), (1920, 1080)], cv2.CAP_V4L2)
        ask_best_mode(cam)
        return cam

    src = CaptureSource(0, opener=opener, on_status=said.append)
    assert src.mode == CameraMode(1920, 1080, 30.0, "V4L2")
    assert said == ["Camera opened: camera 0, 1920x1080 at 30 fps (V4L2)"]
    frame = src.read()
    assert frame is not None and frame.image.shape[:2] == (1080, 1920)
    src.close()

    said.clear()
    small = CaptureSource(0, opener=lambda spec: FakeWebcam([(640, 480)]),
                          on_status=said.append)
    assert said[0].startswith("Camera opened: camera 0, 640x480 at 30 fps (ANY) — a small "
                              "picture: cards far from the camera may be unreadable")
    small.close()


def test_cameras_are_named_as_the_system_names_them(tmp_path: Path) -> None:
    sysfs = tmp_path / "video4linux"
    for node, name, index in (("video0", "Integrated Camera", "0"), ("video1",
                              "Integrated Camera", "1"), ("video2", "HD Pro Webcam C920", "0")):
        (sysfs / node).mkdir(parents=True)
        (sysfs / node / "name").write_text(name + "\n")
        (sysfs / node / "index").write_text(index + "\n")
    # video1 is the first camera's metadata node: not a camera of its own
    assert linux_cameras(sysfs) == {0: "Integrated Camera", 2: "HD Pro Webcam C920"}
    assert camera_name(2, "linux", sysfs) == "HD Pro Webcam C920"
    assert camera_name(5, "linux", sysfs) is None
    assert camera_name(0, "win32", sysfs) is None


def test_find_cameras_lists_names_and_says_why_one_cannot_be_opened() -> None:
    def opener(index: int) -> FakeWebcam:
        return FakeWebcam([(640, 480)], opens=index == 0)

    found = find_cameras(known={0: "Integrated Camera", 2: "HD Pro Webcam C920"},
                         opener=opener, platform="linux")
    assert [c.label for c in found] == ["Integrated Camera",
                                       "HD Pro Webcam C920 (cannot be opened)"]
    assert found[0] == Camera(0, "Integrated Camera") and found[1].spec == "2"
    assert "/dev/video2" in found[1].problem
    # without names (no Qt Multimedia), indices that give a picture are offered as Camera N;
    # one that does not, and that nothing names, is not a camera
    found = find_cameras(max_index=3, known={}, platform="win32",
                         opener=lambda i: FakeWebcam([(640, 480)], opens=i == 1))
    assert found == [Camera(1, "Camera 1")]
    assert find_cameras(known={}, platform="linux", opener=opener) == []


def test_why_a_camera_cannot_be_opened_says_what_to_do(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert "is the camera plugged in" in camera_problem(0, "linux", tmp_path)
    (tmp_path / "video0").touch()
    monkeypatch.setattr(vision.sources.camera.os, "access", lambda path, mode: False)
    denied = camera_problem(0, "linux", tmp_path)
    assert "permission denied" in denied and "'video' group" in denied
    assert "Privacy & Security → Camera" in camera_problem(0, "darwin")
    assert "Settings → Privacy & security → Camera" in camera_problem(0, "win32")
    with pytest.raises(CameraError, match="cannot open camera 3: .*"):
        CaptureSource(3, opener=lambda spec: FakeWebcam([(640, 480)], opens=False))


def test_watch_says_a_camera_cannot_be_opened_and_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(vision.sources.camera, "open_camera", lambda index: None)
    parser: argparse.ArgumentParser = build_parser()
    args = parser.parse_args(["watch", "0", "--game", "michigan-rummy", "--players", "Ann",
                              "Bob", "Cy", "--log", str(tmp_path / "game.jsonl")])
    assert args.func(args) == 2
    err = capsys.readouterr().err
    assert "cannot open camera 0" in err and camera_problem(0) in err
    assert not (tmp_path / "game.jsonl").exists()
