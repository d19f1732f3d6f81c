"""`--improve`'s labels a second: Baohuang games labelled one at a time (``label_game``: the
game a Python state, the candidates' rollouts in the compiled core where it is built) and side
by side in the vector environment (``label_games``: the core's observations, legal ids,
features, the rules bot's moves and its rollouts), on the same seeds, with a check that the
two found the same labels.

Labelling as ``yamen train --improve rules`` labels (yamen/rl/improve.py's ``Labelling``: 30%
of the decisions with a choice, 8 candidates, 20 games a call), ``--games`` games a variant
from seed 0. One core (the script pins itself where it can). With ``YAMEN_CORE=python`` both
run on the Python engine alone (``label_games`` then labels one game at a time too). Figures
only.

    python benchmarks/labelling.py [--games 200] [--deals 1] [--propose CHECKPOINT]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from yamen.rl.improve import FIELDS, Labeller, Labelling, joined
from yamen.rl.vector import VectorEnv

VARIANTS = ("shandong", "japanese")


def timed(run) -> tuple:
    began = time.perf_counter()
    labels = run()
    return labels, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--propose", default=None, help="a checkpoint proposing candidates")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    what = Labelling("baohuang", {})
    per_call = what.games_per_shard
    print(f"{args.games} games a variant, {args.deals} deal(s) a match, {per_call} a call")
    heads = ("decisions", "rollouts", "one s", "side s", "one/s", "side/s")
    print(f"{'variant':10} {'engine':28} " + " ".join(f"{h:>9}" for h in heads) + f" {'x':>5}")
    for variant in VARIANTS:
        options = {"variant": variant, "deals": args.deals}
        labeller = Labeller("baohuang", options, what.base, args.propose)
        labeller.label_games([0], what.share, what.candidates)  # tables built before the clock
        seeds = list(range(args.games))
        how = (what.share, what.candidates)
        calls = [seeds[i : i + per_call] for i in range(0, len(seeds), per_call)]
        one, one_s = timed(lambda: joined([labeller.label_game(s, *how) for s in seeds]))  # noqa: B023
        side, side_s = timed(lambda: joined([labeller.label_games(c, *how) for c in calls]))  # noqa: B023
        same = all(np.array_equal(getattr(one, f), getattr(side, f)) for f in FIELDS)
        engine = VectorEnv("baohuang", 1, **options).engine.split(",")[0]
        print(
            f"{variant:10} {engine:28} {one.decisions:>9,} {len(one.returns):>9,} "
            f"{one_s:>9.2f} {side_s:>9.2f} {one.decisions / one_s:>9,.0f} "
            f"{side.decisions / side_s:>9,.0f} {one_s / side_s:>5.1f}"
            + ("" if same else "  (labels differ!)")
        )


if __name__ == "__main__":
    main()
