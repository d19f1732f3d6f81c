"""The single-seat Gymnasium environment: one learner, Yamen's bots at the other seats."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tests.rl.cases import CASES, IDS
from yamen.rl import SingleAgentEnv


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_gymnasium_env_checker(game, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "no spec": not made by gymnasium.make
        check_env(SingleAgentEnv(game, seat=1, opponents="random", **options))


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
@pytest.mark.parametrize("seat", [0, 3])
def test_an_episode_against_the_rules_bots_pays_the_learners_score(game, options, seat):
    made = SingleAgentEnv(game, seat=seat, opponents="rules", **options)
    obs, info = made.reset(seed=seat)
    rng = random.Random(seat)
    total, done, steps = 0.0, False, 0
    while not done:
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert sorted(info["legal_actions"]) == legal
        assert seat in made.game_state.pending()
        obs, reward, done, truncated, info = made.step(rng.choice(legal))
        total += reward
        steps += 1
        assert not truncated
    result = made.game_state.result()
    assert total == float(result.scores[seat]) and steps > 0


def test_an_illegal_action_ends_the_episode():
    game, options = CASES[0]
    made = SingleAgentEnv(game, opponents="random", illegal_reward=-5.0, **options)
    obs, _ = made.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = made.step(illegal)
    assert (reward, done, info) == (-5.0, True, {"illegal": True})


def test_opponents_one_spec_per_other_seat():
    game, options = CASES[0]
    seats = SingleAgentEnv(game, **options).game.num_seats
    made = SingleAgentEnv(game, seat=0, opponents=["random"] * (seats - 1), **options)
    assert sorted(made.bots) == list(range(1, seats))
    with pytest.raises(ValueError):
        SingleAgentEnv(game, opponents=["random"], **options)
