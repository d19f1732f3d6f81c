"""Post-game analysis jobs when several server processes share a Redis (``--redis``): an rq
job queue on it (the library ``rq``), so that a job, its progress and the budget are the
site's, not one process's.

- A job's id is the cluster's prefix, the game's id and the seat: it is enqueued once
  site-wide; a process asked for a job queued or running anywhere answers that job's status.
  Checking the budget and enqueueing happen under one Redis lock, so two processes asked at
  once do not both enqueue.
- Progress is in the job's meta (``done``, ``total``), written by the worker as it goes
  (yamen/server/analysis_workers.py); any process reads it.
- Budget, kept in Redis: a player's running job is a key (the player -> the job's id, expiring
  with the job's timeout), and a second ask while that job is queued or running is 409
  ``analysis_running``; the site runs at most as many jobs (queued or started, from rq's queue
  and started registry) as there are workers listening on the queue (``jobs`` a process),
  beyond which it is 429 ``busy``; a job has at most ``most`` decisions (422
  ``analysis_too_long``), and a player's decisions of the day (the limit
  ``analysis_decisions``) are a token bucket in Redis, a hash per player charged under the same
  lock as the job is enqueued, so the day's cap holds across every process (429
  ``analysis_quota``).
- Fairness: rq gives a job to a worker whole, first come first served, so a big job holds its
  worker until it ends (at most ``most`` decisions: about 11 CPU-minutes at 200 playouts).
  Since the site takes no more jobs than it has workers, a small job is never queued behind a
  big one: it gets a worker of its own or is refused ``busy`` at once (try again). Round robin
  within a worker (jobs in chunks) is not done here; the lone server's pool does it
  (yamen/server/analysis.py).
- Estimate: a running job's ``eta_seconds`` is its decisions left times the seconds its
  decisions took so far (the job's meta); a queued one's, its decisions times the seconds a
  decision took in the site's latest job (analysis_workers.pace_key), not counting the wait
  for a worker; None until one is known.
- Workers: each server process starts ``workers`` (default ``jobs``) worker processes that
  listen on the shared queue, so no other command is needed; they are stopped with the server
  (an idle one at once, a busy one killed, its job dropped: ask again), and a worker whose
  server was killed leaves by itself. Any rq worker on the same queue would do too.
- Jobs are written in JSON (rq's ``JSONSerializer``), not pickled: what a worker reads from
  Redis is data, never code to load.
- Stored once: the first server process that reads a finished job (asked for its status, or
  asked to start it) stores the result in the database (an insert that a second one cannot
  repeat, :func:`~yamen.server.analysis.store_result`) and deletes the job; from then on the
  database answers, and nothing is computed again. A finished job nobody reads waits for its
  reader for ``RESULT_TTL``.
"""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import os
import re
import secrets
import time
from types import ModuleType
from typing import Any

from redis import Redis
from rq import Queue, Worker
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from yamen.records import Record
from yamen.server.analysis import (
    DEFAULT_JOBS,
    DEFAULT_PLAYOUTS,
    MAX_DECISIONS,
    NONE,
    SEED,
    Refused,
    check_budget,
    check_size,
    decisions_of,
    done_status,
    quota_refusal,
    store_result,
    stored,
)
from yamen.server.analysis_workers import drop, pace_key, run_job, work
from yamen.server.limits import Limited, Rate, refilled
from yamen.server.storage import Store

JOB_TIMEOUT = 3600  # seconds a job may run; also how long a player's running key lives
RESULT_TTL = 7 * 24 * 3600  # a finished job waits this long to be read and stored
LIVE = (JobStatus.QUEUED, JobStatus.STARTED, JobStatus.DEFERRED, JobStatus.SCHEDULED)
STOP_SECONDS = 2.0  # an idle worker leaves within this after SIGTERM; a busy one is killed


class QueuedAnalyses:
    """The analyses of a process of a cluster: jobs on the rq queue ``{prefix}analysis``."""

    def __init__(
        self,
        store: Store,
        redis_url: str,
        prefix: str,
        playouts: int = DEFAULT_PLAYOUTS,
        jobs: int = DEFAULT_JOBS,
        workers: int | None = None,
        quota: Rate | None = None,
        most: int = MAX_DECISIONS,
    ):
        """``quota``: the decisions a player may ask for in a day (limits.analysis_decisions;
        None: no such limit); ``most``: a job's decisions at most."""
        check_budget(playouts, jobs)
        self.store, self.playouts, self.jobs = store, playouts, jobs
        self.quota, self.most = quota, most
        self.redis_url, self.redis = redis_url, Redis.from_url(redis_url)
        self.name = re.sub(r"[^A-Za-z0-9_-]", "-", prefix) + "analysis"  # rq's ids allow these
        self.queue = Queue(self.name, connection=self.redis, serializer=JSONSerializer)
        self.workers = jobs if workers is None else workers
        self.processes: list[Any] = []
        self.worker_names: list[str] = []

    def job_id(self, game_id: int, seat: int) -> str:
        return f"{self.name}-{game_id}-{seat}"

    def start_workers(self) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a running event loop
        tag = secrets.token_hex(3)
        for i in range(self.workers):
            name = f"{self.name}-{os.getpid()}-{tag}-{i}"
            process = context.Process(
                target=work, args=(self.redis_url, self.name, name, os.getpid()), daemon=True
            )
            process.start()
            self.processes.append(process)
            self.worker_names.append(name)

    def fetch(self, job_id: str) -> Job | None:
        try:
            return Job.fetch(job_id, connection=self.redis, serializer=JSONSerializer)
        except NoSuchJobError:
            return None

    async def status(self, game_id: int, seat: int) -> dict[str, Any]:
        """The job's state and progress, with its result once done; ``none`` if never asked
        (or its job was dropped)."""
        result = await stored(self.store, game_id, seat)
        if result is not None:
            return done_status(result)
        job = await asyncio.to_thread(self.fetch, self.job_id(game_id, seat))
        if job is None:
            return dict(NONE)
        return await self.answer(game_id, seat, job)

    async def answer(self, game_id: int, seat: int, job: Job) -> dict[str, Any]:
        try:
            state = await asyncio.to_thread(job.get_status)
        except (InvalidJobOperation, NoSuchJobError):  # gone since: stored by another process
            again = await stored(self.store, game_id, seat)
            return dict(NONE) if again is None else done_status(again)
        if state == JobStatus.FINISHED:
            return await self.collect(game_id, seat, job)
        meta = job.meta or {}
        done, total = meta.get("done", 0), meta.get("total", 0)
        progress = {"done": done, "total": total}
        if state not in LIVE:
            return {"state": "failed", "progress": progress}
        named = "running" if state == JobStatus.STARTED else "queued"
        if done:  # seconds so far, a decision
            eta = (total - done) * meta.get("seconds", 0.0) / done
        else:  # the site's latest pace
            pace = await asyncio.to_thread(self.redis.get, pace_key(self.name))
            eta = None if pace is None else total * float(pace)
        seconds = None if eta is None else math.ceil(eta)
        return {"state": named, "progress": progress, "eta_seconds": seconds}

    async def collect(self, game_id: int, seat: int, job: Job) -> dict[str, Any]:
        """A finished job: its result stored (once, whoever comes first), the job deleted."""
        result = await asyncio.to_thread(job.return_value)
        if result is None:  # deleted meanwhile by another process, which stored it
            again = await stored(self.store, game_id, seat)
            return dict(NONE) if again is None else done_status(again)
        await store_result(self.store, game_id, seat, job.meta.get("playouts", 0), result)
        await asyncio.to_thread(job.delete)
        return done_status(result)

    async def start(
        self, game_id: int, seat: int, record: Record, player: str, analyst: ModuleType
    ) -> dict[str, Any]:
        """Start the analysis of ``seat`` (or answer the one stored, queued or running
        anywhere); :class:`Refused` beyond the site's budget."""
        result = await stored(self.store, game_id, seat)
        if result is not None:
            return done_status(result)
        decisions = decisions_of(record, seat)
        check_size(decisions, self.most)
        job = await asyncio.to_thread(
            self.enqueue, game_id, seat, record.to_json(), player, analyst.__name__, decisions
        )
        return await self.answer(game_id, seat, job)

    def enqueue(
        self,
        game_id: int,
        seat: int,
        record: dict[str, Any],
        player: str,
        analyst: str,
        decisions: int,
    ) -> Job:
        """The job of (game, seat): the one there is, or a new one within the budget (the
        player's decisions of the day charged then, in the same lock)."""
        job_id = self.job_id(game_id, seat)
        with self.redis.lock(f"{self.name}-lock", timeout=10, blocking_timeout=10):
            job = self.fetch(job_id)
            if job is not None:
                if job.get_status() in (*LIVE, JobStatus.FINISHED):
                    return job
                job.delete()  # failed or stopped: asked again, it runs again
            key = f"{self.name}-player-{player}"
            held = self.redis.get(key)  # bytes: rq needs a connection that does not decode
            other = None if not isinstance(held, bytes) else self.fetch(held.decode())
            if other is not None and other.get_status() in LIVE:
                raise Refused("analysis_running", "you have an analysis running: wait for it")
            live = self.queue.count + StartedJobRegistry(queue=self.queue).count
            if live >= max(self.jobs, Worker.count(connection=self.redis, queue=self.queue)):
                raise Refused("busy", "every analysis worker is busy: try again later")
            self.charge(player, decisions)
            job = self.queue.enqueue(
                run_job,
                analyst,
                record,
                seat,
                self.playouts,
                SEED,
                job_id=job_id,
                job_timeout=JOB_TIMEOUT,
                result_ttl=RESULT_TTL,
                failure_ttl=RESULT_TTL,
                meta={"done": 0, "total": decisions, "playouts": self.playouts},
            )
            self.redis.set(key, job_id, ex=JOB_TIMEOUT)
            return job

    def charge(self, player: str, decisions: int) -> None:
        """Take ``decisions`` from the player's bucket of the day in Redis (under the enqueue
        lock), or :class:`Refused` ``analysis_quota`` and nothing taken."""
        if self.quota is None:
            return
        key = f"{self.name}-quota-{player}"
        now = time.time()
        tokens_then, then = self.redis.hmget(key, "tokens", "at")
        bucket = None
        if tokens_then is not None and then is not None:
            bucket = (float(tokens_then), float(then))
        tokens = refilled(self.quota, bucket, now)
        if tokens < decisions:
            wait = (decisions - tokens) / (self.quota.count / self.quota.seconds)
            raise quota_refusal(Limited("rate_limited", "", wait), decisions)
        self.redis.hset(key, mapping={"tokens": tokens - decisions, "at": now})
        self.redis.expire(key, math.ceil(self.quota.seconds))

    async def close(self) -> None:
        await asyncio.to_thread(self.stop_workers)

    def stop_workers(self) -> None:
        for process in self.processes:
            process.terminate()  # SIGTERM: rq's warm shutdown, at once when idle
        for process in self.processes:
            process.join(STOP_SECONDS)
            if process.is_alive():  # busy: killed, and its job dropped below
                process.kill()
                process.join()
        for name in self.worker_names:  # what a killed worker left in Redis
            key = Worker.redis_worker_namespace_prefix + name
            worker = Worker.find_by_key(key, self.redis, serializer=JSONSerializer)
            if worker is not None:
                drop(worker)
        self.processes, self.worker_names = [], []
        self.redis.close()
