"""What runs in the analysis workers of several server processes (yamen/server/analysis_queue.py):
the job itself, and a worker process's life.

A job (:func:`run_job`) is given the game's analyst by name, the record, the seat and its
budget; it lists the seat's decisions, values them one after another (each from the seat's view
alone, by the analyst's ``value``) and writes its progress into the job's meta
(``{"done", "total"}``) as it goes, which any server process reads. Its return value is the
analysis; the server process that first reads the finished job stores it.

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

    def progress() -> None:
        if job is not None:
            job.meta.update(done=len(values), total=len(found))
            job.save_meta()

    progress()
    for step, view, legal, played in found:
        values.append(
            analyst.value(view, legal, played, playouts, analyst.decision_seed(seed, step))
        )
        progress()
    return dict(analyst.assemble(game, seat, playouts, found, values))


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
