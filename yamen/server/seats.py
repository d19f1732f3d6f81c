"""A room's seat: who sits there (a person or a bot), their presence, and who left it.

A person who leaves during a game hands the seat to a stand-in bot that plays it to the end;
the seat keeps their name (``left``) until the next game starts, so the table and its results
still say whose seat it was, and the same player (``left_by``) may take it back while the game
lasts (yamen/server/operations.py, ``TakeBack``). A restarted server finds both again from the
game's stored players.

A person may also hand their seat to the stand-in while staying in it (auto-play, 托管): the
seat then has both its ``player`` and a ``bot``, the stand-in that plays it for them until they
turn it off or the game ends. Stored the same way (a seat row with a player and a bot), so a
restart keeps it with no column of its own.
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
    left_by: str | None = None  # and their player id: only they may take the seat back

    @property
    def auto(self) -> bool:
        """A person's seat the stand-in plays for them, at their request (auto-play)."""
        return self.player is not None and self.bot is not None

    @property
    def online(self) -> bool:
        """A bot's seat is; a person's (on auto-play too) while they have a connection."""
        return self.connections > 0 if self.player is not None else self.bot is not None

    def is_away(self, away_seconds: float, now: float) -> bool:
        return self.away_since is not None and now - self.away_since >= away_seconds


async def name_who_left(store: Store, seats: list[Seat], players: list[str | None]) -> None:
    """``players`` sat at the game's start: those whose seat a bot now plays left it."""
    gone = {i: p for i, p in enumerate(players) if p and seats[i].bot and seats[i].player is None}
    names = await store.players(list(gone.values())) if gone else {}
    for i, player in gone.items():
        seats[i].left, seats[i].left_by = names.get(player), player
