"""How strong and how fast Yamen's bots are: duplicate tournaments and time per decision.

Strength: duplicate tournaments (``yamen.tournament``, the same engine as ``yamen tournament``)
for every Baohuang variant, ``rules`` against ``random`` and, when a bot named ``search`` is
registered, ``search`` against ``rules``; ``--games`` adds other games (``rules`` against
``random`` with their default options). Each prints mean points per game with a 95% interval
per bot, the first bot's lead over the second per deal (the difference of their per-deal means,
with a 95% t interval over deals), the seconds per deal, and the equivalent ``yamen tournament``
command. A match-up whose bots are not registered yet is skipped, saying so.

``--search SPEC`` names the search bot of its match-ups with arguments (a bot spec, see
``yamen.bots``): at its default budget (up to 0.9 s a decision) a 2,000-deal tournament takes
days on one core, so ``--search search:iterations=100:seconds=null`` measures it at a fixed,
reproducible budget of 100 playouts a decision instead.

Speed: every registered bot of every game plays whole games in every seat, and each decision
it makes is timed: ``bot_move`` (building the seat's view and legal actions, then the bot's
choice), as a server would pay for it. Median and 99th percentile per bot and game.

    python benchmarks/bots.py [--deals 2000] [--search-deals N] [--search SPEC]
                              [--seed 0] [--workers N]
                              [--games baohuang,...]
                              [--timing-decisions 2000] [--timing-seconds 20]
                              [--skip-tournaments] [--skip-timing] [--json]

Figures only: nothing is asserted. ``--deals 200`` gives a quick run; a search bot thinks for
up to a second a decision, so ``--search-deals`` gives its match-ups fewer deals. A bot with a
time budget plays differently on a faster or busier machine: its figures are reproducible only
as far as its thinking time allows.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from yamen.bots import bot_move, bot_names, make_bot, parse_spec
from yamen.engine import game_names, get_game
from yamen.tournament import TournamentSummary, confidence_interval, plan, play, summarize

BAOHUANG_VARIANTS = ("shandong", "japanese")
MATCHUPS = (("rules", "random"), ("search", "rules"))


def tournaments(games: list[str]) -> list[tuple[str, dict[str, Any], tuple[str, str]]]:
    """(game, options, bots) of every tournament to play, whether or not its bots exist."""
    wanted = []
    for game in games:
        if game == "baohuang":
            for variant in BAOHUANG_VARIANTS:
                wanted += [(game, {"variant": variant}, m) for m in MATCHUPS]
        else:
            wanted.append((game, {}, MATCHUPS[0]))
    return wanted


def command(
    game: str, options: dict[str, Any], bots: tuple[str, ...], deals: int, seed: int
) -> str:
    opts = "".join(f" -o {k}={v}" for k, v in options.items())
    return f"yamen tournament {game}{opts} --bots {','.join(bots)} -n {deals} --seed {seed}"


def run_tournament(game, options, bots, args) -> dict[str, Any]:
    bots = tuple(args.search if b == "search" else b for b in bots)
    searching = any(parse_spec(b)[0] == "search" for b in bots)
    deals = args.search_deals if searching and args.search_deals else args.deals
    missing = [b for b in bots if parse_spec(b)[0] not in bot_names(game)]
    label = " ".join([game, *(f"{k}={v}" for k, v in options.items())]) + ": " + " vs ".join(bots)
    if missing:
        return {"tournament": label, "skipped": f"no bot {', '.join(missing)} registered yet"}
    print(f"playing {label}: {deals} deals ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    tournament = plan(game, list(bots), deals, args.seed, options)
    summary: TournamentSummary = summarize(tournament, play(tournament, args.workers))
    seconds = time.perf_counter() - start
    rows = []
    for bot in summary.bots:
        low, high = bot.interval or (float("nan"), float("nan"))
        rows.append(
            {
                "bot": bot.name,
                "games": bot.games,
                "mean": round(bot.mean, 4),
                "ci_low": round(low, 4),
                "ci_high": round(high, 4),
                "win_rate": round(bot.win_rate, 4),
                "rating": round(bot.rating, 2),
            }
        )
    first, second = summary.bots[0], summary.bots[-1]
    lead = [a - b for a, b in zip(first.per_deal, second.per_deal, strict=True)]
    low, high = confidence_interval(lead) or (float("nan"), float("nan"))
    return {
        "tournament": label,
        "command": command(game, options, bots, deals, args.seed),
        "deals": deals,
        "games": summary.games,
        "seconds": round(seconds, 1),
        "seconds_per_deal": round(seconds / deals, 3),
        "bots": rows,
        "lead": {
            "of": first.name,
            "over": second.name,
            "mean": round(statistics.fmean(lead), 4),
            "ci_low": round(low, 4),
            "ci_high": round(high, 4),
        },
    }


def timings(games: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """(game, options) to time bots on: every game, and every Baohuang variant."""
    wanted: list[tuple[str, dict[str, Any]]] = []
    for game in games:
        if game == "baohuang":
            wanted += [(game, {"variant": variant}) for variant in BAOHUANG_VARIANTS]
        else:
            wanted.append((game, {}))
    return wanted


def time_bot(game: str, options: dict[str, Any], name: str, args) -> dict[str, Any]:
    """Times ``name``'s decisions with it in every seat, until the decision or time budget
    (checked between decisions: a slow bot may stop mid-game)."""
    times: list[float] = []
    games = 0
    budget_end = time.perf_counter() + args.timing_seconds
    configured = get_game(game, options)

    def more() -> bool:
        return len(times) < args.timing_decisions and time.perf_counter() < budget_end

    while more():
        state = configured.new_state(args.seed + games)
        bots = [make_bot(game, name) for _ in range(state.num_seats)]
        rng = random.Random(f"yamen bench {args.seed} {games}")
        while not state.over and more():
            seat = state.pending()[0]
            start = time.perf_counter()
            action = bot_move(bots[seat], state, seat, rng)
            times.append(time.perf_counter() - start)
            state.apply(seat, action)
        games += 1
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return {
        "game": " ".join([game, *(f"{k}={v}" for k, v in options.items())]),
        "bot": name,
        "decisions": len(times),
        "games": games,
        "mean_ms": round(statistics.fmean(times) * 1000, 4),
        "median_ms": round(statistics.median(times) * 1000, 4),
        "p99_ms": round(p99 * 1000, 4),
    }


def print_tournament(row: dict[str, Any]) -> None:
    if "skipped" in row:
        print(f"{row['tournament']}: skipped, {row['skipped']}")
        return
    print(
        f"{row['tournament']}: {row['games']:,} games in {row['seconds']} s "
        f"({row['seconds_per_deal']} s a deal)"
    )
    print(f"  rerun: {row['command']}")
    for bot in row["bots"]:
        print(
            f"  {bot['bot']:<8} mean {bot['mean']:+.3f} per game "
            f"[{bot['ci_low']:+.3f}, {bot['ci_high']:+.3f}]  win rate {bot['win_rate']:.1%}  "
            f"rating {bot['rating']:.2f}  ({bot['games']:,} seats)"
        )
    lead = row["lead"]
    print(
        f"  {lead['of']} leads {lead['over']} by {lead['mean']:+.3f} points per deal "
        f"[{lead['ci_low']:+.3f}, {lead['ci_high']:+.3f}]"
    )


def print_timing(rows: list[dict[str, Any]]) -> None:
    print(f"{'game':<28}{'bot':<10}{'decisions':>10}{'mean ms':>12}{'median ms':>12}{'p99 ms':>12}")
    for r in rows:
        print(
            f"{r['game']:<28}{r['bot']:<10}{r['decisions']:>10,}"
            f"{r['mean_ms']:>12.3f}{r['median_ms']:>12.3f}{r['p99_ms']:>12.3f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per tournament")
    parser.add_argument(
        "--search-deals", type=int, default=None, help="deals for match-ups with search (--deals)"
    )
    parser.add_argument(
        "--search", default="search", help="the search bot's spec (search:iterations=100:...)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None, help="default: one per CPU")
    parser.add_argument("--games", default="baohuang", help="comma-separated games")
    parser.add_argument("--timing-decisions", type=int, default=2000)
    parser.add_argument("--timing-seconds", type=float, default=20.0)
    parser.add_argument("--skip-tournaments", action="store_true")
    parser.add_argument("--skip-timing", action="store_true")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = sorted(set(games) - set(game_names()))
    if unknown:
        parser.error(f"unknown game(s) {unknown}; known: {game_names()}")

    if not args.skip_tournaments:
        for game, options, bots in tournaments(games):
            row = run_tournament(game, options, bots, args)
            if args.json:
                print(json.dumps(row), flush=True)
            else:
                print_tournament(row)
    if not args.skip_timing:
        rows = []
        for game, options in timings(game_names()):
            for name in bot_names(game):
                print(f"timing {game} {options} {name} ...", file=sys.stderr, flush=True)
                rows.append(time_bot(game, options, name, args))
                if args.json:
                    print(json.dumps(rows[-1]), flush=True)
        if not args.json:
            print("\nTime per decision (bot_move: view, legal actions and choice), one process")
            print_timing(rows)


if __name__ == "__main__":
    main()
