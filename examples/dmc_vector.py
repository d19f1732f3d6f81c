"""Deep Monte-Carlo (DouZero's method) on Yamen's vector environment, in one file.

A Q network scores each legal action from the acting seat's observation and the action's
features; every game's decision is the best-scored legal action (or a random one, with
probability ``epsilon``); when a game ends, each of its decisions is labelled with the final
score of the seat that made it, and the network is fitted to those returns by mean squared
error. All games step together: one network call scores every legal action of every game
(the ragged ``legal_features``), one ``env.step`` plays them. Where Baohuang's compiled core
was built the environment steps its deals in C (``env.engine`` says so).

    pip install -e '.[rl,train]'
    python examples/dmc_vector.py [--games 256] [--steps 3000] [--variant shandong]

yamen/rl/dmc.py is the full trainer (``yamen train``: actors, a replay of returns, checkpoints
the learned bot plays); this is the method alone. docs/rl.md says how both read the arrays.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

import yamen.rl

BATCH = 4096  # decisions a fit, as they come


def q_network(observation_size: int, feature_size: int) -> torch.nn.Module:
    return torch.nn.Sequential(
        torch.nn.Linear(observation_size + feature_size, 256),
        torch.nn.ReLU(),
        torch.nn.Linear(256, 256),
        torch.nn.ReLU(),
        torch.nn.Linear(256, 1),
    )


def best_actions(q: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Per game, the index (into the ragged rows) of its legal action of highest Q."""
    rows = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    best = np.maximum.reduceat(q, offsets[:-1])
    at_best = np.flatnonzero(q == best[rows])
    _, first = np.unique(rows[at_best], return_index=True)
    return at_best[first]


def train(
    games: int, steps: int, variant: str, epsilon: float, seed: int, batch: int = BATCH
) -> list[float]:
    """DMC for ``steps`` calls of ``games`` games, a fit every ``batch`` decisions; the fits'
    losses."""
    env = yamen.rl.vector_env("baohuang", games, skip_forced=True, variant=variant)
    net = q_network(env.observation_size, env.action_feature_size)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-4)
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    step = env.reset(seed=seed)
    playing: list[list[tuple[int, np.ndarray]]] = [[] for _ in range(games)]  # (seat, input)
    inputs: list[np.ndarray] = []
    returns: list[float] = []
    losses = []
    for _ in range(steps):
        offsets, features = step.legal_offsets, step.legal_features
        assert features is not None, "the environment gives action features by default"
        rows = np.repeat(np.arange(games), np.diff(offsets))
        x = np.concatenate([step.observations[rows], features], axis=1)
        with torch.no_grad():
            q = net(torch.from_numpy(x)).squeeze(1).numpy()
        picks = best_actions(q, offsets)
        explore = rng.random(games) < epsilon
        starts, lengths = offsets[:-1], np.diff(offsets)
        picks[explore] = starts[explore] + (rng.random(games) * lengths).astype(np.int64)[explore]
        for i in range(games):
            playing[i].append((int(step.to_act[i]), x[picks[i]].copy()))
        step = env.step(step.legal_ids[picks])
        for i in np.flatnonzero(step.terminations):
            scores = step.rewards[i]
            inputs += [row for _, row in playing[i]]
            returns += [float(scores[seat]) for seat, _ in playing[i]]
            playing[i] = []
        if len(returns) >= batch:
            target = torch.tensor(returns, dtype=torch.float32)
            loss = torch.nn.functional.mse_loss(
                net(torch.from_numpy(np.stack(inputs))).squeeze(1), target
            )
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
            inputs, returns = [], []
    return losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=256)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--variant", default="shandong")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    losses = train(args.games, args.steps, args.variant, args.epsilon, args.seed)
    seconds = time.perf_counter() - start
    print(f"{args.games * args.steps:,} decisions in {seconds:.1f} s, {len(losses)} fits")
    for k in range(0, len(losses), max(1, len(losses) // 10)):
        print(f"fit {k + 1}: loss {losses[k]:.2f}")


if __name__ == "__main__":
    main()
