"""A room's seat: who sits there (a person or a bot), their presence, and who left it.

A person who leaves during a game hands the seat to a stand-in bot that plays it to the end;
the seat keeps their name (``left``) until the next game starts, so the table and its results
still say whose seat it was. A restarted server finds it again from the game's stored players.
"""

from __future__ import annotations

from dataclasses import dataclass

from yamen.server.storage import Store


@dataclass
class Seat:
    player: str | None = None
    name: str | None = None
    bot: str | None = None
    connections: int = 0
    away_since: float | None = None  # a seated player with no connection, since when
    left: str | None = None  # who left mid-game, by name: shown until the next game starts

    @property
    def online(self) -> bool:
        return self.bot is not None or self.connections > 0

    def is_away(self, away_seconds: float, now: float) -> bool:
        return self.away_since is not None and now - self.away_since >= away_seconds


async def name_who_left(store: Store, seats: list[Seat], players: list[str | None]) -> None:
    """``players`` sat at the game's start: those whose seat a bot now plays left it."""
    gone = {i: p for i, p in enumerate(players) if p and seats[i].bot}
    names = await store.players(list(gone.values())) if gone else {}
    for i, player in gone.items():
        seats[i].left = names.get(player)
