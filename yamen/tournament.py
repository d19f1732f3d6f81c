"""Duplicate tournaments between bots: the same deals, every bot in every seat.

Card games are noisy: one good hand says little about a bot. A *duplicate* tournament takes
that noise out by dealing the same cards to every line-up. For each of N deals (game seed
``seed + d``) the deal is played once per *rotation* of the line-up through the seats:

- the line-up is the list of bots cycled to the number of seats, ``L[s] = bots[s % len(bots)]``
  (five seats and ``a,b``: ``a b a b a``); more bots than seats is an error;
- in rotation ``r`` seat ``s`` is played by ``L[(s + r) % seats]``, which is
  ``bots[(s + r) % len(bots)]`` when there are as many bots as seats;
- there are as many rotations as the line-up's period: ``seats`` when the names all differ,
  fewer when the cycled line-up repeats itself (``a a a a a``: one; ``a b a b`` in four seats:
  two). Over the rotations of a deal each bot sits in every seat equally often.

Only the game's seed fixes the cards: a later deal of a several-deal match may differ between
rotations, since play can move the game's chance (Baohuang's tribute). Each seat's bot draws
its own choices from a generator made from (seed, deal, rotation, seat), and a bot is built
afresh for every game, so a game's result depends on nothing else: the deals can be played
on any number of processes and merged in deal order, with the same summary every time.

A bot may be named with arguments (a spec, see :mod:`yamen.bots`): ``search:iterations=200:
seconds=null`` is the search bot at a fixed, reproducible budget; results are labelled by spec.

Per bot, over all its seats in all games:

- **mean points**: its seats' exact scores, averaged. The 95% confidence interval treats each
  deal as one sample (the bot's mean over that deal's rotations, which share the cards) and is
  Student's t interval, mean +- t(0.975, N-1) * sd / sqrt(N) over the N deals; none for N = 1;
- **win rate**: the share of its seats that were among ``Result.winners``;
- **games**: the seats it played (a game in which it holds k seats counts k times);
- **rating**: an OpenSkill (Weng-Lin Plackett-Luce) rating updated after every game, in deal
  and rotation order. A game ranks its seats by ``Result.places``; seats next to each other in
  the places with the same score and the same win or loss share a rank (three rebels who all
  lose 1 point tied). A bot holding several seats is ranked by the mean of its seats' ranks.
  A game with one bot in every seat changes no rating. The rating shown is the ordinal,
  mu - 3 sigma, a conservative estimate.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import statistics
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from yamen.bots import bot_move, bot_names, make_bot, parse_spec
from yamen.engine import Result, get_game
from yamen.errors import OptionsError
from yamen.table import Table

CONFIDENCE = 0.95


class TournamentError(OptionsError):
    """A tournament that cannot be played as asked (unknown bot, too many bots)."""


@dataclass(frozen=True)
class Plan:
    """What a tournament plays: everything a worker process needs, and nothing else."""

    game: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    deals: int
    seed: int
    seats: int
    lineups: tuple[tuple[str, ...], ...]  # one per rotation: the bot of each seat

    def deal_seed(self, deal: int) -> int:
        return self.seed + deal


@dataclass(frozen=True)
class Outcome:
    """One game of a tournament, as the summary needs it."""

    deal: int
    rotation: int
    lineup: tuple[str, ...]
    scores: tuple[Fraction, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]
    decisions: int


def lineups(bots: list[str] | tuple[str, ...], seats: int) -> list[tuple[str, ...]]:
    """The line-up of every rotation (see the module's docstring for the rule)."""
    if not bots:
        raise TournamentError("name at least one bot")
    if len(bots) > seats:
        raise TournamentError(f"{len(bots)} bots for a game of {seats} seats: at most {seats}")
    cycled = tuple(bots[s % len(bots)] for s in range(seats))
    period = next(p for p in range(1, seats + 1) if cycled[p:] + cycled[:p] == cycled)
    return [tuple(cycled[(s + r) % seats] for s in range(seats)) for r in range(period)]


def plan(
    game: str, bots: list[str], deals: int, seed: int, options: dict[str, Any] | None = None
) -> Plan:
    """Check the game, options and bots (raising :class:`OptionsError`) and fix the line-ups."""
    if deals < 1:
        raise TournamentError("play at least one deal")
    rules = get_game(game, options)  # an unknown game or bad options fail here
    known = bot_names(game)
    unknown = [spec for spec in bots if parse_spec(spec)[0] not in known]
    if unknown:
        raise TournamentError(
            f"no bot {', '.join(map(repr, unknown))} for {game}; known: {', '.join(known)}"
        )
    for spec in dict.fromkeys(bots):
        try:
            make_bot(game, spec)  # bad arguments fail here, not in a worker
        except OptionsError as exc:
            raise TournamentError(str(exc)) from None
    seats = rules.num_seats
    return Plan(game, rules.options, tuple(bots), deals, seed, seats, tuple(lineups(bots, seats)))


def seat_rng(seed: int, deal: int, rotation: int, seat: int) -> random.Random:
    """A seat's own generator for its bot's choices, kept apart from the game's chance."""
    return random.Random(f"yamen tournament policy {seed} {deal} {rotation} {seat}")


def play_game(plan: Plan, deal: int, rotation: int) -> Outcome:
    """One rotation of one deal, with fresh bots (so nothing carries over between games)."""
    lineup = plan.lineups[rotation]
    state = get_game(plan.game, plan.options).new_state(plan.deal_seed(deal))
    bots = [make_bot(plan.game, name) for name in lineup]
    rngs = [seat_rng(plan.seed, deal, rotation, seat) for seat in range(plan.seats)]
    decisions = Table(state).play(lambda seat: bot_move(bots[seat], state, seat, rngs[seat]))
    result = state.result()
    assert result is not None, "a game that is over has a result"
    return Outcome(deal, rotation, lineup, result.scores, result.places, result.winners, decisions)


def play_deal(plan: Plan, deal: int) -> list[Outcome]:
    """Every rotation of one deal: the unit of work handed to a worker process."""
    return [play_game(plan, deal, rotation) for rotation in range(len(plan.lineups))]


def _play_deal_job(job: tuple[Plan, int]) -> list[Outcome]:
    return play_deal(*job)


def play(
    plan: Plan, workers: int | None = None, advance: Callable[[], None] | None = None
) -> list[list[Outcome]]:
    """Play every deal; the games of deal d are the d-th list. ``workers`` processes (default:
    one per CPU) play deals in parallel; the results come back in deal order, so they are the
    same for any number of workers. ``advance`` is called once per finished deal."""
    workers = max(1, min(workers or os.cpu_count() or 1, plan.deals))
    results = []
    for games in _deals(plan, workers):
        results.append(games)
        if advance is not None:
            advance()
    return results


def _deals(plan: Plan, workers: int) -> Iterator[list[Outcome]]:
    if workers == 1:
        yield from (play_deal(plan, deal) for deal in range(plan.deals))
        return
    # spawn, not fork: the parent may run threads (the progress bar) that a fork would copy
    # mid-lock; a worker needs only the plan and imports the rest itself
    context = multiprocessing.get_context("spawn")
    chunk = max(1, min(16, plan.deals // (workers * 8)))
    jobs = ((plan, deal) for deal in range(plan.deals))
    with context.Pool(workers) as pool:
        yield from pool.imap(_play_deal_job, jobs, chunksize=chunk)


# --- the summary -------------------------------------------------------------------------


@dataclass
class BotStats:
    """One bot's figures over a tournament (see the module's docstring)."""

    name: str
    games: int = 0
    wins: int = 0
    total: Fraction = Fraction(0)
    per_deal: list[float] = field(default_factory=list)
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def mean(self) -> float:
        return float(self.total / self.games) if self.games else math.nan

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def interval(self) -> tuple[float, float] | None:
        return confidence_interval(self.per_deal)

    @property
    def rating(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        interval = self.interval
        return {
            "bot": self.name,
            "games": self.games,
            "mean": self.mean,
            "ci_low": None if interval is None else interval[0],
            "ci_high": None if interval is None else interval[1],
            "win_rate": self.win_rate,
            "wins": self.wins,
            "rating": self.rating,
            "mu": self.mu,
            "sigma": self.sigma,
        }


@dataclass
class TournamentSummary:
    plan: Plan
    bots: list[BotStats]
    games: int
    decisions: int

    def to_json(self) -> dict[str, Any]:
        plan = self.plan
        return {
            "game": plan.game,
            "options": plan.options,
            "bots": list(plan.bots),
            "deals": plan.deals,
            "seed": plan.seed,
            "seats": plan.seats,
            "rotations": [list(lineup) for lineup in plan.lineups],
            "games": self.games,
            "decisions": self.decisions,
            "confidence": CONFIDENCE,
            "results": [bot.to_json() for bot in self.bots],
        }


def summarize(plan: Plan, deals: list[list[Outcome]]) -> TournamentSummary:
    """Per-bot figures from the games, taken in deal and rotation order."""
    stats = {name: BotStats(name) for name in dict.fromkeys(plan.bots)}
    games = decisions = 0
    for deal_games in deals:
        deal_total = {name: Fraction(0) for name in stats}
        deal_seats = dict.fromkeys(stats, 0)
        for game in deal_games:
            games += 1
            decisions += game.decisions
            for seat, name in enumerate(game.lineup):
                bot = stats[name]
                bot.games += 1
                bot.total += game.scores[seat]
                bot.wins += seat in game.winners
                deal_total[name] += game.scores[seat]
                deal_seats[name] += 1
        for name, bot in stats.items():
            bot.per_deal.append(float(deal_total[name] / deal_seats[name]))
    for name, (mu, sigma) in rate(plan, deals).items():
        stats[name].mu, stats[name].sigma = mu, sigma
    return TournamentSummary(plan, list(stats.values()), games, decisions)


def seat_ranks(result: Result | Outcome) -> list[int]:
    """Each seat's rank (0 best) from the places; neighbours in the places with the same score
    and the same win or loss share the better rank."""
    ranks = [0] * len(result.places)
    previous: tuple[Fraction, bool] | None = None
    rank = 0
    for index, seat in enumerate(result.places):
        key = (result.scores[seat], seat in result.winners)
        if key != previous:
            rank, previous = index, key
        ranks[seat] = rank
    return ranks


def game_ranks(game: Outcome) -> dict[str, int]:
    """Each bot's rank in a game (0 best, dense): by the mean rank of its seats."""
    seats: dict[str, list[int]] = {}
    for seat, rank in enumerate(seat_ranks(game)):
        seats.setdefault(game.lineup[seat], []).append(rank)
    means = {name: Fraction(sum(r), len(r)) for name, r in seats.items()}
    order = sorted(set(means.values()))
    return {name: order.index(mean) for name, mean in means.items()}


def rate(plan: Plan, deals: list[list[Outcome]]) -> dict[str, tuple[float, float]]:
    """OpenSkill (mu, sigma) of every bot after all games, in deal and rotation order."""
    from openskill.models import PlackettLuce  # imported when rating: a worker never needs it

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in dict.fromkeys(plan.bots)}
    for deal_games in deals:
        for game in deal_games:
            ranks = game_ranks(game)
            if len(ranks) < 2:
                continue
            names = list(ranks)
            teams = model.rate([[ratings[n]] for n in names], ranks=[ranks[n] for n in names])
            for name, (rating,) in zip(names, teams, strict=True):
                ratings[name] = rating
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


# --- statistics --------------------------------------------------------------------------


def confidence_interval(
    values: list[float], confidence: float = CONFIDENCE
) -> tuple[float, float] | None:
    """Student's t interval for the mean of ``values``; ``None`` with fewer than two."""
    n = len(values)
    if n < 2:
        return None
    mean = statistics.fmean(values)
    half = t_quantile((1 + confidence) / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean - half, mean + half


def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (p > 0.5) of Student's t with ``df`` degrees of freedom.

    Bisection on the exact distribution function for df <= 300 (Abramowitz & Stegun 26.7.3-4,
    a finite series for whole df); beyond, the Cornish-Fisher expansion around the normal,
    which is then exact to about 1e-9. No SciPy needed for one number."""
    if not 0.5 < p < 1 or df < 1:
        raise ValueError("t_quantile needs 0.5 < p < 1 and df >= 1")
    if df > 300:
        z = statistics.NormalDist().inv_cdf(p)
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        return z + g1 / df + g2 / df**2 + g3 / df**3
    target = 2 * p - 1  # P(|T| <= t)
    low, high = 0.0, 1.0
    while _t_central(high, df) < target:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if _t_central(mid, df) < target:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def _t_central(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with whole ``df`` (Abramowitz & Stegun 26.7.3, 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    sin, cos2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2 == 0:
        term = total = 1.0
        for k in range(2, df, 2):  # (1*3*...*(k-1)) / (2*4*...*k) cos^k
            term *= cos2 * (k - 1) / k
            total += term
        return sin * total
    if df == 1:
        return 2 * theta / math.pi
    term = total = math.cos(theta)
    for k in range(3, df - 1, 2):  # (2*4*...*(k-1)) / (1*3*...*k) cos^k
        term *= cos2 * (k - 1) / k
        total += term
    return 2 / math.pi * (theta + sin * total)


# --- the chart ---------------------------------------------------------------------------


def plot(summary: TournamentSummary, path: str | os.PathLike[str]) -> None:
    """A PNG bar chart of each bot's mean points with its confidence interval.

    Drawn with matplotlib's Agg canvas directly, never pyplot: no window, no global backend
    switched in a process that may have chosen another one."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bots = summary.bots
    means = [bot.mean for bot in bots]
    errors = [[0.0] * len(bots), [0.0] * len(bots)]
    for i, bot in enumerate(bots):
        interval = bot.interval
        if interval is not None:
            errors[0][i], errors[1][i] = bot.mean - interval[0], interval[1] - bot.mean
    figure = Figure(figsize=(max(4.0, 1.2 * len(bots) + 2), 4), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    positions = range(len(bots))
    axes.bar(positions, means, yerr=errors, capsize=6, color="tab:blue", alpha=0.8)
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_xticks(list(positions), [bot.name for bot in bots])
    axes.set_ylabel(f"mean points per game ({CONFIDENCE:.0%} CI)")
    plan = summary.plan
    axes.set_title(
        f"{plan.game}: {plan.deals:,} deals x {len(plan.lineups)} rotations, seed {plan.seed}"
    )
    figure.savefig(path, format="png", dpi=100)
