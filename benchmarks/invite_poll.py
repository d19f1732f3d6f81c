"""What a page's ask for its invites costs the server in CPU (docs/server.md, Friends and
invites): ``GET /api/invites`` from a page with no room connection (the lobby), and naming a
room the asker sits in (``here``: what every page at a table asked every 8 s before its
connection told it of invites), beside ``GET /api/me`` for scale. Client and server run in this
one process (the server on uvicorn in a thread, on a temporary SQLite file), so a figure is the
process's CPU time for one request, both ends together: the mean of ``--asks`` asks one after
the other by one signed-in player with a friend.

Before, each ask was an upsert transaction (a write) and a read; now an ask repeated within
SEEN_EVERY is one read (yamen/server/presence.py), and a page at a table does not ask: what
its connection costs instead, with ``--connected N``, is a tick of the tasks for N players
connected to this process (N made up; rooms need not exist): one presence batch with all N
due (as every SEEN_EVERY when they all came at once), and one read of the new invites.

    python benchmarks/invite_poll.py --asks 2000 --connected 5000

Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from yamen.server.app import create_app
from yamen.server.limits import Limits
from yamen.server.storage import Store
from yamen.server.tables import PlayerRow


def cpu_ms(http: httpx.Client, path: str, asks: int) -> float:
    """The process's CPU time per request, in ms, over ``asks`` requests."""
    http.get(path).raise_for_status()  # warm
    start = time.process_time()
    for _ in range(asks):
        http.get(path).raise_for_status()
    return round((time.process_time() - start) / asks * 1000, 2)


def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'poll.db'}", limits=Limits.off())
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        url = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
        try:
            with httpx.Client(base_url=url, timeout=30) as http:
                people = []
                for name in ("Ann", "Bob"):
                    made = http.post("/api/guests", json={"name": name}).json()
                    auth = {"Authorization": f"Bearer {made['token']}"}
                    body = {"name": f"{name}-poll", "password": "correct horse"}
                    http.post("/api/account", json=body, headers=auth).raise_for_status()
                    people.append((made["player"], auth))
                (ann, ann_auth), (bob, bob_auth) = people
                http.put(f"/api/friends/{bob}", headers=ann_auth).raise_for_status()
                http.put(f"/api/friends/{ann}", headers=bob_auth).raise_for_status()
                http.headers.update(ann_auth)
                room = http.post("/api/rooms", json={"game": "baohuang", "seat": 0}).json()
                return {
                    "asks": args.asks,
                    "me_ms": cpu_ms(http, "/api/me", args.asks),
                    "lobby_invites_ms": cpu_ms(http, "/api/invites", args.asks),
                    "here_invites_ms": cpu_ms(http, f"/api/invites?here={room['id']}", args.asks),
                }
        finally:
            server.should_exit = True
            thread.join(30)


class Place:
    def __init__(self, room: str):
        self.id = room


class Connection:
    """A live connection as this process keeps it (yamen/server/revocation.py: Held)."""

    welcomed = True

    def __init__(self, room: str):
        self.room = Place(room)

    def send(self, text: str) -> None:
        pass

    def end(self, code: str, message: str, close: int = 1000) -> None:
        pass


async def ticks(path: Path, players: int) -> dict[str, float]:
    """CPU ms of one presence batch of ``players`` connected players (all due, as every
    SEEN_EVERY when they all connected at once) and of one tick's read of new invites."""
    from yamen.server.invite_news import InviteNews
    from yamen.server.presence import Presence
    from yamen.server.revocation import Sockets

    store = Store(f"sqlite:///{path}")
    await store.open()
    try:
        sockets = Sockets()
        async with store.session.begin() as s:
            for i in range(players):
                s.add(PlayerRow(id=f"p{i}", name=f"P{i}", token_hash=f"h{i}", created=0.0))
        for i in range(players):
            await sockets.hold(store, f"p{i}", Connection(f"r{i % 1000}"), "t", sockets.epoch)
        writer, news = Presence(store, sockets), InviteNews(store, sockets)
        await writer.write_connected()  # warm
        writer.written.clear()
        start = time.process_time()
        await writer.write_connected()
        batch = time.process_time() - start
        await news.tell()  # warm
        start = time.process_time()
        for _ in range(100):
            await news.tell()
        tell = (time.process_time() - start) / 100
        return {
            "presence_batch_ms": round(batch * 1000, 1),
            "invites_tick_ms": round(tell * 1000, 2),
        }
    finally:
        await store.close()


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--asks", type=int, default=500, help="requests of each kind")
    p.add_argument(
        "--connected", type=int, default=0, help="also: one tick's cost for N connected players"
    )
    return p


if __name__ == "__main__":
    args = parser().parse_args()
    figures = main(args)
    if args.connected:
        with tempfile.TemporaryDirectory() as tmp:
            figures["connected"] = args.connected
            figures.update(asyncio.run(ticks(Path(tmp) / "ticks.db", args.connected)))
    print(json.dumps(figures, indent=2))
