"""憋六 / 憋三 (presets ``bie_liu_168``, ``bie_san_216``): the deck's lowest rank is held to the
end (option ``lowest_held``): a set holding it may be played only when it empties the hand.
And the first reading of the name, ``lowest_last`` (going out on the lowest rank ranks last),
kept for the games recorded with it: two such records replay exactly as they were played.

The references (docs/rules/baohuang.md, "Options and presets"): buzi.cc, 3要留到最后才能出;
Guyulang/wh-baohuang 游戏规则.md, 憋 6: 手中的「6」必须留到最后出; 0019/baohuang game.js and
s-deme/trump_geme BaohuangGame.cs (``sixes_last``) refuse a set of 6s while other cards remain.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.baohuang.helpers import make_deal, new, pass_until_lead
from tests.games.baohuang.test_rules import play_state
from tests.games.helpers import act
from yamen.engine import get_game, new_game
from yamen.errors import IllegalAction, OptionsError, RecordError
from yamen.games.baohuang import PRESETS
from yamen.games.baohuang.sets import decode
from yamen.records import Record, replay

RECORDS = Path(__file__).parent / "records"
LOW = {"shandong": "3", "japanese": "6"}  # the deck's lowest rank


def words(state, seat):
    return [state.action_text(a) for a in state.legal(seat)]


def holds_low(text: str, low: str) -> bool:
    return any(token[0] == low for token in text.split())


# ---------------------------------------------------------------- the presets


@pytest.mark.parametrize(
    ("name", "variant"), [("bie_liu_168", "japanese"), ("bie_san_216", "shandong")]
)
def test_the_bie_presets_hold_the_lowest_rank_to_the_end(name, variant):
    preset = next(p for p in PRESETS if p.name == name)
    options = get_game("baohuang", dict(preset.options)).options
    assert options["variant"] == variant
    assert options["lowest_held"] is True and options["lowest_last"] is False


def test_the_two_readings_are_not_played_together():
    with pytest.raises(OptionsError, match="two readings") as refused:
        get_game("baohuang", {"lowest_held": True, "lowest_last": True})
    assert refused.value.reason == "lowest_both"
    assert get_game("baohuang").options["lowest_held"] is False  # the seeds' rules by default


def test_the_old_reading_is_kept_but_no_longer_offered_in_a_form():
    declared = {o.name: o.to_json() for o in get_game("baohuang").declaration}
    assert declared["lowest_held"]["shown"] is True
    assert declared["lowest_last"]["shown"] is False
    assert "憋" in declared["lowest_held"]["label"] and "憋" not in declared["lowest_last"]["label"]


# ---------------------------------------------------------------- held to the end


@pytest.mark.parametrize("variant", ["shandong", "japanese"])
def test_a_lead_holds_the_lowest_rank_only_when_it_empties_the_hand(variant):
    low = LOW[variant]
    fixed = {0: f"BJ* 9H 9H 9H {low}S {low}S KS", 3: "9H"}
    for held in (False, True):
        state = play_state(variant, fixed=fixed, sizes=[7, 40, 40, 40, 40], lowest_held=held)
        leads = words(state, 0)
        assert "K" in leads
        assert (f"{low} {low}" in leads) is not held
        assert any(holds_low(text, low) for text in leads) is not held


@pytest.mark.parametrize("variant", ["shandong", "japanese"])
def test_a_held_set_is_refused_with_the_rule_that_holds_it(variant):
    low = LOW[variant]
    state = play_state(variant, fixed={0: f"BJ* 9H 9H 9H {low}S {low}S KS", 3: "9H"},
                       sizes=[7, 40, 40, 40, 40], lowest_held=True)  # fmt: skip
    before = state.view(0)
    bie = "憋三" if variant == "shandong" else "憋六"
    with pytest.raises(IllegalAction, match=f"the {low}s are held to the end \\({bie}\\)"):
        act(state, 0, f"{low} {low}")
    assert state.view(0) == before  # refused: nothing changed


def test_the_held_rank_goes_out_with_the_jokers_left_and_places_as_usual():
    """Seed 002, 一套牌: N naturals of a rank plus X small and Y big jokers; the last set may
    carry the jokers left. Going out on it ranks the seat as any other (not last)."""
    state = play_state("shandong", fixed={0: "BJ* 9H 9H 9H 3S 3S SJ", 3: "9H"},
                       sizes=[7, 40, 40, 40, 40], lowest_held=True)  # fmt: skip
    act(state, 0, "BJ 9H 9H 9H")  # unbeatable: seat 0 leads again
    pass_until_lead(state)
    leads = words(state, 0)
    assert leads == ["SJ 3 3", "SJ"]  # the 3s only with the small joker: the whole hand
    act(state, 0, "SJ 3 3")
    assert state.out == [0] and state.sunk == []
    while not state.over:
        seat = state.pending()[0]
        act(state, seat, state.action_text(state.legal(seat)[-1]))
    assert state.history[0]["places"][0] == 0


def test_a_hand_of_the_lowest_rank_alone_is_not_split():
    """Going out on them is the only way they leave: 6 6 6, not 6 and then 6 6."""
    state = play_state("japanese", fixed={0: "BJ* 6S 6S 6S"}, sizes=[4, 41, 41, 41, 41],
                       lowest_held=True)  # fmt: skip
    act(state, 0, "BJ")
    pass_until_lead(state)
    assert words(state, 0) == ["6 6 6"]


def test_japanese_a_single_six_with_a_joker_leads_the_joker_first():
    """A single natural may not carry jokers in the 168-card game, so 6 SJ is no set and a
    lone 6 would not empty the hand: the joker goes alone, then the 6."""
    state = play_state("japanese", fixed={0: "BJ* 6S SJ"}, sizes=[3, 42, 42, 41, 40],
                       lowest_held=True)  # fmt: skip
    act(state, 0, "BJ")
    pass_until_lead(state)
    assert words(state, 0) == ["SJ"]
    act(state, 0, "SJ")
    pass_until_lead(state)
    assert state.pending() == (0,) and words(state, 0) == ["6"]


def test_shandong_a_called_three_is_held_too():
    """The called card may be of the lowest rank (seed 002 calls any card held three times):
    its telling copies are held like the plain ones."""
    fixed = {0: "BJ* 3S 3S 3S 9H", 3: "3S"}
    deal = make_deal("shandong", fixed, [5, 40, 40, 40, 91])
    state = new("shandong", deal=deal, grabbing=False, lowest_held=True)
    act(state, 0, "call 3S")
    while state.phase != "play":
        for seat in state.pending():
            act(state, seat, "pass")
    assert not any(holds_low(text, "3") for text in words(state, 0))
    act(state, 0, "BJ")
    pass_until_lead(state)
    act(state, 0, "9")
    pass_until_lead(state)
    assert state.pending() == (0,) and words(state, 0) == ["3S 3S 3S"]


def test_a_seat_holding_only_the_lowest_rank_answers_by_passing_and_still_leads_them_out():
    """No forced end for a seat stuck with them (wh-baohuang's 逼死 is its own house rule): it
    passes, and when the lead comes to it, the whole hand goes. Seed 003: when the last set's
    player has gone out and everyone passes, the next seat still in leads."""
    fixed = {0: "BJ* 9S", 1: "6S 6S", 2: "KS KS"}
    state = play_state("japanese", fixed=fixed, sizes=[2, 2, 2, 81, 81], lowest_held=True)
    act(state, 0, "BJ")
    pass_until_lead(state)
    act(state, 0, "9")
    assert state.out == [0]
    assert words(state, 1) == ["pass"]  # 6 6 beats nothing, and may not go as a part
    act(state, 1, "pass")
    for seat in (2, 3, 4):
        act(state, seat, "pass")
    assert state.pending() == (1,) and words(state, 1) == ["6 6"]
    act(state, 1, "6 6")
    assert state.out == [0, 1]


def test_a_seat_left_holding_the_lowest_rank_is_simply_last():
    """被闷: the deal ends with the seat still holding its 6s (it never had the lead); it is
    placed last and scored by that place as seed 003 scores any seat left (no extra penalty
    and no early end, which some implementations add: docs/rules/baohuang.md)."""
    fixed = {0: "BJ* 9S", 1: "6S 6S", 2: "KS", 3: "AS", 4: "2S"}
    state = play_state("japanese", fixed=fixed, sizes=[2, 2, 1, 1, 162], lowest_held=True)
    guard = next(s for s in range(5) if state.hands[s][54])  # the marked small joker's holder
    assert guard == 4
    act(state, 0, "BJ")
    pass_until_lead(state)
    act(state, 0, "9")  # out; seat 1 answers first and may only pass
    assert words(state, 1) == ["pass"]
    act(state, 1, "pass")
    act(state, 2, "K")  # out
    act(state, 3, "A")  # out
    act(state, 4, "2")  # and seat 1 is asked again: a pass, never its 6s
    assert words(state, 1) == ["pass"]
    act(state, 1, "pass")
    pass_until_lead(state)
    assert state.pending() == (4,)
    while not state.over:  # seat 4 leads its 161 cards out, one set at a time
        seat = state.pending()[0]
        legal = state.legal(seat)
        act(state, seat, state.action_text(legal[-1] if seat == 4 else legal[0]))
    deal = state.history[0]
    assert deal["places"] == [0, 2, 3, 4, 1] and state.hands[1][12] == 2
    # seed 003: places 2/1/0/-1/-2, the side's sum (2 - 1) to the guard, twice to the emperor
    assert [int(s) for s in deal["scores"]] == [2, -1, -1, -1, 1]


# ---------------------------------------------------------------- every random game


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["bie_liu_168", "bie_san_216"]), st.integers(0, 2**32))
def test_random_games_under_the_presets_end_and_never_leave_a_seat_without_a_move(name, seed):
    options = {**next(p for p in PRESETS if p.name == name).options, "deals": 2}
    state = new_game("baohuang", options, seed=seed)
    low = 0 if options["variant"] == "shandong" else 3
    rng = random.Random(seed)
    steps = 0
    while not state.over:
        seat = rng.choice(state.pending())
        legal = state.legal(seat)
        assert legal, (name, seed, state.view(seat))
        if state.phase == "play":
            for action in legal:
                if action >= 64:  # a set
                    r, n, x, y, _ = decode(action)
                    assert r != low or n == 0 or n + x + y == state.sizes[seat]
        state.apply(seat, rng.choice(legal))
        steps += 1
        assert steps < 20_000
    for deal in state.result().details["deals"]:
        assert sorted(deal["places"]) == [0, 1, 2, 3, 4]


# ---------------------------------------------------------------- lowest_last, as recorded

OLD = ["edition2-lowest-last-japanese.json", "edition2-lowest-last-shandong.json"]


@pytest.mark.parametrize("name", OLD)
def test_games_recorded_under_lowest_last_replay_exactly(name):
    """Written with the engine before lowest_held existed (yamen simulate, presets
    bie_liu_168 and bie_san_216 as they were): same actions, same result."""
    record = Record.load(RECORDS / name)
    assert record.options["lowest_last"] is True and record.options["lowest_held"] is False
    state = replay(record)  # checks every action and the recorded result
    assert state.over and len(state.sunk) == 2
    places = record.result["deals"][0]["places"]
    assert places[-2:] == state.sunk  # the seats out on the lowest rank: last, in their order


@pytest.mark.parametrize("name", OLD)
def test_the_old_records_are_not_games_of_the_new_reading(name):
    """The fixtures do exercise the old reading: read as 憋 held to the end they fail."""
    record = Record.load(RECORDS / name)
    record.options = {**record.options, "lowest_last": False, "lowest_held": True}
    with pytest.raises(RecordError):
        replay(record)
