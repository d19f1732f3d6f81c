"""N games stepped per call, into arrays allocated once: the vectorized environment.

``vector_env(game, num_envs, **options)`` plays ``num_envs`` games of one configured game side
by side. Each call of ``step`` takes one action id per game, for the seat that game has to act
(the lowest pending seat, as the AEC environment selects), and answers with arrays, one row per
game (:class:`VectorStep`):

- the acting seat's observation, the seat, each seat's reward (its final score on the step that
  ended the game, else 0) and whether the game ended;
- the legal action ids as a ragged (CSR) array, ``legal_ids[legal_offsets[i]:legal_offsets[i+1]]``
  for game i, with one action-feature row each, and a dense ``(num_envs, num_actions)`` mask
  only on request: Baohuang has 29,814 action ids and a few to a few hundred legal at a time,
  so a dense mask a step would cost more than the game;
- with ``full_information=True``, the full information of every game (every hand), for
  centralized critics only;
- with ``skip_forced=True``, a decision with one legal action is played by the environment
  (``forced`` counts them per game and step), so every row asks for a choice; but never in a
  game that ended in this step's action, whose next game is answered from its first decision.

A game that ends is replaced in the same step (autoreset, Gymnasium's "same step" mode): its
``terminations`` entry is true, its ``rewards`` row holds the final scores, and the other rows
already describe the next game. Seeds as in the AEC environment: ``reset(seed=s)`` deals game i
with ``s + i`` (or ``seed[i]`` given a list), and each later game of slot i with the seed an AEC
environment reset without a seed would draw after ``reset(seed=seed_i)``; so slot i plays
exactly the games of an AEC environment reset once with its seed (tests/rl/test_vector.py
checks it step by step).

The arrays are the environment's own and are overwritten by the next call: copy what you keep.
An illegal action in any game raises :class:`~yamen.errors.IllegalAction` naming the game and
the rule, before any game has moved.

The games are Python states (the reference engine), except where the game declares a
*stepper* (``Game.stepper``: a compiled fast path, offered each game after every Python step,
that takes those it can play on, steps them many at once, and hands each back as a Python
state when it is done: Baohuang's core takes each deal, yamen/games/baohuang/batch.py).
``engine`` says which runs; the results are the same (tests/rl/test_vector.py runs both).
``compiled=False`` or ``full_information=True`` runs the Python engine alone. This module
names no game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from yamen.bots.encoding import encoder_for, stepper_for
from yamen.engine import State, get_game, new_seed
from yamen.errors import IllegalAction
from yamen.rl.encoding import action_features, full_information, full_information_size, observe

MAX_SEED = 2**63  # seeds are kept as int64


@dataclass(frozen=True)
class VectorStep:
    """What a reset or a step answers: views of the environment's arrays (see the module)."""

    observations: np.ndarray  # (num_envs, observation_size) float32: the acting seat's
    to_act: np.ndarray  # (num_envs,) int64: the seat that acts next in each game
    rewards: np.ndarray  # (num_envs, num_seats) float32: final scores where a game just ended
    terminations: np.ndarray  # (num_envs,) bool: the game in this slot ended with this step
    legal_ids: np.ndarray  # (total,) int64: every game's legal action ids, end to end
    legal_offsets: np.ndarray  # (num_envs + 1,) int64: game i's are [offsets[i], offsets[i+1])
    legal_features: np.ndarray | None  # (total, action_feature_size) float32
    mask: np.ndarray | None  # (num_envs, num_actions) int8, on request
    states: np.ndarray | None  # (num_envs, state_size) float32, on request
    seeds: np.ndarray  # (num_envs,) int64: the seed of the game each slot now plays
    forced: np.ndarray  # (num_envs,) int64: forced actions played for each game (skip_forced)


class VectorEnv:
    """``num_envs`` games of one configured game (see the module)."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        *,
        features: bool = True,
        dense_mask: bool = False,
        full_information: bool = False,
        skip_forced: bool = False,
        compiled: bool = True,
        **options: Any,
    ):
        if num_envs < 1:
            raise ValueError(f"num_envs {num_envs}: at least 1")
        self.game = get_game(game, options)
        self.encoder = encoder_for(self.game)  # the action features' (they keep no game)
        self.num_envs = n = num_envs
        # An encoder may keep what it read of the last game it saw (Baohuang's: the sets played
        # so far) to read only what is new next time, so each slot observes with its own.
        self._observers = [encoder_for(self.game) for _ in range(n)]
        self.num_seats = self.game.num_seats
        self.num_actions = self.game.num_actions
        self.observation_size = self.encoder.observation_size
        self.action_feature_size = self.encoder.action_feature_size
        self.observations = np.zeros((n, self.observation_size), np.float32)
        self.to_act = np.zeros(n, np.int64)
        self.rewards = np.zeros((n, self.num_seats), np.float32)
        self.terminations = np.zeros(n, bool)
        self.legal_offsets = np.zeros(n + 1, np.int64)
        self.seeds = np.zeros(n, np.int64)
        self.skip_forced = skip_forced
        self.forced = np.zeros(n, np.int64)
        self._ids = np.zeros(0, np.int64)
        self._features = np.zeros((0, self.action_feature_size), np.float32) if features else None
        self.mask = np.zeros((n, self.num_actions), np.int8) if dense_mask else None
        size = full_information_size(self.encoder, self.game)
        self.states = np.zeros((n, size), np.float32) if full_information else None
        self._games: list[State] = []
        self._chains: list[random.Random] = []
        self._legal: list[list[int]] = []
        self.games_finished = 0
        arrays = (self.observations, self.to_act, self.forced)
        wanted = compiled and not full_information
        self._fast = stepper_for(self.game, n, *arrays) if wanted else None
        self.engine = "python" if self._fast is None else self._fast.engine
        self._held = np.zeros(n, bool)  # the games the stepper plays now
        self._actions = np.zeros(n, np.int64)
        self._taken: list[int] = []  # games taken in this call, to answer from the stepper

    def reset(self, seed: int | Sequence[int] | None = None) -> VectorStep:
        """Deal a new game in every slot: game i with ``seed + i``, or ``seed[i]`` (a fresh
        random seed each without one)."""
        n = self.num_envs
        if seed is None:
            seeds = [new_seed() for _ in range(n)]
        elif isinstance(seed, int | np.integer):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = [int(s) for s in seed]
            if len(seeds) != n:
                raise ValueError(f"{len(seeds)} seeds for {n} games")
        for s in seeds:
            if not 0 <= s < MAX_SEED:
                raise ValueError(f"seed {s}: from 0 to 2**63 - 1")
        self._chains = [random.Random(s) for s in seeds]
        self._games = [self._deal(i, s) for i, s in enumerate(seeds)]
        self._start_step()
        if self.mask is not None:
            self.mask[:] = 0
        self._legal = [[] for _ in range(n)]
        self._held[:] = False
        for i in range(n):
            self._read(i)
        self._step_fast([])
        return self._answer()

    def step(self, actions: Sequence[int] | np.ndarray) -> VectorStep:
        """Apply one action id per game, for its seat to act; then the next step's arrays."""
        given = np.asarray(actions)
        if not self._games:
            raise RuntimeError("reset() before step()")
        if given.shape != (self.num_envs,):
            raise ValueError(f"{given.size} actions for {self.num_envs} games")
        if given.dtype.kind not in "iu":  # the first that is not an action id is refused
            i = next(i for i, a in enumerate(actions) if not isinstance(a, int | np.integer))
            self._refuse(i, actions[i])
        chosen = given.tolist()
        held, fast = self._held, self._fast
        loose = np.flatnonzero(~held).tolist()  # the games that are Python states now
        for i in loose:
            if chosen[i] not in self._legal[i]:
                self._refuse(i, chosen[i])  # every one before any moves
        slots = np.flatnonzero(held)
        if fast is not None:
            self._actions[:] = given
            bad = fast.first_illegal(slots, self._actions)
            if bad >= 0:
                self._refuse(bad, chosen[bad])
        self._start_step()
        for i in loose:
            self._apply(i, int(self.to_act[i]), chosen[i])
            self._read(i)
        self._step_fast(slots.tolist())
        return self._answer()

    def _refuse(self, i: int, action: Any) -> None:
        """Raise game i's refusal of ``action`` in the rules' words (a stepper's game is
        replayed to its current decision in Python to say them)."""
        seat = int(self.to_act[i])
        fast, state = self._fast, self._games[i]
        if fast is not None and self._held[i]:
            now = fast.now(i)
            if now is None:  # past what the stepper logs: its legal ids say it
                reason = f"{action!r} is not one of the {self._legal_count(i)} legal actions"
                raise IllegalAction(f"game {i}, seat {seat}: {reason}")
            state = now
        try:
            state.check(seat, action)
        except IllegalAction as refused:
            raise IllegalAction(f"game {i}, seat {seat}: {refused}") from None
        raise IllegalAction(f"game {i}, seat {seat}: {action!r} is not an action id")

    def _legal_count(self, i: int) -> int:
        """How many legal actions game i has now."""
        fast = self._fast
        return int(fast.counts[i]) if fast is not None and self._held[i] else len(self._legal[i])

    def _step_fast(self, slots: list[int]) -> None:
        """The stepper's games take their actions (those it took this call: none) until each
        answers a decision; a game handed back goes on as a Python state (which the stepper
        may take again: then it answers from there)."""
        fast = self._fast
        if fast is None:
            return
        slots = sorted([*slots, *self._taken])
        actions = self._actions
        actions[self._taken] = -1
        self._taken = []
        while slots:
            for i in fast.step(np.array(slots, np.int64), actions, self.skip_forced):
                self._held[i] = False
                self._games[i] = fast.give_back(i)
                self._settle(i)
                self._read(i)
            slots = sorted(self._taken)
            actions[slots] = -1
            self._taken = []

    def _start_step(self) -> None:
        self.rewards[:] = 0.0
        self.terminations[:] = False
        self.forced[:] = 0

    def _apply(self, i: int, seat: int, action: int) -> None:
        """An action in game i (a Python state)."""
        self._games[i].apply(seat, action)
        self._settle(i)

    def _settle(self, i: int) -> None:
        """A game over leaves its scores and a new game in its slot."""
        state = self._games[i]
        if state.over:
            result = state.result()
            assert result is not None, "a game over has its result"
            self.rewards[i] = [float(score) for score in result.scores]
            self.terminations[i] = True
            self.games_finished += 1
            self._games[i] = self._deal(i, self._chains[i].getrandbits(63))

    def _deal(self, i: int, seed: int) -> State:
        self.seeds[i] = seed
        return self.game.new_state(seed)

    def _read(self, i: int) -> None:
        """Game i's seat to act, its observation, its legal actions (and the mask's row),
        forced actions first played where they are skipped; or the stepper takes it (not a
        game dealt in this step: its first decision is never skipped)."""
        fast = self._fast
        while True:
            state = self._games[i]
            if fast is not None and not self.terminations[i] and fast.takes(state):
                fast.take(i, state)
                self._held[i] = True
                self._taken.append(i)
                return
            seat = state.pending()[0]
            legal = state.legal(seat)
            if not (self.skip_forced and len(legal) == 1 and not self.terminations[i]):
                break
            self.forced[i] += 1
            self._apply(i, seat, legal[0])
        if fast is not None:
            fast.write_legal(i, legal)
        self.to_act[i] = seat
        self.observations[i] = observe(self._observers[i], state, seat)
        if self.mask is not None:
            row = self.mask[i]
            row[self._legal[i]] = 0  # only the last step's ones, not the whole row
            row[legal] = 1
        self._legal[i] = legal
        if self.states is not None:
            self.states[i] = full_information(self._observers[i], state)

    def _answer(self) -> VectorStep:
        """Gather the legal ids (and their features) end to end, growing the buffers when a
        step needs more room than any before it; the stepper, where there is one, keeps every
        game's ids (and its own games' mask rows are set from them)."""
        fast, offsets = self._fast, self.legal_offsets
        offsets[0] = 0
        np.cumsum(
            [len(legal) for legal in self._legal] if fast is None else fast.counts, out=offsets[1:]
        )
        total = int(offsets[-1])
        if total > len(self._ids):
            room = max(total, 2 * len(self._ids))
            self._ids = np.zeros(room, np.int64)
            if self._features is not None:
                self._features = np.zeros((room, self.action_feature_size), np.float32)
        ids = self._ids[:total]
        if fast is None:
            ids[:] = [action for legal in self._legal for action in legal]
        else:
            fast.gather(self._ids)
            if self.mask is not None:
                for i in np.flatnonzero(self._held).tolist():
                    self.mask[i, self._legal[i]] = 0
                    self._legal[i] = ids[offsets[i] : offsets[i + 1]].tolist()
                    self.mask[i, self._legal[i]] = 1
        features = None
        if self._features is not None:
            features = self._features[:total]
            if fast is not None:  # a row per action id, read from its table
                np.take(fast.features, ids, axis=0, out=features)
            else:
                for i, legal in enumerate(self._legal):
                    features[offsets[i] : offsets[i + 1]] = action_features(
                        self.encoder, self._games[i], int(self.to_act[i]), legal
                    )
        return VectorStep(
            self.observations,
            self.to_act,
            self.rewards,
            self.terminations,
            ids,
            offsets,
            features,
            self.mask,
            self.states,
            self.seeds,
            self.forced,
        )

    def state(self, i: int) -> State:
        """Game i at its current decision as a Python state of the caller's own (a game the
        stepper holds is replayed from its deal's start): to ask a bot through a view, or to
        play a copy on."""
        fast = self._fast
        if fast is None or not self._held[i]:
            return self._games[i].clone()
        now = fast.now(i)
        if now is None:
            raise RuntimeError(f"game {i}: too long a deal to replay")
        return now

    def moves(self, bot: str) -> np.ndarray:
        """The move ``bot`` (a bot's name) would make in each game, where the stepper plays
        that bot's policy itself and holds the game at a decision it covers; -1 elsewhere
        (ask the bot through :meth:`state`'s view there). For learners that label or imitate
        a bot: the same move the bot makes, without a Python state."""
        found = np.full(self.num_envs, -1, np.int64)
        if self._fast is not None:
            self._fast.moves(bot, np.flatnonzero(self._held), found)
        return found

    def play_outs(self, bot: str, i: int, actions: Sequence[int]) -> list[list[Any]] | None:
        """Game i's final scores after each of ``actions`` (legal, for its seat to act), the
        game then played to its end by ``bot`` in every seat, where the stepper can say them
        (it holds the game and plays that bot to the end); else None (play copies of
        :meth:`state` on). The game itself does not move."""
        if self._fast is None or not self._held[i]:
            return None
        return self._fast.play_outs(bot, i, actions)

    def close(self) -> None:
        """Nothing to release: the games are Python states and numpy buffers."""


def vector_env(game: str, num_envs: int, **options: Any) -> VectorEnv:
    """``num_envs`` games of ``game`` with its options (keyword arguments), stepped together;
    ``features``, ``dense_mask``, ``full_information`` and ``skip_forced`` choose the arrays,
    ``compiled`` whether a game's compiled stepper may run (the module)."""
    return VectorEnv(game, num_envs, **options)
