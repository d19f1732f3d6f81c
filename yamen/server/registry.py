"""The rooms one server process runs, loaded from the database on first use.

A room lives in exactly one process at a time, so that its lock orders every change. With one
process that is simply this registry; with several, yamen/server/cluster/ decides which
process owns a room and relays to it.

A room nobody uses (no connection, no game being driven: bots and timers run only while a
person is at the table) for ``idle_seconds`` is unloaded from memory; the next call that needs
it loads it from the database again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Any

from yamen.engine import Game
from yamen.server.handle import LiveRoom
from yamen.server.identity import admits
from yamen.server.limits import Turns, open_rooms_refusal
from yamen.server.loading import load_room
from yamen.server.metrics import Metrics
from yamen.server.revocation import Sockets
from yamen.server.rooms import Room, RoomError, Seat
from yamen.server.settings import Settings
from yamen.server.storage import Store
from yamen.server.tables import RoomRow
from yamen.server.thinking import INLINE, Thinker
from yamen.wire import DELETED

log = logging.getLogger(__name__)

OPEN_ROOMS_WINDOW = 86400.0  # seconds: a host's rooms created in this time count as open ones


class Loads:
    """One lock a room being loaded, kept while anyone holds or waits for it: one load a room
    however many clients ask at once, and loads of different rooms side by side (a load
    replays one game on a worker thread: the others need not wait for it)."""

    def __init__(self) -> None:
        self.locks: dict[str, tuple[asyncio.Lock, int]] = {}  # room -> (its lock, users)

    @contextlib.asynccontextmanager
    async def of(self, room_id: str) -> AsyncIterator[None]:
        lock, users = self.locks.get(room_id) or (asyncio.Lock(), 0)
        self.locks[room_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self.locks[room_id]
            if users == 1:
                del self.locks[room_id]
            else:
                self.locks[room_id] = (lock, users - 1)


def no_room(room_id: str) -> RoomError:
    """The refusal for a room that does not exist, and for one the caller may not watch."""
    return RoomError("not_found", f"no room {room_id!r}", 404)


class Rooms:
    def __init__(self, store: Store, thinker: Thinker = INLINE):
        self.store = store
        self.thinker = thinker  # where the rooms' bots think (yamen/server/thinking.py)
        self.loaded: dict[str, Room] = {}
        self.loading = Loads()
        self.idle: dict[str, float] = {}  # a loaded room nobody uses -> since when
        self.metrics = Metrics()  # what GET /metrics shows (yamen/server/metrics.py)
        self.metrics.watch(self.metrics.rooms_loaded, lambda: len(self.loaded))
        store.metrics = self.metrics  # the journal counts the actions it stores
        self.sockets = Sockets()  # signed-in connections, closed when their token is revoked
        self.most_open: int | None = None  # a host's open rooms at most (limits.open_rooms)
        self.turns = Turns()  # one at a time per key in this process (exclusive)

    async def open_store(self) -> None:
        """Create or upgrade the schema; a database a cluster runs is refused (StartupError)."""
        await self.store.open()
        await self.store.check_lone()

    def exclusive(self, key: str) -> AbstractAsyncContextManager[None]:
        """One caller at a time per ``key`` on the whole server (alone: in this process), for
        a look then a change that two callers at once must not both make: play now's "find a
        waiting table, else open one" (yamen/server/play_now.py)."""
        return self.turns(key)

    async def watch(self, room_id: str, player: str | None, invite: str | None) -> LiveRoom:
        """The room, for a caller who may watch it (identity.admits: it is public, or the
        caller hosts it, sits in it or gives its invite code). Anyone else is told there is no
        such room, exactly as for a missing one (:func:`no_room`), and the room is not loaded
        for them: unless the room is here and admits the caller, the question is answered from
        the stored room first, in one query whether it exists or not (so a private room costs
        an outsider what a missing one does). In a cluster the same holds before any lease is
        taken."""
        room = self.loaded.get(room_id)
        if room is None or not room.may_watch(player, invite):
            found = await self.store.room_access(room_id)
            if found is None or not admits(
                player,
                invite,
                public=found.public,
                host=found.host,
                code=found.invite,
                seated=player in found.seated,
            ):
                raise no_room(room_id)
        return await self.get(room_id)

    async def get(self, room_id: str) -> LiveRoom:
        """The room, loaded if need be (no access check: :meth:`watch` is the callers')."""
        room = self.loaded.get(room_id)
        if room is not None:
            self.idle.pop(room_id, None)
            return room
        async with self.loading.of(room_id):  # one load a room, however many ask at once
            room = self.loaded.get(room_id)
            if room is None:
                room = await load_room(self.store, room_id, self.thinker)
                if room is None:
                    raise no_room(room_id)
                self.loaded[room_id] = room
            return room

    async def create(
        self,
        host: str,
        game: Game,
        public: bool,
        settings: dict[str, Any] | None,
    ) -> LiveRoom:
        """A new room (OptionsError when the settings are bad; the game's options were read by
        ``get_game``)."""
        return await self.new_room(host, game, public, settings)

    async def new_room(
        self,
        host: str,
        game: Game,
        public: bool,
        settings: dict[str, Any] | None,
    ) -> Room:
        """A new room for ``game``, stored and loaded here; :class:`Limited` (``too_many``)
        when its host has ``most_open`` open rooms already (counted as it is stored, so that
        creations at once cannot all pass)."""
        room_settings = Settings.read(settings, game.name)
        row = RoomRow(
            id=secrets.token_urlsafe(6),
            game=game.name,
            options=game.options,
            public=public,
            invite=secrets.token_urlsafe(12),
            host=host,
            settings=room_settings.to_json(),
            created=time.time(),
        )
        since = row.created - OPEN_ROOMS_WINDOW
        if not await self.store.add_room(row, game.num_seats, self.most_open, since):
            raise open_rooms_refusal(self.most_open)
        room = Room(
            self.store,
            row.id,
            game,
            public,
            row.invite,
            host,
            room_settings,
            [Seat() for _ in range(game.num_seats)],
            self.thinker,
        )
        room.opened = row.created
        room.filler.arm()  # a play-now table waiting for people (filling.py)
        self.loaded[row.id] = room
        return room

    async def open_rooms(self, host: str, within: float = OPEN_ROOMS_WINDOW) -> int:
        """How many of the rooms ``host`` created in the last ``within`` seconds are open (no
        game yet) or have a game in progress. (Older ones do not count: a room cannot be
        closed, and one forgotten long ago should not keep its host from making another.)"""
        return await self.store.open_rooms(host, time.time() - within)

    def in_use(self, room: Room) -> bool:
        """A connection watches it, or its game is driven (bots, timers: only while a person is
        at the table, Room.present), or its bots are to fill it (a play-now table), or it is
        changing."""
        driven = room.driver.running and room.present
        waits = room.filler.armed  # a play-now table's bots are to come (filling.py)
        return bool(room.connections) or driven or waits or room.lock.locked()

    async def unload_idle(self, seconds: float) -> None:
        """For ever: unload each room that has not been in use for ``seconds``."""
        while True:
            await asyncio.sleep(min(30.0, seconds / 4))
            try:
                await self.sweep_idle(seconds)
            except Exception:
                log.exception("unloading idle rooms failed; again later")

    async def sweep_idle(self, seconds: float) -> int:
        """Unload the rooms idle for ``seconds``; how many."""
        now, gone = time.monotonic(), 0
        for room_id, room in list(self.loaded.items()):
            if self.in_use(room):
                self.idle.pop(room_id, None)
            elif now - self.idle.setdefault(room_id, now) >= seconds:
                await self.unload(room_id)
                gone += 1
        for room_id in [r for r in self.idle if r not in self.loaded]:
            del self.idle[room_id]
        return gone

    async def unload(self, room_id: str) -> None:
        """Forget a loaded room (the database keeps it)."""
        self.idle.pop(room_id, None)
        room = self.loaded.pop(room_id, None)
        if room is not None:
            with contextlib.suppress(Exception):  # a driver that failed has logged why
                await room.close()
            await room.match.let_go()

    async def resume(self) -> int:
        """Load every room with a game in progress and a person seated, so its bots and timers
        run again (Store.rooms_in_play). One room that cannot load does not keep the others
        down."""
        resumed = 0
        for room_id in await self.store.rooms_in_play():
            try:
                await self.get(room_id)
            except Exception:
                log.exception("room %s: could not be resumed", room_id, extra={"room": room_id})
                continue
            resumed += 1
        return resumed

    async def sessions_ended(self, player_id: str, deleted: bool = False) -> None:
        """Some of the player's sessions were revoked (``deleted``: their account too), in
        the database already: close the connections whose token went
        (yamen/server/revocation.py), and show a deleted player's seats by the marker name.
        With several processes, each one does it (ClusterRooms)."""
        await self.sockets.check(self.store, player_id)
        if deleted:
            for room in list(self.loaded.values()):
                await room.rename(player_id, DELETED)

    async def recover(self, room_id: str) -> None:
        """A stalled room (yamen/server/watchdog.py): its driver starts again."""
        room = self.loaded.get(room_id)
        if room is not None:
            await room.restart()

    async def close(self) -> None:
        for room in self.loaded.values():
            await room.close()
