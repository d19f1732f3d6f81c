"""Post-game analysis over HTTP: ask for a finished game's analysis for a seat, and read how
it goes and what it found (the jobs: yamen/server/analysis.py).

Who may ask: a player who sat in the game, or its room's host (the work is theirs to spend);
who may read: whoever may read the game's replay (a finished game hides nothing any more).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict

from yamen.server.analysis import Jobs, Refused, analyst_of
from yamen.server.game_api import finished_game
from yamen.server.lobby import Anyone, Invite, Me, http_error, rooms_of
from yamen.server.share import RETRY_SECONDS

router = APIRouter(prefix="/api")


class Ask(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int | None = None  # None: the asker's own seat


def analyses_of(request: Request) -> Jobs:
    return request.app.state.analyses


def seat_in(seat: int | None, players: list[str | None], who: str) -> int:
    """The seat asked for (the asker's own when none is named), checked."""
    high = len(players) - 1
    if seat is None:
        seat = next((i for i, p in enumerate(players) if p == who), None)
        if seat is None:  # a host who did not play: name the seat
            raise http_error(
                422, "no_seat", "name the seat to analyse", {"seat": "?", "high": high}
            )
    if not 0 <= seat <= high:
        raise http_error(
            422, "no_seat", f"no seat {seat} in this game", {"seat": seat, "high": high}
        )
    return seat


@router.post("/games/{game_id}/analysis")
async def ask_analysis(
    game_id: str, request: Request, player: Me, body: Ask | None = None, invite: Invite = None
) -> dict[str, Any]:
    """Start the analysis of a seat's decisions in a finished game (the asker's own seat unless
    ``seat`` is given): a background job, answered with its status (GET to follow it). Only a
    player who sat in the game or the room's host may ask; 422 ``no_analysis`` for a game
    without an analyst, ``analysis_too_long`` for a seat of more decisions than a job may
    have; 409 ``analysis_running`` while the asker has another running; 429 ``busy`` while
    the server holds as many as it may, ``analysis_quota`` over the asker's decisions of the
    day."""
    stored, record = await finished_game(request, game_id, player, invite)
    players = list(stored.players or [None] * record.start().num_seats)
    found = await rooms_of(request).store.room(stored.room_id)
    host = found is not None and found[0].host == player.id
    if player.id not in players and not host:
        raise http_error(403, "not_participant", "only a player of this game may ask for this")
    analyst = analyst_of(record.game)
    if analyst is None:
        raise http_error(422, "no_analysis", "this game has no analysis", {"game": record.game})
    seat = seat_in(None if body is None else body.seat, players, player.id)
    try:
        return await analyses_of(request).start(stored.id, seat, record, player.id, analyst)
    except Refused as exc:
        raise refusal(exc) from None


def refusal(exc: Refused) -> HTTPException:
    """A job refused: 429 with Retry-After while the workers hold all they may (``busy``) or
    over the player's decisions of the day (``analysis_quota``), 422 for a job over the size
    of one (``analysis_too_long``), 409 while the asker's other job runs."""
    if exc.code in ("busy", "analysis_quota"):
        retry = RETRY_SECONDS if exc.retry_after is None else exc.retry_after
        detail = {"code": exc.code, "message": str(exc), "retry_after": retry}
        if exc.params:
            detail["params"] = exc.params
        return HTTPException(429, detail, {"Retry-After": str(retry)})
    status = 422 if exc.code == "analysis_too_long" else 409
    return http_error(status, exc.code, str(exc), exc.params)


@router.get("/games/{game_id}/analysis")
async def read_analysis(
    game_id: str, request: Request, player: Anyone, seat: int, invite: Invite = None
) -> dict[str, Any]:
    """The analysis of ``seat``: ``{state: none|queued|running|done|failed, progress: {done,
    total}}``, with ``eta_seconds`` while queued or running (an estimate; null until the
    server has timed a decision) and ``result`` once done (stored: read again, never
    recomputed)."""
    stored, record = await finished_game(request, game_id, player, invite)
    if analyst_of(record.game) is None:
        raise http_error(422, "no_analysis", "this game has no analysis", {"game": record.game})
    seat_in(seat, list(stored.players or [None] * record.start().num_seats), "")
    return await analyses_of(request).status(stored.id, seat)
