"""A cheap greedy policy that plays a sampled Baohuang deal to its end, for search playouts.

Search needs thousands of simulated decisions per second, so this policy never lists the legal
actions: it builds one action from the seat's rank counts and the set on the table, and
applies it with ``apply_unchecked``. It only ever builds legal actions (the tests check that
against ``legal``). It plays what a plain human player would:

- lead the lowest rank, all copies of it, without jokers (jokers alone when nothing else is
  left), or the whole hand when it is a single set;
- answer a set by going out when the whole hand beats it; otherwise pass on a partner's set
  and beat anyone else's with the cheapest set of naturals (lowest rank, preferring a rank
  held exactly that many times); jokers go in only against a seat close to going out, or
  when the answering seat is itself nearly out;
- claim the lead (接風) rather than pass when it may.

Who counts as a partner follows what each seat could know: the royalist or guard knows the
emperor; the emperor knows a partner once revealed; rebels know the emperor and revealed
partners, and treat the others as partners (rebels rarely gain by fighting one another).
"""

from __future__ import annotations

import random

from yamen.games.baohuang.kinds import BIG_SLOT, SLOT_OF, SMALL_SLOT
from yamen.games.baohuang.rules import CLAIM, PASS, PLAY, BaohuangState
from yamen.games.baohuang.sets import NO_RANK, encode

NEAR_OUT = 6  # cards left when a seat counts as close to going out
EXACT_RANK_LIMIT = 9  # prefer an exact-size group only below the king (slot 10)


def play_out(state: BaohuangState, rng: random.Random) -> None:
    """Play the deal in ``state`` to its end with :func:`choose` for every seat."""
    while state.phase == PLAY:
        seat = state._pending[0]
        state.apply_unchecked(seat, choose(state, seat, rng))


def choose(state: BaohuangState, seat: int, rng: random.Random) -> int:
    """The policy's action for ``seat`` (which must be the pending seat in the play phase)."""
    tk = state.tell_kind
    telling = state.hands[seat][tk] if tk >= 0 else 0
    tell_slot = SLOT_OF[tk] if telling else -1
    if state.table is None:
        return lead(state.slots[seat], state.single_with_jokers, tell_slot, telling, rng)
    return follow(state, seat, tell_slot, telling)


def lead(slots: list[int], single: bool, tell_slot: int, telling: int, rng: random.Random) -> int:
    small, big = slots[SMALL_SLOT], slots[BIG_SLOT]
    small_t = telling if tell_slot == SMALL_SLOT else 0
    ranks = [r for r in range(13) if slots[r]]
    if not ranks:
        return encode(NO_RANK, 0, small, big, small_t)
    if len(ranks) == 1:
        r = ranks[0]
        n = slots[r]
        if single or n > 1 or small + big == 0:  # the whole hand as one set
            return encode(r, n, small, big, telling if tell_slot in (r, SMALL_SLOT) else 0)
    r = ranks[1] if len(ranks) > 2 and rng.random() < 0.1 else ranks[0]
    return encode(r, slots[r], 0, 0, telling if tell_slot == r else 0)


def is_partner(state: BaohuangState, seat: int, other: int) -> bool:
    """Whether ``seat`` would treat ``other`` as on its side (see the module docstring)."""
    emperor, partner, public = state.emperor, state.partner, state.public_roles
    if seat == emperor:
        return other == partner and other in public
    if seat == partner:
        return other == emperor
    return other != emperor and not (other == partner and other in public)


def follow(state: BaohuangState, seat: int, tell_slot: int, telling: int) -> int:
    slots = state.slots[seat]
    r_b, n_b, x_b, y_b = state.table
    no_play = CLAIM if _may_claim(state) else PASS
    big = slots[BIG_SLOT]
    if y_b or big < x_b:
        return no_play
    k = n_b + x_b
    if state.sizes[seat] == k:
        whole = _whole_hand(slots, state.single_with_jokers, r_b, n_b, x_b, tell_slot, telling)
        if whole is not None:
            return whole
    owner = state.owner
    if is_partner(state, seat, owner):
        return no_play
    jokers_ok = state.sizes[owner] <= NEAR_OUT or state.sizes[seat] - k <= NEAR_OUT
    if n_b == 0:  # jokers alone: only big jokers beat them
        return encode(NO_RANK, 0, 0, k, 0) if jokers_ok and big >= k else no_play
    if x_b and not jokers_ok:
        return no_play
    n = k - x_b
    if n == 1 and x_b and not state.single_with_jokers:
        return no_play
    r = _cheapest_rank(slots, r_b, n)
    if r < 0:
        return no_play
    t = max(0, n - (slots[r] - telling)) if r == tell_slot else 0
    return encode(r, n, 0, x_b, t)


def _cheapest_rank(slots: list[int], above: int, n: int) -> int:
    """The rank to beat with ``n`` naturals: the lowest held exactly ``n`` times (below the
    king), else the lowest held at least ``n`` times; -1 when none is above ``above``."""
    first = -1
    for r in range(above + 1, 13):
        held = slots[r]
        if held == n and r <= EXACT_RANK_LIMIT:
            return r
        if held >= n and first < 0:
            first = r
    return first


def _whole_hand(
    slots: list[int], single: bool, r_b: int, n_b: int, x_b: int, tell_slot: int, telling: int
) -> int | None:
    """The whole hand as one set that beats the table (same size known), or ``None``."""
    ranks = [r for r in range(13) if slots[r]]
    small, big = slots[SMALL_SLOT], slots[BIG_SLOT]
    if len(ranks) > 1 or big < x_b:
        return None
    small_t = telling if tell_slot == SMALL_SLOT else 0
    if not ranks:
        return encode(NO_RANK, 0, small, big, small_t)  # jokers alone beat any joker-free set
    r = ranks[0]
    n = slots[r]
    if n_b == 0 or r <= r_b or (n == 1 and small + big and not single):
        return None
    return encode(r, n, small, big, telling if tell_slot == r else small_t)


def _may_claim(state: BaohuangState) -> bool:
    return (
        state.yield_and_claim
        and state.stage == 1
        and state.claimant is None
        and not state.active[state.owner]
    )
