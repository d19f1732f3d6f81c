"""The PettingZoo environment of every learnable game (tests/rl/cases.py): PettingZoo's own API
and seed tests, and what yamen.rl.env promises beyond them (turns, masks, rewards, seeds)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pettingzoo
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from tests.rl.cases import CASES, IDS
from yamen.engine import get_game
from yamen.rl import env, raw_env, registered_ids


@pytest.fixture(autouse=True)
def _quiet():
    # PettingZoo's tests warn about Dict observations, as for its own classic games
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_pettingzoo_api(game, options):
    api_test(env(game, **options), num_cycles=2000)


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_pettingzoo_seed(game, options):
    seed_test(lambda: env(game, **options), num_cycles=2000)


def play(made, rng: random.Random, check=None) -> int:
    """Random masked actions to the end (then the dead steps); the steps taken."""
    steps = 0
    for agent in made.agent_iter():
        obs, _, terminated, truncated, _ = made.last()
        if check is not None:
            check(made.unwrapped, agent, obs)
        if terminated or truncated:
            made.step(None)
            continue
        made.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_turns_and_masks_follow_the_game(game, options):
    """The agent selected is the lowest pending seat; every seat's mask is its legal actions
    (zeros when it owes nothing); the info of the selected agent lists them too."""
    made = env(game, **options)
    made.reset(seed=7)
    windows = 0

    def check(raw, agent, obs):
        nonlocal windows
        state = raw.game_state
        if state.over:
            return
        seat = raw.seat_of[agent]
        assert seat == min(state.pending())
        windows += len(state.pending()) > 1
        for other in raw.possible_agents:
            mask = raw.observe(other)["action_mask"]
            legal = state.legal(raw.seat_of[other])
            assert np.flatnonzero(mask).tolist() == sorted(legal)
        assert np.array_equal(obs["action_mask"], raw.observe(agent)["action_mask"])
        assert sorted(raw.infos[agent]["legal_actions"]) == sorted(state.legal(seat))

    assert play(made, random.Random(7), check) > 0


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_rewards_are_the_scores(game, options):
    made = env(game, **options)
    made.reset(seed=11)
    rewards = {}

    def check(raw, agent, obs):
        if raw.terminations[agent]:
            rewards[agent] = raw._cumulative_rewards[agent]

    play(made, random.Random(11), check)
    result = made.unwrapped.game_state.result()
    expected = {f"player_{s}": float(score) for s, score in enumerate(result.scores)}
    assert rewards == expected
    assert sum(rewards.values()) == pytest.approx(float(sum(result.scores)))


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_reset_seed_is_the_game_seed_and_state_is_every_seat(game, options):
    one, two = raw_env(game, **options), raw_env(game, **options)
    one.reset(seed=123)
    two.reset(seed=123)
    assert one.game_state.seed == 123
    assert one.game_state.view(None) == get_game(game, options).new_state(123).view(None)
    for agent in one.possible_agents:
        assert np.array_equal(one.observe(agent)["observation"], two.observe(agent)["observation"])
    one.reset()
    two.reset()  # no seed: the next seed drawn from the last one given, alike
    assert one.game_state.seed == two.game_state.seed != 123
    full = one.state()
    assert full.shape == one.state_space.shape and full.dtype == np.float32
    size = one.encoder.observation_size
    for seat, agent in enumerate(one.possible_agents):
        part = full[seat * size : (seat + 1) * size]
        assert np.array_equal(part, one.observe(agent)["observation"])


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_render_is_the_spectators_text(game, options):
    made = env(game, render_mode="ansi", **options)
    made.reset(seed=1)
    text = made.render()
    raw = made.unwrapped
    assert text == raw.game.render_text(raw.game_state.view(None))
    with pytest.raises(ValueError):
        raw_env(game, render_mode="rgb_array", **options)


def test_registered_with_pettingzoo():
    ids = registered_ids()
    assert ids and all(i in pettingzoo.aec_registry for i in ids)
    game, options = CASES[0]
    made = pettingzoo.make("aec", f"yamen/{game}-v0", **options)
    made.reset(seed=3)
    assert made.unwrapped.game.name == game


def test_an_illegal_action_ends_the_game_for_its_maker():
    game, options = CASES[0]
    made = env(game, **options)
    made.reset(seed=5)
    obs, *_ = made.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = made.agent_selection
    made.step(illegal)
    assert all(made.terminations.values())
    assert made.rewards[agent] == -1.0


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(range(len(CASES))), st.integers(0, 2**31))
def test_random_masked_play_always_ends(index, seed):
    game, options = CASES[index]
    made = env(game, **options)
    made.reset(seed=seed)
    steps = play(made, random.Random(seed))
    assert made.agents == [] and steps > 0
