"""The ``tribute`` option: tribute (上納) on or off, in the 168-card game, the one that has it."""

import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from tests.games.baohuang.helpers import make_deal, new
from yamen.engine import get_game
from yamen.errors import OptionsError
from yamen.records import Record, Recorder, record_text, replay
from yamen.selfplay import play_random, random_policy_rng

DEAL = make_deal("japanese", {0: "BJ* 2S 2S 2H AS", 3: "SJ*"})


def to_second_deal(state, seed: int) -> list:
    """Random legal play through the first deal; the events that opened the second."""
    rng = random.Random(seed)
    while state.deal_no == 1:
        seat = rng.choice(state.pending())
        events = state.apply(seat, rng.choice(state.legal(seat)))
    return events


def scored_first_deal():
    """A seed whose random first deal (on DEAL) scores something, so tribute is owed."""
    for seed in range(30):
        state = new("japanese", deal=DEAL, seed=seed, deals=2)
        to_second_deal(state, seed)
        if any(Fraction(s) for s in state.history[0]["scores"]):
            return seed
    raise AssertionError("no first deal scored")


def test_tribute_off_pays_nothing_and_leaves_the_dealt_hands():
    seed = scored_first_deal()
    on = new("japanese", deal=DEAL, seed=seed, deals=2)
    off = new("japanese", deal=DEAL, seed=seed, deals=2, tribute=False)
    opened_on, opened_off = to_second_deal(on, seed), to_second_deal(off, seed)
    assert on.history == off.history  # the same first deal, played the same way
    assert "tribute paid" in [e.kind for e in opened_on]
    assert "tribute paid" not in [e.kind for e in opened_off]
    assert off.tribute == {} and "tribute" not in off.view(0)
    # the same cards were dealt: the hands with tribute are the dealt ones plus what moved
    for seat in range(5):
        paid = on.tribute[seat]
        dealt = Counter(off.view(seat)["hand"])
        assert dealt == Counter(on.view(seat)["hand"]) - Counter(paid["received"]) + Counter(
            paid["gave"]
        )
    assert any(on.tribute[s]["gave"] for s in range(5))
    assert sum(len(off.view(s)["hand"]) for s in range(5)) == 168


def test_a_game_without_tribute_replays_exactly():
    recorder = Recorder("baohuang", {"variant": "japanese", "deals": 3, "tribute": False}, 5)
    play_random(recorder, random_policy_rng(5, 0))
    record = Record.from_json(json.loads(record_text(recorder.finish())))
    assert record.options["tribute"] is False
    state = replay(record)
    assert state.result() is not None and state.tribute == {}


def test_tribute_is_refused_where_the_rules_have_none():
    with pytest.raises(OptionsError, match="tribute applies only where variant is 'japanese'"):
        get_game("baohuang", {"variant": "shandong", "tribute": False})
    try:
        get_game("baohuang", {"tribute": False})
    except OptionsError as exc:
        assert (exc.reason, exc.params["option"]) == ("applies", "tribute")
    # its default is read anywhere: records store every option, tribute: true included
    assert get_game("baohuang", {"variant": "shandong", "tribute": True}).options["tribute"]
    read = get_game("baohuang", {"variant": "japanese", "tribute": False}).options
    assert read["variant"] == "japanese" and read["tribute"] is False


def test_the_bots_play_only_legal_moves_without_tribute():
    """The rules bot's own choice (not its fallback) on every seat, three deals without
    tribute; the search bot's determinized playouts see no tribute in the views either."""
    from yamen.bots import bot_move, make_bot
    from yamen.bots.baohuang.hand import ViewPerspective
    from yamen.bots.baohuang.rules import decide

    for seed in range(3):
        state = new("japanese", seed=seed, deals=3, tribute=False)
        while not state.over:
            seat = state.pending()[0]
            legal = state.legal(seat)
            action = decide(ViewPerspective(state.view(seat)), list(legal))
            assert action in legal
            state.apply(seat, action)
        assert len(state.history) == 3
    search = make_bot("baohuang", "search:iterations=8:seconds=null")
    state = new("japanese", seed=9, deals=2, tribute=False)
    rng = random.Random(9)
    while state.deal_no == 1:
        state.apply(state.pending()[0], rng.choice(state.legal(state.pending()[0])))
    for _ in range(6):
        seat = state.pending()[0]
        state.apply(seat, bot_move(search, state, seat, rng))
