"""A room's chat: every line is stored, and the latest are kept in memory.

The latest lines are read from the database once, when first wanted, and then kept here: every
line goes through its room's lock, and a sync (a whole ``state`` frame) must not cost a read.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from yamen.server.errors import StorageFailed
from yamen.server.storage import Store

HISTORY = 50  # lines a state frame shows


class Line(NamedTuple):
    player: str
    name: str  # the player's name when the line was read or said
    text: str
    at: float


class ChatLog:
    def __init__(self, store: Store, room_id: str):
        self.store, self.room_id = store, room_id
        self.recent: deque[Line] | None = None  # None: not read yet

    async def latest(self) -> deque[Line]:
        """The latest lines, oldest first."""
        if self.recent is None:
            lines = await self.store.chat(self.room_id, HISTORY)
            names = await self.store.players(list({p for p, _, _ in lines}))
            if self.recent is None:  # (another caller may have read them meanwhile)
                self.recent = deque(
                    (Line(p, names.get(p, "?"), t, at) for p, t, at in lines), HISTORY
                )
        return self.recent

    async def add(self, player: str, text: str) -> Line:
        """Store a line of ``player``'s (StorageFailed when the database does not take it)."""
        try:
            names = await self.store.players([player])
            at = await self.store.add_chat(self.room_id, player, text)
        except Exception as exc:
            raise StorageFailed("your message could not be stored; try again") from exc
        line = Line(player, names.get(player, "?"), text, at)
        if self.recent is not None:  # (else read with the others when first wanted)
            self.recent.append(line)
        return line
