"""Baohuang rules, one behaviour per test, on explicit deals."""

import random
from fractions import Fraction

import pytest

from tests.games.baohuang.helpers import (
    act,
    answer_all,
    make_deal,
    new,
    pass_until_lead,
)
from tests.games.helpers import play_random
from yamen.errors import IllegalAction, NotationError, NotYourTurn, OptionsError
from yamen.games.baohuang.kinds import BJ_MARKED, SJ_MARKED
from yamen.games.baohuang.opening import copies
from yamen.games.baohuang.sets import decode

# ---------------------------------------------------------------- dealing


def test_shandong_deal_marked_joker_holder_has_44_and_the_first_right():
    state = new(seed=3, grabbing=False)
    holder = next(s for s in range(5) if state.hands[s][BJ_MARKED])
    assert state.sizes[holder] == 44
    assert sorted(state.sizes) == [43, 43, 43, 43, 44]
    assert state.pending() == (holder,)
    assert state.phase == "call"


def test_japanese_deal_34_34_34_33_33_from_the_seat_after_the_cutter():
    """Seed 003: the dealer's next seat cuts, the first card goes to the seat after it."""
    state = new("japanese", seed=5)
    d = state.dealer
    assert [state.sizes[(d + i) % 5] for i in range(2, 7)] == [34, 34, 34, 33, 33]
    assert sum(state.hands[s][SJ_MARKED] for s in range(5)) == 1
    assert state.pending() == (next(s for s in range(5) if state.hands[s][BJ_MARKED]),)


def test_japanese_deck_has_no_3_4_5():
    state = new("japanese", seed=2)
    for hand in state.hands:
        assert not any(hand[:12])  # kinds 0..11 are the 3s, 4s and 5s


def test_explicit_deal_must_be_the_whole_deck():
    deal = make_deal("shandong", {0: "BJ* 9H 9H 9H"})
    new(deal=deal)  # fine
    broken = [deal[0] + " 9H"] + deal[1:]
    with pytest.raises(OptionsError, match="not exactly the deck"):
        new(deal=broken)
    with pytest.raises(OptionsError, match="bad token"):
        new(deal=["9Q"] + deal[1:])


def test_unknown_options_are_refused():
    with pytest.raises(OptionsError):
        new(colour="red")
    with pytest.raises(OptionsError):
        new("mahjong")
    with pytest.raises(OptionsError):
        new(deals=0)


# ---------------------------------------------------------------- calling (shandong)


def shandong_deal(**extra):
    # seat 0 holds the marked joker and three 9H; seat 3 the fourth 9H; seat 1 four QS.
    fixed = {0: "BJ* 9H 9H 9H", 3: "9H", 1: "QS QS QS QS"}
    fixed.update(extra)
    return make_deal("shandong", fixed)


def test_grab_window_asks_every_other_seat_and_earliest_clockwise_wins():
    state = new(deal=shandong_deal())
    assert set(state.pending()) == {1, 2, 3, 4}
    act(state, 1, "grab")
    act(state, 2, "pass")
    act(state, 3, "pass")
    assert state.phase == "grab"  # sealed until all have answered
    act(state, 4, "grab")
    # clockwise from seat 0 is 4, 3, 2, 1: seat 4 wins
    assert state.emperor == 4 and state.grabbed
    assert state.hands[4][BJ_MARKED] == 1 and state.hands[0][BJ_MARKED] == 0
    assert state.phase == "play" and state.pending() == (4,)


def test_calling_offers_exactly_the_cards_held_three_or_four_times():
    state = new(deal=shandong_deal(), grabbing=False)
    legal = {state.action_text(a) for a in state.legal(0)}
    calls = {t for t in legal if t.startswith("call")}
    assert "call 9H" in calls
    assert all(copies(state, 0, state.parse_action(0, t) - 8) >= 3 for t in calls)
    assert {"yield"} <= legal and "grab" not in legal


def test_call_makes_the_fourth_copy_holder_royalist_and_asks_everyone():
    state = new(deal=shandong_deal(), grabbing=False)
    act(state, 0, "call 9H")
    assert state.emperor == 0 and state.partner == 3 and not state.solo
    assert state.phase == "declare" and set(state.pending()) == {0, 1, 2, 3, 4}
    for seat in (0, 1, 2, 4):
        assert [state.action_text(a) for a in state.legal(seat)] == ["pass"]
    assert [state.action_text(a) for a in state.legal(3)] == ["pass", "declare"]
    with pytest.raises(IllegalAction):
        act(state, 1, "declare")


def test_calling_a_card_held_four_times_is_solo():
    deal = make_deal("shandong", {2: "BJ* QS QS QS QS"})
    state = new(deal=deal, grabbing=False)
    act(state, 2, "call QS")
    assert state.solo and state.partner is None
    assert [state.action_text(a) for a in state.legal(2)] == ["pass", "declare"]


def test_yield_moves_the_marked_joker_clockwise():
    state = new(deal=shandong_deal(), grabbing=False)
    act(state, 0, "yield")
    assert state.hands[4][BJ_MARKED] == 1 and state.sizes[4] == 44 and state.sizes[0] == 43
    assert state.pending() == (4,)


def test_five_yields_force_the_first_seat_clockwise_with_exactly_three():
    state = new(deal=shandong_deal(), grabbing=False)
    for seat in (0, 4, 3, 2, 1):
        act(state, seat, "yield")
    assert state.phase == "force"
    forced = state.pending()[0]
    # seat 0 (the first holder) holds exactly three 9H, so it is forced
    assert forced == 0
    legal = [state.action_text(a) for a in state.legal(0)]
    assert "call 9H" in legal and all(t.startswith("call") for t in legal)


def test_void_deal_when_nobody_has_exactly_three():
    # every seat holds each natural kind 0, 1, 2 or 4 times: give seat s all copies of kinds
    deck = [f"{r}{s}" for r in "3456789TJQKA2" for s in "SHDC"]
    hands = [[] for _ in range(5)]
    for i, card in enumerate(deck):
        hands[i % 5] += [card] * 4
    hands[0] += ["SJ"] * 4
    hands[1] += ["BJ"] * 3 + ["BJ*"]
    state = new(deal=[" ".join(h) for h in hands], grabbing=False)
    for seat in (1, 0, 4, 3, 2):
        act(state, seat, "yield")
    # nobody holds exactly three identical cards: a new deal, still deal 1
    assert state.deal_no == 1 and state.phase == "call"
    assert sorted(state.sizes) == [43, 43, 43, 43, 44]


def test_holder_may_grab_instead_of_calling():
    state = new(deal=shandong_deal())
    answer_all(state)
    act(state, 0, "grab")
    assert state.grabbed and state.emperor == 0 and state.phase == "play"


# ---------------------------------------------------------------- emperor card (japanese)


def japanese_deal(fixed):
    return make_deal("japanese", fixed)


def test_japanese_hand_on_and_back_round_must_keep():
    state = new("japanese", deal=japanese_deal({1: "BJ*", 3: "SJ*"}))
    assert state.pending() == (1,)
    for seat in (1, 2, 3, 4, 0):
        act(state, seat, "hand on")
    assert state.pending() == (1,)
    assert [state.action_text(a) for a in state.legal(1)] == ["keep"]
    act(state, 1, "keep")
    assert state.emperor == 1 and state.partner == 3 and not state.solo


def test_japanese_both_marked_cards_solo_or_hand_on_and_be_guard():
    state = new("japanese", deal=japanese_deal({2: "BJ* SJ*"}))
    act(state, 2, "keep")
    assert state.solo and state.partner is None
    assert [state.action_text(a) for a in state.legal(2)] == ["pass", "declare"]
    state = new("japanese", deal=japanese_deal({2: "BJ* SJ*"}))
    act(state, 2, "hand on")
    act(state, 3, "keep")
    assert state.emperor == 3 and state.partner == 2


def test_japanese_rebellion_only_for_commoners_and_public():
    state = new("japanese", deal=japanese_deal({1: "BJ*", 3: "SJ*"}))
    act(state, 1, "keep")
    assert [state.action_text(a) for a in state.legal(3)] == ["pass"]  # the guard
    assert [state.action_text(a) for a in state.legal(0)] == ["pass", "rebel"]
    answer_all(state, {0: "rebel", 4: "rebel"})
    assert state.rebels == [0, 4]
    assert state.view(2)["roles"] == {"0": "commoner", "1": "emperor", "4": "commoner"}


# ---------------------------------------------------------------- play


def play_state(variant="shandong", fixed=None, sizes=None, **options):
    fixed = fixed or {0: "BJ* 9H 9H 9H", 3: "9H"}
    deal = make_deal(variant, fixed, sizes)
    state = new(variant, deal=deal, grabbing=False, **options)
    if variant == "shandong":
        act(state, 0, "call 9H")
    else:
        act(state, state.pending()[0], "keep")
    answer_all(state)
    return state


def test_emperor_leads_and_leads_need_no_pass():
    state = play_state()
    assert state.pending() == (0,)
    legal = [state.action_text(a) for a in state.legal(0)]
    assert "pass" not in legal and "yield" not in legal


def test_pass_holds_only_against_the_current_set():
    state = play_state(fixed={0: "BJ* 9H 9H 9H 3S", 3: "9H", 1: "4S 5S", 2: "6S"})
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "6")
    # seat 1 passed on the 3 but may beat the 6
    for seat in (3, 4, 0):
        act(state, seat, "pass")
    assert state.pending() == (1,)
    assert "pass" in [state.action_text(a) for a in state.legal(1)]


def test_nobody_beats_the_owner_leads_again():
    state = play_state()
    act(state, 0, "BJ")
    for seat in (1, 2, 3, 4):
        act(state, seat, "pass")
    assert state.pending() == (0,) and state.table is None


def test_yielders_get_a_second_circle_only_if_nobody_beat():
    state = play_state(fixed={0: "BJ* 9H 9H 9H 3S", 3: "9H", 2: "KS", 4: "AS"})
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "yield")
    act(state, 3, "pass")
    act(state, 4, "yield")
    assert state.stage == 2 and state.pending() == (2,)
    assert "yield" not in [state.action_text(a) for a in state.legal(2)]
    act(state, 2, "pass")
    act(state, 4, "pass")
    assert state.pending() == (0,) and state.table is None  # 扣牌


def test_a_beat_in_the_first_circle_cancels_the_second():
    state = play_state(fixed={0: "BJ* 9H 9H 9H 3S", 3: "9H", 2: "KS", 4: "AS"})
    act(state, 0, "3")
    act(state, 1, "yield")
    act(state, 2, "KS")
    assert state.stage == 1 and state.yielders == [] and state.owner == 2
    assert state.pending() == (3,)


def test_claim_after_a_seat_goes_out_edition_1_any_seat():
    """Edition 1 (records before issue 16): any seat answering in the first circle claims."""
    # seat 0 (emperor) holds only BJ* and three 9H; the royalist (seat 3) the fourth 9H
    sizes = [4, 60, 60, 52, 40]
    state = play_state(fixed={0: "BJ* 9H 9H 9H", 3: "9H"}, sizes=sizes, edition=1)
    act(state, 0, "BJ 9H 9H 9H")
    assert state.out == [0]
    assert "claim" in [state.action_text(a) for a in state.legal(1)]
    act(state, 1, "pass")
    act(state, 2, "claim")
    assert "claim" not in [state.action_text(a) for a in state.legal(3)]
    act(state, 3, "pass")
    act(state, 4, "pass")
    assert state.pending() == (2,) and state.table is None


def emperor_goes_out_with_a_pair_of_threes():
    fixed = {0: "BJ* 9H 9H 9H 3S 3S", 3: "9H", 2: "4S 4S"}
    state = play_state(fixed=fixed, sizes=[6, 60, 60, 50, 40])
    act(state, 0, "BJ 9H 9H 9H")
    pass_until_lead(state)
    act(state, 0, "3 3")
    assert state.out == [0]
    return state


def test_without_a_claim_the_next_seat_still_in_leads():
    state = emperor_goes_out_with_a_pair_of_threes()
    for seat in (1, 2, 3, 4):
        act(state, seat, "pass")
    assert state.pending() == (1,) and state.table is None


def test_claim_fails_when_someone_beats():
    state = emperor_goes_out_with_a_pair_of_threes()
    act(state, 1, "claim")
    act(state, 2, "4 4")
    assert state.claimant is None and state.owner == 2
    for seat in (3, 4, 1):
        act(state, seat, "pass")
    assert state.pending() == (2,)  # the beater leads, not the claimant


def test_japanese_soft_pass_and_no_single_with_jokers():
    state = play_state("japanese", fixed={0: "BJ* SJ* 9S", 1: "SJ"})
    legal = [state.action_text(a) for a in state.legal(0)]
    assert "9" in legal and "BJ" in legal and "BJ SJ*" in legal
    shapes = [decode(a) for a in state.legal(0)]
    assert not any(n == 1 and x + y for r, n, x, y, t in shapes)  # no single natural + jokers
    with pytest.raises(IllegalAction):
        act(state, 0, "SJ* 9")


def test_japanese_no_yield_and_no_claim():
    state = play_state("japanese", fixed={0: "BJ* 6S", 1: "SJ*"})
    act(state, 0, "BJ")
    legal = [state.action_text(a) for a in state.legal(1)]
    assert "yield" not in legal and "claim" not in legal and legal == ["pass"]


# ---------------------------------------------------------------- telling cards


def test_playing_the_called_card_unmasks_the_royalist_and_is_a_choice():
    state = play_state(fixed={0: "BJ* 9H 9H 9H 3S", 3: "9H 9S"})
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "pass")
    legal = [state.action_text(a) for a in state.legal(3)]
    assert "9" in legal and "9H" in legal  # plain nine or the called nine
    act(state, 3, "9")
    assert "3" not in state.view(None)["roles"]
    assert state.hands[3][state.tell_kind] == 1  # the called card stayed in hand


def test_playing_the_called_card_reveals():
    state = play_state(fixed={0: "BJ* 9H 9H 9H 3S", 3: "9H 9S"})
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "pass")
    act(state, 3, "9H")
    assert state.view(None)["roles"]["3"] == "royalist"
    assert state.view(None)["table"]["cards"] == ["9H"]


def test_japanese_guard_unmasked_by_the_marked_small_joker():
    state = play_state("japanese", fixed={0: "BJ* 6S", 2: "SJ* SJ"})
    act(state, 0, "6")
    act(state, 1, "pass")
    legal = [state.action_text(a) for a in state.legal(2)]
    assert "SJ" in legal and "SJ*" in legal
    act(state, 2, "SJ*")
    assert state.view(4)["roles"]["2"] == "guard"


# ---------------------------------------------------------------- refusals


def test_out_of_turn_and_illegal_actions_change_nothing():
    state = play_state()
    before = [state.view(s) for s in (None, 0, 1, 2, 3, 4)]
    with pytest.raises(NotYourTurn):
        act(state, 2, "pass")
    with pytest.raises(IllegalAction):
        act(state, 0, "pass")
    with pytest.raises(IllegalAction):
        act(state, 0, "2 2 2 2 2")  # not held
    with pytest.raises(IllegalAction):
        state.apply(0, 10**9)
    with pytest.raises(NotationError):
        act(state, 0, "9 T")
    assert [state.view(s) for s in (None, 0, 1, 2, 3, 4)] == before


def test_errors_do_not_name_hidden_cards():
    state = play_state()
    with pytest.raises(IllegalAction) as info:
        act(state, 0, "2S 2S 2S 2S 2S")
    assert "seat 3" not in str(info.value) and "9H" not in str(info.value)


def test_a_called_joker_unmasks_the_royalist_by_colour():
    state = new(deal=make_deal("shandong", {0: "BJ* SJ SJ SJ 3S", 3: "SJ"}), grabbing=False)
    act(state, 0, "call SJ")
    assert state.partner == 3 and state.tell_kind == -1
    answer_all(state)
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "pass")
    act(state, 3, "SJ")
    assert state.view(None)["roles"]["3"] == "royalist"


def test_forcing_leaves_the_marked_joker_with_its_holder():
    state = new(deal=shandong_deal(), grabbing=False)
    for seat in (0, 4, 3, 2, 1):
        act(state, seat, "yield")
    holder = next(s for s in range(5) if state.hands[s][BJ_MARKED])
    act(state, state.pending()[0], "call 9H")
    assert state.hands[holder][BJ_MARKED] == 1 and state.phase == "declare"


def test_declared_solo_is_public_and_doubles():
    deal = make_deal("shandong", {2: "BJ* QS QS QS QS"})
    state = new(deal=deal, grabbing=False)
    act(state, 2, "call QS")
    answer_all(state, {2: "declare"})
    assert state.view(0)["roles"] == {"2": "solo emperor"}
    play_random(state, random.Random(4))
    deal_summary = state.result().details["deals"][0]
    assert deal_summary["declared"] and deal_summary["partner"] is None
    emperor_score = Fraction(deal_summary["scores"][2])
    place = deal_summary["places"].index(2)
    assert emperor_score == 2 * (16, 4, 0, -4, -16)[place]


def test_japanese_solo_emperor_unmasked_by_the_guard_card():
    state = play_state("japanese", fixed={0: "BJ* SJ* 6S"})
    assert state.solo
    act(state, 0, "SJ*")
    assert state.view(1)["roles"]["0"] == "solo emperor"
