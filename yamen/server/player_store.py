"""Players in the database: a player's row, the player a token belongs to, and players' names.

A player is whoever sits at tables, a guest or an account's (yamen/server/account_store.py holds
accounts and their sessions). Every token is stored as its sha256 only (:func:`token_hash`).
These are :class:`~yamen.server.storage.Store`'s queries about players: a mixin, so that the
rest of the server asks the one Store, which owns the connection.
"""

from __future__ import annotations

import hashlib
import time

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from yamen.server.tables import PlayerRow, SessionRow


def token_hash(token: str) -> str:
    """Tokens are stored hashed: a leaked database does not let anyone act as a player."""
    return hashlib.sha256(token.encode()).hexdigest()


class PlayerQueries:
    """The players' queries of :class:`~yamen.server.storage.Store` (which owns ``session``)."""

    session: async_sessionmaker[AsyncSession]

    async def add_player(self, player_id: str, name: str, token: str) -> None:
        async with self.session.begin() as s:
            s.add(
                PlayerRow(
                    id=player_id, name=name, token_hash=token_hash(token), created=time.time()
                )
            )

    async def player_by_token(self, token: str) -> PlayerRow | None:
        """A guest's own token, or a session of an account (yamen/server/account_store.py)."""
        digest = token_hash(token)
        async with self.session() as s:
            found = await s.scalar(select(PlayerRow).where(PlayerRow.token_hash == digest))
            if found is None:
                found = await s.scalar(
                    select(PlayerRow)
                    .join(SessionRow, SessionRow.player_id == PlayerRow.id)
                    .where(SessionRow.token_hash == digest)
                )
            return found

    async def players(self, ids: list[str]) -> dict[str, str]:
        """Display names by player id."""
        if not ids:
            return {}
        async with self.session() as s:
            rows = await s.execute(
                select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id.in_(ids))
            )
            return {row[0]: row[1] for row in rows}
