"""Criminal Poker's encoding: the observation cannot peek at other seats' identities, face-down
cards or the order of the deck, and its layout is what docs/rl.md says."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.rl.helpers import play_alike, same_observation
from yamen.bots.encoding import encoder_for
from yamen.engine import get_game
from yamen.games.criminal_poker.actions import DRAW, REVEAL_BASE, VOTE_BASE
from yamen.games.criminal_poker.encoding import KINDS, SEATS, layout

CONFIGS = [
    {"mode": "sheriff", "players": 5, "mastermind": True, "antisocial": True},
    {"mode": "sheriff", "players": 6, "antisocial": True},
    {"mode": "detective", "players": 4, "mastermind": True},
    {"mode": "detective", "players": 5, "antisocial": True},
]


def explicit(state) -> dict:
    """A state's setup as an explicit deal (the deck top card first)."""
    ids = [card.id for card in state.deck]
    return {
        "identities": list(state.roles),
        "hands": [[ids[c] for c in hand] for hand in state.hidden],
        "deck": [ids[c] for c in reversed(state.pile)],
    }


def hidden_from(deal: dict, me: int, investigator: int, rng: random.Random) -> tuple[dict, int]:
    """The same deal, changed only where ``me`` cannot see: the identities of two other seats
    swapped (not the investigator's, which is public), one card swapped between two other
    suspects' hands and one between another suspect's hand and the deck, and the deck
    shuffled; with a seat whose own view changed."""
    other = {key: [list(v) if isinstance(v, list) else v for v in deal[key]] for key in deal}
    roles = other["identities"]
    hidden = [s for s in range(len(roles)) if s not in (me, investigator)]
    a, b = rng.choice([(a, b) for a in hidden for b in hidden if roles[a] < roles[b]])
    roles[a], roles[b] = roles[b], roles[a]
    holders = [s for s in hidden if other["hands"][s]]
    c, d = rng.sample(holders, 2)
    i, j = rng.randrange(2), rng.randrange(2)
    hands = other["hands"]
    hands[c][i], hands[d][j] = hands[d][j], hands[c][i]
    e = rng.choice([s for s in range(len(roles)) if hands[s] and s not in (me, c, d)])
    k = rng.randrange(2)
    top = rng.randrange(len(other["deck"]))
    hands[e][k], other["deck"][top] = other["deck"][top], hands[e][k]
    rng.shuffle(other["deck"])
    return other, c


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(map(str, o.values())))
@pytest.mark.parametrize("seed", range(8))
def test_what_the_seat_cannot_see_changes_nothing(options, seed):
    """Two games that differ only in other seats' identities and face-down cards and in the
    deck, played with the same actions (each legal in both): wherever the seat's
    views agree, so do its observations (the fast path reads the state, so this is what keeps
    it honest); the seat whose hand changed sees the difference."""
    game = get_game("criminal_poker", options)
    encoder = encoder_for(game)
    rng = random.Random(seed)
    start = game.new_state(seed)
    plain = [s for s, role in enumerate(start.roles) if role in ("citizen", "sheriff", "detective")]
    me = plain[seed % len(plain)]  # a seat that sees two other seats of different roles
    deal = explicit(start)
    other, changed = hidden_from(deal, me, start.investigator, rng)
    one, two = game.new_state(seed, deal=deal), game.new_state(seed, deal=other)
    assert one.roles != two.roles
    assert not np.array_equal(encoder.encode_seat(one, changed), encoder.encode_seat(two, changed))

    compared = play_alike(one, two, rng, same_observation(encoder, me), lowest_first=True)
    assert compared >= 5


def test_one_layout_for_every_mode_and_player_count():
    sizes = set()
    for options in CONFIGS + [{"mode": "sheriff", "players": 4}, {"mode": "detective"}]:
        encoder = encoder_for(get_game("criminal_poker", options))
        sizes.add((encoder.observation_size, encoder.action_feature_size))
        assert encoder.observation_size == sum(length for _, length in encoder.layout)
    assert len(sizes) == 1
    assert sizes == {(sum(length for _, length in layout(18)), len(KINDS) + SEATS + 18 + 5)}


def test_the_own_cards_and_the_unseen_ones():
    game = get_game("criminal_poker", {"mode": "sheriff", "players": 5, "sheriff": 0})
    encoder = encoder_for(game)
    state = game.new_state(4)
    at, width = encoder.offset, 18
    obs = encoder.encode_seat(state, 1)
    hand = obs[at["hand"] : at["hand"] + width]
    assert sorted(np.flatnonzero(hand)) == sorted(encoder.of_deck[c] for c in state.hidden[1])
    unseen = obs[at["unseen"] : at["unseen"] + width]
    assert unseen.sum() == len(state.deck) - 2  # every card of the game but the own two
    assert obs[at["in_game"] : at["in_game"] + width].sum() == 15  # 4 suspects: 6 physical
    assert obs[at["identity"] : at["identity"] + 5].sum() == 1
    assert obs[at["investigator"] + 4] == 1  # the sheriff, seat 0: four seats above seat 1
    assert obs[at["seats"] : at["seats"] + SEATS].tolist() == [1, 1, 1, 1, 1, 0]


def test_an_actions_row_names_its_kind_seat_and_card():
    game = get_game("criminal_poker", {"mode": "detective", "players": 4})
    encoder = encoder_for(game)
    view = game.new_state(1).view(2)
    rows = encoder.action_features(
        view, [DRAW, VOTE_BASE + 3, REVEAL_BASE + len(game.catalog.deck(4)) - 1]
    )
    assert rows[0, KINDS.index("draw")] == 1 and rows[0].sum() == 1
    assert rows[1, KINDS.index("vote")] == 1 and rows[1, len(KINDS) + 1] == 1  # seat 3 is 2 + 1
    weapon = len(KINDS) + SEATS + 17  # the last card of the list
    assert rows[2, KINDS.index("reveal")] == 1 and rows[2, weapon] == 1 and rows[2, -1] == 0


def test_seats_past_the_table_stay_empty():
    """Relative seats go round the table as it is: with 4 players, positions 4 and 5 of every
    seat block are 0 for every seat (the padding is never written)."""
    game = get_game("criminal_poker", {"mode": "detective", "players": 4})
    encoder = encoder_for(game)
    seat_blocks = ["answer_seat", "suspects", "investigator", "hidden_counts", "pending"]
    seat_blocks += ["answered", "turn", "acted", "arrested"]
    rng = random.Random(0)
    for seed in range(20):
        state = game.new_state(seed)
        while True:
            for seat in range(4):
                obs = encoder.encode_seat(state, seat)
                for name in seat_blocks:
                    assert not obs[encoder.offset[name] + 4 : encoder.offset[name] + SEATS].any()
                votes = obs[encoder.offset["votes"] :][: 3 * SEATS * SEATS].reshape(3, SEATS, SEATS)
                assert not votes[:, 4:, :].any() and not votes[:, :, 4:].any()
            if state.over:
                break
            seat = min(state.pending())
            state.apply(seat, rng.choice(state.legal(seat)))
