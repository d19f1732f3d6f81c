"""Fuzzed frames: whatever a client sends, it gets an answer, keeps its connection, and the
game does not change unless a legal action of its own seat was sent."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server_helpers import ServerThread, room_with, run
from yamen.client import Seat

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
            watcher = await Seat.connect(lobbies[0].ws_url(rid))
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
        seat = await Seat.connect(lobby.ws_url(rid), lobby.token)
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
