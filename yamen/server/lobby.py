"""The lobby over HTTP: guests, games, rooms and seats. FastAPI publishes its OpenAPI schema
at ``/openapi.json`` (and a browsable one at ``/docs``).

A seat action needs ``Authorization: Bearer <token>``; refusals are JSON ``{"detail": {"code",
"message"}}`` with a fitting status, and change nothing.
"""

from __future__ import annotations

import functools
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from yamen.bots import bot_names
from yamen.engine import game_names, game_type, get_game
from yamen.errors import OptionsError
from yamen.options import NO_LEGACY
from yamen.server import operations as ops
from yamen.server import protocol
from yamen.server.account_store import account
from yamen.server.errors import options_refused
from yamen.server.handle import RoomHandle
from yamen.server.identity import Player, new_guest, player_of
from yamen.server.limits import (
    Limited,
    bot_tables_refusal,
    joins_with_invite,
    limiter_of,
    per_address,
    room_quota,
)
from yamen.server.limits import refused as over_limit
from yamen.server.registry import Rooms, no_room
from yamen.server.rooms import RoomError
from yamen.server.share import lobby_read

router = APIRouter(prefix="/api")
ABANDONED_AFTER = 600.0  # seconds: a public room nobody sits in is left out of the list after


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NewGuest(Body):
    name: Annotated[StrictStr, Field(min_length=1, max_length=80)]


class Guest(BaseModel):
    player: str
    name: str
    token: str


class NewRoom(Body):
    game: StrictStr
    options: dict[str, Any] = Field(default_factory=dict)
    public: StrictBool = True
    settings: dict[str, Any] = Field(default_factory=dict)
    seat: int | None = None  # take this seat at once


class Join(Body):
    invite: Annotated[StrictStr, Field(max_length=64)] | None = None


class AutoChoice(Body):
    on: StrictBool


class BotChoice(Body):
    bot: Annotated[StrictStr, Field(max_length=40)]


class BotFill(Body):
    bot: Annotated[StrictStr, Field(max_length=40)] | None = None  # None: the room's stand-in


class RoomSetup(Body):
    """What the host may change until the first game starts; each part is optional."""

    options: dict[str, Any] | None = None  # replace the game's options (unnamed: defaults)
    settings: dict[str, Any] | None = None  # laid over the room's settings
    public: StrictBool | None = None


def rooms_of(request: Request) -> Rooms:
    return request.app.state.rooms


def http_error(
    status: int, code: str, message: str, params: dict[str, Any] | None = None
) -> HTTPException:
    """A refusal: ``params`` (only where the message has variable parts) let a client word it
    in its own language from the code."""
    detail: dict[str, Any] = {"code": code, "message": message}
    if params:
        detail["params"] = params
    return HTTPException(status, detail)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if there is one."""
    scheme, _, token = (authorization or "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def current_player(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> Player:
    token = bearer(authorization)
    if token is None:
        raise http_error(401, "no_token", "send Authorization: Bearer <token> (POST /api/guests)")
    player = await player_of(rooms_of(request).store, token)
    if player is None:
        raise http_error(401, "bad_token", "this token belongs to no player")
    return player


async def maybe_player(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> Player | None:
    """The caller when a valid token comes with the request; anyone else is just watching."""
    return await player_of(rooms_of(request).store, bearer(authorization))


Me = Annotated[Player, Depends(current_player)]
Anyone = Annotated[Player | None, Depends(maybe_player)]
Invite = Annotated[str | None, Query(max_length=64)]


async def room_or_404(
    request: Request, room_id: str, player: Player | None, invite: str | None = None
) -> RoomHandle:
    """The room, for a caller who may watch it; anyone else (an outsider of a private room)
    gets the 404 of a missing room, and the room is not loaded for them (Rooms.watch)."""
    try:
        room = await rooms_of(request).watch(room_id, None if player is None else player.id, invite)
    except RoomError as exc:
        raise http_error(exc.status, exc.code, str(exc), exc.params) from None
    if not room.may_watch(None if player is None else player.id, invite):
        raise missing_room(room_id)  # (it changed since it was stored: as missing all the same)
    return room


def missing_room(room_id: str) -> HTTPException:
    refusal = no_room(room_id)
    return http_error(refusal.status, refusal.code, str(refusal), refusal.params)


async def operate(room: RoomHandle, op: ops.Operation) -> None:
    """Do the operation on the room, wherever it runs; its refusal as the HTTP error."""
    try:
        await room.run(op)
    except RoomError as exc:
        raise http_error(exc.status, exc.code, str(exc), exc.params) from None


@router.post("/guests", status_code=201, dependencies=[Depends(per_address("guests"))])
async def create_guest(body: NewGuest, request: Request) -> Guest:
    """A new guest identity. Keep the token: it is shown only now."""
    try:
        player, token = await new_guest(rooms_of(request).store, body.name)
    except ValueError as exc:
        raise http_error(422, "bad_name", str(exc)) from None
    return Guest(player=player.id, name=player.name, token=token)


@router.get("/me")
async def me(player: Me, request: Request) -> dict[str, str | None]:
    """Who the token is: ``account`` is the name they sign in with, None for a guest."""
    found = await account(rooms_of(request).store, player.id)
    return {
        "player": player.id,
        "name": player.name,
        "account": None if found is None else found.name,
    }


@router.get("/games")
async def list_games() -> list[dict[str, Any]]:
    """Every game: its type (title, seats, the options declared, for a lobby's form), its
    default options, its bots, whether it has a post-game analysis, which of a player
    page's figures mean something in it (``figures``: "places", "points"), and what runs it
    here (``engine``: "python", or what a compiled core adds where one was built)."""
    return [
        {
            "game": name,
            **game_type(name).type_json(),
            "options": get_game(name).options,
            "bots": bot_names(name),
            "analysis": game_type(name).analyst is not None,
            "figures": list(game_type(name).figures),
            "engine": game_type(name).engine(),
        }
        for name in game_names()
    ]


@router.get("/protocol")
async def protocol_schema() -> dict[str, Any]:
    """The WebSocket protocol's JSON Schemas (docs/protocol.md explains them)."""
    return protocol.schemas()


@router.post("/rooms", status_code=201, dependencies=[Depends(room_quota(current_player))])
async def create_room(body: NewRoom, player: Me, request: Request) -> dict[str, Any]:
    """A new room hosted by the caller. The answer holds the invite code (for private rooms)."""
    if body.game not in game_names():
        message = f"unknown game {body.game!r}; known: {game_names()}"
        raise http_error(422, "unknown_game", message, {"game": body.game})
    try:
        game = get_game(body.game, body.options)  # the one reading of the options
        seats = game.num_seats
        if body.seat is not None and not 0 <= body.seat < seats:
            # checked before the room exists: a refused request creates nothing
            message = f"there is no seat {body.seat}: seats are 0 to {seats - 1}"
            raise http_error(422, "no_seat", message, {"seat": body.seat, "high": seats - 1})
        room = await rooms_of(request).create(player.id, game, body.public, body.settings)
    except Limited as exc:  # the open_rooms cap, counted as the room is stored
        raise over_limit(exc) from None
    except OptionsError as exc:
        refused = options_refused(exc)
        raise http_error(422, refused.code, str(exc), refused.params) from None
    except TypeError as exc:
        raise http_error(422, "bad_options", str(exc)) from None
    if body.seat is not None:
        await operate(room, ops.TakeSeat(player.id, player.name, body.seat))
    return {**room.info(), "invite": room.invite}


@router.get("/rooms")
async def public_rooms(request: Request, limit: int = 50) -> list[dict[str, Any]]:
    """Public rooms one may join or watch, newest first: not a finished match (``over``) or a
    closed room, nor an abandoned one (nobody seated, made over ABANDONED_AFTER seconds ago).
    Each as a summary (:func:`summary`): the room's own page has the rest."""
    rooms = rooms_of(request)
    since = time.time() - ABANDONED_AFTER
    async with lobby_read(request, "rooms"):
        ids = await rooms.store.public_rooms(max(1, min(limit, 200)), since)
        return [summary((await rooms.get(room_id)).info()) for room_id in ids]


# what a summary takes from the room's info as it is (protocol.RoomSummary)
LISTED = [key for key in protocol.RoomSummary.model_fields if key in protocol.RoomInfo.model_fields]


def summary(info: dict[str, Any]) -> dict[str, Any]:
    """A room as the public list shows it (protocol.RoomSummary), of a size that does not grow
    with its options: a data option (a room's own card list, up to 62 KB) is named in
    ``custom``, not sent; settings and scores are left out. ``GET /api/rooms/{id}`` has all."""
    declared = game_type(info["game"]).declaration
    data = {option.name for option in declared if option.kind == "data"}
    options = info["options"]
    made = {key: info[key] for key in LISTED}
    made["preset"] = preset_of(info["game"], options)
    made["options"] = {k: v for k, v in options.items() if k not in data}
    made["custom"] = sorted(k for k in data if options.get(k) is not None)
    return {key: made[key] for key in protocol.RoomSummary.model_fields}


def preset_of(game: str, options: dict[str, Any]) -> str | None:
    """The name of the game's first preset whose options (over the defaults) these are: every
    option has the preset's value, but an edition of the rules (a hidden option with a legacy
    value: a room made before it keeps its first one) is not a preset's."""
    for name, filled in presets_filled(game):
        if all(options.get(key) == value for key, value in filled.items()):
            return name
    return None


@functools.cache
def presets_filled(game: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    """Each preset of ``game`` and the options it sets, editions aside (read once)."""
    hidden = {
        option.name
        for option in game_type(game).declaration
        if not option.shown and option.legacy is not NO_LEGACY
    }
    return tuple(
        (
            preset.name,
            {
                k: v
                for k, v in get_game(game, dict(preset.options)).options.items()
                if k not in hidden
            },
        )
        for preset in game_type(game).presets
    )


@router.patch("/rooms/{room_id}")
async def set_up(room_id: str, body: RoomSetup, player: Me, request: Request) -> dict[str, Any]:
    """The host changes the room's game options, settings or publicity until its first game
    starts (409 ``started`` after); checked as at creation (422 ``bad_options``, nothing
    changed). Everyone in the room gets a ``room`` frame."""
    room = await room_or_404(request, room_id, player)
    await operate(room, ops.Configure(player.id, body.options, body.settings, body.public))
    return room.info()


@router.get("/rooms/{room_id}", dependencies=[Depends(joins_with_invite)])
async def room_info(
    room_id: str, request: Request, player: Anyone, invite: str | None = None
) -> dict[str, Any]:
    room = await room_or_404(request, room_id, player, invite)  # a private room stays unlisted
    info = room.info()
    if player is not None and player.id == room.host:
        info["invite"] = room.invite
    return info


@router.post("/rooms/{room_id}/seats/{seat}", dependencies=[Depends(per_address("joins"))])
async def take_seat(
    room_id: str, seat: int, player: Me, request: Request, body: Join | None = None
) -> dict[str, Any]:
    invite = None if body is None else body.invite
    room = await room_or_404(request, room_id, player, invite)
    await operate(room, ops.TakeSeat(player.id, player.name, seat, invite))
    return room.info()


@router.post("/rooms/{room_id}/leave")
async def leave(room_id: str, player: Me, request: Request) -> dict[str, Any]:
    room = await room_or_404(request, room_id, player)
    await operate(room, ops.Leave(player.id))
    return room.info()


@router.post("/rooms/{room_id}/back")
async def take_back(room_id: str, player: Me, request: Request) -> dict[str, Any]:
    """The caller, who left a seat during the game in progress, sits in it again and plays on
    (403 ``not_left`` for anyone else)."""
    room = await room_or_404(request, room_id, player)
    await operate(room, ops.TakeBack(player.id, player.name))
    return room.info()


@router.post("/rooms/{room_id}/auto")
async def auto_play(room_id: str, body: AutoChoice, player: Me, request: Request) -> dict[str, Any]:
    """Auto-play of the caller's own seat on or off, during a game: while on, the room's
    stand-in plays it (its moves marked ``auto``)."""
    room = await room_or_404(request, room_id, player)
    await operate(room, ops.AutoPlay(player.id, body.on))
    return room.info()


@router.put("/rooms/{room_id}/seats/{seat}/bot")
async def add_bot(
    room_id: str, seat: int, body: BotChoice, player: Me, request: Request
) -> dict[str, Any]:
    room = await room_or_404(request, room_id, player)
    await operate(room, ops.SetBot(player.id, seat, body.bot))
    return room.info()


@router.post("/rooms/{room_id}/bots")
async def fill_bots(
    room_id: str, player: Me, request: Request, body: BotFill | None = None
) -> dict[str, Any]:
    """The host puts a bot (``bot``, else the room's stand-in) in every empty seat at once:
    one ``room`` frame. No empty seat: nothing changes."""
    room = await room_or_404(request, room_id, player)
    await operate(room, ops.FillBots(player.id, None if body is None else body.bot))
    return room.info()


@router.delete("/rooms/{room_id}/seats/{seat}")
async def remove_person(room_id: str, seat: int, player: Me, request: Request) -> dict[str, Any]:
    """The host takes the person in ``seat`` out of it between games; they keep watching and
    are told (an ``error`` frame ``removed``)."""
    room = await room_or_404(request, room_id, player)
    await operate(room, ops.Remove(player.id, seat))
    return room.info()


@router.delete("/rooms/{room_id}/seats/{seat}/bot")
async def remove_bot(room_id: str, seat: int, player: Me, request: Request) -> dict[str, Any]:
    room = await room_or_404(request, room_id, player)
    await operate(room, ops.SetBot(player.id, seat, None))
    return room.info()


@router.post("/rooms/{room_id}/start")
async def start(room_id: str, player: Me, request: Request) -> dict[str, Any]:
    """Start the first game, or the match's next one once a game is over (a rematch). A game
    of bots alone is refused (429 ``bot_tables``) while its host has ``bot_tables`` of them in
    progress (started in the last day)."""
    room = await room_or_404(request, room_id, player)
    limiter = limiter_of(request)
    cap = limiter.limits.bot_tables
    if cap is None or player.id != room.host or not bots_alone(room.info()):
        await operate(room, ops.Start(player.id))
        return room.info()
    async with limiter.turns(player.id):  # one start of the host's at a time: counted, started
        since = time.time() - BOT_TABLES_WINDOW
        if await rooms_of(request).store.bot_tables(player.id, since) >= cap:
            raise over_limit(bot_tables_refusal(cap))
        await operate(room, ops.Start(player.id))
    return room.info()


BOT_TABLES_WINDOW = 86400.0  # seconds: a host's games of bots alone started in this time count


def bots_alone(info: dict[str, Any]) -> bool:
    """Every seat of the room is a bot's: no person would be seated in its game."""
    return all(seat["player"] is None and seat["bot"] is not None for seat in info["seats"])
