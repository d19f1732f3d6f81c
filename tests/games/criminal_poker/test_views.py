"""Hidden information: views, private events, sealed answers and error messages."""

import json
import random
import re

import pytest

from tests.games.criminal_poker.helpers import (
    DETECTIVE_DEAL,
    SHERIFF_DEAL,
    act,
    detective_game,
    new,
    open_with,
    sheriff_game,
    to_questioning,
)
from tests.games.helpers import play_random
from yamen.engine import visible_to
from yamen.errors import IllegalAction

SECRET_KEYS = {"identity", "hidden", "deck", "legal", "answer"}
WINDOW_KEYS = {"answered", "pending"}


def test_a_spectator_sees_no_hidden_card_or_role():
    state = sheriff_game()
    for _ in range(30):
        view = state.view(None)
        assert not SECRET_KEYS & set(view)
        assert view["identities"] == {"0": "sheriff"}
        assert view["hidden_counts"] == [len(h) for h in state.hidden]
        json.dumps(view)
        if state.over:
            break
        seat = state.pending()[0]
        state.apply(seat, state.legal(seat)[-1])
    assert state.over


def test_a_seat_sees_its_own_identity_and_face_down_cards():
    state = sheriff_game()
    view = state.view(2)
    assert view["identity"] == "citizen" and view["hidden"] == ["P2", "W1"]
    assert view["legal"] == ["reveal P2", "reveal W1"]
    assert view["identities"] == {"0": "sheriff"} and view["investigator"] == 0
    assert view["cards"]["W1"] == {
        "id": "W1",
        "type": "witness",
        "innocence": 1,
        "name": {
            "en": "Witness statement: A passer-by saw me in the park",
            "zh": "目擊證言：路人在公園看到我",
        },
    }
    assert state.view(0)["identity"] == "sheriff" and state.view(0)["hidden"] == []
    assert "legal" not in state.view(0)


def test_the_detective_is_public_and_the_others_are_not():
    state = new(seed=7, mode="detective", players=5, mastermind=True)
    detective = state.investigator
    for seat in (None, *range(5)):
        view = state.view(seat)
        assert view["identities"] == {str(detective): "detective"}
        assert view["roles_in_play"] == {"citizen": 3, "detective": 1, "mastermind": 1}
        if seat is not None:
            assert view["identity"] == state.roles[seat]


def swapped(deal: dict, a: int, b: int) -> dict:
    """The same deal with the face-down cards and identities of seats a and b exchanged (each
    keeps the card it will reveal first, listed first)."""
    hands = [list(h) for h in deal["hands"]]
    hands[a][1], hands[b][1] = hands[b][1], hands[a][1]
    roles = list(deal["identities"])
    roles[a], roles[b] = roles[b], roles[a]
    return {**deal, "hands": hands, "identities": roles}


def drive(state, first: dict[int, str]):
    """A fixed game, yielding each action's events: the given opening cards, then every suspect
    in seat order draws and keeps everything hidden; it stops before the arrest or vote."""
    for seat in state.suspects:
        yield act(state, seat, f"reveal {first[seat]}")
    for seat in state.suspects:
        if state.phase == "next":
            yield act(state, state.investigator, f"next {seat}")
        yield act(state, seat, "draw")
        yield act(state, seat, "keep hidden")
    yield act(state, state.investigator, "end questioning")


@pytest.mark.parametrize(
    ("mode", "deal", "a", "b", "watchers"),
    [
        ("sheriff", SHERIFF_DEAL, 2, 3, (None, 0, 1, 4)),
        ("detective", DETECTIVE_DEAL, 0, 3, (None, 1, 2)),
    ],
)
def test_my_view_is_the_same_when_two_other_seats_hidden_cards_are_swapped(
    mode, deal, a, b, watchers
):
    roles = list(deal["identities"])
    roles[a] = "mastermind"  # so that the identities differ too
    deal = {**deal, "identities": roles}
    one = new(deal=deal, mode=mode, mastermind=True)
    two = new(deal=swapped(deal, a, b), mode=mode, mastermind=True)
    assert one.hidden != two.hidden and one.roles != two.roles
    first = {s: one.deck[one.hidden[s][0]].id for s in one.suspects}
    for seat in one.suspects:
        assert first[seat] == two.deck[two.hidden[seat][0]].id
    for events_one, events_two in zip(drive(one, first), drive(two, first), strict=True):
        for seat in watchers:
            assert one.view(seat) == two.view(seat)
            assert visible_to(events_one, seat) == visible_to(events_two, seat)
    assert one.phase in ("arrest", "vote") and not one.over
    assert one.view(a) != two.view(a) and one.view(b) != two.view(b)


def test_opening_choices_are_sealed_until_all_are_in():
    state = sheriff_game()
    before = {s: state.view(s) for s in (None, 0, 1, 2, 3, 4)}
    events = act(state, 2, "reveal W1")
    assert events[0].data == {"seat": 2} and events[0].to is None
    for seat, old in before.items():
        new_view = state.view(seat)
        assert new_view["answered"] == [2] and new_view["pending"] == [1, 3, 4]
        if seat == 2:
            assert new_view["answer"] == "reveal W1" and "legal" not in new_view
            continue
        strip = {k: v for k, v in new_view.items() if k not in WINDOW_KEYS}
        assert strip == {k: v for k, v in old.items() if k not in WINDOW_KEYS}
        assert "W1" not in json.dumps(new_view["shown"])
    act(state, 1, "reveal P1")
    act(state, 3, "reveal S2")
    assert all(v == [] for v in state.view(None)["shown"])
    act(state, 4, "reveal weapon")
    assert state.view(None)["shown"] == [[], ["P1"], ["W1"], ["S2"], ["weapon"]]
    assert state.view(None)["answered"] == []


def test_votes_are_sealed_until_all_are_in():
    state = detective_game()
    to_questioning(state)
    act(state, 1, "end questioning")
    before = {s: state.view(s) for s in (None, 0, 1, 2, 3)}
    act(state, 0, "vote 2")
    act(state, 3, "vote 2")
    for seat, old in before.items():
        now = state.view(seat)
        assert now["answered"] == [0, 3] and now["votes"] == []
        if seat in (0, 3):
            assert now["answer"] == "vote 2"
            continue
        strip = {k: v for k, v in now.items() if k not in WINDOW_KEYS}
        assert strip == {k: v for k, v in old.items() if k not in WINDOW_KEYS}
    act(state, 1, "vote 3")
    events = act(state, 2, "vote 3")
    votes = next(e for e in events if e.kind == "votes")
    assert votes.to is None and votes.data["votes"] == [2, 3, 3, 2]


def test_windows_keep_asking_every_seat_and_never_answer_for_one():
    """Every seat in a window has a real choice and stays pending until it answers itself."""
    for seed in range(20):
        state = new(seed=seed, mode="detective", players=3)
        assert state.pending() == (0, 1, 2)
        assert all(len(state.legal(s)) == 2 for s in range(3))
        to_questioning(state)
        act(state, state.investigator, "end questioning")
        assert state.pending() == (0, 1, 2)
        assert all(len(state.legal(s)) == 2 for s in range(3))
        act(state, 1, state.action_text(state.legal(1)[0]))
        assert state.pending() == (0, 2)


def test_private_events_reach_only_their_seat():
    state = new(seed=9, players=6)
    kinds = {}
    for event in state.opening_events:
        kinds.setdefault(event.kind, []).append(event.to)
    assert kinds["setup"] == [None] and kinds["dealt"] == [None]
    assert kinds["identity"] == [(s,) for s in range(6)]
    assert kinds["evidence"] == [(s,) for s in state.suspects]
    for seat in state.suspects:
        mine = [e for e in visible_to(state.opening_events, seat) if e.kind == "evidence"]
        assert len(mine) == 1 and mine[0].data["cards"] == state.view(seat)["hidden"]
        role = [e for e in visible_to(state.opening_events, seat) if e.kind == "identity"]
        assert role[0].data == {"role": state.roles[seat]}
    spectator = visible_to(state.opening_events, None)
    assert [e.kind for e in spectator] == ["setup", "dealt"]


def test_only_the_investigator_sees_the_deck_and_only_after_the_look():
    state = sheriff_game()
    open_with(state)
    assert "deck" not in state.view(0)
    to_questioning_from_turns(state)
    assert state.view(0)["deck"] == ["P4", "P5", "P6", "S3", "S4", "W3", "W4"]
    for seat in (None, 1, 2, 3, 4):
        assert "deck" not in state.view(seat)
        assert state.view(seat)["deck_count"] == 7


def to_questioning_from_turns(state):
    for seat in state.suspects:
        if state.phase == "next":
            act(state, 0, f"next {seat}")
        act(state, seat, "skip")


def test_refusals_never_tell_where_a_card_is():
    state = sheriff_game()
    act(state, 2, "reveal P2")  # seat 2's card, soon to be shown
    open_with(state)
    act(state, 0, "next 1")
    act(state, 1, "draw")  # seat 1 holds P1 (or S1) and P4 face down
    messages = {}
    for card_id in ("W1", "W2", "P5", "P2"):  # seat 2's hidden, seat 3's, the deck, shown
        with pytest.raises(IllegalAction) as caught:
            act(state, 1, f"reveal {card_id}")
        messages[card_id] = str(caught.value)
    shapes = {re.sub(r"reveal \w+", "reveal X", m) for m in messages.values()}
    assert shapes == {"'reveal X' is not a legal action for you now"}
    with pytest.raises(IllegalAction) as caught:
        act(state, 3, "reveal S2")
    assert str(caught.value) == "seat 3 has no decision to make now"


def test_the_end_shows_every_card_and_role_to_everyone():
    state = new(seed=12, mode="detective", players=5, antisocial=True)
    play_random(state, random.Random(12))
    final = state.view(None)["final"]
    assert [s["identity"] for s in final["seats"]] == state.roles
    assert final == state.view(3)["final"] == state.result().details
    state.view(None)["final"]["seats"].clear()  # a front changing its copy changes nothing
    assert state.view(None)["final"]["seats"]
