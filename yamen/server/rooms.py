"""A room: its seats, its match of games, and the one place where its game changes.

Everything that changes a room goes through :class:`Room` under the room's lock, in this order:
check, store (the action is durable), apply, then tell every connection what its seat may see.
So an acknowledged or broadcast action is always in the database, and a restart rebuilds the
game by replaying its log (yamen/records.py).

The room knows no game by name: it drives the protocol of yamen/engine.py. Bots play their
seats, stand in for a player whose turn timer ran out (one decision) and for a player who has
been gone longer than ``away_seconds`` (until they come back). They think off the event loop
(yamen/server/thinking.py), and their answers reach the table at a time fixed when they were
asked, which tells nothing of their hands. Bots play only while a person is at the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from yamen.bots import bot_names
from yamen.engine import Event, Game, State, get_game, new_seed, score_json, visible_to
from yamen.errors import IllegalAction, NotationError, NotYourTurn, YamenError
from yamen.records import Record, plain, replay
from yamen.server import protocol
from yamen.server.identity import same_secret
from yamen.server.settings import Settings
from yamen.server.storage import Store, StoredGame, new_public_id
from yamen.server.thinking import INLINE, Thinker, decide

CHAT_HISTORY = 50
log = logging.getLogger(__name__)


class RoomError(YamenError):
    """A request the room refuses: ``code`` for the protocol, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 409):
        self.code, self.status = code, status
        super().__init__(message)


class Connection(Protocol):
    """A client attached to a room: a WebSocket here, or one relayed from another process."""

    player: str | None  # None: a spectator
    seat: int | None  # set by the room when attached

    def send(self, text: str) -> None:
        """Queue one frame (JSON text); never blocks: a client too slow to keep up is dropped
        by its connection and resynchronizes when it reconnects."""


@dataclass
class Seat:
    player: str | None = None
    name: str | None = None
    bot: str | None = None
    connections: int = 0
    away_since: float | None = None  # a seated player with no connection, since when

    def info(self, seat: int, away_seconds: float, now: float) -> dict[str, Any]:
        return {
            "seat": seat,
            "player": self.player,  # a public id (the token is the secret)
            "name": self.name,
            "bot": self.bot,
            "online": self.bot is not None or self.connections > 0,
            "away": self.is_away(away_seconds, now),
        }

    def is_away(self, away_seconds: float, now: float) -> bool:
        return self.away_since is not None and now - self.away_since >= away_seconds


@dataclass
class Match:
    """The game in progress (or the last one) and the match totals."""

    number: int = 0
    game_id: int | None = None  # internal: the database's
    public_id: str | None = None  # the game's name outside: URLs, room info, tables
    state: State | None = None
    record: Record | None = None
    scores: list[Fraction] = field(default_factory=list)


class Room:
    def __init__(
        self,
        store: Store,
        room_id: str,
        game: Game,
        public: bool,
        invite: str,
        host: str,
        settings: Settings,
        seats: list[Seat],
        thinker: Thinker = INLINE,
    ):
        self.store = store
        self.id, self.rules = room_id, game  # the game, its options read once
        self.game, self.options = game.name, game.options
        self.public, self.invite, self.host = public, invite, host
        self.settings = settings
        self.seats = seats
        self.match = Match(scores=[Fraction(0)] * len(seats))
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()  # wakes the driver: a new decision, a seat came or went
        self.asked: dict[int, float] = {}  # pending seat -> when its current question was asked
        self.driver: asyncio.Task | None = None
        self.rng = random.Random(secrets.randbits(64))  # the bots' own chance: never the game's
        self.thinker = thinker  # where and with what budget the bots think
        self.closed: str | None = None  # why no game can be played here (a game set aside)
        # The latest chat lines (player, name, text, at), read from the database once and then
        # kept here: every line goes through this room's lock, and a sync must not cost a read.
        self.recent: deque[tuple[str, str, str, float]] | None = None
        self.moved = time.monotonic()  # when its game last changed (the watchdog reads it)

    # ----- loading -----------------------------------------------------------------------

    @classmethod
    async def load(cls, store: Store, room_id: str, thinker: Thinker = INLINE) -> Room | None:
        """The room as stored; its unfinished game is rebuilt by replaying its log."""
        found = await store.room(room_id)
        if found is None:
            return None
        row, seat_rows = found
        names = await store.players([s.player_id for s in seat_rows if s.player_id])
        seats = [Seat(s.player_id, names.get(s.player_id), s.bot) for s in seat_rows]
        room = cls(
            store,
            row.id,
            get_game(row.game, row.options),
            row.public,
            row.invite,
            row.host,
            Settings.stored(row.settings, row.game),
            seats,
            thinker,
        )
        for game in await store.games(room_id):
            if game.quarantined is None:
                try:
                    room._restore(game)
                except Exception as exc:  # one bad log closes its room, not the whole server
                    game.quarantined = f"{type(exc).__name__}: {exc}"[:1000]
                    log.error(
                        "room %s: game %d (%s) cannot be replayed, set aside: %s",
                        room_id,
                        game.id,
                        game.public_id,
                        game.quarantined,
                        extra={"room": room_id},
                    )
                    await store.quarantine(game.id, game.quarantined)
            if game.quarantined is not None:
                room.closed = f"game {game.number} could not be replayed"
                room.match.number, room.match.state = game.number, None
                break
            if room.match.state.over and not game.finished:  # stopped between the two writes
                await store.finish_game(game.id, room.match.record.result)
        now = time.time()
        for seat in room.seats:
            if seat.player is not None:
                seat.away_since = now
        if room.playing:
            room.asked = dict.fromkeys(room.match.state.pending(), now)
            room._start_driver()
        return room

    def _restore(self, stored: StoredGame) -> None:
        match = self.match
        match.number, match.game_id = stored.number, stored.id
        match.public_id = stored.public_id
        stored.record.result = None  # a stored result is the replayed one, written by us
        match.state = state = replay(stored.record)
        match.record = stored.record
        if state.over:
            stored.record.result = plain(state.result().to_json())
            self._add_scores(state)

    def _add_scores(self, state: State) -> None:
        result = state.result()
        if result is not None:
            self.match.scores = [
                a + b for a, b in zip(self.match.scores, result.scores, strict=True)
            ]

    # ----- what anyone may see ------------------------------------------------------------

    @property
    def playing(self) -> bool:
        state = self.match.state
        return state is not None and not state.over

    @property
    def status(self) -> str:
        if self.closed is not None:
            return "closed"
        if self.playing:
            return "playing"
        return "open" if self.match.state is None else "over"

    def info(self) -> dict[str, Any]:
        now = time.time()
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "public": self.public,
            "host": self.host,
            "seats": [s.info(i, self.settings.away_seconds, now) for i, s in enumerate(self.seats)],
            "status": self.status,
            "number": self.match.number,
            "game_id": self.match.public_id,  # the latest game's (/api/games/{id}/record)
            "scores": [score_json(s) for s in self.match.scores],
            "settings": self.settings.to_json(),
        }

    def seat_of(self, player: str | None) -> int | None:
        if player is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s.player == player), None)

    def may_watch(self, player: str | None, invite: str | None) -> bool:
        return (
            self.public
            or player == self.host
            or self.seat_of(player) is not None
            or (invite is not None and same_secret(invite, self.invite))
        )

    def table(self, seat: int | None) -> dict[str, Any] | None:
        """The game as ``seat`` (None: a spectator) may see it."""
        match = self.match
        state = match.state
        if state is None:
            return None
        result = state.result()
        return {
            "game_id": match.public_id,
            "number": match.number,
            "seq": len(match.record.actions),
            "view": state.view(seat),
            "pending": list(state.pending()),
            "legal": state.legal(seat) if seat is not None else [],
            "deadlines": self._deadlines(),
            "result": None if result is None else result.to_json(),
        }

    def _deadlines(self) -> dict[str, float]:
        turn = self.settings.turn_seconds
        if turn is None:
            return {}
        return {
            str(seat): asked + turn
            for seat, asked in self.asked.items()
            if self.seats[seat].bot is None
        }

    async def state_frame(self, seat: int | None) -> dict[str, Any]:
        return self._state_frame(seat, await self._recent_chat())

    async def _recent_chat(self) -> list[dict[str, Any]]:
        if self.recent is None:
            lines = await self.store.chat(self.id, CHAT_HISTORY)
            names = await self.store.players(list({p for p, _, _ in lines}))
            if self.recent is None:  # (another caller may have read them meanwhile)
                self.recent = deque(
                    ((p, names.get(p, "?"), t, at) for p, t, at in lines), CHAT_HISTORY
                )
        return [
            {"name": name, "seat": self.seat_of(p), "text": t, "at": at}
            for p, name, t, at in self.recent
        ]

    def _state_frame(self, seat: int | None, chat: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "state", "room": self.info(), "table": self.table(seat), "chat": chat}

    # ----- connections ---------------------------------------------------------------------

    async def attach(self, conn: Connection) -> None:
        async with self.lock:
            conn.seat = self.seat_of(conn.player)
            self.connections.add(conn)
            came = False
            if conn.seat is not None:
                seat = self.seats[conn.seat]
                came = seat.connections == 0
                seat.connections += 1
                seat.away_since = None
            welcome = {"type": "welcome", "v": protocol.VERSION, "player": conn.player}
            conn.send(dumps({**welcome, "seat": conn.seat}))
            conn.send(dumps(await self.state_frame(conn.seat)))
            # The joiner gets the room; the others only what changed for them: a seat that
            # came online (a spectator changes nothing they see), never the room again.
            if came:
                self._broadcast_presence(conn.seat, skip=conn)
            self.changed.set()

    async def detach(self, conn: Connection) -> None:
        async with self.lock:
            if conn not in self.connections:
                return
            self.connections.discard(conn)
            if conn.seat is not None and self.seats[conn.seat].player == conn.player:
                seat = self.seats[conn.seat]
                seat.connections -= 1
                if seat.connections == 0:
                    seat.away_since = time.time()
                    self._broadcast_presence(conn.seat)
            self.changed.set()

    def _send_all(self, frames: dict[int | None, dict[str, Any]], skip: Any = None) -> None:
        """Each distinct frame is written as JSON once, however many connections get it."""
        texts = {seat: dumps(frame) for seat, frame in frames.items()}
        for conn in self.connections:
            if conn is not skip:
                conn.send(texts[conn.seat])

    def _audiences(self) -> set[int | None]:
        """The seats (None: spectators) someone is connected as: one frame is built for each."""
        return {c.seat for c in self.connections}

    def _broadcast_room(self, skip: Any = None) -> None:
        frame = {"type": "room", "room": self.info()}
        self._send_all(_same(frame, self.connections), skip)

    def _broadcast_presence(self, seat: int, skip: Any = None) -> None:
        """A seat's presence changed: a small frame, whatever the size of the room's info."""
        info = self.seats[seat].info(seat, self.settings.away_seconds, time.time())
        frame = {"type": "presence", "seat": seat, "online": info["online"], "away": info["away"]}
        self._send_all(_same(frame, self.connections), skip)

    async def _broadcast_state(self) -> None:
        chat = await self._recent_chat()  # read once, not once per connection
        self._send_all({seat: self._state_frame(seat, chat) for seat in self._audiences()})

    # ----- lobby ---------------------------------------------------------------------------

    async def take_seat(self, player: str, name: str, seat: int, invite: str | None) -> None:
        async with self.lock:
            if not self.may_watch(player, invite):
                raise RoomError("forbidden", "this room is private: its invite code is needed", 403)
            self._check_seat(seat)
            if self.seat_of(player) is not None:
                raise RoomError("seated", "you already have a seat in this room")
            taken = self.seats[seat]
            if taken.player is not None or taken.bot is not None:
                raise RoomError("taken", f"seat {seat} is taken")
            if self.playing:
                raise RoomError("playing", "a game is in progress: seats change between games")
            await self.store.set_seat(self.id, seat, player, None)
            mine = [c for c in self.connections if c.player == player]  # watching until now
            for conn in mine:
                conn.seat = seat
            self.seats[seat] = Seat(player, name, None, len(mine), None if mine else time.time())
            await self._seats_changed()

    async def leave(self, player: str) -> None:
        """Leave the room's seat. During a game the seat is played by a bot to its end."""
        async with self.lock:
            seat = self.seat_of(player)
            if seat is None:
                raise RoomError("not_seated", "you have no seat in this room")
            bot = self._stand_in() if self.playing else None
            await self.store.set_seat(self.id, seat, None, bot)
            self.seats[seat] = Seat(bot=bot)
            for conn in self.connections:
                if conn.player == player:
                    conn.seat = None  # still watching, as a spectator
            await self._seats_changed()

    async def set_bot(self, player: str, seat: int, bot: str | None) -> None:
        """Put a bot in an empty seat, or take one out (``bot=None``); the host's call."""
        async with self.lock:
            self._check_host(player)
            self._check_seat(seat)
            if self.playing:
                raise RoomError("playing", "a game is in progress: seats change between games")
            current = self.seats[seat]
            if bot is None:
                if current.bot is None:
                    raise RoomError("no_bot", f"seat {seat} has no bot")
            else:
                if current.player is not None or current.bot is not None:
                    raise RoomError("taken", f"seat {seat} is taken")
                if bot not in bot_names(self.game):
                    known = ", ".join(bot_names(self.game))
                    raise RoomError(
                        "unknown_bot", f"no bot {bot!r} for this game; known: {known}", 422
                    )
            await self.store.set_seat(self.id, seat, None, bot)
            self.seats[seat] = Seat(bot=bot)
            await self._seats_changed()

    async def start(self, player: str) -> None:
        """Start the room's first game, or the next one of the match (a rematch)."""
        async with self.lock:
            self._check_host(player)
            if self.closed is not None:
                raise RoomError("closed", f"this room is closed: {self.closed}")
            if self.playing:
                raise RoomError("playing", "a game is already in progress")
            empty = [i for i, s in enumerate(self.seats) if s.player is None and s.bot is None]
            if empty:
                raise RoomError("empty_seats", f"seats {empty} are empty: seat people or bots")
            state = self.rules.new_state(new_seed())
            record = Record(self.game, dict(state.options), state.seed)
            number = self.match.number + 1
            public_id, players = new_public_id(), [s.player for s in self.seats]
            game_id = await self.store.add_game(self.id, number, record, public_id, players)
            self.match.number, self.match.game_id = number, game_id
            self.match.public_id = public_id
            self.match.state, self.match.record = state, record
            now = time.time()
            self.asked = dict.fromkeys(state.pending(), now)
            self.moved = time.monotonic()
            await self._broadcast_update(state.opening_events)
            self._broadcast_room()  # the status is now "playing"
            self._start_driver()

    async def _seats_changed(self) -> None:
        await self._broadcast_state()
        self.changed.set()

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise RoomError(
                "no_seat", f"there is no seat {seat}: seats are 0 to {len(self.seats) - 1}", 422
            )

    def _check_host(self, player: str) -> None:
        if player != self.host:
            raise RoomError("not_host", "only the room's host may do this", 403)

    # ----- play ----------------------------------------------------------------------------

    async def receive(
        self, conn: Connection, message: protocol.Act | protocol.Chat | protocol.Sync
    ) -> bool:
        """A validated frame from a connection; refusals are sent back as ``error`` frames.
        True when it was an action that the game took."""
        try:
            if isinstance(message, protocol.Act):
                seq = await self.act_from(conn, message)
                conn.send(dumps({"type": "ack", "id": message.id, "seq": seq}))
                return True
            elif isinstance(message, protocol.Chat):
                await self.chat(conn, message.text)
                conn.send(dumps({"type": "ack", "id": message.id, "seq": None}))
            else:
                async with self.lock:
                    conn.send(dumps(await self.state_frame(conn.seat)))
                conn.send(dumps({"type": "ack", "id": message.id, "seq": None}))
        except RoomError as exc:
            conn.send(dumps(protocol.error(exc.code, str(exc), message.id)))
        except NotYourTurn as exc:
            conn.send(dumps(protocol.error("not_your_turn", str(exc), message.id)))
        except (IllegalAction, NotationError) as exc:
            conn.send(dumps(protocol.error("illegal", str(exc), message.id)))
        return False

    async def act_from(self, conn: Connection, message: protocol.Act) -> int:
        if conn.player is None or conn.seat is None:
            raise RoomError("not_seated", "spectators cannot act: take a seat first", 403)
        if (message.action is None) == (message.text is None):
            raise RoomError("bad_message", "give exactly one of action (an id) or text", 422)
        return await self.act(conn.seat, message.action, message.text, message.seq)

    async def act(
        self, seat: int, action: int | None, text: str | None = None, seq: int | None = None
    ) -> int:
        """Check, store, apply, broadcast; the action count after it."""
        async with self.lock:
            state = self.match.state
            if not self.playing:
                raise RoomError("no_game", "no game is in progress")
            if seq is not None and seq != len(self.match.record.actions):
                raise RoomError("stale", "the table has moved on since you chose: look again")
            if text is None:
                state.check(seat, action)
                text = state.action_text(action)  # before apply: the notation may depend on it
                await self._commit(seat, text, functools.partial(state.apply, seat, action))
            else:  # a text may say more than an action id (a judge's own words): apply_text
                text = state.check_text(seat, text)  # as the record writes it
                await self._commit(seat, text, functools.partial(state.apply_text, seat, text))
            return len(self.match.record.actions)

    async def _commit(self, seat: int, text: str, apply: Callable[[], list[Event]]) -> None:
        """Store the action ``text`` of ``seat``, then ``apply`` it (checked already)."""
        match, state = self.match, self.match.state
        try:
            await self.store.journal.append(match.game_id, len(match.record.actions), seat, text)
        except Exception as exc:
            raise RoomError(
                "storage", "your action could not be stored; nothing changed, try again", 503
            ) from exc
        before = set(state.pending())
        events = apply()
        match.record.actions.append((seat, text))
        self.moved = time.monotonic()
        now = time.time()
        self.asked = {
            s: (self.asked[s] if s in before and s != seat and s in self.asked else now)
            for s in state.pending()
        }
        if state.over:
            match.record.result = plain(state.result().to_json())
            await self.store.finish_game(match.game_id, match.record.result)
            self._add_scores(state)
        await self._broadcast_update(events)
        self.changed.set()

    async def _broadcast_update(self, events: list[Event]) -> None:
        frames = {}
        for seat in self._audiences():
            frames[seat] = {
                "type": "update",
                "events": [{"kind": e.kind, "data": e.data} for e in visible_to(events, seat)],
                "table": self.table(seat),
            }
        self._send_all(frames)
        if self.match.state.over:
            self._broadcast_room()

    async def chat(self, conn: Connection, text: str) -> None:
        if conn.player is None:
            raise RoomError("spectator", "spectators cannot chat: join as a player", 403)
        async with self.lock:
            try:
                names = await self.store.players([conn.player])
                at = await self.store.add_chat(self.id, conn.player, text)
            except Exception as exc:
                raise RoomError(
                    "storage", "your message could not be stored; try again", 503
                ) from exc
            if self.recent is not None:
                self.recent.append((conn.player, names.get(conn.player, "?"), text, at))
            frame = {
                "type": "chat",
                "name": names.get(conn.player, "?"),
                "seat": conn.seat,
                "text": text,
                "at": at,
            }
            self._send_all(_same(frame, self.connections))

    # ----- bots and timers -----------------------------------------------------------------

    def _start_driver(self) -> None:
        if self.driver is None or self.driver.done():
            self.driver = asyncio.create_task(self._drive(), name=f"room {self.id}")

    async def close(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.driver

    def _stand_in(self) -> str:
        """The room's stand-in, else the game's quick bot (it answers at once)."""
        return self.settings.stand_in or self.thinker.quick(self.game)

    @property
    def present(self) -> bool:
        """Whether a person is at the table: seated (here or away) or connected to watch. A
        room nobody is at plays no bot move: its game waits for someone to come back."""
        return bool(self.connections) or any(s.player is not None for s in self.seats)

    def due(self) -> float | None:
        """When (``time.time()``) the next bot or timer move should reach the table; None when
        no move is to come by itself: no game, nobody at the table (its bots wait), or only
        people to play and no turn timer."""
        if not self.playing or not self.present or self.closed is not None:
            return None
        move = self._next_move()
        return None if move is None else move[1]

    async def restart(self) -> bool:
        """Start the bots' driver again (the watchdog: it stopped, or stopped moving); False
        when the room is in the middle of a change (a driver cancelled while it stores an
        action could leave the room unaware of a stored action: the next look tries again)."""
        if self.driver is not None and not self.driver.done():
            if self.lock.locked():
                return False
            await self.close()
        self.changed.set()
        if self.playing:
            self._start_driver()
        return True

    def _budget(self, bot: str) -> float:
        return self.thinker.budget(self.game, bot)

    def _next_move(self) -> tuple[int, float, str] | None:
        """The next seat a bot plays, when its answer reaches the table, and which bot: a bot's
        seat after ``bot_delay``, a gone player's seat once they count as away, a person's seat
        when the timer runs out. Never sooner than the bot's budget after the question: the
        answer's time then says nothing of what the seat holds (the bot thinks meanwhile)."""
        state, settings = self.match.state, self.settings
        best = None
        for seat in state.pending():
            info, asked = self.seats[seat], self.asked.get(seat, time.time())
            if info.bot is not None:
                move = (seat, asked + settings.bot_delay, info.bot)
            elif info.away_since is not None:
                away_at = info.away_since + settings.away_seconds
                move = (seat, max(away_at, asked + settings.bot_delay), self._stand_in())
            elif settings.turn_seconds is not None:
                move = (seat, asked + settings.turn_seconds, self._stand_in())
            else:
                continue
            if settings.turn_seconds is not None and info.bot is None:
                move = (seat, min(move[1], asked + settings.turn_seconds), move[2])
            move = (seat, max(move[1], asked + self._budget(move[2])), move[2])
            if best is None or move[1] < best[1]:
                best = move
        return best

    async def _drive(self) -> None:
        """Play the bots' moves, each at its time (:meth:`_next_move`). A bot starts thinking
        its budget (or ``bot_delay``) before that time and its answer is held until then, whatever
        it took."""
        # (seq, seat, bot) -> (its answer, when the table hears it)
        thinking: dict[tuple[int, int, str], tuple[asyncio.Future, float]] = {}
        while self.playing:
            self.changed.clear()
            seq = len(self.match.record.actions)
            for key in [k for k in thinking if k[0] != seq]:  # the table moved on: unasked
                thinking.pop(key)[0].cancel()  # (a worker not yet at it never starts it)
            move = self._next_move() if self.present else None
            if move is None:
                await self.changed.wait()
                continue
            seat, when, bot_name = move
            key = (seq, seat, bot_name)
            now = time.time()
            start = when - max(self._budget(bot_name), self.settings.bot_delay)
            if key not in thinking and now >= start:  # (late when nobody was here till now)
                thinking[key] = self._think(seat, bot_name), max(when, now + self._budget(bot_name))
            wait = (thinking[key][1] if key in thinking else start) - now
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), wait)
                continue
            try:
                answer, _ = thinking.pop(key)
                if answer.done() or not self._budget(bot_name):
                    choice = await answer
                else:  # past its budget (the server's workers are all busy): cut off
                    answer.cancel()
                    choice = self._quick_answer(seat)
                await self.act(seat, choice, seq=seq)
            except (IllegalAction, RoomError) as exc:
                # the table moved on while the bot thought (look again), or the store failed
                if getattr(exc, "code", None) == "storage":
                    await asyncio.sleep(1.0)
            except Exception:
                log.exception(
                    "room %s: bot %s failed at seat %d",
                    self.id,
                    bot_name,
                    seat,
                    extra={"room": self.id},
                )
                await asyncio.sleep(1.0)

    def _quick_answer(self, seat: int) -> int:
        """A quick bot's answer, at once: for a bot cut off at its time, so that the table
        still hears at that time (a later answer would tell how long it thought)."""
        state = self.match.state
        bot = self.thinker.spec(self.game, self.thinker.quick(self.game))
        seed = self.rng.getrandbits(64)
        log.info(
            "room %s: a bot at seat %d was cut off at its budget",
            self.id,
            seat,
            extra={"room": self.id},
        )
        return decide(self.game, bot, state.view(seat), state.legal(seat), seed)

    def _think(self, seat: int, bot: str) -> asyncio.Future:
        """Ask ``bot`` for ``seat``'s move, off the event loop; the answer, when it comes."""
        state = self.match.state
        seed = self.rng.getrandbits(64)  # the bot's chance is the room's, never the game's
        answer = asyncio.ensure_future(
            self.thinker.decide(self.game, bot, state.view(seat), state.legal(seat), seed)
        )
        answer.add_done_callback(_retrieved)  # an answer nobody waits for any more
        return answer


def _retrieved(answer: asyncio.Future) -> None:
    if not answer.cancelled():
        answer.exception()


def _same(frame: dict[str, Any], connections: set[Connection]) -> dict[int | None, dict[str, Any]]:
    return {c.seat: frame for c in connections}


def dumps(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
