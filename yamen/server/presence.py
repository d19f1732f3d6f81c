"""Where this process's players are, written for their friends (friend_store.presence reads
it) at a cost that does not grow with their pages.

A player with a live room connection here is at that room (their latest connection's, when
they have several): every TICK_SECONDS one task writes, in one transaction, a row for each
connected player whose row it wrote over SEEN_EVERY ago or whose room changed since, so that N
players at tables cost one transaction a SEEN_EVERY (and a small one a tick as some come or
move), not a write per page. A player whose connections all closed is no longer written and
goes offline ONLINE_SECONDS after the last row, as a page that stops asking did.

A page with no room connection (the lobby, a player page, a replay) still says it is open by
asking for its invites (yamen/server/invites.py: :meth:`Presence.asked`). Its ask writes
nothing for a player connected here (the batch says where they are: at their table), nor when
this process wrote the same presence within SEEN_EVERY: most asks are one read. What was
written is remembered for REMEMBERED players at most, the oldest forgotten first; a player
forgotten costs one more write at their next ask, no more.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict

from yamen.server import friend_store
from yamen.server.revocation import Sockets
from yamen.server.storage import Store

log = logging.getLogger(__name__)

TICK_SECONDS = 2.0  # how soon a player who sits down at a table is seen there
REMEMBERED = 50_000  # players whose last written presence this process remembers


class Presence:
    """The presence this process writes: its connected players' in batches, and what a page
    without a connection asks."""

    def __init__(self, store: Store, sockets: Sockets):
        self.store, self.sockets = store, sockets
        self.written: OrderedDict[str, tuple[str | None, float]] = OrderedDict()  # room, when

    def due(self, now: float) -> dict[str, str | None]:
        """The players connected here whose presence is to be written now, with their room."""
        due: dict[str, str | None] = {}
        for player, room in self.sockets.rooms().items():
            last = self.written.get(player)
            if last is None or last[0] != room or now - last[1] >= friend_store.SEEN_EVERY:
                due[player] = room
        return due

    async def write_connected(self) -> int:
        """One transaction for the connected players due (none: nothing written); how many."""
        now = time.time()
        due = self.due(now)
        if due:
            await friend_store.seen_many(self.store, due, now)
            for player, room in due.items():
                self.remember(player, room, now)
        return len(due)

    async def asked(self, player: str, here: str | None) -> None:
        """A page of ``player``'s asked for its invites, showing the room ``here`` (None: no
        room): written unless the batch covers them or the same was written lately here."""
        if self.sockets.count(player):
            return
        now = time.time()
        last = self.written.get(player)
        if last is not None and last[0] == here and now - last[1] < friend_store.SEEN_EVERY:
            return
        await friend_store.seen(self.store, player, here)
        self.remember(player, here, now)

    def remember(self, player: str, room: str | None, when: float) -> None:
        self.written[player] = (room, when)
        self.written.move_to_end(player)
        while len(self.written) > REMEMBERED:
            self.written.popitem(last=False)

    async def run(self) -> None:
        """For ever: the connected players due, every TICK_SECONDS."""
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.write_connected()
            except Exception:
                log.exception("writing the connected players' presence failed; again later")
