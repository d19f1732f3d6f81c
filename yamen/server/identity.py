"""Guest identity: a display name and a secret token.

The token (256 random bits) is shown once, kept by the client and sent with every seat action
and on reconnect; the server stores only its hash (yamen/server/storage.py).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from yamen.server.storage import Store

NAME_LIMIT = 40


@dataclass(frozen=True)
class Player:
    id: str
    name: str


def clean_name(name: str) -> str:
    """A display name as shown to others: trimmed, control characters refused."""
    name = " ".join(name.split())
    if not name:
        raise ValueError("a name must have at least one visible character")
    if len(name) > NAME_LIMIT:
        raise ValueError(f"a name has at most {NAME_LIMIT} characters")
    if any(not ch.isprintable() for ch in name):
        raise ValueError("a name cannot hold control characters")
    return name


async def new_guest(store: Store, name: str) -> tuple[Player, str]:
    player = Player(secrets.token_hex(16), clean_name(name))
    token = secrets.token_urlsafe(32)
    await store.add_player(player.id, player.name, token)
    return player, token


async def player_of(store: Store, token: str | None) -> Player | None:
    """The player a token belongs to; None for a missing or forged token."""
    if not token:
        return None
    row = await store.player_by_token(token)
    return None if row is None else Player(row.id, row.name)
