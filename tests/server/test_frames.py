"""The frames a room sends (yamen/server/frames.py) are built from the protocol's models and
carry what the hand-made dicts they replaced carried: the same keys in the same order, the same
values. The dicts are restated here as the oracle of the wire format."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

from tests.conformance import rulesets
from tests.server.leak_audit import frame_shape
from yamen.engine import new_game, score_json, visible_to
from yamen.server import frames, protocol
from yamen.server.rooms import Seat

GAMES = [case.param() for case in rulesets()]  # every registered game (tests/conformance.py)


def same(text: str, wanted: dict[str, Any]) -> None:
    """``text`` is ``wanted`` written as JSON: equal values, keys in the same order."""
    got = json.loads(text)
    assert got == json.loads(json.dumps(wanted))
    assert json.dumps(got) == json.dumps(json.loads(json.dumps(wanted)))  # (key order)
    assert not frame_shape(got, "frame"), frame_shape(got, "frame")


def old_table(state, seat, game_id, number, seq, deadlines) -> dict[str, Any]:
    result = state.result()
    return {
        "game_id": game_id,
        "number": number,
        "seq": seq,
        "view": state.view(seat),
        "pending": list(state.pending()),
        "legal": state.legal(seat) if seat is not None else [],
        "deadlines": deadlines,
        "result": None if result is None else result.to_json(),
        "totals": [0] * state.num_seats,  # added: the match totals, deals so far included
        "pause": None,  # added: the break between two deals
        "history": None,  # added: the seat's latest log entries (state frames only)
        "history_before": None,  # added: where to page back from them (state frames only)
        "appended": None,  # added: an update's view lists sent by their tails (test_frame_tails)
    }


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_update_and_state_frames_are_the_dicts_they_replaced(game, options):
    check_frames(game, options)


def check_frames(game: str, options: dict) -> None:
    """The contract: every update and state frame of a random game, for every seat and a
    spectator, is the dict it replaced, in the documented shape."""
    rng = random.Random(3)
    state = new_game(game, options, seed=11)
    people = min(3, state.num_seats)
    seats = [Seat(f"p{i}", f"名{i}", None, i % 2, None if i % 2 else 5.0) for i in range(people)]
    seats += [Seat(bot="random")] * (state.num_seats - people)
    shown = [frames.seat(i, s, 30.0, 100.0) for i, s in enumerate(seats)]
    old_seats = [
        {
            "seat": i,
            "player": s.player,
            "name": s.name,
            "bot": s.bot,
            "online": s.bot is not None or s.connections > 0,
            "away": s.away_since is not None and 100.0 - s.away_since >= 30.0,
            "left": None,  # added: who left the seat mid-game
            "left_by": None,  # added (issue 26): their player id, to take the seat back
            "auto": False,  # added (issue 26): the person's seat on auto-play
        }
        for i, s in enumerate(seats)
    ]
    scores = [Fraction(i, 3) for i in range(state.num_seats)]
    info = frames.room_info(
        id="r1",
        game=game,
        options=dict(state.options),
        public=True,
        host="p0",
        seats=shown,
        status="playing",
        number=2,
        game_id="g1",
        scores=scores,
        settings={"turn_seconds": 60.0, "bot_delay": 0.8},
    )
    old_info = {
        "id": "r1",
        "game": game,
        "options": dict(state.options),
        "public": True,
        "host": "p0",
        "seats": old_seats,
        "status": "playing",
        "number": 2,
        "game_id": "g1",
        "scores": [score_json(s) for s in scores],
        "settings": {"turn_seconds": 60.0, "bot_delay": 0.8},
        "fill_at": None,  # (issue 26: a play-now table's fill time)
    }
    assert info.model_dump() == old_info
    chat = [frames.chat_line("名", 1, "好 ok", 1712345678.25)]
    seq, events = 0, list(state.opening_events)
    while True:
        deadlines = {str(s): 1712345678.125 + 60 for s in state.pending()}
        for seat in (None, *range(state.num_seats)):
            table = frames.seat_table(
                state,
                seat,
                game_id="g1",
                number=2,
                seq=seq,
                deadlines=deadlines,
                totals=[Fraction(0)] * state.num_seats,
            )
            old = old_table(state, seat, "g1", 2, seq, deadlines)
            shown_events = [{"kind": e.kind, "data": e.data} for e in visible_to(events, seat)]
            same(
                frames.update(events, seat, table),
                {"type": "update", "events": shown_events, "table": old, "stand_in": None},
            )
            same(
                frames.state(info, table, chat),
                {"type": "state", "room": old_info, "table": old, "chat": chat},
            )
        if state.over or seq >= 60:
            break
        seat = state.pending()[0]
        events = state.apply(seat, rng.choice(state.legal(seat)))
        seq += 1


def test_the_small_frames_are_the_dicts_they_replaced():
    seat = frames.seat(2, Seat("p", "P", None, 0, 1.0), 30.0, 100.0)
    same(
        frames.welcome("p", 2), {"type": "welcome", "v": protocol.VERSION, "player": "p", "seat": 2}
    )
    same(
        frames.welcome(None, None),
        {"type": "welcome", "v": protocol.VERSION, "player": None, "seat": None},
    )
    same(frames.presence(2, seat), {"type": "presence", "seat": 2, "online": False, "away": True})
    same(frames.ack("x", 7), {"type": "ack", "id": "x", "seq": 7})
    same(frames.ack(None, None), {"type": "ack", "id": None, "seq": None})
    same(
        frames.chat("名", None, 'hi \u2028 "q"', 1.5),
        {"type": "chat", "name": "名", "seat": None, "text": 'hi \u2028 "q"', "at": 1.5},
    )
    same(frames.error("stale", "look again", 3), protocol.error("stale", "look again", 3))
    same(
        frames.state(
            frames.room_info(
                id="r",
                game="g",
                options={},
                public=False,
                host="h",
                seats=[seat],
                status="open",
                number=0,
                game_id=None,
                scores=[Fraction(0)],
                settings={},
            ),
            None,
            [],
        ),
        {
            "type": "state",
            "room": {
                "id": "r",
                "game": "g",
                "options": {},
                "public": False,
                "host": "h",
                "seats": [
                    {
                        "seat": 2,
                        "player": "p",
                        "name": "P",
                        "bot": None,
                        "online": False,
                        "away": True,
                        "left": None,
                        "left_by": None,
                        "auto": False,
                    }
                ],
                "status": "open",
                "number": 0,
                "game_id": None,
                "scores": [0],
                "settings": {},
                "fill_at": None,
            },
            "table": None,
            "chat": [],
        },
    )
    assert frames.welcome("p", 2).startswith('{"type":"welcome"')  # (live.py counts welcomes so)


def test_the_audit_finds_a_field_no_model_declares():
    """The models let no undeclared field into a frame; the audit's check for one still works."""
    frame = json.loads(frames.ack(1, 2))
    assert frame_shape(frame, "ack") == []
    assert [f.check for f in frame_shape({**frame, "hands": []}, "ack")] == ["shape"]
