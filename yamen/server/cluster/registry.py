"""The rooms of one process of several: those it owns, and links to the others'.

:class:`ClusterRooms` is the registry of rooms (yamen/server/registry.py) of a process in a
cluster. It holds the leases of the rooms it owns (leases.py), listens on the bus (bus.py) and
answers what other processes send about them, and hands out links (proxies.py) to any room.
Its journal is fenced: no action is written for a room whose lease is not held and confirmed,
and a room whose log another process wrote to is loaded again from the database.

When messages between two processes may have been lost (a subscriber connection dropped, a
message's number never came, or this process was taken for gone while frozen), the clients
concerned are sent the whole table again (:meth:`ClusterRooms.missed_from`): silence is never
left to last until a client happens to send something.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Coroutine
from typing import Any

import redis.asyncio as aioredis

from yamen.engine import Game
from yamen.server import protocol
from yamen.server.cluster.bus import (
    Answer,
    Attach,
    Bus,
    Call,
    Deliver,
    Detach,
    Forward,
    Message,
    Missed,
    Moved,
    NotOwner,
    Revoked,
    Snapshot,
)
from yamen.server.cluster.clients import Clients
from yamen.server.cluster.leases import Leases, cluster_settings
from yamen.server.cluster.proxies import MOVING, Link, Relayed, Remote
from yamen.server.errors import RoomError
from yamen.server.frames import dumps
from yamen.server.loading import load_room
from yamen.server.registry import Rooms, no_room
from yamen.server.rooms import Room
from yamen.server.storage import CLUSTER_PREFIX, StartupError, Store
from yamen.server.thinking import INLINE, Thinker

log = logging.getLogger(__name__)

# the lobby calls another process may relay
OPS = ("take_seat", "leave", "set_bot", "fill_bots", "remove", "configure", "start")


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
        self.bus = Bus(
            url,
            self.prefix,
            self.node,
            self._dispatch,
            gone=self.origin_gone,
            alive=self.leases.alive,
            missed=self.missed_from,
            resubscribed=self.resubscribed,
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
        self.tasks = [*listening, asyncio.create_task(self._tick(), name="cluster leases")]
        return await self._sweep()

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
                await self._drop(room_id, release=True)
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
                    await self._drop(room_id, release=True)
                    raise
                if room is None:
                    await self._drop(room_id, release=True)
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

    async def _drop(self, room_id: str, release: bool = False) -> None:
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
            await self._drop(room_id, release=True)

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
        await self._drop(room_id)
        await self.owned(room_id)  # loaded again from the database, if the lease is still ours

    async def recover(self, room_id: str) -> None:
        """A stalled room (yamen/server/watchdog.py) is loaded again from the database; its
        clients, here and relayed, get the table again from the room as loaded."""
        await self._reload(room_id)

    # ----- every quarter lease --------------------------------------------------------------------

    async def _tick(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(self.lease / 4)
            ticks += 1
            try:
                await self._renew()
                if self.leases.lapsed:  # taken for gone meanwhile (frozen, or cut off)
                    self._lapsed()
                await self._check_origins()
                await self._check_links()
                if ticks % 4 == 0:
                    await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: %s: %s", type(exc).__name__, exc)
            held = self.leases.held
            if not self.leases.confirmed() and held:
                log.warning("cluster: leases not confirmed in time: dropping %d rooms", len(held))
                dropped = list(held)
                held.clear()
                await asyncio.gather(*(self._drop(r) for r in dropped), return_exceptions=True)

    async def _renew(self) -> None:
        """Renew every lease held. The rooms whose lease is lost stop writing *before* the
        others' time is extended (Leases.renew), then are dropped, all together."""
        renewed, lost = await self.leases.renew()
        self.metrics.leases.labels("renewed").inc(renewed)
        self.metrics.leases.labels("lost").inc(len(lost))
        for room_id in lost:
            log.warning("room %s: lease lost: dropped here", room_id, extra={"room": room_id})
        await asyncio.gather(*(self._drop(room_id) for room_id in lost), return_exceptions=True)

    async def _check_origins(self) -> None:
        """Connections relayed from a process that is gone (its process lease ran out) are
        detached."""
        origins = sorted({conn.origin for conn in self.relayed.values()})
        if origins:
            alive = await self.leases.alive(origins)
            for node in origins:
                if node not in alive:
                    self.origin_gone(node)

    async def _check_links(self) -> None:
        """Links whose owner changed (or whose room was dropped) move their clients; a link
        nobody has used for a lease is forgotten; a client left unanswered is rerouted, then
        told and closed (:meth:`_check_clients`)."""
        remote: list[tuple[Link, Remote]] = []
        now = time.monotonic()
        for link in list(self.links.values()):
            if not link.clients:
                if link.idle(now, self.lease):
                    self.links.pop(link.id, None)
                continue
            if link.lost_since is not None and now - link.lost_since > self.welcome_seconds:
                link.strand("no server could take the room over in time: connect again")
                continue
            if isinstance(link.target, Remote):
                remote.append((link, link.target))
                self._check_clients(link, now)
            elif link.current() is None:
                link.move_soon()
        if remote:
            owners = await self.leases.holders([link.id for link, _ in remote])
            for (link, target), owner in zip(remote, owners, strict=True):
                if owner != target.owner:
                    link.move_soon()

    def _check_clients(self, link: Link, now: float) -> None:
        """A client whose relayed frame the owner has not answered for ``welcome_seconds``
        (every frame gets an ``ack`` or an ``error``) is attached to the owner again, which
        sends it the table; still nothing as long after that, it is told and closed."""
        bound, clients = self.welcome_seconds, self.clients
        for client in list(link.clients):
            asked = clients.asked.get(client)
            if asked is None or now - asked <= bound:
                continue
            rerouted = clients.rerouted.get(client)
            if rerouted is None:
                clients.rerouted[client] = now
                self.metrics.stalled_connections.labels("rerouted").inc()
                log.warning(
                    "room %s: a client's frame went unanswered: attached again",
                    link.id,
                    extra={"room": link.id},
                )
                link.move_soon()
            elif now - rerouted > bound:
                self.metrics.stalled_connections.labels("closed").inc()
                clients.answered(client)
                client.end("unavailable", "the room's server does not answer: connect again")

    async def _sweep(self) -> int:
        """Take over the unowned rooms with a game in progress, so their bots and timers run."""
        ids = [i for i in await self.store.rooms_in_play() if i not in self.leases.held]
        if not ids:
            return 0
        taken = 0
        owners = await self.leases.holders(ids)
        for room_id, owner in zip(ids, owners, strict=True):
            if owner is None and await self.owned(room_id) is not None:
                taken += 1
        return taken

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
            self._resync_asked(message)
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
                if call.op != "describe":
                    if call.op not in OPS:
                        raise RoomError("bad_request", f"no such room call {call.op!r}", 400)
                    await getattr(room, call.op)(*call.args)
                answer = Answer(call.id, snapshot=Snapshot.of(room))
        except RoomError as exc:
            answer = Answer(call.id, error=(exc.code, str(exc), exc.status, exc.params))
        except Exception:
            log.exception(
                "room %s: relayed %s failed", call.room, call.op, extra={"room": call.room}
            )
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

    # ----- messages lost between two processes ---------------------------------------------------

    def missed_from(self, node: str, count: int = 0) -> int:
        """Messages from ``node`` may have been lost (``count`` of them, when known). This
        process's clients of the rooms ``node`` owns are attached to it again (a fresh
        welcome and table: frames for them may be among the lost), and ``node`` is told, so
        that it does the same for its clients of this process's rooms (their frames may be
        among the lost) and says which of them it no longer has. How many clients here were
        resynced."""
        resynced = self.resync_owner(node)
        clients = [(c.cid, c.room_id) for c in self.relayed.values() if c.origin == node]
        if clients:
            self.bus.post(node, Missed(self.node, clients))
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

    def resync_owner(self, owner: str) -> int:
        """Attach this process's clients of the rooms ``owner`` owns to it again; how many."""
        resynced = 0
        for link in list(self.links.values()):
            target = link.target
            if isinstance(target, Remote) and target.owner == owner and link.clients:
                resynced += len(link.clients)
                link.resync_soon()
        self.metrics.resynced.labels("missed").inc(resynced)
        return resynced

    def _peers(self) -> set[str]:
        """The processes this one exchanges frames with: owners of rooms its clients are in,
        and origins of the clients relayed to its rooms."""
        owners = {
            link.target.owner
            for link in self.links.values()
            if isinstance(link.target, Remote) and link.clients
        }
        return owners | {conn.origin for conn in self.relayed.values()}

    def resubscribed(self, seconds: float) -> None:
        """This process's subscriber connection dropped and is back after ``seconds``: what
        was published to it meanwhile (and not kept by its senders) is lost, so every peer is
        treated as :meth:`missed_from`."""
        peers = self._peers()
        resynced = sum(self.missed_from(node) for node in peers)
        log.warning(
            "cluster: subscribed again after %.2f s: %d clients here resynced, %d processes"
            " asked to resync theirs",
            seconds,
            resynced,
            len(peers),
        )

    def _lapsed(self) -> None:
        """This process's own lease had run out (it was frozen, or cut off from Redis): the
        others may have let go of its clients, so all of them are attached again."""
        peers = self._peers()
        resynced = sum(self.missed_from(node) for node in peers)
        log.warning(
            "cluster: this process was taken for gone (its lease ran out): %d clients"
            " resynced, %d processes asked to resync theirs",
            resynced,
            len(peers),
        )

    def _attached(self, cid: str, owner: str) -> bool:
        """Whether this process's client ``cid`` is still here, attached to ``owner``."""
        found = self.clients.find(cid)
        if found is None:
            return False
        client, room_id = found
        link = self.links.get(room_id)
        target = None if link is None else link.target
        return (
            link is not None
            and client in link.clients
            and isinstance(target, Remote)
            and target.owner == owner
        )

    def _resync_asked(self, message: Missed) -> None:
        """``message.origin`` may have lost messages from this process: this process's clients
        of its rooms get the table again, and those of the clients it holds that are no
        longer here are detached there."""
        resynced = self.resync_owner(message.origin)
        gone = 0
        for cid, room_id in message.clients:
            if not self._attached(cid, message.origin):
                gone += 1
                self.bus.post(message.origin, Detach(self.node, cid, room_id))
        log.warning(
            "cluster: process %s may have lost messages from here: %d clients resynced, %d"
            " it held detached there",
            message.origin,
            resynced,
            gone,
        )
