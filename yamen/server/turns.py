"""Requests take turns with the tables: at most one HTTP request or WebSocket begins its work in
a turn of the event loop (issue 23).

asyncio runs, in one turn, every callback that is ready when the turn starts. A crowd of
requests that arrive together (forty wrong sign-ins refused ``busy`` and retried on the same
second, as benchmarks/load.py's ``sign_ins`` does; a page's burst of lobby calls) is ready
together, and each runs its first step, for a refusal the whole request (about 0.6 ms of CPU
here), before the loop reads its sockets again: a table's update waits behind all of them.

:class:`Turns` is the app's outermost layer. A request that finds no other begun in this turn
goes on at once; the rest wait in order, and one is let go each turn after, so every turn also
polls the sockets and runs what the tables have ready. It bounds what a crowd of requests adds
to a table's wait (one request's first step a turn), not what the crowd costs; its cost is
bounded by the limits and shares (limits.py, share.py). Measured with
benchmarks/request_crowd.py (its first form) on an idle server (a WebSocket ping's round trip
from another process; the crowd 40 wrong sign-ins on 8 connections, password checks made
negligible by ``hashing_share=0.0001``): p99 1.75 ms without turns, 0.93 ms with them (one run
each). With the default share the checks weigh as much as the turns, and two runs of the
commit before turns and idle-core hashing against two after are within each other's spread
(p99 1.14-1.85 ms against 1.05-1.71 ms; 0.61-0.92 ms quiet).
"""

from __future__ import annotations

import asyncio
import collections
import weakref

from starlette.types import ASGIApp, Receive, Scope, Send


class Turns:
    """ASGI middleware: each HTTP request and WebSocket begins in a turn of the loop of its own
    (lifespan events pass). Each event loop has its own line: a test's loop may end with a turn
    taken, and the next loop must not wait for it."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.lines: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Line] = (
            weakref.WeakKeyDictionary()
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            loop = asyncio.get_running_loop()
            line = self.lines.get(loop)
            if line is None:
                line = self.lines[loop] = Line(loop)
            await line.turn()
        await self.app(scope, receive, send)


class Line:
    """The requests of one event loop waiting for their turn, in order."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self.taken = False  # a request has begun in this turn: the rest wait for the next

    async def turn(self) -> None:
        """Returns in a turn in which no other request has begun."""
        if not self.taken:
            self.taken = True
            self.loop.call_soon(self._next)  # in the next turn: what is made ready now waits
            return
        waiter = self.loop.create_future()
        self.waiting.append(waiter)
        await waiter  # cancelled (the client gone): :meth:`_next` passes it by

    def _next(self) -> None:
        """A new turn: let the first request still waiting go (it resumes in the turn after,
        when this runs again), or free the turn."""
        while self.waiting:
            waiter = self.waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                self.loop.call_soon(self._next)
                return
        self.taken = False
