"""What a client of the live protocol shares with the server without importing it.

The server's schemas live in :mod:`yamen.server.protocol` (and need the server's
dependencies); a client needs only the version it speaks.
"""

VERSION = 1
"""The live protocol's version; a client says which it speaks in ``hello``."""
