"""The log is the room's: a state frame (hello, sync) carries the receiver's whole visible log
of the game, as its updates carried it, and who a stand-in played for (timer, absence, a seat
left) is told in the update and kept with the action, across a restart too."""

from __future__ import annotations

import asyncio

import pytest

from tests.server.helpers import FAST, ServerThread, room_with, run
from yamen.client import Lobby, SeatClient
from yamen.engine import new_game
from yamen.server.driver import Driver
from yamen.server.seats import Seat
from yamen.server.settings import Settings
from yamen.server.thinking import INLINE


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "history.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


def told(frames: list[dict]) -> list[dict]:
    """A connection's updates as history entries: those that showed it something or were a
    stand-in's (the rest are left out of a history)."""
    return [
        {"seq": f["table"]["seq"], "events": f["events"], "stand_in": f["stand_in"]}
        for f in frames
        if f["type"] == "update" and (f["events"] or f["stand_in"])
    ]


async def play_until(seats: list[SeatClient], seq: int) -> None:
    """The people play their first legal action until the game has had ``seq`` actions."""
    async with asyncio.timeout(60):
        while max((s.table or {}).get("seq", 0) for s in seats) < seq:
            for seat in seats:
                table = seat.table
                if seat.my_turn() and table is not None:
                    await seat.request(type="act", action=table["legal"][0], seq=table["seq"])
            await asyncio.sleep(0.01)


def test_a_state_frame_carries_each_receivers_whole_log(server):
    async def go():
        rid, lobbies = await room_with(server.url, "baohuang", {"deals": 1}, people=2)
        seats = [await SeatClient.connect(lob.ws_url(rid), lob.token) for lob in lobbies]
        watcher = await SeatClient.connect(lobbies[0].ws_url(rid))
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        await play_until(seats, 12)
        for client in (*seats, watcher):  # what each heard, up to the table it holds now
            await client.request(type="sync")
        heard = [told(c.frames) for c in (*seats, watcher)]
        last = [c.table["seq"] for c in (*seats, watcher)]
        # a reload: new connections get the whole log in their first state frame
        again = [await SeatClient.connect(lob.ws_url(rid), lob.token) for lob in lobbies]
        again.append(await SeatClient.connect(lobbies[0].ws_url(rid)))
        states = [c.frames[-1] for c in again]
        for client in (*seats, watcher, *again):
            await client.close()
        return heard, last, states

    heard, last, states = run(go())
    for mine, seq, state in zip(heard, last, states, strict=True):
        assert state["type"] == "state"
        history = state["table"]["history"]
        at = state["table"]["seq"]
        assert history[0]["seq"] == 0 and at >= 12
        # exactly what the updates carried, up to where the first connection had heard
        assert [e for e in history if e["seq"] <= seq] == [e for e in mine if e["seq"] <= seq]
    kinds = [{e["kind"] for e in events_in(s)} for s in states]
    assert "hand" in kinds[0] and "hand" in kinds[1]  # each seat is told its own hand
    assert "hand" not in kinds[2]  # the spectator none
    hands = [[e["data"] for e in events_in(s) if e["kind"] == "hand"] for s in states[:2]]
    assert hands[0] and hands[1] and hands[0] != hands[1]  # and only its own


def events_in(state: dict) -> list[dict]:
    return [e for entry in state["table"]["history"] for e in entry["events"]]


def test_updates_carry_no_history(server):
    async def go():
        rid, lobbies = await room_with(server.url, "bao_qingtian", {"players": 3}, people=1)
        (me,) = [await SeatClient.connect(lobbies[0].ws_url(rid), lobbies[0].token)]
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        await me.wait(lambda f: f["type"] == "update")
        await me.close()
        return me.frames

    frames = run(go())
    updates = [f for f in frames if f["type"] == "update"]
    assert updates and all(f["table"]["history"] is None for f in updates)
    assert all(
        f["table"]["history"] is not None for f in frames if f["type"] == "state" and f["table"]
    )


def test_a_timer_move_is_told_as_a_stand_in_and_kept_across_a_restart(tmp_path):
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    settings = {**FAST, "turn_seconds": 1}

    async def first(url):
        rid, lobbies = await room_with(url, "bao_qingtian", {"players": 3}, 1, settings=settings)
        me = await SeatClient.connect(lobbies[0].ws_url(rid), lobbies[0].token)
        watcher = await SeatClient.connect(lobbies[0].ws_url(rid))
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        mine = await me.wait(lambda f: f["type"] == "update" and f["stand_in"], 30)
        seen = await watcher.wait(lambda f: f["type"] == "update" and f["stand_in"], 10)
        others = [f["stand_in"] for f in me.frames if f["type"] == "update"]
        await me.close()
        await watcher.close()
        return rid, lobbies[0].token, mine, seen, others

    async def second(url, rid, token):
        again = await SeatClient.connect(Lobby(url, token).ws_url(rid), token)
        state = again.frames[-1]
        await again.close()
        return state

    with ServerThread(db) as one:
        rid, token, mine, seen, others = run(first(one.url))
    with ServerThread(db) as two:
        state = run(second(two.url, rid, token))

    assert mine["stand_in"] == {"seat": 0, "why": "timeout"}
    assert mine["events"]  # what the stand-in did, in the same update
    assert seen["stand_in"] == mine["stand_in"] and seen["table"]["seq"] == mine["table"]["seq"]
    assert [s for s in others if s is not None and s["seat"] != 0] == []  # bots play their own
    entries = {e["seq"]: e for e in state["table"]["history"]}
    kept = entries[mine["table"]["seq"]]
    assert kept["stand_in"] == {"seat": 0, "why": "timeout"}
    assert kept["events"] == mine["events"]


def test_an_absence_and_a_seat_left_are_told_too(server):
    async def go():
        settings = {**FAST, "away_seconds": 0.2}
        rid, lobbies = await room_with(
            server.url, "bao_qingtian", {"players": 3}, 3, settings=settings
        )
        seats = [await SeatClient.connect(lob.ws_url(rid), lob.token) for lob in lobbies]
        await seats[1].close()  # seat 1 is away; seat 2 leaves once the game is on
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        await lobbies[2].call("POST", f"/api/rooms/{rid}/leave")
        whys = set()
        async with asyncio.timeout(60):
            while not {"away", "left"} <= whys:
                table = seats[0].table
                if seats[0].my_turn() and table is not None:
                    await seats[0].request(type="act", action=table["legal"][0], seq=table["seq"])
                frames = seats[0].frames
                whys = {(f["stand_in"] or {}).get("why") for f in frames if f["type"] == "update"}
                if table is not None and table["result"] is not None:
                    break
                await asyncio.sleep(0.02)
        stand_ins = [f["stand_in"] for f in seats[0].frames if f["type"] == "update"]
        for seat in (seats[0], seats[2]):
            await seat.close()
        return stand_ins

    stand_ins = [s for s in run(go()) if s is not None]
    assert {"seat": 1, "why": "away"} in stand_ins
    assert {"seat": 2, "why": "left"} in stand_ins
    assert all(s["seat"] in (1, 2) for s in stand_ins)


# ----- why the driver plays a seat --------------------------------------------------------


def test_the_driver_says_why_it_plays_a_persons_seat():
    state = new_game("bao_qingtian", {"players": 3}, seed=4)
    seat = state.pending()[0]
    asked = 1_000.0

    def why(sitter: Seat, settings: Settings) -> str | None:
        seats = [Seat(bot="random") for _ in range(3)]
        seats[seat] = sitter

        async def act(*_):  # never called: only asked when and why
            raise AssertionError

        driver = Driver(
            "r", "bao_qingtian", INLINE, seats=lambda: seats, settings=lambda: settings,
            in_play=lambda: (state, 0), present=lambda: True, talkers=lambda: True,
            busy=lambda: False, act=act,
        )  # fmt: skip
        driver.ask(state.pending(), asked)
        move = driver._next_move(state)
        assert move is not None and move.seat == seat
        return move.why

    timer = Settings(turn_seconds=5, away_seconds=30)
    assert why(Seat(player="p", name="Ann", connections=1), timer) == "timeout"
    assert why(Seat(player="p", name="Ann", away_since=asked), timer) == "timeout"  # 5 < 30
    assert why(Seat(player="p", name="Ann", away_since=asked - 60), timer) == "away"
    assert why(Seat(bot="random", left="Ann"), timer) == "left"
    assert why(Seat(player="p", name="Ann", bot="rules", connections=1), timer) == "auto"
    assert why(Seat(bot="random"), timer) is None  # a bot's own seat: no stand-in
