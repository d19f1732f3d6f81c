"""Friends over HTTP, under ``/api/friends``: following a player, the players one follows with
what one may know of where they are, one's followers, and how one stands with a few players.

Following is one way and asks nobody, as on Lichess or Board Game Arena; what it gives depends
on whether it is returned. Two players who follow each other are friends: each sees whether
the other is online and at which table (a private table's id only when one may know of it:
friend_store.presence), and each may invite the other to their table (yamen/server/invites.py).
Following someone who does not follow back only lists them: they are not tracked, and cannot
be sent invites. So a stranger learns nothing and sends nothing by following.

Following needs an account (a guest's identity lives in one browser and is made in a click,
so it would spread follows nobody keeps); anyone with a page, guest or account, may be
followed, and a guest who claims an account keeps who follows them. Each player follows at most
MOST_FOLLOWS players; lists come a PAGE at a time. A deleted account's follows, both ways, go
with it (friend_store.forget).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from yamen.server import friend_store, invite_store
from yamen.server.account_store import account
from yamen.server.friend_store import Cursor, Follow
from yamen.server.identity import Player
from yamen.server.lobby import Me, http_error, rooms_of
from yamen.server.storage import Store

router = APIRouter(prefix="/api/friends", tags=["friends"])
MAX_ID = 48  # a player's id in a path (as the player page reads it)
MOST_ASKED = 60  # players one asks about at once: every seat of the largest table
Before = Annotated[str | None, Query(max_length=120)]


def db(request: Request) -> Store:
    return rooms_of(request).store


def cursor(before: str | None) -> Cursor | None:
    try:
        return None if before is None else Cursor.parse(before)
    except ValueError as exc:
        raise http_error(422, "invalid", f"before: {exc}") from None


async def followable(request: Request, me: Player, player: str) -> str:
    """The name of ``player``, whom ``me`` may follow; refusals otherwise."""
    if await account(db(request), me.id) is None:
        raise http_error(403, "account_needed", "following needs an account: claim one first")
    if player == me.id:
        raise http_error(422, "self_follow", "one cannot follow oneself")
    name = await friend_store.person(db(request), player) if len(player) <= MAX_ID else None
    if name is None:
        raise http_error(404, "not_found", f"no player {player[:MAX_ID]!r}")
    return name


@router.get("")
async def following(me: Me, request: Request, before: Before = None) -> dict[str, Any]:
    """The players the caller follows, newest follow first, a PAGE at a time (``next``: pass it
    as ``before``; null: no more). ``mutual``: they follow back, and then ``presence`` says
    where they are and ``invited`` the room of the caller's invite waiting for them (null:
    none); else both are null (nothing is told of someone who did not choose to be a
    friend)."""
    shown, more = await friend_store.page(db(request), me.id, cursor(before))
    friends = [f.player for f in shown if f.mutual]
    where = await friend_store.presence(db(request), me.id, friends)
    invited = await invite_store.sent_waiting(db(request), me.id) if friends else {}

    def about(f: Follow) -> dict[str, Any] | None:
        if not f.mutual:
            return None
        return {"online": True, **where[f.player]} if f.player in where else {"online": False}

    return {
        "friends": [
            {
                "player": f.player,
                "name": f.name,
                "mutual": f.mutual,
                "presence": about(f),
                "invited": invited.get(f.player) if f.mutual else None,
            }
            for f in shown
        ],
        "next": None if more is None else str(more),
    }


@router.get("/followers")
async def followers(me: Me, request: Request, before: Before = None) -> dict[str, Any]:
    """Who follows the caller, newest first, a PAGE at a time; ``mutual``: the caller follows
    them back (they are friends)."""
    shown, more = await friend_store.page(db(request), me.id, cursor(before), followers=True)
    return {
        "followers": [{"player": f.player, "name": f.name, "mutual": f.mutual} for f in shown],
        "next": None if more is None else str(more),
    }


@router.get("/relations")
async def relations(
    me: Me, request: Request, players: Annotated[str, Query(max_length=MOST_ASKED * 49)]
) -> dict[str, dict[str, bool]]:
    """How the caller stands with each of ``players`` (ids, comma-separated, at most
    MOST_ASKED: a table's seats): ``following`` (the caller follows them) and ``follows_me``."""
    asked = list(dict.fromkeys(p for p in players.split(",") if p))
    if len(asked) > MOST_ASKED or any(len(p) > MAX_ID for p in asked):
        message = f"at most {MOST_ASKED} players, ids of at most {MAX_ID} characters"
        raise http_error(422, "invalid", f"players: {message}")
    return await friend_store.relations(db(request), me.id, asked)


@router.put("/{player}")
async def follow(player: str, me: Me, request: Request) -> dict[str, Any]:
    """The caller follows ``player`` (again: nothing changes). 403 ``account_needed`` for a
    guest, 422 ``self_follow``, 404 ``not_found`` (no such person, or a deleted account's),
    409 ``follows_full`` past MOST_FOLLOWS (``params.most``)."""
    name = await followable(request, me, player)
    if not await friend_store.follow(db(request), me.id, player):
        most = friend_store.MOST_FOLLOWS
        message = f"you follow {most} players already: unfollow one first"
        raise http_error(409, "follows_full", message, {"most": most})
    stand = await friend_store.relations(db(request), me.id, [player])
    return {"player": player, "name": name, "mutual": stand[player]["follows_me"]}


@router.delete("/{player}", status_code=204)
async def unfollow(player: str, me: Me, request: Request) -> Response:
    """The caller no longer follows ``player`` (not following them already: nothing changes)."""
    await friend_store.unfollow(db(request), me.id, player[:MAX_ID])
    return Response(status_code=204)
