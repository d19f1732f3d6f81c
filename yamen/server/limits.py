"""Limits per client address and per player, so that one guest cannot slow a public server.

Two kinds, both named fields of :class:`Limits` (docs/server.md lists them with their defaults):

- a *rate* (:class:`Rate`): a token bucket per key that holds at most ``count`` tokens and
  refills ``count`` every ``seconds``: a burst of ``count`` at once, then one every
  ``seconds / count``. New guests, new rooms, new WebSocket connections, chat lines, seat and
  invite attempts, sign-in attempts and lobby calls are rates.
- a *cap*: how many may exist at once per key (open WebSocket connections per address and per
  player, open rooms per host, games of bots alone in progress per host).
- a *pace*: ``bot_pace``, the least time a bot's answer takes at a table with no person seated
  (yamen/server/driver.py), so that a player's tables of bots alone cost a bounded amount.

A refusal is HTTP 429 with a ``Retry-After`` header (whole seconds) and the documented body
``{"detail": {"code", "message", "retry_after"}}``; over a WebSocket, an ``error`` frame with
``retry_after`` (and, for a connection cap, a close with code 1013). A refusal charges nothing.

The address is the peer address of the connection (an IPv6 address counts by its /64, which
one customer usually holds); behind a proxy every client has the proxy's address unless the
server is told to trust the proxy's ``X-Forwarded-For`` (``yamen serve --forwarded-allow-ips``).
Memory is bounded: at most ``keys`` buckets are kept, the least recently used dropped first (a
dropped bucket is a full one). In a cluster each process counts for itself.
"""

import asyncio
import contextlib
import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, fields, replace
from typing import Annotated, Any, get_args

from fastapi import Depends, HTTPException, Request


@dataclass(frozen=True)
class Rate:
    """At most ``count`` at once, refilled at ``count`` per ``seconds``."""

    count: float
    seconds: float

    def __str__(self) -> str:
        return f"{self.count:g}/{self.seconds:g}"


@dataclass(frozen=True)
class Limits:
    """Every limit of a server; ``None`` turns one off. The defaults suit a public server."""

    # per address
    guests: Rate | None = Rate(20, 600)  # new guests
    sockets: Rate | None = Rate(60, 60)  # new WebSocket connections
    sockets_per_address: int | None = 64  # WebSocket connections open at once
    joins: Rate | None = Rate(30, 60)  # seats taken and invite codes tried (HTTP or hello)
    lobby: Rate | None = Rate(300, 60)  # every call to /api
    # sign-ins, sign-ups and password checks: per address and per account name (or player)
    sign_ins: Rate | None = Rate(10, 600)
    # per player (rooms also per address)
    rooms: Rate | None = Rate(10, 600)  # new rooms
    play_now: Rate | None = Rate(20, 600)  # play now pressed (yamen/server/play_now.py)
    open_rooms: int | None = 5  # a host's rooms of the last day still open or playing
    sockets_per_player: int | None = 8  # WebSocket connections open at once
    chat: Rate | None = Rate(10, 10)  # chat lines, over all of the player's connections
    # decisions of post-game analyses asked for (a job's decisions at once): 5,000 a day
    analysis_decisions: Rate | None = Rate(5000, 86400)
    chat_per_address: Rate | None = Rate(30, 10)  # chat lines of every player of an address
    # a table with no person seated (only watchers): its bots answer no sooner than this
    bot_pace: float | None = 1.0
    bot_tables: int | None = 2  # a host's games of bots alone in progress (of the last day)
    # the whole server
    connections: int | None = 10_000  # TCP connections open at once (at most the fd limit)
    hashing_share: float | None = 0.05  # of a core, the most password hashing may spend
    reads_share: float | None = 0.1  # of the event loop, the most the heavy lobby reads take
    request_seconds: float = 10.0  # a request's head and body must arrive within this
    idle_seconds: float | None = 300.0  # a room nobody uses is unloaded from memory after this
    beat_seconds: float = 15.0  # a connection sent nothing for this long gets a beat (beats.py)

    PER_CLIENT = (
        "guests",
        "sockets",
        "sockets_per_address",
        "joins",
        "lobby",
        "sign_ins",
        "rooms",
        "play_now",
        "open_rooms",
        "sockets_per_player",
        "chat",
        "chat_per_address",
        "bot_pace",
        "bot_tables",
        "analysis_decisions",
    )

    @classmethod
    def off(cls) -> "Limits":
        """No limit per address or player (tests and benchmarks on loopback); the server's own
        limits stay."""
        return cls()._per_client_off()

    def set(self, items: list[str]) -> "Limits":
        """These limits with ``name=value`` changes: ``rooms=10/600`` (a rate), ``open_rooms=5``
        (a cap or a number), ``chat=off``; ``all=off`` turns off every limit per client."""
        limits = self
        types = {f.name: (f.type, *get_args(f.type)) for f in fields(self)}
        for item in items:
            name, _, text = item.partition("=")
            name, text = name.strip(), text.strip()
            if name == "all" and text == "off":
                limits = limits._per_client_off()
                continue
            if name not in types:
                raise ValueError(f"no limit {name!r}; known: {', '.join(types)}")
            kind = types[name]
            if text == "off" and type(None) in kind:
                value: Any = None
            elif Rate in kind:
                count, slash, seconds = text.partition("/")
                if not slash:
                    raise ValueError(f"{name} is a rate: COUNT/SECONDS, e.g. 10/60")
                value = Rate(_positive(name, count), _positive(name, seconds))
            elif int in kind:
                value = int(_positive(name, text))
            else:
                value = _positive(name, text)
            limits = replace(limits, **{name: value})
        return limits

    def _per_client_off(self) -> "Limits":
        off: dict[str, Any] = dict.fromkeys(self.PER_CLIENT)  # each of them may be None: off
        return replace(self, **off)


def _positive(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name}: {text!r} is not a number") from None
    if not 0 < value < math.inf:
        raise ValueError(f"{name}: {text!r} must be more than 0")
    return value


def refilled(rate: Rate, bucket: tuple[float, float] | None, now: float) -> float:
    """The tokens of a bucket (``(tokens, when)`` as last charged; None: never, a full one)
    at ``now``."""
    if bucket is None:
        return rate.count
    tokens, then = bucket
    return min(rate.count, tokens + max(0.0, now - then) * rate.count / rate.seconds)


class Limited(Exception):
    """Over a limit: ``retry_after`` seconds until it would be allowed."""

    def __init__(self, code: str, message: str, retry_after: float):
        self.code, self.retry_after = code, max(1, math.ceil(retry_after))
        super().__init__(f"{message}: try again in {self.retry_after} s")

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": str(self), "retry_after": self.retry_after}


WHAT = {
    "guests": "new guests from your address",
    "sockets": "new connections from your address",
    "sockets_per_address": "open connections from your address",
    "joins": "seats and invite codes tried from your address",
    "lobby": "lobby calls from your address",
    "sign_ins": "sign-in attempts",
    "rooms": "new rooms",
    "play_now": "play now presses",
    "open_rooms": "rooms of yours that are open or playing",
    "sockets_per_player": "open connections of yours",
    "chat": "chat lines",
    "chat_per_address": "chat lines from your address",
    "bot_tables": "games of bots alone of yours in progress",
    "analysis_decisions": "decisions analysed for you today",
}


class Turns:
    """One at a time per key (a player): for a cap that is counted and then taken in separate
    steps, so that calls at once cannot all pass the count. A key's lock is forgotten once
    nobody holds or waits for it."""

    def __init__(self) -> None:
        self.locks: dict[str, tuple[asyncio.Lock, int]] = {}  # key -> (its lock, its users)

    @contextlib.asynccontextmanager
    async def __call__(self, key: str) -> AsyncIterator[None]:
        lock, users = self.locks.get(key, (asyncio.Lock(), 0))
        self.locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self.locks[key]
            if users == 1:
                del self.locks[key]
            else:
                self.locks[key] = (lock, users - 1)


class Limiter:
    """The buckets and counters of one server process."""

    def __init__(
        self,
        limits: Limits,
        keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.limits, self.keys, self.clock = limits, keys, clock
        self.buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()
        self.open: dict[tuple[str, str], int] = {}  # caps: how many are held now
        self.turns = Turns()  # a host's game starts, one at a time (the bot_tables cap)

    def take(self, kind: str, *keys: str, cost: float = 1) -> None:
        """``cost`` of ``kind`` (one, or a job's decisions) for every key (e.g. the player and
        the address), or :class:`Limited` and nothing charged."""
        self.take_each(*((kind, key) for key in keys), cost=cost)

    def take_each(self, *charges: tuple[str, str], cost: float = 1) -> None:
        """``cost`` for each (kind, key), e.g. ``("chat", player), ("chat_per_address",
        address)``, or :class:`Limited` and nothing charged."""
        now = self.clock()
        levels = []
        for kind, key in charges:
            rate: Rate | None = getattr(self.limits, kind)
            if rate is None:
                continue
            then = self.buckets.get((kind, key))
            tokens = refilled(rate, then, now)
            if tokens < cost:
                wait = (cost - tokens) / (rate.count / rate.seconds)
                raise Limited("rate_limited", f"too many {WHAT[kind]}", wait)
            levels.append((kind, key, tokens))
        for kind, key, tokens in levels:
            self.buckets[(kind, key)] = (tokens - cost, now)
            self.buckets.move_to_end((kind, key))
        while len(self.buckets) > self.keys:
            self.buckets.popitem(last=False)

    def hold(self, kind: str, key: str, retry_after: float = 10) -> None:
        """Count one more open ``kind`` for ``key``, or :class:`Limited` at its cap."""
        cap: int | None = getattr(self.limits, kind)
        held = self.open.get((kind, key), 0)
        if cap is not None and held >= cap:
            raise Limited("too_many", f"too many {WHAT[kind]} (at most {cap})", retry_after)
        self.open[(kind, key)] = held + 1

    def release(self, kind: str, key: str) -> None:
        held = self.open.pop((kind, key), 0) - 1
        if held > 0:
            self.open[(kind, key)] = held


def address(client: Any) -> str:
    """The key of a peer address (``request.client``, ``websocket.client``): IPv4 as it is,
    IPv6 by its /64."""
    host = getattr(client, "host", None)
    if not host:
        return "local"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def limiter_of(request: Any) -> Limiter:
    return request.app.state.limiter


def refused(exc: Limited) -> HTTPException:
    """The HTTP answer to a refusal: 429 with ``Retry-After``."""
    return HTTPException(429, exc.body(), headers={"Retry-After": str(exc.retry_after)})


def per_address(kind: str) -> Callable[..., Any]:
    """A dependency: one ``kind`` for the caller's address."""

    async def check(request: Request) -> None:
        try:
            limiter_of(request).take(kind, address(request.client))
        except Limited as exc:
            raise refused(exc) from None

    return check


def per_player(kind: str, who: Callable[..., Any]) -> Callable[..., Any]:
    """A dependency: one ``kind`` for the player ``who`` finds (a dependency giving a player
    with an ``id``) and for their address."""

    async def check(request: Request, player: Annotated[Any, Depends(who)]) -> None:
        try:
            limiter_of(request).take(kind, player.id, address(request.client))
        except Limited as exc:
            raise refused(exc) from None

    return check


def room_quota(who: Callable[..., Any]) -> Callable[..., Any]:
    """A dependency for creating a room: the host's ``open_rooms`` cap (a first look: the room
    is counted again as it is stored), then the ``rooms`` rate (per player and per address)."""

    async def check(request: Request, player: Annotated[Any, Depends(who)]) -> None:
        limiter = limiter_of(request)
        cap = limiter.limits.open_rooms
        try:  # (counted again as the room is stored: yamen/server/registry.py)
            if cap is not None and await request.app.state.rooms.open_rooms(player.id) >= cap:
                raise open_rooms_refusal(cap)
            limiter.take("rooms", player.id, address(request.client))
        except Limited as exc:
            raise refused(exc) from None

    return check


def open_rooms_refusal(cap: int | None) -> Limited:
    """A host at the ``open_rooms`` cap."""
    message = f"too many {WHAT['open_rooms']} (at most {cap}): finish one first"
    return Limited("too_many", message, 60)


def bot_tables_refusal(cap: int) -> Limited:
    """A host with ``cap`` games of bots alone in progress, starting another."""
    message = f"too many {WHAT['bot_tables']} (at most {cap}): let one finish, or seat a person"
    return Limited("bot_tables", message, 60)


def joins_with_invite(request: Request, invite: str | None = None) -> None:
    """A dependency for reading a room: an invite code tried counts as a join."""
    if invite is not None:
        try:
            limiter_of(request).take("joins", address(request.client))
        except Limited as exc:
            raise refused(exc) from None
