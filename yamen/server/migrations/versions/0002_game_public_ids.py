"""games: a random public id, who sat in each seat, and quarantine

Revision ID: 0002
Revises: 0001
"""

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("public_id", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("players", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("quarantined", sa.Text(), nullable=True))
    # games stored before this revision get a public id of their own
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("public_id", sa.String))
    conn = op.get_bind()
    for (game_id,) in conn.execute(sa.select(games.c.id)).all():
        conn.execute(
            games.update().where(games.c.id == game_id).values(public_id=secrets.token_urlsafe(9))
        )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.alter_column("public_id", existing_type=sa.String(length=16), nullable=False)
        batch_op.create_index(batch_op.f("ix_games_public_id"), ["public_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_public_id"))
        batch_op.drop_column("quarantined")
        batch_op.drop_column("players")
        batch_op.drop_column("public_id")
