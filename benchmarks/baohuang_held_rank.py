"""What knowing 憋六/憋三 (option ``lowest_held``) is worth to Baohuang's rules bot.

Duplicate deals under the preset: each deal is played once with the rules bot in every seat
(the baseline), then once per seat with that seat's rules bot blind to the rule: it reads its
view as if ``lowest_held`` were off (its play before the rule existed) and, when what it
proposes is not legal, plays the first legal action, as ``BaohuangRulesBot`` falls back. The
figure is the blind seat's score minus the same seat's score in the baseline, per deal, with
a 95% interval over deals and seats, and how many of its proposals the rule refused.

    python benchmarks/baohuang_held_rank.py [--preset bie_liu_168] [--deals 400]

Figures only: nothing is asserted (docs/bots.md quotes a run).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Mapping
from typing import Any

from yamen.bots.baohuang.hand import ViewPerspective
from yamen.bots.baohuang.rules import decide
from yamen.engine import get_game
from yamen.games.baohuang import PRESETS


class Blind:
    """The rules bot reading its view with lowest_held off; counts its refused proposals."""

    def __init__(self) -> None:
        self.refused = 0

    def __call__(self, view: Mapping[str, Any], legal: list[int]) -> int:
        seen: Any = {**view, "options": {**view["options"], "lowest_held": False}}
        action = decide(ViewPerspective(seen), legal)
        if action in legal:
            return action
        self.refused += 1
        return legal[0]


def aware(view: Mapping[str, Any], legal: list[int]) -> int:
    seen: Any = view
    return decide(ViewPerspective(seen), legal)


def play(options: dict[str, Any], seed: int, blind_seat: int, blind: Blind) -> list[float]:
    """One deal; ``blind_seat`` (-1: none) plays blind. The seats' scores."""
    state = get_game("baohuang", options).new_state(seed)
    while not state.over:
        seat = state.pending()[0]
        legal = list(state.legal(seat))
        choose = blind if seat == blind_seat else aware
        state.apply(seat, legal[0] if len(legal) == 1 else choose(state.view(seat), legal))
    result = state.result()
    assert result is not None
    return [float(score) for score in result.scores]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="bie_liu_168", choices=["bie_liu_168", "bie_san_216"])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    options = dict(next(p for p in PRESETS if p.name == args.preset).options)
    blind, started, differences = Blind(), time.perf_counter(), []
    for seed in range(args.seed, args.seed + args.deals):
        baseline = play(options, seed, -1, blind)
        differences += [play(options, seed, s, blind)[s] - baseline[s] for s in range(5)]
    mean = statistics.mean(differences)
    half = 1.96 * statistics.stdev(differences) / len(differences) ** 0.5
    print(
        f"{args.preset}, {args.deals} deals x 5 seats: the blind seat {mean:+.2f} points a deal "
        f"[{mean - half:+.2f}, {mean + half:+.2f}]; its proposals refused by the rule: "
        f"{blind.refused}; {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
