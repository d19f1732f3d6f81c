"""A revoked token's live connections are closed, in whichever process they are.

Each process keeps the WebSockets of signed-in players with the token each said hello with
(:class:`Sockets`). When some of a player's sessions end (sign out, sign out everywhere, a new
password, the account deleted), every process is told the player's id (one process: at once;
several: over the cluster bus, yamen/server/cluster/messages.py ``Revoked``) and checks each of that
player's connections against the database: one whose token no longer names the player gets an
error frame ``signed_out`` and is closed with code SIGNED_OUT (4001, reason ``signed_out``),
after which the browser does not reconnect but asks who is there. Connections whose token is
still valid stay open; the seat stays the player's, for them to come back to.

A connection that said hello while its token was being revoked is not missed: every check
moves ``epoch`` on, and a connection registered after a check began is checked itself.

The same keeping, by player, says where this process's players are and reaches them with
news of their invites (yamen/server/presence.py, invite_news.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from yamen.server.storage import Store

if TYPE_CHECKING:
    from yamen.server.handle import LiveRoom

SIGNED_OUT = 4001  # the WebSocket close code (an application's own: 4000-4999)
MESSAGE = "this session was signed out: sign in again"


class Held(Protocol):
    """A connection as this process keeps it (yamen/server/live.py's WebSocketClient): in a
    room, welcomed there or not yet, sent frames, closed with a reason."""

    room: LiveRoom | None
    welcomed: bool

    def send(self, text: str) -> None: ...

    def end(self, code: str, message: str, close: int = ...) -> None: ...


class Sockets:
    """This process's connections of signed-in players, by player, with their tokens."""

    def __init__(self) -> None:
        self.by_player: dict[str, dict[Held, str]] = {}
        self.epoch = 0  # checks begun so far

    async def hold(self, store: Store, player: str, client: Held, token: str, seen: int) -> bool:
        """Keep ``client`` (whose token was read valid when ``epoch`` was ``seen``); False,
        and the client closed, when a check since then has revoked its token."""
        self.by_player.setdefault(player, {})[client] = token
        if self.epoch != seen and not await valid(store, player, token):
            self.drop(player, client)
            client.end("signed_out", MESSAGE, SIGNED_OUT)
            return False
        return True

    def drop(self, player: str, client: Held) -> None:
        held = self.by_player.get(player)
        if held is not None:
            held.pop(client, None)
            if not held:
                del self.by_player[player]

    async def check(self, store: Store, player: str) -> int:
        """Close the player's connections here whose token was revoked; how many."""
        self.epoch += 1
        closed = 0
        for client, token in list(self.by_player.get(player, {}).items()):
            if not await valid(store, player, token):
                self.drop(player, client)
                client.end("signed_out", MESSAGE, SIGNED_OUT)
                closed += 1
        return closed

    def count(self, player: str) -> int:
        return len(self.by_player.get(player, {}))

    def connections(self, player: str) -> Iterator[Held]:
        """The player's connections here (told of new invites: yamen/server/invite_news.py)."""
        return iter(list(self.by_player.get(player, {})))

    def rooms(self) -> dict[str, str | None]:
        """Each player connected here, with the room of their latest connection (where their
        friends are told they are: yamen/server/presence.py)."""
        rooms: dict[str, str | None] = {}
        for player, held in self.by_player.items():
            room = next(reversed(held)).room
            rooms[player] = None if room is None else room.id
        return rooms


async def valid(store: Store, player: str, token: str) -> bool:
    found = await store.player_by_token(token)
    return found is not None and found.id == player
