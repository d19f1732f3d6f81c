"""Finished games over HTTP: a game at a glance (its page), its record, its replay step by step
and its index. A game is published once it is over (its seed reveals every hand), to whoever
may read its room.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from yamen.engine import game_type
from yamen.records import Record
from yamen.server.game_store import StoredGame
from yamen.server.identity import Player, same_secret
from yamen.server.limits import refused
from yamen.server.lobby import Anyone, Invite, http_error, rooms_of
from yamen.server.outcomes import table
from yamen.server.replays import Replays
from yamen.server.share import Busy
from yamen.server.storage import Store

router = APIRouter(prefix="/api")
MAX_GAME_ID = 32  # public game ids are 12 characters; longer ones name no game


def replays_of(request: Request) -> Replays:
    return request.app.state.replays


async def may_read(
    store: Store, game: StoredGame, player: Player | None, invite: str | None
) -> bool:
    """A public room's games are anyone's; a private room's go to who sat in the game, the
    room's seated players and host, and holders of its invite code."""
    found = await store.room(game.room_id)
    if found is None:
        return False
    room, seats = found
    if room.public or (invite is not None and same_secret(invite, room.invite)):
        return True
    who = None if player is None else player.id
    sat = set(game.players or ()) | {seat.player_id for seat in seats} | {room.host}
    return who is not None and who in sat


async def readable_game(
    request: Request, game_id: str, player: Player | None, invite: str | None
) -> StoredGame:
    """A finished game the caller may read, without its actions. Anyone else is told there is
    no such game, whether it exists, is private or is still played: ids cannot be probed. A
    game is published only once it is over (its seed reveals every hand): 409 until then, to
    those who may read it."""
    store = rooms_of(request).store
    missing = http_error(404, "not_found", f"no game {game_id[:MAX_GAME_ID]!r}")
    stored = await store.game_header(game_id) if len(game_id) <= MAX_GAME_ID else None
    if stored is None or not await may_read(store, stored, player, invite):
        raise missing
    if stored.quarantined is not None:
        raise http_error(
            409, "quarantined", "this game's log could not be replayed: it is set aside"
        )
    if not stored.finished:
        raise http_error(409, "in_progress", "a game is published once it is over")
    return stored


async def finished_game(
    request: Request, game_id: str, player: Player | None, invite: str | None
) -> tuple[StoredGame, Record]:
    """A finished game the caller may read (:func:`readable_game`), and its record."""
    store = rooms_of(request).store
    stored = await readable_game(request, game_id, player, invite)

    async def load() -> Record:
        stored.record.actions = await store.game_actions(stored.id)
        return stored.record

    return stored, await replays_of(request).record(stored.id, load)


@router.get("/games/{game_id}")
async def game_page(
    game_id: str, request: Request, player: Anyone, invite: Invite = None
) -> dict[str, Any]:
    """A finished game at a glance, for its page: the game and its options (a data option,
    a room's own card list, only named in ``custom``), its number in the room's match, when it
    ended (``finished``), every seat (``seats``: who played it, its place, exact score, win,
    ``stand_in``, and its ``part`` in the game's words; yamen/server/outcomes.py), the
    caller's seat (``seat``, null if none) and whether the game has a post-game analysis."""
    stored = await readable_game(request, game_id, player, invite)
    store = rooms_of(request).store
    record, kind = stored.record, game_type(stored.record.game)
    found = await store.room(stored.room_id)
    bots = {} if found is None else {seat.seat: seat.bot for seat in found[1]}
    async with store.session() as s:
        seats = await table(
            s, record.game, stored.id, record.result or {}, stored.players or [], bots
        )
    data = {option.name for option in kind.declaration if option.kind == "data"}
    players = stored.players or []
    return {
        "game_id": stored.public_id,
        "game": record.game,
        "number": stored.number,
        "finished": stored.finished_at,
        "options": {k: v for k, v in record.options.items() if k not in data},
        "custom": sorted(k for k in data if record.options.get(k) is not None),
        "seats": seats,
        "seat": players.index(player.id) if player is not None and player.id in players else None,
        "analysis": kind.analyst is not None,
    }


@router.get("/games/{game_id}/record")
async def game_record(
    game_id: str, request: Request, player: Anyone, invite: Invite = None
) -> dict[str, Any]:
    """A finished game's record: the file ``yamen replay`` reads. ``game_id`` is the game's
    public id (room info's ``game_id``); a private room's games need a seat in it or its
    invite code."""
    _, record = await finished_game(request, game_id, player, invite)
    return record.to_json()


@router.get("/games/{game_id}/replay")
async def game_replay(
    game_id: str, request: Request, player: Anyone, step: int = 0, invite: Invite = None
) -> dict[str, Any]:
    """A finished game as it stood after ``step`` actions, every hand shown: each seat's view
    and the spectators' view, and the action that led there. Computed off the event loop and
    cached (yamen/server/replays.py); 429 with Retry-After while every replay worker is busy."""
    stored, record = await finished_game(request, game_id, player, invite)
    if not 0 <= step <= len(record.actions):
        high = len(record.actions)
        raise http_error(422, "no_step", f"step must be from 0 to {high}", {"high": high})
    try:
        return await replays_of(request).position(stored.id, record, step)
    except Busy as exc:
        raise refused(exc) from None


@router.get("/games/{game_id}/replay/index")
async def game_replay_index(
    game_id: str, request: Request, player: Anyone, invite: Invite = None
) -> dict[str, Any]:
    """A finished game's steps at a glance: each step's event kinds (``kinds[0]``: the deal's),
    so that a viewer finds where deals and tricks start without asking for every step; and
    ``seat``, the caller's seat in that game (null if none: a viewer's default perspective)."""
    stored, record = await finished_game(request, game_id, player, invite)
    try:
        kinds = await replays_of(request).index(stored.id, record)
    except Busy as exc:
        raise refused(exc) from None
    players = stored.players or []
    seat = players.index(player.id) if player is not None and player.id in players else None
    return {"game": record.game, "steps": len(record.actions), "kinds": kinds, "seat": seat}
