"""What people type at the terminal while `companion watch` runs: the moves a camera cannot see
(a new round and its dealer, the dummy decision, bids, the Wanagan hand), or a card it missed.

    round [DEALER]          a new round (default dealer: the player left of the last one)
    keep | exchange         the dummy decision (Michigan family)
    sell BUYER PRICE        the dummy sold
    bid PLAYER TRICKS       a bid (Oh Claire!)
    trump CARD              the trump card turned up (Oh Claire!)
    hand KIND               Wanagan: main, overtime-1, overtime-2, overtime-3, draw
    play PLAYER CARD...     cards the camera did not read (10♦ or TD)
    end                     the round ended without anybody going out

A typed line becomes one event of the log (DESIGN.md's events); the referee checks it before
it is logged, so a typing slip is said and nothing is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.cards import Card, CardError

HELP = __doc__.split("\n\n")[1] if __doc__ else ""
WANAGAN_HANDS = ("main", "overtime-1", "overtime-2", "overtime-3", "draw")


class PromptError(ValueError):
    """A typed line that is not one of the commands, with what was expected."""


def _player(word: str, players: Sequence[str]) -> str:
    """The player a typed name means: exact, or the one name it begins (any case)."""
    exact = [p for p in players if p.lower() == word.lower()]
    if exact:
        return exact[0]
    found = [p for p in players if p.lower().startswith(word.lower())]
    if len(found) == 1:
        return found[0]
    which = "matches " + " and ".join(found) if found else "is not at this table"
    raise PromptError(f"{word!r} {which} (players: {', '.join(players)})")


def _count(word: str, what: str) -> int:
    if not word.isdigit():
        raise PromptError(f"{what} is a whole number, not {word!r}")
    return int(word)


def _card(word: str) -> str:
    try:
        return Card.parse(word).code
    except CardError as exc:
        raise PromptError(str(exc)) from None


def next_dealer(players: Sequence[str], last: str) -> str:
    """The player left of ``last`` (seats in log order); the first player when nobody dealt."""
    if last not in players:
        return players[0]
    return players[(list(players).index(last) + 1) % len(players)]


def parse_typed(text: str, players: Sequence[str], last_dealer: str = "") -> dict[str, Any]:
    """The event a typed line means; `PromptError` naming what is wrong otherwise."""
    words = text.split()
    if not words:
        raise PromptError("nothing typed")
    verb, args = words[0].lower(), words[1:]

    def want(n: int, usage: str) -> None:
        if len(args) != n:
            raise PromptError(f"type: {usage}")

    if verb == "round":
        if len(args) > 1:
            raise PromptError("type: round [DEALER]")
        dealer = _player(args[0], players) if args else next_dealer(players, last_dealer)
        return {"event": "round", "dealer": dealer}
    if verb in ("keep", "exchange"):
        want(0, verb)
        return {"event": "dummy", "action": verb}
    if verb == "sell":
        want(2, "sell BUYER PRICE")
        return {"event": "dummy", "action": "sell", "buyer": _player(args[0], players),
                "price": _count(args[1], "the price")}
    if verb == "bid":
        want(2, "bid PLAYER TRICKS")
        return {"event": "bid", "player": _player(args[0], players),
                "tricks": _count(args[1], "a bid")}
    if verb == "trump":
        want(1, "trump CARD")
        return {"event": "trump", "card": _card(args[0])}
    if verb == "hand":
        want(1, "hand " + "|".join(WANAGAN_HANDS))
        if args[0].lower() not in WANAGAN_HANDS:
            raise PromptError(f"a Wanagan hand is one of {', '.join(WANAGAN_HANDS)}")
        return {"event": "hand", "kind": args[0].lower()}
    if verb == "play":
        if len(args) < 2:
            raise PromptError("type: play PLAYER CARD [CARD...]")
        cards = [_card(w) for w in args[1:]]
        who = _player(args[0], players)
        if len(cards) == 1:
            return {"event": "play", "player": who, "card": cards[0]}
        return {"event": "play", "player": who, "cards": cards}
    if verb == "end":
        want(0, "end")
        return {"event": "end-round"}
    raise PromptError(f"unknown command {words[0]!r}; type help for the list")


def enter_typed(pipe: Any, text: str) -> tuple[tuple[int, dict[str, Any]] | None, list[str]]:
    """Log what a typed line means through ``pipe`` (a `vision.pipeline.table.TablePipeline`) once
    its referee accepts it: the line and event logged (None when nothing was) and what to tell
    the person (the announcements, the list of commands, or why nothing was logged)."""
    from companion.events import Event
    from vision.pipeline.log import REFUSED

    if text.strip().lower() in ("help", "?"):
        return None, HELP.splitlines()
    ref = pipe.referee
    try:
        event = parse_typed(text, pipe.players, str(getattr(ref.state, "dealer", "") or ""))
    except PromptError as exc:
        return None, [f"not logged: {exc}"]
    mark = ref.checkpoint()
    try:   # the referee's word first: a slip is said, never written to the log
        ref.apply(Event(event, pipe.log.lines + 1))
    except REFUSED as exc:
        return None, [f"not logged: {exc}"]
    finally:
        ref.rollback(mark)
    line, said = pipe.inject(event)
    return (line, event), said
