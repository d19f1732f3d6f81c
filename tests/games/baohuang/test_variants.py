"""Variants are behaviour: each deals its own deck, names its roles, opens its first phase,
and a new variant is one subclass registered by name."""

import random
from collections import Counter

import pytest

from tests.games.baohuang.helpers import new
from tests.games.helpers import play_random
from yamen.bots.baohuang.determinize import determinize
from yamen.bots.baohuang.playout import deal_scores, play_out
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.variants import JAPANESE, SHANDONG, VARIANTS, Shandong


@pytest.mark.parametrize("variant", list(VARIANTS.values()), ids=list(VARIANTS))
def test_a_deal_is_the_whole_deck_in_five_hands(variant):
    for seed in range(5):
        hands = variant.deal(random.Random(seed), first=seed % 5)
        assert len(hands) == 5
        assert Counter(k for hand in hands for k in hand) == Counter(variant.deck())
        assert max(map(len, hands)) - min(map(len, hands)) <= 1


def test_roles_are_named_by_the_variant():
    assert SHANDONG.role(1, 0, 1, alone=False) == "royalist"
    assert SHANDONG.role(2, 0, 1, alone=False) == "rebel"
    assert JAPANESE.role(1, 0, 1, alone=False) == "guard"
    assert JAPANESE.role(2, 0, 1, alone=False) == "commoner"
    assert JAPANESE.role(0, 0, None, alone=True) == "solo emperor"
    assert SHANDONG.role(0, None, None, alone=False) is None


@pytest.mark.parametrize("variant", ["shandong", "japanese"])
def test_the_state_and_its_views_name_roles_as_the_variant_does(variant):
    state = new(variant, seed=4)
    rng = random.Random(4)
    while state.phase != Phase.PLAY:
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
    for seat in range(5):
        alone = state.solo or state.grabbed
        named = state.variant.role(seat, state.emperor, state.partner, alone)
        assert state.own_role(seat) == state.view(seat)["role"] == named


def test_phases_read_as_their_old_names():
    assert [p.value for p in Phase] == [
        "grab", "call", "force", "emperor card", "declare", "play", "over"
    ]  # fmt: skip
    assert Phase.PLAY == "play" and f"{Phase.EMPEROR_CARD}" == "emperor card"


class QuickCall(Shandong):
    """A preset for the test: shandong without the grab window, whatever the options say."""

    name = "quick call"

    def first_phase(self, options):
        return Phase.CALL


def test_a_new_variant_is_one_class(monkeypatch):
    monkeypatch.setitem(VARIANTS, QuickCall.name, QuickCall())
    state = new("quick call", seed=2, grabbing=True)
    assert state.phase == Phase.CALL and state.view(0)["variant"] == "quick call"
    play_random(state, random.Random(2))
    assert state.result().details["variant"] == "quick call"
    search = new("quick call", seed=3)
    rng = random.Random(3)
    while search.phase != Phase.PLAY:
        seat = search.pending()[0]
        search.apply(seat, rng.choice(search.legal(seat)))
    sample = determinize(search.view(search.pending()[0]), rng, fresh=True)
    play_out(sample)
    assert sum(deal_scores(sample)) == 0
