"""What an actor does: play whole games and return what was decided in them, with each
seat's final score as the target (Deep Monte-Carlo: the return of a decision is its seat's
score at the end of the game; the games' rewards are terminal, so nothing is discounted).

Two kinds of game:

- **self-play**: every seat is played by the learning policy (the numpy network of
  yamen/bots/qnet.py), epsilon-greedy: a uniformly random legal action with probability
  ``epsilon``, else the action of highest Q. Only the taken action's features are kept.
- **imitation**: every seat is played by a teacher bot (``"rules"``: ``yamen.bots.make_bot``),
  each handed its own view as always; every legal action's features are kept with the index of
  the one the teacher took, so the learner can make that action score highest.

A decision with a single legal action teaches nothing and is not kept. Numpy only: an actor
process never imports PyTorch.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from yamen.bots import make_bot
from yamen.bots.encoding import encoder_for
from yamen.bots.qnet import Arrays, q_values
from yamen.engine import get_game
from yamen.rl.encoding import observe
from yamen.table import Table


@dataclass(frozen=True)
class Batch:
    """The kept decisions of some games. Decision i has ``observations[i]``, its actions are
    the rows of ``features`` whose ``rows`` entry is i, and the one taken is
    ``features[chosen[i]]``; ``returns[i]`` is its seat's final score."""

    observations: np.ndarray  # (n, observation_size) float32
    features: np.ndarray  # (m, action_feature_size) float32
    rows: np.ndarray  # (m,) int64
    chosen: np.ndarray  # (n,) int64
    returns: np.ndarray  # (n,) float32
    games: int
    decisions: int  # every decision played, forced ones included
    teacher: bool = False  # imitation: every legal action's row, the teacher's chosen

    @property
    def frames(self) -> int:
        return len(self.returns)


class Roller:
    """An actor's game: plays batches of games of one configured game."""

    def __init__(self, game: str, options: dict[str, Any], seed: int = 0):
        self.game = get_game(game, options)
        self.encoder = encoder_for(self.game)
        self.rng = random.Random(seed)

    def play(
        self, kind: str, arrays: Arrays | None, epsilon: float, games: int, seed: int
    ) -> Batch:
        """``games`` games of ``kind`` (``"selfplay"``, or ``"imitate:<teacher spec>"``)."""
        self.rng.seed(seed)
        parts = []
        for _ in range(games):
            if kind == "selfplay":
                assert arrays is not None, "self-play needs the network's weights"
                parts.append(self.selfplay(arrays, epsilon))
            else:
                parts.append(self.imitate(kind.partition(":")[2] or "rules"))
        return merged(parts)

    def selfplay(self, arrays: Arrays, epsilon: float) -> Batch:
        state = self.game.new_state(self.rng.getrandbits(63))
        encoder, rng = self.encoder, self.rng
        kept: list[tuple[int, np.ndarray, np.ndarray]] = []

        def decide(seat: int) -> int:
            legal = state.legal(seat)
            if len(legal) == 1:
                return legal[0]
            features = encoder.action_features(state.view(seat), legal)
            observation = observe(encoder, state, seat)
            if rng.random() < epsilon:
                pick = rng.randrange(len(legal))
            else:
                pick = int(np.argmax(q_values(arrays, observation, features)))
            kept.append((seat, observation, features[pick]))
            return legal[pick]

        decisions = Table(state).play(decide)
        scores = final_scores(state)
        n = len(kept)
        return Batch(
            stacked([o for _, o, _ in kept], self.encoder.observation_size),
            stacked([f for _, _, f in kept], self.encoder.action_feature_size),
            np.arange(n, dtype=np.int64),
            np.arange(n, dtype=np.int64),
            np.array([scores[s] for s, _, _ in kept], dtype=np.float32),
            1,
            decisions,
        )

    def imitate(self, teacher: str) -> Batch:
        state = self.game.new_state(self.rng.getrandbits(63))
        bots = [make_bot(self.game.name, teacher) for _ in range(state.num_seats)]
        encoder, rng = self.encoder, self.rng
        seats: list[int] = []
        observations: list[np.ndarray] = []
        features: list[np.ndarray] = []
        rows: list[np.ndarray] = []
        chosen: list[int] = []
        width = 0

        def decide(seat: int) -> int:
            nonlocal width
            legal = state.legal(seat)
            view = state.view(seat)
            action = bots[seat].choose(view, list(legal), rng)
            if len(legal) > 1:
                i = len(seats)
                seats.append(seat)
                observations.append(observe(encoder, state, seat))
                features.append(encoder.action_features(view, legal))
                rows.append(np.full(len(legal), i, dtype=np.int64))
                chosen.append(width + legal.index(action))
                width += len(legal)
            return action

        decisions = Table(state).play(decide)
        scores = final_scores(state)
        size = self.encoder.action_feature_size
        return Batch(
            stacked(observations, self.encoder.observation_size),
            np.concatenate(features) if features else np.zeros((0, size), np.float32),
            np.concatenate(rows) if rows else np.zeros(0, np.int64),
            np.array(chosen, dtype=np.int64),
            np.array([scores[s] for s in seats], dtype=np.float32),
            1,
            decisions,
            teacher=True,
        )


def stacked(vectors: list[np.ndarray], size: int) -> np.ndarray:
    """Vectors as the rows of a float32 matrix (0 rows of ``size`` when there are none)."""
    return np.array(vectors, dtype=np.float32) if vectors else np.zeros((0, size), np.float32)


def final_scores(state: Any) -> list[float]:
    result = state.result()
    assert result is not None, "a game played to the end has a result"
    return [float(score) for score in result.scores]


def merged(parts: list[Batch]) -> Batch:
    """One batch of several (of one kind), decisions and rows renumbered."""
    offsets = np.cumsum([0] + [p.frames for p in parts])
    widths = np.cumsum([0] + [len(p.features) for p in parts])
    return Batch(
        np.concatenate([p.observations for p in parts]),
        np.concatenate([p.features for p in parts]),
        np.concatenate([p.rows + offsets[i] for i, p in enumerate(parts)]),
        np.concatenate([p.chosen + widths[i] for i, p in enumerate(parts)]),
        np.concatenate([p.returns for p in parts]),
        sum(p.games for p in parts),
        sum(p.decisions for p in parts),
        parts[0].teacher,
    )
