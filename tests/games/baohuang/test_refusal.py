"""A refused Baohuang action says which rule refuses it (refusal.py), not just "not legal"."""

from __future__ import annotations

import pytest

from tests.games.baohuang.helpers import make_deal, new, to_play
from yamen.cards import parse_card
from yamen.errors import IllegalAction
from yamen.games.baohuang import actions, refusal
from yamen.games.baohuang.kinds import NUM_SLOTS, SJ_MARKED, kind_of
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.sets import encode

NINE, QUEEN = 6, 9  # slots by strength: 3 is 0


def seen(slots=None, table=None, phase=Phase.PLAY, tell_kind=-1, telling=0, single=False):
    hand = [0] * NUM_SLOTS
    for slot, count in (slots or {}).items():
        hand[slot] = count
    return refusal.Seen(phase, hand, tell_kind, telling, table, single, ("pass", "yield"))


def why(text: str, view: refusal.Seen) -> str:
    return refusal.why(actions.parse(text, view.tell_kind), text, view)


def test_too_few_cards_of_the_rank():
    assert why("9 9 9 9", seen({NINE: 3})) == "9 9 9 9 cannot be played: you hold only three 9s"
    assert why("T T", seen()) == "T T cannot be played: you hold no 10s"
    assert why("SJ SJ", seen({13: 1})) == "SJ SJ cannot be played: you hold one small joker"


def test_a_set_that_does_not_beat_the_table():
    table = (QUEEN, 3, 0, 0)
    assert why("9 9 9", seen({NINE: 3}, table)).endswith("9 does not beat Q: play a higher rank")
    assert why("9 9", seen({NINE: 3}, table)).endswith(
        "the table holds three cards: answer with as many"
    )
    jokers_alone = (13, 0, 0, 1)
    assert why("BJ", seen({14: 1}, jokers_alone)).endswith("nothing beats a big joker on the table")


def test_a_single_card_with_jokers_where_the_rules_forbid_it():
    assert why("9 SJ", seen({NINE: 1, 13: 1})).endswith(
        "a single card cannot go with jokers in these rules"
    )


def test_the_telling_card_must_be_written_when_only_it_makes_the_count():
    called = kind_of(parse_card("9H"))
    view = seen({NINE: 2}, tell_kind=called, telling=1)
    assert why("9 9", view).endswith("besides 9H you hold one plain one: write 9H in the set")
    assert why("9H 9H", view).endswith("you hold 9H only one time")
    marked = seen({13: 1}, tell_kind=SJ_MARKED, telling=0)
    assert why("SJ*", marked).endswith("you do not hold the marked small joker SJ*")


def test_holding_the_called_card_does_not_hide_the_reason_for_another_rank():
    """A seat holding the called 9H refused a set of another rank hears that set's reason,
    not "write 9H in the set" (which used to count the 9s held minus the telling ones
    against a set without 9s, and named a negative count)."""
    called = kind_of(parse_card("9H"))
    view = seen({0: 2, NINE: 3}, table=(QUEEN, 2, 0, 0), tell_kind=called, telling=3)
    assert why("3 3", view).endswith("3 does not beat Q: play a higher rank")
    marked = seen({0: 2, 13: 1}, table=(QUEEN, 2, 0, 0), tell_kind=SJ_MARKED, telling=1)
    assert why("3 3", marked).endswith("3 does not beat Q: play a higher rank")


def test_a_lead_of_the_rank_held_to_the_end_names_the_rule():
    """Option lowest_held (憋六/憋三): the lowest rank leaves only with the set that empties
    the hand; before that, the refusal says so (and the whole hand is fine)."""
    view = refusal.Seen(Phase.PLAY, [2] + [0] * 5 + [3] + [0] * 8, -1, 0, None, True, (), 0, 5)
    assert why("3 3", view) == (
        "3 3 cannot be played: the 3s are held to the end (憋三): "
        "play them in the set that empties your hand"
    )
    whole = refusal.Seen(Phase.PLAY, [2] + [0] * 14, -1, 0, None, True, (), 0, 2)
    assert why("3 3", whole) == "3 3 cannot be played: it is not one of your plays now"
    answering = refusal.Seen(
        Phase.PLAY, [2] + [0] * 5 + [3] + [0] * 8, -1, 0, (QUEEN, 2, 0, 0), True, (), 0, 5
    )
    assert why("3 3", answering).endswith("3 does not beat Q: play a higher rank")


def test_words_and_timing():
    assert why("pass", seen()) == "you cannot pass: you lead, so play a set"
    assert (
        why("grab", seen(table=(0, 1, 0, 0)))
        == "'grab' is not open to you now (now you may: pass, yield)"
    )
    assert why("9 9", seen({NINE: 2}, phase=Phase.DECLARE)).startswith("9 9 cannot be played yet")


def test_the_engine_names_the_reason_and_keeps_the_state():
    state = new(deal=make_deal("shandong", {0: "9C 9D 9S"}))
    to_play(state)
    seat = state.pending()[0]
    hand = state.view(seat)["hand"]
    nines = sum(card.startswith("9") for card in hand)
    before = state.view(seat)
    with pytest.raises(IllegalAction, match="you hold") as refused:
        state.apply_text(seat, " ".join(["9"] * (nines + 1)))
    assert "not a legal action" not in str(refused.value)
    assert state.view(seat) == before
    with pytest.raises(IllegalAction, match="you hold"):
        state.check(seat, encode(NINE, nines + 1, 0, 0))
