"""Criminal Poker rules, one behaviour per test, mostly on explicit deals."""

import random
from collections import Counter
from fractions import Fraction

import pytest

from tests.games.criminal_poker.helpers import (
    DETECTIVE_DEAL,
    SHERIFF_DEAL,
    act,
    detective_game,
    ids,
    new,
    open_with,
    sheriff_game,
    skip_all_turns,
    to_questioning,
    vote,
)
from tests.games.helpers import play_random
from yamen.engine import visible_to
from yamen.errors import IllegalAction, NotYourTurn, OptionsError

MODES = [("sheriff", 4), ("sheriff", 5), ("sheriff", 6), ("detective", 3), ("detective", 4)]
MODES += [("detective", 5)]

# ---------------------------------------------------------------- setting up


@pytest.mark.parametrize(("mode", "players"), MODES)
def test_deck_composition_by_number_of_suspects(mode, players):
    state = new(seed=players, mode=mode, players=players)
    suspects = players - (mode == "sheriff")
    kinds = Counter(card.kind for card in state.deck)
    physical = {3: 3, 4: 6, 5: 9}[suspects]
    assert kinds == {"physical": physical, "self-statement": 4, "witness": 4, "weapon": 1}
    assert sorted(c.innocence for c in state.deck if c.kind == "self-statement") == [1, 2, 3, 4]
    assert sorted(c.innocence for c in state.deck if c.kind == "witness") == [1, 2, 3, 4]
    assert all(c.innocence == 2 for c in state.deck if c.kind == "physical")
    assert len(state.suspects) == suspects
    assert all(len(state.hidden[s]) == 2 for s in state.suspects)
    assert len(state.pile) == len(state.deck) - 2 * suspects
    held = sorted(c for h in state.hidden for c in h) + state.pile
    assert sorted(held) == list(range(len(state.deck)))


def test_sheriff_mode_identities():
    for seed in range(30):
        state = new(seed=seed, players=6, mastermind=seed % 2 == 0, antisocial=seed % 3 == 0)
        roles = Counter(state.roles)
        assert roles["sheriff"] == 1 and "detective" not in roles
        assert roles["mastermind"] == (seed % 2 == 0) and roles["antisocial"] == (seed % 3 == 0)
        assert roles["citizen"] == 5 - roles["mastermind"] - roles["antisocial"]
        sheriff = state.roles.index("sheriff")
        assert state.investigator == sheriff and sheriff not in state.suspects
        assert state.hidden[sheriff] == [] and state.shown[sheriff] == []


def test_sheriff_seat_is_drawn_from_the_seed_or_chosen():
    seats = {new(seed=seed).investigator for seed in range(40)}
    assert seats == set(range(5))
    assert new(seed=8).investigator == new(seed=8).investigator
    for seat in range(5):
        assert new(seed=3, sheriff=seat).investigator == seat


def test_detective_mode_identities():
    for seed in range(30):
        state = new(seed=seed, mode="detective", players=5, antisocial=True)
        assert Counter(state.roles) == {"detective": 1, "citizen": 3, "antisocial": 1}
        assert state.investigator == state.roles.index("detective")
        assert state.suspects == (0, 1, 2, 3, 4)  # the detective is a suspect too
    assert {new(seed=s, mode="detective").investigator for s in range(40)} == {0, 1, 2, 3}


def test_same_seed_same_game_different_seed_different_deal():
    a, b = new(seed=5), new(seed=5)
    assert (a.roles, a.hidden, a.pile) == (b.roles, b.hidden, b.pile)
    assert any(new(seed=s).hidden != a.hidden for s in range(6, 10))


def test_options_are_normalized_with_defaults():
    state = new()
    assert state.options == {
        "mode": "sheriff",
        "players": 5,
        "sheriff": None,
        "mastermind": False,
        "antisocial": False,
        "cards": None,
    }
    assert new(mode="detective").options["players"] == 4
    from yamen.engine import get_game

    assert get_game("criminal_poker", state.options).options == state.options


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "unknown option"),
        ({"mode": "judge"}, "mode must be"),
        ({"players": 3}, "sheriff mode is for 4 to 6 players"),
        ({"players": 7}, "4 to 6"),
        ({"mode": "detective", "players": 6}, "detective mode is for 3 to 5"),
        ({"mode": "detective", "players": 2}, "3 to 5"),
        ({"players": True}, "4 to 6"),
        ({"sheriff": 5}, "sheriff must be a seat from 0 to 4"),
        ({"sheriff": "1"}, "sheriff must be a seat"),
        ({"mode": "detective", "sheriff": 0}, "detective mode has no sheriff"),
        ({"mastermind": 1}, "mastermind must be true or false"),
        ({"mode": "detective", "players": 3, "mastermind": True}, "no special roles"),
        ({"mode": "detective", "players": 4, "mastermind": True, "antisocial": True}, "at most"),
        ({"mode": "detective", "players": 5, "mastermind": True, "antisocial": True}, "at most"),
    ],
)
def test_bad_options_are_refused(options, message):
    with pytest.raises(OptionsError, match=message):
        new(**options)


def test_special_roles_allowed_where_the_seed_allows_them():
    new(mode="detective", players=4, mastermind=True)
    new(mode="detective", players=5, antisocial=True)
    new(players=4, mastermind=True, antisocial=True)  # sheriff mode: no limit
    new(players=6, mastermind=True, antisocial=True)


def test_explicit_deal_is_checked():
    base = dict(SHERIFF_DEAL)
    sheriff_game()
    with pytest.raises(OptionsError, match="identities must be exactly"):
        new(deal={**base, "identities": ["sheriff", "citizen", "mastermind", "citizen", "citizen"]})
    with pytest.raises(OptionsError, match="put the sheriff at seat 2"):
        new(deal=base, sheriff=2)
    with pytest.raises(OptionsError, match="seat 1 .citizen. holds 2 cards"):
        new(deal={**base, "hands": [[], ["P1"], *base["hands"][2:]]})
    with pytest.raises(OptionsError, match="seat 0 .sheriff. holds 0 cards"):
        new(deal={**base, "hands": [["P9"], *base["hands"][1:]]})
    with pytest.raises(OptionsError, match="dealt twice"):
        new(deal={**base, "hands": [[], ["P1", "P1"], *base["hands"][2:]]})
    with pytest.raises(OptionsError, match="no card 'P7' in this game"):
        new(deal={**base, "hands": [[], ["P7", "S1"], *base["hands"][2:]]})
    with pytest.raises(OptionsError, match="the deck lacks"):
        new(deal={**base, "deck": base["deck"][:-1]})
    without_deck = {k: v for k, v in base.items() if k != "deck"}
    state = new(deal=without_deck, seed=4)
    assert sorted(ids(state, state.pile)) == sorted(base["deck"])
    with pytest.raises(OptionsError, match="an explicit deal is an object"):
        new(deal=[[], []])
    with pytest.raises(OptionsError, match="an explicit deal is an object"):
        new(deal={"identities": base["identities"]})
    with pytest.raises(OptionsError, match="identities must list 5 roles"):
        new(deal={**base, "identities": [{}] * 5})
    with pytest.raises(OptionsError, match="seat 4 .citizen. holds 2 cards"):
        new(deal={**base, "hands": [*base["hands"][:4], "weapon P3"]})


# ---------------------------------------------------------------- the opening


def test_opening_asks_every_suspect_at_once_and_reveals_together():
    state = sheriff_game()
    assert state.phase == "opening" and state.pending() == (1, 2, 3, 4)
    assert state.legal(0) == []
    assert [state.action_text(a) for a in state.legal(1)] == ["reveal P1", "reveal S1"]
    events = act(state, 3, "reveal W2")
    assert [e.kind for e in events] == ["answered"] and events[0].data == {"seat": 3}
    assert state.pending() == (1, 2, 4) and state.shown[3] == []
    act(state, 1, "reveal S1")
    act(state, 2, "reveal P2")
    events = act(state, 4, "reveal P3")
    opened = next(e for e in events if e.kind == "opening revealed")
    assert opened.data["cards"] == [None, "S1", "P2", "W2", "P3"] and opened.to is None
    assert [ids(state, state.shown[s]) for s in range(5)] == [[], ["S1"], ["P2"], ["W2"], ["P3"]]
    assert [ids(state, state.hidden[s]) for s in range(5)] == [
        [],
        ["P1"],
        ["W1"],
        ["S2"],
        ["weapon"],
    ]
    assert state.phase == "next" and state.pending() == (0,)


def test_opening_answers_once_and_only_own_cards():
    state = sheriff_game()
    with pytest.raises(NotYourTurn):
        act(state, 0, "reveal P1")
    with pytest.raises(IllegalAction):
        act(state, 1, "reveal P2")  # seat 2's card
    act(state, 1, "reveal P1")
    with pytest.raises(NotYourTurn):
        act(state, 1, "reveal S1")
    with pytest.raises(IllegalAction):
        act(state, 2, "skip")


def test_in_detective_mode_the_detective_opens_too():
    state = detective_game()
    assert state.pending() == (0, 1, 2, 3)
    open_with(state)
    assert all(len(state.shown[s]) == 1 for s in range(4))
    assert state.pending() == (1,)


# ---------------------------------------------------------------- turns


def test_the_sheriff_calls_each_suspect_once_in_any_order():
    state = sheriff_game()
    open_with(state)
    assert [state.action_text(a) for a in state.legal(0)] == [
        "next 1",
        "next 2",
        "next 3",
        "next 4",
    ]
    events = act(state, 0, "next 3")
    assert [e.kind for e in events] == ["next"] and events[0].data == {"seat": 3}
    assert state.phase == "turn" and state.pending() == (3,) and state.turn == 3
    act(state, 3, "skip")
    assert [state.action_text(a) for a in state.legal(0)] == ["next 1", "next 2", "next 4"]
    with pytest.raises(IllegalAction):
        act(state, 0, "next 3")
    with pytest.raises(IllegalAction):
        act(state, 0, "next 0")


def test_the_last_suspect_left_needs_no_call():
    state = sheriff_game()
    open_with(state)
    for seat in (4, 2, 1):
        act(state, 0, f"next {seat}")
        act(state, seat, "skip")
    assert state.phase == "turn" and state.turn == 3 and state.pending() == (3,)
    assert state.acted == [4, 2, 1]


def test_draw_then_reveal_the_new_card():
    state = sheriff_game()
    open_with(state, {1: "S1"})
    act(state, 0, "next 1")
    assert [state.action_text(a) for a in state.legal(1)] == ["skip", "draw"]
    events = act(state, 1, "draw")
    drawn = [e for e in events if e.kind == "draw"]
    private = [e for e in events if e.kind == "drew"]
    assert drawn[0].data == {"seat": 1, "deck": 6} and drawn[0].to is None
    assert private[0].data == {"card": "P4"} and private[0].to == (1,)
    assert state.phase == "reveal" and state.pending() == (1,)
    assert [state.action_text(a) for a in state.legal(1)] == [
        "keep hidden",
        "reveal P1",
        "reveal P4",
    ]
    events = act(state, 1, "reveal P4")
    assert events[0].kind == "reveal" and events[0].data == {"seat": 1, "card": "P4"}
    assert ids(state, state.shown[1]) == ["S1", "P4"] and ids(state, state.hidden[1]) == ["P1"]
    assert state.turns == [{"seat": 1, "action": "draw", "revealed": "P4"}]
    assert state.phase == "next"


def test_draw_then_reveal_the_old_card_or_neither():
    state = sheriff_game()
    open_with(state, {1: "S1", 2: "W1"})
    act(state, 0, "next 1")
    act(state, 1, "draw")
    act(state, 1, "reveal P1")
    assert ids(state, state.hidden[1]) == ["P4"]
    act(state, 0, "next 2")
    act(state, 2, "draw")
    events = act(state, 2, "keep hidden")
    assert events[0].kind == "keep hidden"
    assert sorted(ids(state, state.hidden[2])) == ["P2", "S3"]
    assert state.turns[-1] == {"seat": 2, "action": "draw", "revealed": None}


def test_in_detective_mode_the_detective_takes_a_turn_too():
    state = detective_game()
    open_with(state)
    assert [state.action_text(a) for a in state.legal(1)] == [f"next {s}" for s in range(4)]
    act(state, 1, "next 1")
    assert state.pending() == (1,) and state.phase == "turn"
    act(state, 1, "draw")
    act(state, 1, "keep hidden")
    skip_all_turns(state, [0, 2, 3])
    assert state.acted == [1, 0, 2, 3] and state.phase == "questioning"


def small_cards(physical: int = 0) -> dict:
    """A room's own list: 4 self-statements, 2 witnesses, the weapon and a few physical."""
    evidence = [
        {"id": f"S{i}", "type": "self-statement", "innocence": i, "name": {"en": f"S{i}"}}
        for i in range(1, 5)
    ]
    evidence += [
        {"id": f"W{i}", "type": "witness", "innocence": i, "name": {"en": f"W{i}"}} for i in (1, 2)
    ]
    evidence += [{"id": "knife", "type": "weapon", "innocence": None, "name": {"en": "Knife"}}]
    evidence += [
        {"id": f"P{i}", "type": "physical", "innocence": 2, "name": {"en": f"P{i}", "zh": "物證"}}
        for i in range(1, physical + 1)
    ]
    identities = [
        {"id": "s", "role": "sheriff", "name": {"en": "Sheriff"}},
        {"id": "d", "role": "detective", "name": {"en": "Detective"}},
    ] + [{"id": f"c{i}", "role": "citizen", "name": {"en": "Citizen"}} for i in range(5)]
    counts = {"3": 0, "4": min(physical, 2), "5": min(physical, 4)}
    return {"evidence": evidence, "identities": identities, "physical_by_suspects": counts}


def test_when_the_draw_pile_runs_out_a_suspect_may_only_skip():
    state = new(players=4, sheriff=0, cards=small_cards(), seed=2)
    assert len(state.deck) == 7 and len(state.pile) == 1
    open_with(state)
    act(state, 0, "next 1")
    act(state, 1, "draw")
    act(state, 1, "keep hidden")
    act(state, 0, "next 2")
    assert [state.action_text(a) for a in state.legal(2)] == ["skip"]
    with pytest.raises(IllegalAction):
        act(state, 2, "draw")
    act(state, 2, "skip")
    act(state, 3, "skip")
    assert state.phase == "questioning"
    assert state.view(0)["deck"] == []


# ---------------------------------------------------------------- the deck look and questioning


def test_after_the_last_turn_the_investigator_alone_sees_the_deck():
    state = sheriff_game()
    open_with(state)
    for seat in (1, 2, 3):
        act(state, 0, f"next {seat}")
        act(state, seat, "skip")
    events = act(state, 4, "draw")  # draws P4
    events = act(state, 4, "keep hidden")
    kinds = [e.kind for e in events]
    assert kinds == ["keep hidden", "deck look", "deck", "questioning"]
    look = events[1]
    assert look.data == {"seat": 0, "count": 6} and look.to is None
    deck = events[2]
    assert deck.to == (0,) and deck.data["cards"] == ["P5", "P6", "S3", "S4", "W3", "W4"]
    assert visible_to(events, 1) == visible_to(events, None)
    assert state.view(0)["deck"] == deck.data["cards"]
    assert all("deck" not in state.view(s) for s in (1, 2, 3, 4, None))


def test_questioning_belongs_to_the_investigator():
    state = sheriff_game()
    to_questioning(state)
    assert state.phase == "questioning" and state.pending() == (0,)
    assert [state.action_text(a) for a in state.legal(0)] == ["end questioning"]
    with pytest.raises(NotYourTurn):
        act(state, 1, "end questioning")
    act(state, 0, "end questioning")
    assert state.phase == "arrest" and state.pending() == (0,)


# ---------------------------------------------------------------- sheriff's arrest


def test_sheriff_arrests_one_suspect_and_catches_the_weapon_holder():
    state = sheriff_game()
    to_questioning(state)
    act(state, 0, "end questioning")
    assert [state.action_text(a) for a in state.legal(0)] == [f"arrest {s}" for s in (1, 2, 3, 4)]
    with pytest.raises(IllegalAction):
        act(state, 0, "arrest 0")
    events = act(state, 0, "arrest 4")
    assert [e.kind for e in events] == ["arrest", "game over"]
    assert state.over and state.pending() == ()
    result = state.result()
    assert result.details["culprits"] == [4] and result.details["by_weapon"]
    assert result.details["arrested"] == [4] and result.details["caught"]
    assert result.winners == (0, 1, 2, 3)
    assert result.scores == (Fraction(1),) * 4 + (Fraction(0),)
    assert result.places == (0, 1, 2, 3, 4)


def test_wrong_arrest_lets_the_culprit_win_and_places_list_winners_first():
    state = sheriff_game()
    to_questioning(state)
    act(state, 0, "end questioning")
    act(state, 0, "arrest 2")
    result = state.result()
    assert result.winners == (4,) and result.places == (4, 0, 1, 2, 3)
    assert result.scores == (0, 0, 0, 0, 1)
    assert result.details["votes"] == []


def test_result_details_show_everything():
    state = sheriff_game()
    open_with(state, {1: "S1", 2: "P2", 3: "W2", 4: "P3"})
    skip_all_turns(state)
    act(state, 0, "end questioning")
    act(state, 0, "arrest 3")
    seats = state.result().details["seats"]
    assert seats[0] == {
        "seat": 0,
        "identity": "sheriff",
        "shown": [],
        "hidden": [],
        "innocence": None,
        "valid": None,
        "culprit": False,
        "arrested": False,
        "won": False,
    }
    assert seats[1]["shown"] == ["S1"] and seats[1]["hidden"] == ["P1"]
    assert (seats[1]["innocence"], seats[1]["valid"]) == (3, 2)
    assert (seats[2]["innocence"], seats[3]["innocence"]) == (3, 4)
    assert seats[3]["arrested"] and seats[4]["culprit"] and seats[4]["won"]


def test_culprit_by_lowest_innocence_when_nobody_holds_the_weapon():
    deal = {
        "identities": ["citizen", "sheriff", "citizen", "mastermind", "citizen"],
        "hands": [["P1", "W1"], [], ["W2", "W3"], ["S4", "P2"], ["S1", "P3"]],
        "deck": ["W4", "S2", "S3", "P4", "P5", "P6", "weapon"],
    }
    state = new(deal=deal, mastermind=True)
    open_with(state)
    skip_all_turns(state, [0, 2, 3, 4])
    act(state, 1, "end questioning")
    act(state, 1, "arrest 0")
    details = state.result().details
    assert details["culprits"] == [2] and not details["by_weapon"]  # two witnesses: 0
    assert [s["innocence"] for s in details["seats"]] == [3, None, 0, 6, 3]
    assert state.result().winners == (2, 3)  # the culprit and the mastermind


# ---------------------------------------------------------------- detective-mode vote


def voting(deal=DETECTIVE_DEAL, **options):
    state = new(deal=deal, mode="detective", **options)
    to_questioning(state)
    act(state, state.investigator, "end questioning")
    return state


def test_every_player_votes_at_once_not_for_itself():
    state = voting()
    assert state.phase == "vote" and state.pending() == (0, 1, 2, 3)
    for seat in range(4):
        legal = [state.action_text(a) for a in state.legal(seat)]
        assert legal == [f"vote {s}" for s in range(4) if s != seat]
    with pytest.raises(IllegalAction):
        act(state, 2, "vote 2")
    act(state, 0, "vote 2")
    with pytest.raises(NotYourTurn):
        act(state, 0, "vote 3")


def test_most_votes_is_arrested():
    state = voting()
    vote(state, [2, 2, 3, 2])
    details = state.result().details
    assert details["arrested"] == [2] and details["caught"]
    assert details["votes"] == [[2, 2, 3, 2]]
    assert state.result().winners == (0, 1, 3)


def test_two_tied_are_arrested_together_and_one_culprit_is_enough():
    state = voting()
    events = []
    for seat, target in enumerate([2, 3, 3, 2]):
        events = act(state, seat, f"vote {target}")
    votes = next(e for e in events if e.kind == "votes")
    assert votes.data == {"round": 1, "votes": [2, 3, 3, 2], "tally": [0, 0, 2, 2]}
    details = state.result().details
    assert details["arrested"] == [2, 3] and details["caught"]
    assert state.result().winners == (0, 1, 3)  # the arrested innocent citizen 3 wins too


def test_three_tied_revote_after_more_questioning():
    state = voting()
    events = []
    for seat, target in enumerate([1, 2, 3, 0]):
        events = act(state, seat, f"vote {target}")
    assert [e.kind for e in events][-4:] == ["answered", "votes", "revote", "questioning"]
    assert state.phase == "questioning" and state.pending() == (1,)
    assert not state.over and state.votes == [[1, 2, 3, 0]]
    act(state, 1, "end questioning")
    assert state.phase == "vote" and state.pending() == (0, 1, 2, 3)
    vote(state, [2, 2, 1, 2])
    assert state.result().details["arrested"] == [2]
    assert len(state.result().details["votes"]) == 2


def test_three_way_ties_three_times_arrest_nobody():
    state = voting()
    rounds = [[1, 2, 3, 0], [3, 0, 1, 2], [2, 3, 0, 1]]  # one vote each: a four-way tie
    for round_no, targets in enumerate(rounds):
        vote(state, targets)
        if round_no < 2:
            assert state.phase == "questioning"
            act(state, 1, "end questioning")
    result = state.result()
    assert result.details["arrested"] == [] and not result.details["caught"]
    assert result.details["votes"] == rounds
    assert result.winners == (2,)  # only the culprit


def test_three_player_detective_game_all_three_tied():
    deal = {
        "identities": ["detective", "citizen", "citizen"],
        "hands": [["P1", "S1"], ["W1", "W2"], ["S4", "P2"]],
        "deck": ["P3", "S2", "S3", "W3", "W4", "weapon"],
    }
    state = new(deal=deal, mode="detective", players=3)
    to_questioning(state)
    act(state, 0, "end questioning")
    vote(state, [1, 2, 0])
    assert state.phase == "questioning"
    act(state, 0, "end questioning")
    vote(state, [1, 0, 1])
    result = state.result()
    assert result.details["arrested"] == [1] and result.details["culprits"] == [1]
    assert result.winners == (0, 2)


# ---------------------------------------------------------------- random play


@pytest.mark.parametrize(("mode", "players"), MODES)
def test_random_games_end_with_a_consistent_result(mode, players):
    for seed in range(40):
        state = new(seed=seed, mode=mode, players=players)
        play_random(state, random.Random(seed))
        result = state.result()
        details = result.details
        assert sorted(result.places) == list(range(players))
        assert set(result.winners) == {s for s in range(players) if result.scores[s] == 1}
        assert result.places[: len(result.winners)] == result.winners
        assert details["culprits"] and set(details["culprits"]) <= set(state.suspects)
        assert details["caught"] == bool(set(details["culprits"]) & set(details["arrested"]))
        assert all(len(s["shown"]) >= 1 for s in details["seats"] if s["seat"] in state.suspects)
        if mode == "sheriff":
            assert len(details["arrested"]) == 1 and details["votes"] == []
        else:
            assert 1 <= len(details["votes"]) <= 3 and len(details["arrested"]) <= 2


def test_helpers_build_the_positions_they_promise():
    state = sheriff_game()
    assert state.investigator == 0 and state.suspects == (1, 2, 3, 4)
    to_questioning(state)
    assert state.acted == [1, 2, 3, 4] and state.pending() == (0,)
    state = detective_game()
    play_random(state, random.Random(2))
    assert state.result() is not None
