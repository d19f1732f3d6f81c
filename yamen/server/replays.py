"""Finished games for the lobby: their records and their positions step by step, computed off
the event loop, cached, and bounded, so that reading a long game never holds up a room.

A finished game never changes, so everything here is kept by the game's (internal) id for as
long as there is room for it, least recently used first out:

- records, up to ``actions`` actions in all (a long game's log is read from the database once);
- checkpoints: a copy of the game's state every ``every`` actions (more apart in a very long
  game: at most ``points`` a game), for ``games`` games; a position is rebuilt from the nearest
  checkpoint at or before it, never from the start;
- answers: the last ``answers`` positions asked for, as sent;
- indexes: each step's event kinds, for ``games`` games (one walk through the game).

Each position carries its step's events, every one of them (the game is over: nothing is
hidden any more), so that a viewer can say what happened and find where deals and tricks start.

A position is computed on a worker thread; at most ``workers`` are computed at once, and a
request beyond that is refused at once (:class:`Busy`: 429 with Retry-After) rather than queued,
so a crowd of replay readers cannot stack up work behind the lobby.
"""

from __future__ import annotations

import asyncio
import copy
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from yamen.engine import Event, State
from yamen.records import Record
from yamen.server.share import Busy
from yamen.table import Table


class Lru:
    """A least-recently-used map holding at most ``capacity`` in total ``weight``."""

    def __init__(self, capacity: int, weight: Callable[[Any], int] = lambda _: 1):
        self.capacity, self.weight = capacity, weight
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.total = 0

    def get(self, key: Any) -> Any:
        value = self.items.get(key)
        if value is not None:
            self.items.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        if key in self.items:
            self.total -= self.weight(self.items.pop(key))
        self.items[key] = value
        self.total += self.weight(value)
        while self.total > self.capacity and len(self.items) > 1:
            _, old = self.items.popitem(last=False)
            self.total -= self.weight(old)


def events_json(events: list[Event]) -> list[dict[str, Any]]:
    """All of a step's events, with whom they were for while the game was played."""
    return [
        {"kind": e.kind, "data": e.data, "to": None if e.to is None else list(e.to)} for e in events
    ]


def position(state: State, record: Record, step: int, events: list[Event]) -> dict[str, Any]:
    """The answer for ``state``, the game after ``step`` actions: every seat's view, the
    spectators' view, the action that led there and the events it gave (at step 0: the
    deal's)."""
    return {
        "step": step,
        "steps": len(record.actions),
        "action": list(record.actions[step - 1]) if step else None,
        "events": events_json(events),
        "seats": [state.view(seat) for seat in range(state.num_seats)],
        "table": state.view(None),
    }


def replay_from_start(record: Record, step: int) -> dict[str, Any]:
    """The position after ``step`` actions, replayed from the deal: what the cache must equal."""
    table = Table(record.start())
    events = table.state.opening_events
    for seat, text in record.actions[:step]:
        events = table.act_text(seat, text)
    return position(table.state, record, step, events)


def index_from_start(record: Record) -> list[list[str]]:
    """Each step's event kinds (step 0: the deal's), from one walk through the game."""
    table = Table(record.start())
    kinds = [[e.kind for e in table.state.opening_events]]
    for seat, text in record.actions:
        kinds.append([e.kind for e in table.act_text(seat, text)])
    return kinds


class Replays:
    def __init__(
        self,
        workers: int = 2,
        every: int = 200,
        points: int = 50,
        games: int = 16,
        answers: int = 256,
        actions: int = 200_000,
    ):
        self.workers, self.every, self.points = workers, every, points
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="replay")
        self.running = 0  # positions being computed now (changed on the event loop only)
        self.lock = threading.Lock()  # the caches, shared with the worker threads
        self.records = Lru(actions, lambda record: len(record.actions) + 1)
        self.checkpoints = Lru(games)  # game id -> {step: State}
        self.answers = Lru(answers)  # (game id, step) -> answer
        self.indexes = Lru(games)  # game id -> each step's event kinds

    async def record(self, game_id: int, load: Callable[[], Awaitable[Record]]) -> Record:
        """A finished game's record, read with ``load`` the first time."""
        with self.lock:
            record = self.records.get(game_id)
        if record is None:
            record = await load()
            with self.lock:
                self.records.put(game_id, record)
        return record

    async def position(self, game_id: int, record: Record, step: int) -> dict[str, Any]:
        """The finished game ``game_id`` after ``step`` actions (0 <= step <= its length)."""
        with self.lock:
            answer = self.answers.get((game_id, step))
        if answer is not None:
            return answer
        answer = await self.work(self.compute, game_id, record, step)
        with self.lock:
            self.answers.put((game_id, step), answer)
        return answer

    async def index(self, game_id: int, record: Record) -> list[list[str]]:
        """Each step's event kinds in the finished game ``game_id`` (0 to its length)."""
        with self.lock:
            kinds = self.indexes.get(game_id)
        if kinds is None:
            kinds = await self.work(index_from_start, record)
            with self.lock:
                self.indexes.put(game_id, kinds)
        return kinds

    async def work(self, job: Callable[..., Any], *args: Any) -> Any:
        """``job`` on a worker thread, or :class:`Busy` at once when every worker is taken."""
        if self.running >= self.workers:
            raise Busy("every replay worker is busy")
        self.running += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, job, *args)
        finally:
            self.running -= 1

    def compute(self, game_id: int, record: Record, step: int) -> dict[str, Any]:
        """On a worker thread: the position, from the nearest checkpoint (leaving new ones)."""
        every = max(self.every, -(-len(record.actions) // self.points))
        with self.lock:  # held briefly: the event loop takes it too
            points = self.checkpoints.get(game_id)
        if points is None:
            points = {0: record.start()}
            with self.lock:
                points = self.checkpoints.get(game_id) or points  # another thread's, if first
                self.checkpoints.put(game_id, points)
        with self.lock:  # before the step, not at it: its action is replayed for its events
            start = max(k for k in points if k < step) if step else 0
            checkpoint = points[start]
        table = Table(copy.deepcopy(checkpoint))  # a checkpoint itself is never changed
        state = table.state
        events = state.opening_events
        for index in range(start, step):
            seat, text = record.actions[index]
            events = table.act_text(seat, text)
            if (index + 1) % every == 0 and index + 1 not in points:
                snapshot = copy.deepcopy(state)
                with self.lock:
                    points[index + 1] = snapshot
        return position(state, record, step, events)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
