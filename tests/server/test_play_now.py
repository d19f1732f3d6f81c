"""Play now, on one server (yamen/server/play_now.py, filling.py; issue 26): presses at once
land at one table and never two in a seat; a table is of one game and preset; it fills with
bots at its time and begins; a table that began or went private seats nobody; a player waits
at one table at a time; what one guest can do with it is bounded; refusals change nothing.
The same across several processes: tests/server/test_play_now_cluster.py."""

from __future__ import annotations

import asyncio

import pytest

from tests.server.helpers import FAST, ServerThread, run, watch_until_over
from yamen.client import Lobby, LobbyError
from yamen.engine import get_game
from yamen.server.errors import RoomError
from yamen.server.filling import fill
from yamen.server.identity import new_guest
from yamen.server.limits import Limits
from yamen.server.operations import JoinWaiting, TakeSeat
from yamen.server.registry import Rooms
from yamen.server.storage import Store


@pytest.fixture
def server(tmp_path):
    """A server of this test's own: no other test's tables waiting there."""
    with ServerThread(f"sqlite:///{tmp_path / 'play.db'}") as running:
        yield running


async def guests(url: str, count: int, tag: str) -> list[Lobby]:
    return [await Lobby.guest(url, f"{tag}{i}") for i in range(count)]


async def press(lobby: Lobby, game: str, preset: str | None = None) -> dict:
    return await lobby.call("POST", "/api/play", {"game": game, "preset": preset})


def sitters(info: dict) -> list[str]:
    return [seat["player"] for seat in info["seats"] if seat["player"] is not None]


async def until(check, seconds: float = 20.0):
    """``check()``'s first true answer (an awaitable), polled."""
    async with asyncio.timeout(seconds):
        while not (found := await check()):
            await asyncio.sleep(0.05)
    return found


def test_two_presses_at_once_land_at_one_table(server):
    async def go():
        ann, bo = await guests(server.url, 2, "two")
        rooms = await asyncio.gather(press(ann, "criminal_poker"), press(bo, "criminal_poker"))
        listed = await ann.call("GET", "/api/rooms")
        now = await ann.call("GET", f"/api/rooms/{rooms[0]['id']}")  # (each answer: as it sat)
        return ann, bo, rooms, listed, now

    ann, bo, (one, two), listed, now = run(go())
    assert one["id"] == two["id"]
    assert sorted(sitters(now)) == sorted([ann.player, bo.player])  # two seats, one each
    assert one["public"] and two["settings"]["play_now"] and two["status"] == "open"
    assert two["fill_at"] is not None and two["settings"]["fill_seconds"] == 20
    theirs = [room["id"] for room in listed if {ann.player, bo.player} & set(sitters(room))]
    assert theirs == [one["id"]]  # (the module's other tests' tables are listed too)


def test_a_crowd_fills_tables_in_turn_and_no_seat_twice(server):
    """Eleven presses at once for a five-seat game: three tables, full ones first, every
    guest in exactly one seat."""

    async def go():
        crowd = await guests(server.url, 11, "crowd")
        answers = await asyncio.gather(*(press(g, "bao_qingtian") for g in crowd))
        ids = {answer["id"] for answer in answers}
        infos = [await crowd[0].call("GET", f"/api/rooms/{rid}") for rid in ids]
        return crowd, answers, infos

    crowd, answers, infos = run(go())
    assert sorted(len(sitters(info)) for info in infos) == [1, 5, 5]
    seated = [player for info in infos for player in sitters(info)]
    assert sorted(seated) == sorted(g.player for g in crowd)  # each once, nobody twice
    for guest, answer in zip(crowd, answers, strict=True):
        assert guest.player in sitters(answer)  # the answer is the room where they sit


def test_a_preset_is_a_table_of_its_own(server):
    async def go():
        a, b, c = await guests(server.url, 3, "preset")
        shandong = await press(a, "baohuang", "shandong_text")
        japanese = await press(b, "baohuang", "standard_168")
        same = await press(c, "baohuang", "shandong_text")
        return shandong, japanese, same

    shandong, japanese, same = run(go())
    assert japanese["id"] != shandong["id"] and same["id"] == shandong["id"]
    assert japanese["options"]["variant"] == "japanese"
    assert shandong["options"]["variant"] == "shandong"


def test_the_table_fills_with_bots_at_its_time_and_begins(server):
    """The host sets the wait (a room setting); at its time the empty seats get the stand-in
    and the game starts with the people where they sat."""

    async def go():
        host, guest = await guests(server.url, 2, "fill")
        table = await press(host, "criminal_poker")
        path = f"/api/rooms/{table['id']}"
        await host.call("PATCH", path, {"settings": {"fill_seconds": 600}})
        waiting = await press(guest, "criminal_poker")
        await host.call("PATCH", path, {"settings": {"fill_seconds": 1}})

        async def begun():
            info = await guest.call("GET", path)
            return info if info["status"] == "playing" else None

        return host, guest, table, waiting, await until(begun)

    host, guest, table, waiting, begun = run(go())
    assert waiting["id"] == table["id"] and waiting["status"] == "open"
    assert begun["number"] == 1 and begun["fill_at"] is None
    seats = [(seat["player"], seat["bot"]) for seat in begun["seats"]]
    assert seats[:2] == [(host.player, None), (guest.player, None)]
    assert seats[2:] == [(None, "rules")] * 3  # the game's stand-in


def test_a_table_that_began_or_went_private_seats_nobody(server):
    async def go():
        host, late, later = await guests(server.url, 3, "began")
        table = await press(host, "bao_qingtian")
        path = f"/api/rooms/{table['id']}"
        await host.call("PATCH", path, {"public": False})
        private_then = await press(late, "bao_qingtian")  # not the private table
        # (its wait outlasts the game below, however slow the machine)
        settings = {"settings": {"fill_seconds": 600}}
        await late.call("PATCH", f"/api/rooms/{private_then['id']}", settings)
        # a play-now room whose first game is over, a seat emptied since: not waiting
        made = await host.call(
            "POST", "/api/rooms", {"game": "bao_qingtian", "settings": {**FAST, "play_now": True}}
        )
        rid = made["id"]
        await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "random"})
        await host.call("POST", f"/api/rooms/{rid}/start")
        await watch_until_over(host, rid)
        await host.call("DELETE", f"/api/rooms/{rid}/seats/4/bot")
        after_game = await press(later, "bao_qingtian")
        return table, private_then, rid, after_game, late

    table, private_then, rid, after_game, late = run(go())
    assert private_then["id"] != table["id"]
    assert after_game["id"] not in (table["id"], rid)
    assert after_game["id"] == private_then["id"]  # the one waiting table left
    assert late.player in sitters(after_game)


def test_join_waiting_checks_again_under_the_rooms_lock(tmp_path):
    """What the look found may have changed by the time the seat is asked for: the room's
    own check refuses a private table, one whose game began, and a full one."""

    async def go():
        rooms = Rooms(Store(f"sqlite:///{tmp_path / 'lock.db'}"))
        await rooms.open_store()
        players = [(await new_guest(rooms.store, f"p{i}"))[0] for i in range(6)]
        game = get_game("bao_qingtian")
        made = []
        for public in (False, True, True):
            room = await rooms.create(players[0].id, game, public, {"play_now": True})
            await room.run(TakeSeat(players[0].id, "p0", 0))
            made.append(room)
        private, begun, full = made
        for i, player in enumerate(players[1:5], start=1):
            await full.run(TakeSeat(player.id, f"p{i}", i))
            await begun.run(TakeSeat(player.id, f"p{i}", i))
        await begun.run(JoinWaiting(players[0].id, "p0"))  # seated already: nothing changes
        async with begun.lock:
            await fill(begun)  # (no empty seat: it begins as it is)
        refusals = []
        for room in (private, begun, full):
            try:
                await room.run(JoinWaiting(players[5].id, "p5"))
            except RoomError as exc:
                refusals.append(exc.code)
        seats = [[s.player for s in room.seats] for room in made]
        await rooms.close()
        await rooms.store.close()
        return refusals, seats, players

    refusals, seats, players = run(go())
    assert refusals == ["not_waiting", "not_waiting", "full"]
    assert all(players[5].id not in row for row in seats)


def test_one_waiting_table_at_a_time(server):
    async def go():
        ann, bo = await guests(server.url, 2, "move")
        first = await press(ann, "bao_qingtian")
        await press(bo, "bao_qingtian")  # (so that the table still waits for people)
        moved = await press(ann, "criminal_poker")
        again = await press(ann, "criminal_poker")
        left = await ann.call("GET", f"/api/rooms/{first['id']}")
        return ann, bo, first, moved, again, left

    ann, bo, first, moved, again, left = run(go())
    assert moved["id"] != first["id"] and ann.player in sitters(moved)
    assert sitters(left) == [bo.player]  # the first table let go of ann's seat
    assert again["id"] == moved["id"] and again["seats"] == moved["seats"]  # pressed twice


def test_play_now_is_bounded(tmp_path):
    """Presses count against the play_now rate; opening a table against the host's open rooms;
    a refusal changes nothing."""
    limits = Limits.off().set(["play_now=3/600", "open_rooms=1"])

    async def go(url: str):
        ann = await Lobby.guest(url, "ann")
        first = await press(ann, "baohuang")
        refused = []
        try:  # a second table to open: over the open rooms cap
            await press(ann, "criminal_poker")
        except LobbyError as exc:
            refused.append((exc.status, exc.code))
        await press(ann, "baohuang")  # the third press: the table where ann waits
        try:
            await press(ann, "baohuang")
        except LobbyError as exc:
            refused.append((exc.status, exc.code))
        still = await ann.call("GET", f"/api/rooms/{first['id']}")
        listed = await ann.call("GET", "/api/rooms")
        return ann, first, refused, still, listed

    with ServerThread(f"sqlite:///{tmp_path / 'bounded.db'}", limits=limits) as bounded:
        ann, first, refused, still, listed = run(go(bounded.url))
    assert refused == [(429, "too_many"), (429, "rate_limited")]
    assert sitters(still) == [ann.player]  # still waiting where they were
    assert [room["id"] for room in listed] == [first["id"]]


def test_refusals_change_nothing(server):
    async def go():
        ann = await Lobby.guest(server.url, "refused")
        before = await ann.call("GET", "/api/rooms")
        codes = []
        for body in (
            {"game": "chess"},
            {"game": "baohuang", "preset": "no_such_preset"},
            {"game": "criminal_poker", "preset": "standard_168"},
            {"game": "baohuang", "preset": 3},
            {"game": "baohuang", "seats": 3},
        ):
            try:
                await ann.call("POST", "/api/play", body)
            except LobbyError as exc:
                codes.append((exc.status, exc.code))
        try:
            await Lobby(server.url).call("POST", "/api/play", {"game": "baohuang"})
        except LobbyError as exc:
            codes.append((exc.status, exc.code))
        return codes, before, await ann.call("GET", "/api/rooms")

    codes, before, after = run(go())
    assert codes == [
        (422, "unknown_game"),
        (422, "unknown_preset"),
        (422, "unknown_preset"),
        (422, "invalid"),
        (422, "invalid"),
        (401, "no_token"),
    ]
    assert after == before


def test_a_reloaded_table_keeps_its_time(tmp_path):
    """The fill time is the stored opening plus the setting: a restart (or a cluster's new
    owner) loading the room arms the same time again."""

    async def go():
        store_url = f"sqlite:///{tmp_path / 'reload.db'}"
        rooms = Rooms(Store(store_url))
        await rooms.open_store()
        host, _ = await new_guest(rooms.store, "host")
        settings = {"play_now": True, "fill_seconds": 600}
        room = await rooms.create(host.id, get_game("bao_qingtian"), True, settings)
        await room.run(TakeSeat(host.id, "host", 0))
        before = room.info()["fill_at"]
        stored, _ = await rooms.store.room(room.id)
        await rooms.unload(room.id)
        again = await rooms.get(room.id)
        after, armed = again.info()["fill_at"], again.filler.task is not None
        await rooms.close()
        await rooms.store.close()
        return before, after, armed, stored.created

    before, after, armed, opened = run(go())
    assert before == after == opened + 600 and armed


def test_a_waiting_table_stays_loaded_until_its_bots_come(tmp_path):
    """A room nobody is connected to is unloaded when idle, but not a play-now table whose time
    is still to come (its wait, up to ten minutes, may outlast the idle time): else its bots
    would never come."""

    async def go():
        rooms = Rooms(Store(f"sqlite:///{tmp_path / 'idle.db'}"))
        await rooms.open_store()
        host, _ = await new_guest(rooms.store, "host")
        made = []
        for settings in ({"play_now": True, "fill_seconds": 600}, {}):
            room = await rooms.create(host.id, get_game("bao_qingtian"), True, settings)
            await room.run(TakeSeat(host.id, "host", 0))
            made.append(room.id)
        for _ in range(2):  # (the first sweep marks them idle, the second unloads)
            await rooms.sweep_idle(0)
        loaded = [rid in rooms.loaded for rid in made]
        await rooms.close()
        await rooms.store.close()
        return loaded

    assert run(go()) == [True, False]
