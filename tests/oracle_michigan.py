"""An independent, full-information scorer for the Michigan family (test oracle).

Written from RULINGS.md (MR-*, GL-*, PR-*, BO-*) alone, without reading the referee: it knows
every hand from the ``deal`` events, judges each play the moment it happens and keeps chips.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.cards import Card
from companion.poker import Category, best_hand, evaluate, worst_hand

JACKPOT = "Jackpot"


@dataclass(frozen=True)
class Disk:
    """One rule set's board: single money cards, combination cups, the other areas."""

    singles: tuple[str, ...]
    combos: tuple[str, ...]           # "8-9-10", "Q-K hearts", "7-8-9"
    others: tuple[str, ...]           # kitty-like and Great Lakes cups, in disk order
    jackpot: bool = True

    def areas(self) -> list[str]:
        """Every area in disk order, the Jackpot last (the order antes are paid in)."""
        return list(self.singles) + list(self.combos) + list(self.others) + (
            [JACKPOT] if self.jackpot else [])


DISKS: dict[str, Disk] = {
    # MR-14
    "michigan-rummy": Disk(("AS", "KD", "QS", "JH", "TD"), ("8-9-10", "Q-K hearts"),
                           ("Poker Kitty",)),
    # GL-1
    "great-lakes": Disk(("KD", "QS", "JH"), (),
                        ("Ace-2", "Full House Dump", "5-Card Straight", "6 Lead",
                         "Loser's Kitty")),
    # PR-1
    "pressman": Disk(("TH", "JS", "KC", "AH", "QH"), ("Q-K hearts", "7-8-9"), ("Poker Pool",)),
    # BO-1
    "boodle": Disk(("AH", "KC", "QD", "JS"), (), (), jackpot=False),
}
PENAL = {"pressman", "boodle"}        # PR-5..PR-7, BO-5: penalties are paid; elsewhere flagged
SUITS = "CDHS"
RED = {"D", "H"}


def _c(code: str) -> Card:
    return Card.parse(code)


def _points(c: Card) -> int:
    """MR-13 card value: 2-10 face value, J Q K = 10, A = 11."""
    if c.rank == 14:
        return 11
    return min(c.rank, 10)


@dataclass
class RoundResult:
    """Chips and findings after one settled round."""

    chips: dict[str, int]
    board_left: int
    violations: list[tuple[str, str]]


@dataclass
class Result:
    """What the oracle concludes about a whole log."""

    chips: dict[str, int]
    board_left: int
    violations: list[tuple[str, str]]
    rounds: list[RoundResult] = field(default_factory=list)
    finished: bool = False


class Oracle:
    """Folds a full-information Michigan-family log (events as dicts) into chips and findings."""

    def __init__(self) -> None:
        self.game = ""
        self.players: list[str] = []
        self.chips: dict[str, int] = {}
        self.pots: dict[str, int] = {}
        self.violations: list[tuple[str, str]] = []
        self.rounds_total = 5
        self.rounds_done = 0
        self.results: list[RoundResult] = []
        self.finished = False
        self.in_round = False

    # ---- chip moves (common conventions: nobody goes below zero) ---------------------------
    def pay(self, src: str, dst: str, amount: int) -> None:
        """Player ``src`` pays ``dst`` (a player or an area) what they can of ``amount``."""
        n = min(amount, self.chips[src])
        self.chips[src] -= n
        if dst in self.chips:
            self.chips[dst] += n
        else:
            self.pots[dst] += n

    def take(self, area: str, player: str) -> None:
        """``player`` wins every chip in ``area``."""
        self.chips[player] += self.pots[area]
        self.pots[area] = 0

    def split(self, area: str, winners: list[str]) -> None:
        """Ties split; the remainder stays in the area (common conventions)."""
        if not winners:
            return
        share = self.pots[area] // len(winners)
        for w in winners:
            self.chips[w] += share
            self.pots[area] -= share

    # ---- the fold -------------------------------------------------------------------------
    def run(self, events: list[dict[str, Any]]) -> Result:
        for ev in events:
            kind = ev["event"]
            getattr(self, "on_" + kind.replace("-", "_"))(ev)
        return Result(dict(self.chips), sum(self.pots.values()), list(self.violations),
                      self.results, self.finished)

    def flag(self, player: str, rule: str) -> None:
        self.violations.append((player, rule))
        self.round_violations.append((player, rule))

    def on_game(self, ev: dict[str, Any]) -> None:
        self.game = ev["game"]
        self.disk = DISKS[self.game]
        self.penal = self.game in PENAL
        self.players = list(ev["players"])
        chips = ev.get("chips")
        if chips is None:
            chips = 50
        self.chips = ({p: int(chips) for p in self.players} if isinstance(chips, int)
                      else {p: int(chips[p]) for p in self.players})
        if ev.get("rounds") is not None:
            self.rounds_total = int(ev["rounds"])
        assert not ev.get("house"), "the oracle knows only the default house rules"
        self.pots = {a: 0 for a in self.disk.areas()}

    def left_of(self, p: str, k: int = 1) -> str:
        return self.players[(self.players.index(p) + k) % len(self.players)]

    def on_round(self, ev: dict[str, Any]) -> None:
        assert not self.in_round, "round started before the last one was settled"
        self.dealer = ev["dealer"]
        self.in_round = True
        self.round_violations: list[tuple[str, str]] = []
        # MR-2 / PR-2 / BO-2 antes, paid in disk order
        for p in self.players:
            for area in self.disk.areas():
                if self.game in ("michigan-rummy", "great-lakes"):
                    n = 2 if (area == JACKPOT and p == self.dealer) else 1
                else:
                    n = 2 if p == self.dealer else 1
                self.pay(p, area, n)
        self.hands: dict[str, set[Card]] = {}
        self.played: dict[str, list[Card]] = {p: [] for p in self.players}
        self.dead: set[Card] = set()
        self.last: Card | None = None
        self.last_player: str | None = None
        self.seq_open = False          # True while the last play can be followed
        self.lead_any = True           # next lead: any suit (opening lead, after a dump)
        self.run_cards: list[Card] = []  # the current sequence, in-sequence cards only
        self.ace2_player: str | None = None
        self.offender: set[str] = set()      # PR-5a/PR-6a: collects no money cup any more
        self.withholders: set[str] = set()   # PR-6: may not win by going out
        self.withheld: list[tuple[str, Card]] = []
        self.over = False              # someone went out (or end-round)
        self.ended_by_record = False
        self.revealed: set[str] = set()

    def on_deal(self, ev: dict[str, Any]) -> None:
        self.hands = {p: {_c(x) for x in ev["hands"][p]} for p in self.players}
        self.dummy = {_c(x) for x in ev["dummy"]}
        allc = [c for h in self.hands.values() for c in h] + list(self.dummy)
        assert len(allc) == 52 and len(set(allc)) == 52

    def money_cards(self) -> set[Card]:
        """Single money cards (MR-8): won by playing them."""
        return {_c(x) for x in self.disk.singles}

    def disk_cards(self) -> set[Card]:
        """MR-3 "money card in hand": RULINGS do not define it. Convention (as the referee):
        every card the disk names, i.e. the single money cards and QH KH of "Q-K hearts",
        but not the "any one suit" ranks of 8-9-10 / 7-8-9 (nearly every hand holds one)."""
        named = {_c("QH"), _c("KH")} if "Q-K hearts" in self.disk.combos else set()
        return self.money_cards() | named

    def on_dummy(self, ev: dict[str, Any]) -> None:
        action = ev["action"]
        if action == "keep":
            self.dead = set(self.dummy)
            return
        taker = self.dealer if action == "exchange" else ev["buyer"]
        # MR-3: only a hand without a money card may be given up for the dummy
        if self.hands[taker] & self.disk_cards():
            self.flag(taker, "ineligible-dummy")
        if action == "sell":
            self.pay(taker, self.dealer, int(ev["price"]))
        self.dead = set(self.hands[taker])
        self.hands[taker] = set(self.dummy)

    def holder(self, c: Card) -> str | None:
        for p, h in self.hands.items():
            if c in h:
                return p
        return None

    def next_live(self) -> Card | None:
        """MR-5: the card that must be played next, or None when the sequence has stopped."""
        if not self.seq_open or self.last is None or self.last.rank == 14:
            return None
        n = Card(self.last.rank + 1, self.last.suit)
        return n if self.holder(n) is not None else None

    def allowed_suits(self) -> set[str]:
        if self.lead_any or self.last is None:
            return set(SUITS)
        s = self.last.suit
        if self.game == "boodle":          # BO-4
            return set(SUITS) - {s}
        return {x for x in SUITS if (x in RED) != (s in RED)}   # MR-6

    def may_lead(self, p: str, allowed: set[str]) -> bool:
        """Whether ``p`` holds a card of an allowed suit."""
        return any(c.suit in allowed for c in self.hands[p])

    def entitled_leader(self) -> tuple[str, set[str]]:
        """MR-4 / MR-6 / BO-4: who must lead now, and the suits allowed."""
        if self.last_player is None:
            return self.left_of(self.dealer), set(SUITS)
        allowed = self.allowed_suits()
        start = self.last_player
        for k in range(len(self.players)):
            p = self.left_of(start, k)
            if self.may_lead(p, allowed):
                return p, allowed
        # nobody has one: back to the last player, any suit (or the first with cards)
        for k in range(len(self.players)):
            p = self.left_of(start, k)
            if self.hands[p]:
                return p, set(SUITS)
        raise AssertionError("nobody holds a card")

    def win(self, area: str, player: str) -> None:
        if player in self.offender:    # PR-5 / PR-6 / PR-5a: the cup stays in play
            return
        self.take(area, player)

    def offend(self, p: str, rule: str) -> None:
        self.flag(p, rule)
        if self.penal and rule in ("illegal-lead", "wrong-colour-lead", "withheld"):
            # BO-5 names PR-5 and PR-6 only; the bots never break BO-4 (see tests)
            if self.game == "boodle" and rule == "wrong-colour-lead":
                return
            self.offender.add(p)
            if rule == "withheld":
                self.withholders.add(p)
            else:                      # PR-5 / PR-7: 1 chip to each other player
                for k in range(1, len(self.players)):
                    self.pay(p, self.left_of(p, k), 1)

    def check_combos(self, player: str) -> None:
        """MR-8: a combination cup is won by the last card of it, all consecutive in one
        sequence (self.run_cards holds the current sequence)."""
        r = self.run_cards
        c = r[-1]
        for combo in self.disk.combos:
            if combo == "Q-K hearts":
                done = c == Card(13, "H") and len(r) >= 2 and r[-2] == Card(12, "H")
            else:
                lo = 8 if combo == "8-9-10" else 7
                done = c.rank == lo + 2 and len(r) >= 3 and r[-3].rank == lo
            if done:
                self.win(combo, player)

    def on_play(self, ev: dict[str, Any]) -> None:
        assert self.in_round and not self.over, "play after the round ended"
        p = ev["player"]
        move = [_c(x) for x in ev["cards"]] if "cards" in ev else [_c(ev["card"])]
        for c in move:
            assert c in self.hands[p], f"{p} does not hold {c}"
        first = move[0]
        nxt = self.next_live()
        if len(move) > 1:
            self.dump(p, move, nxt)
        elif nxt is not None and first == nxt:
            self.follow(p, first)
        else:
            if nxt is not None:        # MR-5 broken: the holder of the next card kept it
                h = self.holder(nxt)
                assert h is not None
                self.withheld.append((h, nxt))
                self.offend(h, "withheld")
            self.lead(p, first)
        self.after_play(p)

    def follow(self, p: str, c: Card) -> None:
        self.hands[p].discard(c)
        self.played[p].append(c)
        self.run_cards.append(c)
        if c in self.money_cards():    # MR-8: a follow is a legal play
            self.win(c.code, p)
        self.check_combos(p)
        self.ace2_player = p if (self.game == "great-lakes" and c.rank == 14) else None
        self.last, self.last_player, self.seq_open, self.lead_any = c, p, True, False

    def lead(self, p: str, c: Card) -> None:
        leader, allowed = self.entitled_leader()
        legal = True
        waived = p == self.ace2_player and c.rank == 2   # GL-2: the Ace player may lead a 2
        if not waived:
            if p != leader:            # MR-6: the lead was someone else's
                self.offend(p, "out-of-turn")
                legal = False
            if c.suit not in allowed and self.may_lead(p, allowed):
                # MR-6 / PR-7: a suit of the wrong colour while holding one of the right colour
                # (an out-of-turn leader breaks this too: two offences, PR-6a)
                self.offend(p, "wrong-colour-lead")
                legal = False
        lowest = min(x.rank for x in self.hands[p] if x.suit == c.suit)
        if c.rank != lowest:           # MR-4 / MR-6 / PR-5
            self.offend(p, "illegal-lead")
            legal = False
        was_ace2 = self.ace2_player == p
        self.hands[p].discard(c)
        self.played[p].append(c)
        self.run_cards = [c]
        if legal:
            if c in self.money_cards():
                self.win(c.code, p)
            if self.game == "great-lakes":
                if c.rank == 6:        # GL-5
                    self.win("6 Lead", p)
                if c.rank == 2 and was_ace2:   # GL-2
                    self.win("Ace-2", p)
        self.check_combos(p)
        self.ace2_player = None
        self.last, self.last_player, self.seq_open, self.lead_any = c, p, True, False

    def dump(self, p: str, move: list[Card], nxt: Card | None) -> None:
        """GL-3 / GL-4: the next card plus three more, joining the opponent's last card."""
        assert self.game == "great-lakes" and len(move) == 4, "multi-card play outside GL-3/4"
        assert nxt is not None and move[0] == nxt and self.last_player != p, "not a dump"
        assert self.last is not None
        cat = evaluate([self.last, *move]).category
        assert cat in (Category.FULL_HOUSE, Category.STRAIGHT, Category.STRAIGHT_FLUSH), cat
        self.follow(p, move[0])        # GL-3a: only this one can win a single money cup
        for c in move[1:]:             # out of sequence: gone from their suits
            self.hands[p].discard(c)
            self.played[p].append(c)
        self.win("Full House Dump" if cat == Category.FULL_HOUSE else "5-Card Straight", p)
        self.ace2_player = None
        self.seq_open, self.lead_any = False, True   # GL-3: the same player leads, any suit

    def after_play(self, p: str) -> None:
        if self.hands[p]:
            return
        if p in self.withholders:      # PR-6: play continues
            if not any(self.hands.values()):   # every card is out: nobody wins the Jackpot
                self.over = True
                self.maybe_settle()
            return
        self.over = True               # MR-7
        if self.disk.jackpot:
            self.take(JACKPOT, p)
        if self.game in ("pressman", "boodle"):   # PR-3 / BO-6
            for q in self.players:
                if q != p:
                    self.pay(q, p, len(self.hands[q]))
        self.maybe_settle()

    def on_end_round(self, ev: dict[str, Any]) -> None:
        assert self.in_round and not self.over
        self.over = True
        self.ended_by_record = True
        self.maybe_settle()

    def on_reveal(self, ev: dict[str, Any]) -> None:
        assert self.over, "reveal before the round ended"
        p = ev["player"]
        assert {_c(x) for x in ev["cards"]} == self.hands[p], f"{p} revealed other cards"
        self.revealed.add(p)
        self.maybe_settle()

    def maybe_settle(self) -> None:
        """MR-10a: settle as soon as every player still holding cards has revealed them."""
        if self.over and all(q in self.revealed for q in self.players if self.hands[q]):
            self.settle()

    def settle(self) -> None:
        """MR-10a: the round is complete; kitty, penalties, and MR-12 after the last round."""
        players = self.players
        # PR-6 / BO-5 payments. RULINGS leave the order of round-end settlements open; it
        # only matters when an offender runs short. Convention here (as the referee): the
        # withholding payments first, then the MR-13 Jackpot, then the kitty / Poker Pool.
        if self.penal:
            for p, w in self.withheld:
                for code in self.disk.singles:
                    mc = _c(code)
                    if mc.suit != w.suit or self.pots[code] == 0:
                        continue
                    h = self.holder(mc)
                    if h is not None and h != p:
                        self.pay(p, h, self.pots[code])
        if self.ended_by_record and self.disk.jackpot:    # MR-13
            # PR-6: a withholder who went out may not take the Jackpot
            totals = {p: sum(_points(c) for c in self.hands[p]) for p in players
                      if self.hands[p] or p not in self.withholders}
            low = min(totals.values())
            self.split(JACKPOT, [p for p in totals if totals[p] == low])
        if self.game == "michigan-rummy":                 # MR-10
            hands = {p: best_hand(self.played[p] + sorted(self.hands[p], key=_key))
                     for p in players}
            top = max(hands.values())
            self.split("Poker Kitty", [p for p in players if hands[p] == top])
        elif self.game == "great-lakes":                  # GL-6
            hands = {p: worst_hand(self.played[p] + sorted(self.hands[p], key=_key))
                     for p in players}
            low_h = min(hands.values())
            self.split("Loser's Kitty", [p for p in players if hands[p] == low_h])
        elif self.game == "pressman":                     # PR-4
            hands = {p: best_hand(sorted(self.hands[p], key=_key))
                     for p in players if self.hands[p]}
            if hands:
                top = max(hands.values())
                self.split("Poker Pool", [p for p in hands if hands[p] == top])
        self.rounds_done += 1
        self.in_round = False
        if self.rounds_done >= self.rounds_total:         # MR-12 / BO-7
            total = sum(self.pots.values())
            share = total // len(players)
            left = total - share * len(players)
            for p in players:
                self.chips[p] += share
            for a in self.pots:
                self.pots[a] = 0
            self.pots[self.disk.areas()[0]] = left
            self.finished = True
        self.results.append(RoundResult(dict(self.chips), sum(self.pots.values()),
                                        list(self.round_violations)))


def _key(c: Card) -> tuple[int, str]:
    return (c.rank, c.suit)


def oracle(events: list[dict[str, Any]]) -> Result:
    """Score a full-information log (with ``deal`` events)."""
    return Oracle().run(events)


# ---- a rule-breaking random player, driven by the oracle's own view of the table -----------------

def deal_order(players: list[str], dealer: str, game: str) -> list[str]:
    """MR-1: from the dealer's left, the dummy ("") last; BO-3: the dummy first."""
    i = players.index(dealer)
    seats = [players[(i + k) % len(players)] for k in range(1, len(players) + 1)]
    return [""] + seats if game == "boodle" else seats + [""]


def random_game(game: str, n: int, seed: int, *, rounds: int = 3, chips: int = 20,
                slip: float = 0.15) -> list[dict[str, Any]]:
    """A full log where players break rules the bots never break: out-of-turn leads, dummies
    taken with money cards, dumps and straights of every shape, end-of-round records."""
    import random

    from companion.cards import full_deck
    rng = random.Random(seed)
    players = [chr(ord("A") + k) for k in range(n)]
    log: list[dict[str, Any]] = [{"event": "game", "game": game, "players": players,
                                  "chips": chips, "rounds": rounds}]
    o = Oracle()

    def emit(ev: dict[str, Any]) -> None:
        log.append(ev)
        getattr(o, "on_" + ev["event"].replace("-", "_"))(ev)

    emit(log.pop())
    for r in range(rounds):
        dealer = players[r % n]
        emit({"event": "round", "dealer": dealer})
        deck = [c.code for c in full_deck()]
        rng.shuffle(deck)
        order = deal_order(players, dealer, game)
        got: dict[str, list[str]] = {k: [] for k in order}
        for k, c in enumerate(deck):
            got[order[k % len(order)]].append(c)
        emit({"event": "deal", "hands": {p: got[p] for p in players}, "dummy": got[""]})
        choice = rng.random()
        if choice < 0.6:
            emit({"event": "dummy", "action": "keep"})
        elif choice < 0.8:
            emit({"event": "dummy", "action": "exchange"})
        else:
            buyer = rng.choice([p for p in players if p != dealer])
            emit({"event": "dummy", "action": "sell", "buyer": buyer,   # a price they can pay
                  "price": min(o.chips[buyer], rng.randint(0, 3))})
        while not o.over:
            if rng.random() < 0.01:
                emit({"event": "end-round"})
                break
            emit(_random_move(o, rng, slip))
        for p in players:
            if o.in_round and o.hands[p]:
                emit({"event": "reveal", "player": p,
                      "cards": sorted(c.code for c in o.hands[p])})
    return log


def _lowest(o: Oracle, p: str, suit: str) -> Card | None:
    cs = [c for c in o.hands[p] if c.suit == suit]
    return min(cs, key=lambda c: c.rank) if cs else None


def _random_move(o: Oracle, rng: Any, slip: float) -> dict[str, Any]:
    nxt = o.next_live()
    if nxt is not None:
        h = o.holder(nxt)
        assert h is not None
        if o.game == "great-lakes" and h != o.last_player and rng.random() < 0.7:
            dump = _find_dump(o, h, nxt, rng)
            if dump:
                return {"event": "play", "player": h, "cards": [c.code for c in dump]}
        if rng.random() > slip:
            return {"event": "play", "player": h, "card": nxt.code}
    leader, allowed = o.entitled_leader()
    p = leader
    if rng.random() < slip:     # out of turn
        p = rng.choice([q for q in o.players if o.hands[q]])
    suits = [s for s in SUITS if _lowest(o, p, s) is not None]
    ok = [s for s in suits if s in allowed]
    if o.ace2_player == p and rng.random() < 0.5:
        twos = sorted((c for c in o.hands[p] if c.rank == 2), key=_key)
        if twos:
            return {"event": "play", "player": p, "card": rng.choice(twos).code}
    pick = rng.choice(ok) if ok and rng.random() > slip else rng.choice(suits)
    c = _lowest(o, p, pick)
    assert c is not None
    if rng.random() < slip:     # not the lowest
        c = rng.choice(sorted((x for x in o.hands[p] if x.suit == pick), key=_key))
    return {"event": "play", "player": p, "card": c.code}


def _find_dump(o: Oracle, p: str, nxt: Card, rng: Any) -> list[Card] | None:
    import itertools
    assert o.last is not None
    others = sorted(o.hands[p] - {nxt}, key=_key)
    found = []
    for three in itertools.combinations(others, 3):
        cat = evaluate([o.last, nxt, *three]).category
        if cat in (Category.FULL_HOUSE, Category.STRAIGHT, Category.STRAIGHT_FLUSH):
            found.append([nxt, *three])
            if len(found) > 5:
                break
    return rng.choice(found) if found else None
