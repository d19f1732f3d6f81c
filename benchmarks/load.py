"""Load benchmark of Yamen's server on loopback: N rooms, every seat a WebSocket client.

The benchmark starts the server itself, as a process of its own (``yamen serve`` on a free port
with a temporary SQLite file, or ``--db URL``, e.g. a scratch PostgreSQL database), creates
``--rooms`` rooms over the HTTP lobby (Baohuang by default: five guests each, all seats people),
connects one WebSocket per seat, starts every game and plays: in each room the first pending
seat picks one of its legal actions at random, and a finished game is rematched by the host.
The clients run in one or more generator processes (``--workers``; all the connections of one
room in one process) on the same machine as the server.

Paces (``--pace``):

- ``human``: the seat to act waits a random (exponential) delay averaging ``--think`` seconds
  (2 s) after its update arrives, then acts: each room does about one action every 2 s.
- ``bot``: the seat to act acts as soon as its update arrives; every room as fast as it can.
  Then (unless ``--no-baseline``) the same client code drives a bare fan-out server measured in
  the same run: a tiny Starlette app on uvicorn, in its own process (``--bare-server``), with no
  game and no storage. Its "room" takes an ``act`` from the seat whose turn it is (seats take
  turns), acknowledges it as Yamen does, and sends each of the 5 connections an update of the
  same shape and size as Yamen's (samples of the update frames Yamen sent in this run, with
  ``seq``, ``pending`` and ``legal`` replaced). The figure is Yamen's actions/s divided by it.

Figures (nothing is asserted):

- latency of an action (action-to-broadcast): from just before the acting client writes its
  ``act`` frame to the moment the last of the room's connections has received and parsed the
  ``update`` frame that the action caused (the same game ``number``, ``table.seq`` one higher).
  All connections of a room live in one generator process, timed by its monotonic clock. It
  includes the client library's work and the generator's event-loop delays: the generator
  shares the machine's cores with the server. p50, p99 and max of the actions sent in the
  window; an action whose update had not reached all of them a second after the window counts
  as longer than any (``unfinished``), and a percentile that falls on one is shown as such.
- actions per second: actions sent during the measurement window (``--duration`` seconds after
  ``--warmup``) whose update reached every connection of the room by the end of the window plus
  a grace second, divided by the window.
- memory per room: the server process's resident set size (VmRSS) at the end of the window, with
  every room connected and playing, minus its RSS before the first room was created (after a
  request that imports the games), divided by the number of rooms.

Also printed: the server's and the generators' CPU use in the window and the whole machine's
(other work on a shared machine shows there), actions per CPU-second of the server (and, at bot
pace, that ratio too: it varies less than actions/s when other work takes the machine's cores
during one phase and not the other), the generators' event-loop lag, the mean update frame size,
refusals and dropped connections. ``--profile cprofile`` (CPU time of the server's event-loop
thread) or ``--profile pyinstrument`` (wall time) profiles the server during the window and
prints where its time went; ``--profile-out FILE`` keeps the profile.

    python benchmarks/load.py --pace human --rooms 1000 --duration 60
    python benchmarks/load.py --pace bot --rooms 100 --duration 30
    python benchmarks/load.py --pace bot --rooms 100 --db postgresql://localhost/yamen_load
    [--workers N] [--warmup S] [--think S] [--game G] [--options JSON] [--compression none]
    [--json] [--timeout S] [--seed N] [--profile cprofile --profile-out FILE]

Bounded in count and time: at most 3,000 rooms and 600 s of measurement, and the whole run is
stopped after ``--timeout`` seconds (default 900) whatever happens. A database given by ``--db``
keeps the benchmark's rooms (unfinished games are resumed at the server's next start): give it a
scratch database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing as mp
import os
import queue
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

import httpx

try:
    import orjson

    def loads(text: str | bytes) -> Any:
        return orjson.loads(text)

except ImportError:  # pragma: no cover - the standard library will do
    loads = json.loads

MAX_ROOMS = 3000
MAX_DURATION = 600.0
GRACE = 1.0  # seconds after the window for its last updates to arrive
SETUP_CONCURRENCY = 16  # rooms set up at once, all generators together
RETRIES = 4  # for a lobby call the server failed (5xx)
SAMPLES_KEPT = 200  # update frames each generator keeps for the bare server to imitate


def dumps(frame: Any) -> str:
    return json.dumps(frame, separators=(",", ":"))


# ----- the servers ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server process on 127.0.0.1; its output is drained (and kept) by a thread."""

    def __init__(self, args: list[str], port: int, ready: str | None):
        self.port, self.url = port, f"http://127.0.0.1:{port}"
        self.output: list[str] = []
        self.proc = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.monotonic() + 120
        while ready is not None:
            line = self.proc.stdout.readline()
            self.output.append(line)
            if ready in line:
                break
            if not line or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not start:\n" + "".join(self.output))
        self.drain = threading.Thread(target=self._drain, daemon=True)
        self.drain.start()
        while ready is None:  # no announcement: wait for the port
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not start:\n" + "".join(self.output))
            time.sleep(0.05)

    def _drain(self) -> None:
        for line in self.proc.stdout:
            self.output.append(line)

    def rss(self) -> int:
        """Resident set size in bytes (Linux: /proc)."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def cpu(self) -> float:
        """CPU seconds used so far (user + system)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)


def machine_cpu() -> tuple[float, float]:
    """(busy, total) jiffies of the whole machine so far."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def start_yamen(args: argparse.Namespace, tmp: Path) -> Server:
    port = free_port()
    db = args.db or f"sqlite:///{tmp / 'load.db'}"
    # Thousands of clients from one address: no limits per address or player.
    command = ["-m", "yamen", "serve", "--port", str(port), "--db", db, "--limit", "all=off"]
    if args.profile:  # this file's profiling wrapper around the same command
        out = str(profile_path(args, tmp))
        command = [str(Path(__file__).resolve()), "--profiled-server", args.profile, out]
        command += ["serve", "--port", str(port), "--db", db, "--limit", "all=off"]
    return Server([sys.executable, *command], port, "serving at http://")


def serve_profiled(kind: str, out: str, argv: list[str]) -> None:
    """``yamen`` with ``argv``, profiled from SIGUSR1 to SIGUSR2 (the measurement window); the
    profile is written to ``out`` when SIGTERM stops the server. (uvicorn raises SIGTERM again
    once it has shut down: the handler here turns that into a normal exit.)"""
    from yamen.cli import app

    if kind == "cprofile":
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU time of the event loop's thread
        begin, end = profiler.enable, profiler.disable

        def write() -> None:
            profiler.dump_stats(out)

    else:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.001, async_mode="disabled")
        begin, end = profiler.start, profiler.stop

        def write() -> None:
            Path(out).write_text(profiler.output_text(unicode=False, show_all=False))

    def finish(*_: Any) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGUSR1, lambda *_: begin())
    signal.signal(signal.SIGUSR2, lambda *_: end())
    signal.signal(signal.SIGTERM, finish)
    with contextlib.suppress(SystemExit):
        app(argv)
    write()


def profile_path(args: argparse.Namespace, tmp: Path) -> Path:
    if args.profile_out:
        return Path(args.profile_out).resolve()
    return tmp / ("server.prof" if args.profile == "cprofile" else "server-profile.txt")


def start_bare(sample_path: Path) -> Server:
    port = free_port()
    command = [sys.executable, str(Path(__file__).resolve()), "--bare-server", str(port)]
    return Server([*command, "--bare-sample", str(sample_path)], port, None)


def bare_app(watching: list[dict[str, Any]], acting: list[dict[str, Any]], seats: int) -> Any:
    """The baseline: WebSocket fan-out with no game and no storage (Starlette, no FastAPI).
    ``acting`` and ``watching``: update frames Yamen sent to a seat to act and to the others."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    class Room:
        def __init__(self) -> None:
            self.sockets: list[WebSocket | None] = [None] * seats
            self.number, self.seq, self.turn, self.sent = 0, 0, 0, 0

        async def broadcast(self) -> None:
            for seat, ws in enumerate(self.sockets):
                pool = acting if seat == self.turn else watching
                sample = pool[(self.sent + seat) % len(pool)]
                table = {
                    **sample["table"],
                    "number": self.number,
                    "seq": self.seq,
                    "pending": [self.turn],
                    "legal": (sample["table"]["legal"] or [0]) if seat == self.turn else [],
                    "result": None,
                }
                if ws is not None:
                    await ws.send_text(dumps({**sample, "table": table}))
            self.sent += 1

    rooms: dict[str, Room] = {}

    async def live(ws: WebSocket) -> None:
        await ws.accept()
        room = rooms.setdefault(ws.path_params["room"], Room())
        seat = int(json.loads(await ws.receive_text())["token"])
        room.sockets[seat] = ws
        await ws.send_text(dumps({"type": "welcome", "v": 1, "player": None, "seat": seat}))
        await ws.send_text(dumps({"type": "state", "room": None, "table": None, "chat": []}))
        try:
            while True:
                frame = json.loads(await ws.receive_text())
                if frame.get("type") != "act":
                    continue
                if seat != room.turn or frame.get("seq") != room.seq:
                    await ws.send_text(dumps({"type": "error", "code": "stale", "id": None}))
                    continue
                room.seq += 1
                room.turn = (room.turn + 1) % seats
                await room.broadcast()
                await ws.send_text(dumps({"type": "ack", "id": None, "seq": room.seq}))
        except WebSocketDisconnect:
            room.sockets[seat] = None

    async def start(request: Any) -> JSONResponse:
        room = rooms.setdefault(request.path_params["room"], Room())
        room.number, room.seq, room.turn = room.number + 1, 0, 0
        await room.broadcast()
        return JSONResponse({"id": request.path_params["room"]})

    return Starlette(
        routes=[
            WebSocketRoute("/ws/rooms/{room}", live),
            Route("/api/rooms/{room}/start", start, methods=["POST"]),
        ]
    )


def serve_bare(port: int, sample_path: str) -> None:
    import uvicorn

    data = json.loads(Path(sample_path).read_text())
    app = bare_app(data["watching"], data["acting"], data["seats"])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=32 * 1024)


# ----- the generator: one process's rooms ------------------------------------------------------


class Stats:
    def __init__(self) -> None:
        self.latencies: list[tuple[float, float]] = []  # (sent at, seconds to the last update)
        self.sent: list[float] = []  # when each act was sent
        self.updates = 0
        self.update_bytes = 0
        self.errors: dict[str, int] = {}
        self.dropped = 0
        self.retries = 0
        self.games = 0
        self.samples: tuple[list[str], list[str]] = ([], [])  # the others', the actor's
        self.seen = [0, 0]
        self.lags: list[float] = []

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


class LoadRoom:
    """One room's connections, seen from the generator: who acts, and when updates arrive."""

    def __init__(self, gen: Generator, room_id: str, tokens: list[str], host: str | None):
        self.gen, self.id, self.tokens, self.host = gen, room_id, tokens, host
        self.conns: list[Conn] = []
        self.sent: dict[tuple[int, int], float] = {}  # (game, seq it will cause) -> sent at
        self.arrived: dict[tuple[int, int], int] = {}  # (game, seq) -> connections reached
        self.acted: tuple[int, int] | None = None
        self.rematched: tuple[int, int] | None = None

    async def connect(self) -> None:
        for seat, token in enumerate(self.tokens):
            ws = await self.gen.ws_connect(self.id)
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
            stats.errors[frame.get("code", "?")] = stats.errors.get(frame.get("code", "?"), 0) + 1
            return
        if kind != "update":
            return
        stats.updates += 1
        stats.update_bytes += len(text)
        table = frame["table"]
        stats.sample(text, bool(table["legal"]), self.gen.rng)
        key = (table["number"], table["seq"])
        count = self.arrived.get(key, 0) + 1
        if count == len(self.conns):
            del self.arrived[key]
            sent = self.sent.pop(key, None)
            if sent is not None:
                stats.latencies.append((sent, now - sent))
        else:
            self.arrived[key] = count
        if table["result"] is not None:
            if conn.seat == 0 and key != self.rematched:
                self.rematched = key
                stats.games += 1
                self.gen.later(self.gen.delay(), self.rematch)
            return
        pending, legal = table["pending"], table["legal"]
        if pending and pending[0] == conn.seat and legal and key != self.acted:
            self.acted = key
            action = self.gen.rng.choice(legal)
            if self.gen.think is None:
                await self.act(conn, key, action)
            else:
                self.gen.later(self.gen.delay(), self.act, conn, key, action)

    async def act(self, conn: Conn, key: tuple[int, int], action: int) -> None:
        text = dumps({"type": "act", "action": action, "seq": key[1]})
        sent = time.monotonic()
        self.sent[(key[0], key[1] + 1)] = sent
        self.gen.stats.sent.append(sent)
        with contextlib.suppress(Exception):
            await conn.ws.send(text)

    async def rematch(self) -> None:
        await self.gen.start(self)


class Generator:
    """One generator process: sets up its share of the rooms, then plays them."""

    def __init__(self, spec: dict[str, Any]):
        self.spec = spec
        self.kind, self.url = spec["kind"], spec["url"]
        self.think: float | None = spec["think"]
        self.rng = random.Random(spec["seed"])
        self.stats = Stats()
        self.stopping = False
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

    async def ws_connect(self, room_id: str) -> Any:
        from websockets.asyncio.client import connect

        ws_url = self.url.replace("http", "ws", 1) + f"/ws/rooms/{room_id}"
        compression = None if self.spec["compression"] == "none" else "deflate"
        return await connect(
            ws_url,
            compression=compression,
            max_size=2**24,
            open_timeout=120,
            ping_interval=None,
            proxy=None,
        )

    async def call(self, method: str, path: str, token: str | None, body: Any = None) -> Any:
        """A lobby call; a server error (5xx) is retried a few times, and counted."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for attempt in range(RETRIES + 1):
            try:
                answer = await self.http.request(method, path, json=body, headers=headers)
            except httpx.TransportError:  # e.g. a kept-alive connection the server closed
                if attempt == RETRIES:
                    raise
                self.stats.retries += 1
                continue
            if answer.status_code < 500 or attempt == RETRIES:
                break
            self.stats.retries += 1
            await asyncio.sleep(0.5 * 2**attempt)
        if answer.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text}")
        return answer.json()

    async def new_room(self, index: int) -> LoadRoom:
        if self.kind == "bare":
            name = f"g{self.spec['worker']}r{index}"
            return LoadRoom(self, name, [str(s) for s in range(self.spec["seats"])], None)
        host = await self.call("POST", "/api/guests", None, {"name": "host"})
        room = await self.call(
            "POST",
            "/api/rooms",
            host["token"],
            {
                "game": self.spec["game"],
                "options": self.spec["options"],
                "public": False,
                "settings": {"bot_delay": 0, "turn_seconds": None, "away_seconds": 3600},
                "seat": 0,
            },
        )
        tokens = [host["token"]]
        for seat in range(1, len(room["seats"])):
            guest = await self.call("POST", "/api/guests", None, {"name": f"p{seat}"})
            path = f"/api/rooms/{room['id']}/seats/{seat}"
            await self.call("POST", path, guest["token"], {"invite": room["invite"]})
            tokens.append(guest["token"])
        return LoadRoom(self, room["id"], tokens, host["token"])

    async def start(self, room: LoadRoom) -> None:
        try:
            await self.call("POST", f"/api/rooms/{room.id}/start", room.host)
        except Exception as exc:
            code = f"start: {type(exc).__name__} {str(exc)[:60]}".strip()
            self.stats.errors[code] = self.stats.errors.get(code, 0) + 1

    async def set_up(self, index: int, gate: asyncio.Semaphore) -> LoadRoom:
        async with gate:
            room = await self.new_room(index)
            await room.connect()
            return room

    async def watch_lag(self) -> None:
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.1)
            self.stats.lags.append((before, time.monotonic() - before - 0.1))

    async def run(self, inbox: Any, outbox: Any) -> None:
        concurrency = max(2, SETUP_CONCURRENCY // self.spec["workers"])
        limits = httpx.Limits(max_connections=concurrency * 2)
        self.http = httpx.AsyncClient(
            base_url=self.url, timeout=120, limits=limits, trust_env=False
        )
        gate = asyncio.Semaphore(concurrency)
        first = self.spec["first"]
        rooms = await asyncio.gather(
            *(self.set_up(first + i, gate) for i in range(self.spec["rooms"]))
        )
        outbox.put(("ready", self.spec["worker"], None))
        go, window_start, window_end, stop = await asyncio.to_thread(inbox.get)
        lag = asyncio.create_task(self.watch_lag())
        await asyncio.sleep(max(0.0, go - time.monotonic()))
        # human pace: the first actions come spread over the warm-up, not all at once
        spread = 0.0 if self.think is None else min(self.think, window_start - go)
        for room in rooms:
            self.later(self.rng.uniform(0, spread), self.start, room)
        cpu_start = None
        await asyncio.sleep(max(0.0, window_start - time.monotonic()))
        cpu_start = time.process_time()
        await asyncio.sleep(max(0.0, window_end - time.monotonic()))
        cpu = time.process_time() - cpu_start
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        self.stopping = True
        lag.cancel()
        stats = self.stats
        in_window = [lat for at, lat in stats.latencies if window_start <= at < window_end]
        outbox.put(
            (
                "result",
                self.spec["worker"],
                {
                    "latencies": in_window,
                    "sent": sum(window_start <= at < window_end for at in stats.sent),
                    "updates": stats.updates,
                    "update_bytes": stats.update_bytes,
                    "errors": stats.errors,
                    "dropped": stats.dropped,
                    "retries": stats.retries,
                    "games": stats.games,
                    "samples": stats.samples,
                    "cpu": cpu,
                    "lags": [lag for at, lag in stats.lags if window_start <= at < window_end],
                },
            )
        )
        for room in rooms:
            for conn in room.conns:
                conn.reader.cancel()
        closing = [conn.ws.close() for room in rooms for conn in room.conns]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), 10)
        await self.http.aclose()


def generator_main(spec: dict[str, Any], inbox: Any, outbox: Any) -> None:
    raise_file_limit()
    try:
        run_async(Generator(spec).run(inbox, outbox))
    except BaseException:
        outbox.put(("failed", spec["worker"], traceback.format_exc()))


def run_async(coro: Any) -> Any:
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        return asyncio.run(coro)
    return uvloop.run(coro)


def raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ----- one measured run ------------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile of sorted ``values``."""
    if not values:
        return None
    return values[min(len(values) - 1, max(0, math.ceil(p / 100 * len(values)) - 1))]


def measure(kind: str, server: Server, args: argparse.Namespace, seats: int) -> dict[str, Any]:
    """Set up the rooms on ``server`` with the generators, play, and gather the figures."""
    rss_base = server.rss()
    workers = args.workers or max(1, min(4, math.ceil(args.rooms * seats / 2500)))
    workers = min(workers, args.rooms)
    ctx = mp.get_context("spawn")
    outbox = ctx.Queue()
    inboxes, procs = [], []
    first = 0
    for w in range(workers):
        count = args.rooms // workers + (w < args.rooms % workers)
        spec = {
            "kind": kind,
            "url": server.url,
            "worker": w,
            "workers": workers,
            "first": first,
            "rooms": count,
            "seats": seats,
            "think": args.think if args.pace == "human" else None,
            "game": args.game,
            "options": args.options,
            "compression": args.compression,
            "seed": args.seed * 1000 + w,
        }
        first += count
        inbox = ctx.Queue()
        proc = ctx.Process(target=generator_main, args=(spec, inbox, outbox), daemon=True)
        proc.start()
        inboxes.append(inbox)
        procs.append(proc)
    try:
        setup_began = time.monotonic()
        answers = collect(outbox, procs, "ready", args.deadline)
        setup_seconds = time.monotonic() - setup_began
        rss_connected = server.rss()
        go = time.monotonic() + 0.2
        window_start = go + args.warmup
        window_end = window_start + args.duration
        stop = window_end + GRACE
        for inbox in inboxes:
            inbox.put((go, window_start, window_end, stop))
        time.sleep(max(0.0, window_start - time.monotonic()))
        cpu0, machine0 = server.cpu(), machine_cpu()
        if args.profile and kind == "yamen":
            server.proc.send_signal(signal.SIGUSR1)  # profile the window only
        time.sleep(max(0.0, window_end - time.monotonic()))
        if args.profile and kind == "yamen":
            server.proc.send_signal(signal.SIGUSR2)
        cpu1, machine1 = server.cpu(), machine_cpu()
        rss_end = server.rss()
        answers = collect(outbox, procs, "result", args.deadline)
    finally:
        for proc in procs:
            proc.join(15)
            if proc.is_alive():
                proc.terminate()
    latencies = sorted(lat for a in answers.values() for lat in a["latencies"])
    lags = sorted(lag for a in answers.values() for lag in a["lags"])
    updates = sum(a["updates"] for a in answers.values())
    errors: dict[str, int] = {}
    for a in answers.values():
        for code, n in a["errors"].items():
            errors[code] = errors.get(code, 0) + n
    busy = (machine1[0] - machine0[0]) / max(1, machine1[1] - machine0[1])
    unfinished = sum(a["sent"] for a in answers.values()) - len(latencies)
    timed = latencies + [math.inf] * unfinished  # unanswered by the end: longer than any
    ms = [
        None if v is None or v == math.inf else round(v * 1000, 2)
        for v in (percentile(timed, 50), percentile(timed, 99), timed[-1] if timed else None)
    ]
    return {
        "server": kind,
        "rooms": args.rooms,
        "connections": args.rooms * seats,
        "workers": workers,
        "setup_s": round(setup_seconds, 1),
        "window_s": args.duration,
        "actions": len(latencies),
        "actions_per_s": round(len(latencies) / args.duration, 1),
        "unfinished": unfinished,  # acts in the window still unanswered a second after it
        "p50_ms": ms[0],
        "p99_ms": ms[1],
        "max_ms": ms[2],
        "games_finished": sum(a["games"] for a in answers.values()),
        "update_frame_bytes": round(sum(a["update_bytes"] for a in answers.values()) / updates)
        if updates
        else None,
        "errors": errors,
        "dropped_connections": sum(a["dropped"] for a in answers.values()),
        "lobby_retries": sum(a["retries"] for a in answers.values()),
        "rss_base_mib": round(rss_base / 2**20, 1),
        "rss_connected_mib": round(rss_connected / 2**20, 1),
        "rss_end_mib": round(rss_end / 2**20, 1),
        "memory_per_room_kib": round((rss_end - rss_base) / args.rooms / 1024, 1),
        "server_cpu": round((cpu1 - cpu0) / args.duration, 2),  # 1.0: one core
        "actions_per_server_cpu_s": round(len(latencies) / (cpu1 - cpu0)) if cpu1 > cpu0 else None,
        "generators_cpu": round(sum(a["cpu"] for a in answers.values()) / args.duration, 2),
        "machine_busy": round(busy * os.cpu_count(), 2),  # cores busy, everything included
        "generator_lag_p99_ms": None if not lags else round(percentile(lags, 99) * 1000, 1),
        "samples": [[s for a in answers.values() for s in a["samples"][i]] for i in (0, 1)],
    }


def collect(outbox: Any, procs: list[Any], kind: str, deadline: float) -> dict[int, Any]:
    """Every generator's ``kind`` report; an error when one fails, dies or is late."""
    answers: dict[int, Any] = {}
    dead_since = None
    while len(answers) < len(procs):
        try:
            what, worker, data = outbox.get(timeout=1)
        except queue.Empty:
            if time.monotonic() > deadline:
                raise TimeoutError(f"generators did not report {kind!r} in time") from None
            if any(not p.is_alive() for i, p in enumerate(procs) if i not in answers):
                dead_since = dead_since or time.monotonic()
                if time.monotonic() - dead_since > 5:  # its last words have had time to come
                    raise RuntimeError("a generator process died") from None
            continue
        if what == "failed":
            raise RuntimeError(f"generator {worker} failed:\n{data}")
        if what == kind:
            answers[worker] = data
    return answers


def run_yamen(args: argparse.Namespace, tmp: Path) -> tuple[dict[str, Any], int]:
    server = start_yamen(args, tmp)
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=60) as http:
            http.get("/api/games").raise_for_status()  # imports the games before the base RSS
        figures = measure("yamen", server, args, seats_of(args))
    except BaseException:
        server.stop()
        print("the server said:\n" + "".join(server.output[-40:]), file=sys.stderr)
        raise
    finally:
        server.stop()
    if args.profile:
        figures["profile"] = str(profile_path(args, tmp))
    failures = [line.strip() for line in server.output if line.startswith("Traceback")]
    figures["server_tracebacks"] = len(failures)
    if failures:  # the line that names each exception: the first unindented one after it
        last = [line for line in server.output if line[:1].isalpha() and ":" in line]
        figures["server_last_error"] = last[-1].strip()[:200] if last else None
    return figures, seats_of(args)


def seats_of(args: argparse.Namespace) -> int:
    from yamen.engine import get_game, new_game

    options = get_game(args.game).normalize_options(args.options)
    return new_game(args.game, options, seed=0).num_seats


def run_bare(
    args: argparse.Namespace, tmp: Path, samples: list[list[str]], seats: int
) -> dict[str, Any]:
    fallback = {"type": "update", "events": [], "table": {"legal": [], "view": "x" * 2000}}
    watching, acting = ([loads(s) for s in pool] or [fallback] for pool in samples)
    path = tmp / "bare-samples.json"
    path.write_text(json.dumps({"watching": watching, "acting": acting, "seats": seats}))
    server = start_bare(path)
    try:
        return measure("bare", server, args, seats)
    except BaseException:
        server.stop()
        print("the bare server said:\n" + "".join(server.output[-40:]), file=sys.stderr)
        raise
    finally:
        server.stop()


def print_profile(path: str, kind: str) -> None:
    if kind == "pyinstrument":
        print(f"\nserver profile (pyinstrument, wall time of the event loop's thread): {path}")
        print(Path(path).read_text())
        return
    import pstats

    print("\nserver profile (cProfile, CPU time of the event loop's thread), by own time:")
    pstats.Stats(path).sort_stats("tottime").print_stats(25)
    print("by cumulative time:")
    pstats.Stats(path).sort_stats("cumulative").print_stats(40)


def shown(ms: float | None) -> str:
    return "unanswered (over the window + 1 s)" if ms is None else f"{ms} ms"


def report(figures: dict[str, Any]) -> None:
    f = figures
    print(
        f"{f['server']}: {f['rooms']} rooms, {f['connections']} WebSockets, "
        f"{f['workers']} generator process(es); set up in {f['setup_s']} s"
    )
    print(
        f"  {f['actions']} actions in {f['window_s']} s: {f['actions_per_s']} actions/s; "
        f"action-to-broadcast p50 {shown(f['p50_ms'])}, p99 {shown(f['p99_ms'])}, "
        f"max {shown(f['max_ms'])}"
    )
    print(
        f"  unfinished acts {f['unfinished']}, games finished {f['games_finished']}, "
        f"update frame {f['update_frame_bytes']} B, errors {f['errors'] or 0}, "
        f"dropped connections {f['dropped_connections']}, lobby calls retried "
        f"{f['lobby_retries']}"
    )
    print(
        f"  server RSS {f['rss_base_mib']} MiB before rooms, {f['rss_connected_mib']} MiB "
        f"connected, {f['rss_end_mib']} MiB playing: {f['memory_per_room_kib']} KiB per room"
    )
    print(
        f"  CPU in the window (cores): server {f['server_cpu']} "
        f"({f['actions_per_server_cpu_s']} actions per CPU-second), generators "
        f"{f['generators_cpu']}, whole machine {f['machine_busy']} of {os.cpu_count()}; "
        f"generator loop lag p99 {f['generator_lag_p99_ms']} ms"
    )
    if f.get("server_tracebacks"):
        print(f"  server tracebacks: {f['server_tracebacks']}, the last: {f['server_last_error']}")


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pace", choices=["human", "bot"], default="human")
    p.add_argument("--rooms", type=int, default=100)
    p.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds played before measuring")
    p.add_argument("--think", type=float, default=2.0, help="human pace: mean seconds per action")
    p.add_argument("--game", default="baohuang")
    p.add_argument("--options", type=json.loads, default={}, help="the game's options, JSON")
    p.add_argument("--workers", type=int, default=0, help="generator processes (0: by size)")
    p.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    p.add_argument(
        "--baseline",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also measure the bare fan-out server (default: at bot pace)",
    )
    p.add_argument(
        "--compression",
        choices=["deflate", "none"],
        default="deflate",
        help="WebSocket compression the clients offer (browsers offer deflate)",
    )
    p.add_argument("--profile", choices=["cprofile", "pyinstrument"])
    p.add_argument("--profile-out", help="where the server's profile goes")
    p.add_argument("--timeout", type=float, default=900.0, help="the whole run's bound, seconds")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--bare-server", type=int, help=argparse.SUPPRESS)
    p.add_argument("--bare-sample", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if not 1 <= args.rooms <= MAX_ROOMS:
        p.error(f"--rooms must be from 1 to {MAX_ROOMS}")
    if not 0 < args.duration <= MAX_DURATION:
        p.error(f"--duration must be above 0 and at most {MAX_DURATION:g} seconds")
    if args.warmup < 0 or args.think <= 0:
        p.error("--warmup must be at least 0 and --think above 0")
    if args.baseline is None:
        args.baseline = args.pace == "bot"
    return args


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--profiled-server"]:
        return serve_profiled(argv[1], argv[2], argv[3:])
    args = parse(argv)
    if args.bare_server is not None:
        return serve_bare(args.bare_server, args.bare_sample)
    raise_file_limit()
    began = time.monotonic()
    args.deadline = began + args.timeout
    timer = threading.Timer(args.timeout + 30, lambda: os._exit(3))  # the last resort
    timer.daemon = True
    timer.start()
    with tempfile.TemporaryDirectory(prefix="yamen-load-") as tmp:
        yamen, seats = run_yamen(args, Path(tmp))
        samples = yamen.pop("samples")
        result: dict[str, Any] = {
            "pace": args.pace,
            "think_s": args.think if args.pace == "human" else None,
            "game": args.game,
            "options": args.options,
            "compression": args.compression,
            "cores": os.cpu_count(),
            "yamen": yamen,
        }
        if args.baseline:
            bare = run_bare(args, Path(tmp), samples, seats)
            bare.pop("samples")
            result["bare"] = bare
            if bare["actions_per_s"]:
                result["ratio"] = round(yamen["actions_per_s"] / bare["actions_per_s"], 3)
            if yamen["actions_per_server_cpu_s"] and bare["actions_per_server_cpu_s"]:
                per_cpu = yamen["actions_per_server_cpu_s"] / bare["actions_per_server_cpu_s"]
                result["ratio_per_server_cpu"] = round(per_cpu, 3)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            pace = (
                f"human, one action per {args.think:g} s a room" if args.pace == "human" else "bot"
            )
            print(f"pace: {pace}; game {args.game} {args.options or ''}; {os.cpu_count()} cores")
            report(yamen)
            if "bare" in result:
                report(result["bare"])
                print(f"ratio yamen/bare actions per second: {result.get('ratio')}")
                print(
                    "ratio yamen/bare actions per CPU-second of the server (less sensitive to "
                    f"other work on the machine): {result.get('ratio_per_server_cpu')}"
                )
        if args.profile and not args.json:
            print_profile(yamen["profile"], args.profile)


if __name__ == "__main__":
    main()
