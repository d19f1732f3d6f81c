"""The abuse kinds that make the server do work that grows with the site (``loadkit.abuse``):
a burst of wrong sign-ins that never stops, and readers of a player page with many games.

The page's games are stored before the server starts (:func:`seed_games`), through the
server's own storage: each is stored as a room's finished game (``Store.finish_game``, which
rates it and keeps whatever the server keeps per player), so the page reads what a site that
played them would hold.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from loadkit.client import count, retry_after

GAME = "baohuang"
PASSWORD = "correct horse battery staple"
READ = "bot:rules"  # the player whose page is read


class SignIns:
    """``sign_ins`` sign-ins with a wrong password for one account in flight at once, each
    sent again as soon as it is answered (:func:`hammer`)."""

    def __init__(self, abuse: Any):
        self.abuse = abuse
        self.name: str | None = None

    async def set_up(self) -> None:
        call = self.abuse.lobby.call
        guest = await call("POST", "/api/guests", None, {"name": "owner"})
        name = f"owner{secrets.token_hex(4)}"
        await call("POST", "/api/account", guest["token"], {"name": name, "password": PASSWORD})
        self.name = name

    def tasks(self) -> list[Any]:
        if self.name is None:
            return []
        return [self.guess() for _ in range(self.abuse.spec["sign_ins"])]

    async def guess(self) -> None:
        body = {"name": self.name, "password": "not the password"}
        http = self.abuse.lobby.http
        await hammer(self.abuse, "sign_in", lambda: http.post("/api/account/sessions", json=body))


class PlayerPages:
    """``page_readers`` clients reading ``GET /api/players/bot:rules`` one after the other."""

    def __init__(self, abuse: Any):
        self.abuse = abuse

    async def set_up(self) -> None:
        pass  # the games were stored before the server started

    def tasks(self) -> list[Any]:
        return [self.read() for _ in range(self.abuse.spec["page_readers"])]

    async def read(self) -> None:
        http = self.abuse.lobby.http
        await hammer(self.abuse, "page", lambda: http.get(f"/api/players/{READ}"))


async def hammer(abuse: Any, name: str, ask: Callable[[], Awaitable[httpx.Response]]) -> None:
    """``ask()`` again as soon as it is answered, for ever: each answer counted by its status
    (``NAME_STATUS``), a 429 waited out (Retry-After: a real single address would be limited
    per address too, which the benchmark turns off)."""
    while True:
        try:
            answer = await ask()
        except Exception as exc:
            count(abuse.refused, f"{name}: {type(exc).__name__}")
            await asyncio.sleep(1)
            continue
        if answer.status_code == 429:
            count(abuse.refused, f"{name} 429")
            await asyncio.sleep(retry_after(answer))
        else:
            count(abuse.counts, f"{name}_{answer.status_code}")


def seed_games(db_url: str, games: int, seed: int = 0) -> float:
    """Store ``games`` finished one-deal Baohuang games of one guest and four ``rules`` bots
    (one real game's record and result, stored again and again), rated as the server rates
    them; the seconds it took."""
    return asyncio.run(_seed(db_url, games, seed))


async def _seed(db_url: str, games: int, seed: int) -> float:
    from yamen.bots import make_bot, play_bots
    from yamen.engine import new_game
    from yamen.records import Record
    from yamen.server.match import result_json
    from yamen.server.storage import Store
    from yamen.server.tables import RoomRow

    began = time.monotonic()
    state = new_game(GAME, {"deals": 1}, seed=seed)
    play_bots(state, [make_bot(GAME, "rules")] * 5, random.Random(seed))
    result = result_json(state.result())
    store = Store(db_url)
    await store.open()
    try:
        player = f"seed{secrets.token_hex(6)}"
        await store.add_player(player, "regular", secrets.token_urlsafe(32))
        room = RoomRow(
            id=secrets.token_urlsafe(6),
            game=GAME,
            options={"deals": 1},
            public=True,
            invite=secrets.token_urlsafe(12),
            host=player,
            settings={},
            created=time.time(),
        )
        await store.add_room(room, 5)
        bots = {seat: (None, "rules") for seat in (1, 2, 3, 4)}
        await store.set_seats(room.id, {0: (player, None), **bots})
        record = Record(GAME, dict(state.options), state.seed)
        for number in range(1, games + 1):
            game_id = await store.add_game(room.id, number, record, players=[player] + [None] * 4)
            await store.finish_game(game_id, result)
    finally:
        await store.close()
    return time.monotonic() - began


KINDS = {"sign_ins": SignIns, "player_page": PlayerPages}
