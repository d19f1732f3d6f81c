"""The action notation: every action written and read back; bad text names its bad token."""

import pytest

from tests.test_criminal_poker_helpers import new
from yamen.errors import NotationError
from yamen.games.criminal_poker.actions import REVEAL_BASE


def test_every_action_id_round_trips():
    state = new(players=6)
    texts = set()
    for action in range(REVEAL_BASE + len(state.deck)):
        try:
            text = state.action_text(action)
        except NotationError:
            continue
        assert state.parse_action(0, text) == action
        texts.add(text)
    assert {"skip", "draw", "keep hidden", "end questioning"} <= texts
    assert {"next 5", "arrest 0", "vote 3", "reveal P9", "reveal weapon"} <= texts
    assert len(texts) == 4 + 3 * 6 + 18


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("  Reveal   p3 ", "reveal P3"),
        ("REVEAL WEAPON", "reveal weapon"),
        ("keep   Hidden", "keep hidden"),
        ("End Questioning", "end questioning"),
        ("NEXT 2", "next 2"),
        ("arrest 04", "arrest 4"),
    ],
)
def test_case_and_spacing_do_not_matter(text, expected):
    state = new()
    assert state.action_text(state.parse_action(1, text)) == expected


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("", ""),
        ("dance", "dance"),
        ("dance 3", "dance"),
        ("reveal Q9", "Q9"),
        ("reveal P9", "P9"),  # a five-seat sheriff game uses P1-P6 only
        ("reveal", "reveal"),
        ("reveal P1 P2", "P2"),
        ("next two", "two"),
        ("vote 9", "9"),
        ("vote -1", "-1"),
        ("next 1 2", "2"),
        ("keep it", "it"),
        ("keep", "keep"),
        ("end game", "game"),
        ("skip now", "now"),
    ],
)
def test_bad_text_names_the_bad_token(text, token):
    state = new()
    with pytest.raises(NotationError) as caught:
        state.parse_action(1, text)
    assert caught.value.token == token


def test_action_text_refuses_what_is_not_an_action():
    state = new()
    for bad in (-1, 4, 9, 19, REVEAL_BASE + len(state.deck), "skip", 1.0, None):
        with pytest.raises(NotationError):
            state.action_text(bad)
