"""A room's operations as data: what the lobby asks of a room (seats, bots, setup, a start).

Each operation is a frozen dataclass (:class:`Operation`) that carries its arguments and does
its own work on the room in :meth:`Operation.apply`, which :meth:`Room.run
<yamen.server.rooms.Room.run>` calls under the room's lock, in the room's order: check, store,
apply, tell. Whatever reaches a room runs it the same way, so that the room handle
(yamen/server/handle.py), a cluster's link and remote room and its bus carry an operation as it
is, with no method of their own per operation (``RoomHandle.run``; on the bus it travels as JSON
tagged with its ``kind``: :meth:`Operation.to_json`, :meth:`Operation.from_json`, which reads
back only the kinds defined here: a bus message reaches no other method of the room). Adding an
operation is a class here and a route in yamen/server/lobby.py, nothing in between; like the
live protocol's ``Act`` (yamen/server/protocol.py), the data is the request.

The seats and setup they change are the :class:`~yamen.server.rooms.Room`'s own fields, declared
once there. (They were a ``Seating`` mixin of Room that declared 15 of Room's fields again and
stubbed its methods; it was folded back rather than made a collaborator with state of its own:
every operation also needs the room's lock, store, connections, match and driver, so such a
collaborator would have been handed most of the room, and the room's readers of its seats and
settings (what it shows, its driver, the cluster's snapshot) would have had to go through it.
What is left here needs nothing kept in step: each operation is checked by mypy against Room.)

A person the host takes out of a seat is told with an ``error`` frame ``removed`` that answers no
request; a second fill of empty seats with bots is harmless (nothing changes).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from yamen.bots import bot_names
from yamen.engine import get_game, new_seed
from yamen.errors import OptionsError
from yamen.records import Record
from yamen.server import frames
from yamen.server.errors import RoomError, options_refused
from yamen.server.game_store import new_public_id
from yamen.server.match import MAX_GAMES, free_log
from yamen.server.seats import Seat
from yamen.server.settings import Settings

if TYPE_CHECKING:
    from yamen.server.rooms import Room

REMOVED = "the host took you out of your seat: you are watching now"


@dataclass(frozen=True)
class Operation(ABC):
    """One operation on a room, asked by ``player``. A subclass names its ``kind`` (how it is
    tagged on the bus: ``class Start(Operation, kind="start")``) and does its work in
    :meth:`apply`."""

    player: str

    kind: ClassVar[str]
    KINDS: ClassVar[dict[str, type[Operation]]] = {}  # every operation, by kind

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not kind:
            raise TypeError(f"{cls.__name__}: name the operation's kind (kind=...)")
        if kind in Operation.KINDS:
            raise TypeError(f"{cls.__name__}: kind {kind!r} is {Operation.KINDS[kind].__name__}'s")
        cls.kind = kind
        Operation.KINDS[kind] = cls

    @abstractmethod
    async def apply(self, room: Room) -> None:
        """Check, store, apply, tell; refusals are RoomError. Called with the room's lock held
        (Room.run)."""

    def to_json(self) -> dict[str, Any]:
        """The operation as JSON data, tagged with its kind."""
        return {"kind": self.kind, **{f.name: getattr(self, f.name) for f in fields(self)}}

    @staticmethod
    def from_json(data: Any) -> Operation:
        """The operation :meth:`to_json` wrote (RoomError ``bad_request`` for anything else)."""
        kind = data.get("kind") if isinstance(data, dict) else None
        found = Operation.KINDS.get(kind) if isinstance(kind, str) else None
        if found is None:
            raise RoomError("bad_request", f"no such room operation {kind!r}", 400)
        try:
            return found(**{k: v for k, v in data.items() if k != "kind"})
        except TypeError as exc:
            raise RoomError("bad_request", f"{kind}: {exc}", 400) from None


# ----- people ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TakeSeat(Operation, kind="take_seat"):
    """The player sits in ``seat`` (a private room needs its ``invite`` code), between games."""

    name: str
    seat: int
    invite: str | None = None

    async def apply(self, room: Room) -> None:
        player, seat = self.player, self.seat
        if not room.may_watch(player, self.invite):
            raise RoomError("forbidden", "this room is private: its invite code is needed", 403)
        check_seat(room, seat)
        if room.seat_of(player) is not None:
            raise RoomError("seated", "you already have a seat in this room")
        taken = room.seats[seat]
        if taken.player is not None or taken.bot is not None:
            raise RoomError("taken", f"seat {seat} is taken", params={"seat": seat})
        check_between_games(room)
        await sit(room, player, self.name, seat)


@dataclass(frozen=True)
class SitDown(Operation, kind="sit_down"):
    """The player sits in the first empty seat, between games: the friend an invite link
    brought (a private room needs its ``invite``). Sitting there already changes nothing; no
    empty seat is 409 ``full`` (they watch)."""

    name: str
    invite: str | None = None

    async def apply(self, room: Room) -> None:
        if not room.may_watch(self.player, self.invite):
            raise RoomError("forbidden", "this room is private: its invite code is needed", 403)
        if room.seat_of(self.player) is not None:
            return
        check_between_games(room)
        await sit(room, self.player, self.name, first_empty(room))


@dataclass(frozen=True)
class JoinWaiting(Operation, kind="join_waiting"):
    """Play now: the player sits in the first empty seat of a public play-now table before its
    first game (yamen/server/play_now.py finds the table; checked again here, under the room's
    lock, so that a table that began, went private or filled meanwhile seats nobody). Sitting
    there already changes nothing."""

    name: str

    async def apply(self, room: Room) -> None:
        if room.seat_of(self.player) is not None:
            return
        if not (room.public and waiting(room)):
            raise RoomError("not_waiting", "this table no longer waits for people")
        await sit(room, self.player, self.name, first_empty(room))


@dataclass(frozen=True)
class LeaveWaiting(Operation, kind="leave_waiting"):
    """Play now moved the player to another table: they leave this play-now table if it still
    waits for people. Once its game has begun nothing changes (the seat in the game stays
    theirs), nor where they do not sit."""

    async def apply(self, room: Room) -> None:
        seat = room.seat_of(self.player)
        if seat is None or not waiting(room):
            return
        await room.store.set_seat(room.id, seat, None, None)
        room.seats[seat] = Seat()
        unseat(room, self.player, told=False)
        await seats_changed(room)


async def sit(room: Room, player: str, name: str, seat: int) -> None:
    """The player in the empty ``seat``: stored, their connections now that seat's."""
    await room.store.set_seat(room.id, seat, player, None)
    mine = [c for c in room.connections if c.player == player]  # watching until now
    for conn in mine:
        conn.seat = seat
    room.seats[seat] = Seat(player, name, None, len(mine), None if mine else time.time())
    await seats_changed(room)


def first_empty(room: Room) -> int:
    """The first seat with neither a person nor a bot (409 ``full`` when there is none)."""
    empty = empty_seats(room)
    if not empty:
        raise RoomError("full", "every seat is taken: you are watching")
    return empty[0]


def waiting(room: Room) -> bool:
    """A play-now table that waits for people: its first game has not begun."""
    return room.settings.play_now and not room.match.number and room.closed is None


@dataclass(frozen=True)
class Leave(Operation, kind="leave"):
    """The player leaves their seat. During a game the seat is played by a bot to its end."""

    async def apply(self, room: Room) -> None:
        seat = room.seat_of(self.player)
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        bot = room.driver.stand_in() if room.playing else None
        await room.store.set_seat(room.id, seat, None, bot)
        name, by = (room.seats[seat].name, self.player) if bot else (None, None)
        room.seats[seat] = Seat(bot=bot, left=name, left_by=by)
        unseat(room, self.player, told=False)
        await seats_changed(room)
        room.break_moved()  # a seat a bot now plays is ready


@dataclass(frozen=True)
class TakeBack(Operation, kind="take_back"):
    """The player who left a seat during this game sits in it again and plays on (its stand-in
    stops). Only they may: the seat's ``left_by`` is their player id, which their token proves.
    (Any other seat changes only between games.)"""

    name: str

    async def apply(self, room: Room) -> None:
        if room.seat_of(self.player) is not None:
            raise RoomError("seated", "you already have a seat in this room")
        if not room.playing:
            raise RoomError("no_game", "no game is in progress")
        seat = room.left_seat(self.player)
        if seat is None:
            raise RoomError("not_left", "you left no seat of this game", 403)
        await room.store.set_seat(room.id, seat, self.player, None)
        mine = [c for c in room.connections if c.player == self.player]  # watching until now
        for conn in mine:
            conn.seat = seat
        away = None if mine else time.time()
        room.seats[seat] = Seat(self.player, self.name, None, len(mine), away)
        room.driver.reask(seat, time.time())  # a decision it owes is theirs, on a whole timer
        await seats_changed(room)


@dataclass(frozen=True)
class AutoPlay(Operation, kind="auto_play"):
    """The player turns auto-play (托管) of their own seat on or off during a game: while on,
    the room's stand-in plays the seat at the room's bot pace, its moves marked ``auto`` like a
    timeout's; off, the seat is theirs again at once (a decision it owes, on a whole timer).
    Asking for what already is changes nothing (a second click is harmless). It ends with the
    game (:func:`end_auto_play`)."""

    on: bool

    async def apply(self, room: Room) -> None:
        seat = room.seat_of(self.player)
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        if not room.playing:
            raise RoomError("no_game", "no game is in progress")
        if room.seats[seat].auto == self.on:
            return
        bot = room.driver.stand_in() if self.on else None
        await room.store.set_seat(room.id, seat, self.player, bot)
        room.seats[seat].bot = bot
        if not self.on:
            room.driver.reask(seat, time.time())
        await seats_changed(room)
        room.break_moved()  # a seat the stand-in plays is ready for the next deal


async def end_auto_play(room: Room) -> None:
    """Auto-play lasts one game: the next is the person's to play (or to hand over again)."""
    autos: dict[int, tuple[str | None, str | None]] = {
        i: (s.player, None) for i, s in enumerate(room.seats) if s.auto
    }
    if autos:
        await room.store.set_seats(room.id, autos)
        for i in autos:
            room.seats[i].bot = None


@dataclass(frozen=True)
class Remove(Operation, kind="remove"):
    """The host takes the person in ``seat`` out of it, between games; they keep watching and
    are told (an ``error`` frame ``removed``)."""

    seat: int

    async def apply(self, room: Room) -> None:
        seat = self.seat
        check_host(room, self.player)
        check_seat(room, seat)
        check_between_games(room)
        sitter = room.seats[seat].player
        if sitter is None:
            raise RoomError("no_person", f"nobody sits in seat {seat}", params={"seat": seat})
        await room.store.set_seats(room.id, {seat: (None, None)})
        room.seats[seat] = Seat()
        unseat(room, sitter, told=sitter != self.player)
        await seats_changed(room)


def unseat(room: Room, player: str, told: bool) -> None:
    """The player's connections watch from now on (told why when someone else did it)."""
    for conn in room.connections:
        if conn.player == player:
            conn.seat = None
            if told:
                conn.send(frames.error("removed", REMOVED))


# ----- bots ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetBot(Operation, kind="set_bot"):
    """The host puts a bot in an empty seat, or another bot in a bot's seat, or takes one out
    (``bot=None``)."""

    seat: int
    bot: str | None

    async def apply(self, room: Room) -> None:
        seat, bot = self.seat, self.bot
        check_host(room, self.player)
        check_seat(room, seat)
        check_between_games(room)
        current = room.seats[seat]
        if bot is None:
            if current.bot is None:
                raise RoomError("no_bot", f"seat {seat} has no bot", params={"seat": seat})
        else:
            if current.player is not None:
                raise RoomError("taken", f"seat {seat} is taken", params={"seat": seat})
            check_bot(room, bot)
        await room.store.set_seat(room.id, seat, None, bot)
        room.seats[seat] = Seat(bot=bot)
        await seats_changed(room)


@dataclass(frozen=True)
class FillBots(Operation, kind="fill_bots"):
    """The host puts a bot (``bot``, else the room's stand-in) in every empty seat, in one
    change: one ``room`` frame. With no empty seat nothing changes (a second click is
    harmless)."""

    bot: str | None = None

    async def apply(self, room: Room) -> None:
        check_host(room, self.player)
        check_between_games(room)
        bot = self.bot or room.driver.stand_in()
        check_bot(room, bot)
        empty = empty_seats(room)
        if not empty:
            return
        await room.store.set_seats(room.id, {seat: (None, bot) for seat in empty})
        for seat in empty:
            room.seats[seat] = Seat(bot=bot)
        room.broadcast_room()  # nobody's own seat changed: the seats are the news
        room.driver.wake()


def check_bot(room: Room, bot: str) -> None:
    known = bot_names(room.game)
    if bot not in known:
        message = f"no bot {bot!r} for this game; known: {', '.join(known)}"
        raise RoomError("unknown_bot", message, 422, {"bot": bot})


# ----- the room's setup, and its games ---------------------------------------------------------


@dataclass(frozen=True)
class Configure(Operation, kind="configure"):
    """The host changes the room until its first game starts: ``options`` replace the game's
    (read as at creation: unnamed ones take their defaults), ``settings`` are laid over the
    room's. Checked as at creation; a refusal changes nothing. A seat the new options no
    longer have is emptied (its person is told). One ``room`` frame."""

    options: dict[str, Any] | None = None
    settings: dict[str, Any] | None = None
    public: bool | None = None

    async def apply(self, room: Room) -> None:
        check_host(room, self.player)
        if room.match.number or room.closed is not None:
            raise RoomError("started", "a room is set up until its first game starts")
        try:
            game = room.configured if self.options is None else get_game(room.game, self.options)
            merged = {**room.settings.to_json(), **(self.settings or {})}
            settings = Settings.read(merged, room.game)
        except OptionsError as exc:
            raise options_refused(exc) from None
        except TypeError as exc:
            raise RoomError("bad_options", str(exc), 422) from None
        count = game.num_seats
        public = room.public if self.public is None else self.public
        await room.store.configure_room(room.id, game.options, settings.to_json(), public, count)
        gone = [s.player for s in room.seats[count:] if s.player is not None]
        room.configured, room.options = game, game.options
        room.settings, room.public = settings, public
        room.seats = room.seats[:count] + [Seat() for _ in range(count - len(room.seats))]
        room.match.scores = [Fraction(0)] * count
        for who in gone:
            unseat(room, who, told=who != self.player)
        room.broadcast_room()
        room.driver.wake()
        room.filler.arm()  # (play now on or off, its wait changed)


@dataclass(frozen=True)
class Start(Operation, kind="start"):
    """The host starts the room's first game, or the next one of the match (a rematch)."""

    async def apply(self, room: Room) -> None:
        check_host(room, self.player)
        await begin_game(room)


async def begin_game(room: Room) -> None:
    """The room's next game, dealt and told (the host's Start, or a play-now table's fill)."""
    if room.closed is not None:
        raise RoomError("closed", f"this room is closed: {room.closed}")
    if room.playing:
        raise RoomError("playing", "a game is already in progress")
    if room.match.full:
        most = MAX_GAMES
        message = f"a room plays at most {most} games: open a new room to play on"
        raise RoomError("match_over", message, params={"most": most})
    empty = empty_seats(room)
    if empty:
        seats = ", ".join(map(str, empty))
        message = f"seats {seats} are empty: seat people or bots"
        raise RoomError("empty_seats", message, params={"seats": seats})
    state = room.configured.new_state(new_seed())
    record = Record(room.game, dict(state.options), state.seed)
    number = room.match.number + 1
    public_id, players = new_public_id(), [s.player for s in room.seats]
    await end_auto_play(room)  # (a game that ended while the server stopped)
    for seat in room.seats:  # a new game: a stand-in now plays as a bot of its own
        seat.left = seat.left_by = None
    game_id = await room.store.add_game(room.id, number, record, public_id, players)
    last = room.match.begin(number, game_id, public_id, state, record)
    room.filler.stop()  # (a play-now table waits no more)
    room.driver.ask(state.pending(), time.time())
    room.moved = time.monotonic()
    room.broadcast_update(state, state.opening_events, step=0)
    room.broadcast_room()  # the status is now "playing"
    room.driver.start()
    await free_log(last)  # the last game's log, after the new game is told


# ----- checks ----------------------------------------------------------------------------------


async def seats_changed(room: Room) -> None:
    await room.broadcast_state()
    room.driver.wake()
    room.filler.arm()  # a play-now table with a person again fills at its time


def empty_seats(room: Room) -> list[int]:
    """The seats with neither a person nor a bot."""
    return [i for i, s in enumerate(room.seats) if s.player is None and s.bot is None]


def check_seat(room: Room, seat: int) -> None:
    if not 0 <= seat < len(room.seats):
        high = len(room.seats) - 1
        message = f"there is no seat {seat}: seats are 0 to {high}"
        raise RoomError("no_seat", message, 422, {"seat": seat, "high": high})


def check_host(room: Room, player: str) -> None:
    if player != room.host:
        raise RoomError("not_host", "only the room's host may do this", 403)


def check_between_games(room: Room) -> None:
    if room.playing:
        raise RoomError("playing", "a game is in progress: seats change between games")
