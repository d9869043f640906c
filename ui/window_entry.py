"""The main window's entries (a layer of `MainWindow`, see ui/window_display.py): what the
camera cannot see, typed in by a person (a dummy, a bid, a trump, a hand, a missed play, the
end of a round), corrections of misread events (from the event list or a card clicked in the
picture), undo, and a violation's proof. Every change is an event appended to the game's log
or a ``correct`` event; the display is then rebuilt from the log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from PySide6.QtWidgets import QDialog

from companion.events import describe_event
from ui.dialogs import BidDialog, DummyDialog, EndRoundDialog, EventDialog, PlayDialog, TrumpDialog
from ui.models import ViolationsModel
from ui.proof import ProofDialog
from ui.window_feed import WindowFeed

#: Events that put cards face up on the table: the picture is kept as their evidence.
FaceUp = ("play", "reveal", "meld", "layoff", "discard", "trump", "upcard")


class WindowEntry(WindowFeed):
    """Entering and correcting events. Its state is set up by `MainWindow.__init__`."""

    violations_model: ViolationsModel
    #: The latest proof opened (`show_proof`).
    last_proof: ProofDialog

    def append_events(self, events: Sequence[dict[str, Any]]) -> list[int]:
        """Append events typed in by a person; the current picture is kept as their evidence
        when they are face-up cards."""
        if self.session is None or self.replay_mode:
            return []
        lines = []
        for ev in events:
            frame = self._masked_last_frame() if ev.get("event") in FaceUp else None
            line = self.session.append(ev, frame)
            lines.append(line)
            self.eventLogged.emit(line)
        self._resync_feed()
        self.refresh()
        return lines

    def _masked_last_frame(self) -> np.ndarray | None:
        if self._last_frame is None:
            return None
        if self.profile is not None:
            return self.profile.mask_private(self._last_frame)
        return None  # without calibration nothing is known to be public: keep nothing

    def enter(self, make: Callable[[], EventDialog],
              prepare: Callable[[EventDialog], None] | None = None) -> EventDialog | None:
        """Open an entry dialog; on OK its events are appended. Returns the dialog."""
        if self.session is None or self.replay_mode:
            return None
        dlg = make()
        dlg.setParent(self, dlg.windowFlags())
        if prepare is not None:
            prepare(dlg)
        self.last_dialog = dlg
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.append_events(dlg.events())
        return dlg

    def _dummy_dialog(self) -> EventDialog:
        return DummyDialog(self._players())

    def _bid_dialog(self) -> EventDialog:
        turn = self.session.turn() if self.session else None
        return BidDialog(self._players(), turn)

    def _play_dialog(self) -> EventDialog:
        turn = self.session.turn() if self.session else None
        return PlayDialog(self._players(), turn)

    def _end_dialog(self) -> EventDialog:
        players = self._players()
        dealer = None
        if self.session is not None:
            rounds = [e for e in self.session.effective() if e.kind == "round"]
            if rounds and rounds[-1].get("dealer") in players:
                i = players.index(str(rounds[-1].get("dealer")))
                dealer = players[(i + 1) % len(players)]
        finished = bool(self.session and self.session.report()["finished"])
        return EndRoundDialog(players, dealer, game_over=finished, unshown=self._unshown())

    def _unshown(self) -> dict[str, int]:
        """The players who hold cards by the log and have shown no hand this round, with how
        many (a count every player at the table sees), once the round is over by the log."""
        ref = self.session.referee if self.session is not None else None
        state = getattr(ref, "state", None)
        counts = getattr(state, "counts", None)
        if ref is None or not isinstance(counts, dict) or "reveal" not in (ref.expects() or ()):
            return {}
        revealed = getattr(state, "revealed", None) or {}
        return {str(p): int(n) for p, n in counts.items() if n and p not in revealed}

    # --- corrections -----------------------------------------------------------------------
    def correct(self, line: int, new_event: dict[str, Any] | None) -> int | None:
        """Replace (None: delete) the event at ``line`` with a ``correct`` event."""
        if self.session is None or self.replay_mode:
            return None
        try:
            out = self.session.correct(line, new_event)
        except ValueError as exc:
            self.status.showMessage(str(exc), 6000)
            return None
        self.eventLogged.emit(out)
        self._resync_feed()
        self.status.showMessage(f"Line {line} corrected.", 4000)
        self.refresh(speak=False)
        return out

    def fix_event(self, line: int | None,
                  prepare: Callable[[EventDialog], None] | None = None) -> EventDialog | None:
        """Fix a misread event: a dialog pre-filled with it; OK writes the correction."""
        if line is None or self.session is None or self.replay_mode:
            return None
        ev = self.session.event_at(line)
        if ev is None or ev.kind == "game":
            return None
        data = dict(ev.data)
        kind = ev.kind
        dlg: EventDialog
        if kind in ("play", "reveal", "meld", "layoff", "discard"):
            cards = data.get("cards") or [data.get("card")]
            text = " ".join(str(c) for c in cards if c)
            dlg = PlayDialog(self._players(), data.get("player"), text,
                             title=f"Fix line {line}: {describe_event(data)}", kind=kind)
        elif kind == "dummy":
            dlg = DummyDialog(self._players())
        elif kind == "bid":
            dlg = BidDialog(self._players(), data.get("player"))
        elif kind == "trump":
            dlg = TrumpDialog()
        else:
            self.status.showMessage("This event can only be deleted, not edited.", 5000)
            return None
        dlg.setParent(self, dlg.windowFlags())
        if prepare is not None:
            prepare(dlg)
        self.last_dialog = dlg
        if dlg.exec() == QDialog.DialogCode.Accepted:
            new = dlg.events()[0]
            for key, value in data.items():  # keep fields the dialog does not edit
                if key not in new and key not in ("card", "cards", "source"):
                    new[key] = value
            new["source"] = "user"
            self.correct(line, new)
        return dlg

    def fix_card(self, code: str, prepare: Callable[[EventDialog], None] | None = None
                 ) -> EventDialog | None:
        """A card clicked in the picture: fix the latest event that put it on the table."""
        if self.session is None:
            return None
        for ev in reversed(self.session.effective()):
            cards = ev.get("cards") or [ev.get("card")]
            if ev.kind in FaceUp and code in cards:
                return self.fix_event(ev.line, prepare)
        self.status.showMessage(f"No logged event holds {code}.", 5000)
        return None

    def delete_event(self, line: int | None) -> None:
        if line is not None:
            self.correct(line, None)

    def undo(self) -> int | None:
        if self.session is None or self.replay_mode:
            return None
        line = self.session.undo()
        self._resync_feed()
        if line is not None:
            self.status.showMessage(f"Undone: line {line}.", 4000)
            self.refresh(speak=False)
        return line

    # --- proof -----------------------------------------------------------------------------
    def show_proof(self, row: int, modal: bool = True) -> ProofDialog | None:
        if self.session is None:
            return None
        v = self.violations_model.violation(row)
        if v is None:
            return None
        dlg = ProofDialog(self.session, v, self)
        self.last_proof = dlg
        if modal:
            dlg.exec()
        else:
            dlg.show()
        return dlg
