"""Guest identity: a display name and a secret token.

The token (256 random bits) is shown once, kept by the client and sent with every seat action
and on reconnect; the server stores only its hash (yamen/server/player_store.py).
"""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass

from yamen.server.storage import Store

NAME_LIMIT = 40
# A deleted account's player is named DELETED (yamen/wire.py): clean_name never gives it.


@dataclass(frozen=True)
class Player:
    id: str
    name: str


# Letters and symbols that draw nothing: a name made of them looks empty (or like another's).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")


def visible(ch: str) -> bool:
    """Whether a character draws something of its own: not a space or separator (Z*), not a
    control, format or unassigned code point (C*), not a mark that only decorates the
    character before it (Mn, Me), and not a known blank letter (Hangul fillers, Braille blank)."""
    category = unicodedata.category(ch)
    return category[0] not in "ZC" and category not in ("Mn", "Me") and ch not in BLANKS


def clean_name(name: str) -> str:
    """A display name as shown to others: trimmed, control and formatting characters refused
    (bidi overrides and isolates among them: they let a name pose as another), and at least
    one visible character."""
    name = " ".join(name.split())
    if len(name) > NAME_LIMIT:
        raise ValueError(f"a name has at most {NAME_LIMIT} characters")
    if any(not ch.isprintable() for ch in name):
        raise ValueError("a name cannot hold control or formatting characters")
    if not any(visible(ch) for ch in name):
        raise ValueError("a name must have at least one visible character")
    return name


def same_secret(given: str, secret: str) -> bool:
    """Whether ``given`` is ``secret`` (an invite code), in constant time; any text may be
    given (``compare_digest`` refuses non-ASCII strings, so both are compared as bytes)."""
    return secrets.compare_digest(given.encode(), secret.encode())


def admits(
    player: str | None, invite: str | None, *, public: bool, host: str, code: str, seated: bool
) -> bool:
    """Whether a room lets ``player`` (None: nobody signed in), giving ``invite``, watch it (and
    so join it): anyone when it is public; else its host, a player seated in it, or whoever
    gives its invite ``code``. Local rooms and rooms another process owns ask this alike."""
    return public or player == host or seated or (invite is not None and same_secret(invite, code))


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
