"""The tracker: per-frame card detections in, debounced observations per table zone out.

A card becomes an observation only once it has lain still in a zone for ``still_time``; hands
passing over the table, cards slid across zones, a misread frame and the previous card peeking
out under a new one produce nothing. Pure logic on `Detections` and zones (no pixels, no model).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from calibration.layout import CARD_W, Zone
from calibration.profile import apply_homography, points_in_polygon
from vision.detections import Detections


@dataclass(frozen=True)
class TrackerConfig:
    """The tracker's knobs. Each states what raising it buys and what it costs.

    - ``still_time`` (s): how long a card must lie still before it counts. Raising it ignores
      cards that pause briefly on their way (a card slid across a zone, a card held over the
      table) but adds that much delay to every announcement (the 300 ms goal includes it).
    - ``still_tol`` (board units; the board is 100 wide, a card 24): how far a card may seem
      to move and still be "still". Raising it tolerates box jitter and a shaky camera, but a
      slowly sliding card may then count before it reaches its place.
    - ``min_frames``: fewest sightings inside the still window. Raising it protects against a
      misread that repeats for a couple of frames, but at low frame rates it stretches the
      still window beyond ``still_time``.
    - ``min_presence`` (0..1): share of the window's frames that must show the card. Raising it
      rejects flickering misreads; lowering it keeps counting a card half hidden by a hand.
    - ``lost_time`` (s): how long an unconfirmed card may be unseen (a hand over it) before
      it is dropped. Raising it rides out longer occlusions; a misread then lingers longer.
    - ``forget_time`` (s): how long a counted card may be unseen before the tracker forgets
      it, so that the same card can be played again in a later hand. Raising it keeps a card
      hidden under others from being counted twice; lowering it lets a quickly re-dealt table
      (a new trick, a new hand) count its cards again sooner. The pipeline also refuses a
      card played twice within one round.
    - ``group_wait`` (s): when one card has settled and others in the same zone are still
      moving, wait this long so cards laid together become one multi-card move (a Great Lakes
      dump, a revealed hand). Raising it groups sloppier lays; it delays those announcements.
    - ``min_confidence``: detections scoring below are ignored. Raising it removes phantom
      cards; lowering it keeps poorly lit cards.
    - ``confirm_below``: an observation whose mean score is below this is held for the user to
      confirm instead of being logged. Raising it asks more often; lowering it trusts more.
    - ``match_dist`` (board units): how far a card may jump between two frames and still be
      the same physical card (for two decks, WA-1).
    - ``copies``: copies of each card in play (2 for two-deck Wanagan, WA-1).
    - ``same_spot`` (board units): a new reading whose centre lies this close to a counted card
      that was still being read there when the new reading began is another reading of that
      card (a jack read as a king now and then), not a card laid on top of it (that one hides
      the card under it first). Raising it suppresses more such misreads; too high, and a card
      laid almost on the previous one is missed (pile offsets are usually 4 units or more).
    - ``replace_wait`` (s): a reading that takes a counted card's spot from one frame to the
      next (a card laid faster than a frame, or that card misread from then on) waits this
      long from its first reading for the card under it to show again (then it was a
      misreading). Raising it catches longer runs of misreads, at that delay for such cards.
    - ``patience`` (s): a card read in too few of the still window's frames (frames dropped,
      a hand passing over it) still counts once it has been read ``min_frames + 1`` times at
      one place within this long, in at least half the share ``min_presence`` asks; without
      it, a card read every other frame and then covered by the next card is never counted.
      Cards of one move wait this long (at least ``still_time + group_wait``) after the first
      came to rest for those still settling (a dump with frames dropped). Raising it counts
      cards read more seldom; a misread that recurs on one spot (three times in this long)
      may then count as a card, and a move waits longer for a card still moving beside it.
    - ``back_gap`` (s): a counted card unread this long (at least four frames) whose code is
      then read coming in from away (farther than twice ``still_tol``), or on its very spot
      just as a card seen coming in under another code stopped there, is another card carried
      in (laid on it, or where its trick was gathered), reported as returned for the table to
      judge, not that card read again. Raising it keeps a card uncovered by a slow hand from
      being judged again; too high, and a second card of that code laid soon after is missed.
    """

    still_time: float = 0.15
    still_tol: float = 3.0
    min_frames: int = 2
    min_presence: float = 0.6
    lost_time: float = 0.6
    forget_time: float = 2.0
    group_wait: float = 0.3
    min_confidence: float = 0.3
    confirm_below: float = 0.5
    match_dist: float = 60.0
    copies: int = 1
    same_spot: float = 2.5
    replace_wait: float = 0.5
    patience: float = 0.6
    back_gap: float = 0.5


@dataclass
class Observation:
    """Cards that settled together in one zone.

    ``t`` is the frame time the decision was made; ``t_still`` the estimated time the cards
    came to rest (so ``t - t_still`` is the debounce delay). ``certain`` is False when the
    reading should be confirmed by a person before it is logged.
    """

    zone: int
    zone_name: str
    kind: str
    seat: int | None
    cards: list[str]
    confidence: float
    t: float
    t_still: float
    certain: bool = True
    positions: list[tuple[float, float]] = field(default_factory=list)
    #: For each card, how many readings of each code its spot had while it was being read
    #: (every frame, every corner): the vote its identity rests on.
    votes: list[dict[str, int]] = field(default_factory=list)
    #: For each card, the counted card whose spot it took from one frame to the next (None:
    #: it came from elsewhere or after a gap): a new card laid exactly on that one, or that
    #: card misread from now on. The readings alone cannot tell; the table can.
    on_spot_of: list[str | None] = field(default_factory=list)
    #: For each card, True when its code had counted before and this card was carried back
    #: in after that one went unread a while (`Tracker._comes_back`): the same card lifted
    #: and laid again, or another card of its code (or misread as it) laid there since. The
    #: table, which knows what was laid on that card or gathered meanwhile, decides.
    returned: list[bool] = field(default_factory=list)
    #: For each card, True when a counted card of its code was read in the same frame as it
    #: arrived (within ``lost_time`` of its first reading), farther than twice ``same_spot``
    #: from it: two cards, however close together they came to lie, for one card gives one
    #: reading a frame.
    twin: list[bool] = field(default_factory=list)
    #: True for cards read by the table's second look alone, where the pile changed picture
    #: with no new card read there (`Questions._look_at_changes`): read less surely than by
    #: the reader that tracks them frame by frame.
    looked: bool = False


@dataclass
class _Track:
    code: str
    samples: deque[tuple[float, float, float, float]]
    first_seen: float
    last_seen: float
    stable_since: float | None = None
    counted: bool = False
    #: The counted card whose spot this one took from one frame to the next (`Observation`).
    on_spot_of: str | None = None
    run_start: float = 0.0
    #: Another reading of a counted card of another code (same spot): never an event, and
    #: it keeps that card's place like a counted one.
    alias: bool = False
    #: Readings of the card seen carried onto this spot just before this reading began, under
    #: another code (one card, read one way in flight and another where it lies).
    carried: dict[str, int] = field(default_factory=dict)
    #: Carried back in after the counted card of its code went unread a while (`_comes_back`):
    #: that card, buried while this one is read (`Observation.returned`).
    back_of: _Track | None = None
    #: A counted card another reading of its code was carried onto after it went unread
    #: (`_comes_back`): it lies under or went, and takes no more readings.
    buried: bool = False
    #: When it counted (the frame time of its observation; infinity while it has not).
    counted_at: float = float("inf")
    #: Read, as it arrived, in a frame where a counted card of its code was read apart
    #: (`Observation.twin`).
    twin: bool = False
    #: When a twin of its code, seen coming towards it, was last read just before this card
    #: alone was read again on its spot (`Tracker.covered_at`): another card may lie on it
    #: since, read as its code.
    covered: float | None = None

    @property
    def position(self) -> tuple[float, float]:
        """Where the card is: the median of its last three readings, so that one reading of
        another card taken for this one (a misread of its neighbour) does not carry it off
        its spot; a card that moves is followed a frame late."""
        if len(self.samples) < 3:
            _, x, y, _ = self.samples[-1]
            return (x, y)
        last = (self.samples[-1], self.samples[-2], self.samples[-3])
        xs = sorted(s[1] for s in last)
        ys = sorted(s[2] for s in last)
        return (xs[1], ys[1])


def _nearest(tracks: Iterable[_Track], x: float, y: float) -> tuple[_Track | None, float]:
    """The track nearest board point (x, y) (the first of equals) and how far it is; None and
    infinity when there is none."""
    nearest = min(tracks, default=None,
                  key=lambda tr: np.hypot(tr.position[0] - x, tr.position[1] - y))
    if nearest is None:
        return None, float("inf")
    return nearest, float(np.hypot(nearest.position[0] - x, nearest.position[1] - y))


@dataclass
class _Spot:
    """A place in a zone where cards are read: every reading there, of any code, is a vote
    on the identity of the card lying there."""

    x: float
    y: float
    reads: deque[tuple[float, str]]
    last: float


class Tracker:
    """Turns per-frame detections into `Observation` s, one zone at a time.

    ``zones`` are in board units; `update` receives each frame's detections in image pixels
    and the image->board homography. Detections outside every readable zone are dropped at
    once: cards in players' hands and the dummy are never tracked or kept.
    """

    def __init__(self, zones: Sequence[Zone], config: TrackerConfig | None = None) -> None:
        self.zones = list(zones)
        self.config = config or TrackerConfig()
        self._polys = [np.asarray(z.polygon, np.float64) for z in self.zones]
        self._tracks: dict[str, list[_Track]] = {}
        #: Counted cards forgotten (unread longer than ``forget_time``: covered by later
        #: cards, gathered), the last ``copies`` of each code: a reading of that code carried
        #: in from away onto the spot of one is a card carried in (`_comes_back`) as it would
        #: be for a card still tracked.
        self._forgotten: dict[str, list[_Track]] = {}
        self._spots: list[_Spot] = []
        self._frames: deque[float] = deque()
        self.t = float("-inf")

    # --- geometry ---------------------------------------------------------------------------
    def zone_of(self, board_points: np.ndarray) -> np.ndarray:
        """Index of the readable zone of each board point, -1 outside (or in a hidden zone)."""
        pts = np.asarray(board_points, np.float64).reshape(-1, 2)
        out = np.full(len(pts), -1, np.int64)
        hidden = np.zeros(len(pts), bool)
        for i, (zone, poly) in enumerate(zip(self.zones, self._polys, strict=True)):
            inside = points_in_polygon(pts, poly)
            if zone.kind == "hidden":
                hidden |= inside
            else:
                out[(out < 0) & inside] = i
        out[hidden] = -1
        return out

    # --- the fold ---------------------------------------------------------------------------
    def update(self, t: float, detections: Detections,
               image_to_board: np.ndarray | None = None) -> list[Observation]:
        """Feed one frame taken at time ``t`` (seconds, increasing); return what settled."""
        cfg = self.config
        if t < self.t:
            raise ValueError(f"frame time went backwards: {t} after {self.t}")
        self.t = t
        self._frames.append(t)
        keep_from = t - max(cfg.still_time, cfg.lost_time) * 3 - 1.0
        while self._frames and self._frames[0] < keep_from:
            self._frames.popleft()

        dets = detections[detections.confidence >= cfg.min_confidence] if len(detections) \
            else detections
        if len(dets):
            centers = dets.centers.astype(np.float64)
            board = apply_homography(image_to_board, centers) if image_to_board is not None \
                else centers
            zone = self.zone_of(board)
            inside = zone >= 0
            readings = [(code, float(x), float(y), float(conf)) for code, (x, y), conf in
                        zip([dets.names[c] for c in dets.class_id[inside]], board[inside],
                            dets.confidence[inside], strict=True)]
            # The readings closest to a card already tracked first: two cards read as one
            # code in one frame each keep their own track.
            readings.sort(key=lambda r: self._distance_to_track(r[0], r[1], r[2]))
            for code, x, y, conf in readings:
                self._observe(code, x, y, conf, t)
                self._vote(code, x, y, t)
        self._expire(t)
        return self._settle(t)

    def _distance_to_track(self, code: str, x: float, y: float) -> float:
        return _nearest(self._tracks.get(code, []), x, y)[1]

    def _observe(self, code: str, x: float, y: float, conf: float, t: float) -> None:
        cfg = self.config
        tracks = self._tracks.setdefault(code, [])
        best: _Track | None = None
        best_rank = (1, cfg.match_dist)
        back_from: _Track | None = None
        for tr in tracks:
            if tr.last_seen == t or tr.buried:  # matched in this frame, or covered or gone
                continue
            if self._comes_back(tr, x, y, t):
                back_from = tr
                continue
            px, py = tr.position
            d = float(np.hypot(px - x, py - y))
            if tr.alias and d > 2 * cfg.same_spot:
                continue  # a misreading stays on its card's spot
            # A counted card keeps the readings on its own spot: a track begun beside it by
            # a stray reading of the same code (a neighbour misread) must not take half of
            # its jittered readings and lie still as a second copy of it.
            rank = (0 if tr.counted and not tr.alias and d <= cfg.still_tol else 1, d)
            if rank <= best_rank:
                best, best_rank = tr, rank
        if best is None and back_from is None:
            back_from = next((tr for tr in self._forgotten.get(code, [])
                              if not tr.buried and self._comes_back(tr, x, y, t)), None)
        if best is None and back_from is not None:
            # The counted card went unread a while and a reading of its code now comes in
            # from away: a card carried in. It reads on as a card of its own; the counted one
            # lies under it or went (the table decides which, from what it logged since).
            back_from.buried = True
            best = _Track(code, deque(), t, t, back_of=back_from)
            landed = self._landed_here(code, x, y, t)
            if landed is not None:  # its readings in flight count in its vote
                best.carried = {landed.code: len(landed.samples)}
            tracks.append(best)
        elif best is None:
            counted = [tr for tr in tracks if tr.counted and not tr.alias and not tr.buried]
            nearest, apart = _nearest(counted, x, y)
            if nearest is not None and len(counted) >= cfg.copies \
                    and apart <= cfg.match_dist \
                    and not (nearest.last_seen == t and apart > 2 * cfg.same_spot):
                # Every copy of this card is already on the table, one of them close by: it
                # is that one (moved, or peeking out from under another card), never a new
                # play. Read far from every copy, or beside one read in this very frame (one
                # card gives one reading a frame), it is a card of its own: one card cannot
                # lie in two places, and the table decides which reading is wrong.
                best = nearest
            elif len(tracks) >= 2 * cfg.copies + 1:
                return  # a burst of misreads of one card: ignore the surplus
            else:
                best = _Track(code, deque(), t, t)
                tracks.append(best)
        if not best.counted and not best.twin and t - best.first_seen <= cfg.lost_time:
            # (as it arrives: a card read for a while before the other came is its own
            # reading, whatever the table made of it since)
            best.twin = any(tr is not best and tr.counted and not tr.alias and tr.last_seen == t
                            and float(np.hypot(tr.samples[-1][1] - x, tr.samples[-1][2] - y))
                            > 2 * cfg.same_spot for tr in tracks)
        best.samples.append((t, x, y, conf))
        best.last_seen = t
        horizon = t - max(cfg.still_time, cfg.lost_time) * 3 - 1.0
        while best.samples and best.samples[0][0] < horizon:
            best.samples.popleft()

    def _comes_back(self, tr: _Track, x: float, y: float, t: float) -> bool:
        """Is a reading at board point (x, y) at ``t`` a card carried in where the counted
        card ``tr`` went unread for a while (``back_gap``: covered by a later card, gathered
        with its trick, or lifted)? It comes from away, not from where ``tr`` lay."""
        unread = t - tr.last_seen
        if not tr.counted or tr.alias or unread < self.config.back_gap \
                or unread < self._back_gap():  # (the cheap test first: a hot path)
            return False
        px, py = tr.position
        d = float(np.hypot(px - x, py - y))
        # Clear of the jitter of a card read again where it lay (twice ``still_tol``: a card
        # unread for a few dropped frames comes back within it); farther than ``match_dist``
        # it is a card of its own anyway (`_observe`). Or where it lay, just as a card seen
        # coming in under another code stopped there: that card, read one way in flight and
        # as this code where it lies (Michigan 1250: Dee's 6♦ laid where her 6♥ had lain
        # until her 2♠ covered it, read as 6♥ once down, was taken for the 6♥ uncovered).
        if d <= 2 * self.config.still_tol:
            return self._landed_here(tr.code, x, y, t) is not None
        return d <= self.config.match_dist

    def _landed_here(self, code: str, x: float, y: float, t: float) -> _Track | None:
        """A card of another code than ``code``, never counted, seen coming in from away
        (first read farther than twice ``still_tol``) and last read at board point (x, y)
        (within ``still_tol``) in the frames just before ``t``: a card that landed there."""
        cfg = self.config
        for other in self._uncounted_just_before(code, t):
            first, last = other.samples[0], other.samples[-1]
            if float(np.hypot(first[1] - x, first[2] - y)) > 2 * cfg.still_tol \
                    and float(np.hypot(last[1] - x, last[2] - y)) <= cfg.still_tol:
                return other
        return None

    def _uncounted_just_before(self, code: str, t: float) -> Iterator[_Track]:
        """The tracks of codes other than ``code``, never counted, last read in the two
        frames or so before ``t`` (cards that were in flight a moment ago)."""
        after = t - 2.5 * self._frame_interval() - 1e-6
        for other_code, tracks in self._tracks.items():
            if other_code != code:
                yield from (other for other in tracks
                            if not other.counted and after <= other.last_seen < t)

    def _back_gap(self) -> float:
        """How long a counted card goes unread before a reading of its code carried in from
        away is a card of its own (`_comes_back`): longer than a hand passing over it."""
        return max(self.config.back_gap, 4 * self._frame_interval())

    def _spot_near(self, x: float, y: float) -> _Spot | None:
        best, best_d = None, self.config.same_spot
        for spot in self._spots:
            d = float(np.hypot(spot.x - x, spot.y - y))
            if d <= best_d:
                best, best_d = spot, d
        return best

    def _vote(self, code: str, x: float, y: float, t: float) -> None:
        spot = self._spot_near(x, y)
        if spot is None:
            spot = _Spot(x, y, deque(maxlen=4000), t)
            self._spots.append(spot)
        n = len(spot.reads)
        spot.x += (x - spot.x) / (n + 1) if n < 30 else (x - spot.x) / 30
        spot.y += (y - spot.y) / (n + 1) if n < 30 else (y - spot.y) / 30
        spot.reads.append((t, code))
        spot.last = t

    def votes_at(self, x: float, y: float, since: float = float("-inf")) -> dict[str, int]:
        """How many readings of each code the spot at board point (x, y) had since ``since``:
        the vote on the identity of the card lying there (empty where nothing is read)."""
        spot = self._spot_near(x, y)
        votes: dict[str, int] = {}
        if spot is not None:
            for ft, code in spot.reads:
                if ft >= since:
                    votes[code] = votes.get(code, 0) + 1
        return votes

    def read_times(self, code: str, x: float, y: float, since: float = float("-inf")
                   ) -> set[float]:
        """The frame times since ``since`` in which the spot at board point (x, y) was read as
        ``code`` (one card gives one reading a frame: two codes read in the same frames on
        two spots are two cards, however alike their places)."""
        spot = self._spot_near(x, y)
        if spot is None:
            return set()
        return {ft for ft, c in spot.reads if c == code and ft >= since}

    def last_reads(self, x: float, y: float, n: int) -> list[str]:
        """The last ``n`` readings of the spot at board point (x, y), oldest first (fewer
        where it was read fewer times; none where nothing is read there)."""
        spot = self._spot_near(x, y)
        return [] if spot is None else [c for _t, c in list(spot.reads)[-n:]]

    def reads_of(self, code: str, since: float) -> int:
        """The most readings of ``code`` on any one spot since ``since`` (0: never read)."""
        return max((sum(1 for ft, c in spot.reads if c == code and ft >= since)
                    for spot in self._spots), default=0)

    def read_in(self, zone: int, since: float) -> set[str]:
        """The codes read on the spots of ``zone`` (an index into the zones) since
        ``since``."""
        spots = [s for s in self._spots if s.last >= since]
        if not spots:
            return set()
        where = self.zone_of(np.array([(s.x, s.y) for s in spots]))
        return {c for s, z in zip(spots, where, strict=True) if int(z) == zone
                for ft, c in s.reads if ft >= since}

    def read_before(self, code: str, x: float, y: float) -> str | None:
        """The code last read on the spot at board point (x, y) before ``code`` was first
        read there: the card it was laid on, or the one it was taken for until then (None:
        nothing else was read there first)."""
        spot = self._spot_near(x, y)
        first = None if spot is None else next((ft for ft, c in spot.reads if c == code), None)
        if spot is None or first is None:
            return None
        return next((c for ft, c in reversed(spot.reads) if ft < first and c != code), None)

    def run_before(self, code: str, x: float, y: float) -> tuple[str, float] | None:
        """The code the spot at board point (x, y) was read as, over and over, just before
        ``code`` was first read there, and since when (the card misread until now, or the
        card it was laid on); None where nothing else was read there first."""
        spot = self._spot_near(x, y)
        reads = [] if spot is None else list(spot.reads)
        first = next((i for i, (_ft, c) in enumerate(reads) if c == code), None)
        if not first:
            return None
        other = reads[first - 1][1]
        start = first - 1
        while start > 0 and reads[start - 1][1] in (other, code):
            start -= 1
        return other, reads[start][0]

    def laid_reads_of(self, code: str, since: float) -> int:
        """As `reads_of`, counting only spots where ``code`` was read as a card laid there
        would be: no other card read on that spot both before its first reading and after its
        last (a card lying still, read as ``code`` in a frame or two and as itself around
        them, is a card misread, not ``code`` laid)."""
        best = 0
        for spot in self._spots:
            times = [ft for ft, c in spot.reads if c == code and ft >= since]
            if not times:
                continue
            before = {c for ft, c in spot.reads if ft < times[0] and c != code}
            after = {c for ft, c in spot.reads if ft > times[-1] and c != code}
            if not before & after:
                best = max(best, len(times))
        return best

    def _expire(self, t: float) -> None:
        cfg = self.config
        self._spots = [s for s in self._spots if t - s.last <= cfg.forget_time]
        for code in list(self._tracks):
            kept = []
            for tr in self._tracks[code]:
                limit = cfg.forget_time if tr.counted else cfg.lost_time
                if t - tr.last_seen <= limit:
                    kept.append(tr)
                elif tr.counted and not tr.alias:
                    # (Boodle 1538: Ann's A♠ covered by her next plays and forgotten; her A♣,
                    # read as A♠ as it came in onto that pile, was taken for the A♠ peeking
                    # out and her last card was never logged.)
                    gone = self._forgotten.setdefault(code, [])
                    gone[:] = [*gone, tr][-cfg.copies:]
                elif tr.back_of is not None and not tr.counted:
                    tr.back_of.buried = False  # a stray reading, not a card carried in
                elif tr.twin and not tr.counted:
                    self._twin_landed(tr)
            if kept:
                self._tracks[code] = kept
            else:
                del self._tracks[code]

    def _twin_landed(self, tw: _Track) -> None:
        """A twin never counted is let go: when it came in from away (first read farther than
        twice ``still_tol`` from a counted card of its code), was read last within a card's
        width of it, and that card was read on its spot in the frames right after, it may
        have come to rest on it, read as its code since (Boodle 1938: Ann's 8♠ laid on her
        3♠ and read as 3♠ for seconds): that card remembers when."""
        cfg = self.config
        first, last = tw.samples[0], tw.samples[-1]
        for tr in self._tracks.get(tw.code, []):
            if not tr.counted or tr.alias or tr.buried or tr.last_seen <= tw.last_seen:
                continue
            x, y = tr.position
            if float(np.hypot(first[1] - x, first[2] - y)) > 2 * cfg.still_tol \
                    and float(np.hypot(last[1] - x, last[2] - y)) <= CARD_W \
                    and any(tw.last_seen < s[0] <= tw.last_seen + cfg.lost_time
                            for s in tr.samples):
                tr.covered = tw.last_seen

    def covered_at(self, code: str, x: float, y: float) -> float | None:
        """When a card read as ``code``, seen coming in, last came to rest on the counted card
        of ``code`` at board point (x, y) (`_twin_landed`), that card tracked or forgotten
        since; None: never seen."""
        tr, d = _nearest([tr for tr in [*self._tracks.get(code, []),
                                        *self._forgotten.get(code, [])] if tr.counted], x, y)
        return tr.covered if tr is not None and d <= 2 * self.config.still_tol else None

    def _span(self) -> float:
        """The still window: ``still_time``, stretched at low frame rates so that it can hold
        ``min_frames`` frames (a 5 fps phone stream still gets its cards counted)."""
        cfg = self.config
        return max(cfg.still_time, (cfg.min_frames - 1) * self._frame_interval())

    def _frame_interval(self) -> float:
        if len(self._frames) < 2:
            return 0.0
        recent = list(self._frames)[-8:]
        return float(np.median(np.diff(recent)))

    def _slack(self) -> float:
        """Timestamp jitter forgiven at the window's edge: a quarter of a frame."""
        return 1e-6 + 0.25 * self._frame_interval()

    def _window(self, tr: _Track, t: float) -> list[tuple[float, float, float, float]]:
        start = t - self._span() - self._slack()
        return [s for s in tr.samples if s[0] >= start]

    def _is_still(self, tr: _Track, t: float) -> bool:
        cfg = self.config
        if tr.last_seen != t:
            return False  # decide only on a frame that shows the card where it lies
        span, slack = self._span(), self._slack()
        age = cfg.still_time if span <= cfg.still_time else span - slack
        if tr.first_seen > t - age + 1e-6:
            return False
        win = self._window(tr, t)
        frames = sum(1 for ft in self._frames if ft >= t - span - slack)
        if len(win) < cfg.min_frames or (frames and len(win) / frames < cfg.min_presence):
            # Read too seldom for the still window (frames dropped, a hand passing over it):
            # read min_frames + 1 times or more at one place over the last ``patience``
            # seconds, in half as many of those frames as ``min_presence`` asks, it lies still.
            # (Only since it came to rest: its readings in flight are not its place.)
            start = max(t - max(cfg.patience, 2 * span), self._rest_time(tr)) - slack
            win = [s for s in tr.samples if s[0] >= start]
            frames = sum(1 for ft in self._frames if ft >= start)
            if len(win) < cfg.min_frames + 1 or len(win) / frames < cfg.min_presence / 2:
                return False
        pts = np.array([(s[1], s[2]) for s in win])
        med = np.median(pts, axis=0)
        return bool(np.max(np.hypot(*(pts - med).T)) <= cfg.still_tol)

    def _rest_time(self, tr: _Track) -> float:
        """When the card came to rest: the start of the run of samples near its last place.
        One reading elsewhere between two near it (a neighbour misread as this card) does
        not end the run."""
        tol = self.config.still_tol
        _, x, y, _ = tr.samples[-1]
        since = tr.samples[-1][0]
        samples = list(tr.samples)
        for k in range(len(samples) - 1, -1, -1):
            s = samples[k]
            if np.hypot(s[1] - x, s[2] - y) > tol:
                before = samples[k - 1] if k > 0 else None
                if before is None or np.hypot(before[1] - x, before[2] - y) > tol:
                    break
                continue  # a lone stray reading inside the run
            since = s[0]
        return since

    def _rival_of_counted(self, tr: _Track, pos: np.ndarray) -> bool | str:
        """True when ``tr`` has been read only on the spot of a counted card of another code that
        lay there before ``tr`` first showed and was still being read there after it did: two
        readings of one physical card. A card laid on top of another is carried in (seen on
        its way) or first hides the card under it (a hand, the card in flight), so the spot
        goes unread for a few frames before the new reading starts. The code of that counted
        card when its readings stopped exactly as ``tr`` 's began (no frame between): a card
        laid fast between two frames, or that card misread from then on."""
        spot = self.config.same_spot
        if any(np.hypot(s[1] - pos[0], s[2] - pos[1]) > spot for s in tr.samples):
            return False  # it came from elsewhere: a card carried in, not a misreading
        replaced: str | bool = False
        # When this reading began: the start of its run of samples (a lone misreading of the
        # same code a while before is not the start of this card).
        gap = max(3.0 * self._frame_interval(), 0.25)
        began = tr.samples[-1][0]
        for s in reversed(tr.samples):
            if began - s[0] > gap:
                break
            began = s[0]
        tr.run_start = began
        since = began - 1.5 * self._frame_interval() - 1e-6
        for code, tracks in self._tracks.items():
            if code == tr.code:
                continue
            for other in tracks:
                if not other.counted or other.last_seen < since:
                    continue
                # Where that card lies is the median of its readings: one jittered reading
                # of a neighbour in the pile is not the neighbour lying on this spot.
                spot_of = np.median(np.array([(s[1], s[2]) for s in other.samples]), axis=0)
                if float(np.hypot(*(spot_of - pos))) > spot:
                    continue
                # Two codes read in the same frames are two cards (one lying on the other,
                # both corners showing): one card gives one reading a frame.
                mine = {s[0] for s in tr.samples if s[0] >= began}
                both = {s[0] for s in other.samples} & mine
                if len(both) >= 2 and len(both) >= 0.5 * len(mine):
                    continue
                here = [s[0] for s in other.samples
                        if np.hypot(s[1] - pos[0], s[2] - pos[1]) <= spot]
                # it lay there before this reading began, and was still read there after
                # (decided when ``tr`` first lies still, well within the samples kept)
                if here and min(here) < began and max(here) >= since:
                    if sum(1 for h in here if h >= began) >= self.config.min_frames:
                        # Read again after (more than a stray misreading of the card laid
                        # on it): one card, two readings.
                        return True
                    replaced = code
        if replaced:
            carrier = self._carried_onto(tr, pos, began)
            if carrier is not None:
                tr.carried = {carrier.code: sum(1 for s in carrier.samples if s[0] < began)}
            if tr.carried:
                # A card was carried onto the spot as its readings began: a new card laid
                # there (read one way in flight, another where it lies), not the card under
                # it misread from now on.
                return False
        return replaced

    def _carried_onto(self, tr: _Track, pos: np.ndarray, began: float) -> _Track | None:
        """A card of another code, never counted, last seen near ``pos`` but not on it
        within two frames before ``began`` (the start of ``tr`` 's readings there): a card
        in flight that landed there, if any."""
        cfg = self.config
        for other in self._uncounted_just_before(tr.code, began):
            off = [float(np.hypot(s[1] - pos[0], s[2] - pos[1])) for s in other.samples]
            if min(off) > cfg.still_tol and off[-1] <= cfg.match_dist / 2:
                return other
        return None

    def _settle(self, t: float) -> list[Observation]:
        cfg = self.config
        by_zone_still: dict[int, list[_Track]] = {}
        by_zone_moving: dict[int, list[_Track]] = {}
        for tracks in self._tracks.values():
            for tr in tracks:
                if tr.counted:
                    continue
                still = self._is_still(tr, t)
                if still:
                    if tr.stable_since is None:
                        tr.stable_since = t
                    win = self._window(tr, t)
                    pos = np.median(np.array([(s[1], s[2]) for s in win]), axis=0)
                else:
                    tr.stable_since = None
                    pos = np.array(tr.position)
                z = int(self.zone_of(pos[None, :])[0])
                if z < 0:
                    continue
                rival = self._rival_of_counted(tr, pos) if still else False
                if rival is True:
                    tr.counted = tr.alias = True  # the same card: keep it, never announce it
                    tr.counted_at = t
                    continue
                tr.on_spot_of = rival if isinstance(rival, str) else None
                if tr.on_spot_of is not None and t - tr.run_start < cfg.replace_wait:
                    continue  # does the card under it show again (a misreading)? wait and see
                if still:
                    by_zone_still.setdefault(z, []).append(tr)
                elif sum(1 for s in tr.samples if t - s[0] <= cfg.lost_time) >= cfg.min_frames:
                    # A card on its way (seen in several frames lately). A one-frame misread
                    # is not one, nor are two misreads of one code far apart in time: waiting
                    # for them would hold a settled card until the next card arrives (and
                    # merge two plays into one move, or miss one covered meanwhile).
                    by_zone_moving.setdefault(z, []).append(tr)
        out: list[Observation] = []
        for z, settled in sorted(by_zone_still.items()):
            rest = {id(tr): self._rest_time(tr) for tr in settled}
            first = min(rest.values())
            # Cards of one move come to rest together: later ones are another move.
            settled = [tr for tr in settled if rest[id(tr)] <= first + cfg.group_wait]
            waiting = [tr for tr in by_zone_moving.get(z, [])
                       if tr.first_seen <= first + cfg.group_wait]
            if waiting and t - first < max(cfg.still_time + cfg.group_wait, cfg.patience):
                # Others of the same move are still settling here (read too seldom to be
                # still yet, frames dropped: up to ``patience`` after the first came to rest).
                continue
            settled.sort(key=lambda tr: (rest[id(tr)], tr.position[0], tr.position[1]))
            confs = []
            positions = []
            votes = []
            for tr in settled:
                win = self._window(tr, t)
                confs.append(float(np.mean([s[3] for s in win])))
                px, py = (float(v) for v in np.median(np.array([(s[1], s[2]) for s in win]),
                                                      axis=0))
                positions.append((px, py))
                vote = self.votes_at(px, py, tr.first_seen - 1e-6) or {tr.code: len(win)}
                for code, n in tr.carried.items():
                    vote[code] = vote.get(code, 0) + n
                votes.append(vote)
                tr.counted = True
                tr.counted_at = t
            zone = self.zones[z]
            conf = min(confs)
            out.append(Observation(
                zone=z, zone_name=zone.name, kind=zone.kind, seat=zone.seat,
                cards=[tr.code for tr in settled], confidence=round(conf, 4), t=t,
                t_still=first,
                certain=conf >= cfg.confirm_below,
                positions=[(p[0], p[1]) for p in positions], votes=votes,
                on_spot_of=[tr.on_spot_of for tr in settled],
                returned=[tr.back_of is not None for tr in settled],
                twin=[tr.twin for tr in settled],
            ))
        return out

    def settling_since(self) -> float | None:
        """When the earliest card still settling came to rest: a card lying still, seen in
        this frame, not counted yet (it lies still for less than ``still_time`` yet, waits to
        see whether the card under it shows again, or counts afresh after a correction), for
        at most ``still_time + replace_wait + group_wait`` since it was first seen. Cards laid
        after it wait for it, so that moves are placed in table order. None: none settles."""
        cfg = self.config
        limit = cfg.still_time + cfg.replace_wait + cfg.group_wait
        rests = [self._rest_time(tr) for trs in self._tracks.values() for tr in trs
                 if not tr.counted and tr.last_seen == self.t and self.t - tr.first_seen <= limit
                 and len(tr.samples) >= cfg.min_frames]
        return min(rests, default=None)

    # --- control ----------------------------------------------------------------------------
    def uncount(self, code: str) -> None:
        """Forget that ``code`` was counted (a reading the user rejected): it may count again."""
        for tr in self._tracks.get(code, []):
            tr.counted = tr.alias = False
            tr.stable_since = None

    def disown(self, code: str, x: float, y: float) -> None:
        """The counted card of ``code`` nearest board point (x, y) was not that card (a
        misreading a person or a later reading corrected): its readings there stay one
        card, never announced, and a real ``code`` laid elsewhere counts."""
        counted = [tr for tr in self._tracks.get(code, []) if tr.counted and not tr.alias]
        nearest, _ = _nearest(counted, x, y)
        if nearest is not None:
            nearest.alias = True

    def misread_at(self, code: str, x: float, y: float, at: float | None = None) -> None:
        """``code`` was logged for the card at board point (x, y) and that was a misreading
        (the log was corrected): readings of ``code`` there stay that card's, never a play,
        but a counted ``code`` now read elsewhere (the real card, taken for the same one
        since) counts afresh. ``at``: when the misreading was counted, for where no counted
        ``code`` lies at (x, y) any longer (gathered with its trick since): the cards of
        that code counted before then are their own."""
        spot = 2 * self.config.same_spot
        tracks = [tr for tr in self._tracks.get(code, []) if tr.counted and not tr.alias]
        here = [tr for tr in tracks
                if float(np.hypot(tr.position[0] - x, tr.position[1] - y)) <= spot]
        # A card counted before the misreading was its own card (Oh Claire! 974: the trump
        # card 7♦, turned up at the deal, counted again when Ann's 7♥, read as 7♦ on her
        # pile, was corrected, and logged a second time).
        since = min((tr.counted_at for tr in here),
                    default=float("-inf") if at is None else at)
        for tr in tracks:
            if tr in here:
                tr.alias = True
            elif tr.counted_at > since:
                px, py = tr.position
                tr.counted = False
                tr.stable_since = None
                tr.first_seen = tr.samples[-1][0]  # it counts from its own spot
                tr.twin = False  # (read at once with the misreading, most often)
                while tr.samples and float(np.hypot(tr.samples[0][1] - px,
                                                    tr.samples[0][2] - py)) > spot:
                    tr.samples.popleft()

    def reset(self) -> None:
        """Forget every card (a new table)."""
        self._tracks.clear()
        self._forgotten.clear()
        self._spots.clear()
        self._frames.clear()

    def counted_cards(self, since: float) -> list[tuple[str, float, float]]:
        """The cards counted and read since ``since`` (not the readings of another card that
        stand for it): (code, x, y), for comparing the table before and after an outage."""
        return [(code, *tr.position) for code, trs in self._tracks.items() for tr in trs
                if tr.counted and not tr.alias and tr.last_seen >= since]

    def tracked(self) -> dict[str, list[tuple[float, float, bool]]]:
        """The cards currently tracked: code -> [(x, y, counted)] (for display and tests)."""
        return {code: [(*tr.position, tr.counted) for tr in trs]
                for code, trs in self._tracks.items()}
