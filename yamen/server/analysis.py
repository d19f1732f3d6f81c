"""Post-game analysis jobs: a finished game's decisions for one seat, valued by the game's
analyst (``Game.analyst``, a ``"module:function"`` as bots are named) in the background, with
the server's budget, and stored so that it is computed once.

Budget: ``playouts`` per decision (given to the analyst, which must keep to it), at most one
job running per player, and at most ``jobs`` running in this server (a request beyond that is
refused at once, 429 ``busy``, rather than queued: a crowd cannot stack up work). A job runs on
a worker thread of this process (like the replays, yamen/server/replays.py), so the event
loop stays free; the analyst reports its progress (decisions done of all) as it goes.

Several server processes (``--redis``): each runs its own jobs and counts its own budget; the
stored result is shared through the database, so any process answers for a finished job, but a
job in progress is seen only by the process running it (another answers ``none`` until it is
stored). Sharing them would take a job queue on the shared Redis (a maintained library such as
``arq`` or ``rq``): the job keyed by (game, seat) so that it is enqueued once, its progress kept
in a Redis hash, the per-player and per-server counts as Redis keys with expiry, and workers
that store the result as here.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from yamen.engine import game_type
from yamen.errors import OptionsError
from yamen.records import Record
from yamen.server.storage import Store
from yamen.server.tables import AnalysisRow

log = logging.getLogger(__name__)
DEFAULT_PLAYOUTS = 200  # per decision
DEFAULT_JOBS = 2  # running at once in a server
SEED = 0  # analyses are reproducible: the same game and seat give the same answer


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


def analyst_of(game: str) -> Callable[..., dict[str, Any]] | None:
    """The game's analysis function, or None when the game has none."""
    spec = game_type(game).analyst
    if spec is None:
        return None
    module, name = spec.split(":")
    return getattr(importlib.import_module(module), name)


def check_budget(playouts: int, jobs: int) -> None:
    if not isinstance(playouts, int) or playouts < 2:
        raise OptionsError("an analysis needs at least 2 playouts a decision")
    if not isinstance(jobs, int) or jobs < 1:
        raise OptionsError("a server runs at least 1 analysis at once")


class Analyses:
    def __init__(self, store: Store, playouts: int = DEFAULT_PLAYOUTS, jobs: int = DEFAULT_JOBS):
        check_budget(playouts, jobs)
        self.store, self.playouts, self.jobs = store, playouts, jobs
        self.pool = ThreadPoolExecutor(jobs, thread_name_prefix="analysis")
        self.running: dict[tuple[int, int], Job] = {}  # (game id, seat) -> its job, until stored
        self.computed = 0  # analyses computed by this process (tests: stored ones are not redone)

    async def stored(self, game_id: int, seat: int) -> dict[str, Any] | None:
        async with self.store.session() as s:
            row = await s.get(AnalysisRow, (game_id, seat))
        return None if row is None else row.result

    async def status(self, game_id: int, seat: int) -> dict[str, Any]:
        """The job's state and progress, with its result once done; ``none`` if never asked."""
        job = self.running.get((game_id, seat))
        if job is not None and job.state in ("queued", "running"):
            return job.status()
        result = await self.stored(game_id, seat)  # (another process's, when this one failed)
        if result is None:
            return (
                job.status()
                if job is not None
                else {"state": "none", "progress": {"done": 0, "total": 0}}
            )
        total = len(result.get("decisions", []))
        return {"state": "done", "progress": {"done": total, "total": total}, "result": result}

    async def start(
        self, game_id: int, seat: int, record: Record, player: str, analyst: Callable[..., Any]
    ) -> dict[str, Any]:
        """Start the analysis of ``seat`` in the finished game (or answer the one stored or
        running); :class:`Refused` beyond the budget."""
        key = (game_id, seat)
        job = self.running.get(key)
        if job is not None and job.state in ("queued", "running"):
            return job.status()
        if await self.stored(game_id, seat) is not None:
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
        self, key: tuple[int, int], job: Job, record: Record, analyst: Callable[..., Any]
    ) -> None:
        def progress(done: int, total: int) -> None:  # on the worker thread: plain ints
            job.done, job.total = done, total

        def compute() -> dict[str, Any]:
            job.state = "running"
            return analyst(record, key[1], self.playouts, SEED, progress)

        try:
            result = await asyncio.get_running_loop().run_in_executor(self.pool, compute)
            self.computed += 1
            async with self.store.session.begin() as s:
                s.add(
                    AnalysisRow(
                        game_id=key[0],
                        seat=key[1],
                        playouts=self.playouts,
                        result=result,
                        created=time.time(),
                    )
                )
            job.result, job.state = result, "done"
        except Exception:
            log.exception("analysis of game %s seat %s failed", *key)
            job.state = "failed"
        finally:
            if job.state == "done":
                self.running.pop(key, None)  # stored: the database answers from now on

    async def close(self) -> None:
        for job in self.running.values():
            if job.task is not None:
                job.task.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)
