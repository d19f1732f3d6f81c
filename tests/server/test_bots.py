"""The server's bots: room settings read against their schema, budgets that are the server's,
thinking off the event loop, and rooms of bots alone that wait for a person."""

from __future__ import annotations

import asyncio
import time

import pytest

from yamen.engine import get_game
from yamen.errors import OptionsError
from yamen.server.loading import load_room
from yamen.server.operations import SetBot, Start, TakeSeat
from yamen.server.registry import Rooms
from yamen.server.rooms import Seat
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
            await Rooms(store).create("p", get_game("baohuang"), True, settings)
        listed = await store.public_rooms(100)
        await store.close()
        return listed

    assert asyncio.run(go()) == []


def test_a_room_may_name_any_of_the_games_bots_as_stand_in(tmp_path):
    async def go():
        store = await open_store(tmp_path / "s.db")
        rooms = Rooms(store)
        named = [
            (
                await rooms.create("p", get_game("baohuang"), True, {"stand_in": bot})
            ).settings.stand_in
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
        room = await Rooms(store).create("p", get_game("baohuang"), True, {"bot_delay": 0.5})
        async with store.session.begin() as s:
            from yamen.server.tables import RoomRow

            row = await s.get(RoomRow, room.id)
            row.settings = {**row.settings, "stand_in": "search:seconds=null"}
        loaded = await load_room(store, room.id)
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
        room = await Rooms(store).create("p", get_game("baohuang"), True, None)
        codes = []
        for bot in ("search:seconds=null", "search:iterations=2000000000", "nonexistent"):
            try:
                await room.run(SetBot("p", 1, bot))
            except RoomError as exc:
                codes.append(exc.code)
        await store.close()
        return codes, room.seats[1]

    codes, seat = asyncio.run(go())
    assert codes == ["unknown_bot"] * 3 and seat == Seat()


def test_a_bot_decides_in_a_worker_process_with_the_servers_budget(monkeypatch):
    """The pool answers like the bot itself, from the same seed, and a search bot's thinking
    costs this process (its event loop) nothing. The worker plays its playouts in Python
    (YAMEN_CORE=python, inherited when it starts), so that its search takes the budget: with
    Baohuang's compiled core a search often ends sooner, by its own rules."""
    monkeypatch.setenv("YAMEN_CORE", "python")
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


class Watcher:
    """A connection that keeps every frame it is sent, with when it came."""

    def __init__(self, player: str | None = None):
        self.player, self.seat = player, None
        self.frames: list[tuple[float, dict]] = []

    def send(self, text: str) -> None:
        import json

        self.frames.append((time.monotonic(), json.loads(text)))


async def bots_room(store: Store, game: str = "baohuang", bot: str = "random", **settings):
    """A room whose host sits nowhere and whose every seat is a bot, its game started."""
    fast = {"bot_delay": 0, "turn_seconds": None, "away_seconds": 3600, **settings}
    room = await Rooms(store).create("p", get_game(game), True, fast)
    for seat in range(len(room.seats)):
        await room.run(SetBot("p", seat, bot))
    await room.run(Start("p"))
    return room


def test_a_room_with_no_person_at_its_table_plays_no_bot_move(tmp_path):
    """Nobody seated, nobody watching: the bots wait. A watcher comes: they play; the watcher
    goes: they wait again."""

    async def go():
        store = await open_store(tmp_path / "s.db")
        room = await bots_room(store)
        await asyncio.sleep(0.5)
        alone = len(room.match.record.actions)
        watcher = Watcher()
        await room.attach(watcher)
        await asyncio.sleep(0.5)
        await room.detach(watcher)
        await asyncio.sleep(0.3)  # a move already thought of may still land
        left = len(room.match.record.actions)
        await asyncio.sleep(0.5)
        after = len(room.match.record.actions)
        await room.close()
        await store.close()
        return alone, left, after

    alone, left, after = asyncio.run(go())
    assert alone == 0
    assert left > 0 and after == left


def test_a_room_of_bots_alone_is_not_resumed_on_restart(tmp_path):
    """A restart resumes rooms where a person is seated; a room of bots alone stays unloaded
    (and so plays nothing) until someone opens it."""

    async def go():
        store = await open_store(tmp_path / "s.db")
        lonely = await bots_room(store)
        rooms = Rooms(store)
        peopled = await rooms.create("p", get_game("bao_qingtian", {"players": 3}), True, None)
        await peopled.run(TakeSeat("p", "P", 0))
        for seat in (1, 2):
            await peopled.run(SetBot("p", seat, "random"))
        await peopled.run(Start("p"))
        for room in (lonely, peopled):
            await room.close()
        restarted = Rooms(store)
        resumed = await restarted.resume()
        loaded = set(restarted.loaded)
        opened = await restarted.get(lonely.id)  # someone opens it: it is there, paused
        await restarted.close()
        await store.close()
        return resumed, loaded, lonely.id, peopled.id, opened.status

    resumed, loaded, lonely, peopled, status = asyncio.run(go())
    assert resumed == 1 and loaded == {peopled}
    assert status == "playing"


class BusyThinker(Thinker):
    """A server whose workers never get to a thinking bot's decision."""

    async def decide(self, game, name, view, legal, seed):
        if self.budget(game, name):
            await asyncio.sleep(3600)
        return await super().decide(game, name, view, legal, seed)


def test_a_bot_past_its_budget_is_cut_off_and_the_table_hears_at_its_time(tmp_path):
    """When no worker answers in time, a quick bot's answer is played at the thinking bot's
    time: the game goes on at its pace, and the time says nothing of how long it took."""

    async def go():
        store = await open_store(tmp_path / "s.db")
        rooms = Rooms(store, BusyThinker(seconds=0.05, slack=0.05))
        fast = {"bot_delay": 0, "turn_seconds": None, "away_seconds": 3600}
        room = await rooms.create("p", get_game("baohuang"), True, fast)
        for seat in range(len(room.seats)):
            await room.run(SetBot("p", seat, "search"))
        watcher = Watcher()
        await room.attach(watcher)
        await room.run(Start("p"))
        await asyncio.sleep(1.5)
        await rooms.close()
        await store.close()
        times = [t for t, f in watcher.frames if f["type"] == "update"]
        return [b - a for a, b in zip(times, times[1:], strict=False)]

    gaps = asyncio.run(go())
    assert len(gaps) >= 5  # the game went on, a move about every 0.1 s...
    paced = [gap for gap in gaps if gap > 0.05]  # (seats asked together answer together)
    assert len(paced) >= 5 and min(paced) > 0.09  # ... never sooner than the search's time


def test_a_bot_asked_late_still_gets_its_budget(tmp_path, caplog):
    """A room nobody was at comes back after its bot's time has passed: the bot still thinks
    its whole budget (it is not cut off at once for being late)."""
    import logging

    async def go():
        store = await open_store(tmp_path / "s.db")
        rooms = Rooms(store, Thinker(seconds=0.1, slack=0.1))
        room = await bots_room(store, bot="search")  # (its own Rooms: the same thinker kind)
        room.thinker = rooms.thinker
        await asyncio.sleep(0.5)  # nobody here: its first move waits
        watcher = Watcher()
        await room.attach(watcher)
        await asyncio.sleep(1.0)
        await room.close()
        await store.close()
        return len(room.match.record.actions)

    with caplog.at_level(logging.INFO, logger="yamen.server.driver"):
        played = asyncio.run(go())
    assert played >= 3
    assert not [r for r in caplog.records if "cut off" in r.getMessage()]


def test_the_servers_bot_workers_stop_with_it(tmp_path):
    import multiprocessing

    from yamen.server.app import create_app

    before = set(multiprocessing.active_children())
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", bot_workers=2)

    async def serve_a_while():
        async with app.router.lifespan_context(app):
            return set(multiprocessing.active_children()) - before

    during = asyncio.run(serve_a_while())
    deadline = time.monotonic() + 10
    while set(multiprocessing.active_children()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(during) >= 2 and not set(multiprocessing.active_children()) - before
