"""Player pages and leaderboards over HTTP (the figures: yamen/server/ratings.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from yamen.engine import game_names
from yamen.server.lobby import Anyone, http_error, rooms_of
from yamen.server.ratings import Cursor, games_page, leaderboard, player_page
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
    after = cursor(before)
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


@router.get("/players/{player_id}/games")
async def player_games(
    player_id: str,
    request: Request,
    asker: Anyone,
    before: Annotated[str | None, Query(max_length=80)] = None,
) -> dict[str, Any]:
    """A page of the player's last games alone, as their page gives them (``games``, newest
    first, LAST at a time, and ``next``): the caller's own ("my games": every game they
    were rated in), or the games of another that the caller may read. Nobody by that id
    has no games (an empty page); a deleted account's player is refused as their page is
    (404 ``player_deleted``)."""
    after = cursor(before)
    if len(player_id) > MAX_ID:
        return {"games": [], "next": None}
    store = rooms_of(request).store
    if (await store.players([player_id])).get(player_id) == DELETED:
        raise http_error(404, "player_deleted", "this player deleted their account")
    who = None if asker is None else asker.id
    async with lobby_read(request):
        return await games_page(store, player_id, who, LAST, after)


def cursor(before: str | None) -> Cursor | None:
    """Where a page of games starts (422 ``invalid`` for anything but a page's ``next``)."""
    try:
        return None if before is None else Cursor.parse(before)
    except ValueError as exc:
        raise http_error(422, "invalid", f"before: {exc}") from None


@router.get("/leaderboard/{game}")
async def game_leaderboard(game: str, request: Request, limit: int = 100) -> list[dict[str, Any]]:
    """The game's rated players and bots, best first (by mu - 3 sigma)."""
    if game not in game_names():
        raise http_error(404, "unknown_game", f"unknown game {game[:40]!r}", {"game": game[:40]})
    async with lobby_read(request):
        return await leaderboard(rooms_of(request).store, game, max(1, min(limit, 500)))
