"""``State.check``: refuses exactly what ``apply`` refuses, and changes nothing."""

from __future__ import annotations

import random

import pytest

from yamen.engine import new_game
from yamen.errors import IllegalAction


@pytest.mark.parametrize("game", ["baohuang", "criminal_poker", "bao_qingtian"])
def test_check_agrees_with_apply(game):
    rng = random.Random(3)
    state = new_game(game, None, seed=11)
    steps = 0
    while not state.over and steps < 200:
        probe = state.clone()
        for seat in range(state.num_seats):
            for action in (*rng.sample(range(400), 5), True, "0", *state.legal(seat)[:3]):
                try:
                    state.check(seat, action)
                    checked = None
                except IllegalAction as exc:
                    checked = type(exc)
                try:
                    state.clone().apply(seat, action)
                    applied = None
                except IllegalAction as exc:
                    applied = type(exc)
                assert checked == applied, (seat, action)
        assert state.view(None) == probe.view(None)
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
        steps += 1
