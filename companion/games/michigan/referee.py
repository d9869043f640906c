"""The referee of the Michigan family: Michigan Rummy, Great Lakes, Pressman and boodle.

One engine folds the event log in either mode: hidden (cards seen only when played or revealed,
violations proven when later evidence arrives) or full information (a ``deal`` event).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from companion.cards import SUIT_NAMES, Card, card, full_deck, hand_sizes
from companion.events import Event
from companion.house import house_settings
from companion.ledger import Ledger
from companion.poker import HandRank, best_hand, worst_hand
from companion.referee import EventError, GameState, Referee, register_referee

JACKPOT = "Jackpot"
RED, BLACK = frozenset("DH"), frozenset("CS")
ALL_SUITS = frozenset("CDHS")
_RANK_WORDS = {"T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
_SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
#: Violations of a lead: a money card led this way was not played legally (MR-8, GL-5).
_LEAD_RULES = frozenset({"illegal-lead", "wrong-colour-lead", "out-of-turn", "out-of-sequence"})
_SPECIAL_CUPS = {
    "poker kitty": "kitty", "poker pool": "pool", "loser's kitty": "losers", "ace-2": "ace2",
    "full house dump": "dump", "5-card straight": "straight", "6 lead": "six",
}


# --- the board disk (MR-14, GL-1, PR-1, BO-1) ---------------------------------------------------

@dataclass(frozen=True)
class Cup:
    """One cup of the disk: a single money card, a combination, or a special cup."""

    name: str
    kind: str                      # single | run | kitty | pool | losers | ace2 | dump | ...
    card: Card | None = None       # single
    ranks: tuple[int, ...] = ()    # run: the ranks in order
    suit: str | None = None        # run: its one suit, or None for "any one suit"

    @property
    def label(self) -> str:
        return self.card.pretty() if self.card else self.name

    def money_cards(self) -> frozenset[Card]:
        """Cards that make a hand ineligible for the dummy (MR-3): single cards and the cards
        of a one-suit combination ("Q-K hearts"); "any one suit" combinations are not counted."""
        if self.card is not None:
            return frozenset({self.card})
        if self.kind == "run" and self.suit:
            return frozenset(Card(r, self.suit) for r in self.ranks)
        return frozenset()


def parse_cup(name: str) -> Cup:
    """Read a cup name of the disk: ``"KD"``, ``"8-9-10 any one suit"``, ``"Q-K hearts"``,
    or one of the special cups (``"Poker Kitty"``, ``"6 Lead"`` ...)."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"not a cup name: {name!r}")
    text = name.strip()
    special = _SPECIAL_CUPS.get(text.lower())
    if special:
        return Cup(text, special)
    m = re.fullmatch(r"((?:10|[2-9TJQKA])(?:-(?:10|[2-9TJQKA]))+) (any one suit|clubs|diamonds|"
                     r"hearts|spades)", text, flags=re.IGNORECASE)
    if m:
        ranks = tuple(_RANK_WORDS.get(r.upper(), 0) or int(r) for r in m.group(1).split("-"))
        if any(b != a + 1 for a, b in zip(ranks, ranks[1:], strict=False)):
            raise ValueError(f"cup {name!r}: a combination must be consecutive ranks")
        where = m.group(2).lower()
        return Cup(text, "run", ranks=ranks, suit=_SUIT_WORDS.get(where))
    try:
        return Cup(card(text).code, "single", card=card(text))
    except ValueError:
        raise ValueError(f"unknown cup {name!r} on the disk") from None


# --- the immutable records the state is made of -------------------------------------------------

class Seq(NamedTuple):
    """The sequence being played: its suit, the last card's rank and player, the led rank."""

    suit: str
    rank: int
    player: str
    line: int
    start: int


class Lead(NamedTuple):
    """A lead whose legality later evidence may disprove (MR-4, MR-6, BO-4)."""

    line: int
    player: str
    card: Card
    leader: str                  # who had the first right to lead
    allowed: frozenset[str]      # suits the lead should be in
    between: tuple[str, ...]     # players ahead of `player` in the turn (lead in allowed suit)
    lower: bool = False          # illegal-lead proven
    colour: bool = False         # wrong-colour-lead proven
    turn: bool = False           # out-of-turn proven
    other_line: int = 0          # first line another player showed an allowed suit


class Stop(NamedTuple):
    """A sequence stopped at ``after`` by the lead at ``line``; ``card`` was next (PR-6)."""

    line: int
    card: Card
    after: Card


class Offence(NamedTuple):
    line: int
    player: str
    rule: str
    proof_line: int
    card: Card | None = None


class Fact(NamedTuple):
    """Something that moves chips in a round, in the order it happened at the table."""

    line: int
    order: int
    kind: str
    player: str = ""
    cup: str = ""
    data: tuple[Any, ...] = ()


class Move(NamedTuple):
    """A transfer the round's settlement made (``note``: what to announce, if anything)."""

    source: str
    target: str
    amount: int
    reason: str
    line: int
    note: str


@dataclass
class MichiganState(GameState):
    """Everything that changes during a Michigan game; values are immutable, containers are
    copied shallowly on checkpoint (see ``__deepcopy__``)."""

    phase: str = "setup"            # setup | deal | play | reveal | between | over
    dealer: str = ""
    round_line: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    dummy_count: int = 0
    dummy_done: bool = False
    dummy_taker: str = ""
    hands: dict[str, frozenset[Card]] | None = None     # full information only
    deal_line: int = 0
    played: dict[Card, tuple[str, int]] = field(default_factory=dict)
    shown: dict[str, tuple[Card, ...]] = field(default_factory=dict)   # played this round
    revealed: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    seq: Seq | None = None
    lead_by: str = ""               # after a dump: the dumper leads any suit (GL-3)
    ace: tuple[str, int] | None = None   # an Ace just played as a follow (GL-2)
    leads: list[Lead] = field(default_factory=list)
    stops: list[Stop] = field(default_factory=list)
    offences: list[Offence] = field(default_factory=list)
    barred: frozenset[str] = frozenset()
    winner: str = ""
    facts: list[Fact] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    start: dict[str, int] = field(default_factory=dict)
    settled: tuple[int, int] = (-1, -1)     # (facts, offences) when last settled
    #: Full information: findings only the deal proves (MR-3, a dummy taken with a money
    #: card), held until the round is complete so that they never reveal a hand in play.
    held: list[tuple[Offence, str]] = field(default_factory=list)

    def __deepcopy__(self, memo: dict[int, Any]) -> MichiganState:
        new = object.__new__(type(self))
        d = new.__dict__
        for k, v in self.__dict__.items():
            if type(v) is dict:
                v = dict(v)
            elif type(v) is list:
                v = list(v)
            d[k] = v
        return new


@dataclass(frozen=True)
class Rules:
    """The house settings of one game, read (``from_settings``) from its TOML file."""

    rounds: int
    cups: tuple[Cup, ...]
    jackpot: bool
    ante: int
    dealer_ante: int
    dealer_jackpot_extra: int
    dummy_dealt: str
    dummy_needs_no_money_card: bool
    new_suit: str
    ace_high_only: bool
    out_payment: int
    lowest_total_wins: bool
    penalize_illegal_lead: bool
    penalize_wrong_colour: bool
    penalize_withheld: bool
    lead_fine: int

    @classmethod
    def from_settings(cls, s: Mapping[str, Any]) -> Rules:
        cups = tuple(parse_cup(c) for c in s["disk"])
        names = [c.name for c in cups]
        if len(set(names)) != len(names) or JACKPOT in names:
            raise ValueError(f"the disk names a cup twice: {names}")
        if s["dummy_dealt"] not in ("last", "first"):
            raise ValueError("house rule dummy_dealt must be \"last\" or \"first\"")
        if s["new_suit"] not in ("opposite-colour", "other-suit"):
            raise ValueError("house rule new_suit must be \"opposite-colour\" or \"other-suit\"")
        for key in ("rounds", "ante", "dealer_ante", "dealer_jackpot_extra", "out_payment",
                    "lead_fine"):
            if s[key] < (1 if key == "rounds" else 0):
                raise ValueError(f"house rule {key} cannot be {s[key]}")
        return cls(s["rounds"], cups, s["jackpot"], s["ante"], s["dealer_ante"],
                   s["dealer_jackpot_extra"], s["dummy_dealt"], s["dummy_needs_no_money_card"],
                   s["new_suit"], s["ace_high_only"], s["out_payment"], s["lowest_total_wins"],
                   s["penalize_illegal_lead"], s["penalize_wrong_colour"],
                   s["penalize_withheld"], s["lead_fine"])

    def cup(self, kind: str) -> Cup | None:
        return next((c for c in self.cups if c.kind == kind), None)

    @property
    def penalised(self) -> frozenset[str]:
        """Rules whose proof forfeits money cups (PR-5, PR-6, PR-7, BO-5)."""
        out = set()
        if self.penalize_illegal_lead:
            out.add("illegal-lead")
        if self.penalize_wrong_colour:
            out.add("wrong-colour-lead")
        if self.penalize_withheld:
            out.add("withheld")
        return frozenset(out)


def card_points(c: Card) -> int:
    """MR-13: 2-10 face value, J Q K = 10, A = 11."""
    return 11 if c.rank == 14 else min(c.rank, 10)


def _names(players: Sequence[str]) -> str:
    ps = list(players)
    return ps[0] if len(ps) == 1 else ", ".join(ps[:-1]) + " and " + ps[-1]


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise EventError(f"expected a list of card codes, got {value!r}")
    return value


def _is_full_house(ranks: Sequence[int]) -> bool:
    return sorted(Counter(ranks).values()) == [2, 3]


def _is_straight(ranks: Sequence[int], ace_low: bool = False) -> bool:
    """Five distinct consecutive ranks; the ace is high only unless ``ace_low`` (MR-11)."""
    if len(set(ranks)) != 5:
        return False
    if max(ranks) - min(ranks) == 4:
        return True
    low = [1 if r == 14 else r for r in ranks]
    return ace_low and max(low) - min(low) == 4


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
    - ``ineligible-dummy`` (MR-3) only with a ``deal``: the hand given up is dead and never seen
      at the table, so a hidden log can never prove it.

    With a ``deal`` the plays and reveals are checked against the hands (a card the player was
    not dealt is refused), but the findings stay the table's: each one is proven, said and
    charged when a card that proves it is seen, exactly as without the deal, so that nothing
    said or paid ever reveals a hand (at every point the findings are those of hidden mode).
    The one finding only the deal can prove, ``ineligible-dummy``, is said when the round is
    complete (proof line: the deal). Chips are a settlement of the round's facts replayed in
    the order they happened with every proven offence known from its line (PR-5a).
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
                raise ValueError(f"chips not given for {_names(missing)}")
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
        if c.suit not in self._allowed_after(seq.suit):
            return f"after {stopped} the lead is in {self._lead_words(seq.suit)}"
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
        i = self.players.index(player)
        n = len(self.players)
        return [self.players[(i + k) % n] for k in range(1, n)]

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

    def _allowed_after(self, suit: str) -> frozenset[str]:
        if self.rules.new_suit == "other-suit":            # BO-4
            return ALL_SUITS - {suit}
        return BLACK if suit in RED else RED                # MR-6

    def _lead_words(self, suit: str) -> str:
        if self.rules.new_suit == "other-suit":
            return f"a suit other than {SUIT_NAMES[suit]}"
        return "a black suit" if suit in RED else "a red suit"

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
            notes = [f"Round {st.round} closed without the hand of {_names(missing)}."]
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
        pot = f", Jackpot {_chips(self.ledger[JACKPOT])}" if self.rules.jackpot else ""
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
            text = f"{taker} buys the dummy for {_chips(price)}."
        else:
            raise EventError(f"dummy action must be keep, exchange or sell, got {action!r}")
        st.dummy_done = True
        st.dummy_taker = taker
        st.counts[taker] = st.dummy_count          # MR-3: plays with the dummy's card count
        if st.hands is not None:
            given_up = st.hands[taker]
            st.hands[taker] = st.hands["(dummy)"]
            st.hands["(dummy)"] = given_up
            held = sorted(given_up & self.money_cards)
            if held and self.rules.dummy_needs_no_money_card:
                # Full information only: the hand given up is dead and never seen at the table,
                # so the deal line is the proof (MR-3), said when the round is complete.
                st.held.append((Offence(event.line, taker, "ineligible-dummy", st.deal_line),
                                f"{taker} took the dummy while holding a money card"))
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
        kind = ("dump" if _is_full_house(ranks) else
                "straight" if _is_straight(ranks, not self.rules.ace_high_only) else "")
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
        notes.append(f"Nothing follows {last}. {leader} leads "
                     f"{self._lead_words(seq.suit)}.")

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
            allowed = ALL_SUITS if ace2 else self._allowed_after(seq.suit)   # GL-2
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

    # --- evidence: what a shown card proves about earlier leads and stops ---------------------
    def _evidence(self, player: str, shown: Iterable[Card], line: int) -> None:
        st = self.state
        shown = list(shown)
        keep: list[Stop] = []
        for s in st.stops:
            if s.card not in shown:
                keep.append(s)
                continue
            self._prove(Offence(s.line, player, "withheld", line, s.card),
                        f"{player} withheld {s.card.pretty()} when the sequence stopped "
                        f"at {s.after.pretty()}")
        st.stops = keep
        for i, rec in enumerate(st.leads):
            new = rec
            for c in shown:
                new = self._judge(new, player, c, line)
            if new != rec:
                st.leads[i] = new

    def _judge(self, rec: Lead, player: str, c: Card, line: int) -> Lead:
        lead = rec.card
        if player == rec.player:
            if c.suit == lead.suit and c.rank < lead.rank:
                if not rec.lower:
                    self._prove(Offence(rec.line, player, "illegal-lead", line),
                                f"{player} led {lead.pretty()} while holding {c.pretty()}")
                    rec = rec._replace(lower=True)
            if lead.suit not in rec.allowed and c.suit in rec.allowed:
                # PR-7 / PR-6a: a lead can be out of turn and of the wrong colour at once;
                # each rule broken is its own finding.
                if not rec.colour:
                    self._prove(Offence(rec.line, player, "wrong-colour-lead", line),
                                f"{player} led {lead.pretty()} while holding {c.pretty()} "
                                f"of a suit that had to be led")
                    rec = rec._replace(colour=True)
        elif c.suit in rec.allowed:
            if player in rec.between and not rec.turn:
                self._prove(Offence(rec.line, rec.player, "out-of-turn", line),
                            f"{rec.player} led {lead.pretty()} but {player} had the lead")
                rec = rec._replace(turn=True)
            if not rec.other_line:
                rec = rec._replace(other_line=line)
        return rec

    def _finish_lead(self, i: int, line: int) -> None:
        """Once every card is known: a lead in a suit not allowed by a player who held none
        of the allowed suits was made out of turn, unless nobody held one and it was the
        leader's (MR-6 last sentence)."""
        rec = self.state.leads[i]
        if rec.card.suit in rec.allowed or rec.colour or rec.turn:
            return
        if rec.other_line or rec.player != rec.leader:
            proof = rec.other_line or line
            self._prove(Offence(rec.line, rec.player, "out-of-turn", proof),
                        f"{rec.player} led {rec.card.pretty()} but the lead belonged to "
                        f"another player")
            self.state.leads[i] = rec._replace(turn=True)

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
                      f"{_RULE_WORDS.get(off.rule, off.rule)}: {text} (line {off.line}).{extra}")

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
            notes.append(f"Round over. Reveal: {_names(waiting)}.")
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
            notes.append(f"Still to reveal: {_names(waiting)}.")
        else:
            self._complete(event.line, notes)                          # MR-10a
        self._settle(event.line, notes)

    def _complete(self, line: int, notes: list[str]) -> None:
        """Every hand is known: settle the round (MR-10, MR-13, PR-4, PR-6, GL-6)."""
        st = self.state
        for i in range(len(st.leads)):
            self._finish_lead(i, line)
        for off, text in st.held:
            self._prove(off, text)
        st.held = []
        st.leads = []
        st.stops = []
        holders = {c: p for p, cs in st.revealed.items() for c in cs}
        if self.rules.penalize_withheld:                                # PR-6
            # In the order the offences happened, not the order they were proven (PR-5a).
            for off in sorted(st.offences, key=lambda o: (o.line, self.players.index(o.player),
                                                          o.card or Card(2, "C"))):
                if off.rule != "withheld" or off.card is None:
                    continue
                for cup in self.rules.cups:
                    if cup.card is not None and cup.card.suit == off.card.suit:
                        h = holders.get(cup.card)
                        if h and h != off.player:
                            st.facts.append(Fact(line, len(st.facts), "whpay", off.player,
                                                 cup.name, (h,)))
        ace_low = not self.rules.ace_high_only
        for cup in self.rules.cups:
            hands: dict[str, HandRank] = {}
            if cup.kind in ("kitty", "losers"):                           # MR-10, GL-6
                for p in self.players:
                    cs = st.shown.get(p, ()) + st.revealed.get(p, ())
                    if cs:
                        hands[p] = (best_hand(cs, ace_low=ace_low) if cup.kind == "kitty"
                                    else worst_hand(cs, ace_low=ace_low))
            elif cup.kind == "pool":                                      # PR-4
                for p, cs in st.revealed.items():
                    if cs:
                        hands[p] = best_hand(cs, ace_low=ace_low)
            else:
                continue
            if not hands:
                continue
            target = (max if cup.kind != "losers" else min)(hands.values())
            winners = tuple(p for p in self.players if p in hands and hands[p] == target)
            st.facts.append(Fact(line, len(st.facts), "pot", "", cup.name,
                                 (winners, target.describe())))
        if not st.winner and self.rules.jackpot and self.rules.lowest_total_wins:   # MR-13
            totals = {p: sum(card_points(c) for c in st.revealed.get(p, ()))
                      for p in self.players
                      if p not in st.barred and (p in st.revealed or st.counts[p] == 0)}
            if totals:
                low = min(totals.values())
                winners = tuple(p for p in self.players if totals.get(p) == low)
                st.facts.append(Fact(line, len(st.facts), "pot", "", JACKPOT,
                                     (winners, f"lowest total, {low}")))
        st.phase = "complete"

    def _after_round(self, line: int, notes: list[str]) -> None:
        """Close the round in the ledger; after the last one, end the game (MR-12)."""
        st = self.state
        self.ledger.close_round()
        st.phase = "between"
        st.facts = []
        st.moves = []
        if st.round < self.rules.rounds:
            return
        board = [a for a in self.areas if self.ledger[a] > 0]
        total = sum(self.ledger[a] for a in board)
        share = total // len(self.players)
        if share:
            for p in self.players:
                need = share
                for a in board:
                    take = min(need, self.ledger[a])
                    if take:
                        self.ledger.transfer(a, p, take, "end of game: board divided (MR-12)",
                                             line)
                        need -= take
        st.phase = "over"
        st.finished = True
        left = total - share * len(self.players)
        standings = sorted(self.players, key=lambda p: (-self.ledger[p], self.players.index(p)))
        text = "Game over. " + ", ".join(f"{p} {self.ledger[p]}" for p in standings) + "."
        if share:
            text = f"Board divided: {_chips(share)} each. " + text
        if left:
            text += f" {_chips(left)} {'stays' if left == 1 else 'stay'} on the board."
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
        new = self._simulate()
        old = st.moves
        if new[:len(old)] == old:
            for m in new[len(old):]:
                self.ledger.transfer(m.source, m.target, m.amount, m.reason, m.line)
                if m.note:
                    notes.append(m.note)
        else:
            delta: Counter[str] = Counter()
            for m in new:
                delta[m.target] += m.amount
                delta[m.source] -= m.amount
            for m in old:
                delta[m.target] -= m.amount
                delta[m.source] += m.amount
            payers = [(a, -d) for a, d in delta.items() if d < 0]
            payees = {a: d for a, d in delta.items() if d > 0}
            for a, owe in payers:
                for b in payees:
                    give = min(owe, payees[b])
                    if give:
                        self.ledger.transfer(a, b, give, f"settled again after the proof at "
                                                         f"line {line} (PR-5a)", line)
                        payees[b] -= give
                        owe -= give
            gone = Counter(m.note for m in old if m.note) - Counter(m.note for m in new if m.note)
            came = Counter(m.note for m in new if m.note) - Counter(m.note for m in old if m.note)
            for note in gone.elements():
                notes.append(f"Taken back: {note.rstrip('.')}.")
            notes.extend(came.elements())
        st.moves = new
        notes += said
        if st.phase == "complete":
            self._after_round(line, notes)
        if notes:
            self.announce(line, " ".join(notes))

    def _simulate(self) -> list[Move]:
        """The round's transfers from its start, as if every proven offence had been known
        when it happened (PR-5a): forfeited cups stay in play for the others."""
        st = self.state
        r = self.rules
        bal = dict(st.start)
        moves: list[Move] = []
        forfeit: dict[str, int] = {}
        bad_leads: set[tuple[str, int]] = set()
        for off in st.offences:
            if off.rule in r.penalised:
                forfeit[off.player] = min(forfeit.get(off.player, off.line), off.line)
            if off.rule in _LEAD_RULES:
                bad_leads.add((off.player, off.line))

        def pay(src: str, dst: str, amount: int, reason: str, line: int, note: str = "",
                exact: bool = False) -> int:
            amount = min(amount, bal[src])
            if amount <= 0 or src == dst:
                return 0
            bal[src] -= amount
            bal[dst] += amount
            moves.append(Move(src, dst, amount, reason, line, note))
            return amount

        for f in sorted(st.facts):
            if f.kind == "ante":                                        # MR-2, PR-2, BO-2
                for p in self._left_of(f.player) + [f.player]:
                    each = r.dealer_ante if p == f.player else r.ante
                    for a in self.areas:
                        pay(p, a, each, "ante", f.line)
                    if p == f.player and r.jackpot:
                        pay(p, JACKPOT, r.dealer_jackpot_extra, "ante", f.line)
            elif f.kind == "sale":                                      # MR-3
                dealer, price = f.data
                pay(f.player, dealer, price, "dummy bought", f.line)
            elif f.kind == "cup":                                       # MR-8, GL-2..5
                lead_line = f.data[0]
                if f.line >= forfeit.get(f.player, 1 << 60):
                    continue
                if lead_line and (f.player, lead_line) in bad_leads:
                    continue
                cup = next(c for c in r.cups if c.name == f.cup)
                amount = bal[f.cup]
                if amount:
                    pay(f.cup, f.player, amount, f"{cup.label} cup", f.line,
                        f"{f.player} wins {cup.label}: {_chips(amount)}.")
            elif f.kind == "jackpot":                                   # MR-7
                amount = bal[JACKPOT]
                pay(JACKPOT, f.player, amount, "Jackpot: out first", f.line,
                    f"{f.player} is out and takes the Jackpot: {_chips(amount)}.")
            elif f.kind == "outpay":                                    # PR-3, BO-6
                got, k = 0, len(moves)
                for p, n in f.data:
                    got += pay(p, f.player, n * r.out_payment, "cards left when out", f.line)
                if len(moves) > k:
                    out = "" if r.jackpot else " is out and"
                    moves[-1] = moves[-1]._replace(
                        note=f"{f.player}{out} collects {_chips(got)} for the cards left.")
            elif f.kind == "fine":                                      # PR-5, PR-7
                for p in self._left_of(f.player):
                    pay(f.player, p, r.lead_fine, "penalty for a lead", f.line)
            elif f.kind == "whpay":                                     # PR-6
                (holder,) = f.data
                cup = next(c for c in r.cups if c.name == f.cup)
                amount = bal[f.cup]
                if amount:
                    pay(f.player, holder, amount, f"withheld card, {cup.label} unclaimed", f.line,
                        f"{f.player} pays {holder} {_chips(amount)} for {cup.label}.")
            elif f.kind == "pot":                                       # MR-10, PR-4, GL-6
                winners, what = f.data
                share = bal[f.cup] // len(winners)
                if share and winners:
                    for w in winners:
                        pay(f.cup, w, share, f.cup, f.line)
                    sfx = " each" if len(winners) > 1 else ""
                    moves[-1] = moves[-1]._replace(
                        note=f"{f.cup}: {_names(winners)}, {what}, {_chips(share)}{sfx}.")
        return moves


_RULE_WORDS = {
    "illegal-lead": "Illegal lead", "wrong-colour-lead": "Wrong-colour lead",
    "out-of-turn": "Lead out of turn", "out-of-sequence": "Cards out of sequence",
    "withheld": "Withheld card", "ineligible-dummy": "Dummy taken with a money card",
}


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
