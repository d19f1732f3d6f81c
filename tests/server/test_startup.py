"""Start-up: a database the server cannot use stops it at once, with a clear message and a
non-zero exit (not "serving" and then a failure on every write), and one game whose log cannot
be replayed is set aside, its room closed, while every other room runs."""

from __future__ import annotations

import asyncio
import logging
import random
import subprocess
import sys

import pytest
import sqlalchemy as sa

from tests.server.helpers import POSTGRES, ServerThread, database, free_port
from yamen.engine import get_game
from yamen.records import Recorder
from yamen.selfplay import play_random
from yamen.server import match as match_module
from yamen.server.operations import Start
from yamen.server.registry import Rooms
from yamen.server.rooms import RoomError
from yamen.server.storage import StartupError, Store


def run(coro):
    return asyncio.run(coro)


async def new_database(url: str) -> None:
    store = Store(url)
    await store.open()
    await store.close()


async def execute(url: str, sql: str) -> None:
    store = Store(url)
    async with store.engine.begin() as conn:
        await conn.execute(sa.text(sql))
    await store.engine.dispose()


async def opened(url: str) -> str | None:
    """The start-up refusal, or None when the database is fine."""
    store = Store(url)
    try:
        await store.open()
    except StartupError as exc:
        return str(exc)
    finally:
        await store.engine.dispose()
    return None


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_database_missing_a_column_is_refused_at_start(kind, tmp_path):
    with database(kind, tmp_path) as url:
        run(new_database(url))
        assert run(opened(url)) is None
        run(execute(url, "ALTER TABLE chat DROP COLUMN text"))  # (at: indexed, not dropped)
        problem = run(opened(url))
    assert problem is not None and "table chat lacks column(s) text" in problem


def test_a_read_only_sqlite_file_is_refused_at_start(tmp_path):
    path = tmp_path / "yamen.db"
    run(new_database(f"sqlite:///{path}"))
    problem = run(opened(f"sqlite:///file:{path}?mode=ro&uri=true"))
    assert problem is not None and "takes no writes" in problem and "readonly" in problem


def test_a_read_only_postgres_database_is_refused_at_start(tmp_path):
    with database("postgres", tmp_path) as url:
        run(new_database(url))
        name = url.rsplit("/", 1)[1]
        run(execute(POSTGRES, f"ALTER DATABASE {name} SET default_transaction_read_only = on"))
        problem = run(opened(url))
    assert problem is not None and "takes no writes" in problem and "read-only" in problem


def test_yamen_serve_exits_with_the_reason(tmp_path):
    path = tmp_path / "yamen.db"
    run(new_database(f"sqlite:///{path}"))
    run(execute(f"sqlite:///{path}", "ALTER TABLE games DROP COLUMN seed"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "yamen",
            "serve",
            "--port",
            str(free_port()),
            "--db",
            f"sqlite:///{path}",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "serving" not in done.stdout
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("yamen serve: cannot start:") and "games lacks column(s) seed" in last


async def room_with_a_broken_game(url: str) -> tuple[str, str, int]:
    """Two rooms with a game in progress: the first one's log holds an action that cannot be
    replayed (written behind the server's back). Their ids and the broken game's id."""
    store = Store(url)
    await store.open()
    await store.add_player("p", "P", "token")
    ids = []
    for broken in (True, False):
        room = await Rooms(store).create("p", get_game("bao_qingtian", {"players": 3}), True, None)
        for seat in range(3):
            await store.set_seat(room.id, seat, None, "random")
        recorder = Recorder("bao_qingtian", room.options, seed=4)
        play_random(recorder, random.Random(4), max_decisions=3)
        game_id = await store.add_game(room.id, 1, recorder.record)
        actions = list(recorder.record.actions)
        if broken:
            actions.append((actions[-1][0], "no such action"))
        for index, (seat, text) in enumerate(actions):
            await store.journal.append(game_id, index, seat, text)
        ids.append((room.id, game_id))
    await store.close()
    (bad, bad_game), (good, _) = ids
    return bad, good, bad_game


def test_an_unreplayable_game_is_set_aside_and_its_room_closed(tmp_path, caplog, monkeypatch):
    url = f"sqlite:///{tmp_path / 'yamen.db'}"
    bad, good, bad_game = run(room_with_a_broken_game(url))

    async def start_twice():
        seen = []
        for _ in range(2):
            store = Store(url)
            await store.open()
            rooms = Rooms(store)
            await rooms.resume()
            room, other = await rooms.get(bad), await rooms.get(good)
            with pytest.raises(RoomError) as refused:
                await room.run(Start("p"))
            stored = await store.game(bad_game)
            seen.append((room.status, other.status, refused.value.code, stored.quarantined))
            await rooms.close()
            await store.close()
        return seen

    replayed = []
    steps = match_module.steps  # a game is replayed step by step (its log kept for the room)
    monkeypatch.setattr(
        match_module, "steps", lambda record, state: replayed.append(1) or steps(record, state)
    )
    with caplog.at_level(logging.ERROR, logger="yamen.server.loading"):
        first, second = run(start_twice())
    assert first[:3] == ("closed", "playing", "closed") and "no such action" in first[3]
    assert second == first
    assert len(replayed) == 3  # the broken game once, the good one each time: never again
    assert any(bad in r.getMessage() and str(bad_game) in r.getMessage() for r in caplog.records)


def test_a_server_starts_beside_an_unreplayable_game(tmp_path):
    import httpx

    url = f"sqlite:///{tmp_path / 'yamen.db'}"
    bad, good, _ = run(room_with_a_broken_game(url))
    with ServerThread(url) as server:
        statuses = [httpx.get(f"{server.url}/api/rooms/{r}").json()["status"] for r in (bad, good)]
    assert statuses == ["closed", "playing"]
