"""Limits that keep one client from slowing a public server: bodies counted as they arrive,
joins that cost others nothing, and rates and caps per address and per player."""

from __future__ import annotations

import httpx
import pytest

from tests.server_helpers import ServerThread, room_with, run
from yamen.client import Lobby, Seat


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "limits.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


def test_a_chunked_body_over_the_limit_is_refused_and_creates_nothing(server):
    lobby = run(Lobby.guest(server.url, "Chunky"))
    head = b'{"game": "baohuang", "options": {}, "public": true'
    padding = b" " * (200 * 1024)  # valid JSON whitespace: without a limit, a room is made

    def chunks():  # no Content-Length: httpx sends the body chunked
        yield head
        for i in range(0, len(padding), 8192):
            yield padding[i : i + 8192]
        yield b"}"

    headers = {"Authorization": f"Bearer {lobby.token}", "content-type": "application/json"}
    answer = httpx.post(f"{server.url}/api/rooms", content=chunks(), headers=headers)
    assert "content-length" not in answer.request.headers
    assert answer.status_code == 413
    assert answer.json()["detail"]["code"] == "too_large"
    listed = httpx.get(f"{server.url}/api/rooms").json()
    assert not [r for r in listed if r["host"] == lobby.player]


def test_a_chunked_body_under_the_limit_is_read(server):
    lobby = run(Lobby.guest(server.url, "Small"))
    body = b'{"game": "baohuang", "options": {}' + b" " * 30000 + b"}"
    headers = {"Authorization": f"Bearer {lobby.token}", "content-type": "application/json"}
    answer = httpx.post(
        f"{server.url}/api/rooms", content=iter([body[:100], body[100:]]), headers=headers
    )
    assert answer.status_code == 201 and answer.json()["host"] == lobby.player


def test_joining_sends_the_room_to_the_joiner_only(server):
    async def go():
        room_id, (host, guest) = await room_with(server.url, "baohuang", people=2)
        mine = await Seat.connect(host.ws_url(room_id), host.token)
        start = len(mine.frames)
        watchers = [await Seat.connect(host.ws_url(room_id)) for _ in range(15)]
        other = await Seat.connect(guest.ws_url(room_id), guest.token)  # a seat comes online
        await other.close()  # and goes
        await mine.wait(lambda f: f["type"] == "presence" and not f["online"], start=start)
        await mine.request(type="sync")
        seen = mine.frames[start:]
        for seat in [mine, *watchers]:
            await seat.close()
        return seen, watchers[0].frames

    seen, watcher = run(go())
    kinds = [f["type"] for f in seen]
    assert "room" not in kinds  # 15 spectators and a player came: no room info re-sent
    presence = [f for f in seen if f["type"] == "presence"]
    assert presence == [
        {"type": "presence", "seat": 1, "online": True, "away": False},
        {"type": "presence", "seat": 1, "online": False, "away": False},
    ]
    assert [f["type"] for f in watcher[:2]] == ["welcome", "state"]  # the joiner's own room
