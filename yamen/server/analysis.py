"""Post-game analysis jobs: a finished game's decisions for one seat, valued by the game's
analyst (``Game.analyst``, a module's name, as bots are named: yamen/engine.py says its three
parts) in the background, with the server's budget, and stored so that it is computed once.

Budget: ``playouts`` per decision (given to the analyst, which must keep to it), at most one
job running per player, and at most ``jobs`` running in this server (a request beyond that is
refused at once, 429 ``busy``, rather than queued: a crowd cannot stack up work).

Where the work runs (one server process, the default): valuing a decision is CPU work, and on
a thread of the server it would hold the GIL and slow every table. So the server lists the
decisions (the record replayed: cheap, on a thread) and sends each one as a task of its own to
a pool of ``jobs`` worker processes (started on the first job, "spawn": no fork of a running
event loop). A task gets the seat's view, its legal actions, the action played, the playouts
and the decision's seed, nothing else: the record and the game's state stay here, so the rule
that an analysis sees only the seat's view holds by construction. Progress is the decisions
whose values are back; the values are assembled here into the answer, which is the analyst's
own ``analyse()``'s for the same seed (each decision has its own seed, so the order the
workers finish in changes nothing).

Several server processes (``--redis``): the jobs go through the shared Redis instead
(yamen/server/analysis_queue.py), so the budget and a job's progress are the site's.

Stored: the result goes to the ``analyses`` table (:func:`store_result`, which ignores a
second insert of the same game and seat), and a stored analysis is read from there, never
computed again.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError

from yamen.engine import game_type
from yamen.errors import OptionsError
from yamen.records import Record
from yamen.server.storage import Store
from yamen.server.tables import AnalysisRow
from yamen.server.thinking import _worker as watched_worker

log = logging.getLogger(__name__)
DEFAULT_PLAYOUTS = 200  # per decision
DEFAULT_JOBS = 2  # running at once in a server
SEED = 0  # analyses are reproducible: the same game and seat give the same answer
NONE = {"state": "none", "progress": {"done": 0, "total": 0}}


class Refused(Exception):
    """A job that may not start now: ``code`` is the error's (``busy``, ``analysis_running``)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass
class Job:
    player: str
    state: str = "queued"  # then running, done or failed
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    task: asyncio.Task | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "state": self.state,
            "progress": {"done": self.done, "total": self.total},
        }
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
    """The jobs of a lone server: valued in its pool of worker processes. ``pool``: another
    executor to run the tasks in (tests: a thread pool, to watch the analyst at work)."""

    def __init__(
        self,
        store: Store,
        playouts: int = DEFAULT_PLAYOUTS,
        jobs: int = DEFAULT_JOBS,
        pool: Executor | None = None,
    ):
        check_budget(playouts, jobs)
        self.store, self.playouts, self.jobs = store, playouts, jobs
        self.pool = pool
        self.running: dict[tuple[int, int], Job] = {}  # (game id, seat) -> its job, until stored
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

    async def status(self, game_id: int, seat: int) -> dict[str, Any]:
        """The job's state and progress, with its result once done; ``none`` if never asked."""
        job = self.running.get((game_id, seat))
        if job is not None and job.state in ("queued", "running"):
            return job.status()
        result = await stored(self.store, game_id, seat)
        if result is None:
            return job.status() if job is not None else dict(NONE)
        return done_status(result)

    async def start(
        self, game_id: int, seat: int, record: Record, player: str, analyst: ModuleType
    ) -> dict[str, Any]:
        """Start the analysis of ``seat`` in the finished game (or answer the one stored or
        running); :class:`Refused` beyond the budget."""
        key = (game_id, seat)
        job = self.running.get(key)
        if job is not None and job.state in ("queued", "running"):
            return job.status()
        if await stored(self.store, game_id, seat) is not None:
            return await self.status(game_id, seat)
        live = [j for j in self.running.values() if j.state in ("queued", "running")]
        if any(j.player == player for j in live):
            raise Refused("analysis_running", "you have an analysis running: wait for it")
        if len(live) >= self.jobs:
            raise Refused("busy", "every analysis worker is busy: try again later")
        job = Job(player)
        self.running[key] = job
        job.task = asyncio.create_task(self.work(key, job, record, analyst))
        return job.status()

    async def work(
        self, key: tuple[int, int], job: Job, record: Record, analyst: ModuleType
    ) -> None:
        futures: list[asyncio.Future] = []
        try:
            found = await asyncio.to_thread(lambda: list(analyst.decisions(record, key[1])))
            job.state, job.total = "running", len(found)
            loop, pool = asyncio.get_running_loop(), self.executor()
            futures = [
                loop.run_in_executor(
                    pool,
                    analyst.value,
                    view,
                    legal,
                    played,
                    self.playouts,
                    analyst.decision_seed(SEED, step),
                )
                for step, view, legal, played in found
            ]
            for finished in asyncio.as_completed(futures):
                await finished
                job.done += 1
            values = [future.result() for future in futures]
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
            for future in futures:
                future.cancel()  # a failed or cancelled job's tasks not begun are dropped
            if job.state == "done":
                self.running.pop(key, None)  # stored: the database answers from now on

    async def close(self) -> None:
        tasks = [job.task for job in self.running.values() if job.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.pool is not None:  # the tasks under way end (one decision each), then the pool
            await asyncio.to_thread(self.pool.shutdown, True, cancel_futures=True)
            self.pool = None
