"""What a client of the live protocol shares with the server without importing it.

The server's schemas live in :mod:`yamen.server.protocol` (and need the server's
dependencies); a client needs only the version it speaks.
"""

VERSION = 1
"""The live protocol's version; a client says which it speaks in ``hello``."""

DELETED = ""
"""The name of a deleted account's player (their games stay, anonymized): empty, which no
display name can be (a name needs a visible character), so that each client words it in its
own language: :data:`DELETED_WORDS` in a terminal, ``deleted_player`` in the browser's catalogs."""

DELETED_WORDS = "deleted player"


def shown_name(name: str) -> str:
    """A player's name as a terminal shows it: a deleted account's player in words."""
    return DELETED_WORDS if name == DELETED else name
