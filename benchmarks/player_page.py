"""How long a player's page takes as their games grow, and what it does to other requests
(issue 23: with 40k games, ``GET /api/players/bot:rules`` took 2.1-2.7 s on the event loop).

Writes a temporary SQLite database at migration 0007 (before the figures were kept) holding
``--games`` finished public Baohuang games of one person and four ``rules`` bots, each with its
outcome rows, then starts ``yamen serve`` on it (whichever ``yamen`` is first on the path: run
it from an older checkout with ``PYTHONPATH`` set to it to measure that one), which upgrades the
database as it starts (from 0009 on, the figures are filled from the outcomes: timed as the
start-up). Then: ``--pages`` requests of ``GET /api/players/bot:rules`` one after the other
(median and max), and for ``--seconds`` seconds, four clients asking for that page without
pause while a fifth asks ``GET /api/rooms`` (its median and max: the other requests' wait).
A 429 (the heavy reads' share spent) is counted and waited out for its Retry-After.

    python benchmarks/player_page.py --games 40000

Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from alembic import command
from loadkit.servers import serving

from yamen.server.migrate import config


def write(path: Path, games: int) -> None:
    """The database at 0007 with ``games`` rated games of "p" and four rules bots."""
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        command.upgrade(config(conn), "0007")
        conn.execute(sa.text("INSERT INTO players VALUES ('p', 'P', 'h', 0)"))
        conn.execute(
            sa.text("INSERT INTO rooms VALUES ('r', 'baohuang', '{}', 1, 'i', 'p', '{}', 0)")
        )
        result = json.dumps(
            {"places": [0, 1, 2, 3, 4], "winners": [0], "scores": [4, -1, -1, -1, -1]}
        )
        conn.execute(
            sa.text(
                "INSERT INTO games (id, public_id, room_id, number, players, game, options, "
                "seed, result, started, finished) VALUES (:id, :pid, 'r', :id, "
                "'[\"p\", null, null, null, null]', 'baohuang', '{}', 1, :result, :at, :at)"
            ),
            [
                {"id": n, "pid": f"g{n}", "result": result, "at": float(n)}
                for n in range(1, games + 1)
            ],
        )
        conn.execute(
            sa.text(
                "INSERT INTO outcomes VALUES (:game, :seat, :who, 'baohuang', :place, :score, "
                ":won, 0, :at)"
            ),
            [
                {
                    "game": n,
                    "seat": seat,
                    "who": "bot:rules" if seat else "p",
                    "place": seat + 1,
                    "score": 4.0 if seat == 0 else -1.0,
                    "won": seat == 0,
                    "at": float(n),
                }
                for n in range(1, games + 1)
                for seat in range(5)
            ],
        )
        for who in ("p", "bot:rules"):
            conn.execute(
                sa.text("INSERT INTO ratings VALUES (:who, 'baohuang', 25, 8, :games, 0)"),
                {"who": who, "games": games},
            )
    engine.dispose()


async def timed(http: httpx.AsyncClient, path: str, refused: list[int] | None = None) -> float:
    """The seconds a GET took; a 429 (the heavy reads' share spent: yamen/server/share.py) is
    counted in ``refused`` where one is given, and waited out for its Retry-After."""
    start = time.perf_counter()
    answer = await http.get(path)
    took = time.perf_counter() - start
    if answer.status_code == 429 and refused is not None:
        refused.append(1)
        await asyncio.sleep(float(answer.headers.get("Retry-After", 1)))
        return took
    answer.raise_for_status()
    return took


async def measure(args: argparse.Namespace, url: str) -> dict[str, Any]:
    page = "/api/players/bot:rules"
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        shown = (await http.get(page)).json()
        alone = [await timed(http, page) for _ in range(args.pages)]
        stop = time.monotonic() + args.seconds
        others: list[float] = []
        pages = 0
        refused: list[int] = []
        others_refused: list[int] = []

        async def reader() -> None:
            nonlocal pages
            while time.monotonic() < stop:
                before = len(refused)
                await timed(http, page, refused)
                pages += len(refused) == before

        async def other() -> None:
            while time.monotonic() < stop:
                others.append(await timed(http, "/api/rooms", others_refused))
                await asyncio.sleep(0.02)

        await asyncio.gather(*(reader() for _ in range(4)), other())
    return {
        "played": shown["games"][0]["played"],
        "page_ms": {"median": ms(statistics.median(alone)), "max": ms(max(alone))},
        "pages_read_meanwhile": pages,
        "pages_refused_meanwhile": len(refused),
        "other_requests_ms": {"median": ms(statistics.median(others)), "max": ms(max(others))},
        "other_requests_refused": len(others_refused),
    }


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


async def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "pages.db"
        write(path, args.games)
        async with serving(f"sqlite:///{path}", "--limit", "all=off") as (url, start_up):
            return {
                "games": args.games,
                "start_up_s": round(start_up, 1),
                **await measure(args, url),
            }


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=40_000, help="games of bot:rules stored")
    p.add_argument("--pages", type=int, default=10, help="pages asked for one after the other")
    p.add_argument("--seconds", type=float, default=10.0, help="seconds of four page readers")
    return p


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(parser().parse_args())), indent=2))
