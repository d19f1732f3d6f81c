"""The match a room plays: its games one after another with the same seats, the game in
progress (or the last one) with its record, and the match's totals, exact.

A stored game is rebuilt by replaying its record (yamen/records.py); a result stored with it is
not read back but replayed, and written again by the room when it was missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from yamen.engine import State
from yamen.records import Record, plain, replay
from yamen.server.storage import StoredGame


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
        return len(self.record.actions)

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
            stored.record.result = plain(state.result().to_json())
            self.add_scores(state)

    def add_scores(self, state: State) -> None:
        result = state.result()
        if result is not None:
            self.scores = [a + b for a, b in zip(self.scores, result.scores, strict=True)]
