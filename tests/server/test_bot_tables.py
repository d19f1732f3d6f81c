"""What one player's tables of bots alone may cost: with no person seated (only watchers, or
nobody) the bots answer no sooner than the server's ``bot_pace``, whatever the room's
``bot_delay`` (a table with a person keeps its own pace); and a host may have at most
``bot_tables`` games of bots alone in progress, a start beyond that refused (429
``bot_tables``)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from types import SimpleNamespace

import httpx

from tests.server.helpers import FAST, ServerThread, run, watch_until_over
from yamen.client import Lobby, SeatClient
from yamen.engine import new_game
from yamen.server.driver import Driver
from yamen.server.limits import Limits
from yamen.server.settings import Settings
from yamen.server.thinking import Thinker

PACE = 5.0


def seated(*people: str, left: str | None = None) -> list[SimpleNamespace]:
    """Five seats: seat 0 a random bot's (``left``: who left it mid-game), then ``people``'s
    (by id), the rest bots'. Seat 0 is asked first at a new Baohuang table."""
    seats = [SimpleNamespace(player=None, bot="random", away_since=None, left=left)]
    for i in range(1, 5):
        person = people[i - 1] if i <= len(people) else None
        bot = None if person else "random"
        seats.append(SimpleNamespace(player=person, bot=bot, away_since=None, left=None))
    return seats


def first_move(seats: list[SimpleNamespace], bot_delay: float, pace: float) -> float:
    """Seconds from the question to the first bot move's answer at a new Baohuang table."""
    state = new_game("baohuang", {}, 7)
    assert 0 in state.pending()
    thinker = Thinker()
    thinker.bot_pace = pace
    driver = Driver(
        "r",
        "baohuang",
        thinker,
        seats=lambda: seats,
        settings=lambda: Settings(bot_delay=bot_delay),
        in_play=lambda: (state, 0),
        present=lambda: True,
        talkers=lambda: True,
        busy=lambda: False,
        act=None,  # type: ignore[arg-type]
    )
    now = time.time()
    driver.ask(state.pending(), now)
    move = driver._next_move(state)
    assert move is not None
    return move.at - now


def test_bots_alone_play_no_faster_than_the_pace_and_a_person_keeps_the_rooms():
    assert first_move(seated(), 0.0, PACE) == PACE  # watchers only: the server's pace
    assert first_move(seated(left="Ann"), 0.0, PACE) == PACE  # everyone left: bots alone
    assert first_move(seated(), 7.0, PACE) == 7.0  # a slower room keeps its own
    assert first_move(seated("ann"), 0.0, PACE) == 0.0  # a person seated: bot_delay 0 holds
    assert first_move(seated(), 0.0, 0.0) == 0.0  # no pace (tests, benchmarks: all=off)


def test_a_server_paces_its_rooms_of_bots_alone(tmp_path):
    """Through the server: a watched room of bots alone with bot_delay 0 waits the pace."""
    limits = replace(Limits.off(), bot_pace=PACE)
    with ServerThread(f"sqlite:///{tmp_path / 'p.db'}", limits) as server:
        rooms = server.app.state.rooms

        async def go():
            host = await Lobby.guest(server.url, "Host")
            body = {"game": "baohuang", "settings": FAST}
            rid = (await host.call("POST", "/api/rooms", body))["id"]
            await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "random"})
            watcher = await SeatClient.connect(host.ws_url(rid))
            await host.call("POST", f"/api/rooms/{rid}/start")
            room = rooms.loaded[rid]
            asked = min(room.driver.asked.values())
            due = room.due()
            await watcher.close()
            return due - asked, room.match.seq

        wait, seq = run(go())
    assert wait >= PACE and seq == 0


async def bot_room(host: Lobby) -> str:
    body = {"game": "baohuang", "options": {"deals": 1}, "settings": FAST}
    rid = (await host.call("POST", "/api/rooms", body))["id"]
    await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "random"})
    return rid


def test_a_host_has_a_few_games_of_bots_alone_at_most(tmp_path):
    limits = replace(Limits.off(), bot_tables=2)
    with ServerThread(f"sqlite:///{tmp_path / 't.db'}", limits) as server:

        async def go():
            host = await Lobby.guest(server.url, "Host")
            rooms = [await bot_room(host) for _ in range(4)]
            headers = {"Authorization": f"Bearer {host.token}"}
            async with httpx.AsyncClient(base_url=server.url, headers=headers) as http:
                at_once = await asyncio.gather(
                    *(http.post(f"/api/rooms/{rid}/start") for rid in rooms[:3])
                )
            refused = next(a for a in at_once if a.status_code == 429)
            waiting = rooms[[a.status_code for a in at_once].index(429)]
            body = {"game": "baohuang", "options": {"deals": 1}, "settings": FAST, "seat": 0}
            mine = (await host.call("POST", "/api/rooms", body))["id"]
            await host.call("POST", f"/api/rooms/{mine}/bots", {"bot": "random"})
            with_me = await host.call("POST", f"/api/rooms/{mine}/start")  # a person: no cap
            started = [rid for rid, a in zip(rooms, at_once, strict=False) if a.is_success]
            await watch_until_over(host, started[0])  # one finishes: another may start
            again = await host.call("POST", f"/api/rooms/{waiting}/start")
            return [a.status_code for a in at_once], refused, with_me, again

        statuses, refused, with_me, again = run(go())
    assert sorted(statuses) == [200, 200, 429]
    detail = refused.json()["detail"]
    assert detail["code"] == "bot_tables" and detail["retry_after"] >= 1
    assert int(refused.headers["retry-after"]) == detail["retry_after"]
    assert with_me["status"] == "playing" and again["status"] == "playing"
