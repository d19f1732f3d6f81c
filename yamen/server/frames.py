"""The frames a room sends, built from the live protocol's models (yamen/server/protocol.py).

Each function here fills one model and writes it as JSON text, so a frame holds exactly the
fields its model declares: a field the protocol does not document cannot reach a client. The
models are filled with ``model_construct``, not validated again: the values are the server's
own, a frame is built for every receiver of every action, and tests/server/test_audit.py
validates every frame a game sends. Pydantic writes the JSON (compact, non-ASCII as is); it is
what ``json.dumps`` wrote before, key for key and value for value (a float may be spelt
differently: ``1e-5`` for ``1e-05``), and it is faster than building dicts and ``json.dumps``.

A room builds each distinct frame once, however many connections get it: one per audience
(a seat, or the spectators) when what it shows depends on who looks, else one for all.

An update sends a view's logs by their new items (:func:`tails`): a Baohuang view holds every
set played in the deal, so whole views made an action's frames grow from about 10 to 26 KiB
through a deal, and the server's CPU with them (issue 23).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from pydantic import BaseModel

from yamen.engine import Event, State, score_json, visible_to
from yamen.server import protocol

if TYPE_CHECKING:
    from yamen.server.history import Step


class Sitter(Protocol):
    """What a room's seat shows of itself (yamen.server.rooms.Seat)."""

    player: str | None
    name: str | None
    bot: str | None
    left: str | None
    left_by: str | None

    @property
    def auto(self) -> bool: ...

    @property
    def online(self) -> bool: ...

    def is_away(self, away_seconds: float, now: float) -> bool: ...


def text(frame: BaseModel) -> str:
    return frame.model_dump_json()


def dumps(frame: dict[str, Any]) -> str:
    """A frame built as a dict (:func:`yamen.server.protocol.error`), as the models write it."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


# ----- the parts: a seat, the room, the table --------------------------------------------------


def seat(index: int, sitter: Sitter, away_seconds: float, now: float) -> protocol.SeatInfo:
    return protocol.SeatInfo.model_construct(
        seat=index,
        player=sitter.player,  # a public id (the token is the secret)
        name=sitter.name,
        bot=sitter.bot,
        online=sitter.online,
        away=sitter.is_away(away_seconds, now),
        left=sitter.left,
        left_by=sitter.left_by,
        auto=sitter.auto,
    )


def room_info(
    *,
    id: str,
    game: str,
    options: dict[str, Any],
    public: bool,
    host: str,
    seats: list[protocol.SeatInfo],
    status: str,
    number: int,
    game_id: str | None,
    scores: Sequence[Fraction],
    settings: dict[str, Any],
    fill_at: float | None = None,
) -> protocol.RoomInfo:
    return protocol.RoomInfo.model_construct(
        id=id,
        game=game,
        options=options,
        public=public,
        host=host,
        seats=seats,
        status=status,
        number=number,
        game_id=game_id,  # the latest game's (/api/games/{id}/record)
        scores=[score_json(s) for s in scores],
        settings=settings,
        fill_at=fill_at,
    )


def seat_table(
    state: State,
    seat: int | None,
    *,
    game_id: str | None,
    number: int,
    seq: int,
    deadlines: dict[str, float],
    totals: Sequence[Fraction],
    pause: protocol.Pause | None = None,
    history: list[protocol.Entry] | None = None,
    history_before: int | None = None,
) -> protocol.SeatTable:
    """The game as ``seat`` (None: a spectator) may see it; for a state frame, the latest
    entries of its log (``history``) and the cursor to page back from them
    (yamen/server/history.py). During a ``pause`` between two deals nobody is asked
    anything: no seat is pending and none has legal actions until it ends."""
    result, view = state.result(), state.view(seat)
    asked = pause is None  # (and the view's legal texts, aligned with legal, are none either)
    return protocol.SeatTable.model_construct(
        game_id=game_id,
        number=number,
        seq=seq,
        view=view if asked or "legal" not in view else {**view, "legal": []},
        pending=list(state.pending()) if asked else [],
        legal=state.legal(seat) if seat is not None and asked else [],
        deadlines=deadlines,
        result=None if result is None else result.to_json(),
        totals=[score_json(s) for s in totals],
        pause=pause,
        history=history,
        history_before=history_before,
    )


class Base(NamedTuple):
    """What :func:`tails` keeps of the last update an audience got: its game and step, and
    the length of each log of its view (ints only: a room keeps no view alive between two
    updates, which would cost every garbage collection)."""

    number: int
    seq: int
    lengths: dict[str, int]


def tails(
    table: protocol.SeatTable, base: Base | None, logs: tuple[str, ...]
) -> tuple[protocol.SeatTable, Base]:
    """``table`` as an update carries it to an audience whose last update ``base`` was, and
    the base for its next one; ``logs``: the game's :attr:`~yamen.engine.Game.view_logs`.

    A log that has at least as many items as at ``base`` extended it (what the game declares)
    and is sent as its new items; ``appended`` maps its key to how many items of the
    receiver's own list come first: the receiver's list is ``mine[:n] + sent``. Only from a
    base of this game at this step or the one before: a receiver holds that step's view (the
    update that told it, or a state frame since, which shows the same view), or it missed an
    update and asks for the whole table (a ``sync``) instead of joining the parts."""
    view = table.view
    lengths = {key: len(view[key]) for key in logs if type(view.get(key)) is list}
    appended = {}
    if base is not None and base.number == table.number and table.seq - base.seq in (0, 1):
        for key, kept in base.lengths.items():
            if 0 < kept <= lengths.get(key, -1):
                appended[key] = kept
    if appended:
        short = {k: v[appended[k] :] if k in appended else v for k, v in view.items()}
        table = table.model_copy(update={"view": short, "appended": appended})
    return table, Base(table.number, table.seq, lengths)


def shown(events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    """What ``seat`` may see of ``events``, as a frame carries them."""
    return [{"kind": e.kind, "data": e.data} for e in visible_to(events, seat)]


def stand_in(why: dict[str, Any] | None) -> protocol.StandIn | None:
    return None if why is None else protocol.StandIn.model_construct(**why)


def history(steps: Sequence[Step], seat: int | None) -> list[protocol.Entry]:
    """``seat``'s whole log of the game, the definition of its share: each step's part of it,
    as its ``update`` carried it; the steps that showed the seat nothing (and played no seat
    by a stand-in) are left out. A room keeps each share as the game goes and sends it a
    bounded part at a time (yamen/server/history.py, whose tests hold it to this)."""
    entries = []
    for seq, (events, why) in enumerate(steps):
        mine = shown(events, seat)
        if mine or why is not None:
            entries.append(
                protocol.Entry.model_construct(seq=seq, events=mine, stand_in=stand_in(why))
            )
    return entries


def entries(steps: Sequence[Step], seqs: Iterable[int], seat: int | None) -> list[protocol.Entry]:
    """``seat``'s entries for the steps ``seqs`` of ``steps`` (steps of its share)."""
    return [
        protocol.Entry.model_construct(
            seq=seq, events=shown(steps[seq].events, seat), stand_in=stand_in(steps[seq].stand_in)
        )
        for seq in seqs
    ]


def chat_line(name: str, seat: int | None, said: str, at: float) -> dict[str, Any]:
    """One line of a state frame's recent chat: a chat frame without its type."""
    return {"name": name, "seat": seat, "text": said, "at": at}


# ----- the frames, as JSON text --------------------------------------------------------------


def welcome(player: str | None, seat: int | None) -> str:
    return text(
        protocol.Welcome.model_construct(
            type="welcome", v=protocol.VERSION, player=player, seat=seat
        )
    )


def state(
    room: protocol.RoomInfo, table: protocol.SeatTable | None, chat: list[dict[str, Any]]
) -> str:
    return text(
        protocol.StateFrame.model_construct(type="state", room=room, table=table, chat=chat)
    )


def update(
    events: list[Event],
    seat: int | None,
    table: protocol.SeatTable,
    why: dict[str, Any] | None = None,
) -> str:
    """What ``seat`` may see of ``events``, and the table now; ``why``: the seat a stand-in
    played for, and why ({"seat", "why"})."""
    frame = protocol.Update.model_construct(
        type="update", events=shown(events, seat), table=table, stand_in=stand_in(why)
    )
    return text(frame)


def history_page(
    id: str | int | None, game_id: str, entries: list[protocol.Entry], before: int | None
) -> str:
    """A page of a receiver's log, answering its ``history`` request ``id``."""
    frame = protocol.HistoryPage.model_construct(
        type="history", id=id, game_id=game_id, entries=entries, before=before
    )
    return text(frame)


def room(info: protocol.RoomInfo) -> str:
    return text(protocol.RoomFrame.model_construct(type="room", room=info))


def presence(index: int, sitter: protocol.SeatInfo) -> str:
    """A seat's presence changed: a small frame, whatever the size of the room's info."""
    frame = protocol.Presence.model_construct(
        type="presence", seat=index, online=sitter.online, away=sitter.away
    )
    return text(frame)


def ack(id: str | int | None, seq: int | None) -> str:
    return text(protocol.Ack.model_construct(type="ack", id=id, seq=seq))


def chat(name: str, seat: int | None, said: str, at: float) -> str:
    return text(
        protocol.ChatFrame.model_construct(type="chat", name=name, seat=seat, text=said, at=at)
    )


def error(code: str, message: str, id: Any = None, params: dict[str, Any] | None = None) -> str:
    """A refusal (no ``retry_after``: that is a limit's, yamen/server/live.py); ``params`` only
    where the message has variable parts."""
    frame = protocol.Error.model_construct(type="error", id=id, code=code, message=message)
    if params:
        frame = frame.model_copy(update={"params": params})
    return frame.model_dump_json(exclude_unset=True)
