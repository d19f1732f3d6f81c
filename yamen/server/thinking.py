"""Where a server's bots think: a pool of worker processes, with the server's budget.

A bot's decision is CPU work; on the event loop (or in a thread, which competes for the GIL)
one room of search bots slows every room. So a room sends what its bot may know (the game, the
bot's name, the seat's view and legal actions, and a seed drawn from the room's own bot chance,
never the game's) to a worker process; the workers keep their bot objects between decisions.
The pool's size is the server's budget for thinking: a room whose bots think long waits for a
worker, and the other rooms' event loop does not.

Only bots that think go to the workers: a quick bot (no time budget) answers in microseconds,
less than a trip to a worker, in a thread here: the thinker's own (``QUICK_THREADS``), never
asyncio's default pool, which anything may fill (a burst of sign-ins once stalled a room of
rules bots for seconds there; passwords have their own pool too, yamen/server/passwords.py).
Not on the event loop itself: a Criminal Poker rules decision can take a few milliseconds, and
in a thread the loop still gets its turns meanwhile. A thinking bot whose answer is not back
by its time (the workers are all busy) is cut off: the room plays a quick bot's answer at that
time instead (yamen/server/driver.py), so an overloaded server plays weaker, never slower, and
the time still tells nothing.

The budget of one decision is the server's too: a bot that takes a time budget (a ``seconds``
argument, see :func:`yamen.bots.thinks`) is always made with ``seconds`` set to the server's
cap, whatever a room asks; rooms name bots only by their plain names (yamen/server/settings.py).
:meth:`Thinker.budget` is how long such a decision may take, which the room uses to answer at a
time that does not depend on what the bot holds (yamen/server/driver.py).

``workers=0`` thinks in a thread of this process instead (tests, embedding: asyncio's default
pool, not the quick bots' threads); ``yamen serve`` uses processes (``--bot-workers``).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from yamen.bots import bot_names, make_bot, thinks
from yamen.errors import OptionsError

DEFAULT_SECONDS = 0.7  # a budgeted bot's think time per decision, at most
WORKER_NICE = 10  # a worker's scheduling priority below the server's
SLACK = 0.1  # what a decision may take beyond its think time: a last playout, the trip here
MAX_SECONDS = 60.0
QUICK_THREADS = 2  # the quick bots' own threads: no other work ever queues in front of them


def default_workers() -> int:
    """One worker per core but one (the event loop's), and at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class Thinker:
    """The server's bots: how they are made (its budget) and where they think."""

    # A table with no person seated (watchers only) has its bots answer no sooner than this
    # (seconds), whatever its bot_delay: the server's limit ``bot_pace``, set by create_app
    # (yamen/server/driver.py reads it; 0: none).
    bot_pace: float = 0.0

    def __init__(self, workers: int = 0, seconds: float = DEFAULT_SECONDS, slack: float = SLACK):
        if not isinstance(workers, int) or workers < 0:
            raise OptionsError("bot workers must be a whole number of at least 0")
        if not 0 < seconds <= MAX_SECONDS:
            raise OptionsError(f"a bot's seconds a decision must be above 0, at most {MAX_SECONDS}")
        self.workers, self.seconds, self.slack = workers, seconds, slack
        self.pool: ProcessPoolExecutor | None = None
        self.threads: ThreadPoolExecutor | None = None  # the quick bots' own

    def spec(self, game: str, name: str) -> str:
        """The bot the server runs for the plain name ``name``: with the server's budget."""
        return f"{name}:seconds={self.seconds}" if thinks(game, name) else name

    def budget(self, game: str, name: str) -> float:
        """Seconds a decision of this bot may take; 0 for bots with no time budget (they are
        quick: the room's ``bot_delay`` covers them)."""
        return self.seconds + self.slack if thinks(game, name) else 0.0

    def quick(self, game: str) -> str:
        """A bot of ``game`` with no time budget (it answers in microseconds): "rules" when the
        game has one, else "random"."""
        names = bot_names(game)
        return "rules" if "rules" in names and not thinks(game, "rules") else "random"

    def start(self) -> None:
        """Start the worker processes now, not on the first decision (which would be late)."""
        if self.workers and self.pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a running event loop
            self.pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_worker, initargs=(os.getpid(),)
            )
            for _ in range(self.workers):
                self.pool.submit(os.getpid)

    async def decide(
        self, game: str, name: str, view: Mapping[str, Any], legal: list[int], seed: int
    ) -> int:
        """The bot's choice for the seat whose ``view`` and ``legal`` these are."""
        args = (game, self.spec(game, name), view, list(legal), seed)
        loop = asyncio.get_running_loop()
        if not thinks(game, name):
            # A quick bot answers in microseconds, less than a trip to a worker costs; and a
            # room of quick bots then never waits behind another room's search, nor behind
            # anything else the server does in threads.
            if self.threads is None:
                self.threads = ThreadPoolExecutor(QUICK_THREADS, thread_name_prefix="bots")
            return await loop.run_in_executor(self.threads, decide, *args)
        if not self.workers:  # tests, embedding: thinking in a thread, not the quick bots'
            return await asyncio.to_thread(decide, *args)
        self.start()
        try:
            return await loop.run_in_executor(self.pool, decide, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a new pool next time
            self.close()
            raise

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
        if self.threads is not None:
            self.threads.shutdown(wait=False, cancel_futures=True)
            self.threads = None


INLINE = Thinker()  # rooms made without a server's thinker think in a thread, at the defaults

_local = threading.local()  # each thread (or worker process) keeps its own bot objects


def _worker(server: int) -> None:
    """A worker starts: below the server in the scheduler's eyes (where cores are short, the
    rooms' event loop comes before a bot's thinking), and it leaves when the server is gone (a
    server killed outright, SIGKILL, cannot shut its pool down; its workers would otherwise
    wait for work for ever)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="watch the server", daemon=True).start()


def decide(game: str, spec: str, view: Mapping[str, Any], legal: list[int], seed: int) -> int:
    """Run in a worker: the bot named by ``spec``, kept between decisions, chooses."""
    bots = getattr(_local, "bots", None)
    if bots is None:
        bots = _local.bots = {}
    bot = bots.get((game, spec))
    if bot is None:
        bot = bots[(game, spec)] = make_bot(game, spec)
    return bot.choose(view, legal, random.Random(seed))
