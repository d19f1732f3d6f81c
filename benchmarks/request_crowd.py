"""How long a crowd of lobby requests keeps the event loop from the tables (issue 23).

Starts ``yamen serve`` (whichever ``yamen`` this Python imports) on a temporary SQLite file with
every limit per address off (``--limit all=off``; ``--server-arg`` adds flags). A probe, in a
process of its own, holds a WebSocket to a room and measures the round trip of a WebSocket
ping every ``--every`` seconds: the server answers a ping on its event loop, so the round trip
is how long the loop keeps a table waiting. First ``--seconds`` quiet, then as long again while
``--crowd`` clients on ``--connections`` kept-alive connections each send a wrong sign-in to
one account (``--ask sign_in``; ``games``: ``GET /api/games``, no password check) and send it
again as soon as it is answered, a 429 waited out as its Retry-After says (``loadkit.site.hammer``,
as benchmarks/load.py's ``sign_ins`` does): the refused ones come back together and are sent
again together.

    python benchmarks/request_crowd.py --crowd 40 --connections 8
    python benchmarks/request_crowd.py --server-arg=--limit --server-arg=hashing_share=0.0001

Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
from loadkit.client import ws_connect
from loadkit.measure import percentile
from loadkit.servers import serving
from loadkit.site import hammer

PASSWORD = "the right password"


async def probe(url: str, room: str, token: str, seconds: float, every: float) -> list[float]:
    """Ping round trips in ms, for ``seconds``."""
    trips = []
    async with await ws_connect(url, room) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        while json.loads(await ws.recv())["type"] != "state":
            pass
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            began = time.perf_counter()
            await (await ws.ping())
            trips.append((time.perf_counter() - began) * 1000)
            await asyncio.sleep(every)
    return trips


async def probed(args: argparse.Namespace, url: str, room: str, token: str) -> list[float]:
    """The probe's round trips, measured in a process of its own (this one's loop is busy
    with the crowd)."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--probe",
        url,
        room,
        token,
        str(args.seconds),
        str(args.every),
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await child.communicate()
    return json.loads(out)


async def measure(args: argparse.Namespace, url: str) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=args.connections)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        guest = (await http.post("/api/guests", json={"name": "owner"})).json()
        auth = {"Authorization": f"Bearer {guest['token']}"}
        name = "crowded"
        await http.post("/api/account", json={"name": name, "password": PASSWORD}, headers=auth)
        room = (await http.post("/api/rooms", json={"game": "baohuang"}, headers=auth)).json()
        wrong = {"name": name, "password": "not the password"}
        asks = {
            "sign_in": lambda: http.post("/api/account/sessions", json=wrong),
            "games": lambda: http.get("/api/games"),
        }
        figures: dict[str, Any] = {"clients": args.crowd, "ask": args.ask}
        for phase, crowd in (("quiet", 0), ("crowd", args.crowd)):
            answers = SimpleNamespace(counts={}, refused={})  # what hammer() counts
            tasks = [
                asyncio.create_task(hammer(answers, args.ask, asks[args.ask])) for _ in range(crowd)
            ]
            await asyncio.sleep(args.settle)
            answers.counts.clear()
            answers.refused.clear()
            trips = sorted(await probed(args, url, room["id"], guest["token"]))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            figures[phase] = {
                "pings": len(trips),
                **{
                    f"{name}_ms": round(percentile(trips, p), 2)
                    for name, p in (("p50", 50), ("p99", 99), ("p999", 99.9), ("max", 100))
                },
                "answers": {**answers.counts, **answers.refused},
            }
    return figures


async def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'crowd.db'}"
        async with serving(db, "--limit", "all=off", *args.server_arg, seconds=60) as (url, _):
            return await measure(args, url)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--crowd", type=int, default=40, help="clients asking again and again")
    p.add_argument("--connections", type=int, default=8, help="kept-alive connections they share")
    p.add_argument("--ask", choices=("sign_in", "games"), default="sign_in")
    p.add_argument("--seconds", type=float, default=15.0, help="seconds each phase is probed")
    p.add_argument("--every", type=float, default=0.003, help="seconds between two pings")
    p.add_argument("--settle", type=float, default=2.0, help="seconds of crowd before probing")
    p.add_argument("--server-arg", action="append", default=[], help="a flag for yamen serve")
    return p


if __name__ == "__main__":
    if sys.argv[1:2] == ["--probe"]:
        url, room, token, seconds, every = sys.argv[2:7]
        print(json.dumps(asyncio.run(probe(url, room, token, float(seconds), float(every)))))
    else:
        print(json.dumps(asyncio.run(main(parser().parse_args())), indent=2))
