"""A generator process: sets up its share of the measured rooms, then plays them and times
every action, window by window.

In each room the first pending seat picks one of its legal actions at random (at human pace
after an exponential delay averaging ``think`` seconds), and a finished game is rematched by the
host. A room given a starting point (``skips``: loadkit/spread.py) plays that many actions of its
first game at bot pace while it is set up, and waits there with its next action chosen.

The latency of an action runs from just before the acting client writes its ``act`` to the
moment the last of the room's connections has received and parsed the ``update`` that the
action caused (same game ``number``, ``table.seq`` one higher); all connections of a room live
in one process, timed by its monotonic clock.

The process must not measure its own pauses: once set up it freezes what it holds and defers
its collections to the gaps between windows (``Pauses.quiet``/``settle``), and reports its
collections and loop lag of each window beside the latencies.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import time
import traceback
from typing import Any

from loadkit.client import (
    Lobby,
    close_code,
    count,
    dumps,
    loads,
    raise_file_limit,
    refusal_of,
    run_async,
    ws_connect,
)
from loadkit.pauses import Pauses

GRACE = 1.0  # seconds after a window for its last updates to arrive
SETUP_CONCURRENCY = 16  # rooms set up at once, all generators together
CONNECT_TRIES = 5  # a WebSocket the server refused while setting up is tried again
SAMPLES_KEPT = 200  # update frames each generator keeps for the bare server to imitate


class Stats:
    def __init__(self) -> None:
        self.latencies: list[tuple[float, float]] = []  # (sent at, seconds to the last update)
        self.sent: list[float] = []  # when each act was sent
        self.updates = 0
        self.update_bytes = 0
        self.errors: dict[str, int] = {}  # error frames by code (rate_limited among them)
        self.closed: dict[str, int] = {}  # connections the server closed or refused, by code
        self.dropped = 0
        self.games = 0
        self.forwarded = 0  # actions played at set-up, to the rooms' starting points
        self.samples: tuple[list[str], list[str]] = ([], [])  # the others', the actor's
        self.seen = [0, 0]

    def sample(self, text: str, acting: bool, rng: random.Random) -> None:
        """Reservoir sampling: every update frame, acting or watching, equally likely kept."""
        pool, self.seen[acting] = self.samples[acting], self.seen[acting] + 1
        if len(pool) < SAMPLES_KEPT:
            pool.append(text)
        elif (j := rng.randrange(self.seen[acting])) < SAMPLES_KEPT:
            pool[j] = text


class Conn:
    def __init__(self, room: LoadRoom, seat: int, ws: Any):
        self.room, self.seat, self.ws = room, seat, ws
        self.reader: asyncio.Task | None = None

    async def read(self) -> None:
        try:
            async for text in self.ws:
                await self.room.on_frame(self, text)
        except Exception:  # a closed connection, or a bug: counted either way
            pass
        finally:
            if not self.room.gen.stopping:
                self.room.gen.stats.dropped += 1
                count(self.room.gen.stats.closed, close_code(self.ws))


class LoadRoom:
    """One room's connections, seen from the generator: who acts, and when updates arrive."""

    def __init__(self, gen: Generator, room_id: str, tokens: list[str], host: str | None):
        self.gen, self.id, self.tokens, self.host = gen, room_id, tokens, host
        self.conns: list[Conn] = []
        self.sent: dict[tuple[int, int], float] = {}  # (game, seq it will cause) -> sent at
        self.arrived: dict[tuple[int, int], int] = {}  # (game, seq) -> connections reached
        self.acted: tuple[int, int] | None = None
        self.rematched: tuple[int, int] | None = None
        self.skip = 0  # actions still to play at once, before the windows (forward)
        self.parked: tuple[Conn, tuple[int, int], int] | None = None  # the action it waits with
        self.forwarded = asyncio.Event()

    async def connect(self) -> None:
        for seat, token in enumerate(self.tokens):
            ws = await self.gen.connect(self.id)
            await ws.send(dumps({"type": "hello", "v": 1, "token": token}))
            while True:  # welcome, then the state
                frame = loads(await ws.recv())
                if frame["type"] == "error":
                    raise RuntimeError(f"room {self.id} seat {seat}: {frame}")
                if frame["type"] == "state":
                    break
            conn = Conn(self, seat, ws)
            self.conns.append(conn)
        for conn in self.conns:
            conn.reader = asyncio.create_task(conn.read())

    async def on_frame(self, conn: Conn, text: str) -> None:
        now = time.monotonic()
        frame = loads(text)
        kind = frame["type"]
        stats = self.gen.stats
        if kind == "error":
            count(stats.errors, frame.get("code", "?"))
            return
        if kind != "update":
            return
        stats.updates += 1
        stats.update_bytes += len(text)
        table = frame["table"]
        stats.sample(text, bool(table["legal"]), self.gen.rng)
        key = (table["number"], table["seq"])
        arrived = self.arrived.get(key, 0) + 1
        if arrived == len(self.conns):
            del self.arrived[key]
            sent = self.sent.pop(key, None)
            if sent is not None:
                stats.latencies.append((sent, now - sent))
        else:
            self.arrived[key] = arrived
        if table["result"] is not None:
            if conn.seat == 0 and key != self.rematched:
                self.rematched = key
                stats.games += 1
                if self.gen.playing:
                    self.gen.later(self.gen.delay(), self.gen.start, self)
                else:  # ended while forwarded: it starts again with the rooms not forwarded
                    self.skip = 0
                    self.forwarded.set()
            return
        pending, legal = table["pending"], table["legal"]
        if pending and pending[0] == conn.seat and legal and key != self.acted:
            self.acted = key
            action = self.gen.rng.choice(legal)
            if self.skip:
                self.skip -= 1
                stats.forwarded += 1
                await self.act(conn, key, action)
            elif not self.gen.playing:  # forwarded to its starting point: it waits there
                self.parked = (conn, key, action)
                self.forwarded.set()
            elif self.gen.think is None:
                await self.act(conn, key, action)
            else:
                self.gen.later(self.gen.delay(), self.act, conn, key, action)

    async def forward(self, skip: int) -> None:
        """Play ``skip`` actions of the first game at once (loadkit/spread.py), and stop with
        the next one chosen (``parked``) or, had the game ended, none."""
        self.skip = skip
        if await self.gen.start(self):
            await self.forwarded.wait()

    async def resume(self) -> None:
        """The first action of the windows' play: the parked one, or a new game's start."""
        if self.parked is None:
            await self.gen.start(self)
        else:
            await self.act(*self.parked)

    async def act(self, conn: Conn, key: tuple[int, int], action: int) -> None:
        text = dumps({"type": "act", "action": action, "seq": key[1]})
        sent = time.monotonic()
        self.sent[(key[0], key[1] + 1)] = sent
        self.gen.stats.sent.append(sent)
        with contextlib.suppress(Exception):
            await conn.ws.send(text)


class Generator:
    """One generator process: sets up its share of the rooms, then plays them."""

    def __init__(self, spec: dict[str, Any]):
        self.spec = spec
        self.kind, self.url = spec["kind"], spec["url"]
        self.think: float | None = spec["think"]
        self.rng = random.Random(spec["seed"])
        self.stats = Stats()
        self.pauses = Pauses()
        self.stopping = False
        self.playing = False  # the windows' play has begun (set-up and forwarding are over)
        self.tasks: set[asyncio.Task] = set()

    def delay(self) -> float:
        return 0.0 if self.think is None else self.rng.expovariate(1 / self.think)

    def later(self, delay: float, call: Any, *args: Any) -> None:
        def fire() -> None:
            task = asyncio.create_task(call(*args))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

        if delay <= 0:
            fire()
        else:
            asyncio.get_running_loop().call_later(delay, fire)

    async def connect(self, room_id: str) -> Any:
        """A WebSocket to the room; one the server refused is tried again a few times."""
        for attempt in range(CONNECT_TRIES):
            try:
                return await ws_connect(self.url, room_id, self.spec["compression"])
            except Exception as exc:
                count(self.stats.closed, refusal_of(exc))
                if attempt == CONNECT_TRIES - 1:
                    raise
                await asyncio.sleep(2**attempt)

    async def new_room(self, index: int) -> LoadRoom:
        if self.kind == "bare":
            name = f"g{self.spec['worker']}r{index}"
            return LoadRoom(self, name, [str(s) for s in range(self.spec["seats"])], None)
        call = self.lobby.call
        host = await call("POST", "/api/guests", None, {"name": "host"})
        room = await call(
            "POST",
            "/api/rooms",
            host["token"],
            {
                "game": self.spec["game"],
                "options": self.spec["options"],
                "public": False,
                "settings": {
                    "bot_delay": 0,
                    "turn_seconds": None,
                    "away_seconds": 3600,
                    "deal_pause": 0,
                },
                "seat": 0,
            },
        )
        tokens = [host["token"]]
        for seat in range(1, len(room["seats"])):
            guest = await call("POST", "/api/guests", None, {"name": f"p{seat}"})
            path = f"/api/rooms/{room['id']}/seats/{seat}"
            await call("POST", path, guest["token"], {"invite": room["invite"]})
            tokens.append(guest["token"])
        return LoadRoom(self, room["id"], tokens, host["token"])

    async def start(self, room: LoadRoom) -> bool:
        """The host starts (or rematches) the room's game; False, counted, when refused."""
        try:
            await self.lobby.call("POST", f"/api/rooms/{room.id}/start", room.host)
        except Exception as exc:
            count(self.stats.errors, f"start: {type(exc).__name__} {str(exc)[:60]}".strip())
            return False
        return True

    async def set_up(self, index: int, gate: asyncio.Semaphore) -> LoadRoom:
        async with gate:
            room = await self.new_room(index)
            await room.connect()
            return room

    async def run(self, inbox: Any, outbox: Any) -> None:
        concurrency = max(2, SETUP_CONCURRENCY // self.spec["workers"])
        self.lobby = Lobby(self.url, concurrency * 2)
        gate = asyncio.Semaphore(concurrency)
        first = self.spec["first"]
        rooms = await asyncio.gather(
            *(self.set_up(first + i, gate) for i in range(self.spec["rooms"]))
        )
        skips = zip(rooms, self.spec["skips"], strict=True)
        await asyncio.gather(*(room.forward(skip) for room, skip in skips if skip))
        self.pauses.quiet()
        self.pauses.watch_gc()
        outbox.put(("ready", self.spec["worker"], None))
        plan = await asyncio.to_thread(inbox.get)
        self.pauses.watch_loop(asyncio.get_running_loop())
        windows = plan["windows"]
        await sleep_until(plan["go"])
        self.playing = True
        # human pace: the first actions come spread over the warm-up, not all at once
        spread = 0.0 if self.think is None else min(self.think, windows[0][0] - plan["go"])
        for room in rooms:
            self.later(self.rng.uniform(0, spread), room.resume)
        cpu, self.collector = [], []
        for start, end in windows:
            await sleep_until(start)
            began = time.process_time()
            self.collector.append("on" if gc.isenabled() else "deferred")
            await sleep_until(end)
            cpu.append(time.process_time() - began)
            await sleep_until(end + GRACE)  # the window's last updates, then its garbage
            self.pauses.settle()
        await sleep_until(plan["stop"])
        self.stopping = True
        gc.enable()
        outbox.put(("result", self.spec["worker"], self.result(windows, cpu)))
        for room in rooms:
            for conn in room.conns:
                conn.reader.cancel()
        closing = [conn.ws.close() for room in rooms for conn in room.conns]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), 10)
        await self.lobby.close()

    def result(self, windows: list[tuple[float, float]], cpu: list[float]) -> dict[str, Any]:
        """Each window's latencies (an act answered later than a second after its window
        counts as unanswered), acts sent, CPU and pauses; and the whole run's counts."""
        stats = self.stats
        each = []
        for (start, end), seconds in zip(windows, cpu, strict=True):
            each.append(
                {
                    "latencies": [
                        lat
                        for at, lat in stats.latencies
                        if start <= at < end and at + lat <= end + GRACE
                    ],
                    "sent": sum(start <= at < end for at in stats.sent),
                    "cpu": seconds,
                    "pauses": self.pauses.summary(start, end),
                    "collector": self.collector[len(each)],
                    "settled": self.pauses.deferred[len(each)],
                }
            )
        return {
            "windows": each,
            "updates": stats.updates,
            "update_bytes": stats.update_bytes,
            "errors": stats.errors,
            "closed": stats.closed,
            "dropped": stats.dropped,
            "retries": self.lobby.retries,
            "refusals": self.lobby.refusals,
            "games": stats.games,
            "forwarded": stats.forwarded,
            "samples": stats.samples,
        }


async def sleep_until(when: float) -> None:
    await asyncio.sleep(max(0.0, when - time.monotonic()))


def generator_main(spec: dict[str, Any], inbox: Any, outbox: Any) -> None:
    raise_file_limit()
    try:
        run_async(Generator(spec).run(inbox, outbox))
    except BaseException:
        outbox.put(("failed", spec["worker"], traceback.format_exc()))
