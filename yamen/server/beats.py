"""The heartbeat: every live connection hears from its room at least every ``every`` seconds
(``beat_seconds``, 15 by default), so that silence means something is broken.

A connection that has been sent nothing for a period gets a ``beat`` frame, ``{"type": "beat",
"number", "seq", "every"}``: the game number and action count its table should show now (its
room's, or, for a delayed spectator, the delayed one) and the period. It carries nothing the
client did not have (every update holds its table's number and seq), and its timing says
nothing: it follows a fixed time of silence on that connection alone.

So a client tells silence from a quiet table: no frame for twice the period means frames are not
reaching it (the browser asks for the table with a ``sync``, and connects again when that goes
unanswered); a beat ahead of its table means it missed an update (it asks too). The server
counts the same from its side: a WebSocket client of this process sent nothing for twice the
period is *silent* (``yamen_silent_connections`` in /metrics), and the watchdog
(yamen/server/watchdog.py) sends it the table again.

Beats are sent by the room's owner, in a cluster through the bus to the client's process, so a
broken path anywhere between a room and a socket shows as silence at the socket.
"""

from __future__ import annotations

import asyncio
import logging
import time

from yamen.server import frames, protocol
from yamen.server.live import WebSocketClient
from yamen.server.registry import Rooms

log = logging.getLogger(__name__)

BEAT_SECONDS = 15.0
SILENT = 2  # periods with nothing sent: a connection is silent


def beat_frame(number: int, seq: int, every: float) -> str:
    frame = protocol.Beat.model_construct(type="beat", number=number, seq=seq, every=every)
    return frames.text(frame)


class Heartbeat:
    """The beats of the rooms running in this process, and this process's WebSocket clients
    (yamen/server/live.py holds and drops them) with when each was last sent a frame
    (``sent_at``, ``time.monotonic()``)."""

    def __init__(self, rooms: Rooms, every: float = BEAT_SECONDS):
        self.rooms, self.every = rooms, every
        self.clients: set[WebSocketClient] = set()
        self.resynced: dict[WebSocketClient, float] = {}  # a silent one -> when last resynced

    @property
    def bound(self) -> float:
        """Seconds with nothing sent after which a connection is silent."""
        return SILENT * self.every

    def hold(self, client: WebSocketClient) -> None:
        self.clients.add(client)

    def drop(self, client: WebSocketClient) -> None:
        self.clients.discard(client)
        self.resynced.pop(client, None)

    async def run(self) -> None:
        """For ever: beat several times a period (a beat comes at most a quarter period late)."""
        while True:
            await asyncio.sleep(self.every / 4)
            try:
                self.beat(time.monotonic())
            except Exception:
                log.exception("the heartbeat failed; again later")

    def beat(self, now: float) -> int:
        """A beat for each connection of the rooms run here that has been sent nothing for a
        period; how many were sent."""
        sent = 0
        for room in list(self.rooms.loaded.values()):
            if room.lock.locked():  # changing: its frames are on their way, not to be overtaken
                continue
            built: dict[int | None, str] = {}
            for conn in list(room.connections):
                last = getattr(conn, "sent_at", None)
                if last is None or now - last < self.every:
                    continue
                text = built.get(conn.seat)
                if text is None:
                    number, seq = room.shown(conn.seat)
                    text = built[conn.seat] = beat_frame(number, seq, self.every)
                conn.send(text)
                sent += 1
        return sent

    def silent(self, now: float) -> list[WebSocketClient]:
        """This process's clients sent nothing for longer than the bound."""
        bound = self.bound
        return [c for c in self.clients if now - c.sent_at > bound]

    def due_resync(self, now: float) -> list[WebSocketClient]:
        """The silent clients not resynced within the bound (each is resynced at most once a
        bound): they are marked resynced now."""
        due = []
        for client in self.silent(now):
            if now - self.resynced.get(client, -self.bound) >= self.bound:
                self.resynced[client] = now
                due.append(client)
        return due
