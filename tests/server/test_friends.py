"""Friends (yamen/server/friends.py, invites.py): following needs an account and is one way;
only friends (who follow each other) see each other's presence and may invite each other; a
private table's id reaches only those who may know of it; invites are bounded per sender and per
receiver and expire; accepting seats the friend; a deleted account's follows and invites go.
On SQLite and PostgreSQL. (Across processes: tests/server/test_friends_cluster.py.)"""

from __future__ import annotations

import asyncio
import json
import secrets
import time

import pytest
from sqlalchemy import select

from tests.server.helpers import (
    PASSWORD,
    claimed,
    refusal,
    run,
    server_on_each_database,
)
from yamen.client import Lobby, LobbyError
from yamen.server import friend_store, invite_store

server = pytest.fixture(scope="module", params=["sqlite", "postgres"])(server_on_each_database)


async def account(base: str, name: str) -> Lobby:
    """A player with an account of a name of its own (the server is shared by the tests)."""
    return await claimed(base, name, f"{name}-{secrets.token_hex(4)}")


async def friends(base: str, *names: str) -> list[Lobby]:
    """Players with accounts, each following each other."""
    made = [await account(base, name) for name in names]
    for a in made:
        for b in made:
            if a is not b:
                await a.call("PUT", f"/api/friends/{b.player}")
    return made


async def table(lobby: Lobby, public: bool = True) -> dict:
    """A Baohuang room ``lobby``'s player hosts and sits in (seat 0)."""
    return await lobby.call("POST", "/api/rooms", {"game": "baohuang", "public": public, "seat": 0})


def test_following_needs_an_account_and_a_person(server):
    async def go():
        guest = await Lobby.guest(server.url, "Gus")
        ann = await account(server.url, "Ann")
        return (
            await refusal(guest, "PUT", f"/api/friends/{ann.player}"),
            await refusal(ann, "PUT", f"/api/friends/{ann.player}"),
            await refusal(ann, "PUT", "/api/friends/bot:rules"),
            await refusal(ann, "PUT", "/api/friends/nobody"),
            await ann.call("PUT", f"/api/friends/{guest.player}"),  # a guest may be followed
            await ann.call("PUT", f"/api/friends/{guest.player}"),  # again: nothing changes
            await guest.call("GET", "/api/friends/followers"),
            await ann.call("GET", "/api/friends"),
        )

    as_guest, own, bot, nobody, followed, again, theirs, mine = run(go())
    assert (as_guest.status, as_guest.code) == (403, "account_needed")
    assert (own.status, own.code) == (422, "self_follow")
    assert (bot.status, bot.code) == (404, "not_found")
    assert (nobody.status, nobody.code) == (404, "not_found")
    assert followed == again == {"player": followed["player"], "name": "Gus", "mutual": False}
    assert [f["name"] for f in theirs["followers"]] == ["Ann"] and not theirs["followers"][0][
        "mutual"
    ]
    assert mine["friends"] == [
        {
            "player": followed["player"],
            "name": "Gus",
            "mutual": False,
            "presence": None,
            "invited": None,
        }
    ]


def test_only_friends_see_each_other_online_and_at_a_public_table(server):
    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        eve = await account(server.url, "Eve")
        await eve.call("PUT", f"/api/friends/{bob.player}")  # one way: Bob does not follow her
        before = await ann.call("GET", "/api/friends")  # Bob's page has not asked yet
        room = await table(bob)
        await bob.call("GET", f"/api/invites?here={room['id']}")  # his page shows his table
        at_table = await ann.call("GET", "/api/friends")
        stranger = await eve.call("GET", "/api/friends")
        await bob.call("GET", "/api/invites")  # the lobby: no room
        in_lobby = await ann.call("GET", "/api/friends")
        relations = await eve.call(
            "GET", f"/api/friends/relations?players={bob.player},{ann.player}"
        )
        return room, before, at_table, stranger, in_lobby, relations, bob, ann

    room, before, at_table, stranger, in_lobby, relations, bob, ann = run(go())
    assert before["friends"][0]["presence"] == {"online": False}
    assert at_table["friends"][0] == {
        "player": bob.player,
        "name": "Bob",
        "mutual": True,
        "presence": {"online": True, "room": room["id"], "game": "baohuang", "playing": False},
        "invited": None,
    }
    # who follows one way is told nothing of where Bob is
    assert stranger["friends"][0]["presence"] is None and room["id"] not in json.dumps(stranger)
    assert in_lobby["friends"][0]["presence"] == {"online": True, "room": None}
    assert relations == {
        bob.player: {"following": True, "follows_me": False},
        ann.player: {"following": False, "follows_me": False},
    }


def test_a_private_tables_id_reaches_only_friends_who_may_know_of_it(server):
    async def go():
        ann, bob, cat = await friends(server.url, "Ann", "Bob", "Cat")
        room = await table(bob, public=False)
        await cat.call("POST", f"/api/rooms/{room['id']}/seats/1", {"invite": room["invite"]})
        await bob.call("GET", f"/api/invites?here={room['id']}")
        return room, await ann.call("GET", "/api/friends"), await cat.call("GET", "/api/friends")

    room, outsider, seated = run(go())
    (bob_for_ann,) = [f for f in outsider["friends"] if f["name"] == "Bob"]
    assert bob_for_ann["presence"] == {"online": True, "room": None, "private": True}
    assert room["id"] not in json.dumps(outsider) and room["invite"] not in json.dumps(outsider)
    (bob_for_cat,) = [f for f in seated["friends"] if f["name"] == "Bob"]
    assert bob_for_cat["presence"]["room"] == room["id"]  # Cat sits there too


def test_a_page_that_claims_a_room_it_is_not_seated_in_shows_no_table(server):
    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        eve = await account(server.url, "Eve")
        room = await table(eve, public=False)
        await bob.call("GET", f"/api/invites?here={room['id']}")  # not his: Bob cannot see it
        bad = await refusal(bob, "GET", "/api/invites?here=a%20b")
        return room, await ann.call("GET", "/api/friends"), bad

    room, told, bad = run(go())
    assert told["friends"][0]["presence"] == {"online": True, "room": None}
    assert bad.status == 422


def test_follows_come_a_page_at_a_time_and_are_bounded(server, monkeypatch):
    monkeypatch.setattr(friend_store, "MOST_FOLLOWS", 55)

    async def go():
        ann = await account(server.url, "Ann")
        people = [await Lobby.guest(server.url, f"g{i}") for i in range(56)]
        for other in people[:55]:
            await ann.call("PUT", f"/api/friends/{other.player}")
        full = await refusal(ann, "PUT", f"/api/friends/{people[55].player}")
        first = await ann.call("GET", "/api/friends")
        second = await ann.call("GET", f"/api/friends?before={first['next']}")
        bad = await refusal(ann, "GET", "/api/friends?before=nonsense")
        await ann.call("DELETE", f"/api/friends/{people[0].player}")
        room_for_one = await ann.call("PUT", f"/api/friends/{people[55].player}")
        return people, full, first, second, bad, room_for_one

    people, full, first, second, bad, room_for_one = run(go())
    assert (full.status, full.code, full.params) == (409, "follows_full", {"most": 55})
    assert len(first["friends"]) == 50 and len(second["friends"]) == 5
    assert second["next"] is None
    shown = [f["player"] for f in first["friends"] + second["friends"]]
    assert shown == [p.player for p in reversed(people[:55])]  # newest follow first, each once
    assert (bad.status, bad.code) == (422, "invalid")
    assert room_for_one["name"] == "g55"


def test_an_invite_reaches_the_friend_who_accepts_it_and_sits(server):
    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        room = await table(ann, public=False)
        sent = await ann.call("POST", "/api/invites", {"to": bob.player, "room": room["id"]})
        shown = await bob.call("GET", "/api/invites")
        waiting = (await ann.call("GET", "/api/friends"))["friends"][0]["invited"]
        accepted = await bob.call("POST", f"/api/invites/{sent['id']}/accept")
        answered = (await ann.call("GET", "/api/friends"))["friends"][0]["invited"]
        again = await refusal(bob, "POST", f"/api/invites/{sent['id']}/accept")
        after = await bob.call("GET", "/api/invites")
        info = await bob.call("GET", f"/api/rooms/{room['id']}")
        return room, sent, shown, accepted, again, after, info, ann, bob, waiting, answered

    room, sent, shown, accepted, again, after, info, ann, bob, waiting, answered = run(go())
    assert (waiting, answered) == (room["id"], None)  # Ann's list says whom she invited
    assert sent["expires_in"] == 300
    (one,) = shown["invites"]
    assert one["from"] == {"player": ann.player, "name": "Ann"}
    assert (one["room"], one["game"], one["id"]) == (room["id"], "baohuang", sent["id"])
    assert 290 <= one["expires_in"] <= 300 and shown["every"] == 20  # a page with no connection
    assert accepted == {"room": room["id"], "invite": room["invite"], "seat": 1}
    assert info["seats"][1]["player"] == bob.player
    assert (again.status, again.code) == (409, "invite_expired")
    assert after["invites"] == []


def test_accepting_a_full_or_playing_table_opens_it_to_watch(server):
    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        room = await table(ann)
        await ann.call("POST", f"/api/rooms/{room['id']}/bots", {"bot": "random"})
        sent = await ann.call("POST", "/api/invites", {"to": bob.player, "room": room["id"]})
        return await bob.call("POST", f"/api/invites/{sent['id']}/accept"), room

    accepted, room = run(go())
    assert accepted == {"room": room["id"], "invite": None, "seat": None}


def test_who_may_invite_whom_and_to_which_table(server):
    async def go():
        ann, bob, cat = await friends(server.url, "Ann", "Bob", "Cat")
        eve = await account(server.url, "Eve")
        await eve.call("PUT", f"/api/friends/{ann.player}")  # Eve follows Ann, one way
        await ann.call("PUT", f"/api/friends/{eve.player}")  # and Ann her: friends now
        await eve.call("DELETE", f"/api/friends/{ann.player}")  # no longer
        private = await table(ann, public=False)
        await bob.call("POST", f"/api/rooms/{private['id']}/seats/1", {"invite": private["invite"]})
        public = await table(eve)
        invite = lambda who, to, room: refusal(  # noqa: E731
            who, "POST", "/api/invites", {"to": to.player, "room": room["id"]}
        )
        return (
            await invite(ann, eve, private),  # Eve does not follow back
            await invite(ann, ann, private),  # oneself
            await invite(bob, cat, private),  # Bob sits there, but it is Ann's private table
            await invite(ann, cat, public),  # Eve's table: Ann does not sit there
            await invite(ann, bob, private),  # Bob sits there already
            await refusal(ann, "POST", "/api/invites", {"to": cat.player, "room": "nowhere"}),
            await refusal(ann, "POST", "/api/invites", {"to": cat.player}),
        )

    stranger, own, not_host, elsewhere, there, nowhere, incomplete = run(go())
    assert (stranger.status, stranger.code) == (403, "not_friends")
    assert (own.status, own.code) == (403, "not_friends")
    assert (not_host.status, not_host.code) == (403, "not_your_table")
    assert (elsewhere.status, elsewhere.code) == (403, "not_your_table")
    assert (there.status, there.code) == (409, "already_there")
    assert (nowhere.status, nowhere.code) == (404, "not_found")
    assert (incomplete.status, incomplete.code) == (422, "invalid")


def test_invites_are_bounded_per_sender_and_per_receiver(server, monkeypatch):
    monkeypatch.setattr(invite_store, "SENT_AT_ONCE", 2)
    monkeypatch.setattr(invite_store, "SENT_AN_HOUR", 3)
    monkeypatch.setattr(invite_store, "WAITING", 2)

    async def go():
        ann, bob, cat, dan, eve = await friends(server.url, "Ann", "Bob", "Cat", "Dan", "Eve")
        rooms = {p.player: (await table(p))["id"] for p in (ann, bob, cat, dan)}

        async def invite(who, to):
            body = {"to": to.player, "room": rooms[who.player]}
            try:
                return await who.call("POST", "/api/invites", body)
            except LobbyError as exc:
                return exc

        first = await invite(ann, bob)
        twice = await invite(ann, bob)  # the same friend, the same table, still waiting
        second = await invite(ann, cat)
        assert "id" in second
        at_once = await invite(ann, dan)  # two waiting already
        await bob.call("DELETE", f"/api/invites/{first['id']}")  # dismissed
        third = await invite(ann, dan)
        await ann.call("DELETE", f"/api/invites/{third['id']}")  # taken back: still counted
        an_hour = await invite(ann, eve)  # three made this hour
        # Eve is sent two, from two friends: a third friend's waits
        to_eve = [await invite(who, eve) for who in (bob, cat, dan)]
        shown = await eve.call("GET", "/api/invites")
        return twice, at_once, an_hour, to_eve, shown

    twice, at_once, an_hour, to_eve, shown = run(go())
    assert (twice.status, twice.code) == (409, "invited")
    assert (at_once.status, at_once.code, at_once.params) == (429, "invites_sent", {"most": 2})
    assert (an_hour.status, an_hour.code, an_hour.params) == (429, "invites_sent", {"most": 3})
    sent, full = to_eve[:2], to_eve[2]
    assert all("id" in made for made in sent)
    assert (full.status, full.code, full.params) == (409, "invites_full", {"most": 2})
    assert {i["id"] for i in shown["invites"]} == {made["id"] for made in sent}


def test_the_hourly_bound_says_when_to_try_again(server, monkeypatch):
    monkeypatch.setattr(invite_store, "SENT_AN_HOUR", 1)

    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        room = await table(ann)
        body = {"to": bob.player, "room": room["id"]}
        made = await ann.call("POST", "/api/invites", body)
        await ann.call("DELETE", f"/api/invites/{made['id']}")
        answer = await ann.http.post(
            "/api/invites", json=body, headers={"Authorization": f"Bearer {ann.token}"}
        )
        return answer

    answer = run(go())
    assert answer.status_code == 429
    detail = answer.json()["detail"]
    assert 3500 <= detail["retry_after"] <= 3600
    assert answer.headers["retry-after"] == str(detail["retry_after"])


def test_an_invite_expires(server, monkeypatch):
    monkeypatch.setattr(invite_store, "INVITE_SECONDS", 0.5)

    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        room = await table(ann)
        sent = await ann.call("POST", "/api/invites", {"to": bob.player, "room": room["id"]})
        await asyncio.sleep(0.7)
        shown = await bob.call("GET", "/api/invites")
        late = await refusal(bob, "POST", f"/api/invites/{sent['id']}/accept")
        again = await ann.call("POST", "/api/invites", {"to": bob.player, "room": room["id"]})
        return shown, late, again

    shown, late, again = run(go())
    assert shown["invites"] == []
    assert (late.status, late.code) == (409, "invite_expired")
    assert "id" in again  # the expired one no longer stands in the way


def test_nobody_else_answers_or_sees_an_invite(server):
    async def go():
        ann, bob, cat = await friends(server.url, "Ann", "Bob", "Cat")
        room = await table(ann, public=False)
        sent = await ann.call("POST", "/api/invites", {"to": bob.player, "room": room["id"]})
        seen_by_cat = await cat.call("GET", "/api/invites")
        accept = await refusal(cat, "POST", f"/api/invites/{sent['id']}/accept")
        dismiss = await refusal(cat, "DELETE", f"/api/invites/{sent['id']}")
        made_up = await refusal(bob, "POST", "/api/invites/nothing/accept")
        return room, seen_by_cat, accept, dismiss, made_up, await bob.call("GET", "/api/invites")

    room, seen_by_cat, accept, dismiss, made_up, bobs = run(go())
    assert room["id"] not in json.dumps(seen_by_cat)
    assert all((e.status, e.code) == (404, "not_found") for e in (accept, dismiss, made_up))
    assert len(bobs["invites"]) == 1  # still his


def test_a_deleted_accounts_follows_and_invites_go(server):
    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        room = await table(bob)
        sent = await bob.call("POST", "/api/invites", {"to": ann.player, "room": room["id"]})
        await bob.call("DELETE", "/api/account", {"password": PASSWORD})
        mine = await ann.call("GET", "/api/friends")
        theirs = await ann.call("GET", "/api/friends/followers")
        shown = await ann.call("GET", "/api/invites")
        accept = await refusal(ann, "POST", f"/api/invites/{sent['id']}/accept")
        follow = await refusal(ann, "PUT", f"/api/friends/{bob.player}")
        return mine, theirs, shown, accept, follow

    mine, theirs, shown, accept, follow = run(go())
    assert mine["friends"] == [] and theirs["followers"] == [] and shown["invites"] == []
    assert (accept.status, accept.code) == (404, "not_found")
    assert (follow.status, follow.code) == (404, "not_found")


def test_presence_goes_offline_once_the_page_stops_asking(server, monkeypatch):
    monkeypatch.setattr(friend_store, "ONLINE_SECONDS", 0.5)

    async def go():
        ann, bob = await friends(server.url, "Ann", "Bob")
        await bob.call("GET", "/api/invites")
        online = await ann.call("GET", "/api/friends")
        await asyncio.sleep(0.7)
        return online, await ann.call("GET", "/api/friends")

    online, later = run(go())
    assert online["friends"][0]["presence"]["online"] is True
    assert later["friends"][0]["presence"] == {"online": False}


def test_a_page_asking_often_writes_its_presence_twice_a_minute(tmp_path):
    """The presence row is written when it is older than SEEN_EVERY or the room changed."""
    from yamen.server.storage import Store
    from yamen.server.tables import PresenceRow

    async def go():
        store = Store(f"sqlite:///{tmp_path / 'p.db'}")
        await store.open()
        try:
            await store.add_player("p", "Ann", "t")
            seen = []
            for room in (None, None, "r1", "r1", None):
                await friend_store.seen(store, "p", room)
                async with store.session() as s:
                    row = await s.get(PresenceRow, "p", populate_existing=True)
                    seen.append((row.seen, row.room_id))
            return seen
        finally:
            await store.close()

    start = time.time()
    seen = run(go())
    assert seen[1] == seen[0] and seen[3] == seen[2]  # asked again at once: not written
    assert [room for _, room in seen] == [None, None, "r1", "r1", None]
    assert all(start <= when <= time.time() for when, _ in seen)


def test_the_work_of_a_friends_page_does_not_grow_with_the_follows(tmp_path):
    """A page of the friends list (the follows, who follows back, their presence and their
    tables) runs the same statements and reads the same rows for 60 follows as for 200: every
    friend online, at a table of their own."""
    from tests.server.test_player_page import Work
    from yamen.server.storage import Store
    from yamen.server.tables import FollowRow, PlayerRow, PresenceRow, RoomRow, SeatRow

    async def work(follows: int):
        store = Store(f"sqlite:///{tmp_path / f'{follows}.db'}")
        await store.open()
        try:
            await store.add_player("me", "Me", "t")
            now = time.time()
            async with store.session.begin() as s:
                for i in range(follows):
                    f, room = f"f{i}", f"r{i}"
                    s.add(PlayerRow(id=f, name=f"F{i}", token_hash=f"h{i}", created=now))
                    await s.flush()
                    s.add(
                        RoomRow(
                            id=room,
                            game="g",
                            options={},
                            public=i % 2 == 0,
                            invite="x",
                            host=f,
                            settings={},
                            created=now,
                        )
                    )
                    await s.flush()
                    s.add(SeatRow(room_id=room, seat=0, player_id=f))
                    s.add(FollowRow(follower="me", followed=f, created=now + i))
                    s.add(FollowRow(follower=f, followed="me", created=now + i))
                    s.add(PresenceRow(player_id=f, seen=now, room_id=room))
            await friend_store.page(store, "me", None)  # the statement caches warmed
            counted = Work(store)
            shown, more = await friend_store.page(store, "me", None)
            told = await friend_store.presence(store, "me", [f.player for f in shown])
            counted.close()
            assert len(shown) == 50 and more is not None and len(told) == 50
            assert sum(1 for t in told.values() if t.get("private")) == 25
            return counted.statements, counted.rows
        finally:
            await store.close()

    small, large = run(work(60)), run(work(200))
    assert small == large
    statements, rows = large
    # the page and one more; who follows back; presence; rooms; games in progress; seats
    assert statements == 6 and rows == 51 + 50 + 50 + 50 + 0 + 50


def test_invites_older_than_an_hour_are_swept(tmp_path):
    from yamen.server.storage import Store
    from yamen.server.tables import InviteRow, PlayerRow, RoomRow

    async def go():
        store = Store(f"sqlite:///{tmp_path / 's.db'}")
        await store.open()
        try:
            now = time.time()
            async with store.session.begin() as s:
                s.add(PlayerRow(id="p", name="P", token_hash="h", created=now))
                await s.flush()
                s.add(
                    RoomRow(
                        id="r",
                        game="g",
                        options={},
                        public=True,
                        invite="x",
                        host="p",
                        settings={},
                        created=now,
                    )
                )
                await s.flush()
                for i, age in enumerate([7200, 3700, 3500, 10]):
                    made = now - age
                    s.add(
                        InviteRow(
                            id=f"i{i}",
                            sender="p",
                            receiver="p",
                            room_id="r",
                            created=made,
                            expires=made + 300,
                        )
                    )
            gone = await invite_store.delete_old(store, now - invite_store.KEPT_SECONDS)
            async with store.session() as s:
                left = sorted(await s.scalars(select(InviteRow.id)))
            return gone, left
        finally:
            await store.close()

    gone, left = run(go())
    assert gone == 2 and left == ["i2", "i3"]
