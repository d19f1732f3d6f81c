"""``yamen serve``: the app on uvicorn, with the defaults a laptop needs (a SQLite file here) and
the limits a public server needs (yamen/server/limits.py; docs/server.md lists them)."""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import socket
from collections.abc import Callable
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from yamen.server import collector
from yamen.server.addresses import banner
from yamen.server.analysis import DEFAULT_JOBS, DEFAULT_PLAYOUTS
from yamen.server.app import MAX_BODY, create_app
from yamen.server.limits import Limits
from yamen.server.live import MAX_FRAME
from yamen.server.logs import LEVELS, configure
from yamen.server.storage import default_url
from yamen.server.thinking import DEFAULT_SECONDS, default_workers

MAX_HEAD = 64 * 1024  # bytes of a request's line and headers (h11; httptools: with MAX_BODY)
RESERVED_FILES = 128  # file descriptors kept for the database, Redis, logs


def answer(status: str) -> bytes:
    """A whole HTTP answer with no body, for a connection about to be closed."""
    return f"HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".encode()


BUSY = answer("503 Service Unavailable")
SLOW = answer("408 Request Timeout")
HUGE = answer("431 Request Header Fields Too Large")


def nodelay(transport: Any) -> None:
    """Each write sent at once (TCP_NODELAY). asyncio sets it only on sockets made with proto
    IPPROTO_TCP, and :func:`listen`'s (proto 0, as uvicorn's) passes 0 on to every connection.
    uvicorn writes a response's head and body apart; with Nagle's algorithm on, the body waited
    for the ACK of the head, which a client delays up to 40 ms: every request after the first on
    a kept-alive connection (a browser's) took 42-44 ms for 1 ms of work (measured with curl)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, guarded: a connection over the server's cap is answered 503 and
    closed at once (so that a flood of connections cannot use up the file descriptors), and a
    request whose head and body have not arrived within ``request_seconds`` of its first byte
    (or of the connection, for the first one), or whose head has not ended within its first
    ``MAX_HEAD + MAX_BODY`` bytes (a read may hold the body too), is closed.
    uvicorn itself bounds only the time between requests (``timeout_keep_alive``).

    A head is counted from the read in which its request begins, that read whole: the parser
    does not say where in a read a request starts, and a head that arrives in one write with
    the first read must count (it once did not: the count was reset when the parser found the
    request's start, after the read had been counted). The read may hold the end of the
    request before (a client that pipelines): that counts too, on the safe side."""

    cap = 10_000
    request_seconds = 10.0

    def connection_made(self, transport: Any) -> None:
        self.deadline: asyncio.TimerHandle | None = None
        self.head: int | None = 0  # bytes of the head so far; None: not reading a head
        self.read = 0  # bytes of the read being parsed
        nodelay(transport)
        super().connection_made(transport)
        if len(self.connections) > self.cap:
            transport.write(BUSY)
            transport.close()
            return
        self._arm()

    def _arm(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(self.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if not self.transport.is_closing():
            if self.cycle is None or self.cycle.response_complete:
                self.transport.write(SLOW)
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self.read = len(data)
        if self.head is not None:
            self.head += len(data)
        if self._huge():
            return
        super().data_received(data)
        self._huge()  # a head begun in this read and not ended: the parser holds it

    def _huge(self) -> bool:
        """The head being read is over the cap (a whole small request may come in one read):
        answered 431 and closed; the parser's events after that are ignored."""
        if self.head is None or self.head <= MAX_HEAD + MAX_BODY:
            return False
        self.head = None
        if not self.transport.is_closing():
            self.transport.write(HUGE)
            self.transport.close()
        return True

    def on_message_begin(self) -> None:
        self.head = self.read  # the read it begins in, whole (see the class's docstring)
        self._arm()
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        if self._huge() or self.transport.is_closing():
            return  # refused (or the client is gone): never handed to the app
        self.head = None
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self.transport.is_closing():
            super().on_body(body)

    def on_message_complete(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def open_files() -> int:
    """Raise this process's soft limit on open files to its hard limit; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` (as uvicorn binds one), bound before anything else
    starts so that a port in use is one clear line and exit status 1, not a traceback after the
    database has been opened."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            problem = f"port {port} is in use: stop the other server or pass --port N"
        elif exc.errno == errno.EACCES:
            problem = f"port {port} needs more privileges: pass --port N (above 1023)"
        else:
            problem = f"cannot listen on {host}:{port}: {exc.strerror or exc}"
        raise SystemExit(f"yamen serve: {problem}") from None
    return sock


def serve(
    host: str,
    port: int,
    db: str | None,
    redis: str | None,
    announce: Callable[[str], None] = lambda line: print(line, flush=True),
    limits: Limits | None = None,
    forwarded_allow_ips: str | None = None,
    bot_workers: int | None = None,
    bot_seconds: float = DEFAULT_SECONDS,
    analysis_playouts: int = DEFAULT_PLAYOUTS,
    analysis_jobs: int = DEFAULT_JOBS,
    log_format: str = "text",
    log_level: str = "warning",
) -> None:
    # errors and warnings (with their rooms' ids) on stderr; from info on, one line a request
    configure(log_format, LEVELS[log_level])
    sock = listen(host, port)
    bound = sock.getsockname()[1]  # now: uvicorn closes the socket when it stops
    limits = limits or Limits()
    workers = default_workers() if bot_workers is None else bot_workers
    app = create_app(
        db or default_url(),
        redis,
        bot_workers=workers,
        bot_seconds=bot_seconds,
        limits=limits,
        analysis_playouts=analysis_playouts,
        analysis_jobs=analysis_jobs,
    )
    # Never more connections than file descriptors: past the cap a connection is refused at
    # once instead of the process failing to accept ("Too many open files") in a loop. The
    # event loop accepts up to ``backlog`` connections at a time before any is seen, so those
    # are kept free too.
    free = max(32, open_files() - RESERVED_FILES)
    backlog = min(2048, free // 4)
    cap = free - backlog
    if limits.connections is not None:
        cap = min(cap, limits.connections)
    http = type("Http", (GuardedHttp,), {"cap": cap, "request_seconds": limits.request_seconds})
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=http,
        limit_concurrency=cap + 1,  # uvicorn's own check: 503 for a request past the cap
        backlog=backlog,
        timeout_keep_alive=5,  # an idle kept-alive connection is closed after this
        h11_max_incomplete_event_size=MAX_HEAD,  # (when h11 parses instead of httptools)
        # A client's address is its peer's unless the proxy in front is named: X-Forwarded-For
        # from anyone else would let a client pick the address its limits are counted by.
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips,
        ws_max_size=4 * MAX_FRAME,  # bigger frames are cut off; smaller ones get a clear error
        # Frames are small JSON: compressing them costs each connection ~250 KiB of deflate
        # state and CPU per frame, for bandwidth a card table does not need.
        ws_per_message_deflate=False,
        # A peer gone without closing (a phone off the network) is found by a ping unanswered:
        # every 60 s, not uvicorn's 20: at 5,000 sockets pings and pongs took 7% of the event
        # loop's profile (load.py --profile); the heartbeat (beats.py) finds silence sooner.
        ws_ping_interval=60,
        ws_ping_timeout=30,
        log_config=None,  # uvicorn's loggers go through configure's: one format, on stderr
        log_level=LEVELS[log_level],
        access_log=LEVELS[log_level] <= logging.INFO,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    collector.tune()  # short collections by the clock (yamen/server/collector.py)

    tasks: list[asyncio.Task] = []

    async def run() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        tasks.append(task)
        while not server.started:
            if task.done():
                return await task
            await asyncio.sleep(0.05)
        for line in banner(host, bound):
            announce(line)
        collections = asyncio.create_task(collector.clock())
        try:
            await task
        finally:
            collections.cancel()

    try:
        asyncio.run(run())
    except SystemExit:
        if server.started:
            raise
        # uvicorn exits from inside its task when start-up fails (yamen/server/storage.py
        # refused the database): say why, last, and exit non-zero
        for task in tasks:
            if task.done():
                task.exception()  # retrieved: no "never retrieved" noise
        problem = getattr(app.state, "startup_error", "see the log above")
        raise SystemExit(f"yamen serve: cannot start: {problem}") from None
