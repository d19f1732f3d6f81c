"""What a sync and a room's load cost as a game and a match grow (issue 23), in this process.

Sync: one Baohuang game of ``--deals`` deals played with random legal actions through a room
(every seat a person with a connection, and a spectator) up to each of ``--at`` actions; at
each, a seat's state frame is built (its size, the best of 5 builds' time), built again with
nothing changed (the cache: a look-up), and, for comparison, the frame as it was before (the
receiver's whole log, ``frames.history``, in the table) is built and sized.

Load: a match of ``--games`` games of Baohuang at ``--deals`` deals, random actions, stored
straight into a fresh SQLite file (as a room would store them), then the room loaded: the
time of the load, the actions replayed, and the event loop's longest lag meanwhile (a task
that sleeps 1 ms over and over, measuring how late it wakes); then the same replay of the last
game made on the event loop itself, and the time the old load took (every game replayed).

    python benchmarks/bounded_room.py [--deals 50] [--at 300,2000,6000] [--games 12]

The process collects its garbage as ``yamen serve`` does (yamen/server/collector.py, without
its clock: the lags measured are the work's own). Figures only: nothing is asserted
(tests/server/test_bounded_rooms.py counts the same work).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import tempfile
import time
from pathlib import Path

from yamen.engine import get_game
from yamen.records import Recorder, steps
from yamen.selfplay import play_random
from yamen.server import collector, frames
from yamen.server.loading import load_room
from yamen.server.match import replay, result_json
from yamen.server.operations import Start, TakeSeat
from yamen.server.registry import Rooms
from yamen.server.storage import Store
from yamen.server.tables import ActionRow

FAST = {"bot_delay": 0, "turn_seconds": None, "away_seconds": 3600, "deal_pause": 0}


class Conn:
    def __init__(self, player: str | None = None):
        self.player, self.seat = player, None

    def send(self, text: str) -> None:
        pass


def best(call, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


async def sync_costs(path: Path, deals: int, marks: list[int]) -> None:
    store = Store(f"sqlite:///{path}")
    await store.open()
    game = get_game("baohuang", {"deals": deals})
    for i in range(5):
        await store.add_player(f"p{i}", f"P{i}", f"t{i}")
    room = await Rooms(store).create("p0", game, True, FAST)
    for i in range(5):
        await room.run(TakeSeat(f"p{i}", f"P{i}", i))
    for conn in [Conn(f"p{i}") for i in range(5)] + [Conn()]:
        await room.attach(conn)
    await room.run(Start("p0"))
    rng = random.Random(1)
    for mark in marks:
        while room.playing and room.match.seq < mark:
            state = room.match.state
            seat = rng.choice(state.pending())
            await room.act(seat, rng.choice(state.legal(seat)))
        room._told()
        start = time.perf_counter()
        text = await room.state_frame(0)
        cold = time.perf_counter() - start
        start = time.perf_counter()
        await room.state_frame(0)
        cached = time.perf_counter() - start
        about, chat = room.about(), await room._recent_chat()

        def old(about=about, chat=chat) -> str:  # the whole log in the table, as before
            table = room._table(room.match.state, 0, frames.history(room.match.log, 0))
            return frames.state(about, table, chat)

        old_text, old_time = old(), best(old)
        print(
            f"move {room.match.seq}: state frame {len(text) / 1024:.1f} KiB, built in "
            f"{cold * 1e3:.2f} ms, again (cached) {cached * 1e6:.0f} us; with the whole log "
            f"{len(old_text) / 1024:.1f} KiB in {old_time * 1e3:.1f} ms"
        )
    await room.close()
    await store.close()


async def stored_match(store: Store, games: int, deals: int) -> str:
    """A room whose match has ``games`` finished games, stored as a room would store them."""
    await store.add_player("p0", "P0", "t0")
    room = await Rooms(store).create("p0", get_game("baohuang", {"deals": deals}), True, FAST)
    totals = None
    for number in range(1, games + 1):
        recorder = Recorder("baohuang", room.options, seed=number)
        play_random(recorder, random.Random(number))
        game_id = await store.add_game(room.id, number, recorder.record)
        rows = [
            ActionRow(game_id=game_id, index=i, seat=seat, text=text, at=0.0)
            for i, (seat, text) in enumerate(recorder.record.actions)
        ]
        async with store.session.begin() as s:
            s.add_all(rows)
        scores = list(recorder.state.result().scores)
        totals = scores if totals is None else [a + b for a, b in zip(totals, scores, strict=True)]
        await store.finish_game(game_id, result_json(recorder.state.result()), room.id, totals)
    return room.id


async def lag_while(work) -> tuple[float, float]:
    """(seconds ``work`` took, the event loop's longest lag meanwhile)."""
    longest, running = 0.0, True

    async def ticker() -> None:
        nonlocal longest
        while running:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            longest = max(longest, time.perf_counter() - start - 0.001)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)
    start = time.perf_counter()
    await work()
    took = time.perf_counter() - start
    running = False
    await task
    return took, longest


async def load_costs(path: Path, games: int, deals: int) -> None:
    store = Store(f"sqlite:///{path}")
    await store.open()
    room_id = await stored_match(store, games, deals)
    stored = [await store.game(g) for g in range(1, games + 1)]
    actions = sum(len(g.record.actions) for g in stored if g is not None)
    loaded = {}

    async def load() -> None:
        loaded["room"] = await load_room(store, room_id)

    took, lag = await lag_while(load)
    room = loaded["room"]
    print(
        f"load of a match of {games} games, {actions:,} actions: {took:.2f} s, "
        f"{room.match.seq:,} actions replayed (the last game), event loop's longest lag "
        f"{lag * 1e3:.1f} ms"
    )

    async def in_one_go() -> None:  # the same replay on the event loop, with no turns
        last = await store.last_game(room_id)
        assert last is not None
        await replay(last, turn=math.inf)

    took, lag = await lag_while(in_one_go)
    print(f"  the same replay in one go: {took:.2f} s, longest lag {lag * 1e3:.1f} ms")

    async def on_a_thread() -> None:  # the same replay on a worker thread, with no turns
        last = await store.last_game(room_id)
        assert last is not None
        await asyncio.to_thread(asyncio.run, replay(last, turn=math.inf))

    took, lag = await lag_while(on_a_thread)
    print(f"  the same replay on a worker thread: {took:.2f} s, longest lag {lag * 1e3:.1f} ms")

    def every_game() -> None:  # what the old load replayed
        for game in stored:
            assert game is not None
            for _ in steps(game.record, game.record.start()):
                pass

    print(f"  every game replayed (the old load's work): {best(every_game, 1):.2f} s")
    await room.close()
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--at", default="300,2000,6000")
    parser.add_argument("--games", type=int, default=12)
    args = parser.parse_args()
    marks = [int(m) for m in args.at.split(",")]
    collector.tune()  # collections as the server makes them: the lags are the server's
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(sync_costs(Path(folder) / "sync.db", args.deals, marks))
        asyncio.run(load_costs(Path(folder) / "load.db", args.games, args.deals))
    print(json.dumps({"deals": args.deals, "at": marks, "games": args.games}))


if __name__ == "__main__":
    main()
