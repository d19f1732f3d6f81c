"""The match a room plays: its games one after another with the same seats, the game in
progress (or the last one) with its record, and the match's totals, exact.

A stored game is rebuilt by replaying its record (yamen/records.py); a result stored with it is
not read back but replayed, and written again by the room when it was missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from yamen.engine import Event, Result, State
from yamen.records import Record, plain, steps
from yamen.server.errors import RoomError
from yamen.server.storage import StoredGame


class Current(NamedTuple):
    """The game in progress, or the last one played."""

    game_id: int  # internal: the database's
    state: State
    record: Record


class Step(NamedTuple):
    """One step of the game in progress as it happened: the deal (the first step) or an
    action, with the events it gave (for every seat: each receiver gets its own share) and
    who a stand-in played for ({"seat", "why"}; None: the seat's own player or bot)."""

    events: list[Event]
    stand_in: dict[str, int | str] | None = None


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
    scores: list[Fraction] = field(default_factory=list)
    log: list[Step] = field(default_factory=list)  # the current game's steps

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

    def begin(self, number: int, game_id: int, public_id: str, state: State, record: Record):
        self.number, self.game_id, self.public_id = number, game_id, public_id
        self.state, self.record = state, record
        self.log = [Step(list(state.opening_events))]

    def restore(self, stored: StoredGame) -> None:
        """``stored`` replayed (a record that cannot be replayed raises: the caller sets it
        aside); its result, when it is over, added to the totals."""
        self.number, self.game_id, self.public_id = stored.number, stored.id, stored.public_id
        stored.record.result = None  # a stored result is the replayed one, written by us
        self.state = state = stored.record.start()
        self.log = [Step(list(state.opening_events))]
        for index, (seat, _, events) in enumerate(steps(stored.record, state)):
            self.log.append(Step(events, stand_in(seat, stored.stand_ins.get(index))))
        self.record = stored.record
        if state.over:
            stored.record.result = result_json(state.result())
            self.add_scores(state)

    def totals(self) -> list[Fraction]:
        """The match totals with the game in progress's deals so far (State.running_scores)."""
        state = self.state
        running = None if state is None or state.over else state.running_scores()
        if running is None:
            return self.scores
        return [a + b for a, b in zip(self.scores, running, strict=True)]

    def add_scores(self, state: State) -> None:
        result = state.result()
        if result is not None:
            self.scores = [a + b for a, b in zip(self.scores, result.scores, strict=True)]
