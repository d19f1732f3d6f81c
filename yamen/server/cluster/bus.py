"""The processes of a cluster talk over Redis pub/sub: each listens on a channel of its own,
``{prefix}node:{id}``, and every message names the process it comes from.

What travels is a message of messages.py (a frozen dataclass and its text on the wire) in an
envelope of the bus's own, ``<sender>:<number> <message>``.

Pub/sub delivers at most once, and only to whoever listens at that moment; the bus makes up for
it (:class:`Bus`):

- every message to a process is numbered, per sender and receiver, in the order it is
  published (one queue, one publishing task per receiver at a time): the envelope's number.
  The receiver ignores a number it has seen (a batch published again after Redis failed midway)
  and notices a number it never got (``missed``: the two processes resync their clients);
- a message that finds nobody listening is kept, with the later ones to the same process
  behind it, and published again with backoff: the receiver's subscriber connection is
  reconnecting. Only when the receiver's process lease has run out (leases.py) is it gone;
- a batch whose publish failed (the publisher connection dropped) is published again, the
  same numbers, until Redis takes it (``RETRIES`` times at most);
- a subscriber connection that drops is subscribed again at once, and the process is told
  (``resubscribed``): whatever was published to it meanwhile may be lost.

A ``Revoked`` (messages.py) goes to every process at once, on the channel ``{prefix}all`` that
each one listens on as well as its own, and is not numbered (:meth:`Bus.tell_all`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from yamen.errors import YamenError
from yamen.server.cluster.messages import Answer, Call, Message, Snapshot, decode, encode
from yamen.server.rooms import RoomError

if TYPE_CHECKING:
    from yamen.server.metrics import Metrics
    from yamen.server.operations import Operation

log = logging.getLogger(__name__)

CALL_SECONDS = 10.0  # an owner's answer to a relayed lobby call
BATCH = 512  # messages published in one round trip, at most
HOLD = 10_000  # messages kept for a process nobody listens for, at most (then the oldest go)
RETRIES = 40  # a batch whose publish failed is published again this many times at most
BACKOFF = (0.05, 1.0)  # seconds before publishing again: the first wait, doubled up to the last


class ClusterError(YamenError):
    """Another process could not be reached as a room's owner (the caller looks again)."""


class OwnerGone(ClusterError):
    """A message to the owner could not be delivered: nobody listened on its channel for as
    long as the bus waits, or its process lease ran out (the process is gone)."""


class NotOwner(ClusterError):
    """The process asked no longer owns the room."""


class NoAnswer(RoomError):
    """The owner did not answer a request in time (it may be frozen, its lease running out)."""

    def __init__(self) -> None:
        super().__init__("unavailable", "the room's server did not answer in time: try again", 503)


def backoff(tries: int) -> float:
    first, last = BACKOFF
    return min(last, first * 2**tries)


class Post:
    """A message on its way to a process's channel: its envelope's text, and, for
    :meth:`Bus.send`, the future that learns how many heard it (0: nobody, given up)."""

    __slots__ = ("channel", "node", "text", "heard", "flying", "withdrawn")

    def __init__(self, channel: str, node: str, text: str, awaited: bool):
        self.channel, self.node, self.text = channel, node, text
        self.heard: asyncio.Future[int] | None = (
            asyncio.get_running_loop().create_future() if awaited else None
        )
        self.flying = False  # in a publish under way
        self.withdrawn = False  # its sender stopped waiting: never published after that

    def settle(self, count: int) -> None:
        if self.heard is not None and not self.heard.done():
            self.heard.set_result(count)


class Bus:
    """This process's end of the bus: its channel, publishing in order, and calls to owners.

    Each message that arrives goes to ``deliver``, except an :class:`Answer`, which settles the
    call that waits for it. ``gone`` hears of each process found gone (a message to it was
    kept until its process lease ran out: ``alive`` asks); ``missed`` of each process some of
    whose messages never arrived (the number of them); ``resubscribed`` that this process's
    subscriber connection dropped and is back (after how many seconds).

    Two Redis clients of its own, their connections named for ``CLIENT LIST``
    (``{prefix}{node}:pub`` and ``:sub``): the publisher and the subscriber. Messages to one
    process are published by one task at a time (the outbox's, or while some are kept, that
    process's retries), so each receiver gets its numbers in order."""

    def __init__(
        self,
        url: str,
        prefix: str,
        node: str,
        deliver: Callable[[Message], None],
        *,
        gone: Callable[[str], None],
        alive: Callable[[list[str]], Awaitable[set[str]]],
        missed: Callable[[str, int], object],
        resubscribed: Callable[[float], None],
        metrics: Metrics,
        patience: float,
    ):
        self.prefix, self.node = prefix, node
        named = f"{prefix}{node}"
        # no retries inside the client (redis-py 8.2 retries a command 10 times by default, with
        # backoff, unseen): a failed publish comes back to _write, which publishes it again,
        # counted and logged, whatever the library's version
        self.publisher = aioredis.from_url(
            url,
            decode_responses=True,
            client_name=f"{named}:pub",
            max_connections=4,
            retry=Retry(NoBackoff(), 0),
        )
        self.subscriber = aioredis.from_url(url, decode_responses=True, client_name=f"{named}:sub")
        self.channel = self.channel_of(node)
        self.everyone = f"{prefix}all"  # what every process hears (Revoked)
        self.deliver, self.gone, self.alive = deliver, gone, alive
        self.missed, self.resubscribed = missed, resubscribed
        self.metrics = metrics
        self.patience = patience  # how long send() waits for a process nobody listens for
        self.outbox: asyncio.Queue[Post] = asyncio.Queue()
        self.numbers: dict[str, int] = {}  # channel -> the last number given a message to it
        self.heard: dict[str, int] = {}  # sender -> the highest number received from it
        self.held: dict[str, deque[Post]] = {}  # channel -> messages kept for it, in order
        self.pending: dict[str, asyncio.Future[Answer]] = {}
        self.ids = itertools.count()
        self.tasks: list[asyncio.Task] = []
        self.retrying: set[asyncio.Task] = set()

    def channel_of(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    async def start(self) -> list[asyncio.Task]:
        self.pubsub = self.subscriber.pubsub(ignore_subscribe_messages=True)
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
        for task in [*self.tasks, *self.retrying]:
            task.cancel()
        for posts in self.held.values():
            for post in posts:
                post.settle(0)
        self.held.clear()
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        for client in (self.publisher, self.subscriber):
            with contextlib.suppress(Exception):
                await client.aclose()

    # ----- sending ------------------------------------------------------------------------------

    def _enqueue(self, node: str, message: Message, awaited: bool) -> Post:
        channel = self.channel_of(node)
        number = self.numbers[channel] = self.numbers.get(channel, 0) + 1
        post = Post(channel, node, f"{self.node}:{number} {encode(message)}", awaited)
        self.outbox.put_nowait(post)
        return post

    def post(self, node: str, message: Message) -> None:
        """Publish to a process's channel in order, without waiting."""
        self._enqueue(node, message, awaited=False)

    async def send(self, node: str, message: Message) -> int:
        """Publish in order and wait until it is heard: how many processes heard it; 0 when
        nobody listened on the node's channel for ``patience`` seconds or its process is gone
        (then it is never published: its receiver will see its number missing)."""
        post = self._enqueue(node, message, awaited=True)
        assert post.heard is not None
        try:
            return await asyncio.wait_for(asyncio.shield(post.heard), self.patience)
        except TimeoutError:
            self._withdraw(post)
            return await post.heard  # settled now, or by the publish under way

    async def tell_all(self, message: Message) -> int:
        """Publish to every process now (this one too); how many heard it. (Not numbered: a
        revocation lost meanwhile is caught when its connection says hello again.)"""
        return await self.publisher.publish(self.everyone, f"{self.node}:0 {encode(message)}")

    async def call(
        self, owner: str, room_id: str, op: Operation | None, seconds: float = CALL_SECONDS
    ) -> Snapshot:
        """A lobby operation (None: none, only the snapshot), done by the room's owner; the
        room's snapshot after it (OwnerGone when nobody listens, NoAnswer when no answer came
        within ``seconds``, NotOwner when the process no longer owns the room, RoomError when
        the room refused)."""
        call_id = str(next(self.ids))
        future = asyncio.get_running_loop().create_future()
        self.pending[call_id] = future
        try:
            if not await self.send(owner, Call(call_id, self.node, room_id, op)):
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

    async def _publish(self) -> None:
        """Write the outbox to Redis in batches, in order; a message for a process with
        messages kept waits behind them."""
        while True:
            batch = [await self.outbox.get()]
            while len(batch) < BATCH and not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            ready = []
            for post in batch:
                if post.channel in self.held:
                    self._hold(post)
                else:
                    ready.append(post)
            if ready:
                await self._write(ready)

    async def _write(self, batch: list[Post]) -> None:
        """Publish ``batch`` in one round trip; again (the same numbers: a receiver ignores
        what it already had) while Redis fails, ``RETRIES`` times at most."""
        started = time.monotonic()
        for tries in itertools.count():
            batch = self._still_wanted(batch)
            if not batch:
                return
            try:
                counts = await self._publish_all(batch)
                break
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.metrics.bus.labels("retried").inc(len(batch))
                if tries == 0:
                    log.warning(
                        "cluster: publishing failed (%s): %d messages kept, publishing again",
                        exc,
                        len(batch),
                    )
                if tries >= RETRIES:
                    log.warning(
                        "cluster: publishing failed %d times: %d messages dropped (their"
                        " receivers resync their clients when they notice)",
                        tries + 1,
                        len(batch),
                    )
                    self._drop(batch)
                    return
                await asyncio.sleep(backoff(tries))
        if tries:
            log.warning(
                "cluster: published again after %d retries (%.1f s): %d messages",
                tries,
                time.monotonic() - started,
                len(batch),
            )
        for post, count in zip(batch, counts, strict=True):
            if count:
                post.settle(count)
            elif post.withdrawn:
                post.settle(0)
            else:
                self._hold(post)

    async def _publish_all(self, posts: list[Post]) -> list[int]:
        for post in posts:
            post.flying = True
        try:
            pipe = self.publisher.pipeline(transaction=False)
            for post in posts:
                pipe.publish(post.channel, post.text)
            return await pipe.execute()
        finally:
            for post in posts:
                post.flying = False

    def _still_wanted(self, posts: list[Post]) -> list[Post]:
        """Those whose sender still waits (a withdrawn one is settled: nobody heard it)."""
        for post in posts:
            if post.withdrawn:
                post.settle(0)
        return [post for post in posts if not post.withdrawn]

    def _drop(self, posts: Any) -> None:
        self.metrics.bus.labels("dropped").inc(len(posts))
        for post in posts:
            post.settle(0)

    def _hold(self, post: Post) -> None:
        """Keep a message nobody listened for (behind the others kept for its process), and
        publish the kept ones again until they are heard or the process is gone."""
        queue = self.held.get(post.channel)
        if queue is None:
            queue = self.held[post.channel] = deque()
            task = asyncio.create_task(self._redeliver(post.channel, post.node))
            self.retrying.add(task)
            task.add_done_callback(self.retrying.discard)
        queue.append(post)
        self.metrics.bus.labels("held").inc()
        if len(queue) > HOLD:
            self._drop([queue.popleft()])

    def _withdraw(self, post: Post) -> None:
        """Its sender stopped waiting: never published from now on (a publish under way
        settles it)."""
        post.withdrawn = True
        if not post.flying:
            queue = self.held.get(post.channel)
            if queue is not None and post in queue:
                queue.remove(post)
            post.settle(0)

    async def _redeliver(self, channel: str, node: str) -> None:
        """Publish what is kept for ``node`` again, with backoff, until all of it is heard; or,
        once its process lease has run out, drop it and tell ``gone``."""
        started, delivered = time.monotonic(), 0
        log.warning("cluster: nobody listens for process %s: keeping its messages", node)
        for tries in itertools.count():
            queue = self.held.get(channel)
            if not queue:
                break
            await asyncio.sleep(backoff(tries))
            try:
                if node not in await self.alive([node]):
                    dropped = self.held.pop(channel, deque())
                    self._drop(dropped)
                    log.warning(
                        "cluster: process %s is gone (its lease ran out): %d messages for it"
                        " dropped",
                        node,
                        len(dropped),
                    )
                    self.gone(node)
                    return
                posts = self._still_wanted(list(self.held.get(channel, ())))
                counts = await self._publish_all(posts) if posts else []
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cluster: publishing to process %s failed (%s): again", node, exc)
                continue
            sent = {id(post) for post in posts}
            kept = []
            for post, count in zip(posts, counts, strict=True):
                if count:
                    post.settle(count)
                    delivered += 1
                elif post.withdrawn:
                    post.settle(0)
                else:
                    kept.append(post)
            later = [p for p in self.held.get(channel, ()) if id(p) not in sent]  # kept meanwhile
            if kept or later:
                self.held[channel] = deque([*kept, *later])
            else:
                self.held.pop(channel, None)
        log.warning(
            "cluster: process %s listens again: %d kept messages delivered after %d retries"
            " (%.1f s)",
            node,
            delivered,
            tries,
            time.monotonic() - started,
        )

    # ----- receiving ----------------------------------------------------------------------------

    async def _listen(self) -> None:
        lost: float | None = None  # when the subscriber connection dropped
        tries = 0
        while True:
            try:
                if lost is not None:
                    await self.pubsub.subscribe(self.channel, self.everyone)
                    self.resubscribed(time.monotonic() - lost)
                    lost, tries = None, 0
                async for message in self.pubsub.listen():
                    if message["type"] == "message":
                        self._receive(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if lost is None:
                    lost = time.monotonic()
                    log.warning(
                        "cluster: the subscriber connection dropped (%s): subscribing again", exc
                    )
                await asyncio.sleep(backoff(tries))  # (Redis may be down a while)
                tries += 1

    def _receive(self, data: str) -> None:
        try:
            head, _, body = data.partition(" ")
            sender, _, number = head.partition(":")
            if not self._in_order(sender, int(number)):
                return
            message = decode(body)
            if isinstance(message, Answer):
                future = self.pending.get(message.id)
                if future is not None and not future.done():
                    future.set_result(message)
            else:
                self.deliver(message)
        except Exception:
            log.exception("cluster: bad message %.200r", data)

    def _in_order(self, sender: str, number: int) -> bool:
        """Whether to take a message numbered ``number`` from ``sender`` (0: not numbered); a
        number skipped means messages were lost: ``missed`` is told how many."""
        if not number:
            return True
        last = self.heard.get(sender, 0)
        if number <= last:
            self.metrics.bus.labels("duplicate").inc()
            return False
        self.heard[sender] = number
        if number > last + 1:
            self.metrics.bus.labels("missed").inc(number - last - 1)
            self.missed(sender, number - last - 1)
        return True
