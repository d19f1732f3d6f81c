"""What an actor does: play whole games and return what was decided in them, with each
seat's final score as the target (Deep Monte-Carlo: the return of a decision is its seat's
score at the end of the game; the games' rewards are terminal, so nothing is discounted).

Two kinds of game:

- **self-play**: every seat is played by the learning policy (the numpy network of
  yamen/bots/qnet.py), epsilon-greedy: a uniformly random legal action with probability
  ``epsilon``, else the action of highest Q. Only the taken action's features are kept. The
  games run side by side on the vector environment (yamen/rl/vector.py, ``SELFPLAY_GAMES`` of
  them), one forward pass a step for every game's legal actions (the environment plays the
  forced ones itself, unobserved). The environment lives as long as the actor, so a job returns
  the games that ended while it ran and the games still being played carry on into the next
  job (their first decisions made with the weights of the job before, as an asynchronous
  actor's are).
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
from yamen.bots.qnet import Arrays, q_values_ragged
from yamen.engine import get_game
from yamen.rl.encoding import observe
from yamen.rl.vector import VectorEnv
from yamen.table import Table

SELFPLAY_GAMES = 16  # games an actor plays side by side in self-play


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
        self._selfplay: SelfPlay | None = None  # made by the first self-play job

    def play(
        self, kind: str, arrays: Arrays | None, epsilon: float, games: int, seed: int
    ) -> Batch:
        """``games`` games of ``kind`` (``"selfplay"``, or ``"imitate:<teacher spec>"``)."""
        self.rng.seed(seed)
        if kind == "selfplay":
            assert arrays is not None, "self-play needs the network's weights"
            if self._selfplay is None:
                self._selfplay = SelfPlay(self.game.name, self.game.options, seed)
            return self._selfplay.play(arrays, epsilon, games, self.rng)
        teacher = kind.partition(":")[2] or "rules"
        return merged([self.imitate(teacher) for _ in range(games)])

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


class SelfPlay:
    """Epsilon-greedy self-play of games side by side (see the module)."""

    def __init__(self, game: str, options: dict[str, Any], seed: int):
        self.env = VectorEnv(game, SELFPLAY_GAMES, skip_forced=True, **options)
        self.step = self.env.reset(seed=seed)
        # per slot, the game being played: its kept decisions (seat, observation, feature row)
        # and every decision made in it, forced ones included
        self.kept: list[list[tuple[int, np.ndarray, np.ndarray]]] = [
            [] for _ in range(SELFPLAY_GAMES)
        ]
        self.decisions = self.step.forced.tolist()

    def play(self, arrays: Arrays, epsilon: float, games: int, rng: random.Random) -> Batch:
        """Step every game until ``games`` of them have ended; their decisions."""
        ended: list[tuple[list[tuple[int, np.ndarray, np.ndarray]], int, np.ndarray]] = []
        while len(ended) < games:
            step = self.step
            rows = step.legal_features
            assert rows is not None, "the environment gives action features"
            starts, ends = step.legal_offsets[:-1], step.legal_offsets[1:]
            picks = greedy(arrays, step.observations, rows, step.legal_offsets)
            for i, (start, end) in enumerate(zip(starts.tolist(), ends.tolist(), strict=True)):
                self.decisions[i] += 1
                if end - start == 1:
                    continue  # forced (the first of a game dealt in the last step): no lesson
                if rng.random() < epsilon:
                    picks[i] = start + rng.randrange(end - start)
                seat = int(step.to_act[i])
                self.kept[i].append((seat, step.observations[i].copy(), rows[picks[i]].copy()))
            self.step = step = self.env.step(step.legal_ids[picks])
            for i, forced in enumerate(step.forced.tolist()):
                self.decisions[i] += forced  # before the game's end, if it ended: its own
            for i in np.flatnonzero(step.terminations).tolist():
                ended.append((self.kept[i], self.decisions[i], step.rewards[i].copy()))
                self.kept[i], self.decisions[i] = [], 0
        kept = [(scores[seat], o, f) for decisions, _, scores in ended for seat, o, f in decisions]
        n = len(kept)
        return Batch(
            stacked([o for _, o, _ in kept], self.env.observation_size),
            stacked([f for _, _, f in kept], self.env.action_feature_size),
            np.arange(n, dtype=np.int64),
            np.arange(n, dtype=np.int64),
            np.array([r for r, _, _ in kept], dtype=np.float32),
            len(ended),
            sum(decisions for _, decisions, _ in ended),
        )


def greedy(
    arrays: Arrays, observations: np.ndarray, features: np.ndarray, offsets: np.ndarray
) -> np.ndarray:
    """Per game, the index into the ragged ``features`` (game i's rows are
    ``offsets[i]:offsets[i+1]``, none empty) of its action of highest Q, the first of equals,
    as ``np.argmax`` would pick it."""
    lengths = np.diff(offsets)
    rows = np.repeat(np.arange(len(lengths)), lengths)
    q = q_values_ragged(arrays, observations, features, rows)
    best = np.maximum.reduceat(q, offsets[:-1])
    at_best = np.flatnonzero(q == best[rows])
    _, first = np.unique(rows[at_best], return_index=True)
    return at_best[first]


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
