"""The rules edition and the play-phase house rules (house.py) on explicit deals, and old
records replaying as they were played."""

from pathlib import Path

import pytest

from tests.games.baohuang.helpers import make_deal, new, pass_until_lead
from tests.games.baohuang.test_rules import play_state
from tests.games.helpers import act
from yamen.engine import get_game
from yamen.errors import RecordError
from yamen.games.baohuang.house import EDITION, LEGACY_EDITION
from yamen.options import Option, read_options
from yamen.records import Record, replay

RECORDS = Path(__file__).parent / "records"


def words(state, seat):
    return [state.action_text(a) for a in state.legal(seat)]


# ---------------------------------------------------------------- the rules edition


def test_new_games_take_the_current_edition_and_records_without_one_the_legacy():
    assert get_game("baohuang").options["edition"] == EDITION == 2
    assert get_game("baohuang", {}, stored=True).options["edition"] == LEGACY_EDITION == 1
    record = Record.load(RECORDS / "edition1-shandong-claim.json")
    assert "edition" in record.options and record.options["edition"] == 1


def test_a_legacy_value_is_read_only_for_stored_options():
    declared = [
        Option("x", "whole", 2, "x", low=1, high=2, legacy=1),
        Option("y", "bool", False, "y"),
    ]
    assert read_options(declared, {}) == {"x": 2, "y": False}
    assert read_options(declared, {}, stored=True) == {"x": 1, "y": False}
    assert read_options(declared, {"x": 2}, stored=True) == {"x": 2, "y": False}


def test_the_edition_is_recorded_but_not_offered_in_a_form():
    """Nor is lowest_last, the first reading of 憋六/憋三, kept for the games recorded with
    it (test_lowest_rank.py)."""
    kept = ("edition", "lowest_last")
    for option in get_game("baohuang").declaration:
        assert option.to_json()["shown"] is (option.name not in kept), option.name


@pytest.mark.parametrize("name", ["edition1-shandong-claim.json", "edition1-japanese-deal.json"])
def test_records_written_before_the_edition_replay_exactly(name):
    record = Record.load(RECORDS / name)
    assert record.result is not None
    state = replay(record)  # checks every action and the recorded result
    assert state.over


def test_the_old_records_are_not_games_of_the_current_edition():
    """The fixtures do exercise the change: read as edition 2 they do not replay."""
    for name in ("edition1-shandong-claim.json", "edition1-japanese-deal.json"):
        record = Record.load(RECORDS / name)
        record.options = {**record.options, "edition": 2}
        with pytest.raises(RecordError):
            replay(record)


def finished_seat_0(**options):
    sizes = [4, 60, 60, 52, 40]
    state = play_state(fixed={0: "BJ* 9H 9H 9H", 3: "9H"}, sizes=sizes, **options)
    act(state, 0, "BJ 9H 9H 9H")
    assert state.out == [0]
    return state


def test_edition_2_only_the_finished_seats_next_seat_may_claim():
    state = finished_seat_0()
    assert "claim" in words(state, 1)
    act(state, 1, "pass")
    assert "claim" not in words(state, 2)  # edition 1 offered it here
    for seat in (2, 3, 4):
        act(state, seat, "pass")
    assert state.pending() == (1,) and state.table is None  # the next seat still in leads


def test_edition_2_a_claim_stands_when_everyone_else_passes():
    state = finished_seat_0()
    act(state, 1, "claim")
    for seat in (2, 3, 4):
        assert "claim" not in words(state, seat)
        act(state, seat, "pass")
    assert state.pending() == (1,) and state.table is None


def test_edition_2_the_claimant_is_the_next_seat_still_in_skipping_seats_out():
    # seat 1 goes out first, then seat 0: seat 0's next seat still in is seat 2
    fixed = {0: "BJ* 9H 9H 9H 3S 3S", 3: "9H", 1: "4S"}
    state = play_state(fixed=fixed, sizes=[6, 1, 60, 60, 41])
    act(state, 0, "3 3")
    pass_until_lead(state)
    act(state, 0, "BJ 9H 9H 9H")
    act(state, 1, "pass")
    act(state, 2, "pass")
    act(state, 3, "pass")
    act(state, 4, "pass")
    assert state.out == [0] and state.pending() == (1,)
    act(state, 1, "4S")
    assert state.out == [0, 1]
    pass_until_lead(state)
    assert state.pending() == (2,)


def test_the_168_card_deal_starts_after_the_cutter_in_edition_2():
    """The same shuffle dealt from one seat further on: edition 1 from the dealer's next
    seat, edition 2 from the seat after the cutter (the dealer's next seat cuts)."""
    one = new("japanese", seed=11, edition=1)
    two = new("japanese", seed=11, edition=2)
    d = one.dealer
    assert d == two.dealer
    for i in range(5):
        assert one.hands[(d + 1 + i) % 5] == two.hands[(d + 2 + i) % 5]
    assert [two.sizes[(d + i) % 5] for i in range(2, 7)] == [34, 34, 34, 33, 33]


# ---------------------------------------------------------------- hard pass


def test_soft_pass_a_seat_that_passed_answers_the_next_set():
    state = play_state(fixed={0: "BJ* 9H 9H 9H 3S", 3: "9H", 2: "KS", 4: "AS"})
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "KS")
    assert state.to_ask == [3, 4, 0, 1]


def test_hard_pass_a_seat_that_passed_sits_the_trick_out():
    fixed = {0: "BJ* 9H 9H 9H 3S", 3: "9H", 2: "KS", 4: "AS"}
    state = play_state(fixed=fixed, hard_pass=True)
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "KS")
    assert state.to_ask == [3, 4, 0]  # seat 1 passed: not asked again in this trick
    act(state, 3, "pass")
    act(state, 4, "AS")
    assert state.to_ask == [0, 2]
    act(state, 0, "pass")
    act(state, 2, "pass")
    assert state.pending() == (4,) and state.table is None  # 4 leads the next trick
    act(state, 4, state.action_text(state.legal(4)[0]))
    assert 1 in state.to_ask and 3 in state.to_ask  # a new trick asks everyone again


def test_hard_pass_when_everyone_else_has_passed_the_player_leads_at_once():
    fixed = {0: "BJ* 9H 9H 9H 3S 4S", 3: "9H", 2: "KS", 4: "AS"}
    state = play_state(fixed=fixed, hard_pass=True)
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "KS")
    act(state, 3, "pass")
    act(state, 4, "pass")
    act(state, 0, "pass")  # everyone but seat 2 has now passed in this trick
    assert state.pending() == (2,) and state.table is None


def test_hard_pass_a_set_nobody_may_answer_closes_the_trick_at_once():
    """Seat 2 goes out; the others pass it but seat 0 beats it: nobody is left to ask."""
    fixed = {0: "BJ* 9H 9H 9H 3S KS", 3: "9H", 2: "4S"}
    state = play_state(fixed=fixed, sizes=[44, 43, 1, 43, 85], hard_pass=True)
    act(state, 0, "3")
    act(state, 1, "pass")
    act(state, 2, "4S")
    assert state.out == [2]
    act(state, 3, "pass")
    act(state, 4, "pass")
    act(state, 0, "KS")  # seats 1, 3, 4 passed in this trick and seat 2 is out
    assert state.to_ask == [] and state.pending() == (0,) and state.table is None


# ---------------------------------------------------------------- lowest_last (the old reading)


@pytest.mark.parametrize(("variant", "low"), [("shandong", "3"), ("japanese", "6")])
def test_lowest_last_a_seat_going_out_on_the_lowest_rank_is_ranked_last(variant, low):
    shandong = variant == "shandong"
    fixed = {0: f"BJ* {'9H 9H 9H ' if shandong else ''}{low}S {low}S"}
    n0 = len(fixed[0].split())
    for on in (False, True):
        deal = make_deal(variant, fixed, [n0, 40, 40, 40, 0])
        state = new(variant, deal=deal, grabbing=False, lowest_last=on)
        act(state, 0, "call 9H" if shandong else "keep")
        while state.phase != "play":
            for seat in state.pending():
                act(state, seat, "pass")
        act(state, 0, "BJ 9H 9H 9H" if shandong else "BJ")
        pass_until_lead(state)
        act(state, 0, f"{low} {low}")
        assert state.out == [0] and state.sunk == ([0] if on else [])
        while not state.over:
            seat = state.pending()[0]
            act(state, seat, state.action_text(state.legal(seat)[-1]))
        places, sunk = state.history[0]["places"], state.sunk
        if not on:
            assert places[0] == 0 and sunk == []
        else:  # others may sink too: the sunk seats, in the order they went out, come last
            rest = [s for s in state.out if s not in sunk] + [
                s for s in range(5) if s not in state.out
            ]
            assert sunk[0] == 0 and places == rest + sunk


def test_options_apply_to_both_variants_and_are_checked():
    for variant in ("shandong", "japanese"):
        options = get_game("baohuang", {"variant": variant, "hard_pass": True}).options
        assert options["hard_pass"] is True
        assert options["lowest_held"] is False and options["lowest_last"] is False
    with pytest.raises(Exception, match="hard_pass must be true or false"):
        get_game("baohuang", {"hard_pass": "yes"})
    with pytest.raises(Exception, match="edition must be a whole number from 1 to 2"):
        get_game("baohuang", {"edition": 3})


def test_the_view_shows_the_options():
    state = new("japanese", seed=2, hard_pass=True)
    view = state.view(0)
    assert view["options"]["hard_pass"] is True and view["options"]["edition"] == EDITION
