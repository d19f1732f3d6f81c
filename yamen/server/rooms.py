"""A room: its seats, its match of games, and the one place where its game changes.

Everything that changes a room goes through :class:`Room` under the room's lock, in this order:
check, store (the action is durable), apply, then tell every connection what its seat may see.
So an acknowledged or broadcast action is always in the database, and a restart rebuilds the
game by replaying its log (yamen/records.py).

The room knows no game by name: it drives the protocol of yamen/engine.py. Parts of it are
modules of their own: what it sends is built by yamen/server/frames.py from the protocol's
models; what each audience is shown when it asks (the room, its table, a state frame, a page of
its log) is picked by :class:`~yamen.server.showing.Showing`; what the lobby asks of it (seats,
bots, setup, starting a game) are :class:`~yamen.server.operations.Operation` objects, each
doing its own work when :meth:`Room.run` runs it under the lock; and its bots and timers are
played by a :class:`~yamen.server.driver.Driver`, which acts through the room's
:meth:`Room.act` like any seat. A stored room is loaded by yamen/server/loading.py.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from yamen.engine import Event, Game, State
from yamen.errors import IllegalAction, NotationError, NotYourTurn
from yamen.server import delay, frames, protocol
from yamen.server.breaks import DealBreak, ends_deal
from yamen.server.chat import ChatLog
from yamen.server.delay import Lag
from yamen.server.driver import Driver
from yamen.server.errors import RoomError, StorageFailed
from yamen.server.filling import Filler
from yamen.server.handle import Connection
from yamen.server.history import Step
from yamen.server.identity import admits
from yamen.server.match import Match, result_json, stand_in
from yamen.server.operations import Operation, end_auto_play
from yamen.server.seats import Seat
from yamen.server.settings import Settings
from yamen.server.showing import Showing
from yamen.server.storage import Store
from yamen.server.thinking import INLINE, Thinker
from yamen.table import Move, Table

log = logging.getLogger(__name__)


class Room(Showing):
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
        self.id, self.configured = room_id, game  # the game, its options read once
        self.game, self.options = game.name, game.options
        self.public, self.invite, self.host = public, invite, host
        self.settings = settings
        self.seats = seats
        self.match = Match(scores=[Fraction(0)] * len(seats))
        self.connections: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.driver = Driver(  # the bots and timers: they read the room and act through it
            room_id,
            game.name,
            thinker,
            seats=lambda: self.seats,
            settings=lambda: self.settings,
            in_play=self._in_play,
            present=lambda: self.present,
            talkers=lambda: self.talkers,
            busy=self.lock.locked,
            act=lambda seat, action, seq, why: self.act(seat, action, seq=seq, stand_in=why),
        )
        self.pause: DealBreak | None = None  # between two deals (yamen/server/breaks.py)
        self.closed: str | None = None  # why no game can be played here (a game set aside)
        self.opened = time.time()  # when it was made (as stored: loading.py sets it)
        self.filler = Filler(self)  # a play-now table's wait for people (filling.py)
        self.chat_lines = ChatLog(store, room_id)
        self.moved = time.monotonic()  # when its game last changed (the watchdog reads it)
        self.lag = Lag()  # the game as delayed spectators see it (yamen/server/delay.py)
        self.version = 0  # moved by every change told to the room's clients (Showing._told)
        self.states: dict[int | None, str] = {}  # state frames built, by audience (Showing)
        self.states_key: tuple[Any, ...] | None = None  # what they were built for
        self.bases: dict[int | None, frames.Base] = {}  # each audience's last update (tails)

    # ----- what the lobby asks (yamen/server/operations.py) ----------------------------------

    async def run(self, op: Operation) -> None:
        """Do a lobby operation (seats, bots, setup, a start): its own checks and work, under
        the room's lock. Refusals are RoomError."""
        async with self.lock:
            await op.apply(self)

    async def rename(self, player: str, name: str) -> None:
        """The player's seat and chat lines show ``name`` from now on (wire.DELETED: their
        account was deleted), told to everyone watching: a ``room`` frame for a seat, a whole
        ``state`` frame (its chat) for lines."""
        async with self.lock:
            seats = [seat for seat in self.seats if seat.player == player]
            for seat in seats:
                seat.name = name
            if self.chat_lines.rename(player, name):
                await self.broadcast_state()
            elif seats:
                self.broadcast_room()

    def seat_of(self, player: str | None) -> int | None:
        if player is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s.player == player), None)

    def left_seat(self, player: str | None) -> int | None:
        """The seat ``player`` left during the game in progress, if any."""
        if player is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s.left_by == player), None)

    def may_watch(self, player: str | None, invite: str | None) -> bool:
        # who left a seat of this game may come back to it (operations.TakeBack)
        seated = self.seat_of(player) is not None or self.left_seat(player) is not None
        return admits(
            player, invite, public=self.public, host=self.host, code=self.invite, seated=seated
        )

    # ----- what it is doing (what each audience sees of it: yamen/server/showing.py) -------

    def _in_play(self) -> tuple[State, int] | None:
        """The game in progress and its action count (what the driver plays), or None."""
        state = self.match.state
        if self.pause is not None:  # between two deals: nothing moves by itself
            return None
        return (state, self.match.seq) if state is not None and not state.over else None

    @property
    def playing(self) -> bool:
        return self.match.playing

    @property
    def status(self) -> str:
        if self.closed is not None:
            return "closed"
        if self.playing:
            return "playing"
        return "open" if self.match.state is None else "over"

    @property
    def thinker(self) -> Thinker:
        """Where and with what budget the room's bots think."""
        return self.driver.thinker

    @thinker.setter
    def thinker(self, thinker: Thinker) -> None:
        self.driver.thinker = thinker

    # ----- connections ---------------------------------------------------------------------

    async def attach(self, conn: Connection) -> None:
        async with self.lock:
            conn.seat = self.seat_of(conn.player)
            self.connections.add(conn)
            came = None  # the seat that came online, if any
            if conn.seat is not None:
                seat = self.seats[conn.seat]
                came = conn.seat if seat.connections == 0 else None
                seat.connections += 1
                seat.away_since = None
            if came is not None:
                self._told()  # (its own state frame shows its seat online)
            conn.send(frames.welcome(conn.player, conn.seat))
            conn.send(await self.state_frame(conn.seat))
            # The joiner gets the room; the others only what changed for them: a seat that
            # came online (a spectator changes nothing they see), never the room again.
            if came is not None:
                self._broadcast_presence(came, skip=conn)
            self.driver.wake()

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
                    self.break_moved()  # a gone person's seat is ready
            self.driver.wake()

    async def resync(self, conn: Connection, welcome: bool = False) -> None:
        """Send ``conn`` the whole table again (frames for it may have been lost on the way;
        ``welcome`` first, as after a hello); a connection the room no longer holds is attached
        again."""
        async with self.lock:
            if conn in self.connections:
                if welcome:
                    conn.send(frames.welcome(conn.player, conn.seat))
                conn.send(await self.state_frame(conn.seat))
                return
        await self.attach(conn)

    def _send_each(self, build: Callable[[int | None], str | list[str]]) -> None:
        """To each connection the frame(s) for its seat (None: spectators), built once a seat."""
        self._told()
        texts = {seat: build(seat) for seat in {c.seat for c in self.connections}}
        for conn in self.connections:
            text = texts[conn.seat]
            for one in [text] if isinstance(text, str) else text:
                conn.send(one)

    def _send_all(self, text: str, skip: Connection | None = None) -> None:
        """One frame for every connection (but ``skip``)."""
        self._told()
        for conn in self.connections:
            if conn is not skip:
                conn.send(text)

    def broadcast_room(self) -> None:
        self._send_all(frames.room(self.about()))

    def _broadcast_presence(self, seat: int, skip: Connection | None = None) -> None:
        shown = frames.seat(seat, self.seats[seat], self.settings.away_seconds, time.time())
        self._send_all(frames.presence(seat, shown), skip)

    async def broadcast_state(self) -> None:
        room, chat = self.about(), await self._recent_chat()  # once, not once per connection
        self._send_each(lambda seat: frames.state(room, self.table(seat), chat))

    # ----- play ----------------------------------------------------------------------------

    async def receive(self, conn: Connection, message: protocol.Request) -> bool:
        """A validated frame from a connection; refusals are sent back as ``error`` frames.
        True when it was an action that the game took."""
        try:
            if isinstance(message, protocol.Act):
                seq = await self.act_from(conn, message)
                conn.send(frames.ack(message.id, seq))
                return True
            elif isinstance(message, protocol.Chat):
                await self.chat(conn, message.text)
                conn.send(frames.ack(message.id, None))
            elif isinstance(message, protocol.Ready):
                await self.ready(conn)
                conn.send(frames.ack(message.id, None))
            elif isinstance(message, protocol.History):
                async with self.lock:
                    conn.send(self.history_page(conn.seat, message.before, message.id))
                conn.send(frames.ack(message.id, None))
            else:
                async with self.lock:
                    conn.send(await self.state_frame(conn.seat))
                conn.send(frames.ack(message.id, None))
        except RoomError as exc:
            conn.send(frames.error(exc.code, str(exc), message.id, exc.params))
        except NotYourTurn as exc:
            conn.send(frames.error("not_your_turn", str(exc), message.id))
        except (IllegalAction, NotationError) as exc:
            conn.send(frames.error("illegal", str(exc), message.id))
        return False

    async def act_from(self, conn: Connection, message: protocol.Act) -> int:
        if conn.player is None or conn.seat is None:
            raise RoomError("not_seated", "spectators cannot act: take a seat first", 403)
        if (message.action is None) == (message.text is None):
            raise RoomError("bad_message", "give exactly one of action (an id) or text", 422)
        return await self.act(conn.seat, message.action, message.text, message.seq)

    async def act(
        self,
        seat: int,
        action: int | None,
        text: str | None = None,
        seq: int | None = None,
        stand_in: str | None = None,  # why the driver's stand-in plays a person's seat
    ) -> int:
        """Check, store, apply, broadcast; the action count after it."""
        async with self.lock:
            if not self.playing:
                raise RoomError("no_game", "no game is in progress")
            if self.pause is not None:
                raise RoomError("between_deals", "the next deal starts when everyone is ready")
            if seq is not None and seq != self.match.seq:
                raise RoomError("stale", "the table has moved on since you chose: look again")
            if stand_in in ("auto", "left") and self.seats[seat].bot is None:
                raise RoomError("stale", "the seat is its person's again")  # taken back meanwhile
            game_id, state, record = self.match.current()
            table = Table(state, record)
            if text is not None:  # a text may say more than an id (a judge's own words)
                move = table.prepare_text(seat, text)
            elif action is not None:
                move = table.prepare(seat, action)
            else:
                raise RoomError("bad_message", "give exactly one of action (an id) or text", 422)
            await self._commit(game_id, table, move, stand_in)
            return self.match.seq

    async def _commit(self, game_id: int, table: Table, move: Move, why: str | None) -> None:
        """Store, apply, acknowledge and broadcast a checked move (yamen/table.py's steps, with
        the journal as the hook: awaited, so the halves are called here)."""
        match, state = self.match, table.state
        try:
            await self.store.journal.append(game_id, match.seq, move.seat, move.text, why)
        except Exception as exc:
            raise StorageFailed(
                "your action could not be stored; nothing changed, try again"
            ) from exc
        before = set(state.pending())
        events = table.commit(move)
        match.log.append(Step(events, stand_in(move.seat, why)))
        self.moved = time.monotonic()
        self.driver.answered(move.seat, before, state.pending(), time.time())
        if state.over:  # the room's totals before the await: a lobby call may come meanwhile
            result = result_json(state.result())
            if table.record is not None:
                table.record.result = result
            match.add_scores(state)
            await self.store.finish_game(game_id, result, self.id, match.scores)
            try:
                await end_auto_play(self)  # (told with the room, below)
            except Exception:  # the result is stored: the next game's start clears it again
                log.exception("room %s: auto-play not cleared", self.id, extra={"room": self.id})
        elif ends_deal(events, state):
            self.begin_break(time.time())
        self.broadcast_update(state, events, match.log[-1].stand_in, step=match.seq)
        self.driver.wake()

    def broadcast_update(
        self,
        state: State,
        events: list[Event],
        why: dict[str, int | str] | None = None,
        step: int | None = None,
    ) -> None:
        """Everyone's update: ``step`` is the live log's step it tells (None: none, the news of
        a break), which delayed spectators may get later or not yet."""
        ended = state.over and step is not None  # its last step: spectators catch up
        lagging = self.settings.spectator_delay > 0 and (self._delayed() or ended)
        deadlines = self.driver.deadlines()  # the same for every audience

        def build(seat: int | None) -> str | list[str]:
            if seat is None and lagging:
                self.bases.pop(None, None)  # (their views are the delayed game's, sent whole)
                return delay.updates(self.match, self.lag, self.settings.spectator_delay, step)
            table = self._table(state, seat, deadlines=deadlines)
            logs = self.configured.view_logs
            table, self.bases[seat] = frames.tails(table, self.bases.get(seat), logs)
            return frames.update(events, seat, table, why)

        self._send_each(build)
        if state.over:
            self.broadcast_room()

    # ----- between two deals (yamen/server/breaks.py) ----------------------------------------

    def begin_break(self, now: float, waiting: bool = True) -> None:
        """A break of ``deal_pause`` seconds; ``waiting``: none when no person is here to wait
        for (a restarted room takes it: its people come back)."""
        pause = DealBreak(now + self.settings.deal_pause)
        if self.settings.deal_pause > 0 and not (waiting and pause.done(self.seats)):
            self.pause = pause
            pause.timer = asyncio.create_task(self._break_timer(pause))

    async def _break_timer(self, pause: DealBreak) -> None:
        await asyncio.sleep(max(0.0, pause.until - time.time()))
        async with self.lock:
            if self.pause is pause:
                self._end_break()

    async def ready(self, conn: Connection) -> None:
        """The sender's seat is ready for the next deal."""
        async with self.lock:
            if self.pause is None:
                raise RoomError("no_break", "there is no break between deals now")
            if conn.player is None or conn.seat is None:
                raise RoomError("not_seated", "spectators have no seat to ready", 403)
            self.pause.ready.add(conn.seat)
            self.break_moved()

    def break_moved(self) -> None:
        """A seat got ready, or its person went: the break ends when every seat is ready;
        until then everyone is told who is (an update with no events)."""
        pause, state = self.pause, self.match.state
        if pause is None or state is None:
            return
        if pause.done(self.seats):
            self._end_break()
        else:
            self.broadcast_update(state, [])

    def _end_break(self) -> None:
        """The next deal's questions are asked now: its timers start here."""
        pause, state = self.pause, self.match.state
        if pause is None or state is None:
            return
        pause.stop()
        self.pause = None
        self.driver.ask(state.pending(), time.time())
        self.broadcast_update(state, [])
        self.driver.start()

    async def chat(self, conn: Connection, text: str) -> None:
        if conn.player is None:
            raise RoomError("spectator", "spectators cannot chat: join as a player", 403)
        async with self.lock:
            line = await self.chat_lines.add(conn.player, text)
            self._send_all(frames.chat(line.name, conn.seat, text, line.at))

    # ----- bots and timers (yamen/server/driver.py) -------------------------------------------

    @property
    def present(self) -> bool:
        """Whether a person is at the table: seated (here or away) or connected to watch. A
        room nobody is at plays no bot move: its game waits for someone to come back."""
        return bool(self.connections) or any(s.player is not None for s in self.seats)

    @property
    def talkers(self) -> bool:
        """Whether a person is at the table to talk (a talking phase lasts the talk time for
        them): seated (here or away, on auto-play too), or watching with a seat of this game
        they left, which they may take back (yamen/server/operations.py, TakeBack)."""
        left = {s.left_by for s in self.seats if s.left_by is not None}
        return any(s.player is not None for s in self.seats) or any(
            c.player in left for c in self.connections
        )

    def due(self) -> float | None:
        """When (``time.time()``) the next bot or timer move should reach the table
        (:meth:`Driver.due`); None when none is to come by itself."""
        return None if self.closed is not None else self.driver.due()

    async def restart(self) -> bool:
        """Start the bots' driver again (the watchdog); False while the room is changing."""
        return await self.driver.restart()

    async def close(self) -> None:
        self.filler.stop()
        if self.pause is not None:
            self.pause.stop()
