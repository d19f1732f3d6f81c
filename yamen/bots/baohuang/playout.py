"""Search playouts: a sampled Baohuang deal played to its end by the rules bot's own play.

Search needs thousands of simulated decisions per second. The policy is the rules bot's
(:mod:`yamen.bots.baohuang.play`), so that playouts look like the games the search bot meets
against it; only the way a seat is read differs: :class:`StatePerspective` takes its facts
straight from the sampled state instead of a view (building a view per decision would cost more than
the decision), and actions are applied with ``apply_unchecked``. The policy only ever builds
legal actions (the tests check that against ``legal``).

Where Baohuang's compiled core is built (yamen/games/baohuang/core.py), :class:`Playouts` runs
the same policy and rules in C, the state packed once for every playout from it; the core is
the same play, checked decision by decision against this module (lockstep.py).

Every seat judges friends from what it can know: its own role and the public roles. What the
rules decide is asked of the state, never copied here: a seat's role (``own_role``), whether
it may yield or claim (``answer_words``) and the deal's scores (``deal_scores``).
"""

from __future__ import annotations

import random
from fractions import Fraction

from yamen.bots.baohuang.hand import JOKER_SLOT, Perspective, known_friends, partner_of
from yamen.bots.baohuang.play import ToAnswer, answer_beatable, cannot_beat, lead
from yamen.bots.baohuang.rules import BaohuangRulesBot
from yamen.games.baohuang.actions import CLAIM, PASS, YIELD
from yamen.games.baohuang.core import CORE, pack, points
from yamen.games.baohuang.kinds import SLOT_OF
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.rules import BaohuangState

Sides = list[tuple[list[bool], int | None] | None]  # per seat: (friend, partner), once read


def play_out(state: BaohuangState) -> None:
    """Play the deal in ``state`` with :func:`choose` for every seat until its scores are
    settled (see :func:`settled`); :func:`deal_scores` then reads them."""
    outs = len(state.out)
    sides: Sides = [None] * 5  # each seat's reading of sides, until a role becomes public
    public = dict(state.public_roles)
    play = Phase.PLAY
    while state.phase is play:
        seat = state._pending[0]
        state.apply_unchecked(seat, choose(state, seat, sides))
        if state.public_roles != public:
            public = dict(state.public_roles)
            sides = [None] * 5
        if len(state.out) != outs:
            outs = len(state.out)
            if settled(state):
                return


class Playouts:
    """Policy playouts from one sampled state (not changed), each after an optional first
    action of the seat to act: in the compiled core where it is built, else on a clone in
    Python; the same scores either way (the core scores the deal itself). A deal's scores
    depend only on its places (the sides and stakes are fixed before play), so they are kept by
    places."""

    def __init__(self, state: BaohuangState | None, packed: bytes | None = None):
        """From ``state``, or (the core's only) from a deal already ``packed``."""
        self.state = state
        self.packed = pack(state) if CORE is not None and state is not None else packed
        assert state is not None or (CORE is not None and packed is not None), "a deal"
        self._scores: dict[tuple[int, ...], list[Fraction]] = {}

    def scores(self, first: int | None = None) -> list[Fraction]:
        """The deal's scores once ``first`` (if any) and the policy's play have settled them."""
        if CORE is not None and self.packed is not None:
            places, twelfths, _ = CORE.play_out(self.packed, -1 if first is None else first)
        else:
            places, twelfths = places_after(self._state(), first), None
        found = self._scores.get(places)
        if found is None:
            score = (
                self._state().deal_scores(list(places)) if twelfths is None else points(twelfths)
            )
            found = self._scores[places] = score
        return found

    def _state(self) -> BaohuangState:
        assert self.state is not None, "the Python plays out and scores a state"
        return self.state


def places_after(state: BaohuangState, first: int | None = None) -> tuple[int, ...]:
    """The places a policy playout in Python reaches from ``state`` (not changed) after
    ``first`` (if any) by the seat to act."""
    game = state.clone()
    if first is not None:
        game.apply_unchecked(game._pending[0], first)
    play_out(game)
    return tuple(game.places_now())


def rules_scores(state: BaohuangState) -> list[Fraction]:
    """The final scores of the game in ``state`` played on to its end by the rules bot in
    every seat: the game's fast playout for learners (``Game.playouts``, yamen/rl/improve.py).
    The bot decides through views (in place) until the match's last deal is in play, then
    :class:`Playouts` plays it as the bot would (tests/rl check that both agree)."""
    bot, rng = BaohuangRulesBot(), random.Random(0)  # the rules bot draws nothing
    while not state.over:
        if state.phase is Phase.PLAY and state.deal_no >= state.options["deals"]:
            # the last deal's scores once settled (Playouts: in the core where it is built),
            # on the match's totals: what the match's result would say
            deal = Playouts(state).scores()
            return [a + b for a, b in zip(state.totals, deal, strict=True)]
        seat = state.pending()[0]
        legal = state.legal(seat)
        state.apply(seat, legal[0] if len(legal) == 1 else bot.choose(state.view(seat), legal, rng))
    result = state.result()
    assert result is not None, "a game played to its end has a result"
    return list(result.scores)


def settled(state: BaohuangState) -> bool:
    """Whether the deal's scores no longer depend on the play still to come: scores depend
    only on the emperor side's places (their sum, or the lone emperor's place; after a grab,
    whether the emperor went out first), so once the seats still in are all on one side,
    nothing can change them (unless a seat out is ranked last for going out on the lowest
    rank: house.py)."""
    if state.sunk:  # lowest_last: the places below depend on who else sinks
        return False
    if state.grabbed:
        return bool(state.out)
    team = (state.emperor, state.partner)
    sides = {s in team for s in range(5) if state.active[s]}
    return len(sides) < 2


def deal_scores(state: BaohuangState) -> list[Fraction]:
    """This deal's scores once :func:`settled` (the seats still in placed in seat order),
    as the rules place and score them."""
    return state.deal_scores(state.places_now())


def choose(state: BaohuangState, seat: int, sides: Sides | None = None) -> int:
    """The policy's action for ``seat`` (the pending seat, in the play phase). ``sides``: per
    seat, its ``(friend, partner)`` reading if already known (:func:`play_out` keeps them)."""
    table = state.table
    if table is None:
        return lead(StatePerspective(state, seat, sides))
    words = state.answer_words()
    may_claim = CLAIM in words
    if cannot_beat(state.slots[seat], table):  # most answers: skip reading the seat
        return CLAIM if may_claim else PASS
    r, n, x, y = table
    may_yield = YIELD in words
    seen = StatePerspective(state, seat, sides)
    return answer_beatable(
        seen, ToAnswer(r, n, x, y, state.owner, state.stage, may_yield, may_claim)
    )


class StatePerspective(Perspective):
    """A seat's facts read from the (sampled) state: only what the seat itself may know is
    used (its hand, the hand sizes, its own role and the public roles, the cards others hold
    as one unseen pool)."""

    __slots__ = ("state",)

    def __init__(self, state: BaohuangState, seat: int, sides: Sides | None = None):
        self.state = state
        self.me = seat
        self.counts = state.slots[seat]  # the policy restores any change it makes
        self.sizes = state.sizes
        self.single_with_jokers = state.single_with_jokers
        self.sink_rank = state.house.sink_rank
        self.held_rank = state.house.held_rank
        tk = state.tell_kind
        self.telling = state.hands[seat][tk] if tk >= 0 else 0
        self.tell_slot = SLOT_OF[tk] if self.telling else -1
        emperor, partner, public = state.emperor, state.partner, state.public_roles
        self.hidden_partner = seat == partner and seat not in public
        called = state.called  # None in the seed's japanese: its guard card is no joker's colour
        self.joker_slot = -1
        if self.hidden_partner and called is not None:
            self.joker_slot = JOKER_SLOT.get(called, -1)
        known = sides[seat] if sides is not None else None
        if known is None:
            role = state.own_role(seat)
            friend = known_friends(seat, role, emperor, public, state.grabbed)
            known = friend, partner_of(seat, role, emperor, friend)
            if sides is not None:
                sides[seat] = known
        self.friend, self.partner = known
        self._unseen = None

    def _count_unseen(self) -> list[int]:
        """What the other seats hold, all together."""
        me = self.me
        others = [slots for s, slots in enumerate(self.state.slots) if s != me]
        return [sum(column) for column in zip(*others, strict=True)]
