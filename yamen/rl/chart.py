"""The evaluation curve of a training run as a PNG: the learned bot's mean points per deal
against the teacher in a duplicate tournament, with 95% intervals, by frames learned. Drawn on
matplotlib's Agg canvas directly, as tournament charts are: no pyplot, no global backend."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any


def plot_curve(
    evals: Sequence[dict[str, Any]], path: str | os.PathLike[str], game: str, teacher: str
) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    frames = [e["frames"] for e in evals]
    means = [e["mean"] for e in evals]
    low = [e["mean"] if e["low"] is None else e["low"] for e in evals]
    high = [e["mean"] if e["high"] is None else e["high"] for e in evals]
    figure = Figure(figsize=(7, 4), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.fill_between(frames, low, high, alpha=0.25, label="95% interval")
    axes.plot(frames, means, marker="o", label=f"learned against {teacher}")
    axes.axhline(0.0, color="black", linewidth=0.8)
    axes.set_xlabel("frames learned (decisions)")
    axes.set_ylabel("mean points per deal")
    deals = evals[-1]["deals"] if evals else 0
    axes.set_title(f"{game}: duplicate tournaments against {teacher}, {deals} deals a point")
    axes.legend(loc="lower right")
    figure.savefig(path, format="png", dpi=100)
