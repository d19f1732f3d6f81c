"""Every learnable game's encoder (tests/rl/cases.py): the contract of yamen/bots/encoding.py
checked on random states of each case."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.rl.cases import CASES, IDS
from yamen.bots.encoding import Encoder, encoder_class, encoder_for
from yamen.engine import get_game
from yamen.rl.encoding import action_features, full_information, full_information_size, observe


def random_states(game, seed: int, games: int = 2, states: int = 0):
    """States met in random games: every decision of ``games`` games, and of more games
    until ``states`` states were met (some games are a dozen decisions long)."""
    rng = random.Random(seed)
    index = met = 0
    while index < games or met < states:
        state = game.new_state(seed + index)
        index += 1
        while not state.over:
            met += 1
            yield state
            seat = rng.choice(state.pending())
            state.apply(seat, rng.choice(state.legal(seat)))
        yield state


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_observations_are_read_from_the_view(name, options):
    """The fast path equals the view's encoding, for every seat, on every state met; vectors
    are float32 of the declared size with features in [-1, 1]."""
    game = get_game(name, options)
    encoder = encoder_for(game)
    assert isinstance(encoder, Encoder)
    checked = 0
    for state in random_states(game, seed=3, states=60):
        for seat in range(game.num_seats):
            from_view = encoder.encode(state.view(seat), seat)
            assert from_view.dtype == np.float32
            assert from_view.shape == (encoder.observation_size,)
            assert from_view.min() >= -1.0 and from_view.max() <= 1.0
            assert np.array_equal(observe(encoder, state, seat), from_view)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_action_features_one_row_per_action(name, options):
    game = get_game(name, options)
    encoder = encoder_for(game)
    for state in random_states(game, seed=5, games=1):
        for seat in state.pending():
            legal = state.legal(seat)
            rows = encoder.action_features(state.view(seat), legal)
            assert rows.shape == (len(legal), encoder.action_feature_size)
            assert rows.dtype == np.float32
            assert len({row.tobytes() for row in rows}) == len(legal), "actions told apart"
            assert np.array_equal(action_features(encoder, state, seat, legal), rows)


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_state_holds_every_seat(name, options):
    game = get_game(name, options)
    encoder = encoder_for(game)
    state = next(random_states(game, seed=9, games=1))
    full = full_information(encoder, state)
    assert full.shape == (full_information_size(encoder, game),) and full.dtype == np.float32
    size = encoder.observation_size
    for seat in range(state.num_seats):  # every seat's own observation, seat 0 first
        assert np.array_equal(full[seat * size : (seat + 1) * size], observe(encoder, state, seat))


def test_a_game_without_an_encoder_is_refused():
    class Bare:
        encoder = None
        name = "bare"

    assert encoder_class(Bare) is None  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        encoder_for(Bare)  # type: ignore[arg-type]
