"""Policy improvement over a base bot (yamen/rl/improve.py): the labels are exact rollouts of
the base bot, a game's fast playout plays as its bot does, and the learned bot with an
improvement checkpoint keeps to the base bot unless its network clears the margin."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import partial

import numpy as np
import pytest

from yamen.bots import make_bot, qnet
from yamen.bots.baohuang.determinize import ViewSampler
from yamen.bots.encoding import encoder_for
from yamen.bots.learned import LearnedBot
from yamen.engine import get_game
from yamen.games.baohuang.core import CORE
from yamen.games.baohuang.phases import Phase
from yamen.rl.improve import (
    FIELDS,
    Labeller,
    joined,
    load_labels,
    play_through,
    playout_for,
    sampled_for,
)
from yamen.rl.vector import VectorEnv

VARIANTS = ["shandong", "japanese"]


def advanced(game, seed: int, steps: int):
    """A state some random legal moves into a game (any phase, any deal)."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        if state.over:
            break
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
    return state


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("deals", [1, 2])
def test_the_fast_playout_scores_as_the_rules_bot_plays(variant, deals):
    game = get_game("baohuang", {"variant": variant, "deals": deals})
    fast = playout_for(game, "rules")
    bots = [make_bot("baohuang", "rules") for _ in range(5)]
    assert fast is not None and getattr(fast, "__name__", "") == "rules_scores"
    compared = 0
    for seed in range(16):
        state = advanced(game, seed, steps=seed * 23)
        if state.over:
            continue
        assert fast(state.clone()) == play_through(state.clone(), bots, random.Random(0))
        compared += 1
    assert compared >= 12


@pytest.mark.parametrize("variant", VARIANTS)
def test_labels_are_exact_rollouts_of_the_base_bot(variant):
    """Every seat plays the base bot, so each labelled decision's base row must return what
    its seat scored in the game itself (``share=1``: every decision with a choice is
    labelled, in order); every other row is another legal action, rolled out."""
    labeller = Labeller("baohuang", {"variant": variant})
    labels = labeller.label_game(3, share=1.0, candidates=4)
    rng = random.Random(3)
    state = labeller.game.new_state(rng.getrandbits(63))
    rules = make_bot("baohuang", "rules")
    seats = []
    while not state.over:
        seat = state.pending()[0]
        legal = state.legal(seat)
        if len(legal) > 1:
            seats.append(seat)
        state.apply(seat, rules.choose(state.view(seat), legal, rng))
    scores = [float(s) for s in state.result().scores]
    assert labels.decisions == len(seats) > 20 and labels.games == 1
    assert labels.returns[labels.base].tolist() == [scores[seat] for seat in seats]
    per_decision = np.bincount(labels.rows)
    assert per_decision.min() >= 2 and per_decision.max() <= 4
    assert labels.features.shape == (len(labels.returns), labeller.encoder.action_feature_size)
    assert labels.observations.shape == (len(seats), labeller.encoder.observation_size)


def test_a_candidate_is_rolled_out_from_a_copy_of_the_real_state():
    labeller = Labeller("baohuang", {"variant": "japanese"})
    state = advanced(labeller.game, 11, steps=40)
    seat = state.pending()[0]
    legal = state.legal(seat)
    before = state.view(None)
    for action in legal[:3]:
        copy = state.clone()
        copy.apply(seat, action)
        labeller.playout(copy)
    assert state.view(None) == before


JAPANESE = "yamen/bots/baohuang/learned-japanese.npz"
SIDE_BY_SIDE = [  # (options, base bot, proposer, samples, seeds)
    ({"variant": "shandong"}, "rules", None, 0, range(6)),
    ({"variant": "japanese"}, "rules", JAPANESE, 0, range(8)),
    ({"variant": "japanese", "deals": 2}, "rules", None, 0, range(3)),  # deal 1 in Python
    ({"variant": "japanese", "guard_by_fourth": True, "deals": 3}, "rules", None, 0, range(2)),
    ({"variant": "shandong", "royalist_declares": "hidden", "deals": 2}, "rules", None, 0, [0]),
    ({"variant": "japanese"}, "random", None, 0, range(2)),  # a bot the core does not play
    ({"variant": "shandong"}, "rules", None, 3, range(2)),  # returns over drawn deals
    ({"variant": "japanese", "deals": 2}, "rules", JAPANESE, 2, range(2)),
]


@pytest.mark.parametrize(("options", "base", "proposer", "samples", "seeds"), SIDE_BY_SIDE)
def test_games_labelled_side_by_side_are_labelled_as_one_at_a_time(
    options, base, proposer, samples, seeds
):
    """label_games steps the games in the vector environment (the core's where it is built:
    its observations, features, the rules bot's moves and rollouts), one game at a time
    elsewhere; the labels are the same arrays either way."""
    labeller = Labeller("baohuang", options, base, proposer, samples)
    seeds = [1_000 + s for s in seeds]
    one_by_one = joined([labeller.label_game(s, 0.5, 5) for s in seeds])
    together = labeller.label_games(seeds, 0.5, 5)
    assert together.games == one_by_one.games == len(seeds) and one_by_one.decisions > 10
    for field in FIELDS:
        assert np.array_equal(getattr(together, field), getattr(one_by_one, field)), field


def test_the_vector_environment_plays_the_rules_bot_where_the_core_is_built():
    env = VectorEnv("baohuang", 4, skip_forced=True, variant="japanese")
    if CORE is None:
        assert env.engine == "python" and (env.moves("rules") == -1).all()
        return
    step = env.reset(seed=7)
    rules, rng, asked = make_bot("baohuang", "rules"), random.Random(0), 0
    for _ in range(60):
        moves = env.moves("rules")
        for i in range(4):
            state = env.state(i)
            seat = int(step.to_act[i])
            legal = state.legal(seat)
            if moves[i] >= 0:  # in play: the core's policy, the bot's move
                assert moves[i] == rules.choose(state.view(seat), legal, rng)
                asked += 1
                scores = env.play_outs("rules", i, legal[:2])
                rollout = playout_for(env.game, "rules")
                assert scores == [rollout(after(state, seat, a)) for a in legal[:2]]
                illegal = next(a for a in range(env.num_actions) if a not in legal)
                with pytest.raises(ValueError, match="not legal"):
                    env.play_outs("rules", i, [illegal])
                assert env.state(i).view(None) == state.view(None)  # nothing moved
        step = env.step(np.where(moves >= 0, moves, step.legal_ids[step.legal_offsets[:-1]]))
    assert asked > 100 and env.play_outs("random", 0, [step.legal_ids[0]]) is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_drawn_returns_average_the_search_bots_samples(variant):
    """With samples, a candidate's return is the seat's final score averaged over deals drawn
    to fit its view (paired: every candidate on the same deals), as the search bot draws and
    plays them; none before play, nor before the match's last deal."""
    game = get_game("baohuang", {"variant": variant, "deals": 2})
    sampled = sampled_for(game, "rules")
    assert sampled is not None and sampled_for(game, "random") is None
    checked = before = 0
    rng = random.Random(0)
    for seed in range(4):
        state = game.new_state(seed)
        while not state.over:
            seat = state.pending()[0]
            legal = state.legal(seat)
            if len(legal) > 1 and rng.random() < 0.1:
                view = state.view(seat)
                drawn = sampled(view, legal[:3], 3, random.Random(seed))
                if state.phase is not Phase.PLAY or state.deal_no < 2:
                    assert drawn is None
                    before += 1
                else:
                    sampler, draws = ViewSampler(view), random.Random(seed)
                    deals = [sampler.playouts(draws) for _ in range(3)]
                    total = Fraction(view["totals"][seat])
                    mean = [
                        float(total + sum(d.scores(a)[seat] for d in deals) / 3) for a in legal[:3]
                    ]
                    assert drawn == mean
                    checked += 1
            state.apply(seat, rng.choice(legal))
    assert checked >= 5 and before >= 5


def test_samples_need_a_game_that_draws_deals():
    with pytest.raises(ValueError, match="draws no deals"):
        Labeller("criminal_poker", {}, "rules", samples=4)


def after(state, seat, action):
    copy = state.clone()
    copy.apply(seat, action)
    return copy


def test_labels_save_load_and_join(tmp_path):
    labeller = Labeller("baohuang", {"variant": "japanese"})
    a, b = (labeller.label_game(seed, 0.3, 3) for seed in (1, 2))
    a.save(tmp_path / "a.npz")
    again = load_labels(tmp_path / "a.npz")
    assert np.array_equal(again.returns, a.returns) and np.array_equal(again.rows, a.rows)
    both = joined([a, b])
    assert both.decisions == a.decisions + b.decisions and both.games == 2
    assert np.array_equal(both.returns[both.base[a.decisions :]], b.returns[b.base])
    assert np.array_equal(both.rows[len(a.rows) :], b.rows + a.decisions)


def checkpoint(tmp_path, variant: str, margin: float, flip: bool = False):
    """The shipped weights marked as an improvement of the rules bot at ``margin``."""
    shipped = tmp_path / "shipped.npz"
    net = qnet.load(f"yamen/bots/baohuang/learned-{variant}.npz")
    arrays = dict(net.arrays)
    if flip:  # Q of the opposite sign: it disagrees with the rules bot somewhere
        last = max(int(k[1:]) for k in arrays if k[0] == "w" and k[1:].isdigit())
        arrays[f"w{last}"] = -arrays[f"w{last}"]
    qnet.QNet(arrays, {**net.meta, "base": "rules", "margin": margin}).save(shipped)
    return shipped


def decisions_of(bot, variant: str, games: int = 3):
    """(view, legal, bot's choice, rules bot's choice) along games the rules bot plays."""
    game = get_game("baohuang", {"variant": variant})
    rules = make_bot("baohuang", "rules")
    out = []
    for seed in range(games):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.over:
            seat = state.pending()[0]
            legal = state.legal(seat)
            view = state.view(seat)
            base = rules.choose(view, list(legal), rng)
            out.append((view, legal, bot.choose(view, list(legal), rng), base))
            state.apply(seat, base)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_learned_bot_keeps_to_its_base_under_a_wide_margin(tmp_path, variant):
    bot = LearnedBot(path=str(checkpoint(tmp_path, variant, margin=1e9, flip=True)))
    assert all(choice == base for _, _, choice, base in decisions_of(bot, variant))


def test_the_learned_bot_leaves_its_base_where_q_clears_the_margin(tmp_path):
    path = checkpoint(tmp_path, "japanese", margin=0.0, flip=True)
    bot = LearnedBot(path=str(path))
    net = qnet.load(path)
    encoder = encoder_for(get_game("baohuang", {"variant": "japanese"}))
    left = 0
    for view, legal, choice, base in decisions_of(bot, "japanese"):
        if len(legal) == 1:
            continue
        q = net.q_values(encoder.encode(view, view["seat"]), encoder.action_features(view, legal))
        best = int(np.argmax(q))
        expected = legal[best] if q[best] > q[legal.index(base)] else base
        assert choice == expected
        left += choice != base
    assert left > 0  # the flipped network disagrees with the rules bot somewhere


def test_a_proposer_picks_the_alternatives_and_flags_what_the_bot_weighs():
    proposer = "yamen/bots/baohuang/learned-japanese.npz"
    labeller = Labeller("baohuang", {"variant": "japanese"}, "rules", proposer)
    net = qnet.proposer_of(proposer)  # the shipped checkpoint lends its own proposer
    assert qnet.load(proposer).proposer is not None and net.meta == {}
    state = advanced(labeller.game, 5, steps=0)
    rng = random.Random(0)
    checked = 0
    rules = make_bot("baohuang", "rules")
    while not state.over and checked < 30:
        seat = state.pending()[0]
        legal = state.legal(seat)
        view = state.view(seat)
        move = rules.choose(view, legal, rng)
        if len(legal) > 2:
            observation = labeller.encoder.encode(view, seat)
            features_of = partial(labeller.encoder.action_features, view)
            tried, weighed = labeller.candidates(move, legal, features_of, observation, 8, rng)
            others = [a for a in legal if a != move]
            features = labeller.encoder.action_features(view, others)
            top = [others[i] for i in qnet.best_rows(net, observation, features, 3)]
            assert tried[0] == move and tried[1 : 1 + len(top)] == top
            assert weighed == [True] * (1 + len(top)) + [False] * (len(tried) - 1 - len(top))
            assert len(set(tried)) == len(tried) == min(8, len(legal))
            checked += 1
        state.apply(seat, move)
    assert checked >= 10


def test_with_a_proposer_the_bot_weighs_only_the_proposed(tmp_path):
    shipped = qnet.load("yamen/bots/baohuang/learned-japanese.npz")
    flipped = qnet.load(checkpoint(tmp_path, "japanese", margin=0.0, flip=True))
    path = tmp_path / "proposed.npz"
    meta = {**flipped.meta, "proposals": 2}
    qnet.QNet(flipped.arrays, meta, proposer=qnet.QNet(shipped.arrays, {})).save(path)
    again = qnet.load(path)
    assert again.proposer is not None and again.meta["proposals"] == 2
    assert set(again.arrays) == set(shipped.arrays)  # the proposer's arrays are kept apart
    bot = LearnedBot(path=str(path))
    encoder = encoder_for(get_game("baohuang", {"variant": "japanese"}))
    left = 0
    for view, legal, choice, base in decisions_of(bot, "japanese"):
        others = [a for a in legal if a != base]
        if not others:
            continue
        observation = encoder.encode(view, view["seat"])
        features = encoder.action_features(view, others)
        proposed = [others[i] for i in qnet.best_rows(shipped, observation, features, 2)]
        assert choice in [base, *proposed]
        left += choice != base
    assert left > 0
