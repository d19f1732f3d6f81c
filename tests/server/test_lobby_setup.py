"""Setting a room up before it starts: every empty seat filled with bots in one call, a bot of
another kind in a seat, the host taking a person out of a seat, the room's options and settings
changed until the first game starts, and the list of rooms leaving out finished and abandoned
ones. Only the host may; a refusal carries a code (and params) and changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from tests.server.helpers import FAST, ServerThread, run, watch_until_over
from yamen.client import Lobby, LobbyError, SeatClient
from yamen.server import lobby as lobby_module


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "setup.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


async def new_room(url: str, game: str = "baohuang", options=None, seat: int | None = 0):
    host = await Lobby.guest(url, "Host")
    body = {"game": game, "options": options or {}, "settings": FAST}
    if seat is not None:
        body["seat"] = seat
    room = await host.call("POST", "/api/rooms", body)
    return host, room


async def refused(call, status: int, code: str) -> LobbyError:
    with pytest.raises(LobbyError) as caught:
        await call
    assert (caught.value.status, caught.value.code) == (status, code), caught.value
    return caught.value


def bots(info) -> list[str | None]:
    return [seat["bot"] for seat in info["seats"]]


def test_the_host_fills_every_empty_seat_with_bots_in_one_room_frame(server):
    async def go():
        host, room = await new_room(server.url)
        rid = room["id"]
        guest = await Lobby.guest(server.url, "Guest")
        await guest.call("POST", f"/api/rooms/{rid}/seats/2", {"invite": room["invite"]})
        watcher = await SeatClient.connect(host.ws_url(rid), host.token)
        before = len(watcher.frames)
        await refused(
            guest.call("POST", f"/api/rooms/{rid}/bots", {"bot": "rules"}), 403, "not_host"
        )
        wrong = await refused(
            host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "genius"}), 422, "unknown_bot"
        )
        assert wrong.params == {"bot": "genius"}
        unchanged = await host.call("GET", f"/api/rooms/{rid}")
        info = await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "rules"})
        frame = await watcher.wait(lambda f: f["type"] == "room", start=before)
        again = await host.call("POST", f"/api/rooms/{rid}/bots", {})  # full: nothing changes
        await asyncio.sleep(0.2)
        later = [f["type"] for f in watcher.frames[before:]]
        await host.call("POST", f"/api/rooms/{rid}/start")
        playing = await refused(host.call("POST", f"/api/rooms/{rid}/bots", {}), 409, "playing")
        await watcher.close()
        return unchanged, info, frame, again, later, playing

    unchanged, info, frame, again, later, _ = run(go())
    assert bots(unchanged) == [None] * 5
    assert bots(info) == [None, "rules", None, "rules", "rules"]
    assert [s["name"] for s in info["seats"]][:3] == ["Host", None, "Guest"]
    assert bots(frame["room"]) == bots(info)
    assert later == ["room"]  # one frame for the whole fill, none for the second call
    assert bots(again) == bots(info)


def test_a_bot_seat_takes_another_kind_and_a_persons_seat_takes_none(server):
    async def go():
        host, room = await new_room(server.url)
        rid = room["id"]
        await host.call("POST", f"/api/rooms/{rid}/bots", None)  # the room's stand-in
        stand_in = bots(await host.call("GET", f"/api/rooms/{rid}"))[1]
        info = await host.call("PUT", f"/api/rooms/{rid}/seats/3/bot", {"bot": "search"})
        taken = await refused(
            host.call("PUT", f"/api/rooms/{rid}/seats/0/bot", {"bot": "rules"}), 409, "taken"
        )
        return stand_in, info, taken

    stand_in, info, taken = run(go())
    assert stand_in in ("random", "rules", "search")
    assert bots(info)[3] == "search" and bots(info)[1] == stand_in
    assert taken.params == {"seat": 0}


def test_the_host_takes_a_person_out_of_a_seat_and_they_are_told(server):
    async def go():
        host, room = await new_room(server.url)
        rid = room["id"]
        guest = await Lobby.guest(server.url, "Guest")
        await guest.call("POST", f"/api/rooms/{rid}/seats/1", {"invite": room["invite"]})
        seen = await SeatClient.connect(guest.ws_url(rid), guest.token)
        start = len(seen.frames)
        await refused(guest.call("DELETE", f"/api/rooms/{rid}/seats/0"), 403, "not_host")
        empty = await refused(host.call("DELETE", f"/api/rooms/{rid}/seats/2"), 409, "no_person")
        info = await host.call("DELETE", f"/api/rooms/{rid}/seats/1")
        told = await seen.wait(lambda f: f["type"] == "error", start=start)
        state = await seen.wait(lambda f: f["type"] == "state", start=start)
        # back in the seat, then the game starts: nobody is taken out during a game
        await guest.call("POST", f"/api/rooms/{rid}/seats/1", {"invite": room["invite"]})
        await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "random"})
        await host.call("POST", f"/api/rooms/{rid}/start")
        await refused(host.call("DELETE", f"/api/rooms/{rid}/seats/1"), 409, "playing")
        await seen.close()
        return empty, info, told, state

    empty, info, told, state = run(go())
    assert empty.params == {"seat": 2}
    assert info["seats"][1]["player"] is None and info["seats"][1]["name"] is None
    assert told["code"] == "removed" and told["id"] is None
    assert state["room"]["seats"][1]["player"] is None


def test_the_host_changes_options_and_settings_until_the_first_start(server):
    async def go():
        host, room = await new_room(server.url)
        rid = room["id"]
        guest = await Lobby.guest(server.url, "Guest")
        watcher = await SeatClient.connect(guest.ws_url(rid), guest.token)
        start = len(watcher.frames)
        path = f"/api/rooms/{rid}"
        body = {"options": {"deals": 3}, "settings": {"turn_seconds": 30}, "public": False}
        await refused(guest.call("PATCH", path, body), 403, "not_host")
        bad = [
            await refused(host.call("PATCH", path, {"options": {"deals": 0}}), 422, "bad_options"),
            await refused(
                host.call("PATCH", path, {"options": {"variant": "korean"}}), 422, "bad_options"
            ),
            await refused(
                host.call("PATCH", path, {"settings": {"turn_seconds": -1}}), 422, "bad_options"
            ),
            await refused(
                host.call("PATCH", path, {"settings": {"colour": 1}}), 422, "bad_options"
            ),
        ]
        unchanged = await host.call("GET", path)
        changed = await host.call("PATCH", path, body)
        frame = await watcher.wait(lambda f: f["type"] == "room", start=start)
        await host.call("POST", f"{path}/bots", {"bot": "random"})
        await host.call("POST", f"{path}/start")
        await refused(host.call("PATCH", path, {"options": {"deals": 1}}), 409, "started")
        await watcher.close()
        return bad, unchanged, changed, frame

    bad, unchanged, changed, frame = run(go())
    assert [e.params for e in bad] == [
        {"reason": "range", "option": "deals", "low": 1, "high": 50},
        {"reason": "choice", "option": "variant"},
        {"reason": "setting_range", "setting": "turn_seconds", "low": 1, "high": 86400},
        {"reason": "setting_unknown", "names": "colour"},
    ]
    assert unchanged["options"]["deals"] == 1 and unchanged["settings"]["turn_seconds"] is None
    assert unchanged["public"] is True
    assert changed["options"]["deals"] == 3 and changed["options"]["variant"] == "shandong"
    assert changed["settings"]["turn_seconds"] == 30 and changed["settings"]["bot_delay"] == 0
    assert changed["public"] is False
    assert frame["room"]["options"] == changed["options"]
    assert frame["room"]["settings"] == changed["settings"]


def test_fewer_players_cut_the_seats_and_tell_whose_seat_went(server):
    async def go():
        host, room = await new_room(server.url, "criminal_poker", {"players": 5})
        rid = room["id"]
        guest = await Lobby.guest(server.url, "Guest")
        await guest.call("POST", f"/api/rooms/{rid}/seats/4", {"invite": room["invite"]})
        seen = await SeatClient.connect(guest.ws_url(rid), guest.token)
        start = len(seen.frames)
        game_rule = await refused(
            host.call(
                "PATCH",
                f"/api/rooms/{rid}",
                {"options": {"mode": "detective", "players": 3, "mastermind": True}},
            ),
            422,
            "bad_options",
        )
        info = await host.call("PATCH", f"/api/rooms/{rid}", {"options": {"players": 4}})
        told = await seen.wait(lambda f: f["type"] == "error", start=start)
        room_frame = await seen.wait(lambda f: f["type"] == "room", start=start)
        await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "random"})
        stored = await host.call("GET", f"/api/rooms/{rid}")
        await seen.close()
        return game_rule, info, told, room_frame, stored

    game_rule, info, told, room_frame, stored = run(go())
    assert game_rule.params == {"reason": "detective_specials", "players": 3, "most": 0}
    assert len(info["seats"]) == 4 and info["options"]["players"] == 4
    assert all(s["player"] is None for s in info["seats"][1:])
    assert told["code"] == "removed"
    assert len(room_frame["room"]["seats"]) == 4 and len(stored["scores"]) == 4
    assert bots(stored)[1:] == ["random"] * 3


def test_finished_and_abandoned_rooms_are_not_listed(server, monkeypatch):
    async def go():
        _, seated = await new_room(server.url)
        host, finished = await new_room(server.url, "bao_qingtian", {"players": 3}, seat=None)
        rid = finished["id"]
        await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "random"})
        await host.call("POST", f"/api/rooms/{rid}/start")
        over = await watch_until_over(host, rid)
        _, empty = await new_room(server.url, seat=None)
        fresh = {r["id"] for r in await host.call("GET", "/api/rooms?limit=200")}
        monkeypatch.setattr(lobby_module, "ABANDONED_AFTER", -60.0)  # every room is old now
        old = {r["id"] for r in await host.call("GET", "/api/rooms?limit=200")}
        return seated["id"], rid, over, empty["id"], fresh, old

    seated, finished, over, empty, fresh, old = run(go())
    assert over["status"] == "over"
    assert seated in fresh and empty in fresh and finished not in fresh
    assert seated in old and empty not in old  # nobody sat down in it: abandoned
