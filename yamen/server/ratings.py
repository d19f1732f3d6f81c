"""Ratings and player figures: when a game with a person in it ends, each seat's outcome is
stored and everyone's OpenSkill rating in that game moves (docs/server.md, Ratings).

Who sat in a seat is the player who sat there when the game started (``games.players``), or,
for a bot's seat, ``bot:<kind>`` (the seat's bot when the game ended): bots are rated players
too, so people see "rules" and "search" on their own scale. The game says who beat whom
(``Game.contests``: sides where it has them, deal by deal where they change); each contest is
one Plackett-Luce update of teams, of whatever sizes. A name seated more than once in a
contest (two bots of one kind) takes the mean of its seats' new ratings.
"""

from __future__ import annotations

import logging
import time
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from yamen.engine import game_type
from yamen.server.tables import ActionRow, GameRow, OutcomeRow, PlayerRow, RatingRow, SeatRow

log = logging.getLogger(__name__)
AWAY = ("left", "away")  # a stand-in played for these reasons: the game is marked


def bot_label(kind: str | None) -> str:
    return f"bot:{kind or 'unknown'}"


def display(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma, what the player is almost surely at least as good as."""
    return round(mu - 3 * sigma, 2)


async def rate_game(store: Any, game_id: int) -> bool:
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


async def rate_unrated(store: Any) -> int:
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


async def _rate(store: Any, game_id: int) -> bool:
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
        away = set(
            await s.scalars(
                select(ActionRow.seat).where(
                    ActionRow.game_id == game_id, ActionRow.stand_in.in_(AWAY)
                )
            )
        )
        result, players = row.result, row.players or []
        who = [
            players[i] or bot_label(getattr(seats.get(i), "bot", None))
            for i in range(len(result["places"]))
        ]
        stood_in = [
            players[i] is not None
            and (i in away or getattr(seats.get(i), "player_id", None) != players[i])
            for i in range(len(who))
        ]
        finished = row.finished or time.time()
        winners = set(result["winners"])
        for place, seat in enumerate(result["places"]):
            s.add(
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
            )
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
    return True


async def leaderboard(store: Any, game: str, limit: int = 100) -> list[dict[str, Any]]:
    """The game's rated players and bots, best displayed rating first."""
    async with store.session() as s:
        rows = list(await s.scalars(select(RatingRow).where(RatingRow.game == game)))
        names = await _names(s, [r.who for r in rows])
    rows.sort(key=lambda r: (-(r.mu - 3 * r.sigma), r.who))
    return [
        {**_rating(r), "player": r.who, "name": names.get(r.who, r.who), "bot": _bot(r.who)}
        for r in rows[:limit]
    ]


async def player_page(
    store: Any, player_id: str, asker: str | None, last: int = 20
) -> dict[str, Any] | None:
    """A player's (or a bot kind's) figures per game; the last games only where ``asker`` may
    read them (a public room's, or one the asker sat in). None: nobody by that id."""
    from yamen.server.tables import RoomRow

    async with store.session() as s:
        names = await _names(s, [player_id])
        outcomes = list(
            await s.scalars(
                select(OutcomeRow)
                .where(OutcomeRow.who == player_id)
                .order_by(OutcomeRow.finished.desc(), OutcomeRow.game_id.desc())
            )
        )
        if player_id not in names and not outcomes:
            return None
        ratings = {
            r.game: r for r in await s.scalars(select(RatingRow).where(RatingRow.who == player_id))
        }
        ids = list(dict.fromkeys(o.game_id for o in outcomes))
        games = {
            g.id: (g, public)
            for g, public in await s.execute(
                select(GameRow, RoomRow.public)
                .join(RoomRow, RoomRow.id == GameRow.room_id)
                .where(GameRow.id.in_(ids))
            )
        }
    per_game: dict[str, dict[str, Any]] = {}
    for o in outcomes:
        figures = per_game.setdefault(
            o.game, {"game": o.game, "games": 0, "places": {}, "points": 0.0, "wins": 0}
        )
        figures["games"] += 1
        figures["places"][str(o.place)] = figures["places"].get(str(o.place), 0) + 1
        figures["points"] += o.score
        figures["wins"] += o.won
    for name, figures in per_game.items():
        n = figures.pop("games")
        points, wins = figures.pop("points"), figures.pop("wins")
        rating = ratings.get(name)
        figures.update(
            played=n,
            mean_points=round(points / n, 4),
            win_rate=round(wins / n, 4),
            rating=None if rating is None else _rating(rating),
        )
    recent = []
    for o in outcomes:
        game, public = games[o.game_id]
        if public or (asker is not None and asker in (game.players or ())):
            recent.append(
                {
                    "game_id": game.public_id,
                    "game": o.game,
                    "room": game.room_id if public else None,
                    "seat": o.seat,
                    "place": o.place,
                    "score": o.score,
                    "won": o.won,
                    "stand_in": o.stand_in,
                    "finished": o.finished,
                }
            )
        if len(recent) >= last:
            break
    return {
        "player": player_id,
        "name": names.get(player_id, player_id),
        "bot": _bot(player_id),
        "games": list(per_game.values()),
        "last": recent,
    }


def _rating(r: RatingRow) -> dict[str, Any]:
    return {
        "mu": round(r.mu, 4),
        "sigma": round(r.sigma, 4),
        "display": display(r.mu, r.sigma),
        "games": r.games,
    }


def _bot(who: str) -> str | None:
    return who[4:] if who.startswith("bot:") else None


async def _names(s: Any, ids: list[str]) -> dict[str, str]:
    people = [i for i in ids if not i.startswith("bot:")]
    if not people:
        return {}
    rows = await s.execute(select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(people)))
    return {row[0]: row[1] for row in rows}
