"""Driving any game through the protocol in tests."""

from __future__ import annotations

import random

from yamen.engine import Event, State


def act(state: State, seat: int, text: str):
    """Apply an action written in the game's notation."""
    return state.apply_text(seat, text)


def play_random(state: State, rng: random.Random, limit: int = 100_000) -> list:
    """Random legal play to the end (a random pending seat each time); the (seat, text) log."""
    log = []
    while not state.over:
        seat = rng.choice(state.pending())
        action = rng.choice(state.legal(seat))
        log.append((seat, state.action_text(action)))
        state.apply(seat, action)
        assert len(log) < limit, "game did not end"
    return log


def every_event(state: State, rng: random.Random) -> list[Event]:
    """Random legal play to the end (the first pending seat each time); every event it made,
    the opening's included."""
    events = list(state.opening_events)
    while not state.over:
        seat = state.pending()[0]
        events += state.apply(seat, rng.choice(state.legal(seat)))
    return events
