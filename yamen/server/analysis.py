"""Post-game analysis jobs: a finished game's decisions for one seat, valued by the game's
analyst (``Game.analyst``, a module's name, as bots are named: yamen/engine.py says its three
parts) in the background, with the server's budget, and stored so that it is computed once.

Budget: ``playouts`` per decision (given to the analyst, which must keep to it); a job of at
most ``most`` decisions (MAX_DECISIONS: one seat of a 50-deal Baohuang game is about 2,000);
one job at once per player; each player's decisions asked for in a day (the limit
``analysis_decisions``, charged when a job is accepted); and at most ``held`` decisions of the
jobs the server holds at once (queued or running: each decision's view is kept until it is
valued), beyond which a job is refused at once, 429 ``busy``. The decision count is known when
a job is asked for: the seat's actions in the record.

Fair: the decisions are valued one of each job in turn (round robin by job), however big the
jobs ahead: a job of a few decisions asked for behind one of 2,000 is done in about the time of
its own decisions times the jobs running, not after the big one. A job's status tells how long
it will take (``eta_seconds``): the decisions still to value of every job ahead of its end
(each other job's remaining decisions, up to as many as this one's: round robin) times the
seconds a decision took in a worker lately (:data:`TIMED` of them, per analyst), over the
workers; None until one has been timed.

Where the work runs (one server process, the default): valuing a decision is CPU work, and on
a thread of the server it would hold the GIL and slow every table. So the server lists the
decisions (the record replayed: cheap, on a thread) and sends each one as a task of its own to
a pool of ``jobs`` worker processes (started on the first job, "spawn": no fork of a running
event loop), never more than AHEAD tasks a worker at once, so that the next ones are chosen
fairly as workers free up. A task gets the seat's view, its legal actions, the action played, the
playouts and the decision's seed, nothing else: the record and the game's state stay here, so
the rule that an analysis sees only the seat's view holds by construction. Progress is the
decisions whose values are back; the values are assembled here into the answer, which is the
analyst's own ``analyse()``'s for the same seed (each decision has its own seed, so the order
the workers take them in changes nothing).

Several server processes (``--redis``): the jobs go through the shared Redis instead
(yamen/server/analysis_queue.py), so the budget and a job's progress are the site's.

Stored: the result goes to the ``analyses`` table (:func:`store_result`, which ignores a
second insert of the same game and seat), and a stored analysis is read from there, never
computed again.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
import math
import multiprocessing
import os
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError

from yamen.engine import game_type
from yamen.errors import OptionsError
from yamen.records import Record
from yamen.server.limits import Limited, Limiter
from yamen.server.storage import Store
from yamen.server.tables import AnalysisRow
from yamen.server.thinking import _worker as watched_worker

log = logging.getLogger(__name__)
DEFAULT_PLAYOUTS = 200  # per decision
DEFAULT_JOBS = 2  # worker processes: decisions valued at once in a server
MAX_DECISIONS = 2500  # a job's decisions at most
MAX_HELD = 5000  # decisions of the jobs a server holds at once (queued or running)
TIMED = 100  # the latest decisions' times in a worker make a job's estimate
AHEAD = 2  # decisions sent per worker at once: one valued, the next waiting (no idle trip)
SEED = 0  # analyses are reproducible: the same game and seat give the same answer
NONE = {"state": "none", "progress": {"done": 0, "total": 0}}


class Refused(Exception):
    """A job that may not start now: ``code`` is the error's (``busy``, ``analysis_running``,
    ``analysis_too_long``, ``analysis_quota``), with the seconds to wait where it says and the
    message's variable parts."""

    def __init__(
        self,
        code: str,
        message: str,
        retry_after: int | None = None,
        params: dict[str, Any] | None = None,
    ):
        super().__init__(message)
        self.code, self.retry_after, self.params = code, retry_after, params or {}


@dataclass
class Job:
    player: str
    analyst: ModuleType = field(repr=False)
    total: int  # decisions: the seat's actions in the record
    state: str = "queued"  # then running (a decision sent to a worker), done or failed
    done: int = 0
    result: dict[str, Any] | None = None
    task: asyncio.Task | None = field(default=None, repr=False)
    waiting: deque[tuple[int, Any]] = field(default_factory=deque, repr=False)  # not yet sent
    values: list[Any] = field(default_factory=list, repr=False)
    finished: asyncio.Future | None = field(default=None, repr=False)  # every value back

    @property
    def left(self) -> int:
        return self.total - self.done

    def status(self, eta: int | None = None) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "state": self.state,
            "progress": {"done": self.done, "total": self.total},
        }
        if self.state in ("queued", "running"):
            answer["eta_seconds"] = eta
        if self.result is not None:
            answer["result"] = self.result
        return answer


class Jobs(Protocol):
    """What the API asks of the analyses: :class:`Analyses` here, or the cluster's
    (yamen/server/analysis_queue.py)."""

    async def status(self, game_id: int, seat: int) -> dict[str, Any]: ...

    async def start(
        self, game_id: int, seat: int, record: Record, player: str, analyst: ModuleType
    ) -> dict[str, Any]: ...

    async def close(self) -> None: ...


def analyst_of(game: str) -> ModuleType | None:
    """The game's analyst (a module with ``decisions``, ``decision_seed``, ``value`` and
    ``assemble``), or None when the game has none."""
    name = game_type(game).analyst
    return None if name is None else importlib.import_module(name)


def check_budget(playouts: int, jobs: int) -> None:
    if not isinstance(playouts, int) or playouts < 2:
        raise OptionsError("an analysis needs at least 2 playouts a decision")
    if not isinstance(jobs, int) or jobs < 1:
        raise OptionsError("a server runs at least 1 analysis at once")


def decisions_of(record: Record, seat: int) -> int:
    """How many decisions an analysis of ``seat`` values: the seat's actions in the record."""
    return sum(1 for who, _ in record.actions if who == seat)


def check_size(decisions: int, most: int) -> None:
    """A job over ``most`` decisions is refused (``analysis_too_long``): it never runs."""
    if decisions > most:
        message = f"this seat made {decisions} decisions: an analysis takes at most {most}"
        raise Refused("analysis_too_long", message, params={"decisions": decisions, "most": most})


def quota_refusal(exc: Limited, decisions: int) -> Refused:
    """Over the player's ``analysis_decisions`` of the day."""
    message = f"an analysis of {decisions} decisions is over what you may ask for today"
    return Refused("analysis_quota", message, exc.retry_after, {"decisions": decisions})


def timed(value: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """Run in a worker: one decision valued, and the seconds it took there."""
    began = time.perf_counter()
    found = value(*args)
    return found, time.perf_counter() - began


def done_status(result: dict[str, Any]) -> dict[str, Any]:
    total = len(result.get("decisions", []))
    return {"state": "done", "progress": {"done": total, "total": total}, "result": result}


async def stored(store: Store, game_id: int, seat: int) -> dict[str, Any] | None:
    async with store.session() as s:
        row = await s.get(AnalysisRow, (game_id, seat))
    return None if row is None else row.result


async def store_result(
    store: Store, game_id: int, seat: int, playouts: int, result: dict[str, Any]
) -> bool:
    """Store the analysis; False when it was stored already (by another process: the primary
    key (game, seat) takes one), which is not an error."""
    try:
        async with store.session.begin() as s:
            s.add(
                AnalysisRow(
                    game_id=game_id,
                    seat=seat,
                    playouts=playouts,
                    result=result,
                    created=time.time(),
                )
            )
    except IntegrityError:
        return False
    return True


class Analyses:
    """The jobs of a lone server: valued in its pool of worker processes, one decision of each
    job in turn. ``pool``: another executor to run the tasks in (tests: a thread pool, to watch
    the analyst at work). ``limiter``: the server's, for the ``analysis_decisions`` a player
    may ask for in a day (None: no such limit)."""

    def __init__(
        self,
        store: Store,
        playouts: int = DEFAULT_PLAYOUTS,
        jobs: int = DEFAULT_JOBS,
        pool: Executor | None = None,
        limiter: Limiter | None = None,
        most: int = MAX_DECISIONS,
        held: int = MAX_HELD,
    ):
        check_budget(playouts, jobs)
        self.store, self.playouts, self.jobs = store, playouts, jobs
        self.pool, self.limiter = pool, limiter
        self.most, self.held = most, held
        self.running: dict[tuple[int, int], Job] = {}  # (game id, seat) -> its job, until stored
        self.turns: deque[Job] = deque()  # jobs with decisions to send, in turn
        self.sending = 0  # decisions with the workers now (at most AHEAD a worker)
        self.seconds: dict[str, deque[float]] = {}  # analyst -> its latest decisions' times
        self.computed = 0  # analyses computed by this process (tests: stored ones are not redone)

    def executor(self) -> Executor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                self.jobs,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=watched_worker,  # below the server in priority; gone with it
                initargs=(os.getpid(),),
            )
        return self.pool

    def live(self) -> list[Job]:
        return [job for job in self.running.values() if job.state in ("queued", "running")]

    def eta(self, job: Job) -> int | None:
        """Seconds until ``job`` is done, by the decisions ahead of its end (round robin: each
        other job's remaining ones, up to as many as this one's) and the time a decision took
        lately; None until one has been timed."""
        times = self.seconds.get(job.analyst.__name__)
        if not times:
            return None
        ahead = sum(min(other.left, job.left) for other in self.live())
        return math.ceil(ahead * (sum(times) / len(times)) / self.jobs)

    async def status(self, game_id: int, seat: int) -> dict[str, Any]:
        """The job's state and progress (with ``eta_seconds`` while it runs), with its result
        once done; ``none`` if never asked."""
        job = self.running.get((game_id, seat))
        if job is not None and job.state in ("queued", "running"):
            return job.status(self.eta(job))
        result = await stored(self.store, game_id, seat)
        if result is None:
            return job.status() if job is not None else dict(NONE)
        return done_status(result)

    async def start(
        self, game_id: int, seat: int, record: Record, player: str, analyst: ModuleType
    ) -> dict[str, Any]:
        """Start the analysis of ``seat`` in the finished game (or answer the one stored or
        running); :class:`Refused` beyond the budget, and then nothing is charged."""
        key = (game_id, seat)
        job = self.running.get(key)
        if job is not None and job.state in ("queued", "running"):
            return job.status(self.eta(job))
        if await stored(self.store, game_id, seat) is not None:
            return await self.status(game_id, seat)
        live = self.live()
        if any(j.player == player for j in live):
            raise Refused("analysis_running", "you have an analysis running: wait for it")
        decisions = decisions_of(record, seat)
        check_size(decisions, self.most)
        if sum(j.left for j in live) + decisions > self.held:
            raise Refused("busy", "the analysis workers have as much as they may hold: later")
        if self.limiter is not None:
            try:
                self.limiter.take("analysis_decisions", player, cost=decisions)
            except Limited as exc:
                raise quota_refusal(exc, decisions) from None
        job = Job(player, analyst, decisions)
        self.running[key] = job
        job.task = asyncio.create_task(self.work(key, job, record))
        return job.status(self.eta(job))

    async def work(self, key: tuple[int, int], job: Job, record: Record) -> None:
        analyst = job.analyst
        try:
            found = await asyncio.to_thread(lambda: list(analyst.decisions(record, key[1])))
            job.total, job.values = len(found), [None] * len(found)
            job.finished = asyncio.get_running_loop().create_future()
            if found:
                job.waiting.extend(enumerate(found))
                self.turns.append(job)
                self.feed()
            else:
                job.finished.set_result([])
            values = await job.finished
            result = analyst.assemble(record, key[1], self.playouts, found, values)
            self.computed += 1
            await store_result(self.store, key[0], key[1], self.playouts, result)
            job.result, job.state = result, "done"
        except Exception as exc:
            log.exception("analysis of game %s seat %s failed", *key)
            job.state = "failed"
            if isinstance(exc, BrokenProcessPool):  # a worker died: a new pool next time
                self.pool = None
        finally:
            job.waiting.clear()  # a failed or cancelled job's decisions not sent are dropped
            if job in self.turns:
                self.turns.remove(job)
            if job.finished is not None and not job.finished.done():
                job.finished.cancel()  # (cancelled: its tasks' values are not waited for)
            if job.state == "done":
                self.running.pop(key, None)  # stored: the database answers from now on

    def feed(self) -> None:
        """Send decisions to the workers, one of each job in turn (round robin by job), at
        most AHEAD a worker (each has its next one waiting, rather than idle while a value
        comes back and the next is chosen): a job asked for now is at most that far behind."""
        while self.sending < self.jobs * AHEAD and self.turns:
            job = self.turns.popleft()
            index, (step, view, legal, played) = job.waiting.popleft()
            if job.waiting:
                self.turns.append(job)
            seed = job.analyst.decision_seed(SEED, step)
            try:
                sent = asyncio.get_running_loop().run_in_executor(
                    self.executor(), timed, job.analyst.value, view, legal, played,
                    self.playouts, seed,
                )  # fmt: skip
            except Exception as exc:  # the pool is shut down or broken: the job fails
                self.fail(job, exc)
                continue
            job.state = "running"
            self.sending += 1
            sent.add_done_callback(functools.partial(self.back, job, index))

    def back(self, job: Job, index: int, sent: asyncio.Future) -> None:
        """A decision's value is back (or its task failed: the job fails); the freed worker
        takes the next decision in turn."""
        self.sending -= 1
        if sent.cancelled():
            self.fail(job, asyncio.CancelledError())
        elif sent.exception() is not None:
            self.fail(job, sent.exception())
        else:
            value, seconds = sent.result()
            times = self.seconds.setdefault(job.analyst.__name__, deque(maxlen=TIMED))
            times.append(seconds)
            job.values[index] = value
            job.done += 1
            if job.done == job.total and job.finished is not None and not job.finished.done():
                job.finished.set_result(job.values)
        self.feed()

    def fail(self, job: Job, exc: BaseException | None) -> None:
        job.waiting.clear()
        if job.finished is not None and not job.finished.done():
            job.finished.set_exception(exc if isinstance(exc, Exception) else RuntimeError(exc))

    async def close(self) -> None:
        tasks = [job.task for job in self.running.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.pool is not None:  # the tasks under way end (one decision each), then the pool
            await asyncio.to_thread(self.pool.shutdown, True, cancel_futures=True)
            self.pool = None
