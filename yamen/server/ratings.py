"""Ratings and player figures: when a game with a person in it ends, each seat's outcome is
stored, everyone's OpenSkill rating in that game moves, and their figures in that game
(games, places, points, wins) are counted, all in one transaction (docs/server.md, Ratings).

Who sat in a seat is the player who sat there when the game started (``games.players``), or,
for a bot's seat, ``bot:<kind>`` (the seat's bot when the game ended): bots are rated players
too, so people see "rules" and "search" on their own scale. A person who left a game before it
really began for them (they made no decision of their own: every action of their seat was the
stand-in's, for ``left``, ``away`` or ``auto``) did not play it: their seat counts as the bot
that played it, so sitting down, starting and leaving (or turning auto-play on) farms nothing.
The game says who beat whom (``Game.contests``: sides where it has them, deal by deal where
they change); each contest is one Plackett-Luce update of teams, of whatever sizes. A name
seated more than once in a contest (two bots of one kind) takes the mean of its seats' new
ratings.

A player's page costs the same however many games they played: it reads their figures per
game (``player_stats``, kept as games are rated) and one page of their last games, newest
first, through an index (``?before=`` the previous page's ``next``), each with a few of the
other seats and the player's part in it (yamen/server/outcomes.py).
"""

from __future__ import annotations

import logging
import math
import re
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from sqlalchemy import Select, and_, exists, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from yamen.engine import game_type
from yamen.server.outcomes import bot_kind, bot_label, names, others, part
from yamen.server.tables import (
    ActionRow,
    GameRow,
    OutcomeRow,
    RatingRow,
    RoomRow,
    SeatRow,
    StatsRow,
)

log = logging.getLogger(__name__)
AWAY = ("left", "away", "auto")  # a stand-in played for these reasons: the game is marked
HANDED = {"left", "auto"}  # the person handed the seat over (left it, or turned auto-play on)


class Sessions(Protocol):
    """What ratings need of the database: its sessions. The server's Store is one (and its
    game queries, which rate a game as they store its result); declared here, not as Store,
    since the store imports this module."""

    session: async_sessionmaker[AsyncSession]


def display(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma, what the player is almost surely at least as good as."""
    return round(mu - 3 * sigma, 2)


async def rate_game(store: Sessions, game_id: int) -> bool:
    """Store the finished game's outcomes and move its ratings, once; never raises (a failure
    is logged: the room goes on). True when the game was rated now."""
    for attempt in range(3):
        try:
            return await _rate(store, game_id)
        except IntegrityError:
            # another process rated a first game of someone at this table meanwhile (a new
            # rating row): read again; or this game was rated by another process (none left)
            if attempt == 2:
                log.exception("game %s could not be rated", game_id)
        except Exception:
            log.exception("game %s could not be rated", game_id)
            break
    return False


async def rate_unrated(store: Sessions) -> int:
    """Rate the finished games that were never rated, oldest first: those finished before
    ratings existed (migration 0005), or whose rating failed. Run once as a server starts;
    several processes may race, and :func:`rate_game` rates a game once. The number rated."""
    async with store.session() as s:
        rated = select(OutcomeRow.game_id).where(OutcomeRow.game_id == GameRow.id).exists()
        unrated = list(
            await s.scalars(
                select(GameRow.id)
                .where(GameRow.result.is_not(None), ~rated)
                .order_by(GameRow.finished, GameRow.id)
            )
        )
    count = 0
    for game_id in unrated:
        count += await rate_game(store, game_id)
    if count:
        log.info("rated %d games finished before their rating", count)
    return count


async def _rate(store: Sessions, game_id: int) -> bool:
    from openskill.models import PlackettLuce

    async with store.session.begin() as s:
        row = await s.get(GameRow, game_id)
        if row is None or row.result is None or not any(row.players or ()):
            return False  # bots alone: not rated
        if await s.scalar(select(OutcomeRow.game_id).where(OutcomeRow.game_id == game_id)):
            return False  # rated already
        seats = {
            seat.seat: seat
            for seat in await s.scalars(select(SeatRow).where(SeatRow.room_id == row.room_id))
        }
        why: dict[int, set[str | None]] = {}  # seat -> why its actions were played (None: own)
        for seat, reason in await s.execute(
            select(ActionRow.seat, ActionRow.stand_in)
            .where(ActionRow.game_id == game_id)
            .distinct()
        ):
            why.setdefault(seat, set()).add(reason)
        result, started = row.result, row.players or []
        now_in = [getattr(seats.get(i), "player_id", None) for i in range(len(result["places"]))]
        players = played_by(started, now_in, why)
        if not any(players):
            return False  # bots alone, or people who left before it began: not rated
        who = [
            players[i] or bot_label(getattr(seats.get(i), "bot", None)) for i in range(len(now_in))
        ]
        stood_in = [
            players[i] is not None
            and (bool(why.get(i, set()) & set(AWAY)) or now_in[i] != players[i])
            for i in range(len(who))
        ]
        finished = row.finished or time.time()
        winners = set(result["winners"])
        outcomes = [
            OutcomeRow(
                game_id=game_id,
                seat=seat,
                who=who[seat],
                game=row.game,
                place=place + 1,
                score=float(Fraction(str(result["scores"][seat]))),
                won=seat in winners,
                stand_in=stood_in[seat],
                finished=finished,
            )
            for place, seat in enumerate(result["places"])
        ]
        s.add_all(outcomes)
        names = sorted(set(who))
        found = {
            r.who: r
            for r in await s.scalars(
                select(RatingRow)
                .where(RatingRow.game == row.game, RatingRow.who.in_(names))
                .with_for_update()  # another process's game: one after the other
            )
        }
        model = PlackettLuce()
        ratings = {
            name: (found[name].mu, found[name].sigma) if name in found else None for name in names
        }
        for contest in game_type(row.game).contests(result):
            if len(contest.teams) < 2 or not all(contest.teams):
                continue
            grouped = [
                [
                    model.rating(*start) if (start := ratings[who[seat]]) else model.rating()
                    for seat in team
                ]
                for team in contest.teams
            ]
            rated = model.rate(grouped, ranks=list(contest.ranks))
            new: dict[str, list[tuple[float, float]]] = {}
            for team, after in zip(contest.teams, rated, strict=True):
                for seat, rating in zip(team, after, strict=True):
                    new.setdefault(who[seat], []).append((rating.mu, rating.sigma))
            for name, values in new.items():
                ratings[name] = (
                    sum(v[0] for v in values) / len(values),
                    sum(v[1] for v in values) / len(values),
                )
        now = time.time()
        for name in names:
            mu, sigma = ratings[name] or (model.mu, model.sigma)
            if name in found:
                found[name].mu, found[name].sigma = mu, sigma
                found[name].games += 1
                found[name].updated = now
            else:
                s.add(RatingRow(who=name, game=row.game, mu=mu, sigma=sigma, games=1, updated=now))
        # the figures, after the ratings (rows of the same names: locked in the same order)
        stats = {
            r.who: r
            for r in await s.scalars(
                select(StatsRow)
                .where(StatsRow.game == row.game, StatsRow.who.in_(names))
                .with_for_update()
            )
        }
        for outcome in outcomes:
            if outcome.who not in stats:
                stats[outcome.who] = StatsRow(
                    who=outcome.who, game=row.game, played=0, wins=0, points="0", places={}, last=0
                )
                s.add(stats[outcome.who])
            score = Fraction(str(result["scores"][outcome.seat]))
            count(stats[outcome.who], outcome.place, score, outcome.won, finished)
    return True


def played_by(
    started: list[str | None], now_in: list[str | None], why: dict[int, set[str | None]]
) -> list[str | None]:
    """Who played each seat, for ratings: the person who sat there when the game started
    (``started``), unless they handed it over before it really began for them: gone from the
    seat (``now_in`` is who sits there now; a ``left`` action says it too) or on auto-play
    (``auto`` actions), and no decision of their own, every action of the seat the
    stand-in's for ``left``, ``away`` or ``auto`` (``why``: the reasons its actions were
    played for, None for a seat's own). Those seats were a bot's. A turn timer's stand-in
    move is not a leaver's: the person was at the table."""
    players: list[str | None] = []
    for i, sitting in enumerate(now_in):
        person, reasons = started[i] if i < len(started) else None, why.get(i, set())
        handed = person is not None and (bool(reasons & HANDED) or sitting != person)
        players.append(None if handed and reasons <= set(AWAY) else person)
    return players


def count(stats: StatsRow, place: int, score: Fraction, won: bool, finished: float) -> None:
    """One more rated game in ``stats``: its place, exact score and win."""
    stats.played += 1
    stats.wins += bool(won)
    stats.points = str(Fraction(stats.points) + score)
    stats.places = {**stats.places, str(place): stats.places.get(str(place), 0) + 1}
    stats.last = max(stats.last, finished)


async def leaderboard(store: Sessions, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The game's rated players and bots, best displayed rating first."""
    async with store.session() as s:
        rows = list(await s.scalars(select(RatingRow).where(RatingRow.game == game)))
        known = await names(s, [r.who for r in rows])
    rows.sort(key=lambda r: (-(r.mu - 3 * r.sigma), r.who))
    return [
        {**_rating(r), "player": r.who, "name": known.get(r.who, r.who), "bot": bot_kind(r.who)}
        for r in rows[:limit]
    ]


@dataclass(frozen=True)
class Cursor:
    """Where a page of last games ends: its last row's time, game (public id) and seat; the
    next page starts after it. Written as ``finished:game_id:seat``."""

    finished: float
    game_id: str
    seat: int

    def __str__(self) -> str:
        return f"{self.finished!r}:{self.game_id}:{self.seat}"

    @classmethod
    def parse(cls, text: str) -> Cursor:
        """ValueError when ``text`` is not one."""
        finished, game_id, seat = text.split(":")
        well_formed = re.fullmatch(r"[A-Za-z0-9_-]{1,32}", game_id) and re.fullmatch(
            r"[0-9]{1,4}", seat
        )
        if not well_formed or not math.isfinite(float(finished)):
            raise ValueError(f"not a page of games: {text!r}")
        return cls(float(finished), game_id, int(seat))


async def player_page(
    store: Sessions, player_id: str, asker: str | None, last: int = 20, before: Cursor | None = None
) -> dict[str, Any] | None:
    """A player's (or a bot kind's) figures per game and a page of their last games, newest
    first (after ``before``): only those ``asker`` may read, a public room's or one the asker
    was rated in with them. ``next`` is where the next page starts (None: no more). None:
    nobody by that id. Bounded work whatever the number of games: a few indexed reads."""
    async with store.session() as s:
        known = await names(s, [player_id])
        stats = list(
            await s.scalars(
                select(StatsRow)
                .where(StatsRow.who == player_id)
                .order_by(StatsRow.last.desc(), StatsRow.game)
            )
        )
        if player_id not in known and not stats:
            return None
        ratings = {
            r.game: r for r in await s.scalars(select(RatingRow).where(RatingRow.who == player_id))
        }
        page = await _page_of_games(s, player_id, asker, last, before)
    return {
        "player": player_id,
        "name": known.get(player_id, player_id),
        "bot": bot_kind(player_id),
        "games": [figures(row, ratings.get(row.game)) for row in stats],
        "last": page["games"],
        "next": page["next"],
    }


async def games_page(
    store: Sessions, player_id: str, asker: str | None, last: int = 20, before: Cursor | None = None
) -> dict[str, Any]:
    """A page of a player's last games alone (``games``, ``next``), as :func:`player_page`
    gives them: a player's own list of games ("my games"), or the next page of another's."""
    async with store.session() as s:
        return await _page_of_games(s, player_id, asker, last, before)


async def _page_of_games(
    s: AsyncSession, player_id: str, asker: str | None, last: int, before: Cursor | None
) -> dict[str, Any]:
    """``last`` of the player's readable games after ``before``, newest first, each with its
    date (``finished``), place, score, win, the player's part in the game's words, how many
    seats it had and up to ``OPPONENTS`` of the others (yamen/server/outcomes.py); and
    ``next``, where the next page starts."""
    found = (await s.execute(_last_games(player_id, asker, before, last + 1))).all()
    rows = found[:last]
    opponents = await others(s, ((o.game_id, o.seat) for o, *_ in rows))
    recent = [
        {
            "game_id": public_id,
            "game": o.game,
            "room": room_id if public else None,
            "seat": o.seat,
            "place": o.place,
            "score": o.score,
            "won": o.won,
            "stand_in": o.stand_in,
            "finished": o.finished,
            "part": part(o.game, result, o.seat),
            "seats": len(result["places"]) if result else None,
            "others": opponents.get(o.game_id, []),
        }
        for o, public_id, room_id, public, result in rows
    ]
    after = None
    if len(found) > last:
        end = recent[-1]
        after = str(Cursor(end["finished"], end["game_id"], end["seat"]))
    return {"games": recent, "next": after}


def figures(stats: StatsRow, rating: RatingRow | None) -> dict[str, Any]:
    """A player's figures in one game, as their page shows them."""
    n = stats.played
    places = sorted(stats.places.items(), key=lambda item: int(item[0]))
    return {
        "game": stats.game,
        "places": dict(places),
        "played": n,
        "mean_points": round(float(Fraction(stats.points) / n), 4),
        "win_rate": round(stats.wins / n, 4),
        "rating": None if rating is None else _rating(rating),
    }


def _last_games(player_id: str, asker: str | None, before: Cursor | None, limit: int) -> Select:
    """The player's outcomes newest first, with their game's public id, room, publicity and
    result: those of public rooms, and those the asker was rated in too; after ``before``.
    Walks the index on (who, finished, game_id, seat) and stops at ``limit``."""
    o, other = OutcomeRow, aliased(OutcomeRow)
    query = (
        select(o, GameRow.public_id, GameRow.room_id, RoomRow.public, GameRow.result)
        .join(GameRow, GameRow.id == o.game_id)
        .join(RoomRow, RoomRow.id == GameRow.room_id)
        .where(o.who == player_id)
    )
    if asker is None:
        query = query.where(RoomRow.public)
    else:
        sat = exists().where(other.game_id == o.game_id, other.who == asker)
        query = query.where(or_(RoomRow.public, sat))
    if before is not None:
        game = select(GameRow.id).where(GameRow.public_id == before.game_id).scalar_subquery()
        query = query.where(
            or_(
                o.finished < before.finished,
                and_(
                    o.finished == before.finished,
                    or_(o.game_id < game, and_(o.game_id == game, o.seat < before.seat)),
                ),
            )
        )
    return query.order_by(o.finished.desc(), o.game_id.desc(), o.seat.desc()).limit(limit)


def _rating(r: RatingRow) -> dict[str, Any]:
    return {
        "mu": round(r.mu, 4),
        "sigma": round(r.sigma, 4),
        "display": display(r.mu, r.sigma),
        "games": r.games,
    }
