"""Play now across several ``yamen serve`` processes on PostgreSQL and Redis (issue 26): presses
at once on two processes land at one table, a crowd spread over both fills tables in turn
with nobody in two seats and no seat twice, and a table filled by its owner's timer is seen
begun from the other process. Skipped, saying why, without PostgreSQL or Redis (the fixtures
are tests/server/test_cluster.py's)."""

from __future__ import annotations

import asyncio

from tests.server.helpers import run
from tests.server.test_cluster import database, processes, redis_url  # noqa: F401 (fixtures)
from yamen.client import Lobby


async def press(lobby: Lobby, game: str) -> dict:
    return await lobby.call("POST", "/api/play", {"game": game})


def sitters(info: dict) -> list[str]:
    return [seat["player"] for seat in info["seats"] if seat["player"] is not None]


def test_presses_at_once_on_two_processes_land_at_one_table(database, redis_url):  # noqa: F811
    async def go(a: str, b: str):
        rounds = []
        for game in ("bao_qingtian", "criminal_poker", "baohuang"):
            one, two = await Lobby.guest(a, "one"), await Lobby.guest(b, "two")
            answers = await asyncio.gather(press(one, game), press(two, game))
            seen = await one.call("GET", f"/api/rooms/{answers[0]['id']}")
            rounds.append((one.player, two.player, answers, seen))
        return rounds

    with processes(database, redis_url) as (a, b):
        rounds = run(go(a.url, b.url))
    for one, two, (first, second), seen in rounds:
        assert first["id"] == second["id"]
        assert sorted(sitters(seen)) == sorted([one, two])


def test_a_crowd_on_two_processes_fills_tables_in_turn(database, redis_url):  # noqa: F811
    async def go(a: str, b: str):
        crowd = [await Lobby.guest(url, f"g{i}") for i, url in enumerate([a, b] * 4)][:7]
        answers = await asyncio.gather(*(press(g, "bao_qingtian") for g in crowd))
        infos = [await crowd[0].call("GET", f"/api/rooms/{r}") for r in {x["id"] for x in answers}]
        return crowd, infos

    with processes(database, redis_url) as (a, b):
        crowd, infos = run(go(a.url, b.url))
    assert sorted(len(sitters(info)) for info in infos) == [2, 5]
    seated = [player for info in infos for player in sitters(info)]
    assert sorted(seated) == sorted(g.player for g in crowd)


def test_a_table_fills_at_its_owner_and_is_seen_begun_elsewhere(database, redis_url):  # noqa: F811
    async def go(a: str, b: str):
        host, guest = await Lobby.guest(a, "host"), await Lobby.guest(b, "guest")
        table = await press(host, "criminal_poker")
        await press(guest, "criminal_poker")
        path = f"/api/rooms/{table['id']}"
        await Lobby(b, host.token).call("PATCH", path, {"settings": {"fill_seconds": 1}})
        async with asyncio.timeout(30):
            while (info := await guest.call("GET", path))["status"] != "playing":
                await asyncio.sleep(0.1)
        return host, guest, info

    with processes(database, redis_url) as (a, b):
        host, guest, info = run(go(a.url, b.url))
    assert sitters(info) == [host.player, guest.player]
    assert [seat["bot"] for seat in info["seats"][2:]] == ["rules"] * 3
