"""Follows and presence in the database (yamen/server/tables.py: FollowRow, PresenceRow).

Every query here reads a bounded number of rows, whatever the size of the site: a page of
follows (PAGE, through an index, newest first), and for the friends on it their presence and
the rooms they are in (one row each). Counting a player's follows against MOST_FOLLOWS and
adding one happen in one transaction under a lock on the follower (:func:`one_at_a_time`), so
follows sent at once, to any process of a cluster, cannot all pass the count.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from yamen.server.storage import Store
from yamen.server.tables import (
    FollowRow,
    GameRow,
    InviteRow,
    PlayerRow,
    PresenceRow,
    RoomRow,
    SeatRow,
)
from yamen.wire import DELETED

MOST_FOLLOWS = 200  # players one may follow; followers are not capped (nobody chooses them)
PAGE = 50  # follows (or followers) a page
ONLINE_SECONDS = 90.0  # seen this recently: online
SEEN_EVERY = 30.0  # a player's presence is written at most this often, unless their room changes


@dataclass(frozen=True)
class Cursor:
    """Where a page of follows starts: before the follow made at ``created`` of ``player``."""

    created: float
    player: str

    def __str__(self) -> str:
        return f"{self.created!r}:{self.player}"

    @staticmethod
    def parse(text: str) -> Cursor:
        created, _, player = text.partition(":")
        try:
            return Cursor(float(created), player)
        except ValueError:
            raise ValueError(f"{text!r} is not a page's cursor") from None


@dataclass(frozen=True)
class Follow:
    """One player on a page of follows: their id and name, when the follow was made, and
    whether the other way holds too (``mutual``: friends)."""

    player: str
    name: str
    created: float
    mutual: bool


async def one_at_a_time(store: Store, s: AsyncSession, key: str) -> None:
    """Hold ``key`` until the transaction of ``s`` ends. PostgreSQL: an advisory lock, which
    every process of a cluster takes in turn; SQLite has one connection, which does it."""
    if store.engine.dialect.name == "postgresql":
        digest = hashlib.sha256(key.encode()).digest()[:8]
        lock = text("SELECT pg_advisory_xact_lock(:key)")
        await s.execute(lock, {"key": int.from_bytes(digest, "big", signed=True)})


async def person(store: Store, player: str) -> str | None:
    """The name of a person one may follow (a player whose account was not deleted)."""
    async with store.session() as s:
        name = await s.scalar(select(PlayerRow.name).where(PlayerRow.id == player))
    return None if name is None or name == DELETED else name


async def follow(store: Store, follower: str, followed: str) -> bool:
    """``follower`` follows ``followed`` from now on (following again changes nothing); False,
    and nothing changed, once they follow MOST_FOLLOWS players."""
    async with store.session.begin() as s:
        await one_at_a_time(store, s, f"follows:{follower}")
        if await s.get(FollowRow, (follower, followed)) is not None:
            return True
        count = select(func.count()).where(FollowRow.follower == follower)
        if (await s.scalar(count) or 0) >= MOST_FOLLOWS:
            return False
        s.add(FollowRow(follower=follower, followed=followed, created=time.time()))
    return True


async def unfollow(store: Store, follower: str, followed: str) -> None:
    async with store.session.begin() as s:
        await s.execute(
            delete(FollowRow).where(FollowRow.follower == follower, FollowRow.followed == followed)
        )


async def page(
    store: Store, me: str, before: Cursor | None, *, followers: bool = False
) -> tuple[list[Follow], Cursor | None]:
    """The players ``me`` follows (``followers``: who follows ``me``), newest follow first, a
    PAGE at a time from ``before``; and where the next page starts (None: no more)."""
    mine, theirs = (
        (FollowRow.followed, FollowRow.follower)
        if followers
        else (FollowRow.follower, FollowRow.followed)
    )
    query = (
        select(theirs, PlayerRow.name, FollowRow.created)
        .join(PlayerRow, PlayerRow.id == theirs)
        .where(mine == me)
    )
    if before is not None:
        query = query.where(
            or_(
                FollowRow.created < before.created,
                and_(FollowRow.created == before.created, theirs < before.player),
            )
        )
    query = query.order_by(FollowRow.created.desc(), theirs.desc()).limit(PAGE + 1)
    async with store.session() as s:
        rows = (await s.execute(query)).all()
        ids = [row[0] for row in rows[:PAGE]]
        back = await _following(s, ids, me) if not followers else await _followed_by(s, me, ids)
    shown = [Follow(row[0], row[1], row[2], row[0] in back) for row in rows[:PAGE]]
    more = Cursor(shown[-1].created, shown[-1].player) if len(rows) > PAGE else None
    return shown, more


async def _following(s: AsyncSession, followers: list[str], followed: str) -> set[str]:
    """Which of ``followers`` follow ``followed``."""
    if not followers:
        return set()
    query = select(FollowRow.follower).where(
        FollowRow.followed == followed, FollowRow.follower.in_(followers)
    )
    return set(await s.scalars(query))


async def _followed_by(s: AsyncSession, follower: str, followed: list[str]) -> set[str]:
    """Which of ``followed`` ``follower`` follows."""
    if not followed:
        return set()
    query = select(FollowRow.followed).where(
        FollowRow.follower == follower, FollowRow.followed.in_(followed)
    )
    return set(await s.scalars(query))


async def relations(store: Store, me: str, players: list[str]) -> dict[str, dict[str, bool]]:
    """For each of ``players``: whether ``me`` follows them, and whether they follow ``me``."""
    async with store.session() as s:
        mine = await _followed_by(s, me, players)
        theirs = await _following(s, players, me)
    return {p: {"following": p in mine, "follows_me": p in theirs} for p in players}


async def friends(store: Store, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` follow each other."""
    query = select(func.count()).where(
        or_(
            and_(FollowRow.follower == a, FollowRow.followed == b),
            and_(FollowRow.follower == b, FollowRow.followed == a),
        )
    )
    async with store.session() as s:
        return (await s.scalar(query) or 0) == 2


async def seen(store: Store, player: str, room: str | None) -> None:
    """The player's page is open (showing ``room``, or no room): written in one statement, and
    only when their presence is older than SEEN_EVERY or the room changed, so a page asking
    every few seconds writes about twice a minute."""
    now = time.time()
    made = _insert(store)
    stale = or_(
        PresenceRow.seen < now - SEEN_EVERY,
        PresenceRow.room_id.is_distinct_from(made.excluded.room_id),
    )
    upsert = made.values(player_id=player, seen=now, room_id=room).on_conflict_do_update(
        index_elements=[PresenceRow.player_id],
        set_={"seen": made.excluded.seen, "room_id": made.excluded.room_id},
        where=stale,
    )
    async with store.session.begin() as s:
        await s.execute(upsert)


async def seen_many(store: Store, rooms: dict[str, str | None], now: float) -> None:
    """The players connected to a process seen ``now``, each at their room (None: no room):
    one statement, a row each, in one transaction (yamen/server/presence.py)."""
    made = _insert(store)
    upsert = made.on_conflict_do_update(
        index_elements=[PresenceRow.player_id],
        set_={"seen": made.excluded.seen, "room_id": made.excluded.room_id},
    )
    rows = [{"player_id": p, "seen": now, "room_id": room} for p, room in rooms.items()]
    async with store.session.begin() as s:
        await s.execute(upsert, rows)


def _insert(store: Store) -> Any:
    """An insert into ``presence`` that can be an upsert, in the store's dialect."""
    dialect = postgresql if store.engine.dialect.name == "postgresql" else sqlite
    return dialect.insert(PresenceRow)


async def presence(store: Store, me: str, players: list[str]) -> dict[str, dict[str, Any]]:
    """What ``me`` is told of each of ``players`` (their friends: the caller checks) who is
    online: ``{"room": id, "game": name, "playing": bool}`` when they sit in the room they were
    seen at (connected to it, or a page showing it) and ``me`` may know of it (a public room,
    or one ``me`` hosts or sits in), ``{"room": None, "private": True}`` for another private
    room they sit in, else ``{"room": None}`` (on the site, at no table of theirs). Offline
    players are left out."""
    if not players:
        return {}
    since = time.time() - ONLINE_SECONDS
    async with store.session() as s:
        rows = (
            await s.execute(
                select(PresenceRow.player_id, PresenceRow.room_id).where(
                    PresenceRow.player_id.in_(players), PresenceRow.seen >= since
                )
            )
        ).all()
        where = {player: room for player, room in rows}
        rooms = sorted({room for room in where.values() if room is not None})
        about = await _rooms(s, rooms, [*where, me]) if rooms else {}
    told: dict[str, dict[str, Any]] = {}
    for player, room in where.items():
        found = about.get(room) if room is not None else None
        if found is None or player not in found["seated"]:
            told[player] = {"room": None}
        elif found["public"] or found["host"] == me or me in found["seated"]:
            told[player] = {"room": room, "game": found["game"], "playing": found["playing"]}
        else:
            told[player] = {"room": None, "private": True}  # its id is not theirs to know
    return told


async def _rooms(s: AsyncSession, rooms: list[str], people: list[str]) -> dict[str, Any]:
    """For each room: public, host, game, whether a game is in progress, and which of
    ``people`` sit in it (one row per room, and per person seated)."""
    found = (
        await s.execute(
            select(RoomRow.id, RoomRow.public, RoomRow.host, RoomRow.game).where(
                RoomRow.id.in_(rooms)
            )
        )
    ).all()
    playing = set(
        await s.scalars(
            select(GameRow.room_id)
            .where(
                GameRow.room_id.in_(rooms),
                GameRow.finished.is_(None),
                GameRow.quarantined.is_(None),
            )
            .distinct()
        )
    )
    seats = (
        await s.execute(
            select(SeatRow.room_id, SeatRow.player_id).where(
                SeatRow.room_id.in_(rooms), SeatRow.player_id.in_(people)
            )
        )
    ).all()
    return {
        room: {
            "public": public,
            "host": host,
            "game": game,
            "playing": room in playing,
            "seated": {player for where, player in seats if where == room},
        }
        for room, public, host, game in found
    }


async def forget(s: AsyncSession, player: str) -> None:
    """A deleted account's follows, either way, its presence and its invites, either way (in
    the transaction that deletes it: yamen/server/account_store.py)."""
    await s.execute(
        delete(FollowRow).where(or_(FollowRow.follower == player, FollowRow.followed == player))
    )
    await s.execute(delete(PresenceRow).where(PresenceRow.player_id == player))
    await s.execute(
        delete(InviteRow).where(or_(InviteRow.sender == player, InviteRow.receiver == player))
    )
