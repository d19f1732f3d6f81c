"""The match a room plays: its games one after another with the same seats, the game in
progress (or the last one) with its record, and the match's totals, exact.

A stored game is rebuilt by replaying its record (yamen/records.py); a result stored with it is
not read back but replayed, and written again by the room when it was missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from yamen.engine import Result, State
from yamen.records import Record, plain, replay
from yamen.server.errors import RoomError
from yamen.server.storage import StoredGame


class Current(NamedTuple):
    """The game in progress, or the last one played."""

    game_id: int  # internal: the database's
    state: State
    record: Record


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

    def restore(self, stored: StoredGame) -> None:
        """``stored`` replayed (a record that cannot be replayed raises: the caller sets it
        aside); its result, when it is over, added to the totals."""
        self.number, self.game_id, self.public_id = stored.number, stored.id, stored.public_id
        stored.record.result = None  # a stored result is the replayed one, written by us
        self.state = state = replay(stored.record)
        self.record = stored.record
        if state.over:
            stored.record.result = result_json(state.result())
            self.add_scores(state)

    def add_scores(self, state: State) -> None:
        result = state.result()
        if result is not None:
            self.scores = [a + b for a, b in zip(self.scores, result.scores, strict=True)]
