"""Room ownership as leases in Redis: which process runs a room, and for how long it may.

The key ``{prefix}room:{id}`` holds the owner's node id and expires after ``lease`` seconds
unless the owner renews it (every quarter lease, all its rooms in one call). A process may write
a room's actions only while it holds the lease *and* Redis confirmed its leases less than
``SAFE`` of a lease ago: a process frozen or cut off from Redis stops writing before its leases
can have moved to another process.

A process has a lease of its own too, ``{prefix}process:{node}``, renewed with its rooms'
(whether it owns any or not): it is how the others know it is alive. A process is gone once that
lease has run out (killed, or frozen or cut off from Redis for a whole lease), never because a
message to it found nobody listening for a moment (its subscriber connection was reconnecting:
bus.py keeps such messages and publishes them again).
"""

from __future__ import annotations

import time
from typing import cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis.asyncio as aioredis

LEASE = 5.0  # seconds a room's lease lasts unless renewed: how soon a dead owner's rooms move
PREFIX = "yamen:"
SAFE = 0.75  # an owner writes no action later than this part of a lease after its last renewal

# Take the lease when it is free, keep it when it is ours; the holder's node id either way.
ACQUIRE = """
local holder = redis.call('get', KEYS[1])
if not holder then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
  return ARGV[1]
end
if holder == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
end
return holder
"""

# Renew every lease that is still ours: 1 for each key renewed, 0 for each one lost.
RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""

RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def cluster_settings(url: str) -> tuple[str, str, float]:
    """The Redis URL without Yamen's own query parameters, the key prefix and the lease.

    ``redis://host:6379/0?prefix=site1:&lease=5``: ``prefix`` (default ``yamen:``) lets several
    sites (or test runs) share one Redis; ``lease`` (seconds, default 5) is how long a room's
    lease lasts unless renewed."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    own = {k: v for k, v in query if k in ("prefix", "lease")}
    rest = [(k, v) for k, v in query if k not in own]
    lease = float(own.get("lease", LEASE))
    if not 0.2 <= lease <= 600:
        raise ValueError("lease must be from 0.2 to 600 seconds")
    return urlunsplit(parts._replace(query=urlencode(rest))), own.get("prefix", PREFIX), lease


class Leases:
    """The leases of one process (``node``): those it holds, and until when it may trust them."""

    def __init__(self, redis: aioredis.Redis, prefix: str, node: str, lease: float):
        self.redis, self.prefix, self.node, self.lease = redis, prefix, node, lease
        self.held: set[str] = set()  # rooms whose lease this process holds
        self.safe_until = 0.0  # time.monotonic() after which no action may be written
        # the last renewal found this process's own lease run out: the others took it for gone
        # (and let go of its clients) meanwhile
        self.lapsed = False
        self._acquire = redis.register_script(ACQUIRE)
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)

    def key(self, room_id: str) -> str:
        return f"{self.prefix}room:{room_id}"

    def process_key(self, node: str) -> str:
        return f"{self.prefix}process:{node}"

    @property
    def lease_ms(self) -> int:
        return int(self.lease * 1000)

    def trust(self, since: float) -> None:
        """Redis confirmed the leases at ``since`` (``time.monotonic()``)."""
        self.safe_until = since + SAFE * self.lease

    def confirmed(self) -> bool:
        """Whether the leases were confirmed recently enough to write under them."""
        return time.monotonic() <= self.safe_until

    async def take(self, room_id: str) -> str:
        """The node id of the room's holder: this process's own when nobody held it."""
        owner = await self._acquire(keys=[self.key(room_id)], args=[self.node, self.lease_ms])
        if owner == self.node:
            self.held.add(room_id)
        return owner

    async def join(self) -> None:
        """Take this process's own lease (the others see it alive from now on)."""
        await self.redis.set(self.process_key(self.node), "1", px=self.lease_ms)

    async def leave(self) -> None:
        """Let go of this process's own lease: the others take it for gone at once."""
        await self.redis.delete(self.process_key(self.node))

    async def alive(self, nodes: list[str]) -> set[str]:
        """Those of ``nodes`` whose process lease has not run out."""
        found = await self.redis.mget([self.process_key(n) for n in nodes])
        return {node for node, value in zip(nodes, found, strict=True) if value is not None}

    async def renew(self) -> tuple[int, list[str]]:
        """Renew every lease held, and the process's own, in one round trip: how many room
        leases were renewed, and the rooms whose lease is lost. The lost ones leave ``held``
        *before* the others' trust is extended (the fence asks ``held``), so that no lost room
        writes in between. ``lapsed`` tells whether the process's own lease had run out."""
        held = sorted(self.held)
        sent = time.monotonic()
        pipe = self.redis.pipeline(transaction=False)
        mine = self.process_key(self.node)
        pipe.pexpire(mine, self.lease_ms)  # false: it had run out
        pipe.set(mine, "1", px=self.lease_ms)
        if held:
            keys = [self.key(r) for r in held]
            await self._renew(keys=keys, args=[self.node, self.lease_ms], client=pipe)  # queued
        answers = await pipe.execute()
        self.lapsed = not answers[0]
        kept = answers[2] if held else []
        lost = [room_id for room_id, ok in zip(held, kept, strict=True) if not ok]
        self.held.difference_update(lost)
        self.trust(sent)
        return len(held) - len(lost), lost

    async def release(self, room_id: str) -> None:
        """Let go of a room's lease (another process may take it at once)."""
        self.held.discard(room_id)
        await self._release(keys=[self.key(room_id)], args=[self.node])

    async def holders(self, room_ids: list[str]) -> list[str | None]:
        """Each room's holder (None: nobody), without taking any."""
        return cast(list[str | None], await self.redis.mget([self.key(r) for r in room_ids]))
