"""A room before its game starts: who sits where (people, bots) and how the room is set up.

:class:`Seating` is the part of :class:`~yamen.server.rooms.Room` that the lobby changes
between games: seats taken and left, bots put in and taken out (one seat, or every empty one in
one call), a person the host takes out of a seat (told with an ``error`` frame ``removed`` that
answers no request), and the room's settings and game options, which the host may change until
the first game starts. Each call follows the room's order: check, store, apply, tell.
"""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from yamen.bots import bot_names
from yamen.engine import Game, get_game
from yamen.errors import OptionsError
from yamen.server import frames
from yamen.server.chat import ChatLog
from yamen.server.errors import RoomError, options_refused
from yamen.server.handle import Connection
from yamen.server.identity import admits
from yamen.server.match import Match
from yamen.server.seats import Seat
from yamen.server.settings import Settings
from yamen.server.storage import Store

if TYPE_CHECKING:
    from yamen.server.driver import Driver

REMOVED = "the host took you out of your seat: you are watching now"


class Seating:
    """The room's seats and setup (a mixin of Room, which owns these fields)."""

    id: str
    game: str
    store: Store
    configured: Game
    options: dict[str, Any]
    public: bool
    invite: str
    host: str
    settings: Settings
    seats: list[Seat]
    match: Match
    connections: set[Connection]
    lock: asyncio.Lock
    driver: Driver
    closed: str | None
    chat_lines: ChatLog

    if TYPE_CHECKING:  # Room's own

        async def _broadcast_state(self) -> None: ...

        def _broadcast_room(self) -> None: ...

        def _break_moved(self) -> None: ...

    @property
    def playing(self) -> bool:
        return self.match.playing

    def seat_of(self, player: str | None) -> int | None:
        if player is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s.player == player), None)

    def may_watch(self, player: str | None, invite: str | None) -> bool:
        seated = self.seat_of(player) is not None
        return admits(
            player, invite, public=self.public, host=self.host, code=self.invite, seated=seated
        )

    # ----- people --------------------------------------------------------------------------

    async def take_seat(self, player: str, name: str, seat: int, invite: str | None) -> None:
        async with self.lock:
            if not self.may_watch(player, invite):
                raise RoomError("forbidden", "this room is private: its invite code is needed", 403)
            self._check_seat(seat)
            if self.seat_of(player) is not None:
                raise RoomError("seated", "you already have a seat in this room")
            taken = self.seats[seat]
            if taken.player is not None or taken.bot is not None:
                raise RoomError("taken", f"seat {seat} is taken", params={"seat": seat})
            self._check_between_games()
            await self.store.set_seat(self.id, seat, player, None)
            mine = [c for c in self.connections if c.player == player]  # watching until now
            for conn in mine:
                conn.seat = seat
            self.seats[seat] = Seat(player, name, None, len(mine), None if mine else time.time())
            await self._seats_changed()

    async def rename(self, player: str, name: str) -> None:
        """The player's seat and chat lines show ``name`` from now on (wire.DELETED: their
        account was deleted), told to everyone watching: a ``room`` frame for a seat, a whole
        ``state`` frame (its chat) for lines."""
        async with self.lock:
            seats = [seat for seat in self.seats if seat.player == player]
            for seat in seats:
                seat.name = name
            if self.chat_lines.rename(player, name):
                await self._broadcast_state()
            elif seats:
                self._broadcast_room()

    async def leave(self, player: str) -> None:
        """Leave the room's seat. During a game the seat is played by a bot to its end."""
        async with self.lock:
            seat = self.seat_of(player)
            if seat is None:
                raise RoomError("not_seated", "you have no seat in this room")
            bot = self.driver.stand_in() if self.playing else None
            await self.store.set_seat(self.id, seat, None, bot)
            self.seats[seat] = Seat(bot=bot, left=self.seats[seat].name if bot else None)
            self._unseat(player, told=False)
            await self._seats_changed()
            self._break_moved()  # a seat a bot now plays is ready

    async def remove(self, player: str, seat: int) -> None:
        """The host takes the person in ``seat`` out of it, between games; they keep watching
        and are told (an ``error`` frame ``removed``)."""
        async with self.lock:
            self._check_host(player)
            self._check_seat(seat)
            self._check_between_games()
            sitter = self.seats[seat].player
            if sitter is None:
                raise RoomError("no_person", f"nobody sits in seat {seat}", params={"seat": seat})
            await self.store.set_seats(self.id, {seat: (None, None)})
            self.seats[seat] = Seat()
            self._unseat(sitter, told=sitter != player)
            await self._seats_changed()

    def _unseat(self, player: str, told: bool) -> None:
        """The player's connections watch from now on (told why when someone else did it)."""
        for conn in self.connections:
            if conn.player == player:
                conn.seat = None
                if told:
                    conn.send(frames.error("removed", REMOVED))

    # ----- bots ----------------------------------------------------------------------------

    async def set_bot(self, player: str, seat: int, bot: str | None) -> None:
        """Put a bot in an empty seat, or another bot in a bot's seat, or take one out
        (``bot=None``); the host's call."""
        async with self.lock:
            self._check_host(player)
            self._check_seat(seat)
            self._check_between_games()
            current = self.seats[seat]
            if bot is None:
                if current.bot is None:
                    raise RoomError("no_bot", f"seat {seat} has no bot", params={"seat": seat})
            else:
                if current.player is not None:
                    raise RoomError("taken", f"seat {seat} is taken", params={"seat": seat})
                self._check_bot(bot)
            await self.store.set_seat(self.id, seat, None, bot)
            self.seats[seat] = Seat(bot=bot)
            await self._seats_changed()

    async def fill_bots(self, player: str, bot: str | None) -> None:
        """A bot (``bot``, else the room's stand-in) in every empty seat, in one change: one
        ``room`` frame. With no empty seat nothing changes (a second click is harmless)."""
        async with self.lock:
            self._check_host(player)
            self._check_between_games()
            bot = bot or self.driver.stand_in()
            self._check_bot(bot)
            empty = [i for i, s in enumerate(self.seats) if s.player is None and s.bot is None]
            if not empty:
                return
            await self.store.set_seats(self.id, {seat: (None, bot) for seat in empty})
            for seat in empty:
                self.seats[seat] = Seat(bot=bot)
            self._broadcast_room()  # nobody's own seat changed: the seats are the news
            self.driver.wake()

    def _check_bot(self, bot: str) -> None:
        known = bot_names(self.game)
        if bot not in known:
            message = f"no bot {bot!r} for this game; known: {', '.join(known)}"
            raise RoomError("unknown_bot", message, 422, {"bot": bot})

    # ----- the room's setup ----------------------------------------------------------------

    async def configure(
        self,
        player: str,
        options: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
        public: bool | None = None,
    ) -> None:
        """The host changes the room until its first game starts: ``options`` replace the
        game's (read as at creation: unnamed ones take their defaults), ``settings`` are laid
        over the room's. Checked as at creation; a refusal changes nothing. A seat the new
        options no longer have is emptied (its person is told). One ``room`` frame."""
        async with self.lock:
            self._check_host(player)
            if self.match.number or self.closed is not None:
                raise RoomError("started", "a room is set up until its first game starts")
            try:
                game = self.configured if options is None else get_game(self.game, options)
                merged = {**self.settings.to_json(), **(settings or {})}
                room_settings = Settings.read(merged, self.game)
            except OptionsError as exc:
                raise options_refused(exc) from None
            except TypeError as exc:
                raise RoomError("bad_options", str(exc), 422) from None
            count = game.num_seats
            public = self.public if public is None else public
            saved = room_settings.to_json()
            await self.store.configure_room(self.id, game.options, saved, public, count)
            gone = [s.player for s in self.seats[count:] if s.player is not None]
            self.configured, self.options = game, game.options
            self.settings, self.public = room_settings, public
            self.seats = self.seats[:count] + [Seat() for _ in range(count - len(self.seats))]
            self.match.scores = [Fraction(0)] * count
            for who in gone:
                self._unseat(who, told=who != player)
            self._broadcast_room()
            self.driver.wake()

    # ----- checks --------------------------------------------------------------------------

    async def _seats_changed(self) -> None:
        await self._broadcast_state()
        self.driver.wake()

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            high = len(self.seats) - 1
            message = f"there is no seat {seat}: seats are 0 to {high}"
            raise RoomError("no_seat", message, 422, {"seat": seat, "high": high})

    def _check_host(self, player: str) -> None:
        if player != self.host:
            raise RoomError("not_host", "only the room's host may do this", 403)

    def _check_between_games(self) -> None:
        if self.playing:
            raise RoomError("playing", "a game is in progress: seats change between games")
