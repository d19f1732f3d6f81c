"""``Table``, the one runner: check, text, hook, apply, record, events, in that order; a refused
move (an illegal action, a hook that raises) changes neither the state nor the record."""

from __future__ import annotations

import json
import random

import pytest

from tests.conformance import defaults, every_case
from yamen.engine import State, new_game
from yamen.errors import IllegalAction, NotYourTurn, RecordError
from yamen.records import Record, Recorder, plain, record_text, replay
from yamen.selfplay import play_random
from yamen.table import Move, Table

GAMES = [case.param() for case in defaults()]  # every registered game (tests/conformance.py)


class Refused(Exception):
    pass


def snapshot(state: State) -> tuple:
    """Everything a front can see of a state."""
    seats = range(state.num_seats)
    return (
        state.pending(),
        [state.view(s) for s in (None, *seats)],
        [state.legal(s) for s in seats],
    )


def table_for(game: str, seed: int, hook=None, options: dict | None = None) -> Table:
    state = new_game(game, options, seed)
    return Table(state, Record(game, dict(state.options), seed), hook)


def advance(table: Table, rng: random.Random, decisions: int) -> None:
    table.play(lambda seat: rng.choice(table.legal(seat)), max_decisions=decisions)


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_refusing_hook_leaves_state_and_record_unchanged(game, options):
    rng = random.Random(1)
    table = table_for(game, 5, None, options)
    advance(table, rng, 7)
    seen: list[tuple[Move, tuple]] = []

    def refuse(move: Move) -> None:
        seen.append((move, snapshot(table.state)))
        raise Refused

    table.before_apply = refuse
    before, actions = snapshot(table.state), list(table.record.actions)
    seat = table.pending()[0]
    action = rng.choice(table.legal(seat))
    with pytest.raises(Refused):
        table.act(seat, action)
    assert snapshot(table.state) == before
    assert table.record.actions == actions
    [(move, at_hook)] = seen  # the hook saw the move before anything was applied
    assert move == Move(seat, action, table.state.action_text(action))
    assert at_hook == before
    table.before_apply = None  # the same move goes through once nothing refuses it
    table.act(seat, action)
    assert table.record.actions == [*actions, (seat, move.text)]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_an_illegal_action_reaches_neither_the_hook_nor_the_record(game, options):
    calls: list[Move] = []
    table = table_for(game, 2, calls.append, options)
    seat = table.pending()[0]
    idle = next(s for s in range(table.state.num_seats) if s not in table.pending())
    before = snapshot(table.state)
    with pytest.raises(IllegalAction):
        table.act(seat, -1)
    with pytest.raises(NotYourTurn):
        table.act(idle, table.legal(seat)[0])
    assert calls == [] and table.record.actions == [] and snapshot(table.state) == before


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_events_are_the_ones_apply_gives_and_the_text_is_the_notation(game, options):
    rng = random.Random(4)
    calls: list[Move] = []
    table = table_for(game, 9, calls.append, options)
    bare = table.state.clone()
    while not table.over:
        seat = table.pending()[0]
        action = rng.choice(table.legal(seat))
        text = table.state.action_text(action)
        assert table.act(seat, action) == bare.apply(seat, action)
        assert table.record.actions[-1] == (seat, text) == (calls[-1].seat, calls[-1].text)
    assert len(calls) == len(table.record.actions)
    table.record.result = plain(table.state.result().to_json())
    assert snapshot(replay(table.record)) == snapshot(table.state)


def check_record_replays(game: str, options: dict, seed: int) -> None:
    """The contract: a random game's record, written as JSON and read back, replays to the
    same game: every view, the pending seats, the legal moves, the result."""
    recorder = Recorder(game, options, seed)
    play_random(recorder, random.Random(seed))
    record = recorder.finish()
    again = Record.from_json(json.loads(record_text(record)))
    try:
        state = replay(again)
    except RecordError as exc:
        raise AssertionError(f"the record does not replay: {exc}") from None
    assert state.over and again.result == record.result
    assert snapshot(state) == snapshot(recorder.state)
    assert plain(state.result().to_json()) == record.result


RECORDS = [case.param() for case in every_case()]


@pytest.mark.parametrize(("game", "options"), RECORDS)
def test_a_record_replays_to_the_same_game(game, options):
    check_record_replays(game, options, seed=6)


def test_prepare_then_commit_is_act():
    rng = random.Random(3)
    split, whole = table_for("baohuang", 8), table_for("baohuang", 8)
    while not whole.over:
        seat = whole.pending()[0]
        action = rng.choice(whole.legal(seat))
        move = split.prepare(seat, action)
        assert split.record.actions == whole.record.actions  # preparing changes nothing
        assert split.commit(move) == whole.act(seat, action)
    assert split.record.actions == whole.record.actions
    assert snapshot(split.state) == snapshot(whole.state)


def test_a_table_without_record_or_hook_only_applies():
    state = new_game("criminal_poker", None, 3)
    table = Table(state)
    assert table.play(lambda seat: table.legal(seat)[0]) > 0
    assert state.over and state.result() is not None


def test_play_asks_the_first_pending_seat_like_play_random():
    """``Table.play`` with a random policy makes the game ``play_random`` makes."""
    recorded = Recorder("bao_qingtian", {"players": 5}, 6)
    play_random(recorded, random.Random(6))
    rng = random.Random(6)
    table = table_for("bao_qingtian", 6)
    table.record.options = recorded.record.options
    decisions = table.play(lambda seat: rng.choice(table.legal(seat)))
    assert table.record.actions == recorded.record.actions
    assert decisions == len(table.record.actions)


def test_act_text_writes_a_judges_own_words():
    rng = random.Random(0)
    table = table_for("bao_qingtian", 12)
    while table.state.phase != "punish":  # type: ignore[attr-defined]
        assert not table.over, "this seed's game reaches a sentence"
        seat = table.pending()[0]
        table.act(seat, rng.choice(table.legal(seat)))
    judge = table.pending()[0]
    table.act_text(judge, 'punish "sweep   the yard" 3')
    assert table.record.actions[-1] == (judge, 'punish "sweep the yard" 3')
    assert table.state.punishment == "sweep the yard"  # type: ignore[attr-defined]
