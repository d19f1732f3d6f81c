"""A play-now table fills itself (issue 26).

A room whose setting ``play_now`` is on (the tables the lobby's play now opens,
yamen/server/play_now.py) waits for people until ``fill_seconds`` after it was opened; then
its empty seats get the room's stand-in bot and its first game starts, as its host's Start
would. Only with a person seated: a table everyone left waits on, and the first person to sit
there again (a seat change arms the wait again) starts it at once, the time being past.

The time is the room's stored opening plus the setting, so a process that loads the room
again (a restart, a cluster's new owner) keeps the same one; what the room shows as
``fill_at`` (protocol.RoomInfo) is that time, until its first game begins.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from yamen.server.errors import RoomError
from yamen.server.operations import begin_game, empty_seats, waiting
from yamen.server.seats import Seat

if TYPE_CHECKING:
    from yamen.server.rooms import Room

log = logging.getLogger(__name__)


class Filler:
    """The wait of one room (``Room.filler``): armed when the room is made or loaded, when
    its seats or setup change; stopped when its game begins or the room closes."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.task: asyncio.Task[None] | None = None

    def at(self) -> float | None:
        """When the table fills (``time.time()``), while it waits; else None."""
        room = self.room
        return room.opened + room.settings.fill_seconds if waiting(room) else None

    def arm(self) -> None:
        """Wait for the table's time from now on (again), if it is a waiting table."""
        self.stop()
        when = self.at()
        if when is not None:
            self.task = asyncio.get_running_loop().create_task(self._wait(when))

    @property
    def armed(self) -> bool:
        """Waiting for the table's time (the room is in use meanwhile: never unloaded)."""
        return self.task is not None

    def stop(self) -> None:
        task, self.task = self.task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _wait(self, when: float) -> None:
        await asyncio.sleep(max(0.0, when - time.time()))
        room = self.room
        async with room.lock:
            try:
                await fill(room)
            except RoomError as exc:  # (begun or closed meanwhile: nothing to do)
                log.info("room %s: not filled: %s", room.id, exc, extra={"room": room.id})
            except Exception:  # a failed store: the next seat change tries again
                log.exception("room %s: could not fill", room.id, extra={"room": room.id})
            if self.task is asyncio.current_task():  # (done: nobody seated, or it began)
                self.task = None


async def fill(room: Room) -> bool:
    """Under the room's lock: a waiting table with a person seated gets the stand-in in every
    empty seat, and its first game starts. False when it waits on (nobody seated, or no longer
    a waiting table)."""
    if not waiting(room) or all(seat.player is None for seat in room.seats):
        return False
    bot = room.driver.stand_in()
    empty = empty_seats(room)
    if empty:
        await room.store.set_seats(room.id, {seat: (None, bot) for seat in empty})
        for seat in empty:
            room.seats[seat] = Seat(bot=bot)
    await begin_game(room)
    return True
