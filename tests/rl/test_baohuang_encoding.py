"""Baohuang's encoding: the observation cannot peek at cards its seat does not see, and its
layout is what docs/rl.md says."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.rl.helpers import play_alike, same_observation, swapped_deals
from yamen.bots.encoding import encoder_for
from yamen.engine import get_game
from yamen.games.baohuang.encoding import (
    BLOCK,
    CARD_ROWS,
    LAYOUT,
    OBSERVATION_SIZE,
    OFFSET,
    action_row,
)
from yamen.games.baohuang.sets import encode

VARIANTS = ["shandong", "japanese"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(6))
def test_other_seats_hidden_cards_change_nothing(variant, seed):
    """Two games that differ only in a card swapped between two other seats, played with the
    same actions (each legal in both) while there are such: wherever the seat's views agree,
    so do its observations (the fast path reads the state, so this is what keeps it honest);
    the seat whose hand changed sees the difference. The views part for good once a swapped
    seat plays a set of a swapped rank (the engine shows other suits)."""
    game = get_game("baohuang", {"variant": variant})
    encoder = encoder_for(game)
    rng = random.Random(seed)
    me = seed % 5
    hands, other, changed = swapped_deals(game, seed, me, rng)
    one, two = game.new_state(seed, deal=hands), game.new_state(seed, deal=other)
    assert not np.array_equal(encoder.encode_seat(one, changed), encoder.encode_seat(two, changed))

    compared = play_alike(one, two, rng, same_observation(encoder, me))
    assert compared >= 5


def test_layout_is_contiguous_and_cards_come_first():
    assert OFFSET["hand"] == 0
    assert sum(length for _, length in LAYOUT) == OBSERVATION_SIZE
    assert OFFSET["history_seats"] == CARD_ROWS * BLOCK
    ends = [OFFSET[name] + length for name, length in LAYOUT]
    assert ends[:-1] == [OFFSET[name] for name, _ in LAYOUT[1:]]


@pytest.mark.parametrize("variant", VARIANTS)
def test_own_hand_and_unseen_cards_add_up_to_the_deck(variant):
    game = get_game("baohuang", {"variant": variant})
    encoder = encoder_for(game)
    state = game.new_state(2)
    obs = encoder.encode_seat(state, 0)
    hand = obs[OFFSET["hand"] : OFFSET["hand"] + BLOCK]
    unseen = obs[OFFSET["unseen"] : OFFSET["unseen"] + BLOCK]
    deck = sum(state.sizes)
    scale = np.array([16] * 13 + [4, 4], dtype=np.float32)
    assert round(float(((hand[:15] + unseen[:15]) * scale).sum())) == deck
    assert round(float((hand[:15] * scale).sum())) == state.sizes[0]


def test_an_actions_row_counts_the_cards_it_plays():
    row = action_row(encode(5, 3, 1, 2, 1))  # three 8s, one of them the called card, SJ, 2 BJ
    assert row[5] * 16 == 3 and row[13] * 4 == 1 and row[14] * 4 == 2 and row[15] * 4 == 1


def test_the_house_rules_block_is_zero_on_the_seeds_rules_and_marks_each_house_rule():
    """The ``house`` block: 0 where the seeds' rules are played (a policy learned there reads
    the same vector), a 1 for each house rule the game's options set; and under
    guard_by_fourth the unseen cards hold no marked small joker (it is not in that deck)."""
    from yamen.engine import get_game
    from yamen.games.baohuang.encoding import HOUSE_RULES, MARKED_SMALL, OFFSET, BaohuangEncoder
    from yamen.rl.encoding import observe

    for variant in ("shandong", "japanese"):
        game = get_game("baohuang", {"variant": variant})
        vector = observe(BaohuangEncoder(game), game.new_state(1), 0)
        assert not vector[OFFSET["house"] :].any()
    game = get_game("baohuang", {"variant": "japanese", "guard_by_fourth": True, "hard_pass": True})
    encoder = BaohuangEncoder(game)
    vector = observe(encoder, game.new_state(1), 0)
    marked = {name for i, (name, _) in enumerate(HOUSE_RULES) if vector[OFFSET["house"] + i]}
    assert marked == {"guard_by_fourth", "hard_pass"}
    assert encoder.deck[MARKED_SMALL] == 0
    for rule in ("lowest_held", "lowest_last"):  # the two readings of 憋六/憋三, told apart
        game = get_game("baohuang", {"variant": "japanese", rule: True})
        vector = observe(BaohuangEncoder(game), game.new_state(1), 0)
        marked = {name for i, (name, _) in enumerate(HOUSE_RULES) if vector[OFFSET["house"] + i]}
        assert marked == {rule}


def test_a_view_of_a_house_rules_game_is_encoded_with_its_own_rules():
    """An encoder made for the seeds' rules (a learned bot's: its checkpoint's game) reads the
    rules from the view it is given, as the encoder of that game does."""
    from yamen.engine import get_game
    from yamen.games.baohuang.encoding import OFFSET, BaohuangEncoder

    house = get_game("baohuang", {"variant": "japanese", "guard_by_fourth": True, "cede": False})
    state = house.new_state(3)
    view = state.view(0)
    plain = BaohuangEncoder(get_game("baohuang", {"variant": "japanese"}))
    own = BaohuangEncoder(house)
    assert (plain.encode(view, 0) == own.encode(view, 0)).all()
    assert (own.encode(view, 0) == own.encode_seat(state, 0)).all()
    assert plain.encode(view, 0)[OFFSET["house"] :].sum() == 2
