"""Hidden information: views, events and matches."""

import json
import random
from fractions import Fraction

from tests.games.baohuang.helpers import act, answer_all, make_deal, new
from tests.games.helpers import play_random
from yamen.engine import visible_to
from yamen.games.baohuang.kinds import STRENGTH_RANKS


def test_a_seat_sees_its_own_hand_only_and_a_spectator_none():
    state = new(seed=4)
    spectator = state.view(None)
    assert "hand" not in spectator and "legal" not in spectator and "role" not in spectator
    for seat in range(5):
        view = state.view(seat)
        assert len(view["hand"]) == state.sizes[seat]
        text = json.dumps(view)
        assert "hands" not in text


def test_swapping_two_other_seats_hands_does_not_change_my_view():
    """Whatever the others hold, seat 0 sees the same, through dealing and declarations."""
    for variant, fixed, sizes in (
        ("shandong", {0: "BJ* 9H 9H 9H", 3: "9H"}, [40, 44, 44, 44, 44]),
        ("japanese", {0: "BJ*", 3: "SJ*"}, [32, 34, 34, 34, 34]),
    ):
        deal = make_deal(variant, fixed, sizes)
        swapped = [deal[0], deal[1], deal[3], deal[2], deal[4]]
        a, b = new(variant, deal=deal, grabbing=False), new(variant, deal=swapped, grabbing=False)
        for state in (a, b):
            act(state, 0, "call 9H" if variant == "shandong" else "keep")
        assert a.view(0) == b.view(0) and a.view(None) == b.view(None)
        assert a.view(1) == b.view(1)
        for state in (a, b):
            answer_all(state)
        assert a.view(0) == b.view(0) and a.view(4) == b.view(4)
        assert a.partner != b.partner


def test_sealed_answers_and_the_royalists_own_role():
    state = new(deal=make_deal("shandong", {0: "BJ* 9H 9H 9H", 3: "9H"}), grabbing=False)
    act(state, 0, "call 9H")
    act(state, 3, "pass")
    assert state.view(1)["answered"] == [3]
    assert state.view(1)["role"] == "rebel" and state.view(3)["role"] == "royalist"
    assert "3" not in state.view(1)["roles"]
    answer_all(state)
    assert state.view(None)["roles"] == {"0": "emperor"}


def test_declared_royalist_is_public_and_doubles():
    state = new(deal=make_deal("shandong", {0: "BJ* 9H 9H 9H", 3: "9H"}), grabbing=False)
    act(state, 0, "call 9H")
    answer_all(state, {3: "declare"})
    assert state.view(None)["roles"] == {"0": "emperor", "3": "royalist"}
    play_random(state, random.Random(1))
    deal = state.result().details["deals"][0]
    assert deal["declared"] and all(Fraction(s) % 2 == 0 for s in deal["scores"])


def test_private_events_reach_only_their_seat():
    state = new(seed=9)
    hands = [e for e in state.opening_events if e.kind == "hand"]
    assert [e.to for e in hands] == [(s,) for s in range(5)]
    for seat in range(5):
        mine = [e for e in visible_to(state.opening_events, seat) if e.kind == "hand"]
        assert len(mine) == 1 and mine[0].data["cards"] == state.view(seat)["hand"]
    assert not [e for e in visible_to(state.opening_events, None) if e.kind == "hand"]


def test_japanese_tribute_from_the_second_deal():
    for seed in range(40):
        state = new("japanese", seed=seed, deals=2)
        rng = random.Random(seed)
        while state.deal_no == 1:
            seat = rng.choice(state.pending())
            state.apply(seat, rng.choice(state.legal(seat)))
        scores = [Fraction(s) for s in state.history[0]["scores"]]
        if any(scores):
            break
    emperor, alone = state.history[0]["emperor"], state.history[0]["partner"] is None
    share = [(4 if alone else 2) if s == emperor else 1 for s in range(5)]
    for seat in range(5):
        tribute = state.tribute[seat]
        if scores[seat] < 0:
            assert len(tribute["gave"]) == share[seat] and not tribute["received"]
            weakest_given = min(STRENGTH_RANKS.index(c[0]) for c in tribute["gave"])
            jokers = ("SJ", "BJ")
            hand = state.view(seat)["hand"]
            kept = [STRENGTH_RANKS.index(c[0]) for c in hand if not c.startswith(jokers)]
            assert not any(c.startswith(jokers) for c in tribute["gave"])
            assert max(kept) <= weakest_given
        elif scores[seat] > 0:
            assert len(tribute["received"]) == share[seat] and not tribute["gave"]
        other = (seat + 1) % 5  # another seat sees its own tribute, never this one's
        assert state.view(other).get("tribute", {}) == state.tribute.get(other, {})
    assert sum(state.sizes) == 168


def test_match_of_several_deals_keeps_running_totals():
    state = new("shandong", seed=21, deals=3)
    play_random(state, random.Random(2))
    result = state.result()
    assert [d["deal"] for d in result.details["deals"]] == [1, 2, 3]
    totals = [sum(Fraction(d["scores"][s]) for d in result.details["deals"]) for s in range(5)]
    assert list(result.scores) == totals
    assert result.winners and all(result.scores[w] == max(result.scores) for w in result.winners)


def test_target_score_ends_the_match_early():
    state = new("shandong", seed=5, target=1)
    play_random(state, random.Random(5))
    assert max(state.result().scores) >= 1
    assert len(state.history) < 50


def test_the_played_sets_are_made_once_and_shown_whole_every_time():
    """A view's ``played`` is every set of the deal, in order, for every audience and after
    every action, deal after deal (a new deal starts an empty list), of a clone too; it is made
    as the deal goes (an earlier set's entry is the one made before: the cost of a view does
    not grow with the deal) and each view's list is its own."""
    rng = random.Random(3)
    for variant in ("shandong", "japanese"):
        state = new(variant, seed=11, deals=2)
        before, deal = None, state.deal_no
        while not state.over:
            seat = rng.choice(state.pending())
            state.apply(seat, rng.choice(state.legal(seat)))
            whole = [{"seat": s, "cards": list(c)} for s, c in state.plays]
            shown = [state.view(s)["played"] for s in (None, 0, 1, 2, 3, 4)]
            assert all(played == whole for played in shown)
            if before is not None and state.deal_no == deal:  # the sets shown before, as made
                assert all(a is b for a, b in zip(before, shown[0], strict=False))
            shown[1].append("changed")  # another view, or the next, does not see it
            assert state.view(2)["played"] == whole
            before, deal = shown[0], state.deal_no
        clone = state.clone()
        assert clone.shown_plays is None and clone.view(0)["played"] == state.view(0)["played"]
