"""Live play over a WebSocket: ``/ws/rooms/{room_id}``.

The first frame is ``hello`` (protocol version, token, invite code); then the client sends
``act``, ``chat`` and ``sync`` frames and receives what its seat may see. Every refused frame
(too big, too fast, not JSON, not in the schema, illegal) gets an ``error`` frame and changes
nothing. Frames to the client go through a bounded queue: a client that cannot keep up is
disconnected rather than allowed to hold up its room, and resynchronizes when it returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from yamen.server import protocol
from yamen.server.errors import RoomError
from yamen.server.frames import dumps
from yamen.server.handle import LiveRoom
from yamen.server.identity import player_of
from yamen.server.limits import Limited, Limiter, address
from yamen.server.metrics import Metrics
from yamen.server.registry import no_room

log = logging.getLogger(__name__)

MAX_FRAME = 8 * 1024  # bytes of one client frame
RATE = 50.0  # frames per second a client may send, on average; a move the game takes is free
BURST = 100.0  # and at once
HELLO_SECONDS = 10.0
WELCOME_SECONDS = 20.0  # from hello to welcome, at most: else an error and a close (1013)
QUEUE = 256  # frames waiting for a slow client before it is dropped
# Frames refused for their rate, in a row, before the connection is closed: answering a flood
# frame by frame costs the server as much as the flood, and a client that heeds the first
# ``rate_limited`` (and its ``retry_after``) never comes near this.
FLOOD = 25
WELCOME = '{"type":"welcome"'  # how a welcome frame starts (yamen/server/frames.py)
# What a connection asks for is paid for by its size too: each whole ANSWER_UNIT bytes of the
# ``state`` frame answering its ``sync``, or of a ``history`` frame (only ever an answer), cost
# one more frame of its allowance, so that RATE bounds the bytes a client can have built and
# sent to it (RATE x ANSWER_UNIT a second), not only the frames it sends.
ANSWER_UNIT = 4096
STATE, HISTORY = '{"type":"state"', '{"type":"history"'  # (yamen/server/frames.py)


class WebSocketClient:
    """One WebSocket, as the room sees it: a seat (or none) and a queue of frames."""

    def __init__(
        self, ws: WebSocket, player: str | None, welcomed: Callable[[], None] | None = None
    ):
        self.ws, self.player = ws, player
        self.seat: int | None = None  # set by the room when attached
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE)
        self.writer = asyncio.create_task(self._write())
        self.allowance, self.checked = BURST, time.monotonic()
        self.lagging = False
        self.ignored = 0  # refusals for rate in a row, since the last frame taken
        self.syncs = 0  # its syncs whose state frame has not been sent yet
        self.welcomed = False  # its room has sent it a welcome
        self.on_welcome = welcomed
        self.ending: tuple[int, str] = (1000, "")  # the close code and reason, once it ends
        self.sent_at = time.monotonic()  # when it was last sent a frame (beats.py)
        self.room: LiveRoom | None = None  # the room it is attached through, once it is

    def send(self, text: str) -> None:
        if self.lagging:
            return
        self.sent_at = time.monotonic()
        if text.startswith(HISTORY) or (self.syncs and text.startswith(STATE)):
            self.syncs -= text.startswith(STATE)
            self.charge(len(text.encode()))
        if not self.welcomed and text.startswith(WELCOME):
            self.welcomed = True
            if self.on_welcome is not None:
                self.on_welcome()
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            # Too slow to keep up: drop what waits and close; it resynchronizes on reconnect.
            self.lagging = True
            self.writer.cancel()
            self.writer = asyncio.create_task(self._drop())

    async def _drop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(1013), 5)

    async def _write(self) -> None:
        with contextlib.suppress(Exception):  # a send fails once the client has gone
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
            await self.ws.close(*self.ending)

    def end(self, code: str, message: str, close: int = 1013) -> None:
        """Tell the client why, then close (``close``, ``code`` as the reason). 1013: its room
        cannot answer it here now, and it should connect again; SIGNED_OUT
        (yamen/server/revocation.py): its token was revoked."""
        if self.lagging:
            return
        self.send(dumps(protocol.error(code, message)))
        self.ending = (close, code)
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)

    def allowed(self) -> bool:
        """Token bucket: RATE frames a second, BURST at once."""
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    def slow_down(self, refusal: dict[str, Any]) -> bool:
        """Answer a frame refused for its rate; False when the client has ignored ``FLOOD`` such
        answers in a row: it is told so and closed (1008)."""
        self.ignored += 1
        if self.ignored < FLOOD:
            self.send(dumps(refusal))
            return True
        message = f"{FLOOD} frames in a row were sent too fast after being told to slow down"
        self.send(dumps(protocol.error("flooding", message, refusal.get("id"))))
        self.ending = (1008, "flooding")
        return False

    def charge(self, size: int) -> None:
        """An answer of ``size`` bytes: each whole ANSWER_UNIT costs a frame of the allowance
        (which may go below zero: the frames after it wait until it has filled up again)."""
        self.allowance -= size // ANSWER_UNIT

    def refund(self) -> None:
        self.allowance = min(BURST, self.allowance + 1)

    async def close(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(self.writer, 5)


async def close_with_error(ws: WebSocket, code: str, message: str, close: int = 1008) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(dumps(protocol.error(code, message)))
        await ws.close(close)


def limited(exc: Limited, client_id: Any = None) -> dict[str, Any]:
    """The error frame of a limit (yamen/server/limits.py): when to try again, in seconds."""
    return {**protocol.error(exc.code, str(exc), client_id), "retry_after": exc.retry_after}


async def turn_away(ws: WebSocket, exc: Limited) -> None:
    """Over a connection limit: the error frame, then close 1013 (try again later)."""
    with contextlib.suppress(Exception):
        await ws.send_text(dumps(limited(exc)))
        await ws.close(1013, exc.code)


def read(raw: Mapping[str, Any]) -> tuple[Any, dict[str, Any] | None]:
    """A received frame as a validated message, or an error frame."""
    text = raw.get("text")
    if text is None:
        return None, protocol.error("bad_message", "frames are JSON text, not binary")
    if len(text.encode()) > MAX_FRAME:
        return None, protocol.error("too_large", f"a frame is at most {MAX_FRAME} bytes")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, protocol.error("bad_json", f"not JSON: {exc.msg} at column {exc.colno}")
    except RecursionError:  # arrays or objects nested some 1,000 deep
        return None, protocol.error("bad_json", "not JSON this server reads: nested too deep")
    except ValueError:  # an integer of more than 4,300 digits (sys.get_int_max_str_digits)
        return None, protocol.error("bad_json", "not JSON this server reads: a number too long")
    try:
        return protocol.client_message.validate_python(data), None
    except RecursionError:
        return None, protocol.error("bad_message", "frame: nested too deep")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "frame"
        client_id = data.get("id") if isinstance(data, dict) else None
        if not isinstance(client_id, str | int) or isinstance(client_id, bool):
            client_id = None
        return None, protocol.error("bad_message", f"{where}: {first['msg']}", client_id)


async def live(ws: WebSocket, room_id: str) -> None:
    """A connection, counted against its address's limits while it is open."""
    await ws.accept()
    limiter: Limiter = ws.app.state.limiter
    where = address(ws.client)
    try:
        limiter.hold("sockets_per_address", where)
    except Limited as exc:
        return await turn_away(ws, exc)
    try:
        limiter.take("sockets", where)
        await play(ws, room_id, limiter, where)
    except Limited as exc:
        await turn_away(ws, exc)
    finally:
        limiter.release("sockets_per_address", where)


async def play(ws: WebSocket, room_id: str, limiter: Limiter, where: str) -> None:
    rooms = ws.app.state.rooms
    try:
        raw = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        return await close_with_error(ws, "no_hello", "say hello first")
    if raw.get("type") == "websocket.disconnect":
        return
    hello_at = time.monotonic()
    hello, problem = read(raw)
    if problem is not None or not isinstance(hello, protocol.Hello):
        return await close_with_error(ws, "no_hello", "the first frame must be a valid hello")
    if hello.v != protocol.VERSION:
        return await close_with_error(
            ws, "version", f"this server speaks protocol {protocol.VERSION}", 1002
        )
    seen = rooms.sockets.epoch  # revocations checked so far (yamen/server/revocation.py)
    player = await player_of(rooms.store, hello.token)
    if hello.token is not None and player is None:
        return await close_with_error(ws, "bad_token", "this token belongs to no player")
    if hello.invite is not None:
        limiter.take("joins", where)  # an invite code tried
    player_id = None if player is None else player.id
    try:  # an outsider of a private room is told what a missing room's are: nothing is loaded
        room = await rooms.watch(room_id, player_id, hello.invite)
    except RoomError as exc:
        return await close_with_error(ws, exc.code, str(exc))
    except Exception:  # the database or Redis failed: said, not a bare close
        log.exception("room %s: could not be reached", room_id, extra={"room": room_id})
        return await close_with_error(
            ws, "unavailable", "the room cannot be reached now: try again", 1013
        )
    if not room.may_watch(player_id, hello.invite):
        refusal = no_room(room_id)
        return await close_with_error(ws, refusal.code, str(refusal))
    if player_id is None:
        return await watch(ws, room, limiter, None, hello_at)
    limiter.hold("sockets_per_player", player_id)
    try:
        await watch(ws, room, limiter, player_id, hello_at, (hello.token or "", seen))
    finally:
        limiter.release("sockets_per_player", player_id)


async def watch(
    ws: WebSocket,
    room: LiveRoom,
    limiter: Limiter,
    player_id: str | None,
    hello_at: float,
    token: tuple[str, int] = ("", 0),
) -> None:
    """The connection's life in its room: frames in, until it goes. Its welcome must come
    within ``welcome_seconds`` of its hello (in a cluster it comes from the room's owner), or it
    is told why and closed (``unanswered``): never left waiting in silence. A signed-in
    player's connection is closed when its ``token`` (with the revocation epoch it was read
    in) is revoked (yamen/server/revocation.py)."""
    rooms = ws.app.state.rooms
    metrics = rooms.metrics
    where = address(ws.client)  # its chat counts for its address too
    heartbeat = ws.app.state.heartbeat  # counts it silent when it is sent nothing for too long
    client = WebSocketClient(
        ws, player_id, lambda: metrics.hello.observe(time.monotonic() - hello_at)
    )
    client.room = room
    if player_id is not None and not await rooms.sockets.hold(
        rooms.store, player_id, client, *token
    ):
        return await client.close()
    metrics.connections.inc()
    heartbeat.hold(client)
    deadline = hello_at + getattr(rooms, "welcome_seconds", WELCOME_SECONDS)
    guard = asyncio.create_task(unanswered(client, deadline, metrics))
    try:
        async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
            await room.attach(client)
    except TimeoutError:
        told = guard.done() and not guard.cancelled()  # the watchdog fired first: said, counted
        guard.cancel()
        if not told:
            client.end("unavailable", "the room did not answer in time: connect again")
            metrics.stalled_connections.labels("closed").inc()
        metrics.connections.dec()
        heartbeat.drop(client)
        if player_id is not None:
            rooms.sockets.drop(player_id, client)
        with contextlib.suppress(Exception):
            await room.detach(client)
        return await client.close()
    try:
        while True:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                break
            if not client.allowed():
                if client.slow_down(protocol.error("rate_limited", "too many frames: slow down")):
                    continue
                break
            message, problem = read(raw)
            if isinstance(message, protocol.Chat) and player_id is not None:
                try:  # over all of the player's connections, and all of the address's
                    limiter.take_each(("chat", player_id), ("chat_per_address", where))
                except Limited as exc:
                    if client.slow_down(limited(exc, message.id)):
                        continue
                    break
            client.ignored = 0
            if problem is not None:
                client.send(dumps(problem))
            elif isinstance(message, protocol.Hello):
                client.send(dumps(protocol.error("bad_message", "hello is sent once", None)))
            else:
                if isinstance(message, protocol.Sync):
                    client.syncs += 1  # its state frame is charged by its size (ANSWER_UNIT)
                if await room.receive(client, message):
                    client.refund()  # a move the game took: a bot may play as fast as it is asked
    except WebSocketDisconnect:
        pass
    finally:
        guard.cancel()
        metrics.connections.dec()
        heartbeat.drop(client)
        if player_id is not None:
            rooms.sockets.drop(player_id, client)
        await room.detach(client)
        await client.close()


async def unanswered(client: WebSocketClient, deadline: float, metrics: Metrics) -> None:
    """The hello watchdog: no welcome by ``deadline`` (``time.monotonic()``): an error frame
    and a close with a reason, so that the client connects again (to another process, say)."""
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    if not client.welcomed:
        metrics.stalled_connections.labels("closed").inc()
        client.end("unavailable", "the room did not answer in time: connect again")
