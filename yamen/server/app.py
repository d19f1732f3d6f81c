"""The ASGI app: the lobby (HTTP), live play (WebSocket), the browser client's static files,
metrics and the limits around them."""

from __future__ import annotations

import asyncio
import contextlib
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from yamen.server import (
    account_api,
    analysis_api,
    api_docs,
    errors,
    friends,
    game_api,
    invites,
    joining,
    passwords,
    play_now,
    share,
)
from yamen.server.analysis import DEFAULT_JOBS, DEFAULT_PLAYOUTS, Analyses, check_budget
from yamen.server.beats import Heartbeat
from yamen.server.chat import sweep_old_chat
from yamen.server.guesses import Guesses
from yamen.server.invite_news import InviteNews
from yamen.server.invite_store import sweep_old_invites
from yamen.server.limits import Limiter, Limits, per_address
from yamen.server.live import live
from yamen.server.lobby import router
from yamen.server.metrics import CONTENT_TYPE
from yamen.server.presence import Presence
from yamen.server.ratings import rate_unrated
from yamen.server.registry import Rooms
from yamen.server.replays import Replays
from yamen.server.share import Budget, Reads
from yamen.server.standings import router as standings
from yamen.server.storage import StartupError, Store
from yamen.server.thinking import DEFAULT_SECONDS, Thinker
from yamen.server.turns import Turns
from yamen.server.watchdog import Watchdog

MAX_BODY = 64 * 1024
WEB = Path(__file__).parent.parent / "web"


def create_app(
    db_url: str,
    redis_url: str | None = None,
    *,
    bot_workers: int = 0,
    bot_seconds: float = DEFAULT_SECONDS,
    limits: Limits | None = None,
    analysis_playouts: int = DEFAULT_PLAYOUTS,
    analysis_jobs: int = DEFAULT_JOBS,
    analysis_workers: int | None = None,
) -> FastAPI:
    """The server on the database at ``db_url`` (``sqlite:///file.db`` or
    ``postgresql://...``); the schema is migrated when it starts. ``redis_url`` lets several
    processes share the rooms (yamen/server/cluster/). Bots think in ``bot_workers``
    processes (0: a thread of this one) for at most ``bot_seconds`` a decision
    (yamen/server/thinking.py). ``limits``: those per address and per player
    (yamen/server/limits.py); the defaults suit a public server. Post-game analyses get
    ``analysis_playouts`` playouts a decision, valued by ``analysis_jobs`` worker processes:
    a pool here, the jobs taking turns (yamen/server/analysis.py), or with ``redis_url`` the
    cluster's job queue, where this process starts ``analysis_workers`` (default
    ``analysis_jobs``; 0: none, the queue's workers run elsewhere) worker processes
    (yamen/server/analysis_queue.py)."""
    limits = limits or Limits()
    thinker = Thinker(bot_workers, bot_seconds)  # checked now, not when the server starts
    thinker.bot_pace = limits.bot_pace or 0.0  # tables of bots alone: yamen/server/driver.py
    passwords.HASHING.budget.share = limits.hashing_share  # the process's hashing threads' share
    check_budget(analysis_playouts, analysis_jobs)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        if redis_url is None:
            rooms = Rooms(Store(db_url), thinker)
        else:
            from yamen.server.cluster import ClusterRooms

            rooms = ClusterRooms(db_url, redis_url, thinker)
        store = rooms.store
        try:
            await rooms.open_store()
        except StartupError as exc:
            app.state.startup_error = str(exc)  # `yamen serve` exits with it
            await store.engine.dispose()
            raise
        rooms.most_open = limits.open_rooms  # checked as a room is stored
        app.state.rooms = rooms
        thinker.start()
        await app.state.rooms.resume()
        app.state.replays = Replays()
        if redis_url is None:  # analysed in this process's pool of workers
            app.state.analyses = Analyses(
                store, analysis_playouts, analysis_jobs, limiter=app.state.limiter
            )
        else:  # on the cluster's shared job queue
            from yamen.server.analysis_queue import QueuedAnalyses
            from yamen.server.cluster import cluster_settings

            url, prefix, _ = cluster_settings(redis_url)
            app.state.analyses = QueuedAnalyses(
                store,
                url,
                prefix,
                analysis_playouts,
                analysis_jobs,
                analysis_workers,
                quota=limits.analysis_decisions,
            )
            app.state.analyses.start_workers()
        # every connection hears from its room at least every beat_seconds (yamen/server/beats.py)
        heartbeat = app.state.heartbeat = Heartbeat(rooms, limits.beat_seconds)
        rooms.metrics.watch(rooms.metrics.silent, lambda: len(heartbeat.silent(time.monotonic())))
        # friends: where this process's players are and their new invites, from their
        # connections, a batch a tick (yamen/server/presence.py, invite_news.py)
        app.state.presence = Presence(store, rooms.sockets)
        background = [
            asyncio.create_task(heartbeat.run()),
            asyncio.create_task(app.state.presence.run()),
            asyncio.create_task(InviteNews(store, rooms.sockets).run()),
            asyncio.create_task(Watchdog(app.state.rooms, heartbeat=heartbeat).run()),
            asyncio.create_task(rate_unrated(store)),  # games finished before ratings existed
            asyncio.create_task(sweep_old_chat(store)),  # a room's chat is kept a week at most
            asyncio.create_task(sweep_old_invites(store)),  # kept an hour, to be counted
        ]
        if limits.idle_seconds is not None:
            background.append(asyncio.create_task(app.state.rooms.unload_idle(limits.idle_seconds)))
        yield
        for task in background:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        app.state.replays.close()
        await app.state.analyses.close()
        await app.state.rooms.close()
        thinker.close()
        await store.close()

    app = FastAPI(title="Yamen", version="1", lifespan=lifespan, docs_url=None, redoc_url=None)
    errors.install(app)
    api_docs.install(app)  # /docs and /redoc with their scripts from here, not from a CDN
    app.state.limiter = Limiter(limits)
    app.state.guesses = Guesses(limits.sign_ins)  # wrong passwords: yamen/server/guesses.py
    # player pages, leaderboards, the public rooms: a share of the loop (yamen/server/share.py)
    app.state.reads = {
        kind: Reads(Budget(limits.reads_share, share.READS_BURST)) for kind in share.READS
    }
    app.include_router(router, dependencies=[Depends(per_address("lobby"))])
    app.include_router(standings, dependencies=[Depends(per_address("lobby"))])
    app.include_router(account_api.router, dependencies=[Depends(per_address("lobby"))])
    app.include_router(game_api.router, dependencies=[Depends(per_address("lobby"))])
    app.include_router(analysis_api.router, dependencies=[Depends(per_address("lobby"))])
    app.include_router(play_now.router, dependencies=[Depends(per_address("lobby"))])
    app.include_router(joining.router, dependencies=[Depends(per_address("lobby"))])
    app.include_router(friends.router, dependencies=[Depends(per_address("lobby"))])
    app.include_router(invites.router, dependencies=[Depends(per_address("lobby"))])
    app.add_api_websocket_route("/ws/rooms/{room_id}", live)
    # Outside /api: a scrape is not a lobby call, and the lobby's rate limit does not count it.
    app.add_api_route("/metrics", metrics, include_in_schema=False)
    # The browser client: plain files, no build step (yamen/web/). Mounted last: routes first.
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")

    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(Turns)  # outermost: a crowd of requests begins one a turn (turns.py)
    return app


async def metrics(request: Request) -> Response:
    """This process's counters in the Prometheus text format (yamen/server/metrics.py)."""
    rooms = getattr(request.app.state, "rooms", None)
    if rooms is None:
        return Response("starting\n", 503, media_type="text/plain")
    return Response(rooms.metrics.text(), media_type=CONTENT_TYPE)


class BodyLimit:
    """Refuses (413) a request body over ``limit`` bytes, counting the bytes that arrive, not
    the ``Content-Length`` a client declares: a chunked body has none. A body is small here, so
    it is read whole before the app sees it; the app gets it as one message."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await self.refuse(scope, receive, send)
        body, more = [], True
        size = 0
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body.append(message.get("body", b""))
            size += len(body[-1])
            if size > self.limit:
                return await self.refuse(scope, receive, send)
            more = message.get("more_body", False)
        whole: Message | None = {"type": "http.request", "body": b"".join(body)}

        async def replay() -> Message:
            nonlocal whole
            if whole is None:
                return await receive()  # after the body: only the disconnect is left
            message, whole = whole, None
            return message

        await self.app(scope, replay, send)

    async def refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"a request body is at most {self.limit} bytes"
        answer = JSONResponse({"detail": {"code": "too_large", "message": message}}, 413)
        await answer(scope, receive, send)
