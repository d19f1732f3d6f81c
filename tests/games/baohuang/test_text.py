"""Baohuang at a terminal: every event in words, with the reader as "you"."""

from __future__ import annotations

import random

from tests.games.helpers import every_event
from yamen.engine import Event, new_game
from yamen.games.baohuang import text


def test_every_event_of_a_match_is_worded():
    for variant in ("shandong", "japanese"):
        state = new_game("baohuang", {"variant": variant, "deals": 2}, 4)
        events = every_event(state, random.Random(4))
        view = state.view(0)
        for event in events:
            assert text.event_text(event, 0, view) is not None, event.kind


def test_plays_and_scores_read_as_sentences():
    play = Event("play", {"seat": 2, "cards": ["9H", "9S"], "out": True})
    assert text.event_text(play, 2, {}) == "you played 9H 9S: out of cards"
    assert text.event_text(play, 0, {}) == "seat 2 played 9H 9S: out of cards"
    over = Event(
        "deal over",
        {"deal": 1, "places": [4, 2, 1, 0, 3], "emperor": 3, "partner": None, "called": None,
         "grabbed": True, "declared": False, "rebels": [], "scores": [10, 10, 10, -40, "10/3"],
         "totals": [10, 10, 10, -40, 10]},
    )  # fmt: skip
    said = text.event_text(over, 0, {})
    assert said is not None
    assert "places 1. seat 4, 2. seat 2, 3. seat 1, 4. you, 5. seat 3" in said
    assert "seat 3 -40" in said and "seat 4 +10/3" in said and "you +10" in said
