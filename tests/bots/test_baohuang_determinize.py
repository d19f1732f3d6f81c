"""Determinization: sampled deals agree with everything a seat's view says, and states built
at a play position (and fast clones) behave exactly like the real thing."""

import copy
import random
from collections import Counter

import pytest

from tests.games.baohuang.helpers import act, answer_all, make_deal, new
from yamen.bots.baohuang.determinize import (
    KIND_OF_TEXT,
    Deal,
    ViewSampler,
    build_state,
    determinize,
    played_by_seat,
    sample_deal,
)
from yamen.games.baohuang.core import CORE, pack
from yamen.games.baohuang.fields import FIELDS
from yamen.games.baohuang.kinds import BJ, BJ_MARKED, SJ_MARKED
from yamen.games.baohuang.rules import BaohuangState

SETUPS = [
    ("shandong", {"grabbing": True}),
    ("shandong", {"grabbing": False}),
    ("japanese", {}),
    ("japanese", {"guard_by_fourth": True, "cede": False}),  # the guard by a called card
]


def play_positions(variant: str, options: dict | bool, seed: int, every: float = 0.04):
    """States in the play phase met during a random game (two deals in japanese, so that
    tribute happens), as independent copies. ``options``: the house rules (a bool: grabbing)."""
    deals = 2 if variant == "japanese" else 1
    if isinstance(options, bool):
        options = {"grabbing": options}
    state = new(variant, seed=seed, deals=deals, **options)
    rng = random.Random(seed)
    found = []
    while not state.over:
        seat = rng.choice(state.pending())
        if state.phase == "play" and rng.random() < every:
            found.append(state.clone())
        state.apply(seat, rng.choice(state.legal(seat)))
    return found


def positions(count: int = 8):
    for variant, options in SETUPS:
        for seed in range(count):
            yield from play_positions(variant, options, seed)


def copies_of_called(state: BaohuangState, counts: list[int]) -> int:
    kinds = (BJ, BJ_MARKED) if state.called == BJ else (state.called,)
    return sum(counts[k] for k in kinds)


def check_sample(truth: BaohuangState, seat: int, rng: random.Random) -> None:
    view = truth.view(seat)
    sample = determinize(view, rng)
    hands = sample.hands
    assert hands[seat] == truth.hands[seat]
    assert sample.sizes == truth.sizes == [sum(h) for h in hands]
    played = played_by_seat(view)
    in_play = Counter({k: sum(h[k] for h in hands) + sum(p[k] for p in played) for k in range(56)})
    assert in_play == Counter(truth.variant.deck())  # conserved, none twice
    marked = view["marked_joker"]
    assert marked is None or hands[marked][BJ_MARKED] == 1
    if truth.variant.guard_card is not None:  # japanese, as the seed has it
        guard_card = [s for s in range(5) if hands[s][SJ_MARKED] or played[s][SJ_MARKED]]
        assert len(guard_card) == 1
        holder = guard_card[0]
        assert sample.partner == (None if holder == truth.emperor else holder)
        assert view["roles"].get(str(holder)) != "commoner"
    elif truth.called is not None and not truth.grabbed:
        emperor, partner = truth.emperor, sample.partner
        held = [
            copies_of_called(truth, hands[s]) + copies_of_called(truth, played[s]) for s in range(5)
        ]
        if partner is None:
            assert held[emperor] == 4
        else:
            assert held[emperor] == 3 and held[partner] == 1
        assert sum(held) == 4
    if view["role"] in ("royalist", "guard") or str(truth.partner) in view["roles"]:
        assert sample.partner == truth.partner  # what the seat knows is never re-drawn
    assert sample.view(seat) == view
    assert sample.legal(seat) == truth.legal(seat)


def test_samples_agree_with_the_view_in_random_positions():
    rng = random.Random(0)
    checked = 0
    for truth in positions():
        for seat in range(5):
            check_sample(truth, seat, rng)
            checked += 1
    assert checked > 300


def test_samples_vary_where_the_view_says_nothing():
    truth = play_positions("shandong", False, 3)[0]
    rng = random.Random(1)
    hands = {str(sample_deal(truth.view(0), rng).hands[1]) for _ in range(5)}
    assert len(hands) == 5


def test_royalist_follows_the_called_card_for_a_rebel():
    """Seat 3 holds the fourth 9H: the emperor sees a royalist drawn among the others, the
    royalist sees itself, and a declaration makes it known to all."""
    deal = make_deal("shandong", {0: "BJ* 9H 9H 9H", 3: "9H"})
    state = new(deal=deal, grabbing=False)
    act(state, 0, "call 9H")
    answer_all(state)
    rng = random.Random(2)
    drawn = {sample_deal(state.view(0), rng).partner for _ in range(60)}
    assert drawn == {1, 2, 3, 4}
    assert {sample_deal(state.view(3), rng).partner for _ in range(5)} == {3}
    for _ in range(20):
        deal_for_rebel = sample_deal(state.view(1), rng)
        nine = KIND_OF_TEXT["9H"]
        assert deal_for_rebel.hands[0][nine] == 3
        assert deal_for_rebel.hands[deal_for_rebel.partner][nine] == 1
    declared = new(deal=deal, grabbing=False)
    act(declared, 0, "call 9H")
    answer_all(declared, {3: "declare"})
    assert {sample_deal(declared.view(1), rng).partner for _ in range(10)} == {3}


def test_the_guard_card_never_goes_to_a_revealed_commoner():
    deal = make_deal("japanese", {0: "BJ*", 3: "SJ*"}, [32, 34, 34, 34, 34])
    state = new("japanese", deal=deal)
    act(state, 0, "keep")
    answer_all(state, {1: "rebel", 2: "rebel"})
    rng = random.Random(3)
    for _ in range(30):
        sample = sample_deal(state.view(4), rng)
        assert sample.hands[1][SJ_MARKED] == sample.hands[2][SJ_MARKED] == 0
        assert sample.partner in (None, 3)  # seat 0 (a solo) or seat 3
    assert {sample_deal(state.view(3), rng).partner for _ in range(5)} == {3}


def test_a_state_built_from_the_true_hands_plays_exactly_like_the_real_one():
    for truth in list(positions(4))[::3]:
        seat = truth.pending()[0]
        built = build_state(truth.view(seat), Deal([h[:] for h in truth.hands], truth.partner))
        assert all(hasattr(built, name) for name in FIELDS)
        assert built.view(seat) == truth.view(seat) and built.view(None) == truth.view(None)
        for other in range(5):  # only the viewer's own tribute is known to build from
            assert {**built.view(other), "tribute": 0} == {**truth.view(other), "tribute": 0}
        rng = random.Random(seat)
        deals = len(truth.history)
        while len(truth.history) == deals:  # to the end of this deal (the next is a new shuffle)
            seat = truth.pending()[0]
            assert built.pending() == truth.pending() and built.legal(seat) == truth.legal(seat)
            action = rng.choice(truth.legal(seat))
            truth.apply(seat, action)
            built.apply(seat, action)
        assert built.history == truth.history and built.totals == truth.totals


def test_a_fresh_state_scores_only_this_deal():
    truth = play_positions("japanese", True, 5)[-1]
    assert truth.deal_no == 2
    view = truth.view(0)
    state = determinize(view, random.Random(0), fresh=True)
    while not state.over:
        seat = state.pending()[0]
        state.apply(seat, state.legal(seat)[0])
    assert list(state.totals) == [int(s) for s in state.history[-1]["scores"]]


@pytest.mark.parametrize("variant", ["shandong", "japanese"])
def test_fast_clone_is_independent_and_plays_like_a_deep_copy(variant):
    fields = FIELDS  # every field, the engine's too, declared once by how clone() copies them
    assert len(set(fields)) == len(fields)
    slots = {name for cls in BaohuangState.__mro__ for name in getattr(cls, "__slots__", ())}
    assert set(fields) == slots
    state = new(variant, seed=7, deals=2)
    assert all(hasattr(state, name) for name in fields)  # every field set by the constructor
    rng = random.Random(7)
    for _ in range(40):
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
    views = [state.view(s) for s in (None, 0, 1, 2, 3, 4)]
    deep, fast = copy.deepcopy(state), state.clone()
    play = random.Random(1)
    while not fast.over:
        seat = fast.pending()[0]
        action = play.choice(fast.legal(seat))
        fast.apply(seat, action)
        deep.apply(seat, action)
        assert fast.view(seat) == deep.view(seat)
    assert fast.result() == deep.result()
    assert [state.view(s) for s in (None, 0, 1, 2, 3, 4)] == views  # the original is untouched
    assert all(sum(h) for h in state.hands)


def test_views_hold_only_public_additions():
    """The view's additions for search (who still answers, who declared, where the marked
    joker lies) are the same for every seat and for spectators."""
    for truth in list(positions(2)):
        spectator = truth.view(None)
        for seat in range(5):
            view = truth.view(seat)
            for key in ("declared", "marked_joker", "table"):
                assert view[key] == spectator[key]


@pytest.mark.skipif(CORE is None, reason="the compiled core is not built here (no C compiler)")
def test_a_sample_packed_from_the_first_is_the_sample_built_and_packed():
    """ViewSampler.playouts: after the first sample (a state), each is its hands and partner
    packed into the first's bytes (core.with_deal); the same bytes as the state built from
    the same draws, packed, and the same random stream left. Views of every setup, declared
    partners and solos among them."""
    compared = 0
    for truth in positions(4):
        for seat in range(5):
            view = truth.view(seat)
            fast, slow = ViewSampler(view), ViewSampler(view)
            a, b = random.Random(seat), random.Random(seat)
            fast.playouts(a)
            slow.state(b, fresh=True)
            for _ in range(6):
                sampled = fast.playouts(a)
                assert sampled.state is None and sampled.packed == pack(slow.state(b, fresh=True))
                assert a.getstate() == b.getstate()
                compared += 1
    assert compared > 500
