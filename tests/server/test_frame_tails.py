"""An update sends the logs of a view (a game's ``view_logs``: lists a step only extends) by
their new items (yamen/server/frames.py: ``tails``), and a client joins them to its own
(yamen/client.py: ``joined``; the browser's net.js ``joined``): issue 23, whose Baohuang frames
grew with every set played in a deal.

Every registered game keeps its declaration (a log that is not shorter than a step before
begins with it), and a false one is caught; over random games of every game, for every seat
and the spectators, the joined table is the whole one at every step; a receiver that missed an
update is told to ask for the state rather than join parts to a wrong list; a deal's late
updates are no larger than its early ones."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

from tests.conformance import checked, rulesets
from yamen.client import joined
from yamen.engine import State, get_game, new_game
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


def broken_logs(game: str, options: dict, logs: tuple[str, ...], seed: int = 17) -> list[str]:
    """Where a random game breaks the promise of ``logs``: a step after which a log is at
    least as long as before but does not begin with what it held."""
    rng = random.Random(seed)
    state = new_game(game, options, seed=seed)
    audiences = (None, *range(state.num_seats))
    found, step = [], 0
    before = {seat: state.view(seat) for seat in audiences}
    while not state.over:
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
        step += 1
        for audience in audiences:
            now = state.view(audience)
            for key in logs:
                old, new = before[audience].get(key), now.get(key)
                longer = isinstance(old, list) and isinstance(new, list) and len(new) >= len(old)
                if longer and new[: len(old)] != old:
                    found.append(f"{key} at step {step} for {audience}")
            before[audience] = now
    return found


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_game_keeps_its_view_logs_promise(game, options):
    logs = get_game(game, options).view_logs
    assert broken_logs(game, options, logs) == []


def test_a_false_promise_is_caught():
    """A Baohuang view's hand sizes change in place: declared a log, they break it."""
    assert broken_logs("baohuang", {}, ("hand_sizes",))


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_joined_table_is_the_whole_one_at_every_step(game, options):
    rng = random.Random(5)
    state = new_game(game, options, seed=17)
    logs = get_game(game, options).view_logs
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
            short, bases[audience] = frames.tails(whole, bases[audience], logs)
            got = joined(held[audience], wire(short))
            if checked(seq):
                assert got is not None
                assert got["view"] == wire(whole)["view"], (seq, audience)
            sent_by_tails += bool(short.appended)
            held[audience] = got
    if logs and game == "baohuang":
        assert sent_by_tails > 0  # its played sets are sent by their tails


def test_a_receiver_that_missed_an_update_asks_for_the_state():
    """Two steps behind, or another game's table: parts are not joined to a wrong list."""
    rng = random.Random(2)
    state = new_game("baohuang", {}, seed=3)
    logs = get_game("baohuang").view_logs
    base, held, seq = None, None, 0
    while True:
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
        seq += 1
        short, base = frames.tails(table(state, 0, seq), base, logs)
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
    assert frames.tails(table(state, 0, seq + 1), stale_base, logs)[0].appended is None
    assert frames.tails(table(state, 0, seq + 1, number=2), base, logs)[0].appended is None


def test_a_deals_late_updates_are_no_larger_than_its_early_ones():
    """Whole views grew through a 216-card deal (every set played is in the view: the late
    updates were 1.6 times the early ones); by their tails, an update's size does not grow."""
    rng = random.Random(1)
    state = new_game("baohuang", {"variant": "shandong"}, seed=1)
    logs = get_game("baohuang").view_logs
    sizes, base, seq = [], None, 0
    while not state.over:  # (the last update, with the deal's result and summary, aside)
        seat = state.pending()[0]
        events = state.apply(seat, rng.choice(state.legal(seat)))
        seq += 1
        short, base = frames.tails(table(state, 0, seq), base, logs)
        if not state.over:
            sizes.append(len(frames.update(events, 0, short)))
    quarter = len(sizes) // 4
    early, late = sizes[quarter : 2 * quarter], sizes[-quarter:]
    assert sum(late) / len(late) <= sum(early) / len(early)
