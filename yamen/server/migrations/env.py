"""Alembic environment: migrations always run on the connection the server hands over
(yamen/server/migrate.py), never on a URL of their own."""

from alembic import context

from yamen.server.tables import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
