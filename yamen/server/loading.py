"""A room as stored, loaded in bounded time: its seats and settings, its match totals as stored
(every finished game's scores, written with its result), and its last game rebuilt by replaying
its log (yamen/records.py) a few milliseconds at a time, so that the event loop goes on
meanwhile. The
match's other games are never replayed: a load costs one game, whatever the length of the match.

A game whose log cannot be replayed is set aside (quarantined) and closes its room, not the
server. Its players count as away until they connect again.
"""

from __future__ import annotations

import logging
import time

from yamen.engine import get_game
from yamen.server.breaks import ends_deal
from yamen.server.match import replay, result_json
from yamen.server.room_store import read_scores
from yamen.server.rooms import Room
from yamen.server.seats import Seat, name_who_left
from yamen.server.settings import Settings
from yamen.server.storage import Store
from yamen.server.thinking import INLINE, Thinker

log = logging.getLogger(__name__)


async def load_room(store: Store, room_id: str, thinker: Thinker = INLINE) -> Room | None:
    """The room as stored; its last game is rebuilt by replaying its log, in turns."""
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
    room.match.scores = read_scores(row.scores, len(seats))
    room.opened = row.created
    players: list[str | None] = []  # who sat at the last game's start
    game = await store.last_game(room_id)
    aside = await store.set_aside(room_id) if game is not None else None
    if game is not None and game.quarantined is None and aside is None:
        try:
            state, steps = await replay(game)
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
            aside = game.number
        else:
            room.match.restore(game, state, steps)
            if state.over and not game.finished:  # stopped between the two writes
                room.match.add_scores(state)
                result = result_json(state.result())
                await store.finish_game(game.id, result, room_id, room.match.scores)
            players = game.players or []
    elif game is not None:
        aside = game.number if aside is None else aside
    if aside is not None:
        room.closed = f"game {aside} could not be replayed"
        room.match.number, room.match.state, players = aside, None, []
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
    room.filler.arm()  # a play-now table waiting for people (filling.py)
    return room
