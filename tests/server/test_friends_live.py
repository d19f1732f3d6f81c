"""Friends at a table, told by their connections (yamen/server/presence.py, invite_news.py): a
new invite reaches its receiver's live connection as an ``invites`` frame within a tick or two,
without any ask for invites; a player connected to a room is kept online at it by the batch and
goes offline once their connections closed; and the work is bounded: N connected players cost
one presence transaction a period and one invites query a tick, whatever N. On SQLite and
PostgreSQL. (Across two processes: tests/server/test_friends_cluster.py.)"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

import pytest
from sqlalchemy import event, select

from tests.server.helpers import ServerThread, database, run
from tests.server.leak_audit import frame_shape
from tests.server.test_friends import friends, table
from tests.server.test_player_page import Work
from yamen.client import Lobby, SeatClient
from yamen.server import friend_store, invite_news, invite_store, presence
from yamen.server.invite_news import InviteNews
from yamen.server.presence import Presence
from yamen.server.revocation import Sockets
from yamen.server.storage import Store
from yamen.server.tables import PresenceRow, RoomRow

TOLD = 10 * invite_news.TICK_SECONDS  # how long a test waits for what a tick or two tells


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request, tmp_path_factory):
    with (
        database(request.param, tmp_path_factory.mktemp("db")) as url,
        ServerThread(url) as server,
    ):
        yield server


async def presence_of(lobby: Lobby, player: str) -> dict:
    listed = await lobby.call("GET", "/api/friends")
    return next(f["presence"] for f in listed["friends"] if f["player"] == player)


async def until(check, seconds: float = TOLD):
    """``check()``'s answer, once it is true (asked every 0.1 s), or a failure."""
    deadline = time.monotonic() + seconds
    while not (answer := await check()):
        assert time.monotonic() < deadline, "never came"
        await asyncio.sleep(0.1)
    return answer


def test_an_invite_reaches_the_receiver_at_a_table_as_a_frame(server):
    async def go():
        ann, bob, cat = await friends(server.url, "Ann", "Bob", "Cat")
        mine, bobs = await table(ann), await table(bob)
        at_table = await SeatClient.connect(bob.ws_url(bobs["id"]), bob.token)
        cat_there = await SeatClient.connect(cat.ws_url(bobs["id"]), cat.token)  # watching
        try:
            sent = await ann.call("POST", "/api/invites", {"to": bob.player, "room": mine["id"]})
            told = await at_table.wait(lambda f: f["type"] == "invites", timeout=TOLD)
            shown = await bob.call("GET", "/api/invites")  # what the page asks, once told
            await asyncio.sleep(3 * invite_news.TICK_SECONDS)  # later ticks tell nobody again
            return sent, told, shown, at_table.frames, cat_there.frames
        finally:
            await at_table.close()
            await cat_there.close()

    sent, told, shown, bobs_frames, cats_frames = run(go())
    assert told == {"type": "invites"}  # nothing of the invite itself: the page asks for it
    assert frame_shape(told, "invites") == []
    assert [i["id"] for i in shown["invites"]] == [sent["id"]]
    assert [f for f in bobs_frames if f["type"] == "invites"] == [told]  # told once
    assert not [f for f in cats_frames if f["type"] == "invites"]  # not hers


def test_a_player_at_a_table_stays_online_there_until_they_leave(server, monkeypatch):
    # a short period, so that the test waits through several: written every SEEN_EVERY,
    # online for ONLINE_SECONDS after
    monkeypatch.setattr(presence, "TICK_SECONDS", 0.2)
    monkeypatch.setattr(friend_store, "SEEN_EVERY", 0.5)
    monkeypatch.setattr(friend_store, "ONLINE_SECONDS", 2.0)

    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        room = await table(bob)
        before = await presence_of(ann, bob.player)  # no page of his asked, none connected
        seat = await SeatClient.connect(bob.ws_url(room["id"]), bob.token)
        try:
            at_table = await until(
                lambda: asked_where(ann, bob.player, lambda p: p.get("room") == room["id"])
            )
            await asyncio.sleep(2 * friend_store.ONLINE_SECONDS)  # no ask: the batch keeps him
            still = await presence_of(ann, bob.player)
        finally:
            await seat.close()
        gone = await until(lambda: asked_where(ann, bob.player, lambda p: not p["online"]))
        return room, before, at_table, still, gone

    room, before, at_table, still, gone = run(go())
    there = {"online": True, "room": room["id"], "game": "baohuang", "playing": False}
    assert before == {"online": False}
    assert at_table == still == there
    assert gone == {"online": False}


async def asked_where(lobby: Lobby, player: str, wanted) -> dict | None:
    told = await presence_of(lobby, player)
    return told if wanted(told) else None


# The cost, counted: a store of its own and this process's connections made up.


@dataclass(frozen=True)
class Place:
    id: str


@dataclass(eq=False)
class Connection:
    """A live connection as Sockets keeps it: its room and what it was sent."""

    room: Place
    welcomed: bool = True
    sent: list[str] = field(default_factory=list)

    def send(self, text: str) -> None:
        self.sent.append(text)

    def end(self, code: str, message: str, close: int = 1000) -> None:
        raise AssertionError("not closed here")


class Transactions:
    """The transactions a store begins, while counting."""

    def __init__(self, store: Store):
        self.count = 0
        self.engine = store.engine.sync_engine
        event.listen(self.engine, "begin", self.begun)

    def begun(self, conn) -> None:
        self.count += 1

    def close(self) -> None:
        event.remove(self.engine, "begin", self.begun)


async def connected(path, players: int) -> tuple[Store, Sockets, dict[str, Connection]]:
    """A store with ``players`` players, each connected here to a room of their own, and one
    more player, "s", who sends invites."""
    store = Store(f"sqlite:///{path}")
    await store.open()
    sockets = Sockets()
    clients = {}
    for i in range(players):
        await store.add_player(f"p{i}", f"P{i}", f"t{i}")
        clients[f"p{i}"] = Connection(Place(f"r{i}"))
        await sockets.hold(store, f"p{i}", clients[f"p{i}"], f"t{i}", sockets.epoch)
    await store.add_player("s", "S", "ts")
    return store, sockets, clients


async def invited(store: Store, players: list[str]) -> None:
    """An invite from "s" to each of ``players``, to a room of theirs."""
    room = {"game": "g", "options": {}, "public": True, "invite": "x", "settings": {}}
    async with store.session.begin() as s:
        s.add(RoomRow(id="r", host="s", created=time.time(), **room))
    for player in players:
        assert isinstance(await invite_store.send(store, "s", player, "r"), str)


def test_presence_costs_one_transaction_a_period_whatever_the_players(tmp_path):
    async def cost(players: int):
        store, sockets, clients = await connected(tmp_path / f"{players}.db", players)
        try:
            writer = Presence(store, sockets)
            counted, begun = Work(store), Transactions(store)
            first = await writer.write_connected()  # everyone
            written = (counted.statements, begun.count)
            again = await writer.write_connected()  # within SEEN_EVERY: nothing
            idle = (counted.statements, begun.count)
            clients["p0"].room = Place("elsewhere")  # one moved: their row
            moved = await writer.write_connected()
            counted.close()
            begun.close()
            async with store.session() as s:
                query = select(PresenceRow.player_id, PresenceRow.room_id)
                rows = {player: room for player, room in await s.execute(query)}
            return (written, idle, first, again, moved), rows
        finally:
            await store.close()

    (small, small_rows), (large, large_rows) = run(cost(5)), run(cost(200))
    assert small[:2] == large[:2]
    # a period's write: one statement (a row a player) in one transaction; then nothing
    assert large[:2] == ((1, 1), (1, 1))
    assert small[2:] == (5, 0, 1) and large[2:] == (200, 0, 1)
    assert small_rows == {"p0": "elsewhere", **{f"p{i}": f"r{i}" for i in range(1, 5)}}
    assert large_rows == {"p0": "elsewhere", **{f"p{i}": f"r{i}" for i in range(1, 200)}}


def test_one_query_a_tick_tells_the_receivers_connected_here(tmp_path):
    async def cost(players: int):
        store, sockets, clients = await connected(tmp_path / f"{players}.db", players)
        try:
            await invited(store, ["p1", "p3"])
            news = InviteNews(store, sockets)
            counted = Work(store)
            told = await news.tell()
            again = await news.tell()  # nothing new: nobody told twice
            counted.close()
            got = {p: c.sent for p, c in clients.items() if c.sent}
            return counted.statements, told, again, got
        finally:
            await store.close()

    small, large = run(cost(5)), run(cost(200))
    assert small == large
    statements, told, again, got = large
    assert statements == 2  # one query each tick
    assert (told, again) == (2, 0)
    assert got == {"p1": [invite_news.FRAME], "p3": [invite_news.FRAME]}
    assert json.loads(invite_news.FRAME) == {"type": "invites"}


def test_an_ask_writes_presence_only_when_this_process_has_not_lately(tmp_path):
    """A page with no connection asking for its invites: the first ask writes; the same ask
    again writes nothing, nor one of a player connected here (the batch writes theirs)."""

    async def go():
        store, sockets, _ = await connected(tmp_path / "a.db", 1)
        try:
            await store.add_player("q", "Q", "tq")
            writer = Presence(store, sockets)
            counted = Work(store)
            costs = []
            for player, here in (("q", None), ("q", None), ("q", "r9"), ("q", "r9"), ("p0", None)):
                before = counted.statements
                await writer.asked(player, here)
                costs.append(counted.statements - before)
            counted.close()
            async with store.session() as s:
                row = await s.get(PresenceRow, "q")
                return costs, row.room_id, await s.get(PresenceRow, "p0")
        finally:
            await store.close()

    costs, room, connected_row = run(go())
    assert [c > 0 for c in costs] == [True, False, True, False, False]
    assert room == "r9" and connected_row is None
