"""Bao Qing-tian trial rules, one behaviour per test, on explicit deals."""

from fractions import Fraction

import pytest

from tests.games.bao_qingtian.test_support import act, in_play, make_deal, new, texts, turn
from yamen.errors import IllegalAction, NotationError, NotYourTurn, OptionsError
from yamen.games.bao_qingtian.cards import cards_each

# The usual table: five seats, seat 0 deals first and holds an emperor (and the severity card),
# 1 the judge, 2 Wang (the only captor card held), 3 a Theft card, 4 the four number officers.
# Everything else is in the draw pile: ten commoners on top.
USUAL = {0: "EMP SEV", 1: "JUD", 2: "WANG", 3: "THF", 4: "ADD SUB MUL DIV"}


def usual(top: str = "", **fixed) -> dict:
    return make_deal(5, {**USUAL, **{int(s[1:]): c for s, c in fixed.items()}}, top)


def to_capture(state, criminal: str = "THF"):
    act(state, state.emperor, f"name {criminal}")
    assert state.phase == "capture", state.phase


# ---------------------------------------------------------------- options and deal


def test_deal_sizes_follow_the_formula_for_every_table_size():
    seed_table = {3: 7, 4: 6, 5: 5, 7: 3}
    for players in range(3, 51):
        k = cards_each(players)
        assert k == max(1, max(k for k in range(8) if players * k <= 25))
        if players in seed_table:
            assert k == seed_table[players]
        state = new(players, seed=players)
        assert all(sum(hand) == k for hand in state.hands)
        assert len(state.pile) == 54 - players * k and not state.discards
        assert in_play(state) == in_play(new(players, seed=players + 100))  # the whole deck
    assert cards_each(26) == cards_each(50) == 1  # large groups: one card each


def test_first_seat_is_drawn_from_the_seed():
    firsts = {new(5, seed=s).first for s in range(40)}
    assert firsts == {0, 1, 2, 3, 4}
    assert new(5, seed=7).first == new(5, seed=7).first
    state = new(5, seed=3)
    assert state.view(None)["first"] == state.first


def test_options_are_checked():
    for bad in ({"players": 2}, {"players": 51}, {"players": "5"}, {"players": True}):
        with pytest.raises(OptionsError, match="players"):
            new(**bad)
    with pytest.raises(OptionsError, match="unknown"):
        new(colour="red")
    with pytest.raises(OptionsError, match="find_by_drawing"):
        new(find_by_drawing="yes")
    assert new().options == {"players": 5, "find_by_drawing": False}


def test_explicit_deals_are_checked():
    deal = usual()
    new(deal=deal)
    with pytest.raises(OptionsError, match="hand 0 has 6 cards"):
        new(deal={**deal, "hands": [deal["hands"][0] + " COM", *deal["hands"][1:]]})
    with pytest.raises(OptionsError, match="bad token 'XYZ'"):
        new(deal={**deal, "pile": "XYZ"})
    with pytest.raises(OptionsError, match="missing"):
        new(deal={**deal, "pile": deal["pile"].rsplit(" ", 1)[0]})
    with pytest.raises(OptionsError, match="more cards than the deck"):
        new(deal={"hands": ["EMP EMP EMP COM COM"] + deal["hands"][1:]})
    with pytest.raises(OptionsError, match="first"):
        new(deal={**deal, "first": 5})
    with pytest.raises(OptionsError, match="unknown key"):
        new(deal={**deal, "dealer": 0})
    # without a pile, the rest of the deck comes from the seed
    state = new(deal={"hands": deal["hands"]}, seed=4)
    assert sorted(state.pile) == sorted(new(deal=deal).pile)


# ---------------------------------------------------------------- finding the emperor


def test_an_emperor_dealt_means_no_discard_rounds():
    state = new(deal=usual())
    assert state.emperor == 0 and state.phase == "name" and state.pending() == (0,)
    assert state.turns == 0
    assert texts(state, 0) == ["name THF", "name ROB", "name MUR", "name PKP"]


def test_two_emperor_holders_the_first_in_turn_order_is_emperor():
    deal = make_deal(5, {0: "EMP", 4: "EMP"}, first=2)  # turn order 2 3 4 0 1
    assert new(deal=deal).emperor == 4
    deal = make_deal(5, {0: "EMP", 4: "EMP"}, first=0)
    assert new(deal=deal).emperor == 0
    assert new(deal=make_deal(5, {3: "EMP EMP"}, first=4)).emperor == 3


def test_discard_and_draw_until_someone_holds_an_emperor():
    deal = make_deal(5, {1: "JUD THF"}, top="COM COM EMP", first=1)
    state = new(deal=deal)
    assert state.phase == "draw" and state.view(None)["seeking"] == "emperor"
    assert state.pending() == (1,)
    assert texts(state, 1) == ["discard JUD", "discard THF", "discard COM"]
    act(state, 1, "discard JUD")  # a real choice of card
    assert state.hands[1][1] == 0 and state.view(1)["my_turns"] == [
        {"discarded": "JUD", "drew": "COM"}
    ]
    assert turn(state) == 2
    assert state.emperor is None and state.pending() == (3,)
    assert turn(state) == 3  # draws the emperor: checked at once, mid-round
    assert state.emperor == 3 and state.phase == "name" and state.pending() == (3,)
    assert len(state.discards) == 3 and state.turn == 4
    assert in_play(state) == in_play(new(deal=deal))


def test_an_empty_draw_pile_is_refilled_from_the_shuffled_discards():
    # 50 seats, one card each: four cards in the pile; the last seat holds Ma
    fixed = {0: "EMP", 1: "JUD", 2: "WANG"}
    state = new(50, deal=make_deal(50, fixed, top="EMP JUD WANG MA"))
    whole = in_play(state)
    act(state, 0, "name THF")
    assert state.view(1)["appointing"]["choices"] == [2, 49]
    act(state, 1, "appoint 2")
    for _ in range(4):
        turn(state, ["EMP", "JUD", "WANG", "COM"][state.turn])
        act(state, 2, "wait")
    assert not state.pile and len(state.discards) == 4 and state.refills == 0
    events = act(state, 4, "discard COM")
    assert [e.kind for e in events][:2] == ["refill", "turn"]
    assert state.refills == 1 and len(state.pile) == 4 and not state.discards
    assert in_play(state) == whole


# ---------------------------------------------------------------- offices


def test_single_holders_take_their_offices_at_once():
    state = new(deal=usual())
    act(state, 0, "name THF")
    assert state.offices == {"judge": 1, "captor": 2}
    assert state.how == {"judge": "holder", "captor": "holder"}
    assert state.view(None)["criminal"] == "THF"


def test_several_judge_holders_the_emperor_appoints_any_seat():
    state = new(deal=make_deal(5, {0: "EMP", 1: "JUD", 3: "JUD", 2: "WANG"}))
    act(state, 0, "name ROB")
    assert state.phase == "appoint" and state.pending() == (0,)
    assert state.view(4)["appointing"] == {
        "office": "judge",
        "by": 0,
        "holders": [1, 3],
        "choices": None,
    }
    assert texts(state, 0) == [f"appoint {s}" for s in range(5)]
    act(state, 0, "appoint 4")
    assert state.offices["judge"] == 4 and state.how["judge"] == "appointed"
    assert state.offices["captor"] == 2  # the captor is then found as usual


def test_no_judge_holder_the_emperor_may_appoint_itself():
    state = new(deal=make_deal(5, {0: "EMP", 2: "WANG"}))
    act(state, 0, "name ROB")
    assert state.view(None)["appointing"]["holders"] == []
    act(state, 0, "appoint 0")
    assert state.offices == {"judge": 0, "captor": 2}


def test_wang_and_ma_with_two_seats_the_judge_picks_one_of_them():
    state = new(deal=make_deal(5, {0: "EMP", 1: "JUD", 2: "WANG", 3: "MA"}))
    act(state, 0, "name ROB")
    assert state.pending() == (1,) and state.view(1)["appointing"]["choices"] == [2, 3]
    assert texts(state, 1) == ["appoint 2", "appoint 3"]
    with pytest.raises(IllegalAction):
        act(state, 1, "appoint 4")
    act(state, 1, "appoint 3")
    assert state.offices["captor"] == 3 and state.phase == "capture"


def test_two_wang_holders_or_none_the_judge_appoints_any_seat():
    for fixed in ({2: "WANG", 3: "WANG", 4: "MA"}, {}):
        state = new(deal=make_deal(5, {0: "EMP", 1: "JUD", **fixed}))
        act(state, 0, "name ROB")
        assert state.pending() == (1,) and state.view(1)["appointing"]["choices"] is None
        assert len(state.legal(1)) == 5
        act(state, 1, "appoint 1")  # the judge may make itself captor
        assert state.offices["captor"] == 1


def test_wang_and_ma_in_one_hand_make_that_seat_captor():
    state = new(deal=make_deal(5, {0: "EMP", 1: "JUD", 2: "WANG MA"}))
    act(state, 0, "name ROB")
    assert state.offices["captor"] == 2 and state.how["captor"] == "holder"


def test_find_by_drawing_draws_until_someone_holds_the_judge():
    deal = make_deal(5, {0: "EMP", 2: "WANG"}, top="COM JUD")
    state = new(deal=deal, find_by_drawing=True)
    act(state, 0, "name MUR")
    assert state.phase == "draw" and state.view(None)["seeking"] == "judge"
    assert state.pending() == (0,)  # turns go on from whose turn it is
    turn(state)
    assert state.pending() == (1,)
    turn(state)
    assert state.offices == {"judge": 1, "captor": 2} and state.how["judge"] == "drawn"
    assert state.phase == "capture" and state.pending() == (2,)


def test_officers_from_holders_appointment_and_drawing():
    # seat 4 holds ADD SUB MUL DIV, seat 0 SEV; nobody holds EXE: the emperor appoints
    state = new(deal=usual())
    to_capture(state)
    turn(state)
    act(state, 2, "guess 3 holds")
    assert state.accused == 3 and state.reason == "caught"
    assert {o: state.offices[o] for o in ("plus", "minus", "times", "divide")} == dict.fromkeys(
        ("plus", "minus", "times", "divide"), 4
    )
    assert state.offices["severity"] == 0 and state.phase == "punish"
    # two plus holders: the emperor appoints any seat
    state = new(deal=usual(s1="JUD ADD"))
    to_capture(state)
    turn(state)
    act(state, 2, "guess 3 holds")
    assert state.phase == "appoint" and state.view(None)["appointing"]["office"] == "plus"
    assert state.view(None)["appointing"]["holders"] == [1, 4] and state.pending() == (0,)
    act(state, 0, "appoint 3")  # even the accused
    assert state.offices["plus"] == 3 and state.phase == "punish"
    # find_by_drawing: nobody holds the executor card, turns go on until someone draws it
    state = new(deal=usual(top="COM EXE"), find_by_drawing=True)
    to_capture(state)
    turn(state)
    act(state, 2, "guess 3 holds")
    sentence(state, 'punish "dance" 2', "plus 0", "minus 0", "times 1", "divide 1", "light")
    assert state.phase == "draw" and state.view(None)["seeking"] == "executor"
    assert state.pending() == (1,)
    turn(state)
    assert state.offices["executor"] == 1 and state.how["executor"] == "drawn"
    assert state.phase == "verdict" and state.pending() == (0,)


# ---------------------------------------------------------------- capture


def test_capture_turns_alternate_with_the_captors_decision():
    state = new(deal=usual())
    to_capture(state)
    view = state.view(None)["capture"]
    assert view["round"] == 1 and view["guesses_left"] == 10 and view["captor"] == 2
    assert state.pending() == (0,)
    turn(state)
    assert state.phase == "guess" and state.pending() == (2,)
    legal = texts(state, 2)
    assert legal[:3] == ["wait", "guess 0 discarded", "guess 0 drew"]
    assert legal[3:] == ["guess 0 holds", "guess 1 holds", "guess 3 holds", "guess 4 holds"]
    act(state, 2, "wait")
    assert state.phase == "capture" and state.pending() == (1,)


def test_the_captor_never_names_itself():
    state = new(deal=usual())
    to_capture(state)
    for _ in range(2):
        turn(state)
        act(state, 2, "wait")
    turn(state)  # the captor's own turn: no discarded/drew guess
    assert texts(state, 2) == ["wait"] + [f"guess {s} holds" for s in (0, 1, 3, 4)]
    with pytest.raises(IllegalAction):
        act(state, 2, "guess 2 holds")
    with pytest.raises(IllegalAction):
        act(state, 2, "guess 1 drew")  # only the seat that just took its turn


def test_caught_holding():
    state = new(deal=usual())
    to_capture(state)
    turn(state)
    events = act(state, 2, "guess 3 holds")
    guess = next(e for e in events if e.kind == "guess")
    assert guess.to is None and guess.data == {
        "captor": 2,
        "seat": 3,
        "form": "holds",
        "hit": True,
        "left": 9,
    }
    assert state.accused == 3 and state.reason == "caught"


def test_caught_discarding_and_caught_drawing():
    state = new(deal=usual())
    to_capture(state)
    for _ in range(3):
        turn(state)
        act(state, state.pending()[0], "wait")
    act(state, 3, "discard THF")
    act(state, 2, "guess 3 discarded")
    assert state.accused == 3 and state.guesses[-1]["form"] == "discarded"

    state = new(deal=usual(top="PKP THF"))  # seat 0 draws the pickpocket, seat 1 the theft
    to_capture(state)
    turn(state)
    act(state, 2, "guess 0 drew")  # a miss: seat 0 drew the pickpocket
    assert state.accused is None and state.guesses[-1]["hit"] is False
    turn(state)
    act(state, 2, "guess 1 drew")
    assert state.accused == 1 and state.reason == "caught"


def test_either_copy_of_the_criminal_card_counts():
    state = new(deal=usual(s1="JUD THF"))  # seats 1 and 3 each hold a Theft card
    to_capture(state)
    turn(state)
    act(state, 2, "guess 1 holds")
    assert state.accused == 1


def test_at_least_one_guess_per_round():
    state = new(deal=usual())
    to_capture(state)
    for _ in range(4):
        turn(state)
        act(state, 2, "wait")
    turn(state)  # the round's last turn, no guess yet: wait is not offered
    assert "wait" not in texts(state, 2)
    with pytest.raises(IllegalAction):
        act(state, 2, "wait")
    act(state, 2, "guess 4 holds")
    assert state.view(None)["capture"]["round"] == 2
    # a guess early in the round frees the captor for the rest of it
    turn(state)
    act(state, 2, "guess 1 holds")
    for _ in range(4):
        turn(state)
        assert "wait" in texts(state, 2)
        act(state, 2, "wait")
    assert state.view(None)["capture"]["round"] == 3


def test_ten_misses_put_the_captor_on_trial_and_the_holders_escape():
    state = new(deal=usual())
    to_capture(state)
    for i in range(10):
        turn(state)
        assert state.view(None)["capture"]["guesses_left"] == 10 - i
        act(state, 2, "guess 1 holds")
    assert state.accused == 2 and state.reason == "escaped"
    assert state.escaped == [3]
    assert state.view(None)["capture"]["guesses_left"] == 0
    finish(state, "pardon")
    result = state.result()
    assert result.winners == (3,) and result.places == (3, 0, 1, 2, 4)
    assert result.details["why"] == "escaped" and result.details["tried"] == 2


def test_a_captor_holding_the_criminal_card_is_no_winner():
    state = new(deal=usual(s2="WANG THF"))
    to_capture(state)
    for _ in range(10):
        turn(state)
        act(state, 2, "guess 1 holds")
    assert state.accused == 2 and state.escaped == [3]


# ---------------------------------------------------------------- sentence and verdict


def sentence(state, *steps):
    """Punish, the four officers and severity, each by whoever holds that office."""
    for text in steps:
        act(state, state.pending()[0], text)


def caught(top: str = "", **fixed):
    state = new(deal=usual(top, **fixed))
    to_capture(state)
    turn(state)
    act(state, 2, "guess 3 holds")
    return state


@pytest.mark.parametrize(
    "judge, plus, minus, times, divide, counts",
    [
        (3, 2, 1, 2, 4, [3, 5, 4, 8, 2]),
        (7, 2, 1, 3, 5, [7, 9, 8, 24, 4]),  # 24 / 5 rounds down
        (3, 0, 9, 5, 1, [3, 3, 0, 0, 0]),  # never below 0
        (10, 10, 0, 10, 3, [10, 20, 20, 200, 66]),
        (1, 0, 0, 0, 1, [1, 1, 1, 0, 0]),
    ],
)
def test_the_sentence_is_built_in_order(judge, plus, minus, times, divide, counts):
    state = caught()
    assert state.pending() == (1,) and state.phase == "punish"
    act(state, 1, f'punish "sing a song" {judge}')
    assert state.phase == "plus" and state.pending() == (4,)
    assert texts(state, 4) == [f"plus {n}" for n in range(11)]
    act(state, 4, f"plus {plus}")
    act(state, 4, f"minus {minus}")
    act(state, 4, f"times {times}")
    assert texts(state, 4) == [f"divide {n}" for n in range(1, 11)]
    act(state, 4, f"divide {divide}")
    assert [step["count"] for step in state.steps] == counts
    assert state.phase == "severity" and state.pending() == (0,)
    assert texts(state, 0) == ["light", "heavy"]


def test_out_of_range_numbers_are_refused():
    state = caught()
    with pytest.raises(IllegalAction):
        state.apply(1, 10_000)
    for text in ('punish "dance" 0', 'punish "dance" 11'):
        with pytest.raises(NotationError, match="bad token"):
            act(state, 1, text)


def finish(state, verdict: str):
    """Sentence, executor and verdict (as the usual table has them) to the end."""
    if state.phase == "punish":
        sentence(state, 'punish "tell a joke" 4', "plus 1", "minus 2", "times 3", "divide 2")
        act(state, 0, "heavy")
    assert state.phase == "appoint" and state.view(None)["appointing"]["office"] == "executor"
    act(state, 0, "appoint 1")
    assert state.phase == "verdict" and texts(state, 0) == ["execute", "pardon"]
    act(state, 0, verdict)


def test_execute_then_the_executor_confirms():
    state = caught()
    finish(state, "execute")
    assert state.phase == "carry out" and state.pending() == (1,)
    assert texts(state, 1) == ["done"]
    assert state.result() is None
    act(state, 1, "done")
    result = state.result()
    assert result.scores == (0, 0, 0, Fraction(-4), 0)  # (4 + 1 - 2) * 3 // 2 = 4
    assert result.winners == (2,) and result.places == (2, 0, 1, 3, 4)
    details = result.details
    assert details["punishment"] == "tell a joke" and details["count"] == 4
    assert details["severity"] == "heavy" and details["verdict"] == "executed"
    assert details["tried"] == 3 and details["why"] == "caught" and details["criminal"] == "THF"
    assert [s["step"] for s in details["sentence"]] == [
        "judge",
        "plus",
        "minus",
        "times",
        "divide",
    ]
    assert details["offices"]["executor"] == 1 and details["how"]["executor"] == "appointed"


def test_pardon_ends_the_game_with_no_punishment():
    state = caught()
    finish(state, "pardon")
    result = state.result()
    assert state.over and result.scores == (0, 0, 0, 0, 0)
    assert result.details["verdict"] == "pardoned" and result.winners == (2,)


def test_an_executor_holder_takes_the_office():
    state = caught(s1="JUD EXE")
    sentence(state, 'punish "dance" 2', "plus 0", "minus 0", "times 1", "divide 1", "light")
    assert state.offices["executor"] == 1 and state.how["executor"] == "holder"
    assert state.phase == "verdict"


def test_a_punishment_in_the_judges_own_words():
    state = caught()
    assert all(t.startswith('punish "') for t in texts(state, 1)) and len(state.legal(1)) == 80
    words = 'recite   a "poem"  背一首詩'
    text = f'punish "{words}" 4'
    action = state.parse_action(1, text)
    assert len(state.legal(1)) == 80  # reading changes nothing: the words are not offered
    with pytest.raises(IllegalAction):
        state.apply(1, action)  # an id alone carries no words
    assert state.check_text(1, text) == 'punish "recite a "poem" 背一首詩" 4'
    assert state.parse_action(1, state.check_text(1, text)) == action
    events = state.apply_text(1, text)
    assert [e.data["punishment"] for e in events if e.kind == "punishment"] == [
        'recite a "poem" 背一首詩'
    ]
    assert state.punishment == 'recite a "poem" 背一首詩' and state.count == 4
    assert state.view(None)["punishment"] == state.punishment
    assert state.draft is None and state.phase == "plus"
    # words matching the catalogue (English or Chinese) are the catalogue entry
    other = caught()
    assert other.parse_action(1, 'punish "唱一首歌" 2') == other.parse_action(
        1, 'punish "Sing A Song" 2'
    )
    assert len(other.legal(1)) == 80


def test_own_words_read_for_another_seat_are_not_written_down():
    state = caught()
    action = state.parse_action(3, 'punish "anything" 2')
    assert len(state.legal(1)) == 80
    with pytest.raises(IllegalAction):
        state.apply(1, action)
    with pytest.raises(NotYourTurn):
        state.apply(3, action)
    with pytest.raises(NotYourTurn):
        state.apply_text(3, 'punish "anything" 2')
    assert len(state.legal(1)) == 80 and state.phase == "punish"


def test_own_words_out_of_the_punishment_are_refused_and_change_nothing():
    state = new(deal=usual())
    seat = state.pending()[0]
    before = [state.view(s) for s in (None, *range(5))]
    for check in (state.check_text, state.apply_text):
        with pytest.raises(IllegalAction, match='punish "anything" 2'):
            check(seat, 'punish "anything" 2')
    assert [state.view(s) for s in (None, *range(5))] == before and state.draft is None


def test_refused_actions_name_no_card_of_another_seat():
    state = new(deal=usual())
    with pytest.raises(NotYourTurn, match="seat 3 has no decision"):
        act(state, 3, "name THF")
    with pytest.raises(NotationError, match="bad token 'EMP'"):
        act(state, 0, "name EMP")
    to_capture(state)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, "discard THF")  # seat 3 holds one: the message does not say so
    assert str(refused.value) == "'discard THF' is not a legal action for you now"
