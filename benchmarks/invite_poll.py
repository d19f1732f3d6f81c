"""What a page's ask for its invites costs the server in CPU (docs/server.md, Friends and
invites): ``GET /api/invites`` from a page with no room connection (the lobby), and naming a
room the asker sits in (``here``: what every page at a table asked every 8 s before its
connection told it of invites), beside ``GET /api/me`` for scale. Client and server run in this
one process (the server on uvicorn in a thread, on a temporary SQLite file), so a figure is the
process's CPU time for one request, both ends together: the mean of ``--asks`` asks one after
the other by one signed-in player with a friend.

Before, each ask was an upsert transaction (a write) and a read; now an ask repeated within
SEEN_EVERY is one read (yamen/server/presence.py), and a page at a table does not ask.

    python benchmarks/invite_poll.py --asks 2000

Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
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


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--asks", type=int, default=500, help="requests of each kind")
    return p


if __name__ == "__main__":
    print(json.dumps(main(parser().parse_args()), indent=2))
