"""Properties of random Criminal Poker games (hypothesis chooses the setup and the seed)."""

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.criminal_poker.helpers import new
from yamen.errors import IllegalAction, OptionsError

# every playable (mode, players, mastermind, antisocial)
SETUPS = [
    (mode, players, m, a)
    for mode, sizes in (("sheriff", (4, 5, 6)), ("detective", (3, 4, 5)))
    for players in sizes
    for m in (False, True)
    for a in (False, True)
    if mode == "sheriff" or m + a <= (0 if players == 3 else 1)
]
setups = st.sampled_from(SETUPS)
seeds = st.integers(0, 2**32)
SLOW = settings(max_examples=60, deadline=None)


def start(setup, seed):
    mode, players, mastermind, antisocial = setup
    options = {"mode": mode, "players": players, "mastermind": mastermind}
    return new(seed=seed, antisocial=antisocial, **options)


def all_views(state) -> list:
    return [state.view(s) for s in (None, *range(state.num_seats))], state.pending()


@SLOW
@given(setups, seeds)
def test_random_games_end_and_conserve_cards(setup, seed):
    state = start(setup, seed)
    rng = random.Random(seed)
    deck = list(range(len(state.deck)))
    steps = 0
    while not state.over:
        cards = [c for s in range(state.num_seats) for c in state.hidden[s] + state.shown[s]]
        assert sorted(cards + state.pile) == deck
        assert not state.hidden[state.investigator] or state.mode == "detective"
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
        steps += 1
        assert steps < 100
    result = state.result()
    assert sorted(result.places) == list(range(state.num_seats))
    assert all(s in (0, 1) for s in result.scores)


@SLOW
@given(setups, seeds)
def test_illegal_actions_are_refused_and_change_nothing(setup, seed):
    state = start(setup, seed)
    rng = random.Random(seed)
    space = range(-3, 40 + len(state.deck) + 3)
    while not state.over:
        seat = rng.choice(state.pending())
        legal = state.legal(seat)
        before = all_views(state)
        idle = [s for s in range(state.num_seats) if s not in state.pending()]
        tries = [(seat, a) for a in space if a not in legal]
        tries += [(s, a) for s in idle for a in legal[:2]]
        tries += [(seat, "skip"), (seat, None), (state.num_seats, legal[0])]
        for bad_seat, bad in rng.sample(tries, min(8, len(tries))):
            try:
                state.apply(bad_seat, bad)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"accepted {bad!r} from seat {bad_seat}")
            assert all_views(state) == before
        state.apply(seat, rng.choice(legal))


@SLOW
@given(setups, seeds)
def test_every_legal_action_applies_to_a_clone_and_leaves_the_original(setup, seed):
    state = start(setup, seed)
    rng = random.Random(seed)
    while not state.over:
        before = all_views(state)
        for seat in state.pending():
            for action in state.legal(seat):
                copy = state.clone()
                copy.apply(seat, action)
                assert copy.view(None) != before[0][0]  # every action shows
        assert all_views(state) == before
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))


@SLOW
@given(setups, seeds)
def test_action_text_round_trips_and_replay_reproduces(setup, seed):
    state = start(setup, seed)
    rng = random.Random(seed)
    log = []
    while not state.over:
        seat = rng.choice(state.pending())
        action = rng.choice(state.legal(seat))
        text = state.action_text(action)
        assert state.parse_action(seat, text) == action, text
        log.append((seat, text))
        state.apply(seat, action)
    again = start(setup, seed)
    for seat, text in log:
        again.apply(seat, again.parse_action(seat, text))
    assert again.result() == state.result()
    assert again.view(None) == state.view(None)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 8) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
option_names = st.sampled_from(["mode", "players", "sheriff", "mastermind", "antisocial", "cards"])


card_ids = st.sampled_from(["P1", "P2", "P9", "S1", "W4", "weapon", "x"])
roles = st.sampled_from(["sheriff", "detective", "citizen", "mastermind", "antisocial"])
deals = (
    st.none()
    | json_values
    | st.fixed_dictionaries(
        {
            "identities": st.lists(roles, max_size=6),
            "hands": st.lists(st.lists(card_ids, max_size=3)),
        },
        optional={"deck": st.lists(card_ids, max_size=12)},
    )
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(option_names, json_values), deals)
def test_any_json_options_or_deal_start_a_game_or_raise_options_error(options, deal):
    """Whatever a room or a record sends, the answer is a game or a clear OptionsError."""
    with contextlib.suppress(OptionsError):
        new(seed=1, deal=deal, **options)
