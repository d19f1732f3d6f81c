"""The seams of the server that need no database: a room, a link and a remote room are all a
RoomHandle (a room and a link, which a client attaches through, a LiveRoom), every message of
the cluster's bus reads back as it was written, and a room's operations travel as data: the
same ``run`` carries each of them to the room, with no method of their own in between."""

from __future__ import annotations

import pytest

from yamen.engine import get_game
from yamen.server.cluster import Link, Remote, Snapshot
from yamen.server.cluster.messages import (
    Answer,
    Attach,
    Call,
    Deliver,
    Detach,
    Forward,
    Missed,
    Moved,
    decode,
    encode,
)
from yamen.server.handle import LiveRoom, RoomHandle
from yamen.server.operations import TakeSeat
from yamen.server.rooms import Room, Seat
from yamen.server.settings import Settings

SEEN = Snapshot(
    info={"id": "r1", "seats": [{"seat": 0, "name": "安"}]},
    invite="the-code",
    host="h",
    public=False,
    players=["p", None],
)


def test_a_room_a_link_and_a_remote_are_room_handles():
    room = Room(None, "r1", get_game("baohuang"), True, "code", "h", Settings(), [Seat()] * 5)
    remote = Remote(None, "r1", "owner", SEEN)
    link = Link(None, "r1")
    link.target = remote
    for handle in (room, remote, link):
        assert isinstance(handle, RoomHandle)
    # what a registry hands out can send a silent client the table again; a remote room is
    # only ever reached through a link
    assert isinstance(room, LiveRoom) and isinstance(link, LiveRoom)
    assert not isinstance(remote, LiveRoom)
    assert link.may_watch("p", None) and not link.may_watch("q", "wrong")
    assert link.info() == SEEN.info and link.host == "h" and not link.public


@pytest.mark.parametrize(
    "message",
    [
        Call("7", "node-a", "r1", TakeSeat("p", "Ann", 2, None)),
        Call("7", "node-a", "r1", None),
        Answer("7", snapshot=SEEN),
        Answer("8", error=("taken", "seat 2 is taken", 409)),
        Answer("9", moved=True),
        Attach("node-a", "3", "r1", "p"),
        Attach("node-a", "4", "r1", None),
        Forward("node-a", "3", "r1", {"type": "act", "id": "x", "action": 5, "seq": 2}),
        Detach("node-a", "3", "r1"),
        Deliver("node-b", "3", '{"type":"chat","text":"第一行\\n二","at":1.5}'),
        Deliver("node-b", "3", "text with\na raw newline and a space"),
        Moved("node-b", "r1"),
        Missed("node-b", [("3", "r1"), ("4", "r2")]),
    ],
)
def test_every_bus_message_reads_back_as_written(message):
    assert decode(encode(message)) == message


def test_the_bus_takes_each_numbered_message_once_and_counts_the_missing():
    """A receiver ignores a number it has had (a batch published again after Redis failed
    midway) and tells ``missed`` how many numbers never came (the clients then resync)."""
    import asyncio

    from yamen.server.cluster.bus import Bus
    from yamen.server.metrics import Metrics

    got, missed = [], []

    async def go():
        bus = Bus(
            "redis://127.0.0.1:1",  # never connected: only receiving is tried
            "p:",
            "me",
            got.append,
            gone=lambda node: None,
            alive=None,
            missed=lambda node, count: missed.append((node, count)),
            resubscribed=lambda seconds: None,
            metrics=Metrics(),
            patience=1.0,
        )
        for number in (1, 2, 2, 1, 5, 6, 5):
            bus._receive(f"them:{number} {encode(Moved('them', f'r{number}'))}")
        bus._receive(f"others:1 {encode(Moved('others', 'x'))}")  # numbered per sender
        return bus.metrics.text().decode()

    metrics = asyncio.run(go())
    assert [m.room for m in got] == ["r1", "r2", "r5", "r6", "x"]
    assert missed == [("them", 2)]
    assert 'yamen_bus_messages_total{outcome="duplicate"} 3.0' in metrics
    assert 'yamen_bus_messages_total{outcome="missed"} 2.0' in metrics
