"""New invites told to their receivers' live connections, so that a page at a table asks for
its invites only when there is something to show (yamen/server/invites.py, docs/protocol.md:
the ``invites`` frame).

Every TICK_SECONDS one task of each process reads the invites made since its last read that
are still waiting (one query, through the index on their time, whatever the number of pages:
at most what the site sends in LOOK_BACK seconds, each sender at most SENT_AN_HOUR an hour)
and sends each receiver's connections in this process an ``invites`` frame, which holds
nothing: the page then asks ``GET /api/invites`` as its own. In a cluster every process reads
the same rows and reaches its own connections, so nothing goes over the bus. Each read looks
LOOK_BACK seconds back, past the last one: an invite stamped by another process's clock a
little behind this one's, or committed a little after its stamp, is not missed, and the ids
read already are kept that long so that nobody is told twice.
"""

from __future__ import annotations

import asyncio
import logging
import time

from yamen.server import frames, invite_store, protocol
from yamen.server.revocation import Sockets
from yamen.server.storage import Store

log = logging.getLogger(__name__)

TICK_SECONDS = 2.0  # an invite reaches a page at a table within this (and the page's ask)
LOOK_BACK = 10.0  # seconds before now that each read reaches back
FRAME = frames.text(protocol.InvitesFrame(type="invites"))


class InviteNews:
    """The invites this process has told its connections of, and the task that tells them."""

    def __init__(self, store: Store, sockets: Sockets):
        self.store, self.sockets = store, sockets
        self.told: dict[str, float] = {}  # invite id -> when it was made, for LOOK_BACK

    async def tell(self) -> int:
        """Tell the connections here of the invites made lately not told yet; frames sent."""
        now = time.time()
        sent = 0
        for invite, receiver, made in await invite_store.made_since(self.store, now - LOOK_BACK):
            if invite in self.told:
                continue
            self.told[invite] = made
            for client in self.sockets.connections(receiver):
                if client.welcomed:  # (one not welcomed yet asks once it is: the page does)
                    client.send(FRAME)
                    sent += 1
        self.told = {i: made for i, made in self.told.items() if made >= now - LOOK_BACK}
        return sent

    async def run(self) -> None:
        """For ever: the invites made lately, every TICK_SECONDS."""
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.tell()
            except Exception:
                log.exception("telling the connections of new invites failed; again later")
