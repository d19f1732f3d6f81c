"""Bao Qing-tian's encoding: the observation cannot peek at other seats' hands, and its layout
is what docs/rl.md says."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.rl.helpers import play_alike, same_observation
from yamen.bots.encoding import encoder_for
from yamen.engine import get_game
from yamen.games.bao_qingtian import actions as act
from yamen.games.bao_qingtian.cards import CODE, COMMONER, CRIMINALS, EMPEROR, NUM_TYPES
from yamen.games.bao_qingtian.encoding import KINDS, MOST_EACH, layout

TABLES = [3, 5, 12]


def explicit(state) -> dict:
    """A state's deal as an explicit deal: the first seat, the hands, the pile top first."""
    hands = [[CODE[t] for t in range(NUM_TYPES) for _ in range(h[t])] for h in state.hands]
    return {"first": state.first, "hands": hands, "pile": [CODE[t] for t in reversed(state.pile)]}


def swapped(deal: dict, me: int, rng: random.Random) -> tuple[dict, int]:
    """The same deal with one card swapped between two other seats: two different cards of
    those no office looks for (criminals, commoners) where there are such, so that the tables
    stay alike in public until a guess finds the difference; and a seat whose hand changed."""
    hands = [list(hand) for hand in deal["hands"]]
    quiet = {CODE[t] for t in (*CRIMINALS, COMMONER)}
    pairs = [
        (a, i, b, j, {x, y})
        for a in range(len(hands))
        for b in range(a + 1, len(hands))
        if me not in (a, b)
        for i, x in enumerate(hands[a])
        for j, y in enumerate(hands[b])
        if x != y and CODE[EMPEROR] not in (x, y)  # who holds an Emperor is public at once
    ]
    picks = [p[:4] for p in pairs if p[4] <= quiet] or [p[:4] for p in pairs]
    a, i, b, j = rng.choice(picks)
    hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    return {**deal, "hands": hands}, a


@pytest.mark.parametrize("players", TABLES)
@pytest.mark.parametrize("seed", range(8))
def test_other_seats_hands_change_nothing(players, seed):
    """Two games that differ only in a card swapped between two other seats, played with the
    same actions (each legal in both): wherever the seat's views agree, so do its observations
    (the fast path reads the state, so this is what keeps it honest); the seat whose hand
    changed sees the difference."""
    game = get_game("bao_qingtian", {"players": players})
    encoder = encoder_for(game)
    rng = random.Random(seed)
    me = seed % players
    deal = explicit(game.new_state(seed))
    other, changed = swapped(deal, me, rng)
    one, two = game.new_state(seed, deal=deal), game.new_state(seed, deal=other)
    assert not np.array_equal(encoder.encode_seat(one, changed), encoder.encode_seat(two, changed))

    compared = play_alike(one, two, rng, same_observation(encoder, me), lowest_first=True)
    assert compared >= 8


@pytest.mark.parametrize("players", [3, 5, 12, 50])
def test_the_layout_follows_the_table(players):
    encoder = encoder_for(get_game("bao_qingtian", {"players": players}))
    assert encoder.observation_size == sum(length for _, length in layout(players))
    ends = [encoder.offset[name] + length for name, length in encoder.layout]
    assert ends[:-1] == [encoder.offset[name] for name, _ in encoder.layout[1:]]


def test_the_own_hand_counts_and_the_last_own_turn():
    game = get_game("bao_qingtian", {"players": 5})
    encoder = encoder_for(game)
    state = game.new_state(0)
    while state.phase != "draw" or state.pending()[0] != 0 or not state.history[0]:
        if state.over:
            state = game.new_state(state.seed + 1)
            continue
        seat = state.pending()[0]
        state.apply(seat, state.legal(seat)[0])
    at = encoder.offset
    obs = encoder.encode_seat(state, 0)
    hand = obs[at["hand"] : at["hand"] + NUM_TYPES] * MOST_EACH
    assert np.allclose(hand, state.hands[0])
    out, got = state.history[0][-1]
    turn = obs[at["own_turns"] : at["own_turns"] + 2 * NUM_TYPES]
    assert turn[out] == 1 and turn[NUM_TYPES + got] == 1 and turn.sum() == 2


def test_an_actions_row_names_its_kind_card_seat_and_number():
    game = get_game("bao_qingtian", {"players": 5})
    encoder = encoder_for(game)
    view = game.new_state(1).view(4)
    ids = [act.DISCARD + 8, act.GUESS_DREW + 1, act.punish(2, 7), act.number("times", 0)]
    rows = encoder.action_features(view, ids)
    assert rows[0, KINDS.index("discard")] == 1 and rows[0, len(KINDS) + 8] == 1
    assert rows[1, KINDS.index("guess drew")] == 1 and rows[1, encoder.seat_at + 2] == 1
    assert rows[2, encoder.punish_at + 2] == 1 and rows[2, encoder.number_at + 7] == 1
    assert rows[3, KINDS.index("times")] == 1 and rows[3, encoder.number_at] == 1
    assert (rows.sum(axis=1) == [2, 2, 3, 2]).all()
