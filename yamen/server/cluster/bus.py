"""The processes of a cluster talk over Redis pub/sub: each listens on a channel of its own,
``{prefix}node:{id}``, and every message names the process it comes from.

The messages are frozen dataclasses, written to and read from the wire here and nowhere else
(:func:`encode`, :func:`decode`): ``<kind> <fields as a JSON object>``, except that a
:class:`Deliver` carries its frame, already JSON text, after a newline as it is (a frame is
never encoded twice). All processes of a cluster run the same version of Yamen.

- :class:`Call` and :class:`Answer`: a lobby call done by the room's owner, and its outcome;
- :class:`Attach`, :class:`Forward`, :class:`Detach`: a client connected to one process, as
  the owner's room sees it: attached, one of its frames, gone;
- :class:`Deliver`: a frame of the owner's room for such a client;
- :class:`Moved`: the sender no longer runs the room (the client's process looks for the owner);
- :class:`Revoked`: some of a player's sessions were revoked; sent to every process at once, on
  the channel ``{prefix}all`` that each one listens on as well as its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, cast

import redis.asyncio as aioredis

from yamen.errors import YamenError
from yamen.server.rooms import RoomError

if TYPE_CHECKING:
    from yamen.server.rooms import Room

log = logging.getLogger(__name__)

CALL_SECONDS = 10.0  # an owner's answer to a relayed lobby call
BATCH = 512  # messages published in one round trip, at most


class ClusterError(YamenError):
    """Another process could not be reached as a room's owner (the caller looks again)."""


class OwnerGone(ClusterError):
    """Nobody listens on the owner's channel: the process is gone (its lease runs out soon)."""


class NotOwner(ClusterError):
    """The process asked no longer owns the room."""


class NoAnswer(RoomError):
    """The owner did not answer a request in time (it may be frozen, its lease running out)."""

    def __init__(self) -> None:
        super().__init__("unavailable", "the room's server did not answer in time: try again", 503)


@dataclass(frozen=True)
class Snapshot:
    """What a process that does not own a room knows of it: enough to answer lobby calls and
    to check who may watch."""

    info: dict[str, Any]
    invite: str
    host: str
    public: bool
    players: list[str | None]

    @classmethod
    def of(cls, room: Room) -> Snapshot:
        players = [seat.player for seat in room.seats]
        return cls(room.info(), room.invite, room.host, room.public, players)


@dataclass(frozen=True)
class Call:
    """Do the lobby call ``op`` (a Room method: OPS, or ``describe``) on the owner's room."""

    id: str
    origin: str
    room: str
    op: str
    args: list[Any]


@dataclass(frozen=True)
class Answer:
    """A call's outcome: the room's snapshot after it, a refusal (code, message, HTTP status),
    or ``moved`` (the process asked does not own the room)."""

    id: str
    snapshot: Snapshot | None = None
    error: tuple[str, str, int, dict[str, Any]] | None = None
    moved: bool = False


@dataclass(frozen=True)
class Attach:
    """A client of ``origin`` (its id there: ``client``) joins the owner's room."""

    origin: str
    client: str
    room: str
    player: str | None


@dataclass(frozen=True)
class Forward:
    """One of the client's frames (a validated client message, as plain data) for its room."""

    origin: str
    client: str
    room: str
    frame: dict[str, Any]


@dataclass(frozen=True)
class Detach:
    """The client is gone."""

    origin: str
    client: str
    room: str


@dataclass(frozen=True)
class Deliver:
    """A frame (JSON text) of the owner's room for one of the receiver's clients."""

    owner: str
    client: str
    text: str


@dataclass(frozen=True)
class Moved:
    """The sender (``origin``) does not run the room (any more)."""

    origin: str
    room: str


@dataclass(frozen=True)
class Revoked:
    """Some of ``player``'s sessions were revoked by ``origin`` (``deleted``: their account
    too): each process closes its connections whose token went (yamen/server/revocation.py)."""

    origin: str
    player: str
    deleted: bool = False


Message = Call | Answer | Attach | Forward | Detach | Deliver | Moved | Revoked
KINDS: dict[str, type[Any]] = {
    "call": Call,
    "answer": Answer,
    "attach": Attach,
    "forward": Forward,
    "detach": Detach,
    "deliver": Deliver,
    "moved": Moved,
    "revoked": Revoked,
}
KIND_OF = {cls: kind for kind, cls in KINDS.items()}


def encode(message: Message) -> str:
    if isinstance(message, Deliver):  # the hot path: no dict, and the frame as it is
        return f"deliver {json.dumps([message.owner, message.client])}\n{message.text}"
    return f"{KIND_OF[type(message)]} {json.dumps(asdict(message), ensure_ascii=False)}"


def decode(data: str) -> Message:
    kind, _, rest = data.partition(" ")
    if kind == "deliver":
        head, _, text = rest.partition("\n")  # a JSON header holds no raw newline
        owner, client = json.loads(head)
        return Deliver(owner, client, text)
    fields = json.loads(rest)
    if kind == "answer":
        if fields["snapshot"] is not None:
            fields["snapshot"] = Snapshot(**fields["snapshot"])
        if fields["error"] is not None:
            fields["error"] = tuple(fields["error"])
    return KINDS[kind](**fields)


class Bus:
    """This process's end of the bus: its channel, publishing in order, and calls to owners.

    Each message that arrives goes to ``deliver``, except an :class:`Answer`, which settles the
    call that waits for it; ``gone`` hears of each process that a publish found nobody
    listening for."""

    def __init__(
        self,
        redis: aioredis.Redis,
        prefix: str,
        node: str,
        deliver: Callable[[Message], None],
        gone: Callable[[str], None],
    ):
        self.redis, self.prefix, self.node = redis, prefix, node
        self.channel = self.channel_of(node)
        self.everyone = f"{prefix}all"  # what every process hears (Revoked)
        self.deliver, self.gone = deliver, gone
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.pending: dict[str, asyncio.Future[Answer]] = {}
        self.ids = itertools.count()
        self.tasks: list[asyncio.Task] = []

    def channel_of(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    def node_of(self, channel: str) -> str:
        return channel.removeprefix(f"{self.prefix}node:")

    async def start(self) -> list[asyncio.Task]:
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(self.channel, self.everyone)
        self.tasks = [
            asyncio.create_task(self._listen(), name="cluster listen"),
            asyncio.create_task(self._publish(), name="cluster publish"),
        ]
        return self.tasks

    def stop_listening(self) -> None:
        if self.tasks:
            self.tasks[0].cancel()

    async def close(self, seconds: float = 2.0) -> None:
        """Publish what waits (for at most ``seconds``), then stop."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                while not self.outbox.empty():
                    await asyncio.sleep(0.01)
        for task in self.tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()

    # ----- sending ------------------------------------------------------------------------------

    def post(self, node: str, message: Message) -> None:
        """Publish to a process's channel in order, without waiting."""
        self.outbox.put_nowait((self.channel_of(node), encode(message)))

    async def send(self, node: str, message: Message) -> int:
        """Publish now; how many processes heard it (0: the node is gone)."""
        return await self.redis.publish(self.channel_of(node), encode(message))

    async def tell_all(self, message: Message) -> int:
        """Publish to every process now (this one too); how many heard it."""
        return await self.redis.publish(self.everyone, encode(message))

    async def call(
        self, owner: str, room_id: str, op: str, args: list[Any], seconds: float = CALL_SECONDS
    ) -> Snapshot:
        """A lobby call, done by the room's owner; the room's snapshot after it (OwnerGone when
        nobody listens, NoAnswer when no answer came within ``seconds``, NotOwner when the
        process no longer owns the room, RoomError when the room refused)."""
        call_id = str(next(self.ids))
        future = asyncio.get_running_loop().create_future()
        self.pending[call_id] = future
        try:
            if not await self.send(owner, Call(call_id, self.node, room_id, op, args)):
                raise OwnerGone
            try:
                answer = await asyncio.wait_for(future, seconds)
            except TimeoutError:
                raise NoAnswer from None
        finally:
            self.pending.pop(call_id, None)
        if answer.moved:
            raise NotOwner
        if answer.error is not None:
            raise RoomError(*answer.error)
        assert answer.snapshot is not None
        return answer.snapshot

    async def listeners(self, nodes: set[str]) -> dict[str, int]:
        """How many listen on each process's channel (0: the process is gone)."""
        counts = await self.redis.pubsub_numsub(*(self.channel_of(n) for n in nodes))
        return {self.node_of(cast(str, channel)): count for channel, count in counts}

    async def _publish(self) -> None:
        """Write the outbox to Redis in batches, in order."""
        while True:
            batch = [await self.outbox.get()]
            while len(batch) < BATCH and not self.outbox.empty():
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
                self.gone(self.node_of(cast(str, channel)))

    # ----- receiving ----------------------------------------------------------------------------

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self.pubsub.listen():
                    if message["type"] == "message":
                        self._receive(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: listening failed (%s); again", exc)
                await asyncio.sleep(0.2)
                with contextlib.suppress(Exception):
                    await self.pubsub.subscribe(self.channel, self.everyone)

    def _receive(self, data: str) -> None:
        try:
            message = decode(data)
            if isinstance(message, Answer):
                future = self.pending.get(message.id)
                if future is not None and not future.done():
                    future.set_result(message)
            else:
                self.deliver(message)
        except Exception:
            log.exception("cluster: bad message %.200r", data)
