"""Friends across two ``yamen serve`` processes on one PostgreSQL and one Redis: follows,
presence and invites made through one process are seen through the other, an invite to a room
one process owns is accepted through the other (seated there), invites sent at once through
both cannot pass the sender's bound, and a friend connected to the other process is told of an
invite by a frame and seen at the table without asking. Skipped, saying why, without
PostgreSQL or Redis (the fixtures of tests/server/test_cluster.py)."""

from __future__ import annotations

import asyncio
import secrets
import time

from tests.server.helpers import PASSWORD, run
from tests.server.test_cluster import database, processes, redis_url  # noqa: F401 (fixtures)
from yamen.client import Lobby, LobbyError, SeatClient
from yamen.server.invite_store import SENT_AT_ONCE


async def account(base: str, name: str) -> Lobby:
    lobby = await Lobby.guest(base, name)
    await lobby.call(
        "POST", "/api/account", {"name": f"{name}-{secrets.token_hex(4)}", "password": PASSWORD}
    )
    return lobby


def at(lobby: Lobby, base: str) -> Lobby:
    """The same player, through another process."""
    other = Lobby(base, lobby.token)
    other.player = lobby.player
    return other


def test_friends_presence_and_invites_hold_across_processes(database, redis_url):  # noqa: F811
    with processes(database, redis_url) as (one, two):

        async def go():
            ann, bob = await account(one.url, "Ann"), await account(two.url, "Bob")
            await ann.call("PUT", f"/api/friends/{bob.player}")
            await bob.call("PUT", f"/api/friends/{ann.player}")
            await bob.call("GET", "/api/invites")  # Bob's page, on the second process
            bob_online = await ann.call("GET", "/api/friends")
            room = await ann.call("POST", "/api/rooms", {"game": "baohuang", "seat": 0})
            await ann.call("GET", f"/api/invites?here={room['id']}")
            ann_at_table = await bob.call("GET", "/api/friends")
            # the room is the first process's: invited through the second, accepted through it
            sent = await at(ann, two.url).call(
                "POST", "/api/invites", {"to": bob.player, "room": room["id"]}
            )
            shown = await at(bob, one.url).call("GET", "/api/invites")
            accepted = await bob.call("POST", f"/api/invites/{sent['id']}/accept")
            info = await ann.call("GET", f"/api/rooms/{room['id']}")

            # more friends of Ann's, then an invite to each at once, through both processes
            others = [
                await account((one, two)[i % 2].url, f"F{i}") for i in range(SENT_AT_ONCE + 2)
            ]
            for other in others:
                await other.call("PUT", f"/api/friends/{ann.player}")
                await ann.call("PUT", f"/api/friends/{other.player}")
            await ann.call("DELETE", f"/api/rooms/{room['id']}/seats/1")  # Bob's seat, free again

            async def invite(i: int, other: Lobby):
                try:
                    return await at(ann, (one, two)[i % 2].url).call(
                        "POST", "/api/invites", {"to": other.player, "room": room["id"]}
                    )
                except LobbyError as exc:
                    return exc

            at_once = await asyncio.gather(*(invite(i, o) for i, o in enumerate(others)))
            return room, bob_online, ann_at_table, sent, shown, accepted, info, at_once, bob

        room, bob_online, ann_at_table, sent, shown, accepted, info, at_once, bob = run(go())

    assert bob_online["friends"][0]["presence"] == {"online": True, "room": None}
    assert ann_at_table["friends"][0]["presence"] == {
        "online": True,
        "room": room["id"],
        "game": "baohuang",
        "playing": False,
    }
    assert [i["id"] for i in shown["invites"]] == [sent["id"]]
    assert accepted == {"room": room["id"], "invite": None, "seat": 1}
    assert info["seats"][1]["player"] == bob.player
    made = [a for a in at_once if isinstance(a, dict)]
    refused = [a for a in at_once if isinstance(a, LobbyError)]
    assert len(made) == SENT_AT_ONCE
    assert [(e.status, e.code) for e in refused] == [(429, "invites_sent")] * 2


def test_a_friend_at_a_table_in_another_process_is_told_of_an_invite(database, redis_url):  # noqa: F811
    """Bob's connection is to the second process, to a room the first owns (relayed over the
    bus); Ann invites him through the first: the second process's own task finds the invite
    and tells his connection, and his presence at the table, written by the second process
    from that connection, is what Ann reads through the first. Bob's page never asks."""
    with processes(database, redis_url) as (one, two):

        async def go():
            ann, bob = await account(one.url, "Ann"), await account(one.url, "Bob")
            await ann.call("PUT", f"/api/friends/{bob.player}")
            await bob.call("PUT", f"/api/friends/{ann.player}")
            room = await ann.call("POST", "/api/rooms", {"game": "baohuang", "seat": 0})
            await bob.call("POST", f"/api/rooms/{room['id']}/seats/1")
            seat = await SeatClient.connect(at(bob, two.url).ws_url(room["id"]), bob.token)
            try:
                deadline = time.monotonic() + 30
                while True:  # the second process's next batch: Bob at Ann's table
                    told = (await ann.call("GET", "/api/friends"))["friends"][0]["presence"]
                    if told.get("room") == room["id"] or time.monotonic() > deadline:
                        break
                    await asyncio.sleep(0.2)
                await ann.call("DELETE", f"/api/rooms/{room['id']}/seats/1")
                sent = await ann.call(
                    "POST", "/api/invites", {"to": bob.player, "room": room["id"]}
                )
                frame = await seat.wait(lambda f: f["type"] == "invites", timeout=30)
            finally:
                await seat.close()
            shown = await at(bob, two.url).call("GET", "/api/invites")
            return room, told, sent, frame, shown

        room, told, sent, frame, shown = run(go())

    assert told == {"online": True, "room": room["id"], "game": "baohuang", "playing": False}
    assert frame == {"type": "invites"}
    assert [i["id"] for i in shown["invites"]] == [sent["id"]]
