"""Several ``yamen serve`` processes sharing one PostgreSQL and one Redis.

A room still lives in exactly one process, its *owner*, which runs it as a lone server does: the
room's lock orders every change (yamen/server/rooms.py). Ownership is a lease in Redis: the key
``{prefix}room:{id}`` holds the owner's node id and expires after ``lease`` seconds unless the
owner renews it (every quarter lease, all its rooms in one call). A process that needs a room
nobody holds takes the lease and loads the room from the database (an unfinished game is rebuilt
by replaying its action log), so when an owner dies its rooms move to the first process that
needs them once the lease has run out; every ``lease`` seconds each process also takes over
unowned rooms with a game in progress, so bots play on in rooms nobody is connected to.

Every process subscribes to a channel of its own, ``{prefix}node:{id}``. Whatever reaches a
process for a room it does not own is relayed to the owner over that channel:

- lobby calls (take a seat, leave, bots, start, the room's info) are requests with a reply that
  carries the room's info as the owner sees it after the change;
- a WebSocket client connected here is attached on the owner as a :class:`Relayed` connection
  (its frames are published back to this process, which writes them to the client); its frames
  are relayed to the owner in order.

``Rooms.get`` gives a :class:`Link`: the room itself when this process owns it, or a
:class:`Remote` for its owner, with the same methods either way. When a link's owner goes away
(the lease moves, a publish finds nobody listening, or the owner lets go of the room), the link
finds or becomes the new owner and attaches its clients again; each gets a fresh ``state`` frame.

Two owners at once are guarded against three ways: an owner drops a room as soon as a renewal
finds its lease gone; it writes no action once it cannot be sure its leases still hold (three
quarters of a lease after the last renewal that Redis confirmed); and the actions table's
primary key (game, index) refuses a second writer of the same action, after which the room is
reloaded from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis.asyncio as aioredis
from sqlalchemy.exc import IntegrityError

from yamen.server import protocol
from yamen.server.identity import same_secret
from yamen.server.registry import Rooms
from yamen.server.rooms import Room, RoomError, dumps
from yamen.server.storage import CLUSTER_PREFIX, Journal, StartupError, Store

log = logging.getLogger(__name__)

LEASE = 5.0  # seconds a room's lease lasts unless renewed: how soon a dead owner's rooms move
PREFIX = "yamen:"
SAFE = 0.75  # an owner writes no action later than this part of a lease after its last renewal
REQUEST_SECONDS = 10.0  # an owner's answer to a relayed lobby call
OPS = ("take_seat", "leave", "set_bot", "start")

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


class OwnerGone(Exception):
    """Nobody listens on the owner's channel: the process is gone (its lease runs out soon)."""


class Moved(Exception):
    """The process asked no longer owns the room."""


class NoAnswer(RoomError):
    """The owner did not answer a request in time (it may be frozen, its lease running out)."""

    def __init__(self) -> None:
        super().__init__("unavailable", "the room's server did not answer in time: try again", 503)


class LeaseLost(Exception):
    """This process cannot be sure it still owns its rooms (Redis did not confirm in time)."""


def snapshot(room: Room) -> dict[str, Any]:
    """What a non-owner needs to answer lobby calls and check who may watch."""
    return {
        "info": room.info(),
        "invite": room.invite,
        "host": room.host,
        "public": room.public,
        "players": [seat.player for seat in room.seats],
    }


class ClusterRooms(Rooms):
    """The rooms of one process of several: those it owns, and links to the others'."""

    def __init__(self, store: Store, url: str):
        super().__init__(store)
        redis_url, self.prefix, self.lease = cluster_settings(url)
        self.redis = aioredis.from_url(redis_url, decode_responses=True)
        self.node = secrets.token_hex(8)
        self.channel = self.channel_of(self.node)
        self.acquire = self.redis.register_script(ACQUIRE)
        self.renew = self.redis.register_script(RENEW)
        self.release = self.redis.register_script(RELEASE)
        self.held: set[str] = set()  # rooms whose lease this process holds
        self.links: dict[str, Link] = {}
        self.relayed: dict[tuple[str, str], Relayed] = {}  # (origin node, client id) -> conn
        self.cids: dict[Any, str] = {}  # a local client relayed to an owner -> its id
        self.by_cid: dict[str, tuple[Any, str]] = {}  # client id -> (client, room id)
        self.pending: dict[str, asyncio.Future] = {}
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.counter = itertools.count()
        self.safe_until = 0.0
        self.closing = False
        self.tasks: list[asyncio.Task] = []
        self.background: set[asyncio.Task] = set()
        self.games: dict[int, str] = {}  # game id -> its room's id (the fence asks)
        # A client relayed to an owner -> when the oldest of its frames nothing has answered
        # yet was relayed; and those rerouted for it (the owner seemed to have forgotten them).
        self.asked: dict[Any, float] = {}
        self.rerouted: dict[Any, float] = {}
        # how long a client may wait for its room's owner: to hear its welcome after hello,
        # an answer to a frame, a new owner after the old one went (then it is told, and closed)
        self.welcome_seconds = 2 * self.lease + 10
        store.journal = FencedJournal(store, self)
        self.metrics.watch(self.metrics.rooms_owned, lambda: len(self.held))
        self.metrics.node.info({"node": self.node})

    # ----- names -----------------------------------------------------------------------------

    def key(self, room_id: str) -> str:
        return f"{self.prefix}room:{room_id}"

    def channel_of(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    @property
    def lease_ms(self) -> int:
        return int(self.lease * 1000)

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
        await self.redis.ping()
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(self.channel)
        self.safe_until = time.monotonic() + SAFE * self.lease
        self.tasks = [
            asyncio.create_task(self._listen(), name="cluster listen"),
            asyncio.create_task(self._publish(), name="cluster publish"),
            asyncio.create_task(self._tick(), name="cluster leases"),
        ]
        return await self._sweep()

    async def close(self) -> None:
        """Let go of every room at once (the others take them over without waiting for the
        leases to run out)."""
        self.closing = True
        listen, publish, tick = self.tasks or (None, None, None)
        for task in (tick, listen):
            if task is not None:
                task.cancel()
        for room_id in list(self.held):
            with contextlib.suppress(Exception):
                await self._drop(room_id, release=True)
        for room in list(self.loaded.values()):
            await room.close()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2):
                while not self.outbox.empty():
                    await asyncio.sleep(0.01)
        for task in [publish, *self.background]:
            if task is not None:
                task.cancel()
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        await self.redis.aclose()

    def spawn(self, coro: Any) -> asyncio.Task:
        task = asyncio.create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    # ----- leases ------------------------------------------------------------------------------

    async def locate(self, room_id: str) -> str:
        """The node id of the room's owner; this process's own when nobody held it."""
        if self.closing:
            raise RoomError("unavailable", "this server is stopping: try again", 503)
        owner = await self.acquire(keys=[self.key(room_id)], args=[self.node, self.lease_ms])
        if owner == self.node:
            self.held.add(room_id)
        return owner

    async def local(self, room_id: str) -> Room:
        """The room, loaded here (this process holds its lease)."""
        room = self.loaded.get(room_id)
        if room is not None:
            return room
        async with self.loading:
            room = self.loaded.get(room_id)
            if room is None:
                try:
                    room = await Room.load(self.store, room_id, self.thinker)
                except Exception:
                    await self._drop(room_id, release=True)
                    raise
                if room is None:
                    await self._drop(room_id, release=True)
                    raise RoomError("not_found", f"no room {room_id!r}", 404)
                if room_id not in self.held:  # lost while loading
                    await room.close()
                    raise Moved
                self.loaded[room_id] = room
            return room

    async def owned(self, room_id: str) -> Room | None:
        """The room when this process owns it (loading it if need be), else None."""
        room = self.loaded.get(room_id)
        if room is not None and room_id in self.held:
            return room
        if self.closing:
            return None
        if await self.locate(room_id) != self.node:
            return None
        try:
            return await self.local(room_id)
        except Moved:
            return None

    async def _drop(self, room_id: str, release: bool = False) -> None:
        """Stop running a room here (its lease is gone, or this process lets go of it): its
        relayed connections' processes and its local clients look for the new owner."""
        self.held.discard(room_id)
        room = self.loaded.pop(room_id, None)
        if release:
            await self.release(keys=[self.key(room_id)], args=[self.node])
        if room is None:
            return
        await room.close()
        origins = set()
        for conn in list(room.connections):
            if isinstance(conn, Relayed):
                conn.stop()
                origins.add(conn.origin)
        for origin in origins:
            self.post(origin, json.dumps({"k": "moved", "room": room_id, "from": self.node}))
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

    def conflict(self, game_id: int) -> None:
        """Another process stored an action this one meant to: reload the room from the
        database (if this process still owns it) so it sees what was really stored."""
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

    async def _tick(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(self.lease / 4)
            ticks += 1
            try:
                await self._renew()
                await self._check_origins()
                await self._check_links()
                if ticks % 4 == 0:
                    await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: %s: %s", type(exc).__name__, exc)
            if time.monotonic() > self.safe_until and self.held:
                log.warning(
                    "cluster: leases not confirmed in time: dropping %d rooms", len(self.held)
                )
                dropped = list(self.held)
                self.held.clear()
                await asyncio.gather(*(self._drop(r) for r in dropped), return_exceptions=True)

    async def _renew(self) -> None:
        """Renew every lease held. The rooms whose lease is lost stop writing *before* the
        others' time is extended (they leave ``held`` at once: the fence asks it), then are
        dropped, all together."""
        held = sorted(self.held)
        sent = time.monotonic()
        if held:
            kept = await self.renew(
                keys=[self.key(r) for r in held], args=[self.node, self.lease_ms]
            )
        else:
            await self.redis.ping()
            kept = []
        lost = [room_id for room_id, ok in zip(held, kept, strict=True) if not ok]
        self.held.difference_update(lost)
        self.metrics.leases.labels("renewed").inc(len(held) - len(lost))
        self.metrics.leases.labels("lost").inc(len(lost))
        self.safe_until = sent + SAFE * self.lease
        for room_id in lost:
            log.warning("room %s: lease lost: dropped here", room_id, extra={"room": room_id})
        await asyncio.gather(*(self._drop(room_id) for room_id in lost), return_exceptions=True)

    def writable(self, game_id: int) -> bool:
        """Whether this process may store an action of ``game_id``: its room's lease is held
        and was confirmed recently enough (three quarters of a lease)."""
        if time.monotonic() > self.safe_until:
            return False
        room_id = self.games.get(game_id)
        room = None if room_id is None else self.loaded.get(room_id)
        if room is None or room.match.game_id != game_id:
            self.games = {r.match.game_id: i for i, r in self.loaded.items() if r.match.game_id}
            room_id = self.games.get(game_id)
        return room_id is not None and room_id in self.held

    async def _check_origins(self) -> None:
        """Connections relayed from a process that is gone are detached."""
        origins = {conn.origin for conn in self.relayed.values()}
        if origins:
            counts = await self.redis.pubsub_numsub(*(self.channel_of(o) for o in origins))
            for channel, count in counts:
                if not count:
                    self.origin_gone(channel.removeprefix(f"{self.prefix}node:"))

    async def _check_links(self) -> None:
        """Links whose owner changed (or whose room was dropped) move their clients; a link
        nobody has used for a lease is forgotten; a client left unanswered is rerouted, then
        told and closed (:meth:`_check_clients`)."""
        remote = []
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
                remote.append(link)
                self._check_clients(link, now)
            elif link.current() is None:
                link.move_soon()
        if remote:
            owners = await self.redis.mget([self.key(link.id) for link in remote])
            for link, owner in zip(remote, owners, strict=True):
                if owner != link.target.owner:
                    link.move_soon()

    def _check_clients(self, link: Link, now: float) -> None:
        """A client whose relayed frame the owner has not answered for ``welcome_seconds``
        (every frame gets an ``ack`` or an ``error``) is attached to the owner again, which
        sends it the table; still nothing as long after that, it is told and closed."""
        bound = self.welcome_seconds
        for client in list(link.clients):
            asked = self.asked.get(client)
            if asked is None or now - asked <= bound:
                continue
            rerouted = self.rerouted.get(client)
            if rerouted is None:
                self.rerouted[client] = now
                self.metrics.stalled_connections.labels("rerouted").inc()
                log.warning(
                    "room %s: a client's frame went unanswered: attached again",
                    link.id,
                    extra={"room": link.id},
                )
                link.move_soon()
            elif now - rerouted > bound:
                self.metrics.stalled_connections.labels("closed").inc()
                self.asked.pop(client, None)
                self.rerouted.pop(client, None)
                client.end("unavailable", "the room's server does not answer: connect again")

    async def _sweep(self) -> int:
        """Take over the unowned rooms with a game in progress, so their bots and timers run."""
        ids = [i for i in await self.store.rooms_in_play() if i not in self.held]
        if not ids:
            return 0
        taken = 0
        owners = await self.redis.mget([self.key(i) for i in ids])
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

    async def get(self, room_id: str) -> Link:  # type: ignore[override]
        link = self.link(room_id)
        link.used = time.monotonic()
        await link.route()
        link.used = time.monotonic()
        return link

    async def create(self, *args: Any, **kwargs: Any) -> Link:  # type: ignore[override]
        room = await super().create(*args, **kwargs)
        if await self.locate(room.id) != self.node:  # a fresh id: nobody else can hold it
            raise RoomError("unavailable", "could not take the new room's lease", 503)
        link = self.link(room.id)
        link.target = room
        return link

    # ----- messages ------------------------------------------------------------------------------

    def post(self, node: str, text: str) -> None:
        """Publish to a process's channel in order, without waiting."""
        self.outbox.put_nowait((self.channel_of(node), text))

    async def send(self, node: str, data: dict[str, Any]) -> int:
        """Publish now; how many processes heard it (0: the node is gone)."""
        return await self.redis.publish(self.channel_of(node), json.dumps(data))

    async def request(
        self, owner: str, room_id: str, op: str, args: list[Any], seconds: float = REQUEST_SECONDS
    ) -> dict[str, Any]:
        """A lobby call, done by the room's owner; the room's snapshot after it (NoAnswer when
        none came within ``seconds``)."""
        request_id = str(next(self.counter))
        future = asyncio.get_running_loop().create_future()
        self.pending[request_id] = future
        try:
            message = {"k": "req", "id": request_id, "from": self.node, "room": room_id}
            if not await self.send(owner, {**message, "op": op, "args": args}):
                raise OwnerGone
            try:
                answer = await asyncio.wait_for(future, seconds)
            except TimeoutError:
                raise NoAnswer from None
        finally:
            self.pending.pop(request_id, None)
        if "moved" in answer:
            raise Moved
        if "error" in answer:
            code, text, status = answer["error"]
            raise RoomError(code, text, status)
        return answer["ok"]

    def cid(self, client: Any, room_id: str) -> str:
        cid = self.cids.get(client)
        if cid is None:
            cid = self.cids[client] = str(next(self.counter))
        self.by_cid[cid] = (client, room_id)
        return cid

    def forget(self, client: Any) -> None:
        self.asked.pop(client, None)
        self.rerouted.pop(client, None)
        cid = self.cids.pop(client, None)
        if cid is not None:
            self.by_cid.pop(cid, None)

    async def _publish(self) -> None:
        """Write the outbox to Redis in batches, in order."""
        while True:
            batch = [await self.outbox.get()]
            while len(batch) < 512 and not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            try:
                pipe = self.redis.pipeline(transaction=False)
                for channel, text in batch:
                    pipe.publish(channel, text)
                counts = await pipe.execute()
            except Exception as exc:
                log.warning("cluster: publish failed: %s", exc)
                await asyncio.sleep(0.1)
                continue
            gone = {channel for (channel, _), n in zip(batch, counts, strict=True) if not n}
            for channel in gone:
                self.origin_gone(channel.removeprefix(f"{self.prefix}node:"))

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message["type"] == "message":
                        try:
                            self._dispatch(message["data"])
                        except Exception:
                            log.exception("cluster: bad message %.200r", message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: listening failed (%s); again", exc)
                await asyncio.sleep(0.2)
                with contextlib.suppress(Exception):
                    await self.pubsub.subscribe(self.channel)

    def _dispatch(self, data: str) -> None:
        if data.startswith("F"):  # F<owner> <client id> <frame>: a frame for a local client
            head, cid, text = data.split(" ", 2)
            found = self.by_cid.get(cid)
            if found is not None:
                client, room_id = found
                link = self.links.get(room_id)
                target = None if link is None else link.target
                if isinstance(target, Remote) and target.owner == head[1:]:
                    self.asked.pop(client, None)  # the owner answers it
                    self.rerouted.pop(client, None)
                    client.send(text)
            return
        message = json.loads(data)
        kind = message["k"]
        if kind == "reply":
            future = self.pending.get(message["id"])
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "req":
            self.spawn(self._answer(message))
        elif kind == "attach":
            key = (message["from"], message["c"])
            old = self.relayed.pop(key, None)
            if old is not None:
                old.inbox.put_nowait(("detach", None))
            conn = Relayed(self, message["from"], message["c"], message["p"], message["room"])
            self.relayed[key] = conn
            conn.inbox.put_nowait(("attach", None))
        elif kind in ("recv", "detach"):
            key = (message["from"], message["c"])
            conn = self.relayed.get(key) if kind == "recv" else self.relayed.pop(key, None)
            if conn is not None:
                conn.inbox.put_nowait((kind, message.get("m")))
            elif kind == "recv":  # this process forgot the connection: attach it again
                text = "the room is moving to another server: nothing changed"
                error = dumps(protocol.error("moving", text, (message.get("m") or {}).get("id")))
                self.post(message["from"], f"F{self.node} {message['c']} {error}")  # answered
                moved = {"k": "moved", "room": message["room"], "from": self.node}
                self.post(message["from"], json.dumps(moved))
        elif kind == "moved":
            link = self.links.get(message["room"])
            target = None if link is None else link.target
            if isinstance(target, Remote) and target.owner == message["from"]:
                link.move_soon()

    async def _answer(self, message: dict[str, Any]) -> None:
        try:
            room = await self.owned(message["room"])
            if room is None:
                answer: dict[str, Any] = {"moved": True}
            else:
                op = message["op"]
                if op != "describe":
                    if op not in OPS:
                        raise RoomError("bad_request", f"no such room call {op!r}", 400)
                    await getattr(room, op)(*message["args"])
                answer = {"ok": snapshot(room)}
        except RoomError as exc:
            answer = {"error": [exc.code, str(exc), exc.status]}
        except Exception:
            room_id = message.get("room")
            log.exception(
                "room %s: relayed %s failed", room_id, message.get("op"), extra={"room": room_id}
            )
            answer = {"error": ["internal", "the room's server failed: try again", 500]}
        self.post(message["from"], json.dumps({"k": "reply", "id": message["id"], **answer}))

    def origin_gone(self, node: str) -> None:
        """A process with clients relayed here is gone: its clients are detached."""
        for key, conn in list(self.relayed.items()):
            if conn.origin == node:
                self.relayed.pop(key, None)
                conn.inbox.put_nowait(("detach", None))


class Link:
    """A room as this process reaches it: the :class:`Room` itself when this process owns it,
    else a :class:`Remote` for the owner. Lobby and live code use it as they use a Room."""

    def __init__(self, rooms: ClusterRooms, room_id: str):
        self.rooms, self.id = rooms, room_id
        self.target: Room | Remote | None = None
        self.clients: set[Any] = set()  # local WebSocket clients attached through this link
        self.lock = asyncio.Lock()
        self.moving: asyncio.Task | None = None
        self.used = time.monotonic()  # last handed out by ClusterRooms.get
        self.lost_since: float | None = None  # when it last failed to find an owner, if it did
        # The room's link in the registry, when this one was forgotten while its caller still
        # held it (a client attaching through it goes through that one instead).
        self.home: Link | None = None

    def idle(self, now: float, lease: float) -> bool:
        """No client, nobody finding its owner, none handed out for a lease: it may go (the
        frames for a client find its link in the registry: one with clients always stays)."""
        return (
            not self.clients
            and not self.lock.locked()
            and (self.moving is None or self.moving.done())
            and now - self.used > lease
            and not isinstance(self.target, Room)
        )

    def current(self) -> Room | Remote | None:
        """The target, unless it is a room this process no longer owns."""
        target = self.target
        if isinstance(target, Room) and self.rooms.loaded.get(self.id) is not target:
            return None
        return target

    async def route(self, force: bool = False, again: bool = False) -> None:
        """Find the owner (taking the room when nobody holds it) and refresh what is known of
        the room; clients attached here follow a change of owner (or are attached to the same
        owner ``again``, when it has forgotten them)."""
        if not force and isinstance(self.target, Room) and self.current() is not None:
            return
        async with self.lock:
            rooms = self.rooms
            deadline = time.monotonic() + 2 * rooms.lease + 5
            while True:
                try:
                    owner = await rooms.locate(self.id)
                    if owner == rooms.node:
                        target: Room | Remote = await rooms.local(self.id)
                    else:
                        target = self.target
                        if not (isinstance(target, Remote) and target.owner == owner):
                            target = Remote(rooms, self.id, owner)
                        await target.describe()
                    break
                except (OwnerGone, Moved, NoAnswer):  # (a frozen owner's lease runs out too)
                    if time.monotonic() > deadline:
                        raise RoomError(
                            "unavailable", "the room's server is gone: try again soon", 503
                        ) from None
                    await asyncio.sleep(rooms.lease / 10)  # until its lease runs out
            self.lost_since = None
            self.used = time.monotonic()
            if target is self.target and not (again and isinstance(target, Remote)):
                return
            old, self.target = self.target, target
            for client in list(self.clients):
                if isinstance(old, Remote) and old is not target:
                    await old.detach(client)
                await self._attach(target, client)

    def move_soon(self) -> None:
        """Look for the room's new owner in the background (once at a time) and attach the
        clients there."""
        if self.rooms.closing:
            return
        if self.moving is None or self.moving.done():
            self.moving = self.rooms.spawn(self._move())

    async def _move(self) -> None:
        try:
            await self.route(force=True, again=True)
        except Exception as exc:  # the next tick tries again
            if self.lost_since is None:
                self.lost_since = time.monotonic()
            log.warning("room %s: no owner found yet: %s", self.id, exc, extra={"room": self.id})

    def strand(self, why: str) -> None:
        """Tell each client why the room cannot be reached here, and close it (it connects
        again, to this process or another)."""
        log.warning("room %s: %s", self.id, why, extra={"room": self.id})
        for client in list(self.clients):
            self.rooms.metrics.stalled_connections.labels("closed").inc()
            client.end("unavailable", why)
        self.lost_since = None

    async def _attach(self, target: Room | Remote, client: Any) -> None:
        try:
            await target.attach(client)
        except OwnerGone:
            self.move_soon()
            return
        except Exception as exc:  # Redis failed: the next tick finds the owner again
            log.warning("room %s: attach failed: %s", self.id, exc, extra={"room": self.id})
            self.move_soon()
            return
        if client not in self.clients:  # it left while being attached
            await target.detach(client)

    # what live play uses

    async def attach(self, client: Any) -> None:
        home = self.rooms.links.setdefault(self.id, self)
        if home is not self:  # forgotten meanwhile: frames for its clients would find no link
            self.home = home
            return await home.attach(client)
        async with self.lock:
            self.clients.add(client)
            target = self.current()
            if target is None:
                self.move_soon()
            else:
                await self._attach(target, client)

    async def detach(self, client: Any) -> None:
        if self.home is not None:
            return await self.home.detach(client)
        self.clients.discard(client)
        target = self.target
        if target is not None:
            await target.detach(client)
        self.rooms.forget(client)

    async def receive(self, client: Any, message: Any) -> None:
        if self.home is not None:
            return await self.home.receive(client, message)
        target = self.current()
        if isinstance(target, Room):
            return await target.receive(client, message)
        if isinstance(target, Remote):
            try:
                if await target.relay(client, message):
                    return
            except Exception as exc:  # Redis failed: answered below, and the owner looked for
                log.warning("room %s: relay failed: %s", self.id, exc, extra={"room": self.id})
        text = "the room is moving to another server: nothing changed; the table follows"
        client.send(dumps(protocol.error("moving", text, message.id)))
        self.move_soon()

    # what the lobby uses

    async def _call(self, op: str, *args: Any) -> None:
        for _ in range(3):
            target = self.current()
            if isinstance(target, Room):
                return await getattr(target, op)(*args)
            if isinstance(target, Remote):
                try:
                    return await target.call(op, *args)
                except (OwnerGone, Moved):
                    pass
            await self.route(force=True)
        raise RoomError("unavailable", "the room keeps moving between servers: try again", 503)

    async def take_seat(self, player: str, name: str, seat: int, invite: str | None) -> None:
        await self._call("take_seat", player, name, seat, invite)

    async def leave(self, player: str) -> None:
        await self._call("leave", player)

    async def set_bot(self, player: str, seat: int, bot: str | None) -> None:
        await self._call("set_bot", player, seat, bot)

    async def start(self, player: str) -> None:
        await self._call("start", player)

    def info(self) -> dict[str, Any]:
        return self.target.info()

    def may_watch(self, player: str | None, invite: str | None) -> bool:
        return self.target.may_watch(player, invite)

    @property
    def invite(self) -> str:
        return self.target.invite

    @property
    def host(self) -> str:
        return self.target.host

    @property
    def public(self) -> bool:
        return self.target.public


class Remote:
    """A room owned by another process: lobby calls are requests to it, local clients are
    attached to it as relayed connections."""

    def __init__(self, rooms: ClusterRooms, room_id: str, owner: str):
        self.rooms, self.id, self.owner = rooms, room_id, owner
        self.seen: dict[str, Any] = {}  # the owner's latest snapshot of the room

    async def describe(self) -> None:
        # A read: asked again (of whoever then holds the lease) rather than waited on long.
        wait = max(1.0, self.rooms.lease)
        self.seen = await self.rooms.request(self.owner, self.id, "describe", [], wait)

    async def call(self, op: str, *args: Any) -> None:
        self.seen = await self.rooms.request(self.owner, self.id, op, list(args))

    async def attach(self, client: Any) -> None:
        cid = self.rooms.cid(client, self.id)
        message = {"k": "attach", "from": self.rooms.node, "c": cid, "room": self.id}
        if not await self.rooms.send(self.owner, {**message, "p": client.player}):
            raise OwnerGone

    async def detach(self, client: Any) -> None:
        cid = self.rooms.cids.get(client)
        if cid is not None:
            message = {"k": "detach", "from": self.rooms.node, "c": cid, "room": self.id}
            with contextlib.suppress(Exception):
                await self.rooms.send(self.owner, message)

    async def relay(self, client: Any, message: Any) -> bool:
        """Pass a client's frame to the owner; False when nobody heard it."""
        cid = self.rooms.cids.get(client)
        if cid is None:
            return False
        data = {"k": "recv", "from": self.rooms.node, "c": cid, "room": self.id}
        heard = bool(await self.rooms.send(self.owner, {**data, "m": message.model_dump()}))
        if heard:
            self.rooms.metrics.relayed.labels("in").inc()
            self.rooms.asked.setdefault(client, time.monotonic())
        return heard

    def info(self) -> dict[str, Any]:
        return self.seen["info"]

    def may_watch(self, player: str | None, invite: str | None) -> bool:
        return (
            self.public
            or player == self.host
            or (player is not None and player in self.seen["players"])
            or (invite is not None and same_secret(invite, self.invite))
        )

    @property
    def invite(self) -> str:
        return self.seen["invite"]

    @property
    def host(self) -> str:
        return self.seen["host"]

    @property
    def public(self) -> bool:
        return self.seen["public"]


class Relayed:
    """A client connected to another process, as the owner's room sees it (a
    :class:`~yamen.server.rooms.Connection`): its frames are published to that process. What
    arrives for it (attach, frames, detach) is handled in order by a task of its own."""

    def __init__(self, rooms: ClusterRooms, origin: str, cid: str, player: str | None, room: str):
        self.rooms, self.origin, self.cid, self.room_id = rooms, origin, cid, room
        self.player, self.seat = player, None
        self.room: Room | None = None
        self.channel = rooms.channel_of(origin)
        self.head = f"F{rooms.node} {cid} "
        self.inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.worker = rooms.spawn(self._work())

    def send(self, text: str) -> None:
        self.rooms.metrics.relayed.labels("out").inc()
        self.rooms.outbox.put_nowait((self.channel, self.head + text))

    def stop(self) -> None:
        """The room was dropped here: nothing more is done for this connection. Its frames
        not yet begun are answered (they changed nothing); the one under way, if any, is
        answered by the table the client gets from the new owner."""
        self.rooms.relayed.pop((self.origin, self.cid), None)
        self.room = None
        self.worker.cancel()
        text = "the room is moving to another server: nothing changed"
        while not self.inbox.empty():
            kind, data = self.inbox.get_nowait()
            if kind == "recv":
                self.send(dumps(protocol.error("moving", text, (data or {}).get("id"))))

    def _moved(self) -> None:
        message = {"k": "moved", "room": self.room_id, "from": self.rooms.node}
        self.rooms.post(self.origin, json.dumps(message))

    async def _work(self) -> None:
        rooms = self.rooms
        while True:
            kind, data = await self.inbox.get()
            try:
                if kind == "attach":
                    self.room = await rooms.owned(self.room_id)
                    if self.room is None:
                        rooms.relayed.pop((self.origin, self.cid), None)
                        return self._moved()
                    await self.room.attach(self)
                elif kind == "recv":
                    if self.room is None or rooms.loaded.get(self.room_id) is not self.room:
                        # answered (never silence), and the client's process finds the owner
                        text = "the room is moving to another server: nothing changed"
                        self.send(dumps(protocol.error("moving", text, data.get("id"))))
                        self._moved()
                        continue
                    message = protocol.client_message.validate_python(data)
                    await self.room.receive(self, message)
                else:
                    if self.room is not None:
                        await self.room.detach(self)
                    return
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception(
                    "room %s: relayed %s failed", self.room_id, kind, extra={"room": self.room_id}
                )
                if kind == "recv":  # every frame gets an answer
                    text = "the room's server failed on this frame: nothing changed, try again"
                    self.send(dumps(protocol.error("internal", text, (data or {}).get("id"))))
                elif kind == "attach":  # the client's process looks for the owner again
                    rooms.relayed.pop((self.origin, self.cid), None)
                    return self._moved()


class FencedJournal(Journal):
    """The action journal of a process in a cluster: it writes nothing once the process cannot
    be sure it still owns its rooms, and reloads a room whose log another process wrote to."""

    def __init__(self, store: Store, rooms: ClusterRooms):
        super().__init__(store)
        self.rooms = rooms

    async def append(self, game_id: int, index: int, seat: int, text: str) -> None:
        if not self.rooms.writable(game_id):
            self.count("fenced")
            raise LeaseLost("this process cannot confirm that it still owns this room")
        try:
            await super().append(game_id, index, seat, text)
        except IntegrityError:
            self.rooms.conflict(game_id)
            raise

    async def _insert(self, rows: list[dict[str, Any]]) -> None:
        # Asked again just before the write: the process may have been frozen (SIGSTOP) or
        # slow since the action was taken, and its lease may have moved meanwhile.
        if not all(self.rooms.writable(row["game_id"]) for row in rows):
            raise LeaseLost("this process cannot confirm that it still owns this room")
        await super()._insert(rows)
