"""What the no-peeking tests of tests/rl share: a Baohuang deal with one hidden card moved, and
two states played on alike while they can be."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from yamen.engine import State


def swapped_deals(game, seed: int, me: int, rng: random.Random):
    """The Baohuang deal of ``seed`` as an explicit deal, and the same deal with one card
    swapped between two seats other than ``me`` (neither card marked: where the marked jokers
    lie is public); and one of the two seats."""
    start = game.new_state(seed)
    hands = [list(start.view(seat)["hand"]) for seat in range(5)]
    a, b = rng.sample([s for s in range(5) if s != me], 2)
    picks = [(i, j) for i, x in enumerate(hands[a]) for j, y in enumerate(hands[b])]
    rng.shuffle(picks)
    i, j = next(
        (i, j)
        for i, j in picks
        if hands[a][i] != hands[b][j] and "*" not in hands[a][i] + hands[b][j]
    )
    other = [hand[:] for hand in hands]
    other[a][i], other[b][j] = hands[b][j], hands[a][i]
    return hands, other, a


def play_alike(
    one: State,
    two: State,
    rng: random.Random,
    check: Callable[[State, State], bool],
    lowest_first: bool = False,
) -> int:
    """Play both states with the same random actions, each legal in both, until one is over or
    no action is (the hidden difference showed): a random pending seat acts, or the lowest.
    ``check`` is asked before every action and says whether it compared something. How many
    times it did."""
    compared = 0
    while not one.over:
        compared += check(one, two)
        seat = min(one.pending()) if lowest_first else rng.choice(one.pending())
        both = sorted(set(one.legal(seat)) & set(two.legal(seat)))
        if not both:
            break
        action = rng.choice(both)
        one.apply(seat, action)
        two.apply(seat, action)
    return compared


def same_observation(encoder, me: int) -> Callable[[State, State], bool]:
    """A check for :func:`play_alike`: where the seat's views agree, so do its observations,
    from the state (the fast path) and from the view."""

    def same(one: State, two: State) -> bool:
        if one.view(me) != two.view(me):
            return False
        seen = encoder.encode_seat(two, me)
        assert np.array_equal(encoder.encode_seat(one, me), seen)
        assert np.array_equal(encoder.encode(one.view(me), me), seen)
        return True

    return same
