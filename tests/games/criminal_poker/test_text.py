"""Criminal Poker at a terminal: evidence named in words from the card list, never by id."""

from __future__ import annotations

import random
import re

from tests.games.helpers import every_event
from yamen.engine import Event, get_game, new_game
from yamen.games.criminal_poker import text

CARD_ID = re.compile(r"\b[PSW]\d+\b|(?<!Murder )\bweapon\b")  # ids, not "Murder weapon"


def played_out(seed: int = 3):
    state = new_game("criminal_poker", {"mode": "sheriff"}, seed)
    return state, every_event(state, random.Random(seed))


def test_the_table_names_every_card_by_its_name():
    state, _ = played_out()
    view = state.view(0)
    page = get_game("criminal_poker").render_text(view)
    assert CARD_ID.findall(page) == []
    for card_id in view["hidden"] + [c for c in view["shown"][0] if c]:
        assert view["cards"][card_id]["name"]["en"] in page


def test_every_event_is_worded_with_card_names():
    state, events = played_out()
    for seat in range(state.num_seats):
        view = state.view(seat)
        for event in events:
            words = text.event_text(event, seat, view)
            assert words is not None, event.kind
            assert CARD_ID.findall(words) == [], words


def test_a_drawn_card_is_named_with_its_innocence():
    state, _ = played_out()
    view = state.view(0)
    drew = text.event_text(Event("drew", {"card": "P3"}), 0, view)
    assert drew == "you drew Physical evidence: Security camera footage (innocence 2)"
    assert text.card_name(view, "nonesuch") == "nonesuch"  # a card the list lacks keeps its id
    assert text.card_name(view, None) == "?"
