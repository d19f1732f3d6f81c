"""What became of the seats of finished games, for the pages that show games (a player's last
games, a game's own page): who sat there (a person by name, a bot by its kind), and each seat's
part in the game's own words (``Game.part``: its role, what became of it), which the game
reads from the stored result and the browser words from the game's catalog.

A page of last games names at most ``OPPONENTS`` other seats of each game (read through the
outcomes' primary key, game and seat), and says how many seats the game had: a page of 20
games reads at most 20 x (``OPPONENTS`` + 1) seats, however large the tables (Bao Qing-tian
seats 50).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from yamen.engine import Word, game_type
from yamen.errors import OptionsError
from yamen.server.tables import OutcomeRow, PlayerRow

log = logging.getLogger(__name__)
OPPONENTS = 5  # the other seats a game in a list of games names


def part(game: str, result: Mapping[str, Any] | None, seat: int) -> list[Word]:
    """The seat's part in the game, in the game's words; none where the result cannot say
    (a game no longer served, a result stored before its game declared the facts it reads):
    a page never fails for want of words."""
    if result is None:
        return []
    try:
        return game_type(game).part(result, seat)
    except (OptionsError, KeyError, IndexError, TypeError, ValueError, AttributeError):
        log.debug("no part for seat %s of a %s game", seat, game, exc_info=True)
        return []


def bot_label(kind: str | None) -> str:
    """The rated name of a bot's seat: ``bot:<kind>``."""
    return f"bot:{kind or 'unknown'}"


def bot_kind(who: str) -> str | None:
    """A rated name's bot kind (``bot:rules`` -> ``rules``), None for a person."""
    return who[4:] if who.startswith("bot:") else None


async def names(s: AsyncSession, ids: Iterable[str]) -> dict[str, str]:
    """People's names by player id (a bot's label names no row: it is left out)."""
    people = sorted({i for i in ids if not i.startswith("bot:")})
    if not people:
        return {}
    rows = await s.execute(select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(people)))
    return {row[0]: row[1] for row in rows}


def seated(who: str, known: Mapping[str, str]) -> dict[str, Any]:
    """A seat's occupant as pages show it: ``player`` (id or ``bot:<kind>``), ``name``,
    ``bot`` (the kind, None for a person)."""
    return {"player": who, "name": known.get(who, who), "bot": bot_kind(who)}


async def others(s: AsyncSession, mine: Iterable[tuple[int, int]]) -> dict[int, list[dict]]:
    """For each (game's internal id, own seat): up to ``OPPONENTS`` of the game's other
    seats, in seat order, as :func:`seated` shows them. Rated games only (those have
    outcomes, as every game on a player's page does)."""
    own = dict(mine)
    if not own:
        return {}
    rows = (
        await s.execute(
            select(OutcomeRow.game_id, OutcomeRow.seat, OutcomeRow.who)
            .where(OutcomeRow.game_id.in_(own), OutcomeRow.seat <= OPPONENTS)
            .order_by(OutcomeRow.game_id, OutcomeRow.seat)
        )
    ).all()
    known = await names(s, (who for _, _, who in rows))
    found: dict[int, list[dict]] = {game: [] for game in own}
    for game, seat, who in rows:
        if seat != own[game] and len(found[game]) < OPPONENTS:
            found[game].append({"seat": seat, **seated(who, known)})
    return found


async def table(
    s: AsyncSession,
    game: str,
    game_id: int,
    result: Mapping[str, Any],
    started: list[str | None],
    bots: Mapping[int, str | None],
) -> list[dict[str, Any]]:
    """Every seat of one finished game (its internal id), for the game's page: who played it
    (as rated: the outcome rows; a game of bots alone has none, and then a seat is the person
    who sat there at the start, else its bot now, ``bots``), its place (1 first), exact score,
    win, whether the stand-in played for its person (``stand_in``), and its part."""
    rated = {
        seat: (who, stand_in)
        for seat, who, stand_in in await s.execute(
            select(OutcomeRow.seat, OutcomeRow.who, OutcomeRow.stand_in).where(
                OutcomeRow.game_id == game_id
            )
        )
    }
    count = len(result["places"])
    sat = [started[i] if i < len(started) else None for i in range(count)]
    who = [rated[i][0] if i in rated else sat[i] or bot_label(bots.get(i)) for i in range(count)]
    known = await names(s, who)
    place = {seat: i + 1 for i, seat in enumerate(result["places"])}
    return [
        {
            "seat": i,
            **seated(who[i], known),
            "place": place[i],
            "score": result["scores"][i],
            "won": i in result["winners"],
            "stand_in": i in rated and rated[i][1],
            "part": part(game, result, i),
        }
        for i in range(count)
    ]
