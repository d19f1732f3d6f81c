"""Baohuang's bots under every combination of the play-phase house rules and the rules
edition: the rules bot and the search playouts only ever make legal moves, the playouts read
the rules the game was started with, and every game replays exactly from its record.

A few hundred seeded games here; ``python -m tests.bots.test_baohuang_house N`` plays more."""

from __future__ import annotations

import itertools
import random
import sys

import pytest

from tests.games.baohuang.helpers import pass_until_lead
from tests.games.baohuang.test_rules import play_state
from tests.games.helpers import act
from yamen.bots import bot_move, make_bot
from yamen.bots.baohuang.determinize import determinize
from yamen.bots.baohuang.hand import ViewPerspective
from yamen.bots.baohuang.play import finishing_plan
from yamen.bots.baohuang.playout import choose as playout_choose
from yamen.bots.baohuang.playout import deal_scores, play_out
from yamen.bots.baohuang.rules import decide
from yamen.engine import new_game
from yamen.records import Recorder, replay

LOWEST = ({}, {"lowest_held": True}, {"lowest_last": True})  # 憋六/憋三 held; the old reading
COMBOS = [
    {"variant": v, "hard_pass": h, **low, "edition": e}
    for v, h, low, e in itertools.product(("shandong", "japanese"), (False, True), LOWEST, (1, 2))
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
    for seed in range(17):  # 24 combinations: 408 two-deal matches
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


# ---------------------------------------------------------------- 憋六 / 憋三: held to the end


def rules_says(state, seat: int) -> str:
    view = state.view(seat)
    return state.action_text(decide(ViewPerspective(view), list(state.legal(seat))))


def held_position(variant: str, fixed: str, size_rest: int = 40):
    """Seat 0 the emperor (no partner to speak of) with ``fixed``, to lead, lowest_held on."""
    extra = {3: "9H"} if variant == "shandong" else {}
    n = len(fixed.split())
    sizes = [n, size_rest, size_rest, size_rest, size_rest]
    return play_state(variant, fixed={0: fixed, **extra}, sizes=sizes, lowest_held=True)


@pytest.mark.parametrize(("variant", "hand"), [
    ("shandong", "BJ* 9H 9H 9H 3S 3S 8S 8S"),  # no sure way out: the weakest rank but the 3s
    ("japanese", "BJ* 6S 6S 8S 8S"),  # a sure way out: BJ 8 8, then the 6s
])  # fmt: skip
def test_the_rules_bot_keeps_the_lowest_rank_for_its_last_set(variant, hand):
    """Where it would lead its weakest rank (the low pair) it leads the next one; a
    finishing plan ends on the low cards."""
    low = "3" if variant == "shandong" else "6"
    state = held_position(variant, hand)
    led = rules_says(state, 0)
    assert low not in led.split() and "8 8" in led
    plan = finishing_plan(ViewPerspective(state.view(0)))
    if variant == "japanese":
        assert plan == [(5, 2, 0, 1), (3, 2, 0, 0)]  # 8 8 with the big joker, then 6 6
    else:
        assert plan is None  # two ranks would need a big joker each


def test_the_rules_bot_leads_the_joker_before_a_lone_six():
    """168 cards: a single 6 may not carry the small joker, so the 6 waits for both the king
    and the joker (the bot used to lead its weakest rank, the 6, first)."""
    state = held_position("japanese", "BJ* 6S SJ KS")
    act(state, 0, "BJ")
    pass_until_lead(state)
    assert rules_says(state, 0) == "K"
    act(state, 0, "K")
    pass_until_lead(state)
    assert rules_says(state, 0) == "SJ"
    act(state, 0, "SJ")
    pass_until_lead(state)
    assert rules_says(state, 0) == "6"


def test_the_playouts_lead_as_the_rules_bot_does_with_the_rank_held():
    state = held_position("japanese", "BJ* 6S 6S 8S 8S KS")
    assert state.action_text(playout_choose(state, 0)) == rules_says(state, 0)
    assert "6" not in rules_says(state, 0).split()


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
            options = {"variant": variant, **dict(zip(axes, values, strict=True))}
            if not (options["lowest_held"] and options["lowest_last"]):  # refused together
                found.append(options)
    return found


def test_rules_and_random_bots_play_legally_under_every_combination_of_every_house_rule():
    """The house rules before and during play and the edition together (two matches each):
    the rules that S1 and S2 test apart are legal together too."""
    combinations = every_combination()
    assert len(combinations) >= 150  # both variants, every option crossed
    for i, options in enumerate(combinations):
        for seed in (2 * i, 2 * i + 1):
            assert self_play(options, seed) > 0
