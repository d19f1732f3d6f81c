"""How long a small post-game analysis takes alone, and asked for just after a big one, in a
lone server's pool of worker processes (yamen/server/analysis.py): the figure that fair turns
(one decision of each job in turn) change.

Two Baohuang games are played by the rules bot (``--big-deals`` and ``--small-deals`` deals);
seat 0 of each is analysed with ``--playouts`` playouts a decision by ``--workers`` worker
processes: the small one alone, then the big one and, ``--after`` seconds later, the small one
again. It prints each one's decisions and seconds (the small one's from when it was asked).

    python benchmarks/analysis_turns.py [--playouts 50] [--workers 2] [--big-deals 10]
                                        [--small-deals 1] [--after 0.5] [--module PATH]

``--module`` loads another ``analysis.py`` in place of the package's (an older one, to compare:
``git show <commit>:yamen/server/analysis.py > /tmp/old.py``). Figures only: nothing is
asserted, and on a busy machine they vary.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import sys
import tempfile
import time
from types import ModuleType

from yamen.bots import bot_move, make_bot
from yamen.bots.baohuang import analysis as analyst
from yamen.engine import new_game
from yamen.records import Record
from yamen.server.storage import Store
from yamen.table import Table


def played(deals: int, seed: int) -> Record:
    """A Baohuang game of ``deals`` deals played by the rules bot in every seat."""
    state = new_game("baohuang", {"deals": deals}, seed)
    record = Record("baohuang", dict(state.options), state.seed)
    bots = [make_bot("baohuang", "rules") for _ in range(state.num_seats)]
    rng = random.Random(seed)
    Table(state, record).play(lambda seat: bot_move(bots[seat], state, seat, rng))
    return record


def module(path: str | None) -> ModuleType:
    if path is None:
        from yamen.server import analysis

        return analysis
    spec = importlib.util.spec_from_file_location("compared_analysis", path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    sys.modules["compared_analysis"] = loaded  # (its dataclasses look their module up)
    spec.loader.exec_module(loaded)
    return loaded


async def measure(args: argparse.Namespace) -> None:
    big, small = played(args.big_deals, 3), played(args.small_deals, 4)
    for name, record in (("big", big), ("small", small)):
        print(f"{name}: {sum(1 for who, _ in record.actions if who == 0)} decisions")
    store = Store(f"sqlite:///{tempfile.mkdtemp()}/analyses.db")
    await store.open()
    jobs = module(args.module).Analyses(store, args.playouts, args.workers)

    async def done(game: int) -> float:
        while (await jobs.status(game, 0))["state"] in ("queued", "running"):
            await asyncio.sleep(0.05)
        return time.monotonic()

    try:
        await jobs.start(9, 0, small, "warm", analyst)  # the workers started
        await done(9)
        began = time.monotonic()
        await jobs.start(1, 0, small, "ann", analyst)
        print(f"small alone: {await done(1) - began:.1f} s")
        began = time.monotonic()
        await jobs.start(2, 0, big, "bob", analyst)
        await asyncio.sleep(args.after)
        asked = time.monotonic()
        await jobs.start(3, 0, small, "cy", analyst)
        print(f"small, asked {args.after:g} s after the big one: {await done(3) - asked:.1f} s")
        print(f"big: {await done(2) - began:.1f} s")
    finally:
        await jobs.close()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--big-deals", type=int, default=10)
    parser.add_argument("--small-deals", type=int, default=1)
    parser.add_argument("--after", type=float, default=0.5)
    parser.add_argument("--module", default=None)
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":  # (the pool's workers are spawned: they import this module)
    main()
