"""Fitting the improvement network on labelled rollouts (yamen/rl/improve.py says the rule and
how the labels are made), and choosing its margin.

The loss is the squared error of advantages: per decision, each candidate's Q minus the base
move's Q against its return minus the base move's return, the latter clipped to ``CLIP``
points (a few huge swings, such as a grab's 40 points, otherwise drown the small differences
that decide which move is better; clipping moves an estimate only where it is already far from
the base move's).

The last ``holdout`` of the shards (whole games) are kept apart: they choose the epoch to keep
and the margin, by the **gain** the bot would have had on them. At a held-out decision the bot
plays the candidate of highest Q among those it weighs at play (Labeller.candidates) if it
beats the base move's Q by more than the margin, else the base move; the gain is that
candidate's exact return minus the base move's, averaged over the decisions. It is unbiased
for those decisions (the returns are of the real deals, and none of those games was learned
from), but it assumes every later decision is the base bot's, which holds less the more often
the bot leaves it: a margin is only taken if it leaves the base move at no more than
``MOST_LEFT`` of the held-out decisions. (Measured, docs/rl.md: a shandong network whose
holdout gain was best at margin 0, leaving the rules bot at half its decisions, lost about 7
points a deal to it over 300 deals; the same network at margin 0.5, leaving it at 2%, won
about 1.8.)

Needs the ``train`` extra (PyTorch).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from yamen.bots.qnet import proposer_of
from yamen.rl.improve import (
    Labelling,
    Labels,
    generate,
    joined,
    load_labels,
    proposals,
    shards,
)
from yamen.rl.model import HIDDEN, QModel

# points: the margins tried on the holdout (the last never leaves the base bot: always allowed)
MARGINS = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, float("inf"))
MOST_LEFT = 0.05  # the most held-out decisions a margin may leave the base bot at
CLIP = 3.0  # points: advantages are clipped to this when learning


@dataclass(frozen=True)
class Fit:
    """What fitting gave: the network, the margin chosen and how it did on the holdout."""

    model: QModel
    margin: float
    gain: float  # points per held-out decision, at that margin
    deviations: float  # the share of held-out decisions where the bot leaves the base move
    epoch: int
    decisions: int  # learned from
    holdout: int  # decisions held out
    losses: list[tuple[float, float]]  # per epoch: (training loss, holdout loss)


class Tensors:
    """Labels on the device, as the loss reads them."""

    def __init__(self, labels: Labels, device: torch.device):
        def tensor(a: np.ndarray) -> torch.Tensor:
            return torch.from_numpy(a).to(device)

        self.observations = tensor(labels.observations)
        self.features = tensor(labels.features)
        self.rows = tensor(labels.rows)
        self.returns = tensor(labels.returns)
        self.base = tensor(labels.base)
        self.base_of_row = self.base[self.rows]  # the row of each row's decision's base move

    def advantages(self, model: QModel) -> tuple[torch.Tensor, torch.Tensor]:
        """(predicted, true) advantage over the base move, per row."""
        q = model(self.observations, self.features, self.rows)
        return q - q[self.base_of_row], self.returns - self.returns[self.base_of_row]


def advantage_loss(model: QModel, t: Tensors, clip: float | None = None) -> torch.Tensor:
    predicted, true = t.advantages(model)
    if clip is not None:
        true = true.clamp(-clip, clip)
    return torch.mean((predicted - true) ** 2)


def gains(predicted: np.ndarray, true: np.ndarray, rows: np.ndarray, n: int, margin: float):
    """(gain per decision, share of decisions left) of the bot at ``margin``: per decision, the
    candidate of highest predicted advantage, played when it is above the margin (a row the
    bot would not weigh has ``-inf`` predicted)."""
    best = np.full(n, -np.inf)
    np.maximum.at(best, rows, predicted)
    top = (predicted == best[rows]) & (predicted > margin)
    chosen = np.zeros(n)
    left = np.zeros(n, dtype=bool)
    # one row per decision: the first of its best (np.unique keeps the first index)
    first_rows, at = np.unique(rows[top], return_index=True)
    chosen[first_rows] = true[np.flatnonzero(top)[at]]
    left[first_rows] = True
    return float(chosen.mean()), float(left.mean())


def fit(
    parts: list[Labels],
    holdout: float = 0.05,
    epochs: int = 20,
    batch_decisions: int = 1024,
    lr: float = 3e-4,
    hidden: Sequence[int] = HIDDEN,
    seed: int = 0,
    clip: float | None = CLIP,
    most_left: float = MOST_LEFT,
    report: Callable[[str], None] | None = None,
) -> Fit:
    """Fit a network on labelled decisions (the module says how)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    cut = max(1, round(len(parts) * holdout))
    train, held = joined(parts[:-cut]), joined(parts[-cut:])
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = QModel(train.observations.shape[1], train.features.shape[1], hidden).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    test = Tensors(held, device)
    best: tuple[float, float, float, int, dict[str, Any]] | None = None
    losses = []
    for epoch in range(1, epochs + 1):
        model.train()
        order = rng.permutation(train.decisions)
        total = 0.0
        for start in range(0, len(order), batch_decisions):
            batch = Tensors(subset(train, order[start : start + batch_decisions]), device)
            loss = advantage_loss(model, batch, clip)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(batch.base)
        model.eval()
        with torch.no_grad():
            predicted, true = (x.cpu().numpy() for x in test.advantages(model))
            held_loss = float(np.mean((predicted - true) ** 2))
            predicted[~held.proposed] = -np.inf  # rows the bot would not weigh at play
        losses.append((total / train.decisions, held_loss))
        tried = []
        for margin in MARGINS:
            gain, left = gains(predicted, true, held.rows, held.decisions, margin)
            tried.append(f"{margin}: {gain:+.3f} ({left:.0%})")
            if left <= most_left and (best is None or gain > best[0]):
                state = {k: v.detach().clone() for k, v in model.state_dict().items()}
                best = (gain, margin, left, epoch, state)
        if report is not None:
            report(
                f"epoch {epoch}: loss {losses[-1][0]:.3f}, holdout {held_loss:.3f}, "
                f"gain by margin {', '.join(tried)}"
            )
    assert best is not None
    gain, margin, left, epoch, state = best
    model.load_state_dict(state)
    return Fit(model, margin, gain, left, epoch, train.decisions, held.decisions, losses)


def subset(labels: Labels, decisions: np.ndarray) -> Labels:
    """The labels of some decisions, renumbered in the order given."""
    keep = np.zeros(labels.decisions, dtype=bool)
    keep[decisions] = True
    row_keep = keep[labels.rows]
    renumber = np.cumsum(keep) - 1
    new_index = np.cumsum(row_keep) - 1
    return Labels(
        labels.observations[keep],
        labels.features[row_keep],
        renumber[labels.rows[row_keep]],
        labels.returns[row_keep],
        new_index[labels.base[keep]],
        labels.proposed[row_keep],
        labels.games,
    )


def read(folder: Path) -> list[Labels]:
    """Every shard of labels in a folder, oldest first."""
    return [load_labels(p) for p in shards(folder)]


LABELS, EXPORT = "labels", "learned.npz"


def train(
    what: Labelling,
    out: Path,
    minutes: float,
    workers: int = 1,
    epochs: int = 12,
    report: Callable[[str], None] | None = None,
) -> Fit:
    """Label games for ``minutes`` in ``workers`` processes (adding to the labels already in
    ``out/labels``, so a second run goes on from the first), fit on every label there, and
    export the network with its base and margin as ``out/learned.npz``: the learned bot plays
    it as an improvement of the base bot."""
    from yamen.rl.dmc import export_meta

    def progress(games: int, decisions: int, seconds: float) -> None:
        if report is not None:
            report(f"labelling: {games:,} games, {decisions:,} decisions, {seconds:.0f} s")

    generate(what, out / LABELS, minutes * 60, workers, report=progress)
    parts = read(out / LABELS)
    if len(parts) < 2:
        raise ValueError("too few labelled games to fit and hold some out: label for longer")
    result = fit(parts, epochs=epochs, seed=what.seed, report=report)
    meta = {
        **export_meta(what.game, what.options, what.base),
        "base": what.base,
        "margin": result.margin,
        "proposals": proposals(what.candidates),
        "holdout_gain": result.gain,
        "decisions": result.decisions,
    }
    proposer = None if what.proposer is None else proposer_of(what.proposer)
    dataclasses.replace(result.model.qnet(meta), proposer=proposer).save(out / EXPORT)
    return result
