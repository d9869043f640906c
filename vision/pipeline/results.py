"""The pipeline's plain values: what it reads with (`Detector`, `TableReader`, `ZoneLook`), a
reading held for a person (`Pending`, with its one-click `Answer` s), and what a frame and a
run give back (`FrameResult`, `RunStats`): plain data, safe to hand to another thread.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from calibration.profile import TableProfile
from companion.cards import Card
from vision.detections import Detections
from vision.tracker import Observation


class Detector(Protocol):
    """Anything with ``detect(frame_bgr) -> Detections`` (the YOLO runtime, or a test double)."""

    def detect(self, frame_bgr: np.ndarray) -> Detections: ...


@runtime_checkable
class TableReader(Protocol):
    """A detector that reads only the profile's zones (`vision.zones.ZoneReader`)."""

    def detect_table(self, frame_bgr: np.ndarray, profile: TableProfile) -> Detections: ...


class ZoneLook(Protocol):
    """A reader asked to read some of the profile's zones only (`vision.zones.ZoneReader`):
    the pipeline's second look at a hand shown."""

    def detect_table(self, frame_bgr: np.ndarray, profile: TableProfile,
                     zones: Collection[int] | None = None) -> Detections: ...


#: The card of an answer's first event that a person names as they give it
#: (`Answer.picks`): a card missed that may have been any of many.
PICK = "?"
#: The ``placed`` of a play of `PICK` whose place is chosen once the card is named
#: (`Answer.places`): the card was played earlier in the round, in one of many places.
EARLIER = "earlier"


@dataclass(frozen=True)
class Answer:
    """One of the one-click answers to a held reading: its label for people ("6♣", "Cy",
    "not a card") and the events it logs, in order (none: nothing happened)."""

    label: str
    events: tuple[dict[str, Any], ...] = ()
    #: The card this answer says the held reading is, when it says one: the camera reading
    #: that card on the spot again and again settles the question with this answer.
    card: str | None = None
    #: The held reading is placed again once the answer's events are logged (the table
    #: then takes it as it now fits: a hand shown short of cards, once a missed play ended
    #: the round, is held as a hand; `Questions._missed_earlier`).
    again: bool = False
    #: For an answer that picks a card played earlier (its play ``placed`` `EARLIER`): the
    #: answers that put a card of that player in each place where one fits; once the card
    #: is named, those of that card are logged (one) or offered (several).
    places: tuple[Answer, ...] = ()
    #: Cards of lines the answer's corrections take out of the log that still lie shown on
    #: the table: the camera reads them afresh (a hand shown read as a play, before the
    #: play a person now places before it ended the round; `Questions._last_card_late`).
    reread: tuple[str, ...] = ()

    @property
    def picks(self) -> str | None:
        """The player whose card a person names to give this answer ("Cy: another
        card…"): one of its events (its first, most often) is that player's play of `PICK`
        (`pick_of`: or a correction that puts one in an earlier place), which `picked` fills
        in; None for an answer logged as it is."""
        first = next((play for e in self.events if (play := pick_of(e)) is not None), None)
        return str(first.get("player")) if first is not None else None


def pick_of(event: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The play of `PICK` that ``event`` logs: the event itself, or the play a correction
    puts in an earlier line's place (a card missed earlier in the round), or a hand shown of
    that one card (a player's last card, shown and never read); None if none."""
    play = placed_play(event)
    return play if play.get("card") == PICK or play.get("cards") == [PICK] else None


def placed_play(event: Mapping[str, Any]) -> Mapping[str, Any]:
    """The play ``event`` logs: the event itself, or the one a correction puts in a line."""
    play = event.get("with") if event.get("event") == "correct" else event
    return play if isinstance(play, Mapping) else {}


def picked(events: Sequence[Mapping[str, Any]], card: str) -> list[dict[str, Any]]:
    """The events of an answer that `Answer.picks` a player's card, with ``card`` named."""
    out: list[dict[str, Any]] = []
    for e in events:
        if e.get("card") == PICK:
            out.append({**e, "card": card})
        elif e.get("cards") == [PICK]:
            out.append({**e, "cards": [card]})
        elif pick_of(e) is not None:
            out.append({**e, "with": {**e["with"], "card": card}})
        else:
            out.append(dict(e))
    return out


@dataclass
class Pending:
    """A reading held for a person to confirm: the event it would log and why it is held.

    ``question`` (when set) is the sentence put to people ("Bob played 6♣?", "6♣ was not
    seen: who played it?") and ``options`` its one-click answers, the likeliest first."""

    id: int
    event: dict[str, Any]
    reason: str
    observation: Observation
    question: str = ""
    options: list[Answer] = field(default_factory=list)
    #: Frame time the question was put (its spot's readings since then may settle it).
    asked: float = 0.0
    #: For a hand shown read short: the cards a person starts from as they type it in (the
    #: first reading and the second look's), where the look read more than the first reading.
    draft: list[str] = field(default_factory=list)

    def ask(self) -> str:
        """The question alone, for a window that shows the answers as buttons."""
        if not self.question:
            return self.describe()
        return f"{self.question} ({self.reason})" if self.reason else self.question

    def describe(self) -> str:
        if self.question:
            labels = [a.label for a in self.options] + ["something else"]
            why = f" ({self.reason})" if self.reason else ""
            return f"{self.question}{why} — {' / '.join(labels)}"
        cards = " ".join(Card.parse(c).pretty() for c in self.observation.cards)
        who = self.event.get("player") or self.observation.zone_name
        if self.event.get("event") == "reveal":
            return f"Confirm {who}'s hand: {cards}? ({self.reason})"
        return f"Confirm {who}: {cards}? ({self.reason})"


@dataclass
class FrameResult:
    """What one frame produced, as plain data (safe to hand to another thread).

    - ``detections``: cards seen inside readable zones, ``{"card","box","score","zone"}``;
    - ``events``: ``(line, event)`` appended to the log during this frame;
    - ``announcements``: the referee's sentences for those events (and chip warnings);
    - ``pending``: readings now waiting for confirmation; ``chip_warnings``; ``notes``;
    - ``latency``: for each event, seconds from the cards coming to rest to this frame;
    - ``ms``: processing time of this frame.
    """

    t: float
    index: int
    detections: list[dict[str, Any]] = field(default_factory=list)
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    announcements: list[str] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    chip_warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    latency: list[float] = field(default_factory=list)
    ms: float = 0.0


@dataclass
class RunStats:
    """How a run went: frames processed and dropped, frame rate, events, latencies."""

    frames: int = 0
    dropped: int = 0
    seconds: float = 0.0
    events: int = 0
    latencies: list[float] = field(default_factory=list)
    process_ms: list[float] = field(default_factory=list)

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0
