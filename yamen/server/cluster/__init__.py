"""Several ``yamen serve`` processes sharing one PostgreSQL and one Redis.

A room still lives in exactly one process, its *owner*, which runs it as a lone server does: the
room's lock orders every change (yamen/server/rooms.py). Ownership is a lease in Redis
(leases.py): a process that needs a room nobody holds takes the lease and loads the room from
the database (an unfinished game is rebuilt by replaying its action log), so when an owner dies
its rooms move to the first process that needs them once the lease has run out; every ``lease``
seconds each process also takes over unowned rooms with a game in progress and a person seated,
so bots play on in rooms nobody is connected to.

Whatever reaches a process for a room it does not own goes to the owner over the bus (bus.py,
Redis pub/sub, a channel per process, typed messages: messages.py):

- lobby calls (take a seat, leave, bots, start: a room operation, yamen/server/operations.py,
  carried as data; or just the room's info) are calls with an answer that carries the room's
  snapshot as the owner sees it after the change;
- a WebSocket client connected here is attached on the owner as a relayed connection (its
  frames are sent back to this process, which writes them to the client); its frames are
  forwarded to the owner in order.

A process is alive while its own lease (``{prefix}process:{node}``, renewed with its rooms')
holds: a message to a process that nobody hears is kept and published again until it is heard
or that lease runs out (bus.py), and messages that may have been lost between two processes
make them send the clients concerned the table again (resync.py). Every quarter lease each
process renews its leases and notices what changed elsewhere (upkeep.py).

``ClusterRooms.get`` gives a :class:`Link` (proxies.py): the room itself when this process owns
it, or a :class:`Remote` for its owner, all three a :class:`~yamen.server.handle.RoomHandle`.

Two owners at once are guarded against three ways: an owner drops a room as soon as a renewal
finds its lease gone; its journal (yamen/server/journal.py) is given a fence, and writes no
action once the process cannot be sure its leases still hold (three quarters of a lease after
the last renewal that Redis confirmed); and the actions table's primary key (game, index)
refuses a second writer of the same action, after which the room is reloaded from the database
(the journal's conflict callback).
"""

from yamen.server.cluster.bus import ClusterError, NoAnswer, NotOwner, OwnerGone
from yamen.server.cluster.leases import LEASE, PREFIX, SAFE, cluster_settings
from yamen.server.cluster.messages import Snapshot
from yamen.server.cluster.proxies import Link, Relayed, Remote
from yamen.server.cluster.registry import ClusterRooms

__all__ = [
    "LEASE",
    "PREFIX",
    "SAFE",
    "ClusterError",
    "ClusterRooms",
    "Link",
    "NoAnswer",
    "NotOwner",
    "OwnerGone",
    "Relayed",
    "Remote",
    "Snapshot",
    "cluster_settings",
]
