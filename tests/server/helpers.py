"""Servers for tests: the real app on uvicorn, in a thread or in a process of its own; and
databases for them: a SQLite file always, a fresh PostgreSQL database when a server is reachable
(as on the CI machine), else a skip that says why."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
import uvicorn

from yamen.client import Lobby, LobbyError, SeatClient
from yamen.server.app import create_app
from yamen.server.limits import Limits
from yamen.server.serve import GuardedHttp, listen

FAST = {
    "bot_delay": 0,
    "turn_seconds": None,
    "away_seconds": 3600,
    "talk_seconds": 0,
    "deal_pause": 0,
}


class ServerThread:
    """The app on uvicorn in a background thread, on a free port of 127.0.0.1. Tests make many
    guests and rooms from this one address: no limits per address or player unless given."""

    def __init__(self, db_url: str, limits: Limits | None = None, **options: Any):
        """``options``: create_app()'s others (``redis_url``, the analysis's budget...)."""
        # no shares: a test signs in and reads pages as fast as it likes (test_shares.py)
        limits = limits or replace(Limits.off(), hashing_share=None, reads_share=None)
        self.app = create_app(db_url, limits=limits, **options)
        # as `yamen serve` runs: its listening socket, its HTTP protocol (the guards, TCP_NODELAY)
        # and asyncio's own loop (serve.py's asyncio.run; uvicorn would pick uvloop)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=0,
            http=GuardedHttp,
            loop="asyncio",
            log_level="warning",
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.socket = listen("127.0.0.1", 0)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """``yamen serve`` as a process of its own, to be killed with SIGKILL."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        redis_url: str | None = None,
        limits: tuple[str, ...] = ("all=off",),  # --limit NAME=VALUE for each
    ):
        self.port = port or free_port()
        self.args = [sys.executable, "-m", "yamen", "serve", "--port", str(self.port)]
        self.args += ["--db", db_url]
        for limit in limits:
            self.args += ["--limit", limit]
        if redis_url:
            self.args += ["--redis", redis_url]
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        self.proc = subprocess.Popen(
            self.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        line = self.proc.stdout.readline()
        if not re.search(r"serving at http://", line):
            self.proc.kill()
            raise RuntimeError(f"yamen serve did not start: {line}{self.proc.stdout.read()}")
        # keep reading what it logs, so that a full pipe never blocks the server
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()
        return self

    def kill(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def room_with(
    base: str,
    game: str,
    options: dict[str, Any] | None = None,
    people: int = 1,
    bot: str = "random",
    settings: dict[str, Any] | None = None,
) -> tuple[str, list[Lobby]]:
    """A room whose first ``people`` seats are guests (the first one hosts) and the rest bots."""
    host = await Lobby.guest(base, "host")
    room = await host.call(
        "POST",
        "/api/rooms",
        {"game": game, "options": options or {}, "settings": settings or FAST, "seat": 0},
    )
    lobbies = [host]
    for seat in range(1, len(room["seats"])):
        if seat < people:
            guest = await Lobby.guest(base, f"p{seat}")
            await guest.call(
                "POST", f"/api/rooms/{room['id']}/seats/{seat}", {"invite": room["invite"]}
            )
            lobbies.append(guest)
        else:
            await host.call("PUT", f"/api/rooms/{room['id']}/seats/{seat}/bot", {"bot": bot})
    return room["id"], lobbies


async def finished_baohuang(base: str) -> tuple[int, Lobby, Lobby]:
    """A one-deal Baohuang game played to its end by two guests (seats 0 and 1, the first one
    hosts) and bots: its id and the two guests."""
    rid, (host, second) = await room_with(base, "baohuang", {"deals": 1}, people=2, bot="rules")
    seats = [await SeatClient.connect(p.ws_url(rid), p.token) for p in (host, second)]
    try:
        await host.call("POST", f"/api/rooms/{rid}/start")
        await play_to_end(seats)
    finally:
        for seat in seats:
            await seat.close()
    return (await host.call("GET", f"/api/rooms/{rid}"))["game_id"], host, second


async def play_to_end(
    seats: list[SeatClient],
    choose: Callable[[SeatClient], int] | None = None,
    timeout: float = 120,
    number: int | None = None,
) -> dict[str, Any]:
    """Every connected seat acts whenever it is asked, until the game is over (game ``number``
    of the room's match, when given: a seat may still hold the last game's table); the
    result."""

    async def player(seat: SeatClient) -> None:
        acted = -1
        while True:
            table = seat.table
            if number is not None and (table is None or table["number"] != number):
                table = None  # the new game has not reached this seat yet
            elif table is not None and table["result"] is not None:
                return
            if table is not None and seat.my_turn() and table["seq"] != acted:
                acted = table["seq"]
                action = choose(seat) if choose else table["legal"][0]
                await seat.send(type="act", action=action, seq=table["seq"])
            seat.arrived.clear()
            if seat.closed:
                raise ConnectionError("closed")
            await seat.arrived.wait()

    async with asyncio.timeout(timeout):
        await asyncio.gather(*(player(s) for s in seats))
    return seats[0].table["result"]


async def watch_until_over(lobby: Lobby, rid: str, polls: int = 600) -> dict[str, Any]:
    """The room's info once its game is over, watched meanwhile: a room nobody is at (no one
    seated, no one connected) plays no bot move, so its bots would wait for ever."""
    watcher = await SeatClient.connect(lobby.ws_url(rid), lobby.token)
    try:
        for _ in range(polls):
            info = await lobby.call("GET", f"/api/rooms/{rid}")
            if info["status"] == "over":
                return info
            await asyncio.sleep(0.05)
    finally:
        await watcher.close()
    raise AssertionError("the game did not end")


POSTGRES = os.environ.get("YAMEN_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def _admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(POSTGRES, timeout=5)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """The URL of a new, empty database on the PostgreSQL server, dropped afterwards."""
    name = f"yamen_test_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f"CREATE DATABASE {name}"))
    except (TimeoutError, OSError, ImportError) as exc:
        pytest.skip(f"no PostgreSQL at {POSTGRES} ({type(exc).__name__}: {exc})")
    base = POSTGRES.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        asyncio.run(_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@contextmanager
def database(kind: str, tmp_path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'yamen.db'}"
    else:
        with fresh_postgres() as url:
            yield url


# Accounts (tests/server/test_accounts.py and the tests of what revoking or deleting does).
PASSWORD = "correct horse"


async def claimed(base: str, name: str, account: str) -> Lobby:
    """A guest named ``name`` who claimed the account ``account`` (password PASSWORD)."""
    lobby = await Lobby.guest(base, name)
    await lobby.call("POST", "/api/account", {"name": account, "password": PASSWORD})
    return lobby


async def signed_in(base: str, account: str, password: str = PASSWORD) -> Lobby:
    """A second device: a lobby signed in to ``account``."""
    lobby = Lobby(base)
    answer = await lobby.call(
        "POST", "/api/account/sessions", {"name": account, "password": password}
    )
    lobby.token, lobby.player = answer["token"], answer["player"]
    return lobby


async def played_against_bots(lobby: Lobby, public: bool = True) -> str:
    """A room where ``lobby``'s player played one Baohuang deal in seat 0 against random bots,
    to its end; the room's id."""
    room = await lobby.call(
        "POST",
        "/api/rooms",
        {
            "game": "baohuang",
            "options": {"deals": 1},
            "public": public,
            "settings": FAST,
            "seat": 0,
        },
    )
    rid = room["id"]
    for seat in range(1, len(room["seats"])):
        await lobby.call("PUT", f"/api/rooms/{rid}/seats/{seat}/bot", {"bot": "random"})
    client = await SeatClient.connect(lobby.ws_url(rid), lobby.token)
    await lobby.call("POST", f"/api/rooms/{rid}/start")
    await play_to_end([client])
    await client.close()
    return rid


def server_on_each_database(request, tmp_path_factory) -> Iterator[ServerThread]:
    """A module's server on each database in turn: wrap it as the module's fixture,
    ``server = pytest.fixture(scope="module", params=["sqlite", "postgres"])(...)``."""
    with (
        database(request.param, tmp_path_factory.mktemp("db")) as url,
        ServerThread(url) as server,
    ):
        yield server


async def refusal(lobby: Lobby, method: str, path: str, body: Any = None) -> LobbyError:
    """The lobby's refusal of a call that must be refused."""
    try:
        await lobby.call(method, path, body)
    except LobbyError as exc:
        return exc
    raise AssertionError(f"{method} {path} was not refused")
