"""Deep Monte-Carlo (DMC), as DouZero learns Dou Dizhu: a Q(s, a) network over the
observation and each legal action's features, actors that play whole games epsilon-greedily
with it (every seat: self-play), and a learner that regresses each decision's Q on its seat's
final score (the Monte-Carlo return; mean squared error, Adam).

Before self-play the network is warmed up by imitating a teacher bot (``rules``): the teacher
plays every seat, and the learner minimizes the cross-entropy of a softmax over each decision's
legal Q values with the teacher's action as the label, plus the same regression on the final
score (so the Q values start on the scale of points). The first ``imitate_minutes`` of a run go
to that, the rest to self-play; a resumed run carries on where the counters say.

The learner runs here (on CUDA when PyTorch sees a GPU, else the CPU) and broadcasts its
weights to the actors with every job (yamen/rl/actors.py); the actors play in numpy
(yamen/rl/rollout.py). Every ``eval_seconds`` and at the end it saves a checkpoint that resumes
(``checkpoint.pt``: weights, optimizer, counters), exports the weights for numpy
(``learned.npz``, what the learned bot plays) and asks ``evaluate`` (the CLI's duplicate
tournament against the teacher) for a point of the evaluation curve; the weights that scored
best so far are kept as ``best.npz``. Generic: it reads the game
through its encoder (``encoder_for``) and names none.
"""

from __future__ import annotations

import dataclasses
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from yamen.bots.encoding import encoder_for
from yamen.bots.qnet import Arrays
from yamen.engine import game_type, get_game
from yamen.errors import OptionsError
from yamen.rl.actors import Job, make_actors
from yamen.rl.model import HIDDEN, QModel
from yamen.rl.rollout import Batch, merged

CHECKPOINT, EXPORT, BEST = "checkpoint.pt", "learned.npz", "best.npz"
MSE_WEIGHT = 0.05  # imitation: the regression beside the cross-entropy (points are large)


@dataclass(frozen=True)
class TrainConfig:
    game: str
    options: dict[str, Any]
    out: Path
    minutes: float  # this run's wall time, imitation included
    frames: int | None = None  # or this run's frames, whichever comes first
    imitate_minutes: float = 0.0  # of all runs together: the first minutes imitate the teacher
    actors: int = 1
    ray: str | None = None  # a Ray address ("auto", "local", host:port): Ray actors
    teacher: str = "rules"
    epsilon: float = 0.01
    batch_frames: int = 512  # decisions per gradient step
    lr: float = 3e-4
    games_per_job: int = 2
    eval_seconds: float = 120.0
    seed: int = 0
    resume: bool = False
    hidden: tuple[int, ...] = HIDDEN


@dataclass
class Counters:
    """What a checkpoint carries on: totals over every run of one training."""

    frames: int = 0  # decisions learned from (forced ones are not kept)
    imitation_frames: int = 0
    games: int = 0
    decisions: int = 0  # every decision played, forced ones included
    updates: int = 0
    jobs: int = 0
    seconds: float = 0.0
    imitation_seconds: float = 0.0
    devices: dict[str, list[float]] = field(default_factory=dict)  # device -> [frames, s]
    runs: list[dict[str, Any]] = field(default_factory=list)  # each run: where, frames/s
    evals: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Evaluation:
    """A point of the curve: the learned bot's mean points per deal against the teacher."""

    mean: float
    low: float | None
    high: float | None
    deals: int


@dataclass(frozen=True)
class Progress:
    """What the trainer reports after each step (for a progress bar)."""

    phase: str  # "imitation" or "self-play"
    counters: Counters
    loss: float
    frames_per_second: float  # this run's, on its device
    elapsed: float
    device: str
    where: str  # the actors, in words


Evaluate = Callable[[Path], Evaluation]


def device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Learner:
    """The network, its optimizer and the loss (the module says which)."""

    def __init__(self, config: TrainConfig):
        game = get_game(config.game, config.options)
        encoder = encoder_for(game)
        self.device = device()
        self.model = QModel(encoder.observation_size, encoder.action_feature_size, config.hidden)
        self.model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=config.lr)
        self.meta = export_meta(config.game, game.options, config.teacher)
        self._arrays: Arrays | None = None

    def arrays(self) -> Arrays:
        """The current weights for the actors (copied once per update)."""
        if self._arrays is None:
            self._arrays = self.model.arrays()
        return self._arrays

    def loss(self, batch: Batch, imitation: bool) -> torch.Tensor:
        def tensor(a: np.ndarray) -> torch.Tensor:
            return torch.from_numpy(a).to(self.device)

        rows, chosen = tensor(batch.rows), tensor(batch.chosen)
        q = self.model(tensor(batch.observations), tensor(batch.features), rows)
        mse = torch.mean((q[chosen] - tensor(batch.returns)) ** 2)
        if not imitation:
            return mse
        n = batch.frames  # the cross-entropy of each decision's softmax over its legal actions
        top = torch.full((n,), -torch.inf, device=self.device)
        top = top.scatter_reduce(0, rows, q.detach(), "amax")
        sums = torch.zeros(n, device=self.device).index_add(0, rows, torch.exp(q - top[rows]))
        cross_entropy = torch.mean(top + torch.log(sums) - q[chosen])
        return cross_entropy + MSE_WEIGHT * mse

    def step(self, batch: Batch, imitation: bool) -> float:
        self.model.train()
        loss = self.loss(batch, imitation)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self._arrays = None
        return float(loss.detach().cpu())

    def save(self, path: Path, counters: Counters, config: TrainConfig) -> None:
        state = {
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "counters": dataclasses.asdict(counters),
            "meta": self.meta,
            "hidden": list(config.hidden),
        }
        torch.save(state, path.with_suffix(".tmp"))
        path.with_suffix(".tmp").replace(path)  # never a half-written checkpoint

    def load(self, path: Path) -> Counters:
        state = torch.load(path, map_location=self.device, weights_only=False)
        if (
            state["meta"]["game"] != self.meta["game"]
            or state["meta"]["options"] != self.meta["options"]
        ):
            raise OptionsError(f"{path} was trained on other options: {state['meta']['options']}")
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self._arrays = None
        return Counters(**state["counters"])

    def export(self, path: Path, counters: Counters) -> None:
        self.model.qnet({**self.meta, "frames": counters.frames}).save(path)


def export_meta(game: str, options: dict[str, Any], teacher: str) -> dict[str, Any]:
    """What a checkpoint says it was trained on; ``match``: the options that fix the game's
    kind (its top-level choices: a variant, a mode), which a view shows and a bot checks."""
    choices = [
        o.name for o in game_type(game).declaration if o.kind == "choice" and o.applies is None
    ]
    return {
        "game": game,
        "options": options,
        "match": {name: options[name] for name in choices if name in options},
        "teacher": teacher,
    }


def train(
    config: TrainConfig,
    evaluate: Evaluate | None = None,
    report: Callable[[Progress], None] | None = None,
) -> Counters:
    """Train for ``config.minutes`` (the module says how); the counters at the end."""
    config.out.mkdir(parents=True, exist_ok=True)
    learner = Learner(config)
    counters = Counters()
    checkpoint = config.out / CHECKPOINT
    if config.resume and checkpoint.exists():
        counters = learner.load(checkpoint)
    actors = make_actors(config.actors, config.game, config.options, config.ray, config.seed)
    where, here = actors.where, str(learner.device)
    start = last_tick = last_eval = time.monotonic()
    run_frames, loss, buffer = 0, float("nan"), []
    try:
        while time.monotonic() - start < config.minutes * 60:
            if config.frames is not None and run_frames >= config.frames:
                break
            imitation = counters.imitation_seconds < config.imitate_minutes * 60
            while actors.idle():
                kind = f"imitate:{config.teacher}" if imitation else "selfplay"
                arrays = None if imitation else learner.arrays()
                counters.jobs += 1
                seed = config.seed * 1_000_003 + counters.jobs
                actors.submit(Job(kind, arrays, config.epsilon, config.games_per_job, seed))
            for batch in actors.finished(0.25):
                counters.games += batch.games
                counters.decisions += batch.decisions
                if batch.frames:
                    buffer.append(batch)
            if sum(b.frames for b in buffer) >= config.batch_frames:
                taught = [b for b in buffer if b.teacher]
                played = [b for b in buffer if not b.teacher]
                for part, is_teacher in ((taught, True), (played, False)):
                    if part:
                        loss = learner.step(merged(part), is_teacher)
                        frames = sum(b.frames for b in part)
                        counters.frames += frames
                        counters.imitation_frames += frames if is_teacher else 0
                        counters.updates += 1
                        run_frames += frames
                buffer = []
            now = time.monotonic()
            counters.seconds += now - last_tick
            if imitation:
                counters.imitation_seconds += now - last_tick
            last_tick = now
            if report is not None:
                rate = run_frames / max(now - start, 1e-9)
                phase = "imitation" if imitation else "self-play"
                report(Progress(phase, counters, loss, rate, now - start, here, where))
            if now - last_eval >= config.eval_seconds:
                checkpoint_all(learner, counters, config, evaluate)
                last_eval = time.monotonic()
    finally:
        actors.close()
    seconds = time.monotonic() - start
    device_total = counters.devices.setdefault(here, [0.0, 0.0])
    device_total[0] += run_frames
    device_total[1] += seconds
    counters.runs.append(
        {
            "device": here,
            "actors": where,
            "frames": run_frames,
            "seconds": seconds,
            "frames_per_second": run_frames / max(seconds, 1e-9),
        }
    )
    checkpoint_all(learner, counters, config, evaluate)
    return counters


def checkpoint_all(
    learner: Learner, counters: Counters, config: TrainConfig, evaluate: Evaluate | None
) -> None:
    """Save the checkpoint, export the weights, evaluate them, redraw the curve."""
    export = config.out / EXPORT
    learner.export(export, counters)
    if evaluate is not None:
        result = evaluate(export)
        if all(result.mean > e["mean"] for e in counters.evals):
            shutil.copyfile(export, config.out / BEST)  # the best evaluated weights so far
        counters.evals.append(
            {"frames": counters.frames, "seconds": counters.seconds, **dataclasses.asdict(result)}
        )
        from yamen.rl.chart import plot_curve

        label = " ".join([config.game, *map(str, learner.meta["match"].values())])
        plot_curve(counters.evals, config.out / "evaluation.png", label, config.teacher)
    learner.save(config.out / CHECKPOINT, counters, config)
