"""The Alembic migrations build exactly the schema the models describe (no drift), and running
them twice changes nothing."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from yamen.server.migrate import upgrade
from yamen.server.storage import Base


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
