"""The observation encoding learners train on and the learned bot plays by: a protocol each
game implements beside its rules, and the loader that finds a game's.

It sits in the bots layer, not in rl, because a bot needs it to play (yamen/bots/learned.py),
and a bot may not reach up into rl; the environments and the trainer (yamen/rl) import it from
here. A game names its encoder as it names its bots (``Game.encoder = "module:Class"``), so
that neither this module nor rl names a game and a game's rules never import numpy: the
encoder's module is imported only when an environment or a learned bot asks for it. The class
is built from the configured game (``cls(game)``), so it knows the options (a variant) that fix
the vectors' layout.

The contract (docs/rl.md says each game's layout):

- ``encode(view, seat)``: the seat's observation, a float32 vector of ``observation_size``
  with every feature in [-1, 1], computed from that seat's view alone. The view is all a seat
  may see, so the observation cannot see more.
- ``encode_seat(state, seat)`` (optional): the same vector read straight from the state, for
  speed (building a view per step costs more than a step of the engine). It must equal
  ``encode(state.view(seat), seat)`` on every state; tests/rl check that on random states and
  on states that differ only in cards the seat cannot see.
- ``action_features(view, actions)``: a ``(len(actions), action_feature_size)`` float32
  matrix, one row per action id (what the action plays, which word it says), for learners
  that score each legal action, Q(s, a), as DouZero does.
- ``action_features_seat(state, seat, actions)`` (optional): the same rows read from the state,
  for speed, as ``encode_seat`` is to ``encode``; it must equal ``action_features`` on the
  seat's view.
- ``encode_state(state)`` with ``state_size`` (optional): a float32 vector holding the full
  information (every hand, every hidden role), for centralized critics only, never for a
  policy that is to play. Without them, :func:`yamen.rl.encoding.full_information`
  concatenates every seat's observation, which holds every hand and role already.

A game may also name a compiled *stepper* (``Game.stepper``, :class:`Stepper`): the same
observations and legal ids for many games at once, written by compiled code, for the vector
environment (yamen/rl/vector.py). It is loaded here, beside the encoder whose vectors it
writes, for the same reason: rl names no game and reaches the games through this layer.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from yamen.engine import Action, Game, State

FloatVector = np.ndarray  # float32, one dimension
"""A vector of features (numpy's own annotation is too loose to say more)."""


@runtime_checkable
class Encoder(Protocol):
    """What a game's encoder offers (the module says the contract)."""

    observation_size: int
    action_feature_size: int

    def encode(self, view: Mapping[str, Any], seat: int) -> FloatVector: ...

    def action_features(self, view: Mapping[str, Any], actions: list[Action]) -> np.ndarray: ...


def encoder_class(game: type[Game] | Game) -> type | None:
    """The encoder class a game declares, or None where it declares none."""
    spec = game.encoder
    if spec is None:
        return None
    module, attr = spec.split(":")
    return getattr(importlib.import_module(module), attr)


def encoder_for(game: Game) -> Encoder:
    """The encoder of a configured game; ``ValueError`` when the game declares none."""
    cls = encoder_class(game)
    if cls is None:
        raise ValueError(f"{game.name} declares no observation encoder (Game.encoder)")
    encoder = cls(game)
    if not isinstance(encoder, Encoder):
        raise TypeError(f"{game.encoder} does not implement yamen.bots.encoding.Encoder")
    return encoder


class Stepper(Protocol):
    """A game's compiled fast path for the vector environment (``Game.stepper``; what it does:
    yamen/rl/vector.py). It writes the environment's ``observations``, ``to_act`` and
    ``forced`` rows of the games it holds, keeps every game's legal ids (``write_legal`` for
    the others) and gathers them; it replays a game it holds in Python where asked (``now``,
    for a refusal in the rules' words). Where it plays a bot's policy itself it says that
    bot's moves (``moves``: into ``out``, left -1 where it cannot) and plays copies of a game
    to their end by it (``play_outs``: the final scores, or None where it cannot)."""

    engine: str
    counts: np.ndarray  # (num_envs,) how many legal ids each game has now
    features: np.ndarray  # every action's feature row, by id (they depend on the action alone)

    def takes(self, state: State) -> bool: ...
    def take(self, i: int, state: State) -> None: ...
    def first_illegal(self, slots: np.ndarray, actions: np.ndarray) -> int: ...
    def step(self, slots: np.ndarray, actions: np.ndarray, skip_forced: bool) -> list[int]: ...
    def give_back(self, i: int) -> State: ...
    def now(self, i: int) -> State | None: ...
    def write_legal(self, i: int, legal: Sequence[int]) -> None: ...
    def gather(self, ids: np.ndarray) -> int: ...
    def moves(self, bot: str, slots: np.ndarray, out: np.ndarray) -> None: ...
    def play_outs(self, bot: str, i: int, actions: Sequence[int]) -> list[list[Any]] | None: ...


def stepper_for(game: Game, num_envs: int, *arrays: np.ndarray) -> Stepper | None:
    """The game's stepper for ``num_envs`` games writing into ``arrays`` (observations,
    to_act, forced), or None: the game declares none, or it is not built here (the function
    a game names answers None then)."""
    spec = getattr(game, "stepper", None)
    if spec is None:
        return None
    module, attr = spec.split(":")
    made: Stepper | None = getattr(importlib.import_module(module), attr)(game, num_envs, *arrays)
    return made
