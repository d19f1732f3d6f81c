"""The ``yamen`` command: simulate games, bot tournaments, play in the terminal, replay
records, list games.

It knows no game by name: everything goes through :mod:`yamen.engine`, :mod:`yamen.records`
and :mod:`yamen.selfplay`, so a newly registered game works here unchanged. Results go to
stdout (tables, or JSON with ``--json``); progress and errors go to stderr.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from yamen import tournament
from yamen.bots import bot_names, make_bot
from yamen.cli_options import (
    GAME_COMMAND,
    OptionFlag,
    PresetFlag,
    as_flags,
    describe,
    err,
    fail,
    game_options,
    known_game,
    out,
    unknown_game,
)
from yamen.cli_replay import detail, replay_steps, result_table
from yamen.cli_train import train_command
from yamen.engine import (
    Result,
    State,
    game_names,
    game_type,
    get_game,
    new_seed,
    score_json,
)
from yamen.errors import RecordError, YamenError
from yamen.records import Record, Recorder, replay
from yamen.selfplay import play_random, random_policy_rng
from yamen.terminal import play_terminal

app = typer.Typer(
    help="Yamen: hidden-role card games for people, bots and research.",
    no_args_is_help=True,
    add_completion=False,
)


@app.command()
def games(
    game: Annotated[
        str | None, typer.Argument(metavar="[GAME]", help="A game: its options and presets.")
    ] = None,
) -> None:
    """List the registered games; with a game, its options and presets."""
    if game is None:
        for name in game_names():
            out.print(f"{name}\t{game_type(name).title}")
        return
    if game not in game_names():
        raise typer.BadParameter(unknown_game(game))
    for line in describe(game):
        out.print(line)


@app.command(**GAME_COMMAND)
def simulate(
    ctx: typer.Context,
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="A registered game (see `yamen games`).")
    ],
    n: Annotated[int, typer.Option("-n", "--games", min=1, help="Number of games.")] = 10,
    seed: Annotated[int, typer.Option("--seed", help="Game i uses seed SEED+i.")] = 0,
    option: OptionFlag = None,
    preset: PresetFlag = None,
    records: Annotated[
        Path | None,
        typer.Option(file_okay=False, help="Write each game's record as DIR/<game>-<seed>.json."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per game on stdout.")
    ] = False,
) -> None:
    """Play N games with uniformly random legal actions and summarise the results."""
    known_game(game, ctx.command_path)
    options = game_options(ctx, game, preset, option or [])
    try:
        configured = get_game(game, options)  # bad options fail here, before any work or file
    except YamenError as exc:
        raise fail(f"options: {exc}", 2) from None
    if records is not None:
        try:
            records.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise fail(f"cannot write records to {records}: {exc}", 2) from None

    summary = RunSummary()
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        redirect_stdout=False,  # else, on a terminal, rich sends the JSON lines to stderr
        redirect_stderr=False,
    )
    with progress:
        task = progress.add_task(f"{game} random play", total=n)
        for i in range(n):
            game_seed = seed + i
            rng = random_policy_rng(seed, i)
            if records is None:
                state: State = configured.new_state(game_seed)
                decisions = play_random(state, rng)
            else:
                recorder = Recorder(game, configured.options, game_seed)
                decisions = play_random(recorder, rng)
                recorder.finish().save(records / f"{game}-{game_seed}.json")
                state = recorder.state
            result = state.result()
            assert result is not None, "random play ends every game"
            summary.add(result, decisions)
            if as_json:
                print(json.dumps(game_line(game, game_seed, result, decisions)), flush=True)
            progress.advance(task)
    summary.show(err if as_json else out, game)


def game_line(game: str, seed: int, result: Result, decisions: int) -> dict[str, Any]:
    return {
        "game": game,
        "seed": seed,
        "places": list(result.places),
        "scores": [score_json(s) for s in result.scores],
        "decisions": decisions,
        "winners": list(result.winners),
    }


class RunSummary:
    """Totals over a run of games, for the closing table."""

    def __init__(self) -> None:
        self.games = self.decisions = 0
        self.scores: list[Fraction] = []
        self.wins: list[int] = []
        self.start = time.perf_counter()

    def add(self, result: Result, decisions: int) -> None:
        if not self.scores:
            self.scores = [Fraction(0)] * len(result.scores)
            self.wins = [0] * len(result.scores)
        self.games += 1
        self.decisions += decisions
        self.scores = [a + b for a, b in zip(self.scores, result.scores, strict=True)]
        for seat in result.winners:
            self.wins[seat] += 1

    def show(self, console: Console, game: str) -> None:
        seconds = max(time.perf_counter() - self.start, 1e-9)
        console.print(
            Text(
                f"{game}: {self.games:,} games, {self.decisions:,} decisions in {seconds:.2f} s: "
                f"{self.decisions / seconds:,.0f} decisions/s, {self.games / seconds:,.1f} games/s"
            ),
            soft_wrap=True,
        )
        table = Table(box=box.SIMPLE_HEAD)
        for name in ("seat", "mean score", "wins"):
            table.add_column(name, justify="right")
        for seat, total in enumerate(self.scores):
            table.add_row(str(seat), f"{float(total / self.games):+.2f}", str(self.wins[seat]))
        console.print(table)


@app.command("tournament", **GAME_COMMAND)
def tournament_command(
    ctx: typer.Context,
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="A registered game (see `yamen games`).")
    ],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bot names, cycled over the seats (e.g. rules,random); "
            "arguments follow a name after colons (search:iterations=200:seconds=null).",
        ),
    ],
    n: Annotated[
        int, typer.Option("-n", "--deals", min=1, help="Deals, each played in every rotation.")
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Deal d uses game seed SEED+d.")] = 0,
    option: OptionFlag = None,
    preset: PresetFlag = None,
    workers: Annotated[
        int | None,
        typer.Option(min=1, help="Processes playing deals (default: one per CPU)."),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(dir_okay=False, help="Write a PNG bar chart of mean points with CIs."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON summary on stdout instead of a table.")
    ] = False,
) -> None:
    """A duplicate tournament: every deal is played once per rotation of the bots through the
    seats, so every bot meets the same cards in every seat. Reports mean points per game with a
    95% confidence interval, win rate and an OpenSkill rating per bot."""
    known_game(game, ctx.command_path)
    options = game_options(ctx, game, preset, option or [])
    names = [name.strip() for name in bots.split(",") if name.strip()]
    try:
        plan = tournament.plan(game, names, n, seed, options)
    except YamenError as exc:
        raise fail(str(exc), 2) from None
    if plot is not None and not plot.parent.is_dir():
        raise fail(f"cannot write the chart: no folder {plot.parent}", 2)

    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    with progress:
        task = progress.add_task(f"{game} tournament, deals", total=n)
        deals = tournament.play(plan, workers, lambda: progress.advance(task))
    summary = tournament.summarize(plan, deals)
    if plot is not None:
        try:
            tournament.plot(summary, plot)
        except OSError as exc:
            raise fail(f"cannot write the chart to {plot}: {exc}") from None
    if as_json:
        print(json.dumps(summary.to_json()))
    else:
        out.print(tournament_table(summary))
    if plot is not None:  # after the table, so the line is not lost above it
        (err if as_json else out).print(Text(f"chart written to {plot.resolve()}"), soft_wrap=True)


def tournament_table(summary: tournament.TournamentSummary) -> Table:
    plan = summary.plan
    table = Table(
        title=(
            f"{plan.game}: {plan.deals:,} deals x {len(plan.lineups)} rotations = "
            f"{summary.games:,} games, seed {plan.seed}"
        ),
        box=box.SIMPLE_HEAD,
    )
    for name in ("bot", "games", "mean points", "95% CI", "win rate", "rating", "mu", "sigma"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    for bot in summary.bots:
        interval = bot.interval
        ci = "-" if interval is None else f"{interval[0]:+.3f} .. {interval[1]:+.3f}"
        table.add_row(
            bot.name,
            f"{bot.games:,}",
            f"{bot.mean:+.3f}",
            ci,
            f"{bot.win_rate:.1%}",
            f"{bot.rating:.2f}",
            f"{bot.mu:.2f}",
            f"{bot.sigma:.2f}",
        )
    return table


@app.command("play", **GAME_COMMAND)
def play_command(
    ctx: typer.Context,
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="A registered game (see `yamen games`).")
    ],
    seat: Annotated[int, typer.Option("--seat", min=0, help="Your seat (from 0).")] = 0,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="Bot name(s) for the other seats, comma-separated, cycled "
            "(default: rules where the game has it, else random).",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="The game's seed (default: a new one).")
    ] = None,
    option: OptionFlag = None,
    preset: PresetFlag = None,
) -> None:
    """Play a game against bots in the terminal: numbered moves, or type the notation."""
    known_game(game, ctx.command_path)
    options = game_options(ctx, game, preset, option or [])
    seed = new_seed() if seed is None else seed
    if bots is None:
        bots = "rules" if "rules" in bot_names(game) else "random"
    try:
        configured = get_game(game, options)
        players_bots = [make_bot(game, name.strip()) for name in bots.split(",") if name.strip()]
    except YamenError as exc:
        raise fail(str(exc), 2) from None
    if not players_bots:
        raise fail("name at least one bot with --bots", 2)
    if seat >= configured.num_seats:
        raise fail(f"--seat must be from 0 to {configured.num_seats - 1} for this game", 2)
    play_terminal(configured, seed, seat, players_bots)
    again = f"yamen play {game} --seed {seed}{as_flags(options)}"
    out.print(f"seed {seed}: `{again}` deals these cards again")


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A record written by Yamen.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    steps: Annotated[
        bool,
        typer.Option(
            "--steps", help="Print the game move by move: each action and what the table saw."
        ),
    ] = False,
) -> None:
    """Replay a record, check it, and print how the game ended."""
    try:
        record = Record.load(file)
    except RecordError as exc:
        raise fail(str(exc)) from None  # already names the file
    try:
        state = replay_steps(record, err if as_json else out) if steps else replay(record)
    except RecordError as exc:
        raise fail(f"{file}: {exc}") from None
    result = state.result()
    if as_json:
        print(json.dumps(None if result is None else result.to_json()))
        if result is None:
            err.print(f"the game is not over after {len(record.actions)} actions")
        return
    if result is None:
        out.print(
            f"{record.game}: the game is not over after {len(record.actions)} actions; "
            f"seats {list(state.pending())} owe a decision"
        )
        return
    out.print(result_table(record, result))
    for key, value in result.details.items():
        out.print(detail(key, value))


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="TCP port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL: sqlite:///FILE (default: yamen.db here) or postgresql://...",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option("--redis", help="Redis URL, to share rooms among several processes."),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            help="Change a limit (docs/server.md, Limits): NAME=COUNT/SECONDS for a rate, "
            "NAME=N for a cap, NAME=off; all=off turns off every limit per address and player.",
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="Proxies (comma-separated IPs) whose X-Forwarded-For gives the client's "
            "address; by default a client's address is its peer's.",
        ),
    ] = None,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            "--bot-workers",
            min=0,
            help="Processes the bots think in (default: one per core but one; 0: a thread).",
        ),
    ] = None,
    bot_seconds: Annotated[
        float,
        typer.Option(
            "--bot-seconds",
            min=0.01,
            max=60,
            help="The most a bot may think per decision, whatever a room asks.",
        ),
    ] = 0.7,
    analysis_playouts: Annotated[
        int, typer.Option(min=2, help="Playouts per decision in a post-game analysis.")
    ] = 200,
    analysis_jobs: Annotated[
        int,
        typer.Option(
            min=1,
            help="Worker processes that value post-game analyses' decisions, the jobs taking "
            "turns (with --redis: this process's workers on the site's shared job queue, a "
            "job to a worker).",
        ),
    ] = 2,
    log_format: Annotated[
        str,
        typer.Option(
            "--log-format",
            help="How the log (stderr) is written: text, or json (one object a line, with the "
            "room's id where there is one).",
        ),
    ] = "text",
    log_level: Annotated[
        str, typer.Option("--log-level", help="error, warning, info (and each request) or debug.")
    ] = "warning",
) -> None:
    """Run the multiplayer server: the lobby over HTTP, live play over WebSockets."""
    from yamen.server.limits import Limits
    from yamen.server.serve import serve

    try:
        limits = Limits().set(limit or [])
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--limit") from None
    if log_format not in ("text", "json"):
        raise typer.BadParameter("text or json", param_hint="--log-format")
    if log_level not in ("debug", "info", "warning", "error"):
        raise typer.BadParameter("debug, info, warning or error", param_hint="--log-level")
    serve(
        host,
        port,
        db,
        redis,
        limits=limits,
        forwarded_allow_ips=forwarded_allow_ips,
        bot_workers=bot_workers,
        bot_seconds=bot_seconds,
        analysis_playouts=analysis_playouts,
        analysis_jobs=analysis_jobs,
        log_format=log_format,
        log_level=log_level,
    )


# `yamen train` is in its own module; it needs the train extra only when the command runs
app.command("train", **GAME_COMMAND)(train_command)

if __name__ == "__main__":
    app()
