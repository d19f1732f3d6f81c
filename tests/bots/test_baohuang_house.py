"""Baohuang's bots under every combination of the play-phase house rules and the rules
edition: the rules bot and the search playouts only ever make legal moves, the playouts read
the rules the game was started with, and every game replays exactly from its record.

A few hundred seeded games here; ``python -m tests.bots.test_baohuang_house N`` plays more."""

from __future__ import annotations

import itertools
import random
import sys

import pytest

from yamen.bots import bot_move, make_bot
from yamen.bots.baohuang.determinize import determinize
from yamen.bots.baohuang.hand import ViewPerspective
from yamen.bots.baohuang.playout import choose as playout_choose
from yamen.bots.baohuang.playout import deal_scores, play_out
from yamen.bots.baohuang.rules import decide
from yamen.engine import new_game
from yamen.records import Recorder, replay

COMBOS = [
    {"variant": v, "hard_pass": h, "lowest_last": low, "edition": e}
    for v, h, low, e in itertools.product(("shandong", "japanese"), *[(False, True)] * 2, (1, 2))
]
IDS = ["-".join(f"{k}={v}" for k, v in c.items()) for c in COMBOS]


def self_play(options: dict, seed: int) -> int:
    """One two-deal match: rules bots on the seats of a seeded mask, random bots elsewhere;
    every rules decision checked legal, then the record replayed. The decisions made."""
    rng = random.Random(seed)
    mask = rng.randrange(1, 32)
    recorder = Recorder("baohuang", {**options, "deals": 2}, seed)
    state = recorder.state
    decisions = 0
    while not state.over:
        seat = state.pending()[0]
        legal = state.legal(seat)
        if mask >> seat & 1:
            action = decide(ViewPerspective(state.view(seat)), list(legal))
            assert action in legal, (options, seed, state.view(seat), action)
        else:
            action = rng.choice(legal)
        recorder.apply_text(seat, state.action_text(action))
        decisions += 1
    replay(recorder.finish())  # the record replays to the same result
    return decisions


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_rules_and_random_bots_play_legally_and_replay_under_every_option(options):
    for seed in range(25):  # 16 combinations: 400 two-deal matches
        assert self_play(options, seed) > 0


@pytest.mark.parametrize("options", COMBOS, ids=IDS)
def test_the_playout_policy_is_legal_and_settles_right_under_every_option(options):
    for seed in range(3):
        state = new_game("baohuang", options, seed)
        rng = random.Random(seed)
        while not state.over:
            seat = state.pending()[0]
            legal = state.legal(seat)
            if state.phase == "play":
                action = playout_choose(state, seat)
                assert action in legal, (options, state.view(seat))
                if rng.random() < 0.05:  # a sampled deal carries the game's own rules
                    sample = determinize(state.view(seat), rng, fresh=True)
                    assert sample.options == {**state.options, "deals": 1, "target": None}
                    play_out(sample)
                    scores = deal_scores(sample)
                    while not sample.over:  # playing on changes nothing
                        playing = sample.pending()[0]
                        sample.apply(playing, playout_choose(sample, playing))
                    assert list(sample.totals) == scores
            else:
                action = rng.choice(legal)
            state.apply(seat, action)


@pytest.mark.parametrize("options", COMBOS[::3], ids=IDS[::3])
def test_the_playouts_model_the_rules_bot_under_the_options(options):
    rules = make_bot("baohuang", "rules")
    state = new_game("baohuang", options, 5)
    rng = random.Random(5)
    while not state.over:
        seat = state.pending()[0]
        action = bot_move(rules, state, seat, rng)
        if state.phase == "play":
            sample = determinize(state.view(seat), rng, fresh=True)
            assert playout_choose(sample, seat) == action
        state.apply(seat, action)


if __name__ == "__main__":  # a longer run: N seeds per combination
    many = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    total = sum(self_play(c, seed) for c in COMBOS for seed in range(1000, 1000 + many))
    print(f"{len(COMBOS) * many} games, {total} decisions, all legal and replayed")


def every_combination() -> list[dict]:
    """Every combination of every house rule the declaration has for each variant (the
    bools, the choices and the rules edition; not the match's length)."""
    from yamen.engine import game_type

    found = []
    for variant in ("shandong", "japanese"):
        axes = {}
        for option in game_type("baohuang").declaration:
            if option.name in ("variant", "deals", "target") or not option.applies_to(
                {"variant": variant}
            ):
                continue
            if option.kind == "bool":
                axes[option.name] = (False, True)
            elif option.kind == "choice":
                axes[option.name] = tuple(option.choices)
            else:  # the edition
                axes[option.name] = tuple(range(option.low, option.high + 1))
        for values in itertools.product(*axes.values()):
            found.append({"variant": variant, **dict(zip(axes, values, strict=True))})
    return found


def test_rules_and_random_bots_play_legally_under_every_combination_of_every_house_rule():
    """The house rules before and during play and the edition together (two matches each):
    the rules that S1 and S2 test apart are legal together too."""
    combinations = every_combination()
    assert len(combinations) >= 150  # both variants, every option crossed
    for i, options in enumerate(combinations):
        for seed in (2 * i, 2 * i + 1):
            assert self_play(options, seed) > 0
