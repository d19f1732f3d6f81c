"""The SQLite journal writes a batch on the event loop while the file's write lock is free,
and on its own thread, waiting there, while another connection holds it: the loop never waits
for a lock, and no action is lost or refused for it (yamen/server/journal.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

from tests.server.helpers import run
from yamen.server.journal import SqliteAppender
from yamen.server.storage import Store


def row(index: int) -> dict:
    return {"game_id": 1, "index": index, "seat": 0, "text": "pass", "at": 0.0, "stand_in": None}


async def stored_game(path) -> Store:
    store = Store(f"sqlite:///{path}")
    await store.open()
    async with store.engine.begin() as conn:  # a game row for the actions to belong to
        await conn.exec_driver_sql("INSERT INTO players VALUES ('p', 'P', 'h', 0)")
        await conn.exec_driver_sql(
            "INSERT INTO rooms VALUES ('r', 'baohuang', '{}', 1, 'i', 'p', '{}', 0, NULL)"
        )
        await conn.exec_driver_sql(
            "INSERT INTO games (id, public_id, room_id, number, game, options, seed, started) "
            "VALUES (1, 'g1', 'r', 1, 'baohuang', '{}', 1, 0)"
        )
    return store


def test_a_batch_is_written_on_the_loop_when_free_and_on_the_thread_when_locked(tmp_path):
    path = tmp_path / "j.db"

    async def go():
        store = await stored_game(path)
        appender = SqliteAppender(str(path))
        threads = []
        write = appender._write
        appender._write = lambda rows: (
            threads.append(threading.current_thread().name),
            write(rows),
        )[1]
        await appender.insert([row(0)])  # the lock is free: written here, no thread
        free = list(threads)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        pending = asyncio.ensure_future(appender.insert([row(1), row(2)]))
        ticks = 0
        for _ in range(20):  # the loop goes on meanwhile
            await asyncio.sleep(0.01)
            ticks += 1
        waited = not pending.done()
        holder.execute("COMMIT")
        await pending
        holder.close()
        appender.close()
        await store.close()
        return free, threads, ticks, waited

    free, threads, ticks, waited = run(go())
    assert free == []
    assert waited and ticks == 20
    assert len(threads) == 1 and threads[0].startswith("journal")
    stored = sqlite3.connect(path).execute('SELECT "index" FROM actions ORDER BY 1').fetchall()
    assert stored == [(0,), (1,), (2,)]  # none lost, in order


def test_the_wal_is_checkpointed_on_the_thread_every_so_many_batches(tmp_path, monkeypatch):
    path = tmp_path / "c.db"
    monkeypatch.setattr(SqliteAppender, "CHECKPOINT", 3)

    async def go():
        store = await stored_game(path)
        appender = SqliteAppender(str(path))
        checkpoints = []
        checkpoint = appender._checkpoint
        appender._checkpoint = lambda: (
            checkpoints.append(threading.current_thread().name),
            checkpoint(),
        )[1]
        for index in range(7):
            await appender.insert([row(index)])
        appender.close()  # waits for the thread's work
        await store.close()
        return checkpoints

    checkpoints = run(go())
    assert len(checkpoints) == 2 and all(name.startswith("journal") for name in checkpoints)
