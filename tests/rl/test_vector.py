"""The vectorized environment (yamen/rl/vector.py) of every learnable game (tests/rl/cases.py):
slot by slot, step by step, what the AEC environment shows for the same seeds and actions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.rl.cases import CASES, IDS
from yamen.engine import game_type
from yamen.errors import IllegalAction
from yamen.rl import raw_env, vector_env

GAMES = 2  # slots side by side
MAX_STEPS = 4000  # more than any case needs for a game to end in every slot


def legal_of(step, i: int) -> list[int]:
    return step.legal_ids[step.legal_offsets[i] : step.legal_offsets[i + 1]].tolist()


def legal_now(aec) -> list[int]:
    return aec.infos[aec.agent_selection]["legal_actions"]


def ended(aec, chain: random.Random) -> tuple[list[float], int] | None:
    """If the AEC game is over: its scores and the seed of the next game, then dealt as the
    vector environment deals it (a reset without a seed)."""
    if not all(aec.terminations.values()):
        return None
    scores = [aec.rewards[agent] for agent in aec.possible_agents]
    aec.reset()
    return scores, chain.getrandbits(63)


# the cases of games with a compiled fast path (Game.stepper), run again through it
STEPPED = [(case, i) for case, i in zip(CASES, IDS, strict=True) if game_type(case[0]).stepper]


@pytest.mark.parametrize("skip_forced", [False, True], ids=["every", "skip_forced"])
@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_each_slot_plays_the_aec_environments_games(game, options, skip_forced):
    """Every array of every step equals the AEC environment's for the same seeds and actions:
    the seat to act, its observation, its legal ids and their features, the mask, the full
    information, the rewards when a game ends; and the next game follows in the same step,
    dealt with the seed the AEC environment draws after it. With ``skip_forced``, the AEC
    environment plays the single legal actions that the vector environment plays itself.
    (The full information runs the Python engine alone.)"""
    vec = vector_env(
        game, GAMES, dense_mask=True, full_information=True, skip_forced=skip_forced, **options
    )
    assert vec.engine == "python"
    play_as_the_aec_environment(vec, game, options, skip_forced)


@pytest.mark.parametrize("skip_forced", [False, True], ids=["every", "skip_forced"])
@pytest.mark.parametrize(
    ("game", "options"), [case for case, _ in STEPPED], ids=[i for _, i in STEPPED]
)
def test_the_compiled_fast_path_plays_the_same_games(game, options, skip_forced):
    """The same through the game's stepper (Baohuang: its deals in play stepped in the
    compiled core), every array but the full information, which it does not give."""
    vec = vector_env(game, GAMES, dense_mask=True, skip_forced=skip_forced, **options)
    if vec.engine == "python":
        pytest.skip(f"{game}'s compiled core is not built here (no C compiler at install)")
    play_as_the_aec_environment(vec, game, options, skip_forced)


def play_as_the_aec_environment(vec, game, options, skip_forced) -> None:
    aecs = [raw_env(game, **options) for _ in range(GAMES)]
    chains = [random.Random(11 + i) for i in range(GAMES)]  # the AEC's seeds after the first
    step = vec.reset(seed=11)
    for i, aec in enumerate(aecs):
        aec.reset(seed=11 + i)
        forced = 0
        while skip_forced and len(legal_now(aec)) == 1:
            aec.step(legal_now(aec)[0])
            forced += 1
            assert ended(aec, chains[i]) is None, "no game here ends by forced actions alone"
        assert step.forced[i] == forced
    rng = random.Random(5)
    games_ended = [0] * GAMES
    for _ in range(MAX_STEPS):
        actions = []
        for i, aec in enumerate(aecs):
            agent = aec.agent_selection
            seat = aec.seat_of[agent]
            legal = legal_now(aec)
            assert step.to_act[i] == seat
            assert legal_of(step, i) == legal
            observed = aec.observe(agent)
            assert np.array_equal(step.observations[i], observed["observation"])
            assert np.array_equal(step.mask[i], observed["action_mask"])
            if step.states is not None:
                assert np.array_equal(step.states[i], aec.state())
            view = aec.game_state.view(seat)
            rows = step.legal_features[step.legal_offsets[i] : step.legal_offsets[i + 1]]
            assert np.array_equal(rows, aec.encoder.action_features(view, legal))
            actions.append(rng.choice(legal))
        step = vec.step(np.array(actions))
        for i, (aec, action) in enumerate(zip(aecs, actions, strict=True)):
            aec.step(action)
            end, forced = ended(aec, chains[i]), 0
            while skip_forced and end is None and len(legal_now(aec)) == 1:
                aec.step(legal_now(aec)[0])
                end, forced = ended(aec, chains[i]), forced + 1
            assert step.forced[i] == forced
            assert step.terminations[i] == (end is not None)
            if end is not None:
                scores, seed = end
                assert step.rewards[i].tolist() == pytest.approx(scores)
                assert step.seeds[i] == seed
                games_ended[i] += 1
            else:
                assert not step.rewards[i].any()
        if min(games_ended):
            break
    assert min(games_ended) >= 1, "every slot played a game to its end"
    assert vec.games_finished == sum(games_ended)


def test_an_illegal_action_in_one_game_moves_none():
    """Game 1's action refused: the error names the game, the seat and the rule; nothing
    moved, so the same legal step afterwards answers what a fresh environment answers."""
    vec = vector_env("baohuang", 3)
    twin = vector_env("baohuang", 3)
    first, _ = vec.reset(seed=4), twin.reset(seed=4)
    before = first.observations.copy(), first.legal_ids.copy()
    legal = [legal_of(first, i)[0] for i in range(3)]
    illegal = list(legal)
    illegal[1] = next(a for a in range(vec.num_actions) if a not in legal_of(first, 1))
    with pytest.raises(IllegalAction, match=f"game 1, seat {first.to_act[1]}: "):
        vec.step(illegal)
    assert np.array_equal(before[0], vec.observations)
    assert np.array_equal(before[1], first.legal_ids)  # views of the arrays: none written
    after, expected = vec.step(legal), twin.step(legal)
    assert np.array_equal(after.observations, expected.observations)
    assert after.legal_ids.tolist() == expected.legal_ids.tolist()
    with pytest.raises(IllegalAction, match="game 0"):
        vec.step([1.5, *legal_of(after, 1)[:1], *legal_of(after, 2)[:1]])


def test_a_refusal_deep_in_a_compiled_game_is_the_python_engines():
    """In play, well into a deal the compiled stepper holds: the same refusal, in the rules'
    words, as the Python engine gives for the same game; nothing moved."""
    fast, slow = vector_env("baohuang", 2), vector_env("baohuang", 2, compiled=False)
    if fast.engine == "python":
        pytest.skip("Baohuang's compiled core is not built here (no C compiler at install)")
    step, twin = fast.reset(seed=4), slow.reset(seed=4)
    rng = random.Random(0)
    for _ in range(40):
        actions = [rng.choice(legal_of(twin, i)) for i in range(2)]
        step, twin = fast.step(actions), slow.step(actions)
    legal = [legal_of(step, i) for i in range(2)]
    assert legal == [legal_of(twin, i) for i in range(2)]
    before = step.observations.copy()
    for wrong in (next(a for a in range(fast.num_actions) if a not in legal[1]), 5000, 20000):
        refusals = []
        for env in (fast, slow):
            with pytest.raises(IllegalAction) as refused:
                env.step([legal[0][0], wrong])
            refusals.append(str(refused.value))
        assert refusals[0] == refusals[1] and refusals[0].startswith("game 1, seat ")
    assert np.array_equal(before, fast.observations)
    after, expected = fast.step([legal[0][0], legal[1][0]]), slow.step([legal[0][0], legal[1][0]])
    assert np.array_equal(after.observations, expected.observations)


def test_a_reset_mid_game_deals_afresh_through_the_compiled_path_too():
    """Games the stepper holds are dropped by a reset, whose games are the Python engine's."""
    fast, slow = vector_env("baohuang", 3), vector_env("baohuang", 3, compiled=False)
    rng = random.Random(2)
    for seed in (9, 10):
        step, twin = fast.reset(seed=seed), slow.reset(seed=seed)
        for _ in range(120):
            assert np.array_equal(step.observations, twin.observations)
            assert step.legal_ids.tolist() == twin.legal_ids.tolist()
            actions = [rng.choice(legal_of(twin, i)) for i in range(3)]
            step, twin = fast.step(actions), slow.step(actions)


def test_seeds_and_shapes_are_checked():
    vec = vector_env("baohuang", 2, features=False)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step([0, 0])
    assert vec.reset(seed=[7, 9]).seeds.tolist() == [7, 9]
    assert vec.reset(seed=7).seeds.tolist() == [7, 8]
    assert vec.reset().legal_features is None
    with pytest.raises(ValueError, match="3 seeds for 2 games"):
        vec.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="seed -1"):
        vec.reset(seed=[-1, 2])
    with pytest.raises(ValueError, match="1 actions for 2 games"):
        vec.step([0])
    with pytest.raises(ValueError, match="num_envs 0"):
        vector_env("baohuang", 0)
