"""A room's bots and timers: which seat moves by itself next, when, and the task that plays it.

Bots play their seats, stand in for a player whose turn timer ran out (one decision), for a
player who has been gone longer than ``away_seconds`` (until they come back), and for one who
left the game or turned auto-play on (a seat with a bot: at the room's bot pace). They think
off the event loop (yamen/server/thinking.py), and their answers reach the table at a time
fixed when they were asked, which tells nothing of their hands. Bots play only while a person
is at the table.

The driver knows its room only through what the room gives it: its seats and settings, the game
in play, whether a person is there (and one to talk), whether the room is in the middle of a
change, and ``act``,
the room's one way to change its game (check, store, apply, tell). It keeps the clock of
questions (when each pending seat was asked): the timers run from it, and the room's frames
show it as deadlines.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import NamedTuple, Protocol

from yamen.engine import State
from yamen.errors import YamenError
from yamen.server.errors import StorageFailed
from yamen.server.settings import Settings
from yamen.server.thinking import Thinker, decide

log = logging.getLogger(__name__)


class Seated(Protocol):
    """What the driver reads of a seat (yamen.server.rooms.Seat)."""

    player: str | None  # a person's seat (None: a bot's, or empty)
    bot: str | None
    away_since: float | None  # a seated player with no connection, since when
    left: str | None  # who left mid-game: the bot playing the seat is their stand-in


class DueMove(NamedTuple):
    """A move to come by itself: the seat, when its answer reaches the table, which bot, and
    why a stand-in plays a person's seat (``timeout``, ``away``, ``left``, ``auto``; None: a
    bot's own seat)."""

    seat: int
    at: float
    bot: str
    why: str | None = None


Act = Callable[[int, int, int, str | None], Awaitable[object]]
"""The room's ``act(seat, action, seq, why)`` (``why`` as :class:`DueMove`'s): refused (a
YamenError) when the table moved on."""


class Driver:
    def __init__(
        self,
        room_id: str,
        game: str,
        thinker: Thinker,
        *,
        seats: Callable[[], Sequence[Seated]],
        settings: Callable[[], Settings],
        in_play: Callable[[], tuple[State, int] | None],  # the game and its action count
        present: Callable[[], bool],  # a person is at the table
        talkers: Callable[[], bool],  # a person is at the table to talk (_talking)
        busy: Callable[[], bool],  # the room is in the middle of a change (its lock is held)
        act: Act,
    ):
        self.room_id, self.game, self.thinker = room_id, game, thinker
        self.seats, self.settings, self.in_play = seats, settings, in_play
        self.present, self.talkers, self.busy, self.act = present, talkers, busy, act
        self.asked: dict[int, float] = {}  # pending seat -> when its current question was asked
        self.changed = asyncio.Event()  # wakes the task: a new decision, a seat came or went
        self.task: asyncio.Task | None = None
        self.rng = random.Random(secrets.randbits(64))  # the bots' own chance: never the game's

    # ----- the clock of questions ---------------------------------------------------------

    def ask(self, pending: Iterable[int], now: float) -> None:
        """A game starts (or is loaded): every pending seat is asked now."""
        self.asked = dict.fromkeys(pending, now)

    def answered(self, seat: int, before: set[int], pending: Iterable[int], now: float) -> None:
        """``seat`` acted: a seat still owing the question it owed before keeps its time; every
        other pending seat is asked now."""
        asked = self.asked
        self.asked = {
            s: (asked[s] if s in before and s != seat and s in asked else now) for s in pending
        }

    def reask(self, seat: int, now: float) -> None:
        """``seat`` is a person's again (auto-play off, a seat taken back): if it owes a
        decision, its question counts as asked now, so its timer starts whole."""
        if seat in self.asked:
            self.asked[seat] = now

    def deadlines(self) -> dict[str, float]:
        """Each pending person's timer (epoch seconds), keyed by seat as in JSON: the turn
        timer, or the talk time for a decision that closes a talking phase."""
        played, seats = self.in_play(), self.seats()
        times = {}
        for seat, asked in self.asked.items():
            if seats[seat].bot is None and played is not None:
                limit = self._time_for(self._talking(played[0], seat))
                if limit is not None:
                    times[str(seat)] = asked + limit
        return times

    def _time_for(self, talking: bool) -> float | None:
        """A person's time for a decision: the talk time when it closes a talking phase with
        people seated (:meth:`_talking`), else the turn timer (None: no timer)."""
        settings = self.settings()
        if settings.talk_seconds and talking:
            return settings.talk_seconds
        return settings.turn_seconds

    def _talking(self, state: State, seat: int) -> bool:
        """The decision closes a talking phase and a person is at the table to talk: seated,
        or watching with the seat of this game they left (they chat, and may take it back;
        a bot sheriff once ended the questioning at once while such a person talked)."""
        return state.talk(seat) and self.talkers()

    # ----- the task -----------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def wake(self) -> None:
        """Something the next move depends on changed: look again."""
        self.changed.set()

    def start(self) -> None:
        if not self.running:
            self.task = asyncio.create_task(self._drive(), name=f"room {self.room_id}")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def restart(self) -> bool:
        """Start the task again (the watchdog: it stopped, or stopped moving); False when the
        room is in the middle of a change (a task cancelled while it stores an action could
        leave the room unaware of a stored action: the next look tries again)."""
        if self.running:
            if self.busy():
                return False
            await self.stop()
        self.changed.set()
        if self.in_play() is not None:
            self.start()
        return True

    # ----- which move comes next, and when ------------------------------------------------

    def stand_in(self) -> str:
        """The room's stand-in, else the game's quick bot (it answers at once)."""
        return self.settings().stand_in or self.thinker.quick(self.game)

    def due(self) -> float | None:
        """When (``time.time()``) the next bot or timer move should reach the table; None when
        no move is to come by itself: no game, nobody at the table (its bots wait), or only
        people to play and no turn timer."""
        played = self.in_play()
        if played is None or not self.present():
            return None
        move = self._next_move(played[0])
        return None if move is None else move.at

    def _budget(self, bot: str) -> float:
        return self.thinker.budget(self.game, bot)

    def _bot_delay(self) -> float:
        """The room's ``bot_delay``; with no person seated (nobody or only watchers at the
        table), never under the server's ``bot_pace`` (Thinker.bot_pace): what a table of bots
        alone costs is bounded whatever its settings, and a table with a person keeps its
        own pace."""
        delay = self.settings().bot_delay
        if not any(seat.player is not None for seat in self.seats()):
            delay = max(delay, self.thinker.bot_pace)
        return delay

    def _next_move(self, state: State) -> DueMove | None:
        """The next seat a bot plays, when its answer reaches the table, and which bot: a bot's
        seat after ``bot_delay`` (:meth:`_bot_delay`), a gone player's seat once they count as
        away, a person's seat when the timer runs out. Never sooner than the bot's budget after
        the question: the answer's time then says nothing of what the seat holds (the bot
        thinks meanwhile)."""
        settings, seats = self.settings(), self.seats()
        bot_delay = self._bot_delay()
        best = None
        for seat in state.pending():
            info, asked = seats[seat], self.asked.get(seat, time.time())
            talking = self._talking(state, seat)
            limit = self._time_for(talking)  # a person's timer
            why: str | None
            if info.bot is not None:  # people talk first, however quick a bot is
                talk = settings.talk_seconds if talking else 0
                bot, at = info.bot, asked + max(talk, bot_delay)
                why = "left" if info.left is not None else None
                if info.player is not None:  # the person in it asked for it: auto-play
                    why = "auto"
            elif info.away_since is not None:
                away_at = info.away_since + settings.away_seconds
                bot, at, why = self.stand_in(), max(away_at, asked + settings.bot_delay), "away"
            elif limit is not None:
                bot, at, why = self.stand_in(), asked + limit, "timeout"
            else:
                continue
            if limit is not None and info.bot is None and asked + limit < at:
                at, why = asked + limit, "timeout"  # the timer runs out first
            move = DueMove(seat, max(at, asked + self._budget(bot)), bot, why)
            if best is None or move.at < best.at:
                best = move
        return best

    # ----- playing -------------------------------------------------------------------------

    async def _drive(self) -> None:
        """Play the bots' moves, each at its time (:meth:`_next_move`). A bot starts thinking
        its budget (or ``bot_delay``) before that time and its answer is held until then,
        whatever it took."""
        # (seq, seat, bot) -> (its answer, when the table hears it)
        thinking: dict[tuple[int, int, str], tuple[asyncio.Future, float]] = {}
        while (played := self.in_play()) is not None:
            self.changed.clear()
            state, seq = played
            for key in [k for k in thinking if k[0] != seq]:  # the table moved on: unasked
                thinking.pop(key)[0].cancel()  # (a worker not yet at it never starts it)
            move = self._next_move(state) if self.present() else None
            if move is None:
                await self.changed.wait()
                continue
            seat, when, bot_name, why = move
            key = (seq, seat, bot_name)
            now = time.time()
            budget = self._budget(bot_name)
            start = when - max(budget, self._bot_delay())
            if key not in thinking and now >= start:  # (late when nobody was here till now)
                thinking[key] = self._think(state, seat, bot_name), max(when, now + budget)
            wait = (thinking[key][1] if key in thinking else start) - now
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), wait)
                continue
            try:
                answer, _ = thinking.pop(key)
                if answer.done() or not budget:
                    choice = await answer
                else:  # past its budget (the server's workers are all busy): cut off
                    answer.cancel()
                    choice = self._quick_answer(state, seat)
                await self.act(seat, choice, seq, why)
            except StorageFailed:  # the store failed: nothing changed, try again in a while
                await asyncio.sleep(1.0)
            except YamenError:  # the table moved on while the bot thought: look again
                pass
            except Exception:
                log.exception(
                    "room %s: bot %s failed at seat %d",
                    self.room_id,
                    bot_name,
                    seat,
                    extra={"room": self.room_id},
                )
                await asyncio.sleep(1.0)

    def _quick_answer(self, state: State, seat: int) -> int:
        """A quick bot's answer, at once: for a bot cut off at its time, so that the table
        still hears at that time (a later answer would tell how long it thought)."""
        bot = self.thinker.spec(self.game, self.thinker.quick(self.game))
        seed = self.rng.getrandbits(64)
        log.info(
            "room %s: a bot at seat %d was cut off at its budget",
            self.room_id,
            seat,
            extra={"room": self.room_id},
        )
        return decide(self.game, bot, state.view(seat), state.legal(seat), seed)

    def _think(self, state: State, seat: int, bot: str) -> asyncio.Future:
        """Ask ``bot`` for ``seat``'s move, off the event loop; the answer, when it comes."""
        seed = self.rng.getrandbits(64)  # the bot's chance is the room's, never the game's
        answer = asyncio.ensure_future(
            self.thinker.decide(self.game, bot, state.view(seat), state.legal(seat), seed)
        )
        answer.add_done_callback(_retrieved)  # an answer nobody waits for any more
        return answer


def _retrieved(answer: asyncio.Future) -> None:
    if not answer.cancelled():
        answer.exception()
