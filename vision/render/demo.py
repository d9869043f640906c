"""The built-in demo table: a simulated game rendered on the fly as a `FrameSource`
(`RenderedSource`), which `parse_source("demo")` opens when there is no camera.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from vision.render.plan import GroundTruth, RenderConfig
from vision.render.table import FrameTruth, TableVideo
from vision.sources.frames import Frame, FrameSource


def simulated_round(game: str = "michigan-rummy", players: Sequence[str] = ("Ann", "Bob", "Cy",
                                                                             "Dee"),
                    seed: int = 0, max_rounds: int = 1) -> list[dict[str, Any]]:
    """A simulated game log cut after ``max_rounds`` rounds (hands), hidden mode."""
    from companion.referee import find_simulator

    sim = find_simulator(game)
    events = sim(players=list(players), rounds=max_rounds, seed=seed, hidden=True, mistakes=0.0,
                 chips=None, game=game)
    out: list[dict[str, Any]] = []
    rounds = 0
    for ev in events:
        if ev.get("event") == "round":
            rounds += 1
            if rounds > max_rounds:
                break
        out.append(dict(ev))
    return out


class RenderedSource(FrameSource):
    """A `vision.sources.frames.FrameSource` drawing a game log on the fly (the demo table).

    ``realtime=True`` paces frames to the wall clock (as a camera would deliver them);
    otherwise frames come as fast as they are asked for. ``last`` is the latest `FrameTruth`
    (true card boxes, for tests and the oracle detector).
    """

    def __init__(self, video: TableVideo, realtime: bool = False, loop: bool = False) -> None:
        self.video = video
        self.realtime = realtime
        self.loop = loop
        self.live = realtime
        self.name = f"demo table ({video.game})"
        self.last: FrameTruth | None = None
        self._frames = video.frames()
        self._start: float | None = None
        self._closed = False
        self._offset = 0.0

    @property
    def fps(self) -> float | None:
        return self.video.config.fps

    @property
    def truth(self) -> GroundTruth:
        return self.video.truth

    def read(self) -> Frame | None:
        if self._closed:
            return None
        try:
            ft = next(self._frames)
        except StopIteration:
            if not self.loop:
                return None
            self._offset += self.video.duration
            self._frames = self.video.frames()
            ft = next(self._frames)
        if self.realtime:
            import time

            now = time.monotonic()
            if self._start is None:
                self._start = now - ft.t
            wait = self._start + self._offset + ft.t - now
            if wait > 0:
                time.sleep(wait)
        self.last = ft
        return Frame(ft.image, self._offset + ft.t, ft.index)

    def skip(self, count: int) -> int:
        """Pass over the next ``count`` frames without drawing them."""
        fps = self.video.config.fps
        first = self.last.index + 1 if self.last is not None else 0
        end = first
        while end < first + count and end / fps <= self.video.duration:
            end += 1
        self._frames = self._frames_from(end)
        return end - first

    def _frames_from(self, index: int) -> Iterator[FrameTruth]:
        fps = self.video.config.fps
        while index / fps <= self.video.duration:
            yield self.video.render(index / fps, index)
            index += 1

    def close(self) -> None:
        self._closed = True


def demo_source(seed: int = 0, game: str = "michigan-rummy", realtime: bool = False,
                config: RenderConfig | None = None, players: Sequence[str] | None = None,
                rounds: int = 1) -> tuple[RenderedSource, GroundTruth]:
    """The built-in demo table: ``rounds`` simulated rounds of ``game`` rendered on the fly,
    with their ground truth (the log, the visual events with their times, the script of typed
    events). ``players`` names the seats (default: Ann, Bob, Cy, Dee)."""
    events = (simulated_round(game, players, seed=seed, max_rounds=rounds) if players
              else simulated_round(game, seed=seed, max_rounds=rounds))
    cfg = config or RenderConfig(seed=seed)
    video = TableVideo(events, cfg)
    return RenderedSource(video, realtime=realtime), video.truth
