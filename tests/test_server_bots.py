"""The server's bots: room settings read against their schema, budgets that are the server's,
thinking off the event loop, and rooms of bots alone that wait for a person."""

from __future__ import annotations

import asyncio
import time

import pytest

from yamen.errors import OptionsError
from yamen.server.registry import Rooms
from yamen.server.rooms import Room, Seat
from yamen.server.storage import Store
from yamen.server.thinking import Thinker

BAD_SETTINGS = [
    {"stand_in": "search:seconds=null:iterations=2000000000"},  # a budget of the client's
    {"stand_in": "rules:foo=1"},
    {"stand_in": "nonexistent"},
    {"stand_in": 123},
    {"stand_in": ["rules"]},
    {"bot_delay": "1"},
    {"bot_delay": True},
    {"bot_delay": float("nan")},
    {"away_seconds": 1e9},
    {"turn_seconds": 0},
    {"colour": "red"},
]


async def open_store(path) -> Store:
    store = Store(f"sqlite:///{path}")
    await store.open()
    await store.add_player("p", "P", "token")
    return store


@pytest.mark.parametrize("settings", BAD_SETTINGS)
def test_bad_room_settings_are_refused_and_nothing_is_stored(tmp_path, settings):
    async def go():
        store = await open_store(tmp_path / "s.db")
        with pytest.raises(OptionsError):
            await Rooms(store).create("p", "baohuang", {}, True, settings)
        listed = await store.public_rooms(100)
        await store.close()
        return listed

    assert asyncio.run(go()) == []


def test_a_room_may_name_any_of_the_games_bots_as_stand_in(tmp_path):
    async def go():
        store = await open_store(tmp_path / "s.db")
        rooms = Rooms(store)
        named = [
            (await rooms.create("p", "baohuang", {}, True, {"stand_in": bot})).settings.stand_in
            for bot in ("random", "rules", "search", None)
        ]
        await store.close()
        return named

    assert asyncio.run(go()) == ["random", "rules", "search", None]


def test_a_stored_bad_stand_in_falls_back_to_the_default_on_load(tmp_path):
    """A room stored by an older server with a stand-in it would now refuse still loads, with
    the game's default stand-in, and its other settings kept."""

    async def go():
        store = await open_store(tmp_path / "s.db")
        room = await Rooms(store).create("p", "baohuang", {}, True, {"bot_delay": 0.5})
        async with store.session.begin() as s:
            from yamen.server.storage import RoomRow

            row = await s.get(RoomRow, room.id)
            row.settings = {**row.settings, "stand_in": "search:seconds=null"}
        loaded = await Room.load(store, room.id)
        await store.close()
        return loaded.settings

    settings = asyncio.run(go())
    assert settings.stand_in is None and settings.bot_delay == 0.5


def test_the_server_sets_a_bots_budget_never_the_room():
    thinker = Thinker(seconds=0.25)
    assert thinker.spec("baohuang", "search") == "search:seconds=0.25"
    assert thinker.spec("baohuang", "rules") == "rules"
    assert thinker.budget("baohuang", "search") == pytest.approx(0.25 + thinker.slack)
    assert thinker.budget("criminal_poker", "rules") == 0
    with pytest.raises(OptionsError):
        Thinker(seconds=0)
    with pytest.raises(OptionsError):
        Thinker(workers=-1)


def test_a_bot_seat_takes_a_plain_bot_name_only(tmp_path):
    from yamen.server.rooms import RoomError

    async def go():
        store = await open_store(tmp_path / "s.db")
        room = await Rooms(store).create("p", "baohuang", {}, True, None)
        codes = []
        for bot in ("search:seconds=null", "search:iterations=2000000000", "nonexistent"):
            try:
                await room.set_bot("p", 1, bot)
            except RoomError as exc:
                codes.append(exc.code)
        await store.close()
        return codes, room.seats[1]

    codes, seat = asyncio.run(go())
    assert codes == ["unknown_bot"] * 3 and seat == Seat()


def test_a_bot_decides_in_a_worker_process_with_the_servers_budget():
    """The pool answers like the bot itself, from the same seed, and a search bot's thinking
    costs this process (its event loop) nothing."""
    import random

    from yamen.bots import make_bot
    from yamen.engine import new_game

    state = new_game("baohuang", {}, seed=7)
    while len(state.legal(state.pending()[0])) < 2:
        seat = state.pending()[0]
        state.apply(seat, state.legal(seat)[0])
    seat = state.pending()[0]
    view, legal = state.view(seat), state.legal(seat)
    expected = make_bot("baohuang", "rules").choose(view, legal, random.Random(5))

    async def go():
        thinker = Thinker(workers=1, seconds=0.3)
        thinker.start()
        try:
            rules = await thinker.decide("baohuang", "rules", view, legal, 5)
            started, cpu = time.monotonic(), time.process_time()
            search = await thinker.decide("baohuang", "search", view, legal, 5)
            return rules, search, time.monotonic() - started, time.process_time() - cpu
        finally:
            thinker.close()

    rules, search, took, cpu = asyncio.run(go())
    assert rules == expected and search in legal
    assert took > 0.2  # it searched (a decision with choices takes its budget)...
    assert cpu < took / 2  # ... and not in this process: this one's CPU time stayed small
