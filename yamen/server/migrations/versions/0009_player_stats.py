"""player figures kept as games are rated (player_stats), filled from the outcomes stored so
far; the outcomes indexed by (who, finished) for a player's last games, newest first

Revision ID: 0009
Revises: 0008
"""

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

BATCH = 500  # games read at once while filling the figures

outcomes = sa.table(
    "outcomes",
    sa.column("game_id", sa.Integer()),
    sa.column("seat", sa.Integer()),
    sa.column("who", sa.String()),
    sa.column("game", sa.String()),
    sa.column("place", sa.Integer()),
    sa.column("score", sa.Float()),
    sa.column("won", sa.Boolean()),
    sa.column("finished", sa.Float()),
)
games = sa.table("games", sa.column("id", sa.Integer()), sa.column("result", sa.JSON()))


def upgrade() -> None:
    stats = op.create_table(
        "player_stats",
        sa.Column("who", sa.String(length=48), primary_key=True),
        sa.Column("game", sa.String(length=40), primary_key=True),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("points", sa.Text(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("last", sa.Float(), nullable=False),
    )
    op.create_index("ix_outcomes_who_finished", "outcomes", ["who", "finished", "game_id", "seat"])
    op.drop_index("ix_outcomes_who", table_name="outcomes")
    rows = list(_figures(op.get_bind()))
    for start in range(0, len(rows), BATCH):
        op.bulk_insert(stats, rows[start : start + BATCH])


def _figures(conn: Any) -> Iterator[dict[str, Any]]:
    """Every (who, game)'s figures from the outcomes stored, as yamen/server/ratings.py
    counts them: the exact scores are the games' results' (an outcome keeps a float)."""
    totals: dict[tuple[str, str], dict[str, Any]] = {}
    after = -1
    while True:
        ids = list(
            conn.scalars(
                sa.select(outcomes.c.game_id)
                .where(outcomes.c.game_id > after)
                .group_by(outcomes.c.game_id)
                .order_by(outcomes.c.game_id)
                .limit(BATCH)
            )
        )
        if not ids:
            break
        after = ids[-1]
        found = conn.execute(sa.select(games.c.id, games.c.result).where(games.c.id.in_(ids)))
        results = {game_id: result for game_id, result in found}
        for o in conn.execute(sa.select(outcomes).where(outcomes.c.game_id.in_(ids))):
            row = totals.setdefault(
                (o.who, o.game),
                {
                    "who": o.who,
                    "game": o.game,
                    "played": 0,
                    "wins": 0,
                    "points": Fraction(0),
                    "places": {},
                    "last": o.finished,
                },
            )
            row["played"] += 1
            row["wins"] += bool(o.won)
            row["points"] += _score(results.get(o.game_id), o.seat, o.score)
            row["places"][str(o.place)] = row["places"].get(str(o.place), 0) + 1
            row["last"] = max(row["last"], o.finished)
    for row in totals.values():
        yield {**row, "points": str(row["points"])}


def _score(result: Any, seat: int, stored: float) -> Fraction:
    """The seat's exact score in the game's result; the outcome's float where that is gone."""
    try:
        return Fraction(str(result["scores"][seat]))
    except (KeyError, IndexError, TypeError, ValueError):
        return Fraction(stored)


def downgrade() -> None:
    op.create_index("ix_outcomes_who", "outcomes", ["who"])
    op.drop_index("ix_outcomes_who_finished", table_name="outcomes")
    op.drop_table("player_stats")
