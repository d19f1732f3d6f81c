"""Stand-ins for a room across processes.

- :class:`Link`: a room as this process reaches it, handed out by ``ClusterRooms.get``: the
  :class:`~yamen.server.rooms.Room` itself when this process owns it, else a :class:`Remote`.
  When the owner goes away (the lease moves, the owner's process lease runs out, or the owner
  lets go of the room), the link finds or becomes the new owner and attaches its clients again;
  each gets a fresh ``state`` frame. When frames between this process and the owner may have
  been lost, its clients are attached to the same owner again (:meth:`Link.resync_soon`), which
  sends them the table without detaching them first.
- :class:`Remote`: a room another process owns: a lobby operation is a call to it (the
  :class:`~yamen.server.operations.Operation` carried as data, answered with the room's
  snapshot or its refusal), local clients are attached to it as relayed connections.
- :class:`Relayed`: on the owner, a client connected to another process, as the room sees it.

Link, Remote and Room are all a :class:`~yamen.server.handle.RoomHandle`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from yamen.server import protocol
from yamen.server.cluster.bus import NoAnswer, NotOwner, OwnerGone
from yamen.server.cluster.messages import Attach, Deliver, Detach, Forward, Moved, Snapshot
from yamen.server.errors import RoomError
from yamen.server.frames import dumps
from yamen.server.handle import Client
from yamen.server.identity import admits
from yamen.server.operations import Operation
from yamen.server.rooms import Room

if TYPE_CHECKING:
    from yamen.server.cluster.registry import ClusterRooms

log = logging.getLogger(__name__)
MOVING = "the room is moving to another server: nothing changed"


class Link:
    """A room as this process reaches it: the :class:`Room` itself when this process owns it,
    else a :class:`Remote` for the owner. Lobby and live code use it as they use a Room."""

    def __init__(self, rooms: ClusterRooms, room_id: str):
        self.rooms, self.id = rooms, room_id
        self.target: Room | Remote | None = None
        self.clients: set[Client] = set()  # local WebSocket clients attached through this link
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
                    target: Room | Remote
                    if owner == rooms.node:
                        target = await rooms.local(self.id)
                    elif isinstance(self.target, Remote) and self.target.owner == owner:
                        target = self.target
                        await target.describe()
                    else:
                        target = await Remote.reach(rooms, self.id, owner)
                    break
                except (OwnerGone, NotOwner, NoAnswer):  # (a frozen owner's lease runs out too)
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

    def resync_soon(self) -> None:
        """Attach the clients to the owner again, in the background: frames for them may have
        been lost, and each gets a fresh welcome and table."""
        if not self.rooms.closing:
            self.rooms.spawn(self._resync())

    async def _resync(self) -> None:
        async with self.lock:
            target = self.current()
            if isinstance(target, Remote):
                for client in list(self.clients):
                    await self._attach(target, client)

    async def resync(self, conn: Client) -> None:
        """Send one client the table again (it heard nothing for too long): attached to the
        owner again when another process owns the room, else the room's state."""
        if self.home is not None:
            return await self.home.resync(conn)
        async with self.lock:
            target = self.current()
            if isinstance(target, Remote) and conn in self.clients:
                await self._attach(target, conn)
        if target is None:
            self.move_soon()
        elif isinstance(target, Room):
            await target.resync(conn)

    def strand(self, why: str) -> None:
        """Tell each client why the room cannot be reached here, and close it (it connects
        again, to this process or another)."""
        log.warning("room %s: %s", self.id, why, extra={"room": self.id})
        for client in list(self.clients):
            self.rooms.metrics.stalled_connections.labels("closed").inc()
            client.end("unavailable", why)
        self.lost_since = None

    async def _attach(self, target: Room | Remote, client: Client) -> None:
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

    async def attach(self, conn: Client) -> None:
        home = self.rooms.links.setdefault(self.id, self)
        if home is not self:  # forgotten meanwhile: frames for its clients would find no link
            self.home = home
            return await home.attach(conn)
        async with self.lock:
            self.clients.add(conn)
            target = self.current()
            if target is None:
                self.move_soon()
            else:
                await self._attach(target, conn)

    async def detach(self, conn: Client) -> None:
        if self.home is not None:
            return await self.home.detach(conn)
        self.clients.discard(conn)
        target = self.target
        if target is not None:
            await target.detach(conn)
        self.rooms.clients.forget(conn)

    async def receive(self, conn: Client, message: protocol.Request) -> bool:
        if self.home is not None:
            return await self.home.receive(conn, message)
        target = self.current()
        if isinstance(target, Room):
            return await target.receive(conn, message)
        if isinstance(target, Remote):
            try:
                return await target.receive(conn, message)
            except OwnerGone:  # nobody heard it: answered below, and the owner looked for
                pass
            except Exception as exc:  # Redis failed: the same
                log.warning("room %s: relay failed: %s", self.id, exc, extra={"room": self.id})
        text = "the room is moving to another server: nothing changed; the table follows"
        conn.send(dumps(protocol.error("moving", text, message.id)))
        self.move_soon()
        return False

    # what the lobby uses

    async def run(self, op: Operation) -> None:
        """Do the operation on the room where it runs now; when the owner changes meanwhile
        (NotOwner, OwnerGone), at the new owner."""
        for _ in range(3):
            target = self.current()
            if target is not None:
                with contextlib.suppress(OwnerGone, NotOwner):  # (a Room raises neither)
                    return await target.run(op)
            await self.route(force=True)
        raise RoomError("unavailable", "the room keeps moving between servers: try again", 503)

    @property
    def reached(self) -> Room | Remote:
        """The target (``ClusterRooms.get`` routes a link before handing it out)."""
        assert self.target is not None, "a link is routed before it is used"
        return self.target

    def info(self) -> dict[str, Any]:
        return self.reached.info()

    def may_watch(self, player: str | None, invite: str | None) -> bool:
        return self.reached.may_watch(player, invite)

    @property
    def invite(self) -> str:
        return self.reached.invite

    @property
    def host(self) -> str:
        return self.reached.host

    @property
    def public(self) -> bool:
        return self.reached.public


class Remote:
    """A room owned by another process: lobby operations are calls to it, local clients are
    attached to it as relayed connections. ``seen`` is the owner's latest snapshot of it."""

    def __init__(self, rooms: ClusterRooms, room_id: str, owner: str, seen: Snapshot):
        self.rooms, self.id, self.owner, self.seen = rooms, room_id, owner, seen

    @classmethod
    async def reach(cls, rooms: ClusterRooms, room_id: str, owner: str) -> Remote:
        return cls(rooms, room_id, owner, await cls._describe(rooms, room_id, owner))

    @staticmethod
    async def _describe(rooms: ClusterRooms, room_id: str, owner: str) -> Snapshot:
        # A read: asked again (of whoever then holds the lease) rather than waited on long.
        return await rooms.bus.call(owner, room_id, None, max(1.0, rooms.lease))

    async def describe(self) -> None:
        self.seen = await self._describe(self.rooms, self.id, self.owner)

    async def run(self, op: Operation) -> None:
        """The owner does the operation (the bus carries it as data); its snapshot after it
        is what is seen here. The owner's refusal comes back as the RoomError it raised."""
        self.seen = await self.rooms.bus.call(self.owner, self.id, op)

    async def attach(self, conn: Client) -> None:
        rooms = self.rooms
        cid = rooms.clients.cid(conn, self.id)
        if not await rooms.bus.send(self.owner, Attach(rooms.node, cid, self.id, conn.player)):
            raise OwnerGone

    async def detach(self, conn: Client) -> None:
        cid = self.rooms.clients.known(conn)
        if cid is not None:  # in order after its frames; not waited for (the owner may be gone)
            self.rooms.bus.post(self.owner, Detach(self.rooms.node, cid, self.id))

    async def receive(self, conn: Client, message: protocol.Request) -> bool:
        """Pass a client's frame to the owner, which answers it (OwnerGone when nobody heard
        it). Whether the game took it is not known here: False."""
        rooms = self.rooms
        cid = rooms.clients.known(conn)
        if cid is None:
            raise OwnerGone
        forward = Forward(rooms.node, cid, self.id, message.model_dump())
        if not await rooms.bus.send(self.owner, forward):
            raise OwnerGone
        rooms.metrics.relayed.labels("in").inc()
        rooms.clients.relayed(conn)
        return False

    def info(self) -> dict[str, Any]:
        return self.seen.info

    def may_watch(self, player: str | None, invite: str | None) -> bool:
        seen = self.seen
        seated = player is not None and player in seen.players
        return admits(
            player, invite, public=seen.public, host=seen.host, code=seen.invite, seated=seated
        )

    @property
    def invite(self) -> str:
        return self.seen.invite

    @property
    def host(self) -> str:
        return self.seen.host

    @property
    def public(self) -> bool:
        return self.seen.public


class Relayed:
    """A client connected to another process, as the owner's room sees it (a
    :class:`~yamen.server.handle.Connection`): its frames are published to that process. What
    arrives for it (attach, frames, detach) is handled in order by a task of its own."""

    def __init__(self, rooms: ClusterRooms, attach: Attach):
        self.rooms, self.origin, self.cid = rooms, attach.origin, attach.client
        self.room_id = attach.room
        self.player = attach.player
        self.seat: int | None = None  # set by the room when attached
        self.room: Room | None = None
        self.inbox: asyncio.Queue[Attach | Forward | Detach] = asyncio.Queue()
        self.inbox.put_nowait(attach)
        self.sent_at = time.monotonic()  # when it was last sent a frame (yamen/server/beats.py)
        self.worker = rooms.spawn(self._work())

    @property
    def key(self) -> tuple[str, str]:
        return self.origin, self.cid

    def send(self, text: str) -> None:
        self.sent_at = time.monotonic()
        self.rooms.metrics.relayed.labels("out").inc()
        self.rooms.bus.post(self.origin, Deliver(self.rooms.node, self.cid, text))

    def stop(self) -> None:
        """The room was dropped here: nothing more is done for this connection. Its frames
        not yet begun are answered (they changed nothing); the one under way, if any, is
        answered by the table the client gets from the new owner."""
        self.rooms.relayed.pop(self.key, None)
        self.room = None
        self.worker.cancel()
        while not self.inbox.empty():
            message = self.inbox.get_nowait()
            if isinstance(message, Forward):
                self.send(dumps(protocol.error("moving", MOVING, message.frame.get("id"))))

    def _moved(self) -> None:
        self.rooms.bus.post(self.origin, Moved(self.rooms.node, self.room_id))

    def attached(self) -> Room | None:
        """The room it is attached to, if that room still runs here."""
        room = self.room
        if room is None or self.rooms.loaded.get(self.room_id) is not room:
            return None
        return room if self in room.connections else None

    async def _work(self) -> None:
        rooms = self.rooms
        while True:
            message = await self.inbox.get()
            try:
                if isinstance(message, Attach):
                    room = self.attached()
                    if room is not None:  # attached again: the table again, nothing detached
                        await room.resync(self, welcome=True)
                        continue
                    self.room = await rooms.owned(self.room_id)
                    if self.room is None:
                        rooms.relayed.pop(self.key, None)
                        return self._moved()
                    await self.room.attach(self)
                elif isinstance(message, Forward):
                    if self.room is None or rooms.loaded.get(self.room_id) is not self.room:
                        # answered (never silence), and the client's process finds the owner
                        self.send(dumps(protocol.error("moving", MOVING, message.frame.get("id"))))
                        self._moved()
                        continue
                    frame = protocol.client_message.validate_python(message.frame)
                    if isinstance(frame, protocol.Hello):  # Remote.receive forwards none
                        continue
                    await self.room.receive(self, frame)
                else:
                    if self.room is not None:
                        await self.room.detach(self)
                    return
            except asyncio.CancelledError:
                raise
            except Exception:
                kind = type(message).__name__.lower()
                log.exception(
                    "room %s: relayed %s failed", self.room_id, kind, extra={"room": self.room_id}
                )
                if isinstance(message, Forward):  # every frame gets an answer
                    text = "the room's server failed on this frame: nothing changed, try again"
                    self.send(dumps(protocol.error("internal", text, message.frame.get("id"))))
                elif isinstance(message, Attach):  # the client's process looks for the owner
                    rooms.relayed.pop(self.key, None)
                    return self._moved()
