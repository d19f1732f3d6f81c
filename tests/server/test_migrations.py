"""The Alembic migrations build exactly the schema the models describe (no drift), and running
them twice changes nothing."""

from __future__ import annotations

import asyncio

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
    ("0007", {"player_stats"}),
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
