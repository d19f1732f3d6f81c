"""A room as the lobby and live play reach it, wherever it runs.

A lone server hands out the :class:`~yamen.server.rooms.Room` itself. A process of a cluster
hands out a :class:`~yamen.server.cluster.Link`, which goes to the Room when this process owns
it, or to a :class:`~yamen.server.cluster.Remote` for the process that does. All of them are a
:class:`RoomHandle`: the lobby and live play never ask which. What this process's registry
hands out (a Room, or a Link) is a :class:`LiveRoom` too: it can send one client the table again.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from yamen.server import protocol


class Connection(Protocol):
    """A client attached to a room: a WebSocket here, or one relayed from another process."""

    player: str | None  # None: a spectator
    seat: int | None  # set by the room when attached

    def send(self, text: str) -> None:
        """Queue one frame (JSON text); never blocks: a client too slow to keep up is dropped
        by its connection and resynchronizes when it reconnects."""


class Client(Connection, Protocol):
    """A client connected to this process (a WebSocket): a connection that can be closed with
    a reason (a room another process owns may become unreachable)."""

    def end(self, code: str, message: str) -> None:
        """Send an ``error`` frame with ``code`` and close."""


@runtime_checkable
class RoomHandle(Protocol):
    """What the lobby (yamen/server/lobby.py) and live play (yamen/server/live.py) use of a
    room. Refusals are :class:`~yamen.server.rooms.RoomError`."""

    id: str

    @property
    def invite(self) -> str: ...

    @property
    def host(self) -> str: ...

    @property
    def public(self) -> bool: ...

    def info(self) -> dict[str, Any]:
        """The room as the lobby shows it: seats, status, match scores, settings."""
        ...

    def may_watch(self, player: str | None, invite: str | None) -> bool: ...

    async def take_seat(self, player: str, name: str, seat: int, invite: str | None) -> None: ...

    async def leave(self, player: str) -> None: ...

    async def set_bot(self, player: str, seat: int, bot: str | None) -> None: ...

    async def fill_bots(self, player: str, bot: str | None) -> None: ...

    async def remove(self, player: str, seat: int) -> None: ...

    async def configure(
        self,
        player: str,
        options: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
        public: bool | None = None,
    ) -> None: ...

    async def start(self, player: str) -> None: ...

    async def attach(self, conn: Client) -> None:
        """The client hears the room from now on: a ``welcome``, then a ``state`` frame."""
        ...

    async def detach(self, conn: Client) -> None: ...

    async def receive(self, conn: Client, message: protocol.Request) -> bool:
        """A client's validated frame, always answered (``ack`` or ``error``); True when it
        was an action that the game took here."""
        ...


@runtime_checkable
class LiveRoom(RoomHandle, Protocol):
    """A room as a client of this process is attached through (``Rooms.get``: a Room, or a
    Link in a cluster; never a Remote, which a Link stands in front of)."""

    async def resync(self, conn: Client) -> None:
        """Send the client the table again (the watchdog, for a connection gone silent)."""
        ...
