"""The vectors the environments and learners read, through a game's encoder (the protocol and
its loader: yamen/bots/encoding.py, in the bots layer because the learned bot plays by it)."""

from __future__ import annotations

import numpy as np

from yamen.bots.encoding import Encoder, FloatVector
from yamen.engine import Game, State


def observe(encoder: Encoder, state: State, seat: int) -> FloatVector:
    """A seat's observation: the encoder's fast path where it has one, else from the view."""
    fast = getattr(encoder, "encode_seat", None)
    if fast is not None:
        return fast(state, seat)
    return encoder.encode(state.view(seat), seat)


def action_features(encoder: Encoder, state: State, seat: int, actions: list[int]) -> np.ndarray:
    """The rows of a seat's actions: the encoder's fast path where it has one, else from the
    view."""
    fast = getattr(encoder, "action_features_seat", None)
    if fast is not None:
        return fast(state, seat, actions)
    return encoder.action_features(state.view(seat), actions)


def full_information(encoder: Encoder, state: State) -> FloatVector:
    """The full information a centralized critic may be given: the encoder's ``encode_state``
    where it has one, else every seat's observation, seat 0 first, end to end (each seat's
    own hand and role are in its observation)."""
    own = getattr(encoder, "encode_state", None)
    if own is not None:
        return own(state)
    return np.concatenate([observe(encoder, state, seat) for seat in range(state.num_seats)])


def full_information_size(encoder: Encoder, game: Game) -> int:
    """The length of :func:`full_information`'s vector."""
    return getattr(encoder, "state_size", game.num_seats * encoder.observation_size)
