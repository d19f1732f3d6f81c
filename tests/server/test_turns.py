"""Requests take turns with the tables (yamen/server/turns.py): a crowd of requests ready in one
turn of the event loop begins one a turn, in order; a lone one at once."""

from __future__ import annotations

import asyncio

from yamen.server.app import create_app
from yamen.server.turns import Turns


class Recorder:
    """An ASGI app that notes the loop's turn each request begins in (a ticker counts turns)."""

    def __init__(self):
        self.turn = 0
        self.began: list[tuple[str, int]] = []

    def tick(self) -> None:
        self.turn += 1
        asyncio.get_running_loop().call_soon(self.tick)

    async def __call__(self, scope, receive, send) -> None:
        self.began.append((scope["path"], self.turn))


def request(path: str, kind: str = "http") -> dict:
    return {"type": kind, "path": path}


async def nothing():
    return {}


async def noted(send_to):
    pass


def crowd(app, paths: list[str], kind: str = "http") -> list[asyncio.Task]:
    """The requests, all ready in this turn."""
    return [asyncio.ensure_future(app(request(p, kind), nothing, noted)) for p in paths]


def test_a_crowd_begins_one_request_a_turn_in_order():
    async def go():
        inner = Recorder()
        inner.tick()
        turns = Turns(inner)
        paths = [f"/r{i}" for i in range(6)]
        await asyncio.gather(*crowd(turns, paths), *crowd(turns, ["/ws"], "websocket"))
        return inner.began

    began = asyncio.run(go())
    assert [path for path, _ in began] == [*(f"/r{i}" for i in range(6)), "/ws"]
    at = [turn for _, turn in began]
    assert all(b > a for a, b in zip(at, at[1:], strict=False)), at


def test_without_turns_the_crowd_begins_in_one_turn():
    """What the middleware is for: asyncio runs every ready request in the same turn."""

    async def go():
        inner = Recorder()
        inner.tick()
        await asyncio.gather(*crowd(inner, [f"/r{i}" for i in range(6)]))
        return {turn for _, turn in inner.began}

    assert len(asyncio.run(go())) == 1


def test_a_lone_request_begins_at_once_and_lifespan_passes():
    async def go():
        inner = Recorder()
        inner.tick()
        turns = Turns(inner)
        now = inner.turn
        await turns(request("/one"), nothing, noted)
        await turns({"type": "lifespan", "path": "-"}, nothing, noted)
        # the turn is taken by /one until the next turn; lifespan does not wait for it
        return now, inner.began

    now, began = asyncio.run(go())
    assert began == [("/one", now), ("-", now)]


def test_a_request_gone_while_waiting_is_passed_by():
    async def go():
        inner = Recorder()
        inner.tick()
        turns = Turns(inner)
        tasks = crowd(turns, ["/a", "/gone", "/b"])
        await asyncio.sleep(0)  # /a has begun; the others wait
        tasks[1].cancel()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 5)
        return [path for path, _ in inner.began]

    assert asyncio.run(go()) == ["/a", "/b"]


def test_a_new_event_loop_is_not_held_by_a_turn_the_last_one_took():
    inner = Recorder()
    turns = Turns(inner)

    async def one(path: str):
        inner.tick()
        await turns(request(path), nothing, noted)

    asyncio.run(one("/first"))  # its loop ends with its turn taken
    asyncio.run(asyncio.wait_for(one("/second"), 5))
    assert [path for path, _ in inner.began] == ["/first", "/second"]


def test_the_server_app_takes_turns_before_anything_else(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 't.db'}")
    assert app.user_middleware[0].cls is Turns
