"""The Bao Qing-tian rules bot: legal in every phase, sensible in targeted positions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.bao_qingtian.test_support import act, make_deal, new, turn
from yamen.bots import RandomBot, make_bot, play_bots
from yamen.bots.bao_qingtian.captor import hit_chances, track
from yamen.bots.bao_qingtian.rules import BaoQingtianRulesBot

RULES = BaoQingtianRulesBot()
# five seats, seat 0 deals first: 0 the emperor (and severity), 1 the judge, 2 Wang (the
# captor), 3 a Theft card, 4 the four number officers; commoners fill the rest
USUAL = {0: "EMP SEV", 1: "JUD", 2: "WANG", 3: "THF", 4: "ADD SUB MUL DIV"}


def usual(top: str = "", **fixed) -> dict:
    return make_deal(5, {**USUAL, **{int(s[1:]): c for s, c in fixed.items()}}, top)


def choose(state, seat: int | None = None) -> str:
    seat = state.pending()[0] if seat is None else seat
    return state.action_text(RULES.choose(state.view(seat), state.legal(seat), random.Random(0)))


def play(state, until: str) -> None:
    """The rules bot for every seat until the phase ``until``."""
    while state.phase != until:
        seat = state.pending()[0]
        act(state, seat, choose(state, seat))


# ---------------------------------------------------------------------- legality


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.sampled_from([3, 4, 5, 6, 8, 12, 13, 26, 50]),
    drawing=st.booleans(),
    mixed=st.booleans(),
)
def test_the_bot_only_plays_legal_actions(seed, players, drawing, mixed):
    state = new(players, seed=seed, find_by_drawing=drawing)
    bots = [
        RandomBot() if mixed and seat % 2 else make_bot("bao_qingtian", "rules")
        for seat in range(players)
    ]
    assert play_bots(state, bots, random.Random(seed)) > 0
    assert state.result() is not None


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([3, 5, 9, 30, 50]))
def test_the_captor_replays_the_table_from_its_view(seed, players):
    """From the view alone the captor knows the pile and the discards at every guess."""
    state = new(players, seed=seed)
    rng = random.Random(seed)
    while not state.over:
        seat = state.pending()[0]
        view = state.view(seat)
        if view["phase"] == "guess":
            tracker = track(view)
            assert (tracker.pile_size, tracker.discard_size) == (view["pile"], view["discards"])
            hands = sum(tracker.hands.values())
            copies = 2 - view["hand"].count(view["criminal"])
            assert hands + tracker.pile + tracker.discards + tracker.known <= copies + 1e-9
        state.apply(seat, rng.choice(state.legal(seat)))


# ---------------------------------------------------------------------- cards


def test_discards_commoners_first_then_criminals_before_the_crime_is_named():
    state = new(deal=make_deal(5, {0: "THF JUD ADD SUB COM"}))
    assert state.phase == "draw" and state.pending() == (0,)
    assert choose(state) == "discard COM"
    state = new(deal=make_deal(5, {0: "THF JUD ADD SUB MUL"}))
    assert choose(state) == "discard THF"
    state = new(deal=make_deal(5, {0: "JUD ADD SUB MUL DIV"}))
    assert choose(state) == "discard ADD"  # plus and times are the least wanted offices


def test_the_captor_throws_the_criminal_card_away_and_a_holder_keeps_it():
    state = new(deal=usual(s2="WANG THF"))
    act(state, 0, "name THF")
    turn(state)  # seat 0
    act(state, 2, "wait")
    turn(state)  # seat 1
    act(state, 2, "wait")
    assert state.pending() == (2,) and choose(state) == "discard THF"
    act(state, 2, "discard THF")
    act(state, 2, "wait")
    assert state.pending() == (3,) and choose(state) == "discard COM"


def test_the_emperor_names_a_criminal_card_it_does_not_hold():
    state = new(deal=usual(s0="EMP THF ROB MUR", s3="COM"))
    assert choose(state, 0) == "name PKP"


# ---------------------------------------------------------------------- appointments


def test_appointments_follow_the_cards_else_the_appointer_takes_the_office():
    state = new(deal=make_deal(5, {0: "EMP", 2: "WANG"}))  # nobody holds a judge card
    act(state, 0, "name ROB")
    assert choose(state, 0) == "appoint 0"
    state = new(deal=make_deal(5, {0: "EMP", 1: "JUD", 3: "JUD", 2: "WANG"}))
    act(state, 0, "name ROB")
    assert choose(state, 0) == "appoint 1"
    state = new(deal=make_deal(5, {0: "EMP", 1: "JUD MA", 3: "WANG"}))
    act(state, 0, "name ROB")
    assert state.view(1)["appointing"]["choices"] == [1, 3]
    assert choose(state, 1) == "appoint 3"  # the judge would rather not hunt too


def test_the_accused_is_not_put_on_its_own_trial_unless_it_appoints():
    state = new(deal=usual(s3="THF ADD"))  # seats 3 and 4 hold a plus card
    act(state, 0, "name THF")
    turn(state)
    act(state, 2, "guess 3 holds")
    assert state.view(0)["appointing"]["holders"] == [3, 4]
    assert choose(state, 0) == "appoint 4"
    state = new(deal=usual(s0="EMP SEV THF", s3="COM", s1="JUD ADD"))  # the emperor is caught
    act(state, 0, "name THF")
    turn(state)
    act(state, 2, "guess 0 holds")
    assert state.accused == 0 and choose(state, 0) == "appoint 0"


# ---------------------------------------------------------------------- the sentence


def test_bystanders_keep_the_count_near_five_and_the_accused_makes_it_small():
    state = new(deal=usual(s3="THF SUB", s4="ADD MUL DIV"))  # the accused is the minus officer
    act(state, 0, "name THF")
    turn(state)
    act(state, 2, "guess 3 holds")
    assert choose(state).endswith(" 5")  # the judge's count
    act(state, 1, 'punish "dance" 8')
    assert choose(state) == "plus 0"
    act(state, 4, "plus 0")
    assert state.pending() == (3,) and choose(state) == "minus 8"  # down to 0
    act(state, 3, "minus 1")
    assert choose(state) == "times 1"  # 7, nearer 5 than 0
    act(state, 4, "times 1")
    assert choose(state) == "divide 1"  # 7 // 1 = 7 is nearer 5 than 7 // 2 = 3
    act(state, 4, "divide 1")
    assert choose(state, 0) == "heavy"  # a criminal caught


def test_a_captor_that_failed_gets_a_light_sentence_and_an_emperor_pardons_itself():
    state = new(deal=usual(s0="EMP SEV THF", s3="COM"))
    act(state, 0, "name THF")
    turn(state)
    act(state, 2, "guess 0 holds")
    play(state, "verdict")  # the emperor is also the severity officer: lenient with itself
    assert state.severity == "light" and choose(state) == "pardon"
    state = new(deal=usual(s3="THF THF"))  # seat 3 holds both copies and keeps them
    act(state, 0, "name THF")
    while state.accused is None:  # the captor misses on seat 4, once a round
        if state.phase == "guess":
            once = not state.view(2)["capture"]["guessed_this_round"]
            act(state, 2, "guess 4 holds" if once else "wait")
        else:
            act(state, state.pending()[0], choose(state))
    assert state.accused == 2 and state.reason == "escaped"
    play(state, "verdict")
    assert state.severity == "light" and choose(state) == "execute"


# ---------------------------------------------------------------------- the captor


def test_a_captor_holding_both_copies_has_nobody_to_find_and_waits():
    state = new(deal=usual(s2="WANG THF THF", s3="COM"))
    act(state, 0, "name THF")
    turn(state)
    chances = hit_chances(state.view(2), track(state.view(2)))
    assert set(chances.values()) == {0.0}
    assert choose(state) == "wait"


def test_the_captor_does_not_guess_a_seat_again_before_trying_the_others():
    state = new(deal=usual())
    act(state, 0, "name THF")
    seats = []
    while state.accused is None:
        seat = state.pending()[0]
        text = choose(state, seat)
        if text.startswith("guess"):
            seats.append(int(text.split()[1]))
        act(state, seat, text)
    assert state.accused == 3 and state.reason == "caught"  # seat 3 kept its card
    assert len(seats) == len(set(seats)) <= 4


def test_the_captor_follows_its_own_discarded_copy_back_into_a_small_pile():
    """Fifty seats hold one card each and the pile is four cards. The captor (seat 2) draws a
    Theft card and must discard it on its next turn; the discards soon become a pile of five,
    drawn by seats 4 to 8: its next guess is one of them."""
    fixed = {0: "EMP", 1: "JUD", 2: "WANG", 3: "COM", 4: "COM", 5: "THF"}
    state = new(50, deal=make_deal(50, fixed, top="COM COM THF COM"))
    act(state, 0, "name THF")
    thrown = False
    while not thrown:
        seat = state.pending()[0]
        act(state, seat, choose(state, seat))
        thrown = any(t["discarded"] == "THF" for t in state.view(2)["my_turns"])
    while (text := choose(state)) == "wait" or state.phase != "guess":
        act(state, state.pending()[0], text)
    assert state.view(2)["turns"] >= 59  # all five cards of that pile have been drawn
    assert int(text.split()[1]) in range(4, 9), text
    assert any(state.hands[s][4] for s in range(4, 9))  # and it is there
