"""rooms.scores: a room's match totals, stored with each game's result

A room was loaded by replaying every game of its match to add up its totals; it is now loaded
from these totals and its last game only (yamen/server/loading.py). The totals of rooms stored
before are added up here from their finished games' stored results (exact: each score an int
or "n/d"), as the old loader did: in the match's order, up to its first game set aside.

Revision ID: 0008
Revises: 0007
"""

import json
from fractions import Fraction

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _score_json(score: Fraction) -> int | str:
    return score.numerator if score.denominator == 1 else str(score)


def upgrade() -> None:
    op.add_column("rooms", sa.Column("scores", sa.JSON(), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(
        sa.text("SELECT room_id, result, finished, quarantined FROM games ORDER BY room_id, number")
    )
    totals: dict[str, list[Fraction]] = {}
    closed: set[str] = set()  # rooms past their first game set aside
    for room_id, result, finished, quarantined in rows:
        if quarantined is not None:
            closed.add(room_id)
        if room_id in closed or finished is None or result is None:
            continue
        scores = (json.loads(result) if isinstance(result, str) else result)["scores"]
        before = totals.get(room_id) or [Fraction(0)] * len(scores)
        totals[room_id] = [a + Fraction(b) for a, b in zip(before, scores, strict=True)]
    scores_of = sa.table("rooms", sa.column("id", sa.String), sa.column("scores", sa.JSON))
    for room_id, total in totals.items():
        conn.execute(
            scores_of.update()
            .where(scores_of.c.id == room_id)
            .values(scores=[_score_json(score) for score in total])
        )


def downgrade() -> None:
    op.drop_column("rooms", "scores")
