"""Games in the database: a game's record stored, its result, and its action log read back.

A game is stored as its record (yamen/records.py): options, seed and the actions in the game's
notation, one row each, written by the journal (yamen/server/journal.py). Recovery and replays
are re-application of that log, so nothing else about a game needs storing; its actions are
read ``ACTIONS_PART`` at a time, so that the event loop goes on however long the game. These
are :class:`~yamen.server.storage.Store`'s queries about games: a mixin, so that the rest of
the server asks the one Store, which owns the connection.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from yamen.engine import score_json
from yamen.records import Record
from yamen.server.ratings import rate_game
from yamen.server.tables import ActionRow, GameRow, RoomRow

ACTIONS_PART = 1000  # a game's actions are read this many at a time


def new_public_id() -> str:
    """A game's public id: 72 random bits, URL-safe."""
    return secrets.token_urlsafe(9)


@dataclass
class StoredGame:
    id: int
    room_id: str
    number: int
    record: Record
    finished: bool
    public_id: str = ""
    players: list[str | None] | None = None
    quarantined: str | None = None
    stand_ins: dict[int, str] = field(default_factory=dict)  # action index -> why (timeout...)
    finished_at: float | None = None  # when it ended (epoch seconds)


class GameQueries:
    """The games' queries of :class:`~yamen.server.storage.Store` (which owns ``session``)."""

    session: async_sessionmaker[AsyncSession]

    async def add_game(
        self,
        room_id: str,
        number: int,
        record: Record,
        public_id: str | None = None,
        players: list[str | None] | None = None,
    ) -> int:
        """Store a new game; its internal id (``public_id`` is drawn when not given)."""
        row = GameRow(
            public_id=public_id or new_public_id(),
            room_id=room_id,
            number=number,
            players=players,
            game=record.game,
            options=record.options,
            seed=record.seed,
            started=time.time(),
        )
        async with self.session.begin() as s:
            s.add(row)
        return row.id

    async def finish_game(
        self,
        game_id: int,
        result: dict[str, Any],
        room_id: str | None = None,
        totals: Sequence[Fraction] | None = None,
    ) -> None:
        """A game's result, and with it its room's match ``totals`` (that game's scores
        included), in one transaction: a room is loaded from these, never by replaying its
        finished games."""
        async with self.session.begin() as s:
            await s.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(result=result, finished=time.time())
            )
            if room_id is not None and totals is not None:
                scores = [score_json(score) for score in totals]
                await s.execute(update(RoomRow).where(RoomRow.id == room_id).values(scores=scores))
        # ratings after the result is safe: a failure there is logged, never the room's
        await rate_game(self, game_id)

    async def last_game(self, room_id: str) -> StoredGame | None:
        """The room's last game (the match's highest number) with its whole action log (the
        length of one game, bounded by its options); None before its first game."""
        async with self.session() as s:
            row = await s.scalar(
                select(GameRow)
                .where(GameRow.room_id == room_id)
                .order_by(GameRow.number.desc(), GameRow.id.desc())
                .limit(1)
            )
            return None if row is None else await self._stored(s, row)

    async def set_aside(self, room_id: str) -> int | None:
        """The number of the room's first game set aside (quarantined), if any."""
        async with self.session() as s:
            return await s.scalar(
                select(func.min(GameRow.number)).where(
                    GameRow.room_id == room_id, GameRow.quarantined.is_not(None)
                )
            )

    async def game(self, game_id: int) -> StoredGame | None:
        async with self.session() as s:
            row = await s.get(GameRow, game_id)
            return None if row is None else await self._stored(s, row)

    async def game_header(self, public_id: str) -> StoredGame | None:
        """A game by its public id, without its actions (``record.actions`` is empty)."""
        async with self.session() as s:
            row = await s.scalar(select(GameRow).where(GameRow.public_id == public_id))
            return None if row is None else _stored_game(row, Actions())

    async def game_actions(self, game_id: int) -> list[tuple[int, str]]:
        async with self.session() as s:
            return (await _actions(s, game_id)).moves

    async def _stored(self, s: AsyncSession, row: GameRow) -> StoredGame:
        return _stored_game(row, await _actions(s, row.id))

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Set a game aside: it is not replayed again, and its room stays closed."""
        async with self.session.begin() as s:
            await s.execute(update(GameRow).where(GameRow.id == game_id).values(quarantined=reason))


@dataclass
class Actions:
    """A game's actions as read: (seat, text) in order, and why a stand-in played those it
    played (action index -> why)."""

    moves: list[tuple[int, str]] = field(default_factory=list)
    stand_ins: dict[int, str] = field(default_factory=dict)


async def _actions(s: AsyncSession, game_id: int) -> Actions:
    """A game's actions in order. Read, and put in their lists, in parts, so that the event
    loop goes on between them however long the game (nothing after the read goes over them
    all at once)."""
    rows = await s.stream(
        select(ActionRow.seat, ActionRow.text, ActionRow.stand_in)
        .where(ActionRow.game_id == game_id)
        .order_by(ActionRow.index)
        .execution_options(yield_per=ACTIONS_PART)
    )
    read = Actions()
    async for part in rows.partitions():
        for seat, text, why in part:
            if why is not None:
                read.stand_ins[len(read.moves)] = why
            read.moves.append((seat, text))
    return read


def _stored_game(row: GameRow, actions: Actions) -> StoredGame:
    record = Record(row.game, row.options, row.seed, None, actions.moves, row.result)
    return StoredGame(
        row.id,
        row.room_id,
        row.number,
        record,
        row.finished is not None,
        row.public_id,
        row.players,
        row.quarantined,
        actions.stand_ins,
        row.finished,
    )
