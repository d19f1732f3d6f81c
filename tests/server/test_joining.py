"""Coming to a table (yamen/server/joining.py, issue 26): an invite link's friend is seated in
the first empty seat, or told there is none and watches; the lobby finds the games in
progress where a player sits, to go back to."""

from __future__ import annotations

import asyncio

import pytest

from tests.server.helpers import FAST, ServerThread, play_to_end, room_with, run
from yamen.client import Lobby, LobbyError, SeatClient


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "joining.db"
    with ServerThread(f"sqlite:///{db}") as running:
        yield running


async def refusal(call) -> tuple[int, str | None]:
    try:
        await call
    except LobbyError as exc:
        return exc.status, exc.code
    raise AssertionError("not refused")


def test_an_invite_seats_the_friend_in_the_first_empty_seat(server):
    async def go():
        host = await Lobby.guest(server.url, "host")
        body = {"game": "bao_qingtian", "public": False, "settings": FAST, "seat": 0}
        room = await host.call("POST", "/api/rooms", body)
        rid, code = room["id"], room["invite"]
        await host.call("PUT", f"/api/rooms/{rid}/seats/1/bot", {"bot": "random"})
        friend, stranger = (
            await Lobby.guest(server.url, "friend"),
            await Lobby.guest(server.url, "x"),
        )
        sat = await friend.call("POST", f"/api/rooms/{rid}/sit", {"invite": code})
        again = await friend.call("POST", f"/api/rooms/{rid}/sit", {"invite": code})
        outsider = await refusal(stranger.call("POST", f"/api/rooms/{rid}/sit", {}))
        wrong = await refusal(stranger.call("POST", f"/api/rooms/{rid}/sit", {"invite": "nope"}))
        for seat in (3, 4):
            await host.call("PUT", f"/api/rooms/{rid}/seats/{seat}/bot", {"bot": "random"})
        full = await refusal(stranger.call("POST", f"/api/rooms/{rid}/sit", {"invite": code}))
        after = await host.call("GET", f"/api/rooms/{rid}")
        return friend, stranger, sat, again, outsider, wrong, full, after

    friend, stranger, sat, again, outsider, wrong, full, after = run(go())
    assert sat["seats"][2]["player"] == friend.player  # seats 0 and 1 were taken
    assert again["seats"] == sat["seats"]  # seated already: nothing changes
    assert outsider == wrong == (404, "not_found")  # a private room, as if there were none
    assert full == (409, "full")
    assert stranger.player not in [seat["player"] for seat in after["seats"]]


def test_no_seat_is_given_during_a_game(server):
    async def go():
        rid, (host,) = await room_with(
            server.url, "bao_qingtian", settings={**FAST, "bot_delay": 5}
        )
        await host.call("POST", f"/api/rooms/{rid}/start")
        await host.call("POST", f"/api/rooms/{rid}/leave")  # a seat the stand-in now plays
        late = await Lobby.guest(server.url, "late")
        return await refusal(late.call("POST", f"/api/rooms/{rid}/sit", {}))

    assert run(go()) == (409, "playing")


def test_the_lobby_finds_my_games_in_progress_and_only_mine(server):
    async def go():
        rid, (host, second) = await room_with(server.url, "baohuang", {"deals": 1}, people=2)
        other = await Lobby.guest(server.url, "other")
        before = await host.call("GET", "/api/me/tables")
        seats = [await SeatClient.connect(p.ws_url(rid), p.token) for p in (host, second)]
        await host.call("POST", f"/api/rooms/{rid}/start")
        during = await asyncio.gather(*(p.call("GET", "/api/me/tables") for p in (host, second)))
        others = await other.call("GET", "/api/me/tables")
        await play_to_end(seats)
        after = await host.call("GET", "/api/me/tables")
        for seat in seats:
            await seat.close()
        anonymous = await refusal(Lobby(server.url).call("GET", "/api/me/tables"))
        return rid, before, during, others, after, anonymous

    rid, before, during, others, after, anonymous = run(go())
    assert before == [] and others == [] and after == []
    assert during == [
        [{"room": rid, "game": "baohuang", "preset": "shandong_text", "seat": 0, "number": 1}],
        [{"room": rid, "game": "baohuang", "preset": "shandong_text", "seat": 1, "number": 1}],
    ]
    assert anonymous == (401, "no_token")
