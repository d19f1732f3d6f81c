"""Player pages and leaderboards over HTTP (the figures: yamen/server/ratings.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from yamen.engine import game_names
from yamen.server.lobby import Anyone, http_error, rooms_of
from yamen.server.ratings import Cursor, leaderboard, player_page
from yamen.server.share import lobby_read
from yamen.wire import DELETED

router = APIRouter(prefix="/api")
MAX_ID = 48
LAST = 20  # last games a page


@router.get("/players/{player_id}")
async def player(
    player_id: str,
    request: Request,
    asker: Anyone,
    before: Annotated[str | None, Query(max_length=80)] = None,
) -> dict[str, Any]:
    """A player's figures per game (games played, places, mean points, win rate, rating) and
    their last games, LAST at a time, newest first: only those the caller may read (a public
    room's, or one they sat in). ``next`` is where the next page starts: pass it as
    ``before`` (null: no more). ``player_id`` may be a bot's label, ``bot:<kind>``. A deleted
    account's player: 404 ``player_deleted`` (elsewhere their games show them by the name
    ``""``, wire.DELETED)."""
    try:
        after = None if before is None else Cursor.parse(before)
    except ValueError as exc:
        raise http_error(422, "invalid", f"before: {exc}") from None
    page = None
    if len(player_id) <= MAX_ID:
        who = None if asker is None else asker.id
        async with lobby_read(request):
            page = await player_page(rooms_of(request).store, player_id, who, LAST, after)
    if page is None:
        raise http_error(404, "not_found", f"no player {player_id[:MAX_ID]!r}")
    if page["bot"] is None and page["name"] == DELETED:  # their games stay, under no name
        raise http_error(404, "player_deleted", "this player deleted their account")
    return page


@router.get("/leaderboard/{game}")
async def game_leaderboard(game: str, request: Request, limit: int = 100) -> list[dict[str, Any]]:
    """The game's rated players and bots, best first (by mu - 3 sigma)."""
    if game not in game_names():
        raise http_error(404, "unknown_game", f"unknown game {game[:40]!r}", {"game": game[:40]})
    async with lobby_read(request):
        return await leaderboard(rooms_of(request).store, game, max(1, min(limit, 500)))
