"""What one server process counts, for ``GET /metrics`` (the Prometheus text format, written by
the maintained ``prometheus_client``).

Only counts and times of the process as a whole: no room, game, seat or player is named in a
label, so nothing hidden (nor who plays where) can be read from it. Each app has a registry of
its own (a test may run several servers in one Python process). ``/metrics`` is outside
``/api``: the lobby's rate limit does not count it, and it costs a scrape only the formatting.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, Info
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

CONTENT_TYPE = CONTENT_TYPE_LATEST
# seconds from a client's hello to its welcome: loopback, a relayed owner, a room that moves
HELLO_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30)


class Metrics:
    """The process's counters; ``text()`` is what ``/metrics`` answers."""

    def __init__(self) -> None:
        self.registry = r = CollectorRegistry()
        self.rooms_loaded = Gauge("yamen_rooms_loaded", "Rooms loaded in this process", registry=r)
        self.rooms_owned = Gauge(
            "yamen_rooms_owned", "Rooms whose lease this process holds (a cluster)", registry=r
        )
        self.connections = Gauge(
            "yamen_connections", "WebSocket clients connected to this process", registry=r
        )
        self.actions = Counter(
            "yamen_actions",
            "Actions given to the journal, by outcome: stored; fenced (this process could not be"
            " sure it owned the room: not written); conflict (another owner wrote that action);"
            " failed",
            ["outcome"],
            registry=r,
        )
        self.leases = Counter(
            "yamen_leases", "Room leases at each renewal: renewed or lost", ["outcome"], registry=r
        )
        self.relayed = Counter(
            "yamen_relayed_frames",
            "Frames relayed between processes: in (from a client here to its room's owner) and"
            " out (from a room owned here to a client of another process)",
            ["direction"],
            registry=r,
        )
        self.stalled_rooms = Counter(
            "yamen_stalled_rooms",
            "Rooms whose due bot or timer move was not played in time: detected, and recovered"
            " (moving again after the watchdog restarted or reloaded them)",
            ["outcome"],
            registry=r,
        )
        self.stalled_connections = Counter(
            "yamen_stalled_connections",
            "Clients left unanswered (no welcome after hello, no answer from the room's owner):"
            " rerouted, or closed with a reason",
            ["outcome"],
            registry=r,
        )
        self.silent = Gauge(
            "yamen_silent_connections",
            "WebSocket clients of this process sent nothing for longer than twice the heartbeat"
            " (beat_seconds): the room's frames and beats are not reaching them",
            registry=r,
        )
        self.resynced = Counter(
            "yamen_resynced_connections",
            "Clients sent the whole table again by the server itself: missed (frames between"
            " processes were lost: a Redis connection dropped) or silent (heard nothing for"
            " twice the heartbeat)",
            ["why"],
            registry=r,
        )
        self.bus = Counter(
            "yamen_bus_messages",
            "Messages between processes (a cluster): held (nobody listened on the receiver's"
            " channel: kept and published again), retried (published again after Redis failed),"
            " dropped (given up: the receiver is gone, or over the bound), duplicate (received"
            " twice: ignored), missed (never received: the sender's clients resync)",
            ["outcome"],
            registry=r,
        )
        self.hello = Histogram(
            "yamen_hello_seconds",
            "Seconds from a client's hello to its welcome",
            buckets=HELLO_BUCKETS,
            registry=r,
        )
        self.node = Info("yamen_node", "This process (its node id in a cluster)", registry=r)
        for name in ("stored", "fenced", "conflict", "failed"):
            self.actions.labels(name)
        for counter, names in (
            (self.leases, ("renewed", "lost")),
            (self.relayed, ("in", "out")),
            (self.stalled_rooms, ("detected", "recovered")),
            (self.stalled_connections, ("rerouted", "closed")),
            (self.resynced, ("missed", "silent")),
            (self.bus, ("held", "retried", "dropped", "duplicate", "missed")),
        ):
            for name in names:
                counter.labels(name)

    def watch(self, gauge: Gauge, read: Callable[[], float]) -> None:
        """``gauge`` reads its value from ``read`` at each scrape."""
        gauge.set_function(read)

    def text(self) -> bytes:
        return generate_latest(self.registry)
