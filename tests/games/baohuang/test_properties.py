"""Properties of random Baohuang games (hypothesis chooses seeds and variants)."""

import random
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.baohuang.helpers import new
from tests.games.helpers import play_random
from yamen.cards import parse_card
from yamen.errors import IllegalAction
from yamen.games.baohuang.kinds import NUM_KINDS, kind_of
from yamen.games.baohuang.variants import VARIANTS

variants = st.sampled_from(["shandong", "japanese"])
seeds = st.integers(0, 2**32)
SLOW = settings(max_examples=25, deadline=None)


def in_hands(state) -> Counter:
    return Counter({k: sum(h[k] for h in state.hands) for k in range(NUM_KINDS)})


@SLOW
@given(variants, seeds, st.booleans())
def test_random_games_end_and_conserve_cards_and_scores(variant, seed, grabbing):
    state = new(variant, seed=seed, deals=2, grabbing=grabbing)
    rng = random.Random(seed)
    deck = Counter(VARIANTS[variant].deck())
    played: Counter = Counter()
    deal_no = state.deal_no
    steps = 0
    while not state.over:
        seat = rng.choice(state.pending())
        for event in state.apply(seat, rng.choice(state.legal(seat))):
            if event.kind == "play":
                played.update(kind_of(parse_card(c)) for c in event.data["cards"])
            if event.kind == "deal":
                played.clear()
        if state.deal_no == deal_no and not state.over:
            assert in_hands(state) + played == deck
            assert state.sizes == [sum(h) for h in state.hands]
        deal_no = state.deal_no
        steps += 1
        assert steps < 20_000
    result = state.result()
    assert result is not None and sum(result.scores) == 0
    for deal in result.details["deals"]:
        assert sum(Fraction(s) for s in deal["scores"]) == 0
        assert sorted(deal["places"]) == [0, 1, 2, 3, 4]
    assert sorted(result.places) == [0, 1, 2, 3, 4]


@SLOW
@given(variants, seeds)
def test_illegal_actions_are_refused_and_change_nothing(variant, seed):
    state = new(variant, seed=seed)
    rng = random.Random(seed)
    checks = 0
    while not state.over:
        seat = rng.choice(state.pending())
        legal = state.legal(seat)
        if rng.random() < 0.05:
            before = [state.view(s) for s in (None, 0, 1, 2, 3, 4)], state.pending()
            wrong = rng.choice([rng.randrange(-5, 40_000), legal[0] + 10**6])
            others = [s for s in range(5) if s not in state.pending()]
            for bad_seat, bad in [(seat, wrong), *((s, legal[0]) for s in others[:1])]:
                if bad_seat == seat and bad in legal:
                    continue
                try:
                    state.apply(bad_seat, bad)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"accepted {bad} from seat {bad_seat}")
            assert ([state.view(s) for s in (None, 0, 1, 2, 3, 4)], state.pending()) == before
            checks += 1
        state.apply(seat, rng.choice(legal))


@SLOW
@given(variants, seeds)
def test_action_notation_round_trips_and_replay_reproduces(variant, seed):
    state = new(variant, seed=seed, deals=2)
    rng = random.Random(seed)
    log = []
    while not state.over:
        seat = rng.choice(state.pending())
        action = rng.choice(state.legal(seat))
        text = state.action_text(action)
        assert state.parse_action(seat, text) == action, text
        log.append((seat, text))
        state.apply(seat, action)
    again = new(variant, seed=seed, deals=2)
    for seat, text in log:
        again.apply(seat, again.parse_action(seat, text))
    assert again.result() == state.result()


@SLOW
@given(variants, seeds)
def test_every_legal_action_applies(variant, seed):
    """At sampled decisions, each legal action applies to a copy of the state."""
    state = new(variant, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        seat = rng.choice(state.pending())
        legal = state.legal(seat)
        if rng.random() < 0.03:
            for action in legal:
                state.clone().apply(seat, action)
        state.apply(seat, rng.choice(legal))


def test_play_random_helper_finishes_a_match():
    state = new("japanese", seed=11, deals=3)
    log = play_random(state, random.Random(3))
    assert state.over and len(state.history) == 3 and log
