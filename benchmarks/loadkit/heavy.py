"""The abuse kinds that make the server do work that grows with a game or a match
(``loadkit.abuse``): a ``sync`` flood on a long game, and reads of a private match of many long
games that the server has unloaded.

Both build their game by playing it: a guest hosts a Baohuang room of ``long_deals`` deals with
four ``rules`` bots at no delay, sits in seat 0 and answers every question of its seat at once
with a random legal action (``play``), so a game of thousands of actions is stored in a minute
or so.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from loadkit.client import count, dumps, loads

GAME = "baohuang"
NO_WAITING = {  # bots at once, no timers, nobody counted away, no break between deals
    "bot_delay": 0,
    "turn_seconds": None,
    "away_seconds": 3600,
    "talk_seconds": 0,
    "deal_pause": 0,
}
BACKOFF = 1.0


async def long_room(abuse: Any, name: str, public: bool) -> tuple[str, str, str]:
    """(room, host token, invite): a long game's room, seat 0 its host's, the others bots."""
    call = abuse.lobby.call
    host = await call("POST", "/api/guests", None, {"name": name})
    options = {"deals": abuse.spec["long_deals"]}
    body = {"game": GAME, "options": options, "public": public, "settings": NO_WAITING, "seat": 0}
    room = await call("POST", "/api/rooms", host["token"], body)
    await call("POST", f"/api/rooms/{room['id']}/bots", host["token"], {"bot": "rules"})
    return room["id"], host["token"], room["invite"]


async def play(abuse: Any, room: str, token: str, moves: int, games: int) -> int:
    """Play seat 0 at once with random legal actions, starting and rematching ``games`` games,
    until the current game has ``moves`` actions (or the last game ends); the actions stored."""
    stored, started = 0, 0
    ws = await abuse.open(room, {"token": token})
    if ws is None:
        raise RuntimeError(f"room {room}: the host could not connect")
    try:
        await abuse.lobby.call("POST", f"/api/rooms/{room}/start", token)
        started, acted = 1, None
        async for text in ws:
            frame = loads(text)
            if frame["type"] == "error":  # "stale": a bot moved first; the next update asks again
                if frame.get("code") != "stale":
                    count(abuse.refused, frame.get("code", "?"))
                continue
            if frame["type"] != "update":
                continue
            table = frame["table"]
            stored += 1
            if table["result"] is not None:
                if started == games:
                    return stored
                await abuse.lobby.call("POST", f"/api/rooms/{room}/start", token)
                started += 1
                continue
            if table["seq"] >= moves:
                return stored
            key = (table["number"], table["seq"])
            if table["legal"] and table["pending"][:1] == [0] and key != acted:
                acted = key
                choice = abuse.rng.choice(table["legal"])
                await ws.send(dumps({"type": "act", "action": choice, "seq": table["seq"]}))
    finally:
        await abuse.shut(ws)
    return stored


class SyncFlood:
    """A long game in progress (``sync_moves`` actions, or its end), left waiting for its
    seated host; the host's ``sync_seats`` connections ask for ``sync`` ``sync_rate`` times a
    second each, and ``sync_spectators`` anonymous spectators ``sync_spectator_rate`` times a
    second each."""

    def __init__(self, abuse: Any):
        self.abuse = abuse
        self.room: tuple[str, str, str] | None = None

    async def set_up(self) -> None:
        room, token, invite = await long_room(self.abuse, "longgame", public=True)
        played = await play(self.abuse, room, token, self.abuse.spec["sync_moves"], 1)
        count(self.abuse.counts, "setup_actions", played)
        self.room = (room, token, invite)

    def tasks(self) -> list[Any]:
        if self.room is None:
            return []
        room, token, _ = self.room
        spec = self.abuse.spec
        seats = [
            self.flood(room, {"token": token}, spec["sync_rate"], "seat")
            for _ in range(spec["sync_seats"])
        ]
        watchers = [
            self.flood(room, {}, spec["sync_spectator_rate"], "spectator")
            for _ in range(spec["sync_spectators"])
        ]
        return seats + watchers

    async def flood(self, room: str, hello: dict[str, Any], rate: float, who: str) -> None:
        abuse = self.abuse
        while True:
            ws = await abuse.open(room, hello)
            if ws is None:
                await asyncio.sleep(BACKOFF)
                continue
            reader = asyncio.create_task(self.read(ws, who))
            try:
                while not reader.done():
                    await ws.send(dumps({"type": "sync"}))
                    count(abuse.counts, f"sync_sent_{who}")
                    await asyncio.sleep(1 / rate)
            except Exception:
                pass
            reader.cancel()
            await abuse.shut(ws)
            await asyncio.sleep(BACKOFF)

    async def read(self, ws: Any, who: str) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                frame = loads(text)
                if frame["type"] == "state":
                    count(self.abuse.counts, f"sync_answered_{who}")
                    count(self.abuse.counts, f"sync_bytes_{who}", len(text))
                elif frame["type"] == "error":
                    count(self.abuse.refused, frame.get("code", "?"))


class HeavyRoom:
    """A private match of ``heavy_games`` long games, nobody at it. An outsider (no invite)
    asks for it over the lobby and a WebSocket, and its host reads it, each about once every
    ``heavy_every`` seconds: longer than the server keeps an unused room loaded (the benchmark
    starts the server with a short ``idle_seconds`` for this kind), so most asks find it
    unloaded."""

    def __init__(self, abuse: Any):
        self.abuse = abuse
        self.room: tuple[str, str] | None = None
        self.outsider: str | None = None

    async def set_up(self) -> None:
        abuse = self.abuse
        room, token, _ = await long_room(abuse, "heavymatch", public=False)
        games = abuse.spec["heavy_games"]
        played = await play(abuse, room, token, 10**9, games)
        count(abuse.counts, "setup_actions", played)
        outsider = await abuse.lobby.call("POST", "/api/guests", None, {"name": "outsider"})
        self.room, self.outsider = (room, token), outsider["token"]

    def tasks(self) -> list[Any]:
        if self.room is None:
            return []
        room, host = self.room
        return [self.read(room, None, 0.0), self.read(room, host, 0.5), self.hello(room, 0.25)]

    async def read(self, room: str, token: str | None, offset: float) -> None:
        """``GET /api/rooms/{id}``: as the outsider (404 expected) or as its host."""
        abuse = self.abuse
        who = "host" if token else "outsider"
        headers = {"Authorization": f"Bearer {token or self.outsider}"}
        every = abuse.spec["heavy_every"]
        await asyncio.sleep(offset * every)
        while True:
            try:
                answer = await abuse.lobby.http.get(f"/api/rooms/{room}", headers=headers)
                count(abuse.counts, f"heavy_{who}_{answer.status_code}")
            except Exception as exc:
                count(abuse.refused, f"heavy {who}: {type(exc).__name__}")
            await asyncio.sleep(every)

    async def hello(self, room: str, offset: float) -> None:
        """A WebSocket hello by the outsider, with no invite (refused: not_found)."""
        abuse = self.abuse
        every = abuse.spec["heavy_every"]
        await asyncio.sleep(offset * every)
        while True:
            ws = await abuse.open(room, {"token": self.outsider})
            count(abuse.counts, "heavy_hello_welcomed" if ws else "heavy_hello_refused")
            if ws is not None:
                await abuse.shut(ws)
            await asyncio.sleep(every)


KINDS = {"sync_flood": SyncFlood, "heavy_room": HeavyRoom}
