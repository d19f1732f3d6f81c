"""Databases for server tests: a SQLite file always; a fresh PostgreSQL database when a server
is reachable (as on the CI machine), else a skip that says why."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

POSTGRES = os.environ.get("YAMEN_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """The URL of a new, empty database on the PostgreSQL server, dropped afterwards."""
    name = f"yamen_test_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f"CREATE DATABASE {name}"))
    except (TimeoutError, OSError, ImportError) as exc:
        pytest.skip(f"no PostgreSQL at {POSTGRES} ({type(exc).__name__}: {exc})")
    base = POSTGRES.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@contextmanager
def database(kind: str, tmp_path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'yamen.db'}"
    else:
        with fresh_postgres() as url:
            yield url
