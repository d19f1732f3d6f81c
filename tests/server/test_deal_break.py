"""Between two deals of a game (engine.DEAL_OVER) the room takes a break of ``deal_pause``
seconds: nobody is asked anything, actions are refused (``between_deals``), and the next deal
starts when every connected person has sent ``ready`` or the time is up. The match totals in
the table grow after every deal, not only at the game's end."""

from __future__ import annotations

import asyncio
import time
from fractions import Fraction

import pytest

from tests.server.helpers import FAST, ServerProcess, ServerThread, room_with, run
from yamen.client import Lobby, SeatClient
from yamen.engine import DEAL_OVER, new_game
from yamen.server.settings import Settings


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "breaks.db"
    with ServerThread(f"sqlite:///{db}") as server:
        yield server


async def two_deals(server, people: int, pause: float):
    settings = {**FAST, "deal_pause": pause}
    rid, lobbies = await room_with(server.url, "baohuang", {"deals": 2}, people, settings=settings)
    seats = [await SeatClient.connect(lob.ws_url(rid), lob.token) for lob in lobbies]
    watcher = await SeatClient.connect(lobbies[0].ws_url(rid))
    await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
    return rid, lobbies, seats, watcher


async def to_the_break(seats: list[SeatClient]) -> dict:
    """The people play their first legal action until the first deal is over: the update
    that starts the break (as the first seat got it)."""
    async with asyncio.timeout(120):
        while True:
            for seat in seats:
                table = seat.table
                if table is not None and table["pause"] is not None:
                    return await seats[0].wait(breaking)
                if seat.my_turn() and table is not None:
                    await seat.request(type="act", action=table["legal"][0], seq=table["seq"])
            await asyncio.sleep(0.005)


def breaking(frame: dict) -> bool:
    return frame["type"] == "update" and frame["table"]["pause"] is not None


def over(frame: dict) -> bool:
    """An update that ends the break: no pause, and the next deal's question asked."""
    return (
        frame["type"] == "update"
        and frame["table"]["pause"] is None
        and frame["table"]["pending"] != []
        and not frame["events"]
    )


async def close(*clients: SeatClient) -> None:
    for client in clients:
        await client.close()


def test_a_deal_over_starts_a_break_that_refuses_actions_and_shows_the_totals(server):
    async def go():
        rid, lobbies, seats, watcher = await two_deals(server, 1, 60)
        (me,) = seats
        start = await to_the_break(seats)
        seq = start["table"]["seq"]
        refused = await me.request(type="act", action=0, seq=seq)
        refused_text = await me.request(type="act", text="pass")
        synced = await me.request(type="sync")
        state = me.frames[-2]  # the state frame before the sync's ack
        spectator = await watcher.request(type="ready")
        info = await lobbies[0].call("GET", f"/api/rooms/{rid}")
        await close(me, watcher)
        return start, refused, refused_text, synced, state, spectator, info

    start, refused, refused_text, synced, state, spectator, info = run(go())
    table = start["table"]
    deal = next(e for e in start["events"] if e["kind"] == DEAL_OVER)
    assert table["pause"]["ready"] == [] and table["pause"]["until"] > time.time() + 30
    assert table["pending"] == [] and table["legal"] == [] and table["deadlines"] == {}
    assert table["totals"] == deal["data"]["totals"]  # after deal 1, before the game's end
    assert info["scores"] == [0] * 5  # the room's match totals: finished games only
    assert refused["type"] == "error" and refused["code"] == "between_deals"
    assert refused_text["code"] == "between_deals"
    assert synced["type"] == "ack" and state["type"] == "state"
    assert state["table"]["seq"] == table["seq"]  # nothing changed
    assert state["table"]["pause"] == table["pause"]
    assert spectator["type"] == "error" and spectator["code"] == "not_seated"


def test_the_break_ends_when_every_person_is_ready(server):
    async def go():
        rid, lobbies, seats, watcher = await two_deals(server, 2, 60)
        await to_the_break(seats)
        await watcher.wait(breaking)  # the watcher has heard the break start too
        mark = len(watcher.frames)
        first = await seats[0].request(type="ready")
        told = await watcher.wait(lambda f: f["type"] == "update", start=mark)
        still = [f for f in watcher.frames[mark:] if over(f)]  # one person of two is ready
        second = await seats[1].request(type="ready")
        ended = await watcher.wait(over, start=mark, timeout=5)
        late = await seats[1].request(type="ready")  # no break now
        await close(*seats, watcher)
        return first, told, still, second, ended, late

    first, told, still, second, ended, late = run(go())
    assert first["type"] == "ack" and second["type"] == "ack"
    assert told["table"]["pause"]["ready"] == [0] and not told["events"]
    assert still == []
    assert ended["table"]["pause"] is None and ended["table"]["pending"]
    assert late["type"] == "error" and late["code"] == "no_break"


def test_the_break_ends_when_its_time_is_up(server):
    async def go():
        rid, lobbies, seats, watcher = await two_deals(server, 1, 1)
        start = await to_the_break(seats)
        began = time.monotonic()
        ended = await seats[0].wait(over, start=seats[0].frames.index(start), timeout=10)
        waited = time.monotonic() - began
        await close(*seats, watcher)
        return start, ended, waited

    start, ended, waited = run(go())
    assert waited < 5
    assert ended["table"]["seq"] == start["table"]["seq"]  # the same step, now asked
    assert ended["table"]["totals"] == start["table"]["totals"]


def test_a_person_gone_from_the_break_counts_as_ready(server):
    async def go():
        rid, lobbies, seats, watcher = await two_deals(server, 2, 60)
        await to_the_break(seats)
        mark = len(watcher.frames)
        await seats[0].request(type="ready")
        await seats[1].close()  # the other person goes: nobody else to wait for
        ended = await watcher.wait(over, start=mark, timeout=5)
        await close(seats[0], watcher)
        return ended

    assert run(go())["table"]["pause"] is None


def test_no_break_with_a_deal_pause_of_zero(server):
    async def go():
        rid, lobbies, seats, watcher = await two_deals(server, 1, 0)
        async with asyncio.timeout(120):
            while not any(
                e["kind"] == DEAL_OVER for f in watcher.frames if f["type"] == "update"
                for e in f["events"]
            ):  # fmt: skip
                table = seats[0].table
                if seats[0].my_turn() and table is not None:
                    await seats[0].request(type="act", action=table["legal"][0], seq=table["seq"])
                await asyncio.sleep(0.005)
        await close(*seats, watcher)
        return watcher.frames

    frames = run(go())
    assert all(f["table"]["pause"] is None for f in frames if f.get("table"))


def test_baohuang_running_scores_are_its_totals_so_far():
    state = new_game("baohuang", {"deals": 2}, seed=3)
    assert state.running_scores() == [Fraction(0)] * 5
    while not any(e.kind == DEAL_OVER for e in state.apply(state.pending()[0], _first(state))):
        pass
    assert state.running_scores() == state.totals and any(state.totals)
    assert new_game("bao_qingtian", {"players": 3}).running_scores() is None


def _first(state) -> int:
    return state.legal(state.pending()[0])[0]


def test_the_deal_pause_is_a_bounded_number():
    assert Settings.read({"deal_pause": 0}, "baohuang").deal_pause == 0
    assert Settings().deal_pause == 30
    for bad in (-1, 3601, "30", None):
        with pytest.raises(Exception, match="deal_pause"):
            Settings.read({"deal_pause": bad}, "baohuang")


def test_a_restarted_server_takes_the_break_again(tmp_path):
    """Killed during a break (a person still there: the break would end once nobody is), the
    server finds the game stopped between two deals and takes a fresh break."""
    url = f"sqlite:///{tmp_path / 'restart.db'}"

    async def first(base):
        settings = {**FAST, "deal_pause": 60}
        rid, lobbies = await room_with(base, "baohuang", {"deals": 2}, 1, settings=settings)
        me = await SeatClient.connect(lobbies[0].ws_url(rid), lobbies[0].token)
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        return rid, lobbies[0].token, me, await to_the_break([me])

    async def second(base, rid, token):
        me = await SeatClient.connect(Lobby(base, token).ws_url(rid), token)
        state = me.frames[-1]
        ended = await me.request(type="ready")
        after = await me.wait(over)
        await me.close()
        return state, ended, after

    async def crash():
        server = ServerProcess(url).start()
        try:
            rid, token, me, start = await first(server.url)
            server.kill()  # while the person is at the table
            await me.close()
        finally:
            server.stop()
        again = ServerProcess(url, port=server.port).start()
        try:
            return start, await second(again.url, rid, token)
        finally:
            again.stop()

    start, (state, ended, after) = run(crash())
    table = state["table"]
    assert table["seq"] == start["table"]["seq"]
    assert table["pause"] is not None and table["pause"]["until"] > time.time() + 30
    assert table["pending"] == [] and table["totals"] == start["table"]["totals"]
    assert ended["type"] == "ack" and after["table"]["pending"]


def test_no_break_when_no_person_is_there_to_wait_for(server):
    """The only person went away: the stand-in plays their seat, and the deal's end takes no
    break (a spectator watches, so the bots play on)."""

    async def go():
        settings = {**FAST, "deal_pause": 60, "away_seconds": 0}
        rid, lobbies = await room_with(server.url, "baohuang", {"deals": 2}, 1, settings=settings)
        watcher = await SeatClient.connect(lobbies[0].ws_url(rid))
        await lobbies[0].call("POST", f"/api/rooms/{rid}/start")
        deal = await watcher.wait(
            lambda f: f["type"] == "update" and any(e["kind"] == DEAL_OVER for e in f["events"]),
            timeout=120,
        )
        await watcher.close()
        return deal

    deal = run(go())
    assert deal["table"]["pause"] is None and deal["table"]["pending"]
