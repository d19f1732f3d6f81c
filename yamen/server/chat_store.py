"""Rooms' chat lines in the database, kept within bounds (yamen/server/chat.py sets them, and
keeps each room's latest lines in memory).

A room's lines are cut as each is stored, in the same transaction, by a delete that reads at
most the room's kept lines (by its index); the sweep of every room's old lines goes by the
index on their time, a batch a transaction. These are :class:`~yamen.server.storage.Store`'s
queries about chat: a mixin, so that the rest of the server asks the one Store, which owns the
connection.
"""

from __future__ import annotations

import time

from sqlalchemy import delete, false, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from yamen.server.tables import ChatRow


class ChatQueries:
    """The chat's queries of :class:`~yamen.server.storage.Store` (which owns ``session``)."""

    session: async_sessionmaker[AsyncSession]

    async def add_chat(
        self, room_id: str, player_id: str, text: str, keep: int, since: float | None = None
    ) -> float:
        """Store a line (its time), and in the same transaction let the room keep only its
        latest ``keep`` lines, none from before ``since``: at most ``keep`` rows of the room's
        read (its index), whatever its history."""
        at = time.time()
        async with self.session.begin() as s:
            s.add(ChatRow(room_id=room_id, player_id=player_id, text=text, at=at))
            await s.flush()
            oldest_kept = (
                select(ChatRow.id)
                .where(ChatRow.room_id == room_id)
                .order_by(ChatRow.id.desc())
                .offset(keep - 1)
                .limit(1)
                .scalar_subquery()
            )
            too_old = ChatRow.at < since if since is not None else false()
            await s.execute(
                delete(ChatRow).where(
                    ChatRow.room_id == room_id, or_(ChatRow.id < oldest_kept, too_old)
                )
            )
        return at

    async def drop_chat_before(self, before: float, batch: int = 1000) -> int:
        """Delete every room's chat lines from before ``before`` (by the index on their time),
        ``batch`` rows a transaction; how many."""
        dropped = 0
        while True:
            async with self.session.begin() as s:
                old = select(ChatRow.id).where(ChatRow.at < before).limit(batch)
                ids = list(await s.scalars(old))
                if ids:
                    await s.execute(delete(ChatRow).where(ChatRow.id.in_(ids)))
            dropped += len(ids)
            if len(ids) < batch:
                return dropped

    async def chat(self, room_id: str, limit: int) -> list[tuple[str, str, float]]:
        """The room's latest chat lines, oldest first: (player id, text, time)."""
        async with self.session() as s:
            rows = await s.execute(
                select(ChatRow.player_id, ChatRow.text, ChatRow.at)
                .where(ChatRow.room_id == room_id)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            )
            return [(player, line, at) for player, line, at in reversed(rows.all())]
