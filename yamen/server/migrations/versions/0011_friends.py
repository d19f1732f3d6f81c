"""friends: who follows whom, when each player was last seen and where, invites to a room

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("follower", sa.String(length=32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("followed", sa.String(length=32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_index("ix_follows_follower_created", "follows", ["follower", "created", "followed"])
    op.create_index("ix_follows_followed_created", "follows", ["followed", "created", "follower"])
    op.create_table(
        "presence",
        sa.Column("player_id", sa.String(length=32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("seen", sa.Float(), nullable=False),
        sa.Column("room_id", sa.String(length=16), nullable=True),
    )
    op.create_table(
        "invites",
        sa.Column("id", sa.String(length=24), primary_key=True),
        sa.Column("sender", sa.String(length=32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("receiver", sa.String(length=32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("room_id", sa.String(length=16), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("expires", sa.Float(), nullable=False),
        sa.Column("answered", sa.Float(), nullable=True),
    )
    op.create_index("ix_invites_created", "invites", ["created"])
    op.create_index("ix_invites_receiver_expires", "invites", ["receiver", "expires"])
    op.create_index("ix_invites_sender_created", "invites", ["sender", "created"])


def downgrade() -> None:
    op.drop_table("invites")
    op.drop_table("presence")
    op.drop_table("follows")
