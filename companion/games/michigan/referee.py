"""The referee of the Michigan family: Michigan Rummy, Great Lakes, Pressman and boodle.

One engine folds the event log in either mode: hidden (cards seen only when played or revealed,
violations proven when later evidence arrives) or full information (a ``deal`` event). The board
and house rules are in `board`, what later cards prove in `proof`, the chips in `settlement`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from companion.cards import Card, full_deck, hand_sizes
from companion.events import Event
from companion.games.michigan.board import (
    ALL_SUITS,
    JACKPOT,
    Rules,
    is_full_house,
    is_straight,
)
from companion.games.michigan.proof import RULE_WORDS, evidence, leads_out_of_turn
from companion.games.michigan.settlement import (
    divide_board,
    n_chips,
    pay_moves,
    round_moves,
    showdown_facts,
)
from companion.games.michigan.state import (
    Fact,
    Lead,
    MichiganState,
    Offence,
    Seq,
    Stop,
    left_of,
)
from companion.house import house_settings
from companion.ledger import Ledger
from companion.referee import EventError, Referee, join_words, register_referee


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise EventError(f"expected a list of card codes, got {value!r}")
    return value


class MichiganReferee(Referee):
    """The rule set of the Michigan family; subclasses only name the game (its data file).

    How plays are read (the same in both modes):

    - A card that is the next of the current sequence is a follow, by whoever holds it (MR-5).
      Any other card is a lead, and a lead means the sequence stopped (MR-5). If the card that
      would have continued it is not already played, it was dead -- or a live player withheld
      it: ``withheld`` is proven when that card is later seen in someone's play or reveal.
    - A lead must be the lowest card of its suit (``illegal-lead``: proven when the leader later
      shows a lower card of that suit) and, after a stop, in the colour of MR-6 / the suit of
      BO-4 (``wrong-colour-lead``: proven when the leader later shows a card of an allowed suit).
      Cards are never picked up after the deal, so a card seen later was held at the lead.
    - ``out-of-turn``: the opening lead (MR-4) or the lead after a dump (GL-3) made by someone
      else -- proven at once; a lead in an allowed suit by a player left of the one who played
      last, when a player before them in turn held an allowed suit (proven when that card is
      seen); a lead in a suit that is not allowed by someone who held no allowed suit while
      another player did, or by someone other than the last player when nobody did (MR-6,
      last sentence) -- proven when every hand is known (the end of the round).
    - ``out-of-sequence``: one ``play`` event with several cards whose later cards neither follow
      the one before, nor are a GL dump or straight, nor lead after a card that surely ended
      its sequence (an Ace, or the next card already gone). Proven at once.
    - ``ineligible-dummy`` (MR-3): the hand given up is dead and never seen at the table, but
      once every other card has been played or revealed (the round complete) the cards never
      seen are that hand: proven then if it held a money card (by elimination).

    With a ``deal`` the plays and reveals are checked against the hands (a card the player was
    not dealt is refused), but the findings stay the table's: each one is proven, said and
    charged when a card that proves it is seen, exactly as without the deal, so that nothing
    said or paid ever reveals a hand (at every point the findings are those of hidden mode).
    Chips are a settlement of the round's facts replayed in the order they happened with
    every proven offence known from its line (PR-5a).
    """

    game: ClassVar[str] = "michigan-rummy"
    title: ClassVar[str] = "Michigan Rummy"
    state: MichiganState

    def __init__(self, setup: Event) -> None:
        super().__init__(setup)
        players = self.players
        if (not isinstance(setup.get("players"), list) or len(players) < 2
                or len(players) > 10 or len(set(players)) != len(players)
                or not all(isinstance(p, str) and p.strip() for p in players)):
            raise ValueError("players must be a list of 2 to 10 different names")
        settings = house_settings(self.game, setup.get("house"))
        rounds = setup.get("rounds")
        if rounds is not None:
            if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
                raise ValueError(f"rounds must be a whole number >= 1, got {rounds!r}")
            settings["rounds"] = rounds
        self.rules = Rules.from_settings(settings)
        chips = setup.get("chips", 50)
        if isinstance(chips, Mapping):
            missing = [p for p in players if p not in chips]
            if missing:
                raise ValueError(f"chips not given for {join_words(missing)}")
            start = {p: chips[p] for p in players}
        else:
            start = {p: chips for p in players}
        areas = [c.name for c in self.rules.cups] + ([JACKPOT] if self.rules.jackpot else [])
        self.ledger = Ledger.open(start, cups=areas)
        self.areas = areas
        self.singles = {c.card: c for c in self.rules.cups if c.card is not None}
        self.money_cards = frozenset().union(*(c.money_cards() for c in self.rules.cups))
        self.state = MichiganState()
        self._line = 0

    # --- the fold --------------------------------------------------------------------------
    def apply(self, event: Event) -> None:
        kind = event.kind
        self._line = event.line
        if self.state.finished:
            raise EventError(f"the game is over; {kind!r} ignored")
        handler = {
            "round": self._on_round, "deal": self._on_deal, "dummy": self._on_dummy,
            "play": self._on_play, "reveal": self._on_reveal, "end-round": self._on_end_round,
        }.get(kind)
        if handler is None:
            raise EventError(f"{kind!r} is not an event of {self.title}")
        handler(event)

    def expects(self) -> frozenset[str] | None:
        phase = self.state.phase
        if phase in ("deal", "play"):
            return frozenset({"play"})
        if phase == "reveal":
            return frozenset({"reveal"})
        return frozenset()

    def next_card(self) -> str | None:
        """The card that continues the sequence now (public: it follows from the cards on the
        table), None when a lead is due. A camera reading that jumps past it (5♣ then 7♣)
        points at a card it missed."""
        st = self.state
        if st.phase != "play" or st.seq is None or st.lead_by:
            return None
        nxt = self._next_card(st.seq)
        return None if nxt is None else nxt.code

    def stop_leader(self) -> str | None:
        """Who would lead if the sequence stopped now (MR-6: the last player, or the next one
        with cards); None before the first card or while a lead is due anyway."""
        st = self.state
        if st.phase != "play" or st.seq is None or st.lead_by:
            return None
        return self._leader_after(st.seq.player)

    def doubtful(self, player: str, card: str) -> str | None:
        """Why a play of ``card`` by ``player`` now would be a lead the rules allow only when
        hidden hands excuse it (MR-6: a lead by someone other than the player due to lead, or
        in a suit not allowed after the stop), in words for people; None for a follow or an
        ordinary lead. Such plays are rare at a real table; a misread card is not."""
        st = self.state
        if st.phase != "play" or st.seq is None or st.lead_by:
            return None
        c = Card.parse(card)
        seq = st.seq
        if c.suit == seq.suit and c.rank == seq.rank + 1:
            return None  # the follow
        leader = self._leader_after(seq.player)
        stopped = Card(seq.rank, seq.suit).pretty()
        if player != leader:
            return f"after {stopped} it is {leader}'s lead"
        if c.suit not in self.rules.allowed_after(seq.suit):
            return f"after {stopped} the lead is in {self.rules.lead_words(seq.suit)}"
        return None

    def turn(self) -> str | None:
        st = self.state
        if st.phase == "deal":
            return self._opening_leader()
        if st.phase != "play":
            return None
        if st.lead_by:
            return st.lead_by
        if st.seq is None:
            return self._opening_leader()
        if self._next_card(st.seq) is None:
            return self._leader_after(st.seq.player)
        return None

    # --- helpers -----------------------------------------------------------------------------
    def _player(self, event: Event, key: str = "player") -> str:
        p = event.get(key)
        if p not in self.players:
            raise EventError(f"{p!r} is not a player in this game")
        return str(p)

    def _left_of(self, player: str) -> list[str]:
        """The other players in turn order, starting at ``player``'s left."""
        return left_of(self.players, player)

    def _opening_leader(self) -> str:
        return self._left_of(self.state.dealer)[0]

    def _leader_after(self, last: str) -> str:
        """Who leads after a stop: the last player, or the next one with cards (MR-6)."""
        st = self.state
        if st.counts.get(last, 0) > 0:
            return last
        return next((p for p in self._left_of(last) if st.counts.get(p, 0) > 0), last)

    def _next_card(self, seq: Seq) -> Card | None:
        """The card that continues the sequence, None when it cannot (Ace, or already gone)."""
        if seq.rank >= 14:
            return None
        nxt = Card(seq.rank + 1, seq.suit)
        return None if nxt in self.state.played else nxt

    def _cards_of(self, event: Event) -> list[Card]:
        if "cards" in event:
            raw = event.get("cards")
            if not isinstance(raw, list) or not raw:
                raise EventError("\"cards\" must be a non-empty list of card codes")
            return [Card.parse(x) for x in raw]
        if "card" in event:
            return [Card.parse(event.get("card"))]
        raise EventError("a play needs \"card\" or \"cards\"")

    # --- round, deal, dummy ------------------------------------------------------------------
    def _on_round(self, event: Event) -> None:
        st = self.state
        if st.phase in ("deal", "play"):
            raise EventError(f"round {st.round} is not finished (it needs a player out or an "
                             f"end-round event)")
        dealer = self._player(event, "dealer")
        if st.phase == "reveal":
            # A reveal the camera missed must not stop the game: the round is settled with the
            # hands that were shown (a hand never shown wins no poker cup and no MR-13 Jackpot).
            missing = [p for p in self.players if st.counts[p] > 0 and p not in st.revealed]
            notes = [f"Round {st.round} closed without the hand of {join_words(missing)}."]
            self._complete(event.line, notes)
            self._settle(event.line, notes)
            st = self.state
            if st.finished:
                raise EventError("the game is over; no more rounds")
        self.state = st = MichiganState(round=st.round + 1, phase="deal", dealer=dealer,
                                        round_line=event.line)
        # MR-1, BO-3: every hand size follows from the seating.
        sizes = hand_sizes(self.players, dealer,
                           extra="first" if self.rules.dummy_dealt == "first" else "last")
        st.dummy_count = sizes.pop("(dummy)")
        st.counts = sizes
        st.start = self.ledger.balances()
        st.facts = [Fact(event.line, 0, "ante", dealer)]
        self._settle(event.line)
        pot = f", Jackpot {n_chips(self.ledger[JACKPOT])}" if self.rules.jackpot else ""
        self.announce(event.line, f"Round {st.round} of {self.rules.rounds}: {dealer} deals"
                                  f"{pot}. {self._opening_leader()} leads.")

    def _on_deal(self, event: Event) -> None:
        st = self.state
        if st.phase != "deal" or st.dummy_done:
            raise EventError("a deal must come after the round event and before the dummy "
                             "choice and the first play")
        if st.hands is not None:
            raise EventError(f"the cards were already dealt at line {st.deal_line}")
        hands_raw = event.get("hands")
        if not isinstance(hands_raw, Mapping):
            raise EventError("\"hands\" must be an object of player -> cards")
        unknown = [p for p in hands_raw if p not in self.players]
        if unknown:
            raise EventError(f"the deal names {unknown[0]!r}, who is not a player")
        hands: dict[str, frozenset[Card]] = {}
        seen: list[Card] = []
        for p in self.players:
            cs = [Card.parse(x) for x in _as_list(hands_raw.get(p))]
            if len(cs) != st.counts[p]:
                raise EventError(f"{p} should be dealt {st.counts[p]} cards (MR-1), "
                                 f"the deal gives {len(cs)}")
            hands[p] = frozenset(cs)
            seen += cs
        dummy = [Card.parse(x) for x in _as_list(event.get("dummy"))]
        if len(dummy) != st.dummy_count:
            raise EventError(f"the dummy should hold {st.dummy_count} cards, "
                             f"the deal gives {len(dummy)}")
        seen += dummy
        if len(set(seen)) != len(seen) or set(seen) != set(full_deck()):
            raise EventError("the deal does not hold every card of the deck exactly once")
        hands["(dummy)"] = frozenset(dummy)
        st.hands = hands
        st.deal_line = event.line
        self.announce(event.line, "Cards dealt.")

    def _on_dummy(self, event: Event) -> None:
        st = self.state
        if st.phase != "deal" or st.dummy_done:
            raise EventError("the dummy is decided once, before the opening lead (MR-3)")
        action = event.get("action")
        dealer = st.dealer
        if action == "keep":
            st.dummy_done = True
            self.announce(event.line, f"{dealer} keeps the hand. {self._opening_leader()} leads.")
            return
        if action == "exchange":
            taker = dealer
            text = f"{dealer} exchanges for the dummy."
        elif action == "sell":
            taker = self._player(event, "buyer")
            if taker == dealer:
                raise EventError("the dealer cannot buy the dummy from themselves")
            price = event.get("price")
            if not isinstance(price, int) or isinstance(price, bool) or price < 0:
                raise EventError(f"the price must be a whole number of chips, got {price!r}")
            # Common convention: a buyer who bid more than they have pays what they have.
            st.facts.append(Fact(event.line, 0, "sale", taker, "", (dealer, price)))
            text = f"{taker} buys the dummy for {n_chips(price)}."
        else:
            raise EventError(f"dummy action must be keep, exchange or sell, got {action!r}")
        st.dummy_done = True
        st.dummy_taker, st.dummy_line, st.given_up = taker, event.line, st.counts[taker]
        st.counts[taker] = st.dummy_count          # MR-3: plays with the dummy's card count
        if st.hands is not None:
            given_up = st.hands[taker]
            st.hands[taker] = st.hands["(dummy)"]
            st.hands["(dummy)"] = given_up
        self._settle(event.line)
        self.announce(event.line, f"{text} {self._opening_leader()} leads.")

    # --- plays -------------------------------------------------------------------------------
    def _on_play(self, event: Event) -> None:
        st = self.state
        if st.phase == "reveal":
            raise EventError("the round is over; waiting for the reveals")
        if st.phase != "play" and st.phase != "deal":
            raise EventError("no round is being played (a round event comes first)")
        player = self._player(event)
        cs = self._cards_of(event)
        if len(set(cs)) != len(cs):
            raise EventError("the same card twice in one play")
        for c in cs:
            if c in st.played:
                who, ln = st.played[c]
                raise EventError(f"{c.pretty()} was already played by {who} at line {ln}")
        if st.counts[player] == 0:
            raise EventError(f"{player} has no cards left")
        if len(cs) > st.counts[player]:
            raise EventError(f"{player} holds only {st.counts[player]} cards")
        if st.hands is not None:
            missing = [c for c in cs if c not in st.hands[player]]
            if missing:
                raise EventError(f"{player} does not hold {missing[0].pretty()} (see the deal)")
        st.phase = "play"
        st.dummy_done = True
        line = event.line
        notes: list[str] = []
        if not (len(cs) == 4 and self._dump(player, cs, line, notes)):
            for i, c in enumerate(cs):
                said: list[str] = []
                self._play_one(player, c, line, i, cs, said)
                if i < len(cs) - 1:     # only the last card's "next" matters
                    said = [n for n in said if not n.startswith(("Next:", "Nothing follows"))]
                notes += said
        if st.counts[player] == 0:
            self._went_out(player, line, notes)
        self._settle(line, notes)

    def _take(self, player: str, c: Card, line: int) -> None:
        st = self.state
        st.played[c] = (player, line)
        st.shown[player] = st.shown.get(player, ()) + (c,)
        st.counts[player] -= 1
        if st.hands is not None:
            st.hands[player] = st.hands[player] - {c}

    def _dump(self, player: str, cs: list[Card], line: int, notes: list[str]) -> bool:
        """GL-3 Full House Dump / GL-4 5-Card Straight, when the move is one; else False."""
        st = self.state
        seq = st.seq
        if seq is None or seq.player == player or st.lead_by:
            return False
        nxt = self._next_card(seq)
        if nxt is None or cs[0] != nxt:
            return False
        ranks = [seq.rank] + [c.rank for c in cs]
        kind = ("dump" if is_full_house(ranks) else
                "straight" if is_straight(ranks, not self.rules.ace_high_only) else "")
        cup = self.rules.cup(kind) if kind else None
        if cup is None:
            return False
        self._evidence(player, cs, line)
        self._follow(player, cs[0], line, [])
        for c in cs[1:]:
            self._take(player, c, line)        # GL-3a: out of sequence, gone from their suits
        st.facts.append(Fact(line, len(st.facts), "cup", player, cup.name, (0,)))
        st.seq = None
        st.ace = None
        st.lead_by = player
        if st.counts[player] > 0:
            notes.append(f"{player} leads any suit.")
        return True

    def _play_one(self, player: str, c: Card, line: int, i: int, cs: list[Card],
                  notes: list[str]) -> None:
        st = self.state
        self._evidence(player, [c], line)
        seq = st.seq
        if (seq is not None and not st.lead_by and c.suit == seq.suit
                and c.rank == seq.rank + 1):
            self._follow(player, c, line, notes)
            return
        # Anything else starts a sequence: a lead (MR-4, MR-6).
        ace2 = (st.ace is not None and st.ace[0] == player and c.rank == 2
                and self.rules.cup("ace2") is not None)
        # Several cards in one move must follow one another, or be a GL dump/straight, or
        # lead after a card that surely ended its sequence (an Ace, or the next card gone).
        ended = seq is not None and not st.lead_by and self._next_card(seq) is None
        if i > 0 and not ace2 and not ended and not any(
                o.line == line and o.rule == "out-of-sequence" for o in st.offences):
            self._prove(Offence(line, player, "out-of-sequence", line),
                        f"{player} played {c.pretty()} out of sequence in one move")
        self._lead(player, c, line, ace2, record_stop=(i == 0), notes=notes)

    def _follow(self, player: str, c: Card, line: int, notes: list[str]) -> None:
        """MR-5: the next card of the suit, by whoever holds it."""
        st = self.state
        seq = st.seq
        assert seq is not None
        self._take(player, c, line)
        st.seq = Seq(c.suit, c.rank, player, line, seq.start)
        st.ace = (player, line) if c.rank == 14 else None    # GL-2a: the Ace is a follow
        self._money(player, c, line, lead=0)
        for cup in self.rules.cups:                          # MR-8 combinations
            if (cup.kind == "run" and c.rank == cup.ranks[-1] and seq.start <= cup.ranks[0]
                    and (cup.suit is None or cup.suit == c.suit)):
                st.facts.append(Fact(line, len(st.facts), "cup", player, cup.name, (0,)))
        self._say_next(notes)

    def _money(self, player: str, c: Card, line: int, lead: int) -> None:
        cup = self.singles.get(c)
        if cup is not None:
            self.state.facts.append(Fact(line, len(self.state.facts), "cup", player, cup.name,
                                         (lead,)))

    def _say_next(self, notes: list[str]) -> None:
        st = self.state
        seq = st.seq
        if seq is None:
            return
        if st.counts.get(seq.player, 0) == 0 and seq.player not in st.barred:
            return                                  # they are out: the round ends
        nxt = self._next_card(seq)
        if nxt is not None:
            notes.append(f"Next: {nxt.pretty()}")
            return
        last = Card(seq.rank, seq.suit).pretty()
        leader = self._leader_after(seq.player)
        ace2 = ""
        if (st.ace is not None and st.ace[0] == seq.player == leader
                and self.rules.cup("ace2") is not None):
            ace2 = ", or a 2 of any suit for the Ace-2"                        # GL-2
        notes.append(f"Nothing follows {last}. {leader} leads "
                     f"{self.rules.lead_words(seq.suit)}{ace2}.")

    def _lead(self, player: str, c: Card, line: int, ace2: bool, record_stop: bool,
              notes: list[str]) -> None:
        st = self.state
        seq = st.seq
        if st.lead_by or seq is None:
            # The opening lead (MR-4) or the lead after a dump (GL-3): any suit, lowest.
            leader = st.lead_by or self._opening_leader()
            allowed = ALL_SUITS
            stopped = ""
        else:
            leader = self._leader_after(seq.player)
            stopped = Card(seq.rank, seq.suit).pretty()
            nxt = self._next_card(seq)
            if nxt is not None and record_stop:
                # MR-5: a lead means the sequence stopped; if a live player held the next
                # card, they withheld it (proven when it is seen: PR-6).
                st.stops.append(Stop(line, nxt, Card(seq.rank, seq.suit)))
            else:
                stopped = ""
            allowed = ALL_SUITS if ace2 else self.rules.allowed_after(seq.suit)   # GL-2
        if player != leader and (st.lead_by or seq is None):
            self._prove(Offence(line, player, "out-of-turn", line),
                        f"{player} led {c.pretty()} but it was {leader}'s lead")
            between: tuple[str, ...] = ()
        elif player != leader:
            # MR-6: the lead was someone else's if a player between the leader and this one
            # held an allowed suit — whatever colour this lead was (a wrong-colour lead can
            # be out of turn as well).
            order = [leader] + self._left_of(leader)
            between = tuple(p for p in order[:order.index(player)] if st.counts[p] > 0)
        else:
            between = ()
        rec = Lead(line, player, c, leader, allowed, between)
        st.lead_by = ""
        st.ace = None
        self._take(player, c, line)
        st.seq = Seq(c.suit, c.rank, player, line, c.rank)
        st.leads.append(rec)
        self._money(player, c, line, lead=line)
        if ace2:
            cup = self.rules.cup("ace2")
            assert cup is not None
            st.facts.append(Fact(line, len(st.facts), "cup", player, cup.name, (0,)))
        six = self.rules.cup("six")
        if six is not None and c.rank == 6:                              # GL-5
            st.facts.append(Fact(line, len(st.facts), "cup", player, six.name, (line,)))
        if stopped:
            notes.append(f"Sequence stopped at {stopped}.")
        self._say_next(notes)

    # --- evidence: what a shown card proves (see proof.py), said and charged here ---------------
    def _evidence(self, player: str, shown: Iterable[Card], line: int) -> None:
        for off, text in evidence(self.state, player, shown, line):
            self._prove(off, text)

    # --- violations ----------------------------------------------------------------------------
    def _prove(self, off: Offence, text: str) -> None:
        st = self.state
        st.offences.append(off)
        self.violation(off.line, off.player, off.rule, off.proof_line, text)
        penalised = off.rule in self.rules.penalised
        if penalised and off.rule in ("illegal-lead", "wrong-colour-lead") and self.rules.lead_fine:
            st.facts.append(Fact(off.line, len(st.facts) + 1000, "fine", off.player))
        extra = ""
        if penalised:
            extra = f" {off.player} wins no money cup from then on this round."
        self.announce(self._line,
                      f"{RULE_WORDS.get(off.rule, off.rule)}: {text} (line {off.line}).{extra}")

    # --- going out, reveals, end of round --------------------------------------------------------
    def _went_out(self, player: str, line: int, notes: list[str]) -> None:
        st = self.state
        if self.rules.penalize_withheld and any(
                o.player == player and o.rule == "withheld" for o in st.offences):
            # PR-6: a withholder who goes out first does not win; play goes on.
            st.barred = st.barred | {player}
            notes.append(f"{player} has no cards left but withheld a card: play goes on.")
            if not any(st.counts.values()):
                self._end(line, notes)
            return
        st.winner = player
        if self.rules.jackpot:
            st.facts.append(Fact(line, len(st.facts), "jackpot", player))
        if self.rules.out_payment:                                   # PR-3, BO-6
            owed = tuple((p, st.counts[p]) for p in self._left_of(player) if st.counts[p])
            st.facts.append(Fact(line, len(st.facts), "outpay", player, "", owed))
        if not self.rules.jackpot and not self.rules.out_payment:
            notes.append(f"{player} is out.")
        self._end(line, notes)

    def _end(self, line: int, notes: list[str]) -> None:
        st = self.state
        st.phase = "reveal"
        st.seq = None
        st.lead_by = ""
        st.ace = None
        waiting = [p for p in self.players if st.counts[p] > 0]
        if waiting:
            notes.append(f"Round over. Reveal: {join_words(waiting)}.")
        else:
            self._complete(line, notes)

    def _on_end_round(self, event: Event) -> None:
        st = self.state
        if st.phase not in ("deal", "play"):
            raise EventError("no round is being played")
        notes = ["Round ended with nobody out."]
        self._end(event.line, notes)
        self._settle(event.line, notes)

    def _on_reveal(self, event: Event) -> None:
        st = self.state
        if st.phase != "reveal":
            raise EventError("reveals come after the round has ended")
        player = self._player(event)
        if player in st.revealed:
            raise EventError(f"{player} has already revealed")
        raw = event.get("cards")
        if not isinstance(raw, list):
            raise EventError("\"cards\" must be a list of card codes")
        cs = [Card.parse(x) for x in raw]
        if st.counts[player] == 0:
            raise EventError(f"{player} has no cards left to reveal")
        if len(set(cs)) != len(cs):
            raise EventError("the same card twice in one reveal")
        for c in cs:
            if c in st.played:
                who, ln = st.played[c]
                raise EventError(f"{c.pretty()} was played by {who} at line {ln}")
            for q, rs in st.revealed.items():
                if c in rs:
                    raise EventError(f"{c.pretty()} was revealed by {q}")
        if len(cs) != st.counts[player]:
            raise EventError(f"{player} holds {st.counts[player]} cards, the reveal shows "
                             f"{len(cs)}")
        if st.hands is not None and frozenset(cs) != st.hands[player]:
            raise EventError(f"the reveal does not match {player}'s hand in the deal")
        self._evidence(player, cs, event.line)
        st.revealed[player] = tuple(cs)
        notes: list[str] = []
        waiting = [p for p in self.players if st.counts[p] > 0 and p not in st.revealed]
        if waiting:
            notes.append(f"Still to reveal: {join_words(waiting)}.")
        else:
            self._complete(event.line, notes)                          # MR-10a
        self._settle(event.line, notes)

    def _complete(self, line: int, notes: list[str]) -> None:
        """Every hand is known: settle the round (MR-10, MR-13, PR-4, PR-6, GL-6)."""
        st = self.state
        for off, text in leads_out_of_turn(st, line) + self._given_up_held(line):
            self._prove(off, text)
        st.leads = []
        st.stops = []
        showdown_facts(st, self.rules, self.players, line)
        st.phase = "complete"

    def _given_up_held(self, line: int) -> list[tuple[Offence, str]]:
        """MR-3 by elimination: once every card but the hand given up for the dummy has been
        seen (played or revealed), the cards never seen are that hand; if it held a money
        card, the taker was not allowed the dummy (proof: ``line``, the last card seen). A
        round closed with a hand unrevealed leaves more cards unseen, and proves nothing."""
        st = self.state
        if not st.given_up or not self.rules.dummy_needs_no_money_card:
            return []
        seen = set(st.played).union(*st.revealed.values())
        unseen = set(full_deck()) - seen
        held = sorted(unseen & self.money_cards)
        if len(unseen) != st.given_up or not held:
            return []
        return [(Offence(st.dummy_line, st.dummy_taker, "ineligible-dummy", line),
                 f"{st.dummy_taker} took the dummy while holding "
                 f"{' and '.join(c.pretty() for c in held)}: every card but the hand given up "
                 f"has been seen")]

    def _after_round(self, line: int, notes: list[str]) -> None:
        """Close the round in the ledger; after the last one, end the game (MR-12)."""
        st = self.state
        self.ledger.close_round()
        st.phase = "between"
        st.facts = []
        st.moves = []
        if st.round < self.rules.rounds:
            return
        share, left = divide_board(self.ledger, self.areas, self.players, line)
        st.phase = "over"
        st.finished = True
        standings = sorted(self.players, key=lambda p: (-self.ledger[p], self.players.index(p)))
        text = "Game over. " + ", ".join(f"{p} {self.ledger[p]}" for p in standings) + "."
        if share:
            text = f"Board divided: {n_chips(share)} each. " + text
        if left:
            text += f" {n_chips(left)} {'stays' if left == 1 else 'stay'} on the board."
        notes.append(text)

    # --- chips: the round's settlement, recomputed when a proof changes the past (PR-5a) -----
    def _settle(self, line: int, notes: list[str] | None = None) -> None:
        st = self.state
        said = notes if notes is not None else []
        notes = []
        version = (len(st.facts), len(st.offences))
        if version == st.settled and st.phase != "complete":
            if said:
                self.announce(line, " ".join(said))
            return
        st.settled = version
        new = round_moves(st, self.rules, self.areas, self.players)
        notes += pay_moves(self.ledger, st.moves, new, line)
        st.moves = new
        notes += said
        if st.phase == "complete":
            self._after_round(line, notes)
        if notes:
            self.announce(line, " ".join(notes))


@register_referee("michigan-rummy")
class MichiganRummy(MichiganReferee):
    """University Games Michigan Rummy (MR-1..MR-14): violations are flagged, not penalised."""

    game = "michigan-rummy"
    title = "Michigan Rummy"


@register_referee("great-lakes")
class GreatLakes(MichiganReferee):
    """Great Lakes (GL-1..GL-6): the specials follow from the cups on its disk."""

    game = "great-lakes"
    title = "Great Lakes"


@register_referee("pressman")
class Pressman(MichiganReferee):
    """Pressman Michigan Rummy (PR-1..PR-7): penalties on, Poker Pool, pay per card left."""

    game = "pressman"
    title = "Pressman Michigan Rummy"


@register_referee("boodle")
class Boodle(MichiganReferee):
    """Michigan with the classic boodle layout (BO-1..BO-7): no Jackpot, no poker."""

    game = "boodle"
    title = "Michigan (boodle)"
