"""Rooms and their seats in the database: a room made, set up and sat in, and rooms found.

A room's row holds its setup and its match totals (:func:`read_scores`), its seats one row
each; the lobby lists rooms from here, a host's open rooms and bot tables are counted here, and
a restarted server finds here the rooms it resumes. A room's games are
yamen/server/game_store.py's; the room in memory is yamen/server/rooms.py's, loaded from these by
yamen/server/loading.py. These are :class:`~yamen.server.storage.Store`'s queries about rooms:
a mixin, so that the rest of the server asks the one Store, which owns the connection.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import delete, func, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from yamen.server.tables import GameRow, RoomRow, SeatRow


@dataclass(frozen=True)
class Access:
    """What decides who may watch a room (identity.admits), read from its stored row and seats
    before the room is loaded."""

    public: bool
    host: str
    invite: str
    seated: frozenset[str]


class RoomQueries:
    """The rooms' queries of :class:`~yamen.server.storage.Store` (which owns ``engine`` and
    ``session``)."""

    engine: AsyncEngine
    session: async_sessionmaker[AsyncSession]

    async def add_room(
        self, room: RoomRow, seats: int, most_open: int | None = None, since: float = 0.0
    ) -> bool:
        """Store a new room with ``seats`` empty seats. With ``most_open``, only while its host
        has fewer open rooms made since ``since`` (:meth:`open_rooms`): the count and the
        insert are one transaction under a lock on the host (PostgreSQL: an advisory lock, so
        every process takes its turn; SQLite: one connection, so this process's calls do), so
        creations at once cannot all pass the count. False, and nothing stored, at the cap."""
        async with self.session.begin() as s:
            if most_open is not None:
                if self.engine.dialect.name == "postgresql":
                    key = hashlib.sha256(f"open_rooms:{room.host}".encode()).digest()[:8]
                    lock = text("SELECT pg_advisory_xact_lock(:key)")
                    await s.execute(lock, {"key": int.from_bytes(key, "big", signed=True)})
                if (await s.scalar(_open_rooms(room.host, since)) or 0) >= most_open:
                    return False
            s.add(room)
            await s.flush()
            s.add_all(SeatRow(room_id=room.id, seat=i) for i in range(seats))
        return True

    async def room(self, room_id: str) -> tuple[RoomRow, list[SeatRow]] | None:
        async with self.session() as s:
            room = await s.get(RoomRow, room_id)
            if room is None:
                return None
            seats = await s.scalars(
                select(SeatRow).where(SeatRow.room_id == room_id).order_by(SeatRow.seat)
            )
            return room, list(seats)

    async def room_access(self, room_id: str) -> Access | None:
        """Who may watch the room, as stored (None: no such room), in one query whether the
        room exists or not: deciding costs the same for a private room as for a missing one."""
        query = (
            select(RoomRow.public, RoomRow.host, RoomRow.invite, SeatRow.player_id)
            .outerjoin(SeatRow, SeatRow.room_id == RoomRow.id)
            .where(RoomRow.id == room_id)
        )
        async with self.session() as s:
            rows = (await s.execute(query)).all()
        if not rows:
            return None
        public, host, invite, _ = rows[0]
        seated = frozenset(row[3] for row in rows if row[3] is not None)
        return Access(public, host, invite, seated)

    async def public_rooms(self, limit: int, fresh_since: float | None = None) -> list[str]:
        """Public rooms, newest first. With ``fresh_since``, only the listed ones: a room with
        no game yet or one in progress (never a finished or set-aside match), and a person in
        a seat, or made since ``fresh_since`` (its host may not have sat down yet)."""
        query = select(RoomRow.id).where(RoomRow.public)
        if fresh_since is not None:
            played = select(GameRow.room_id)
            unfinished = select(GameRow.room_id).where(
                GameRow.finished.is_(None), GameRow.quarantined.is_(None)
            )
            seated = select(SeatRow.room_id).where(SeatRow.player_id.is_not(None))
            query = query.where(
                or_(RoomRow.id.not_in(played), RoomRow.id.in_(unfinished)),
                or_(RoomRow.id.in_(seated), RoomRow.created >= fresh_since),
            )
        async with self.session() as s:
            ids = await s.scalars(query.order_by(RoomRow.created.desc()).limit(limit))
            return list(ids)

    async def fresh_rooms(
        self, game: str, since: float, limit: int, player: str | None = None
    ) -> list[tuple[RoomRow, list[SeatRow]]]:
        """Public rooms of ``game`` (or, with ``player``, any rooms where they sit) made since
        ``since`` whose first game has not begun, oldest first, with their seats: where play
        now looks for a table waiting for people (yamen/server/play_now.py)."""
        played = select(GameRow.room_id)
        query = select(RoomRow).where(RoomRow.created >= since, RoomRow.id.not_in(played))
        if player is None:
            query = query.where(RoomRow.game == game, RoomRow.public)
        else:
            sits = select(SeatRow.room_id).where(SeatRow.player_id == player)
            query = query.where(RoomRow.id.in_(sits))
        async with self.session() as s:
            rooms = list(await s.scalars(query.order_by(RoomRow.created).limit(limit)))
            seats = await s.scalars(
                select(SeatRow)
                .where(SeatRow.room_id.in_([room.id for room in rooms]))
                .order_by(SeatRow.seat)
            )
            by_room: dict[str, list[SeatRow]] = {room.id: [] for room in rooms}
            for seat in seats:
                by_room[seat.room_id].append(seat)
        return [(room, by_room[room.id]) for room in rooms]

    async def tables_in_play(self, player: str, limit: int) -> list[tuple[RoomRow, int, int]]:
        """The rooms where ``player`` sits and a game is in progress (at most ``limit``, the
        latest game first), each with the seat and the game's number in the match."""
        query = (
            select(RoomRow, SeatRow.seat, GameRow.number)
            .join(SeatRow, SeatRow.room_id == RoomRow.id)
            .join(GameRow, GameRow.room_id == RoomRow.id)
            .where(
                SeatRow.player_id == player,
                GameRow.finished.is_(None),
                GameRow.quarantined.is_(None),
            )
            .order_by(GameRow.started.desc())
            .limit(limit)
        )
        async with self.session() as s:
            return [(room, seat, number) for room, seat, number in (await s.execute(query)).all()]

    async def set_seat(
        self, room_id: str, seat: int, player_id: str | None, bot: str | None
    ) -> None:
        async with self.session.begin() as s:
            await s.execute(
                update(SeatRow)
                .where(SeatRow.room_id == room_id, SeatRow.seat == seat)
                .values(player_id=player_id, bot=bot)
            )

    async def set_seats(
        self, room_id: str, seats: dict[int, tuple[str | None, str | None]]
    ) -> None:
        """Several seats at once (seat -> (player, bot)), in one transaction."""
        async with self.session.begin() as s:
            for seat, (player_id, bot) in seats.items():
                await s.execute(
                    update(SeatRow)
                    .where(SeatRow.room_id == room_id, SeatRow.seat == seat)
                    .values(player_id=player_id, bot=bot)
                )

    async def configure_room(
        self,
        room_id: str,
        options: dict[str, Any],
        settings: dict[str, Any],
        public: bool,
        seats: int,
    ) -> None:
        """A room's new options and settings, and its seats cut or grown to ``seats``."""
        async with self.session.begin() as s:
            await s.execute(
                update(RoomRow)
                .where(RoomRow.id == room_id)
                .values(options=options, settings=settings, public=public)
            )
            await s.execute(
                delete(SeatRow).where(SeatRow.room_id == room_id, SeatRow.seat >= seats)
            )
            have = await s.scalar(
                select(func.count()).select_from(SeatRow).where(SeatRow.room_id == room_id)
            )
            s.add_all(SeatRow(room_id=room_id, seat=i) for i in range(have or 0, seats))

    async def rooms_in_play(self) -> list[str]:
        """Rooms with an unfinished game and a person seated: a restarted server resumes them
        (a cluster takes them over). A room of bots alone plays only while someone watches
        (Room.present): it is loaded when someone opens it."""
        seated = select(SeatRow.room_id).where(SeatRow.player_id.is_not(None))
        async with self.session() as s:
            ids = await s.scalars(
                select(GameRow.room_id)
                .where(
                    GameRow.finished.is_(None),
                    GameRow.quarantined.is_(None),
                    GameRow.room_id.in_(seated),
                )
                .distinct()
            )
            return list(ids)

    async def open_rooms(self, host: str, since: float) -> int:
        """How many of the rooms ``host`` created since ``since`` have no game yet or one in
        progress."""
        async with self.session() as s:
            return await s.scalar(_open_rooms(host, since)) or 0

    async def bot_tables(self, host: str, since: float) -> int:
        """How many of ``host``'s rooms have a game started since ``since`` in progress and no
        person seated (bots alone, watched or not)."""
        playing = select(GameRow.room_id).where(
            GameRow.finished.is_(None), GameRow.quarantined.is_(None), GameRow.started >= since
        )
        seated = select(SeatRow.room_id).where(SeatRow.player_id.is_not(None))
        query = (
            select(func.count())
            .select_from(RoomRow)
            .where(RoomRow.host == host, RoomRow.id.in_(playing), RoomRow.id.not_in(seated))
        )
        async with self.session() as s:
            return await s.scalar(query) or 0


def _open_rooms(host: str, since: float) -> Any:
    """The count of ``host``'s rooms made since ``since`` with no game yet or one in progress."""
    played = select(GameRow.room_id)
    unfinished = select(GameRow.room_id).where(GameRow.finished.is_(None))
    return (
        select(func.count())
        .select_from(RoomRow)
        .where(
            RoomRow.host == host,
            RoomRow.created >= since,
            or_(RoomRow.id.not_in(played), RoomRow.id.in_(unfinished)),
        )
    )


def read_scores(stored: list[int | str] | None, seats: int) -> list[Fraction]:
    """A room's stored match totals (RoomRow.scores), exact; zeros before any game finished."""
    if stored is None:
        return [Fraction(0)] * seats
    return [Fraction(score) for score in stored]
