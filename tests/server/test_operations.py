"""A room's operations are data (yamen/server/operations.py): each one reads back from the
cluster's bus as it was written, reaches the room through a link whether the room runs here or
at another process, and the seams in between (the room handle, the link, the remote room, the
registry, the bus) carry any of them with no method of their own per operation: adding one
touches the room's operations and the lobby's route, nothing in between."""

from __future__ import annotations

import asyncio
import inspect
import json
import re

import pytest

from yamen.engine import get_game
from yamen.server.cluster import ClusterRooms, Link, Remote, Snapshot, bus, messages, proxies
from yamen.server.cluster import registry as cluster_registry
from yamen.server.cluster.messages import Call, decode, encode
from yamen.server.errors import RoomError
from yamen.server.handle import RoomHandle
from yamen.server.operations import (
    AutoPlay,
    Configure,
    FillBots,
    JoinWaiting,
    Leave,
    LeaveWaiting,
    Operation,
    Remove,
    SetBot,
    SitDown,
    Start,
    TakeBack,
    TakeSeat,
)
from yamen.server.registry import Rooms
from yamen.server.storage import Store

SAMPLES = [
    TakeSeat("p", "Ann", 2, "the-code"),
    TakeSeat("p", "安", 0),
    SitDown("p", "Ann", "the-code"),
    SitDown("p", "安"),
    JoinWaiting("p", "Ann"),
    LeaveWaiting("p"),
    Leave("p"),
    TakeBack("p", "Ann"),
    AutoPlay("p", True),
    AutoPlay("p", False),
    SetBot("h", 1, "random"),
    SetBot("h", 1, None),
    FillBots("h"),
    FillBots("h", "random"),
    Remove("h", 3),
    Configure("h", {"players": 5, "deck": [1, 2]}, {"deal_pause": 0}, False),
    Configure("h"),
    Start("h"),
]


def test_every_operation_has_a_sample_here():
    """A new operation is added to SAMPLES, so that the tests below cover it."""
    assert {op.kind for op in SAMPLES} == set(Operation.KINDS)


@pytest.mark.parametrize("op", SAMPLES, ids=lambda op: op.kind)
def test_an_operation_reads_back_from_the_bus_as_written(op):
    call = Call("1", "node-a", "r1", op)
    back = decode(encode(call))
    assert back == call and type(back.op) is type(op)
    assert Operation.from_json(json.loads(json.dumps(op.to_json()))) == op


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "close", "player": "h"},  # a Room method, but no operation
        {"player": "h"},
        ["start", "h"],
        {"kind": "start"},
        {"kind": "start", "player": "h", "seat": 1},
    ],
)
def test_what_is_no_operation_is_refused(data):
    with pytest.raises(RoomError) as refused:
        Operation.from_json(data)
    assert (refused.value.code, refused.value.status) == ("bad_request", 400)


def test_an_operation_names_its_kind_once():
    with pytest.raises(TypeError, match="kind"):

        class Unnamed(Operation):
            async def apply(self, room) -> None: ...

    with pytest.raises(TypeError, match="Start's"):

        class Again(Operation, kind="start"):
            async def apply(self, room) -> None: ...

    assert Operation.KINDS["start"] is Start


def test_the_seams_between_the_lobby_and_the_room_have_no_method_per_operation():
    """The room handle has ``run`` and no more; the link, the remote room, the registry and
    the bus neither define a method named after an operation nor name one."""
    handle = {name for name in vars(RoomHandle) if not name.startswith("_")}
    assert handle == {
        "invite",
        "host",
        "public",
        "info",
        "may_watch",
        "run",
        "attach",
        "detach",
        "receive",
    }
    kinds = set(Operation.KINDS)
    for cls in (Link, Remote, ClusterRooms):
        assert not kinds & set(dir(cls)), cls
    names = "|".join(cls.__name__ for cls in Operation.KINDS.values())
    quoted = "|".join(kinds)
    for module in (proxies, cluster_registry, bus, messages):
        source = inspect.getsource(module)
        assert not re.search(rf"\b({names})\b", source), module.__name__
        assert not re.search(rf"[\"']({quoted})[\"']", source), module.__name__


class FakeRooms:
    """What a link and a remote room use of ClusterRooms: the rooms loaded here, and a bus whose
    calls go through the bus's encoding to the owner's room (``owner``)."""

    def __init__(self, owner):
        self.owner = owner
        self.loaded = {}
        self.bus = self
        self.calls = []

    async def call(self, owner, room_id, op, seconds=None):
        call = decode(encode(Call("1", "here", room_id, op)))
        self.calls.append(call.op)
        if call.op is not None:
            await self.owner.run(call.op)
        return Snapshot.of(self.owner)


def test_every_operation_reaches_the_room_through_a_link_here_or_elsewhere(tmp_path):
    async def go():
        store = Store(f"sqlite:///{tmp_path / 'ops.db'}")
        await store.open()
        for who in ("h", "p"):
            await store.add_player(who, who.upper(), f"token-{who}")
        game = get_game("bao_qingtian", {"players": 4})
        room = await Rooms(store).create("h", game, True, {"deal_pause": 0})
        here, elsewhere = FakeRooms(room), FakeRooms(room)
        here.loaded[room.id] = room
        local, remote = Link(here, room.id), Link(elsewhere, room.id)
        local.target = room
        remote.target = Remote(elsewhere, room.id, "owner", Snapshot.of(room))
        seen = []
        for link, op in [
            (remote, TakeSeat("p", "P", 1)),
            (local, Remove("h", 1)),
            (remote, TakeSeat("p", "P", 2)),
            (local, Leave("p")),
            (remote, Configure("h", {"players": 3})),
            (local, SetBot("h", 0, "random")),
            (remote, FillBots("h", "random")),
            (local, SetBot("h", 1, None)),
            (remote, FillBots("h")),
            (remote, Start("h")),
        ]:
            await link.run(op)
            seen.append((op.kind, [(s["player"], s["bot"]) for s in link.info()["seats"]]))
        with pytest.raises(RoomError) as refused:
            await remote.run(SetBot("h", 5, "random"))
        status = link.info()["status"]
        await room.close()
        await store.close()
        return seen, elsewhere.calls, refused.value, status

    seen, relayed, refused, status = asyncio.run(go())
    stand_in = seen[-2][1][1][1]  # the room's stand-in: FillBots without a bot
    assert stand_in is not None
    assert seen == [
        ("take_seat", [(None, None), ("p", None), (None, None), (None, None)]),
        ("remove", [(None, None)] * 4),
        ("take_seat", [(None, None), (None, None), ("p", None), (None, None)]),
        ("leave", [(None, None)] * 4),
        ("configure", [(None, None)] * 3),
        ("set_bot", [(None, "random"), (None, None), (None, None)]),
        ("fill_bots", [(None, "random")] * 3),
        ("set_bot", [(None, "random"), (None, None), (None, "random")]),
        ("fill_bots", [(None, "random"), (None, stand_in), (None, "random")]),
        ("start", [(None, "random"), (None, stand_in), (None, "random")]),
    ]
    kinds = ["take_seat", "take_seat", "configure", "fill_bots", "fill_bots", "start", "set_bot"]
    assert [op.kind for op in relayed] == kinds  # through the bus's encoding to the owner
    assert (refused.code, refused.params) == ("no_seat", {"seat": 5, "high": 2})
    assert status == "playing"
