"""The Q(s, a) network in numpy: what a learned bot plays with, and what actors act with, so
that playing needs no PyTorch (yamen/rl/model.py is the same network in PyTorch, for learning).

The network is an MLP over ``[observation ‖ action features]``, ReLU between layers, one
output: the expected final score of the seat that takes the action. Its first layer is kept as
two matrices, one for the observation and one for the action's features, because
``[o ‖ a] @ W == o @ W_obs + a @ W_act``: a decision multiplies the observation once and only
the short action rows once per legal action, which keeps a decision well under a millisecond.

Weights travel as a plain dict of float32 arrays (``w0_obs``, ``w0_act``, ``b0``, then ``w1``,
``b1``, ... up to the output layer) and are stored as a ``.npz`` with ``meta``: a JSON string
naming the game, its options and the sizes, so a checkpoint says what it was trained on.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

Arrays = dict[str, np.ndarray]


PROPOSER = "proposer_"  # the prefix of a proposer network's arrays stored beside a network's


@dataclass(frozen=True)
class QNet:
    """A loaded network: the arrays and what they were trained on; ``proposer``: a second
    network stored in the same file (an improvement of a base bot keeps the network that
    proposes its candidates, yamen/rl/improve.py)."""

    arrays: Arrays
    meta: Mapping[str, Any]
    proposer: QNet | None = None

    @property
    def layers(self) -> int:
        """The number of linear layers, the first (split) one included."""
        return 1 + sum(1 for key in self.arrays if key.startswith("w") and key != "w0_obs")

    def q_values(self, observation: np.ndarray, features: np.ndarray) -> np.ndarray:
        """Q of each action (one per row of ``features``) in the state ``observation``."""
        return q_values(self.arrays, observation, features)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the network as a compressed ``.npz`` (float32, ``meta`` as JSON)."""
        arrays: dict[str, Any] = {**self.arrays, "meta": np.array(json.dumps(dict(self.meta)))}
        if self.proposer is not None:
            arrays.update({PROPOSER + k: v for k, v in self.proposer.arrays.items()})
        np.savez_compressed(path, **arrays)


def q_values(arrays: Arrays, observation: np.ndarray, features: np.ndarray) -> np.ndarray:
    """The forward pass: one observation, many actions (``features``: one row each)."""
    return _layers(arrays, observation @ arrays["w0_obs"] + features @ arrays["w0_act"])


def q_values_ragged(
    arrays: Arrays, observations: np.ndarray, features: np.ndarray, rows: np.ndarray
) -> np.ndarray:
    """The forward pass of many decisions at once: action ``j`` (``features[j]``) is one of
    decision ``rows[j]``'s, whose observation is ``observations[rows[j]]`` (a vector
    environment's ragged legal actions); each observation is multiplied once."""
    first = (observations @ arrays["w0_obs"])[rows] + features @ arrays["w0_act"]
    return _layers(arrays, first)


def _layers(arrays: Arrays, first: np.ndarray) -> np.ndarray:
    """The rest of the pass from the first layer's products (its bias not yet added)."""
    hidden = first + arrays["b0"]
    layer = 1
    while f"w{layer}" in arrays:
        np.maximum(hidden, 0.0, out=hidden)
        hidden = hidden @ arrays[f"w{layer}"] + arrays[f"b{layer}"]
        layer += 1
    return hidden[:, 0]


def proposer_of(path: str | os.PathLike[str]) -> QNet:
    """The network a checkpoint proposes with: its own proposer where it keeps one (an
    improvement's), else the checkpoint itself."""
    net = load(path)
    return net if net.proposer is None else net.proposer


def best_rows(net: QNet, observation: np.ndarray, features: np.ndarray, k: int) -> list[int]:
    """The ``k`` rows of ``features`` of highest Q, best first (ties to the first row)."""
    return [int(i) for i in np.argsort(-net.q_values(observation, features), kind="stable")[:k]]


def load(path: str | os.PathLike[str]) -> QNet:
    """A network saved by :meth:`QNet.save` (or exported by the trainer)."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        arrays = {key: data[key].astype(np.float32) for key in data.files if key != "meta"}
    proposed = {k[len(PROPOSER) :]: arrays.pop(k) for k in list(arrays) if k.startswith(PROPOSER)}
    return QNet(arrays, meta, QNet(proposed, {}) if proposed else None)
