"""The messages between the processes of a cluster, and how each is written on the wire.

They are frozen dataclasses, written to and read from the wire here and nowhere else
(:func:`encode`, :func:`decode`), so that what one process writes the other reads back as it was:
``<kind> <fields as a JSON object>``, except that a :class:`Deliver` carries its frame, already
JSON text, after a newline as it is (a frame is never encoded twice). All processes of a cluster
run the same version of Yamen. How they travel (each process's channel, the numbered envelope,
keeping and publishing again) is the bus's (bus.py).

- :class:`Call` and :class:`Answer`: a lobby operation (yamen/server/operations.py, written as
  its tagged JSON) done by the room's owner, and its outcome (the room's :class:`Snapshot`
  after it, or a refusal);
- :class:`Attach`, :class:`Forward`, :class:`Detach`: a client connected to one process, as
  the owner's room sees it: attached, one of its frames, gone;
- :class:`Deliver`: a frame of the owner's room for such a client;
- :class:`Moved`: the sender no longer runs the room (the client's process looks for the owner);
- :class:`Missed`: the sender may have lost messages from the receiver: the receiver sends its
  clients of the sender's rooms the table again, and says which of them are gone;
- :class:`Revoked`: some of a player's sessions were revoked; sent to every process at once, on
  the channel ``{prefix}all`` that each one listens on as well as its own.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from yamen.server.operations import Operation

if TYPE_CHECKING:
    from yamen.server.rooms import Room


@dataclass(frozen=True)
class Snapshot:
    """What a process that does not own a room knows of it: enough to answer lobby calls and
    to check who may watch."""

    info: dict[str, Any]
    invite: str
    host: str
    public: bool
    players: list[str | None]

    @classmethod
    def of(cls, room: Room) -> Snapshot:
        # who sits, or left a seat of the game in progress: both may watch (Room.may_watch)
        players = [seat.player or seat.left_by for seat in room.seats]
        return cls(room.info(), room.invite, room.host, room.public, players)


@dataclass(frozen=True)
class Call:
    """Do the lobby operation ``op`` on the owner's room (None: nothing, the snapshot only)."""

    id: str
    origin: str
    room: str
    op: Operation | None


@dataclass(frozen=True)
class Answer:
    """A call's outcome: the room's snapshot after it, a refusal (code, message, HTTP status),
    or ``moved`` (the process asked does not own the room)."""

    id: str
    snapshot: Snapshot | None = None
    error: tuple[str, str, int, dict[str, Any]] | None = None
    moved: bool = False


@dataclass(frozen=True)
class Attach:
    """A client of ``origin`` (its id there: ``client``) joins the owner's room."""

    origin: str
    client: str
    room: str
    player: str | None


@dataclass(frozen=True)
class Forward:
    """One of the client's frames (a validated client message, as plain data) for its room."""

    origin: str
    client: str
    room: str
    frame: dict[str, Any]


@dataclass(frozen=True)
class Detach:
    """The client is gone."""

    origin: str
    client: str
    room: str


@dataclass(frozen=True)
class Deliver:
    """A frame (JSON text) of the owner's room for one of the receiver's clients."""

    owner: str
    client: str
    text: str


@dataclass(frozen=True)
class Moved:
    """The sender (``origin``) does not run the room (any more)."""

    origin: str
    room: str


@dataclass(frozen=True)
class Revoked:
    """Some of ``player``'s sessions were revoked by ``origin`` (``deleted``: their account
    too): each process closes its connections whose token went (yamen/server/revocation.py)."""

    origin: str
    player: str
    deleted: bool = False


@dataclass(frozen=True)
class Missed:
    """``origin`` may have lost messages from the receiver (its subscriber connection dropped,
    or a number never came): the receiver sends the table again to its clients of the rooms
    ``origin`` owns, and detaches those of ``clients`` (its ids for them, with their rooms, as
    ``origin`` holds them) it no longer has."""

    origin: str
    clients: list[tuple[str, str]]


Message = Call | Answer | Attach | Forward | Detach | Deliver | Moved | Revoked | Missed
KINDS: dict[str, type[Any]] = {
    "call": Call,
    "answer": Answer,
    "attach": Attach,
    "forward": Forward,
    "detach": Detach,
    "deliver": Deliver,
    "moved": Moved,
    "revoked": Revoked,
    "missed": Missed,
}
KIND_OF = {cls: kind for kind, cls in KINDS.items()}


def encode(message: Message) -> str:
    if isinstance(message, Deliver):  # the hot path: no dict, and the frame as it is
        return f"deliver {json.dumps([message.owner, message.client])}\n{message.text}"
    if isinstance(message, Call):  # the operation tagged with its kind (asdict would not)
        op = None if message.op is None else message.op.to_json()
        fields = {"id": message.id, "origin": message.origin, "room": message.room, "op": op}
    else:
        fields = asdict(message)
    return f"{KIND_OF[type(message)]} {json.dumps(fields, ensure_ascii=False)}"


def decode(data: str) -> Message:
    kind, _, rest = data.partition(" ")
    if kind == "deliver":
        head, _, text = rest.partition("\n")  # a JSON header holds no raw newline
        owner, client = json.loads(head)
        return Deliver(owner, client, text)
    fields = json.loads(rest)
    if kind == "missed":
        fields["clients"] = [tuple(pair) for pair in fields["clients"]]
    if kind == "call" and fields["op"] is not None:
        fields["op"] = Operation.from_json(fields["op"])
    if kind == "answer":
        if fields["snapshot"] is not None:
            fields["snapshot"] = Snapshot(**fields["snapshot"])
        if fields["error"] is not None:
            fields["error"] = tuple(fields["error"])
    return KINDS[kind](**fields)
