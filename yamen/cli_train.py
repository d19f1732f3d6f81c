"""``yamen train``: Deep Monte-Carlo for any game that declares an observation encoder
(yamen/rl/dmc.py says how it learns), with a progress bar, checkpoints that resume, the
weights exported for the ``learned`` bot, and an evaluation curve: at every checkpoint a small
duplicate tournament (yamen/tournament.py) of the learned bot against the teacher.

Knows no game by name; the game's options come as for ``yamen tournament``. Needs the
``train`` extra (PyTorch), imported only when the command runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from yamen import tournament
from yamen.bots import bot_names
from yamen.cli_options import (
    OptionFlag,
    PresetFlag,
    err,
    fail,
    game_options,
    known_game,
    out,
)
from yamen.engine import game_type, get_game
from yamen.errors import YamenError

if TYPE_CHECKING:  # (the rl modules import numpy and PyTorch: only when the command runs)
    from yamen.rl.dmc import Evaluate
    from yamen.rl.improve import Labelling

EVAL_SEED = 1_000_000  # evaluation deals, apart from the seeds a tournament starts at


def evaluator(game: str, options: dict, teacher: str, deals: int, workers: int | None):
    """The trainer's ``evaluate``: the exported weights against the teacher, duplicate."""
    from yamen.rl.dmc import Evaluation

    def evaluate(path: Path) -> Evaluation:
        spec = f"learned:path={path}"
        plan = tournament.plan(game, [spec, teacher], deals, EVAL_SEED, options)
        summary = tournament.summarize(plan, tournament.play(plan, workers))
        stats = next(bot for bot in summary.bots if bot.name == spec)
        interval = stats.interval
        low, high = (None, None) if interval is None else interval
        return Evaluation(stats.mean, low, high, deals)

    return evaluate


def train_command(
    ctx: typer.Context,
    game: Annotated[
        str, typer.Argument(metavar="GAME", help="A registered game (see `yamen games`).")
    ],
    out_dir: Annotated[
        Path,
        typer.Option("--out", file_okay=False, help="Folder for checkpoints, weights, chart."),
    ],
    minutes: Annotated[float, typer.Option(min=0.01, help="Wall time of this run.")] = 10.0,
    frames: Annotated[
        int | None, typer.Option(min=1, help="Stop this run after this many frames learned.")
    ] = None,
    imitate_minutes: Annotated[
        float | None,
        typer.Option(
            min=0.0,
            help="Minutes imitating the teacher before self-play, over all runs (default: a "
            "quarter of --minutes).",
        ),
    ] = None,
    actors: Annotated[int, typer.Option(min=1, help="Actor processes playing games.")] = 1,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="ADDRESS",
            help="Run the actors as Ray actors: auto (this machine's cluster), an address, "
            "or local (a Ray of its own). Default: local processes.",
        ),
    ] = None,
    teacher: Annotated[str, typer.Option(help="The bot imitated and evaluated against.")] = (
        "rules"
    ),
    eval_deals: Annotated[
        int, typer.Option(min=0, help="Deals of each evaluation tournament (0: none).")
    ] = 20,
    eval_minutes: Annotated[
        float, typer.Option(min=0.1, help="Minutes between evaluations.")
    ] = 2.0,
    eval_workers: Annotated[
        int, typer.Option(min=1, help="Processes playing the evaluation's deals.")
    ] = 1,
    seed: Annotated[int, typer.Option(help="Seeds the actors' games.")] = 0,
    resume: Annotated[
        bool, typer.Option("--resume", help="Carry on from the checkpoint in --out.")
    ] = False,
    improve: Annotated[
        str | None,
        typer.Option(
            metavar="BOT",
            help="Instead of Deep Monte-Carlo: label --minutes of games by rollouts of this "
            "bot (added to those in --out), then fit a network that improves on it.",
        ),
    ] = None,
    propose: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            dir_okay=False,
            help="With --improve: a learned checkpoint (.npz) whose best-scored actions are "
            "among the candidates rolled out (default: candidates drawn uniformly).",
        ),
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            min=0,
            help="With --improve: each candidate's return averaged over this many deals drawn "
            "to fit the deciding seat's view, where the game draws them (default 0: the real "
            "deal's return).",
        ),
    ] = 0,
    option: OptionFlag = None,
    preset: PresetFlag = None,
) -> None:
    """Train a Q(s, a) network by Deep Monte-Carlo: imitate the teacher bot, then self-play.
    Writes checkpoint.pt (resumable), learned.npz (play it: --bots learned:path=...) and
    evaluation.png (the learned bot against the teacher) to --out."""
    known_game(game, ctx.command_path)
    if game_type(game).encoder is None:
        raise fail(f"{game} declares no observation encoder: it cannot be learned yet", 2)
    try:
        from yamen.rl import dmc
    except ImportError as exc:
        raise fail(f"training needs the train extra (pip install -e '.[train]'): {exc}") from None
    options = game_options(ctx, game, preset, option or [])
    try:
        options = get_game(game, options).options
        tournament.plan(game, [teacher, improve or teacher], 1, 0, options)  # bad bots fail here
    except YamenError as exc:
        raise fail(str(exc), 2) from None
    if "learned" not in bot_names(game):
        err.print(f"{game} registers no learned bot: training without evaluations")
        eval_deals = 0
    if improve is not None:
        evaluate = (
            evaluator(game, options, improve, eval_deals, eval_workers) if eval_deals else None
        )
        from yamen.rl.improve import Labelling

        proposer = None if propose is None else str(propose)
        what = Labelling(game, options, improve, proposer, seed=seed, samples=samples)
        if samples and game_type(game).sampled_playouts.get(improve) is None:
            raise fail(f"{game} draws no deals for {improve}'s playouts: --samples 0", 2)
        return improve_command(what, out_dir, minutes, actors, evaluate)
    config = dmc.TrainConfig(
        game,
        options,
        out_dir,
        minutes,
        frames=frames,
        imitate_minutes=minutes / 4 if imitate_minutes is None else imitate_minutes,
        actors=actors,
        ray=ray,
        teacher=teacher,
        eval_seconds=eval_minutes * 60,
        seed=seed,
        resume=resume,
    )
    evaluate = evaluator(game, options, teacher, eval_deals, eval_workers) if eval_deals else None
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[line]}"),
        console=err,
        redirect_stdout=False,
        redirect_stderr=False,
    )
    with progress:
        task = progress.add_task(f"{game} training", total=minutes * 60, line="starting actors")

        def report(p: dmc.Progress) -> None:
            c = p.counters
            last = c.evals[-1] if c.evals else None
            line = (
                f"{p.phase} | frames {c.frames:,} | {p.frames_per_second:,.0f} frames/s on "
                f"{p.device}, {p.where} | loss {p.loss:.3f}"
            )
            if last is not None:
                line += f" | vs {teacher} {last['mean']:+.2f}/deal"
            progress.update(task, completed=p.elapsed, line=line)

        try:
            counters = dmc.train(config, evaluate, report)
        except YamenError as exc:
            raise fail(str(exc), 2) from None
    out.print(Text(summary_text(counters, out_dir)), soft_wrap=True)


def improve_command(
    what: Labelling, out_dir: Path, minutes: float, workers: int, evaluate: Evaluate | None
) -> None:
    """``--improve BOT``: label, fit, export, evaluate (yamen/rl/improve.py says how)."""
    from yamen.rl import improve_fit

    base = what.base
    with err.status("labelling") as status:
        try:
            result = improve_fit.train(what, out_dir, minutes, workers, report=status.update)
        except (YamenError, ValueError) as exc:
            raise fail(str(exc), 2) from None
    lines = [
        f"fitted on {result.decisions:,} decisions ({result.holdout:,} held out), epoch "
        f"{result.epoch} kept; margin {result.margin} points: on the held-out decisions it "
        f"leaves {base} {result.deviations:.1%} of the time, gaining {result.gain:+.4f} a decision",
        f"written to {(out_dir / improve_fit.EXPORT).resolve()}",
    ]
    if evaluate is not None:
        e = evaluate(out_dir / improve_fit.EXPORT)
        interval = "" if e.low is None else f" [{e.low:+.2f}, {e.high:+.2f}]"
        lines.append(
            f"the learned bot against {base}: {e.mean:+.3f}{interval} points a deal "
            f"({e.deals} deals)"
        )
    out.print(Text("\n".join(lines)), soft_wrap=True)


def summary_text(counters, out_dir: Path) -> str:
    lines = [
        f"frames {counters.frames:,} ({counters.imitation_frames:,} imitating), "
        f"games {counters.games:,}, updates {counters.updates:,}, "
        f"{counters.seconds / 60:.1f} min in all"
    ]
    run = counters.runs[-1]
    lines.append(
        f"this run: {run['frames_per_second']:,.0f} frames/s on {run['device']} "
        f"({run['frames']:,} frames in {run['seconds']:.0f} s; actors: {run['actors']})"
    )
    for device, (frames, seconds) in counters.devices.items():
        lines.append(
            f"all runs on {device}: {frames / max(seconds, 1e-9):,.0f} frames/s "
            f"over {seconds:.0f} s"
        )
    if counters.evals:
        lines.append("last evaluation: " + json.dumps(counters.evals[-1]))
    lines.append(f"written to {out_dir.resolve()}: checkpoint.pt, learned.npz, evaluation.png")
    return "\n".join(lines)
