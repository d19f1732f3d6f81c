"""Passwords, hashed with Argon2id, and account names.

The parameters are one of OWASP's equivalent choices for Argon2id (Password Storage Cheat
Sheet: 7 MiB, 5 passes, one lane), not argon2-cffi's default (RFC 9106's low-memory choice:
64 MiB, 3 passes, 4 lanes): measured here, a check takes 14 ms of CPU against 215 ms, and a
server on two cores that checks a burst of sign-ins must keep a core for its tables (issue 23).
Of OWASP's choices the smallest memory is taken because the hash shares the machine's last
cache with the event loop, whose work (collections above all) waits on memory: with hashes
running without pause on the other core, a walk over a 300 MB heap on the loop's core took
207-292 ms at 19 MiB and 2 passes (the choice before, 17.8 ms a check), 210-249 ms at
7 MiB, 217-250 ms with no hashing (three runs each, 32 MiB of shared cache). A hash made
with other parameters still verifies (a hash names its own) and is renewed at its next sign-in
(:func:`needs_rehash`).

Hashing still takes CPU and memory on purpose, so it has a pool of threads
of its own (:data:`HASHING`: THREADS at once, QUEUE more waiting), shared by every event loop
of the process and by nothing else: a burst of sign-ins waits there, never in front of a
table's bot or anything else of the server's (argon2-cffi computes in C without the GIL). On
Linux those threads are scheduled ``SCHED_IDLE``: they run only on a core that nothing else of
the machine wants, and a thread of the server that wakes takes the core from them at once
(nice ``NICE``, where that is refused: a thread at nice 10 kept a woken event loop waiting,
measured below). So where cores are short the event loop comes first, and a sign-in on a
machine busy to its last core waits for a core (its queue's bound holds). A check beyond the
queue is refused at once (:class:`Busy`: 429 ``busy`` with Retry-After) rather than queued without
end, and so is one past the pool's share of the machine (``SHARE``, below).

**A share of a core.** A thread of its own and nice bound when hashing runs, not what it
costs the machine: in benchmarks/load.py's ``sign_ins`` phase (issue 23; about 5 wrong
sign-ins a second, 0.17 of a core of hashing, on two cores shared with the load's clients) the
other rooms' median action took 167-178 ms against 13-35 ms in the same run's clean windows;
each hash also streams its memory through the caches the event loop uses. So the hashing threads
of a process may spend at most
``SHARE`` of one core's time, measured as they hash (a bucket of CPU seconds that fills at
``SHARE`` a second, up to ``BURST``): about 3.5 checks a second, more than a site's people sign
in; a burst beyond it is told to come back (``busy``), and the tables never wait for it. Who
floods the sign-in from many addresses can delay other people's sign-ins, never a table.

Measured with the first form of benchmarks/request_crowd.py (an idle server, 40 wrong
sign-ins retried together each second on 8 connections, a WebSocket ping's round trip from
another process; two runs each): p99 1.9 ms and max 7.9-8.8 ms at nice 10, 1.3-1.5 and
5.0-6.5 ms with ``SCHED_IDLE``.

An unknown name is checked against a hash all the same (:func:`check` with ``None``): a wrong
name and a wrong password take as long, and are told apart by nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from yamen.server.identity import clean_name
from yamen.server.limits import Limits
from yamen.server.share import Budget, Busy

PASSWORD_MIN = 8
PASSWORD_MAX = 256
# hashes computed at once (each takes 7 MiB for a moment): on two cores, one, so that a burst
# of sign-ins leaves the other core to the tables whatever the scheduler does with nice
THREADS = max(1, min(2, (os.cpu_count() or 1) - 1))
QUEUE = 16  # hashes waiting for a thread; one more is refused (Busy)
# of one core: the most the hashing threads may spend, on average (about 3.5 checks a second);
# a server sets its own from its limits (app.py), whose default this is
SHARE = Limits.hashing_share
BURST = 1.0  # CPU seconds of hashing that may be spent at once, after a quiet while
NICE = 10  # how far below the server the hashing threads are, where SCHED_IDLE is refused
hasher = PasswordHasher(time_cost=5, memory_cost=7 * 1024, parallelism=1)
DUMMY = hasher.hash("an account that is not there")
T = TypeVar("T")


class Hashing:
    """A pool of ``threads`` for hashing, with at most ``queue`` jobs waiting for one, that
    spends at most ``share`` of a core's time (``burst`` CPU seconds at once; None: no
    share, for tests; yamen/server/share.py). A server sets its process's from its limits
    (``hashing_share``)."""

    def __init__(
        self,
        threads: int = THREADS,
        queue: int = QUEUE,
        share: float | None = SHARE,
        burst: float = BURST,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.pool = ThreadPoolExecutor(threads, "password", initializer=_below_the_server)
        self.most = threads + queue
        self.held = 0  # jobs running or waiting (any event loop's: under the lock)
        self.lock = threading.Lock()  # (the budget's too: every thread charges it)
        self.budget = Budget(share, burst, clock)  # CPU seconds of hashing

    def admit(self) -> None:
        """:class:`Busy` now if a job asked for now would be (the pool full or its share
        spent): a request asks before it does any other work for its check (an account's
        look-up), so that a flood of refused checks costs the server next to nothing."""
        with self.lock:
            self._admit()

    def _admit(self) -> None:
        if self.held >= self.most:
            raise Busy("too many password checks at once")
        if self.budget.left() <= 0:
            raise Busy("the password checks have had their share of the machine")

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` on a password thread, or :class:`Busy` at once."""
        with self.lock:
            self._admit()
            self.held += 1
        try:
            job = self.pool.submit(self._charged, work, *args)
        except BaseException:
            self._done(None)
            raise
        # freed when the job is over, not when its waiter stops waiting: a thread still
        # hashing for a request that went away is still taken
        job.add_done_callback(self._done)
        return await asyncio.wrap_future(job)

    def _done(self, _: Future | None) -> None:
        with self.lock:
            self.held -= 1

    def _charged(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)``, its thread's CPU time taken from the credit (it may go below zero:
        the checks after it wait for it to fill again)."""
        began = time.thread_time()
        try:
            return work(*args)
        finally:
            spent = time.thread_time() - began
            with self.lock:
                self.budget.spend(spent)


def _below_the_server() -> None:
    """A hashing thread starts: ``SCHED_IDLE``, or else NICE below the thread that made it (the
    server's), for this thread only (Linux schedules threads one by one; elsewhere this would
    touch the whole process, so it is not done)."""
    if sys.platform.startswith("linux"):
        thread = threading.get_native_id()
        try:
            os.sched_setscheduler(thread, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            with contextlib.suppress(OSError):
                below = os.getpriority(os.PRIO_PROCESS, thread) + NICE
                os.setpriority(os.PRIO_PROCESS, thread, min(19, below))


HASHING = Hashing()


def account_name(name: str) -> tuple[str, str]:
    """A name to sign in with, as shown (the rules of display names), and its key: two names
    that look alike up to case and width (NFKC, casefolded) are one name."""
    shown = clean_name(name)
    return shown, unicodedata.normalize("NFKC", shown).casefold()


def password_problem(password: str) -> bool:
    """Whether a new password breaks the rules: PASSWORD_MIN to PASSWORD_MAX characters."""
    return not PASSWORD_MIN <= len(password) <= PASSWORD_MAX


def _hash(password: str) -> str:
    return hasher.hash(password)


async def hash_password(password: str) -> str:
    return await HASHING.run(_hash, password)


def _verify(stored: str | None, password: str) -> bool:
    try:
        return hasher.verify(stored or DUMMY, password) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


async def check(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` hashes (None: no such account, always False,
    in the same time)."""
    return await HASHING.run(_verify, stored, password)


def needs_rehash(stored: str) -> bool:
    """Whether a hash was made with older parameters than the library's now."""
    return hasher.check_needs_rehash(stored)
