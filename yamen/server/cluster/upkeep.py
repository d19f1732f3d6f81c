"""What a process of a cluster does every quarter lease, to keep up with what changed elsewhere.

Redis tells nobody when something changes: a lease runs out, a process dies, a room's owner
moves. So every quarter lease each process asks (:class:`Upkeep`), in this order:

- its leases are renewed, its own with them (leases.py); a room whose lease is lost is dropped
  here, and if its own lease had lapsed (it was frozen, or cut off), its clients are resynced
  (resync.py);
- clients relayed here from a process whose process lease ran out are detached;
- links whose owner changed move their clients to the new one, unused links are forgotten, and
  a client whose frame went unanswered for too long is attached again, then told and closed;
- every lease, the rooms with a game in progress that nobody owns are taken over, so that their
  bots and timers run (the same sweep as when the process joins);
- leases not confirmed in time (Redis unreachable) drop every room held.

It is apart from the registry (registry.py), which owns rooms and relays to owners when asked:
this is the clock that checks, on its own, that what the registry holds still holds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from yamen.server.cluster.proxies import Link, Remote

if TYPE_CHECKING:
    from yamen.server.cluster.registry import ClusterRooms

log = logging.getLogger(__name__)


class Upkeep:
    """The quarter-lease tick of one process (``rooms``)."""

    def __init__(self, rooms: ClusterRooms):
        self.rooms = rooms

    async def run(self) -> None:
        rooms, ticks = self.rooms, 0
        while True:
            await asyncio.sleep(rooms.lease / 4)
            ticks += 1
            try:
                await self.renew()
                if rooms.leases.lapsed:  # taken for gone meanwhile (frozen, or cut off)
                    rooms.resync.lapsed()
                await self.check_origins()
                await self.check_links()
                if ticks % 4 == 0:
                    await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: %s: %s", type(exc).__name__, exc)
            held = rooms.leases.held
            if not rooms.leases.confirmed() and held:
                log.warning("cluster: leases not confirmed in time: dropping %d rooms", len(held))
                dropped = list(held)
                held.clear()
                await asyncio.gather(*(rooms.drop(r) for r in dropped), return_exceptions=True)

    async def renew(self) -> None:
        """Renew every lease held. The rooms whose lease is lost stop writing *before* the
        others' time is extended (Leases.renew), then are dropped, all together."""
        rooms = self.rooms
        renewed, lost = await rooms.leases.renew()
        rooms.metrics.leases.labels("renewed").inc(renewed)
        rooms.metrics.leases.labels("lost").inc(len(lost))
        for room_id in lost:
            log.warning("room %s: lease lost: dropped here", room_id, extra={"room": room_id})
        await asyncio.gather(*(rooms.drop(room_id) for room_id in lost), return_exceptions=True)

    async def check_origins(self) -> None:
        """Connections relayed from a process that is gone (its process lease ran out) are
        detached."""
        rooms = self.rooms
        origins = sorted({conn.origin for conn in rooms.relayed.values()})
        if origins:
            alive = await rooms.leases.alive(origins)
            for node in origins:
                if node not in alive:
                    rooms.origin_gone(node)

    async def check_links(self) -> None:
        """Links whose owner changed (or whose room was dropped) move their clients; a link
        nobody has used for a lease is forgotten; a client left unanswered is rerouted, then
        told and closed (:meth:`check_clients`)."""
        rooms = self.rooms
        remote: list[tuple[Link, Remote]] = []
        now = time.monotonic()
        for link in list(rooms.links.values()):
            if not link.clients:
                if link.idle(now, rooms.lease):
                    rooms.links.pop(link.id, None)
                continue
            if link.lost_since is not None and now - link.lost_since > rooms.welcome_seconds:
                link.strand("no server could take the room over in time: connect again")
                continue
            if isinstance(link.target, Remote):
                remote.append((link, link.target))
                self.check_clients(link, now)
            elif link.current() is None:
                link.move_soon()
        if remote:
            owners = await rooms.leases.holders([link.id for link, _ in remote])
            for (link, target), owner in zip(remote, owners, strict=True):
                if owner != target.owner:
                    link.move_soon()

    def check_clients(self, link: Link, now: float) -> None:
        """A client whose relayed frame the owner has not answered for ``welcome_seconds``
        (every frame gets an ``ack`` or an ``error``) is attached to the owner again, which
        sends it the table; still nothing as long after that, it is told and closed."""
        bound, clients = self.rooms.welcome_seconds, self.rooms.clients
        for client in list(link.clients):
            asked = clients.asked.get(client)
            if asked is None or now - asked <= bound:
                continue
            rerouted = clients.rerouted.get(client)
            if rerouted is None:
                clients.rerouted[client] = now
                self.rooms.metrics.stalled_connections.labels("rerouted").inc()
                log.warning(
                    "room %s: a client's frame went unanswered: attached again",
                    link.id,
                    extra={"room": link.id},
                )
                link.move_soon()
            elif now - rerouted > bound:
                self.rooms.metrics.stalled_connections.labels("closed").inc()
                clients.answered(client)
                client.end("unavailable", "the room's server does not answer: connect again")

    async def sweep(self) -> int:
        """Take over the unowned rooms with a game in progress, so their bots and timers run."""
        rooms = self.rooms
        ids = [i for i in await rooms.store.rooms_in_play() if i not in rooms.leases.held]
        if not ids:
            return 0
        taken = 0
        owners = await rooms.leases.holders(ids)
        for room_id, owner in zip(ids, owners, strict=True):
            if owner is None and await rooms.owned(room_id) is not None:
                taken += 1
        return taken
