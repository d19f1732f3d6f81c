"""The search bot's playouts a second, with Baohuang's compiled core and on the Python engine
alone, on the same decisions: the same playouts and the same choices, in less time.

Positions: play-phase decisions with a choice, met at random (a twentieth of them) in random
games of each variant, from seed 0 on; each is searched at a fixed budget
(``search:iterations=N:seconds=null``, so that both engines do the same work), the search
drawing from ``random.Random(1)``. The Python run is this script again in a subprocess with
``YAMEN_CORE=python``. One core (the script pins itself where it can). Figures only.

    python benchmarks/search_speed.py [--positions 30] [--iterations 2000] [--python]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time

from yamen.bots import make_bot
from yamen.engine import get_game
from yamen.games.baohuang.core import CORE
from yamen.games.baohuang.phases import Phase

VARIANTS = ("shandong", "japanese")


def positions(variant: str, count: int) -> list:
    game = get_game("baohuang", {"variant": variant})
    rng, found, seed = random.Random(0), [], 0
    while len(found) < count:
        state = game.new_state(seed)
        seed += 1
        while not state.over and len(found) < count:
            seat = state.pending()[0]
            legal = state.legal(seat)
            if state.phase is Phase.PLAY and len(legal) > 1 and rng.random() < 0.05:
                found.append((state.clone(), seat))
            state.apply(seat, rng.choice(legal))
    return found


def measure(variant: str, count: int, iterations: int) -> dict:
    bot = make_bot("baohuang", f"search:iterations={iterations}:seconds=null")
    found = positions(variant, count)
    playouts, choices, began = 0, [], time.perf_counter()
    for state, seat in found:
        choices.append(bot.choose(state.view(seat), state.legal(seat), random.Random(1)))
        playouts += bot.last_iterations
    seconds = time.perf_counter() - began
    return {"variant": variant, "playouts": playouts, "seconds": seconds, "choices": choices}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--python", action="store_true", help="(internal) one run, as JSON")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    runs = [measure(v, args.positions, args.iterations) for v in VARIANTS]
    if args.python:
        print(json.dumps(runs))
        return
    if CORE is None:
        sys.exit("the compiled core is not built (pip install -e . with a C compiler)")
    command = [sys.executable, __file__, "--python", f"--positions={args.positions}"]
    command.append(f"--iterations={args.iterations}")
    env = {**os.environ, "YAMEN_CORE": "python"}
    slow = json.loads(subprocess.run(command, env=env, capture_output=True, check=True).stdout)
    print(f"search at {args.iterations} playouts a decision, {args.positions} decisions a variant")
    heads = ("playouts", "core s", "python s", "core/s", "python/s")
    print(f"{'variant':10} " + " ".join(f"{h:>9}" for h in heads) + f" {'x':>6}")
    for core_run, python_run in zip(runs, slow, strict=True):
        same = core_run["choices"] == python_run["choices"]
        fast = core_run["playouts"] / core_run["seconds"]
        plain = python_run["playouts"] / python_run["seconds"]
        print(
            f"{core_run['variant']:10} {core_run['playouts']:>9,} {core_run['seconds']:>9.2f} "
            f"{python_run['seconds']:>9.2f} {fast:>9,.0f} {plain:>9,.0f} {fast / plain:>6.1f}"
            + ("" if same else "  (choices differ!)")
        )


if __name__ == "__main__":
    main()
