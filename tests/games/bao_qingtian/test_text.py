"""Bao Qing-tian at a terminal: every event in words, cards by name."""

from __future__ import annotations

import random

from tests.games.helpers import every_event
from yamen.engine import Event, new_game
from yamen.games.bao_qingtian import text


def test_every_event_of_a_trial_is_worded():
    for seed in range(3):
        state = new_game("bao_qingtian", {"players": 6}, seed)
        events = every_event(state, random.Random(seed))
        view = state.view(0)
        for event in events:
            assert text.event_text(event, 0, view) is not None, event.kind


def test_a_guess_says_what_was_guessed_and_how_it_went():
    guess = Event("guess", {"captor": 4, "seat": 1, "form": "drew", "hit": False, "left": 9})
    said = text.event_text(guess, 1, {})
    assert said == "seat 4 guessed that you just drew the criminal card: wrong (9 guesses left)"
    named = text.event_text(Event("criminal named", {"card": "ROB"}), 0, {})
    assert named is not None and "Robber" in named
