"""Coming to a table (issue 26): the seat an invite link gives, and the way back to a game of
one's own in progress.

- ``POST /api/rooms/{id}/sit {invite}``: the caller sits in the first empty seat, between
  games (``SitDown``): the invite link's friend is seated by the name step itself, with no
  seat to pick. Seated already: nothing changes. No empty seat, or a game in progress: 409
  ``full`` or ``playing``, and the friend watches.
- ``GET /api/me/tables``: the rooms where the caller sits in a game in progress (the latest
  first, at most ``MY_TABLES``), for the lobby's "back to your table".
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request

from yamen.server.limits import per_address
from yamen.server.lobby import Join, Me, operate, preset_of, room_or_404, rooms_of
from yamen.server.operations import SitDown

router = APIRouter(prefix="/api")
MY_TABLES = 10  # games in progress listed at most


@router.post("/rooms/{room_id}/sit", dependencies=[Depends(per_address("joins"))])
async def sit_down(
    room_id: str, player: Me, request: Request, body: Join | None = None
) -> dict[str, Any]:
    """The caller sits in the room's first empty seat (a private room needs its invite)."""
    invite = None if body is None else body.invite
    room = await room_or_404(request, room_id, player, invite)
    await operate(room, SitDown(player.id, player.name, invite))
    return room.info()


@router.get("/me/tables")
async def my_tables(player: Me, request: Request) -> list[dict[str, Any]]:
    """Where the caller sits in a game in progress: ``room``, ``game``, ``preset`` (the
    game's preset its options are, or null), ``seat`` and ``number`` (the game's in the
    room's match)."""
    found = await rooms_of(request).store.tables_in_play(player.id, MY_TABLES)
    return [
        {
            "room": row.id,
            "game": row.game,
            "preset": preset_of(row.game, row.options),
            "seat": seat,
            "number": number,
        }
        for row, seat, number in found
    ]
