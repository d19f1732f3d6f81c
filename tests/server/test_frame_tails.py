"""An update sends the view's long lists by their new items (yamen/server/frames.py:
``tails``), and a client joins them to its own (yamen/client.py: ``joined``, the browser's
net.js ``joined``): issue 23, whose Baohuang frames grew with every set played in a deal.

Over random games of every registered game, for every seat and the spectators, the joined
table is the whole one at every step; a receiver that missed an update is told to ask for the
state rather than join parts to a wrong list; and a deal's late updates are no larger than its
early ones."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

from tests.conformance import checked, rulesets
from yamen.client import joined
from yamen.engine import State, new_game
from yamen.server import frames

GAMES = [case.param() for case in rulesets()]  # every registered game (tests/conformance.py)


def table(state: State, seat: int | None, seq: int, number: int = 1) -> Any:
    return frames.seat_table(
        state,
        seat,
        game_id="g",
        number=number,
        seq=seq,
        deadlines={},
        totals=[Fraction(0)] * state.num_seats,
    )


def wire(model: Any) -> dict[str, Any]:
    return json.loads(frames.text(model))


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_joined_table_is_the_whole_one_at_every_step(game, options):
    rng = random.Random(5)
    state = new_game(game, options, seed=17)
    audiences = (None, *range(state.num_seats))
    held = {seat: wire(table(state, seat, 0)) for seat in audiences}  # their state frames
    bases: dict[int | None, frames.Base | None] = dict.fromkeys(audiences)
    seq, sent_by_tails = 0, 0
    while not state.over:
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
        seq += 1
        for audience in audiences:
            whole = table(state, audience, seq)
            short, bases[audience] = frames.tails(whole, bases[audience])
            got = joined(held[audience], wire(short))
            if checked(seq):
                assert got is not None
                assert got["view"] == wire(whole)["view"], (seq, audience)
            sent_by_tails += bool(short.appended)
            held[audience] = got
    if game == "baohuang":
        assert sent_by_tails > 0  # its played sets are sent by their tails


def test_a_receiver_that_missed_an_update_asks_for_the_state():
    """Two steps behind, or another game's table: parts are not joined to a wrong list."""
    rng = random.Random(2)
    state = new_game("baohuang", {}, seed=3)
    base, held, seq = None, None, 0
    while True:
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
        seq += 1
        short, base = frames.tails(table(state, 0, seq), base)
        if short.appended:
            break
        held = wire(short)  # the receiver's table, one step before this update
    assert joined(held, wire(short)) is not None
    behind = {**held, "seq": held["seq"] - 1}
    other_game = {**held, "number": held["number"] + 1}
    assert joined(behind, wire(short)) is None
    assert joined(other_game, wire(short)) is None
    assert joined(None, wire(short)) is None
    # and the server sends a view whole from a base two steps old or of another game
    state.apply(state.pending()[0], state.legal(state.pending()[0])[0])
    stale_base = base._replace(seq=seq - 1)
    assert frames.tails(table(state, 0, seq + 1), stale_base)[0].appended is None
    assert frames.tails(table(state, 0, seq + 1, number=2), base)[0].appended is None


def test_a_deals_late_updates_are_no_larger_than_its_early_ones():
    """Whole views grew from about 1.6 to 5 KiB a seat through a 216-card deal (every set
    played is in the view); by their tails, an update's size does not grow with the deal."""
    rng = random.Random(1)
    state = new_game("baohuang", {"variant": "shandong"}, seed=1)
    sizes, base, seq = [], None, 0
    while not state.over:  # (the last update, with the deal's result and summary, aside)
        seat = state.pending()[0]
        events = state.apply(seat, rng.choice(state.legal(seat)))
        seq += 1
        short, base = frames.tails(table(state, 0, seq), base)
        if not state.over:
            sizes.append(len(frames.update(events, 0, short)))
    quarter = len(sizes) // 4
    early, late = sizes[quarter : 2 * quarter], sizes[-quarter:]
    assert sum(late) / len(late) <= sum(early) / len(early)  # (whole views: 1.6 times)
