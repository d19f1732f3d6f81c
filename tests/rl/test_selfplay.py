"""An actor's self-play on the vector environment (yamen/rl/rollout.py ``SelfPlay``): one
forward pass a step for every game's legal actions picks what the network picks one decision
at a time, and a job's batch holds exactly the decisions of the games that ended, each with
its seat's final score. Numpy only: no PyTorch."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.rl.cases import CASES, IDS
from yamen.bots.encoding import encoder_for
from yamen.bots.qnet import q_values, q_values_ragged
from yamen.engine import get_game
from yamen.rl import raw_env, rollout, vector_env


def random_arrays(game, seed: int) -> dict[str, np.ndarray]:
    encoder = encoder_for(game)
    rng = np.random.default_rng(seed)

    def weights(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.3, shape).astype(np.float32)

    return {
        "w0_obs": weights(encoder.observation_size, 24),
        "w0_act": weights(encoder.action_feature_size, 24),
        "b0": weights(24),
        "w1": weights(24, 1),
        "b1": weights(1),
    }


@pytest.mark.parametrize(("game", "options"), CASES[:6], ids=IDS[:6])
def test_one_pass_for_every_game_picks_what_each_decision_would(game, options):
    arrays = random_arrays(get_game(game, options), 1)
    vec = vector_env(game, 5, **options)
    step = vec.reset(seed=3)
    rng = random.Random(0)
    for _ in range(40):
        offsets = step.legal_offsets
        rows = np.repeat(np.arange(5), np.diff(offsets))
        ragged = q_values_ragged(arrays, step.observations, step.legal_features, rows)
        picks = rollout.greedy(arrays, step.observations, step.legal_features, offsets)
        for i in range(5):
            mine = step.legal_features[offsets[i] : offsets[i + 1]]
            alone = q_values(arrays, step.observations[i], mine)
            assert np.allclose(ragged[offsets[i] : offsets[i + 1]], alone, atol=1e-5)
            assert picks[i] == offsets[i] + int(np.argmax(alone))
        choices = [rng.randrange(offsets[i], offsets[i + 1]) for i in range(5)]
        step = vec.step(step.legal_ids[choices])


def greedy_game(game, options, seed, arrays):
    """One game in the AEC environment, every seat greedy on the network, decision by
    decision: the kept decisions (seat, observation, feature row), the final scores and the
    number of decisions, forced ones included."""
    env = raw_env(game, **options)
    env.reset(seed=seed)
    kept, decisions = [], 0
    while not all(env.terminations.values()):
        decisions += 1
        agent = env.agent_selection
        legal = env.infos[agent]["legal_actions"]
        seat = env.seat_of[agent]
        observation = env.observe(agent)["observation"]
        features = env.encoder.action_features(env.game_state.view(seat), legal)
        pick = int(np.argmax(q_values(arrays, observation, features)))
        if len(legal) > 1:
            kept.append((seat, observation, features[pick]))
        env.step(legal[pick])
    return kept, [env.rewards[a] for a in env.possible_agents], decisions


@pytest.mark.parametrize(
    ("game", "options"), [("baohuang", {"variant": "japanese"}), ("criminal_poker", {})]
)
def test_a_job_returns_the_ended_games_decisions_with_their_scores(monkeypatch, game, options):
    monkeypatch.setattr(rollout, "SELFPLAY_GAMES", 2)
    arrays = random_arrays(get_game(game, options), 2)
    roller = rollout.Roller(game, options, seed=0)
    batch = roller.play("selfplay", arrays, 0.0, 1, 8)  # the vector env is seeded 8, 9
    games = [greedy_game(game, options, 8 + slot, arrays) for slot in range(2)]
    # the slot (or both) whose game ended first, in slot order
    for ended in ([0], [1], [0, 1]):
        kept = [k for slot in ended for k in games[slot][0]]
        if len(kept) == batch.frames:
            break
    assert batch.games == len(ended) >= 1
    assert np.array_equal(batch.observations, np.array([o for _, o, _ in kept]))
    assert np.array_equal(batch.features, np.array([f for _, _, f in kept]))
    returns = [games[slot][1][seat] for slot in ended for seat, _, _ in games[slot][0]]
    assert batch.returns.tolist() == pytest.approx(returns)
    assert batch.decisions == sum(games[slot][2] for slot in ended)
    # the game still on carries over: the next job goes on with it
    after = roller.play("selfplay", arrays, 0.0, 1, 9)
    assert after.games >= 1 and after.frames > 0
