"""A room as stored, loaded: its seats and settings, and its match rebuilt by replaying each
game's log (yamen/records.py). A game whose log cannot be replayed is set aside (quarantined)
and closes its room, not the server. Its players count as away until they connect again.
"""

from __future__ import annotations

import logging
import time

from yamen.engine import get_game
from yamen.server.breaks import ends_deal
from yamen.server.match import result_json
from yamen.server.rooms import Room
from yamen.server.seats import Seat, name_who_left
from yamen.server.settings import Settings
from yamen.server.storage import Store
from yamen.server.thinking import INLINE, Thinker

log = logging.getLogger(__name__)


async def load_room(store: Store, room_id: str, thinker: Thinker = INLINE) -> Room | None:
    """The room as stored; its unfinished game is rebuilt by replaying its log."""
    found = await store.room(room_id)
    if found is None:
        return None
    row, seat_rows = found
    names = await store.players([s.player_id for s in seat_rows if s.player_id])
    seats = [
        Seat(s.player_id, names.get(s.player_id) if s.player_id else None, s.bot) for s in seat_rows
    ]
    room = Room(
        store,
        row.id,
        get_game(row.game, row.options),
        row.public,
        row.invite,
        row.host,
        Settings.stored(row.settings, row.game),
        seats,
        thinker,
    )
    players: list[str | None] = []  # who sat at the last game's start
    for game in await store.games(room_id):
        if game.quarantined is None:
            try:
                room.match.restore(game)
            except Exception as exc:  # one bad log closes its room, not the whole server
                game.quarantined = f"{type(exc).__name__}: {exc}"[:1000]
                log.error(
                    "room %s: game %d (%s) cannot be replayed, set aside: %s",
                    room_id,
                    game.id,
                    game.public_id,
                    game.quarantined,
                    extra={"room": room_id},
                )
                await store.quarantine(game.id, game.quarantined)
        if game.quarantined is not None:
            room.closed = f"game {game.number} could not be replayed"
            room.match.number, room.match.state, players = game.number, None, []
            break
        _, state, record = room.match.current()
        if state.over and not game.finished:  # stopped between the two writes
            await store.finish_game(game.id, result_json(state.result()))
        players = game.players or []
    await name_who_left(store, seats, players)
    now = time.time()
    for seat in room.seats:
        if seat.player is not None:
            seat.away_since = now
    if room.playing:
        room.driver.ask(room.match.current().state.pending(), now)
        if ends_deal(room.match.log[-1].events, room.match.current().state):
            room.begin_break(now, waiting=False)  # stopped between two deals: a fresh break
        room.driver.start()
    return room
