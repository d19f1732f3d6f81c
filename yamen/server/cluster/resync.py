"""Messages lost between two processes: the clients concerned are sent the whole table again.

Pub/sub may lose what one process publishes to another (bus.py): the receiver's subscriber
connection dropped (``resubscribed``), a message's number never came (``missed``), or this
process was taken for gone while frozen or cut off (its own lease had lapsed, leases.py), and
the others let go of its clients. Whatever was lost, the clients concerned are attached to
their room's owner again, which sends them a fresh welcome and table without detaching them
first, and the other process is told (:class:`~yamen.server.cluster.messages.Missed`) so that it
does the same for its clients and detaches those it still holds but this process no longer has
(a lost ``detach`` would leave a seat shown online for ever). Silence is never left to last
until a client happens to send something.

It is an idea of its own, apart from the registry that owns rooms and relays to owners
(registry.py): it only reads which clients are where, and acts through the links
(:meth:`~yamen.server.cluster.proxies.Link.resync_soon`) and the bus.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from yamen.server.cluster.messages import Detach, Missed
from yamen.server.cluster.proxies import Remote

if TYPE_CHECKING:
    from yamen.server.cluster.registry import ClusterRooms

log = logging.getLogger(__name__)


class Resync:
    """The resyncs of one process (``rooms``) with the others it exchanges frames with."""

    def __init__(self, rooms: ClusterRooms):
        self.rooms = rooms

    def missed_from(self, node: str, count: int = 0) -> int:
        """Messages from ``node`` may have been lost (``count`` of them, when known). This
        process's clients of the rooms ``node`` owns are attached to it again (a fresh
        welcome and table: frames for them may be among the lost), and ``node`` is told, so
        that it does the same for its clients of this process's rooms (their frames may be
        among the lost) and says which of them it no longer has. How many clients here were
        resynced."""
        rooms = self.rooms
        resynced = self.owner(node)
        clients = [(c.cid, c.room_id) for c in rooms.relayed.values() if c.origin == node]
        if clients:
            rooms.bus.post(node, Missed(rooms.node, clients))
        if count:
            log.warning(
                "cluster: %d messages from process %s were lost: %d clients here resynced,"
                " %d of its clients asked about",
                count,
                node,
                resynced,
                len(clients),
            )
        return resynced

    def owner(self, owner: str) -> int:
        """Attach this process's clients of the rooms ``owner`` owns to it again; how many."""
        resynced = 0
        for link in list(self.rooms.links.values()):
            target = link.target
            if isinstance(target, Remote) and target.owner == owner and link.clients:
                resynced += len(link.clients)
                link.resync_soon()
        self.rooms.metrics.resynced.labels("missed").inc(resynced)
        return resynced

    def peers(self) -> set[str]:
        """The processes this one exchanges frames with: owners of rooms its clients are in,
        and origins of the clients relayed to its rooms."""
        owners = {
            link.target.owner
            for link in self.rooms.links.values()
            if isinstance(link.target, Remote) and link.clients
        }
        return owners | {conn.origin for conn in self.rooms.relayed.values()}

    def resubscribed(self, seconds: float) -> None:
        """This process's subscriber connection dropped and is back after ``seconds``: what
        was published to it meanwhile (and not kept by its senders) is lost, so every peer is
        treated as :meth:`missed_from`."""
        log.warning(
            "cluster: subscribed again after %.2f s: %d clients here resynced, %d processes"
            " asked to resync theirs",
            seconds,
            *self._missed_from_everyone(),
        )

    def lapsed(self) -> None:
        """This process's own lease had run out (it was frozen, or cut off from Redis): the
        others may have let go of its clients, so all of them are attached again."""
        log.warning(
            "cluster: this process was taken for gone (its lease ran out): %d clients"
            " resynced, %d processes asked to resync theirs",
            *self._missed_from_everyone(),
        )

    def _missed_from_everyone(self) -> tuple[int, int]:
        """:meth:`missed_from` every peer: the clients resynced here, and the peers asked."""
        peers = self.peers()
        return sum(self.missed_from(node) for node in peers), len(peers)

    def attached(self, cid: str, owner: str) -> bool:
        """Whether this process's client ``cid`` is still here, attached to ``owner``."""
        found = self.rooms.clients.find(cid)
        if found is None:
            return False
        client, room_id = found
        link = self.rooms.links.get(room_id)
        target = None if link is None else link.target
        return (
            link is not None
            and client in link.clients
            and isinstance(target, Remote)
            and target.owner == owner
        )

    def asked(self, message: Missed) -> None:
        """``message.origin`` may have lost messages from this process: this process's clients
        of its rooms get the table again, and those of the clients it holds that are no
        longer here are detached there."""
        rooms = self.rooms
        resynced = self.owner(message.origin)
        gone = 0
        for cid, room_id in message.clients:
            if not self.attached(cid, message.origin):
                gone += 1
                rooms.bus.post(message.origin, Detach(rooms.node, cid, room_id))
        log.warning(
            "cluster: process %s may have lost messages from here: %d clients resynced, %d"
            " it held detached there",
            message.origin,
            resynced,
            gone,
        )
