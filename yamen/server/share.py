"""Shares: work that is not a table's gets at most a share of the machine, so that no crowd of
it, from however many addresses, delays a table (issue 23).

A :class:`Budget` is a bucket of seconds that fills at ``share`` seconds a second, up to
``burst``. Work is let in while the bucket holds any, and what the work took is taken out
after it (so the bucket may go below zero: what comes next waits until it has filled again).
Two kinds of work have one:

- password hashing (yamen/server/passwords.py): the CPU time of its threads, whose every hash
  streams 7 MiB, five times, through the caches the event loop uses;
- the lobby's reads whose work grows with the site (:class:`Reads`): a player's page, a
  leaderboard, the list of public rooms; one at a time, charged their time on the event loop.

Past its share, work is refused at once (:class:`Busy`: 429 ``busy`` with Retry-After), never
queued without end. Per-address limits (yamen/server/limits.py) keep one address from taking
the whole share; a share keeps all of them together from taking the tables' time.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from yamen.server.limits import Limited, refused

RETRY_SECONDS = 1
READS_BURST = 0.5  # seconds of the loop the heavy lobby reads may take at once
# the kinds of heavy lobby read, each with its own queue and share: a flood of player pages never
# shuts the public room list that every lobby shows (nor the other way round)
READS = ("pages", "rooms")


class Busy(Limited):
    """The work has had its share (or its queue is full): try again in RETRY_SECONDS."""

    def __init__(self, message: str):
        super().__init__("busy", message, RETRY_SECONDS)


class Budget:
    """Seconds of work that may be spent: ``share`` a second on average, ``burst`` at once
    (``share`` None: no bound). Not thread-safe: a caller from threads holds its own lock."""

    def __init__(
        self, share: float | None, burst: float, clock: Callable[[], float] = time.monotonic
    ):
        self.share, self.burst, self.clock = share, burst, clock
        self.credit, self.filled = burst, clock()

    def left(self) -> float:
        """The seconds that may still be spent now (filled since the last look)."""
        now = self.clock()
        if self.share is None:
            self.credit = self.burst
        else:
            self.credit = min(self.burst, self.credit + (now - self.filled) * self.share)
        self.filled = now
        return self.credit

    def spend(self, seconds: float) -> None:
        self.left()
        self.credit -= seconds


class Reads:
    """The lobby reads whose work grows with the site: one at a time, at most ``waiting``
    waiting for their turn, and their time on the event loop within ``budget``."""

    def __init__(self, budget: Budget, waiting: int = 16):
        self.budget, self.most = budget, waiting
        self.lock = asyncio.Lock()
        self.waiting = 0

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """The caller's turn to read (its time, from its turn's start to its end, charged), or
        :class:`Busy` at once: the queue is full or the share spent, when it asks or when its
        turn comes."""
        if self.waiting >= self.most or self.budget.left() <= 0:
            raise Busy("the lobby's reads have had their share of the server")
        self.waiting += 1
        try:
            async with self.lock:
                if self.budget.left() <= 0:
                    raise Busy("the lobby's reads have had their share of the server")
                began = time.perf_counter()
                try:
                    yield
                finally:
                    self.budget.spend(time.perf_counter() - began)
        finally:
            self.waiting -= 1


@contextlib.asynccontextmanager
async def lobby_read(request: Any, kind: str = "pages") -> AsyncIterator[None]:
    """A lobby read's turn (the app's :class:`Reads` of its ``kind``, one of READS); past its
    share, the HTTP 429."""
    try:
        async with request.app.state.reads[kind].turn():
            yield
    except Busy as exc:
        raise refused(exc) from None
