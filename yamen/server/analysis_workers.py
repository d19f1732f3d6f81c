"""What runs in the analysis workers of several server processes (yamen/server/analysis_queue.py):
the job itself, and a worker process's life.

A job (:func:`run_job`) is given the game's analyst by name, the record, the seat and its
budget; it lists the seat's decisions, values them one after another (each from the seat's view
alone, by the analyst's ``value``) and writes its progress into the job's meta
(``{"done", "total", "seconds"}``: ``seconds`` spent valuing so far) as it goes, which any
server process reads; at its end it leaves the seconds a decision took (:func:`pace_key`) for
the estimates of jobs still queued. Its return value is the analysis; the server process that
first reads the finished job stores it.

A worker (:func:`work`) is an rq ``SimpleWorker`` in a process of its own, started by a server
process: it takes jobs from the shared queue and runs each in itself (no fork per job: the
process is already apart from the server's event loop). It runs below the server in the
scheduler's eyes, and it leaves when its server is gone, unregistered, its job dropped.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import threading
import time
from typing import Any

from yamen.records import Record
from yamen.server.thinking import WORKER_NICE


def run_job(
    analyst_name: str, record: dict[str, Any], seat: int, playouts: int, seed: int
) -> dict[str, Any]:
    from rq import get_current_job

    analyst = importlib.import_module(analyst_name)
    game = Record.from_json(record)
    job = get_current_job()
    found = list(analyst.decisions(game, seat))
    values: list[dict[str, Any]] = []
    spent = 0.0  # seconds valuing, for the estimate of how long the job will take

    def progress() -> None:
        if job is not None:
            job.meta.update(done=len(values), total=len(found), seconds=spent)
            job.save_meta()

    progress()
    for step, view, legal, played in found:
        began = time.perf_counter()
        values.append(
            analyst.value(view, legal, played, playouts, analyst.decision_seed(seed, step))
        )
        spent += time.perf_counter() - began
        progress()
    if job is not None and found:  # the site's pace lately: a queued job's estimate
        job.connection.set(pace_key(job.origin), spent / len(found), ex=PACE_SECONDS)
    return dict(analyst.assemble(game, seat, playouts, found, values))


PACE_SECONDS = 7 * 86400  # how long the latest job's seconds a decision is kept


def pace_key(queue: str) -> str:
    """The Redis key of the seconds a decision took in the queue's latest job."""
    return f"{queue}-pace"


def work(redis_url: str, queue: str, name: str, server: int) -> None:
    """A worker process's life: take the queue's jobs until stopped (SIGTERM: after the job
    under way) or until the server ``server`` (its pid) is gone."""
    from redis import Redis
    from rq import Queue, SimpleWorker
    from rq.serializers import JSONSerializer

    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
    logging.basicConfig(level=logging.WARNING)
    connection = Redis.from_url(redis_url)
    jobs = Queue(queue, connection=connection, serializer=JSONSerializer)
    worker = SimpleWorker([jobs], name=name, connection=connection, serializer=JSONSerializer)
    threading.Thread(target=watch, args=(server, worker), name="watch", daemon=True).start()
    worker.work(logging_level="WARNING")


def watch(server: int, worker: Any) -> None:
    """Leave when the server is gone (killed outright, it could not stop its workers), saying
    so in Redis: the worker unregistered and its job dropped (asked again, it runs again),
    rather than left for rq to find stale."""
    while os.getppid() == server:
        time.sleep(1.0)
    with contextlib.suppress(Exception):
        drop(worker)
    os._exit(0)


def drop(worker: Any) -> None:
    """A worker that is gone or going: its job (if any) deleted, itself unregistered."""
    from rq.exceptions import NoSuchJobError
    from rq.job import Job
    from rq.serializers import JSONSerializer

    job_id = worker.get_current_job_id()
    if job_id is not None:
        with contextlib.suppress(NoSuchJobError):
            Job.fetch(job_id, connection=worker.connection, serializer=JSONSerializer).delete()
    worker.register_death()
