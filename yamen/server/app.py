"""The ASGI app: the lobby (HTTP), live play (WebSocket) and, later, the browser client."""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from yamen.server import errors
from yamen.server.live import live
from yamen.server.lobby import router
from yamen.server.registry import Rooms
from yamen.server.replays import Replays
from yamen.server.storage import StartupError, Store
from yamen.server.thinking import DEFAULT_SECONDS, Thinker

MAX_BODY = 64 * 1024
WEB = Path(__file__).parent.parent / "web"


def create_app(
    db_url: str,
    redis_url: str | None = None,
    *,
    bot_workers: int = 0,
    bot_seconds: float = DEFAULT_SECONDS,
) -> FastAPI:
    """The server on the database at ``db_url`` (``sqlite:///file.db`` or
    ``postgresql://...``); the schema is migrated when it starts. ``redis_url`` lets several
    processes share the rooms (yamen/server/cluster.py). Bots think in ``bot_workers``
    processes (0: a thread of this one) for at most ``bot_seconds`` a decision
    (yamen/server/thinking.py)."""
    thinker = Thinker(bot_workers, bot_seconds)  # checked now, not when the server starts

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        store = Store(db_url)
        try:
            if redis_url is None:
                await store.open()
                app.state.rooms = Rooms(store, thinker)
            else:
                from yamen.server.cluster import ClusterRooms

                app.state.rooms = ClusterRooms(store, redis_url)
                app.state.rooms.thinker = thinker
                await app.state.rooms.open_store()
        except StartupError as exc:
            app.state.startup_error = str(exc)  # `yamen serve` exits with it
            await store.engine.dispose()
            raise
        thinker.start()
        await app.state.rooms.resume()
        app.state.replays = Replays()
        yield
        app.state.replays.close()
        await app.state.rooms.close()
        thinker.close()
        await store.close()

    app = FastAPI(title="Yamen", version="1", lifespan=lifespan)
    errors.install(app)
    app.include_router(router)
    app.add_api_websocket_route("/ws/rooms/{room_id}", live)
    # The browser client: plain files, no build step (yamen/web/). Mounted last: routes first.
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Any:
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            message = f"a request body is at most {MAX_BODY} bytes"
            return JSONResponse({"detail": {"code": "too_large", "message": message}}, 413)
        return await call_next(request)

    return app
