"""What keeps a room from stalling in silence, on one process: the room watchdog, the hello
watchdog, a sync that costs no database read, ``GET /metrics`` and the JSON log
(yamen/server/watchdog.py, live.py, metrics.py, logs.py)."""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace

import httpx

from tests.server.helpers import FAST, ServerThread, room_with, run
from yamen.client import Lobby, SeatClient
from yamen.engine import get_game
from yamen.server import protocol
from yamen.server.limits import Limits
from yamen.server.logs import JsonFormatter
from yamen.server.operations import SetBot, Start
from yamen.server.registry import Rooms
from yamen.server.storage import Store
from yamen.server.watchdog import Watchdog


class Listener:
    def __init__(self, player: str | None = None):
        self.player, self.seat = player, None
        self.frames: list[dict] = []

    def send(self, text: str) -> None:
        self.frames.append(json.loads(text))


async def bot_room(path, settings=None):
    """A room of three bots, started (nobody is at it yet: its bots wait for someone)."""
    store = Store(f"sqlite:///{path}")
    await store.open()
    await store.add_player("p", "P", "token")
    rooms = Rooms(store)
    room = await rooms.create("p", get_game("bao_qingtian", {"players": 3}), True, settings or FAST)
    for seat in range(3):
        await room.run(SetBot("p", seat, "random"))
    await room.run(Start("p"))
    return store, rooms, room


def test_a_room_whose_driver_died_is_found_and_moves_again(tmp_path):
    """A game whose bot move is due, its driver gone: the watchdog counts it, starts the
    driver again, and counts it recovered once the game has moved."""

    async def go():
        store, rooms, room = await bot_room(tmp_path / "w.db", {**FAST, "bot_delay": 10})
        watcher = Listener("p")
        await room.attach(watcher)  # someone is at the table: its bots should play
        room.driver.task.cancel()  # the driver dies (a bug, say) with a move to come
        await asyncio.sleep(0)
        dog = Watchdog(rooms, seconds=5)
        calm = await dog.check()  # not due yet
        room.settings = room.settings.__class__.stored({**FAST, "bot_delay": 0}, room.game)
        found = await dog.check(ahead=10)  # a move due 10 s ago, nothing moved
        before = len(room.match.record.actions)
        async with asyncio.timeout(10):
            while len(room.match.record.actions) == before:
                await asyncio.sleep(0.02)
        await dog.check()
        text = rooms.metrics.text().decode()
        await rooms.close()
        await store.close()
        return calm, found, room.id, text

    calm, found, rid, text = run(go())
    assert calm == [] and found == [rid]
    assert 'yamen_stalled_rooms_total{outcome="detected"} 1.0' in text
    assert 'yamen_stalled_rooms_total{outcome="recovered"} 1.0' in text


def test_a_room_nobody_is_at_is_not_stalled(tmp_path):
    """Its bots wait on purpose (Room.present): nothing is due, nothing is recovered."""

    async def go():
        store, rooms, room = await bot_room(tmp_path / "p.db")
        found = await Watchdog(rooms, seconds=1).check(ahead=3600)
        await rooms.close()
        await store.close()
        return found, room.due()

    found, due = run(go())
    assert found == [] and due is None


def test_a_sync_reads_no_chat_from_the_database(tmp_path):
    """A sync answers from memory: the chat is read once, then kept by the room (it was read
    from the database under the room's lock at every sync, so a client syncing often held
    its room back)."""

    async def go():
        store, rooms, room = await bot_room(tmp_path / "c.db", {**FAST, "bot_delay": 10})
        await store.add_player("q", "Q", "token-q")
        reads = []
        chat = store.chat

        async def counted(room_id, limit):
            reads.append(room_id)
            return await chat(room_id, limit)

        store.chat = counted
        listener = Listener("q")
        await room.attach(listener)
        await room.chat(listener, "hello")
        for n in range(20):
            await room.receive(listener, protocol.Sync(type="sync", id=n))
        states = [f for f in listener.frames if f["type"] == "state"]
        await rooms.close()
        await store.close()
        return reads, states

    reads, states = run(go())
    assert len(reads) <= 1
    assert len(states) == 21 and states[-1]["chat"][-1]["text"] == "hello"
    assert states[-1]["chat"][-1]["name"] == "Q"


def test_metrics_are_served_without_the_lobby_limit_and_name_no_room(tmp_path):
    from yamen.server.limits import Limits, Rate

    limits = replace(Limits.off(), lobby=Rate(4, 600))  # room_with makes four calls
    with ServerThread(f"sqlite:///{tmp_path / 'm.db'}", limits) as server:

        async def go():
            rid, (host,) = await room_with(server.url, "bao_qingtian", {"players": 3})
            seat = await SeatClient.connect(host.ws_url(rid), host.token)
            async with httpx.AsyncClient() as http:
                answers = [await http.get(f"{server.url}/metrics") for _ in range(10)]
                lobby = await http.get(f"{server.url}/api/rooms/{rid}")
            await seat.close()
            return rid, host, answers, lobby

        rid, host, answers, lobby = run(go())
    assert lobby.status_code == 429  # the lobby's limit is spent
    assert all(a.status_code == 200 for a in answers)  # and /metrics does not count it
    text = answers[-1].text
    assert answers[-1].headers["content-type"].startswith("text/plain")
    for name in (
        "yamen_rooms_loaded 1.0",
        "yamen_connections 1.0",
        "yamen_hello_seconds_count 1.0",
        'yamen_stalled_rooms_total{outcome="detected"} 0.0',
        'yamen_relayed_frames_total{direction="in"} 0.0',
        'yamen_leases_total{outcome="lost"} 0.0',
    ):
        assert name in text
    assert rid not in text and host.token not in text and "bao_qingtian" not in text


def test_a_client_without_a_welcome_in_time_is_told_and_closed(tmp_path):
    """The hello watchdog: a client its room does not welcome in time gets an error and a
    close with a reason, never silence."""
    with ServerThread(f"sqlite:///{tmp_path / 'h.db'}") as server:
        server.app.state.rooms.welcome_seconds = 0.5

        async def go():
            rid, (host,) = await room_with(server.url, "bao_qingtian", {"players": 3})
            room = server.app.state.rooms.loaded[rid]

            async def stuck(conn):  # a room that never answers (a lock held for ever, say)
                await asyncio.sleep(3600)

            room.attach = stuck
            seat = await SeatClient.connect(Lobby(server.url).ws_url(rid), host.token)
            await seat.wait(lambda f: f["type"] == "error", 10)
            async with asyncio.timeout(10):
                while not seat.closed:
                    await asyncio.sleep(0.02)
            del room.attach
            code, reason = seat.ws.close_code, seat.ws.close_reason
            text = (await httpx.AsyncClient().get(f"{server.url}/metrics")).text
            return seat.frames, code, reason, text

        frames, code, reason, text = run(go())
    assert frames[-1]["code"] == "unavailable" and (code, reason) == (1013, "unavailable")
    assert 'yamen_stalled_connections_total{outcome="closed"} 1.0' in text


def test_the_json_log_keeps_the_room_id():
    record = logging.LogRecord(
        "yamen.server.cluster", logging.WARNING, "x", 1, "lease %s", ("lost",), None
    )
    record.room = "abc123"
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "lease lost" and line["room"] == "abc123"
    assert line["level"] == "warning" and line["logger"] == "yamen.server.cluster"


def test_a_quiet_table_sends_beats_that_tell_its_seq_and_nothing_more(tmp_path):
    """The heartbeat (yamen/server/beats.py): a connection sent nothing for ``beat_seconds``
    gets a beat with the game number and action count its own table shows: the live ones for
    a seat, the delayed ones for a spectator of a room with a spectator delay."""
    limits = replace(Limits.off(), beat_seconds=0.3)
    with ServerThread(f"sqlite:///{tmp_path / 'b.db'}", limits) as server:

        async def go():
            settings = {**FAST, "spectator_delay": 2}
            rid, (host,) = await room_with(server.url, "baohuang", settings=settings)
            seat = await SeatClient.connect(host.ws_url(rid), host.token)
            await host.call("POST", f"/api/rooms/{rid}/start")
            await seat.wait(lambda f: f["type"] == "update" and f["table"]["legal"])  # waits
            watcher = await SeatClient.connect(Lobby(server.url).ws_url(rid))
            marks = len(seat.frames), len(watcher.frames)
            for client, mark in zip((seat, watcher), marks, strict=True):
                await client.wait(lambda f: f["type"] == "beat", start=mark)
                await client.wait(lambda f: f["type"] == "beat", start=len(client.frames))
            beats = [
                [f for f in client.frames[mark:] if f["type"] == "beat"]
                for client, mark in zip((seat, watcher), marks, strict=True)
            ]
            tables = seat.table, watcher.table
            for client in (seat, watcher):
                await client.close()
            return beats, tables

        (seat_beats, watcher_beats), (table, delayed) = run(go())
    assert table["seq"] > 2 and delayed["seq"] == table["seq"] - 2
    for beats, shown in ((seat_beats, table), (watcher_beats, delayed)):
        assert len(beats) >= 2
        for frame in beats:
            protocol.server_message.validate_python(frame)
            assert frame == {"type": "beat", "number": 1, "seq": shown["seq"], "every": 0.3}


def test_a_connection_sent_nothing_is_counted_silent_and_sent_the_table(tmp_path):
    """A client its room has forgotten (a bug, say: neither frames nor beats reach it) is
    counted in ``yamen_silent_connections`` once twice the heartbeat has passed; the watchdog
    attaches it to the room again (``yamen_resynced_connections_total{why="silent"}``): a
    welcome and the table, and it is not silent any more."""
    limits = replace(Limits.off(), beat_seconds=0.3)
    with ServerThread(f"sqlite:///{tmp_path / 's.db'}", limits) as server:

        async def scrape() -> str:
            async with httpx.AsyncClient() as http:
                return (await http.get(f"{server.url}/metrics")).text

        async def go():
            rid, (host,) = await room_with(server.url, "bao_qingtian", {"players": 3})
            seat = await SeatClient.connect(host.ws_url(rid), host.token)
            (client,) = server.app.state.heartbeat.clients
            calm = await scrape()
            mark = len(seat.frames)
            server.app.state.rooms.loaded[rid].connections.discard(client)  # forgotten
            async with asyncio.timeout(10):
                while "yamen_silent_connections 1.0" not in (silent := await scrape()):
                    await asyncio.sleep(0.05)
            await seat.wait(lambda f: f["type"] == "welcome", timeout=20, start=mark)
            await seat.wait(lambda f: f["type"] == "state", timeout=20, start=mark)
            await asyncio.sleep(0.1)
            after = await scrape()
            await seat.close()
            return calm, silent, after, seat.frames[mark:]

        calm, silent, after, frames = run(go())
    assert [f["type"] for f in frames][:2] == ["welcome", "state"]  # nothing until then
    assert "yamen_silent_connections 0.0" in calm
    assert "yamen_silent_connections 1.0" in silent
    assert "yamen_silent_connections 0.0" in after
    assert 'yamen_resynced_connections_total{why="silent"} 0.0' not in after
