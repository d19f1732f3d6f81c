"""The room watchdog: a game whose next bot or timer move is due but has not been played.

A room's bots and timers move it by themselves (Room.due says when the next such move should
reach the table). Should that time pass by ``seconds`` with the game unchanged for as long (its
driver died, or waits on something that will never come), the room is *stalled*: the watchdog
logs it with the room's id, counts it (``yamen_stalled_rooms_total{outcome="detected"}``) and
recovers it: a lone server restarts the room's driver; a process of a cluster reloads the room
from the database, its clients getting the table again (ClusterRooms.recover). Once the game
moves again it counts as recovered. A room nobody is at is never stalled: its bots wait on
purpose (Room.present). A game that waits for a person with no turn timer is not stalled either.

It also looks after connections: a WebSocket client of this process that has been sent nothing
for twice the heartbeat (yamen/server/beats.py: neither its room's frames nor its beats reach
it) is *silent*; it is logged, counted (``yamen_resynced_connections_total{why="silent"}``) and
sent the table again through the room it is attached to (in a cluster: attached to the room's
owner again), at most once a bound while it stays silent.
"""

from __future__ import annotations

import asyncio
import logging
import time

from yamen.server.beats import Heartbeat
from yamen.server.registry import Rooms

log = logging.getLogger(__name__)

STALL_SECONDS = 10.0  # past a move's time, with the game unchanged as long: stalled


class Watchdog:
    def __init__(
        self, rooms: Rooms, seconds: float = STALL_SECONDS, heartbeat: Heartbeat | None = None
    ):
        self.rooms, self.seconds, self.heartbeat = rooms, seconds, heartbeat
        self.stalled: dict[str, float] = {}  # room id -> its Room.moved when found stalled

    async def run(self) -> None:
        """For ever: look every quarter of ``seconds``."""
        while True:
            await asyncio.sleep(self.seconds / 4)
            try:
                await self.check()
                await self.wake_silent()
            except Exception:
                log.exception("the watchdog failed; again later")

    async def check(self, ahead: float = 0.0) -> list[str]:
        """Recover every stalled room; their ids. ``ahead``: seconds to pretend have passed
        (tests)."""
        rooms, metrics = self.rooms, self.rooms.metrics
        wall, late = time.time() + ahead, time.monotonic() + ahead - self.seconds
        found = []
        for room_id in [r for r in self.stalled if r not in rooms.loaded]:
            del self.stalled[room_id]
        for room_id, room in list(rooms.loaded.items()):
            mark = self.stalled.get(room_id)
            if mark is not None and room.moved != mark:
                del self.stalled[room_id]
                metrics.stalled_rooms.labels("recovered").inc()
                log.info("room %s: moving again", room_id, extra={"room": room_id})
            due = room.due()
            if due is None or wall < due + self.seconds or room.moved > late:
                continue
            if room_id not in self.stalled:
                metrics.stalled_rooms.labels("detected").inc()
            self.stalled[room_id] = room.moved
            log.warning(
                "room %s: its move was due %.1f s ago and nothing moved: recovering it",
                room_id,
                wall - due,
                extra={"room": room_id},
            )
            found.append(room_id)
            try:
                await rooms.recover(room_id)
            except Exception:
                log.exception("room %s: could not be recovered", room_id, extra={"room": room_id})
        return found

    async def wake_silent(self, ahead: float = 0.0) -> int:
        """Send the table again to each silent connection (one resynced less than a bound ago
        waits); how many. ``ahead``: seconds to pretend have passed (tests)."""
        if self.heartbeat is None:
            return 0
        now = time.monotonic() + ahead
        woken = 0
        for client in self.heartbeat.due_resync(now):
            room = client.room
            if room is None:  # not attached yet: the hello watchdog looks after it
                continue
            log.warning(
                "a connection was sent nothing for %.0f s: sending it the table again",
                now - client.sent_at,
                extra={"room": getattr(room, "id", None)},
            )
            self.rooms.metrics.resynced.labels("silent").inc()
            woken += 1
            try:
                await room.resync(client)
            except Exception:
                log.exception("a silent connection could not be resynced")
        return woken
