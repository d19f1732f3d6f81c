"""The live protocol's messages, as schemas (Pydantic): what a client may send over the
WebSocket and what the server sends back. docs/protocol.md explains them; ``yamen serve``
publishes their JSON Schema at ``/api/protocol``.

Every frame is one JSON object with a ``type``. Client frames are validated strictly (unknown
keys, wrong types and oversized strings are refused, and ``true`` is not the action 1); a
refused frame is answered with an ``error`` and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

from yamen.wire import VERSION as VERSION  # the protocol's version, re-exported for the server

MAX_TEXT = 500


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


SafeInt = Annotated[StrictInt, Field(ge=-(2**53), le=2**53)]
"""Numbers a client sends are integers any JSON reader holds exactly: a 4,000-digit number is
refused here, not echoed back in an error or compared against a game's actions."""
ClientId = Annotated[StrictStr, Field(max_length=64)] | SafeInt | None


class Hello(Strict):
    """The first frame: who is connecting. Without a token the client is a spectator."""

    type: Literal["hello"]
    v: SafeInt
    token: Annotated[StrictStr, Field(max_length=128)] | None = None
    invite: Annotated[StrictStr, Field(max_length=64)] | None = None


class Act(Strict):
    """An action for the client's seat: its id (from ``legal``) or its text in the game's
    notation. ``seq``, when given, must be the current action count: a stale click is refused
    instead of landing on a newer question."""

    type: Literal["act"]
    id: ClientId = None
    action: SafeInt | None = None
    text: Annotated[StrictStr, Field(max_length=MAX_TEXT)] | None = None
    seq: SafeInt | None = None


class Chat(Strict):
    type: Literal["chat"]
    id: ClientId = None
    text: Annotated[StrictStr, Field(min_length=1, max_length=MAX_TEXT)]


class Sync(Strict):
    """Ask for the whole table again (the server also sends it after every hello)."""

    type: Literal["sync"]
    id: ClientId = None


class History(Strict):
    """Ask for the entries of the sender's log of the game just before ``before`` (a state
    frame's ``table.history_before``, or a ``history`` frame's ``before``), a page at a time."""

    type: Literal["history"]
    id: ClientId = None
    before: Annotated[StrictInt, Field(ge=0, le=2**53)]


class Ready(Strict):
    """Between two deals (``table.pause``): the sender's seat is ready for the next one."""

    type: Literal["ready"]
    id: ClientId = None


Request = Act | Chat | Sync | Ready | History
"""A frame a room answers (every client frame but the hello)."""
ClientMessage = Annotated[Hello | Act | Chat | Sync | Ready | History, Field(discriminator="type")]
client_message: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


# What the server sends. The server builds its frames from these models (yamen/server/frames.py),
# so a frame holds exactly the fields declared here.


class SeatInfo(BaseModel):
    seat: int
    player: str | None
    name: str | None
    bot: str | None
    online: bool
    away: bool
    left: str | None = None  # who left this seat mid-game: their stand-in bot plays it out
    left_by: str | None = None  # their player id: only they may take the seat back
    auto: bool = False  # a person's seat on auto-play: ``bot`` (the stand-in) plays it for them


class RoomInfo(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    public: bool
    host: str
    seats: list[SeatInfo]
    status: Literal["open", "playing", "over", "closed"]  # closed: a game was set aside
    number: int  # games started in this room's match
    game_id: str | None  # the latest game's public id
    scores: list[int | str]  # match totals per seat, exact
    settings: dict[str, Any]
    # a play-now table's time (epoch seconds) to fill its empty seats with bots and begin,
    # until its first game begins (yamen/server/filling.py); null for any other room
    fill_at: float | None = None


class RoomSummary(BaseModel):
    """A room in the public list (``GET /api/rooms``), of a size that does not grow with its
    options: :class:`RoomInfo` without its settings and scores, its options without those of
    kind ``data`` (a room's own card list), which ``custom`` names when the room sets them, and
    ``preset``, the name of the game's preset its options are (null: none). The room's own
    page (``GET /api/rooms/{id}``) has every option."""

    id: str
    game: str
    preset: str | None
    options: dict[str, Any]  # every option but those of kind data
    custom: list[str]  # the data options the room sets (not null), by name
    public: bool
    host: str
    seats: list[SeatInfo]
    status: Literal["open", "playing", "over", "closed"]
    number: int
    game_id: str | None


class StandIn(BaseModel):
    """A person's seat played by the server's stand-in bot: their turn timer ran out, they
    were away, they left the game, or they turned auto-play on. Public: who was played for is
    no secret."""

    seat: int
    why: Literal["timeout", "away", "left", "auto"]


class Entry(BaseModel):
    """One step of a game's log as its receiver saw it: what an ``update`` carried."""

    seq: int  # actions applied after it (0: the deal, before any action)
    events: list[dict[str, Any]]  # {"kind", "data"}, only those the receiver may see
    stand_in: StandIn | None


class Pause(BaseModel):
    """The break between two deals: until when, and the seats ready for the next one."""

    until: float  # epoch seconds
    ready: list[int]


class SeatTable(BaseModel):
    """One game as the receiving seat may see it."""

    game_id: str  # the game's public id
    number: int
    seq: int  # actions applied so far
    view: dict[str, Any]
    pending: list[int]
    legal: list[int]  # the receiver's legal action ids, aligned with view["legal"]
    deadlines: dict[str, float]  # seat -> epoch seconds, for pending seats on a turn timer
    result: dict[str, Any] | None
    totals: list[int | str]  # match totals per seat, the game's deals so far included
    pause: Pause | None  # between two deals: no action is taken until it ends
    # state frames only (null in updates): the receiver's latest entries of its log of this
    # game, the steps that showed it something (or played its seat by a stand-in), at most
    # yamen/server/history.py's TAIL of them
    history: list[Entry] | None = None
    # with them: the ``before`` of a ``history`` request for the entries older than these;
    # null when ``history`` holds the whole log so far (and in updates)
    history_before: int | None = None
    # updates only: the view's lists sent by their new items, key -> how many items of the
    # receiver's own list (its table's view) come before them (yamen/server/frames.py: tails)
    appended: dict[str, int] | None = None


class Welcome(BaseModel):
    type: Literal["welcome"]
    v: int
    player: str | None
    seat: int | None


class StateFrame(BaseModel):
    """The whole table: after hello, on sync, and when the room changes between games."""

    type: Literal["state"]
    room: RoomInfo
    table: SeatTable | None
    chat: list[dict[str, Any]]


class Update(BaseModel):
    """After every action: what the receiver may see of it, and the table now."""

    type: Literal["update"]
    events: list[dict[str, Any]]  # {"kind", "data"}, only those the receiver may see
    table: SeatTable
    stand_in: StandIn | None = None  # the action was a stand-in's, for a person's seat


class HistoryPage(BaseModel):
    """The answer to a ``history`` request: the entries of the receiver's log just before its
    ``before``, oldest first, and the cursor for the page before these (null: the log starts
    here)."""

    type: Literal["history"]
    id: str | int | None
    game_id: str  # the game they belong to (a page of an earlier game is no use)
    entries: list[Entry]
    before: int | None


class RoomFrame(BaseModel):
    type: Literal["room"]
    room: RoomInfo


class Presence(BaseModel):
    """A seated player's connection came or went: the seat's new ``online`` and ``away``. Sent
    instead of the whole room, so that joining (or watching) a room costs the others little."""

    type: Literal["presence"]
    seat: int
    online: bool
    away: bool


class Ack(BaseModel):
    type: Literal["ack"]
    id: str | int | None
    seq: int | None


class ChatFrame(BaseModel):
    type: Literal["chat"]
    name: str
    seat: int | None
    text: str
    at: float


class Beat(BaseModel):
    """The heartbeat: a connection sent nothing for ``every`` seconds hears this. ``number``
    and ``seq`` are what its table should show now (the game number and action count): a
    client whose table is behind missed an update and asks for the table (``sync``); one that
    hears nothing, not even this, for twice ``every`` does the same, then connects again."""

    type: Literal["beat"]
    number: int
    seq: int
    every: float


class InvitesFrame(BaseModel):
    """New invites wait for the receiving player (yamen/server/invite_news.py): the page asks
    for them (``GET /api/invites``). It carries nothing else, not even how many."""

    type: Literal["invites"]


class Error(BaseModel):
    type: Literal["error"]
    id: str | int | None
    code: str
    message: str
    retry_after: int | None = None  # over a limit: seconds until it would be allowed
    params: dict[str, Any] | None = None  # the message's variable parts, for a client's words


ServerMessage = Annotated[
    Welcome
    | StateFrame
    | Update
    | HistoryPage
    | RoomFrame
    | Presence
    | Ack
    | ChatFrame
    | Beat
    | InvitesFrame
    | Error,
    Field(discriminator="type"),
]
server_message: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)


def schemas() -> dict[str, Any]:
    """The JSON Schemas of both directions, as served at /api/protocol."""
    return {
        "version": VERSION,
        "client": client_message.json_schema(),
        "server": server_message.json_schema(),
    }


def error(
    code: str, message: str, id: Any = None, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    frame = {"type": "error", "id": id, "code": code, "message": message}
    return {**frame, "params": params} if params else frame
