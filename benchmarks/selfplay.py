"""Random self-play speed on one core: Yamen's Baohuang against OpenSpiel and RLCard Dou Dizhu.

Every engine plays whole games with uniformly random legal moves, computing the full legal
action set at each decision, for a fixed wall-clock budget (Baohuang's are one deal, its
default: dealt, opened and played; the compiled core's rows play them in C, one call a game).
One decision is one move chosen by a player (chance events such as OpenSpiel's deal are played
but not counted). The script prints figures only; it never asserts a time.

    python benchmarks/selfplay.py [--seconds 10] [--rounds 5] [--games N] [--seed 0]
                                  [--only yamen|openspiel|rlcard] [--json]

The comparison engines come with ``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable, Iterator

BAOHUANG_VARIANTS = ("shandong", "japanese")
TARGET_DECISIONS_PER_S = 100_000
INSTALL_HINT = "pip install -e '.[bench]'"

PlayGame = Callable[[int], int]
"""Plays one whole game from a seed and returns the number of decisions made."""


class Skipped(Exception):
    """An engine that cannot run here; the message says why and what to do."""


def pin_to_one_core() -> int | None:
    """Restrict this process to its first allowed CPU; the CPU, or None where unsupported."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def measure(name: str, play: PlayGame, seconds: float, max_games: int | None, seed: int) -> dict:
    """Plays games (seeds ``seed``, ``seed + 1`` ...) until the budget or the cap is reached."""
    games = decisions = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds and (max_games is None or games < max_games):
        decisions += play(seed + games)
        games += 1
        elapsed = time.perf_counter() - start
    return {
        "engine": name,
        "games": games,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "decisions_per_s": round(decisions / elapsed, 1) if elapsed else 0.0,
        "games_per_s": round(games / elapsed, 2) if elapsed else 0.0,
    }


def combine(name: str, parts: list[dict]) -> dict:
    """Totals over the rounds, with the slowest and fastest round's decisions/s."""
    games = sum(p["games"] for p in parts)
    decisions = sum(p["decisions"] for p in parts)
    seconds = sum(p["seconds"] for p in parts)
    rates = [p["decisions_per_s"] for p in parts if p["games"]]
    return {
        "engine": name,
        "games": games,
        "decisions": decisions,
        "seconds": round(seconds, 3),
        "decisions_per_s": round(decisions / seconds, 1) if seconds else 0.0,
        "games_per_s": round(games / seconds, 2) if seconds else 0.0,
        "round_low": min(rates, default=0.0),
        "round_high": max(rates, default=0.0),
    }


def yamen_baohuang(variant: str, seed: int) -> PlayGame:
    try:
        from yamen.engine import get_game
        from yamen.selfplay import play_random
    except ImportError as exc:
        raise Skipped(f"Yamen not installed ({exc}; pip install -e .)") from exc
    rng = random.Random(seed)
    game = get_game("baohuang", {"variant": variant})

    def play(game_seed: int) -> int:
        state = game.new_state(game_seed)
        decisions = play_random(state, rng)
        if state.result() is None:
            raise RuntimeError(f"baohuang/{variant} seed {game_seed}: over but no result")
        return decisions

    return play


def yamen_baohuang_core(variant: str, seed: int) -> PlayGame:
    """Baohuang's compiled core: a whole one-deal game dealt, opened and played in C by random
    legal actions (``random_deals``; benchmarks/core_speed.py says more)."""
    try:
        from yamen.engine import get_game
        from yamen.games.baohuang.core import CORE, pack
    except ImportError as exc:
        raise Skipped(f"Yamen not installed ({exc}; pip install -e .)") from exc
    if CORE is None:
        raise Skipped("the compiled core is not built (pip install -e . with a C compiler)")
    state = get_game("baohuang", {"variant": variant}).new_state(seed)
    rules = pack(state)  # the game's rules and deck, as the core reads them

    def play(game_seed: int) -> int:
        return CORE.random_deals(rules, game_seed, 1)

    return play


def openspiel_dou_dizhu(seed: int) -> PlayGame:
    try:
        import pyspiel
    except ImportError as exc:
        raise Skipped(f"OpenSpiel not installed ({INSTALL_HINT})") from exc
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(seed)  # OpenSpiel deals through chance nodes, sampled from this stream

    def play(_seed: int) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                # Every dou_dizhu chance node (the deal) is uniform, so rng.choice samples it
                # exactly; rng.choices with the weights would more than halve the rate measured.
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions

    return play


def rlcard_doudizhu(seed: int) -> PlayGame:
    try:
        import rlcard
    except ImportError as exc:
        raise Skipped(f"RLCard not installed ({INSTALL_HINT})") from exc
    # One env for the whole run, seeded once: RLCard deals each game from the env's own numpy
    # RNG, so the per-game seed is unused. As in env.run, every step() rebuilds the next player's
    # state, including its dict of legal action ids, and the random move is one of its keys.
    env = rlcard.make("doudizhu", config={"seed": seed})
    rng = random.Random(seed)

    def play(_seed: int) -> int:
        state, _ = env.reset()
        decisions = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            decisions += 1
        return decisions

    return play


def engines(args: argparse.Namespace) -> Iterator[tuple[str, Callable[[], PlayGame]]]:
    """(name, factory) for each engine selected; a factory raises Skipped when unavailable."""
    seed = args.seed
    if args.only in (None, "yamen"):
        for variant in BAOHUANG_VARIANTS:
            yield f"yamen baohuang/{variant}", lambda v=variant: yamen_baohuang(v, seed)
        for variant in BAOHUANG_VARIANTS:
            name = f"yamen baohuang/{variant} core"
            yield name, lambda v=variant: yamen_baohuang_core(v, seed)
    if args.only in (None, "openspiel"):
        yield "openspiel dou_dizhu", lambda: openspiel_dou_dizhu(seed)
    if args.only in (None, "rlcard"):
        yield "rlcard doudizhu", lambda: rlcard_doudizhu(seed)


def add_ratios(rows: list[dict]) -> None:
    """Adds each Baohuang row's decisions/s as a fraction of OpenSpiel's, when both ran."""
    openspiel = next((r for r in rows if r["engine"].startswith("openspiel")), None)
    if openspiel is None or not openspiel["decisions_per_s"]:
        return
    for row in rows:
        if row["engine"].startswith("yamen"):
            row["vs_openspiel"] = round(row["decisions_per_s"] / openspiel["decisions_per_s"], 3)


def print_table(rows: list[dict], cpu: int | None) -> None:
    headers = ["engine", "games", "decisions", "seconds", "decisions/s", "rounds low-high"]
    headers += ["games/s", "dec/game"]
    cells = [
        [
            r["engine"],
            f"{r['games']:,}",
            f"{r['decisions']:,}",
            f"{r['seconds']:.2f}",
            f"{r['decisions_per_s']:,.0f}",
            f"{r['round_low']:,.0f}-{r['round_high']:,.0f}",
            f"{r['games_per_s']:,.1f}",
            f"{r['decisions'] / r['games']:.1f}" if r["games"] else "-",
        ]
        for r in rows
    ]
    title = f"Random self-play, one core (cpu {cpu})" if cpu is not None else "Random self-play"
    try:
        from rich import box
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
        print(title)
        for row in [headers, *cells]:
            padded = [c.rjust(w) for c, w in zip(row, widths, strict=True)]
            print("  ".join([row[0].ljust(widths[0]), *padded[1:]]))
    else:
        table = Table(title=title, box=box.SIMPLE_HEAD)
        for i, h in enumerate(headers):
            table.add_column(h, justify="left" if i == 0 else "right", no_wrap=True)
        for row in cells:
            table.add_row(*row)
        console = Console()
        console.width = max(console.width, 150)  # a pipe counts as 80 columns; the table needs ~140
        console.print(table)
    for r in rows:
        if "vs_openspiel" in r:
            print(
                f"{r['engine']}: {r['vs_openspiel']:.2f}x OpenSpiel's decisions/s "
                f"(target: >= {TARGET_DECISIONS_PER_S:,}/s, about half of OpenSpiel's rate)"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per engine")
    parser.add_argument("--games", type=int, default=None, help="cap on games per engine")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=("yamen", "openspiel", "rlcard"))
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per engine")
    parser.add_argument("--json", action="store_true", help="one JSON object per engine")
    args = parser.parse_args(argv)

    cpu = pin_to_one_core()
    players = {}
    for name, factory in engines(args):
        try:
            players[name] = factory()
        except Skipped as exc:
            if args.json:
                print(json.dumps({"engine": name, "skipped": str(exc)}))
            else:
                print(f"{name}: skipped, {exc}", file=sys.stderr)
    # Engines take turns in short rounds, so a slow spell of a shared machine hits them alike;
    # the spread of the per-round rates shows how noisy the run was.
    rounds: dict[str, list[dict]] = {name: [] for name in players}
    for _ in range(args.rounds):
        for name, play in players.items():
            played = sum(r["games"] for r in rounds[name])
            games_left = None if args.games is None else max(args.games - played, 0)
            part = measure(name, play, args.seconds / args.rounds, games_left, args.seed + played)
            rounds[name].append(part)
    rows = [combine(name, parts) for name, parts in rounds.items()]
    add_ratios(rows)
    if args.json:
        for row in rows:
            print(json.dumps({**row, "cpu": cpu}))
    elif rows:
        print_table(rows, cpu)


if __name__ == "__main__":
    main()
