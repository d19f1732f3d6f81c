"""The action notation: every action written and read back; bad text names its bad token."""

import json
import re

import pytest

from tests.games.criminal_poker.helpers import SHERIFF_DEAL, act, new
from tests.paths import ROOT
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


def test_the_documented_example_game_plays():
    """The example in docs/rules/criminal_poker.md, on the deal shown there."""
    doc = (ROOT / "docs" / "rules" / "criminal_poker.md").read_text(encoding="utf-8")
    example = doc[doc.index("A whole sheriff-mode game") : doc.index("As integers")]
    moves = [(int(s), t) for s, t in re.findall(r'\[(\d), "([^"]+)"\]', example)]
    deal = json.loads(doc[doc.index('{"identities"') : doc.index("```", doc.index('{"identi'))])
    assert deal == SHERIFF_DEAL and len(moves) == 15
    state = new(deal=deal)
    for seat, text in moves:
        act(state, seat, text)
    assert state.result().winners == (0, 1, 2, 3)
