"""Limits that keep one client from slowing a public server: bodies counted as they arrive,
joins that cost others nothing, and rates and caps per address and per player."""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import select
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import replace

import httpx
import pytest
import websockets

from tests.server import helpers
from tests.server.helpers import ServerThread, free_port, room_with, run
from tests.server.test_cluster import database, redis_url  # noqa: F401 (fixtures)
from yamen.client import Lobby, SeatClient
from yamen.engine import get_game
from yamen.server.limits import Limited, Limiter, Limits, Rate, address
from yamen.server.protocol import VERSION


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
        mine = await SeatClient.connect(host.ws_url(room_id), host.token)
        start = len(mine.frames)
        watchers = [await SeatClient.connect(host.ws_url(room_id)) for _ in range(15)]
        other = await SeatClient.connect(guest.ws_url(room_id), guest.token)  # a seat comes online
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


# ----- the limiter itself -------------------------------------------------------------------


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_bucket_allows_a_burst_then_refills_at_its_rate():
    clock = Clock()
    limiter = Limiter(replace(Limits.off(), chat=Rate(3, 30)), clock=clock)
    for _ in range(3):
        limiter.take("chat", "ann")
    with pytest.raises(Limited) as caught:
        limiter.take("chat", "ann")
    assert caught.value.code == "rate_limited" and caught.value.retry_after == 10
    limiter.take("chat", "bob")  # a bucket per key
    clock.now += 10
    limiter.take("chat", "ann")  # one refilled
    with pytest.raises(Limited):
        limiter.take("chat", "ann")


def test_a_refusal_charges_no_key():
    limiter = Limiter(replace(Limits.off(), rooms=Rate(2, 600)), clock=Clock())
    limiter.take("rooms", "ann", "10.0.0.1")
    limiter.take("rooms", "ann", "10.0.0.1")
    with pytest.raises(Limited):
        limiter.take("rooms", "ann", "10.0.0.2")  # ann has none left; 10.0.0.2 is untouched
    with pytest.raises(Limited):
        limiter.take("rooms", "bob", "10.0.0.1")  # nor has 10.0.0.1; bob is untouched
    limiter.take("rooms", "bob", "10.0.0.2")
    limiter.take("rooms", "cid", "10.0.0.2")


def test_the_limiter_keeps_a_bounded_number_of_keys():
    limiter = Limiter(replace(Limits.off(), joins=Rate(1, 3600)), keys=100, clock=Clock())
    for i in range(10_000):
        limiter.take("joins", f"10.0.{i // 256}.{i % 256}")
    assert len(limiter.buckets) == 100


def test_caps_count_what_is_open():
    limiter = Limiter(replace(Limits.off(), sockets_per_player=2))
    limiter.hold("sockets_per_player", "ann")
    limiter.hold("sockets_per_player", "ann")
    with pytest.raises(Limited) as caught:
        limiter.hold("sockets_per_player", "ann")
    assert caught.value.code == "too_many"
    limiter.release("sockets_per_player", "ann")
    limiter.hold("sockets_per_player", "ann")
    limiter.release("sockets_per_player", "ann")
    limiter.release("sockets_per_player", "ann")
    assert limiter.open == {}


def test_limits_are_set_by_name():
    limits = Limits().set(["rooms=4/60", "open_rooms=3", "chat=off", "idle_seconds=90"])
    assert (limits.rooms, limits.open_rooms, limits.chat) == (Rate(4, 60), 3, None)
    assert limits.idle_seconds == 90
    off = Limits().set(["all=off"])
    assert all(getattr(off, name) is None for name in Limits.PER_CLIENT)
    assert off.connections == Limits().connections
    for bad in ["nothing=1", "rooms=4", "open_rooms=-1", "request_seconds=off"]:
        with pytest.raises(ValueError):
            Limits().set([bad])


def test_an_ipv6_client_counts_by_its_64_block():
    class Peer:
        def __init__(self, host):
            self.host = host

    assert address(Peer("2001:db8:1:2:aaaa::1")) == address(Peer("2001:db8:1:2:bbbb::9"))
    assert address(Peer("2001:db8:1:3::1")) != address(Peer("2001:db8:1:2::1"))
    assert address(Peer("::ffff:10.1.2.3")) == "10.1.2.3" == address(Peer("10.1.2.3"))


# ----- the lobby ------------------------------------------------------------------------------


@contextmanager
def limited_server(tmp_path, **limits):
    """A server with only these limits per address and player."""
    with ServerThread(f"sqlite:///{tmp_path / 'tight.db'}", replace(Limits.off(), **limits)) as s:
        yield s


def refused_429(answer: httpx.Response, code: str = "rate_limited") -> None:
    assert answer.status_code == 429, answer.text
    detail = answer.json()["detail"]
    assert detail["code"] == code
    assert int(answer.headers["retry-after"]) == detail["retry_after"] >= 1


def test_guests_are_limited_per_address(tmp_path):
    with limited_server(tmp_path, guests=Rate(3, 600)) as server:
        answers = [httpx.post(f"{server.url}/api/guests", json={"name": "x"}) for _ in range(4)]
    assert [a.status_code for a in answers[:3]] == [201, 201, 201]
    refused_429(answers[3])
    assert "token" not in answers[3].text


def test_rooms_are_limited_per_player_and_address(tmp_path):
    body = {"game": "baohuang"}
    with limited_server(tmp_path, rooms=Rate(2, 600)) as server:
        ann, bob = (run(Lobby.guest(server.url, name)) for name in ("Ann", "Bob"))
        made = [httpx.post(f"{server.url}/api/rooms", json=body, headers=auth(ann)) for _ in "12"]
        again = httpx.post(f"{server.url}/api/rooms", json=body, headers=auth(ann))
        other = httpx.post(f"{server.url}/api/rooms", json=body, headers=auth(bob))
        listed = httpx.get(f"{server.url}/api/rooms").json()
    assert [a.status_code for a in made] == [201, 201]
    refused_429(again)
    refused_429(other)  # another guest, the same address
    assert len(listed) == 2


def test_a_host_has_a_few_open_rooms_at_most(tmp_path):
    body = {"game": "baohuang"}
    with limited_server(tmp_path, open_rooms=2) as server:
        ann, bob = (run(Lobby.guest(server.url, name)) for name in ("Ann", "Bob"))
        made = [httpx.post(f"{server.url}/api/rooms", json=body, headers=auth(ann)) for _ in "12"]
        third = httpx.post(f"{server.url}/api/rooms", json=body, headers=auth(ann))
        bobs = httpx.post(f"{server.url}/api/rooms", json=body, headers=auth(bob))
        listed = httpx.get(f"{server.url}/api/rooms").json()
    assert [a.status_code for a in made] == [201, 201]
    refused_429(third, "too_many")
    assert bobs.status_code == 201
    assert sorted(r["host"] for r in listed) == sorted([ann.player, ann.player, bob.player])


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_concurrent_creations_keep_to_the_open_rooms_cap(kind, tmp_path):
    """Ten creations at once by one host: the cap is checked and the room made in one step, so
    at most five are made; the others are refused ``too_many``."""
    body = {"game": "baohuang"}
    with (
        helpers.database(kind, tmp_path) as url,
        ServerThread(url, replace(Limits.off(), open_rooms=5)) as server,
    ):

        async def go():
            ann = await Lobby.guest(server.url, "Ann")
            async with httpx.AsyncClient(base_url=server.url, headers=auth(ann)) as http:
                made = await asyncio.gather(
                    *(http.post("/api/rooms", json=body) for _ in range(10))
                )
                listed = (await http.get("/api/rooms")).json()
            return ann.player, made, listed

        host, made, listed = run(go())
    statuses = sorted(a.status_code for a in made)
    assert statuses == [201] * 5 + [429] * 5
    for answer in made:
        if answer.status_code == 429:
            refused_429(answer, "too_many")
    assert [r["host"] for r in listed] == [host] * 5


def test_invite_guesses_are_limited_per_address(tmp_path):
    with limited_server(tmp_path, joins=Rate(3, 600)) as server:

        async def go():
            host = await Lobby.guest(server.url, "Host")
            room = await host.call("POST", "/api/rooms", {"game": "baohuang", "public": False})
            url = f"{server.url}/api/rooms/{room['id']}"
            guesses = [await host.http.get(url, params={"invite": f"x{i}"}) for i in range(4)]
            by_socket = await turned_away(host.ws_url(room["id"]), invite="guess")
            right = await host.http.get(url, params={"invite": room["invite"]})
            return guesses, by_socket, right

        guesses, by_socket, right = run(go())
    assert [a.status_code for a in guesses[:3]] == [404, 404, 404]
    refused_429(guesses[3])
    assert by_socket["code"] == "rate_limited" and by_socket["retry_after"] >= 1
    refused_429(right)  # even the right code waits: guessing costs the same


def test_lobby_calls_are_limited_per_address(tmp_path):
    with limited_server(tmp_path, lobby=Rate(5, 600)) as server:
        answers = [httpx.get(f"{server.url}/api/games") for _ in range(6)]
        page = httpx.get(f"{server.url}/")  # the browser client's files are not counted
    assert [a.status_code for a in answers[:5]] == [200] * 5
    refused_429(answers[5])
    assert page.status_code == 200


# ----- live play --------------------------------------------------------------------------------


def auth(lobby: Lobby) -> dict[str, str]:
    return {"Authorization": f"Bearer {lobby.token}"}


async def turned_away(url: str, token: str | None = None, invite: str | None = None) -> dict:
    """Connect and say hello (the server may close first); the error frame it closes with."""
    frames = []
    async with websockets.connect(url) as ws:
        hello = {"type": "hello", "v": VERSION, "token": token, "invite": invite}
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps(hello))
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in ws:
                frames.append(json.loads(text))
    assert ws.close_code == 1013
    return frames[-1]


def test_websockets_are_capped_per_address(tmp_path):
    with limited_server(tmp_path, sockets_per_address=3) as server:

        async def go():
            host = await Lobby.guest(server.url, "Host")
            room = await host.call("POST", "/api/rooms", {"game": "baohuang"})
            url = host.ws_url(room["id"])
            open_ = [await SeatClient.connect(url) for _ in range(3)]
            fourth = await turned_away(url)
            await open_[0].close()
            await asyncio.sleep(0.2)
            again = await SeatClient.connect(url)  # one closed: one may open
            for seat in [*open_[1:], again]:
                await seat.close()
            return fourth, again.frames

        fourth, again = run(go())
    assert fourth["code"] == "too_many" and fourth["retry_after"] >= 1
    assert [f["type"] for f in again[:2]] == ["welcome", "state"]


def test_websockets_are_capped_per_player_and_new_ones_rated(tmp_path):
    with limited_server(tmp_path, sockets_per_player=2, sockets=Rate(4, 600)) as server:

        async def go():
            host = await Lobby.guest(server.url, "Host")
            room = await host.call("POST", "/api/rooms", {"game": "baohuang"})
            url = host.ws_url(room["id"])
            mine = [await SeatClient.connect(url, host.token) for _ in range(2)]
            third = await turned_away(url, host.token)
            spectator = await SeatClient.connect(url)  # the fourth new connection: allowed
            fifth = await turned_away(url)  # over the rate of new connections
            for seat in [*mine, spectator]:
                await seat.close()
            return third, fifth

        third, fifth = run(go())
    assert third["code"] == "too_many"
    assert fifth["code"] == "rate_limited" and fifth["retry_after"] >= 1


def test_chat_is_limited_across_a_players_connections(tmp_path):
    with limited_server(tmp_path, chat=Rate(3, 600)) as server:

        async def go():
            room_id, (host,) = await room_with(server.url, "baohuang")
            one, two = [
                await SeatClient.connect(host.ws_url(room_id), host.token) for _ in range(2)
            ]
            answers = []
            for i in range(6):
                seat = (one, two)[i % 2]
                answers.append(await seat.request(type="chat", text=f"line {i}"))
            await one.request(type="sync")
            lines = [f["text"] for f in one.frames if f["type"] == "chat"]
            await one.close()
            await two.close()
            return answers, lines

        answers, lines = run(go())
    assert [a["type"] for a in answers] == ["ack"] * 3 + ["error"] * 3
    assert {a["code"] for a in answers[3:]} == {"rate_limited"}
    assert all(a["retry_after"] >= 1 for a in answers[3:])
    assert lines == ["line 0", "line 1", "line 2"]


def test_a_connection_that_keeps_flooding_is_closed_and_one_refused_a_few_times_is_not(tmp_path):
    """Answering a flood frame by frame costs as much as the flood: a connection that sends
    FLOOD frames in a row that are refused for their rate is told so and closed (1008)."""
    from yamen.server.live import FLOOD

    with limited_server(tmp_path, chat=Rate(2, 600)) as server:

        async def flood(url: str, token: str, lines: int) -> tuple[list[dict], int | None]:
            frames = []
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "v": VERSION, "token": token}))
                with contextlib.suppress(websockets.ConnectionClosed):
                    for i in range(lines):
                        await ws.send(json.dumps({"type": "chat", "text": f"{i}", "id": i}))
                    await ws.send(json.dumps({"type": "sync", "id": "last"}))
                    async for text in ws:
                        frames.append(json.loads(text))
                        if frames[-1].get("id") == "last" and frames[-1]["type"] == "ack":
                            break
            return frames, ws.close_code

        async def go():
            host = await Lobby.guest(server.url, "Host")
            other = await Lobby.guest(server.url, "Other")
            room = await host.call("POST", "/api/rooms", {"game": "baohuang"})
            url = host.ws_url(room["id"])
            ignored = await flood(url, host.token, FLOOD + 10)
            heeded = await flood(url, other.token, FLOOD - 1)  # 2 taken, FLOOD-3 refused
            return ignored, heeded

        (ignored, ignored_close), (heeded, heeded_close) = run(go())
    errors = [f for f in ignored if f["type"] == "error"]
    assert [f["code"] for f in errors] == ["rate_limited"] * (FLOOD - 1) + ["flooding"]
    assert ignored_close == 1008  # closed: the sync after the flood got no answer
    assert not any(f["type"] == "ack" and f["id"] == "last" for f in ignored)
    assert heeded[-1] == {"type": "ack", "id": "last", "seq": None}
    assert heeded_close is None or heeded_close == 1000  # still open when the client left


# ----- memory and connections of the whole server -------------------------------------------------


def test_rooms_nobody_uses_are_unloaded_and_come_back_on_use(tmp_path):
    with limited_server(tmp_path, idle_seconds=0.4) as server:
        rooms = server.app.state.rooms

        async def until(check, seconds=15):
            async with asyncio.timeout(seconds):
                while not check():
                    await asyncio.sleep(0.05)

        async def go():
            host = await Lobby.guest(server.url, "Host")
            idle = await host.call("POST", "/api/rooms", {"game": "baohuang", "seat": 0})
            watched = await host.call("POST", "/api/rooms", {"game": "baohuang"})
            seat = await SeatClient.connect(host.ws_url(watched["id"]))
            await until(lambda: idle["id"] not in rooms.loaded)
            await asyncio.sleep(1.2)  # three idle periods: a watched room stays
            kept = watched["id"] in rooms.loaded
            await seat.close()
            await until(lambda: watched["id"] not in rooms.loaded)
            again = await host.call("GET", f"/api/rooms/{idle['id']}")  # loaded again
            back = idle["id"] in rooms.loaded
            await host.call("PUT", f"/api/rooms/{idle['id']}/seats/1/bot", {"bot": "random"})
            return kept, again, back

        kept, again, back = run(go())
    assert kept and back
    assert again["seats"][0]["player"] is not None  # as stored


def test_half_sent_requests_are_closed_and_the_server_still_answers(tmp_path):
    """A flood of connections that never finish their request, against ``yamen serve`` with
    few file descriptors: those past the cap are turned away at once, the rest closed once
    ``request_seconds`` pass, and the server answers as before (it never runs out of files)."""
    port = free_port()
    command = [sys.executable, "-m", "yamen", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp_path / 'flood.db'}", "--limit", "request_seconds=2"]
    few = (256, 256)  # descriptors: the cap is 128 connections

    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, few),
    )
    try:
        assert "serving at" in proc.stdout.readline()
        flood = []
        for _ in range(300):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # never finished
            flood.append(s)
        time.sleep(3)  # past request_seconds
        closed = closed_by_server(flood, seconds=5)
        answer = httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=10)
    finally:
        proc.terminate()
        log = proc.communicate(timeout=30)[0]
    assert closed == 300  # every half-sent request was closed by the server
    assert answer.status_code == 200
    assert "Too many open files" not in log


def closed_by_server(sockets: list[socket.socket], seconds: float) -> int:
    """How many of ``sockets`` the server closes within ``seconds`` (each is closed here)."""
    waiting, closed = set(sockets), 0
    deadline = time.monotonic() + seconds
    while waiting and time.monotonic() < deadline:
        readable, _, _ = select.select(list(waiting), [], [], 0.2)
        for s in readable:
            try:
                if s.recv(4096):
                    continue  # an answer (408, 503); the close follows
            except ConnectionResetError:
                pass
            waiting.discard(s)
            closed += 1
    for s in sockets:
        s.close()
    return closed


def test_an_idle_room_of_a_cluster_lets_its_lease_go(database, redis_url):  # noqa: F811
    """Unloading in a cluster also lets go of the room's lease, so any process may load it."""
    from yamen.server.cluster import ClusterRooms
    from yamen.server.identity import new_guest
    from yamen.server.rooms import Room

    async def go():
        one = ClusterRooms(database, redis_url)
        two = ClusterRooms(database, redis_url)
        for rooms in (one, two):
            await rooms.open_store()
            await rooms.resume()
        try:
            host, _ = await new_guest(one.store, "host")
            link = await one.create(host.id, get_game("baohuang"), True, None)
            held = await one.redis.get(one.leases.key(link.id))
            unloaded = await one.sweep_idle(0)
            after = await one.redis.get(one.leases.key(link.id))
            taken = (await two.get(link.id)).target
            return held == one.node, unloaded, after, link.id in one.loaded, taken
        finally:
            for rooms in (one, two):
                await rooms.close()
                await rooms.store.close()

    held, unloaded, after, still, taken = run(go())
    assert held and unloaded == 1 and after is None and not still
    assert isinstance(taken, Room)  # the other process loaded it: the lease was free


def test_a_game_nobody_is_at_is_unloaded_and_goes_on_when_someone_comes(tmp_path):
    with limited_server(tmp_path, idle_seconds=0.4) as server:
        rooms = server.app.state.rooms

        async def go():
            rid, (host,) = await room_with(server.url, "baohuang", bot="random")
            await host.call("POST", f"/api/rooms/{rid}/start")
            await host.call("POST", f"/api/rooms/{rid}/leave")  # a bot plays the seat; bots wait
            async with asyncio.timeout(15):
                while rid in rooms.loaded:
                    await asyncio.sleep(0.05)
            watcher = await SeatClient.connect(host.ws_url(rid))  # someone comes: loaded, played on
            await watcher.wait(lambda f: f["type"] == "update" and f["table"]["result"], 60)
            await watcher.close()

        run(go())
