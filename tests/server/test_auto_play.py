"""Auto-play (托管) and taking a left seat back (issue 26): a seated person hands their seat to
the room's stand-in and takes it back at will; a person who left a seat mid-game sits in it
again while the game lasts, and nobody else may. Refusals have their own codes and change
nothing; both states survive a restart; ratings keep a game with auto-play."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from tests.server.helpers import FAST, ServerThread, play_to_end, room_with, run
from yamen.client import Lobby, LobbyError, SeatClient
from yamen.engine import get_game
from yamen.server.loading import load_room
from yamen.server.operations import AutoPlay, Leave, SetBot, Start, TakeBack, TakeSeat
from yamen.server.ratings import played_by
from yamen.server.registry import Rooms
from yamen.server.storage import Store

GAME, OPTIONS = "bao_qingtian", {"players": 3}
# A game whose every seat is asked again and again: after auto-play is turned off, the person's
# seat is sure to be asked once more (a Bao Qing-tian trial may end before it is).
LONG_GAME, LONG_OPTIONS = "baohuang", {"variant": "japanese"}


async def until(client: SeatClient, holds: Callable[[], bool], timeout: float = 60) -> None:
    """Wait until ``holds()`` is true of what ``client`` has heard."""
    async with asyncio.timeout(timeout):
        while True:
            client.arrived.clear()
            if holds():
                return
            if client.closed:
                raise ConnectionError("the server closed the connection")
            await client.arrived.wait()


async def act_myself(client: SeatClient) -> dict:
    """The seat's first legal action, once it is asked, as the person would; its ack (asked
    again when the table moved on meanwhile: a bot at the same question)."""
    for _ in range(10):
        await until(client, client.my_turn)
        table = client.table
        answer = await client.request(type="act", action=table["legal"][0], seq=table["seq"])
        if answer["type"] == "ack" or answer["code"] != "stale":
            return answer
    raise AssertionError("always stale")


def stood_in_for(frames: list[dict], seat: int) -> list[str]:
    """Why the stand-in played ``seat`` in these frames' updates, in order."""
    return [
        f["stand_in"]["why"]
        for f in frames
        if f["type"] == "update" and f.get("stand_in") and f["stand_in"]["seat"] == seat
    ]


async def refused(call) -> tuple[int, str | None]:
    with pytest.raises(LobbyError) as caught:
        await call
    return caught.value.status, caught.value.code


def test_auto_play_plays_the_seat_marked_auto_and_stops_when_turned_off(tmp_path):
    settings = {**FAST, "bot_delay": 0.3}  # slow enough to turn it off before the game ends
    with ServerThread(f"sqlite:///{tmp_path / 'auto.db'}") as server:

        async def go():
            rid, (host,) = await room_with(
                server.url, LONG_GAME, LONG_OPTIONS, 1, "rules", settings
            )
            me = await SeatClient.connect(host.ws_url(rid), host.token)
            try:
                await host.call("POST", f"/api/rooms/{rid}/start")
                on = await host.call("POST", f"/api/rooms/{rid}/auto", {"on": True})
                await until(me, lambda: "auto" in stood_in_for(me.frames, 0))
                told = me.room["seats"][0]
                off = await host.call("POST", f"/api/rooms/{rid}/auto", {"on": False})
                mark = len(me.frames)
                await until(me, me.my_turn)  # the person decides: nothing plays for them
                await asyncio.sleep(1.5)  # (five times the bot pace)
                waited = me.my_turn(), stood_in_for(me.frames[mark:], 0)
                acked = await act_myself(me)
                logged = await me.request(type="sync")
                state = next(f for f in reversed(me.frames) if f["type"] == "state")
            finally:
                await me.close()
            return on, told, off, waited, acked, logged, state

        on, told, off, waited, acked, logged, state = run(go())
        assert on["seats"][0]["auto"] and on["seats"][0]["bot"] and on["seats"][0]["player"]
        assert told["auto"] is True  # everyone at the table sees it
        assert off["seats"][0]["auto"] is False and off["seats"][0]["bot"] is None
        assert waited == (True, [])
        assert acked["type"] == "ack" and logged["type"] == "ack"
        history = [e["stand_in"] for e in state["table"]["history"] if e["stand_in"]]
        assert {"seat": 0, "why": "auto"} in history  # the log marks it, as a timeout's


def test_auto_play_is_only_for_a_seated_person_during_a_game(tmp_path):
    with ServerThread(f"sqlite:///{tmp_path / 'refused.db'}") as server:

        async def go():
            rid, (host, second) = await room_with(server.url, GAME, OPTIONS, 2, "rules", FAST)
            outsider = await Lobby.guest(server.url, "watcher")
            url = f"/api/rooms/{rid}/auto"
            before = await refused(host.call("POST", url, {"on": True}))  # no game yet
            idle = await host.call("GET", f"/api/rooms/{rid}")
            await host.call("POST", f"/api/rooms/{rid}/start")
            playing = await host.call("GET", f"/api/rooms/{rid}")
            spectator = await refused(outsider.call("POST", url, {"on": True}))
            wrong = await refused(host.call("POST", url, {"on": "yes"}))
            after = await host.call("GET", f"/api/rooms/{rid}")
            mine = await second.call("POST", url, {"on": True})  # their own seat, only
            again = await second.call("POST", url, {"on": True})  # a second click: harmless
            return before, idle, spectator, wrong, playing, after, mine, again

        before, idle, spectator, wrong, playing, after, mine, again = run(go())
        assert before == (409, "no_game") and not any(s["auto"] for s in idle["seats"])
        assert spectator == (409, "not_seated") and wrong[0] == 422
        assert after["seats"] == playing["seats"]  # refused: nothing changed
        assert [s["auto"] for s in mine["seats"]] == [False, True, False]
        assert again["seats"] == mine["seats"]


def test_who_left_takes_their_seat_back_and_plays_on_and_nobody_else_may(tmp_path):
    with ServerThread(f"sqlite:///{tmp_path / 'back.db'}") as server:

        async def go():
            rid, (host, leaver) = await room_with(server.url, GAME, OPTIONS, 2, "rules", FAST)
            outsider = await Lobby.guest(server.url, "watcher")
            back = f"/api/rooms/{rid}/back"
            seats = [await SeatClient.connect(p.ws_url(rid), p.token) for p in (host, leaver)]
            try:
                await host.call("POST", f"/api/rooms/{rid}/start")
                gone = await leaver.call("POST", f"/api/rooms/{rid}/leave")
                chat = await seats[1].request(type="chat", text="brb")  # still in the chat
                other = await refused(outsider.call("POST", back))
                seated = await refused(host.call("POST", back))
                unchanged = await host.call("GET", f"/api/rooms/{rid}")
                taken = await leaver.call("POST", back)
                twice = await refused(leaver.call("POST", back))
                result = await play_to_end(seats)  # the one who came back plays on
            finally:
                for seat in seats:
                    await seat.close()
            over = await refused(outsider.call("POST", back))
            return leaver, gone, chat, other, seated, unchanged, taken, twice, result, over

        leaver, gone, chat, other, seated, unchanged, taken, twice, result, over = run(go())
        left = gone["seats"][1]
        assert left["player"] is None and left["bot"] and left["left_by"] == leaver.player
        assert chat["type"] == "ack"
        assert other == (403, "not_left") and seated == (409, "seated")
        assert unchanged["seats"] == gone["seats"]
        mine = taken["seats"][1]
        assert mine["player"] == leaver.player and mine["bot"] is None
        assert mine["left"] is None and mine["left_by"] is None
        assert twice == (409, "seated")
        assert sorted(result["places"]) == [0, 1, 2] and over == (409, "no_game")


def test_auto_play_and_a_left_seat_survive_a_restart(tmp_path):
    async def go():
        store = Store(f"sqlite:///{tmp_path / 'restart.db'}")
        await store.open()
        await store.add_player("p", "P", "token-p")
        await store.add_player("q", "Quinn", "token-q")
        slow = {"bot_delay": 10, "turn_seconds": None, "talk_seconds": 0}  # nothing moves
        room = await Rooms(store).create("p", get_game(GAME, OPTIONS), True, slow)
        await room.run(TakeSeat("p", "P", 0))
        await room.run(TakeSeat("q", "Quinn", 1))
        await room.run(SetBot("p", 2, "random"))
        await room.run(Start("p"))
        await room.run(AutoPlay("p", True))
        await room.run(Leave("q"))
        shown = room.about().seats
        await asyncio.sleep(0.1)  # (the driver waits again: a wake as it is stopped may be
        await room.driver.stop()  # swallowed by Python 3.11's wait_for, and it would play on)
        await room.close()
        again = await load_room(store, room.id)  # as a restarted server finds it
        loaded = again.about().seats
        await again.run(TakeBack("q", "Quinn"))
        await again.run(AutoPlay("p", False))
        after = again.about().seats
        _, rows = await store.room(room.id)
        await asyncio.sleep(0.1)
        await again.driver.stop()
        await again.close()
        await store.close()
        return shown, loaded, after, rows

    shown, loaded, after, rows = asyncio.run(go())
    for seats in (shown, loaded):
        assert seats[0].auto and seats[0].player == "p" and seats[0].bot and seats[0].left is None
        assert seats[1].left == "Quinn" and seats[1].left_by == "q" and seats[1].player is None
    assert not after[0].auto and after[0].bot is None
    assert after[1].player == "q" and after[1].bot is None and after[1].left_by is None
    assert [(r.player_id, r.bot) for r in rows[:2]] == [("p", None), ("q", None)]


def test_a_game_with_auto_play_stays_rated_marked_and_auto_play_ends_with_it(tmp_path):
    with ServerThread(f"sqlite:///{tmp_path / 'rated.db'}") as server:

        async def go():
            rid, (host,) = await room_with(server.url, GAME, OPTIONS, 1, "rules", FAST)
            me = await SeatClient.connect(host.ws_url(rid), host.token)
            try:
                await host.call("POST", f"/api/rooms/{rid}/start")
                acked = await act_myself(me)
                await host.call("POST", f"/api/rooms/{rid}/auto", {"on": True})
                await until(me, lambda: me.table is not None and me.table["result"] is not None)
                info = await host.call("GET", f"/api/rooms/{rid}")
                shown = await host.call("GET", f"/api/players/{host.player}")
            finally:
                await me.close()
            return acked, info, shown

        acked, info, shown = run(go())
        assert acked["type"] == "ack"  # a decision of their own, then auto-play to the end
        assert [g["stand_in"] for g in shown["last"]] == [True]  # rated, and marked
        assert not info["seats"][0]["auto"] and info["seats"][0]["bot"] is None


def test_auto_play_from_the_start_farms_nothing_but_a_played_game_is_rated():
    """A game with auto-play stays rated (as the apps do; its outcome is marked stand_in), but
    a seat whose every action was the stand-in's (auto-play from the start) counts as the bot
    that played it, as a leaver's before the game began does."""
    started, now_in = ["a", "b", "c"], ["a", "b", "c"]
    why = {0: {"auto"}, 1: {None, "auto"}, 2: {"timeout", "auto"}}
    assert played_by(started, now_in, why) == [None, "b", "c"]
