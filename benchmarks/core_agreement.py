"""Baohuang's compiled core against the Python engine and policy over many random decisions:
yamen/bots/baohuang/lockstep.py's comparison (legal ids, the policy's choice, the whole deal
after every action, places and scores at every deal's end and after policy playouts from random
decisions), over every case of its CASES in turn until ``--decisions`` decisions were compared;
then ``--tributes`` tributes (japanese, and with the guard by the fourth copy) and as many deals
dealt (the hands and the random state left, each variant in turn); then ``--observations``
decisions of whole games stepped by the vector environment's path (batch.py) beside the Python
engine and encoder (``lockstep.check_observations``: the seat, legal ids and observation at
every decision, the match handed back at every deal's end; over the cases, one where a card
is called after tribute, and games handing the emperor
card on wherever they may, so that void deals come too). The first difference stops it
with what differed; the test suite runs a bounded sample of the same
(tests/games/baohuang/test_core.py).

    python benchmarks/core_agreement.py [--decisions 1000000] [--tributes 100000]
                                        [--observations 1000000] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
import time

from yamen.bots.baohuang import lockstep
from yamen.games.baohuang.actions import HAND_ON
from yamen.games.baohuang.core import CORE

DEALS_PER_ROUND = 20  # of each case, before moving on to the next
GAMES_PER_ROUND = 3  # the same, for the vector path
TRIBUTE_CASES = [{"variant": "japanese"}, {"variant": "japanese", "guard_by_fourth": True}]
DEAL_CASES = [{"variant": "shandong"}, {"variant": "japanese"}]  # the guard's deal is japanese's


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=1_000_000)
    parser.add_argument("--tributes", type=int, default=100_000)
    parser.add_argument("--observations", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if CORE is None:
        sys.exit("the compiled core is not built (pip install -e . with a C compiler)")
    began = time.perf_counter()
    per_case = dict.fromkeys(map(str, lockstep.CASES), 0)
    seed, playouts = args.seed, 0
    while sum(per_case.values()) < args.decisions:
        for options in lockstep.CASES:
            decisions, compared = lockstep.run(CORE, [options], DEALS_PER_ROUND, seed)
            per_case[str(options)] += decisions
            playouts += compared
        seed += DEALS_PER_ROUND
    for case, decisions in per_case.items():
        print(f"{decisions:>10,}  {case}")
    total, spent = sum(per_case.values()), time.perf_counter() - began
    print(
        f"{total:>10,}  decisions compared, and {playouts:,} playouts, all equal, in {spent:.0f} s"
    )
    began, paid = time.perf_counter(), 0
    for options in TRIBUTE_CASES:
        paid += lockstep.check_tribute(CORE, options, args.tributes // 2, args.seed)
    spent = time.perf_counter() - began
    print(f"{paid:>10,}  tributes paid alike (of {args.tributes:,} drawn deals), in {spent:.0f} s")
    began = time.perf_counter()
    for options in DEAL_CASES:
        lockstep.check_deals(CORE, options, args.tributes // len(DEAL_CASES), args.seed)
    spent = time.perf_counter() - began
    print(f"{args.tributes:>10,}  deals dealt alike, in {spent:.0f} s")
    began, observed, voids, seed = time.perf_counter(), 0, 0, args.seed
    while observed < args.observations:
        for options in [*lockstep.CASES, lockstep.CALLED_AFTER_TRIBUTE[0]]:
            found = lockstep.check_observations(CORE, options, GAMES_PER_ROUND, seed)
            observed, voids = observed + found[0], voids + found[1]
        found = lockstep.check_observations(
            CORE, lockstep.VOID_CASE, GAMES_PER_ROUND, seed, (HAND_ON,)
        )
        observed, voids = observed + found[0], voids + found[1]
        seed += GAMES_PER_ROUND
    spent = time.perf_counter() - began
    print(f"{observed:>10,}  decisions observed alike through the vector path ({voids:,} void")
    print(f"            deals dealt again), in {spent:.0f} s")


if __name__ == "__main__":
    main()
