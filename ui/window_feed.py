"""The main window's table feed (a layer of `MainWindow`, see ui/window_display.py): the
thread that runs the pipeline on a camera or the demo table (`FeedThread`, ui/worker.py), the
slots of its signals (frames, events, notes, failures, the end of the demo), pausing it, and
the readings it holds for a person, shown on the yellow bar and answered from it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog

from calibration.profile import TableProfile
from ui.dialogs import USER, EventDialog, PlayDialog
from ui.panels import QuestionBar
from ui.window_display import WindowDisplay
from ui.worker import (
    Feed,
    FeedThread,
    FramePacket,
    Held,
    SeenEvent,
    answers_of,
    named_pick,
    pick_play,
)


class WindowFeed(WindowDisplay):
    """The feed's side of the window. Its state is set up by `MainWindow.__init__`."""

    feed: FeedThread | None
    profile: TableProfile | None
    #: The readings the pipeline holds for a person, the first one on the yellow bar.
    pending: list[Held]
    confirm_bar: QuestionBar
    act_pause: QAction
    #: The latest entry dialog opened (tests fill it in through ``prepare``).
    last_dialog: EventDialog
    _last_frame: np.ndarray | None

    def _start_feed(self, make_feed: Callable[[], Feed]) -> None:
        self.stop_feed()
        feed = FeedThread(make_feed, self)
        feed.worker.ready.connect(self._on_ready)
        feed.worker.frameReady.connect(self._on_frame)
        feed.worker.eventSeen.connect(self._on_event)
        feed.worker.note.connect(self._on_note)  # a method: runs in this (the GUI) thread
        feed.worker.failed.connect(self._on_failed)
        feed.worker.feedDone.connect(self._on_feed_done)
        feed.worker.pendingChanged.connect(self._on_pending)
        self.feed = feed
        feed.start()
        self._update_actions()

    def _start_camera(self, source: str, profile: TableProfile | None,
                      deck: str | None = None) -> None:
        from ui.camera import make_camera_feed

        players = self.session.players if self.session else []
        game = str(self.session.setup.get("game")) if self.session else "michigan-rummy"
        log = self.session.log if self.session else None
        self._start_feed(lambda: make_camera_feed(source, profile, game, players, log, deck))

    def stop_feed(self) -> None:
        self.pending = []
        self.confirm_bar.setVisible(False)
        if self.feed is not None:
            self.feed.stop()
            self.feed.deleteLater()
            self.feed = None
        self.act_pause.setChecked(False)

    def _resync_feed(self) -> None:
        if self.feed is not None:
            self.feed.worker.resyncRequested.emit()

    def _set_paused(self, paused: bool) -> None:
        if self.feed is not None:
            self.feed.worker.set_paused(paused)

    # --- from the feed ---------------------------------------------------------------------
    def _current(self) -> bool:
        """True when the signal being handled comes from the running feed (not a stopped one
        whose queued signals are still arriving)."""
        return self.feed is not None and self.sender() is self.feed.worker

    @Slot(object)
    def _on_ready(self, profile: TableProfile) -> None:
        if not self._current():
            return
        self.profile = profile
        self.live.set_profile(profile, self.session.players if self.session else [])

    @Slot(object)
    def _on_frame(self, packet: FramePacket) -> None:
        if self.replay_mode or not self._current():
            return
        self._last_frame = packet.image
        self.live.set_frame(packet.image, packet.marks)

    @Slot(object)
    def _on_event(self, seen: SeenEvent) -> None:
        if self.session is None or self.replay_mode or not self._current():
            return
        if seen.line is not None:  # the vision pipeline wrote it already
            line = self.session.adopt(seen.line, seen.event, seen.evidence)
        else:
            line = self.session.append(seen.event, seen.evidence)
        self.eventLogged.emit(line)
        self.refresh()

    @Slot(str)
    def _on_note(self, text: str) -> None:
        if self._current():
            # A lost camera stays said until it is back (that note replaces it).
            self.status.showMessage(text, 0 if text.startswith("Camera lost") else 6000)

    @Slot(str)
    def _on_failed(self, text: str) -> None:
        self.show_problem(text)

    @Slot()
    def _on_feed_done(self) -> None:
        if not self._current():
            return
        self.status.showMessage("The demo game is over. Start a new game or replay this one.")
        self.feedFinished.emit()

    # --- the readings held for a person (the yellow bar) -----------------------------------
    @Slot(object)
    def _on_pending(self, pending: list[Held]) -> None:
        if not self._current():
            return
        self.pending = list(pending)
        self.confirm_bar.show_pending(self.pending)

    def answer_option(self, index: int,
                      prepare: Callable[[EventDialog], None] | None = None) -> None:
        """Answer the first held reading with its one-click answer ``index`` (key 1 is 0). An
        answer that picks a player's card opens a dialog for it first (``prepare``: as for
        `fix_pending`)."""
        if not self.pending or self.feed is None:
            return
        answers = answers_of(self.pending[0])
        if not 0 <= index < len(answers):
            return
        events = answers[index][1]
        # (the card named is the answer's first event most often; "Cy, then another card
        # before this 5♠…" names its second)
        at = next((k for k, e in enumerate(events) if pick_play(e) is not None), None)
        play = pick_play(events[at]) if at is not None else None
        if at is not None and play is not None:
            # "Cy: another card…": the person names Cy's card, then it is logged with the rest
            # (where the answer puts it in an earlier place, in that place).
            pid, player = self.pending[0][0], str(play.get("player"))
            shown = play.get("event") == "reveal"
            dlg = PlayDialog(self._players(), player,
                             title=f"Which card did {player} {'show' if shown else 'play'}?")
            dlg.setParent(self, dlg.windowFlags())
            if prepare is not None:
                prepare(dlg)
            self.last_dialog = dlg
            if dlg.exec() != QDialog.DialogCode.Accepted:
                return
            named = dlg.events()[0]
            cards = named.get("cards") or [named.get("card")]
            if len(cards) != 1:
                self.status.showMessage(
                    f"Pick one card: the one {player} {'showed' if shown else 'played'}.", 6000)
                return
            if not self.pending or self.pending[0][0] != pid:
                return  # answered meanwhile (the camera read it again)
            events = [*events[:at], named_pick(events[at], cards[0], named["player"], USER)
                      or events[at], *events[at + 1:]]
        self.feed.worker.answerRequested.emit(self.pending[0][0], list(events) or None)

    def answer_pending(self, accept: bool, event: dict[str, Any] | None = None) -> None:
        """Answer the first reading the pipeline holds: log it (as read, or ``event``) or not."""
        if not self.pending or self.feed is None:
            return
        pid, held = self.pending[0][0], self.pending[0][2]
        self.feed.worker.answerRequested.emit(pid, (event or held) if accept else None)

    def fix_pending(self, prepare: Callable[[EventDialog], None] | None = None) -> None:
        if not self.pending:
            return
        held = self.pending[0][2]
        # (a hand read short starts from what a second look read of it, where it read more)
        draft = self.pending[0][4] if len(self.pending[0]) > 4 else []
        cards = draft or held.get("cards") or [held.get("card")]
        dlg: EventDialog = PlayDialog(self._players(), held.get("player"),
                                      " ".join(str(c) for c in cards if c),
                                      title="What was laid down?",
                                      kind=str(held.get("event") or "play"), choose_kind=True)
        dlg.setParent(self, dlg.windowFlags())
        if prepare is not None:
            prepare(dlg)
        self.last_dialog = dlg
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.answer_pending(True, dlg.events()[0])
