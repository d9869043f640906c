"""Events typed at `companion watch`'s terminal: parsed into log events, checked by the referee
before anything is written."""

from __future__ import annotations

from typing import Any

import pytest

from companion.events import Event, describe_event
from companion.referee import replay
from vision.prompt import PromptError, enter_typed, next_dealer, parse_typed

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def test_typed_lines_become_events() -> None:
    assert parse_typed("round", PLAYERS) == {"event": "round", "dealer": "Ann"}
    assert parse_typed("round", PLAYERS, last_dealer="Dee") == {"event": "round",
                                                                 "dealer": "Ann"}
    assert parse_typed("Round b", PLAYERS)["dealer"] == "Bob"  # a name's first letters do
    assert parse_typed("sell cy 3", PLAYERS) == {"event": "dummy", "action": "sell",
                                                 "buyer": "Cy", "price": 3}
    assert parse_typed("keep", PLAYERS) == {"event": "dummy", "action": "keep"}
    assert parse_typed("bid Dee 0", PLAYERS) == {"event": "bid", "player": "Dee", "tricks": 0}
    assert parse_typed("play Bob 10♦", PLAYERS) == {"event": "play", "player": "Bob",
                                                    "card": "TD"}
    assert parse_typed("play Bob 5c 5d", PLAYERS)["cards"] == ["5C", "5D"]
    assert parse_typed("trump Q♠", PLAYERS) == {"event": "trump", "card": "QS"}
    assert parse_typed("hand Overtime-1", PLAYERS) == {"event": "hand", "kind": "overtime-1"}
    assert parse_typed("end", PLAYERS) == {"event": "end-round"}
    assert next_dealer(PLAYERS, "Bob") == "Cy"


@pytest.mark.parametrize(("text", "says"), [
    ("", "nothing typed"), ("deal Ann", "unknown command"), ("sell Zed 3", "not at this table"),
    ("bid Ann three", "whole number"), ("play Ann 1X", "not a card"), ("round Ann Bob", "round"),
    ("hand extra", "main"), ("keep now", "keep"),
])
def test_slips_are_named(text: str, says: str) -> None:
    with pytest.raises(PromptError, match=says):
        parse_typed(text, PLAYERS)


def test_a_name_two_players_begin_with_is_refused() -> None:
    with pytest.raises(PromptError, match="Ann and Anna"):
        parse_typed("round an", ["Ann", "Anna", "Bob"])


class _Pipe:
    """What `enter_typed` uses of the table pipeline: a referee, the players, the log's length
    and `inject` (which logs and applies)."""

    def __init__(self) -> None:
        game = {"event": "game", "game": "michigan-rummy", "players": PLAYERS, "chips": 50}
        self.referee: Any = replay([Event(game, 1)]).referee
        self.players = list(PLAYERS)
        self.logged: list[dict[str, Any]] = [game]
        self.log = self

    @property
    def lines(self) -> int:
        return len(self.logged)

    def inject(self, event: dict[str, Any]) -> tuple[int, list[str]]:
        self.logged.append(event)
        n = len(self.referee.announcements)
        self.referee.apply(Event(event, len(self.logged)))
        return len(self.logged), [a.text for a in self.referee.announcements[n:]]


def test_the_referee_checks_a_typed_event_before_it_is_logged() -> None:
    pipe = _Pipe()
    logged, said = enter_typed(pipe, "round")
    assert logged == (2, {"event": "round", "dealer": "Ann"})
    assert any("Ann deals" in s for s in said)
    assert describe_event(logged[1]) == "New round, Ann deals"
    logged, said = enter_typed(pipe, "round Bob")  # round 1 is not over: refused, not written
    assert logged is None and said[0].startswith("not logged:")
    logged, said = enter_typed(pipe, "sell Zed 2")
    assert logged is None and "not at this table" in said[0]
    assert len(pipe.logged) == 2
    logged, _ = enter_typed(pipe, "keep")
    assert logged is not None and pipe.logged[-1] == {"event": "dummy", "action": "keep"}
    assert enter_typed(pipe, "help")[1][0].lstrip().startswith("round")


def test_watch_reads_typed_lines_on_their_own_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import time

    from vision.pipeline_cli import _typed_lines

    monkeypatch.setattr("sys.stdin", io.StringIO("round\n\n  keep  \n"))
    lines = _typed_lines(True)
    assert lines is not None
    got = [lines.get(timeout=5), lines.get(timeout=5)]
    time.sleep(0.05)
    assert got == ["round", "keep"] and lines.empty()  # blank lines are not commands
    monkeypatch.setattr("sys.stdin", io.StringIO("round\n"))  # piped, without --prompt
    assert _typed_lines(False) is None
