"""Referees: one rule set per game, found by name, each a pure fold over the event log.

``replay(log)`` builds the state of any game from its events; ``find_referee("great-lakes")``
gives the rule-set class. Game modules register themselves with `register_referee`.
"""

from companion.referee.base import (
    GAME_MODULES,
    Announcement,
    EventError,
    GameState,
    Referee,
    Violation,
    find_referee,
    find_simulator,
    register_referee,
    register_simulator,
    replay,
    replay_file,
)

__all__ = [
    "GAME_MODULES",
    "Announcement",
    "EventError",
    "GameState",
    "Referee",
    "Violation",
    "find_referee",
    "find_simulator",
    "register_referee",
    "register_simulator",
    "replay",
    "replay_file",
]
