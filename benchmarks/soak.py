"""Soak: random faults over several ``yamen serve`` processes sharing PostgreSQL and Redis.

Rooms of five seats (one or two people, bots in the rest; Baohuang, Criminal Poker and Bao
Qing-tian) are played by clients spread over the processes, each person's client connected to
a different process and moving to the next one when its connection drops. The clients behave
like the browser (yamen/web/net.js): they never ``sync`` on their own; they ask for the table
when they hear nothing for twice the server's heartbeat (``--beat``) or when a beat or an
update shows a step they never got, and connect again when that ask goes unanswered as long.
Meanwhile, at random moments, one fault at a time: ``kill -9`` of a process (started again a
moment later), ``SIGTERM`` (the same), ``SIGSTOP`` past the lease (then ``SIGCONT``), a Redis
``CLIENT PAUSE WRITE``, or Redis ``CLIENT KILL`` of a process's subscriber connection (``sub``)
or of its publisher connection (``pub``), found by name (``{prefix}{node}:sub``, ``:pub``). A
host starts the next game of its room whenever one ends, until the faults stop.

It then checks, and prints as one JSON object:

- ``rooms_stalled``: rooms whose game neither moved nor finished in a window after the faults
  (every room has a person seated: none waits on purpose);
- ``hellos_unanswered`` and ``frames_unanswered``: a client's hello with no welcome, error or
  close, or a frame with no ack or error, within the bound (never silence);
- ``clients_silent``: times a client heard nothing (not even a beat) for longer than the
  silence bound (twice the heartbeat) that no fault explains: a process it was connected to, or
  that owned its room, killed, stopped or frozen, or Redis paused, within a window before
  (``silences_during_faults`` counts those); a dropped Redis connection explains none;
- ``recovery_s``: per fault kind, for each room the fault touched (owned by its victim, or with
  a person connected to it; every room for a Redis pause), the seconds until every person of
  the room saw its game move again; ``takeover_s``: after a kill or a freeze, for each room its
  victim owned, the seconds until its stored game moved again (percentiles);
- ``client_resyncs``: the clients' own asks for the table (``quiet``: silence; ``behind``: a
  step never got);
- ``actions_acked`` and ``actions_lost``: every acknowledged action must be in the stored
  record, where and as it was acknowledged;
- the watchdogs' counts from each process's ``/metrics``, and the command to run it again.

Needs PostgreSQL and Redis (``YAMEN_TEST_POSTGRES``, ``YAMEN_TEST_REDIS``)::

    python benchmarks/soak.py --rooms 100 --faults 30 --lease 2 --seed 1

tests/server/test_soak.py runs a small one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's yamen, as its servers run it

from yamen.client import joined  # noqa: E402
from yamen.server.protocol import VERSION  # noqa: E402

POSTGRES = os.environ.get("YAMEN_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("YAMEN_TEST_REDIS", "redis://127.0.0.1:6379")
GAMES = (("baohuang", {}), ("criminal_poker", {}), ("bao_qingtian", {"players": 5}))
KINDS = ("kill", "term", "stop", "pause", "sub", "pub")
SILENCING = ("kill", "term", "stop", "pause")  # the faults that may explain a client's silence
# Rooms play at the bots' pace: no turn timer, and no talk time (the soak measures faults, not
# people talking; a bot investigator would otherwise wait for talk with a person seated).
SETTINGS = {"turn_seconds": None, "away_seconds": 30, "talk_seconds": 0, "deal_pause": 0}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """One ``yamen serve``, on a port of its own that it keeps when started again."""

    def __init__(self, db: str, redis: str, logs: Path, n: int, beat: float):
        self.port, self.n, self.logs = free_port(), n, logs
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = [sys.executable, "-m", "yamen", "serve", "--port", str(self.port)]
        self.args += ["--db", db, "--redis", redis, "--limit", "all=off", "--bot-workers", "0"]
        self.args += ["--limit", f"beat_seconds={beat:g}"]
        self.args += ["--log-format", "json"]
        self.proc: subprocess.Popen | None = None
        self.node: str | None = None
        self.up = False

    def start(self) -> None:
        log = open(self.logs / f"serve-{self.n}.log", "a")  # noqa: SIM115 (the child's)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            self.args, stdout=subprocess.PIPE, stderr=log, text=True, env=env, cwd=ROOT
        )
        line = self.proc.stdout.readline()
        if "serving at http://" not in line:
            self.proc.kill()
            raise RuntimeError(f"yamen serve did not start: {line!r} (see {log.name})")
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        text = httpx.get(f"{self.url}/metrics", timeout=10).text
        self.node = re.search(r'yamen_node_info\{node="(\w+)"\}', text).group(1)
        self.up = True

    def signal(self, sig: int) -> None:
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        self.up = False
        self.signal(signal.SIGKILL)
        self.proc.wait(30)

    def term(self) -> None:
        self.up = False
        self.signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.kill()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            if not self.up:
                with contextlib.suppress(OSError):
                    self.signal(signal.SIGCONT)
            self.term()


@dataclass
class Tally:
    hellos: int = 0
    hellos_unanswered: int = 0
    frames: int = 0
    frames_unanswered: int = 0
    closes: int = 0
    closes_with_reason: int = 0
    bad_acks: int = 0
    acked: list[tuple[str, int, int, int]] = field(default_factory=list)  # game, seq, seat, act
    resyncs: dict[str, int] = field(default_factory=lambda: {"quiet": 0, "behind": 0})
    silences: list[tuple[Person, float, float]] = field(default_factory=list)  # who, from, to


def missed(table: dict[str, Any] | None, frame: dict[str, Any]) -> bool:
    """A beat ahead of the table, or an update past its next step (yamen/web/net.js)."""
    shown = frame if frame["type"] == "beat" else frame["table"]
    number, seq = (table["number"], table["seq"]) if table else (0, 0)
    if shown["number"] < number:
        return False
    if frame["type"] == "beat":
        return shown["number"] > number or shown["seq"] > seq
    if shown["number"] > number:
        return shown["number"] > number + 1 or shown["seq"] > 0
    return shown["seq"] > seq + 1


def stale(table: dict[str, Any] | None, frame: dict[str, Any]) -> bool:
    """An update the client had already, or an older one (yamen/web/net.js)."""
    if table is None:
        return False
    shown = frame["table"]
    if shown["number"] != table["number"]:
        return shown["number"] < table["number"]
    return shown["seq"] < table["seq"] or (shown["seq"] == table["seq"] and bool(frame["events"]))


class Person:
    """A seated person's client, as the browser behaves: plays its seat, asks for the table
    when it hears nothing for twice the heartbeat or sees a step it never got, connects again
    when that ask goes unanswered as long, and moves to the next process when its connection
    drops or a frame stays unanswered past the bound."""

    def __init__(self, soak: Soak, room: str, seat: int, token: str, first: int, host: bool):
        self.soak, self.room, self.seat, self.token = soak, room, seat, token
        self.at, self.host = first, host
        self.rng = random.Random(soak.rng.random())
        self.ids = itertools.count()
        self.done = False
        self.process: Process | None = None  # the one it is connected to
        self.heard = time.monotonic()  # when it last heard a frame, on any connection
        self.moved_at = 0.0  # when it last saw its room's game move
        self.shown = (0, -1)  # the game number and seq it saw last

    async def run(self) -> None:
        self.heard = time.monotonic()  # (it was made before the others' rooms were)
        while not self.done:
            process = self.soak.processes[self.at % len(self.soak.processes)]
            self.at += 1
            if not process.up:
                await asyncio.sleep(0.2)
                continue
            url = f"ws://127.0.0.1:{process.port}/ws/rooms/{self.room}"
            self.process = process
            try:
                async with websockets.connect(url, max_size=2**24, open_timeout=10) as ws:
                    await self.session(ws)
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            self.process = None
            await asyncio.sleep(0.2 + self.rng.random() * 0.3)

    def hear(self, now: float) -> None:
        """A frame arrived: a silence longer than the bound before it is kept."""
        if now - self.heard > self.soak.silence_bound:
            self.soak.tally.silences.append((self, self.heard, now))
        self.heard = now

    def saw(self, table: dict[str, Any], now: float) -> None:
        shown = (table["number"], table["seq"])
        if shown > self.shown:
            self.moved_at = now
        self.shown = shown

    async def session(self, ws: Any) -> None:
        soak, tally = self.soak, self.soak.tally
        hello = {"type": "hello", "v": VERSION, "token": self.token}
        await ws.send(json.dumps(hello))
        tally.hellos += 1
        deadline = time.monotonic() + soak.bound
        welcomed = False
        sent: dict[str, tuple[float, Any]] = {}  # frame id -> (when, what)
        acted = None
        table: dict[str, Any] | None = None
        every = soak.args.beat  # the server's heartbeat, as its beats say
        asked: float | None = None  # when it asked for the table (silence, a missed step)
        restarting: asyncio.Task | None = None  # this host asking for the next game

        async def resync(why: str) -> None:
            nonlocal asked
            if asked is None:
                asked = time.monotonic()
                tally.resyncs[why] += 1
                await ws.send(json.dumps({"type": "sync"}))

        while True:
            now = time.monotonic()
            if not welcomed and now > deadline:
                tally.hellos_unanswered += 1
                soak.note(f"room {self.room}: no welcome within {soak.bound} s")
                return
            late = [i for i, (t, _) in sent.items() if now - t > soak.bound]
            if late:
                tally.frames_unanswered += len(late)
                soak.note(f"room {self.room}: frames {late} unanswered for {soak.bound} s")
                return
            if self.done and not sent:
                return
            if welcomed and asked is not None and now - asked > 2 * every:
                return  # asked, unanswered: connect again (to the next process)
            if welcomed and asked is None and now - self.heard > 2 * every:
                await resync("quiet")
            try:
                text = await asyncio.wait_for(ws.recv(), 0.25)
            except TimeoutError:
                text = None
            except websockets.ConnectionClosed as closed:
                tally.closes += 1
                tally.closes_with_reason += bool(closed.rcvd and closed.rcvd.reason)
                return
            if text is not None:
                now = time.monotonic()
                self.hear(now)
                frame = json.loads(text)
                kind = frame["type"]
                if kind == "welcome":
                    # (Again, when the room moved: frames still unanswered may have been lost
                    # with the old owner; a client looks at the new table and acts again, with
                    # seq so that nothing lands twice: docs/server.md.)
                    welcomed = True
                    sent.clear()
                    acted = None
                elif kind == "error" and not welcomed and frame.get("id") is None:
                    welcomed = True  # a refusal is an answer too (the close follows)
                elif kind == "beat":
                    every = frame["every"]
                    if missed(table, frame):
                        await resync("behind")
                elif kind == "state":
                    asked = None
                    if frame.get("table"):
                        table = frame["table"]
                        self.saw(table, now)
                elif kind == "update" and not stale(table, frame):
                    whole = joined(table, frame["table"])  # (None: in parts, mine is older)
                    if missed(table, frame) or whole is None:
                        await resync("behind")
                    if whole is not None:
                        table = whole
                        self.saw(table, now)
                elif kind in ("ack", "error") and frame.get("id") in sent:
                    _, what = sent.pop(frame["id"])
                    if kind == "error" and what is not None:
                        acted = None  # refused (moving, storage, stale): look and try again
                    if kind == "ack" and what is not None:
                        tally.acked.append((*what[:2], self.seat, what[2]))
                        if frame["seq"] != what[1] + 1:
                            tally.bad_acks += 1
                            soak.note(f"room {self.room}: ack {frame} for an action at {what}")
            if not welcomed or table is None:
                continue
            mine = self.seat in table["pending"] and table["legal"] and not table["result"]
            key = (table["game_id"], table["seq"])
            if mine and acted != key and not self.done:
                acted = key
                await asyncio.sleep(self.rng.random() * soak.think)
                action = self.rng.choice(table["legal"])
                frame_id = f"a{next(self.ids)}"
                sent[frame_id] = (time.monotonic(), (table["game_id"], table["seq"], action))
                await ws.send(
                    json.dumps({"type": "act", "id": frame_id, "action": action, "seq": key[1]})
                )
                tally.frames += 1
            over = table["result"] is not None
            if over and self.host and soak.playing and (restarting is None or restarting.done()):
                # (again while the game shows over: a start refused while the room moved)
                restarting = asyncio.ensure_future(soak.start_next(self.room, self.token))
                soak.tasks.add(restarting)
                restarting.add_done_callback(soak.tasks.discard)


class Soak:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.rng = random.Random(args.seed)
        self.lease = args.lease
        # what a client waits before it calls a hello or a frame unanswered: the server's own
        # bound (welcome_seconds: 2 leases and 10 s), plus a SIGSTOP'd process's freeze
        self.bound = 2 * self.lease + 10 + args.stop_extra + 5
        # a client that hears nothing for longer than this is silent (the browser then asks)
        self.silence_bound = 2 * args.beat
        # how long after a fault a client it touched may be silent for it: the freeze, a
        # takeover (a lease), the silence bound, and slack
        self.explains = 3 * self.lease + args.stop_extra + self.silence_bound + 5
        self.think = 0.3
        self.playing = True
        self.tally = Tally()
        self.notes: list[str] = []
        self.tasks: set[asyncio.Task] = set()
        self.processes: list[Process] = []
        self.faults: list[dict[str, Any]] = []
        self.touched: list[tuple[str, float, set[Person]]] = []  # kind, when, whom it touched
        self.takeovers: list[float] = []
        self.recoveries: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.persons: list[Person] = []
        self.totals: dict[str, int] = {}  # room -> actions stored, all its games
        self.unfinished: set[str] = set()
        self.paused: list[str] = []  # rooms nobody is at until the end

    def note(self, text: str) -> None:
        self.notes.append(text)

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def live(self) -> list[Process]:
        return [p for p in self.processes if p.up]

    async def call(self, method: str, path: str, token: str | None, body: Any = None) -> Any:
        """A lobby call through any live process, tried again while the room moves."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        problem = None
        for _ in range(40):
            live = self.live()
            if live:
                process = self.rng.choice(live)
                try:
                    async with httpx.AsyncClient(timeout=30) as http:
                        answer = await http.request(
                            method, process.url + path, json=body, headers=headers
                        )
                    if answer.status_code < 500:
                        return answer
                    problem = answer.text
                except httpx.HTTPError as exc:
                    problem = repr(exc)
            await asyncio.sleep(0.25)
        raise RuntimeError(f"{method} {path}: {problem}")

    async def start_next(self, room: str, token: str) -> None:
        """Start the room's next game (a refusal: a moment, then the host looks again)."""
        with contextlib.suppress(RuntimeError):
            answer = await self.call("POST", f"/api/rooms/{room}/start", token)
            if answer.status_code >= 400:
                if '"playing"' not in answer.text:  # (started already: its frames are coming)
                    self.note(f"room {room}: start refused: {answer.text[:120]}")
                await asyncio.sleep(1.0)

    # ----- the database ----------------------------------------------------------------------

    async def poll_totals(self, db: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(db)
        try:
            rows = await conn.fetch(
                "SELECT g.room_id, count(a.index) AS n,"
                " bool_or(g.finished IS NULL AND g.quarantined IS NULL) AS open"
                " FROM games g LEFT JOIN actions a ON a.game_id = g.id GROUP BY g.room_id"
            )
        finally:
            await conn.close()
        self.totals = {r["room_id"]: r["n"] for r in rows}
        self.unfinished = {r["room_id"] for r in rows if r["open"]}

    # ----- faults ------------------------------------------------------------------------------

    async def fault(self, kind: str, redis: Any, prefix: str) -> None:
        owners: dict[str, list[str]] = {}  # node -> the rooms it owns
        async for key in redis.scan_iter(match=f"{prefix}room:*"):
            node = await redis.get(key)
            if node is not None:
                owners.setdefault(node, []).append(key.removeprefix(f"{prefix}room:"))
        live = self.live()
        # a victim that matters: one that owns rooms or has people connected (a process just
        # started again has neither), and for a CLIENT KILL one that has such a connection
        names = {c.get("name") for c in await redis.client_list()}
        busy = [
            p
            for p in live
            if (owners.get(p.node) or any(q.process is p for q in self.persons))
            and (kind not in ("sub", "pub") or f"{prefix}{p.node}:{kind}" in names)
        ]
        victim = self.rng.choice(busy or live)
        owned = owners.get(victim.node, [])
        # whom it touches: the people of the rooms its victim owns and those connected to it
        # (all of them when Redis pauses); a room nobody is at waits on purpose
        touched = {
            p for p in self.persons if kind == "pause" or p.process is victim or p.room in owned
        }
        marks = {room: self.totals.get(room, 0) for room in owned if room not in self.paused}
        started = time.monotonic()
        record = {"kind": kind, "process": victim.n, "rooms": len(owned)}
        self.faults.append(record)
        self.touched.append((kind, started, touched))
        if kind == "kill":
            await asyncio.to_thread(victim.kill)
            self.spawn(self.restart(victim, 1.0))
        elif kind == "term":
            await asyncio.to_thread(victim.term)
            self.spawn(self.restart(victim, 1.0))
        elif kind == "stop":
            victim.up = False
            victim.signal(signal.SIGSTOP)
            self.spawn(self.wake(victim, self.lease * 2 + self.args.stop_extra))
        elif kind == "pause":
            pause = self.rng.uniform(1.0, 2.5)
            record["seconds"] = round(pause, 1)
            await redis.client_pause(int(pause * 1000), all=False)
        else:  # CLIENT KILL of the victim's subscriber or publisher connection(s)
            name = f"{prefix}{victim.node}:{kind}"
            killed = [c for c in await redis.client_list() if c.get("name") == name]
            for client in killed:
                await redis.client_kill_filter(_id=client["id"])
            record["connections"] = len(killed)
            if not killed:
                self.note(f"no Redis connection named {name} to kill")
        if marks and kind in ("kill", "stop"):
            self.spawn(self.measure(marks, started))
        rooms = {p.room for p in touched}
        record["rooms_touched"] = len(rooms)
        self.spawn(self.recovery(kind, rooms, started, record))

    async def recovery(
        self, kind: str, rooms: set[str], started: float, record: dict[str, Any]
    ) -> None:
        """Seconds until every person of each room the fault touched saw its game move."""
        waiting = {room: [p for p in self.persons if p.room == room] for room in rooms}
        deadline = started + 120
        record["recovered"], record["slowest_s"] = 0, 0.0
        while waiting and time.monotonic() < deadline and self.playing:
            await asyncio.sleep(0.1)
            for room, persons in list(waiting.items()):
                if all(p.moved_at > started or p.done for p in persons):
                    took = time.monotonic() - started
                    if took > self.explains:
                        self.note(
                            f"room {room}: its people saw it move {took:.1f} s after a {kind}"
                        )
                    self.recoveries[kind].append(took)
                    record["recovered"] += 1
                    record["slowest_s"] = round(max(record["slowest_s"], took), 2)
                    del waiting[room]
        for room in waiting:
            waited = time.monotonic() - started
            self.note(f"room {room}: its people saw nothing move for {waited:.0f} s after a {kind}")

    def unexplained(self) -> list[tuple[Person, float, float]]:
        """The silences beyond the bound that no fault explains (see the module's docstring)."""
        found = []
        for person, since, until in self.tally.silences:
            if not any(
                kind in SILENCING
                and person in touched
                and at <= until
                and since <= at + self.explains
                for kind, at, touched in self.touched
            ):
                found.append((person, since, until))
        return found

    async def restart(self, process: Process, after: float) -> None:
        await asyncio.sleep(after)
        await asyncio.to_thread(process.start)

    async def wake(self, process: Process, after: float) -> None:
        await asyncio.sleep(after)
        process.signal(signal.SIGCONT)
        process.up = True

    async def measure(self, marks: dict[str, int], started: float) -> None:
        """Seconds until each of the victim's rooms moved again."""
        waiting = dict(marks)
        deadline = started + 120
        while waiting and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            for room, mark in list(waiting.items()):
                if self.totals.get(room, 0) > mark or room not in self.unfinished:
                    self.takeovers.append(time.monotonic() - started)
                    del waiting[room]
        for room in waiting:
            self.note(f"room {room}: did not move within 120 s of a fault")

    # ----- the run ---------------------------------------------------------------------------

    async def make_room(self, n: int) -> list[Person]:
        game, options = GAMES[n % len(GAMES)]
        people = 1 + (self.rng.random() < self.args.second_person)
        settings = {**SETTINGS, "bot_delay": self.args.bot_delay}
        first = n % len(self.processes)
        guest = (await self.call("POST", "/api/guests", None, {"name": f"host{n}"})).json()
        body = {"game": game, "options": options, "settings": settings, "seat": 0}
        room = (await self.call("POST", "/api/rooms", guest["token"], body)).json()
        rid = room["id"]
        persons = [Person(self, rid, 0, guest["token"], first, True)]
        for seat in range(1, len(room["seats"])):
            if seat < people:
                other = (await self.call("POST", "/api/guests", None, {"name": f"p{n}"})).json()
                await self.call("POST", f"/api/rooms/{rid}/seats/{seat}", other["token"], {})
                persons.append(Person(self, rid, seat, other["token"], first + seat, False))
            else:
                path = f"/api/rooms/{rid}/seats/{seat}/bot"
                await self.call("PUT", path, guest["token"], {"bot": "random"})
        await self.call("POST", f"/api/rooms/{rid}/start", guest["token"])
        return persons

    async def make_paused(self, n: int) -> str:
        """A room nobody is at: its host starts it and leaves (a bot takes the seat), so its
        bots wait (Room.present) until someone connects."""
        game, options = GAMES[n % len(GAMES)]
        settings = {**SETTINGS, "bot_delay": self.args.bot_delay}
        guest = (await self.call("POST", "/api/guests", None, {"name": f"gone{n}"})).json()
        body = {"game": game, "options": options, "settings": settings, "seat": 0}
        room = (await self.call("POST", "/api/rooms", guest["token"], body)).json()
        rid = room["id"]
        for seat in range(1, len(room["seats"])):
            path = f"/api/rooms/{rid}/seats/{seat}/bot"
            await self.call("PUT", path, guest["token"], {"bot": "random"})
        await self.call("POST", f"/api/rooms/{rid}/start", guest["token"])
        await self.call("POST", f"/api/rooms/{rid}/leave", guest["token"])
        return rid

    async def watch(self, room: str) -> None:
        """Someone comes to watch a room nobody was at (its game must go on), and stays."""
        while True:
            process = self.rng.choice(self.live())
            url = f"ws://127.0.0.1:{process.port}/ws/rooms/{room}"
            with contextlib.suppress(OSError, websockets.WebSocketException, TimeoutError):
                async with websockets.connect(url, max_size=2**24, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "hello", "v": VERSION}))
                    async for _ in ws:
                        pass
            await asyncio.sleep(0.5)

    async def run(self, db: str, redis_url: str, prefix: str, logs: Path) -> dict[str, Any]:
        import redis.asyncio as aioredis

        args = self.args
        self.processes = [Process(db, redis_url, logs, n, args.beat) for n in range(args.processes)]
        for process in self.processes:
            await asyncio.to_thread(process.start)
        redis = aioredis.from_url(REDIS, decode_responses=True)
        began = time.monotonic()
        try:
            persons = []
            for n in range(args.rooms):
                persons += await self.make_room(n)
            paused = self.paused = [await self.make_paused(n) for n in range(args.paused)]
            self.persons = persons
            playing_at = time.monotonic()
            playing = [asyncio.ensure_future(person.run()) for person in persons]
            await self.poll_totals(db)
            rooms = list(self.totals)
            poller = asyncio.ensure_future(self.poll_forever(db))
            kinds = [KINDS[i % len(KINDS)] for i in range(args.faults)]  # each kind alike
            self.rng.shuffle(kinds)
            for kind in kinds:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * args.every)
                while len(self.live()) < len(self.processes):  # one fault at a time
                    await asyncio.sleep(0.2)
                await self.fault(kind, redis, prefix)
            while len(self.live()) < len(self.processes):
                await asyncio.sleep(0.2)
            await asyncio.sleep(args.settle)
            # Every room must be moving (or its game over) in the window: nobody restarts
            # finished games from now on.
            self.playing = False
            await self.poll_totals(db)
            before = dict(self.totals)
            quiet = sum(before.get(r, 0) for r in paused)  # (moves while nobody was there)
            watchers = [asyncio.ensure_future(self.watch(room)) for room in paused]
            await asyncio.sleep(args.window)
            await self.poll_totals(db)
            for watcher in watchers:
                watcher.cancel()
            stalled = [
                r for r in rooms if r in self.unfinished and self.totals.get(r) == before.get(r)
            ]
            for room in stalled:
                self.note(f"room {room}: stalled at {self.totals.get(room)} actions")
            for person in persons:
                person.done = True
            async with asyncio.timeout(self.bound + 10):
                await asyncio.gather(*playing)
            poller.cancel()
            lost = await self.lost(db)
            metrics = await self.watchdogs()
        finally:
            for process in self.processes:
                await asyncio.to_thread(process.stop)
            await redis.aclose()
        takeovers = sorted(self.takeovers)
        tally = self.tally
        unexplained = self.unexplained()
        for person, since, until in unexplained[:10]:
            self.note(
                f"room {person.room} seat {person.seat}: heard nothing for"
                f" {until - since:.1f} s, {since - playing_at:.1f} s into play"
            )
        silences = [until - since for _, since, until in tally.silences]
        return {
            "rooms": args.rooms,
            "rooms_nobody_at": args.paused,
            "their_actions_before_someone_came": quiet,
            "processes": args.processes,
            "lease_s": self.lease,
            "faults": {k: sum(f["kind"] == k for f in self.faults) for k in KINDS},
            "each_fault": self.faults,
            "rooms_stalled": len(stalled),
            "hellos": tally.hellos,
            "hellos_unanswered": tally.hellos_unanswered,
            "frames": tally.frames,
            "frames_unanswered": tally.frames_unanswered,
            "closes": tally.closes,
            "closes_with_reason": tally.closes_with_reason,
            "bad_acks": tally.bad_acks,
            "silence_bound_s": self.silence_bound,
            "clients_silent": len(unexplained),
            "silences_during_faults": len(silences) - len(unexplained),
            "longest_silence_s": round(max(silences, default=0.0), 1),
            "client_resyncs": tally.resyncs,
            "actions_acked": len(tally.acked),
            "actions_lost": lost,
            "actions_stored": sum(self.totals.values()),
            "recovery_s": {kind: percentiles(sorted(v)) for kind, v in self.recoveries.items()},
            "takeover_s": percentiles(takeovers),
            "watchdogs": metrics,
            "seconds": round(time.monotonic() - began, 1),
            "notes": self.notes[:20],
            "rerun": rerun(args),
        }

    async def poll_forever(self, db: str) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.poll_totals(db)
            await asyncio.sleep(0.2)

    async def lost(self, db: str) -> int:
        """Acknowledged actions missing from their stored log (or stored otherwise), read
        from the database (a game's record is published only once it is over)."""
        import asyncpg

        from yamen.records import Record

        lost = 0
        by_game: dict[str, list[tuple[int, int, int]]] = {}
        for game, seq, seat, action in self.tally.acked:
            by_game.setdefault(game, []).append((seq, seat, action))
        conn = await asyncpg.connect(db)
        try:
            for game, acked in by_game.items():
                row = await conn.fetchrow(
                    "SELECT id, game, options, seed FROM games WHERE public_id = $1", game
                )
                actions = await conn.fetch(
                    'SELECT seat, text FROM actions WHERE game_id = $1 ORDER BY "index"', row["id"]
                )
                options = row["options"]
                options = json.loads(options) if isinstance(options, str) else options
                record = Record(
                    row["game"], options, row["seed"], None, [tuple(a) for a in actions]
                )
                state, stored = record.start(), []
                for seat, text in record.actions:
                    action = state.parse_action(seat, text)
                    stored.append((seat, action))
                    state.apply_text(seat, text)
                for seq, seat, action in acked:  # (seq: the actions before this one)
                    if seq >= len(stored) or stored[seq] != (seat, action):
                        lost += 1
                        self.note(f"game {game}: acknowledged action {seq} is not stored")
        finally:
            await conn.close()
        return lost

    async def watchdogs(self) -> dict[str, float]:
        """The watchdogs' counts, summed over the processes (each since its last start)."""
        wanted = (
            "yamen_stalled_rooms_total",
            "yamen_stalled_connections_total",
            "yamen_silent_connections",
            "yamen_resynced_connections_total",
            "yamen_bus_messages_total",
        )
        sums: dict[str, float] = {}
        for process in self.live():
            async with httpx.AsyncClient(timeout=10) as http:
                text = (await http.get(f"{process.url}/metrics")).text
            for line in text.splitlines():
                if line.startswith(wanted):
                    name, value = line.rsplit(" ", 1)
                    sums[name] = sums.get(name, 0) + float(value)
        return sums


def percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"n": 0, "p50": None, "p90": None, "max": None}
    cuts = statistics.quantiles(values, n=10, method="inclusive") if len(values) > 1 else values
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 2),
        "p90": round(cuts[-1], 2),
        "max": round(max(values), 2),
    }


def rerun(args: argparse.Namespace) -> str:
    flags = " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in sorted(vars(args).items()) if v != ""
    )
    return f"python benchmarks/soak.py {flags}"


async def soak(args: argparse.Namespace) -> dict[str, Any]:
    """The whole run on a fresh database and Redis prefix (both removed afterwards)."""
    import asyncpg
    import redis.asyncio as aioredis

    name = f"yamen_soak_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(POSTGRES)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    prefix = f"yamen-soak-{secrets.token_hex(4)}:"
    db = f"{POSTGRES.rpartition('/')[0]}/{name}"
    try:
        with tempfile.TemporaryDirectory() as logs:
            if args.logs:
                logs = args.logs
                Path(logs).mkdir(parents=True, exist_ok=True)
            redis_url = f"{REDIS}/0?prefix={prefix}&lease={args.lease}"
            return await Soak(args).run(db, redis_url, prefix, Path(logs))
    finally:
        admin = await asyncpg.connect(POSTGRES)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
        client = aioredis.from_url(REDIS)
        async for key in client.scan_iter(match=f"{prefix}*"):
            await client.delete(key)
        await client.aclose()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=100)
    p.add_argument("--faults", type=int, default=30)
    p.add_argument("--processes", type=int, default=3)
    p.add_argument("--paused", type=int, default=2, help="rooms nobody is at till the end")
    p.add_argument("--lease", type=float, default=2.0, help="seconds (the Redis URL's lease)")
    p.add_argument("--every", type=float, default=8.0, help="seconds between faults, about")
    p.add_argument("--stop-extra", type=float, default=1.0, help="a SIGSTOP lasts 2 leases + this")
    p.add_argument("--settle", type=float, default=10.0, help="seconds after the last fault")
    p.add_argument("--window", type=float, default=15.0, help="seconds every room must move in")
    p.add_argument("--bot-delay", type=float, default=0.3)
    p.add_argument("--beat", type=float, default=3.0, help="the servers' heartbeat, seconds")
    p.add_argument("--second-person", type=float, default=0.3, help="share of rooms with two")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--logs", default="", help="keep the servers' JSON logs in this folder")
    return p


def main() -> None:
    args = parser().parse_args()
    print(json.dumps(asyncio.run(soak(args)), indent=1))


if __name__ == "__main__":
    main()
