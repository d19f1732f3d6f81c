"""The break between two deals of a game played as several (``engine.DEAL_OVER``).

After an action that ends a deal (and not the game), a room with a ``deal_pause`` waits that
long, or until every person seated and connected has said they are ready (a ``ready`` frame):
a bot's seat (a person's on auto-play too), and a person's seat with nobody connected, are
ready. Meanwhile the table takes no action (``between_deals``) and its bots and timers wait:
the next deal's questions are asked when the break ends, so nobody's turn timer runs during
it. With no person connected at a seat when the deal ends, there is nobody to wait for: no
break.

The break lives in the room's memory: a restarted server that finds a game stopped between
two deals (its last step ended one) starts a fresh break of the room's length.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from yamen.engine import DEAL_OVER, Event, State
from yamen.server import protocol


class Sitter(Protocol):
    """What a break reads of a seat (yamen.server.seats.Seat)."""

    player: str | None
    bot: str | None
    connections: int


def ends_deal(events: Sequence[Event], state: State) -> bool:
    """The action that gave ``events`` ended a deal and the game goes on."""
    return not state.over and any(event.kind == DEAL_OVER for event in events)


@dataclass(eq=False)
class DealBreak:
    until: float  # epoch seconds
    ready: set[int] = field(default_factory=set)
    timer: asyncio.Task | None = None  # ends the break at ``until``

    def done(self, seats: Sequence[Sitter]) -> bool:
        """Every seat with a person connected has said it is ready."""
        return all(
            i in self.ready or seat.player is None or seat.bot is not None or seat.connections == 0
            for i, seat in enumerate(seats)
        )

    def shown(self) -> protocol.Pause:
        return protocol.Pause.model_construct(until=self.until, ready=sorted(self.ready))

    def stop(self) -> None:
        """Cancel the timer (unless it is the caller: the timer ends the break itself)."""
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
