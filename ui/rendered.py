"""The demo table through the full vision pipeline: a simulated game rendered as camera frames
(`vision.render`), read by the detector, the zones and the tracker, and logged by
`vision.pipeline.table.TablePipeline` into the game's own log, as at a real table.

By default the cards are read by the shipped models, as at a real table
(`vision.readers.load.demo_readers`); ``detector="truth"`` reads the renderer's truth instead
(the cards whose corner index shows: the referee on a correctly read game, a test double).
Everything after the reader is the real pipeline. The events people would type (round,
dummy, bids) come from the simulated script. As players at a real table would, the demo
table does not deal the next round while a reading waits for a person's answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from calibration.profile import TableProfile
from companion.events import EventLog
from ui.demo import CardMark
from ui.worker import FramePacket, PipelineFeed, SeenEvent, Tick, pending_of


class RenderedDemoFeed(PipelineFeed):
    """One rendered frame per tick through `TablePipeline`; the pipeline writes the events.

    ``events`` is the simulated game (its game event first, already in ``log``). Resuming
    (``log`` holding more) starts the video after the last card already logged. ``size``:
    the frames' (width, height); None: the renderer's default.
    """

    def __init__(self, events: Sequence[dict[str, Any]], log: EventLog, seed: int = 0,
                 interval_ms: int = 100, detector: str = "model", fallible: float = 0.0,
                 size: tuple[int, int] | None = None) -> None:
        from companion.events import read_log
        from vision.pipeline.table import TablePipeline
        from vision.readers.load import demo_readers
        from vision.render.plan import RenderConfig
        from vision.render.table import TableVideo

        self.interval_ms = interval_ms
        config = RenderConfig(seed=seed) if size is None else \
            RenderConfig(width=size[0], height=size[1], seed=seed)
        self.video = TableVideo(events, config)
        self.profile: TableProfile = self.video.profile()
        self.last: Any = None  # the latest FrameTruth (read by the truth detector)
        self.detector, self.detector_name, look = demo_readers(self, detector, fallible)
        script = [dict(e) for e in self.video.truth.script if e.get("event") != "game"]
        self.pipeline = TablePipeline(self.profile, self.detector, None, log, script=script,
                                      second_look=look)
        logged = read_log(log.path).events
        done = sum(1 for e in logged if e.kind in ("play", "reveal", "trump"))
        moves = self.video.truth.moves
        self.t = moves[done - 1].t_end if 0 < done <= len(moves) else 0.0
        self.index = int(self.t * self.video.config.fps)
        self._announced_detector = False
        self._waiting_said = False
        self.waited = 0.0  # seconds the video's clock stood still (`waits_for_answer`)
        if 0 < done <= len(moves):
            self._catch_up(done)

    def _catch_up(self, done: int) -> None:
        """Resuming after ``done`` card events: show the fresh tracker the cards of this deal
        that already lie on the table (and in the log), a few still frames each, so that it
        counts them without a word and reads only what comes next (else it would find them
        all at once: 'already played' notes and questions about the pile)."""
        from vision.pipeline.results import TableReader

        moves = self.video.truth.moves[:done]
        start = max((k for k, m in enumerate(moves) if m.clears_before), default=0)
        reader = self.detector
        still = self.pipeline.tracker.config.still_time
        for m in moves[start:]:
            for k in range(4):
                t = min(m.t_free + k * still * 0.7, m.t_end)
                ft = self.video.render(t)
                self.last = ft
                dets = (reader.detect_table(ft.image, self.profile)
                        if isinstance(reader, TableReader) else reader.detect(ft.image))
                self.pipeline.tracker.update(t, dets, self.profile.inverse)

    def tick(self) -> Tick:
        fps = self.video.config.fps
        tick = Tick()
        if not self._announced_detector:
            tick.notes.append(f"Demo table: cards are read by {self.detector_name}.")
            self._announced_detector = True
        if self.t > self.video.duration:
            # No frame follows: what waited behind answered questions is placed, then the
            # typed events after the last card. Those after a reading still held wait for
            # its answer (table order); the feed goes on until nothing is held.
            res = self.pipeline.flush()
            evidence = self._evidence()
            for line, ev in res.events:
                seen = ev.get("event") in ("play", "reveal", "trump")
                tick.events.append(SeenEvent(dict(ev), evidence if seen else None, line))
            tick.notes.extend(res.notes)
            tick.pending = pending_of(res)
            tick.done = not res.pending
            return tick
        waiting = self.waits_for_answer()
        if waiting and not self._waiting_said:
            tick.notes.append("The next round is dealt once the question is answered.")
        self._waiting_said = waiting
        ft = self.video.render(self.t, self.index)
        self.last = ft
        # The pipeline's clock runs on while the video's stands still (`waits_for_answer`):
        # the table lies still, as it would while players wait, and what is read over time
        # (a hand's second look) goes on.
        now = self.t + self.waited
        res = self.pipeline.process(ft.image, now, self.index)
        marks = []
        for det in res.detections:
            x1, y1, x2, y2 = det["box"]
            marks.append(CardMark(det["card"], ((x1, y1), (x2, y1), (x2, y2), (x1, y2))))
        tick.frame = FramePacket(ft.image, tuple(marks), self.t)
        if res.events:
            evidence = self.profile.mask_private(ft.image)
            for line, ev in res.events:
                tick.events.append(SeenEvent(dict(ev), evidence, line))
        tick.notes.extend(res.notes + res.chip_warnings)
        tick.pending = pending_of(res)
        if waiting:
            self.waited += 1.0 / fps
        else:
            self.t += 1.0 / fps
        self.index += 1
        return tick

    def waits_for_answer(self) -> bool:
        """Whether the next frame would begin a new deal (the table cleared) while the table
        has not placed all it saw (`TablePipeline.holding`: a reading held for a person, one
        waiting behind it, which an answer turns into the next question, or a move still
        gathering its cards): the demo's players then wait, as a real table would, instead
        of playing a round whose announcements the held reading stops."""
        if not self.pipeline.holding:
            return False
        step = 1.0 / self.video.config.fps
        return any(m.clears_before and self.t < m.t0 <= self.t + step
                   for m in self.video.truth.moves)

    def _evidence(self) -> np.ndarray | None:
        return self.profile.mask_private(self.last.image) if self.last is not None else None

    def close(self) -> None:
        pass
