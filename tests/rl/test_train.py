"""Training (the ``train`` extra): a tiny run of ``yamen train`` that imitates, checkpoints,
resumes into self-play with its counters carried on, and exports weights that the numpy network
reads exactly as PyTorch computes them. Skipped, saying why, where PyTorch is absent."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

torch = pytest.importorskip(
    "torch", reason="training needs PyTorch: python3 -m pip install torch==2.13.0 (CPU)"
)

from typer.testing import CliRunner  # noqa: E402  (after the skip: these need torch)

from yamen.bots import (  # noqa: E402
    make_bot,
    play_bots,
    qnet,  # noqa: E402
)
from yamen.bots.encoding import encoder_for  # noqa: E402
from yamen.cli import app  # noqa: E402
from yamen.engine import get_game  # noqa: E402
from yamen.rl import dmc  # noqa: E402
from yamen.rl.model import QModel  # noqa: E402
from yamen.rl.rollout import Roller  # noqa: E402


def train(out, *more):
    args = ["train", "baohuang", "--variant", "japanese", "--out", str(out), "--minutes", "5"]
    result = CliRunner().invoke(app, [*args, "--frames", "300", "--eval-deals", "1", *more])
    assert result.exit_code == 0, result.output
    return torch.load(out / dmc.CHECKPOINT, weights_only=False)["counters"]


def test_a_tiny_run_imitates_checkpoints_and_resumes_into_self_play(tmp_path):
    first = train(tmp_path, "--imitate-minutes", "60")
    assert first["frames"] >= 300 and first["imitation_frames"] == first["frames"]
    assert first["updates"] >= 1 and first["games"] >= 1 and len(first["evals"]) == 1
    assert set(first["devices"]) == {"cpu"}
    assert (tmp_path / "learned.npz").exists() and (tmp_path / "evaluation.png").exists()

    second = train(tmp_path, "--imitate-minutes", "0", "--resume")
    assert second["frames"] >= first["frames"] + 300
    assert second["imitation_frames"] == first["imitation_frames"]  # self-play only
    assert second["games"] > first["games"] and second["jobs"] > first["jobs"]
    assert second["seconds"] > first["seconds"] and len(second["evals"]) == 2
    assert second["evals"][0] == first["evals"][0]

    net = qnet.load(tmp_path / "learned.npz")
    assert net.meta["game"] == "baohuang" and net.meta["match"] == {"variant": "japanese"}
    assert net.meta["frames"] == second["frames"]
    state = get_game("baohuang", {"variant": "japanese"}).new_state(3)
    bots = [make_bot("baohuang", f"learned:path={tmp_path / 'learned.npz'}") for _ in range(5)]
    assert play_bots(state, bots, random.Random(0)) > 0


def test_ray_actors_train_alike(tmp_path):
    """The same run with a Ray of its own (skipped where the ray extra is absent)."""
    pytest.importorskip("ray", reason="Ray actors need the ray extra: pip install -e '.[ray]'")
    counters = train(tmp_path, "--imitate-minutes", "0", "--ray", "local", "--eval-deals", "0")
    assert counters["frames"] >= 300 and counters["imitation_frames"] == 0
    assert not counters["evals"] and (tmp_path / "learned.npz").exists()


def test_resuming_with_other_options_is_refused(tmp_path):
    train(tmp_path, "--imitate-minutes", "60")
    args = ["train", "baohuang", "--variant", "shandong", "--out", str(tmp_path), "--resume"]
    result = CliRunner().invoke(app, [*args, "--frames", "10"])
    assert result.exit_code == 2 and "other options" in result.output


@pytest.mark.parametrize("variant", ["shandong", "japanese"])
def test_numpy_q_equals_torch_q(tmp_path, variant):
    """The exported weights, read by numpy, score every legal action of real decisions as the
    PyTorch model does (to 1e-5), imitation batches having every legal action's row."""
    game = get_game("baohuang", {"variant": variant})
    encoder = encoder_for(game)
    torch.manual_seed(1)
    model = QModel(encoder.observation_size, encoder.action_feature_size)
    path = tmp_path / "q.npz"
    model.qnet({"game": "baohuang", "options": game.options}).save(path)
    net = qnet.load(path)
    batch = Roller("baohuang", game.options, seed=2).play("imitate:rules", None, 0.0, 2, 5)
    assert batch.frames > 50
    with torch.no_grad():
        want = model(
            torch.from_numpy(batch.observations),
            torch.from_numpy(batch.features),
            torch.from_numpy(batch.rows),
        ).numpy()
    got = np.concatenate(
        [
            net.q_values(batch.observations[i], batch.features[batch.rows == i])
            for i in range(batch.frames)
        ]
    )
    assert np.abs(got - want).max() < 1e-5
    assert len(json.dumps(net.meta)) > 0 and net.meta["hidden"] == list(model.hidden)


def test_self_play_keeps_the_taken_actions_with_their_seats_scores():
    game = get_game("baohuang", {"variant": "shandong"})
    encoder = encoder_for(game)
    model = QModel(encoder.observation_size, encoder.action_feature_size)
    batch = Roller("baohuang", game.options, seed=0).play("selfplay", model.arrays(), 0.1, 2, 9)
    assert batch.games == 2 and 0 < batch.frames < batch.decisions
    assert batch.features.shape == (batch.frames, encoder.action_feature_size)
    assert list(batch.chosen) == list(range(batch.frames)) and not batch.teacher
    assert set(np.unique(batch.returns)) <= {float(s) for s in range(-200, 201)}
