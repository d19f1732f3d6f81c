"""The match a room plays: its games one after another with the same seats, the game in
progress (or the last one) with its record and its log, and the match's totals, exact.

A stored match is rebuilt in bounded time: its totals are read as stored (every finished game's
scores, kept exact with each game's result: Store.finish_game), and only its last game, the one
in progress or the one the room shows as over, is replayed from its record (yamen/records.py),
so a load costs one game, whatever the length of the match (at most ``MAX_GAMES`` games). A
result stored with that game is not read back but replayed, and written again by the room when
it was missing.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from yamen.engine import Result, State
from yamen.records import Record, plain, steps
from yamen.server import collector
from yamen.server.errors import RoomError
from yamen.server.game_store import StoredGame
from yamen.server.history import Log, Step
from yamen.server.share import Budget

# Games a room's match may have: a rematch past it is refused (``match_over``). It bounds what
# a room stores and keeps (its games' rows, records, outcomes); a load replays one game anyway.
MAX_GAMES = 100
# seconds of a load's replay between two turns of the event loop: every request that arrives
# meanwhile waits for it, at each of its steps (5 ms took the other rooms' p99 to 2.3-2.9x)
TURN = 0.001
# Loads together take at most this share of the event loop (a 50-deal game is about 24,000
# actions, 0.3 s of replay; a crowd of such loads once took the other rooms' p99 from 76 to
# 572 ms, issue 23): past it a load waits for its next turn, the tables do not
LOADS = Budget(0.2, 0.05)
# steps of a game's log freed a turn of the event loop (a 50-deal game's log, freed at once,
# held the loop 5-6 ms, measured)
FREED_A_TURN = 1_000


class Current(NamedTuple):
    """The game in progress, or the last one played."""

    game_id: int  # internal: the database's
    state: State
    record: Record


def stand_in(seat: int, why: str | None) -> dict[str, int | str] | None:
    return None if why is None else {"seat": seat, "why": why}


def result_json(result: Result | None) -> dict:
    """A finished game's result as stored and sent."""
    if result is None:
        raise ValueError("the game is not over: it has no result")
    return plain(result.to_json())


@dataclass
class Match:
    number: int = 0  # games started in this room
    game_id: int | None = None  # internal: the database's
    public_id: str | None = None  # the game's name outside: URLs, room info, tables
    state: State | None = None
    record: Record | None = None
    scores: list[Fraction] = field(default_factory=list)  # the finished games' totals
    log: Log = field(default_factory=Log)  # the current game's steps, each receiver's share
    # the totals for (number, seq, scores): every audience's table of one action shares them
    _totals: tuple[tuple[int, int, int], list[Fraction]] | None = field(default=None, repr=False)

    @property
    def full(self) -> bool:
        """Whether the match has had every game it may have (MAX_GAMES)."""
        return self.number >= MAX_GAMES

    @property
    def playing(self) -> bool:
        return self.state is not None and not self.state.over

    @property
    def seq(self) -> int:
        """Actions applied so far in the current game."""
        return 0 if self.record is None else len(self.record.actions)

    def current(self) -> Current:
        """The game in progress or the last one played (RoomError before the first)."""
        if self.game_id is None or self.state is None or self.record is None:
            raise RoomError("no_game", "no game has started in this room")
        return Current(self.game_id, self.state, self.record)

    def begin(self, number: int, game_id: int, public_id: str, state: State, record: Record) -> Log:
        """The next game begins; the last one's log, for the caller to :func:`free_log`."""
        self.number, self.game_id, self.public_id = number, game_id, public_id
        self.state, self.record = state, record
        last, self.log = self.log, Log(state.num_seats, [Step(list(state.opening_events))])
        return last

    def restore(self, stored: StoredGame, state: State, log: Log) -> None:
        """The match's last game as :func:`replay` rebuilt it (its totals are the stored
        ones: ``scores``, set by the loader)."""
        self.number, self.game_id, self.public_id = stored.number, stored.id, stored.public_id
        self.state, self.log, self.record = state, log, stored.record
        if state.over:
            stored.record.result = result_json(state.result())

    def totals(self) -> list[Fraction]:
        """The match totals with the game in progress's deals so far (State.running_scores),
        worked out once an action (exact sums: each audience's table would repeat them)."""
        key = (self.number, self.seq, id(self.scores))
        if self._totals is None or self._totals[0] != key:
            state = self.state
            running = None if state is None or state.over else state.running_scores()
            totals = (
                self.scores
                if running is None
                else [a + b for a, b in zip(self.scores, running, strict=True)]
            )
            self._totals = (key, totals)
        return self._totals[1]

    async def let_go(self) -> None:
        """An unloaded room's log, freed (:func:`free_log`)."""
        log, self.log = self.log, Log()
        await free_log(log)

    def add_scores(self, state: State) -> None:
        """A finished game's scores added to the totals."""
        result = state.result()
        if result is not None:
            self.scores = [a + b for a, b in zip(self.scores, result.scores, strict=True)]


async def replay(stored: StoredGame, turn: float = TURN) -> tuple[State, Log]:
    """A stored game replayed from its record, with its log: the work of one game, bounded by
    the game's options, done on the event loop ``turn`` seconds at a time, so that other
    requests and rooms get their turns in between (as short a wait as a worker thread gave,
    measured, with no thread: benchmarks/bounded_room.py), and all loads together within
    ``LOADS``' share of the loop (:func:`take_turn`). A record that cannot be replayed
    raises (ReplayError): the caller sets the game aside."""
    stored.record.result = None  # a stored result is the replayed one, written by us
    state = stored.record.start()
    log = Log(state.num_seats, [Step(list(state.opening_events))])
    since = time.perf_counter()
    for index, (seat, _, events) in enumerate(steps(stored.record, state)):
        log.append(Step(events, stand_in(seat, stored.stand_ins.get(index))))
        if time.perf_counter() - since > turn:
            collector.tidy()  # the load's new objects, a turn's worth at a time
            await take_turn(time.perf_counter() - since)
            since = time.perf_counter()
    LOADS.spend(time.perf_counter() - since)
    return state, log


async def take_turn(spent: float, budget: Budget = LOADS) -> None:
    """Let the event loop run, after a load's turn that took ``spent`` seconds: at once while
    the loads are within their share, else once it has filled again."""
    budget.spend(spent)
    await asyncio.sleep(0)
    while (left := budget.left()) < 0 and budget.share:
        await asyncio.sleep(-left / budget.share)


async def free_log(log: Log) -> None:
    """A game's log, no longer read, freed ``FREED_A_TURN`` steps a turn of the event loop, so
    that every room does not wait while a long game's is freed at once."""
    steps = log.steps
    while steps:
        del steps[-FREED_A_TURN:]
        await asyncio.sleep(0)
