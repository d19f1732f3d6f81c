"""Alembic, run from inside the server: the schema is created or upgraded when a server opens
its database, so nobody runs a migration by hand (several processes starting together take
turns under a Redis lock: yamen/server/cluster/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config

SCRIPTS = Path(__file__).with_name("migrations")


def config(connection: Any = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(connection: Any) -> None:
    """Bring the database on ``connection`` (a synchronous SQLAlchemy connection) to head."""
    command.upgrade(config(connection), "head")
