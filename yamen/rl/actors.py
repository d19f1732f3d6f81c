"""Actors: processes that play games for the learner (yamen/rl/rollout.py says what a game
yields), either local processes on this machine (the default) or Ray actors on a Ray cluster
(``ray.init(address=...)``: ``"auto"`` joins the cluster this machine belongs to, an address
(``ray://host:10001``, ``host:6379``) joins that one, ``"local"`` starts a Ray of its own on this
machine), to go past one machine.

Both offer the same two calls: :meth:`submit` hands a job (what to play, and the weights to play
with: the learner broadcasts its latest weights with every job) to an actor, and
:meth:`finished` returns the batches that came back. Each actor has ``DEPTH`` jobs queued, so
it starts its next job while the learner takes in its last one (a job of two games lasts about
as long as a learning step); it plays at most two jobs behind the learner's weights.
Actors run numpy only, one thread each (BLAS threads would fight over the cores the actors
share).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from yamen.bots.qnet import Arrays
from yamen.rl.rollout import Batch, Roller

DEPTH = 2  # jobs queued per actor: it starts the next while the learner takes in the last
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@dataclass(frozen=True)
class Job:
    """What an actor is asked to play: ``kind`` is ``"selfplay"`` or ``"imitate:<teacher>"``."""

    kind: str
    arrays: Arrays | None
    epsilon: float
    games: int
    seed: int


class Actors(Protocol):
    size: int
    where: str  # in words, for the progress line

    def idle(self) -> int: ...

    def submit(self, job: Job) -> None: ...

    def finished(self, timeout: float) -> list[Batch]: ...

    def close(self) -> None: ...


_ROLLER: Roller | None = None  # one per actor process


def _start(game: str, options: dict[str, Any], seed: int) -> None:
    global _ROLLER
    _ROLLER = Roller(game, options, seed)


def _play(job: Job) -> Batch:
    assert _ROLLER is not None, "the pool's initializer builds the roller"
    return _ROLLER.play(job.kind, job.arrays, job.epsilon, job.games, job.seed)


class LocalActors:
    """Actor processes on this machine (spawned: the learner may hold threads and PyTorch's
    state, which a fork would copy)."""

    def __init__(self, size: int, game: str, options: dict[str, Any], seed: int = 0):
        self.size, self.where = size, f"{size} local process{'es' if size > 1 else ''}"
        os.environ.update(ONE_THREAD)  # inherited by the actors, set before their numpy loads
        context = multiprocessing.get_context("spawn")
        self.pool = context.Pool(size, initializer=_start, initargs=(game, options, seed))
        self.pending: list[Any] = []

    def idle(self) -> int:
        return DEPTH * self.size - len(self.pending)

    def submit(self, job: Job) -> None:
        self.pending.append(self.pool.apply_async(_play, (job,)))

    def finished(self, timeout: float) -> list[Batch]:
        return wait_for(lambda: [p for p in self.pending if p.ready()], self._take, timeout)

    def _take(self, done: list[Any]) -> list[Batch]:
        self.pending = [p for p in self.pending if p not in done]
        return [p.get() for p in done]

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()


def wait_for(
    ready: Callable[[], list[Any]], take: Callable[[list[Any]], list[Batch]], timeout: float
) -> list[Batch]:
    """Poll ``ready`` until something is done or ``timeout`` seconds pass."""
    end = time.monotonic() + timeout
    while True:
        done = ready()
        if done or time.monotonic() >= end:
            return take(done)
        time.sleep(0.005)


class RayActors:
    """Ray actors (``pip install -e '.[ray]'``), one CPU each, anywhere on the cluster."""

    def __init__(self, size: int, game: str, options: dict[str, Any], address: str, seed: int = 0):
        import ray

        self.ray = ray
        self.started = not ray.is_initialized()  # then close() shuts it down
        if self.started:
            if address == "local":  # a Ray of its own, without the dashboard's processes
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        remote = ray.remote(num_cpus=1, runtime_env={"env_vars": ONE_THREAD})(RayRoller)
        self.actors: list[Any] = [remote.remote(game, options, seed + i) for i in range(size)]
        self.size, self.where = size, f"{size} Ray actor{'s' if size > 1 else ''} ({address})"
        self.busy: dict[Any, Any] = {}  # result ref -> actor
        self.weights: tuple[Arrays, Any] | None = None  # the weights last put in Ray's store

    def idle(self) -> int:
        return DEPTH * self.size - len(self.busy)

    def submit(self, job: Job) -> None:
        queued = list(self.busy.values())
        actor = min(self.actors, key=queued.count)  # the least loaded; Ray queues its calls
        arrays = None
        if job.arrays is not None:
            if self.weights is None or self.weights[0] is not job.arrays:
                self.weights = (job.arrays, self.ray.put(job.arrays))  # once per version
            arrays = self.weights[1]
        ref = actor.play.remote(job.kind, arrays, job.epsilon, job.games, job.seed)
        self.busy[ref] = actor

    def finished(self, timeout: float) -> list[Batch]:
        if not self.busy:
            return []
        done, rest = self.ray.wait(list(self.busy), num_returns=1, timeout=timeout)
        if done and rest:  # and whatever else is back already
            done += self.ray.wait(rest, num_returns=len(rest), timeout=0)[0]
        for ref in done:
            del self.busy[ref]
        return list(self.ray.get(done))

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        if self.started:
            self.ray.shutdown()


class RayRoller(Roller):
    """A :class:`Roller` as a Ray actor (the weights arrive as an object in Ray's store)."""


def make_actors(
    size: int, game: str, options: dict[str, Any], ray: str | None = None, seed: int = 0
) -> Actors:
    if ray:
        return RayActors(size, game, options, ray, seed)
    return LocalActors(size, game, options, seed)
