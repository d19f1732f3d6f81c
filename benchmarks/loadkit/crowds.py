"""The abuse kinds that are many of something (``loadkit.abuse``): search-bot rooms, a chat
flood, a spectator swarm. Each sets itself up once (``set_up``) and gives the endless tasks of
its abused phase (``tasks``)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from loadkit.client import close_code, count, dumps, loads

GAME = "baohuang"  # five seats, and a search bot
BACKOFF = 1.0  # seconds before a refused or closed socket tries again


class BotRooms:
    """Rooms of five ``search`` bots at the default pace, watched by their host, who rematches
    each finished game."""

    def __init__(self, abuse: Any):
        self.abuse = abuse
        self.rooms: list[tuple[str, str, str]] = []  # (room, host token, invite)

    async def set_up(self) -> None:
        call = self.abuse.lobby.call
        for i in range(self.abuse.spec["bot_rooms"]):
            host = await call("POST", "/api/guests", None, {"name": f"botmaster{i}"})
            room = await call("POST", "/api/rooms", host["token"], {"game": GAME, "public": False})
            for seat in range(len(room["seats"])):
                path = f"/api/rooms/{room['id']}/seats/{seat}/bot"
                await call("PUT", path, host["token"], {"bot": "search"})
            self.rooms.append((room["id"], host["token"], room["invite"]))

    def tasks(self) -> list[Any]:
        return [self.host(room, token) for room, token, _ in self.rooms]

    async def host(self, room: str, token: str) -> None:
        abuse = self.abuse
        await abuse.start(room, token)
        while True:
            ws = await abuse.open(room, {"token": token})
            if ws is None:
                await asyncio.sleep(BACKOFF)
                continue
            try:
                async for text in ws:
                    frame = loads(text)
                    if frame["type"] == "update":
                        count(abuse.counts, "bot_actions")
                        if frame["table"]["result"] is not None:
                            count(abuse.counts, "bot_games")
                            await asyncio.sleep(BACKOFF)
                            await abuse.start(room, token)
                    elif frame["type"] == "error":
                        count(abuse.refused, frame.get("code", "?"))
            except Exception:
                pass
            count(abuse.refused, close_code(ws))
            abuse.sockets.discard(ws)
            await asyncio.sleep(BACKOFF)


class ChatFlood:
    """One player chatting in a room of its own over several connections, each at the rate a
    connection is allowed; a closed connection reconnects."""

    def __init__(self, abuse: Any):
        self.abuse = abuse
        self.room: tuple[str, str] | None = None  # (room, player token)

    async def set_up(self) -> None:
        call = self.abuse.lobby.call
        player = await call("POST", "/api/guests", None, {"name": "chatter"})
        room = await call("POST", "/api/rooms", player["token"], {"game": GAME, "public": False})
        self.room = (room["id"], player["token"])

    def tasks(self) -> list[Any]:
        if self.room is None:
            return []
        return [self.flood(i) for i in range(self.abuse.spec["chat_connections"])]

    async def flood(self, index: int) -> None:
        abuse, (room, token) = self.abuse, self.room
        tag, sent = f"{index}:", 0
        while True:
            ws = await abuse.open(room, {"token": token})
            if ws is None:
                await asyncio.sleep(BACKOFF)
                continue
            reader = asyncio.create_task(self.read(ws, tag))
            try:
                while not reader.done():
                    sent += 1
                    await ws.send(dumps({"type": "chat", "text": f"{tag}{sent} " + "x" * 80}))
                    count(abuse.counts, "chat_sent")
                    await asyncio.sleep(1 / abuse.spec["chat_rate"])
            except Exception:
                pass
            reader.cancel()
            count(abuse.refused, close_code(ws))
            abuse.sockets.discard(ws)
            await asyncio.sleep(BACKOFF)

    async def read(self, ws: Any, tag: str) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                frame = loads(text)
                if frame["type"] == "chat" and frame["text"].startswith(tag):
                    count(self.abuse.counts, "chat_echoed")  # accepted: sent to the room
                elif frame["type"] == "error":
                    count(self.abuse.refused, frame.get("code", "?"))


class Spectators:
    """Sockets joining a room as spectators (a search-bot room's when there is one, else a room
    of their own), each staying a random while and leaving, over and over."""

    def __init__(self, abuse: Any):
        self.abuse = abuse
        self.room: tuple[str, str] | None = None  # (room, invite)

    async def set_up(self) -> None:
        call = self.abuse.lobby.call
        player = await call("POST", "/api/guests", None, {"name": "watched"})
        room = await call("POST", "/api/rooms", player["token"], {"game": GAME, "public": False})
        self.room = (room["id"], room["invite"])

    def tasks(self) -> list[Any]:
        bots = self.abuse.kinds.get("bot_rooms")
        target = (bots.rooms[0][0], bots.rooms[0][2]) if bots and bots.rooms else self.room
        if target is None:
            return []
        return [self.spectate(*target) for _ in range(self.abuse.spec["spectators"])]

    async def spectate(self, room: str, invite: str) -> None:
        abuse = self.abuse
        while True:
            ws = await abuse.open(room, {"invite": invite})
            if ws is None:
                await asyncio.sleep(BACKOFF)
                continue
            count(abuse.counts, "spectator_joins")
            await asyncio.sleep(abuse.rng.uniform(0, 2 * abuse.spec["dwell"]))
            await abuse.shut(ws)


KINDS = {"bot_rooms": BotRooms, "chat": ChatFlood, "spectators": Spectators}
