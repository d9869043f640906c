"""Frame sources: memory, image folders, video files, a camera that drops out and comes back,
and the latest-frame reader that drops stale frames instead of lagging."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources.camera import CaptureSource
from vision.sources.files import ImageFolderSource, VideoFileSource
from vision.sources.frames import ArraySource, LatestFrame
from vision.sources.parse import parse_source


def images(n: int, h: int = 48, w: int = 64) -> list[np.ndarray]:
    out = []
    for i in range(n):
        img = np.zeros((h, w, 3), np.uint8)
        img[:, :, 1] = i * 10  # each frame recognisable by its green level
        out.append(img)
    return out


def test_array_source_stamps_frames_on_its_timeline() -> None:
    frames = list(ArraySource(images(4), fps=8.0))
    assert [f.index for f in frames] == [0, 1, 2, 3]
    assert [f.t for f in frames] == [0.0, 0.125, 0.25, 0.375]
    assert frames[2].image[0, 0, 1] == 20


def test_image_folder_in_name_order_skipping_unreadable(tmp_path: Path) -> None:
    for i, img in enumerate(images(3)):
        cv2.imwrite(str(tmp_path / f"f{2 - i}.png"), img)
    (tmp_path / "broken.png").write_bytes(b"not an image")
    (tmp_path / "notes.txt").write_text("x")
    src = ImageFolderSource(tmp_path, fps=5.0)
    got = [(f.image[0, 0, 1], round(f.t, 3)) for f in src]
    assert [g for g, _ in got] == [20, 10, 0]  # f0 (written last) holds image 2
    assert len(got) == 3


def test_video_file_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (64, 48))
    for img in images(6):
        writer.write(img)
    writer.release()
    src = VideoFileSource(path)
    frames = list(src)
    src.close()
    assert len(frames) == 6 and src.fps == pytest.approx(10.0)
    assert frames[5].t == pytest.approx(0.5)
    assert abs(int(frames[3].image[10, 10, 1]) - 30) < 8  # lossy codec


def test_missing_sources_are_reported() -> None:
    with pytest.raises(FileNotFoundError):
        parse_source("/no/such/thing.mp4")
    with pytest.raises(FileNotFoundError):
        VideoFileSource("/no/such/clip.avi")


class FakeCamera:
    """A camera that delivers ``good`` frames, then fails until it is reopened ``outage``
    times (each reopen attempt while 'unplugged' fails)."""

    def __init__(self, world: dict[str, int]) -> None:
        self.world = world
        self.open = True

    def isOpened(self) -> bool:  # noqa: N802
        return self.open

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.world["unplugged"]:
            return False, None
        self.world["served"] += 1
        if self.world["served"] == self.world["fail_at"]:
            self.world["unplugged"] = 1
        img = np.full((8, 8, 3), self.world["served"] % 255, np.uint8)
        return True, img

    def release(self) -> None:
        self.open = False


def test_camera_that_drops_out_is_reported_and_reconnected() -> None:
    world = {"served": 0, "fail_at": 3, "unplugged": 0, "attempts": 0}
    clock = [0.0]

    def opener(spec: int | str) -> FakeCamera:
        world["attempts"] += 1
        cam = FakeCamera(world)
        if world["unplugged"]:
            if world["attempts"] >= 4:  # plugged back in on the 4th try
                world["unplugged"] = 0
            else:
                cam.open = False
        return cam

    def sleep(s: float) -> None:
        clock[0] += s

    statuses: list[str] = []
    src = CaptureSource(0, opener=opener, clock=lambda: clock[0], sleep=sleep,
                        retry_every=0.5, fail_after=2, on_status=statuses.append)
    got = [src.read() for _ in range(6)]
    assert all(f is not None for f in got)
    assert [f.index for f in got if f] == [0, 1, 2, 3, 4, 5]
    assert src.reconnects == 1
    assert statuses[0].startswith("Camera lost, reconnecting…") and "Camera back" in statuses[1]
    src.close()
    assert src.read() is None


def test_camera_gives_up_after_a_limit() -> None:
    world = {"served": 0, "fail_at": 1, "unplugged": 0, "attempts": 0}
    clock = [0.0]

    def opener(spec: int | str) -> FakeCamera:
        world["attempts"] += 1
        cam = FakeCamera(world)
        cam.open = world["attempts"] == 1
        return cam

    src = CaptureSource("rtsp://table.local/stream", opener=opener, clock=lambda: clock[0],
                        sleep=lambda s: clock.__setitem__(0, clock[0] + s), give_up_after=3.0)
    assert src.read() is not None
    assert src.read() is None
    assert "gave up" in src.statuses[-1]


def test_camera_that_never_opens_raises() -> None:
    class Dead(FakeCamera):
        def isOpened(self) -> bool:  # noqa: N802
            return False

    with pytest.raises(OSError):
        CaptureSource(3, opener=lambda s: Dead({}))


class SlowCamera:
    """Delivers a frame every 10 ms forever (a live camera)."""

    live = True

    def __init__(self) -> None:
        self.n = 0
        self.closed = False

    def read(self):  # type: ignore[no-untyped-def]
        from vision.sources.frames import Frame

        if self.closed:
            return None
        time.sleep(0.01)
        self.n += 1
        return Frame(np.zeros((2, 2, 3), np.uint8), self.n * 0.01, self.n)

    def close(self) -> None:
        self.closed = True


def test_latest_frame_drops_stale_frames_for_a_slow_consumer() -> None:
    cam = SlowCamera()
    reader = LatestFrame(cam)  # type: ignore[arg-type]
    seen = []
    for _ in range(5):
        f = reader.get(timeout=1.0)
        assert f is not None
        seen.append(f.index)
        time.sleep(0.05)  # the consumer is 5x slower than the camera
    reader.close()
    assert seen == sorted(seen) and len(set(seen)) == 5
    assert seen[-1] - seen[0] >= 12  # it kept up with the camera, not with itself
    assert reader.dropped >= 10


def test_latest_frame_ends_with_the_source() -> None:
    reader = LatestFrame(ArraySource(images(3)))
    got = []
    while True:
        f = reader.get(timeout=1.0)
        if f is None:
            break
        got.append(f.index)
    assert got and got[-1] == 2 and reader.ended
    done = threading.Event()
    reader.close()
    done.set()
