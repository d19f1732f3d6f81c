"""Sets: comparison and move generation against brute-force definitions."""

from itertools import product

from hypothesis import example, given, settings
from hypothesis import strategies as st

from yamen.games.baohuang.kinds import BIG_SLOT, SMALL_SLOT
from yamen.games.baohuang.sets import (
    NO_RANK,
    SetShape,
    beats,
    beats_by_cards,
    decode,
    encode,
    follows,
    is_shape,
    leads,
    rank_masks,
)

NINE, SEVEN, EIGHT, JACK = 6, 4, 5, 8  # strengths: 3 is 0 ... 2 is 12


def shapes(max_size: int):
    for r, n, x, y in product(range(14), range(max_size + 1), range(5), range(5)):
        if 0 < n + x + y <= max_size and is_shape(r, n, x, y, True):
            yield SetShape(r, n, x, y)


def test_fast_comparison_is_the_card_by_card_rule():
    all_shapes = list(shapes(5))
    assert len(all_shapes) > 400
    for a in all_shapes:
        for b in all_shapes:
            assert beats(a, b) == beats_by_cards(a, b), (a, b)


def test_seed_example_7777_two_small_jokers():
    table = SetShape(SEVEN, 4, 2, 0)
    assert beats(SetShape(EIGHT, 4, 0, 2), table)
    assert not beats(SetShape(EIGHT, 4, 1, 1), table)  # the small joker does not beat a small
    assert not beats(SetShape(EIGHT, 4, 2, 0), table)
    assert not beats(SetShape(EIGHT, 5, 0, 1), table)  # an 8 cannot beat a small joker
    assert not beats(SetShape(SEVEN, 4, 0, 2), table)  # sevens do not beat sevens
    assert beats(SetShape(NO_RANK, 0, 0, 6), table)


def test_seed_example_two_small_jokers_three_nines():
    table = SetShape(NINE, 3, 2, 0)
    assert beats(SetShape(JACK, 3, 0, 2), table)  # 2 big jokers + 3 J
    assert beats(SetShape(JACK, 2, 0, 3), table)  # 3 big jokers + 2 J
    assert not beats(SetShape(JACK, 3, 1, 1), table)


def test_a_big_joker_is_never_beaten():
    table = SetShape(0, 2, 0, 1)
    assert not any(beats(s, table) for s in shapes(3))


def test_japanese_shapes():
    assert is_shape(NINE, 1, 0, 0, False)
    assert not is_shape(NINE, 1, 1, 0, False)  # a single natural with jokers
    assert is_shape(NINE, 2, 1, 1, False)
    assert is_shape(NO_RANK, 0, 1, 0, False)  # any single card, a joker too
    assert is_shape(NO_RANK, 0, 2, 1, False)
    assert is_shape(NINE, 1, 1, 0, True)  # shandong allows it


def test_encoding_round_trips():
    for r, n, x, y, t in product(range(14), range(17), range(5), range(5), range(5)):
        assert decode(encode(r, n, x, y, t)) == (r, n, x, y, t)


counts_strategy = st.lists(st.integers(0, 6), min_size=13, max_size=13).flatmap(
    lambda naturals: st.tuples(st.just(naturals), st.integers(0, 4), st.integers(0, 4))
)


def brute_plays(counts, single, tell_slot, telling, table=None):
    """Every (r, n, x, y, t) the hand can make, filtered by shape and by beating the table."""
    found = set()
    small, big = counts[SMALL_SLOT], counts[BIG_SLOT]
    for r in range(14):
        for n in range(17) if r < 13 else (0,):
            if r < 13 and n > counts[r]:
                continue
            for x, y in product(range(small + 1), range(big + 1)):
                if not is_shape(r, n, x, y, single):
                    continue
                if table is not None and not beats(SetShape(r, n, x, y), table):
                    continue
                if r < 13 and r == tell_slot:
                    pool, held = n, counts[r]
                elif tell_slot == SMALL_SLOT:
                    pool, held = x, small
                else:
                    pool, held = 0, telling  # no telling card can be in this set
                for t in range(5):
                    if t <= min(pool, telling) and pool - t <= held - telling:
                        found.add(encode(r, n, x, y, t))
    return found


@settings(max_examples=300, deadline=None)
@example(([0, 0, 0, 6, 3, 0, 4, 4, 1, 2, 4, 5, 1], 1, 0), True, SMALL_SLOT, 1, (3, 2, 0, 0))
@given(
    counts_strategy,
    st.booleans(),
    st.sampled_from([-1, 3, SMALL_SLOT]),
    st.integers(0, 2),
    st.sampled_from([None, (3, 2, 0, 0), (NO_RANK, 0, 2, 0), (5, 1, 1, 0), (0, 3, 0, 0)]),
)
def test_generation_matches_brute_force(hand, single, tell_slot, telling, table):
    naturals, small, big = hand
    counts = naturals + [small, big]
    if tell_slot == -1:
        telling = 0
    else:
        telling = min(telling, counts[tell_slot])
        if telling == 0:
            tell_slot = -1
    if table is None:
        got = leads(counts, single, tell_slot, telling)
    else:
        got = follows(counts, rank_masks(counts), SetShape(*table), single, tell_slot, telling)
    assert len(got) == len(set(got)), "duplicate actions"
    table_shape = None if table is None else SetShape(*table)
    assert set(got) == brute_plays(counts, single, tell_slot, telling, table_shape)
