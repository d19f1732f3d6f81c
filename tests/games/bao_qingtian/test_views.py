"""Hidden information: each seat sees its own hand, its own discards and draws, and nothing of
anyone else's cards; spectators see no hand."""

import json
import random

from tests.games.bao_qingtian.test_support import act, make_deal, new, turn
from tests.games.helpers import play_random
from yamen.engine import visible_to

USUAL = {0: "EMP SEV", 1: "JUD", 2: "WANG", 3: "THF", 4: "ADD SUB MUL DIV"}


def test_a_seat_sees_its_own_hand_only_and_a_spectator_none():
    state = new(5, seed=4)
    spectator = state.view(None)
    for key in ("hand", "legal", "my_turns"):
        assert key not in spectator
    for seat in range(5):
        view = state.view(seat)
        assert len(view["hand"]) == 5
        assert ("legal" in view) == (seat in state.pending())
        assert "hands" not in json.dumps(view)


def test_hands_dealt_are_private_events():
    state = new(7, seed=9)
    hands = [e for e in state.opening_events if e.kind == "hand"]
    assert [e.to for e in hands] == [(s,) for s in range(7)]
    for seat in range(7):
        mine = [e for e in visible_to(state.opening_events, seat) if e.kind == "hand"]
        assert len(mine) == 1 and mine[0].data["cards"] == state.view(seat)["hand"]
    assert not [e for e in visible_to(state.opening_events, None) if e.kind == "hand"]


def test_discards_and_draws_are_seen_by_their_seat_only():
    deal = make_deal(5, {1: "JUD THF"}, top="ROB COM EMP", first=1)
    a, b = new(deal=deal), new(deal=deal)
    events_a = act(a, 1, "discard JUD")
    events_b = act(b, 1, "discard THF")
    for seat in (None, 0, 2, 3, 4):
        assert a.view(seat) == b.view(seat)
        assert visible_to(events_a, seat) == visible_to(events_b, seat)
    assert a.view(1)["my_turns"] == [{"discarded": "JUD", "drew": "ROB"}]
    private = [e for e in events_a if e.to is not None]
    assert private and all(e.to == (1,) for e in private)
    public = [e for e in events_a if e.to is None]
    assert "JUD" not in json.dumps([e.data for e in public])
    assert "ROB" not in json.dumps([e.data for e in public])


def test_swapping_two_other_seats_hands_does_not_change_my_view():
    fixed = {**USUAL, 3: "THF ROB MUR PKP", 4: "ADD SUB MUL DIV EXE"}
    deal = make_deal(5, fixed)
    swapped = {**deal, "hands": [*deal["hands"][:3], deal["hands"][4], deal["hands"][3]]}
    a, b = new(deal=deal), new(deal=swapped)
    for state in (a, b):
        act(state, 0, "name THF")
        for _ in range(3):
            turn(state)
            act(state, 2, "wait")
    for seat in (None, 0, 1, 2):
        assert a.view(seat) == b.view(seat)
    assert a.view(3) != b.view(3)


def test_a_miss_reveals_only_that_it_missed():
    state = new(deal=make_deal(5, USUAL))
    act(state, 0, "name THF")
    turn(state)
    events = act(state, 2, "guess 0 holds")
    assert [(e.kind, e.to) for e in events] == [("guess", None)]
    assert events[0].data == {"captor": 2, "seat": 0, "form": "holds", "hit": False, "left": 9}


def test_public_facts_are_in_every_view():
    state = new(deal=make_deal(5, USUAL))
    act(state, 0, "name MUR")
    for seat in (None, 0, 3):
        view = state.view(seat)
        assert view["emperor"] == 0 and view["criminal"] == "MUR"
        assert view["offices"] == {"judge": 1, "captor": 2}
        assert view["capture"]["guesses_left"] == 10


def test_finished_game_views_and_result_are_json():
    state = new(12, seed=3)
    play_random(state, random.Random(3))
    json.dumps(state.view(None))
    json.dumps([state.view(s) for s in range(12)])
    json.dumps(state.result().to_json(), ensure_ascii=False)
    assert state.view(None)["verdict"] in ("executed", "pardoned")
