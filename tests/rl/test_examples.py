"""The examples in examples/ run as docs/rl.md says."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_deep_monte_carlo_on_the_vector_environment_fits_finished_games():
    pytest.importorskip("torch", reason="the DMC example needs PyTorch (pip install -e '.[train]')")
    dmc = load("dmc_vector")
    losses = dmc.train(games=8, steps=600, variant="japanese", epsilon=0.2, seed=1, batch=512)
    assert len(losses) >= 2, "finished games' decisions were fitted"
    assert all(math.isfinite(loss) and loss > 0 for loss in losses)
