"""What an action costs a server in CPU, in this process: rooms playing, without sockets.

``--rooms`` Baohuang rooms on a temporary SQLite file, each with five seated people and a
connection per seat that only counts what it is sent; random legal actions, in a random room
each, through ``Room.act`` (the journal, the frames of every audience, the driver). After a
warm-up of a fifth of ``--actions``, the actions are timed: actions per CPU-second of the
process (the journal's thread included) and per CPU-second of the event loop's thread, and the
bytes sent per action. ``--profile`` prints cProfile's 40 most costly functions instead (its
own cost makes the figures meaningless then).

    python benchmarks/room_cost.py [--rooms 200] [--actions 20000] [--runs 3] [--profile]

The process collects its garbage as ``yamen serve`` does (yamen/server/collector.py, without
its clock). Figures only: nothing is asserted. CPU time is less disturbed by other work than
wall time, but not immune to it (two threads of one core, shared caches): compare runs made
side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import statistics
import tempfile
import time
from pathlib import Path

from yamen.engine import get_game
from yamen.server import collector
from yamen.server.operations import Start, TakeSeat
from yamen.server.registry import Rooms
from yamen.server.storage import Store

FAST = {"bot_delay": 0, "turn_seconds": None, "away_seconds": 3600, "deal_pause": 0}


class Counting:
    """A connection that counts the bytes it is sent."""

    sent = 0

    def __init__(self, player: str | None = None):
        self.player, self.seat = player, None

    def send(self, text: str) -> None:
        Counting.sent += len(text)


async def one_run(rooms_wanted: int, actions: int, profile: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'cost.db'}")
        await store.open()
        for i in range(5):
            await store.add_player(f"p{i}", f"P{i}", f"t{i}")
        registry, made = Rooms(store), []
        for _ in range(rooms_wanted):
            room = await registry.create("p0", get_game("baohuang", {}), True, FAST)
            for i in range(5):
                await room.run(TakeSeat(f"p{i}", f"P{i}", i))
            for conn in [Counting(f"p{i}") for i in range(5)]:
                await room.attach(conn)
            await room.run(Start("p0"))
            made.append(room)
        rng = random.Random(1)

        async def play(n: int) -> None:
            done = 0
            while done < n:
                room = rng.choice(made)
                if not room.playing:
                    await room.run(Start("p0"))  # a rematch
                    continue
                state = room.match.state
                seat = rng.choice(state.pending())
                await room.act(seat, rng.choice(state.legal(seat)))
                done += 1

        await play(actions // 5)
        profiler = cProfile.Profile() if profile else None
        cpu, loop, sent = time.process_time(), time.thread_time(), Counting.sent
        if profiler:
            profiler.enable()
        await play(actions)
        if profiler:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
        cpu, loop = time.process_time() - cpu, time.thread_time() - loop
        for room in made:
            await room.close()
        await store.close()
    return {
        "actions_per_cpu_s": round(actions / cpu),
        "actions_per_loop_cpu_s": round(actions / loop),
        "bytes_per_action": round((Counting.sent - sent) / actions),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    collector.tune()
    runs = [
        asyncio.run(one_run(args.rooms, args.actions, args.profile))
        for _ in range(1 if args.profile else args.runs)
    ]
    medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    print(json.dumps({"rooms": args.rooms, "actions": args.actions, "runs": runs, **medians}))


if __name__ == "__main__":
    main()
