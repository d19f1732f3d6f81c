"""A fast rule-based policy that plays a sampled Baohuang deal to its end, for search playouts.

Search needs thousands of simulated decisions per second, so this policy never lists the legal
actions: it builds one action from the seat's rank counts and the set on the table, and
applies it with ``apply_unchecked``; it only ever builds legal actions (the tests check that
against ``legal``). It plays like the ``rules`` bot (yamen/bots/baohuang_play.py), whose ideas
and constants it repeats on the state's counts, so that playouts look like the games the
search bot meets against it:

- lead the whole hand when it is one set; with ten cards or fewer, the first set of a sure
  way out (every set but the last unbeatable); help a friend down to one or two cards; else
  the weakest whole rank, keeping aces, 2s and jokers, not revealing a hidden partner, and
  not a size a close opponent could go out on unless nobody can beat it;
- answer by going out when possible, or with an unbeatable set that leaves a sure way out;
  over the partner's set only to stop an opponent going out on it; otherwise price the
  cheapest set that beats (jokers and strong ranks cost, a whole rank is a bonus, a broken
  rank or revealing costs) and beat when the price is within a limit (small for an ally,
  larger against an opponent close to going out, a small hand, the second circle); a
  little over the limit, yield (讓牌); claim (接風) unless the beat is free.

Every seat judges friends from what it can know: its own role and the public roles.
The policy is deterministic: playouts differ by the sampled deal only.
"""

from __future__ import annotations

from fractions import Fraction

from yamen.games.baohuang import scoring
from yamen.games.baohuang.kinds import BIG_SLOT, BJ, SJ, SLOT_OF, SMALL_SLOT
from yamen.games.baohuang.rules import CLAIM, PASS, PLAY, YIELD, BaohuangState
from yamen.games.baohuang.sets import NO_RANK, encode

# Costs and limits as in the rules bot: spending a rank (3 .. 2), jokers, breaking a rank.
RANK_COST = (0.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0, 1.4, 2.0, 3.0, 4.5)
SMALL_JOKER_COST = 4.0
BIG_JOKER_COST = 6.0
WHOLE_RANK_BONUS = 2.5  # one set fewer left to play
BREAK_COST = 1.0
REVEAL_COST = 1.5  # a hidden partner that unmasks itself
CONTROL = 11  # aces and up win the lead back: kept for later
BEAT_FOE = 2.0
BEAT_ALLY = 1.0  # a fellow rebel's set: shed cheaply
SECOND_CIRCLE = 1.0
ENDGAME = 10  # cards: look for a sure way out
PARTNER_ROLES = ("royalist", "guard")


def play_out(state: BaohuangState) -> None:
    """Play the deal in ``state`` with :func:`choose` for every seat until its scores are
    settled (see :func:`settled`); :func:`deal_scores` then reads them."""
    outs = len(state.out)
    while state.phase == PLAY:
        seat = state._pending[0]
        state.apply_unchecked(seat, choose(state, seat))
        if len(state.out) != outs:
            outs = len(state.out)
            if settled(state):
                return


def settled(state: BaohuangState) -> bool:
    """Whether the deal's scores no longer depend on the play still to come: scores depend
    only on the emperor side's places (their sum, or the lone emperor's place; after a grab,
    whether the emperor went out first), so once the seats still in are all on one side,
    nothing can change them."""
    if state.grabbed:
        return bool(state.out)
    team = (state.emperor, state.partner)
    sides = {s in team for s in range(5) if state.active[s]}
    return len(sides) < 2


def deal_scores(state: BaohuangState) -> list[Fraction]:
    """This deal's scores once :func:`settled` (the seats still in placed in seat order)."""
    places = state.out + [s for s in range(5) if state.active[s]]
    teams = scoring.Teams(state.emperor, state.partner, state.grabbed)
    if state.variant.marked_small_joker:
        return scoring.japanese(places, teams, state.solo_declared, bool(state.rebels))
    return scoring.shandong(places, teams, state.declared or state.solo_declared)


def choose(state: BaohuangState, seat: int) -> int:
    """The policy's action for ``seat`` (the pending seat, in the play phase)."""
    if state.table is None:
        return lead(state, seat)
    return answer(state, seat)


class _Hand:
    """The few facts about one seat's hand that the policy reads, computed once."""

    __slots__ = (
        "_unseen",
        "hidden",
        "reveal_joker",
        "seat",
        "single",
        "slots",
        "state",
        "tell_slot",
        "telling",
    )

    def __init__(self, state: BaohuangState, seat: int):
        self.state, self.seat = state, seat
        self._unseen: list[int] | None = None
        self.slots = state.slots[seat]  # read only (finishes_after works on a copy)
        tk = state.tell_kind
        self.telling = state.hands[seat][tk] if tk >= 0 else 0
        self.tell_slot = SLOT_OF[tk] if self.telling else -1
        self.single = state.single_with_jokers
        self.hidden = seat == state.partner and seat not in state.public_roles
        called = state.called
        # a called joker: every joker of its colour unmasks the hidden royalist
        joker = {SJ: SMALL_SLOT, BJ: BIG_SLOT}.get(called, -1)
        self.reveal_joker = joker if self.hidden else -1

    def telling_in(self, r: int, n: int, x: int) -> int:
        """The fewest telling cards in a set: only once the plain cards of the slot run out."""
        slot = self.tell_slot
        if slot == SMALL_SLOT:
            return max(0, x - (self.slots[SMALL_SLOT] - self.telling))
        return max(0, n - (self.slots[r] - self.telling)) if slot == r and n else 0

    def action(self, r: int, n: int, x: int = 0, y: int = 0) -> int:
        return encode(r if n else NO_RANK, n, x, y, self.telling_in(r, n, x))

    def reveals(self, r: int, n: int, x: int, y: int) -> bool:
        if not self.hidden:
            return False
        joker = self.reveal_joker
        return (
            self.telling_in(r, n, x) > 0
            or (joker == SMALL_SLOT and x > 0)
            or (joker == BIG_SLOT and y > 0)
        )

    def cost(self, r: int, n: int, x: int, y: int) -> float:
        cost = x * SMALL_JOKER_COST + y * BIG_JOKER_COST
        if n:
            held = self.slots[r]
            if n == held:
                cost += RANK_COST[r] - WHOLE_RANK_BONUS
            else:
                cost += RANK_COST[r] * n / held + (BREAK_COST if r < CONTROL else 0.3)
        if self.hidden and self.reveals(r, n, x, y):
            cost += REVEAL_COST
        return cost

    @property
    def unseen(self) -> list[int]:
        """Per slot, the cards this seat cannot see: what the other seats still hold."""
        if self._unseen is None:
            seat = self.seat
            others = [slots for s, slots in enumerate(self.state.slots) if s != seat]
            self._unseen = [sum(column) for column in zip(*others, strict=True)]
        return self._unseen

    def safe(self, r: int, n: int, x: int, y: int) -> bool:
        """Whether nobody can beat this set, even holding every unseen joker and the largest
        unseen rank above it."""
        if y:
            return True
        unseen = self.unseen
        big, small = unseen[BIG_SLOT], unseen[SMALL_SLOT]
        if big < x:
            return True
        if n == 0:
            return big < n + x
        return max(unseen[r + 1 : 13], default=0) + small + big < n + x

    def carries(self, n: int) -> bool:
        """Japanese forbids a single natural card with jokers."""
        return n != 1 or self.single

    def finishing_plan(self) -> list[tuple[int, int, int, int]] | None:
        """Sets that empty the hand, all unbeatable but the last (the rules bot's plan)."""
        c = self.slots
        groups = [r for r in range(13) if c[r]]
        unsafe = [r for r in groups if not self.safe(r, c[r], 0, 0)]
        last = min(unsafe, key=lambda r: (self.carries(c[r]), r)) if unsafe else None
        needing = [r for r in unsafe if r != last]
        big, small = c[BIG_SLOT], c[SMALL_SLOT]
        if len(needing) > big or any(not self.carries(c[r]) for r in needing):
            return None
        big -= len(needing)
        sets = [(r, c[r], 0, 0) for r in groups if r not in unsafe]
        sets += [(r, c[r], 0, 1) for r in needing]
        if last is not None and self.carries(c[last]):
            return [*sets, (last, c[last], small, big)]
        if big or small:
            carrier = next((i for i, s in enumerate(sets) if self.carries(s[1])), None)
            if carrier is not None:
                r, n, x, y = sets[carrier]
                sets[carrier] = (r, n, x + small, y + big)
            elif big or self.safe(0, 0, small, 0):
                sets.append((NO_RANK, 0, small, big))
            else:
                return None
        return sets + ([(last, c[last], 0, 0)] if last is not None else [])

    def finishes_after(self, play: tuple[int, int, int, int]) -> bool:
        """Whether, after this set, the rest of the hand has a finishing plan."""
        r, n, x, y = play
        held = self.slots
        c = self.slots = held[:]
        c[SMALL_SLOT] -= x
        c[BIG_SLOT] -= y
        if n:
            c[r] -= n
        try:
            return self.finishing_plan() is not None
        finally:
            self.slots = held

    def whole(self) -> tuple[int, int, int, int] | None:
        """The whole hand as one set ``(r, n, x, y)``, when it is one."""
        slots = self.slots
        ranks = [r for r in range(13) if slots[r]]
        small, big = slots[SMALL_SLOT], slots[BIG_SLOT]
        if not ranks:
            return NO_RANK, 0, small, big
        if len(ranks) > 1:
            return None
        r = ranks[0]
        if slots[r] == 1 and small + big and not self.single:
            return None
        return r, slots[r], small, big


def known_friends(state: BaohuangState, seat: int) -> list[bool]:
    """Per seat, whether it surely plays on ``seat``'s side, from ``seat``'s own role and the
    public roles (hidden seats count as opponents), as the rules bot judges it."""
    friend = [s == seat for s in range(5)]
    emperor, public = state.emperor, state.public_roles
    shown = next((s for s, role in public.items() if role in PARTNER_ROLES), None)
    if seat == emperor:
        if state.solo or state.grabbed:
            return friend
        if shown is None:
            hidden = [s for s in range(5) if s != seat and public.get(s) != "commoner"]
            shown = hidden[0] if len(hidden) == 1 else None
        if shown is not None:
            friend[shown] = True
        return friend
    if seat == state.partner:
        friend[emperor] = True
        return friend
    alone = state.grabbed or public.get(emperor) == "solo emperor"
    for s in range(5):
        if s not in (seat, emperor):
            friend[s] = public.get(s) == "commoner" or alone or shown not in (None, s)
    return friend


def _partner_of(state: BaohuangState, seat: int, friend: list[bool]) -> int | None:
    """The emperor's known partner, seen from either end (fellow rebels are only allies)."""
    if seat == state.partner:
        return state.emperor
    if seat == state.emperor:
        return next((s for s in range(5) if friend[s] and s != seat), None)
    return None


def lead(state: BaohuangState, seat: int) -> int:
    hand = _Hand(state, seat)
    whole = hand.whole()
    if whole is not None:
        return hand.action(*whole)
    slots = hand.slots
    sizes = state.sizes
    if sizes[seat] <= ENDGAME:
        plan = hand.finishing_plan()
        if plan:
            return hand.action(*plan[0])
    ranks = [r for r in range(13) if slots[r]]
    friend = known_friends(state, seat)
    helped = [s for s in range(5) if s != seat and friend[s] and 0 < sizes[s] <= 2]
    if helped:
        want = sizes[helped[0]]
        for r in ranks:
            if slots[r] >= want and r < CONTROL:
                return hand.action(r, want)
    danger = {sizes[s] for s in range(5) if not friend[s] and 0 < sizes[s] <= 5}
    best, best_penalty = ranks[0], float("inf")
    for r in ranks:
        n = slots[r]
        penalty = r + (10 if r >= CONTROL else 0)
        if hand.hidden and hand.reveals(r, n, 0, 0):
            penalty += 4
        if n in danger and not hand.safe(r, n, 0, 0):
            penalty += 20
        if penalty < best_penalty:
            best, best_penalty = r, penalty
    return hand.action(best, slots[best])


def answer(state: BaohuangState, seat: int) -> int:
    r_b, n_b, x_b, y_b = state.table
    may_claim = (
        state.yield_and_claim
        and state.stage == 1
        and state.claimant is None
        and not state.active[state.owner]
    )
    no_play = CLAIM if may_claim else PASS
    slots = state.slots[seat]
    big = slots[BIG_SLOT]
    k = n_b + x_b
    if y_b or big < x_b or big + slots[SMALL_SLOT] + max(slots[r_b + 1 : 13], default=0) < k:
        return no_play  # nothing in this hand beats the set (a quick upper bound)
    hand = _Hand(state, seat)
    plays = beating(hand, r_b, n_b, x_b)
    if not plays:
        return no_play
    size = state.sizes[seat]
    if size == k:
        return hand.action(*plays[0])  # out: any beating set is the whole hand
    if size <= ENDGAME:
        for play in plays:
            if hand.safe(*play) and hand.finishes_after(play):
                return hand.action(*play)
    owner = state.owner
    friend = known_friends(state, seat)
    if owner == _partner_of(state, seat, friend):
        return _stopping(state, hand, plays, friend, no_play)
    best, cost = plays[0], hand.cost(*plays[0])
    for play in plays[1:]:
        c = hand.cost(*play)
        if c < cost:
            best, cost = play, c
    if may_claim and cost > 0:
        return CLAIM
    limit = BEAT_ALLY if friend[owner] else _beat_limit(state, seat, owner)
    if cost <= limit:
        return hand.action(*best)
    if state.yield_and_claim and state.stage == 1 and cost <= limit + SECOND_CIRCLE:
        return YIELD
    return PASS


def _beat_limit(state: BaohuangState, seat: int, owner: int) -> float:
    limit = BEAT_FOE
    owner_size = state.sizes[owner]
    if 0 < owner_size <= 3:
        limit += 5.0
    elif 0 < owner_size <= 8:
        limit += 2.0
    if state.sizes[seat] <= 8:
        limit += 1.0
    if state.stage == 2:
        limit += SECOND_CIRCLE
    return limit


def beating(hand: _Hand, r_b: int, n_b: int, x_b: int) -> list[tuple[int, int, int, int]]:
    """Every set ``(r, n, x, y)`` from the hand that beats the table (no big joker on it), in
    the order the engine lists them."""
    slots = hand.slots
    k = n_b + x_b
    small, big = slots[SMALL_SLOT], slots[BIG_SLOT]
    tell = hand.tell_slot
    plays = []
    for y in range(x_b, min(k, big) + 1):
        for x in range(min(k - y, small) + 1):
            n = k - x - y
            if n == 0:
                plays.append((NO_RANK, 0, x, y))
            elif n_b and (x + y == 0 or hand.carries(n)):
                ranks = [r for r in range(r_b + 1, 13) if slots[r] >= n]
                if tell in ranks:  # the engine lists the rank of held telling cards first
                    ranks.remove(tell)
                    ranks.insert(0, tell)
                plays += [(r, n, x, y) for r in ranks]
    return plays


def _stopping(
    state: BaohuangState,
    hand: _Hand,
    plays: list[tuple[int, int, int, int]],
    friend: list[bool],
    no_play: int,
) -> int:
    """Over a partner's set: the cheapest unbeatable answer, only when an opponent still in
    could go out on a set of this size."""
    wanted = sum(state.table[1:])  # (r, n, x, y): the set's size is n + x + y
    sizes = state.sizes
    if not any(not friend[s] and sizes[s] == wanted for s in range(5)):
        return no_play
    safe = [q for q in plays if hand.safe(*q)]
    return hand.action(*min(safe, key=lambda q: hand.cost(*q))) if safe else no_play
