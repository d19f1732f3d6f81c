"""The single-seat Gymnasium environment: one learner, Yamen's bots at the other seats."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tests.rl.cases import CASES, IDS
from yamen.engine import get_game
from yamen.rl import SingleAgentEnv


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_gymnasium_env_checker(game, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "no spec": not made by gymnasium.make
        check_env(SingleAgentEnv(game, seat=1, opponents="random", **options))


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
@pytest.mark.parametrize("seat", [0, -1])
def test_an_episode_against_the_rules_bots_pays_the_learners_score(game, options, seat):
    seats = get_game(game, options).num_seats
    made = SingleAgentEnv(game, seat=seat % seats, opponents="rules", **options)
    seat = made.seat  # -1: the last seat
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


def test_a_game_the_learner_never_acts_in_is_dealt_again():
    """At a 50-seat Bao Qing-tian table most seats are never asked anything: reset deals again
    until the learner owes a decision, the same games for the same seed."""
    made = SingleAgentEnv("bao_qingtian", seat=1, opponents="random", players=50)
    skipped = []
    for seed in range(6):
        obs, info = made.reset(seed=seed)
        assert 1 in made.game_state.pending() and obs["action_mask"].any()
        skipped.append(info["skipped"])
    assert max(skipped) > 0
    again = SingleAgentEnv("bao_qingtian", seat=1, opponents="random", players=50)
    assert [again.reset(seed=seed)[1]["skipped"] for seed in range(6)] == skipped
