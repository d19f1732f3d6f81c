"""The rooms of one process of several: those it owns, and links to the others'.

:class:`ClusterRooms` is the registry of rooms (yamen/server/registry.py) of a process in a
cluster. It holds the leases of the rooms it owns (leases.py), listens on the bus (bus.py) and
answers what other processes send about them, and hands out links (proxies.py) to any room.
Its journal is fenced: no action is written for a room whose lease is not held and confirmed,
and a room whose log another process wrote to is loaded again from the database.

Two jobs it hands to helpers of their own, each holding the registry: what it does every
quarter lease to keep up with what changed elsewhere (upkeep.py: leases renewed, gone processes
and moved owners noticed, unowned games taken over), and what it does when messages between it
and another process may have been lost (resync.py: the clients concerned are sent the whole
table again, ``Resync.missed_from``): silence is never left to last until a client happens to
send something.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import LockError

from yamen.engine import Game
from yamen.server import protocol
from yamen.server.cluster.bus import Bus, NotOwner
from yamen.server.cluster.clients import Clients
from yamen.server.cluster.leases import Leases, cluster_settings
from yamen.server.cluster.messages import (
    Answer,
    Attach,
    Call,
    Deliver,
    Detach,
    Forward,
    Message,
    Missed,
    Moved,
    Revoked,
    Snapshot,
)
from yamen.server.cluster.proxies import MOVING, Link, Relayed, Remote
from yamen.server.cluster.resync import Resync
from yamen.server.cluster.upkeep import Upkeep
from yamen.server.errors import RoomError
from yamen.server.frames import dumps
from yamen.server.loading import load_room
from yamen.server.registry import Rooms, no_room
from yamen.server.rooms import Room
from yamen.server.storage import CLUSTER_PREFIX, StartupError, Store
from yamen.server.thinking import INLINE, Thinker

log = logging.getLogger(__name__)

EXCLUSIVE_SECONDS = 10.0  # the most one caller holds a cluster-wide turn (exclusive), or waits


class ClusterRooms(Rooms):
    """The rooms of one process of several, on the database at ``db_url`` and the Redis at
    ``redis_url`` (with Yamen's own ``prefix`` and ``lease``: leases.cluster_settings)."""

    def __init__(self, db_url: str, redis_url: str, thinker: Thinker = INLINE):
        url, self.prefix, self.lease = cluster_settings(redis_url)
        super().__init__(Store(db_url, fence=self.writable, on_conflict=self.conflict), thinker)
        self.node = secrets.token_hex(8)
        # named, so that an operator (or the soak) finds this process's connections in Redis's
        # CLIENT LIST: {prefix}{node}:main here, :pub and :sub for the bus
        named = f"{self.prefix}{self.node}"
        self.redis = aioredis.from_url(url, decode_responses=True, client_name=f"{named}:main")
        self.leases = Leases(self.redis, self.prefix, self.node, self.lease)
        self.resync = Resync(self)  # messages lost between this process and another
        self.upkeep = Upkeep(self)  # every quarter lease
        self.bus = Bus(
            url,
            self.prefix,
            self.node,
            self._dispatch,
            gone=self.origin_gone,
            alive=self.leases.alive,
            missed=self.resync.missed_from,
            resubscribed=self.resync.resubscribed,
            metrics=self.metrics,
            patience=self.lease,
        )
        self.clients = Clients()  # local clients of rooms owned elsewhere
        self.links: dict[str, Link] = {}
        self.relayed: dict[tuple[str, str], Relayed] = {}  # (origin node, client id) -> conn
        self.closing = False
        self.tasks: list[asyncio.Task] = []
        self.background: set[asyncio.Task] = set()
        self.games: dict[int, str] = {}  # game id -> its room's id (the fence asks)
        # how long a client may wait for its room's owner: to hear its welcome after hello,
        # an answer to a frame, a new owner after the old one went (then it is told, and closed)
        self.welcome_seconds = 2 * self.lease + 10
        self.metrics.watch(self.metrics.rooms_owned, lambda: len(self.leases.held))
        self.metrics.node.info({"node": self.node})

    # ----- starting and stopping ----------------------------------------------------------------

    async def open_store(self) -> None:
        """Create or upgrade the schema, one process at a time (several may start at once)."""
        async with self.redis.lock(f"{self.prefix}migrate", timeout=300, blocking_timeout=300):
            await self.store.open()
        # One cluster a database: another prefix means other leases, so two owners a room.
        claimed = await self.store.claim(CLUSTER_PREFIX, self.prefix)
        if claimed != self.prefix:
            where = self.store.engine.url.render_as_string(hide_password=True)
            raise StartupError(
                f"the database {where} is run by the cluster whose Redis prefix is "
                f"{claimed!r}, not {self.prefix!r}: two clusters would both run its rooms. Use "
                f"prefix={claimed} in the Redis URL, or a database of its own"
            )

    async def resume(self) -> int:
        """Join the cluster: listen on this process's channel, keep its leases, and take over
        unowned rooms with a game in progress."""
        await self.leases.join()
        listening = await self.bus.start()
        self.leases.trust(time.monotonic())
        self.tasks = [*listening, asyncio.create_task(self.upkeep.run(), name="cluster leases")]
        return await self.upkeep.sweep()

    async def close(self) -> None:
        """Let go of every room at once (the others take them over without waiting for the
        leases to run out)."""
        self.closing = True
        for task in self.tasks:
            if task.get_name() == "cluster leases":
                task.cancel()
        self.bus.stop_listening()
        for room_id in list(self.leases.held):
            with contextlib.suppress(Exception):
                await self.drop(room_id, release=True)
        for room in list(self.loaded.values()):
            await room.close()
        await self.bus.close()  # what the drops posted goes out first
        with contextlib.suppress(Exception):
            await self.leases.leave()  # the others take this process for gone at once
        for task in self.background:
            task.cancel()
        await self.redis.aclose()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task:
        task = asyncio.create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    @contextlib.asynccontextmanager
    async def exclusive(self, key: str) -> AsyncIterator[None]:
        """One caller at a time per ``key`` in the whole cluster: a lock in Redis, held at
        most EXCLUSIVE_SECONDS (a holder that dies lets go then), waited for as long; 503
        ``unavailable`` when the wait is over."""
        lock = self.redis.lock(
            f"{self.prefix}turn:{key}",
            timeout=EXCLUSIVE_SECONDS,
            blocking_timeout=EXCLUSIVE_SECONDS,
        )
        if not await lock.acquire():
            raise RoomError("unavailable", "the server is busy: try again", 503)
        try:
            yield
        finally:
            with contextlib.suppress(LockError):  # (held past its time: already let go)
                await lock.release()

    # ----- owning rooms -------------------------------------------------------------------------

    async def locate(self, room_id: str) -> str:
        """The node id of the room's owner; this process's own when nobody held it."""
        if self.closing:
            raise RoomError("unavailable", "this server is stopping: try again", 503)
        return await self.leases.take(room_id)

    async def local(self, room_id: str) -> Room:
        """The room, loaded here (this process holds its lease)."""
        room = self.loaded.get(room_id)
        if room is not None:
            return room
        async with self.loading.of(room_id):
            room = self.loaded.get(room_id)
            if room is None:
                try:
                    room = await load_room(self.store, room_id, self.thinker)
                except Exception:
                    await self.drop(room_id, release=True)
                    raise
                if room is None:
                    await self.drop(room_id, release=True)
                    raise no_room(room_id)
                if room_id not in self.leases.held:  # lost while loading
                    await room.close()
                    raise NotOwner
                self.loaded[room_id] = room
            return room

    async def owned(self, room_id: str) -> Room | None:
        """The room when this process owns it (loading it if need be), else None."""
        room = self.loaded.get(room_id)
        if room is not None and room_id in self.leases.held:
            return room
        if self.closing:
            return None
        if await self.locate(room_id) != self.node:
            return None
        try:
            return await self.local(room_id)
        except NotOwner:
            return None

    async def drop(self, room_id: str, release: bool = False) -> None:
        """Stop running a room here (its lease is gone, or this process lets go of it): its
        relayed connections' processes and its local clients look for the new owner."""
        self.leases.held.discard(room_id)
        room = self.loaded.pop(room_id, None)
        if release:
            await self.leases.release(room_id)
        if room is None:
            return
        await room.close()
        origins: set[str] = set()
        for conn in list(room.connections):
            if isinstance(conn, Relayed):
                conn.stop()
                origins.add(conn.origin)
        for origin in origins:
            self.bus.post(origin, Moved(self.node, room_id))
        link = self.links.get(room_id)
        if link is not None and link.target is room and link.clients:
            link.move_soon()

    async def unload(self, room_id: str) -> None:
        """An idle room is let go of (its lease too), as if this process were stopping. A game
        in progress stays: the sweep for unowned games in play would only load it again."""
        self.idle.pop(room_id, None)
        room = self.loaded.get(room_id)
        if room is not None and room.playing:
            return
        link = self.links.get(room_id)
        if link is None or not link.clients:
            self.links.pop(room_id, None)
            await self.drop(room_id, release=True)

    def writable(self, game_id: int) -> bool:
        """The journal's fence: whether this process may store an action of ``game_id``: its
        room's lease is held and was confirmed recently enough (three quarters of a lease)."""
        if not self.leases.confirmed():
            return False
        room_id = self.games.get(game_id)
        room = None if room_id is None else self.loaded.get(room_id)
        if room is None or room.match.game_id != game_id:
            self.games = {r.match.game_id: i for i, r in self.loaded.items() if r.match.game_id}
            room_id = self.games.get(game_id)
        return room_id is not None and room_id in self.leases.held

    def conflict(self, game_id: int) -> None:
        """The journal's conflict callback: another process stored an action this one meant
        to. The room is reloaded from the database (if this process still owns it) so that it
        sees what was really stored, in a task of its own: the room is still in the middle of
        the refused change."""
        for room_id, room in list(self.loaded.items()):
            if room.match.game_id == game_id:
                log.warning(
                    "room %s: its action log moved on elsewhere; reloading",
                    room_id,
                    extra={"room": room_id},
                )
                self.spawn(self._reload(room_id))

    async def _reload(self, room_id: str) -> None:
        await self.drop(room_id)
        await self.owned(room_id)  # loaded again from the database, if the lease is still ours

    async def recover(self, room_id: str) -> None:
        """A stalled room (yamen/server/watchdog.py) is loaded again from the database; its
        clients, here and relayed, get the table again from the room as loaded."""
        await self._reload(room_id)

    # ----- what the lobby and live play use ------------------------------------------------------

    def link(self, room_id: str) -> Link:
        link = self.links.get(room_id)
        if link is None:
            link = self.links[room_id] = Link(self, room_id)
        return link

    async def get(self, room_id: str) -> Link:
        link = self.link(room_id)
        link.used = time.monotonic()
        await link.route()
        link.used = time.monotonic()
        return link

    async def create(
        self, host: str, game: Game, public: bool, settings: dict[str, Any] | None
    ) -> Link:
        room = await self.new_room(host, game, public, settings)
        if await self.locate(room.id) != self.node:  # a fresh id: nobody else can hold it
            raise RoomError("unavailable", "could not take the new room's lease", 503)
        link = self.link(room.id)
        link.target = room
        return link

    # ----- what other processes send ---------------------------------------------------------

    def _dispatch(self, message: Message) -> None:
        """A message from the bus (bus.Bus settles the answers to calls itself)."""
        if isinstance(message, Deliver):  # a frame for a local client
            found = self.clients.find(message.client)
            if found is not None:
                client, room_id = found
                link = self.links.get(room_id)
                target = None if link is None else link.target
                if isinstance(target, Remote) and target.owner == message.owner:
                    self.clients.answered(client)  # the owner answers it
                    client.send(message.text)
        elif isinstance(message, Call):
            self.spawn(self._answer(message))
        elif isinstance(message, Attach):
            old = self.relayed.get((message.origin, message.client))
            if old is not None and old.room_id == message.room:
                old.inbox.put_nowait(message)  # attached already: it gets the table again
            else:
                if old is not None:
                    self.relayed.pop(old.key, None)
                    old.inbox.put_nowait(Detach(old.origin, old.cid, old.room_id))
                conn = Relayed(self, message)
                self.relayed[conn.key] = conn
        elif isinstance(message, Forward | Detach):
            key = (message.origin, message.client)
            relayed = (
                self.relayed.get(key)
                if isinstance(message, Forward)
                else self.relayed.pop(key, None)
            )
            if relayed is not None:
                relayed.inbox.put_nowait(message)
            elif isinstance(message, Forward):  # this process forgot the connection
                error = dumps(protocol.error("moving", MOVING, message.frame.get("id")))
                self.bus.post(message.origin, Deliver(self.node, message.client, error))  # answered
                self.bus.post(message.origin, Moved(self.node, message.room))  # attach it again
        elif isinstance(message, Revoked):
            if message.origin != self.node:  # the origin did it already
                self.spawn(Rooms.sessions_ended(self, message.player, message.deleted))
        elif isinstance(message, Missed):
            self.resync.asked(message)
        elif isinstance(message, Moved):
            link = self.links.get(message.room)
            target = None if link is None else link.target
            if link is not None and isinstance(target, Remote) and target.owner == message.origin:
                link.move_soon()

    async def sessions_ended(self, player_id: str, deleted: bool = False) -> None:
        """Here at once, then in every other process (bus.Revoked). A lost message (Redis
        down) leaves a revoked connection elsewhere open until it reconnects, when its
        hello's token is refused."""
        await super().sessions_ended(player_id, deleted)
        try:
            await self.bus.tell_all(Revoked(self.node, player_id, deleted))
        except Exception as exc:
            log.warning("cluster: could not tell the others of a revocation: %s", exc)

    async def _answer(self, call: Call) -> None:
        try:
            room = await self.owned(call.room)
            if room is None:
                answer = Answer(call.id, moved=True)
            else:
                if call.op is not None:
                    await room.run(call.op)
                answer = Answer(call.id, snapshot=Snapshot.of(room))
        except RoomError as exc:
            answer = Answer(call.id, error=(exc.code, str(exc), exc.status, exc.params))
        except Exception:
            what = "describe" if call.op is None else call.op.kind
            log.exception("room %s: relayed %s failed", call.room, what, extra={"room": call.room})
            failed = "the room's server failed: try again"
            answer = Answer(call.id, error=("internal", failed, 500, {}))
        self.bus.post(call.origin, answer)

    def origin_gone(self, node: str) -> None:
        """A process with clients relayed here is gone (its process lease ran out): its
        clients are detached."""
        for key, conn in list(self.relayed.items()):
            if conn.origin == node:
                self.relayed.pop(key, None)
                conn.inbox.put_nowait(Detach(conn.origin, conn.cid, conn.room_id))
