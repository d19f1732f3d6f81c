"""Baohuang's house rules before play (royalist_declares, solo_declares, cede,
guard_by_fourth), one behaviour per test on explicit deals; refusals; replays."""

import itertools
import json
import random

import pytest

from tests.games.baohuang.helpers import act, answer_all, make_deal, new
from tests.games.helpers import play_random
from yamen.errors import IllegalAction, OptionsError
from yamen.games.baohuang.kinds import KIND_TEXT, SJ_MARKED
from yamen.games.baohuang.text import render
from yamen.games.baohuang.variants import VARIANTS, GuardByFourth, variant_for
from yamen.records import Record, Recorder, record_text, replay
from yamen.selfplay import play_random as self_play
from yamen.selfplay import random_policy_rng


def words(state, seat):
    return [state.action_text(a) for a in state.legal(seat)]


def shandong_deal(**extra):
    # seat 0 holds the marked joker and three 9H; seat 3 the fourth 9H; seat 1 four QS.
    return make_deal("shandong", {0: "BJ* 9H 9H 9H", 3: "9H", 1: "QS QS QS QS", **extra})


def fourth_deal(fixed):
    """A 168-card deal for guard_by_fourth: no small joker is marked."""
    hands = make_deal("japanese", fixed)
    return [" ".join("SJ" if c == "SJ*" else c for c in hand.split()) for hand in hands]


def no_triples_deal(variant: str, holder: int) -> list[str]:
    """Nobody holds any card 3 times: each natural kind is split 2 + 2 between two seats,
    the small jokers between seats 0 and 1, the big ones one each but two with ``holder`` (BJ*
    and one more), so that the marked joker, passed on, makes nobody's third either."""
    hands: list[list[str]] = [[] for _ in range(5)]
    naturals = sorted({KIND_TEXT[k] for k in VARIANTS[variant].deck() if k < 52})
    for i, card in enumerate(naturals):
        hands[i % 5] += [card] * 2
        hands[(i + 1) % 5] += [card] * 2
    hands[0] += ["SJ"] * 2
    hands[1] += ["SJ"] * 2
    hands[holder] += ["BJ*", "BJ"]
    hands[(holder + 1) % 5] += ["BJ"]
    hands[(holder + 2) % 5] += ["BJ"]
    return [" ".join(hand) for hand in hands]


# ---------------------------------------------------------------- royalist_declares


def test_a_hidden_royalist_may_not_declare():
    state = new(deal=shandong_deal(), grabbing=False, royalist_declares="hidden")
    act(state, 0, "call 9H")
    assert state.partner == 3
    assert all(words(state, seat) == ["pass"] for seat in range(5))
    with pytest.raises(IllegalAction):
        act(state, 3, "declare")


def test_the_open_royalist_may_declare_as_the_seed_says():
    state = new(deal=shandong_deal(), grabbing=False, royalist_declares="open")
    act(state, 0, "call 9H")
    assert words(state, 3) == ["pass", "declare"]


def test_hidden_royalist_leaves_the_solo_declaration_alone():
    deal = make_deal("shandong", {2: "BJ* QS QS QS QS"})
    state = new(deal=deal, grabbing=False, royalist_declares="hidden")
    act(state, 2, "call QS")
    assert words(state, 2) == ["pass", "declare"]


# ---------------------------------------------------------------- solo_declares


def test_shandong_solo_emperor_may_not_declare_without_solo_declares():
    deal = make_deal("shandong", {2: "BJ* QS QS QS QS"})
    state = new(deal=deal, grabbing=False, solo_declares=False)
    act(state, 2, "call QS")
    assert state.solo and all(words(state, seat) == ["pass"] for seat in range(5))


def test_solo_declares_off_keeps_the_royalists_declaration():
    state = new(deal=shandong_deal(), grabbing=False, solo_declares=False)
    act(state, 0, "call 9H")
    assert words(state, 3) == ["pass", "declare"]


def test_japanese_solo_emperor_may_not_declare_but_commoners_rebel():
    state = new("japanese", deal=make_deal("japanese", {2: "BJ* SJ*"}), solo_declares=False)
    act(state, 2, "keep")
    assert state.solo and words(state, 2) == ["pass"]
    assert words(state, 0) == ["pass", "rebel"]


# ---------------------------------------------------------------- cede


def test_without_cede_a_holder_that_can_call_must_call():
    state = new(deal=shandong_deal(), grabbing=False, cede=False)
    legal = words(state, 0)
    assert "yield" not in legal and "call 9H" in legal
    assert all(word.startswith("call") for word in legal)
    with pytest.raises(IllegalAction):
        act(state, 0, "yield")


def test_without_cede_the_holder_may_still_grab():
    state = new(deal=shandong_deal(), cede=False)
    answer_all(state)
    legal = words(state, 0)
    assert "grab" in legal and "yield" not in legal


def test_without_cede_a_holder_with_nothing_to_call_passes_the_joker_on():
    state = new(deal=no_triples_deal("shandong", 0), grabbing=False, cede=False)
    assert words(state, 0) == ["yield"]
    act(state, 0, "yield")
    assert state.pending() == (4,) and words(state, 4) == ["yield"]


def test_japanese_without_cede_the_emperor_card_is_kept():
    state = new("japanese", deal=make_deal("japanese", {1: "BJ*", 3: "SJ*"}), cede=False)
    assert words(state, 1) == ["keep"]
    with pytest.raises(IllegalAction):
        act(state, 1, "hand on")
    act(state, 1, "keep")
    assert state.emperor == 1 and state.partner == 3


# ---------------------------------------------------------------- guard_by_fourth


def test_guard_by_fourth_has_no_marked_small_joker():
    deck = variant_for({"variant": "japanese", "guard_by_fourth": True}).deck()
    assert len(deck) == 168 and SJ_MARKED not in deck
    with pytest.raises(OptionsError, match="not exactly the deck"):
        new("japanese", deal=make_deal("japanese", {}), guard_by_fourth=True)


def test_guard_by_fourth_the_emperor_calls_and_the_fourth_copy_is_the_guard():
    deal = fourth_deal({1: "BJ* 9H 9H 9H", 3: "9H"})
    state = new("japanese", deal=deal, guard_by_fourth=True)
    legal = words(state, 1)
    assert "keep" not in legal and "call 9H" in legal and legal[-1] == "hand on"
    act(state, 1, "call 9H")
    assert (state.emperor, state.partner, state.solo) == (1, 3, False)
    assert state.view(0)["called"] == "9H" and state.view(3)["role"] == "guard"
    assert words(state, 3) == ["pass"]  # the guard never declares
    assert words(state, 0) == ["pass", "rebel"]
    assert words(state, 1) == ["pass"]


def test_guard_by_fourth_calling_four_copies_is_solo():
    deal = fourth_deal({1: "BJ* 9H 9H 9H 9H"})
    state = new("japanese", deal=deal, guard_by_fourth=True)
    act(state, 1, "call 9H")
    assert state.solo and state.partner is None
    assert words(state, 1) == ["pass", "declare"]


def test_guard_by_fourth_the_guard_is_unmasked_by_the_called_card():
    deal = fourth_deal({1: "BJ* 9H 9H 9H 6S", 3: "9H 9S"})
    state = new("japanese", deal=deal, guard_by_fourth=True)
    act(state, 1, "call 9H")
    answer_all(state)
    act(state, 1, "6")
    act(state, 2, "pass")
    assert {"9", "9H"} <= set(words(state, 3))  # playing the called card is a choice
    act(state, 3, "9H")
    assert state.view(0)["roles"]["3"] == "guard"


def test_guard_by_fourth_a_holder_with_nothing_to_call_hands_on_and_a_round_voids():
    state = new("japanese", deal=no_triples_deal("japanese", 2), guard_by_fourth=True)
    for seat in (2, 3, 4, 0, 1):
        assert words(state, seat) == ["hand on"]
        act(state, seat, "hand on")
    # back with its first holder, who cannot call: dealt again, still deal 1
    assert state.deal_no == 1 and state.phase == "emperor card"
    assert sum(state.sizes) == 168 and state.emperor is None


def test_guard_by_fourth_without_cede_a_holder_that_can_call_must():
    deal = fourth_deal({1: "BJ* 9H 9H 9H", 3: "9H"})
    state = new("japanese", deal=deal, guard_by_fourth=True, cede=False)
    legal = words(state, 1)
    assert "hand on" not in legal and all(word.startswith("call") for word in legal)


# ---------------------------------------------------------------- refusals and defaults


@pytest.mark.parametrize(
    ("variant", "option", "value"),
    [("shandong", "guard_by_fourth", True), ("japanese", "royalist_declares", "hidden")],
)
def test_an_option_where_it_does_not_apply_is_refused(variant, option, value):
    with pytest.raises(OptionsError, match=f"{option} applies only where variant is") as refused:
        new(variant, **{option: value})
    assert refused.value.reason == "applies" and refused.value.params["option"] == option


def test_defaults_are_accepted_anywhere_and_bad_values_refused():
    new("shandong", guard_by_fourth=False)
    new("japanese", royalist_declares="open", grabbing=True)
    with pytest.raises(OptionsError):
        new(royalist_declares="maybe")
    with pytest.raises(OptionsError):
        new(cede="no")


def test_the_seeds_rules_are_the_variants_themselves():
    assert variant_for(new().options) is VARIANTS["shandong"]
    assert variant_for(new("japanese").options) is VARIANTS["japanese"]
    assert isinstance(variant_for(new("japanese", guard_by_fourth=True).options), GuardByFourth)


def test_the_view_shows_the_options():
    state = new("japanese", guard_by_fourth=True, cede=False)
    assert state.view(None)["options"]["guard_by_fourth"] is True
    assert state.view(0)["options"]["cede"] is False


# ---------------------------------------------------------------- replays

COMBINATIONS = [
    {"variant": "shandong", "royalist_declares": r, "solo_declares": s, "cede": c}
    for r, s, c in itertools.product(("open", "hidden"), (True, False), (True, False))
] + [
    {"variant": "japanese", "guard_by_fourth": g, "solo_declares": s, "cede": c, "deals": 2}
    for g, s, c in itertools.product((True, False), (True, False), (True, False))
]


@pytest.mark.parametrize("options", COMBINATIONS)
def test_records_replay_exactly_under_every_combination(options):
    seed = 11 + COMBINATIONS.index(options)
    recorder = Recorder("baohuang", options, seed)
    self_play(recorder, random_policy_rng(seed, 0))
    record = recorder.finish()
    assert all(record.options[name] == value for name, value in options.items())
    again = replay(Record.from_json(json.loads(record_text(record))))
    assert again.result().to_json() == recorder.state.result().to_json()
    assert [again.view(s) for s in (None, *range(5))] == [
        recorder.state.view(s) for s in (None, *range(5))
    ]


def test_random_play_under_every_combination_finishes():
    for i, options in enumerate(COMBINATIONS):
        state = new(seed=i, **options)
        play_random(state, random.Random(i))
        assert state.result() is not None


def test_the_text_names_the_house_rules_in_force():
    assert "House rules" not in render(new().view(0))
    page = render(new("japanese", guard_by_fourth=True, cede=False).view(0))
    assert "House rules: no passing the emperor's seat on" in page
    assert "the guard holds the called card's 4th copy" in page
