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
scheduler's eyes, and it leaves when its server is gone (yamen/server/thinking.py's watch).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from yamen.records import Record


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

    from yamen.server.thinking import _worker as watched_worker

    watched_worker(server)
    logging.basicConfig(level=logging.WARNING)
    connection = Redis.from_url(redis_url)
    worker = SimpleWorker([Queue(queue, connection=connection)], name=name, connection=connection)
    worker.work(logging_level="WARNING")
