"""The leak audit: every frame the server sent to every seat and spectator, checked against
the true game rebuilt from its record.

Each seat must receive exactly its own view, its own legal actions and the events it may see
(yamen/engine.py's ``view`` and ``visible_to``, themselves tested to hide other hands), and no
other frame may carry game data. Equality, not a search for card names: anything extra fails.
"""

from __future__ import annotations

import json
import random

import pytest

from tests.server_helpers import ServerThread, play_to_end, room_with, run
from yamen.client import Seat
from yamen.engine import visible_to
from yamen.records import Record
from yamen.server.protocol import server_message


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "audit.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


def plain(data):
    return json.loads(json.dumps(data))


def truth(record: Record) -> list[dict]:
    """For every action count k: each audience's view, legal actions and visible events."""
    state = record.start()
    audiences = [None, *range(state.num_seats)]

    def step(events):
        return {
            seat: {
                "view": plain(state.view(seat)),
                "legal": state.legal(seat) if seat is not None else [],
                "events": plain(
                    [{"kind": e.kind, "data": e.data} for e in visible_to(events, seat)]
                ),
                "pending": list(state.pending()),
            }
            for seat in audiences
        }

    steps = [step(state.opening_events)]
    for seat, text in record.actions:
        events = state.apply(seat, state.parse_action(seat, text))
        steps.append(step(events))
    return steps


GAMES = [
    ("baohuang", {"deals": 1}, 2),
    ("baohuang", {"variant": "japanese", "deals": 1}, 2),
    ("criminal_poker", {"mode": "sheriff", "players": 5}, 2),
    ("criminal_poker", {"mode": "detective", "players": 4}, 2),
    ("bao_qingtian", {"players": 5}, 2),
]


@pytest.mark.parametrize(("game", "options", "games"), GAMES)
def test_every_frame_holds_only_what_its_receiver_may_see(server, game, options, games):
    async def go(seed):
        rid, lobbies = await room_with(server.url, game, options, people=99)
        seats = [await Seat.connect(lobby.ws_url(rid), lobby.token) for lobby in lobbies]
        spectator = await Seat.connect(lobbies[0].ws_url(rid))
        rng = random.Random(seed)
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        await play_to_end(seats, lambda s: rng.choice(s.table["legal"]))
        await spectator.wait(lambda f: f["type"] == "update" and f["table"]["result"] is not None)
        info = await lobbies[0].call("GET", f"/api/rooms/{rid}")
        record = await lobbies[0].call("GET", f"/api/games/{info['game_id']}/record")
        for seat in (*seats, spectator):
            await seat.close()
        return [(s.seat, s.frames) for s in (*seats, spectator)], Record.from_json(record)

    for seed in range(games):
        received, record = run(go(seed))
        steps = truth(record)
        checked = 0
        for seat, frames in received:
            for frame in frames:
                server_message.validate_python(frame)  # the documented schema
                kind = frame["type"]
                if kind in ("update", "state") and frame["table"] is not None:
                    table = frame["table"]
                    want = steps[table["seq"]][seat]
                    assert table["view"] == want["view"], (seat, table["seq"])
                    assert table["legal"] == want["legal"], (seat, table["seq"])
                    assert table["pending"] == want["pending"]
                    if kind == "update":
                        assert frame["events"] == want["events"], (seat, table["seq"])
                    checked += 1
                else:  # no game data anywhere else
                    assert kind in (
                        "welcome",
                        "state",
                        "room",
                        "presence",
                        "ack",
                        "error",
                        "chat",
                    ), kind
                    assert "view" not in json.dumps(frame)
        # every seat saw every step of the game
        assert checked >= len(received) * len(record.actions)
