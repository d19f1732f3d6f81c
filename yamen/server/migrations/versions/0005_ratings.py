"""outcomes and ratings: each seat of a rated game, and OpenSkill ratings per game

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outcomes",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("who", sa.String(length=48), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("stand_in", sa.Boolean(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=False),
    )
    op.create_index("ix_outcomes_who", "outcomes", ["who"])
    op.create_table(
        "ratings",
        sa.Column("who", sa.String(length=48), primary_key=True),
        sa.Column("game", sa.String(length=40), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_index("ix_outcomes_who", table_name="outcomes")
    op.drop_table("outcomes")
