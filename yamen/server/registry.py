"""The rooms one server process runs, loaded from the database on first use.

A room lives in exactly one process at a time, so that its lock orders every change. With one
process that is simply this registry; with several, yamen/server/cluster.py decides which
process owns a room and relays to it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from yamen.server.rooms import Room, RoomError, Seat, seat_count
from yamen.server.settings import Settings
from yamen.server.storage import RoomRow, Store
from yamen.server.thinking import INLINE, Thinker

log = logging.getLogger(__name__)


class Rooms:
    def __init__(self, store: Store, thinker: Thinker = INLINE):
        self.store = store
        self.thinker = thinker  # where the rooms' bots think (yamen/server/thinking.py)
        self.loaded: dict[str, Room] = {}
        self.loading = asyncio.Lock()

    async def get(self, room_id: str) -> Room:
        room = self.loaded.get(room_id)
        if room is not None:
            return room
        async with self.loading:  # one load per room, however many clients ask at once
            room = self.loaded.get(room_id)
            if room is None:
                room = await Room.load(self.store, room_id, self.thinker)
                if room is None:
                    raise RoomError("not_found", f"no room {room_id!r}", 404)
                self.loaded[room_id] = room
            return room

    async def create(
        self,
        host: str,
        game: str,
        options: dict[str, Any],
        public: bool,
        settings: dict[str, Any] | None,
    ) -> Room:
        """A new room (OptionsError when the game, its options or the settings are bad)."""
        options, seats = seat_count(game, options)
        room_settings = Settings.read(settings, game)
        row = RoomRow(
            id=secrets.token_urlsafe(6),
            game=game,
            options=options,
            public=public,
            invite=secrets.token_urlsafe(12),
            host=host,
            settings=room_settings.to_json(),
            created=time.time(),
        )
        await self.store.add_room(row, seats)
        room = Room(
            self.store,
            row.id,
            game,
            options,
            public,
            row.invite,
            host,
            room_settings,
            [Seat() for _ in range(seats)],
            self.thinker,
        )
        self.loaded[row.id] = room
        return room

    async def resume(self) -> int:
        """Load every room with a game in progress and a person seated, so its bots and timers
        run again. A room of bots alone waits, unloaded, until someone opens it (its driver
        plays only while a person is at the table: Room.present). One room that cannot load
        does not keep the others down."""
        resumed = 0
        for room_id in await self.store.rooms_in_play():
            found = await self.store.room(room_id)
            if found is None or not any(s.player_id for s in found[1]):
                continue
            try:
                await self.get(room_id)
            except Exception:
                log.exception("room %s: could not be resumed", room_id)
                continue
            resumed += 1
        return resumed

    async def close(self) -> None:
        for room in self.loaded.values():
            await room.close()
