"""Bots and the simulator for the Michigan family: michigan-rummy, great-lakes, pressman, boodle.

Bots deal (MR-1, BO-3), decide the dummy (MR-3) and play legally with a simple strategy, breaking
a rule now and then on request; every game is written as a full log (with the ``deal``) and a
hidden one (what the table sees), with the list of mistakes the evidence proves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.referee import register_simulator

# Cards are ints here for speed: suit * 13 + rank index (0 = "2" .. 12 = "A"), suits C D H S.
_RANKS = "23456789TJQKA"
_SUITS = "CDHS"
CODES: tuple[str, ...] = tuple(r + s for s in _SUITS for r in _RANKS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(CODES)}
ACE = 12
DEAD = -1      # in the dummy or a given-up hand (MR-3), never seen
PLAYED = -2
_RED = (False, True, True, False)
#: The suits of the opposite colour to each suit (MR-6) and the other suits (BO-4).
_OPPOSITE = ((1, 2), (0, 3), (0, 3), (1, 2))
_OTHER = ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))

#: Chance that the table stops a round with nobody out (MR-13, an ``end-round`` event).
END_ROUND_RATE = 0.03
#: How often a bot takes a Great Lakes special when it can (GL-2..GL-4).
SPECIAL_RATE = 0.75
DEFAULT_CHIPS = 50
DEFAULT_ROUNDS = 5


def _codes(cs: list[int] | set[int]) -> list[str]:
    return [CODES[c] for c in sorted(cs)]


def _cards(text: str) -> frozenset[int]:
    return frozenset(INDEX[t] for t in text.split())


def _ranks(ranks: str) -> frozenset[int]:
    return frozenset(s * 13 + _RANKS.index(r) for r in ranks for s in range(4))


@dataclass(frozen=True)
class Rules:
    """What the bots need to know of one rule set (the referee keeps the chips)."""

    game: str
    #: Cards that bar exchanging for or buying the dummy (MR-3). Deliberately wide: every card
    #: pictured on or named by a cup of the disk, so a bot's choice is legal under any reading.
    money: frozenset[int]
    extra_first: bool         # BO-3: the extra hand is dealt first in each pass
    colour_rule: bool         # MR-6 (opposite colour) or BO-4 (any other suit)
    specials: bool            # GL-2..GL-5
    withholder_cannot_win: bool   # PR-6 / BO-5: a withholder who goes out does not end the round
    ante: tuple[int, int]     # chips a non-dealer / the dealer antes each round (MR-2, PR-2, BO-2)
    penalties: bool           # PR-5 / PR-7: an offender pays 1 chip to each other player
    per_card: bool            # PR-3 / BO-6: 1 chip per card left to whoever goes out


RULES: dict[str, Rules] = {
    # MR-14 disk: AS KD QS JH TD, 8-9-10 any one suit, Q-K hearts, Poker Kitty.
    "michigan-rummy": Rules("michigan-rummy", _cards("AS KD QS JH TD QH KH") | _ranks("89T"),
                            False, True, False, False, (9, 10), False, False),
    # GL-1 disk: KD QS JH, Ace-2, Full House Dump, 5-Card Straight, 6 Lead, Loser's Kitty.
    "great-lakes": Rules("great-lakes", _cards("KD QS JH") | _ranks("A26"),
                         False, True, True, False, (9, 10), False, False),
    # PR-1 disk: TH JS KC AH QH, Q-K hearts, 7-8-9 any one suit, Poker Pool.
    "pressman": Rules("pressman", _cards("TH JS KC AH QH KH") | _ranks("789"),
                      False, True, False, True, (9, 18), True, True),
    # BO-1 boodle cards.
    "boodle": Rules("boodle", _cards("AH KC QD JS"), True, False, False, True, (4, 8), True, True),
}


@dataclass(frozen=True)
class Mistake:
    """A rule a bot broke. ``line`` is the line in the hidden log (``full_line`` in the full one):
    the lead for ``illegal-lead`` / ``wrong-colour-lead``, and for ``withheld`` the play made
    instead of the withheld card (the first play after the stop). ``proof_line`` (hidden log) is
    the first later play or reveal by the offender of a card that proves it, or 0 if none.

    What the bots do, and why the evidence always proves it (cards never change hands after the
    dummy choice, and every card a player holds is later played by them or revealed, MR-10a):

    - ``illegal-lead`` (MR-4, PR-5): any leader leads a card of an allowed suit that is not
      their lowest of it; proven by the first lower card of that suit they play or reveal.
    - ``wrong-colour-lead`` (MR-6, PR-7; not in boodle): only the player who played the last
      card, holding a card of the opposite colour, leads the lowest card of a suit of the same
      colour (never a 2 right after their own Ace follow in great-lakes: that is GL-2's legal
      Ace-2); proven by the first opposite-colour card they play or reveal.
    - ``withheld`` (MR-5, PR-6): the holder of the next card of the sequence keeps it; the
      sequence looks stopped and the last player leads (MR-6). The mistake is not made when
      that lead would be the withheld card itself (it would read as the follow, no offence
      visible); proven when the offender plays (necessarily as a lead) or reveals the card.
    """

    line: int
    full_line: int
    player: str
    rule: str
    card: str          # the card led, or the card withheld
    proof_line: int
    round: int


@dataclass
class SimResult:
    """One simulated game: the same game as a full and as a hidden log.

    ``hidden_line`` maps every full-log line (1-based) except the ``deal`` lines to its line in
    the hidden log. ``mistakes`` lists ``(hidden_line, player, rule_id)`` for every rule the bots
    broke that the evidence proves (all of them, in this family: see `Mistake`), and
    ``unproven`` the others (kept for the tests; expected to stay empty).
    """

    game: str
    players: list[str]
    full: list[dict[str, Any]]
    hidden: list[dict[str, Any]]
    hidden_line: dict[int, int]
    details: list[Mistake] = field(default_factory=list)
    unproven: list[Mistake] = field(default_factory=list)
    #: Hidden-log line of the last event of every round (where the round's chips are settled).
    round_ends: list[int] = field(default_factory=list)
    rounds_played: int = 0

    @property
    def mistakes(self) -> list[tuple[int, str, str]]:
        return [(m.line, m.player, m.rule) for m in self.details]


@dataclass
class _LeadPlan:
    player: int
    card: int
    rule: str | None = None          # the mistake made by this lead, if any
    evidence: frozenset[int] = frozenset()


class _Game:
    """One game in progress: the state of the current round lives in plain lists of ints."""

    def __init__(self, rules: Rules, players: list[str], rng: random.Random, mistakes: float,
                 chips: int) -> None:
        self.rules = rules
        self.names = players
        self.n = len(players)
        self.rng = rng
        self.p_mistake = mistakes
        self.events: list[dict[str, Any]] = []
        self.pending: list[tuple[str, int, int, int, frozenset[int], int]] = []
        # (rule, line, player, card, proof line, round) of every mistake made
        self.mistakes: list[tuple[str, int, int, int, int, int]] = []
        # A lower bound of every player's chips: start minus everything they may have paid.
        # A bot bids for the dummy only what it surely has, so no sale can fail.
        self.low = [chips] * self.n
        self.round_ends: list[int] = []

    # --- the round ------------------------------------------------------------------------
    def play_round(self, rnd: int, dealer: int) -> None:
        rules, n, rng, names, ev = self.rules, self.n, self.rng, self.names, self.events
        ev.append({"event": "round", "dealer": names[dealer]})
        for p in range(n):
            self.low[p] -= rules.ante[1] if p == dealer else rules.ante[0]
        deck = list(range(52))
        rng.shuffle(deck)
        seats = [(dealer + 1 + i) % n for i in range(n)]
        order = [-1, *seats] if rules.extra_first else [*seats, -1]   # -1: the extra hand
        k = n + 1
        dealt = {order[i]: deck[i::k] for i in range(k)}   # card j goes to hand j mod k (MR-1)
        ev.append({"event": "deal", "hands": {names[p]: _codes(dealt[p]) for p in range(n)},
                   "dummy": _codes(dealt[-1])})
        hands = {p: dealt[p] for p in range(n)}
        self.decide_dummy(dealer, seats, hands, dealt[-1])

        owner = [DEAD] * 52
        masks = [[0, 0, 0, 0] for _ in range(n)]
        count = [0] * n
        for p in range(n):
            m = masks[p]
            for c in hands[p]:
                owner[c] = p
                m[c // 13] |= 1 << (c % 13)
            count[p] = len(hands[p])
        self.owner, self.masks, self.count = owner, masks, count
        self.appear: dict[int, int] = {}
        self.withholders: set[int] = set()
        self.pending = []
        stop_after = rng.randint(1, 50) if rng.random() < END_ROUND_RATE else -1
        self.plays = 0

        # MR-4: the dealer's left opens with the lowest card of any suit.
        plan = self.plan_lead(seats[0], range(4), colour_rule=False, rightful=True,
                              after_own_ace=False)
        ended = self.execute_lead(plan)
        while not ended:
            if 0 < stop_after <= self.plays:
                ev.append({"event": "end-round"})       # MR-13
                break
            ended = self.follow()
        self.reveal(rnd)

    def decide_dummy(self, dealer: int, seats: list[int], hands: dict[int, list[int]],
                     dummy: list[int]) -> None:
        """MR-3: keep, exchange blind (no money card in hand) or sell to the highest bidder."""
        rng, money = self.rng, self.rules.money

        def eligible(p: int) -> bool:
            return not any(c in money for c in hands[p])

        if eligible(dealer) and rng.random() < 0.5:
            hands[dealer] = dummy
            self.events.append({"event": "dummy", "action": "exchange"})
            return
        bidders = [p for p in seats if p != dealer and self.low[p] >= 1 and eligible(p)]
        if bidders and rng.random() < 0.6:
            bids = {p: rng.randint(1, min(3, self.low[p])) for p in bidders}
            best = max(bids.values())
            buyer = next(p for p in bidders if bids[p] == best)   # ties: nearest the dealer's left
            hands[buyer] = dummy
            self.low[buyer] -= best
            self.events.append({"event": "dummy", "action": "sell", "buyer": self.names[buyer],
                                "price": best})
            return
        self.events.append({"event": "dummy", "action": "keep"})

    # --- moves ----------------------------------------------------------------------------
    def put(self, p: int, c: int) -> None:
        self.owner[c] = PLAYED
        self.masks[p][c // 13] &= ~(1 << (c % 13))
        self.count[p] -= 1
        self.plays += 1
        self.events.append({"event": "play", "player": self.names[p], "card": CODES[c]})
        self.appear[c] = len(self.events)

    def over_after(self, p: int) -> bool:
        """Whether the round ends after ``p``'s play (MR-7; PR-6 / BO-5 for a withholder)."""
        if self.count[p]:
            return False
        if self.rules.withholder_cannot_win and p in self.withholders:
            # PR-6: play continues until another player goes out. When only withholders hold
            # cards nobody can win it any more: the table stops the round (MR-13).
            if all(q in self.withholders for q in range(self.n) if self.count[q]):
                if any(self.count):
                    self.events.append({"event": "end-round"})
                return True
            return False
        return True

    def execute_lead(self, plan: _LeadPlan) -> bool:
        p, c = plan.player, plan.card
        self.put(p, c)
        if plan.rule:
            self.pending.append((plan.rule, len(self.events), p, c, plan.evidence,
                                 len(self.events)))
        self.last, self.last_player, self.last_was_follow = c, p, False
        return self.over_after(p)

    def follow(self) -> bool:
        """The next card of the sequence is played, or the sequence stops and someone leads.
        Returns True when the round is over."""
        last, q, owner, rng = self.last, self.last_player, self.owner, self.rng
        rank = last % 13
        holder = owner[last + 1] if rank != ACE else DEAD
        if holder < 0:      # MR-5: stopped by the ace, a dead card or a card already played
            return self.execute_lead(self.plan_after_stop(q, last // 13))
        nxt = last + 1
        rules = self.rules
        if rules.specials and holder != q and rng.random() < SPECIAL_RATE:
            dump = self.find_dump(holder, last)
            if dump:
                return self.execute_dump(holder, dump)
        if self.p_mistake and rng.random() < self.p_mistake:
            # Withhold the next card: the sequence seems to stop at ``last`` and ``q`` leads.
            plan = self.plan_after_stop(q, last // 13)
            if plan.card != nxt:    # else the lead would read as the follow: no mistake at all
                self.withholders.add(holder)
                self.pending.append(("withheld", len(self.events) + 1, holder, nxt,
                                     frozenset((nxt,)), len(self.events) + 1))
                return self.execute_lead(plan)
        self.put(holder, nxt)
        self.last, self.last_player, self.last_was_follow = nxt, holder, True
        return self.over_after(holder)

    # --- Great Lakes specials ---------------------------------------------------------------
    def find_dump(self, p: int, x: int) -> list[int] | None:
        """GL-3 / GL-4: the next card after ``x`` plus 3 more from ``p``'s hand that make a full
        house or a straight (ace high only, MR-11) with ``x``; None when there is none."""
        nxt = x + 1
        r = x % 13
        hand = [c for s in range(4) for c in self._cards_of(p, s) if c != nxt]
        by_rank: dict[int, list[int]] = {}
        for c in hand:
            by_rank.setdefault(c % 13, []).append(c)
        options: list[list[int]] = []
        low, high = by_rank.get(r, []), by_rank.get(r + 1, [])
        if len(low) >= 2 and high:                      # x x x + nxt nxt
            options.append([nxt, low[0], low[1], high[0]])
        if low and len(high) >= 2:                      # x x + nxt nxt nxt
            options.append([nxt, low[0], high[0], high[1]])
        for a in range(max(0, r - 3), min(r, 8) + 1):  # window a..a+4 holds r and r+1
            rest = [t for t in range(a, a + 5) if t not in (r, r + 1)]
            if all(by_rank.get(t) for t in rest):
                options.append([nxt, *(by_rank[t][0] for t in rest)])
        return self.rng.choice(options) if options else None

    def execute_dump(self, p: int, dump: list[int]) -> bool:
        for c in dump:
            self.owner[c] = PLAYED
            self.masks[p][c // 13] &= ~(1 << (c % 13))
        self.count[p] -= len(dump)
        self.plays += 1
        self.events.append({"event": "play", "player": self.names[p], "cards": _codes_in(dump)})
        for c in dump:
            self.appear[c] = len(self.events)
        if self.over_after(p):
            return True
        # GL-3: the same player then leads the lowest card of any suit.
        self.last_player = p
        return self.execute_lead(self.plan_lead(p, range(4), colour_rule=False, rightful=True,
                                                after_own_ace=False))

    # --- leads ----------------------------------------------------------------------------
    def _cards_of(self, p: int, s: int) -> list[int]:
        m, out, base = self.masks[p][s], [], s * 13
        while m:
            low = m & -m
            out.append(base + low.bit_length() - 1)
            m ^= low
        return out

    def plan_after_stop(self, q: int, suit: int) -> _LeadPlan:
        """MR-6 (BO-4): who leads after a sequence of ``suit`` stopped with ``q``'s card, what."""
        masks, n = self.masks, self.n
        wanted = _OPPOSITE[suit] if self.rules.colour_rule else _OTHER[suit]
        for i in range(n):
            p = (q + i) % n
            m = masks[p]
            if any(m[s] for s in wanted):
                return self.plan_lead(p, wanted, colour_rule=self.rules.colour_rule,
                                      rightful=i == 0, after_own_ace=i == 0 and
                                      self.last_was_follow and self.last % 13 == ACE)
        p = q
        while not self.count[p]:     # q may have gone out under PR-6: the next one with cards
            p = (p + 1) % n
        return self.plan_lead(p, range(4), colour_rule=False, rightful=p == q,
                              after_own_ace=False)

    def plan_lead(self, p: int, suits: Any, colour_rule: bool, rightful: bool,
                  after_own_ace: bool) -> _LeadPlan:
        """``p`` leads the lowest card of one of ``suits`` (a bot's choice), or breaks a rule."""
        rng, masks = self.rng, self.masks[p]
        if self.rules.specials and after_own_ace and rng.random() < SPECIAL_RATE:
            twos = [s * 13 for s in range(4) if masks[s] & 1]
            if twos:   # GL-2: Ace then a 2 of any suit (the colour rule waived)
                return _LeadPlan(p, rng.choice(twos))
        if self.p_mistake and rng.random() < self.p_mistake:
            plan = self.plan_mistake(p, suits, colour_rule and rightful, after_own_ace)
            if plan:
                return plan
        best, best_score = -1, -1.0
        for s in suits:
            m = masks[s]
            if not m:
                continue
            low = (m & -m).bit_length() - 1
            run = m >> low
            length = ((~run) & (run + 1)).bit_length() - 1   # own cards in a row from the lowest
            score = length + rng.random() * 1.5
            if self.rules.specials and low == 4:
                score += 3.0                                  # GL-5: lead a 6
            if score > best_score:
                best, best_score = s * 13 + low, score
        return _LeadPlan(p, best)

    def plan_mistake(self, p: int, suits: Any, colour_applies: bool,
                     after_own_ace: bool) -> _LeadPlan | None:
        rng, masks = self.rng, self.masks[p]
        options: list[_LeadPlan] = []
        long_suits = [s for s in suits if masks[s] & (masks[s] - 1)]
        if long_suits:      # lead a card that is not the lowest of its suit (MR-4, PR-5)
            s = rng.choice(long_suits)
            cs = self._cards_of(p, s)
            c = rng.choice(cs[1:])
            options.append(_LeadPlan(p, c, "illegal-lead", frozenset(x for x in cs if x < c)))
        if colour_applies:  # lead a suit of the wrong colour while holding the right one (PR-7)
            wrong = [s for s in range(4) if s not in suits and masks[s]
                     and not (after_own_ace and self.rules.specials and masks[s] & 1)]
            if wrong:
                s = rng.choice(wrong)
                held = frozenset(c for t in suits for c in self._cards_of(p, t))
                options.append(_LeadPlan(p, self._cards_of(p, s)[0], "wrong-colour-lead", held))
        return rng.choice(options) if options else None

    # --- the end of the round -----------------------------------------------------------
    def reveal(self, rnd: int) -> None:
        """MR-10a: everyone still holding cards shows them, in seat order; then the round's
        mistakes are checked against the evidence."""
        for p in range(self.n):
            if self.count[p]:
                held = [c for s in range(4) for c in self._cards_of(p, s)]
                self.events.append({"event": "reveal", "player": self.names[p],
                                    "cards": _codes_in(held)})
                for c in held:
                    self.appear[c] = len(self.events)
        self.round_ends.append(len(self.events))
        for rule, line, p, c, evidence, after in self.pending:
            seen = [self.appear[e] for e in evidence if self.appear.get(e, 0) > after]
            self.mistakes.append((rule, line, p, c, min(seen) if seen else 0, rnd))
            if self.rules.penalties and rule != "withheld":
                self.low[p] -= self.n - 1
            if rule == "withheld" and self.rules.penalties:
                self.low[p] = -10**9    # PR-6 payments are not bounded here: bid no more
        if self.rules.per_card:
            for p in range(self.n):
                self.low[p] -= self.count[p]


def _codes_in(cs: list[int]) -> list[str]:
    return [CODES[c] for c in cs]


def simulate_game(players: list[str], rounds: int | None = None, seed: int = 0,
                  mistakes: float = 0.0, chips: int | None = None,
                  game: str = "michigan-rummy") -> SimResult:
    """Bots play a whole game; returns its full and hidden logs and the mistakes made."""
    if game not in RULES:
        raise ValueError(f"no Michigan simulator for game {game!r} (known: "
                         f"{', '.join(sorted(RULES))})")
    if not 3 <= len(players) <= 8:
        raise ValueError(f"the Michigan games are for 3 to 8 players, got {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError("player names must differ")
    if not 0.0 <= mistakes <= 1.0:
        raise ValueError(f"mistakes must be a probability 0..1, got {mistakes}")
    rounds = DEFAULT_ROUNDS if rounds is None else rounds
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    chips = DEFAULT_CHIPS if chips is None else chips
    if chips < 0:
        raise ValueError(f"chips must be at least 0, got {chips}")
    g = _Game(RULES[game], list(players), random.Random(seed), mistakes, chips)
    g.events.append({"event": "game", "game": game, "players": list(players), "chips": chips,
                     "rounds": rounds})
    for rnd in range(1, rounds + 1):
        g.play_round(rnd, (rnd - 1) % len(players))
    full = g.events
    hidden: list[dict[str, Any]] = []
    hidden_line: dict[int, int] = {}
    for i, e in enumerate(full, start=1):
        if e["event"] != "deal":
            hidden.append(e)
            hidden_line[i] = len(hidden)
    res = SimResult(game, list(players), full, hidden, hidden_line,
                    round_ends=[hidden_line[x] for x in g.round_ends], rounds_played=rounds)
    for rule, line, p, c, proof, rnd in g.mistakes:
        m = Mistake(hidden_line[line], line, players[p], rule, CODES[c],
                    hidden_line[proof] if proof else 0, rnd)
        (res.details if proof else res.unproven).append(m)
    return res


@register_simulator("michigan-rummy", "great-lakes", "pressman", "boodle")
def simulate(players: list[str], rounds: int | None, seed: int, hidden: bool = False,
             mistakes: float = 0.0, chips: int | None = None,
             game: str = "michigan-rummy") -> list[dict[str, Any]]:
    """The event log of a whole simulated game (DESIGN.md), ``game`` event first."""
    res = simulate_game(players, rounds, seed, mistakes, chips, game)
    return res.hidden if hidden else res.full
