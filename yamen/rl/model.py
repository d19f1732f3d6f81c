"""The Q(s, a) network in PyTorch, for learning; it exports to the numpy arrays that
yamen/bots/qnet.py plays with (the same function: tests/rl check they agree to 1e-5).

Needs the ``train`` extra (PyTorch). Only the trainer imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from yamen.bots.qnet import Arrays, QNet

HIDDEN = (192, 128, 64)  # small: a decision costs well under a millisecond in numpy


class QModel(nn.Module):
    """An MLP over [observation ‖ action features] -> one Q value (yamen/bots/qnet.py says the
    split first layer). ``forward`` takes the observation once per decision, and the index of
    its decision for each action row, so a batch of decisions and their actions is one call."""

    def __init__(self, observation_size: int, feature_size: int, hidden: Sequence[int] = HIDDEN):
        super().__init__()
        self.observation_size, self.feature_size = observation_size, feature_size
        self.hidden = tuple(hidden)
        self.obs_in = nn.Linear(observation_size, self.hidden[0])
        self.act_in = nn.Linear(feature_size, self.hidden[0], bias=False)
        sizes = [*self.hidden, 1]
        self.rest = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes, sizes[1:], strict=False))

    def forward(
        self, observations: torch.Tensor, features: torch.Tensor, rows: torch.Tensor | None = None
    ) -> torch.Tensor:
        """Q for each row of ``features``; its observation is ``observations[rows[i]]``
        (row i's own when ``rows`` is None)."""
        base = self.obs_in(observations)
        if rows is not None:
            base = base[rows]
        hidden = base + self.act_in(features)
        for layer in self.rest:
            hidden = layer(torch.relu(hidden))
        return hidden[:, 0]

    def arrays(self) -> Arrays:
        """The weights as the numpy arrays :func:`yamen.bots.qnet.q_values` reads."""

        def np32(t: torch.Tensor) -> np.ndarray:
            return t.detach().to("cpu", torch.float32).numpy().copy()

        out: Arrays = {
            "w0_obs": np32(self.obs_in.weight.T),
            "w0_act": np32(self.act_in.weight.T),
            "b0": np32(self.obs_in.bias),
        }
        for i, layer in enumerate(self.rest, 1):
            assert isinstance(layer, nn.Linear)
            out[f"w{i}"], out[f"b{i}"] = np32(layer.weight.T), np32(layer.bias)
        return out

    def qnet(self, meta: Mapping[str, Any]) -> QNet:
        """The numpy network of these weights, with ``meta`` (what it was trained on)."""
        return QNet(self.arrays(), {**meta, "hidden": list(self.hidden)})
