"""Play now (issue 26): one press seats a player at a public table waiting for people, or
opens one.

``POST /api/play {game, preset}`` answers the room (``RoomInfo``) where the caller now sits.
A table is a public room with the setting ``play_now`` whose first game has not begun, of the
same game with the same options (the preset's over the defaults, or the defaults): the oldest
such table with an empty seat and a person waiting is taken, else a new one is opened, hosted
by the caller. It fills itself with bots ``fill_seconds`` after its opening
(yamen/server/filling.py).

Two presses at once, on one process or on several, never open two tables where one would do:
the look and the opening are one turn per kind of table (``Rooms.exclusive``: a lock in this
process, or in Redis for a cluster), and what the look found is stored before the turn ends.
The seat itself is taken by the room's owner under the room's lock (``JoinWaiting``), which
checks again that the table is public and waits, so no seat gets two people and a table that
began, went private or filled meanwhile seats nobody (the look goes on to the next).

Bounded: each press counts against the ``play_now`` rate (per player and address), opening a
table against ``rooms`` and the host's ``open_rooms`` cap, as any new room does; and a player
waits at one table at a time (a press for another kind of table leaves the one they waited
at), so one guest cannot hold seats at many tables at once.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field, StrictStr

from yamen.engine import Game, game_names, game_type, get_game
from yamen.server.errors import RoomError
from yamen.server.handle import RoomHandle
from yamen.server.identity import Player
from yamen.server.limits import Limited, address, limiter_of, per_player
from yamen.server.limits import refused as over_limit
from yamen.server.lobby import Body, Me, current_player, http_error, operate, rooms_of
from yamen.server.operations import JoinWaiting, LeaveWaiting
from yamen.server.registry import Rooms
from yamen.server.settings import FILL_MOST

router = APIRouter(prefix="/api")
LOOKED_AT = 50  # fresh tables of a kind looked at, oldest first
FRESH = FILL_MOST + 60.0  # seconds: an older table has filled, or nobody waits


class PlayNow(Body):
    game: StrictStr
    preset: Annotated[StrictStr, Field(max_length=64)] | None = None  # None: the defaults


@router.post("/play", dependencies=[Depends(per_player("play_now", current_player))])
async def play_now(body: PlayNow, player: Me, request: Request) -> dict[str, Any]:
    """Seat the caller at a public table of ``game`` (its ``preset``) waiting for people, or
    open one: the room, where the caller sits."""
    game = table_game(body.game, body.preset)
    rooms = rooms_of(request)
    async with rooms.exclusive(f"play_now:{player.id}"):  # one table at a time a player
        async with rooms.exclusive(f"play_now:{game.name}:{kind_of(game)}"):
            room = await find_table(rooms, player, game)
            if room is None:
                room = await open_table(rooms, player, game, request)
        await leave_others(rooms, player, room.id)
    return room.info()


def table_game(name: str, preset: str | None) -> Game:
    """The game a table plays: the preset's options over the defaults (422 for an unknown
    game or preset)."""
    if name not in game_names():
        raise http_error(422, "unknown_game", f"unknown game {name!r}", {"game": name})
    if preset is None:
        return get_game(name)
    found = next((p for p in game_type(name).presets if p.name == preset), None)
    if found is None:
        message = f"{name} has no preset {preset!r}"
        raise http_error(422, "unknown_preset", message, {"preset": preset})
    return get_game(name, dict(found.options))


def kind_of(game: Game) -> str:
    """A short name for a game's options: tables of one kind take turns."""
    return hashlib.sha256(json.dumps(game.options, sort_keys=True).encode()).hexdigest()[:16]


async def find_table(rooms: Rooms, player: Player, game: Game) -> RoomHandle | None:
    """The oldest waiting table of the game's kind where the player sits already, or with an
    empty seat and a person waiting, now with the player seated; None if there is none."""
    options = json.loads(json.dumps(game.options))  # as stored
    now = time.time()
    for row, seats in await rooms.store.fresh_rooms(game.name, now - FRESH, LOOKED_AT):
        settings = row.settings or {}
        if settings.get("play_now") is not True or row.options != options:
            continue
        mine = any(seat.player_id == player.id for seat in seats)
        empty = any(seat.player_id is None and seat.bot is None for seat in seats)
        waited = any(seat.player_id is not None for seat in seats)  # (everyone left: not)
        if not mine and not (empty and waited):
            continue
        room = await rooms.get(row.id)
        try:
            await room.run(JoinWaiting(player.id, player.name))
        except RoomError as exc:
            if exc.code in ("full", "not_waiting"):  # filled or began meanwhile: the next
                continue
            raise http_error(exc.status, exc.code, str(exc), exc.params) from None
        return room
    return None


async def open_table(rooms: Rooms, player: Player, game: Game, request: Request) -> RoomHandle:
    """A new public play-now table hosted by the player, who sits at it."""
    try:
        limiter_of(request).take("rooms", player.id, address(request.client))
        room = await rooms.create(player.id, game, True, {"play_now": True})
    except Limited as exc:  # the rooms rate, or the open_rooms cap counted as it is stored
        raise over_limit(exc) from None
    await operate(room, JoinWaiting(player.id, player.name))
    return room


async def leave_others(rooms: Rooms, player: Player, keep: str) -> None:
    """The player leaves every other play-now table where they wait (one that began keeps
    them: LeaveWaiting changes nothing there)."""
    since = time.time() - FRESH
    for row, _ in await rooms.store.fresh_rooms("", since, LOOKED_AT, player=player.id):
        if row.id != keep and (row.settings or {}).get("play_now") is True:
            await (await rooms.get(row.id)).run(LeaveWaiting(player.id))
