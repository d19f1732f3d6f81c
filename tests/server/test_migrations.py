"""The Alembic migrations build exactly the schema the models describe (no drift), and running
them twice changes nothing."""

from __future__ import annotations

import asyncio
import json
from fractions import Fraction

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine

from tests.server.helpers import database
from yamen.server.migrate import config, upgrade
from yamen.server.storage import async_url
from yamen.server.tables import Base


def test_migrations_match_the_models(tmp_path):
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'm.db'}")
    with engine.begin() as conn:
        upgrade(conn)
    with engine.begin() as conn:
        upgrade(conn)  # already at head: nothing to do
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        tables = set(sa.inspect(conn).get_table_names())
    assert diff == []
    assert {"players", "rooms", "seats", "games", "actions", "chat"} <= tables


def _at_0001_with_a_game(conn) -> None:
    command.upgrade(config(conn), "0001")
    conn.execute(sa.text("INSERT INTO players VALUES ('p', 'Ann', 'h', 0)"))
    conn.execute(
        sa.text("INSERT INTO rooms VALUES ('r', 'baohuang', '{}', true, 'i', 'p', '{}', 0)")
    )
    for number in (1, 2):
        conn.execute(
            sa.text(
                "INSERT INTO games (room_id, number, game, options, seed, started) "
                f"VALUES ('r', {number}, 'baohuang', '{{}}', 7, 0)"
            )
        )


def _public_ids(conn) -> list[str]:
    upgrade(conn)
    return [row[0] for row in conn.execute(sa.text("SELECT public_id FROM games ORDER BY id"))]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_games_stored_before_public_ids_get_one(kind, tmp_path):
    async def go(url):
        engine = create_async_engine(async_url(url))
        try:
            async with engine.begin() as conn:
                await conn.run_sync(_at_0001_with_a_game)
            async with engine.begin() as conn:
                return await conn.run_sync(_public_ids)
        finally:
            await engine.dispose()

    with database(kind, tmp_path) as url:
        ids = asyncio.run(go(url))
    assert len(ids) == 2 and len(set(ids)) == 2
    assert all(len(i) >= 12 and not i.isdigit() for i in ids)


def _down_and_up(conn, before: str) -> list[set[str]]:
    """The tables at the head, after going down to ``before``, and at the head again."""
    upgrade(conn)
    conn.execute(sa.text("INSERT INTO players VALUES ('p', 'Ann', 'h', 0)"))
    seen = [set(sa.inspect(conn).get_table_names())]
    command.downgrade(config(conn), before)
    seen.append(set(sa.inspect(conn).get_table_names()))
    upgrade(conn)
    seen.append(set(sa.inspect(conn).get_table_names()))
    return seen


# each later migration goes down and up again: its tables go, the older ones stay, all come back
LATER = [
    ("0004", {"outcomes", "ratings"}),
    ("0005", {"accounts", "sessions"}),
    ("0006", {"analyses"}),
    ("0008", {"player_stats"}),
    ("0010", {"follows", "presence", "invites"}),
]


@pytest.mark.parametrize(("before", "tables"), LATER)
@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_migration_goes_down_and_up_again(kind, before, tables, tmp_path):
    async def go(url):
        engine = create_async_engine(async_url(url))
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(_down_and_up, before)
        finally:
            await engine.dispose()

    with database(kind, tmp_path) as url:
        head, down, up = asyncio.run(go(url))
    assert tables <= head and tables <= up
    assert not tables & down and "players" in down


def _totals_after_0008(conn) -> dict[str, object]:
    """Rooms stored at 0007 with finished games: 0008 adds up each match's totals from the
    games' stored results, in order, up to the first game set aside."""
    command.upgrade(config(conn), "0007")
    conn.execute(sa.text("INSERT INTO players VALUES ('p', 'Ann', 'h', 0)"))
    games = {  # room -> each game's (result's scores, finished, set aside)
        "a": [(["1/3", -2], 1.0, None), ([2, "-5/3"], 2.0, None), (None, None, None)],
        "b": [([1, 1], 1.0, None), (None, None, "bad log"), ([7, 7], 3.0, None)],
        "c": [(None, None, None)],
    }
    for room, played in games.items():
        values = f"('{room}', 'baohuang', '{{}}', true, 'i', 'p', '{{}}', 0)"
        conn.execute(sa.text(f"INSERT INTO rooms VALUES {values}"))
        for number, (scores, finished, aside) in enumerate(played, 1):
            result = None if scores is None else json.dumps({"scores": scores, "places": []})
            conn.execute(
                sa.text(
                    "INSERT INTO games (public_id, room_id, number, game, options, seed, "
                    "started, result, finished, quarantined) VALUES (:pid, :room, :number, "
                    "'baohuang', '{}', 7, 0, :result, :finished, :aside)"
                ),
                {
                    "pid": f"{room}{number}",
                    "room": room,
                    "number": number,
                    "result": result,
                    "finished": finished,
                    "aside": aside,
                },
            )
    upgrade(conn)
    rows = conn.execute(sa.text("SELECT id, scores FROM rooms ORDER BY id"))
    return {room: json.loads(s) if isinstance(s, str) else s for room, s in rows}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_match_totals_are_added_up_for_rooms_stored_before(kind, tmp_path):
    async def go(url):
        engine = create_async_engine(async_url(url))
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(_totals_after_0008)
        finally:
            await engine.dispose()

    with database(kind, tmp_path) as url:
        totals = asyncio.run(go(url))
    assert totals == {"a": ["7/3", "-11/3"], "b": [1, 1], "c": None}
    assert [Fraction(s) for s in totals["a"]] == [Fraction(1, 3) + 2, -2 - Fraction(5, 3)]
