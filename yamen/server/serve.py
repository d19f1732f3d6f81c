"""``yamen serve``: the app on uvicorn, with the defaults a laptop needs (a SQLite file here)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

import uvicorn

from yamen.server.app import create_app
from yamen.server.live import MAX_FRAME
from yamen.server.storage import default_url
from yamen.server.thinking import DEFAULT_SECONDS, default_workers


def serve(
    host: str,
    port: int,
    db: str | None,
    redis: str | None,
    announce: Callable[[str], None] = print,
    bot_workers: int | None = None,
    bot_seconds: float = DEFAULT_SECONDS,
) -> None:
    workers = default_workers() if bot_workers is None else bot_workers
    app = create_app(db or default_url(), redis, bot_workers=workers, bot_seconds=bot_seconds)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=4 * MAX_FRAME,  # bigger frames are cut off; smaller ones get a clear error
        # Frames are small JSON: compressing them costs each connection ~250 KiB of deflate
        # state and CPU per frame, for bandwidth a card table does not need.
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    # A server holds many long-lived game states; the collector's full passes over them stall
    # every room at once (hundreds of ms with 1,000 rooms). Fewer, later passes; what exists at
    # start-up (modules, tables) is never scanned again.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)

    tasks: list[asyncio.Task] = []

    async def run() -> None:
        task = asyncio.create_task(server.serve())
        tasks.append(task)
        while not server.started:
            if task.done():
                return await task
            await asyncio.sleep(0.05)
        bound = server.servers[0].sockets[0].getsockname()[1] if port == 0 else port
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
        announce(f"http://{shown}:{bound}/")
        await task

    try:
        asyncio.run(run())
    except SystemExit:
        if server.started:
            raise
        # uvicorn exits from inside its task when start-up fails (yamen/server/storage.py
        # refused the database): say why, last, and exit non-zero
        for task in tasks:
            if task.done():
                task.exception()  # retrieved: no "never retrieved" noise
        problem = getattr(app.state, "startup_error", "see the log above")
        raise SystemExit(f"yamen serve: cannot start: {problem}") from None
