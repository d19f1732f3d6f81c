"""What a room shows whoever asks: the room, and its table as a seat may see it.

:class:`Showing` is the part of :class:`~yamen.server.rooms.Room` that answers rather than
changes: the room as anyone who may watch it sees it (``about``), the table as a seat sees it
(a spectator's behind by the room's spectator delay, yamen/server/delay.py), the ``state``
frame a hello or a sync gets, the pages of its log a client asks for (``history``), and the
game number and action count a heartbeat tells. It picks what each audience is entitled to;
yamen/server/frames.py builds the frames.

A state frame is built once per audience until the room changes, so that a sync costs a
look-up: every change the room tells its clients (its broadcasts, in rooms.py) calls
:meth:`Showing._told`, which moves ``version`` and drops the frames built.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from yamen.engine import State
from yamen.server import delay, frames, protocol
from yamen.server.breaks import DealBreak
from yamen.server.chat import ChatLog
from yamen.server.delay import Lag
from yamen.server.errors import RoomError
from yamen.server.match import Match
from yamen.server.seats import Seat
from yamen.server.settings import Settings

if TYPE_CHECKING:
    from yamen.server.driver import Driver
    from yamen.server.filling import Filler


class Showing:
    """What the room shows each audience (a mixin of Room, which owns these fields)."""

    id: str
    game: str
    options: dict[str, Any]
    public: bool
    host: str
    settings: Settings
    seats: list[Seat]
    match: Match
    driver: Driver
    filler: Filler
    pause: DealBreak | None
    lag: Lag
    chat_lines: ChatLog
    version: int  # moved by every change told to the room's clients (_told)
    states: dict[int | None, str]  # state frames built, by audience
    states_key: tuple[Any, ...] | None  # what they were built for

    if TYPE_CHECKING:  # Room's

        @property
        def status(self) -> str: ...

        def seat_of(self, player: str | None) -> int | None: ...

    def about(self) -> protocol.RoomInfo:
        """The room as anyone who may watch it sees it: its seats, status and match scores."""
        now, away = time.time(), self.settings.away_seconds
        return frames.room_info(
            id=self.id,
            game=self.game,
            options=self.options,
            public=self.public,
            host=self.host,
            seats=[frames.seat(i, s, away, now) for i, s in enumerate(self.seats)],
            status=self.status,
            number=self.match.number,
            game_id=self.match.public_id,
            scores=self.match.scores,
            settings=self.settings.to_json(),
            fill_at=self.filler.at(),
        )

    def info(self) -> dict[str, Any]:
        """:meth:`about` as a dict (the lobby's answers)."""
        return self.about().model_dump()

    def table(self, seat: int | None) -> protocol.SeatTable | None:
        """The game as ``seat`` (None: a spectator) may see it, with the latest entries of its
        log (a state frame's: yamen/server/history.py); None before the first game."""
        if self.match.state is None:
            return None
        if seat is None and self._delayed():
            return delay.table(self.match, self.lag, self._seen(), history=True)
        part = self.match.log.tail(seat, self.match.seq)
        return self._table(self.match.state, seat, part.entries, part.before)

    def _table(
        self,
        state: State,
        seat: int | None,
        history: list[protocol.Entry] | None = None,
        history_before: int | None = None,
        deadlines: dict[str, float] | None = None,
    ) -> protocol.SeatTable:
        """``deadlines``: the timers, when the caller has them (one broadcast, many tables)."""
        match = self.match
        return frames.seat_table(
            state,
            seat,
            game_id=match.public_id,
            number=match.number,
            seq=match.seq,
            deadlines=self.driver.deadlines() if deadlines is None else deadlines,
            totals=match.totals(),
            pause=None if self.pause is None else self.pause.shown(),
            history=history,
            history_before=history_before,
        )

    async def state_frame(self, seat: int | None) -> str:
        """The whole room and table as ``seat`` sees it (a ``state`` frame, JSON). Built once
        per audience until the room changes (a sync, a hello, cost a look-up meanwhile): every
        change its clients are told of moves ``version`` (:meth:`_told`); the seats' away
        flags, which turn with time alone, and the deadlines are part of the key too."""
        now, away = time.time(), self.settings.away_seconds
        key = (
            self.version,
            tuple(s.is_away(away, now) for s in self.seats),
            tuple(self.driver.deadlines().items()),
        )
        if key != self.states_key:
            self.states, self.states_key = {}, key
        text = self.states.get(seat)
        if text is None:
            text = frames.state(self.about(), self.table(seat), await self._recent_chat())
            if key == self.states_key:  # (unless the room changed meanwhile)
                self.states[seat] = text
        return text

    def _told(self) -> None:
        """Something its clients see changed (every such change is sent to them, through
        ``Room._send_each`` or ``Room._send_all``): state frames are built anew from now on."""
        self.version += 1
        self.states, self.states_key = {}, None

    def history_page(self, seat: int | None, before: int, id: str | int | None = None) -> str:
        """The entries of ``seat``'s log (None: the spectators', as delayed as their table)
        just before ``before``: a ``history`` frame answering request ``id``."""
        match = self.match
        if match.state is None or match.public_id is None:
            raise RoomError("no_game", "no game has started in this room")
        upto = self._seen() if seat is None and self._delayed() else match.seq
        part = match.log.page(seat, min(before, upto + 1))
        return frames.history_page(id, match.public_id, part.entries, part.before)

    def shown(self, seat: int | None) -> tuple[int, int]:
        """The game number and action count that ``seat``'s table shows now (a delayed
        spectator's is behind): what a heartbeat tells (yamen/server/beats.py)."""
        seq = self._seen() if seat is None and self._delayed() else self.match.seq
        return self.match.number, seq

    async def _recent_chat(self) -> list[dict[str, Any]]:
        lines = await self.chat_lines.latest()
        return [frames.chat_line(n, self.seat_of(p), t, at) for p, n, t, at in lines]

    # ----- the spectator delay (yamen/server/delay.py) ------------------------------------------

    def _delayed(self) -> bool:
        """Whether spectators see the game in progress behind the live one."""
        return self.settings.spectator_delay > 0 and self.match.playing

    def _seen(self) -> int:
        """The action count delayed spectators see now."""
        return delay.behind(self.match.seq, self.settings.spectator_delay)
