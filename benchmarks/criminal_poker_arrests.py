"""How often the rules bot's sheriff arrests a culprit, against a baseline that judges the
revealed cards only.

For every player count of sheriff mode and every kind of suspect (the ``rules`` bot, or
uniformly random), N games are played from seeds ``seed .. seed + N - 1``. The sheriff is the
``rules`` bot throughout; at the arrest both policies look at the same view:

- ``rules``: the suspect most likely to be a culprit by the exact posterior over hidden cards;
- ``baseline``: the game's culprit rules applied to the revealed cards alone, as if they were
  all the evidence (a shown weapon first, then the lowest visible innocence and fewest valid
  cards; ties: the lowest seat).

Both are scored against the real culprits (the rules bot's arrest is played, and the result
names them), so the comparison is paired: the same games, the same calls of who acts next.
The script prints a table and the CPU time the rules bot took per decision, by phase (the
sheriff's and, where the suspects are ``rules``, theirs); it never asserts.

    python benchmarks/criminal_poker_arrests.py [--games 2000] [--seed 0] [--players 4 5 6]
                                                [--suspects rules random] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict

from yamen.bots import RandomBot
from yamen.bots.criminal_poker.posterior import deck_of
from yamen.bots.criminal_poker.rules import CriminalPokerRulesBot
from yamen.engine import new_game
from yamen.games.criminal_poker.actions import ARREST_BASE
from yamen.games.criminal_poker.culprit import judge


def baseline_arrest(view: dict) -> int:
    """The seat the revealed cards alone convict (the lowest such seat)."""
    deck = {card.id: card for card in deck_of(view)}
    shown = {s: [deck[c] for c in view["shown"][s]] for s in view["suspects"]}
    return judge(shown).culprits[0]


def play(players: int, suspects: str, seed: int, times: dict) -> tuple[bool, bool]:
    """One game: (the rules sheriff caught a culprit, the baseline would have)."""
    state = new_game("criminal_poker", {"players": players}, seed=seed)
    rules = CriminalPokerRulesBot()
    others = rules if suspects == "rules" else RandomBot()
    rng = random.Random(seed)
    baseline = None
    while not state.over:
        seat = state.pending()[0]
        view, legal = state.view(seat), state.legal(seat)
        if seat == state.investigator or others is rules:
            start = time.process_time()
            action = rules.choose(view, legal, rng)
            times[view["phase"]].append(time.process_time() - start)
        else:
            action = others.choose(view, legal, rng)
        if view["phase"] == "arrest":
            baseline = baseline_arrest(view)
            assert ARREST_BASE + baseline in legal
        state.apply(seat, action)
    culprits = state.result().details["culprits"]
    return state.result().details["caught"], baseline in culprits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5, 6])
    parser.add_argument("--suspects", nargs="+", default=["rules", "random"])
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    rows = []
    times: dict[str, list[float]] = defaultdict(list)
    for suspects in args.suspects:
        for players in args.players:
            hits = [0, 0]
            start = time.perf_counter()
            for seed in range(args.seed, args.seed + args.games):
                for i, hit in enumerate(play(players, suspects, seed, times)):
                    hits[i] += hit
            rows.append(
                {
                    "players": players,
                    "suspects": suspects,
                    "games": args.games,
                    "rules": hits[0] / args.games,
                    "baseline": hits[1] / args.games,
                    "seconds": round(time.perf_counter() - start, 1),
                }
            )
    if args.json:
        print(json.dumps({"rows": rows, "ms_per_decision": _times(times)}, indent=2))
        return
    print(f"{'players':>7} {'suspects':>8} {'games':>6} {'rules':>7} {'baseline':>8} {'s':>6}")
    for r in rows:
        print(
            f"{r['players']:>7} {r['suspects']:>8} {r['games']:>6} {r['rules']:>7.1%} "
            f"{r['baseline']:>8.1%} {r['seconds']:>6}"
        )
    print("\nrules bot, CPU ms per decision (mean / 99th percentile / max):")
    for phase, (mean, p99, most, n) in _times(times).items():
        print(f"  {phase:<12} {mean:7.2f} / {p99:7.2f} / {most:7.2f}  ({n} decisions)")


def _times(times: dict[str, list[float]]) -> dict[str, tuple[float, float, float, int]]:
    """Per phase: mean, 99th percentile and max in milliseconds, and the count."""
    out = {}
    for phase, spent in sorted(times.items()):
        ordered = sorted(spent)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        out[phase] = (1000 * sum(spent) / len(spent), 1000 * p99, 1000 * ordered[-1], len(spent))
    return out


if __name__ == "__main__":
    main()
