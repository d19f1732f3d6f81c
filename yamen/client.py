"""A small asyncio client of Yamen's server: the lobby over HTTP and one seat (or a spectator)
over the live protocol (docs/protocol.md). The tests, the load generator and anyone who wants a
program to play on a server use it; it knows no game by name.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from yamen.wire import VERSION


class Lobby:
    """The HTTP lobby, as one guest (or anonymously)."""

    def __init__(self, base: str, token: str | None = None):
        self.base = base.rstrip("/")
        self.token = token
        self.player: str | None = None  # the guest's id, once :meth:`guest` has made one
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30)

    @classmethod
    async def guest(cls, base: str, name: str) -> Lobby:
        lobby = cls(base)
        guest = await lobby.call("POST", "/api/guests", {"name": name})
        lobby.token, lobby.player = guest["token"], guest["player"]
        return lobby

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        """The JSON answer; :class:`LobbyError` (status, code, message) on a refusal."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        answer = await self.http.request(method, path, json=body, headers=headers)
        data = answer.json() if answer.content else None
        if answer.status_code >= 400:
            detail = (data or {}).get("detail")
            code = detail.get("code") if isinstance(detail, dict) else "invalid"
            params = detail.get("params") if isinstance(detail, dict) else None
            raise LobbyError(answer.status_code, code, json.dumps(detail), params)
        return data

    async def close(self) -> None:
        await self.http.aclose()

    def ws_url(self, room: str) -> str:
        return self.base.replace("http", "ws", 1) + f"/ws/rooms/{room}"


class LobbyError(Exception):
    def __init__(
        self, status: int, code: str | None, message: str, params: dict[str, Any] | None = None
    ):  # code None: a refusal without one; params: its variable parts
        self.status, self.code, self.params = status, code, params or {}
        super().__init__(f"{status} {code}: {message}")


def joined(mine: dict[str, Any] | None, table: dict[str, Any] | None) -> dict[str, Any] | None:
    """The table a frame brings, whole: an update's lists sent by their new items
    (``appended``) joined to those of ``mine``, the table held (docs/protocol.md). None when
    they cannot be: ``mine`` is not this game's table at this step or the one before (an update
    was missed: ask for the state)."""
    if table is None or not table.get("appended"):
        return table
    if mine is None or mine["number"] != table["number"]:
        return None
    if table["seq"] - mine["seq"] not in (0, 1):
        return None
    view = dict(table["view"])
    for key, kept in table["appended"].items():
        view[key] = mine["view"][key][:kept] + view[key]
    return {**table, "view": view}


class SeatClient:
    """One live connection: every frame received is kept in ``frames``; ``table`` is the
    latest table (view, pending, legal, seq) the server sent."""

    def __init__(self, ws: Any):
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.table: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.seat: int | None = None
        self.arrived = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def connect(
        cls, url: str, token: str | None = None, invite: str | None = None, **hello: Any
    ) -> SeatClient:
        ws = await websockets.connect(url, max_size=2**24)
        await ws.send(
            json.dumps({"type": "hello", "v": VERSION, "token": token, "invite": invite, **hello})
        )
        seat = cls(ws)
        await seat.wait(lambda f: f["type"] in ("state", "error"))
        return seat

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                frame = json.loads(text)
                self.frames.append(frame)
                kind = frame["type"]
                if kind == "welcome":
                    self.seat = frame["seat"]
                elif kind in ("state", "update"):
                    table = joined(self.table, frame["table"])
                    if table is None and frame["table"] is not None:  # an update in parts,
                        # past the next step: the whole table again
                        await self.ws.send(json.dumps({"type": "sync"}))
                    else:
                        frame["table"] = self.table = table
                        self.room = frame.get("room", self.room)
                elif kind == "room":
                    self.room = frame["room"]
                elif kind == "presence" and self.room is not None:
                    seat = self.room["seats"][frame["seat"]]
                    seat.update(online=frame["online"], away=frame["away"])
                self.arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.arrived.set()

    @property
    def closed(self) -> bool:
        return self.reader.done()

    async def send(self, **frame: Any) -> None:
        await self.send_raw(json.dumps(frame))

    async def send_raw(self, data: str | bytes) -> None:
        """Send a frame; ConnectionError when the connection is gone (as when reading)."""
        try:
            await self.ws.send(data)
        except websockets.ConnectionClosed as exc:
            raise ConnectionError("the server closed the connection") from exc

    async def wait(self, match: Any, timeout: float = 30, start: int = 0) -> dict[str, Any]:
        """The first frame from index ``start`` on for which ``match(frame)`` is true."""
        async with asyncio.timeout(timeout):
            index = start
            while True:
                while index < len(self.frames):
                    if match(self.frames[index]):
                        return self.frames[index]
                    index += 1
                if self.closed:
                    raise ConnectionError("the server closed the connection")
                self.arrived.clear()
                await self.arrived.wait()

    async def request(self, timeout: float = 30, **frame: Any) -> dict[str, Any]:
        """Send a frame with a fresh id; its ``ack`` or ``error``."""
        frame_id = f"r{len(self.frames)}-{id(frame)}"
        start = len(self.frames)
        await self.send(**frame, id=frame_id)
        return await self.wait(
            lambda f: f["type"] in ("ack", "error") and f.get("id") == frame_id, timeout, start
        )

    def my_turn(self) -> bool:
        table = self.table
        return bool(table and table["result"] is None and table["legal"])

    async def close(self) -> None:
        await self.ws.close()
        await asyncio.gather(self.reader, return_exceptions=True)
