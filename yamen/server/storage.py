"""Where the server keeps rooms, seats, players and every game's action log (SQLAlchemy 2).

A game is stored as its record (yamen/records.py): options, seed and the actions in the game's
notation, one row each. Recovery and replays are re-application of that log, so nothing else
about a game needs storing. SQLite by default (one file, nothing to set up), PostgreSQL by URL;
the schema is created and upgraded by Alembic migrations (yamen/server/migrations/) from the
models in yamen/server/tables.py. :class:`Store` holds the queries; actions are written through
its journal (yamen/server/journal.py).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from sqlalchemy import delete, event, false, func, or_, select, text, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from yamen.engine import score_json
from yamen.errors import YamenError
from yamen.records import Record
from yamen.server.journal import Conflict, Fence, Journal, SqliteAppender, sqlite_pragmas
from yamen.server.ratings import rate_game
from yamen.server.tables import (
    ActionRow,
    ChatRow,
    GameRow,
    PlayerRow,
    RoomRow,
    SeatRow,
    SessionRow,
    SiteRow,
    schema_problems,
)

CLUSTER_PREFIX = "cluster_prefix"  # the site fact naming the cluster that runs the database
ACTIONS_PART = 1000  # a game's actions are read this many at a time


class StartupError(YamenError):
    """The database cannot serve: the server refuses to start, and says why."""


def _reason(exc: Exception) -> str:
    return str(getattr(exc, "orig", None) or exc).splitlines()[0]


def token_hash(token: str) -> str:
    """Tokens are stored hashed: a leaked database does not let anyone act as a player."""
    return hashlib.sha256(token.encode()).hexdigest()


def async_url(url: str) -> str:
    """The async driver for a plain URL: ``sqlite:///f.db`` and ``postgresql://...`` work."""
    for plain, driver in (
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://", "postgresql+asyncpg://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


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


@dataclass(frozen=True)
class Access:
    """What decides who may watch a room (identity.admits), read from its stored row and seats
    before the room is loaded."""

    public: bool
    host: str
    invite: str
    seated: frozenset[str]


class Store:
    """The database behind one server process (several processes may share a PostgreSQL)."""

    def __init__(
        self, url: str, *, fence: Fence | None = None, on_conflict: Conflict | None = None
    ):
        """``fence`` and ``on_conflict`` go to the journal (a cluster's process gives them)."""
        self.url = async_url(url)
        if self.url.startswith("sqlite"):
            # One connection for everything but the journal (SQLiteAppender): SQLite has one
            # writer anyway, and many connections that write fail with "database is locked"
            # under load instead of taking turns.
            self.engine: AsyncEngine = create_async_engine(
                self.url, pool_size=1, max_overflow=0, pool_timeout=60, connect_args={"timeout": 30}
            )
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
        else:
            self.engine = create_async_engine(self.url)
        self.session = async_sessionmaker(self.engine, expire_on_commit=False)
        file = self.engine.url.database if self.url.startswith("sqlite") else None
        self.appender = SqliteAppender(file) if file and file != ":memory:" else None
        self.journal = Journal(self, fence, on_conflict)
        self.metrics: Any = None  # yamen/server/metrics.py, when a registry of rooms has one

    async def open(self) -> None:
        """Create or upgrade the schema (Alembic migrations), then check that the database has
        every column the models use and takes writes: a server that could not store would
        otherwise say it serves and then refuse every write (:class:`StartupError`)."""
        from alembic.util import CommandError

        from yamen.server.migrate import upgrade

        where = self.engine.url.render_as_string(hide_password=True)
        try:
            async with self.engine.begin() as conn:
                await conn.run_sync(upgrade)
            async with self.engine.connect() as conn:
                problems = await conn.run_sync(schema_problems)
        except (SQLAlchemyError, CommandError) as exc:
            raise StartupError(f"the database {where} cannot be opened: {_reason(exc)}") from exc
        if problems:
            raise StartupError(
                f"the database {where} does not match this version of Yamen: "
                f"{'; '.join(problems)} (restore it from a backup, or start on a new database)"
            )
        try:
            async with self.engine.connect() as conn:
                # a write that changes nothing, rolled back: a read-only file, directory,
                # user or transaction mode all refuse it
                await conn.execute(text("UPDATE alembic_version SET version_num = version_num"))
                await conn.rollback()
        except SQLAlchemyError as exc:
            raise StartupError(f"the database {where} takes no writes: {_reason(exc)}") from exc

    async def claim(self, name: str, value: str) -> str:
        """The site fact ``name``: set to ``value`` when it has none yet; what it is now."""
        async with self.session() as s:
            found = await s.get(SiteRow, name)
            if found is not None:
                return found.value
            s.add(SiteRow(name=name, value=value))
            try:
                await s.commit()
            except IntegrityError:  # another process claimed it first
                await s.rollback()
                claimed = await s.get(SiteRow, name, populate_existing=True)
                assert claimed is not None  # (site facts are never deleted by a server)
                return claimed.value
        return value

    async def site(self, name: str) -> str | None:
        async with self.session() as s:
            found = await s.get(SiteRow, name)
            return None if found is None else found.value

    async def check_lone(self) -> None:
        """A lone process (no Redis) refuses a database a cluster runs: both would run its
        rooms (:class:`StartupError`)."""
        prefix = await self.site(CLUSTER_PREFIX)
        if prefix is not None:
            where = self.engine.url.render_as_string(hide_password=True)
            raise StartupError(
                f"the database {where} is run by a cluster of processes (Redis prefix "
                f"{prefix!r}): start this one with --redis and that prefix, or give it a "
                f"database of its own (docs/server.md, Several processes)"
            )

    async def close(self) -> None:
        await self.journal.close()
        if self.appender is not None:
            self.appender.close()
        await self.engine.dispose()

    # players
    async def add_player(self, player_id: str, name: str, token: str) -> None:
        async with self.session.begin() as s:
            s.add(PlayerRow(id=player_id, name=name, token_hash=token_hash(token), created=now()))

    async def player_by_token(self, token: str) -> PlayerRow | None:
        """A guest's own token, or a session of an account (yamen/server/account_store.py)."""
        digest = token_hash(token)
        async with self.session() as s:
            found = await s.scalar(select(PlayerRow).where(PlayerRow.token_hash == digest))
            if found is None:
                found = await s.scalar(
                    select(PlayerRow)
                    .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                    .where(SessionRow.token_hash == digest)
                )
            return found

    async def players(self, ids: list[str]) -> dict[str, str]:
        """Display names by player id."""
        if not ids:
            return {}
        async with self.session() as s:
            rows = await s.execute(
                select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(ids))
            )
            return {row[0]: row[1] for row in rows}

    # rooms and seats
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

    # games
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
            started=now(),
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
                update(GameRow).where(GameRow.id == game_id).values(result=result, finished=now())
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
            return None if row is None else _stored_game(row, [])

    async def game_actions(self, game_id: int) -> list[tuple[int, str]]:
        async with self.session() as s:
            return [(seat, text) for seat, text, _ in await _actions(s, game_id)]

    async def _stored(self, s: Any, row: GameRow) -> StoredGame:
        return _stored_game(row, await _actions(s, row.id))

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Set a game aside: it is not replayed again, and its room stays closed."""
        async with self.session.begin() as s:
            await s.execute(update(GameRow).where(GameRow.id == game_id).values(quarantined=reason))

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

    # chat
    async def add_chat(
        self, room_id: str, player_id: str, text: str, keep: int, since: float | None = None
    ) -> float:
        """Store a line (its time), and in the same transaction let the room keep only its
        latest ``keep`` lines, none from before ``since``: at most ``keep`` rows of the room's
        read (its index), whatever its history."""
        at = now()
        async with self.session.begin() as s:
            s.add(ChatRow(room_id=room_id, player_id=player_id, text=text, at=at))
            await s.flush()
            oldest_kept = (
                select(ChatRow.id)
                .where(ChatRow.room_id == room_id)
                .order_by(ChatRow.id.desc())
                .offset(keep - 1)
                .limit(1)
                .scalar_subquery()
            )
            too_old = ChatRow.at < since if since is not None else false()
            await s.execute(
                delete(ChatRow).where(
                    ChatRow.room_id == room_id, or_(ChatRow.id < oldest_kept, too_old)
                )
            )
        return at

    async def drop_chat_before(self, before: float, batch: int = 1000) -> int:
        """Delete every room's chat lines from before ``before`` (by the index on their time),
        ``batch`` rows a transaction; how many."""
        dropped = 0
        while True:
            async with self.session.begin() as s:
                old = select(ChatRow.id).where(ChatRow.at < before).limit(batch)
                ids = list(await s.scalars(old))
                if ids:
                    await s.execute(delete(ChatRow).where(ChatRow.id.in_(ids)))
            dropped += len(ids)
            if len(ids) < batch:
                return dropped

    async def chat(self, room_id: str, limit: int) -> list[tuple[str, str, float]]:
        """The room's latest chat lines, oldest first: (player id, text, time)."""
        async with self.session() as s:
            rows = await s.execute(
                select(ChatRow.player_id, ChatRow.text, ChatRow.at)
                .where(ChatRow.room_id == room_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            )
            return [(player, line, at) for player, line, at in reversed(rows.all())]


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


async def _actions(s: Any, game_id: int) -> list[tuple[int, str, str | None]]:
    """A game's actions in order: (seat, text, why a stand-in played it or None). Read in
    parts, so that the event loop goes on between them however long the game."""
    rows = await s.stream(
        select(ActionRow.seat, ActionRow.text, ActionRow.stand_in)
        .where(ActionRow.game_id == game_id)
        .order_by(ActionRow.index)
        .execution_options(yield_per=ACTIONS_PART)
    )
    actions: list[tuple[int, str, str | None]] = []
    async for part in rows.partitions():
        actions.extend((seat, text, why) for seat, text, why in part)
    return actions


def _stored_game(row: GameRow, actions: list[tuple[int, str, str | None]]) -> StoredGame:
    record = Record(
        row.game, row.options, row.seed, None, [(a[0], a[1]) for a in actions], row.result
    )
    return StoredGame(
        row.id,
        row.room_id,
        row.number,
        record,
        row.finished is not None,
        row.public_id,
        row.players,
        row.quarantined,
        {i: a[2] for i, a in enumerate(actions) if a[2] is not None},
    )


def now() -> float:
    return time.time()


def default_url(directory: str | Path = ".") -> str:
    return f"sqlite:///{Path(directory) / 'yamen.db'}"


def read_scores(stored: list[int | str] | None, seats: int) -> list[Fraction]:
    """A room's stored match totals (RoomRow.scores), exact; zeros before any game finished."""
    if stored is None:
        return [Fraction(0)] * seats
    return [Fraction(score) for score in stored]
