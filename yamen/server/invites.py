"""Invites to a table over HTTP, under ``/api/invites``: a friend asked to one's room, the
invites a page is shown, and the answer, one tap: accepted (the room opened, a seat taken if one
is free) or dismissed.

Who may invite whom: only friends (players who follow each other: yamen/server/friends.py),
so that nobody can be sent invites by someone they did not choose; to a room the sender sits
in or hosts, and to a private room only its host (who holds its invite code anyway: accepting
gives it to the friend). What bounds a flood, counted in the database so that it holds across
every process of a cluster (invite_store.send): a sender has at most SENT_AT_ONCE invites
waiting and makes at most SENT_AN_HOUR an hour (429 ``invites_sent``); one friend is sent one
invite to one room at a time (409 ``invited``); a receiver has at most WAITING invites waiting,
from all their friends (409 ``invites_full``); each expires after INVITE_SECONDS.

How a page learns of its invites: a page at a table is told by its room's connection (an
``invites`` frame: yamen/server/invite_news.py) and asks then, and as each connection opens; a
page with no connection (the lobby, a player page, a replay) asks every POLL_SECONDS (the
answer's ``every``, so the server can slow its pages down). Such an ask also says the page is
open, and which room it shows (``here``), which is what friends are told of one
(yamen/server/presence.py, friend_store.presence); while a player is connected to a room, their
connection says where they are instead.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import Field, StrictStr

from yamen.server import friend_store, invite_store
from yamen.server import operations as ops
from yamen.server.handle import RoomHandle
from yamen.server.invite_store import Refusal
from yamen.server.lobby import Body, Me, http_error, operate, room_or_404, rooms_of

router = APIRouter(prefix="/api/invites", tags=["friends"])
POLL_SECONDS = 20  # how often a page with no room connection asks for its invites
RoomId = Annotated[str, Query(max_length=16, pattern=r"^[\w-]+$")]


class NewInvite(Body):
    to: Annotated[StrictStr, Field(max_length=48)]
    room: Annotated[StrictStr, Field(max_length=16)]


@router.get("")
async def my_invites(me: Me, request: Request, here: RoomId | None = None) -> dict[str, Any]:
    """The invites waiting for the caller, newest first, and how often to ask again
    (``every``, seconds) when not at a table. ``here``: the room the caller's page shows, which
    their friends are told (a private one only to those who may know of it)."""
    store = rooms_of(request).store
    await request.app.state.presence.asked(me.id, here)
    now = time.time()
    return {
        "invites": [
            {
                "id": i.id,
                "from": {"player": i.sender, "name": i.name},
                "room": i.room,
                "game": i.game,
                "expires_in": max(0, round(i.expires - now)),
            }
            for i in await invite_store.waiting(store, me.id)
        ],
        "every": POLL_SECONDS,
    }


@router.post("", status_code=201)
async def invite(body: NewInvite, me: Me, request: Request) -> dict[str, Any]:
    """Invite the friend ``to`` to ``room``, the caller's table. 403 ``not_friends`` unless
    they follow each other, 403 ``not_your_table`` unless the caller sits in the room or hosts
    it (a private room: hosts it), 409 ``closed``, 409 ``already_there`` (the friend sits in
    it), and the bounds above; nothing is stored then."""
    store = rooms_of(request).store
    if body.to == me.id or not await friend_store.friends(store, me.id, body.to):
        raise http_error(
            403, "not_friends", "you can invite only a friend: someone you follow who follows you"
        )
    room = await room_or_404(request, body.room, me)
    info = room.info()
    seated = {seat.get("player") for seat in info["seats"]}
    if me.id != room.host and (me.id not in seated or not room.public):
        raise http_error(
            403, "not_your_table", "invite to a table you sit at (a private one: yours)"
        )
    if info["status"] == "closed":
        raise http_error(409, "closed", "this room is closed")
    if body.to in seated:
        raise http_error(409, "already_there", "your friend sits at this table already")
    made = await invite_store.send(store, me.id, body.to, room.id)
    if isinstance(made, Refusal):
        raise refusal(made)
    return {"id": made, "expires_in": round(invite_store.INVITE_SECONDS)}


def refusal(made: Refusal) -> HTTPException:
    params = {"most": made.most}
    if made.code == "invited":
        return http_error(409, "invited", "your friend has your invite to this table already")
    if made.code == "invites_full":
        message = f"your friend has {made.most} invites waiting already: try again later"
        return http_error(409, "invites_full", message, params)
    refused = http_error(429, "invites_sent", f"at most {made.most} invites at a time", params)
    wait = max(1, round(made.retry_after))
    refused.headers = {"Retry-After": str(wait)}
    assert isinstance(refused.detail, dict)
    refused.detail["retry_after"] = wait
    return refused


@router.post("/{invite_id}/accept")
async def accept(invite_id: str, me: Me, request: Request) -> dict[str, Any]:
    """Accept an invite waiting for the caller: the room to open (``room``, and ``invite``, its
    code, for a private one) and the seat the caller now sits in (a free one taken, between
    games; null: none was free, they watch). 404 ``not_found`` for no invite of theirs, 409
    ``invite_expired`` once it expired or was answered."""
    store = rooms_of(request).store
    found, waiting = await invite_store.answer(store, invite_id[:24], me.id)
    if found is None:
        raise http_error(404, "not_found", "no such invite")
    if not waiting:
        raise http_error(409, "invite_expired", "this invite expired")
    access = await store.room_access(found.room_id)
    if access is None:
        raise http_error(409, "closed", "this room is closed")
    room = await room_or_404(request, found.room_id, me, access.invite)
    info = room.info()
    if info["status"] == "closed":
        raise http_error(409, "closed", "this room is closed")
    seat = await take_a_seat(room, me.id, me.name, access.invite, info)
    return {"room": room.id, "invite": None if room.public else access.invite, "seat": seat}


async def take_a_seat(
    room: RoomHandle, player: str, name: str, code: str, info: dict[str, Any]
) -> int | None:
    """The caller's seat in the room: theirs already, else the first free one they could take
    (seats change between games only); None when there is none."""
    seats = info["seats"]
    mine = next((i for i, s in enumerate(seats) if s.get("player") == player), None)
    if mine is not None or info["status"] == "playing":
        return mine
    for i, seat in enumerate(seats):
        if seat.get("player") is None and seat.get("bot") is None:
            try:
                await operate(room, ops.TakeSeat(player, name, i, code))
            except HTTPException as exc:
                if isinstance(exc.detail, dict) and exc.detail.get("code") == "taken":
                    continue  # someone sat there meanwhile: the next one
                return None
            return i
    return None


@router.delete("/{invite_id}", status_code=204)
async def dismiss(invite_id: str, me: Me, request: Request) -> Response:
    """The receiver dismisses an invite, or its sender takes it back: it is shown no more.
    404 ``not_found`` for an invite that is neither's, or no longer waiting."""
    store = rooms_of(request).store
    _, waiting = await invite_store.answer(store, invite_id[:24], me.id)
    if not waiting and not await invite_store.withdraw(store, invite_id[:24], me.id):
        raise http_error(404, "not_found", "no such invite")
    return Response(status_code=204)
