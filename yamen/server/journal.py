"""The action journal: every action of every game is written here before anyone hears of it.

:class:`Journal` commits whatever arrived while the previous commit ran in one transaction (group
commit): each caller still waits for its own action to be durable, and a busy server pays one
commit per batch instead of one per action. A batch that fails is written again one action at a
time, so that only the action at fault is refused.

A process of a cluster gives its journal a *fence* (may this process write this game now?) and
a *conflict* callback (another writer stored this action first: the actions table's primary key
refused it); a lone server gives neither (yamen/server/cluster/).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError

from yamen.errors import YamenError
from yamen.server.tables import ActionRow

if TYPE_CHECKING:
    from yamen.server.storage import Store

Fence = Callable[[int], bool]  # game id -> whether this process may write its actions now
Conflict = Callable[[int], None]  # game id: another writer stored one of its actions first

HOLD_ENV = "YAMEN_TEST_HOLD_COMMITS"
"""Test seam, read at start-up: the path of a file. While that file exists the journal holds
every action it is given before committing it, and adds a line ``game_id index`` for it to
``<file>.held``, so that a test can kill the server between an action's arrival and its
commit and check that nothing was acknowledged or broadcast for it
(tests/server/test_recovery.py). Never set in production."""


class Fenced(YamenError):
    """The journal's fence refused the write: this process cannot be sure it may write the
    game (a cluster's process whose room leases are not confirmed). Nothing was written."""

    def __init__(self) -> None:
        super().__init__("this process cannot confirm that it still owns this room")


class Journal:
    """Appends actions with group commit: ``await append(...)`` returns once the action is
    durable; actions that arrive while a commit runs go together in the next one.

    ``fence`` is asked before an action is taken and again just before each write (the process
    may have been frozen or slow since); ``on_conflict`` hears of each action another writer
    had already stored (a stale owner's write collides with the new owner's)."""

    def __init__(
        self, store: Store, fence: Fence | None = None, on_conflict: Conflict | None = None
    ):
        self.store = store
        self.fence = fence
        self.on_conflict = on_conflict
        self.waiting: list[tuple[dict[str, Any], asyncio.Future]] = []
        self.writer: asyncio.Task | None = None
        # A test seam: awaited with each action before it joins a batch to be committed.
        self.before_commit: Callable[[dict[str, Any]], Awaitable[None]] | None = None
        if os.environ.get(HOLD_ENV):
            self.before_commit = hold_while(Path(os.environ[HOLD_ENV]))

    async def append(
        self, game_id: int, index: int, seat: int, text: str, stand_in: str | None = None
    ) -> None:
        """Store action ``index`` of a game (``stand_in``: why the stand-in bot played it
        for a person, if it did); returns once it is durable."""
        if self.fence is not None and not self.fence(game_id):
            self.count("fenced")
            raise Fenced
        future = asyncio.get_running_loop().create_future()
        row = {
            "game_id": game_id,
            "index": index,
            "seat": seat,
            "text": text,
            "at": time.time(),
            "stand_in": stand_in,
        }
        if self.before_commit is not None:
            await self.before_commit(row)
        self.waiting.append((row, future))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write())
        try:
            await future
        except Exception as exc:
            self.count(outcome(exc))
            if isinstance(exc, IntegrityError) and self.on_conflict is not None:
                self.on_conflict(game_id)
            raise
        self.count("stored")

    def count(self, what: str) -> None:
        if self.store.metrics is not None:
            self.store.metrics.actions.labels(what).inc()

    async def _write(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting, []
            try:
                await self._insert([row for row, _ in batch])
            except Exception as exc:
                if len(batch) == 1:
                    _settle(batch[0][1], exc)
                    continue
                for row, future in batch:
                    try:
                        await self._insert([row])
                    except Exception as alone:
                        _settle(future, alone)
                    else:
                        _settle(future, None)
            else:
                for _, future in batch:
                    _settle(future, None)

    async def _insert(self, rows: list[dict[str, Any]]) -> None:
        # Asked again just before the write: the process may have been frozen (SIGSTOP) or
        # slow since the action was taken, and its lease may have moved meanwhile.
        if self.fence is not None and not all(self.fence(row["game_id"]) for row in rows):
            raise Fenced
        if self.store.appender is not None:
            return await self.store.appender.insert(rows)
        # a Core insert: no unit of work to build for rows that are only ever appended
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(ActionRow), rows)

    async def close(self) -> None:
        if self.writer is not None:
            await asyncio.gather(self.writer, return_exceptions=True)


def outcome(exc: Exception) -> str:
    """How a refused action is counted: conflict (another writer had stored that action: the
    log's primary key), fenced (the fence refused it), failed."""
    if isinstance(exc, IntegrityError):
        return "conflict"
    return "fenced" if isinstance(exc, Fenced) else "failed"


def hold_while(path: Path) -> Callable[[dict[str, Any]], Awaitable[None]]:
    held = path.with_name(path.name + ".held")

    async def hold(row: dict[str, Any]) -> None:
        if path.exists():
            with held.open("a") as out:
                out.write(f"{row['game_id']} {row['index']}\n")
        while path.exists():
            await asyncio.sleep(0.01)

    return hold


class SqliteAppender:
    """Appends actions to a SQLite file on connections of their own, a plain ``executemany`` a
    batch: about a seventh of the CPU of an async SQLAlchemy round trip (measured: 0.15 ms
    against 1.15 ms an action), and the journal is the hot path.

    A batch is written on the event loop itself while the file's write lock is free: in WAL
    mode with ``synchronous=NORMAL`` a commit is a write into the WAL, no fsync, tens of
    microseconds, less than the hop to a thread, which cost the event loop about a fifth of an
    action's time and the process about a third (benchmarks/room_cost.py, side by side: 1,107
    to 1,284 actions per CPU-second of the loop against 1,423 to 1,579). When another
    connection holds the lock (a game's result, chat, a migration), the batch goes to this
    appender's thread instead, which waits for it there: the loop never waits on a lock. The
    loop's connection never checkpoints (a checkpoint copies the WAL into the file and syncs
    it); the thread does, every ``CHECKPOINT`` batches, so the WAL stays bounded."""

    SQL = (
        'INSERT INTO actions (game_id, "index", seat, text, at, stand_in) VALUES (?, ?, ?, ?, ?, ?)'
    )
    CHECKPOINT = 500  # batches between two checkpoints of the WAL

    def __init__(self, path: str):
        self.path = path
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="journal")
        self.conn: sqlite3.Connection | None = None  # the thread's
        self.here: sqlite3.Connection | None = None  # the event loop's: never waits for a lock
        self.batches = 0

    def _thread_conn(self) -> sqlite3.Connection:
        if self.conn is None:
            self.conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            sqlite_pragmas(self.conn, None)
        return self.conn

    def _write(self, rows: list[tuple]) -> None:
        """On the thread: waits for the write lock (up to 30 s)."""
        _append(self._thread_conn(), self.SQL, rows)

    def _write_here(self, rows: list[tuple]) -> bool:
        """On the event loop: whether the batch is written (False: the lock is taken)."""
        if self.here is None:
            self.here = sqlite3.connect(self.path, timeout=0, isolation_level=None)
            sqlite_pragmas(self.here, None)
            self.here.execute("PRAGMA wal_autocheckpoint=0")  # the thread's work
        try:
            _append(self.here, self.SQL, rows)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                return False
            raise
        return True

    def _checkpoint(self) -> None:
        """On the thread: what of the WAL no reader still needs goes into the file."""
        self._thread_conn().execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def insert(self, rows: list[dict[str, Any]]) -> None:
        values = [
            (r["game_id"], r["index"], r["seat"], r["text"], r["at"], r["stand_in"]) for r in rows
        ]
        try:
            if not self._write_here(values):
                await asyncio.get_running_loop().run_in_executor(self.thread, self._write, values)
        except sqlite3.IntegrityError as exc:  # as SQLAlchemy would say it, for every caller
            raise IntegrityError(self.SQL, values, exc) from exc
        self.batches += 1
        if self.batches % self.CHECKPOINT == 0:
            self.thread.submit(self._checkpoint)

    def close(self) -> None:
        self.thread.submit(self._close)
        self.thread.shutdown(wait=True)
        if self.here is not None:
            self.here.close()
            self.here = None

    def _close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def _append(conn: sqlite3.Connection, sql: str, rows: list[tuple]) -> None:
    conn.execute("BEGIN IMMEDIATE")  # the write lock first: never a busy upgrade
    try:
        conn.executemany(sql, rows)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers do not block the writer; NORMAL: a commit survives a killed process (the
    # WAL is in the OS's hands) without an fsync per commit.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _settle(future: asyncio.Future, error: Exception | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
