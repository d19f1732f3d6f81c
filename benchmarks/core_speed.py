"""Baohuang's compiled core against the Python engine, on one core: random playouts of a deal's
play phase (legal sets and apply: issue 27's hot path), and the search bot's policy playouts.

- ``random``: from a deal at the start of its play phase, uniformly random legal actions to the
  deal's end, picked as ``legal[splitmix64 % len(legal)]``; the Python rows loop on
  ``pending``/``legal``/``apply`` (the clone before each playout not timed), the core row calls
  ``random_playouts`` (many playouts a call). Before timing, every start is played with the same
  picks by both and must give the same number of decisions.
- ``cython``: the Python row again with yamen/games/baohuang compiled, unchanged, by Cython
  (``--cython``: needs ``pip install cython`` and gcc), in a scratch copy of the package.
- ``policy``: the search's playouts (``Playouts(state).scores(first)``: the rules bot's policy
  for every seat until the deal's scores are settled) from sampled deals, Python and core.

    python benchmarks/core_speed.py [--deals 40] [--seconds 5] [--cython]

Prints figures only; it never asserts a time.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MASK = (1 << 64) - 1
VARIANTS = ("shandong", "japanese")


def splitmix(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def starts(variant: str, deals: int) -> list:
    from yamen.bots.baohuang.lockstep import at_play

    rng = random.Random(7)
    found = []
    seed = 0
    while len(found) < deals:
        state = at_play({"variant": variant}, seed, rng)
        seed += 1
        if state is not None:
            found.append(state)
    return found


def python_playout(start, seed: int) -> int:
    """The core's random_playouts in Python: the same picks, the decisions made."""
    state = start.clone()
    rng, decisions = seed, 0
    while not state.over:
        seat = state.pending()[0]
        legal = state.legal(seat)
        rng, z = splitmix(rng)
        state.apply(seat, legal[z % len(legal)])
        decisions += 1
    return decisions


def python_rate(states: list, seconds: float) -> float:
    """Decisions a second of the bare Python loop (random.choice, as benchmarks/selfplay.py)."""
    rng = random.Random(1)
    decisions, spent, i = 0, 0.0, 0
    while spent < seconds:
        state = states[i % len(states)].clone()
        i += 1
        began = time.perf_counter()
        while not state.over:
            seat = state.pending()[0]
            state.apply(seat, rng.choice(state.legal(seat)))
            decisions += 1
        spent += time.perf_counter() - began
    return decisions / spent


def core_rate(core, packed: list[bytes], seconds: float) -> float:
    decisions, spent, i = 0, 0.0, 0
    while spent < seconds:
        began = time.perf_counter()
        decisions += core.random_playouts(packed[i % len(packed)], i, 100)
        spent += time.perf_counter() - began
        i += 1
    return decisions / spent


def policy_rate(states: list, seconds: float) -> float:
    """Search playouts a second: each start packed once (as the search does per sampled deal)
    and played out after each of its first legal actions (up to 4)."""
    from yamen.bots.baohuang.playout import Playouts

    done, i = 0, 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = states[i % len(states)]
        i += 1
        playouts = Playouts(state)
        for action in state.legal(state.pending()[0])[:4]:
            playouts.scores(action)
            done += 1
    return done / (time.perf_counter() - began)


def cython_copy(build: Path) -> Path:
    """A copy of the package with yamen/games/baohuang compiled by Cython, as is."""
    copy = build / "cython"
    shutil.copytree(ROOT / "yamen", copy / "yamen", ignore=shutil.ignore_patterns("*.so"))
    package = copy / "yamen/games/baohuang"
    sources = [str(p) for p in package.glob("*.py") if p.name != "__init__.py"]
    subprocess.run([sys.executable, "-m", "cython", "-3", *sources], check=True, cwd=copy)
    include = sysconfig.get_paths()["include"]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for source in sources:
        stem = source[:-3]
        command = ["gcc", "-O2", "-shared", "-fPIC", f"-I{include}", "-o", stem + suffix]
        subprocess.run([*command, stem + ".c"], check=True)
        os.remove(source)  # so that the compiled module is the one imported
    return copy


def cython_rates(deals: int, seconds: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as scratch:
        compiled = cython_copy(Path(scratch))
        command = [sys.executable, __file__, "--python-only", "--deals", str(deals)]
        out = subprocess.run(
            [*command, "--seconds", str(seconds)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(compiled), "YAMEN_CORE": "python"},
        ).stdout.split()
    return dict(zip(out[::2], map(float, out[1::2]), strict=True))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--cython", action="store_true")
    parser.add_argument("--python-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    if args.python_only:  # the Cython copy's child process
        from yamen.games.baohuang import rules, sets

        for module in (rules, sets):
            assert module.__file__.endswith(".so"), f"not compiled: {module.__file__}"
        for variant in VARIANTS:
            print(variant, round(python_rate(starts(variant, args.deals), args.seconds)))
        return
    from yamen.games.baohuang.core import CORE, pack

    if CORE is None:
        sys.exit("the compiled core is not built (pip install -e . with a C compiler)")
    cython = cython_rates(args.deals, args.seconds) if args.cython else {}
    print("Baohuang's play phase on one core")
    print(f"{'variant':9} {'row':8} {'python':>10} {'core':>12} {'core/python':>11} {'cython':>9}")
    for variant in VARIANTS:
        states = starts(variant, args.deals)
        packed = [pack(s) for s in states]
        for s, p in zip(states, packed, strict=True):
            for seed in range(5):
                assert python_playout(s, seed) == CORE.random_playouts(p, seed, 1), "differ"
        py, fast = python_rate(states, args.seconds), core_rate(CORE, packed, args.seconds)
        cy = f"{cython[variant]:>9,.0f}" if variant in cython else f"{'-':>9}"
        print(f"{variant:9} {'random':8} {py:>10,.0f} {fast:>12,.0f} {fast / py:>11.1f} {cy}")
        from yamen.bots.baohuang import playout

        playout.CORE = None  # the Python playouts, then the core's, in this one process
        slow = policy_rate(states, args.seconds)
        playout.CORE = CORE
        quick = policy_rate(states, args.seconds)
        print(f"{variant:9} {'policy':8} {slow:>10,.0f} {quick:>12,.0f} {quick / slow:>11.1f}")
    print("(random: decisions/s; policy: search playouts/s, each to the deal's settled scores)")


if __name__ == "__main__":
    main()
