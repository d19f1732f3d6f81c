"""Policy improvement over a base bot, learned from rollouts: a Q network that knows where the
base bot (``rules``) leaves points on the table, and a bot that plays the base bot's move
unless the network is sure another is better.

The rule (one step of policy iteration). Let ``Q_b(s, a)`` be the expected final score of the
seat that plays ``a`` in ``s`` when every seat, itself included, plays as the base bot ``b``
afterwards. The policy that picks ``argmax_a Q_b(s, a)`` at every decision scores at least
what ``b`` scores against the same others (the policy improvement theorem), and more wherever
``b``'s move is not the best by its own measure.

How the labels are made (:meth:`Labeller.label_game`, numpy only, a worker's work):

- every seat plays the base bot (each handed its own view); at a share of the decisions that
  offer a choice, the deciding seat's *candidates* are the base bot's move and up to
  ``candidates - 1`` other legal actions, drawn uniformly or, half of them, proposed by a
  network (:meth:`Labeller.candidates`);
- each candidate is applied to a copy of the **real** state and the game is played to its end
  by the base bot in every seat; the deciding seat's final score is that candidate's return.
  The base bot is deterministic, so each return is exact for the real deal; a game may
  declare a faster way to play a state out as one of its bots (``Game.playouts``: bot name ->
  ``"module:function"``, the function taking a state and returning the final scores of the
  game played on from it), which must agree with playing its bot through views (tests/rl);
- what the network is given is the seat's observation and the candidates' features, nothing
  else, so what it learns is the return averaged over everything the seat cannot see: ``Q_b``
  of the seat's information, not of the real deal.

The loss (yamen/rl/improve_fit.py): per decision, the squared error of each candidate's Q
*minus the base move's* against its return minus the base move's return. Who holds which card
moves every return of a decision alike, so the differences are far less noisy than the
returns, and the network's free per-decision offset does not matter.

The bot (:class:`yamen.bots.learned.LearnedBot` with a checkpoint whose ``meta`` names a
``base``): the base bot's move ``m``, then, of the actions it weighs (every legal one, or the
proposer's best few), the one of highest Q; it plays that action only when its Q exceeds
``Q(m)`` by more than ``margin`` points (the network's errors are otherwise as large as the
gains), else ``m``. It still reads only (view, legal).
"""

from __future__ import annotations

import importlib
import itertools
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from yamen.bots import Bot, make_bot, play_bots, qnet
from yamen.bots.encoding import Encoder, encoder_for
from yamen.engine import Action, Game, State, get_game
from yamen.rl.actors import ONE_THREAD
from yamen.rl.encoding import observe
from yamen.rl.vector import VectorEnv

Playout = Callable[[State], list[Any]]  # a state played on to its end -> its final scores
# (view, actions, samples, rng) -> the seat's mean final score after each action, or None
Sampled = Callable[[Any, list[Action], int, random.Random], list[float] | None]


@dataclass(frozen=True)
class Labels:
    """Decisions with their candidates' exact returns. Decision i has ``observations[i]``; its
    candidates are the rows of ``features`` (and ``returns``) whose ``rows`` entry is i, and
    ``base[i]`` is the row of the base bot's move."""

    observations: np.ndarray  # (n, observation_size) float32
    features: np.ndarray  # (m, action_feature_size) float32
    rows: np.ndarray  # (m,) int64
    returns: np.ndarray  # (m,) float32: the deciding seat's final score after that candidate
    base: np.ndarray  # (n,) int64
    proposed: np.ndarray  # (m,) bool: a row the learned bot weighs at play (Labeller.candidates)
    games: int

    @property
    def decisions(self) -> int:
        return len(self.base)

    def save(self, path: Any) -> None:
        np.savez(path, **{k: getattr(self, k) for k in FIELDS}, games=self.games)


FIELDS = ("observations", "features", "rows", "returns", "base", "proposed")


def load_labels(path: Any) -> Labels:
    with np.load(path, allow_pickle=False) as data:
        arrays: dict[str, Any] = {k: data[k] for k in FIELDS}
        return Labels(**arrays, games=int(data["games"]))


def joined(parts: list[Labels]) -> Labels:
    """One set of labels from several, decisions and rows renumbered."""
    decisions = np.cumsum([0] + [p.decisions for p in parts])
    widths = np.cumsum([0] + [len(p.features) for p in parts])
    return Labels(
        np.concatenate([p.observations for p in parts]),
        np.concatenate([p.features for p in parts]),
        np.concatenate([p.rows + decisions[i] for i, p in enumerate(parts)]),
        np.concatenate([p.returns for p in parts]),
        np.concatenate([p.base + widths[i] for i, p in enumerate(parts)]),
        np.concatenate([p.proposed for p in parts]),
        sum(p.games for p in parts),
    )


def declared(table: dict[str, str], bot: str) -> Any:
    """The function a game's table (``Game.playouts``, ``Game.sampled_playouts``) names for
    ``bot`` as ``"module:function"``, or None where it names none."""
    spec = table.get(bot)
    if spec is None:
        return None
    module, attr = spec.split(":")
    return getattr(importlib.import_module(module), attr)


def playout_for(game: Game, base: str) -> Playout:
    """How to play a state to its end as ``base`` in every seat: the game's own fast way where
    it declares one (``Game.playouts``), else the bot itself, seat by seat, through views."""
    function: Playout | None = declared(game.playouts, base)
    if function is not None:
        return function
    bots = [make_bot(game.name, base) for _ in range(game.num_seats)]
    return lambda state: play_through(state, bots, random.Random(0))


def play_through(state: State, bots: list[Bot], rng: random.Random) -> list[Any]:
    """Play ``state`` to its end with one bot per seat, each handed its own view; its final
    scores."""
    play_bots(state, bots, rng)
    result = state.result()
    assert result is not None, "a game played to its end has a result"
    return list(result.scores)


def proposals(candidates: int) -> int:
    """How many of a decision's candidates a proposer picks (the rest are drawn): half the
    others, and as many as the learned bot weighs beside the base move at play."""
    return (candidates - 1) // 2


def sampled_for(game: Game, base: str) -> Sampled | None:
    """The game's way to play ``base`` on from a view over deals drawn to fit it
    (``Game.sampled_playouts``), or None where it declares none."""
    function: Sampled | None = declared(game.sampled_playouts, base)
    return function


class Labeller:
    """An actor's part: plays games with the base bot and labels a share of their decisions.
    ``samples``: each return averaged over that many deals drawn to fit the deciding seat's
    view, where the game draws them (``Game.sampled_playouts``), instead of the real deal's."""

    def __init__(
        self,
        game: str,
        options: dict[str, Any],
        base: str = "rules",
        proposer: str | None = None,
        samples: int = 0,
    ):
        self.game = get_game(game, options)
        self.encoder: Encoder = encoder_for(self.game)
        self.base = base
        self.playout = playout_for(self.game, base)
        self.proposer = None if proposer is None else qnet.proposer_of(proposer)
        self.samples = samples
        self.sampled = sampled_for(self.game, base) if samples else None
        if samples and self.sampled is None:
            raise ValueError(f"{game} draws no deals for {base}'s playouts: no samples")

    def candidates(
        self,
        move: Action,
        legal: list[Action],
        features_of: Callable[[list[Action]], np.ndarray],
        observation: np.ndarray,
        k: int,
        rng: random.Random,
    ) -> tuple[list[Action], list[bool]]:
        """The base move, then up to ``k - 1`` others, and which of them the learned bot would
        weigh at play. Without a proposer the others are drawn uniformly and the bot weighs
        every legal action. With one, ``proposals(k)`` of them are the others it scores
        highest (the plausible alternatives, where a better move than the base bot's is
        likeliest, and the only ones the bot weighs) and the rest are drawn uniformly (so the
        network also learns what the implausible ones are worth). ``features_of``: the
        action features of some of ``legal``."""
        others = [a for a in legal if a != move]
        if self.proposer is None:
            tried = [move, *rng.sample(others, min(k - 1, len(others)))]
            return tried, [True] * len(tried)
        features = features_of(others)
        chosen = [
            others[i] for i in qnet.best_rows(self.proposer, observation, features, proposals(k))
        ]
        rest = [a for a in others if a not in chosen]
        drawn = rng.sample(rest, min(k - 1 - len(chosen), len(rest)))
        return [move, *chosen, *drawn], [True] * (1 + len(chosen)) + [False] * len(drawn)

    def label_game(self, seed: int, share: float, candidates: int) -> Labels:
        """One game (the module says how); ``share``: the chance a decision is labelled."""
        rng = random.Random(seed)
        state = self.game.new_state(rng.getrandbits(63))
        bots = [make_bot(self.game.name, self.base) for _ in range(state.num_seats)]
        encoder = self.encoder
        found = Found(encoder)
        while not state.over:
            seat = state.pending()[0]
            legal = state.legal(seat)
            if len(legal) == 1:
                state.apply(seat, legal[0])
                continue
            view = state.view(seat)
            move = bots[seat].choose(view, legal, rng)
            if rng.random() < share:
                observation = observe(encoder, state, seat)
                features_of = partial(encoder.action_features, view)
                tried, weighed = self.candidates(
                    move, legal, features_of, observation, candidates, rng
                )
                returns = self._drawn(view, tried, rng)
                if returns is None:
                    returns = [self._play_on(state, seat, action) for action in tried]
                found.add(observation, features_of(tried), returns, weighed)
            state.apply(seat, move)
        return found.labels()

    def _drawn(self, view: Any, tried: list[Action], rng: random.Random) -> list[float] | None:
        """The candidates' returns over deals drawn to fit the view, where asked and drawn
        (from a random stream of their own, so that the game's stream goes on alike)."""
        if self.sampled is None:
            return None
        return self.sampled(view, tried, self.samples, random.Random(rng.getrandbits(64)))

    def _play_on(self, state: State, seat: int, action: Action) -> float:
        """The seat's final score after ``action``, every seat then playing the base bot."""
        copy = state.clone()
        copy.apply(seat, action)
        return float(self.playout(copy)[seat])

    def label_games(self, seeds: list[int], share: float, candidates: int) -> Labels:
        """:meth:`label_game` of each seed, joined: the same labels, found side by side in
        the vector environment where the game declares a compiled stepper (its observations,
        legal ids and features; the base bot's moves and the rollouts too where the stepper
        plays that bot, else through Python states); one game at a time where it does not."""
        env = VectorEnv(self.game.name, len(seeds), skip_forced=True, **self.game.options)
        if env.engine == "python":
            return joined([self.label_game(seed, share, candidates) for seed in seeds])
        rngs = [random.Random(seed) for seed in seeds]
        n, seats = len(seeds), self.game.num_seats
        bots = [[make_bot(self.game.name, self.base) for _ in range(seats)] for _ in range(n)]
        found = [Found(self.encoder) for _ in range(n)]
        step = env.reset(seed=[rng.getrandbits(63) for rng in rngs])
        playing = np.ones(n, bool)  # each slot labels its first game only
        while playing.any():
            offsets, ids = step.legal_offsets.tolist(), step.legal_ids
            actions = ids[offsets[:-1]].copy()  # the slots done play their first legal id
            moves = env.moves(self.base).tolist()
            for i in np.flatnonzero(playing).tolist():
                rng, seat = rngs[i], int(step.to_act[i])
                legal = ids[offsets[i] : offsets[i + 1]].tolist()
                state = None
                if moves[i] < 0:  # a move the stepper does not know: the bot's, in Python
                    state = env.state(i)
                    moves[i] = bots[i][seat].choose(state.view(seat), legal, rng)
                move = actions[i] = moves[i]
                if rng.random() >= share:
                    continue
                assert step.legal_features is not None, "the environment gives features"
                features_of = partial(rows_of, legal, step.legal_features[offsets[i] :])
                observation = step.observations[i].copy()
                tried, weighed = self.candidates(
                    move, legal, features_of, observation, candidates, rng
                )
                returns = self._returns_in(env, i, seat, state, tried, rng)
                found[i].add(observation, features_of(tried), returns, weighed)
            step = env.step(actions)
            playing &= ~step.terminations
        return joined([f.labels() for f in found])

    def _returns_in(
        self,
        env: VectorEnv,
        i: int,
        seat: int,
        state: State | None,
        tried: list[Action],
        rng: random.Random,
    ) -> list[float]:
        """Game i's candidates' returns (``state``: the game now, where already replayed):
        over drawn deals where asked, else the stepper's rollouts, else played in Python."""
        if self.sampled is not None:
            state = env.state(i) if state is None else state
            drawn = self._drawn(state.view(seat), tried, rng)
            if drawn is not None:
                return drawn
        scores = env.play_outs(self.base, i, tried)
        if scores is not None:
            return [float(score[seat]) for score in scores]
        state = env.state(i) if state is None else state
        return [self._play_on(state, seat, action) for action in tried]


def rows_of(legal: list[Action], features: np.ndarray, some: list[Action]) -> np.ndarray:
    """The feature rows of ``some`` of the ``legal`` actions, whose rows ``features`` begins
    with, in the order given."""
    where = {action: row for row, action in enumerate(legal)}
    return features[[where[action] for action in some]]


class Found:
    """One game's labelled decisions as they are found, then as :class:`Labels`."""

    def __init__(self, encoder: Encoder):
        self.encoder = encoder
        self.observations: list[np.ndarray] = []
        self.features: list[np.ndarray] = []
        self.returns: list[float] = []
        self.rows: list[int] = []
        self.base: list[int] = []
        self.proposed: list[bool] = []

    def add(
        self,
        observation: np.ndarray,
        features: np.ndarray,
        returns: list[float],
        weighed: list[bool],
    ) -> None:
        """A decision: its candidates' features and returns, the base move's first."""
        self.base.append(len(self.returns))
        self.rows += [len(self.observations)] * len(returns)
        self.returns += returns
        self.proposed += weighed
        self.observations.append(observation)
        self.features.append(features)

    def labels(self) -> Labels:
        encoder, size = self.encoder, self.encoder.action_feature_size
        return Labels(
            np.array(self.observations, np.float32).reshape(-1, encoder.observation_size),
            np.concatenate(self.features) if self.features else np.zeros((0, size), np.float32),
            np.array(self.rows, np.int64),
            np.array(self.returns, np.float32),
            np.array(self.base, np.int64),
            np.array(self.proposed, bool),
            1,
        )


@dataclass(frozen=True)
class Labelling:
    """What to label: ``games_per_shard`` games per job, each job's games seeded by ``seed``
    and the job's shard number; candidates drawn as :meth:`Labeller.candidates` says."""

    game: str
    options: dict[str, Any]
    base: str = "rules"
    proposer: str | None = None  # a learned checkpoint (.npz) that proposes candidates
    share: float = 0.3
    candidates: int = 8
    games_per_shard: int = 20
    seed: int = 0
    samples: int = 0  # each return over this many deals drawn to fit the view (Labeller)


def run_label_job(what: Labelling, shard: int, path: str) -> tuple[int, int]:
    """Label one shard's games and save them (written whole, then renamed: a shard is never
    read half-written); (games, decisions)."""
    os.environ.update(ONE_THREAD)
    seeds = [what.seed * 1_000_003 + shard * 1_009 + i for i in range(what.games_per_shard)]
    labeller = Labeller(what.game, what.options, what.base, what.proposer, what.samples)
    labels = labeller.label_games(seeds, what.share, what.candidates)
    writing = str(Path(path).with_name("writing-" + Path(path).name))  # not a labels-* name
    labels.save(writing)
    os.replace(writing, path)
    return labels.games, labels.decisions


def shards(folder: Path) -> list[Path]:
    """The labels in a folder, oldest first (``labels-<n>.npz``)."""
    return sorted(p for p in folder.glob("labels-*.npz") if p.stem[7:].isdigit())


def generate(
    what: Labelling,
    folder: Path,
    seconds: float,
    workers: int,
    at_least: int = 2,
    report: Callable[[int, int, float], None] | None = None,
) -> tuple[int, int]:
    """Label games in ``workers`` processes for about ``seconds`` (and ``at_least`` shards:
    fitting holds one out), one shard per job in ``folder`` (``labels-<n>.npz``; where some
    are there already it goes on from the next number, so a second run adds to the first's);
    (games, decisions) labelled this time."""
    folder.mkdir(parents=True, exist_ok=True)
    numbers = itertools.count(1 + max((int(p.stem[7:]) for p in shards(folder)), default=-1))
    games = decisions = done = 0
    start = time.monotonic()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:

        def submit() -> Any:
            n = next(numbers)
            return pool.apply_async(run_label_job, (what, n, str(folder / f"labels-{n:05d}.npz")))

        pending = [submit() for _ in range(workers)]
        while pending:
            for job in [j for j in pending if j.ready()]:
                g, d = job.get()
                games, decisions, done = games + g, decisions + d, done + 1
                pending.remove(job)
                if time.monotonic() - start < seconds or done + len(pending) < at_least:
                    pending.append(submit())
            if report is not None:
                report(games, decisions, time.monotonic() - start)
            if pending:
                pending[0].wait(0.25)
    return games, decisions
