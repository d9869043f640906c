"""Referee for Oh Claire!: bids, tricks with a trump suit, the 0-7 number cups and the Jackpot.

Follows RULINGS.md OC-1..OC-7. Tricks are inferred from the `play` events; chips move as each hand
ends (OC-5) and once more at the end of the game (OC-7). House rules live in data/oh-claire.toml
(read by `rules`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from typing import Any

from companion.cards import Card
from companion.events import Event
from companion.games.oh_claire.rules import (
    GAME,
    JACKPOT,
    cup_account,
    house_rules,
    join_words,
    plural,
    suit_word,
    trick_winner,
)
from companion.ledger import Ledger
from companion.referee import EventError, GameState, Referee, register_referee


# --- the state (everything that changes; rolled back as a whole on a bad event) ---------------
@dataclass
class OhClaireState(GameState):
    """Where the game stands. ``round`` is the hand number (1..11), 0 before the first."""

    phase: str = "idle"           # idle (between hands) | bid | play | over
    active: list[str] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    dealer: str | None = None
    cards: int = 0                # cards dealt to each player this hand
    trump: Card | None = None
    trump_line: int = 0
    hands: dict[str, list[Card]] | None = None   # only with a full `deal` event (never announced)
    bids: dict[str, int] = field(default_factory=dict)
    bid_lines: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)
    trick: list[tuple[str, Card]] = field(default_factory=list)
    leader: str | None = None
    tricks_done: int = 0
    played: dict[Card, int] = field(default_factory=dict)   # card -> line, this hand
    suspects: list[tuple[str, str, str, int]] = field(default_factory=list)
    #: ^ (player, suit they showed void in, card they played instead, line): unproven revokes
    revoked: list[str] = field(default_factory=list)        # proven revokers this hand (OC-6)

    def __deepcopy__(self, memo: dict[int, Any]) -> OhClaireState:
        # Every container holds immutable values (names, numbers, cards, tuples), so copying the
        # containers is a full copy; much faster than the generic deepcopy done before each event.
        new = copy.copy(self)
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, list):
                setattr(new, f.name, list(v))
            elif isinstance(v, dict):
                setattr(new, f.name, {k: list(x) if isinstance(x, list) else x
                                      for k, x in v.items()})
        return new


@register_referee(GAME)
class OhClaireReferee(Referee):
    """Oh Claire! (RULINGS OC-1..OC-7).

    Events: ``round`` (one per hand, with ``dealer``), optional ``deal`` (full information),
    ``trump``, ``bid`` and ``play``. Violations: ``dealer-bid``, ``out-of-turn``, ``revoke``.
    A card played twice, a card not in the player's dealt hand, or a play after the hand's last
    trick is an error (the event cannot happen), not a violation.

    Where RULINGS.md is silent: a revoke is only proven by a later card (never from the deal,
    which is secret), and the player must play all their cards, so the proof always comes
    before the hand is scored at its last trick. A `round` event while a hand is unfinished
    ends that hand unscored (events were missed), unless no card was played and the same dealer
    deals again (a redeal). The game ends early when fewer than two players are left. An
    eliminated player cannot win the Jackpot (house rule ``eliminated_win_jackpot``) but gets
    their own number-cup chips back (OC-7).
    """

    game = GAME
    state: OhClaireState

    def __init__(self, setup: Event) -> None:
        super().__init__(setup)
        self.rules = house_rules(setup.get("house"))
        players = self.players
        if not isinstance(setup.get("players"), list) or not all(
                isinstance(p, str) and p for p in players):
            raise ValueError("\"players\" must be a list of names")
        if len(set(players)) != len(players):
            raise ValueError("player names must differ")
        lo, hi = self.rules.players
        if not lo <= len(players) <= hi:
            raise ValueError(f"Oh Claire! is for {lo} to {hi} players, got {len(players)} "
                             f"(OC-1)")
        cups = [JACKPOT] + [cup_account(p, n) for p in players for n in self.rules.number_cups]
        if any(c in players for c in cups):
            raise ValueError("a player's name clashes with a cup's name")
        hands = setup.get("rounds")
        if hands is None:
            hands = len(self.rules.schedule)
        if (not isinstance(hands, int) or isinstance(hands, bool)
                or not 1 <= hands <= len(self.rules.schedule)):
            raise ValueError(f"\"rounds\" must be 1..{len(self.rules.schedule)} hands, "
                             f"got {hands!r}")
        self.hands_total: int = hands
        self.ledger = Ledger.open(self._starting_chips(setup.get("chips")), cups=[JACKPOT])
        self.state = OhClaireState(active=list(players))
        # A player who starts with no chips is out before the first hand (OC-5).
        for p in players:
            if self.ledger[p] == 0:
                self.state.active.remove(p)
                self.state.eliminated.append(p)

    def _starting_chips(self, chips: Any) -> dict[str, int]:
        default = self.rules.chips
        if chips is None:
            return {p: default for p in self.players}
        if isinstance(chips, int) and not isinstance(chips, bool):
            return {p: chips for p in self.players}
        if isinstance(chips, dict):
            unknown = set(chips) - set(self.players)
            if unknown:
                raise ValueError(f"chips for unknown players: {sorted(unknown)}")
            return {p: chips.get(p, default) for p in self.players}
        raise ValueError(f"\"chips\" must be a number or an object per player, got {chips!r}")

    # --- the fold ----------------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        kind = event.kind
        if kind == "round":
            self._round(event)
        elif kind == "deal":
            self._deal(event)
        elif kind == "trump":
            self._trump(event)
        elif kind == "bid":
            self._bid(event)
        elif kind == "play":
            self._play(event)
        else:
            raise EventError(f"{kind!r} is not an Oh Claire! event; ignored")

    def expects(self) -> frozenset[str] | None:
        """Plays: no hand is ever shown in Oh Claire!, so a card laid by a seat is a play."""
        return frozenset({"play"})

    def turn(self) -> str | None:
        st = self.state
        if st.phase == "bid":
            return next((p for p in self.bid_order() if p not in st.bids), None)
        if st.phase == "play":
            return next((p for p in self.trick_order() if p not in self._in_trick()), None)
        return None

    # --- seats -------------------------------------------------------------------------------
    def _left_of(self, seat: str) -> list[str]:
        """Active players clockwise, starting at the left of ``seat`` (any seat, even one out)."""
        i = self.players.index(seat)
        ring = self.players[i + 1:] + self.players[:i + 1]
        return [p for p in ring if p in self.state.active]

    def bid_order(self) -> list[str]:
        assert self.state.dealer is not None
        return self._left_of(self.state.dealer)        # dealer last (OC-3)

    def trick_order(self) -> list[str]:
        st = self.state
        assert st.leader is not None
        i = st.active.index(st.leader)
        return st.active[i:] + st.active[:i]

    def _in_trick(self) -> set[str]:
        return {p for p, _ in self.state.trick}

    def gathered(self) -> frozenset[str]:
        """The cards of this hand's tricks taken: each went face down to its winner's pile.
        The last trick taken may lie a moment longer, until a card of the next is played."""
        st = self.state
        done = (st.tricks_done - (0 if st.trick else 1)) * len(st.active)
        return frozenset(str(c) for c in list(st.played)[:max(done, 0)])

    def _player(self, event: Event) -> str:
        who = event["player"]
        if who not in self.players:
            raise EventError(f"{who!r} is not playing in this game")
        if who not in self.state.active:
            raise EventError(f"{who} was eliminated and no longer plays")
        return str(who)

    def forbidden_bid(self) -> int | None:
        """The number the dealer may not bid now (OC-3), or None when every bid is allowed."""
        st = self.state
        if not self.rules.dealer_restriction:
            return None
        others = sum(v for p, v in st.bids.items() if p != st.dealer)
        n = st.cards - others
        return n if 0 <= n <= st.cards else None

    # --- events ------------------------------------------------------------------------------
    def _round(self, event: Event) -> None:
        st = self.state
        line = event.line
        if st.phase == "over":
            raise EventError("the game is over; no more hands")
        dealer = event.get("dealer")
        # The same dealer dealing again before any card is played is a redeal of the same hand.
        redeal = st.phase in ("bid", "play") and not st.played and dealer == st.dealer
        if st.phase in ("bid", "play") and not redeal:
            # A hand that ends early (events missed) is not scored; play goes on (robustness).
            self.announce(line, f"Hand {st.round} was not finished ({st.tricks_done} of "
                                f"{plural(st.cards, 'trick')}): it is not scored")
        if not redeal and st.round >= self.hands_total:
            raise EventError(f"all {self.hands_total} hands have been played")
        if dealer is None:
            dealer = self.next_dealer()
        if dealer not in self.players:
            raise EventError(f"dealer {dealer!r} is not playing in this game")
        if dealer not in st.active:
            raise EventError(f"{dealer} was eliminated and cannot deal")
        if not redeal:
            st.round += 1
        st.phase = "bid"
        st.dealer = str(dealer)
        st.cards = self.rules.schedule[st.round - 1]
        st.trump = None
        st.trump_line = 0
        st.hands = None
        st.bids = {}
        st.bid_lines = {}
        st.taken = {p: 0 for p in st.active}
        st.trick = []
        st.leader = self._left_of(st.dealer)[0]       # OC-4: the dealer's left leads
        st.tricks_done = 0
        st.played = {}
        st.suspects = []
        st.revoked = []
        what = "Redeal of hand" if redeal else "Hand"
        self.announce(line, f"{what} {st.round} of {self.hands_total}: {st.dealer} deals "
                            f"{plural(st.cards, 'card')} each")

    def next_dealer(self) -> str:
        st = self.state
        if st.dealer is None:
            return st.active[0]
        return self._left_of(st.dealer)[0]

    def _deal(self, event: Event) -> None:
        st = self.state
        if st.phase not in ("bid", "play") or st.played:
            raise EventError("a deal can only be recorded after a round event, before the first "
                             "card is played")
        raw = event["hands"]
        if not isinstance(raw, dict):
            raise EventError("\"hands\" must be an object of player -> cards")
        hands: dict[str, list[Card]] = {}
        seen: set[Card] = set()
        for p in st.active:
            if p not in raw:
                raise EventError(f"the deal has no hand for {p}")
            if not isinstance(raw[p], list):
                raise EventError(f"{p}'s hand must be a list of cards")
            hand = [Card.parse(c) for c in raw[p]]
            if len(hand) != st.cards:
                raise EventError(f"{p} was dealt {len(hand)} cards; hand {st.round} deals "
                                 f"{st.cards}")
            for c in hand:
                if c in seen:
                    raise EventError(f"{c.pretty()} is dealt twice")
                seen.add(c)
            hands[p] = hand
        extra = set(raw) - set(st.active)
        if extra:
            raise EventError(f"the deal has hands for players not in the hand: {sorted(extra)}")
        if st.trump is not None and st.trump in seen:
            raise EventError(f"the trump card {st.trump.pretty()} is also in a hand")
        st.hands = hands                                   # hidden: never announced

    def _trump(self, event: Event) -> None:
        st = self.state
        if st.phase != "bid" and not (st.phase == "play" and not st.played):
            raise EventError("the trump card is turned up after the deal, before play")
        c = Card.parse(event["card"])
        if st.trump is not None:
            if st.trump == c:
                raise EventError(f"the trump card {c.pretty()} was already turned up "
                                 f"(line {st.trump_line})")
            raise EventError(f"the trump card is already {st.trump.pretty()} "
                             f"(line {st.trump_line}); correct that line instead")
        if st.hands is not None and any(c in h for h in st.hands.values()):
            raise EventError(f"{c.pretty()} was dealt to a player; it cannot be the trump card")
        st.trump = c
        st.trump_line = event.line
        self.announce(event.line, f"Trump: {suit_word(c.suit)} ({c.pretty()})")   # OC-2
        self._announce_next(event.line)

    def _bid(self, event: Event) -> None:
        st = self.state
        line = event.line
        if st.phase != "bid":
            if st.phase == "play":
                raise EventError("bidding is over for this hand")
            raise EventError("no hand has been dealt (a round event comes first)")
        who = self._player(event)
        tricks = event["tricks"]
        if not isinstance(tricks, int) or isinstance(tricks, bool):
            raise EventError(f"a bid must be a whole number of tricks, got {tricks!r}")
        if not 0 <= tricks <= st.cards:
            raise EventError(f"{who} bids {tricks}, but there are only {plural(st.cards, 'trick')}")
        if who in st.bids:
            raise EventError(f"{who} has already bid {st.bids[who]} (line {st.bid_lines[who]})")
        expected = self.turn()
        if who != expected:
            self.violation(line, who, "out-of-turn", line,
                           f"{who} bid before {expected}, whose bid it was (OC-3)")
        st.bids[who] = tricks
        st.bid_lines[who] = line
        self.announce(line, f"{who} bids {tricks}")
        if len(st.bids) < len(st.active):
            self._announce_next(line)
            return
        # OC-3: the bids may not add up to the cards dealt; the dealer is the one at fault.
        total = sum(st.bids.values())
        dealer = st.dealer
        assert dealer is not None
        if self.rules.dealer_restriction and total == st.cards:
            dline = st.bid_lines[dealer]
            self.violation(dline, dealer, "dealer-bid", line,
                           f"{dealer} bid {st.bids[dealer]}, making the bids add up to the "
                           f"{plural(st.cards, 'card')} dealt (OC-3)")
            self.announce(line, f"{dealer} may not bid {st.bids[dealer]}: bids add up to "
                                f"{st.cards}")
        st.phase = "play"
        order = self.bid_order()
        self.announce(line, "Bids: " + ", ".join(f"{p} {st.bids[p]}" for p in order)
                      + f"; {total} for {plural(st.cards, 'trick')}")
        self._announce_next(line)

    def _announce_next(self, line: int) -> None:
        st = self.state
        who = self.turn()
        if who is None:
            return
        if st.phase == "bid":
            if who == st.dealer and len(st.bids) == len(st.active) - 1:
                bad = self.forbidden_bid()
                if bad is not None:
                    self.announce(line, f"{who} to bid; {who} may not bid {bad}")
                    return
            self.announce(line, f"{who} to bid")
        elif st.phase == "play":
            if not st.trick:
                self.announce(line, f"{who} leads")
            else:
                led = st.trick[0][1].suit
                self.announce(line, f"{who} to play: follow {suit_word(led)}")

    def _play(self, event: Event) -> None:
        st = self.state
        line = event.line
        if st.phase == "bid":
            if st.trump is None:
                raise EventError("no trump card has been turned up yet")
            missing = [p for p in self.bid_order() if p not in st.bids]
            raise EventError(f"bidding is not finished: {join_words(missing)} to bid")
        if st.phase == "over":
            raise EventError("the game is over")
        if st.phase != "play":
            raise EventError(f"hand {st.round} is over: all its tricks have been played"
                             if st.round else "no hand has been dealt (a round event comes "
                                              "first)")
        if st.trump is None:
            raise EventError("no trump card has been turned up yet")
        who = self._player(event)
        c = self._one_card(event)
        if c == st.trump:
            raise EventError(f"{c.pretty()} is the turned-up trump card, not in anyone's hand")
        if c in st.played:
            raise EventError(f"{c.pretty()} was already played this hand (line {st.played[c]})")
        if who in self._in_trick():
            raise EventError(f"{who} has already played to this trick")
        if st.hands is not None and c not in st.hands[who]:
            raise EventError(f"{who} was not dealt {c.pretty()}")
        expected = self.turn()
        if who != expected:
            self.violation(line, who, "out-of-turn", line,
                           f"{who} played {c.pretty()} before {expected}, whose turn it was")
        # OC-6: a card of a suit the player showed void in proves every such earlier revoke.
        proven = [s for s in st.suspects if s[0] == who and s[1] == c.suit]
        if proven:
            st.suspects = [s for s in st.suspects if s not in proven]
            for _, suit, instead, at in proven:
                self.violation(at, who, "revoke", line,
                               f"{who} played {instead} on a {suit_word(suit)[:-1]} lead "
                               f"(line {at}) but still held {c.pretty()} (OC-6)")
            if who not in st.revoked:
                st.revoked.append(who)
            self.announce(line, f"Revoke: {who} did not follow {suit_word(c.suit)} earlier; "
                                f"{who} misses the bid this hand")
        if st.trick and c.suit != st.trick[0][1].suit:
            st.suspects.append((who, st.trick[0][1].suit, c.pretty(), line))
        st.trick.append((who, c))
        st.played[c] = line
        if st.hands is not None:
            st.hands[who].remove(c)
        if len(st.trick) < len(st.active):
            self._announce_next(line)
            return
        self._end_trick(line)

    def _one_card(self, event: Event) -> Card:
        if "card" in event:
            return Card.parse(event["card"])
        many = event["cards"]
        if not isinstance(many, list) or len(many) != 1:
            raise EventError("in Oh Claire! a play is one card")
        return Card.parse(many[0])

    def _end_trick(self, line: int) -> None:
        st = self.state
        assert st.trump is not None
        winner, c = trick_winner(st.trick, st.trump.suit)     # OC-4
        ruff = c.suit != st.trick[0][1].suit
        st.taken[winner] += 1
        st.tricks_done += 1
        st.trick = []
        st.leader = winner
        how = (f"trumps with {c.pretty()} and wins trick {st.tricks_done}" if ruff
               else f"wins trick {st.tricks_done} with {c.pretty()}")
        self.announce(line, f"{winner} {how} ({st.taken[winner]} taken, bid "
                            f"{st.bids[winner]})")
        if st.tricks_done < st.cards:
            self._announce_next(line)
            return
        self._score_hand(line)

    # --- scoring -----------------------------------------------------------------------------
    def _score_hand(self, line: int) -> None:
        """OC-5 (and OC-6): cups for the exact bids, then the misses pay, seat by seat."""
        st = self.state
        dealer = st.dealer
        assert dealer is not None
        order = self._left_of(dealer)
        made = [p for p in order if st.taken[p] == st.bids[p]
                and not (self.rules.revoke_misses_bid and p in st.revoked)]
        missed = [p for p in order if p not in made]
        self.announce(line, f"Hand {st.round} over: " + ", ".join(
            f"{p} took {st.taken[p]} (bid {st.bids[p]})" for p in order))
        for p in made:
            bid = st.bids[p]
            if bid in self.rules.number_cups and self.rules.cup_chip:
                self.ledger.add_account(cup_account(p, bid))
                paid = self.ledger.pay(p, cup_account(p, bid), self.rules.cup_chip,
                                       f"{p} made {bid}", line)
                self.announce(line, f"{p} makes {bid} and covers the {bid}" if paid
                              else f"{p} makes {bid} but has no chip for the cup")
            else:
                self.announce(line, f"{p} makes {bid}")
        for p in missed:
            if p in st.revoked and st.taken[p] == st.bids[p]:
                self.announce(line, f"{p} took {st.bids[p]} but revoked: counts as a miss")
            owed = self.rules.pay_maker * len(made) + self.rules.pay_jackpot
            parts: list[str] = []
            paid_all = 0
            for m in made:                                    # seat order from dealer's left
                n = self.ledger.pay(p, m, self.rules.pay_maker, f"{p} missed, {m} made", line)
                paid_all += n
                if n:
                    parts.append(f"{n} to {m}")
            n = self.ledger.pay(p, JACKPOT, self.rules.pay_jackpot, f"{p} missed", line)
            paid_all += n
            if n:
                parts.append(f"{n} to the Jackpot")
            if not owed:
                continue
            if not parts:
                self.announce(line, f"{p} misses and has no chips to pay")
            elif paid_all < owed:
                self.announce(line, f"{p} misses and pays {join_words(parts)}: out of chips")
            else:
                self.announce(line, f"{p} misses and pays {join_words(parts)}")
        self.announce(line, "Numbers covered: " + "; ".join(
            f"{p} {', '.join(map(str, self.covered(p))) or 'none'}" for p in self.players
            if p in st.active or self.covered(p)))
        for p in list(st.active):
            if self.ledger[p] == 0:
                st.active.remove(p)
                st.eliminated.append(p)
                self.announce(line, f"{p} has no chips left and is eliminated")
        self.ledger.close_round()
        st.phase = "idle"
        st.trick = []
        if st.round >= self.hands_total or len(st.active) < 2:
            self._end_game(line)
        else:
            nxt = self.next_dealer()
            self.announce(line, f"Next hand: {nxt} deals "
                                f"{plural(self.rules.schedule[st.round], 'card')}")

    def covered(self, player: str) -> list[int]:
        """The numbers ``player`` has covered with their own chips (OC-5)."""
        return [n for n in self.rules.number_cups
                if self.ledger.accounts.get(cup_account(player, n), 0) > 0]

    def number_cups(self) -> dict[int, dict[str, int]]:
        """The board for people: each number cup with the chips each player has in it."""
        return {n: {p: self.ledger.accounts[cup_account(p, n)] for p in self.players
                    if self.ledger.accounts.get(cup_account(p, n), 0) > 0}
                for n in self.rules.number_cups}

    def cup_chips(self, player: str) -> int:
        return sum(self.ledger.accounts.get(cup_account(player, n), 0)
                   for n in self.rules.number_cups)

    def _end_game(self, line: int) -> None:
        """OC-7 (at once, OC-6a): the Jackpot to the most numbers covered, then cup chips home."""
        st = self.state
        st.phase = "over"
        st.finished = True
        contenders = [p for p in self.players
                      if p in st.active or self.rules.eliminated_win_jackpot]
        pot = self.ledger[JACKPOT]
        if len(st.active) < 2 and st.round < self.hands_total:
            self.announce(line, "Fewer than two players are left: the game ends")
        if contenders:
            best = max((len(self.covered(p)), self.cup_chips(p)) for p in contenders)
            winners = [p for p in contenders
                       if (len(self.covered(p)), self.cup_chips(p)) == best]
            self.ledger.split(JACKPOT, winners, "Jackpot (OC-7)", line)
            what = f"{plural(best[0], 'number')} covered"
            if len(winners) == 1:
                close = [p for p in contenders if len(self.covered(p)) == best[0]]
                if len(close) > 1:
                    what += f", the most chips in the cups: {best[1]}"
                self.announce(line, f"{winners[0]} wins the Jackpot: {plural(pot, 'chip')} "
                                    f"({what})")
            else:
                left = self.ledger[JACKPOT]
                tail = f"; {left} left in the Jackpot" if left else ""
                self.announce(line, f"{join_words(winners)} split the Jackpot: "
                                    f"{plural(pot, 'chip')} ({what}, {best[1]} in the cups "
                                    f"each){tail}")
        for p in self.players:
            back = 0
            for n in self.rules.number_cups:
                acc = cup_account(p, n)
                if acc in self.ledger.accounts:
                    back += self.ledger.empty_into(acc, p, "own cup chips back (OC-7)", line)
            if back:
                self.announce(line, f"{p} takes back {plural(back, 'chip')} from the number "
                                    f"cups")
        chips = self.ledger.player_chips()
        standings = sorted(self.players, key=lambda p: (-chips[p], self.players.index(p)))
        self.announce(line, "Final chips: " + ", ".join(f"{p} {chips[p]}" for p in standings))
        top = [p for p in standings if chips[p] == chips[standings[0]]]
        if len(top) == 1:
            self.announce(line, f"{top[0]} wins the game")
        else:
            self.announce(line, f"{join_words(top)} tie for the win")
