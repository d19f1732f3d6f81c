"""A room as the lobby and live play reach it, wherever it runs.

A lone server hands out the :class:`~yamen.server.rooms.Room` itself. A process of a cluster
hands out a :class:`~yamen.server.cluster.Link`, which goes to the Room when this process owns
it, or to a :class:`~yamen.server.cluster.Remote` for the process that does. All of them are a
:class:`RoomHandle`: the lobby and live play never ask which. What this process's registry
hands out (a Room, or a Link) is a :class:`LiveRoom` too: it can send one client the table again.
What the lobby asks of a room is an :class:`~yamen.server.operations.Operation`, data that each
of them carries as it is (``run``): none has a method of its own per operation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from yamen.server import protocol

if TYPE_CHECKING:
    from yamen.server.operations import Operation


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

    async def run(self, op: Operation) -> None:
        """Do a lobby operation (yamen/server/operations.py) on the room, wherever it runs:
        every operation goes through this one method, carried as it is."""
        ...

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
