"""The baseline of bot pace: WebSocket fan-out with no game and no storage, on uvicorn in a
process of its own. Its "room" takes an ``act`` from the seat whose turn it is (seats take
turns), acknowledges it as Yamen does, and sends each connection an update of the same shape and
size as Yamen's (samples of the update frames Yamen sent in the same run, with ``seq``,
``pending`` and ``legal`` replaced)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def dumps(frame: Any) -> str:
    return json.dumps(frame, separators=(",", ":"))


def bare_app(watching: list[dict[str, Any]], acting: list[dict[str, Any]], seats: int) -> Any:
    """The baseline: WebSocket fan-out with no game and no storage (Starlette, no FastAPI).
    ``acting`` and ``watching``: update frames Yamen sent to a seat to act and to the others."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    class Room:
        def __init__(self) -> None:
            self.sockets: list[WebSocket | None] = [None] * seats
            self.number, self.seq, self.turn, self.sent = 0, 0, 0, 0

        async def broadcast(self) -> None:
            for seat, ws in enumerate(self.sockets):
                pool = acting if seat == self.turn else watching
                sample = pool[(self.sent + seat) % len(pool)]
                table = {
                    **sample["table"],
                    "number": self.number,
                    "seq": self.seq,
                    "pending": [self.turn],
                    "legal": (sample["table"]["legal"] or [0]) if seat == self.turn else [],
                    "result": None,
                }
                if ws is not None:
                    await ws.send_text(dumps({**sample, "table": table}))
            self.sent += 1

    rooms: dict[str, Room] = {}

    async def live(ws: WebSocket) -> None:
        await ws.accept()
        room = rooms.setdefault(ws.path_params["room"], Room())
        seat = int(json.loads(await ws.receive_text())["token"])
        room.sockets[seat] = ws
        await ws.send_text(dumps({"type": "welcome", "v": 1, "player": None, "seat": seat}))
        await ws.send_text(dumps({"type": "state", "room": None, "table": None, "chat": []}))
        try:
            while True:
                frame = json.loads(await ws.receive_text())
                if frame.get("type") != "act":
                    continue
                if seat != room.turn or frame.get("seq") != room.seq:
                    await ws.send_text(dumps({"type": "error", "code": "stale", "id": None}))
                    continue
                room.seq += 1
                room.turn = (room.turn + 1) % seats
                await room.broadcast()
                await ws.send_text(dumps({"type": "ack", "id": None, "seq": room.seq}))
        except WebSocketDisconnect:
            room.sockets[seat] = None

    async def start(request: Any) -> JSONResponse:
        room = rooms.setdefault(request.path_params["room"], Room())
        room.number, room.seq, room.turn = room.number + 1, 0, 0
        await room.broadcast()
        return JSONResponse({"id": request.path_params["room"]})

    return Starlette(
        routes=[
            WebSocketRoute("/ws/rooms/{room}", live),
            Route("/api/rooms/{room}/start", start, methods=["POST"]),
        ]
    )


def serve_bare(port: int, sample_path: str) -> None:
    import uvicorn

    data = json.loads(Path(sample_path).read_text())
    app = bare_app(data["watching"], data["acting"], data["seats"])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=32 * 1024)
