"""``--abuse``: what one hostile guest does to the server while the measured rooms play, in a
process of its own. Three kinds, all started at the abused phase and kept up to its end:

- **search-bot rooms**: rooms of five ``search`` bots at the default pace (created by the
  lobby, each seat given ``{"bot": "search"}``), watched by their host, who rematches each
  finished game;
- **a chat flood**: one player sending chat in a room of its own over several connections, each
  at ``chat_rate`` frames a second (what a connection is allowed), reconnecting when closed;
- **a spectator swarm**: sockets that join a search-bot room (or the chat room) as spectators,
  stay a random while and leave, over and over.

Everything the server refuses is counted, never fatal: 429s, ``rate_limited`` and other error
frames, refused handshakes and closed sockets (by close code). Counts are taken for each abused
window.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import traceback
from typing import Any

from loadkit.client import (
    Lobby,
    close_code,
    count,
    dumps,
    loads,
    raise_file_limit,
    refusal_of,
    run_async,
    ws_connect,
)

GAME = "baohuang"  # five seats, and a search bot
BACKOFF = 1.0  # seconds before a refused or closed socket tries again


class Abuse:
    def __init__(self, spec: dict[str, Any]):
        self.spec, self.url = spec, spec["url"]
        self.rng = random.Random(spec["seed"])
        self.counts: dict[str, int] = {}  # what was done: bot actions, chats, joins
        self.refused: dict[str, int] = {}  # what the server refused or closed, by kind
        self.bot_rooms: list[tuple[str, str, str]] = []  # (room, host token, invite)
        self.chat: tuple[str, str, str] | None = None  # (room, player token, invite)
        self.sockets: set[Any] = set()
        self.tasks: list[asyncio.Task] = []

    # ----- setting up ----------------------------------------------------------------------

    async def set_up(self) -> None:
        """The rooms; a refusal leaves that part out (and is counted)."""
        call = self.lobby.call
        for i in range(self.spec["bot_rooms"]):
            try:
                host = await call("POST", "/api/guests", None, {"name": f"botmaster{i}"})
                room = await call(
                    "POST", "/api/rooms", host["token"], {"game": GAME, "public": False}
                )
                for seat in range(len(room["seats"])):
                    path = f"/api/rooms/{room['id']}/seats/{seat}/bot"
                    await call("PUT", path, host["token"], {"bot": "search"})
                self.bot_rooms.append((room["id"], host["token"], room["invite"]))
            except Exception as exc:
                count(self.refused, f"setup: {type(exc).__name__} {str(exc)[:60]}")
        if self.spec["chat_connections"] or not self.bot_rooms:
            try:
                player = await call("POST", "/api/guests", None, {"name": "chatter"})
                room = await call(
                    "POST", "/api/rooms", player["token"], {"game": GAME, "public": False}
                )
                self.chat = (room["id"], player["token"], room["invite"])
            except Exception as exc:
                count(self.refused, f"setup: {type(exc).__name__} {str(exc)[:60]}")

    # ----- the three kinds -----------------------------------------------------------------

    async def open(self, room: str, hello: dict[str, Any]) -> Any:
        """A socket past hello (its state frame read), or None when the server refused it."""
        try:
            ws = await ws_connect(self.url, room)
        except Exception as exc:
            count(self.refused, refusal_of(exc))
            return None
        self.sockets.add(ws)
        try:
            await ws.send(dumps({"type": "hello", "v": 1, **hello}))
            while True:
                frame = loads(await ws.recv())
                if frame["type"] == "state":
                    return ws
                if frame["type"] == "error":
                    count(self.refused, frame.get("code", "?"))
        except Exception:
            count(self.refused, close_code(ws))
            self.sockets.discard(ws)
            return None

    async def host(self, room: str, token: str) -> None:
        """A search-bot room's host: starts it, watches it, rematches each finished game."""
        await self.start(room, token)
        while True:
            ws = await self.open(room, {"token": token})
            if ws is None:
                await asyncio.sleep(BACKOFF)
                continue
            try:
                async for text in ws:
                    frame = loads(text)
                    if frame["type"] == "update":
                        count(self.counts, "bot_actions")
                        if frame["table"]["result"] is not None:
                            count(self.counts, "bot_games")
                            await asyncio.sleep(BACKOFF)
                            await self.start(room, token)
                    elif frame["type"] == "error":
                        count(self.refused, frame.get("code", "?"))
            except Exception:
                pass
            count(self.refused, close_code(ws))
            self.sockets.discard(ws)
            await asyncio.sleep(BACKOFF)

    async def start(self, room: str, token: str) -> None:
        try:
            await self.lobby.call("POST", f"/api/rooms/{room}/start", token)
        except Exception as exc:
            count(self.refused, f"start: {str(exc)[:40]}")

    async def flood(self, index: int) -> None:
        """One of the chatting player's connections: chat at the allowed rate, for ever."""
        room, token, _ = self.chat
        tag, sent = f"{index}:", 0
        while True:
            ws = await self.open(room, {"token": token})
            if ws is None:
                await asyncio.sleep(BACKOFF)
                continue
            reader = asyncio.create_task(self.read_chat(ws, tag))
            try:
                while not reader.done():
                    sent += 1
                    await ws.send(dumps({"type": "chat", "text": f"{tag}{sent} " + "x" * 80}))
                    count(self.counts, "chat_sent")
                    await asyncio.sleep(1 / self.spec["chat_rate"])
            except Exception:
                pass
            reader.cancel()
            count(self.refused, close_code(ws))
            self.sockets.discard(ws)
            await asyncio.sleep(BACKOFF)

    async def read_chat(self, ws: Any, tag: str) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                frame = loads(text)
                if frame["type"] == "chat" and frame["text"].startswith(tag):
                    count(self.counts, "chat_echoed")  # accepted: sent to the room
                elif frame["type"] == "error":
                    count(self.refused, frame.get("code", "?"))

    async def spectate(self, room: str, invite: str) -> None:
        """One socket of the swarm: join as a spectator, stay a while, leave; again."""
        while True:
            ws = await self.open(room, {"invite": invite})
            if ws is None:
                await asyncio.sleep(BACKOFF)
                continue
            count(self.counts, "spectator_joins")
            await asyncio.sleep(self.rng.uniform(0, 2 * self.spec["dwell"]))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)
            self.sockets.discard(ws)

    # ----- the run -------------------------------------------------------------------------

    async def run(self, inbox: Any, outbox: Any) -> None:
        self.lobby = Lobby(self.url, 8)
        self.lobby.refusals = self.refused  # the lobby's 429s counted with the rest
        await self.set_up()
        setup_refused = dict(self.refused)
        outbox.put(("ready", "abuse", None))
        plan = await asyncio.to_thread(inbox.get)
        await sleep_until(plan["start"])
        for room, token, _ in self.bot_rooms:
            self.tasks.append(asyncio.create_task(self.host(room, token)))
        if self.chat is not None:
            for i in range(self.spec["chat_connections"]):
                self.tasks.append(asyncio.create_task(self.flood(i)))
        target = self.bot_rooms[0] if self.bot_rooms else self.chat
        if target is not None:
            for _ in range(self.spec["spectators"]):
                self.tasks.append(asyncio.create_task(self.spectate(target[0], target[2])))
        each = []
        for start, end in plan["windows"]:
            await sleep_until(start)
            before = (dict(self.counts), dict(self.refused), time.process_time())
            await sleep_until(end)
            each.append(self.window(end - start, *before))
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        outbox.put(("result", "abuse", {"windows": each, "setup_refused": setup_refused}))
        closing = [ws.close() for ws in self.sockets]
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), 10)
        await self.lobby.close()

    def window(
        self, seconds: float, counts: dict[str, int], refused: dict[str, int], cpu: float
    ) -> dict[str, Any]:
        """What was done and refused in one window (lobby 429s included)."""
        done = {k: v - counts.get(k, 0) for k, v in self.counts.items()}
        no = {k: v - refused.get(k, 0) for k, v in self.refused.items()}
        return {
            "bot_rooms": len(self.bot_rooms),
            "bot_actions_per_s": round(done.get("bot_actions", 0) / seconds, 1),
            "bot_games": done.get("bot_games", 0),
            "chat_sent": done.get("chat_sent", 0),
            "chat_echoed": done.get("chat_echoed", 0),
            "spectator_joins": done.get("spectator_joins", 0),
            "refused": {k: v for k, v in no.items() if v},
            "cpu": round((time.process_time() - cpu) / seconds, 2),
        }


async def sleep_until(when: float) -> None:
    await asyncio.sleep(max(0.0, when - time.monotonic()))


def abuse_main(spec: dict[str, Any], inbox: Any, outbox: Any) -> None:
    raise_file_limit()
    try:
        run_async(Abuse(spec).run(inbox, outbox))
    except BaseException:
        outbox.put(("failed", "abuse", traceback.format_exc()))
