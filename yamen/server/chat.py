"""A room's chat: every line is stored, and the latest are kept in memory.

The latest lines are read from the database once, when first wanted, and then kept here: every
line goes through its room's lock, and a sync (a whole ``state`` frame) must not cost a read.

Stored chat is bounded, since a room is never deleted: a room keeps its latest ``KEEP_LINES``
lines and none older than ``KEEP_SECONDS``. The line count and the age are enforced for a room
as each of its lines is stored (in the same transaction, a bounded delete), and the age for
every room by a sweep every ``SWEEP_SECONDS`` (:func:`sweep_old_chat`), so that a room nobody
talks in any more does not keep its old lines either. What a state frame shows is unchanged:
the latest ``HISTORY`` lines.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import NamedTuple

from yamen.server.errors import StorageFailed
from yamen.server.storage import Store

log = logging.getLogger(__name__)

HISTORY = 50  # lines a state frame shows
KEEP_LINES = 500  # lines a room keeps stored, its latest
KEEP_SECONDS = 7 * 86400.0  # and none older than this
SWEEP_SECONDS = 3600.0  # how often every room's lines older than KEEP_SECONDS are dropped


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
        """Store a line of ``player``'s (StorageFailed when the database does not take it); the
        room's stored lines stay within KEEP_LINES and KEEP_SECONDS."""
        try:
            names = await self.store.players([player])
            since = time.time() - KEEP_SECONDS
            at = await self.store.add_chat(self.room_id, player, text, KEEP_LINES, since)
        except Exception as exc:
            raise StorageFailed("your message could not be stored; try again") from exc
        line = Line(player, names.get(player, "?"), text, at)
        if self.recent is not None:  # (else read with the others when first wanted)
            self.recent.append(line)
        return line

    def rename(self, player: str, name: str) -> bool:
        """The player's lines in memory show ``name`` from now on (wire.DELETED: their account
        was deleted); whether any did. Lines not read yet are read with the name stored."""
        if self.recent is None or not any(line.player == player for line in self.recent):
            return False
        self.recent = deque(
            (line._replace(name=name) if line.player == player else line for line in self.recent),
            HISTORY,
        )
        return True


async def sweep_old_chat(store: Store, every: float = SWEEP_SECONDS) -> None:
    """For ever: drop every room's chat lines older than KEEP_SECONDS, every ``every``
    seconds (each process of a cluster does it too: deleting what is gone is harmless)."""
    while True:
        try:
            await store.drop_chat_before(time.time() - KEEP_SECONDS)
        except Exception:
            log.exception("dropping old chat lines failed; again later")
        await asyncio.sleep(every)
