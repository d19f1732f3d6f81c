"""Invites to a room in the database (yamen/server/tables.py: InviteRow).

The bounds on sending are counted and the invite stored in one transaction, under a lock on
the sender and one on the receiver, taken in the same order by everyone
(friend_store.one_at_a_time), so invites sent at once, to any process of a cluster, cannot all
pass them. Each count reads at most a bounded number of rows through an index: a sender's
invites of the last hour, a receiver's unexpired ones.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import delete, func, select, update

from yamen.server.friend_store import one_at_a_time
from yamen.server.storage import Store
from yamen.server.tables import InviteRow, PlayerRow, RoomRow

log = logging.getLogger(__name__)

INVITE_SECONDS = 300.0  # an invite not answered by then is gone
SENT_AT_ONCE = 5  # a sender's invites waiting for an answer
SENT_AN_HOUR = 20  # a sender's invites made in the last hour, answered or not
WAITING = 5  # invites waiting for one receiver, from all their friends
KEPT_SECONDS = 3600.0  # an invite's row is kept this long (the hourly count reads it)


@dataclass(frozen=True)
class Refusal:
    """Why an invite was not sent: ``code`` (``invited``: this friend already has one from the
    sender to this room; ``invites_sent``, ``invites_full``), the bound, and for a sender's
    hourly bound the seconds until one more may go."""

    code: str
    most: int
    retry_after: float = 0.0


@dataclass(frozen=True)
class Shown:
    """An invite as its receiver is shown it."""

    id: str
    sender: str
    name: str
    room: str
    game: str
    expires: float


async def send(store: Store, sender: str, receiver: str, room: str) -> str | Refusal:
    """A new invite's id, or why none was made (nothing stored)."""
    now = time.time()
    async with store.session.begin() as s:
        for who in sorted({f"sent:{sender}", f"waiting:{receiver}"}):
            await one_at_a_time(store, s, f"invites:{who}")
        pending = (InviteRow.answered.is_(None), InviteRow.expires > now)
        same = select(func.count()).where(
            InviteRow.sender == sender,
            InviteRow.receiver == receiver,
            InviteRow.room_id == room,
            *pending,
        )
        if await s.scalar(same):
            return Refusal("invited", 1)
        sent = (
            await s.scalars(
                select(InviteRow.created)
                .where(InviteRow.sender == sender, InviteRow.created > now - KEPT_SECONDS)
                .order_by(InviteRow.created)
                .limit(SENT_AN_HOUR)
            )
        ).all()
        if len(sent) >= SENT_AN_HOUR:
            return Refusal("invites_sent", SENT_AN_HOUR, sent[0] + KEPT_SECONDS - now)
        waiting_of = select(func.count()).where(InviteRow.sender == sender, *pending)
        if (await s.scalar(waiting_of) or 0) >= SENT_AT_ONCE:
            return Refusal("invites_sent", SENT_AT_ONCE, INVITE_SECONDS)
        waiting_for = select(func.count()).where(InviteRow.receiver == receiver, *pending)
        if (await s.scalar(waiting_for) or 0) >= WAITING:
            return Refusal("invites_full", WAITING)
        made = secrets.token_urlsafe(12)
        s.add(
            InviteRow(
                id=made,
                sender=sender,
                receiver=receiver,
                room_id=room,
                created=now,
                expires=now + INVITE_SECONDS,
            )
        )
    return made


async def waiting(store: Store, receiver: str) -> list[Shown]:
    """The invites waiting for ``receiver``, newest first (at most WAITING: no more are made)."""
    now = time.time()
    query = (
        select(InviteRow, PlayerRow.name, RoomRow.game)
        .join(PlayerRow, PlayerRow.id == InviteRow.sender)
        .join(RoomRow, RoomRow.id == InviteRow.room_id)
        .where(
            InviteRow.receiver == receiver,
            InviteRow.expires > now,
            InviteRow.answered.is_(None),
        )
        .order_by(InviteRow.expires.desc())
        .limit(WAITING)
    )
    async with store.session() as s:
        rows = (await s.execute(query)).all()
    return [Shown(i.id, i.sender, name, i.room_id, game, i.expires) for i, name, game in rows]


async def made_since(store: Store, since: float) -> list[tuple[str, str, float]]:
    """The invites made since ``since`` that wait for an answer, on the whole site: id,
    receiver, when made (through the index on their time; yamen/server/invite_news.py)."""
    query = select(InviteRow.id, InviteRow.receiver, InviteRow.created).where(
        InviteRow.created >= since, InviteRow.answered.is_(None)
    )
    async with store.session() as s:
        return [(i, receiver, made) for i, receiver, made in (await s.execute(query)).all()]


async def sent_waiting(store: Store, sender: str) -> dict[str, str]:
    """The sender's invites waiting for an answer: receiver -> room (at most SENT_AT_ONCE)."""
    now = time.time()
    query = select(InviteRow.receiver, InviteRow.room_id).where(
        InviteRow.sender == sender,
        InviteRow.created > now - KEPT_SECONDS,
        InviteRow.answered.is_(None),
        InviteRow.expires > now,
    )
    async with store.session() as s:
        return {receiver: room for receiver, room in (await s.execute(query)).all()}


async def answer(store: Store, invite: str, receiver: str) -> tuple[InviteRow | None, bool]:
    """The receiver answers their invite (accepts or dismisses it): it is shown no more. The
    invite as it was (None: there is no such invite of theirs) and whether it was still
    waiting (False, and nothing changed, once answered or expired)."""
    now = time.time()
    async with store.session.begin() as s:
        found = await s.get(InviteRow, invite)
        if found is None or found.receiver != receiver:
            return None, False
        if found.answered is not None or found.expires <= now:
            return found, False
        await s.execute(update(InviteRow).where(InviteRow.id == invite).values(answered=now))
    return found, True


async def withdraw(store: Store, invite: str, sender: str) -> bool:
    """The sender takes back an invite still waiting (it still counts for the hour)."""
    async with store.session.begin() as s:
        done = await s.execute(
            update(InviteRow)
            .where(InviteRow.id == invite, InviteRow.sender == sender, InviteRow.answered.is_(None))
            .values(answered=time.time())
        )
    return bool(getattr(done, "rowcount", 0))


SWEEP_SECONDS = 3600.0
SWEEP_PART = 1000  # rows deleted a transaction


async def sweep_old_invites(store: Store) -> None:
    """Every hour, the invites made over KEPT_SECONDS ago are deleted, SWEEP_PART at a time
    (through the index on their time)."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        try:
            await delete_old(store, time.time() - KEPT_SECONDS)
        except Exception:
            log.exception("deleting old invites failed")


async def delete_old(store: Store, before: float) -> int:
    gone = 0
    while True:
        async with store.session.begin() as s:
            ids = list(
                await s.scalars(
                    select(InviteRow.id).where(InviteRow.created < before).limit(SWEEP_PART)
                )
            )
            if ids:
                await s.execute(delete(InviteRow).where(InviteRow.id.in_(ids)))
        gone += len(ids)
        if len(ids) < SWEEP_PART:
            return gone
