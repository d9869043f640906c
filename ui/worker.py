"""Capture and inference off the window's thread: a `Feed` ticks in a worker `QThread`.

A feed turns the table (camera + pipeline, or the demo table) into frames and events; the
`FeedWorker` runs it on a timer inside its own thread and hands out plain, copied data through
signals. `FeedThread` starts and stops it cooperatively (quit()/wait(), never terminate()).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer, Signal, Slot

from calibration.profile import TableProfile
from companion.diagnostics import log_failure
from ui.demo import CardMark, DemoTable


@dataclass(frozen=True)
class FramePacket:
    """One picture for the live view: the frame (BGR) and the cards recognised in it."""

    image: np.ndarray
    marks: tuple[CardMark, ...] = ()
    t: float = 0.0


@dataclass(frozen=True)
class SeenEvent:
    """An event the feed saw, with the evidence frame to keep (masked to readable zones)."""

    event: dict[str, Any]
    evidence: np.ndarray | None = None
    #: Set when the feed already wrote the event to the log (the vision pipeline does).
    line: int | None = None


@dataclass
class Tick:
    """What one tick of a feed produced."""

    frame: FramePacket | None = None
    events: list[SeenEvent] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    done: bool = False
    #: Readings held for a person to confirm (`Held`); None: no change.
    pending: list[tuple[Any, ...]] | None = None


class Feed(Protocol):
    """Anything that watches a table: the window only sees its ticks."""

    interval_ms: int
    profile: TableProfile

    def tick(self) -> Tick: ...

    def close(self) -> None: ...


def new_events(log_path: Any, after: int, evidence: np.ndarray | None = None
               ) -> list[SeenEvent]:
    """The events written to a log after line ``after`` (by a feed), as `SeenEvent` s."""
    from companion.events import read_log

    return [SeenEvent(dict(e.data), evidence, e.line) for e in read_log(log_path).events
            if e.line > after]


#: A held reading as plain data: ``(id, question, event as read, one-click answers, cards
#: to start from)``, each answer ``(label, events it logs)``; the cards to start from are
#: those a person is shown as they type the cards in where the pipeline read more than the
#: event holds (a hand read short, more of it read by a second look), else none (they start
#: from the event's). Feeds without answers give the first three only.
Held = tuple[Any, ...]


def pending_of(result: Any) -> list[Held]:
    """The pipeline's held readings as plain data, with their one-click answers."""
    return [(p.id, p.ask() if getattr(p, "options", None) else p.describe(), dict(p.event),
             [(a.label, [dict(e) for e in a.events]) for a in getattr(p, "options", [])],
             list(getattr(p, "draft", None) or []))
            for p in getattr(result, "pending", [])]


#: The card of a one-click answer's event (its first, most often) that a person names as
#: they give it ("Cy: another card…"; `vision.pipeline.results.PICK`, kept here so that the
#: window needs no vision package to show a feed's answers).
PICK = "?"


def pick_play(event: dict[str, Any]) -> dict[str, Any] | None:
    """The play of `PICK` that ``event`` (one of an answer's, its first most often) logs:
    the event itself, or the play a correction puts in an earlier place ("Cy: another card
    before Cy's K♣…"); None where it picks none (`vision.pipeline.results.pick_of`, for the
    window). A hand shown of `PICK` alone ("Bob shows another card…") picks too."""
    play = event.get("with") if event.get("event") == "correct" else event
    return play if isinstance(play, dict) and (play.get("card") == PICK
                                               or play.get("cards") == [PICK]) else None


def named_pick(event: dict[str, Any], card: str, player: str, extra: dict[str, Any]
               ) -> dict[str, Any] | None:
    """``event`` with its play of `PICK` (`pick_play`) made ``player`` 's ``card``, with
    ``extra``; None where it picks none."""
    play = pick_play(event)
    if play is None:
        return None
    # (a hand shown of one card names it in its list of cards)
    key, value = ("cards", [card]) if "cards" in play else ("card", card)
    named = {**play, key: value, "player": player, **extra}
    return named if play is event else {**event, "with": named}


#: How many one-click answers the question bar shows at most: every one a question has
#: offered so far (a missed card's, some 17: the cards due, the places a person names one
#: in, the misreads, and the reading as read), which used to be cut at 12.
MAX_ANSWERS = 20


def answers_of(held: Held) -> list[tuple[str, list[dict[str, Any]]]]:
    """The one-click answers of a held reading (none for a feed that gives none), at most
    `MAX_ANSWERS` of them (`fewest_answers`)."""
    return fewest_answers(list(held[3]) if len(held) > 3 else [], MAX_ANSWERS)


def kept_answer(label: str, events: list[dict[str, Any]]) -> bool:
    """Whether a one-click answer stays however many a question offers: one that names no
    card in advance (a person names it: "Cy: another card…"), the reading's own answers
    after a missed card's (as read, "nobody (2♥ as read)", or as its lookalike, "it was
    7♠"; `vision.pipeline.questions` labels them so) and nothing logged at all ("not a
    card"). Without them no click could answer as the camera read, or name a card not
    offered."""
    return (not events or any(pick_play(e) is not None for e in events)
            or label.startswith(("nobody (", "it was ")))


def fewest_answers(answers: list[tuple[str, list[dict[str, Any]]]], most: int
                   ) -> list[tuple[str, list[dict[str, Any]]]]:
    """``answers`` cut to ``most``, in their order: the answers every question keeps
    (`kept_answer`) first, then the likeliest of the rest (a question lists its answers
    likeliest first). "Something else…" still enters any other."""
    if len(answers) <= most:
        return answers
    kept = [i for i, (label, events) in enumerate(answers) if kept_answer(label, events)][:most]
    rest = [i for i in range(len(answers)) if i not in kept][:most - len(kept)]
    return [answers[i] for i in sorted(kept + rest)]


class PipelineFeed:
    """What the feeds that run `vision.pipeline.table.TablePipeline` share: answering a held reading
    and rebuilding the pipeline's referee after a person wrote to the log. Subclasses set
    ``pipeline`` (None when there is none) and give `_evidence`, the masked frame to store."""

    pipeline: Any = None

    def _evidence(self) -> np.ndarray | None:
        return None

    def answer(self, pending_id: int, event: dict[str, Any] | list[dict[str, Any]] | None
               ) -> list[SeenEvent]:
        """Log (or drop, with None) a reading the pipeline held for confirmation; a list is
        one of its one-click answers (the events it logs, in order)."""
        if self.pipeline is None:
            return []
        if event is None:
            self.pipeline.reject(pending_id)
            return []
        before = self.pipeline.log.lines
        if isinstance(event, list):
            self.pipeline.answer(pending_id, event)
        else:
            self.pipeline.confirm(pending_id, event)
        return new_events(self.pipeline.log.path, before, self._evidence())

    def resync(self) -> None:
        """A person wrote to the log (an entry, a correction): the pipeline reads it again
        (its referee, and the round's cards: a new round entered starts the table afresh)."""
        if self.pipeline is None:
            return
        self.pipeline.resync()


class DemoFeed:
    """The demo table as a feed: one simulated event per tick, drawn, with its evidence."""

    def __init__(self, table: DemoTable, interval_ms: int = 900) -> None:
        self.table = table
        self.interval_ms = interval_ms
        self.profile = table.profile
        #: Said once when the feed starts (why this plain table stands in for another feed).
        self.notices: list[str] = []

    def tick(self) -> Tick:
        ev = self.table.step()
        img, marks = self.table.frame()
        frame = FramePacket(img, tuple(marks), time.monotonic())
        if ev is None:
            return Tick(frame, done=True)
        evidence = self.profile.mask_private(img)
        return Tick(frame, [SeenEvent(dict(ev), evidence)])

    def close(self) -> None:
        pass


class FeedWorker(QObject):
    """Runs a feed on a timer in the thread it was moved to. Signals carry plain data."""

    resyncRequested = Signal()
    stopRequested = Signal()
    answerRequested = Signal(int, object)  # a held reading: (id, event(s) to log or None)
    pendingChanged = Signal(object)        # list of (id, question, event, answers)

    ready = Signal(object)        # TableProfile (a copy) once the feed is open
    frameReady = Signal(object)   # FramePacket
    eventSeen = Signal(object)    # SeenEvent
    note = Signal(str)            # something to tell the user ("camera lost, reconnecting")
    feedDone = Signal()
    failed = Signal(str)

    def __init__(self, make_feed: Callable[[], Feed]) -> None:
        super().__init__()
        self._make_feed = make_feed
        self.feed: Feed | None = None
        self._timer: QTimer | None = None
        self._paused = False
        self.resyncRequested.connect(self.resync)  # queued: runs in the worker's thread
        self.stopRequested.connect(self.stop)
        self.answerRequested.connect(self.answer)
        self._pending: list[Held] = []

    @Slot()
    def start(self) -> None:
        try:
            self.feed = self._make_feed()
        except Exception as exc:  # noqa: BLE001 - reported to the window, never raised
            self.failed.emit(log_failure("cannot open the table feed", exc))
            return
        self.ready.emit(self.feed.profile)
        for text in getattr(self.feed, "notices", ()):   # what the feed had to do without
            self.note.emit(text)
        source = getattr(self.feed, "source", None)
        if source is not None and hasattr(source, "on_status"):  # a camera: said at once
            source.on_status = self.note.emit
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self._timer.start(max(1, self.feed.interval_ms))

    @Slot()
    def resync(self) -> None:
        """The log changed behind the feed (a person's entry or correction): catch up."""
        resync = getattr(self.feed, "resync", None)
        if callable(resync):
            resync()

    @Slot(int, object)
    def answer(self, pending_id: int, event: Any) -> None:
        """A person confirmed (event), corrected (another event), picked a one-click answer
        (its list of events) or rejected (None) a held reading; the feed logs it and the
        events it wrote come back as `eventSeen`."""
        answer = getattr(self.feed, "answer", None)
        if not callable(answer):
            return
        try:
            seen = answer(pending_id, event)
        except (KeyError, ValueError) as exc:
            self.note.emit(f"could not log that reading: {exc}")
            return
        for item in seen:
            self.eventSeen.emit(item)
        self._pending = [p for p in self._pending if p[0] != pending_id]
        self.pendingChanged.emit(list(self._pending))

    @Slot(bool)
    def set_paused(self, paused: bool) -> None:
        self._paused = paused

    @Slot(int)
    def set_interval(self, ms: int) -> None:
        if self.feed is not None:
            self.feed.interval_ms = ms
        if self._timer is not None:
            self._timer.setInterval(max(1, ms))

    @Slot()
    def _tick(self) -> None:
        if self._paused or self.feed is None:
            return
        try:
            tick = self.feed.tick()
        except Exception as exc:  # noqa: BLE001 - logged, said, and the next tick tries again
            self.note.emit(log_failure("the feed stumbled", exc))
            return
        if tick.frame is not None:
            self.frameReady.emit(tick.frame)
        for seen in tick.events:
            self.eventSeen.emit(seen)
        for text in tick.notes:
            self.note.emit(text)
        if tick.pending is not None and tick.pending != self._pending:
            self._pending = list(tick.pending)
            self.pendingChanged.emit(list(self._pending))
        if tick.done:
            if self._timer is not None:
                self._timer.stop()
            self.feedDone.emit()

    @Slot()
    def stop(self) -> None:
        """Runs in the worker's thread: stop the timer there, then end the thread's loop."""
        if self._timer is not None:
            self._timer.stop()
            self._timer.deleteLater()  # deleted in this thread as it finishes
            self._timer = None
        thread = QThread.currentThread()
        app = QCoreApplication.instance()
        if app is not None and thread is not app.thread():
            self.moveToThread(app.thread())
        thread.quit()


class FeedThread(QObject):
    """Owns a worker thread running one feed; `stop` ends it cleanly and waits."""

    def __init__(self, make_feed: Callable[[], Feed], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.qthread = QThread()
        self.qthread.setObjectName("table-feed")
        self.worker = FeedWorker(make_feed)
        self.worker.moveToThread(self.qthread)
        self.qthread.started.connect(self.worker.start)

    def start(self) -> None:
        self.qthread.start()

    def stop(self, timeout_ms: int = 5000) -> bool:
        """Stop the timer, end the thread's event loop and wait for it; True when it ended."""
        if not self.qthread.isRunning():
            return True
        self.worker.stopRequested.emit()  # the worker stops its timer and quits its loop
        ok = self.qthread.wait(timeout_ms)
        if not ok:  # a feed stuck in a read: ask the loop to end and wait once more
            self.qthread.quit()
            ok = self.qthread.wait(timeout_ms)
        if ok and self.worker.feed is not None:
            self.worker.feed.close()
        return bool(ok)
