"""How much a burst of wrong sign-ins delays a room of rules bots (issue 23).

Starts ``yamen serve`` (whichever ``yamen`` is first on the path: run it with
``PYTHONPATH=<an older checkout>`` to measure that one) on a temporary SQLite file, with its
default limits. A Baohuang room of five ``rules`` bots plays at ``--bot-delay``, watched by one
spectator connection, which notes when each ``update`` arrives. After ``--quiet`` seconds,
``--burst`` wrong sign-ins (each at a name of its own, so each costs an Argon2 check) are sent
at once from ``--addresses`` loopback addresses (127.0.1.x: the server's limits per address
count each apart). The room's longest gap between two updates, less the bot delay, is its
stall: in the quiet seconds before and in the ``--window`` seconds from the burst on. Also the
sign-ins' answers by status and the time until the last one was answered.

    python benchmarks/sign_in_burst.py --burst 80 --addresses 8

Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from loadkit.servers import serving


async def spectate(ws_url: str, token: str, arrivals: list[float], stop: asyncio.Event) -> None:
    async with websockets.connect(ws_url, max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        while not stop.is_set():
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except TimeoutError:
                continue
            if frame["type"] == "update":
                arrivals.append(time.monotonic())


async def sign_in(url: str, address: str, name: str) -> tuple[int, float]:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=120) as http:
        got = await http.post(
            "/api/account/sessions", json={"name": name, "password": "wrong password"}
        )
        return got.status_code, time.monotonic()


def stall(arrivals: list[float], start: float, end: float, delay: float) -> float:
    """The longest gap between updates within [start, end], less the bot delay."""
    inside = [t for t in arrivals if start <= t <= end]
    gaps = [b - a for a, b in zip(inside, inside[1:], strict=False)]
    return max(0.0, max(gaps, default=0.0) - delay)


async def measure(args: argparse.Namespace, url: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        guest = (await http.post("/api/guests", json={"name": "Host"})).json()
        auth = {"Authorization": f"Bearer {guest['token']}"}
        settings = {"bot_delay": args.bot_delay, "deal_pause": 0, "turn_seconds": None}
        body = {"game": "baohuang", "options": {"deals": 50}, "settings": settings}
        room = (await http.post("/api/rooms", json=body, headers=auth)).json()
        await http.post(f"/api/rooms/{room['id']}/bots", json={"bot": "rules"}, headers=auth)
        arrivals: list[float] = []
        stop = asyncio.Event()
        ws_url = url.replace("http", "ws") + f"/ws/rooms/{room['id']}"
        watcher = asyncio.create_task(spectate(ws_url, guest["token"], arrivals, stop))
        await asyncio.sleep(0.5)
        await http.post(f"/api/rooms/{room['id']}/start", headers=auth)
        begun = time.monotonic()
        await asyncio.sleep(args.quiet)
        burst = time.monotonic()
        addresses = [f"127.0.1.{i + 1}" for i in range(args.addresses)]
        answers = await asyncio.gather(
            *(sign_in(url, addresses[i % len(addresses)], f"nobody{i}") for i in range(args.burst))
        )
        await asyncio.sleep(max(0.0, burst + args.window - time.monotonic()))
        stop.set()
        await watcher
    return {
        "burst": args.burst,
        "addresses": args.addresses,
        "bot_delay": args.bot_delay,
        "updates": len(arrivals),
        "stall_quiet_s": round(stall(arrivals, begun + 0.5, burst, args.bot_delay), 3),
        "stall_burst_s": round(stall(arrivals, burst, burst + args.window, args.bot_delay), 3),
        "sign_ins": dict(collections.Counter(status for status, _ in answers)),
        "last_answer_s": round(max(at for _, at in answers) - burst, 3),
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        async with serving(f"sqlite:///{Path(tmp) / 'burst.db'}", seconds=60) as (url, _):
            return await measure(args, url)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--burst", type=int, default=80, help="wrong sign-ins sent at once")
    p.add_argument("--addresses", type=int, default=8, help="loopback addresses they come from")
    p.add_argument("--bot-delay", type=float, default=0.2, help="the room's bot_delay")
    p.add_argument("--quiet", type=float, default=4.0, help="seconds measured before the burst")
    p.add_argument("--window", type=float, default=12.0, help="seconds measured from the burst")
    return p


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(parser().parse_args())), indent=2))
