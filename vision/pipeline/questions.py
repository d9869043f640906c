"""The questions the pipeline puts to people (`Questions`): a reading it cannot place, a card
read two ways, a card the camera missed; and the answers that settle them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import combinations, permutations, product
from typing import Any

import numpy as np

from calibration.layout import CARD_H, CARD_W
from calibration.profile import TableProfile, apply_homography
from companion.cards import CARD_CODES, RANKS, Card
from companion.events import Event, read_log
from companion.referee import Replay, replay
from vision.detections import Detections
from vision.lookalikes import SUIT_LOOKALIKE, alike, confusable, either_alike, lookalikes
from vision.pipeline.changes import ZoneChanges
from vision.pipeline.log import (
    MOVES_OF_SEVERAL,
    NEW_DEAL,
    REFUSED,
    TableLog,
    cards_of,
    comes_next,
    pretty_cards,
    stamp,
)
from vision.pipeline.results import (
    EARLIER,
    PICK,
    Answer,
    FrameResult,
    Pending,
    ZoneLook,
    pick_of,
    picked,
    placed_play,
)
from vision.tracker import Observation

#: A hand shown whose least sure card reads below this is held for a person while the
#: reader does not know the deck (`Questions.deck_known`), and a hand the second look reads
#: with a card below this (its mean score over the look's frames) is then offered, not
#: logged. A hand shown has few rules to catch a misread card (any card not played may be in
#: it) and it pays chips; in rendered rounds on two decks the card reader never learnt, 4 of
#: 36 hands shown were logged wrong, read at 0.54-0.70, where on the demo's deck none of 34
#: (models/INDEX.md, "Fifty-fifth session").
UNKNOWN_DECK_REVEAL_BELOW = 0.7

#: A play of one card read below this on a deck new to the reader, which the second look,
#: reading its zone in the same frame, does not read at all, is held for a person
#: (`Questions._unseen_by_look`). On the held-out tigullio deck (seeds 900-909 and Great
#: Lakes 1000-1009), 6 of 12 such plays were misreadings or phantoms, against 6 of 496 plays
#: read at 0.7 or more (models/INDEX.md, "Fifty-eighth session").
UNSEEN_LOOK_BELOW = 0.6

#: A play of one card read below this is read by the second look too, and held where the
#: look reads a lookalike there more surely and not the card (`Questions._swapped_by_look`;
#: the cheap webcam's Oh Claire! 1909: Ann's J♣ read as Q♣ at 0.75). Above it the look is
#: not asked: a surely read play costs no second reading.
SWAP_LOOK_BELOW = 0.8

#: Half a card's diagonal (board units): how far the second look, which places a card where
#: its corner index lies, may place it from its centre, where the table reader places it.
HALF_DIAGONAL = math.hypot(CARD_W, CARD_H) / 2


class Questions(TableLog):
    """Readings held for a person: the question each puts and its one-click answers, the
    likeliest first; a card logged as one code and read as another since (corrected, kept or
    asked); held readings the camera settles by reading them again; a person's answer.
    Its state is set up by `TablePipeline.__init__`."""

    #: Readings held for confirmation, by id.
    pending: dict[int, Pending]
    _ids: Iterator[int]
    reread_frames: int
    _contests: list[tuple[str, str, tuple[float, float]]]
    second_look: ZoneLook | None
    #: What reads the table (`vision.pipeline.table.TablePipeline`): it may say whether it
    #: knows the deck (`deck_known`).
    detector: Any
    #: Per zone where a hand shown waits or is held: how many frames the second look has
    #: read it, in how many of them it read each card, and its scores for each card summed.
    _looks: dict[int, tuple[int, Counter[str], dict[str, float]]]
    #: Zones whose look has read all its frames and decided on them (no more tries).
    _looks_decided: set[int]
    #: Per zone: the hand its look read that proves a rule broken, offered to people.
    _proofs: dict[int, dict[str, Any]]
    #: Per zone whose look decided nothing: the hands made of cards it read that the table
    #: accepts, offered to people as one-click answers (`_hands_read`).
    _guesses: dict[int, list[dict[str, Any]]]
    _partial: dict[int, tuple[Observation, float, str, dict[str, Any] | None]]
    _waiting: list[Observation]

    #: Each seat's pile watched for a change of picture (`vision.pipeline.changes`); per pile
    #: that changed with no new card read: since when, how many frames the second look read
    #: it, and in how many it read each card nobody played this round; when each pile last
    #: had a reading of the table reader placed.
    _changes: ZoneChanges | None
    _changed: dict[int, tuple[float, int, Counter[str]]]
    _read_at: dict[int, float]
    #: Per pile: when it last came to rest in a new picture that neither reader explained
    #: (the second look read no new card there, or the table reader read one only after the
    #: second look had begun: a later card laid on it), and the card the sequence expected
    #: then where the second look read that card there in most of its looks (else None:
    #: `_unread_now`).
    _unread: dict[int, tuple[float, str | None]]
    #: Per pile, since it last began to move: when, when it came to rest in a new picture
    #: (None: not yet, or in the picture it showed before), and in how many frames the table
    #: reader read there each card nobody played this round (`_note_seen`); and per pile,
    #: such a change whose cards read in `SEEN_READS` frames or more were never logged
    #: before the pile moved again: when it came to rest, and those cards
    #: (`_seen_unlogged`).
    _seen_new: dict[int, tuple[float, float | None, Counter[str]]]
    _seen_lost: dict[int, tuple[float, list[str]]]
    #: `_ask_never_shown`: the log's length when it last asked (asked once for a log), and
    #: the question it holds (its id, the player it asks about).
    _never_asked: int
    _never_held: tuple[int, str] | None
    #: `_seen_unlogged`: a card read in this many frames on a pile at rest is a card there.
    SEEN_READS = 3
    #: `_seen_unlogged`: a card logged into the pile this long (s) before it came to rest
    #: may be what changed it (its reading settles before the pile's picture does).
    SEEN_MARGIN = 1.0
    #: How long a changed pile is left to the table reader before the second look reads it.
    CHANGE_WAIT = 0.3
    #: A contested card unread this long (s) is decided on the readings it had (`_recount`).
    LAST_WORD = 0.5
    #: Two single cards coming to rest in one pile less than this apart (s) were not laid one
    #: after the other by a hand (`_landed_with`).
    ONE_LANDING = 0.5

    #: Per card the table asks about ("6♣ was not seen: who played it?"): how many frames
    #: the second look has read the seats' piles for it, in how many each seat showed it, and
    #: in how many it was read on the very spot of the first reading held for it where that
    #: reading's own card was not read (that reading was the card, misread).
    _hunts: dict[str, tuple[int, Counter[int], int]]

    #: The second look reads a held hand's zone (or the seats' piles for a card not seen) in
    #: at most this many frames and decides from `LOOK_MIN` on: a card not seen is the card
    #: of the one seat whose pile shows it in at least `LOOK_SHARE` of them; a hand's cards
    #: are those read in at least `HAND_SHARE` of them, the most read first, as many as the
    #: table takes (a card of a spread shows only its index, and is not read in every frame).
    LOOK_FRAMES = 12
    LOOK_MIN = 4
    LOOK_SHARE = 0.6
    HAND_SHARE = 0.4

    #: A card the second look reads in one frame below this score is not sure enough to be
    #: logged where the table cannot check it (a suit in a dump): a person is asked.
    LOOK_SURE = 0.6

    #: Games where one move may lay several cards in a pile, and how many (GL-3, GL-4: the
    #: next-in-sequence card and three more, laid as a spread).
    SEVERAL_AT_ONCE: dict[str, int] = {"great-lakes": 4}
    #: `_laid_more`: the share of a seat's zone (its thumbnail's pixels, `ZoneChanges`) over
    #: which its picture changed more than one card laid covers. The zones are the board's,
    #: so a card covers about the same share of one on every table. Tigullio Great Lakes,
    #: seeds 1001, 1401, 1406, 1506, 1601, 1606 and 1701 (`PIXEL_CHANGE` 20): plays of one
    #: card 0.09-0.37 (0.27-0.33 the first card on a bare pile), dumps of four 0.36-0.71
    #: (14 of 15 over 0.40; the one under, read whole).
    MORE_THAN_A_CARD = 0.40
    #: The frame being processed (the second look at a move reads it).
    _frame: np.ndarray | None
    #: The second look's last reading of one zone: (what it read, then the frame, its time,
    #: the table profile and the zone it read), so that the checks of one reading in one
    #: frame look once (`_zone_look`).
    _zone_looked: tuple[Detections, np.ndarray, float, TableProfile, int] | None
    _look_spot: dict[str, tuple[float, float]]

    def _outvoted(self, under: str, card: str, pos: tuple[float, float]) -> bool:
        """Has ``card`` been read on the spot of the logged ``under`` more often than ``under``
        since it was logged (every frame's vote)?"""
        logged = self._logged(under)
        if logged is None:
            return False
        since = float(logged[1].get("t", 0.0)) - 0.05
        votes = self.tracker.votes_at(pos[0], pos[1], since)
        return votes.get(card, 0) > max(self.reread_frames, 1.5 * votes.get(under, 0))

    def _read_as_under(self, card: str) -> bool:
        """Has a card logged before ``card`` this round been read on ``card`` 's spot in two
        frames or more since ``card`` was last read there? A card laid on another hides it
        and is read on top from then on; a misreading of the card under stops, and the card
        under is read again."""
        spot, logged = self._spot_of.get(card), self._line_of.get(card)
        if spot is None or logged is None:
            return False
        since = float(logged[1].get("t", 0.0)) - 0.05
        last = max(self.tracker.read_times(card, spot[0], spot[1], since), default=since)
        votes = self.tracker.votes_at(spot[0], spot[1], last + 1e-6)
        return any(n >= 2 and self._line_of.get(other, (logged[0], {}))[0] < logged[0]
                   for other, n in votes.items())

    def _read_beside(self, under: str, card: str, pos: tuple[float, float]) -> bool:
        """Was the logged ``under`` read on its own spot in the very frames ``card`` was read
        at ``pos``, in ``reread_frames`` of them or more? One card gives one reading a frame,
        so they are two cards lying close, not one read two ways (Boodle, seed 343: Ann's 9♠
        read as 10♣ for seconds beside Bob's Q♥, read as Q♥ all along, turned the Q♥ into a
        10♣ in silence)."""
        spot = self._spot_of.get(under) or self._shown_spot.get(under)
        if spot is None:
            return False
        since = self.tracker.t - 2.0
        both = self.tracker.read_times(under, *spot, since) & self.tracker.read_times(
            card, *pos, since)
        return len(both) >= self.reread_frames

    def _which_reading(self, under: str, card: str, pos: tuple[float, float]) -> str | None:
        """A card logged as ``under`` and read as ``card`` on the same spot since, the later
        reading winning the vote: which was it, by the table and the camera? The one the
        sequence expected when it was played (3♣ after 2♣ rather than a lead of 3♦) when
        only one was; else ``card`` when ``under`` was read as itself in fewer than
        ``reread_frames`` frames since it was logged (it settled while its reading was still
        changing); None when both readings held steady, or when ``card`` is the card the
        sequence expects now and a play of it is held: the camera alone cannot say (a card
        laid on the old one reads as the old one misread would, and outvotes it either way;
        the demo, seed 1: Ann's 6♥, her last card, laid on her 9♥, was logged as that 9♥
        read again)."""
        if card == self._next_card() and any(
                held.observation.cards == [card] and held.event.get("event") == "play"
                for held in self.pending.values()):
            return None
        line, logged = self._logged(under) or (0, {})
        next_card = getattr(replay([e for e in read_log(self.log.path).events
                                    if e.line < line]).referee, "next_card", None)
        # (A hand shown follows no sequence.)
        expected = next_card() if callable(next_card) and "card" in logged else None
        if expected == card:
            return card
        if expected == under:
            # The logged card came next, and another has been read there steadily since:
            # a stuck misread now, or one at the landing and a play out of sequence.
            return None
        since = float(logged.get("t", 0.0)) - 0.05
        steady = self.tracker.votes_at(pos[0], pos[1], since).get(under, 0) >= self.reread_frames
        # Still changing: ``card`` was read there before ``under`` was logged as well.
        changing = self.tracker.votes_at(*pos).get(card, 0) > self.tracker.votes_at(
            *pos, since).get(card, 0)
        return card if changing and not steady else None

    def _resolve_flip(self, under: str, card: str, pos: tuple[float, float],
                      corr: dict[str, Any], result: FrameResult) -> None:
        """A card logged as ``under``, read as ``card`` on its spot since, the table
        accepting either (``corr`` makes it ``card``): the log is corrected, kept, or a person
        is asked, as `_which_reading` says."""
        was, now = Card.parse(under).pretty(), Card.parse(card).pretty()
        verdict = self._which_reading(under, card, pos)
        if verdict == under:
            self.tracker.misread_at(card, *pos)
            result.notes.append(f"{now} read where {was} lies: {was} came next, {now} misread")
        elif verdict is None:
            if not any(held.observation.cards == [card] for held in self.pending.values()):
                self._ask_flip(under, card, pos, corr, result)  # unless it is asked already
        else:
            self.tracker.misread_at(under, *pos)
            self._append(corr, result.announcements, result)
            result.notes.append(f"read again: {now}, not {was}")
            if "card" in (corr.get("with") or {}):
                self._spot_of[card] = pos
            else:
                self._shown_spot[card] = pos
            for pid, held in list(self.pending.items()):  # the question it answers
                if held.observation.cards == [card]:
                    del self.pending[pid]

    def _ask_flip(self, under: str, card: str, pos: tuple[float, float], corr: dict[str, Any],
                  result: FrameResult) -> None:
        """Hold the question a card read steadily as ``under`` (logged) and then steadily as
        ``card`` puts: which was it? The camera settles it if it reads ``under`` again."""
        logged = (self._logged(under) or (0, {}))[1]
        trump = logged.get("event") == "trump"
        obs = self._read_on(card, pos, logged)
        was, now = Card.parse(under).pretty(), Card.parse(card).pretty()
        answers = [Answer(f"{now}, not {was} before", (corr,)),
                   Answer(f"{was} as logged ({now} misread)", (), under)]
        fixed = corr.get("with")
        if not trump and isinstance(fixed, Mapping) and "card" in fixed:
            # Or neither: a card read two ways, each wrong, which a person names (tigullio Oh
            # Claire! 2409: Dee's Q♦ read as 9♦ and logged, then as 8♦; "something else"
            # left the person to type a correction).
            answers.append(Answer("neither: another card…",
                                  ({**corr, "with": {**fixed, "card": PICK}},)))
        if trump:
            # The turned-up trump card, read one way as it was turned and another since
            # (Oh Claire! 744: its 7♦ read 7♥ for 1.5 s, then 7♦ for the rest of the hand, and
            # the hand was refereed with hearts as trumps).
            asked = f"Trump card {was} or {now}?"
        else:
            verb = "shows" if logged.get("event") == "reveal" else "played"
            asked = f"{logged.get('player')} {verb} {was} or {now}?"
        self._hold(obs, f"read as {was}, then as {now}", corr, result, (asked, answers))

    def _recount(self, result: FrameResult, final: bool = False) -> None:
        """Contested cards (logged as one card, read as another since): once the other
        reading wins the vote, or has been read steadily for a while (``2 * reread_frames``
        of the last 2 s), the table and the vote decide (`_resolve_flip`): corrected, kept
        or asked; never kept in silence for want of frames. So too when the card goes unread
        for `LAST_WORD` s (gathered, covered) or no frame will follow (``final``), where the
        other reading had the last word (its last ``reread_frames`` readings: Great Lakes,
        seed 481, Cy's 6♠ read as 6♣ for 2 s, then as 6♠ until the video ended)."""
        for contest in list(self._contests):
            under, card, (x, y) = contest
            if self._logged(under) is None or not self.tracker.votes_at(x, y, self.tracker.t
                                                                       - 2.0):
                self._contests.remove(contest)  # a new deal, or the card is gone
                continue
            last_word = (final or not self.tracker.votes_at(
                x, y, self.tracker.t - self.LAST_WORD)) and self.tracker.last_reads(
                x, y, self.reread_frames) == [card] * self.reread_frames
            if not self._outvoted(under, card, (x, y)) and self.tracker.votes_at(
                    x, y, self.tracker.t - 2.0).get(card, 0) < 2 * self.reread_frames \
                    and not last_word:
                continue  # neither outvoted nor read steadily for a while: wait and see
            self._contests.remove(contest)
            if self._read_beside(under, card, (x, y)):
                continue  # two cards, not one read two ways: ``card`` stays a card of its own
            corr, doubted = self._correction_doubted(under, card)
            if corr is not None and not doubted:
                self._resolve_flip(under, card, (x, y), corr, result)
            elif corr is not None and not any(
                    held.observation.cards == [card] for held in self.pending.values()):
                # The camera now says ``card``, the table would take it only as a move hidden
                # hands excuse: neither may decide alone (Boodle, seed 483: Bob's last card,
                # 9♥, read 9♦ for its first 2.5 s and 9♥ from then on, was kept as 9♦).
                self._ask_flip(under, card, (x, y), corr, result)

    def _hold(self, obs: Observation, reason: str, event: dict[str, Any] | None,
              result: FrameResult,
              asked: tuple[str, list[Answer]] | None = None) -> int:
        """Hold ``obs`` (read as ``event``) for a person, for ``reason``: its question and
        one-click answers (``asked``, else `_question`'s). Its id."""
        if event is None:
            player = (self.players[obs.seat] if obs.seat is not None
                      and obs.seat < len(self.players) else None)
            event = {"event": "play", "player": player, "cards": list(obs.cards)}
        pid = next(self._ids)
        question, options = asked or self._question(obs, event)
        self.pending[pid] = Pending(pid, event, reason, obs, question, options,
                                    max(obs.t, self.tracker.t))
        reads, votes, scores = self._looks.get(obs.zone, (0, Counter(), {}))
        if event.get("event") == "reveal" and reads >= self.LOOK_MIN:
            # A hand the second look read while it waited behind another question: the hands
            # its readings make are offered at once (the table may be cleared before it looks
            # again).
            self._guesses[obs.zone] = self._hands_read(event, votes, scores, obs,
                                                       self._proofs.get(obs.zone))
            self._offer_guesses(pid, [], self._guesses[obs.zone])
            self.pending[pid].draft = self._hand_draft(event, reads, votes, scores, obs)
        result.notes.append(self.pending[pid].describe())
        return pid

    def _missed(self, skipped: str, event: Mapping[str, Any], obs: Observation) -> bool:
        """Was ``skipped`` (the card a play jumps past) played and missed by the camera,
        rather than dead? A same-suit lead after a stop is legal only where the leader holds
        no other suit allowed, and then it is the leader's: a jump by anyone else, one past a
        card the camera did read a few times lately, or one onto a pile that changed picture
        with no new card read there since the last card was logged (`_unread_change`), is put
        to a person."""
        leader = getattr(self.referee, "stop_leader", None)
        if callable(leader) and leader() not in (None, event.get("player")):
            return True
        return (self.tracker.reads_of(skipped, obs.t_still - 3.0) >= 2
                or self._unread_change(obs.zone, obs.t_still))

    def _passed_over(self, event: Mapping[str, Any], obs: Observation) -> str | None:
        """The card that comes next (J♥ after 10♥) when ``event`` is a lead in another suit
        that the rules allow only where hidden hands excuse it (`_doubt`: by someone not due
        to lead, or in a suit not allowed after the stop) and the camera read that card at
        least once in the 3 s before ``obs`` lay still as a card laid (Dee's J♥ read once as
        it landed, then the 6♠ she led on it; not a card lying still read so in a frame or
        two), or the pile the lead is laid on changed picture with no new card read since the
        last card was logged (`_unread_change`: Ann's Q♥ read by neither reader, then her 3♠
        on it): that card played and missed, likelier than a lead out of turn. So too a
        lead the rules allow onto a pile whose picture changed with no new card read there
        where the second look read that very card (`_unread`). None otherwise."""
        card = event.get("card")
        if event.get("event") != "play" or not isinstance(card, str):
            return None
        nxt = self._next_card()
        if nxt is None or nxt[1] == card[1]:
            return None
        if not self._doubt(event):
            # A lead the rules allow, onto a pile that changed picture with no new card read
            # there, where the second look read the very card that comes next (Michigan 505:
            # Ann's K♣ on her Q♣, read only by the look, like her Q♣; her 2♥ a second later).
            # So too where another player's pile changed so (`_changed_elsewhere`).
            unread = self._unread.get(obs.zone)
            return nxt if (unread is not None and unread[1] == nxt
                           and self._unread_change(obs.zone, obs.t_still)
                           or self._changed_elsewhere(obs) is not None) else None
        missed = (self.tracker.laid_reads_of(nxt, obs.t_still - 3.0) >= 1
                  or self._unread_change(obs.zone, obs.t_still))
        return nxt if missed else None

    def _looked_doubtful(self, event: Mapping[str, Any], obs: Observation) -> str:
        """Why ``event``, a play of one card read by the second look alone (`Observation.
        looked`: the table's reader read no new card on that pile), is asked: a lead the
        rules allow only where hidden hands excuse it (`_doubt`), with the look's reason.
        A move hidden hands excuse is rare, and the look reads a card it cannot see whole
        less surely than the reader (tigullio Boodle 2503: Dee's Q♦ laid after Bob's J♦,
        never read by the reader, read by the look as 6♦ in every frame it read, logged as
        her lead out of turn in silence; the Q♦ the sequence expects is among the
        answers). "" otherwise."""
        if not obs.looked or len(obs.cards) != 1:
            return ""
        doubt = self._doubt(event)
        return f"read by a second look alone; {doubt}" if doubt else ""

    def _changed_elsewhere(self, obs: Observation) -> int | None:
        """The zone of another player's pile than ``obs`` 's that came to rest in a new
        picture with no card read there by either reader after the last card was logged and
        before ``obs`` lay still (`_unread_change`): a card laid there and missed (tigullio
        Pressman 2302: Cy's 5♠ on Bob's 4♠, read in one frame as it landed, then his Q♦
        lead, never read; Bob's K♦ on the Q♦ logged in silence as his lead after the 4♠
        stopped the spades). None otherwise, and in a game of tricks (a trick gathered
        changes the piles)."""
        if obs.kind != "pile" or self._trick() is not None:
            return None
        for z in self._unread:
            seat = self.profile.zones[z].seat
            if z != obs.zone and seat is not None and seat < len(self.players) \
                    and self._unread_change(z, obs.t_still):
                return z
        return None

    def _laid_unread(self, event: Mapping[str, Any], obs: Observation) -> bool:
        """Is ``event``, a play of one card, laid on a pile that came to rest in a new
        picture after the last card was logged with no card read there by either reader
        (`_unread_change`; Boodle 903 on the held-out tigullio deck: Cy's Q♠ laid on his far
        pile and never read, then his 8♣ on it, a lead the rules allow, logged and the Q♠
        lost in silence)? A card laid and missed, or the pile only straightened: a person
        says. Not in a game of tricks, where a card missed puts the next one out of turn,
        and a trick gathered changes the piles."""
        if event.get("event") != "play" or "card" not in event or obs.kind != "pile" \
                or self._trick() is not None:
            return False
        unread = self._unread.get(obs.zone)
        return unread is not None and unread[1] is None \
            and self._unread_change(obs.zone, obs.t_still)

    def _seen_unlogged(self, event: Mapping[str, Any], obs: Observation) -> list[str]:
        """The cards nobody played this round that the table reader read on ``event`` 's
        pile, at rest in a new picture since after the last card was logged, in
        `SEEN_READS` frames or more and never logged, before the pile changed again, where
        ``event`` is a play of one card onto it (not one of those) that came to rest after
        that: a card laid and lost while its reading wavered (the cheap webcam's Boodle
        1703: Dee's 4♦ read in five frames of ten, in the others as her 2♦ under it, then
        her A♥ laid on it and logged as her lead, her hand a card short in silence). Not
        in a game of tricks (a card missed puts the next out of turn), nor where a card was
        logged into that pile less than `SEEN_MARGIN` before the change (that card, whose
        reading settles first, is what changed it). [] where there is none."""
        lost = self._seen_lost.get(obs.zone)
        card = event.get("card")
        if lost is None or event.get("event") != "play" or not isinstance(card, str) \
                or obs.kind != "pile" or self._trick() is not None:
            return []
        since, cards = lost
        last, here = self._last_play(), self._last_play(obs.seat)
        if last is None or not float(last[2].get("t", 0.0)) < since < obs.t_still \
                or (here is not None
                    and float(here[2].get("t", 0.0)) >= since - self.SEEN_MARGIN):
            return []
        return [c for c in cards if c != card and not self._round_cards.get(c, 0)]

    #: `_said_no_card_before`: how many answers "no card" are remembered.
    NO_CARD_KEPT = 16

    def _said_no_card_before(self, obs: Observation) -> bool:
        """Is ``obs`` one card read in a pile on the spot (within twice the tracker's
        ``same_spot``) where a person said the same reading was no card, the pile unmoved
        since the answer (`ZoneChanges.motions`)? The same picture, misread the same way
        again: a corner of a card under another read now and then, whose track the tracker
        forgot between the readings."""
        if obs.kind != "pile" or len(obs.cards) != 1 or len(obs.positions) != 1 \
                or self._changes is None:
            return False
        near = 2 * self.tracker.config.same_spot
        return any(zone == obs.zone and card == obs.cards[0]
                   and math.dist(spot, obs.positions[0]) <= near
                   and not any(t > said for t in self._changes.motions(zone))
                   for zone, card, spot, said in self._said_no_card)

    def _laid_unmoved(self, event: Mapping[str, Any], obs: Observation) -> str | None:
        """A card of ``event`` 's player logged into its pile this round whose spot ``event``,
        a play of one card, was read on (the last card logged there, within twice the
        tracker's ``same_spot``, else the nearest within half a card's width), where the
        pile has not begun to move between the moment it came to rest with its last card
        and the moment ``event`` lay still (`ZoneChanges.motions`, `_landed_last`): no card
        was laid on it, so this is that card read another way. The card on top (tigullio
        Great Lakes 1901: Cy's A♦ read as A♥ as it landed and logged, then read as A♦ on
        that spot 0.7 s later and logged as a lead laid on it, in silence), or one under it
        whose corner peeks out, read now and then (the cheap webcam's Michigan 2500: Bob's
        A♣, two cards down, read as 2♣ in three frames and logged as his play after Cy's
        4♠, in silence). None otherwise."""
        card = event.get("card")
        last = self._last_play(obs.seat) if obs.kind == "pile" else None
        if event.get("event") != "play" or not isinstance(card, str) or last is None \
                or last[0] == card or not obs.positions or self._changes is None:
            return None
        near = 2 * self.tracker.config.same_spot
        # (a card under the top one was logged where it lay whole: a corner of it that peeks
        # out is read up to half a card's width from there)
        spots = [(c, math.dist(spot, obs.positions[0])) for c, spot in self._spot_of.items()
                 if c != card and (c == last[0] or self._played_by.get(c) == obs.seat)]
        under = sorted((d > (near if c == last[0] else CARD_W / 2), c != last[0], d, c)
                       for c, d in spots)
        if not under or under[0][0]:
            return None
        rest = self._landed_last(obs)
        if rest is None or rest >= obs.t_still:
            return None
        moved = any(rest < t <= obs.t_still for t in self._changes.motions(obs.zone))
        return None if moved else under[0][3]

    def _read_as_logged(self, event: Mapping[str, Any], obs: Observation
                        ) -> tuple[str, tuple[str, list[Answer]]] | None:
        """A card of ``event``, a play of several cards come to rest at once in a pile,
        whose spot the tracker has also read, since its first reading there and in other
        frames, as a card easily taken for it that this pile's player laid there earlier
        this round: one card lying there, read two ways. A card laid beside it covers part
        of it, and its box, and so its spot, moves (tigullio Great Lakes 1906: Dee's J♥,
        logged in her dump, read in turn as K♥ and J♥ once her 7♠ covered its lower half,
        and logged as a K♥ lead after the 7♠, in silence). The reason, and the question with
        the play without that card first; None otherwise."""
        cards = [str(c) for c in event.get("cards") or []]
        if event.get("event") != "play" or len(cards) < 2 or obs.kind != "pile" \
                or obs.seat is None:
            return None
        at = dict(zip(obs.cards, obs.positions, strict=False))
        for card in cards:
            if card not in at:
                continue
            x, y = at[card]
            mine = self.tracker.read_times(card, x, y)
            if not mine:
                continue
            under = next((other for other in confusable(card)
                          if other not in obs.cards and self._round_cards.get(other, 0)
                          and self._played_by.get(other) == obs.seat
                          and self.tracker.read_times(other, x, y, min(mine)) - mine), None)
            if under is None:
                continue
            rest = [c for c in cards if c != card]
            one = {k: v for k, v in event.items() if k != "cards"}
            without = {**one, "card": rest[0]} if len(rest) == 1 else {**one, "cards": rest}
            said, misread = " ".join(pretty_cards(cards)), Card.parse(card).pretty()
            answers = [Answer(f"{' '.join(pretty_cards(rest))} ({misread} is the "
                              f"{Card.parse(under).pretty()} read again)", (without,))
                       ] if self._accepts_all([without]) else []
            answers.append(Answer(f"{said} as read", (dict(event),)))
            return f"{misread} read where {Card.parse(under).pretty()} lies, read as both", \
                (f"{event.get('player')} played {said}?", answers)
        return None

    def _landed_last(self, obs: Observation) -> float | None:
        """When ``obs`` 's pile came to rest in the new picture its last card logged made
        (`ZoneChanges.landings`: the first such rest within `SEEN_MARGIN` / 2 before that
        card's time, or after it); None where none of its player's cards was logged this
        round, or the pile has not come to rest so since."""
        return self._pile_landed(obs.seat, obs.zone) if obs.kind == "pile" else None

    def _pile_landed(self, seat: int | None, zone: int) -> float | None:
        """`_landed_last` for ``seat`` 's pile, ``zone``."""
        here = self._last_play(seat) if seat is not None else None
        if here is None or self._changes is None:
            return None
        logged = float(here[2].get("t", 0.0)) - self.SEEN_MARGIN / 2
        return next((t for t in self._changes.landings(zone) if t >= logged), None)

    def _pile_unmoved(self, seat: int, zone: int) -> bool:
        """Whether ``seat`` 's pile, ``zone``, came to rest with the last card its player
        logged there (`_pile_landed`) and has not begun to move since (`ZoneChanges`): no
        card was laid on it since. False where that is not known."""
        rest = self._pile_landed(seat, zone)
        return (rest is not None and self._changes is not None
                and not any(t > rest for t in self._changes.motions(zone)))

    def _unlogged_landings(self, obs: Observation) -> int:
        """How many times ``obs`` 's pile came to rest in a new picture (a card laid, most
        often) after the one that its last card logged made (`_landed_last`) and before
        ``obs`` lay still: cards laid there and never logged. 0 where none of its player's
        cards was logged this round."""
        base = self._landed_last(obs)
        if base is None or self._changes is None:
            return 0
        return sum(base < t < obs.t_still for t in self._changes.landings(obs.zone))

    def _laid_more(self, event: Mapping[str, Any], obs: Observation) -> bool:
        """Is ``event`` a play of one card, in a game whose moves may be several cards at
        once, onto a pile whose picture changed over more than one card covers
        (`MORE_THAN_A_CARD`)? The other cards of a move laid with it, never read (tigullio
        Great Lakes 1701: Bob's dump J♦ Q♠ K♦ A♣ read as his A♣ and logged so in silence,
        his hand shown three cards short at the end): a person says."""
        if self.game not in self.SEVERAL_AT_ONCE or event.get("event") != "play" \
                or "card" not in event or obs.kind != "pile" or self._changes is None \
                or self._frame is None:
            return False
        share = self._changes.changed_share(self._frame, obs.zone, obs.t_still)
        return share is not None and share > self.MORE_THAN_A_CARD

    def _doubted_part(self, event: Mapping[str, Any]) -> str:
        """The rule set's doubt (`_doubt`) about the first card of ``event``, a play of
        several cards at once but fewer than a move of several lays (a Great Lakes dump or
        straight, GL-3 and GL-4: `SEVERAL_AT_ONCE`), or "". Cards laid at once that only
        hidden hands excuse are more likely part of such a move read in part than a lead
        (tigullio Great Lakes 2001: Bob's straight J♣ Q♣ K♣ A♥ after Ann's 10♣ read as A♥
        Q♣, taken for an A♥ lead with the J♣ dead and a Q♣ lead after the ace, in
        silence). The table waits `PART_WAIT` s for the rest of the move before it asks."""
        cards = event.get("cards") or []
        size = self.SEVERAL_AT_ONCE.get(self.game)
        if event.get("event") != "play" or size is None or not 1 < len(cards) < size:
            return ""
        first = {k: v for k, v in event.items() if k != "cards"}
        return self._doubt({**first, "card": str(cards[0])})

    def _fits_move(self, cards: Sequence[str]) -> bool:
        """Whether ``cards`` with the card the sequence stopped at (the one before
        `_next_card`) can still be part of a full house or a five-card straight, ace high
        (GL-3, GL-4): what the rest of a move read in part must keep, where a player's next
        lead does not (Great Lakes 2001: Bob's 2♣ and 3♣ led after his straight, read as
        A♥ Q♣, would make "A♥ Q♣ 2♣ 3♣" a move of four)."""
        nxt = self._next_card()
        if nxt is None:
            return False
        ranks = [Card.parse(nxt).rank - 1, *(Card.parse(c).rank for c in cards)]
        if len(ranks) > 5:
            return False
        counts = sorted(Counter(ranks).values())
        house = len(counts) <= 2 and counts[-1] <= 3 and counts != [3, 3]
        return house or (len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) <= 4)

    #: Seconds a part of a move doubted (`_doubted_part`) waits for the rest of its cards
    #: before it is held: longer than `READ_IN_TWO`, the gap within which the rest read
    #: after it is offered with it as one move (Great Lakes 3406: the rest read 2.6 s on).
    PART_WAIT = 3.0

    def _landed_with(self, obs: Observation, event: Mapping[str, Any]) -> str | None:
        """The card the camera logged in the same pile that came to rest less than
        `ONE_LANDING` before this single card (Cy's A♠ read as his K♠ landed, a second box
        on the 2♠ under it): one hand does not lay two cards one after the other so fast,
        so this reading is a card under the new one misread, or the rest of the same move,
        and a person says which. None otherwise."""
        if event.get("event") != "play" or "card" not in event or obs.kind != "pile":
            return None
        landed = self._landed.get(obs.zone)
        if landed is None or not 0.0 <= obs.t_still - landed[0] < self.ONE_LANDING:
            return None
        return landed[1]

    def _unread_change(self, zone: int, before: float) -> bool:
        """Did pile ``zone`` come to rest in a new picture that no reading explained after
        the last card was logged and before ``before`` (Bob's K♠ laid on his Q♠ and read as
        that Q♠: his A♠ then is no lead after a stop)?"""
        unread = self._unread.get(zone)
        last = self._last_play()
        if unread is None or last is None:
            return False
        return float(last[2].get("t", 0.0)) < unread[0] < before

    def _question(self, obs: Observation, event: Mapping[str, Any]
                  ) -> tuple[str, list[Answer]]:
        """The question for a held reading and its one-click answers, the likeliest first:
        the cards the camera also read on that spot, then the cards it is easily taken for;
        only answers the table accepts (no card played twice, no rule broken). Where a hand
        shown fits the log once a play it lacks is put in earlier (`_missed_earlier`), those
        places are offered too: after the answers that name who played the card that would
        end the round now (`_ran_out`) or after a single card's own answers (it may be a play
        as read); first for a hand of several cards."""
        if (obs.kind != "pile" or obs.seat is None or obs.seat >= len(self.players)
                or self.game == "wanagan"):
            return "", []
        ran_out = self._ran_out(obs)
        missed = self._missed_earlier(obs)
        picks = self._last_card_picks(obs)
        if ran_out is not None:
            # Its answers stay named by player (the second look hunts the piles for the card,
            # `_unseen_card`); a place earlier in the round is one more answer, and a last
            # card of another's that a person names.
            named = [a.events for a in ran_out[1]]
            # And the card as read, a play of its own, where the log takes it (Great Lakes
            # 3381 at 5% misread: Cy's K♣ led where a red lead was due, hidden hands
            # excusing it; asked "K♠ was not seen: who played it?" with no answer for it).
            card = event.get("card")
            as_read = [Answer(f"nobody ({Card.parse(str(card)).pretty()} as read)",
                              (dict(event),))] \
                if event.get("event") == "play" and isinstance(card, str) \
                and not self._round_cards.get(card, 0) and self._accepts(dict(event))[0] \
                else []
            return ran_out[0], [*ran_out[1], *(a for a in missed if a.events not in named),
                                *picks, *as_read]
        if missed or len(obs.cards) > 1:
            # (a single card with no place that fits is a play, not a hand shown)
            missed = [*missed, *picks]
        question, options = self._question_read(obs, event)
        if not missed and event.get("event") == "reveal":
            # A hand a card short once the round is over: one of that player's plays missed.
            known = [a.events for a in options]
            # A card the second look read in that pile beyond the hand read may be a play of
            # theirs read late, never logged, as well as a card of the hand (tigullio Great
            # Lakes 1106: Cy's K♦, laid on his 10♠ before Dee's A♦, first read as the round
            # ended; "2♦ K♦" was offered, and no place for the K♦ played).
            looked = self._looked_beside(obs.zone, event)
            short = [a for a in self._missed_by(dict(event), looked) if a.events not in known]
            twice = self._one_read_twice(obs, event)
            if short and (not question or not options):
                # (a hand of one card read as it is, with no answer of its own, is asked
                # about as the hand a card short: Great Lakes 22, "Bob shows A♣?")
                question = _short_hand_question(event)
            elif twice and not question:
                question = f"{event.get('player')} shows " \
                           f"{' '.join(pretty_cards(list(event.get('cards') or [])))}?"
            return question, [*twice, *options, *short]
        if not missed:
            return question, options
        if len(obs.cards) == 1:
            # One card may be a play as read: the question stays; the places follow.
            return question, [*options, *missed]
        shown = " ".join(pretty_cards(list(obs.cards)))
        return (f"{self.players[obs.seat]} shows {shown}: was a card played and not seen?",
                [*missed, *options])

    def _one_read_twice(self, obs: Observation, shown: Mapping[str, Any]) -> list[Answer]:
        """Answers for a hand ``shown`` once the log says the round is over, in a game whose
        moves are one card, where a player had two plays logged from one reading (one still,
        two cards): one of the two may be one card read twice (a corner of it read with a
        covered card's index peeking out beside it). Each of the two withdrawn in turn, where
        the log then takes the reading: as the hand, its player holding a card fewer by the
        log than it shows; or, one card laid, as a play, its player or another having gone
        out by the log with that card read twice (tigullio Boodle 1603: Bob's 8♥, laid on his
        pile, read as 8♥ and, with his 9♣ peeking out under it, 9♥, 13.8 units apart, beyond
        `_one_place`'s reach; he went out by the log with his 5♣, and his K♥, his last card,
        was then asked as a hand he no longer held, with nothing to answer)."""
        ref = self.referee
        if ref is None or self.game in MOVES_OF_SEVERAL or obs.seat is None \
                or ref.expects() != frozenset({"reveal"}):
            return []
        who = self.players[obs.seat]
        cards = [str(c) for c in shown.get("cards") or []]
        if not cards:
            return []
        play = {"event": "play", "player": who, "card": cards[0], **stamp(obs)}
        lines = sorted(self._line_of.values(), key=lambda line: line[0])
        answers: list[Answer] = []
        for (first, a), (second, b) in zip(lines, lines[1:], strict=False):
            player = str(a.get("player"))
            if second != first + 1 or b.get("player") != player or "t" not in a \
                    or a.get("t") != b.get("t"):
                continue
            # What the reading then logs, and how people read that: one card laid, a play,
            # where that player went out by the log; the hand as the question shows it, where
            # it is that player's, a card longer than they hold by the log.
            logs: list[tuple[dict[str, Any], str]] = []
            if len(cards) == 1 and _holds(ref, player) == 0:
                logs.append((play, f"{who} played {' '.join(pretty_cards(cards))}; "))
            if player == who and _holds(ref, who) == len(cards) - 1:
                logs.append((dict(shown), ""))
            for line, gone, kept in ((second, b, a), (first, a, b)):
                for logged, said in logs:
                    fix = ({"event": "correct", "line": line, "with": None}, logged)
                    if self._accepts_after(fix):
                        no, twice = (Card.parse(str(e["card"])).pretty() for e in (gone, kept))
                        answers.append(Answer(f"{said}{player} played no {no} (the {twice} "
                                              "read twice)", fix))
        return answers

    def _question_read(self, obs: Observation, event: Mapping[str, Any]
                       ) -> tuple[str, list[Answer]]:
        """`_question` for the reading as it is (no play missed long ago)."""
        if obs.seat is None:
            return "", []
        # A hand shown short of a card read in it that another player's move logged: that
        # move misread, the card this player's (Ann's K♠ read as K♣, Bob's K♣ then left out
        # of his hand; so too where that leaves one card shown, Great Lakes 536).
        also = list(dict.fromkeys(
            c for c, t in self._read_elsewhere.get(obs.zone, [])
            if t >= obs.t_still - 5.0 and c not in (event.get("cards") or [])))
        fixes: list[Answer] = []
        if event.get("event") == "reveal" and also:
            whole = {**event, "cards": [*event["cards"], *also]}
            mine = " ".join(pretty_cards(also))
            fixes = [Answer(f"{a.label}; {mine} in {event.get('player')}'s hand", a.events)
                     for a in self._earlier_misread(whole)]
        if len(obs.cards) != 1 and event.get("event") == "play" and not fixes \
                and self.game == "great-lakes" and (  # GL-3, GL-4: the only moves of several
                (missed := self._missed_before_move(dict(event))) is not None
                or (missed := self._move_card_short(dict(event))) is not None
                or (missed := self._move_read_in_two(dict(event), obs.t_still)) is not None):
            return missed
        if len(obs.cards) != 1 or fixes:
            if len(obs.cards) != 1 and event.get("cards"):
                fixes = [*fixes, *self._plays_one_by_one(dict(event), obs),
                         *self._own_hand_misread(event),
                         *self._read_twice(dict(event), obs),
                         *self._earlier_misread(dict(event)),
                         *self._shown_misread(dict(event))][:3]
                if not fixes and event.get("event") == "reveal":
                    fixes = self._covered_misread(dict(event)) \
                        or self._misread_in_two(dict(event))
                if event.get("event") == "reveal":
                    # (the other player's play named: so too where nothing else fits, a hand
                    # read right against a play misread, tigullio Pressman 2707)
                    fixes = [*fixes, *self._plays_named(dict(event))]
            if not fixes:
                return "", []
            verb = "hand" if event.get("event") == "reveal" else "play"
            return (f"Confirm {event.get('player')}'s {verb}: "
                    f"{' '.join(pretty_cards(list(event['cards'])))}?", fixes)
        player = self.players[obs.seat]
        read = obs.cards[0]
        extra = {k: event[k] for k in ("t", "confidence") if k in event}
        kind = str(event.get("event") or "play")

        def ev(card: str, who: str = player) -> dict[str, Any]:
            if kind == "reveal":
                return {"event": "reveal", "player": who, "cards": [card], **extra}
            return {"event": "play", "player": who, "card": card, **extra}

        unplayed = [c for c in CARD_CODES if self._round_cards.get(c, 0) == 0]
        options: list[Answer] = []
        if self._round_cards.get(read, 0) == 0 and self._accepts(ev(read))[0]:
            options.append(Answer(Card.parse(read).pretty(), (ev(read),)))
        votes = obs.votes[0] if obs.votes else {}
        seen = sorted((c for c in votes if c != read), key=lambda c: -votes[c])
        for alt in [*seen, *confusable(read), *lookalikes(read)[3:]]:
            if len(options) >= 4:
                break
            if alt in unplayed and not any(a.events[-1] == ev(alt) for a in options) \
                    and self._accepts_all([ev(alt)]):
                options.append(Answer(Card.parse(alt).pretty(), (ev(alt),), alt))
        # Or the card the sequence expects, read as something else altogether (public: it
        # follows from the table; Cy's A♣ read as Q♠, a card already played).
        expected = self._next_card() if kind == "play" else None
        if expected is not None and expected in unplayed and expected != read \
                and not any(a.events[-1] == ev(expected) for a in options) \
                and self._accepts_all([ev(expected)]):
            options.append(Answer(Card.parse(expected).pretty(), (ev(expected),), expected))
        if expected is not None and expected in unplayed and read not in unplayed:
            # A card played already is read wrong: the card the sequence expects may have
            # been laid first by this player, never read, then the card read, one easily
            # taken for it (tigullio Boodle 308: Dee's Q♥ laid on her J♥, never read, her J♣
            # laid on it read as K♣, Bob's: "Q♥" alone left the J♣ lost). "Q♥, then J♣".
            for k in range(len(options) - 1, -1, -1):
                named = options[k].card
                if named is None or named == expected or len(options[k].events) != 1:
                    continue
                both = (ev(expected), ev(named))
                if self._accepts_all(list(both)):
                    options.insert(k + 1, Answer(f"{Card.parse(expected).pretty()}, then "
                                                 f"{Card.parse(named).pretty()}", both))
        # Or it lies where a card logged this round was read: that card, read wrong before.
        # Farther off, within half a card's diagonal, so too the last card logged in this
        # player's pile where the two are lookalikes: its corner index, read right once a
        # card laid on it leaves only that corner showing (tigullio Boodle 103: Cy's A♦ read
        # as A♥ and logged, then read as A♦ 10.8 units off under his K♥; the question had
        # no answer that mended the A♥).
        if obs.positions:
            x, y = obs.positions[0]
            close = 1.5 * self.tracker.config.same_spot
            for under, (ux, uy) in list(self._spot_of.items()):
                apart = float(np.hypot(ux - x, uy - y))
                on_spot = apart <= close and not self._covered(under, (x, y))
                on_top = (not on_spot and apart <= HALF_DIAGONAL and obs.seat is not None
                          and self._played_by.get(under) == obs.seat
                          and not self._covered(under) and either_alike(under, read))
                if (under != read and (on_spot or on_top)
                        and (corr := self._correction(under, read)) is not None):
                    options.insert(0, Answer(f"{Card.parse(read).pretty()}, not "
                                             f"{Card.parse(under).pretty()} before", (corr,)))
                    if on_spot:
                        self._contests.append((under, read, (x, y)))
        if kind == "play" and not (read in unplayed and self._accepts_all([ev(read)])
                                   and self._skipped(ev(read)) is None):
            earlier = self._misread_before(ev(read))
            options[:0] = [*earlier, *(self._last_card_late(ev(read), obs)
                                       if read in unplayed else []),
                           *(self._came_before(ev(read), obs)
                             if read in unplayed else []),
                           *(self._read_late(ev(read), obs) if read in unplayed else [])]
            if read in unplayed:
                options[len(earlier):len(earlier)] = [
                    a for a in self._before_lookalike(ev(read), obs)
                    if all(a.events != o.events for o in options)]
            else:
                options[:0] = self._read_on_another(ev(read), obs)
                # Or the card logged before was another card altogether, none easily taken
                # for it, which a person names (tigullio Oh Claire! 1704: Cy's Q♦ read as 8♦
                # and logged; his 8♦, played two tricks later, then "was played by Cy in a
                # trick taken since", every answer a lookalike of one 8♦ or the other).
                instead = self._named_instead(read)
                if instead is not None:
                    options.append(Answer(
                        f"{instead['with'].get('player')}'s {Card.parse(read).pretty()} before "
                        "was another card…", (instead, ev(read))))
                # Or, read on this pile just as its last card landed, that card read again:
                # one click that logs nothing (tigullio Pressman 2302: Cy's 2♥ read as 2♣,
                # Bob's, 0.1 s after it came to rest; "Cy played 2♣?" was answered by hand).
                landed = self._landed_with(obs, ev(read))
                if landed is not None and landed != read:
                    options.insert(0, read_again(landed))
        elif kind == "reveal" and read not in unplayed:
            # A card shown that was logged as played: that play misread (Boodle 1638: Cy's
            # J♦ read as Q♦, then Ann's last card, the Q♦, shown).
            options[:0] = self._misread_before(ev(read))
        elif kind == "play" and read in unplayed:
            # A play the table accepts but doubts (a lead out of colour): a card logged just
            # before, misread as its lookalike, after which this one is the very card the
            # sequence expects, explains it too, after this card's own lookalikes (Great
            # Lakes, seed 346: Bob's 6♥ read as 6♦ for seconds, then his 7♥ "after 6♦ the
            # lead is in a black suit").
            options.extend(self._misread_before(ev(read), following=True))
            # Or a card read on the pile before it and never logged (`_seen_unlogged`),
            # laid before it: likelier than the reading alone.
            first = [Answer(f"{Card.parse(c).pretty()}, then {Card.parse(read).pretty()}",
                            (ev(c), ev(read)))
                     for c in self._seen_unlogged(ev(read), obs)
                     if self._accepts_all([ev(c), ev(read)])]
            options[:0] = first
            if self._doubt(ev(read)) or self._laid_unread(ev(read), obs) or first:
                # Or a card of the same player's never read just before it, after which it
                # is an ordinary play (Boodle 402: Cy's 2♦ led after his 6♥ stopped the
                # hearts, never read; his 2♥ lead next read as a heart led after hearts, and
                # its lookalike 2♦ taken for it, the 2♥ then lost). A person names it. So
                # too a play the rules allow onto a pile that changed with no card read
                # (`_laid_unread`).
                options.append(Answer(f"{player}: another card before this "
                                      f"{Card.parse(read).pretty()}…",
                                      (ev(PICK), ev(read))))
        refused = not self._accepts_all([ev(read)])
        if refused:
            # A card of this player's hand shown, logged as a card it is easily taken for.
            options[:0] = [a for a in self._own_hand_misread(ev(read))
                           if all(a.events != o.events for o in options)]
        if kind == "play" and self.game in self.SEVERAL_AT_ONCE and refused:
            # The last card of a move read in two, the rest logged as a play just before
            # (Great Lakes 3411 at 10% misread: Ann's dump K♠ 9♠ 10♠ J♠ logged as 9♠ 10♠ J♠,
            # her K♠ then "would break a rule").
            joined = self._move_read_in_two(ev(read), obs.t_still)
            options[:0] = joined[1] if joined is not None else []
        skipped = self._skipped(ev(read))
        passed = self._passed_over(ev(read), obs) if kind == "play" else None
        if kind == "play" and read in unplayed and (
                skipped is not None or passed is not None or refused):
            # A card the camera missed: one unseen card played before this one makes the
            # reading fit (a sequence that jumps, 5♣ then 7♣: who played 6♣?; a lead out of
            # turn, 10♥ then 6♠, just after J♥ was read: who played J♥?).
            # The reading's own answers follow the missed card's, named as such.
            others = [replace(a, label=f"nobody ({a.label} as read)"
                              if a.events == (ev(read),)
                              else f"it was {a.label}" if a.card else a.label)
                      for a in options]
            # Its pile lay still since before plays logged meanwhile: it was laid before them
            # and read only now (the cheap webcam's Boodle 1703: Bob's 2♣ lead, read in one
            # frame in three until Cy's 3♣ was logged, then "shows Cy's 3♣ broke a rule").
            rested = self._rested_before(ev(read), obs)
            if rested:
                return (f"{player}'s {Card.parse(read).pretty()} lay there before it was "
                        f"read: played earlier?", [*rested, *(
                            o for o in others if all(o.events != a.events for a in rested))])
            due = self._trick_turn(player)
            if due is not None:
                cands = self._due_cards(due, read, unplayed, ev)
                # (and any other card of theirs, named by a person: a player void in the
                # suit led may have laid any card)
                answers = [*(Answer(Card.parse(c).pretty(), (ev(c, due), ev(read)))
                             for c in cands),
                           Answer(f"{due}: another card…", (ev(PICK, due), ev(read)))]
                # Or a card missed a play or more before (the trick before won by another
                # player, who then led): its places follow the due player's cards.
                broken = self._missed_before_broken(ev(read), 2 * len(self.players))
                if broken is not None and not cands:
                    return broken[0], [*broken[1], *answers, *others]
                if broken is not None:
                    # (the likeliest first: Oh Claire! 364, Ann's 6♣ never read, her 7♦
                    # then logged to that trick, first of six; all were left out for six)
                    answers[-1:-1] = broken[1][:self.BROKEN_BESIDE]
                return (f"{due}'s card before {player}'s {Card.parse(read).pretty()} "
                        f"was not seen: which was it?", answers + others)
            rank = RANKS.index(read[0])
            near = [passed] if passed is not None else sorted(
                (c for c in unplayed if c[1] == read[1] and RANKS.index(c[0]) < rank),
                key=lambda c: (c != skipped, abs(RANKS.index(c[0]) - rank + 1)))
            # The player whose pile changed unread, else the one who led: most often the
            # missed card was theirs.
            elsewhere = self._changed_elsewhere(obs) if passed is not None else None
            there = None if elsewhere is None else \
                replace(obs, zone=elsewhere, seat=self.profile.zones[elsewhere].seat)
            owner = player if there is None or there.seat is None else self.players[there.seat]
            for missing in near[:4]:
                order = sorted(self.players, key=lambda p: p != owner) \
                    if passed is not None else self.players
                who = [p for p in order if self._accepts_all([ev(missing, p), ev(read)])]
                answers = [Answer(p, (ev(missing, p), ev(read))) for p in who]
                if player in who and self._unlogged_landings(obs) >= 2:
                    # Its pile took two cards or more since its last card logged: this
                    # player's, and another laid after it, a person names (tigullio Great
                    # Lakes 1806: Cy's 7♣ and his J♦ lead after it, neither read, then his
                    # 5♠ lead; "Cy" alone lost the J♦).
                    answers.insert(who.index(player) + 1, Answer(
                        f"{player}, then another card before this "
                        f"{Card.parse(read).pretty()}…",
                        (ev(missing, player), ev(PICK), ev(read))))
                if there is not None and owner != player and (
                        owner not in who or self._unlogged_landings(there) >= 2):
                    # The card of the player whose pile changed unread, then another of
                    # theirs laid on it and missed too, this card following that one
                    # (Pressman 2302: Cy's 5♠, then his Q♦ lead, neither read, then Bob's
                    # K♦; "Cy" alone lost the Q♦).
                    answers.insert(who.index(owner) + 1 if owner in who else 0, Answer(
                        f"{owner}, then another card of {owner}'s before this "
                        f"{Card.parse(read).pretty()}…",
                        (ev(missing, owner), ev(PICK, owner), ev(read))))
                if answers:
                    return (f"{Card.parse(missing).pretty()} was not seen: who played it?",
                            answers + others)
            # Or it shows that an earlier play broke a rule, a card before that one never read.
            broken = self._missed_before_broken(ev(read))
            if broken is not None:
                return broken[0], [*broken[1], *others]
        verb = "shows" if kind == "reveal" else "played"
        return f"{player} {verb} {Card.parse(read).pretty()}?", options

    #: `_missed_before_move`: a held move of more cards than this is not split (a dump of
    #: four and the two leads that may follow it before it settles).
    MOVE_MOST = 6
    #: `_move_card_short`: at most this many cards offered (short labels, as `DUE_MOST`: a
    #: straight short of an end card fits either end, four suits each).
    MOVE_SHORT_MOST = 9

    def _missed_before_move(self, event: dict[str, Any]) -> tuple[str, list[Answer]] | None:
        """A held move of several cards that the table takes once one card nobody was seen
        to play was played just before it: the move is a dump or a straight (GL-3, GL-4) on
        that card, the card after it in its suit first, and the cards laid beyond its four
        are the leads that followed it before it came to rest (Great Lakes 20: Ann's 6♥
        never read, Bob's dump 7♥ 8♥ 9♣ 10♣ with his 3♠ lead read as one move: "6♥ was not
        seen: who played it?"; the card missed may be a lead, 3♥ under Ann's dump 4♥ 2♠ 5♦
        6♣). The card the sequence expects is tried first, then the card below each card
        of the move. One answer per player and card that fit, with the first way of
        splitting the move that the table then takes whole, breaking no rule; at most
        `MISSED_MOST`; None where none fits."""
        cards = list(dict.fromkeys(str(c) for c in event.get("cards") or []))
        if not 4 <= len(cards) <= self.MOVE_MOST:
            return None
        below = [b for c in cards if (b := _in_suit(c, -1))]
        expected = self._next_card()
        missing = [c for c in dict.fromkeys([*([expected] if expected else []), *below])
                   if not self._round_cards.get(c, 0) and c not in cards]
        player = event.get("player")
        answers: list[tuple[str, Answer]] = []
        for card in missing:
            first = _in_suit(card, 1)
            if first is None or first not in cards:
                continue
            splits = _move_splits(event, first, cards)
            for who in self.players:
                unseen = {"event": "play", "player": who, "card": card}
                fits = next((s for s in splits if self._accepts_all([unseen, *s])), None)
                if fits is not None:
                    answers.append((card, Answer(f"{who} played {Card.parse(card).pretty()}",
                                                 (unseen, *fits))))
        # A missed card that only hidden hands would excuse (a lead out of turn) is left out
        # where a plain one fits.
        plain = [(c, a) for c, a in answers if not self._doubt(a.events[0])]
        answers = plain or answers
        if not answers or len(answers) > self.MISSED_MOST:
            return None
        if len({card for card, _ in answers}) == 1:
            card = answers[0][0]
            return (f"{Card.parse(card).pretty()} was not seen: who played it?",
                    [Answer(str(a.events[0]["player"]), a.events) for _, a in answers])
        return (f"A card before {player}'s {' '.join(pretty_cards(cards))} was not seen: "
                f"which was it?", [a for _, a in answers])

    def _move_read_in_two(self, event: dict[str, Any], still: float
                          ) -> tuple[str, list[Answer]] | None:
        """A held play (of several cards, or one) that came to rest at ``still``, right after
        the same player's play logged last (in `READ_IN_TWO` s), that makes a move with it: a
        dump or a straight (GL-3, GL-4) read in two, its first cards as they landed and
        logged as a play of their own, the rest with the leads that followed read once it
        came to rest (Great Lakes 3406 at 10% misread: Cy's straight 8♥ 4♣ 5♣ 6♦ logged as
        4♣ 5♣, then 6♦ 8♥ and his 7♦ lead read as one move). One answer per way of
        splitting the cards of both into the move and its leads (`_move_splits`) that the
        log takes, the line logged becoming the move, at most `MISSED_MOST`; None where none
        fits."""
        from companion.events import apply_corrections

        who = event.get("player")
        cards = list(dict.fromkeys(str(c) for c in event.get("cards") or [event.get("card")]))
        events = read_log(self.log.path).events
        resolved, _ = apply_corrections(events)
        last = next((e for e in reversed(resolved) if e.kind in ("play", "reveal", "trump")),
                    None)
        if last is None or last.kind != "play" or last.data.get("player") != who \
                or not 0.0 <= still - float(last.data.get("t", -99.0)) <= self.READ_IN_TWO:
            return None
        before = [str(c) for c in last.data.get("cards") or [last.data.get("card")]]
        union = [*before, *(c for c in cards if c not in before)]
        if not 4 <= len(union) <= self.MOVE_MOST:
            return None
        read = (events, replay(events))
        answers: list[Answer] = []
        for first in union:
            for split in _move_splits({**last.data, **event}, first, union):
                fixed = [{"event": "correct", "line": last.line, "with": split[0]},
                         *split[1:]]
                if not self._accepts_after(fixed, read):
                    continue
                leads = pretty_cards([str(e["card"]) for e in split[1:]])
                label = " ".join(pretty_cards(list(split[0]["cards"])))
                answers.append(Answer("one move: " + label
                                      + "".join(f", then {c}" for c in leads), tuple(fixed)))
        if not answers or len(answers) > self.MISSED_MOST:
            return None
        return (f"{who} played {' '.join(pretty_cards(cards))} after "
                f"{' '.join(pretty_cards(before))}: one move, read in two?", answers)

    #: Seconds between a play logged and a move of the same player's read after it within
    #: which the two may be one move read in two (`_move_read_in_two`).
    READ_IN_TWO = 2.5

    def _move_card_short(self, event: dict[str, Any]) -> tuple[str, list[Answer]] | None:
        """A held move of several cards that is a dump or a straight (GL-3, GL-4) on the card
        last played once one card more, never read, is put in it (its first card, the one
        the sequence expects, or one of the other three; Great Lakes 20: Cy's straight 7♦ 8♦
        9♠ 10♦ read without its 9♠): "Cy's move 10♦ 8♦ 7♦ 3♥ is a card short: which card was
        not seen?", one answer per card nobody played, shows or is read on the table now
        that makes the table take it whole (the leads laid with it after it), breaking no
        rule; at most `MOVE_SHORT_MOST`, else None."""
        expected = self._next_card()
        cards = list(dict.fromkeys(str(c) for c in event.get("cards") or []))
        if expected is None or not 3 <= len(cards) < self.MOVE_MOST:
            return None
        unseen = self._unaccounted(cards)
        if expected not in cards:
            unseen = [expected] if expected in unseen else []
        answers: list[Answer] = []
        for card in unseen:
            whole = [*cards, card]
            fits = next((s for s in _move_splits(event, expected, whole)
                         if self._accepts_all(s)), None)
            if fits is not None:
                answers.append(Answer(Card.parse(card).pretty(), tuple(fits), card))
                if len(answers) > self.MOVE_SHORT_MOST:
                    return None
        if not answers:
            return None
        return (f"{event.get('player')}'s move {' '.join(pretty_cards(cards))} is a card "
                f"short: which card was not seen?", answers)

    def _trick(self) -> list[Any] | None:
        """The trick being played, in a game of tricks (Oh Claire!); None elsewhere."""
        trick = getattr(getattr(self.referee, "state", None), "trick", None)
        return trick if isinstance(trick, list) else None

    def _trick_turn(self, player: str) -> str | None:
        """In a game of tricks (Oh Claire!), the player whose turn it is, where that is not
        ``player`` (who then plays out of turn, or after a card the camera missed); None
        elsewhere."""
        turn = getattr(self.referee, "turn", None)
        due = turn() if self._trick() is not None and callable(turn) else None
        return due if isinstance(due, str) and due != player else None

    def _due_cards(self, due: str, read: str, unplayed: Sequence[str],
                   ev: Callable[..., dict[str, Any]]) -> list[str]:
        """The cards ``due`` may have played, unseen, before the card ``read`` (of another
        player) in a trick: at most `DUE_MOST`, those the camera glimpsed in their pile
        first, then the suit led (``read`` 's where ``due`` led), nearest in rank to
        ``read`` first; only where both plays then break no rule."""
        led = _led_suit(self.referee) or read[1]
        seat = self.players.index(due) if due in self.players else -1
        rank = RANKS.index(read[0])
        glimpsed = {c for c in unplayed if seat in self._glimpsed.get(c, set())}
        order = sorted((c for c in unplayed if c in glimpsed or c[1] == led),
                       key=lambda c: (c not in glimpsed, c[1] != led,
                                      abs(RANKS.index(c[0]) - rank)))
        out: list[str] = []
        for c in order:
            if len(out) >= self.DUE_MOST:
                break
            if c != read and self._accepts_all([ev(c, due), ev(read)]):
                out.append(c)
        return out

    def _misread_before(self, event: dict[str, Any], plays: int = 4,
                        following: bool = False) -> list[Answer]:
        """Answers where one of the last ``plays`` cards logged this round was misread: read
        as a card it is easily taken for (or for which it is), the log then accepts ``event``
        as read, breaking no rule (6♦ played twice: the first was 5♦; 9♦ then 7♦: the 9♦ was
        6♦), and the play of ``event`` 's card (or of the one card of a hand shown) when it
        was logged this round, however long ago. Each answer corrects that card and logs
        ``event``. With ``following``, only the answers after whose correction ``event`` 's
        card is the one the sequence expects."""
        events = read_log(self.log.path).events
        n = self.log.lines
        recent = sorted(self._line_of.items(), key=lambda item: -item[1][0])[:plays]
        twice = str(event.get("card") or (event.get("cards") or [None])[0])
        first = self._logged(twice)  # (a single play, or a card of a move of several cards)
        if first is not None and first[1].get("event") == "play" \
                and all(logged != twice for logged, _ in recent):
            recent.append((twice, first))
        # And the cards logged up to the play that ``event`` proves broke a rule, however long
        # ago (Oh Claire! 1954: Cy's A♦ lead read as A♥; Dee's 4♦ on it was proven a revoke
        # only by her 3♥ five plays later).
        now = replay([*events, Event(event, n + 1)])
        broken = {v.line for v in (now.referee.violations if now.referee else [])
                  if v.proof_line == n + 1 and v.line <= n}
        proven = {code: logged_at for code, logged_at in sorted(self._line_of.items(),
                                                                key=lambda item: -item[1][0])
                  if any(line - plays < logged_at[0] <= line for line in broken)}
        recent += [(code, logged_at) for code, logged_at in proven.items()
                   if all(code != logged for logged, _ in recent)]
        answers: list[tuple[bool, bool, Answer]] = []
        # (the cards this one follows in its suit, the ace low or high)
        read_card = str(event.get("card") or "")
        below_read = [c for c in ([_in_suit(read_card, -1)]
                                  + ([f"A{read_card[1]}"] if read_card[:1] == "2" else []))
                      if c is not None] if event.get("event") == "play" and read_card else []

        def offer(corrs: list[dict[str, Any]], label: str, chained: bool,
                  play: dict[str, Any] = event, must_follow: bool = False) -> None:
            fixed = replay([*events, *(Event(c, n + 1 + i) for i, c in enumerate(corrs))])
            after = replay([*events, *(Event(c, n + 1 + i) for i, c in enumerate(corrs)),
                            Event(play, n + 1 + len(corrs))])
            if after.errors or after.referee is None or fixed.referee is None or \
                    len(after.referee.violations) > len(fixed.referee.violations):
                return
            next_card = getattr(fixed.referee, "next_card", None)
            follows = callable(next_card) and next_card() == play.get("card")
            if (not following and not must_follow) or follows:
                answers.append((chained, not follows, Answer(label, (*corrs, play))))

        if first is not None and first[1].get("event") == "trump":
            # Or the turned-up trump card was this card's lookalike, misread as it turned
            # (Oh Claire! 2069: the 4♦ turned up read as A♦; Cy's A♦ then "the turned-up
            # trump card", and the hand went on with twenty questions).
            for was in confusable(twice):
                corr = self._correction(twice, was)
                if corr is not None:
                    offer([corr], f"the trump card {Card.parse(twice).pretty()} was "
                                  f"{Card.parse(was).pretty()}", False)
        for logged, (at_line, old) in recent:
            who = old.get("player")
            # Or that play was the very card the sequence expected there, read as another
            # card altogether (tigullio Great Lakes 1002: Ann's Q♥ after her J♥ read as 6♥
            # and logged as her lead; Bob's 2♠ then broke a rule by that log). Public: it
            # follows from the table as it was.
            due = _asked(replay([e for e in events if e.line < at_line]).referee,
                         "next_card") if "card" in old else None
            if isinstance(due, str) and due != logged and due not in confusable(logged) \
                    and (corr := self._correction(logged, due)) is not None:
                offer([corr], f"{who}'s {Card.parse(logged).pretty()} was "
                              f"{Card.parse(due).pretty()}", False)
            # Or it was the card just below this one in its suit, misread in its rank alone
            # or its suit alone, after which this one follows it (tigullio Pressman 302:
            # Cy's 3♣ read as 2♣ and logged as a lead, then Bob's 4♣ "3♣ comes next";
            # Boodle 308: Ann's K♥ lead read as K♣, then Bob's A♥ "A♣ comes next"; no
            # answer mended the lead).
            for below in below_read:
                if below not in (logged, due) and below not in confusable(logged) \
                        and "card" in old and _one_apart(below, logged) \
                        and (corr := self._correction(logged, below)) is not None:
                    offer([corr], f"{who}'s {Card.parse(logged).pretty()} was "
                                  f"{Card.parse(below).pretty()}", False, must_follow=True)
            # Or, up to a play this one proves broke a rule, a card misread in its rank by
            # one, a pair no lookalike table holds (tigullio Boodle 2403: Dee's 6♥ lead read
            # as 7♥; her 3♦ lead next was then proven wrong by her 8♥, the 8♥ coming next
            # after a 7♥, and "Dee played 8♥?" offered nothing that mended the 7♥).
            nearby = [c for c in (_in_suit(logged, -1), _in_suit(logged, 1))
                      if c is not None and c not in confusable(logged)] \
                if "card" in old and logged in proven else []
            for was in nearby:
                corr = self._correction(logged, was)
                if corr is not None:
                    offer([corr], f"{who}'s {Card.parse(logged).pretty()} was "
                                  f"{Card.parse(was).pretty()}", False)
            for was in confusable(logged):
                corr = self._correction(logged, was)
                if corr is not None:
                    offer([corr], f"{who}'s {Card.parse(logged).pretty()} was "
                                  f"{Card.parse(was).pretty()}", False)
                    read = str(event.get("card"))
                    if "card" in event and read not in (logged, was) and alike(read, logged):
                        # Or this reading is that very card, misread as well (Michigan 1550:
                        # Ann's 5♥ read as 6♥, then Bob's 6♥ as 9♥).
                        offer([corr], f"{who}'s {Card.parse(logged).pretty()} was "
                                      f"{Card.parse(was).pretty()}, this one "
                                      f"{Card.parse(logged).pretty()}", True,
                              {**event, "card": logged})
                    continue
                # Or two plays of one player in a row each misread as the next card up
                # (Great Lakes 1411: Bob's J♥ read as Q♥, his Q♥ then as K♥; Dee's K♥ after
                # them "played already"): both corrected together.
                first = self._line_of.get(was)
                if first is None or first[0] >= at_line or first[1].get("player") != who \
                        or "card" not in old or any(first[0] < line < at_line for line, _ev
                                                    in self._line_of.values()):
                    continue  # (the two cards logged one after the other)
                for under in confusable(was):
                    if under == logged or self._round_cards.get(under, 0):
                        continue
                    offer([{"event": "correct", "line": first[0],
                            "with": {**first[1], "card": under}},
                           {"event": "correct", "line": at_line, "with": {**old, "card": was}}],
                          f"{who}'s {Card.parse(was).pretty()} and "
                          f"{Card.parse(logged).pretty()} were {Card.parse(under).pretty()}"
                          f" and {Card.parse(was).pretty()}", True)
        # Those after which the card logged is the very card the sequence expects first;
        # single misreads before two.
        return [answer for *_, answer in sorted(answers, key=lambda a: (a[1], a[0]))][:3]

    def _came_before(self, event: dict[str, Any], obs: Observation) -> list[Answer]:
        """The answer where ``event`` 's card was played just before the last card logged,
        and read only once that card lay on it (a hand over it as it landed, or read as
        another card until then): that line becomes this card and the last card is logged
        again after it ("9♥, then 5♣"; Boodle 458: Ann's 9♥ under her 5♣, read only once the
        5♣ lay on it, held as a play that would break a rule after the 5♣). Only where the
        last card logged lies on this one, the log has nothing after it, and the log then
        accepts both, breaking no rule. Not where the spot it lies on read that last card
        before it (the card lies on that one)."""
        latest = self._last_play()
        if event.get("event") != "play" or "card" not in event or latest is None \
                or not obs.positions:
            return []
        last_card, line, last = latest
        spot = self._spot_of.get(last_card)
        x, y = obs.positions[0]
        if line != self.log.lines or last.get("event") != "play" or spot is None \
                or np.hypot(spot[0] - x, spot[1] - y) > CARD_W / 2 \
                or self.tracker.read_before(str(event["card"]), x, y) == last_card:
            return []
        corr = {"event": "correct", "line": line, "with": dict(event)}
        again = dict(last)
        if not self._accepts_after([corr, again]):
            return []
        return [Answer(f"{Card.parse(event['card']).pretty()}, then "
                       f"{Card.parse(last_card).pretty()}", (corr, again))]

    #: `_last_card_late`: a play read at most this many seconds after the line logged last
    #: may have been laid before it.
    LATE_BY = 2.5

    def _last_card_late(self, event: dict[str, Any], obs: Observation) -> list[Answer]:
        """The answer where ``event`` 's card, the last card its player holds by the log, was
        played before the single card logged last, another player's, and read only after it:
        the round then ended, so that card was that player's hand shown (or a card of it).
        The last line becomes this play and the card is shown as that hand, where the log
        then takes both; where it takes the play alone and ends the round, the card is read
        afresh as a hand (`Answer.reread`), to be asked as one a card short (held-out tigullio
        deck, Great Lakes 1301: Dee's K♥, her last card, read only once Ann had shown her
        hand, which was read as its A♥ alone and logged as her play; the K♥ then "would break
        a rule", and "K♥" logged it after the A♥, the round wrong in silence)."""
        ref, latest = self.referee, self._last_play()
        player = event.get("player")
        if ref is None or event.get("event") != "play" or "card" not in event \
                or latest is None or _holds(ref, str(player)) != 1:
            return []
        card, line, last = latest
        if line != self.log.lines or last.get("player") == player \
                or float(last.get("t", -math.inf)) < obs.t_still - self.LATE_BY:
            return []
        corr = {"event": "correct", "line": line, "with": dict(event)}
        hand: dict[str, Any] = {"event": "reveal", "player": last.get("player"),
                                "cards": [card],
                                **{k: last[k] for k in ("t", "confidence") if k in last}}
        label = (f"{player} played {Card.parse(str(event['card'])).pretty()} last; "
                 f"{last.get('player')}'s {Card.parse(card).pretty()} was a hand shown")
        logged = read_log(self.log.path).events
        read = (logged, replay(logged))
        if self._accepts_after([corr, hand], read):
            return [Answer(label, (corr, hand))]
        after = replay([*logged, Event(corr, self.log.lines + 1)])
        if after.referee is None or "reveal" not in (after.referee.expects() or ()) \
                or not self._accepts_after([corr], read):
            return []
        return [Answer(label, (corr,), reread=(card,))]

    def _laid_on_before(self, event: dict[str, Any], under: str, obs: Observation
                        ) -> list[Answer]:
        """The answer where ``event`` 's card, read now where ``under`` lies, is the card
        the camera saw come to rest on ``under`` (`Tracker.covered_at`) and read as it until
        now, played before the plays logged since it landed: the first of those lines
        becomes this card, each later line the one before it, and the last line is logged
        again after them ("8♠, before Ann's 5♦"; Boodle 1938: Ann's 8♠ laid on her
        3♠, read as 3♠ until four plays later). Only where the first line since is a play of
        one card and the log then accepts them all, breaking no rule."""
        if event.get("event") != "play" or "card" not in event or not obs.positions:
            return []
        landed = self.tracker.covered_at(under, *obs.positions[0])
        if landed is None:
            return []
        return self._before_plays_since(event, landed)

    def _read_late(self, event: dict[str, Any], obs: Observation) -> list[Answer]:
        """The answer where ``event`` 's card lay on its spot, read as a lookalike that was
        never logged there, since before plays that were logged meanwhile, and is read right
        only now: played before them, every later line moved one down ("3♥, before Bob's
        10♣"; Great Lakes 2261: Bob's 3♥ read as 8♥ for three seconds while his 10♣ and 3♦
        were logged, then "it would break a rule"). Only where the log then accepts them
        all, breaking no rule."""
        if event.get("event") != "play" or "card" not in event or not obs.positions:
            return []
        card = str(event["card"])
        x, y = obs.positions[0]
        before = self.tracker.run_before(card, x, y)
        if before is None or not alike(card, before[0]):
            return []
        spot = self._spot_of.get(before[0])
        if spot is not None and math.dist(spot, (x, y)) <= CARD_W / 2:
            return []  # a card logged there: the card under it, or this one misread
        return self._before_plays_since(event, before[1])

    def _rested_before(self, event: dict[str, Any], obs: Observation) -> list[Answer]:
        """The answer where ``event`` 's card, read in a pile that has lain still since
        before plays logged meanwhile (`ZoneChanges.at_rest_since`), was laid before them
        and read only now ("2♣, before Cy's 3♣"), where the log then accepts them all; []
        otherwise, and where the pile's picture is not watched."""
        if event.get("event") != "play" or "card" not in event or obs.kind != "pile" \
                or self._changes is None:
            return []
        since = self._changes.at_rest_since(obs.zone)
        if since is None or since >= obs.t_still:
            return []
        return self._before_plays_since(event, since)

    def _before_lookalike(self, event: dict[str, Any], obs: Observation) -> list[Answer]:
        """The answer where ``event`` 's card lies over a card of its player's logged this
        round (within a card's width) that it is easily taken for, and was played just
        before it: the two read the wrong way round, or the logged one misread and this one
        read as that at first (Michigan 905 on the held-out tigullio deck: Bob's J♣ read as
        Q♣ and logged, then his Q♣ laid on it read as J♣, "it would break a rule", Dee's K♣
        logged meanwhile). That play's line becomes this card, each later line the one
        before it, the last logged again ("J♣, before Bob's Q♣"). Only where the log then
        accepts them all."""
        if event.get("event") != "play" or "card" not in event or not obs.positions:
            return []
        card = str(event["card"])
        for under, spot in self._spot_of.items():
            logged = self._line_of.get(under)
            if logged is None or not alike(card, under) \
                    or logged[1].get("player") != event.get("player") \
                    or logged[1].get("card") != under \
                    or math.dist(spot, obs.positions[0]) > CARD_W:
                continue
            events = self._played_before(event, logged[0])
            if events is not None and self._accepts_after(events):
                return [Answer(f"{Card.parse(card).pretty()}, before {event.get('player')}'s "
                               f"{Card.parse(under).pretty()}", events)]
        return []

    def _read_on_another(self, event: dict[str, Any], obs: Observation) -> list[Answer]:
        """The answer where ``event`` 's card was logged as another player's play, the last
        line of the log, come to rest less than `ONE_LANDING` before this one: one card is
        not laid twice in a blink, so that reading was something else misread as the card
        being laid (dondorf, Pressman 707: a corner of Bob's J♣ read as K♣ as Cy laid his
        K♣, "Cy played K♣? (K♣ was played by Bob already)"). That line is withdrawn and this
        play logged ("K♣ is Cy's (Bob's K♣ misread)"), where the log then accepts it."""
        card = str(event.get("card"))
        logged = self._line_of.get(card)
        if event.get("event") != "play" or logged is None or logged[0] != self.log.lines \
                or logged[1].get("card") != card \
                or logged[1].get("player") in (None, event.get("player")) \
                or not 0.0 <= obs.t_still - float(logged[1].get("t", -1e9)) < self.ONE_LANDING:
            return []
        fix = ({"event": "correct", "line": logged[0], "with": None}, dict(event))
        if not self._accepts_after(fix):
            return []
        pretty = Card.parse(card).pretty()
        return [Answer(f"{pretty} is {event.get('player')}'s ({logged[1].get('player')}'s "
                       f"{pretty} misread)", fix)]

    def _before_plays_since(self, event: dict[str, Any], t: float) -> list[Answer]:
        """The answer that logs the play ``event`` before the plays logged since table time
        ``t`` ("3♥, before Bob's 10♣"), where the log then accepts them all; [] otherwise."""
        since = sorted(line for line, ev in self._line_of.values()
                       if float(ev.get("t", -1.0)) > t)
        events = self._played_before(event, since[0]) if since else None
        if events is None or not self._accepts_after(events):
            return []
        first = self._line_of_at(since[0])
        return [Answer(f"{Card.parse(str(event['card'])).pretty()}, before "
                       f"{first.get('player')}'s {Card.parse(str(first['card'])).pretty()}",
                       events)]

    def _line_of_at(self, line: int) -> dict[str, Any]:
        """The play of one card logged at ``line`` this round ({} where none)."""
        return next((ev for ln, ev in self._line_of.values() if ln == line), {})

    @staticmethod
    def _ended_at(line: int, resolved: Sequence[Event]) -> bool:
        """Is ``line`` the recorded end of this round (MR-13), the log as corrected
        ``resolved``?"""
        start = max((k for k, ev in enumerate(resolved) if ev.kind == "round"), default=-1)
        return any(ev.line == line and ev.kind == "end-round" for ev in resolved[start + 1:])

    def _played_before(self, play: dict[str, Any], line: int,
                       logged: Sequence[Event] | None = None,
                       instead: Mapping[int, dict[str, Any]] | None = None,
                       drop: Collection[int] = ()) -> tuple[dict[str, Any], ...] | None:
        """The events that log ``play`` before the play at ``line``: that line becomes
        ``play``, each later line of the log as corrected the one before it, and the last is
        logged again. None where ``line`` is not a play of this round or its recorded end
        (MR-13: the play then the round's last). ``logged``: the log's
        events, where the caller has read them; ``instead``: a line's event to move as
        another (a play that was a hand shown); ``drop``: later lines that move nowhere (the
        other cards of that hand, each read as a play of its own), the last lines of the
        log then withdrawn."""
        from companion.events import apply_corrections

        resolved, _ = apply_corrections(logged or read_log(self.log.path).events)
        if self._line_of_at(line).get("event") != "play" \
                and not self._ended_at(line, resolved):
            return None
        later = [ev for ev in resolved if ev.line >= line]
        shifted: list[dict[str, Any] | None] = [dict(play), *(
            dict((instead or {}).get(ev.line, ev.data)) for ev in later
            if ev.line not in drop)]
        shifted += [None] * (len(later) + 1 - len(shifted))
        corrs = [{"event": "correct", "line": ev.line, "with": data}
                 for ev, data in zip(later, shifted, strict=False)]
        return tuple(corrs) if shifted[-1] is None else (*corrs, shifted[-1])

    def _accepts_after(self, events: Sequence[Mapping[str, Any]],
                       read: tuple[Sequence[Event], Replay] | None = None) -> bool:
        """Does the log take ``events`` with no more errors and no more rules broken?
        ``read``: the log's events and their replay, where the caller has them."""
        return self._broken_after(events, read) is not None

    def _broken_after(self, events: Sequence[Mapping[str, Any]],
                      read: tuple[Sequence[Event], Replay] | None = None) -> int | None:
        """How many rules the log breaks once it takes ``events``, where it takes them with
        no more errors and no more rules broken than now (`_accepts_after`); else None."""
        if read is None:
            events_now = read_log(self.log.path).events
            read = (events_now, replay(events_now))
        logged, base = read
        n = self.log.lines
        after = replay([*logged, *(Event(dict(e), n + 1 + i) for i, e in enumerate(events))])
        if base.referee is None or after.referee is None \
                or len(after.errors) > len(base.errors) \
                or len(after.referee.violations) > len(base.referee.violations):
            return None
        return len(after.referee.violations)

    def _covered_misread(self, reveal: dict[str, Any]) -> list[Answer]:
        """Answers for a hand shown a card short of what the player holds: one of their plays
        this round was two cards, the first misread as the lookalike that was then laid on it
        and logged once (Pressman 1812: Cy's 5♥ read as 6♥ until his 6♥ covered it, logged
        as one 6♥; his hand shown then held a card fewer than the log said). Each such play,
        latest first, and each card easily taken for it that nobody played or shows: that
        card played just before it, where the log then takes the hand ("Cy's 5♥ under the
        6♥")."""
        who = reveal.get("player")
        shown = {str(c) for c in reveal.get("cards") or []}
        logged = read_log(self.log.path).events
        read = (logged, replay(logged))
        answers: list[Answer] = []
        for line, ev in sorted(self._line_of.values(), key=lambda item: -item[0]):
            if ev.get("event") != "play" or ev.get("player") != who:
                continue
            card = str(ev["card"])
            for under in confusable(card):
                if under in shown or self._round_cards.get(under, 0):
                    continue
                events = self._played_before({**ev, "card": under}, line, logged)
                if events is not None and self._accepts_after([*events, reveal], read):
                    answers.append(Answer(f"{who}'s {Card.parse(under).pretty()} under "
                                          f"the {Card.parse(card).pretty()}",
                                          (*events, reveal)))
            if len(answers) >= 3:
                break
        return answers[:3]

    def _logged_twice(self, card: str, under: str) -> tuple[str, list[Answer]] | None:
        """The question where ``card``, read where ``under`` lies, is a play a person entered
        by hand (no spot of its own) of the same player, logged before ``under`` although the
        camera saw ``under`` lie still before the person entered it, and the two look alike:
        one card logged twice, the camera's reading of it misread while a question was open
        (Boodle 623: Ann's 10♥ read as 10♦ while the table asked about Dee's pile; Ann's 10♥
        entered by hand, then her 10♦ logged once the question closed, then the 10♥ read
        where the 10♦ lies). Its answers: the later line withdrawn, or this reading misread.
        Or entered after ``under`` was logged (Michigan 1995: Bob's 4♠ read as A♠ and logged
        so, then entered by hand as the answer to another question, then read where the A♠
        lies): the camera's line becomes ``card`` and the line entered is withdrawn. None
        where the log would not take that."""
        mine, theirs = self._line_of.get(card), self._line_of.get(under)
        entered = self._entered_at.get(card)
        if mine is None or theirs is None or entered is None \
                or float(theirs[1].get("t", entered + 1.0)) > entered \
                or mine[1].get("player") != theirs[1].get("player") \
                or not alike(card, under):
            return None
        if mine[0] < theirs[0]:
            fix = [{"event": "correct", "line": theirs[0], "with": None}]
        else:
            fix = [{"event": "correct", "line": theirs[0], "with": {**theirs[1], "card": card}},
                   {"event": "correct", "line": mine[0], "with": None}]
        if not self._accepts_after(fix):
            return None
        who, c, u = mine[1].get("player"), Card.parse(card).pretty(), Card.parse(under).pretty()
        return (f"{who} played {u} and {c}?",
                [Answer(f"one card: {c} ({u} misread)", tuple(fix)),
                 Answer(f"no, {u} misread as {c}", (), under)])

    def _plays_one_by_one(self, event: dict[str, Any], obs: Observation) -> list[Answer]:
        """Answers for a held play of two or three cards in a game of one card a play: the
        player's plays one after another, read at once as they landed a moment apart, in each
        order the log then takes breaking no rule ("Q♠, then 4♥"; tigullio Pressman 2207:
        Cy's Q♠ and his 4♥ lead a second later read as one play that broke a rule, held with
        nothing to click and typed in as two plays)."""
        cards = list(dict.fromkeys(str(c) for c in event.get("cards") or []))
        if event.get("event") != "play" or self.game in self.SEVERAL_AT_ONCE \
                or not 2 <= len(cards) <= 3 or any(self._round_cards.get(c, 0) for c in cards):
            return []
        extra = {k: event[k] for k in ("t", "confidence") if k in event} or stamp(obs)
        answers: list[Answer] = []
        for order in permutations(cards):
            plays = [{"event": "play", "player": event.get("player"), "card": c, **extra}
                     for c in order]
            if self._accepts_all(plays):
                answers.append(Answer(", then ".join(pretty_cards(list(order))), tuple(plays)))
        return answers

    def _read_twice(self, event: dict[str, Any], obs: Observation) -> list[Answer]:
        """Answers for a held move of several cards read with one code on more spots than the
        decks hold it (the move, made of the codes, is a card short): all but one of those
        readings misread, each in turn a card it is easily taken for (or one taken for it)
        that nobody played this round, where the table then accepts the move (Boodle 1208:
        Bob's 10♠ read as J♠ beside his J♠, his hand of seven shown as six: "one J♠ was
        10♠")."""
        cards = [str(c) for c in event.get("cards") or []]
        copies = self.tracker.config.copies
        answers: list[Answer] = []
        for card, n in Counter(obs.cards).items():
            if n <= copies or card not in cards:
                continue
            i = cards.index(card)
            for was in confusable(card):
                if was in cards or self._round_cards.get(was, 0):
                    continue
                move = {**event, "cards": [*cards[:i + 1], was, *cards[i + 1:]]}
                if self._accepts_all([move]):
                    answers.append(Answer(f"one {Card.parse(card).pretty()} was "
                                          f"{Card.parse(was).pretty()}", (move,)))
        return answers

    def _earlier_misread(self, event: dict[str, Any],
                         read: tuple[Sequence[Event], Replay] | None = None) -> list[Answer]:
        """Answers for a held move of several cards that one of its cards, played or shown
        by another player earlier this round, makes the table refuse: that earlier card was
        misread (a card it is easily taken for, or one easily taken for it, neither played
        nor shown), corrected where the log then accepts the move ("Ann's K♣ was K♠").
        ``read``: the log's events and their replay, where the caller has them. At most
        three (`_lines_misread`)."""
        return self._lines_misread([event], read)[:3]

    def _lines_misread(self, given: Sequence[dict[str, Any]],
                       read: tuple[Sequence[Event], Replay] | None = None) -> list[Answer]:
        """`_earlier_misread` for the moves ``given``, logged in order: each line of another
        player's this round that holds a card of theirs, that card corrected to one easily
        taken for it that nobody played or shows, where the log then takes the line and the
        moves with no more errors or rules broken; the correction, then the moves."""
        from companion.events import apply_corrections

        mine = {c for e in given for c in cards_of(e)}
        if read is None:
            logged = read_log(self.log.path).events
            read = (logged, replay(logged))
        resolved, _ = apply_corrections(read[0])
        start = max((e.line for e in resolved if e.kind in NEW_DEAL), default=0)
        who = {e.get("player") for e in given}
        answers: list[Answer] = []
        for ev in resolved:
            if ev.line <= start or ev.kind not in ("play", "reveal"):
                continue
            if ev.get("player") in who:
                answers += self._restated(ev, given, read)
                continue
            theirs = cards_of(ev.data)
            for card in [c for c in theirs if c in mine]:
                for was in confusable(card):
                    if was in mine or self._round_cards.get(was, 0):
                        continue
                    fixed = {**ev.data, "card": was} if "card" in ev.data else \
                        {**ev.data, "cards": [was if c == card else c for c in theirs]}
                    corr = {"event": "correct", "line": ev.line, "with": fixed}
                    if self._accepts_after([corr, *given], read):
                        answers.append(Answer(f"{ev.get('player')}'s "
                                              f"{Card.parse(card).pretty()} was "
                                              f"{Card.parse(was).pretty()}", (corr, *given)))
        return answers

    def _restated(self, line: Event, given: Sequence[dict[str, Any]],
                  read: tuple[Sequence[Event], Replay]) -> list[Answer]:
        """For `_lines_misread`: ``line``, a play of a player who is given plays too, whose
        card another player is given, that card misread as one of the player's own given plays
        easily taken for it: that line corrected to that play's card, then the other plays,
        where the log takes them (tigullio Pressman 1602: Bob's J♣ read as K♣ and logged;
        "Bob played J♣, Bob played Q♣, Ann played K♣" typed in was logged with the error "K♣
        was already played by Bob")."""
        card = line.get("card")
        if line.kind != "play" or not isinstance(card, str) or not any(
                e.get("card") == card and e.get("player") != line.get("player") for e in given):
            return []
        answers = []
        for k, own in enumerate(given):
            was = own.get("card")
            if own.get("player") != line.get("player") or not isinstance(was, str) \
                    or was not in confusable(card) or self._round_cards.get(was, 0):
                continue
            corr = {"event": "correct", "line": line.line, "with": {**line.data, "card": was}}
            rest = [e for i, e in enumerate(given) if i != k]
            if self._accepts_after([corr, *rest], read):
                answers.append(Answer(f"{line.get('player')}'s {Card.parse(card).pretty()} "
                                      f"was {Card.parse(was).pretty()}", (corr, *rest)))
        return answers

    def _hand_line(self, player: Any) -> tuple[int, dict[str, Any]] | None:
        """(line, event) of the first hand ``player`` shows logged this round, as corrected
        (the lines the table notes, `_grouped_in`); None where none is."""
        return min(((line, ev) for line, ev in self._grouped_in.values()
                    if ev.get("event") == "reveal" and ev.get("player") == player),
                   key=lambda le: le[0], default=None)

    def _own_hand_misread(self, event: Mapping[str, Any]) -> list[Answer]:
        """Answers for cards read in a player's pile once their hand is logged this round,
        none of them logged: cards of that hand, each read as one easily taken for it (and
        logged so) and read right since (Pressman 2727, stuck reader: Cy's 2♠ and 10♠ logged
        in his hand as 7♠ and J♠, then read right after the game was over and held as
        "Confirm Cy: 10♠ 2♠?" with nothing to click). The hand logged with each card read in
        the place of one it is easily taken for, where the log takes it ("Cy's 7♠ was 2♠;
        Cy's J♠ was 10♠"); at most three."""
        who = event.get("player")
        cards = cards_of(event)
        hand = self._hand_line(who)
        if not cards or any(self._round_cards.get(c, 0) for c in cards) or hand is None:
            return []
        line, data = hand
        shown = [str(c) for c in data.get("cards") or []]
        taken = [[x for x in confusable(c) if x in shown and x not in cards] for c in cards]
        logged = read_log(self.log.path).events
        read = (logged, replay(logged))
        answers: list[Answer] = []
        for was in product(*taken):
            if len(set(was)) != len(was):
                continue
            now = dict(zip(was, cards, strict=True))
            fixed = {**data, "cards": [now.get(c, c) for c in shown]}
            corr = {"event": "correct", "line": line, "with": fixed}
            if self._accepts_after([corr], read):
                answers.append(Answer("; ".join(
                    f"{who}'s {Card.parse(x).pretty()} was {Card.parse(c).pretty()}"
                    for x, c in now.items()), (corr,)))
                if len(answers) == 3:
                    break
        return answers

    def _shown_misread(self, event: dict[str, Any],
                       read: tuple[Sequence[Event], Replay] | None = None) -> list[Answer]:
        """Answers for a held hand shown with a card that a play logged this round: that
        card of the hand misread, a card it is easily taken for (or one taken for it) in its
        place; where another player's play logged that card too, with that play misread as
        well, a card easily taken for it that nobody played or shows (Michigan 2330: Cy's
        last card 10♦ read as J♦ and logged so; Bob's J♦ then shown read as J♥, a card Cy
        played: "the J♥ shown is J♦; Cy's J♦ was 10♦"). Only those the log then takes.
        ``read``: the log's events and their replay, where the caller has them."""
        if event.get("event") != "reveal":
            return []
        cards = [str(c) for c in event.get("cards") or []]
        if read is None:
            logged = read_log(self.log.path).events
            read = (logged, replay(logged))
        answers: list[Answer] = []
        for card in [c for c in cards if self._round_cards.get(c, 0)]:
            for was in confusable(card):
                if was in cards:
                    continue
                hand = {**event, "cards": [was if c == card else c for c in cards]}
                label = f"the {Card.parse(card).pretty()} shown is {Card.parse(was).pretty()}"
                if not self._round_cards.get(was, 0):
                    if self._accepts_after([hand], read):
                        answers.append(Answer(label, (hand,)))
                    continue
                play = self._line_of.get(was)
                if play is None or play[1].get("player") == event.get("player"):
                    continue
                for other in confusable(was):
                    if other in cards or other == card or self._round_cards.get(other, 0):
                        continue
                    corr = {"event": "correct", "line": play[0],
                            "with": {**play[1], "card": other}}
                    if self._accepts_after([corr, hand], read):
                        answers.append(Answer(
                            f"{label}; {play[1].get('player')}'s {Card.parse(was).pretty()} "
                            f"was {Card.parse(other).pretty()}", (corr, hand)))
        return answers[:3]

    def _misread_in_two(self, reveal: dict[str, Any]) -> list[Answer]:
        """Answers for a held hand shown with two cards that other players' logged plays or
        hands hold, no fix of one card alone taken by the log: one of those cards of the hand
        misread, a card easily taken for it in its place, where the clash left then
        has a fix the log takes (`_hand_clashes` asks it next). Hands are shown together,
        and a reader may misread one card of each (Pressman, stuck reader, seed 2472: Cy's 7♥
        read as 10♥ and his hand logged so; Dee's J♦ read as J♥, Ann's, beside her own 10♥:
        "the J♥ shown is J♦, then the 10♥…", and then "Cy's 10♥ was 7♥")."""
        cards = [str(c) for c in reveal.get("cards") or []]
        clash = [c for c in cards if self._round_cards.get(c, 0)]
        if len(clash) != 2:
            return []
        logged = read_log(self.log.path).events
        read = (logged, replay(logged))
        answers: list[Answer] = []
        for card, rest in zip(clash, pretty_cards(clash[::-1]), strict=True):
            for was in confusable(card):
                if was in cards or self._round_cards.get(was, 0):
                    continue
                hand = {**reveal, "cards": [was if c == card else c for c in cards]}
                if self._clash_fixes(hand, read):
                    answers.append(Answer(f"the {Card.parse(card).pretty()} shown is "
                                          f"{Card.parse(was).pretty()}, then the {rest}…",
                                          (hand,)))
                    if len(answers) == 3:
                        return answers
        return answers

    def _clash_fixes(self, hand: dict[str, Any],
                     read: tuple[Sequence[Event], Replay] | None = None) -> list[Answer]:
        """The one-card fixes the log takes for a hand shown that a card of another
        player's logged play or hand makes it refuse: that earlier card misread, or this
        one (`_earlier_misread`, `_shown_misread`). ``read``: the log's events and their
        replay, where the caller has them."""
        if read is None:
            logged = read_log(self.log.path).events
            read = (logged, replay(logged))
        return [*self._earlier_misread(hand, read), *self._shown_misread(hand, read)][:3]

    def _hand_clashes(self, pending_id: int, events: Sequence[Mapping[str, Any]],
                      stated: bool) -> bool:
        """Whether an answer that is one hand shown, which the log would refuse for a card of
        it that another player's play or hand holds, is asked again as that hand with the
        fixes the log takes (`_clash_fixes`: "Cy's 10♥ was 7♥") instead of logged with an
        error (an answer of `_misread_in_two`). A hand a person ``stated`` (typed in, or
        confirmed as read) stands as they gave it: only the other line's card is offered as
        misread (dondorf, Boodle 1208: Cy's hand typed in with his A♥, Bob's J♠ logged as
        A♥; "the A♥ shown is 4♦" contradicted the person). Where no lookalike fits, a
        stated hand is still asked about another player's single-card play of its card, which
        a person names (`_plays_named`; tigullio Pressman 2707: Cy's J♦ lead read as 9♦ by
        the second look alone and logged; Ann's hand typed in with her 9♦ was logged with an
        error, her chips lost); where nothing is offered it is logged as given."""
        if len(events) != 1 or events[0].get("event") != "reveal":
            return False
        hand = dict(events[0])
        ok, _n, reason = self._accepts(hand)
        if ok or self.pending[pending_id].event.get("cards") == hand.get("cards") \
                and self.pending[pending_id].reason == reason:
            return False  # (asked so already: the same hand given again is taken as given)
        fixes = self._earlier_misread(hand) if stated else self._clash_fixes(hand)
        fixes += self._plays_named(hand) if fixes or stated else []
        if not fixes:
            return False
        shown = " ".join(pretty_cards([str(c) for c in hand.get("cards") or []]))
        self._ask_anew(pending_id, f"Confirm {hand.get('player')}'s hand: {shown}?", fixes,
                       event=hand, reason=reason)
        return True

    def _plays_named(self, hand: dict[str, Any]) -> list[Answer]:
        """For a hand shown that a card of another player's single-card play this round makes
        the log refuse: that play was another card altogether, none easily taken for it,
        which a person names, then the hand (tigullio Boodle 2408: Cy's 7♠ read as A♥ and
        logged; Bob's hand with his A♥ was offered only "Cy's A♥ was 4♦")."""
        answers = []
        for card in [str(c) for c in hand.get("cards") or []]:
            named = self._named_instead(card)
            if named is not None and named["with"].get("player") != hand.get("player"):
                answers.append(Answer(
                    f"{named['with'].get('player')}'s {Card.parse(card).pretty()} was another "
                    "card…", (named, hand)))
        return answers

    def _named_instead(self, card: str) -> dict[str, Any] | None:
        """The correction that makes the single-card play logged as ``card`` this round
        (`_line_of`) a play of another card, which a person names (`PICK`); None where no
        such play was logged."""
        line = self._line_of.get(card)
        return None if line is None else \
            {"event": "correct", "line": line[0], "with": {**line[1], "card": PICK}}

    def _reshown(self, events: Sequence[Mapping[str, Any]]) -> Sequence[Mapping[str, Any]]:
        """Hands a person gives, each a correction of its player's hand logged this round
        where the log refuses it as a new line and takes it so (Pressman 2727, stuck reader:
        Cy's hand logged with its 2♠ read as 7♠ and its 10♠ as J♠; asked "Cy shows 7♠ or
        2♠?", the hand typed in was refused, "the game is over"); a hand given as logged is
        left out. ``events`` as they are where not every one is a hand or the log refuses
        the corrections."""
        if not events or any(e.get("event") != "reveal" for e in events):
            return events
        out: list[Mapping[str, Any]] = []
        for hand in events:
            old = self._hand_line(hand.get("player"))
            if old is None or self._accepts(dict(hand))[0]:
                out.append(hand)
            elif not _same_hand(old[1], hand):
                kept = {k: old[1][k] for k in ("t", "confidence") if k in old[1]}
                out.append({"event": "correct", "line": old[0], "with": {**hand, **kept}})
        return out if out != list(events) and self._accepts_after(out) else events

    def _read_in_pieces(self, events: Sequence[Mapping[str, Any]]
                        ) -> Sequence[Mapping[str, Any]]:
        """Plays a person gives where each move of several cards whose player's lines this
        round hold some of its cards already, every such line a piece of it (its cards all
        the move's), is that move read in pieces: the first piece's line corrected to the
        move, the others withdrawn (held-out tigullio deck, Great Lakes 1406: Bob's dump Q♠
        A♦ K♥ 10♥ logged as his Q♠ and, apart, his A♦; typed in to the question about his Q♣
        read as Q♠, the dump was refused, "Q♠ was already played by Bob", and the round ended
        wrong in silence). ``events`` as they are where the log takes them as given, or
        refuses the corrections."""
        moves = [dict(e) for e in events]
        if not any(e.get("event") == "play" and len(e.get("cards") or []) > 1 for e in moves) \
                or self._accepts_all(moves):
            return events
        out: list[Mapping[str, Any]] = []
        for move in moves:
            cards = {str(c) for c in move.get("cards") or []}
            pieces = sorted({found[0]: found for c in cards
                             if (found := self._logged(c)) is not None}.values(),
                            key=lambda le: le[0])
            if move.get("event") != "play" or len(cards) < 2 or not pieces or any(
                    ev.get("event") != "play" or ev.get("player") != move.get("player")
                    or not set(cards_of(ev)) <= cards for _, ev in pieces):
                out.append(move)
                continue
            kept = {k: pieces[0][1][k] for k in ("t", "confidence") if k in pieces[0][1]}
            out.append({"event": "correct", "line": pieces[0][0], "with": {**move, **kept}})
            out.extend({"event": "correct", "line": line, "with": None}
                       for line, _ in pieces[1:])
        return out if out != moves and self._accepts_after(out) else events

    def _plays_clash(self, pending_id: int, events: Sequence[Mapping[str, Any]],
                     stated: bool) -> bool:
        """Whether plays a person gives (``stated``), which the log would refuse for a card
        of theirs that another player's line this round holds, are asked again with that
        line's card misread, a card easily taken for it that nobody played or shows, where
        the log then takes the line and the plays (held-out tigullio deck, Michigan 1305:
        Bob's J♣ read as K♣ and logged; Dee's K♣ and 2♥, typed in, were logged with the
        error "K♣ was already played by Bob", and the round ended wrong). The same plays given
        again to that question are taken as given."""
        if not stated or not events or any(e.get("event") != "play" for e in events):
            return False
        given = [dict(e) for e in events]
        question = f"Confirm {_plays_of(given)}?"
        if self.pending[pending_id].question == question or self._accepts_all(given):
            return False
        fixes = self._lines_misread(given)
        if not fixes:
            return False
        reason = next((r[2] for e in given if not (r := self._accepts(e))[0]), "")
        self._ask_anew(pending_id, question, fixes[:3], event=given[0], reason=reason)
        return True

    #: `_placed_earlier`: how many of this round's last plays a play a person gives may
    #: have come before.
    GIVEN_BACK = 3

    def _placed_earlier(self, pending_id: int, events: Sequence[Mapping[str, Any]],
                        stated: bool) -> Sequence[Mapping[str, Any]] | None:
        """Plays a person gives (``stated``) that the log would refuse or take as breaking a
        rule where they come last, but takes with no rule broken with the first of them
        played before one of the round's last `GIVEN_BACK` plays, are asked again: where
        ("Where did Bob play Q♠? — Bob played Q♠ before Dee's K♠ / … / Bob played Q♠ after
        Dee's K♠, as given"; None). Held-out tigullio deck, Michigan 1400: Bob's Q♠ never
        read, Dee's K♠ after it logged; asked about Bob's A♠, read as 9♥, a person typed "Bob
        played Q♠, then A♠", and the Q♠ was logged after the K♠, out of its sequence, the
        round then wrong once answered. A person who gave the plays never said where they
        came, and a play out of its sequence may have been made: the table asks. ``events``
        as they are where no such place is (or the same plays are given again to that
        question)."""
        if not stated or not events or any(e.get("event") != "play" for e in events):
            return events
        given = [dict(e) for e in events]
        first = given[0]
        what = " ".join(pretty_cards(cards_of(first)))
        question = f"Where did {first.get('player')} play {what}?"
        if self.pending[pending_id].question == question or self._accepts_all(given):
            return events
        plays = dict(self._line_of.values())
        logged = read_log(self.log.path).events
        read = (logged, replay(logged))
        # Not before a play of theirs that may be this card misread, which the table asks
        # about once both lie there (Michigan 1995: Bob's 4♠ read as A♠).
        misread = max((ln for ln, ev in plays.items() if ev.get("player") == first.get("player")
                       and any(either_alike(str(ev.get("card")), c) for c in cards_of(first))),
                      default=0)
        places: list[Answer] = []
        for line in sorted(plays)[:-self.GIVEN_BACK - 1:-1]:
            if line <= misread:
                continue
            moved = self._played_before(first, line, logged)
            if moved is not None and self._accepts_after([*moved, *given[1:]], read):
                places.append(Answer(f"{first.get('player')} played {what} before "
                                     f"{_plays_of([plays[line]])}", (*moved, *given[1:])))
        if not places:
            return events
        last = max((le for le in [*self._line_of.values(), *self._grouped_in.values()]
                    if le[1].get("event") == "play"), key=lambda le: le[0])
        places.append(Answer(f"{first.get('player')} played {what} after "
                             f"{_plays_of([last[1]])}, as given", tuple(given)))
        reason = next((r[2] for e in given if not (r := self._accepts(e))[0]),
                      "it would break a rule")
        self._ask_anew(pending_id, question, places, event=first, reason=reason)
        return None

    def _hands_early(self, pending_id: int, events: Sequence[Mapping[str, Any]],
                     stated: bool) -> bool:
        """Whether hands a person gives (``stated``: typed in or confirmed) while the log says
        the round goes on, which it would refuse, are asked again with the plays of a player
        who holds one card by the log that the camera never saw, where the log then ends the
        round with it and takes every hand given (`_missed_places`); the plays logged last
        that are cards of those hands, each a hand read as a play, become the hands shown
        (Michigan 300 on a cheap webcam: Dee's 2♠ never read, her 4♥ her last card; Ann's
        hand then logged as her 2♥, Bob's as his A♠, and the two hands typed in refused:
        "reveals come after the round has ended")."""
        from companion.events import apply_corrections

        ref = self.referee
        if not stated or not events or any(e.get("event") != "reveal" for e in events) \
                or ref is None or "reveal" in (ref.expects() or ()) \
                or self._accepts_all([dict(e) for e in events]):
            return False
        hands = {str(e.get("player")): dict(e) for e in events}
        out = [p for p in self.players if p not in hands and _holds(ref, p) == 1]
        if not out or len(hands) != len(events) \
                or self.pending[pending_id].question == (
                    question := _early_hands_question(list(hands), out)):
            return False  # (asked so once: the same hands given again are taken as given)
        logged = read_log(self.log.path).events
        resolved, _ = apply_corrections(logged)
        start = max((k for k, ev in enumerate(resolved) if ev.kind in NEW_DEAL), default=-1)
        run: list[Event] = []  # (the plays logged last that are cards of the hands given)
        for ev in reversed(resolved[start + 1:]):
            cards = cards_of(ev.data)
            hand = hands.get(str(ev.get("player")), {})
            if ev.kind != "play" or not cards \
                    or not set(cards) <= {str(c) for c in hand.get("cards") or []}:
                break
            run.insert(0, ev)
        last = run[0] if run else None
        shown = hands[str(last.get("player") if last is not None else events[0].get("player"))]
        others = tuple(h for h in hands.values() if h is not shown)
        drop = frozenset(ev.line for ev in run[1:])
        showing = [str(c) for h in hands.values() for c in h.get("cards") or []]
        read = (logged, replay(logged))
        plays = None if last is None else (last.line, drop)
        # The hands given say what lies shown on the table now: a card read there lately that
        # none of them holds may still be the card played unseen (tigullio Michigan 1500: Cy's
        # Q♠, played before his K♠, never read; a look read Dee's J♠ as Q♠ once as the hands
        # lay).
        now = CARD_CODES
        answers: list[Answer] = []
        for a in [*self._short_moves(read, out, shown, showing, plays, read_now=now),
                  *self._lead_in_move(read, out, shown, showing, plays, read_now=now),
                  *self._missed_places(logged, out, shown, showing, last, drop,
                                       read_now=now)]:
            if a.again:
                continue  # (a hand held as part of one: not what a person gave)
            if a.places:
                answers.append(replace(a, places=tuple(
                    replace(b, events=(*b.events, *others)) for b in a.places)))
                continue
            whole = replace(a, events=(*a.events, *others))
            if all(b.events != whole.events for b in answers) \
                    and (whole.picks is not None or self._accepts_after(whole.events, read)):
                answers.append(whole)
        if not answers:
            return False
        self._ask_anew(pending_id, question, answers, event=dict(events[0]),
                       reason="")
        return True

    def _unaccounted(self, showing: Collection[str] = (), glimpses: bool = False,
                     read_now: Collection[str] = ()) -> list[str]:
        """The cards that may have been played unseen: none logged this round, none of
        ``showing`` (the cards being asked about), none a held question reads, none read on
        the table in the last 2 s (a hand being shown as the question is put) but those of
        ``read_now``; with ``glimpses``, a card read there in fewer than `LYING_READS`
        frames stays (a card glimpsed as it landed, then covered at once, lies under a play;
        a hand shown lies still, read frame after frame)."""
        now = self.tracker.t - self.READ_NOW
        most = self.LYING_READS if glimpses else 1
        return [c for c in CARD_CODES if not self._round_cards.get(c, 0)
                and c not in showing and not any(c in (h.observation.cards or [])
                                                 for h in self.pending.values())
                and (c in read_now or self.tracker.reads_of(c, now) < most)]

    #: Seconds back that a card read on the table counts as read now (a card of a hand being
    #: shown as a question is put): not a play missed (`_unaccounted`), unless read in the
    #: zone of the hand asked about, beyond its cards (`_looked_beside`).
    READ_NOW = 2.0

    def _shown_now(self, obs: Observation) -> dict[str, Any]:
        """The hand shown that a held reading of a seat's pile would be."""
        return {"event": "reveal", "player": self.players[obs.seat or 0],
                "cards": list(obs.cards), **stamp(obs)}

    def _last_card_picks(self, obs: Observation) -> list[Answer]:
        """For a hand shown while the log says the round goes on: per other player who holds
        one card by the log, an answer that has a person name that card, played last and not
        seen, before the hand (Pressman 27: Dee's 9♠ led after her 10♥, the J♥ that comes
        next being dead; "Dee: another card, played last…"). Not where the table takes the
        hand as it is."""
        ref = self.referee
        if ref is None or obs.seat is None or ref.expects() != frozenset({"play"}):
            return []
        who = self.players[obs.seat]
        shown = self._shown_now(obs)
        if self._accepts(shown)[0]:
            return []
        # A part of the hand: the card alone, the hand then placed again, to be asked about
        # as a card short (`_ran_out`).
        part = _part_of_hand(ref, who, obs.cards)
        return [Answer(f"{p}: another card, played last…",
                       ({"event": "play", "player": p, "card": PICK},
                        *(() if part else (shown,))), again=part)
                for p in self.players if p != who and _holds(ref, p) == 1]

    def _as_hand_shown(self, obs: Observation) -> list[Answer]:
        """For a reading put as another question that may be a hand shown while the log says
        the round goes on: the answers `_question` gives such a hand (the card that comes
        next played last by whoever it ends the round for, named so; the places earlier in
        the round where a missed play makes the hand fit, `_missed_earlier`; a last card a
        person names, `_last_card_picks`). Boodle 160: Dee's last card, 2♣, never read, and
        Ann's two cards shown close together asked as "Ann played 9♥ or K♠?" with nothing
        but those two cards to answer."""
        if obs.seat is None or obs.seat >= len(self.players):
            return []
        ran_out = self._ran_out(obs)
        out = []
        if ran_out is not None:
            card = Card.parse(str(ran_out[1][0].events[0]["card"])).pretty()
            out = [replace(a, label=f"{a.label} played {card} last") for a in ran_out[1]]
        for a in [*self._missed_earlier(obs), *self._last_card_picks(obs)]:
            if all(a.events != b.events for b in out):
                out.append(a)
        return out

    def _ran_out(self, obs: Observation) -> tuple[str, list[Answer]] | None:
        """A hand shown while the log says the round goes on: a player ran out of cards
        sooner than the log knows, the camera having missed the last card. When the card
        that comes next, played by someone, ends the round so that this hand may be shown,
        it asks "5♦ was not seen: who played it?", one answer per such player (both logged)."""
        ref = self.referee
        missing = _asked(ref, "next_card")
        if ref is None or not isinstance(missing, str) or missing in obs.cards \
                or self._round_cards.get(missing, 0) or obs.seat is None:
            return None
        shown = self._shown_now(obs)
        if self._accepts(shown)[0]:
            return None  # the hand fits the log as it is
        answers = [Answer(p, ({"event": "play", "player": p, "card": missing}, shown))
                   for p in self.players
                   if self._accepts_all([{"event": "play", "player": p, "card": missing}, shown])]
        if not answers and ref.expects() == frozenset({"play"}):
            # A hand read in part (two cards or more of those its player holds): the card
            # logged alone, the hand then placed again to be asked about as a card short
            # (tigullio Pressman 1502: Ann's Q♥, her last card, never read; Bob's 2♠ 4♥ 5♠
            # 7♠ then read as 7♠ 4♥, and no answer for the Q♥).
            line = self.log.lines + 1
            for p in self.players:
                play = {"event": "play", "player": p, "card": missing}
                if _ends_with_hand(ref, Event(play, line), (), Event(shown, line + 1),
                                   len(ref.violations)) is False:
                    answers.append(Answer(p, (play,), again=True))
        if not answers:
            return None
        return f"{Card.parse(missing).pretty()} was not seen: who played it?", answers

    #: `_unaccounted` with ``glimpses``: a card read in fewer frames than this in the last
    #: 2 s was glimpsed (as it landed, before a card covered it), not a hand lying shown.
    LYING_READS = 3
    #: `_missed_places`: at most this many answers; where more fit, only those of cards the
    #: camera glimpsed, if few enough, else none (a person who sees that many would rather
    #: say which card it was).
    MISSED_MOST = 6
    #: `_missed_places`: where more than `MISSED_MOST` fit, at most this many of the likely
    #: ones (glimpsed, or under the player's own next card: three rows of three).
    LIKELY_MOST = 9
    #: `_due_cards`: at most this many cards offered for a trick's card not seen (short
    #: labels: three rows of three).
    DUE_MOST = 9
    #: `_missed_places` offers no card by name where more than this many fit.
    MISSED_SEARCH = 24
    #: `_missed_places`: where too many cards fit to offer, in no more places than this, one
    #: answer a place lets a person name the card.
    PICK_PLACES = 4
    #: `_missed_places` stops looking past this many (nothing is then offered).
    PICK_SEARCH = 60

    def _missed_earlier(self, obs: Observation) -> list[Answer]:
        """Answers for cards laid as a hand is shown while the log says the round goes on,
        where one player holds one card by the log: that player's last card was played and
        not seen, earlier than the end (Pressman, tigullio deck, seed 307: Bob's 2♠ after his
        K♦, under Cy's 3♠ before it was read; Bob went out, and Ann then showed her 5♥). Each
        answer puts one card nobody played or shows in one place of this round's plays,
        where the log then takes every later line as it is, ends the round with it, and takes
        the hand shown (or, where two cards or more are shown, holds them as part of the hand:
        that answer places them again, `Answer.again`), breaking no more rules; a place at the
        end is `_ran_out`'s (or a card glimpsed there). More than `MISSED_MOST`: only the
        glimpsed ones (`_missed_places`)."""
        ref = self.referee
        if ref is None or obs.seat is None or ref.expects() != frozenset({"play"}):
            return []
        who = self.players[obs.seat]
        out = [p for p in self.players if p != who and _holds(ref, p) == 1]
        if not out:
            return []
        logged = read_log(self.log.path).events
        shown = self._shown_now(obs)
        read = (logged, replay(logged))
        return [*self._short_moves(read, out, shown, list(obs.cards)),
                *self._lead_in_move(read, out, shown, list(obs.cards)),
                *self._missed_places(logged, out, shown, list(obs.cards))]

    def _lead_in_move(self, read: tuple[Sequence[Event], Replay], out: Sequence[str],
                      shown: dict[str, Any], showing: Sequence[str] = (),
                      plays: tuple[int, Collection[int]] | None = None, *,
                      read_now: Collection[str] = ()) -> list[Answer]:
        """`_missed_earlier`, `_missed_by`, `_never_shown`: a move of several cards (a dump
        or a straight, GL-3, GL-4) of a player of ``out`` that held a card the camera never
        read, one of its cards read (any but its first) being that player's lead laid just
        after it (the player who dumps leads next): the move with that card in the lead's
        place, the lead played after it, where the log then takes every later line and the
        hand ``shown``, breaking no more rules (Great Lakes 501: Bob's dump 9♦ 5♠ 6♣ 7♥
        with the 5♠ never read, then his 10♣ lead, read together as the straight 9♦ 6♣ 7♥
        10♣; Bob then held a card by the log; 705: Ann's dump 10♠ 6♣ 7♦ 8♣, her 6♦ lead
        read in it as 10♠ 6♦ 7♦ 8♣). ``read``: the log's events and their replay;
        ``plays``: as `_short_moves`'; ``read_now``: as `_missed_by`'. The latest move
        first, those that leave the fewest rules broken; at most `MISSED_MOST`."""
        from companion.events import apply_corrections

        logged = read[0]
        resolved, _ = apply_corrections(logged)
        start = max((k for k, ev in enumerate(resolved) if ev.kind in NEW_DEAL), default=-1)
        unseen = self._unaccounted(showing, read_now=read_now)
        instead = {} if plays is None else {plays[0]: shown}
        drop = () if plays is None else plays[1]
        found: list[tuple[int, Answer]] = []  # (rules the log then breaks, answer)
        for k in range(len(resolved) - 2, start, -1):
            move, nxt = resolved[k], resolved[k + 1]
            laid = [str(c) for c in move.get("cards") or []]
            if move.kind != "play" or move.get("player") not in out or len(laid) < 2 \
                    or nxt.kind != "play":
                continue
            who = str(move.get("player"))
            for at in range(len(laid) - 1, 0, -1):  # (the last laid first)
                lead = laid[at]
                after = self._played_before({"event": "play", "player": who, "card": lead},
                                            nxt.line, logged, instead, drop)
                if after is None:
                    break
                events = after if plays is not None else (*after, shown)
                for card in unseen:
                    whole = [*laid[:at], card, *laid[at + 1:]]
                    if (moved := self._moved(move, whole, events, read)) is not None:
                        found.append((moved[0], Answer(
                            f"{who}'s {' '.join(pretty_cards(whole))}, then "
                            f"{Card.parse(lead).pretty()} led", moved[1])))
        return _fewest_broken(found, self.MISSED_MOST)

    def _moved(self, move: Event, whole: list[str], events: Sequence[dict[str, Any]],
               read: tuple[Sequence[Event], Replay]
               ) -> tuple[int, tuple[dict[str, Any], ...]] | None:
        """The events that log the move ``move`` as the cards ``whole``, then ``events``,
        with how many rules the log then breaks; None where it does not take them
        (`_broken_after`)."""
        fix = {"event": "correct", "line": move.line, "with": {**move.data, "cards": whole}}
        broken = self._broken_after([fix, *events], read)
        return None if broken is None else (broken, (fix, *events))

    def _missed_places(self, logged: Sequence[Event], out: Sequence[str],
                       shown: dict[str, Any], showing: Sequence[str] = (),
                       last: Event | None = None, drop: Collection[int] = (), *,
                       read_now: Collection[str] = ()) -> list[Answer]:
        """`_missed_earlier`, `_missed_by` and `_never_shown`: the answers that each put one
        card of a player of ``out`` (one nobody played, shows, is asked about or is read on
        the table now) in one place of this round's plays, where the log then takes every
        later line as it is, ends the round with it and takes the hand ``shown``, breaking no
        more rules. ``last``: the round's last play, which is then ``shown`` instead (and the
        log's lines after it, after it); ``drop``: lines after it that are that hand's other
        cards (each read as a play), withdrawn; ``read_now``: cards read on the table now
        that may be the card, as `_missed_by`'."""
        from companion.events import apply_corrections

        ref = self.referee
        resolved, _ = apply_corrections(logged)
        start = max((k for k, ev in enumerate(resolved) if ev.kind == "round"), default=-1)
        plays = [k for k, ev in enumerate(resolved) if k > start and ev.kind == "play"]
        if ref is None or start < 0 or not plays:
            return []
        end, after = len(resolved), []
        if last is not None:
            end = next((k for k in plays if resolved[k].line == last.line), -1)
            if end < 0:
                return []
            after = [ev for ev in resolved[end + 1:] if ev.line not in drop]
        base = replay(resolved[:plays[0]])
        if base.errors or base.referee is None:
            return []
        at = base.referee
        rules_broken = len(ref.violations)
        unseen = self._unaccounted(showing, read_now=read_now)
        seats = {self.players.index(p) for p in out if p in self.players}
        glimpsed = {c for c in unseen if self._glimpsed.get(c, set()) & seats}
        found: list[tuple[int, dict[str, Any], bool]] = []
        due: set[tuple[int, str]] = set()  # (place, card) the sequence expected there
        hand = Event(shown, len(logged) + 2)
        # Each place before a play of the round, then (where the log ends with the round's
        # plays) the place after its last one: a card other than the one `_ran_out` asks
        # about, a lead the rules allow there, only where the camera glimpsed it (any card
        # the player may lead fits there).
        # Where ``last`` is shown, the place just before it is one too: the card then ended
        # the round (Boodle 101: Cy's K♣, his last card, never read; Ann's Q♥ shown after
        # it logged as her play, the round over with Cy holding a card by the log).
        closing = last is None and end == len(resolved)
        for k in range(plays[0], end + (closing or last is not None)):
            line = resolved[k].line if k < len(resolved) else len(logged) + 1
            # The place before the round's recorded end is its last play's place (MR-13:
            # Michigan 141, Bob's J♥ never read after his 10♥, the round then ended by hand).
            ended = k < end and resolved[k].kind == "end-round"
            if (k == end or resolved[k].kind == "play" or ended) \
                    and len(found) <= self.PICK_SEARCH:
                tries = self._could_play(at, out, sorted(glimpsed) if k == len(resolved)
                                         else unseen)
                if k < end:
                    # And the card just below the next card, which it then follows, where
                    # the rules leave that lead to hidden hands (Michigan 44: Dee's 8♣ led
                    # after Bob's 2♦ stopped the diamonds, then her 9♣; Michigan 124: Cy's
                    # 6♣, the lead passed on to him, then Ann's 7♣).
                    tries += [(p, c) for p, c in _below_next(resolved[k].data, out, unseen)
                              if (p, c) not in tries]
                    tries += [pc for pc in _passed_on(at, resolved[k].data, out, unseen)
                              if pc not in tries]
                expected = _asked(at, "next_card")
                below = _in_suit(str(resolved[k].get("card") or "2C"), -1) \
                    if k < end and not ended else None
                for p, card in tries:
                    play = {"event": "play", "player": p, "card": card}
                    whole = _ends_with_hand(at, Event(play, line), resolved[k:end], hand,
                                            rules_broken, after)
                    if whole is not None:
                        found.append((line, play, whole))
                        if card in (expected, below):
                            due.add((line, card))
            if k == end:
                break
            try:
                at.apply(resolved[k])
            except REFUSED:
                return []  # a line the log refuses: no place is sure
        if len(found) > self.PICK_SEARCH:
            return []
        # A card the camera read at least once as laid this round, though it never settled
        # as a reading, was more likely played: those places first. Then the places just
        # before the same player's next play: a card laid on its player's pile and never
        # read was most likely covered at once by that player's next card (laid before
        # another player's card, it would lie on top until its player plays again). Where
        # more than `MISSED_MOST` fit, only the glimpsed ones and those, or the glimpsed
        # ones alone, when no more than `LIKELY_MOST` (Great Lakes 22: Bob's opening 3♦
        # under his 4♦, one of nine places, four of them under Bob's own next card; Great
        # Lakes 41: Ann's 2♥, all nine places under Ann's own cards).
        seen = [f for f in found if f[1]["card"] in glimpsed]
        own = [f for f in found if f not in seen and f[0] <= len(logged)
               and (before := self._line_of_at(f[0])) and before.get("player")
               == f[1]["player"]]
        # Where more than `LIKELY_MOST` of those fit, the glimpsed ones and the cards the
        # sequence expected there (or that the next play follows), when few enough (Boodle
        # 102: Cy's 8♣ after his 7♣, under his 2♦; fourteen places under Cy's own cards).
        in_sequence = [f for f in found if f not in seen and (f[0], f[1]["card"]) in due]
        own.sort(key=lambda f: f not in in_sequence)
        likely = [*seen, *own]
        rest = [f for f in found if f not in likely]
        fitting = found
        by_sequence = len(found) > self.MISSED_MOST and len(likely) > self.LIKELY_MOST \
            and 0 < len(in_sequence) and len(seen) + len(in_sequence) <= self.LIKELY_MOST
        found = ([*likely, *rest] if len(found) <= self.MISSED_MOST
                 else likely if len(likely) <= self.LIKELY_MOST
                 else [*seen, *in_sequence] if by_sequence
                 else seen if len(seen) <= self.LIKELY_MOST else [])
        if len(fitting) > self.MISSED_SEARCH:
            found = []  # (too many to name one by one, however likely)
        # Too many to offer, in few places: one answer a place, the card named by a person
        # (Boodle 60: Cy's 4♠ led before his K♣; four cards fit in each of three places).
        places = list(dict.fromkeys((f[0], f[1]["player"]) for f in [*likely, *rest]))
        picks = [next(f for f in fitting if (f[0], f[1]["player"]) == place)
                 for place in places] \
            if (not found or by_sequence) and len(places) <= self.PICK_PLACES else []

        def placed(line: int, play: dict[str, Any], whole: bool | None) -> Answer | None:
            """``play`` put in the place before ``line`` (after the log's end, past it), as
            an answer; a card a person names (`PICK`) only before a line of the log."""
            pick = play["card"] == PICK
            if line > len(logged):
                if pick:
                    return None  # (`_last_card_picks` asks for it)
                events: tuple[dict[str, Any], ...] | None = (play,)
                where = "last"
            else:
                events = self._played_before(play, line, logged,
                                             {} if last is None else {last.line: shown},
                                             drop)
                before = self._line_of_at(line)
                if (last is not None and line == last.line) or self._ended_at(line, resolved):
                    where = "last"
                elif before:
                    where = (f"before {before.get('player')}'s "
                             f"{Card.parse(str(before['card'])).pretty()}")
                else:
                    return None
            if events is None:
                return None
            label = (f"{play['player']}: another card{', played' if where == 'last' else ''} "
                     f"{where}…" if pick else
                     f"{play['player']} played {Card.parse(play['card']).pretty()} {where}")
            if last is not None:
                return Answer(label, events)
            return Answer(label, (*events, shown)) if whole \
                else Answer(label, events, again=True)

        answers = [a for f in found if (a := placed(*f)) is not None]
        answers += [a for line, play, whole in picks
                    if (a := placed(line, {**play, "card": PICK}, whole)) is not None]
        if not picks:
            # More places than `PICK_PLACES`: a person names the card, then the places where
            # that card fits are offered (Great Lakes 61: Bob's K♥ led before his 8♠; fifteen
            # cards in seven places under his own plays). Not where every one is offered.
            for p in dict.fromkeys(f[1]["player"] for f in fitting if f not in found):
                where = tuple(a for f in fitting if f[1]["player"] == p
                              and (a := placed(*f)) is not None)
                if where:
                    answers.append(Answer(f"{p}: another card, earlier…",
                                          ({"event": "play", "player": p, "card": PICK,
                                            "placed": EARLIER},), places=where))
        return answers

    #: `_missed_before_broken`'s places offered beside a trick's due cards: at most these,
    #: the likeliest.
    BROKEN_BESIDE = 3
    #: `_missed_before_broken`: beside the likeliest cards offered, at most this many places
    #: whose other cards were left out (the first as the cards were ranked) are offered for
    #: a person to name the card.
    BROKEN_PICKS = 2
    #: `_missed_before_broken`: the most places and cards tried that fit before nothing is
    #: offered (a lead by the player whose turn it is fits with almost any card).
    BROKEN_SEARCH = 80

    def _missed_before_broken(self, event: dict[str, Any], recent: int = 0
                              ) -> tuple[str, list[Answer]] | None:
        """A play that shows an earlier play broke a rule (a lead out of turn, proven only
        now): one card never read, played just before that earlier play or before one of
        the round's plays ahead of it, may make both fit (Pressman 27: Dee's K♣ never read,
        her 7♦ then a lead out of turn, shown by Bob's 8♦; Boodle 27: Cy's 5♥, then Bob's
        6♥ a lead, shown by Ann's 7♥). Each answer logs a card nobody played or shows, one
        the rules let that player play there, in one such place, then ``event``, where the
        log then breaks no more rules than it does now. First the cards that the next play
        follows in its suit, and those the sequence expected laid just before the same
        player's next play (covered at once), then the others of either kind, then the rest
        (a lead any hidden hand may excuse), each the places nearest the earlier play
        first, the next play's own player first; in a trick, a card of the suit led counts
        as expected. Where more than `MISSED_MOST` fit, the likeliest kinds alone, as many as
        fit in `LIKELY_MOST`. ``recent``: where ``event`` breaks a rule itself (or the
        referee refuses it), the places before the last ``recent`` plays are tried (Oh
        Claire! 22: Cy's A♦ never read, his Q♦ then read as the trick's last card, Ann's K♦
        winning it; Dee's 5♦ then out of turn). None where nothing is offered."""
        from companion.events import apply_corrections

        ref = self.referee
        if ref is None or event.get("event") != "play" or "card" not in event:
            return None
        rules_broken = len(ref.violations)
        mark = ref.checkpoint()
        try:
            ref.apply(Event(event, self.log.lines + 1))
            broken = [v.line for v in ref.violations[rules_broken:]]
        except REFUSED:
            broken = [self.log.lines + 1]
        finally:
            ref.rollback(mark)
        logged = read_log(self.log.path).events
        resolved, _ = apply_corrections(logged)
        start = max((k for k, ev in enumerate(resolved) if ev.kind in NEW_DEAL), default=-1)
        plays = [k for k, ev in enumerate(resolved) if k > start and ev.kind == "play"]
        if start < 0 or not plays or not broken:
            return None
        first, itself = min(broken), min(broken) > self.log.lines
        if itself and recent:
            first = resolved[plays[-1]].line
            plays = plays[-recent:]
        earlier = self._line_of_at(first)
        if not earlier:
            return None
        base = replay(resolved[:plays[0]])
        if base.errors or base.referee is None:
            return None
        at = base.referee
        unseen = self._unaccounted([str(event["card"])], glimpses=True)
        this = Event(event, len(logged) + 2)
        # (rank: 0 the card the next play follows, or the expected card laid under its
        # player's own next play, 1 and 2 either of the last alone, 3 any other; line;
        # another player's than the next play's; the play)
        found: list[tuple[int, int, bool, dict[str, Any]]] = []
        for k in range(plays[0], len(resolved)):
            ev = resolved[k]
            if ev.line > first:
                break
            if ev.kind == "play":
                expected = _asked(at, "next_card")
                led = _led_suit(at)
                tries = self._could_play(at, self.players, unseen)
                tries += [pc for pc in _below_next(ev.data, self.players, unseen)
                          if pc not in tries]
                passed: list[tuple[str, str]] = []
                if ev.line == first:
                    # Just before the play proven wrong, its own player's lead: the lead
                    # passed on to them (MR-6) where the rules name another's (Great Lakes
                    # 85: Bob's 3♠ never read after Ann's 6♦, then his 4♥ read as his lead
                    # out of turn, shown by his 6♠). Ranked with any other lead: the
                    # player the rules name is likelier (Michigan 45: Ann's Q♣ led, then
                    # Bob's 10♦ led with the lead passed on to him).
                    who = str(ev.get("player"))
                    passed = [(who, c) for c in unseen if (who, c) not in tries]
                    tries += passed
                for p, card in tries:
                    play = {"event": "play", "player": p, "card": card}
                    if _fits_before(at, Event(play, ev.line), [*resolved[k:], this],
                                    rules_broken):
                        own = p == ev.get("player")
                        due = card == expected or card[1] == led  # (a trick: its suit led)
                        below = _in_suit(str(ev.get("card") or "2C"), -1) == card
                        # (a card glimpsed in that player's pile: Great Lakes 1007 on the
                        # held-out tigullio deck, Bob's A♥ read once as it landed before his
                        # Q♣ covered it, then left out as a hand being shown)
                        seen = self.players.index(p) in self._glimpsed.get(card, set()) \
                            if p in self.players else False
                        found.append((0 if below or (own and (due or seen)) else
                                      3 if (p, card) in passed else 1 if own
                                      else 2 if due else 3, ev.line, not own, play))
                if len(found) > self.BROKEN_SEARCH:
                    return None
            try:
                at.apply(ev)
            except REFUSED:
                return None
        found.sort(key=lambda f: (f[0], -f[1], f[2]))
        fitting = found
        if len(found) > self.MISSED_MOST:
            # the likeliest kinds, as many as fit in `LIKELY_MOST`, never a kind in part
            kept = [f for f in found if f[0] < 3]
            while kept and len(kept) > self.LIKELY_MOST:
                kept = [f for f in kept if f[0] < kept[-1][0]]
            found = kept
        # Too many to offer, in few places: one answer a place, the card named by a person
        # (Michigan 45: Cy's 2♣ led before his 2♦; any black card of his fits there).
        # Beside the likeliest cards, the first places (as the cards were ranked: the
        # likeliest kind, then the nearest) whose other cards were left out, a card there
        # named by a person (Boodle 225: Cy's A♠ led after his 3♦ stopped the diamonds,
        # never read, then his 5♦ read as a lead in the suit stopped; the 4♦ alone offered,
        # by three players, and none of his other leads).
        places = list(dict.fromkeys((f[1], f[3]["player"]) for f in fitting if f not in found))
        if found:
            places = places[:self.BROKEN_PICKS]
        picks = [(line, {"event": "play", "player": p, "card": PICK}) for line, p in places] \
            if len(places) <= self.PICK_PLACES else []
        answers: list[Answer] = []
        for line, play in [*((f[1], f[3]) for f in found), *picks]:
            before = self._line_of_at(line)
            events = self._played_before(play, line, logged)
            if not before or events is None:
                continue
            where = f"before {before.get('player')}'s {Card.parse(str(before['card'])).pretty()}"
            answers.append(Answer(
                f"{play['player']}: another card {where}…" if play["card"] == PICK else
                f"{play['player']} played {Card.parse(play['card']).pretty()} {where}",
                (*events, event)))
        if not itself and "card" in earlier and self._read_as_under(str(earlier["card"])):
            # Or the play proven wrong was no card at all: the card under it misread
            # (Pressman 3232, 5% misread: a 5♥ logged in Cy's pile after Ann's A♥, his 10♠
            # read there more often since; then her 4♠ lead "shows Cy's 5♥ broke a rule",
            # and every answer kept the 5♥).
            withdrawn = ({"event": "correct", "line": first, "with": None}, dict(event))
            if self._accepts_after(withdrawn):
                answers.append(Answer(f"{earlier.get('player')} played no "
                                      f"{Card.parse(str(earlier['card'])).pretty()} (misread)",
                                      withdrawn))
        if not answers:
            return None
        read = Card.parse(str(event["card"])).pretty()
        if itself:
            return (f"{event.get('player')}'s {read} breaks a rule as read: was a card "
                    f"before it not seen?", answers)
        was = Card.parse(str(earlier["card"])).pretty()
        return (f"{event.get('player')}'s {read} shows {earlier.get('player')}'s {was} broke "
                f"a rule: was a card before it not seen?", answers)

    def _missed_by(self, reveal: dict[str, Any], read_now: Collection[str] = ()
                   ) -> list[Answer]:
        """Answers for a hand shown one card short of what its player holds by the log, once
        the round is over: a play of theirs this round the camera never saw (Michigan 25:
        Ann's 5♥ before her 2♠, never read; her hand of 3 shown where the log said 4). The
        places `_missed_places` finds where the log then takes the hand whole. ``read_now``:
        cards read on the table as the question is put that may be that play, read late,
        as well as a card of the hand (`_unaccounted`)."""
        ref = self.referee
        who = str(reveal.get("player"))
        cards = [str(c) for c in reveal.get("cards") or []]
        if ref is None or ref.expects() != frozenset({"reveal"}) \
                or _holds(ref, who) != len(cards) + 1:
            return []
        logged = read_log(self.log.path).events
        read = (logged, replay(logged))
        return [*self._short_moves(read, [who], reveal, cards, read_now=read_now),
                *self._lead_in_move(read, [who], reveal, cards, read_now=read_now),
                *(a for a in self._missed_places(logged, [who], reveal, cards,
                                                 read_now=read_now) if not a.again)]

    def _short_moves(self, read: tuple[Sequence[Event], Replay], out: Sequence[str],
                     reveal: dict[str, Any], cards: Sequence[str],
                     plays: tuple[int, Collection[int]] | None = None, *,
                     read_now: Collection[str] = ()) -> list[Answer]:
        """`_missed_by`, `_missed_earlier`: a move of several cards of a player of ``out``
        this round (a dump or a straight, GL-3, GL-4) held one card more that the camera
        never read, where the log then takes the hand ``reveal`` whole, breaking no more
        rules (Great Lakes 502: Ann's straight A♦ J♥ Q♥ 10♠ after Bob's K♦, logged without
        the 10♠; her hand 8♠ then a card short, and only a play of the 10♠ elsewhere was
        offered; 200: Cy's dump J♣ Q♣ K♦ A♦ without its J♣, Cy then holding a card by the
        log as the others showed their hands). ``read``: the log's events and their replay.
        ``plays``: (line, lines) where the hand was
        logged as plays (`_never_shown`): the first becomes the hand, the others are
        withdrawn (Great Lakes 407: Dee's dump A♣ K♥ A♦ A♥ without its A♦, then Ann's hand
        6♠ 4♥ logged as two plays). ``read_now``: as `_missed_by`'. At most
        `MISSED_MOST`."""
        from companion.events import apply_corrections

        resolved, _ = apply_corrections(read[0])
        start = max((k for k, ev in enumerate(resolved) if ev.kind in NEW_DEAL), default=-1)
        moves = [ev for ev in resolved[start + 1:] if ev.kind == "play"
                 and ev.get("player") in out and len(ev.get("cards") or []) > 1]
        if not moves:
            return []
        unseen = self._unaccounted(cards, read_now=read_now)
        hand: tuple[dict[str, Any], ...] = (reveal,) if plays is None else (
            {"event": "correct", "line": plays[0], "with": reveal},
            *({"event": "correct", "line": ln, "with": None} for ln in sorted(plays[1])))
        found: list[tuple[int, Answer]] = []  # (rules the log then breaks, answer)
        for move in reversed(moves):  # (the latest first)
            who = str(move.get("player"))
            laid = [str(c) for c in move.get("cards") or []]
            for card in unseen:
                # (after the others, or first: the card that follows the one before, GL-3;
                # Great Lakes 305, Dee's 8♦ after Bob's 7♦, her dump logged as 5♦ 4♥ 6♦)
                for whole in ([*laid, card], [card, *laid]):
                    if (moved := self._moved(move, whole, hand, read)) is not None:
                        found.append((moved[0], Answer(
                            f"{who}'s {' '.join(pretty_cards(laid))} held "
                            f"{Card.parse(card).pretty()} too", moved[1])))
                        break
        # A move short of a card mostly breaks a rule as logged (a dump of three): the cards
        # that mend the most are the ones that fit (305: the 8♦ mends every one; a 4♣ or a
        # 5♣ laid first, none).
        return _fewest_broken(found, self.MISSED_MOST)

    def _pile_seen(self, seat: int, cards: list[str], confidence: float, t_still: float
                   ) -> Observation:
        """An observation of ``cards`` in the pile of ``seat`` (none found: zone -1), read
        now, still since ``t_still``: what `_never_shown` and `_last_card_unseen` hold."""
        zone = next((k for k, z in enumerate(self.profile.zones)
                     if z.kind == "pile" and z.seat == seat), -1)
        return Observation(zone=zone, zone_name=self.profile.zones[zone].name if zone >= 0
                           else "", kind="pile", seat=seat, cards=cards,
                           confidence=confidence, t=self.tracker.t, t_still=t_still)

    def _never_shown(self) -> tuple[Observation, str, str, str, list[Answer]] | None:
        """Every hand is shown but one, whose player holds one card by the log: that card may
        have been played and not seen, the player going out with their last play, and the
        round's last play (by a player who went out with it by the log) then that player's
        hand shown (Boodle 20: Ann's 9♥ never read, her A♠ her last card; Bob's 7♠ shown
        after it was logged as his last play; Great Lakes 24: Cy's A♠, and Ann's 8♦ 9♦ shown
        logged as a dump). Or that card was shown with the other hands and never read
        (Pressman 807). Asked with the places `_missed_places` finds for that card, an
        answer that lets a person name it as played last, the card shown (those glimpsed in
        the player's pile, then one a person names), and "still holds a card" as its last
        answer: (observation, player asked about, reason, question, answers), held on that
        play's cards."""
        from companion.events import apply_corrections

        ref = self.referee
        if ref is None or self.pending or self._waiting or self._partial \
                or ref.expects() != frozenset({"reveal"}):
            return None
        revealed = getattr(ref.state, "revealed", {})
        waiting = [p for p in self.players if _holds(ref, p) and p not in revealed]
        if len(waiting) != 1 or _holds(ref, waiting[0]) != 1:
            return None
        who = waiting[0]
        logged = read_log(self.log.path).events
        resolved, _ = apply_corrections(logged)
        last = next((ev for ev in reversed(resolved) if ev.kind in ("play", *NEW_DEAL)), None)
        if last is None or last.kind != "play":
            return None
        player = last.get("player")
        if player not in self.players or player == who or _holds(ref, str(player)) != 0:
            return None
        # That player's plays just before, back to another's: the hand shown may be the
        # last of them together, each card read as a play of its own as it was laid down
        # (Boodle 343: Dee's Q♣ going out never read; Ann's 2♠ 2♦ 8♥ 9♥ shown, logged as
        # four plays of hers). The fewest that fit, as before the last play alone.
        at = resolved.index(last)
        run = [last]
        while at > 0 and resolved[at - 1].kind == "play" \
                and resolved[at - 1].get("player") == player:
            at -= 1
            run.insert(0, resolved[at])

        def hand_of(k: int) -> tuple[Event, frozenset[int], list[str], dict[str, Any]]:
            """The last ``k`` plays of the run as one hand shown: (its first play, the
            other plays' lines, its cards, the hand)."""
            first, *rest = run[-k:]
            cards = [c for ev in (first, *rest) for c in cards_of(ev.data)]
            shown = {"event": "reveal", "player": player, "cards": cards,
                     **{key: first.data[key] for key in ("t", "confidence")
                        if key in first.data}}
            return first, frozenset(ev.line for ev in rest), cards, shown

        read = (logged, replay(logged))
        answers: list[Answer] = []
        for k in range(1, len(run) + 1):
            first, drop, cards, shown = hand_of(k)
            if not cards:
                return None
            answers = [*self._short_moves(read, [who], shown, (), (first.line, drop)),
                       *self._lead_in_move(read, [who], shown, (), (first.line, drop)),
                       *self._missed_places(logged, [who], shown, (), first, drop)]
            if answers:
                break
        if not answers:
            first, drop, cards, shown = hand_of(1)  # (none fits: the last play alone)
        # The card a person names as the last play, where the search offers no such answer
        # (Michigan 142: Dee's 10♥, her last card, led after Cy's 9♣ stopped the clubs and
        # the lead passed on to her; only the 10♣ was tried by her there).
        pick = self._played_before({"event": "play", "player": who, "card": PICK},
                                   first.line, logged, {first.line: shown}, drop)
        if pick is not None and all(a.events != pick for a in answers):
            answers.append(Answer(f"{who}: another card, played last…", pick))
        # Or that card shown with the other hands and never read (Pressman 807: Bob's Q♥,
        # his last card; Cy's 4♥ shown after it was read, Bob's never): the cards glimpsed in
        # that player's pile first, then one a person names.
        seat = self.players.index(who)

        def shows(card: str) -> dict[str, Any]:
            return {"event": "reveal", "player": who, "cards": [card]}

        glimpsed = [c for c in self._unaccounted(cards)
                    if seat in self._glimpsed.get(c, set()) and self._accepts_all([shows(c)])]
        answers += [*(Answer(f"{who} shows {Card.parse(c).pretty()}", (shows(c),))
                      for c in glimpsed[:self.DUE_MOST]),
                    Answer(f"{who} shows another card…", (shows(PICK),))]
        obs = self._pile_seen(self.players.index(str(player)), cards,
                              float(first.data.get("confidence", 1.0)),
                              float(first.data.get("t", self.tracker.t)))
        answers.append(Answer(f"No: {who} still holds a card"))
        return (obs, who, f"{who} holds 1 card by the log and shows none",
                f"{who} shows no hand: was {who}'s hand not seen, or a card of {who}'s "
                f"missed, {player}'s {' '.join(pretty_cards(cards))} being a hand shown?",
                answers)

    def _last_trick_due(self) -> str | None:
        """In a game of tricks (Oh Claire!), the player due to play to the hand's last trick,
        once a card of it is laid; None elsewhere."""
        ref = self.referee
        state = getattr(ref, "state", None)
        trick, cards = getattr(state, "trick", None), getattr(state, "cards", None)
        done = getattr(state, "tricks_done", None)
        if not isinstance(trick, list) or not trick or not isinstance(cards, int) \
                or done != cards - 1 or getattr(state, "phase", "play") != "play":
            return None
        due = self._trick_turn("")
        return due if due in self.players else None

    def _last_card_unseen(self) -> tuple[Observation, str, str, str, list[Answer]] | None:
        """The hand's last trick short of a card once the table is still: the player due
        to play to it played their last card and the camera never read it (Oh Claire! 64:
        Bob's 4♦, the hand's last card; the hand was never scored, and nothing said so).
        Asked like `_never_shown`: the cards that player may have played (`DUE_MOST`:
        those glimpsed in their pile first, then the suit led, from the top), one a person
        names, and "still holds a card"."""
        due = self._last_trick_due()
        if due is None or self.pending or self._waiting or self._partial:
            return None
        led = _led_suit(self.referee)
        seat = self.players.index(due)
        unseen = self._unaccounted()
        glimpsed = {c for c in unseen if seat in self._glimpsed.get(c, set())}

        def play(card: str) -> dict[str, Any]:
            return {"event": "play", "player": due, "card": card}

        order = sorted((c for c in unseen if c in glimpsed or c[1] == led),
                       key=lambda c: (c not in glimpsed, c[1] != led, -RANKS.index(c[0])))
        cards = [c for c in order if self._accepts_all([play(c)])][:self.DUE_MOST]
        obs = self._pile_seen(seat, [], 1.0, self.tracker.t)
        answers = [*(Answer(Card.parse(c).pretty(), (play(c),)) for c in cards),
                   Answer(f"{due}: another card…", (play(PICK),)),
                   Answer(f"No: {due} still holds a card")]
        return (obs, due, f"the last trick waits for {due}'s card",
                f"{due}'s last card was not seen: which was it?", answers)

    #: `_never_shown`: seconds of a still table, once every hand but one is shown, before
    #: it asks (a player slow to lay a last card is no card missed); at once when no frame
    #: will follow.
    REVEAL_QUIET = 8.0

    def _ask_never_shown(self, result: FrameResult, t: float | None = None) -> None:
        """Hold `_never_shown`'s question, where it has one, on the play it doubts: at time
        ``t`` once the table has been still `REVEAL_QUIET` s since the last card logged, or
        when no frame will follow (None). Asked once for a log as it stands."""
        ref = self.referee
        if ref is None or self._never_asked == self.log.lines \
                or (ref.expects() != frozenset({"reveal"}) and self._last_trick_due() is None):
            return
        if t is not None:
            times = [float(ev.get("t", 0.0)) for _ln, ev in
                     [*self._line_of.values(), *self._grouped_in.values()]]
            if t - max(times, default=t) < self.REVEAL_QUIET \
                    or self.tracker.settling_since() is not None:
                return
        self._never_asked = self.log.lines
        asked = self._never_shown() or self._last_card_unseen()
        if asked is not None:
            obs, who, reason, question, answers = asked
            play = {"event": "play", "player": self.players[obs.seat or 0],
                    **({"card": obs.cards[0]} if len(obs.cards) == 1 else
                       {"card": PICK} if not obs.cards else {"cards": obs.cards}),
                    **stamp(obs)}
            self._hold(obs, reason, play, result, (question, answers))
            self._never_held = (next(reversed(self.pending)), who)

    def _withdraw_never_shown(self, observations: Sequence[Observation],
                              result: FrameResult) -> None:
        """`_never_shown`'s question goes once cards settle in the pile of the player it asks
        about: they show their hand after all."""
        if self._never_held is None or self._never_held[0] not in self.pending:
            return
        pid, who = self._never_held
        if any(o.seat is not None and o.seat < len(self.players)
               and self.players[o.seat] == who for o in observations):
            del self.pending[pid]
            self._never_held = None
            result.notes.append(f"{who} shows a hand: the question goes")

    @staticmethod
    def _could_play(ref: Any, players: Sequence[str], cards: Sequence[str]
                    ) -> list[tuple[str, str]]:
        """The (player, card) plays worth trying on ``ref`` as it stands (`_missed_earlier`):
        where the rules name whose lead it is, that player's with any card; where they name
        the card that continues the sequence, that card's by anyone, and any card of the
        player who leads if the sequence stops there (its card may lie in the dead hand:
        MR-6); else every one. Any other play is a rule broken, tried for nothing."""
        lead, nxt = _asked(ref, "turn"), _asked(ref, "next_card")
        if isinstance(lead, str):
            return [(lead, c) for c in cards] if lead in players else []
        if isinstance(nxt, str):
            stop = _asked(ref, "stop_leader")
            return [*((p, nxt) for p in players if nxt in cards),
                    *((stop, c) for c in cards if stop in players and c != nxt)]
        return [(p, c) for p in players for c in cards]

    def _reread(self, t: float, result: FrameResult) -> None:
        """A held card the camera now reads, again and again, as one of the question's
        answers is that card: the vision read it, the question settles itself."""
        for pid, held in list(self.pending.items()):
            obs = held.observation
            if len(obs.cards) > 1:
                self._reread_cards(pid, held, result)
                continue
            if not obs.positions or not held.options:
                continue
            x, y = obs.positions[0]
            votes = self.tracker.votes_at(x, y, held.asked + 1e-6)
            total = sum(votes.values())
            for answer in held.options:
                card = answer.card
                if (card is None or card == obs.cards[0] or len(answer.events) > 1
                        or votes.get(card, 0) < self.reread_frames
                        or votes.get(card, 0) < 0.8 * total):
                    continue
                self.pending.pop(pid)
                self._disown(held, answer.events)
                result.notes.append(f"read again: {Card.parse(card).pretty()}, not "
                                    f"{Card.parse(obs.cards[0]).pretty()}")
                for ev in answer.events:
                    self._append(dict(ev), result.announcements, result)
                    self.visual_count += 1
                break

    def _reread_cards(self, pid: int, held: Pending, result: FrameResult) -> None:
        """A held move of several cards (a revealed hand the table refused: a card already
        played, the same card twice, a card short) whose spots the camera now reads, again and
        again, as cards that make it one the table accepts: that move is logged, the
        question settles itself."""
        obs = held.observation
        event = held.event
        if event.get("event") not in ("play", "reveal") or len(obs.positions) != len(obs.cards):
            return
        cards = []
        for card, (x, y) in zip(obs.cards, obs.positions, strict=True):
            votes = self.tracker.votes_at(x, y, held.asked + 1e-6)
            best = max(votes, key=lambda c: votes[c], default=card)
            steady = votes.get(best, 0) >= max(self.reread_frames, 0.8 * sum(votes.values()))
            cards.append(best if steady and self._round_cards.get(best, 0) == 0 else card)
        if cards == obs.cards or len(set(cards)) != len(cards):
            return
        now = {**event, "cards": cards}
        ok, violations, _why = self._accepts(now)
        if not ok or violations:
            return
        self.pending.pop(pid)
        for card, new, (x, y) in zip(obs.cards, cards, obs.positions, strict=True):
            if new != card:
                self.tracker.misread_at(card, x, y)
                result.notes.append(f"read again: {Card.parse(new).pretty()}, not "
                                    f"{Card.parse(card).pretty()}")
        self._flush_script(self.visual_count, result.announcements, result)
        self._log_visual(now, obs, result)

    @property
    def deck_known(self) -> bool:
        """Whether the table's reader reads this deck as surely as those it was measured on
        (`vision.readers.deck_check.DeckCheck.deck_known`; true for a reader that does not
        say)."""
        return bool(getattr(self.detector, "deck_known", True))

    @staticmethod
    def _unsure_reason(obs: Observation) -> str:
        return f"a card of it read at {obs.confidence:.2f} on a deck new to the reader"

    def _unsure_suit(self, event: Mapping[str, Any], obs: Observation) -> str | None:
        """The card that comes next, where ``event`` is a play of its rank in another suit
        that only hidden hands excuse, read below `UNKNOWN_DECK_REVEAL_BELOW` on a deck new
        to the reader: the suit misread, as likely as a lead out of turn (Great Lakes 1005
        on the held-out tigullio deck: Cy's K♣ after Bob's Q♣ read as K♥ at 0.57 and logged
        as his lead; on a deck it never learnt, the suit head takes black for red too, which
        `_doubt` 's lookalikes leave out). None otherwise. (Holding a lead of the suit still
        running too, however surely read, mended Great Lakes 1002 and lost 1004, where
        Bob's 10♦ was such a lead: not kept.)"""
        card, nxt = event.get("card"), self._next_card()
        if event.get("event") != "play" or not isinstance(card, str) or nxt is None \
                or nxt == card or nxt[0] != card[0] or self.deck_known \
                or obs.confidence >= UNKNOWN_DECK_REVEAL_BELOW:
            return None
        return nxt if self._doubt(event) else None

    def _unseen_by_look(self, event: Mapping[str, Any], obs: Observation) -> bool:
        """Whether ``event``, a play of one card read below `UNSEEN_LOOK_BELOW` on a deck new
        to the reader, is a card the second look, reading the zone in this frame, does not
        read at all: two readers disagree and the first was unsure (tigullio Great Lakes
        1008: the first card of Cy's hand shown, 9♥, read alone as 7♥ at 0.52 while Bob's
        last play waited for a person, and logged as Cy's play; the look read 9♥ 9♣ 8♣ 4♠
        there)."""
        card = event.get("card")
        if event.get("event") != "play" or not isinstance(card, str) or self.deck_known \
                or obs.confidence >= UNSEEN_LOOK_BELOW or self.second_look is None \
                or self._frame is None:
            return False
        dets = self._zone_look(obs.zone)
        return card not in {dets.names[int(c)] for c in dets.class_id}

    def _swapped_by_look(self, event: Mapping[str, Any], obs: Observation
                         ) -> tuple[str, tuple[str, list[Answer]]] | None:
        """``event``, a play of one card, where the second look, reading the zone in this
        frame, does not read that card at all but reads within half a card's diagonal of it
        a card easily taken for it (`confusable`) that nobody played this round, surer than
        the table reader read its card (on any deck: the cheap webcam's Oh Claire! 1909,
        Ann's J♣ read as Q♣ at 0.75 in every frame, the Q♣ never dealt, so no rule caught
        it; the look read J♣ 0.82 there and no Q♣). The reason, and the question with the
        look's card first; None otherwise."""
        card = event.get("card")
        if event.get("event") != "play" or not isinstance(card, str) or not obs.positions \
                or obs.confidence >= SWAP_LOOK_BELOW or self.second_look is None \
                or self._frame is None:
            return None
        sure, spots = self._zone_look_surest(obs.zone)
        if card in sure:
            return None
        other = max((c for c in confusable(card)
                     if c in sure and sure[c] > obs.confidence
                     and not self._round_cards.get(c, 0)
                     and math.dist(spots[c], obs.positions[0]) <= HALF_DIAGONAL),
                    key=lambda c: sure[c], default=None)
        if other is None:
            return None
        one = {k: v for k, v in event.items() if k != "card"}
        swapped = {**one, "card": other}
        if not self._accepts_all([swapped]):
            return None
        said, seen = Card.parse(card).pretty(), Card.parse(other).pretty()
        return (f"read at {obs.confidence:.2f}; a second look reads {seen} there at "
                f"{sure[other]:.2f}",
                (f"{event.get('player')} played {said}?",
                 [Answer(seen, (swapped,)), Answer(f"{said} as read", (dict(event),))]))

    def _hand_unseen_by_look(self, event: Mapping[str, Any], obs: Observation
                             ) -> tuple[str, tuple[str, list[Answer]]] | None:
        """A hand shown, read as ``event`` below `UNSEEN_LOOK_BELOW` (on any deck: a card
        misread in a hand has few rules to catch it, and it pays chips), with a card that
        the second look, reading the zone in this frame, does not read at all, where it
        reads there a card nobody played this round that the table takes in its place (the
        cheap webcam's Michigan 1805: Cy's 10♦ read as 9♦ at 0.52-0.56 in every frame, the
        9♦ in the dead hand, the look reading Q♦ 0.91 and 10♦ 0.82). The reason, and the
        question: the hands with such a card in its place, the look's card nearest the card
        it does not read first, then the hand as read. None otherwise."""
        cards = [str(c) for c in event.get("cards") or []]
        if event.get("event") != "reveal" or not cards \
                or obs.confidence >= UNSEEN_LOOK_BELOW or self.second_look is None \
                or self._frame is None:
            return None
        sure, spots = self._zone_look_surest(obs.zone)
        unseen = [c for c in cards if c not in sure]
        others = [c for c in sure if c not in cards and not self._round_cards.get(c, 0)]
        at = dict(zip(obs.cards, obs.positions, strict=False))
        # (the look's card nearest the card it does not read first: the same card read
        # another way; then the surest)
        swaps = sorted(((card, other) for card in unseen for other in others),
                       key=lambda s: (math.dist(at[s[0]], spots[s[1]]) if s[0] in at
                                      else math.inf, -sure[s[1]], s))
        answers: list[Answer] = []
        for card, other in swaps:
            hand = {**event, "cards": [other if c == card else c for c in cards]}
            if self._accepts(hand)[:2] == (True, 0):
                answers.append(Answer(" ".join(pretty_cards(hand["cards"])), (hand,)))
        if not answers:
            return None
        said = " ".join(pretty_cards(cards))
        answers.append(Answer(f"{said} as read", (dict(event),)))
        return (f"{Card.parse(unseen[0]).pretty()} read at {obs.confidence:.2f}, not seen by "
                f"a second look", (f"{event.get('player')} shows {said}?", answers))

    #: `_left_by_move_of`: the cards the look read beside a move are remembered only where
    #: it read them within this many seconds of the move coming to rest; read later (the
    #: move placed once a question before it was answered), the pile may hold the cards
    #: laid since (tigullio Great Lakes 1006: Bob's 7♥, laid a second after his dump).
    LEFT_BY_MOVE_WITHIN = 0.5
    #: How many readings' looks at their pile `_look_as_laid` keeps at most.
    LAID_LOOKS_KEPT = 32

    def _left_by_move_of(self, event: Mapping[str, Any], obs: Observation) -> str | None:
        """``event``, a play of one card, is of a card the second look read in this pile
        as it placed the move logged there last, and left out of that move: it lay there
        before it could have been laid after the move, one of the move's cards read another
        way (its other corner) or a card laid with it. The move, named for a person
        ("Ann's move Q♥ 10♦ K♣ A♠"); None otherwise (dondorf Great Lakes 1000: the look
        read Ann's dump Q♥ 10♦ K♣ A♠ and a K♦ at 0.57 beside them; the table reader read
        the K♦ there 0.2 s later, and it was logged as her lead in silence)."""
        card = event.get("card")
        left = self._left_by_move.get(obs.seat) if obs.seat is not None else None
        if event.get("event") != "play" or not isinstance(card, str) or left is None \
                or card not in left[1]:
            return None
        cards = left[0]
        logged = [lg for c in cards if (lg := self._logged(c)) is not None]
        if len(logged) != len(cards) or len({line for line, _ev in logged}) != 1:
            return None  # the move was not logged as such, or has been corrected
        if self._laid_since(cards[0]):
            return None  # a card of this pile logged after the move: it is not the last
        return f"{event.get('player')}'s move {' '.join(pretty_cards(cards))}"

    def _zone_look_surest(self, zone: int
                          ) -> tuple[dict[str, float], dict[str, tuple[float, float]]]:
        """The second look's reading of ``zone`` in this frame (`_zone_look`), per card it
        reads: its surest score, and where on the board that reading lies."""
        dets = self._zone_look(zone)
        sure: dict[str, float] = {}
        spots: dict[str, tuple[float, float]] = {}
        for cid, conf, (x, y) in zip(dets.class_id, dets.confidence, self._on_board(dets),
                                     strict=True):
            code = dets.names[int(cid)]
            if float(conf) > sure.get(code, -1.0):
                sure[code], spots[code] = float(conf), (float(x), float(y))
        return sure, spots

    def _zone_look(self, zone: int) -> Detections:
        """The second look's reading of ``zone`` in the frame being processed, read once
        however many checks of it ask (`_look_at_changes`, then `_look_at_move` and
        `_unseen_by_look` for a Great Lakes play of one card read there)."""
        assert self.second_look is not None and self._frame is not None
        frame, t, profile = self._frame, self.tracker.t, self.profile
        cached = self._zone_looked
        if cached is None or not (cached[1] is frame and cached[2] == t
                                  and cached[3] is profile and cached[4] == zone):
            dets = self.second_look.detect_table(frame, profile, zones=[zone])
            cached = self._zone_looked = (dets, frame, t, profile, zone)
        return cached[0]

    def _unsure_hand(self, obs: Observation) -> bool:
        """A hand shown, read as ``obs``, that a person confirms: on a deck new to the reader
        with a card read below `UNKNOWN_DECK_REVEAL_BELOW`."""
        return obs.confidence < UNKNOWN_DECK_REVEAL_BELOW and not self.deck_known

    def _look_again(self, frame: np.ndarray, result: FrameResult) -> None:
        """A hand shown that the table refuses as read, because the reader saw fewer cards
        than the player holds (a spread, where only the top card shows whole), is read again
        by the second look (the index reader, which reads each corner index a spread leaves
        showing) in the next frames, from the moment it waits for the rest of its cards. The
        cards it reads most often (`HAND_SHARE`) that nobody played this round, alone or else
        with those read at first, make the hand when the table accepts it as it is (as many
        cards as the player holds, breaking no rule): it is logged, and a question about it
        settles itself.
        Otherwise the hand waits, and is put to people, as without the second look."""
        if self.second_look is None:
            return
        shown: dict[int, tuple[dict[str, Any], Observation, int | None]] = {}
        for zone, (obs, _deadline, _why, offer) in self._partial.items():
            if offer is not None and offer.get("event") == "reveal":
                shown[zone] = (offer, obs, None)
        for pid, held in self.pending.items():
            if held.event.get("event") == "reveal" and held.observation.zone >= 0:
                shown.setdefault(held.observation.zone, (held.event, held.observation, pid))
        # A reading waiting behind a question may be a hand shown: its pile is read while
        # the hand lies there (the table may be cleared for the next deal by the time the
        # question is answered), and the votes wait with it.
        waiting = {o.zone for o in self._waiting if o.kind == "pile" and o.seat is not None
                   and o.zone not in shown}
        for zone in [z for z in self._looks if z not in shown and z not in waiting]:
            del self._looks[zone]  # that hand was logged or answered
            self._looks_decided.discard(zone)
            self._proofs.pop(zone, None)
            self._guesses.pop(zone, None)
        for zone in waiting:
            if zone not in self._looks or self._looks[zone][0] < self.LOOK_FRAMES:
                self._look_at(frame, zone)
        for zone, (event, obs, held_id) in shown.items():
            if held_id is not None:
                self._offer_guesses(held_id, [], self._guesses.get(zone, []))
                if zone in self._proofs:
                    self._offer(held_id, self._proofs[zone])
            reads, votes, scores = self._looks.get(zone, (0, Counter(), {}))
            if reads < self.LOOK_FRAMES:
                reads, votes, scores = self._look_at(frame, zone)
            elif zone in self._looks_decided:
                continue  # its last reading decided nothing: it stays with people
            if reads < self.LOOK_MIN:
                continue
            if reads >= self.LOOK_FRAMES:
                self._looks_decided.add(zone)
            first = list(event["cards"])
            # The cards the second look reads most often (in at least `HAND_SHARE` of its
            # frames) alone, else with those read at first (the top card of a spread, whose
            # index another card may hide): the table, which knows how many cards the player
            # holds, takes the first that makes a hand breaking no rule. The look's own
            # reading goes first: it reads every index the spread shows, where the first
            # reading saw the top card whole and may have taken it for its lookalike (Q♣
            # read K♣: with it, 9♣ from the look made a hand the table accepted, wrongly).
            # Read as often, a card that looks like one played into this pile this round
            # comes after the others (5♥ beside the 5♦ lying there: the 5♦ misread, most often).
            ranked = self._look_order((c for c, n in votes.items()
                                       if n >= self.HAND_SHARE * reads
                                       and self._round_cards.get(c, 0) == 0),
                                      votes, scores, obs.seat)
            tries = [sorted(ranked[:n]) for n in range(1, len(ranked) + 1)]
            tries += _with_runs(first, ranked)
            # The table's first reading with the look's cards read surely, leaving out a card
            # of the other suit of one played into this pile (`_shadow` 2), is tried first:
            # the hand lies over the pile, and the look reads the indices showing under it
            # too, a suit within its colour the likeliest misreading (tigullio, Boodle 2508:
            # Dee's 10♥ read by the table, her 8♦ under the hand read by the look as 8♥ and
            # the 10♥ never surely; A♦ 7♥ 8♥ was logged in silence, where the 10♥ with the
            # look's A♦ 7♥ made her hand). Not where the table's reading is that card.
            twins = [c for c in ranked if c not in first and self._shadow(c, obs.seat) > 1]
            if twins:
                clean = [c for c in ranked if c not in twins
                         and scores.get(c, 0.0) >= self.LOOK_SURE * votes[c]]
                tries[:0] = _with_runs(first, clean)
            # A hand that proves a rule broken (a card it shows was due to be played) is
            # taken only when each of its cards was read in most frames (`LOOK_SHARE`) and
            # none looks like a card played into this pile this round: a misread card must
            # not make a finding (Ann's 5♦ lying in her pile, read 5♥ in most frames, made
            # her hand 5♥ 9♥ and accused her of withholding 5♥; she held 9♥ A♦).
            often = {c for c, n in votes.items() if n >= self.LOOK_SHARE * reads}
            sure = {c for c in often if not self._shadowed(c, obs.seat)}
            now = next((t for t in ({**event, "cards": cards} for cards in tries
                                    if cards != first)
                        if (verdict := self._accepts(t))[0]
                        and (verdict[1] == 0 or set(t["cards"]) <= sure)), None)

            # A whole hand held as read unsurely on a deck new to the reader: the look's
            # reading of those very cards, in most of its frames and surely, settles it; a
            # hand the look reads otherwise is offered, never logged over it (dondorf,
            # Boodle 908: Bob's 10♣ Q♣ read at 0.60, read by the look as 8♣ Q♣ at 0.7 and
            # over, which the table took).
            unsure_first = self._unsure_hand(obs)
            whole = held_id is not None and unsure_first and self._accepts(event)[0]
            if whole and set(first) <= often and not _look_unsure(first, votes, scores):
                now = event
            elif now is None:
                proof = self._proof(event, tries, often)
                if proof is not None:
                    self._proofs[zone] = proof
                # Nothing to take as it is: the hands its readings make so far are offered.
                before = self._guesses.get(zone, [])
                self._guesses[zone] = self._hands_read(event, votes, scores, obs, proof)
                if held_id is not None:
                    self._offer_guesses(held_id, before, self._guesses[zone])
                    self.pending[held_id].draft = self._hand_draft(event, reads, votes,
                                                                  scores, obs)
                    if proof is not None:
                        self._offer(held_id, proof)
                continue
            elif whole or not self.deck_known and _look_unsure(
                    [c for c in now["cards"] if unsure_first or c not in first],
                    votes, scores):
                # On a deck new to the reader, a card the look reads unsurely (on average
                # over its frames) is a person's to confirm: its hand is offered first
                # (tigullio, Pressman 102: Dee's K♣ read by the look as 2♠ at 0.46). The
                # cards first read surely stand as read.
                if held_id is None:
                    why = self._partial.pop(zone)[2]
                    held_id = self._hold(obs, why or self._unsure_reason(obs), event, result)
                self._offer(held_id, now)
                self._looks_decided.add(zone)
                continue
            if held_id is None:
                del self._partial[zone]
            else:
                del self.pending[held_id]
            del self._looks[zone]
            self._looks_decided.discard(zone)
            result.notes.append(f"read again: {now['player']} shows "
                                f"{' '.join(pretty_cards(now['cards']))}")
            self._flush_script(self.visual_count, result.announcements, result)
            self._log_visual(now, obs, result)

    #: How many cards the hands offered after a look that decided nothing are made of (the
    #: hand's first reading, then the look's cards, the most often read first), at least
    #: (where the player holds more: as many and `GUESS_SPARE` more), and how many such
    #: hands are offered.
    GUESS_POOL, GUESS_SPARE, GUESSES = 8, 2, 3

    def _hands_read(self, event: dict[str, Any], votes: Counter[str],
                    scores: Mapping[str, float], obs: Observation,
                    proof: dict[str, Any] | None) -> list[dict[str, Any]]:
        """Hands of as many cards as the player holds, made of the cards first read in the
        hand shown and those the second look read there in any of its frames that nobody
        played this round, that the table accepts (`_accepts`; one proving a rule broken
        too: people decide): up to `GUESSES`, the proof first, then those of the cards read
        first and most often. Any of them, not only the few the look takes by itself
        (`_look_again`'s tries): a spread whose lower card's index reads two ways (J♠ and
        J♦) leaves the right hand among them, one click instead of a hand typed. Where the
        referee counts the cards the player holds, hands of that many alone, from a pool
        that many and `GUESS_SPARE` more: a Great Lakes hand of 11 was never offered from 8
        (the cheap webcam's Great Lakes 2801: Cy's hand, every card of it read by the look,
        his 10♣ in a third of its frames, typed in whole)."""
        read = self._look_order((c for c in votes if self._round_cards.get(c, 0) == 0),
                                votes, scores, obs.seat)
        holds = _holds(self.referee, str(event.get("player")))
        most = self.GUESS_POOL if not holds else max(self.GUESS_POOL, holds + self.GUESS_SPARE)
        pool = list(dict.fromkeys([*event["cards"], *read]))[:most]
        out = [proof] if proof is not None else []
        first = sorted(event["cards"])
        for size in [holds] if holds else range(1, len(pool) + 1):
            for cards in combinations(pool, size):
                if len(out) >= self.GUESSES:
                    return out
                hand = {**event, "cards": sorted(cards)}
                if hand["cards"] != first and hand not in out and self._accepts(hand)[0]:
                    out.append(hand)
        return out

    def _hand_draft(self, event: dict[str, Any], reads: int, votes: Counter[str],
                    scores: Mapping[str, float], obs: Observation) -> list[str]:
        """The hand a person starts from as they type in a hand shown that no reading
        makes whole (`Pending.draft`): the cards first read, then those the second look read
        in at least `HAND_SHARE` of its frames that nobody played this round, the likeliest
        first, no more than the player holds; none where the look adds nothing. (The cheap
        webcam's Great Lakes 2801: Dee's hand of 8 read as J♣ 9♠, the look reading five more
        of it in most frames and her 4♦ never; a person typed all 8.) ``reads``: the
        look's frames, ``votes`` and ``scores`` its readings in them (`_looks`)."""
        read = self._look_order((c for c, n in votes.items() if n >= self.HAND_SHARE * reads
                                 and self._round_cards.get(c, 0) == 0),
                                votes, scores, obs.seat)
        first = [str(c) for c in event.get("cards") or []]
        draft = list(dict.fromkeys([*first, *read]))
        holds = _holds(self.referee, str(event.get("player")))
        draft = draft[:holds] if holds else draft
        return draft if len(draft) > len(first) else []

    def _proof(self, event: dict[str, Any], tries: list[list[str]], often: set[str]
               ) -> dict[str, Any] | None:
        """A hand of cards the look read ``often`` (in most frames) that the table accepts as
        proving a rule broken, held back only because one of its cards looks like a card
        played into that pile (`_shadowed`); None if there is none."""
        for cards in tries:
            proof = {**event, "cards": cards}
            if set(cards) <= often and self._accepts(proof)[0]:
                return proof
        return None

    def _offer_guesses(self, held_id: int, before: list[dict[str, Any]],
                       now: list[dict[str, Any]]) -> None:
        """Make the hands ``now`` the first one-click answers of the held hand, in their
        order, in place of the hands offered ``before`` (the look's readings so far)."""
        held = self.pending[held_id]
        stale = {hand_label(h) for h in before} - {hand_label(h) for h in now}
        held.options[:] = [a for a in held.options if a.label not in stale]
        for hand in reversed(now):
            self._offer(held_id, hand)

    def _offer(self, held_id: int, proof: dict[str, Any]) -> None:
        """Make ``proof`` the first one-click answer of the held hand: people decide. A hand
        offered already, in any order of its cards, is not offered twice (tigullio Great
        Lakes 101: "J♦ K♥ K♠ 3♥ / 3♥ J♦ K♥ K♠")."""
        held = self.pending[held_id]
        label = hand_label(proof)
        if all(a.label != label and not (len(a.events) == 1 and _same_hand(a.events[0], proof))
               for a in held.options):
            held.options.insert(0, Answer(label, (proof,)))

    def _look_at_move(self, obs: Observation
                      ) -> tuple[dict[str, Any], list[dict[str, Any]], bool] | None:
        """A move of several cards read as fewer (a Great Lakes dump laid as a spread, where
        the reader sees the top card whole and the others only by their corner indices):
        the second look reads the pile in this frame, and the cards it reads that nobody
        played this round join those read at first. The first set of the move's size whose
        play the table accepts breaking no rule (in any order of its first card, GL-3) is
        the move. None: no such set (the move is placed as it was read).

        With it, the other moves a person should choose from when the look is unsure of it:
        other sets the table accepts as well, and, for a card the look read below
        `LOOK_SURE` in its one frame, the move with that card's lookalikes instead; and
        whether it may be logged without asking (no other move, and not read from more
        cards than a move lays). A run or a set does not depend on suits: the table cannot
        catch a suit read wrong in a dump, so an unsure one is asked, not logged in
        silence. A reading placed late (behind a question) is placed without the cards read
        coming to rest there after it, which the look sees too (`_read_later`: the cheap
        webcam's Great Lakes 2606, Cy's 2♠, placed once his move before it was answered,
        was logged with his 2♥ and K♣ laid in the two seconds after it and a 2♦ the look
        misread, as one move of four, in silence; a dump read in part and placed late keeps
        its own cards: tigullio Great Lakes 2601, Dee's 4♦ and 5♦ under her 7♥ 8♥, her 2♦
        laid before the question ahead was answered)."""
        if not self._looks_at_move(obs):
            return None
        size = self.SEVERAL_AT_ONCE[self.game]
        read = self._read_once(obs)
        assert obs.seat is not None
        laid = self._laid_looks.pop((obs.zone, obs.t_still), None)
        sure, spots = laid if laid is not None else self._zone_look_surest(obs.zone)
        later = self._read_later(obs)
        more = sorted(c for c in sure
                      if c not in read and c not in later and not self._round_cards.get(c, 0))
        player = self.players[obs.seat]

        def accepted(cards: list[str]) -> dict[str, Any] | None:
            for first in cards:
                move = {"event": "play", "player": player,
                        "cards": [first, *(c for c in cards if c != first)], **stamp(obs)}
                if self._accepts(move)[:2] == (True, 0):
                    return move
            return None

        if len(read) > size:
            # More cards than one move lays: misreadings among them (a dump's indices read
            # as other cards, one read twice). The sets of the look's own readings that make
            # a move are put to people, the likeliest first; nothing is logged in silence.
            pool = sorted((c for c in sure if c not in later and not self._round_cards.get(c, 0)),
                          key=lambda c: (-sure[c], c))
            moves = [m for cards in combinations(pool, size)
                     if (m := accepted(list(cards))) is not None][:4]
            if not moves:
                return None
            self._look_spot.update({c: spots[c] for m in moves for c in m["cards"]})
            return moves[0], moves[1:], False
        moves = [m for extra in combinations(more, size - len(read))
                 if (m := accepted([*read, *extra])) is not None]
        if not moves:
            # (the look's four surest cards at most: every card not played is tried beside
            # them, each in every order of its first card)
            return self._move_a_card_short(
                obs, read, sorted(more, key=lambda c: (-sure[c], c))[:4], accepted)
        move, others = moves[0], moves[1:]
        self._look_spot.update({c: spots[c] for m in moves for c in m["cards"] if c in spots})
        if self.tracker.t - obs.t_still <= self.LEFT_BY_MOVE_WITHIN:
            self._left_by_move[obs.seat] = (list(move["cards"]),
                                            {c for c in more if c not in move["cards"]})
        for card in move["cards"]:
            if card in read or sure[card] >= self.LOOK_SURE:
                continue
            for alt in confusable(card):
                if alt in move["cards"] or self._round_cards.get(alt, 0):
                    continue
                swapped = accepted([alt if c == card else c for c in move["cards"]])
                if swapped is not None and all(set(swapped["cards"]) != set(o["cards"])
                                               for o in others):
                    others.append(swapped)
        return move, others, not others

    def _read_once(self, obs: Observation) -> list[str]:
        """The cards of ``obs``; with one deck a code read twice in one lay is one card."""
        return (list(dict.fromkeys(obs.cards)) if self.tracker.config.copies == 1
                else list(obs.cards))

    def _looks_at_move(self, obs: Observation) -> bool:
        """Whether `_look_at_move` reads the pile of ``obs``: a move of fewer or more cards
        than a move of several lays, in a game of such moves, with a second look."""
        size = self.SEVERAL_AT_ONCE.get(self.game)
        return not (self.second_look is None or self._frame is None or size is None
                    or obs.kind != "pile" or obs.seat is None
                    or obs.seat >= len(self.players)
                    or not 0 < len(self._read_once(obs)) != size)

    def _look_as_laid(self, obs: Observation) -> None:
        """Keep the second look's reading of the pile of ``obs`` as it lies in this frame,
        where `_look_at_move` reads it, for when ``obs`` is placed: later, if it waits
        behind a question, when the pile may hold the cards laid since and they may cover
        the move's own (tigullio Great Lakes 2601: Dee's dump 7♥ 4♦ 5♦ 8♥, read as 7♥ 8♥
        while a question was open; her 2♦, laid a second later on the 4♦ and 5♦, lay there
        when it was placed, and 7♥ 8♥ was logged as two follows, in silence)."""
        if self._looks_at_move(obs):
            if len(self._laid_looks) >= self.LAID_LOOKS_KEPT:
                del self._laid_looks[next(iter(self._laid_looks))]
            self._laid_looks[(obs.zone, obs.t_still)] = self._zone_look_surest(obs.zone)

    def _read_later(self, obs: Observation) -> set[str]:
        """The cards the table's reader read coming to rest in ``obs`` 's zone after it,
        their readings waiting behind a question as ``obs`` did: cards laid since, which
        the look, reading the pile as it lies now, sees too."""
        return {c for o in self._waiting if o.zone == obs.zone and o.t_still > obs.t_still
                for c in o.cards}

    def _move_a_card_short(self, obs: Observation, read: list[str], more: list[str],
                           accepted: Callable[[list[str]], dict[str, Any] | None]
                           ) -> tuple[dict[str, Any], list[dict[str, Any]], bool] | None:
        """A move of several cards read as fewer, where the second look too reads all its
        cards but one (Great Lakes 901 on the held-out tigullio deck: Cy's dump 10♥ 8♣ J♣
        Q♣ after 9♥, read as his Q♣ alone; the look read 10♥ and 8♣ beside it, never J♣, and
        his Q♣ was logged as a lead only hidden hands excuse, the dump lost in silence; Great
        Lakes 1000: Ann's dump Q♥ 10♦ A♠ K♣ read as A♠ then 10♦ led, a move the rules allow
        after an Ace). Only where the table would log the move as read: a single card that
        breaks a rule or that only hidden hands excuse, or several cards that make a move
        (refused as read, the table waits for the rest of the move). The moves made of it,
        the look's cards and any one card not played yet, for a person to choose from, the
        move as read last. None where no such move exists, and while the table waits for no
        play (hands shown at the round's end)."""
        size = self.SEVERAL_AT_ONCE.get(self.game, 0)
        short = size - len(read) - 1
        ref = self.referee
        if short < 1 or len(more) < short or obs.seat is None or ref is None \
                or ref.expects() != frozenset({"play"}):
            return None  # (a hand shown at the round's end is no move a card short)
        player = self.players[obs.seat]
        # The move as the table would take it (`TablePipeline._interpret`): one card even
        # where it breaks a rule, several only where they make a move breaking none.
        if len(read) > 1:
            as_read = accepted(read)
            if as_read is None:
                return None  # refused as read: the table waits for the rest of the move
        else:
            as_read = {"event": "play", "player": player, "card": read[0], **stamp(obs)}
            ok, broken, _why = self._accepts(as_read)
            if not ok:
                return None  # refused as read: the table waits for the rest of the move
            if not broken and not self._doubt(as_read):
                return None  # a play the table takes cleanly
        pool = [c for c in CARD_CODES
                if c not in read and c not in more and not self._round_cards.get(c, 0)]
        moves: list[dict[str, Any]] = []
        for extra in combinations(more, short):
            for card in pool:
                made = accepted([*read, *extra, card])
                if made is not None and all(set(made["cards"]) != set(m["cards"])
                                            for m in moves):
                    moves.append(made)
        if not moves:
            return None
        return moves[0], [*moves[1:], as_read], False

    def _on_board(self, dets: Detections) -> np.ndarray:
        """Where each detection's centre lies on the board (board units, as the tracker
        places cards): (N, 2)."""
        if not len(dets):
            return np.zeros((0, 2))
        return np.asarray(apply_homography(self.profile.inverse, dets.centers))

    def _look_at(self, frame: np.ndarray, zone: int
                 ) -> tuple[int, Counter[str], dict[str, float]]:
        """The second look reads ``zone`` in this frame: its reads, votes and scores
        (`_looks`) so far, this frame's counted."""
        assert self.second_look is not None
        reads, votes, scores = self._looks.get(zone, (0, Counter(), {}))
        dets = self.second_look.detect_table(frame, self.profile, zones=[zone])
        new = self._new_cards(dets)
        votes.update(new)
        for card in new:
            scores[card] = scores.get(card, 0.0) + max(
                float(s) for name, _b, s in dets if name == card)
        self._looks[zone] = (reads + 1, votes, scores)
        return self._looks[zone]

    def _new_cards(self, dets: Detections) -> set[str]:
        """The cards a second look read, less those read on the spot where it read a card of
        a several-card move when the move was logged, and that look like that card: that
        card, covered or misread, not a new one (Cy's 4♣, laid in a Great Lakes dump, read
        as 4♠ where it lay made his hand shown 3♠ 4♠ 8♠, not 3♠ 8♠ K♠). Not the spots of
        single plays: a hand shown is often laid on its player's pile, and its cards then lie
        where the cards under them were read (Bob's 2♦ on his 2♥ at the demo table); where
        one is left out the hand is asked, not logged."""
        if not len(dets) or not self._look_spot:
            return {dets.names[int(c)] for c in dets.class_id}
        spot = self.tracker.config.same_spot
        out = set()
        for cid, (x, y) in zip(dets.class_id, self._on_board(dets), strict=True):
            code = dets.names[int(cid)]
            if not any((at := self._look_spot.get(o)) is not None
                       and float(np.hypot(at[0] - x, at[1] - y)) <= spot
                       for o in confusable(code) if self._round_cards.get(o, 0)):
                out.add(code)
        return out

    def _look_order(self, cards: Iterable[str], votes: Counter[str],
                    scores: Mapping[str, float], seat: int | None) -> list[str]:
        """The second look's cards read at a seat's pile, the likeliest first: the most often
        read, then those not like a card played into that pile (`_shadowed`), then the most
        surely read (its ``scores`` summed over the frames). Tigullio, Boodle 1103: Ann's
        6♥ 5♣ 6♣ and the 4♦ under them, read as 4♥, were all read in every frame; 4♥ and 6♥
        both look like cards of her pile (4♦, 5♦), and the order of their names put the 4♥,
        read at 0.72 against the 6♥'s 0.96, in her hand in silence."""
        return sorted(cards, key=lambda c: (-votes[c], self._shadowed(c, seat),
                                            -scores.get(c, 0.0), c))

    def _shadowed(self, card: str, seat: int | None) -> bool:
        """Does ``card`` look like a card played into ``seat``'s pile this round (one it is
        taken for, or one taken for it: `confusable`)?"""
        return self._shadow(card, seat) > 0

    def _shadow(self, card: str, seat: int | None) -> int:
        """How like a card played into ``seat``'s pile this round ``card`` is: 2 where that
        card is ``card``'s rank in the other suit of its colour (the likeliest misreading),
        1 where it is another card ``card`` is taken for or taken for it (`confusable`), 0
        where none is."""
        if seat is None:
            return 0
        if self._played_by.get(card[0] + SUIT_LOOKALIKE[card[1]], -1) == seat:
            return 2
        return int(any(self._played_by.get(other, -1) == seat for other in confusable(card)))

    def _unread_now(self, z: int, since: float, votes: Counter[str], reads: int) -> None:
        """Remember that pile ``z`` changed picture at ``since`` with no new card read there
        (`_unread`), with the card the sequence expects where the second look read it in
        most of its ``reads`` there (a card it leaves out, as it looks like one played into
        that pile, or as another card was laid on it before the look was done)."""
        nxt = self._next_card()
        seen = nxt if nxt is not None and votes.get(nxt, 0) >= self.LOOK_SHARE * reads else None
        self._unread[z] = (since, seen)

    def _look_at_changes(self, frame: np.ndarray, result: FrameResult) -> list[Observation]:
        """A seat's pile that came to rest in another picture (a card laid, a hand shown)
        while the table reader read no new card there (a card it does not read: a court card
        of an unfamiliar deck, a spread of indices) is read by the second look in the next
        frames. The cards nobody played this round that it reads in most of them
        (`LOOK_SHARE` of `LOOK_MIN`) are a reading of that pile like any other (returned):
        the table places it, or holds it for a person, in table order. A pile whose new
        card the reader read (or reads now) is left to it. A change neither reader explains
        is remembered (`_unread`), as is one the look read as another card before the
        reader's new card showed there (that card was laid on it): a jump in the sequence
        onto that pile is then asked (`_missed`), not taken for a lead after a stop; so is
        a lead the rules allow onto it where the look read there the card the sequence
        expects (`_passed_over`). The piles' pictures are watched with no second look too
        (`_laid_more`)."""
        found: list[Observation] = []
        piles = [z for z, zone in enumerate(self.tracker.zones)
                 if zone.kind == "pile" and zone.seat is not None
                 and zone.seat < len(self.players)]
        if self._changes is None:
            self._changes = ZoneChanges.of_polygons(self.profile.zone_polygons_px(),
                                                    frame.shape[:2])
        t = result.t
        changed = self._changes.update(frame, piles, t=t)
        self._note_seen(changed, result)
        if self.second_look is None:
            return found
        for z in changed:
            if t - self._read_at.get(z, float("-inf")) > 1.0:
                self._changed[z] = (t, 0, Counter())
        seeing: dict[str, set[str]] = {}
        for d in result.detections:
            if not self._round_cards.get(str(d["card"]), 0):
                seeing.setdefault(str(d["zone"]), set()).add(str(d["card"]))
        for z, (since, reads, votes) in list(self._changed.items()):
            zone = self.tracker.zones[z]
            if zone.name in seeing:  # the reader sees the new card: it places it
                del self._changed[z]
                if reads >= 2 or set(votes) - seeing[zone.name]:
                    # unless it came only after the second look had begun, or the look read
                    # another card there first: then it was laid on the card that changed
                    # the pile (tigullio, Great Lakes 1101: Cy's Q♠, read by the look once,
                    # then his 10♦ laid on it and read, logged as a lead in silence)
                    self._unread_now(z, since, votes, reads)
                continue
            if t - since < self.CHANGE_WAIT:
                continue
            dets = self._zone_look(z)
            votes.update({n for n, (x, y) in zip((dets.names[int(c)] for c in dets.class_id),
                                                 self._on_board(dets), strict=True)
                          if not self._round_cards.get(n, 0)
                          and not self._on_logged_lookalike(n, x, y, zone.seat)})
            reads += 1
            self._changed[z] = (since, reads, votes)
            if reads < self.LOOK_MIN:
                continue
            del self._changed[z]
            # A card that looks like one played into this pile this round is that card
            # misread, most often: left out (the reader, or a person, has the last word).
            cards = sorted((c for c, n in votes.items() if n >= self.LOOK_SHARE * reads
                            and not self._shadowed(c, zone.seat)),
                           key=lambda c: (-votes[c], c))
            if not cards:
                self._unread_now(z, since, votes, reads)
                continue
            share = min(votes[c] for c in cards) / reads
            result.notes.append(f"read again: {' '.join(pretty_cards(cards))} in "
                                f"{self.players[zone.seat or 0]}'s pile")
            found.append(Observation(z, zone.name, zone.kind, zone.seat, cards, share, t,
                                     since, looked=True))
        return found

    def _note_seen(self, changed: Collection[int], result: FrameResult) -> None:
        """Count, per pile since it last began to move, the frames in which the table reader
        read each card nobody played this round there (`_seen_new`). Where the pile came to
        rest in a new picture with such a card read in `SEEN_READS` frames or more, never
        logged, and began to move again, those cards are kept, and when (`_seen_lost`)."""
        if self._changes is None:
            return
        for z, zone in enumerate(self.tracker.zones):
            if zone.kind != "pile" or zone.seat is None:
                continue
            moved = self._changes.moved_at(z)
            record = self._seen_new.get(z)
            if record is None or moved > record[0]:
                if record is not None and record[1] is not None:
                    counts = record[2]
                    lost = [c for c, n in counts.most_common()
                            if n >= self.SEEN_READS and not self._round_cards.get(c, 0)]
                    if lost:
                        self._seen_lost[z] = (record[1], lost)
                record = (moved, None, Counter())
            if z in changed:
                record = (record[0], result.t, record[2])
            self._seen_new[z] = record
        names = {zone.name: z for z, zone in enumerate(self.tracker.zones)}
        read: dict[int, set[str]] = {}
        for d in result.detections:
            at = names.get(str(d["zone"]))
            if at in self._seen_new and not self._round_cards.get(str(d["card"]), 0):
                read.setdefault(at, set()).add(str(d["card"]))
        for z, cards in read.items():
            self._seen_new[z][2].update(cards)

    def _on_logged_lookalike(self, card: str, x: float, y: float, seat: int | None) -> bool:
        """Whether the second look's reading of ``card`` at board point (x, y) lies on the
        very spot (twice the tracker's ``same_spot``) of a card logged into ``seat`` 's pile
        this round that it is easily taken for, or that is easily taken for it (`lookalikes`,
        any suit of its rank among them): that card read again, misread, not a new one
        (tigullio Pressman 907: Bob's 6♣ laid on his 7♥ and not read by the table reader;
        the look read the pile as 6♣ and 7♣, the 7♣ 1.1 units from the 7♥'s spot, and both
        were logged as Bob's, Ann's 7♣ then "played already")."""
        near = 2 * self.tracker.config.same_spot
        return seat is not None and any(
            other != card and self._played_by.get(other, -1) == seat
            and either_alike(other, card) and math.hypot(sx - x, sy - y) <= near
            for other, (sx, sy) in self._spot_of.items())

    def _settle_found(self, result: FrameResult) -> None:
        """A question about a card never seen ("9♥ was not seen: who played it?") whose card
        has been logged since (read late, or found by a second look): the reading held for it
        is logged when the table now takes it as it is (`_held_for`); where its cards are
        logged already too, the question has nothing left to ask and goes."""
        for pid, held in list(self.pending.items()):
            card = _unseen_card(held, self.players)
            if card is None or not self._round_cards.get(card, 0):
                continue
            self._held_for(card, [pid], result)
            cards = held.event.get("cards", [held.event.get("card")])
            if pid in self.pending and all(self._round_cards.get(str(c), 0) for c in cards):
                del self.pending[pid]
                result.notes.append(f"{held.question}: {Card.parse(card).pretty()} and "
                                    f"{' '.join(pretty_cards([str(c) for c in cards]))} "
                                    f"are logged since")

    def _look_for_unseen(self, frame: np.ndarray, result: FrameResult) -> None:
        """A card the table asks about because the reader never saw it played ("9♥ was not
        seen: who played it?", a sequence that jumps past it) is looked for by the second
        look in every seat's pile in the next frames. Read in one seat's pile in most of them
        (`LOOK_SHARE`, from `LOOK_MIN` frames on), the question is answered for that player,
        and the readings held only because that card was missing are logged as they are
        (each checked again, in the order they were laid). Read there where the reading held
        for it was read (the nearest reading to its spot), and that reading's card read
        nowhere in the pile, the held reading was that card misread (Cy's J♣ read as Q♣
        after 10♣, the J♣ found where the Q♣ was read): it is answered "it was J♣" where the
        two are lookalikes or the spot was read so too, never "Cy played J♣, then Q♣".
        Otherwise it stays with people."""
        if self.second_look is None:
            return
        asked: dict[str, list[int]] = {}
        for pid, held in self.pending.items():
            card = _unseen_card(held, self.players)
            if card is not None and not self._round_cards.get(card, 0):
                asked.setdefault(card, []).append(pid)
        for card in [c for c in self._hunts if c not in asked]:
            del self._hunts[card]
        # each seat's pile, read once a frame: (code, board x, board y) of each card read
        piles: dict[int, list[tuple[str, float, float]]] | None = None
        pile_of: dict[int, int] = {}  # seat -> its pile's zone
        unmoved: set[int] = set()  # seats whose pile lies as their last card left it
        look = self.second_look
        # The second look reads corner indices, and places a card where its index lies: up
        # to half a card's diagonal from its centre, where the table reader places it
        # (Michigan 100: Cy's J♣ read by the look 11.6 units from the Q♣ it was read as;
        # within 10, four times `same_spot`, it was taken for another card under the Q♣,
        # "Cy played J♣, then Q♣", and Ann's Q♣ after it logged as Cy's).
        reach = HALF_DIAGONAL
        for card, pids in asked.items():
            reads, votes, itself = self._hunts.get(card, (0, Counter(), 0))
            if reads >= self.LOOK_FRAMES:
                continue
            if piles is None:
                piles = {}
                for z, zone in enumerate(self.tracker.zones):
                    if zone.kind == "pile" and zone.seat is not None \
                            and zone.seat < len(self.players):
                        dets = look.detect_table(frame, self.profile, zones=[z])
                        pile_of[zone.seat] = z
                        piles[zone.seat] = [
                            (dets.names[int(c)], float(x), float(y))
                            for c, (x, y) in zip(dets.class_id, self._on_board(dets),
                                                 strict=True)]
                # A pile that has not moved since its player's last card logged there came
                # to rest holds no card laid since: the card looked for, read there, is a
                # card lying there misread (tigullio Great Lakes 2706: Cy's A♠ missed, his
                # A♥ after 10♥ held for "J♥ was not seen"; the look read Ann's 9♥, logged
                # 3 s before, as J♥, and "Ann played J♥" was logged as the camera's answer).
                unmoved = {seat for seat, z in pile_of.items() if self._pile_unmoved(seat, z)}
            votes.update(seat for seat, cards in piles.items()
                         if seat not in unmoved and any(code == card
                                and not self._lookalike_under(card, x, y, cards, reach)
                                and not self._top_misread(card, x, y, pile_of[seat], cards,
                                                          reach)
                                for code, x, y in cards))
            pids.sort(key=lambda pid: self.pending[pid].observation.t_still)
            first = self.pending[pids[0]].observation
            if first.seat in piles and first.positions and len(first.cards) == 1:
                # The pile's reading nearest the held one's spot (the two readers place a
                # card a few units apart) is the card asked about, and the held card is read
                # nowhere in the pile: one card, read two ways.
                # Readings of a card the log does not place and the question is not about
                # are the look's own phantoms there, not what lies on the held spot
                # (tigullio Michigan 105: a 5♥ read at 0.37 1.4 units from Bob's held K♥,
                # nearer than the J♥ read 4.5 units off; the K♥ was that J♥, and "Bob
                # played J♥, then K♥" logged a K♥ nobody played).
                hx, hy = first.positions[0]
                placed = [r for r in piles[first.seat]
                          if r[0] == card or self._round_cards.get(r[0], 0)]
                near = min(placed, default=None,
                           key=lambda r: np.hypot(r[1] - hx, r[2] - hy))
                itself += (near is not None and near[0] == card
                           and np.hypot(near[1] - hx, near[2] - hy) <= reach
                           and all(code != first.cards[0] for code, _, _ in piles[first.seat]))
            reads += 1
            self._hunts[card] = (reads, votes, itself)
            found = [seat for seat, n in votes.items() if n >= self.LOOK_SHARE * reads]
            if reads < self.LOOK_MIN or len(found) != 1:
                continue
            player = self.players[found[0]]
            read_as = first.cards[0] if len(first.cards) == 1 else ""
            alike = bool(read_as) and either_alike(card, read_as) \
                or bool(first.votes and first.votes[0].get(card))
            if found[0] == first.seat and itself >= self.LOOK_SHARE * reads:
                # the held reading itself, misread (a lookalike, or read so there too);
                # else a person says what lies there
                answer = next((a for a in self.pending[pids[0]].options
                               if alike and a.card == card and len(a.events) == 1), None)
                said = (f"read again: {Card.parse(card).pretty()}, not "
                        f"{Card.parse(read_as).pretty()}")
            else:
                answer = next((a for a in self.pending[pids[0]].options
                               if a.label == player and len(a.events) == 2), None)
                said = f"read again: {player} played {Card.parse(card).pretty()}"
            if answer is None:
                continue
            del self._hunts[card]
            result.notes.append(said)
            result.announcements.extend(self.answer(pids[0], list(answer.events)))
            self._held_for(card, pids[1:], result)

    def _lookalike_under(self, card: str, x: float, y: float,
                         pile: Sequence[tuple[str, float, float]], reach: float) -> bool:
        """Whether the second look's reading of ``card`` at board point (x, y) lies within
        ``reach`` of a logged card of its rank or a lookalike that the look reads nowhere in
        that ``pile``: that card misread as much as ``card`` laid on it, which only a person
        can tell (tigullio Great Lakes 1005: Bob's K♠ never read; the look found a K♠ in
        Cy's pile, where his K♣ lay, and the question was answered "Cy played K♠")."""
        read = {code for code, _, _ in pile}
        return any(other != card and other not in read
                   and either_alike(other, card)
                   and self._round_cards.get(other, 0)
                   and math.hypot(sx - x, sy - y) <= reach
                   for other, (sx, sy) in self._spot_of.items())

    def _top_misread(self, card: str, x: float, y: float, z: int,
                     pile: Sequence[tuple[str, float, float]], reach: float) -> bool:
        """Whether the second look's reading of ``card`` at board point (x, y) may be the
        card logged last in pile ``z`` misread: logged within ``reach`` of it, of its rank
        alone or its suit alone, read nowhere in that ``pile``, and nothing laid there since
        (no new picture of the pile came to rest unread after it was logged). Laid on it
        unread and that card misread look alike to the look; only a person can tell
        (tigullio Pressman 302: Cy's 3♣ read as 2♣ and logged; the look found the 3♣ where
        the 2♣ lay, and the question "3♣ was not seen" was answered "Cy played 3♣")."""
        last = self._last_play(self.tracker.zones[z].seat)
        if last is None:
            return False
        top, _line, ev = last
        spot = self._spot_of.get(top)
        unread = self._unread.get(z)
        return spot is not None and _one_apart(top, card) \
            and all(code != top for code, _, _ in pile) \
            and math.hypot(spot[0] - x, spot[1] - y) <= reach \
            and (unread is None or unread[0] <= float(ev.get("t", 0.0)))

    def _held_for(self, card: str, pids: Sequence[int], result: FrameResult) -> None:
        """Readings held only because ``card`` had not been seen ("9♥ comes next"), now that
        it is logged: each is logged when the table now takes it as it is (no rule broken, no
        card jumped, no lookalike in doubt); the others stay held."""
        reason = comes_next(card)
        for pid in pids:
            held = self.pending.get(pid)
            if held is None or held.reason != reason or not held.observation.certain:
                continue
            ok, violations, _why = self._accepts(held.event)
            if not ok or violations or self._skipped(held.event) is not None \
                    or self._doubt(held.event, lookalike=True):
                continue
            del self.pending[pid]
            self._flush_script(self.visual_count, result.announcements, result)
            self._log_visual(dict(held.event), held.observation, result)

    def confirm(self, pending_id: int, event: Mapping[str, Any] | None = None
                ) -> tuple[int, list[str]]:
        """A person confirms a held reading (optionally corrected); it is logged now: (its
        line, the announcements). A reading of a card a person has yet to name (`PICK`) is
        refused (ValueError); a hand a card short, or one that clashes with a card another
        player's line holds, plays that clash so, hands given while the log says the round
        goes on, or plays that fit with no rule broken only before one of the last plays, are
        asked again (`_hand_short`, `_hand_clashes`, `_plays_clash`, `_hands_early`,
        `_placed_earlier`: (0, [])); a hand given for one logged already corrects it
        (`_reshown`), and a move given whose player's lines hold it in pieces becomes the
        first of them (`_read_in_pieces`)."""
        if pick_of(event or self.pending[pending_id].event) is not None:
            raise ValueError("name the card first: it was not seen")
        given = [dict(event or self.pending[pending_id].event)]
        if event is not None:
            # (a hand given for one logged already corrects it; given as logged: nothing new)
            given = [dict(e) for e in self._read_in_pieces(self._reshown(given))]
            if not given:
                del self.pending[pending_id]
                return 0, []
        if self._hand_short(pending_id, given) or self._hand_clashes(pending_id, given, True) \
                or self._plays_clash(pending_id, given, True) \
                or self._hands_early(pending_id, given, True) \
                or (placed := self._placed_earlier(
                    pending_id, given, event is not None
                    and dict(event) != dict(self.pending[pending_id].event))) is None:
            return 0, []
        self.pending.pop(pending_id)
        out: list[str] = []
        self._flush_script(self.visual_count, out, None)
        lines = [self._append(ev, out) for ev in placed]
        # (a line, not a correction of lines logged already: a hand or move given anew)
        self.visual_count += sum(ev.get("event") in ("play", "reveal", "trump") for ev in placed)
        return lines[0], out

    def answer(self, pending_id: int, events: Sequence[Mapping[str, Any]]) -> list[str]:
        """A person answers a held reading with these events (one of its `Answer` s, or
        events they entered); they are logged in order. No events: nothing happened. An
        answer that `Answer.picks` a card is given with that card named (`picked`). Events a
        person states (none of the question's answers) go through the checks `confirm`
        names: a hand a card short or clashing with another player's line, plays clashing
        so, hands given while the log says the round goes on, or plays that fit only
        earlier are asked again instead (no announcements); a hand given for one logged
        already corrects it, and a move given that its player's lines hold in pieces is
        logged as those lines corrected. An answer's `Answer.reread` cards are placed anew
        as the camera read them."""
        if any(pick_of(ev) is not None for ev in events):
            raise ValueError("name the card this answer picks first (results.picked)")
        options = self.pending[pending_id].options
        if events and events[0].get("placed") == EARLIER:
            options = list(self._earlier_places(pending_id, events[0]))
            if len(options) > 1:
                return []  # (asked where, `_earlier_places`)
            events = options[0].events
        stated = all(list(a.events) != list(events) for a in options)
        if stated:
            events = self._read_in_pieces(self._reshown(events))
        if self._hand_short(pending_id, events) \
                or self._hand_clashes(pending_id, events, stated) \
                or self._plays_clash(pending_id, events, stated) \
                or self._hands_early(pending_id, events, stated) \
                or (placed := self._placed_earlier(pending_id, events, stated)) is None:
            return []
        events = placed
        held = self.pending.pop(pending_id)
        out: list[str] = []
        self._flush_script(self.visual_count, out, None)
        chosen = [a for a in options if _answered(a, events)]
        afresh = {card: (spot, line[1]) for a in chosen for card in a.reread
                  if (spot := self._spot_of.get(card)) and (line := self._logged(card))}
        again = any(a.again for a in chosen)
        if not again:
            self._disown(held, events)
        obs = held.observation
        if len(obs.cards) == 1 and obs.positions:
            # The card read lies where the reading was, if the answer logs it; else the card
            # the answer logs in its place (typed in for a misread one: its spot tells it
            # from a card of that code read elsewhere later). ("A♠, then Q♥" logs the A♠
            # read there, then the Q♥ again, which keeps its own spot.)
            logged = [str(item["card"]) for ev in events
                      for item in ([ev.get("with") or {}] if ev.get("event") == "correct"
                                   else [ev] if ev.get("event") == "play" else [])
                      if "card" in item]
            read = obs.cards[0]
            on_spot = read if read in logged or not logged else logged[-1]
            self._spot_of[on_spot] = obs.positions[0]
            played = [str(ev["card"]) for ev in events
                      if ev.get("event") == "play" and "card" in ev]
            if on_spot in played and obs.kind == "pile" \
                    and obs.t_still >= self._landed.get(obs.zone, (float("-inf"), ""))[0]:
                # It landed then, as a card the table logs as played (`_landed_with`; not
                # a correction of a card logged before, which landed earlier): the same card
                # read there again as another, as it came to rest, is asked about (tigullio
                # Boodle 2608: Bob's Q♦, read as K♦, answered "it was Q♦"; the tracker then
                # put the same K♦ reading again, once Ann's K♦ it had been read beside
                # was disowned, and it was logged after the Q♦ in silence).
                self._landed[obs.zone] = (obs.t_still, on_spot)
        elif len(obs.positions) == len(obs.cards):
            # (one card of several read at once: it lies where it was read)
            for ev in events:
                if ev.get("event") == "play" and ev.get("card") in obs.cards:
                    self._spot_of[str(ev["card"])] = obs.positions[obs.cards.index(ev["card"])]
        for ev in (move for answered in events for move in self._as_moves(answered)):
            self._append(ev, out)
            if ev.get("event") in ("play", "reveal", "trump"):
                self.visual_count += 1
        for card, (spot, was) in afresh.items():
            # (a hand shown read as a play: read afresh, now that the round is over)
            self._waiting.insert(0, self._read_on(card, spot, was))
        if again:
            self._waiting.insert(0, obs)  # placed anew now that the log fits it
        return out

    def _read_on(self, card: str, spot: tuple[float, float], logged: Mapping[str, Any]
                 ) -> Observation:
        """A reading of ``card`` now at board point ``spot``, where the line ``logged`` (its
        player's pile, or the trump card) lies, still since that line's time: a card logged
        read as another (`_ask_flip`), or one whose line the log no longer holds, placed
        anew (`answer`'s `Answer.reread`)."""
        zone = int(self.tracker.zone_of(np.array([spot]))[0])
        seat = self.players.index(str(logged.get("player"))) \
            if logged.get("player") in self.players else None
        return Observation(
            zone=zone, zone_name=self.profile.zones[zone].name if zone >= 0 else "",
            kind="trump" if logged.get("event") == "trump" else "pile", seat=seat,
            cards=[card], confidence=float(logged.get("confidence", 1)), t=self.tracker.t,
            t_still=float(logged.get("t", self.tracker.t)), positions=[spot],
            votes=[self.tracker.votes_at(*spot, float(logged.get("t", 0)))])

    def _looked_beside(self, zone: int, hand: Mapping[str, Any]) -> set[str]:
        """The cards read in ``zone`` beyond those of the hand shown there (``hand``), by the
        second look or by the table's reader in the last `READ_NOW` s (what `_unaccounted`
        leaves out as read now): each may be a play of its player's read late and never
        logged, as well as a card of the hand (`_missed_by`'s ``read_now``; tigullio Pressman
        2002: Dee's 2♦, read twice as it landed, then not for 4 s, then once on her pile as
        her hand was shown, and no place offered for it)."""
        looked = set(self._looks.get(zone, (0, Counter(), {}))[1])
        if zone >= 0:
            looked |= self.tracker.read_in(zone, self.tracker.t - self.READ_NOW)
        return looked - {str(c) for c in hand.get("cards") or []}

    def _hand_short(self, pending_id: int, events: Sequence[Mapping[str, Any]]) -> bool:
        """Whether an answer that is one hand shown, a card short of what its player holds
        by the log once the round is over, is asked again as that hand a card short (the
        places of the play the camera missed, `_missed_by`) instead of logged, where the
        log would refuse it. (Tigullio Great Lakes 1001: Dee's A♣ never read, her 8♥ logged
        as a lead; her hand read as three of its four cards, and the four typed in for it
        refused: "Dee holds 5 cards, the reveal shows 4".)"""
        if len(events) != 1 or events[0].get("event") != "reveal":
            return False
        hand = dict(events[0])
        if self.pending[pending_id].question == _short_hand_question(hand):
            return False  # (asked so once: the same hand given again is taken as given)
        short = self._missed_by(hand, self._looked_beside(
            self.pending[pending_id].observation.zone, hand))
        if not short:
            return False
        self._ask_anew(pending_id, _short_hand_question(hand), short, event=hand, reason="")
        return True

    def _ask_anew(self, pending_id: int, question: str, options: list[Answer],
                  **changes: Any) -> None:
        """Put the held reading ``pending_id`` to people again, under a new id, as
        ``question`` with ``options`` (and any other field ``changes`` names)."""
        held = self.pending.pop(pending_id)
        pid = next(self._ids)
        self.pending[pid] = replace(held, id=pid, question=question, options=options,
                                    asked=self.tracker.t, **changes)
        if self._never_held is not None and self._never_held[0] == pending_id:
            self._never_held = (pid, self._never_held[1])

    def _earlier_places(self, pending_id: int, named: Mapping[str, Any]) -> list[Answer]:
        """The places of the card a person named for an answer "Bob: another card,
        earlier…" (`Answer.places`): the one answer that puts it in the only place it fits,
        or, where it fits in several, those answers, the held reading then asked anew
        ("Where did Bob play K♥?"). A card that fits nowhere is refused (ValueError), the
        question left as it was."""
        held = self.pending[pending_id]
        player, card = named.get("player"), str(named.get("card"))
        fits = [a for option in held.options for a in option.places
                if option.picks == player and placed_play(a.events[0]).get("card") == card]
        if not fits:
            what = Card.parse(card).pretty() if card in CARD_CODES else card
            raise ValueError(f"{player}'s {what} fits in no place of this round")
        if len(fits) > 1:
            self._ask_anew(pending_id, f"Where did {player} play {Card.parse(card).pretty()}?",
                           fits)
        return fits

    def _disown(self, held: Pending, events: Sequence[Mapping[str, Any]]) -> None:
        """The held cards the answer does not log were misreadings: the tracker forgets them
        as cards on that spot, so the real ones count where they are laid."""
        logged: set[str] = set()
        for ev in events:
            for item in [ev, ev.get("with") or {}] if ev.get("event") == "correct" else [ev]:
                logged.update(cards_of(item))
        obs = held.observation
        if not events and obs.kind == "pile" and len(obs.cards) == len(obs.positions) == 1:
            self._said_no_card = [*self._said_no_card,
                                  (obs.zone, obs.cards[0], obs.positions[0], self.tracker.t)
                                  ][-self.NO_CARD_KEPT:]
        for card, (x, y) in zip(obs.cards, obs.positions, strict=False):
            if card not in logged:
                # (Oh Claire! 1384: Cy's J♥ read as Q♥, the turned-up trump card, answered
                # once his trick was gathered: the trump card counted again and logged twice.)
                self.tracker.misread_at(card, x, y, obs.t_still)

    def reject(self, pending_id: int) -> None:
        """A person says a held reading is wrong: nothing is logged for it."""
        held = self.pending.pop(pending_id, None)
        if held is not None:
            self._disown(held, ())


def _look_unsure(cards: Sequence[str], votes: Counter[str], scores: Mapping[str, float]
                 ) -> bool:
    """Whether the second look read a card of ``cards`` below `UNKNOWN_DECK_REVEAL_BELOW`
    on average over the frames it read it in (`Questions._looks`' votes and scores)."""
    return min((scores.get(c, 0.0) / max(votes[c], 1) for c in cards),
               default=1.0) < UNKNOWN_DECK_REVEAL_BELOW


def _answered(answer: Answer, events: Sequence[Mapping[str, Any]]) -> bool:
    """Whether ``events`` are ``answer`` 's, the card it `Answer.picks` named (`picked`)."""
    if list(answer.events) == list(events):
        return True
    if answer.picks is None or len(events) != len(answer.events):
        return False
    named = next((next(iter(cards_of(placed_play(e))), None)
                  for e, a in zip(events, answer.events, strict=True) if pick_of(a) is not None),
                 None)
    return isinstance(named, str) and picked(answer.events, named) == list(events)


def _holds(ref: Any, player: str) -> int | None:
    """How many cards ``player`` holds by the referee ``ref`` (None where its game does not
    count them)."""
    counts = getattr(getattr(ref, "state", None), "counts", None)
    return counts.get(player) if isinstance(counts, dict) else None


def _part_of_hand(ref: Any, player: str, cards: Sequence[str]) -> bool:
    """Whether ``cards`` shown by ``player`` may be a part of their hand by the referee
    ``ref``: two or more, fewer than they hold (one card alone may be a play)."""
    return 1 < len(cards) < (_holds(ref, player) or 0)


def _take(ref: Any, play: Event, rest: Sequence[Event]) -> bool:
    """Apply ``play``, then ``rest``, to the referee ``ref`` (left so: the caller rolls it
    back); False, with ``rest`` not applied, where ``play`` breaks a rule. A line the referee
    refuses raises as `Referee.apply` does."""
    n = len(ref.violations)
    ref.apply(play)
    if len(ref.violations) != n:
        return False
    for ev in rest:
        ref.apply(ev)
    return True


def _fewest_broken(found: Sequence[tuple[int, Answer]], most: int) -> list[Answer]:
    """Of ``found`` (how many rules the log then breaks, answer), the answers that leave the
    fewest broken, in order; none where more than ``most`` do."""
    least = min((broken for broken, _ in found), default=0)
    answers = [a for broken, a in found if broken == least]
    return answers if len(answers) <= most else []


def _ends_with_hand(ref: Any, play: Event, rest: Sequence[Event], shown: Event,
                    rules_broken: int, after: Sequence[Event] = ()) -> bool | None:
    """Does the referee ``ref``, given ``play`` now and then the log's ``rest``, end the round
    and take the hand ``shown`` (True), or hold it as part of the hand, two cards or more of
    fewer than the player then holds, none played (False), with no rule broken by ``play``
    and no more than ``rules_broken`` in all? None where not. ``after``: the log's lines that
    follow the hand (other hands shown), each to be taken too, the hand whole. ``ref`` is left
    as it was (`Questions._missed_places`)."""
    mark = ref.checkpoint()
    try:
        if not _take(ref, play, rest) or ref.expects() != frozenset({"reveal"}):
            return None
        cards = [str(c) for c in shown.get("cards") or []]
        # A part of the hand (a spread whose other cards are not read yet: the table then
        # holds it as a hand); one card alone may be a play.
        part = _part_of_hand(ref, str(shown.get("player")), cards) and not any(
            Card.parse(c) in getattr(ref.state, "played", {}) for c in cards)
        try:
            ref.apply(shown)
            whole = True
        except REFUSED:
            if not part or after:
                return None
            whole = False
        for ev in after:
            ref.apply(ev)
        return whole if len(ref.violations) <= rules_broken else None
    except REFUSED:
        return None
    finally:
        ref.rollback(mark)


def _fits_before(ref: Any, play: Event, rest: Sequence[Event], rules_broken: int) -> bool:
    """Does the referee ``ref`` take ``play`` now, breaking no rule, and then ``rest``, with
    no more than ``rules_broken`` rules broken in all? ``ref`` is left as it was
    (`Questions._missed_before_broken`)."""
    mark = ref.checkpoint()
    try:
        return _take(ref, play, rest) and len(ref.violations) <= rules_broken
    except REFUSED:
        return False
    finally:
        ref.rollback(mark)


def _short_hand_question(hand: Mapping[str, Any]) -> str:
    """The question put about a hand shown a card short (`Questions._missed_by`)."""
    shown = " ".join(pretty_cards([str(c) for c in hand.get("cards") or []]))
    return f"{hand.get('player')}'s hand {shown} is a card short: which card was not seen?"


def _plays_of(plays: Sequence[Mapping[str, Any]]) -> str:
    """Plays as people read them: "Dee's K♣, Dee's 2♥"."""
    return ", ".join(f"{p.get('player')}'s " + " ".join(pretty_cards(cards_of(p)))
                     for p in plays)


def _early_hands_question(shown: Sequence[str], out: Sequence[str]) -> str:
    """The question put about hands given while the log says the round goes on, the players
    ``out`` each holding one card by it (`Questions._hands_early`)."""
    def listed(names: Sequence[str]) -> str:
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    whose = listed([p + "'s" for p in shown])
    return (f"{whose} hand{'s' if len(shown) > 1 else ''} shown, but {listed(out)} "
            f"still hold{'s' if len(out) == 1 else ''} a card by the log: which card was not "
            "seen?")


def _same_hand(event: Mapping[str, Any], hand: Mapping[str, Any]) -> bool:
    """Is ``event`` the hand shown ``hand``, its cards in any order?"""
    return event.get("event") == hand.get("event") == "reveal" \
        and event.get("player") == hand.get("player") \
        and Counter(map(str, event.get("cards") or [])) \
        == Counter(map(str, hand.get("cards") or []))


def hand_label(hand: Mapping[str, Any]) -> str:
    """A hand's one-click answer as people read it ("8♣ J♠")."""
    return " ".join(pretty_cards(list(hand["cards"])))


def _unseen_card(held: Pending, players: Sequence[str]) -> str | None:
    """The card a held reading asks about as never seen ("6♣ was not seen: who played it?"):
    its answers name players, each logging that player's play of the card, then the reading."""
    cards = {str(a.events[0].get("card")) for a in held.options
             if a.label in players and len(a.events) == 2
             and a.events[0].get("event") == "play" and a.events[0].get("player") == a.label}
    return cards.pop() if len(cards) == 1 else None


def _move_splits(event: Mapping[str, Any], first: str, cards: Sequence[str]
                 ) -> list[list[dict[str, Any]]]:
    """The ways of reading ``cards``, laid as one move by ``event`` 's player, as a move of
    four cards led by ``first`` (GL-3, GL-4) and the single plays that followed it before it
    came to rest (two at most, in either order); none where ``first`` is not among them."""
    if first not in cards:
        return []
    player = event.get("player")
    extra = {k: event[k] for k in ("t", "confidence") if k in event}
    others = [c for c in cards if c != first]
    splits: list[list[dict[str, Any]]] = []
    for three in combinations(others, 3):
        leads = [c for c in others if c not in three]
        for order in ([leads] if len(leads) < 2 else [leads, leads[::-1]]):
            splits.append([{"event": "play", "player": player, "cards": [first, *three],
                            **extra},
                           *({"event": "play", "player": player, "card": c, **extra}
                             for c in order)])
    return splits


def _asked(ref: Any, name: str) -> Any:
    """What the referee ``ref`` answers when asked ``name`` (one of its methods taking no
    argument: ``next_card``, ``stop_leader``, ``turn``); None where it has no such method."""
    method = getattr(ref, name, None)
    return method() if callable(method) else None


def _passed_on(ref: Any, event: Mapping[str, Any], players: Sequence[str],
               unseen: Sequence[str]) -> list[tuple[str, str]]:
    """(player, card) for a play of one card that is a lead by another player than the one
    the rules name after a stop (the lead passed on, MR-6, BO-4): each ``unseen`` card led
    by each of ``players`` but the one the rules name, that play's own player first. Boodle
    181: Ann's 4♦ never read, led after Dee's 4♠ stopped the spades, Dee holding spades
    alone; then Ann's 2♥. Michigan 44: Bob's 2♦ never read, led after Ann's 2♠, the lead
    passed on to him and on again to Dee, who led 8♣. So too a lead by the one the rules
    name that only hidden hands excuse (`doubtful`): the lead may have gone round the table
    and back to them (tigullio Pressman 2002: Cy's J♠ stopped the spades; Cy, holding only
    the black A♣, passed the lead to Dee, whose 2♦ was never read; the lead then came back
    round to Cy, who led his A♣). None otherwise."""
    card, player = event.get("card"), event.get("player")
    if event.get("event") != "play" or not isinstance(card, str):
        return []
    stop = _asked(ref, "stop_leader")
    if not isinstance(stop, str) or card == _asked(ref, "next_card"):
        return []
    doubtful = getattr(ref, "doubtful", None)
    if stop == player and not (callable(doubtful) and doubtful(str(player), card)):
        return []
    return [(str(p), c) for p in sorted(players, key=lambda p: p != player) if p != stop
            for c in unseen]


def _below_next(event: Mapping[str, Any], players: Sequence[str], unseen: Sequence[str]
                ) -> list[tuple[str, str]]:
    """(player, card) for a play of one card: the card just below it in its suit, where that
    card is ``unseen``, played by each of ``players``, its own player first (a card laid and
    covered at once with the next one of the sequence; or a lead that passed to another
    player, the next play following it: Michigan 124, Cy's 6♣ led after Bob's 7♦, then Ann's
    7♣); none otherwise."""
    card, player = event.get("card"), event.get("player")
    if event.get("event") != "play" or not isinstance(card, str):
        return []
    below = _in_suit(card, -1)
    if below is None or below not in unseen:
        return []
    return [(str(p), below) for p in sorted(players, key=lambda p: p != player)]


def _led_suit(ref: Any) -> str:
    """The suit of the card that leads the trick under way by the referee ``ref`` (a game
    of tricks); "" where none is under way."""
    trick = getattr(getattr(ref, "state", None), "trick", None)
    if not isinstance(trick, list) or not trick or not isinstance(trick[0], tuple):
        return ""
    return str(getattr(trick[0][1], "suit", ""))


def read_again(card: str) -> Answer:
    """The answer that a reading is ``card``, the card just laid on that pile, read again:
    nothing logged (`TablePipeline._consider`, `Questions._question_read`)."""
    return Answer(f"no card ({Card.parse(card).pretty()} read again)")


def _with_runs(first: list[str], cards: list[str]) -> list[list[str]]:
    """``first`` with each run of ``cards`` from the first (one card, two, ...), the cards
    already in ``first`` left out: hands to try for a hand shown (`Questions._look_again`)."""
    return [first + [c for c in cards[:n] if c not in first] for n in range(1, len(cards) + 1)]


def _one_apart(a: str, b: str) -> bool:
    """Whether cards ``a`` and ``b`` share their rank alone or their suit alone."""
    return (a[0] == b[0]) != (a[1] == b[1])


def _in_suit(card: str, step: int) -> str | None:
    """The card ``step`` ranks above ``card`` in its suit (below, for a negative step), by
    the order 2 … A; None past either end."""
    at = RANKS.index(card[0]) + step
    return RANKS[at] + card[1] if 0 <= at < len(RANKS) else None
