"""Crash recovery: a server killed with SIGKILL mid-game, restarted on the same database,
resumes every game at its last acknowledged action; nothing acknowledged is lost.

The kill is aimed: the journal's test seam (``YAMEN_TEST_HOLD_COMMITS``) holds the commit of
one more action, and the server is killed while it is held. A server that acknowledged or
broadcast that action before committing it is caught every time (the client saw an action the
restarted server does not have), on SQLite as on PostgreSQL; without the seam the kill would
have to land in a window of a millisecond or so.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.server.helpers import ServerProcess, database, play_to_end, room_with, run
from yamen.client import Lobby, SeatClient
from yamen.records import Record, replay
from yamen.server.journal import HOLD_ENV
from yamen.server.storage import Store


async def acknowledged_steps(seats: list[SeatClient], count: int, rng: random.Random) -> list:
    """Make ``count`` actions one by one, each waited for until acknowledged: (seat, text)."""
    done = []
    for _ in range(count):
        seat = next(s for s in seats if s.my_turn())
        table = seat.table
        index = rng.randrange(len(table["legal"]))
        answer = await seat.request(type="act", action=table["legal"][index], seq=table["seq"])
        assert answer["type"] == "ack", answer
        done.append((seat.seat, table["view"]["legal"][index]))
        for other in seats:  # everyone has seen the action before the next one
            await other.wait(
                lambda f, n=answer["seq"]: f["type"] == "update" and f["table"]["seq"] == n
            )
    return done


async def journal_game_id(url: str, public_id: str) -> int:
    """The id the journal knows a game by (tables and URLs show only its public id)."""
    store = Store(url)
    await store.open()
    try:
        return (await store.game_header(public_id)).id
    finally:
        await store.close()


async def held_step(
    seats: list[SeatClient], hold: Path, rng: random.Random, game_id: int
) -> list[dict]:
    """One more action, sent while the journal holds commits: the frames any seat got about
    it (an ack or an update) before the server is killed. A correct server sends none: it
    acknowledges and broadcasts only what is committed."""
    seat = next(s for s in seats if s.my_turn())
    table = seat.table
    starts = [len(s.frames) for s in seats]
    hold.touch()
    index = rng.randrange(len(table["legal"]))
    await seat.send(type="act", action=table["legal"][index], seq=table["seq"], id="held")
    held = hold.with_name(hold.name + ".held")
    mine = f"{game_id} {table['seq']}"
    async with asyncio.timeout(30):  # the action has reached the journal and waits there
        while not held.exists() or mine not in held.read_text().splitlines():
            await asyncio.sleep(0.01)
    # What a server that does not wait for its commit sends is on its way by now (it was sent
    # before or just after the journal was given the action): let it arrive.
    await asyncio.sleep(0.5)
    told = []
    for other, start in zip(seats, starts, strict=True):
        told += [f for f in other.frames[start:] if f["type"] in ("ack", "update")]
    return told


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_killed_server_resumes_every_game_where_it_stood(kind, tmp_path, monkeypatch):
    hold = tmp_path / "hold-commits"
    monkeypatch.setenv(HOLD_ENV, str(hold))  # the server process reads it at start-up
    with database(kind, tmp_path) as url:
        server = ServerProcess(url).start()
        try:
            run_crash(server, url, hold)
        finally:
            hold.unlink(missing_ok=True)
            server.stop()


def run_crash(server: ServerProcess, url: str, hold: Path) -> None:
    rng = random.Random(5)

    async def before():
        rid, lobbies = await room_with(server.url, "baohuang", {"deals": 1}, people=5)
        # a second room played by bots alone (a long game: it cannot end before the kill)
        # must go on by itself after the restart
        bots_rid, (host,) = await room_with(
            server.url,
            "baohuang",
            {"deals": 1},
            people=1,
            bot="rules",
            settings={"bot_delay": 0.2, "turn_seconds": None, "away_seconds": 0},
        )
        seats = [await SeatClient.connect(lobby.ws_url(rid), lobby.token) for lobby in lobbies]
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        await host.call("POST", f"/api/rooms/{bots_rid}/start")
        for seat in seats:
            await seat.wait(lambda f: f["type"] == "update")
        done = await acknowledged_steps(seats, 25, rng)
        views = [s.table["view"] for s in seats]
        game_id = await journal_game_id(url, seats[0].table["game_id"])
        told = await held_step(seats, hold, rng, game_id)
        return rid, bots_rid, lobbies, done, views, told

    rid, bots_rid, lobbies, done, views, told = run(before())
    server.kill()
    hold.unlink()
    # nothing was said of an action that was not yet committed (it is lost with the process)
    assert told == [], told
    server.start()

    async def after():
        seats = [await SeatClient.connect(lobby.ws_url(rid), lobby.token) for lobby in lobbies]
        resumed = [s.table for s in seats]
        result = await play_to_end(seats, lambda s: rng.choice(s.table["legal"]))
        host = Lobby(server.url, lobbies[0].token)
        info = await host.call("GET", f"/api/rooms/{rid}")
        record = await host.call("GET", f"/api/games/{info['game_id']}/record")
        # the bots' room goes on by itself
        watcher = await SeatClient.connect(host.ws_url(bots_rid))
        moved = await watcher.wait(lambda f: f["type"] == "update", timeout=30)
        await watcher.close()
        for seat in seats:
            await seat.close()
        return resumed, result, record, moved

    resumed, result, data, moved = run(after())
    assert [t["seq"] for t in resumed] == [len(done)] * 5
    assert [t["view"] for t in resumed] == views
    record = Record.from_json(data)
    assert [tuple(a) for a in record.actions[: len(done)]] == done
    assert replay(record).result() is not None and result is not None
    assert moved["table"]["seq"] > 0
