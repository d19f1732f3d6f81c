"""Accounts and their sessions in the database (yamen/server/tables.py: AccountRow, SessionRow).

A claimed account keeps its player: the guest's token moves into ``sessions`` (so it can be
revoked like any other), and the player's own ``token_hash`` becomes the hash of a secret
nobody holds. Every token is stored as its sha256 only (player_store.token_hash).
"""

from __future__ import annotations

import secrets
import time

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from yamen.server.friend_store import forget
from yamen.server.player_store import token_hash
from yamen.server.storage import Store
from yamen.server.tables import AccountRow, PlayerRow, SessionRow
from yamen.wire import DELETED

ANONYMOUS = DELETED  # the name a deleted account's games show: each client words it


def nobodys_hash() -> str:
    """The hash of a token drawn and thrown away: it lets nobody in."""
    return token_hash(secrets.token_urlsafe(32))


async def account(store: Store, player_id: str) -> AccountRow | None:
    async with store.session() as s:
        return await s.get(AccountRow, player_id)


async def account_by_key(store: Store, name_key: str) -> AccountRow | None:
    async with store.session() as s:
        return await s.scalar(select(AccountRow).where(AccountRow.name_key == name_key))


async def add_account(
    store: Store, player_id: str, name: str, name_key: str, password_hash: str
) -> bool:
    """The player's account; False (nothing changed) when the name is taken or the player has
    one already. The guest token the player used becomes the account's first session."""
    try:
        async with store.session.begin() as s:
            player = await s.get(PlayerRow, player_id)
            assert player is not None
            s.add(
                AccountRow(
                    player_id=player_id,
                    name=name,
                    name_key=name_key,
                    password_hash=password_hash,
                    created=time.time(),
                )
            )
            s.add(
                SessionRow(token_hash=player.token_hash, player_id=player_id, created=time.time())
            )
            player.token_hash = nobodys_hash()
    except IntegrityError:
        return False
    return True


async def add_session(store: Store, player_id: str, token: str) -> None:
    async with store.session.begin() as s:
        s.add(SessionRow(token_hash=token_hash(token), player_id=player_id, created=time.time()))


async def revoke(store: Store, player_id: str, token: str) -> None:
    async with store.session.begin() as s:
        await s.execute(
            delete(SessionRow).where(
                SessionRow.player_id == player_id, SessionRow.token_hash == token_hash(token)
            )
        )


async def revoke_all(store: Store, player_id: str, keep: str | None = None) -> None:
    """Every session of the player, but the one of token ``keep``."""
    query = delete(SessionRow).where(SessionRow.player_id == player_id)
    if keep is not None:
        query = query.where(SessionRow.token_hash != token_hash(keep))
    async with store.session.begin() as s:
        await s.execute(query)


async def set_password(store: Store, player_id: str, password_hash: str) -> None:
    async with store.session.begin() as s:
        await s.execute(
            update(AccountRow)
            .where(AccountRow.player_id == player_id)
            .values(password_hash=password_hash)
        )


async def delete_account(store: Store, player_id: str) -> None:
    """Credentials and sessions gone, and the account's follows, presence and invites
    (friend_store.forget); the player (and so their games) stays, named ANONYMOUS, with no
    token that works."""
    async with store.session.begin() as s:
        await forget(s, player_id)
        await s.execute(delete(SessionRow).where(SessionRow.player_id == player_id))
        await s.execute(delete(AccountRow).where(AccountRow.player_id == player_id))
        await s.execute(
            update(PlayerRow)
            .where(PlayerRow.id == player_id)
            .values(name=ANONYMOUS, token_hash=nobodys_hash())
        )
