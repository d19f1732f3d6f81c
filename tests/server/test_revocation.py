"""A revoked token's WebSockets are closed (yamen/server/revocation.py): after signing out
everywhere, signing out one session, a new password or a deleted account, a connection that
said hello with a revoked token is told ``signed_out`` and closed with code 4001; one whose
token is still valid stays open, and the seat stays the player's. In one process, and across
two processes sharing PostgreSQL and Redis (its fixtures: tests/server/test_cluster.py)."""

from __future__ import annotations

import asyncio

from tests.server.helpers import PASSWORD, ServerThread, claimed, run, signed_in
from tests.server.test_cluster import database, processes, redis_url
from yamen.client import Lobby, SeatClient
from yamen.server.revocation import SIGNED_OUT

__all__ = ["database", "redis_url"]  # the cluster test's fixtures, used here too


async def seated_room(lobby: Lobby) -> str:
    room = await lobby.call("POST", "/api/rooms", {"game": "baohuang", "seat": 0})
    return room["id"]


async def closed(seat: SeatClient) -> tuple[int | None, str | None, list[str]]:
    """Once the server has closed it: its close code and reason, and the errors it was told."""
    await asyncio.wait_for(asyncio.shield(seat.reader), 15)
    errors = [f["code"] for f in seat.frames if f["type"] == "error"]
    return seat.ws.close_code, seat.ws.close_reason, errors


async def still_open(seat: SeatClient) -> bool:
    """It answers a sync with the whole table again."""
    start = len(seat.frames)
    await seat.send(type="sync")
    frame = await seat.wait(lambda f: f["type"] in ("state", "error"), 15, start)
    return frame["type"] == "state" and not seat.closed


def test_signing_out_everywhere_closes_every_socket_of_the_account(tmp_path):
    with ServerThread(f"sqlite:///{tmp_path / 'r.db'}") as server:

        async def go():
            first = await claimed(server.url, "Ann", "Ann")
            second = await signed_in(server.url, "Ann")
            rid = await seated_room(first)
            sockets = [
                await SeatClient.connect(first.ws_url(rid), x.token) for x in (first, second)
            ]
            stranger = await Lobby.guest(server.url, "Bob")
            watching = await SeatClient.connect(stranger.ws_url(rid), stranger.token)
            other = await signed_in(server.url, "Ann")
            await other.call("DELETE", "/api/account/sessions")
            ends = [await closed(s) for s in sockets]
            kept = await still_open(watching)
            back = await signed_in(server.url, "Ann")  # the seat is still theirs
            again = await SeatClient.connect(back.ws_url(rid), back.token)
            seat = (await again.wait(lambda f: f["type"] == "welcome"))["seat"]
            await again.close()
            await watching.close()
            return ends, kept, seat

        ends, kept, seat = run(go())
    assert ends == [(SIGNED_OUT, "signed_out", ["signed_out"])] * 2
    assert kept and seat == 0


def test_a_valid_session_keeps_its_socket_when_others_are_revoked(tmp_path):
    with ServerThread(f"sqlite:///{tmp_path / 'r.db'}") as server:

        async def go():
            first = await claimed(server.url, "Cy", "Cy")
            second, third = [await signed_in(server.url, "Cy") for _ in range(2)]
            rid = await seated_room(first)
            one, two, three = [
                await SeatClient.connect(first.ws_url(rid), x.token) for x in (first, second, third)
            ]
            await third.call("DELETE", "/api/account/sessions/current")  # this one only
            signed_out = await closed(three)
            kept = [await still_open(one), await still_open(two)]
            new = {"old": PASSWORD, "new": "another password"}
            await first.call("PUT", "/api/account/password", new)  # the others go
            changed = await closed(two)
            kept.append(await still_open(one))
            await first.call("DELETE", "/api/account", {"password": "another password"})
            deleted = await closed(one)
            return signed_out, kept, changed, deleted

        signed_out, kept, changed, deleted = run(go())
    assert signed_out == changed == deleted == (SIGNED_OUT, "signed_out", ["signed_out"])
    assert kept == [True, True, True]


def test_a_socket_on_another_process_is_closed_too(database, redis_url):
    with processes(database, redis_url) as (a, b):

        async def go():
            first = await claimed(a.url, "Dee", "Dee")
            second = await signed_in(b.url, "Dee")
            kept = await signed_in(a.url, "Dee")
            rid = await seated_room(first)
            on_b = await SeatClient.connect(second.ws_url(rid), second.token)
            kept_b = await SeatClient.connect(Lobby(b.url).ws_url(rid), kept.token)
            on_a = await SeatClient.connect(first.ws_url(rid), first.token)
            await kept.call("PUT", "/api/account/password", {"old": PASSWORD, "new": "pass word 2"})
            ends = [await closed(on_b), await closed(on_a)]
            alive = await still_open(kept_b)
            await kept_b.close()
            return ends, alive

        ends, alive = run(go())
    assert ends == [(SIGNED_OUT, "signed_out", ["signed_out"])] * 2
    assert alive
