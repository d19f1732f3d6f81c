"""Fitting an improvement of the rules bot (yamen/rl/improve_fit.py, the ``train`` extra):
the held-out gain is what the bot's choices return, decisions are cut out of labels whole,
and ``yamen train --improve`` labels, adds to its labels when run again, fits and exports a
checkpoint the learned bot plays."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("torch", reason="fitting needs PyTorch: python3 -m pip install torch==2.13.0")

from typer.testing import CliRunner  # noqa: E402  (after the skip: these need torch)

from yamen.bots import (  # noqa: E402
    make_bot,
    play_bots,
    qnet,  # noqa: E402
)
from yamen.cli import app  # noqa: E402
from yamen.engine import get_game  # noqa: E402
from yamen.rl.improve import Labels  # noqa: E402
from yamen.rl.improve_fit import gains, subset  # noqa: E402


def test_the_gain_is_the_return_of_what_the_bot_would_play():
    # three decisions; rows: predicted and true advantages over the base (row of 0)
    rows = np.array([0, 0, 0, 1, 1, 2, 2])
    predicted = np.array([0.0, 2.0, 1.0, 0.0, 0.4, 0.0, 5.0])
    true = np.array([0.0, -3.0, 4.0, 0.0, 1.0, 0.0, 2.0])
    # margin 0: decision 0 takes row 1 (-3), decision 1 row 4 (+1), decision 2 row 6 (+2)
    assert gains(predicted, true, rows, 3, 0.0) == pytest.approx((0.0, 1.0))
    # margin 0.5: decision 1 keeps its base move
    assert gains(predicted, true, rows, 3, 0.5) == pytest.approx((-1 / 3, 2 / 3))
    # margin 3: only decision 2 leaves its base
    assert gains(predicted, true, rows, 3, 3.0) == pytest.approx((2 / 3, 1 / 3))


def test_a_subset_keeps_each_decision_whole():
    labels = Labels(
        np.arange(3, dtype=np.float32).reshape(3, 1),
        np.arange(7, dtype=np.float32).reshape(7, 1),
        np.array([0, 0, 1, 1, 1, 2, 2]),
        np.array([1, 2, 3, 4, 5, 6, 7], dtype=np.float32),
        np.array([1, 2, 5]),
        np.array([True, True, False, True, True, True, False]),
        1,
    )
    part = subset(labels, np.array([2, 0]))
    assert part.observations[:, 0].tolist() == [0.0, 2.0]
    assert part.rows.tolist() == [0, 0, 1, 1]
    assert part.returns.tolist() == [1, 2, 6, 7]
    assert part.returns[part.base].tolist() == [2, 6]  # each decision's base move kept
    assert part.proposed.tolist() == [True, True, True, False]


def test_train_improve_labels_adds_fits_and_exports(tmp_path):
    args = ["train", "baohuang", "--variant", "japanese", "--out", str(tmp_path)]
    for _ in range(2):
        result = CliRunner().invoke(
            app, [*args, "--improve", "rules", "--minutes", "0.05", "--eval-deals", "1"]
        )
        assert result.exit_code == 0, result.output
        assert "the learned bot against rules" in result.output
    shards = sorted((tmp_path / "labels").glob("labels-*.npz"))
    assert len(shards) >= 2  # the second run added to the first's labels
    net = qnet.load(tmp_path / "learned.npz")
    assert net.meta["base"] == "rules" and net.meta["margin"] >= 0
    assert net.meta["match"] == {"variant": "japanese"}
    learned = make_bot("baohuang", f"learned:path={tmp_path / 'learned.npz'}")
    state = get_game("baohuang", {"variant": "japanese"}).new_state(5)
    rules = make_bot("baohuang", "rules")
    assert play_bots(state, [learned, rules] * 2 + [learned], random.Random(5)) > 0
    assert state.over  # a whole game, every move legal (the state refuses any other)


def test_train_improve_refuses_an_unknown_base(tmp_path):
    args = ["train", "baohuang", "--out", str(tmp_path), "--improve", "nobody", "--minutes", "0.05"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "nobody" in result.output
    assert not (tmp_path / "labels").exists()
