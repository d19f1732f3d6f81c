"""Fuzzed frames: whatever a client sends, it gets an answer, keeps its connection, and the
game does not change unless a legal action of its own seat was sent.

Three kinds: any frames from a seat out of turn; the text of every game's actions, mutated,
from the seat to act (so that it reaches the game's notation parser); and frames built to break
the JSON reader (arrays nested 1,000 deep, integers of 4,301 digits and more).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.test_notation_fuzz import GAMES, ODD, mutate
from tests.server.helpers import ServerThread, room_with, run
from yamen.client import SeatClient

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
frames = st.one_of(
    st.binary(max_size=64),
    st.text(max_size=64),
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["act", "chat", "sync", "hello", "bogus"])},
        optional={
            "action": json_values,
            "text": json_values,
            "seq": json_values,
            "id": json_values,
            "v": json_values,
        },
    ).map(json.dumps),
)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "fuzz.db"
    with ServerThread(f"sqlite:///{db}") as server:

        async def setup():
            rid, lobbies = await room_with(server.url, "baohuang", {"deals": 1}, people=5)
            await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
            watcher = await SeatClient.connect(lobbies[0].ws_url(rid))
            pending = watcher.table["pending"]
            await watcher.close()
            waiting = next(s for s in range(5) if s not in pending)  # no legal action to hit
            return rid, lobbies[waiting]

        rid, lobby = run(setup())
        yield server, rid, lobby


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sent=st.lists(frames, min_size=1, max_size=12))
def test_any_frames_are_answered_and_change_nothing(table, sent):
    server, rid, lobby = table

    async def go():
        seat = await SeatClient.connect(lobby.ws_url(rid), lobby.token)
        before = seat.table
        for raw in sent:
            await seat.send_raw(raw)
        answer = await seat.request(type="sync")
        after = seat.table
        errors = [f for f in seat.frames if f["type"] == "error"]
        await seat.close()
        return before, after, answer, errors

    before, after, answer, errors = run(go())
    assert answer["type"] == "ack"  # still connected and answering
    assert after == before
    assert all(e["code"] != "storage" for e in errors)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "fuzz-games.db"
    with ServerThread(f"sqlite:///{db}") as server:
        server.rooms = {}  # one room per game of GAMES, every seat a guest, made when first used
        yield server


async def seat_to_act(server, game: str, options: dict) -> tuple[SeatClient, list]:
    """A connection of the seat that owes a decision in this game's room (a new game when the
    last one is over), and every seat's lobby."""
    key = json.dumps([game, options])
    if key not in server.rooms:
        rid, lobbies = await room_with(server.url, game, options, people=99)
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        server.rooms[key] = rid, lobbies
    rid, lobbies = server.rooms[key]
    watcher = await SeatClient.connect(lobbies[0].ws_url(rid))
    table = watcher.table
    await watcher.close()
    if table["result"] is not None:
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        return await seat_to_act(server, game, options)
    lobby = lobbies[table["pending"][0]]
    return await SeatClient.connect(lobby.ws_url(rid), lobby.token), lobbies


async def answered(seat: SeatClient, raw: str) -> dict:
    """Send a raw frame as the seat; its answer (error, or ack of a taken move) and the table
    after it (a sync, which also shows that the connection is still open)."""
    start = len(seat.frames)
    await seat.send_raw(raw)
    answer = await seat.wait(lambda f: f["type"] in ("ack", "error"), start=start)
    synced = await seat.request(type="sync")
    assert synced["type"] == "ack", synced  # still connected and answering
    return answer


def unchanged_unless_taken(answer: dict, before: dict, after: dict, raw: str) -> None:
    if answer["type"] == "ack":  # a legal move after all (a mutation that still reads)
        assert after["seq"] == before["seq"] + 1, raw
    else:
        assert answer["code"] in ("illegal", "bad_message", "bad_json", "too_large"), answer
        assert after == before, raw


texts = st.one_of(
    st.tuples(st.just("mutated"), st.integers(0, 2**32)),
    st.tuples(st.just("text"), st.text(max_size=30)),
    st.tuples(st.just("odd"), st.lists(st.sampled_from(ODD), min_size=1, max_size=3)),
)


@pytest.mark.parametrize(("game", "options"), GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(how=texts)
def test_any_action_text_from_the_seat_to_act_is_answered(server, game, options, how):
    async def go():
        seat, _ = await seat_to_act(server, game, options)
        before = seat.table
        kind, value = how
        if kind == "mutated":
            rng = random.Random(value)
            text = mutate(rng, rng.choice(before["view"]["legal"]))
        else:
            text = value if kind == "text" else " ".join(value)
        raw = json.dumps({"type": "act", "text": text, "seq": before["seq"]})
        answer = await answered(seat, raw)
        after = seat.table
        await seat.close()
        return answer, before, after, raw

    unchanged_unless_taken(*run(go()))


DEEP = "[" * 1000 + "]" * 1000
HUGE = "9" * 4301
BREAKERS = [
    DEEP,
    '{"type": "act", "action": ' + DEEP + "}",
    '{"type": "act", "text": ' + "[" * 900 + "]" * 900 + "}",
    '{"type": "act", "id": 1, "text": {"a": ' * 500 + "1" + "}" * 501,
    '{"type": "act", "action": ' + HUGE + "}",
    '{"type": "act", "action": -' + HUGE + "}",
    '{"type": "act", "action": 0, "seq": ' + HUGE + "}",
    '{"type": "act", "action": 0, "id": ' + HUGE + "}",
    '{"type": "act", "action": ' + "9" * 4300 + "}",  # still read: too large to be an action
    '{"type": "act", "action": 1e400}',
    '{"type": "act", "text": "vote ²"}',
    '{"type": "act", "text": "next ²"}',
    '{"type": "act", "text": "arrest ①"}',
    '{"type": "act", "text": "vote ' + "9" * 450 + '"}',
    '{"type": "act", "text": "appoint ²"}',
    '{"type": "act", "text": "guess ① holds"}',
    '{"type": "chat", "text": ' + DEEP + "}",
    '{"type": "sync", "id": ' + HUGE + "}",
]


@pytest.mark.parametrize(("game", "options"), [GAMES[0], GAMES[3], GAMES[4]])
def test_frames_that_break_readers_are_refused_and_change_nothing(server, game, options):
    async def go():
        seat, _ = await seat_to_act(server, game, options)
        results = []
        for raw in BREAKERS:
            before = seat.table
            answer = await answered(seat, raw)
            results.append((answer, before, seat.table, raw[:80]))
        await seat.close()
        return results

    for answer, before, after, raw in run(go()):
        assert answer["type"] == "error", (raw, answer)
        unchanged_unless_taken(answer, before, after, raw)
        # an error (it may quote the text), no traceback
        assert len(answer["message"]) < 700, answer
