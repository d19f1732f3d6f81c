"""Properties of random Bao Qing-tian games (hypothesis chooses table sizes, seeds and the
option)."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.bao_qingtian.test_support import in_play, new
from yamen.errors import IllegalAction
from yamen.games.bao_qingtian.actions import NUM_ACTIONS
from yamen.games.bao_qingtian.cards import DECK
from yamen.records import Record, Recorder, record_text, replay

players = st.integers(3, 50)
seeds = st.integers(0, 2**32)
SLOW = settings(max_examples=25, deadline=None)
WORDS = ["sing", "loudly", '"now"', "唱歌", "三次", "and", "dance"]


@SLOW
@given(players, seeds, st.booleans())
def test_random_games_end_and_conserve_cards(n, seed, drawing):
    state = new(n, seed=seed, find_by_drawing=drawing)
    rng = random.Random(seed)
    deck = Counter(DECK)
    k = state.cards_each
    steps = 0
    while not state.over:
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
        assert in_play(state) == deck
        assert all(sum(hand) == k for hand in state.hands)
        steps += 1
        assert steps < 5_000
    result = state.result()
    assert sorted(result.places) == list(range(n))
    assert result.places[: len(result.winners)] == result.winners
    tried = result.details["tried"]
    assert all(s == 0 for seat, s in enumerate(result.scores) if seat != tried)
    executed = result.details["verdict"] == "executed"
    assert result.scores[tried] == (-result.details["count"] if executed else 0)
    assert len(state.guesses) <= 10 and state.round <= 10
    assert json.loads(json.dumps(result.to_json(), ensure_ascii=False))


@SLOW
@given(players, seeds)
def test_illegal_actions_are_refused_and_change_nothing(n, seed):
    state = new(n, seed=seed)
    rng = random.Random(seed)
    seats = [None, *range(n)]
    checks = 0
    while not state.over:
        seat = rng.choice(state.pending())
        legal = state.legal(seat)
        if rng.random() < 0.15 and checks < 4:
            before = [state.view(s) for s in seats], state.pending()
            wrong = [rng.randrange(-5, NUM_ACTIONS + 5) for _ in range(5)]
            bad = [(seat, a) for a in wrong if a not in legal]
            bad += [(seat, "wait"), (seat, True), (n, legal[0]), (-1, legal[0])]
            bad += [(s, legal[0]) for s in range(n) if s not in state.pending()][:2]
            for bad_seat, action in bad:
                try:
                    state.apply(bad_seat, action)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"accepted {action!r} from seat {bad_seat}")
            assert ([state.view(s) for s in seats], state.pending()) == before
            checks += 1
        state.apply(seat, rng.choice(legal))


@SLOW
@given(players, seeds, st.booleans())
def test_every_legal_action_applies(n, seed, drawing):
    """At sampled decisions, each legal action applies to a copy of the state."""
    state = new(n, seed=seed, find_by_drawing=drawing)
    rng = random.Random(seed)
    while not state.over:
        seat = rng.choice(state.pending())
        legal = state.legal(seat)
        if rng.random() < 0.2:
            before = state.view(seat), state.view(None)
            for action in legal:
                state.clone().apply(seat, action)
            assert (state.view(seat), state.view(None)) == before  # copies are independent
        state.apply(seat, rng.choice(legal))


@SLOW
@given(players, seeds, st.booleans())
def test_action_notation_round_trips_and_a_record_replays(n, seed, own_words):
    recorder = Recorder("bao_qingtian", {"players": n}, seed)
    state = recorder.state
    rng = random.Random(seed)
    while not state.over:
        seat = rng.choice(state.pending())
        if own_words and state.phase == "punish":  # the judge writes its own words
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
            recorder.apply_text(seat, f'punish "{words}" {rng.randint(1, 10)}')
            continue
        action = rng.choice(state.legal(seat))
        text = state.action_text(action)
        assert state.parse_action(seat, text) == action, text
        recorder.apply(seat, action)
    record = recorder.finish()
    again = replay(Record.from_json(json.loads(record_text(record))))
    assert again.result() == state.result()
    assert [again.view(s) for s in (None, *range(n))] == [state.view(s) for s in (None, *range(n))]
    if own_words:
        assert state.result().details["punishment"].split()[0] in WORDS
