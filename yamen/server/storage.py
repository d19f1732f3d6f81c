"""Where the server keeps rooms, seats, players and every game's action log (SQLAlchemy 2).

SQLite by default (one file, nothing to set up), PostgreSQL by URL; the schema is created and
upgraded by Alembic migrations (yamen/server/migrations/) from the models in
yamen/server/tables.py. :class:`Store` is the database as one server process holds it: it
opens it (and refuses to start on one it cannot serve), keeps the site's facts, and is the one
object the rest of the server asks. Its queries are grouped by what they are about, a module
each: players (player_store.py), rooms and seats (room_store.py), games and their actions
(game_store.py), chat (chat_store.py). Actions are written through its journal
(yamen/server/journal.py); accounts and sessions are yamen/server/account_store.py's.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from yamen.errors import YamenError
from yamen.server.chat_store import ChatQueries
from yamen.server.game_store import GameQueries
from yamen.server.journal import Conflict, Fence, Journal, SqliteAppender, sqlite_pragmas
from yamen.server.metrics import Metrics
from yamen.server.player_store import PlayerQueries
from yamen.server.room_store import RoomQueries
from yamen.server.tables import SiteRow, schema_problems

CLUSTER_PREFIX = "cluster_prefix"  # the site fact naming the cluster that runs the database


class StartupError(YamenError):
    """The database cannot serve: the server refuses to start, and says why."""


def _reason(exc: Exception) -> str:
    return str(getattr(exc, "orig", None) or exc).splitlines()[0]


def async_url(url: str) -> str:
    """The async driver for a plain URL: ``sqlite:///f.db`` and ``postgresql://...`` work."""
    for plain, driver in (
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://", "postgresql+asyncpg://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


class Store(PlayerQueries, RoomQueries, GameQueries, ChatQueries):
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
        self.metrics: Metrics | None = None  # a registry of rooms gives its own

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


def default_url(directory: str | Path = ".") -> str:
    return f"sqlite:///{Path(directory) / 'yamen.db'}"
