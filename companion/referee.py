"""The referee engine shared by every game: registry, the replay fold, rollback and the report.

A referee's state is a pure function of the event log. An event that cannot happen raises
`EventError`; `replay` then restores the state as it was before that line and records the error.
"""

from __future__ import annotations

import copy
import importlib
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from companion.events import Event, Log, LogProblem, apply_corrections, read_log
from companion.ledger import Ledger

#: Which module implements each game (imported on first use).
GAME_MODULES: dict[str, str] = {
    "michigan-rummy": "companion.games.michigan.referee",
    "great-lakes": "companion.games.michigan.referee",
    "pressman": "companion.games.michigan.referee",
    "boodle": "companion.games.michigan.referee",
    "oh-claire": "companion.games.oh_claire.referee",
    "wanagan": "companion.games.wanagan.referee",
    "michigan-rum": "companion.games.rum.referee",
}
#: Which module holds each game's simulator and bots.
SIMULATOR_MODULES: dict[str, str] = {
    "michigan-rummy": "companion.games.michigan.sim",
    "great-lakes": "companion.games.michigan.sim",
    "pressman": "companion.games.michigan.sim",
    "boodle": "companion.games.michigan.sim",
    "oh-claire": "companion.games.oh_claire.sim",
    "wanagan": "companion.games.wanagan.sim",
    "michigan-rum": "companion.games.rum.sim",
}

_REFEREES: dict[str, type[Referee]] = {}
_log = logging.getLogger("companion.referee")
Simulator = Callable[..., list[dict[str, Any]]]
_SIMULATORS: dict[str, Simulator] = {}


class EventError(ValueError):
    """An event that cannot happen in the current state (the message says why, plainly)."""


class Violation(NamedTuple):
    """A rule broken at ``line`` by ``player``, proven by the event at ``proof_line``."""

    line: int
    player: str
    rule: str
    proof_line: int
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "player": self.player, "rule": self.rule,
                "proof_line": self.proof_line, "text": self.text}


class Announcement(NamedTuple):
    """A short, speakable sentence said after the event at ``line``."""

    line: int
    text: str

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text}


@dataclass
class GameState:
    """Base of every game's mutable state. Everything that changes during play lives here (or
    in the ledger), so that `Referee.rollback` can restore it."""

    round: int = 0
    finished: bool = False


class Referee:
    """Base class of a rule set. Subclasses set ``game`` and implement `apply`.

    Subclasses keep every piece of mutable game state in ``self.state`` (a `GameState`
    subclass), the chips in ``self.ledger``, and add findings with `announce` and `violation`.
    They must never reveal hidden information in announcements: who holds an unplayed card,
    the dummy, a hand before it is revealed — even when a full ``deal`` is in the log.
    """

    game: ClassVar[str] = ""

    def __init__(self, setup: Event) -> None:
        self.setup = setup
        self.players: list[str] = list(setup.get("players") or [])
        self.state: GameState = GameState()
        self.ledger: Ledger = Ledger.open({p: 0 for p in self.players})
        self.announcements: list[Announcement] = []
        self.violations: list[Violation] = []

    # --- for subclasses --------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        """Apply one event; raise `EventError` when it cannot happen."""
        raise NotImplementedError

    def announce(self, line: int, text: str) -> None:
        self.announcements.append(Announcement(line, text))

    def violation(self, line: int, player: str, rule: str, proof_line: int, text: str) -> None:
        self.violations.append(Violation(line, player, rule, proof_line, text))

    def turn(self) -> str | None:
        """Whose move it is now, when the rules say (None when anyone may act or unknown)."""
        return None

    def expects(self) -> frozenset[str] | None:
        """Which kinds of card event (``play``, ``reveal``) the game is waiting for now; None
        when the rule set does not say. Lets a camera reading that fits neither be explained
        (and offered for correction) as the kind the table is at."""
        return None

    def gathered(self) -> frozenset[str]:
        """Codes of cards played this round that the rules have taken off the table since
        (a trick gathered by its winner), so that none of them can lie face up where it was
        played: a camera reading one there reads another card. Empty when played cards stay
        where they were laid (the default)."""
        return frozenset()

    def finish(self, line: int) -> None:
        """Called once after the last event of the log (nothing to do by default)."""

    # --- rollback --------------------------------------------------------------------------
    def checkpoint(self) -> tuple[Any, ...]:
        return (copy.deepcopy(self.state), self.ledger.mark(), len(self.announcements),
                len(self.violations))

    def rollback(self, mark: tuple[Any, ...]) -> None:
        state, ledger_mark, n_ann, n_vio = mark
        self.state = state
        self.ledger.rollback(ledger_mark)
        del self.announcements[n_ann:]
        del self.violations[n_vio:]

    # --- the report of DESIGN.md -----------------------------------------------------------
    def report(self, errors: Sequence[LogProblem] = ()) -> dict[str, Any]:
        players = set(self.ledger.players)
        return {
            "game": self.game,
            "round": self.state.round,
            "finished": self.state.finished,
            "chips": self.ledger.player_chips(),
            "pots": {k: v for k, v in self.ledger.accounts.items() if k not in players},
            "violations": [v.as_dict() for v in self.violations],
            "announcements": [a.as_dict() for a in self.announcements],
            "errors": [e.as_dict() for e in sorted(errors, key=lambda e: e.line)],
        }


def plural(n: int, word: str) -> str:
    """A count in announcements, as people say it: ``1 trick``, ``2 tricks``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def join_words(words: Sequence[str]) -> str:
    """Names in announcements, as people say them: ``Ann``, ``Ann and Bob``, ``Ann, Bob and
    Cy`` (nothing for none)."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def register_referee(*names: str) -> Callable[[type[Referee]], type[Referee]]:
    """Class decorator: make a rule set findable by its game name(s)."""
    def deco(cls: type[Referee]) -> type[Referee]:
        for name in names:
            _REFEREES[name] = cls
        return cls
    return deco


def register_simulator(*names: str) -> Callable[[Simulator], Simulator]:
    """Decorator: ``simulate(players, rounds, seed, hidden, mistakes, chips, **opts) -> events``."""
    def deco(fn: Simulator) -> Simulator:
        for name in names:
            _SIMULATORS[name] = fn
        return fn
    return deco


def find_referee(game: str) -> type[Referee]:
    """The rule-set class for a game name, e.g. ``find_referee("pressman")``."""
    if game not in _REFEREES and game in GAME_MODULES:
        importlib.import_module(GAME_MODULES[game])
    try:
        return _REFEREES[game]
    except KeyError:
        known = ", ".join(sorted(GAME_MODULES))
        raise ValueError(f"unknown game {game!r} (known: {known})") from None


def find_simulator(game: str) -> Simulator:
    if game not in _SIMULATORS and game in SIMULATOR_MODULES:
        importlib.import_module(SIMULATOR_MODULES[game])
    try:
        return _SIMULATORS[game]
    except KeyError:
        known = ", ".join(sorted(SIMULATOR_MODULES))
        raise ValueError(f"unknown game {game!r} (known: {known})") from None


@dataclass
class Replay:
    """The outcome of replaying a log: the referee (None without a valid game event) and every
    problem met, in line order."""

    referee: Referee | None
    errors: list[LogProblem] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        if self.referee is None:
            return {"game": None, "round": 0, "finished": False, "chips": {}, "pots": {},
                    "violations": [], "announcements": [],
                    "errors": [e.as_dict() for e in sorted(self.errors, key=lambda e: e.line)]}
        return self.referee.report(self.errors)


def _describe_internal(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def start(events: Sequence[Event], errors: list[LogProblem]) -> tuple[Referee | None, int]:
    """Find the game event and build its referee; returns the referee and the index after it."""
    for i, ev in enumerate(events):
        if ev.kind != "game":
            errors.append(LogProblem(ev.line, f"line {ev.line}: {ev.kind!r} event before the "
                                              f"\"game\" event; ignored"))
            continue
        game = ev.get("game")
        try:
            cls = find_referee(str(game))
            return cls(ev), i + 1
        except (ValueError, TypeError, KeyError, ImportError) as exc:
            errors.append(LogProblem(ev.line, f"line {ev.line}: cannot start the game: {exc}"))
    return None, len(events)


def replay(events: Iterable[Event] | Log, errors: Iterable[LogProblem] = ()) -> Replay:
    """Fold the events of a log into a referee. Never raises on bad input."""
    problems = list(errors)
    if isinstance(events, Log):
        problems.extend(events.errors)
        events = events.events
    effective, corr_problems = apply_corrections(events)
    problems.extend(corr_problems)
    referee, i = start(effective, problems)
    if referee is None:
        if not effective:
            problems.append(LogProblem(0, "the log holds no events"))
        return Replay(None, problems)
    last = effective[i - 1].line if i else 0
    for ev in effective[i:]:
        last = ev.line
        if ev.kind == "game":
            problems.append(LogProblem(ev.line, f"line {ev.line}: a second \"game\" event; "
                                                f"ignored"))
            continue
        mark = referee.checkpoint()
        try:
            referee.apply(ev)
        except EventError as exc:
            referee.rollback(mark)
            problems.append(LogProblem(ev.line, f"line {ev.line}: {exc}"))
        except (ValueError, TypeError, KeyError) as exc:
            # Malformed fields (a card code that is not one, a missing player...).
            referee.rollback(mark)
            reason = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
            problems.append(LogProblem(ev.line, f"line {ev.line}: malformed {ev.kind!r} event "
                                                f"({reason})"))
        except Exception as exc:  # noqa: BLE001 - a referee bug must not lose the game
            referee.rollback(mark)
            _log.error("internal error of the %s referee on line %d: %s", referee.game,
                       ev.line, dict(ev.data), exc_info=exc)
            problems.append(LogProblem(ev.line, f"line {ev.line}: internal error on this event, "
                                                f"skipped ({_describe_internal(exc)})"))
    try:
        referee.finish(last)
    except EventError as exc:
        problems.append(LogProblem(last, f"line {last}: {exc}"))
    return Replay(referee, problems)


def replay_file(path: str) -> Replay:
    """Read and replay a log file (OSError when the file cannot be read)."""
    return replay(read_log(path))


def replay_dicts(events: Iterable[Mapping[str, Any]]) -> Replay:
    """Replay events given as plain dicts (numbered 1, 2, ... as lines)."""
    return replay([Event(dict(e), n) for n, e in enumerate(events, start=1)])
