"""The action notation: every id has one text, read back to the same id; bad text names the
bad token."""

import re

import pytest

from tests.games.bao_qingtian.test_support import new
from tests.paths import ROOT
from yamen.errors import NotationError
from yamen.games.bao_qingtian import actions
from yamen.games.bao_qingtian.actions import NUM_ACTIONS, action_text, parse


def test_every_action_id_has_a_text_that_reads_back():
    custom = "juggle three oranges"
    seen = set()
    for action in range(NUM_ACTIONS):
        text = action_text(action, custom)
        assert text not in seen
        seen.add(text)
        got, words = parse(text, 50)
        assert got == action, text
        assert words == (custom if text.startswith(f'punish "{custom}"') else None)


@pytest.mark.parametrize(
    "text, action",
    [
        ("discard COM", actions.DISCARD + 8),
        ("Discard emperor", actions.DISCARD + 0),
        ("discard 輕重官", actions.DISCARD + 13),
        ("name THF", actions.NAME + 0),
        ("name pickpocket", actions.NAME + 3),
        ("name 殺人犯", actions.NAME + 2),
        ("appoint 3", actions.APPOINT + 3),
        ("wait", actions.WAIT),
        ("guess 2 discarded", actions.GUESS_DISCARDED + 2),
        ("guess 0 drew", actions.GUESS_DREW),
        ("GUESS 4 HOLDS", actions.GUESS_HOLDS + 4),
        ('punish "sing a song" 3', actions.punish(0, 3)),
        ('punish   "Sing a song"   10', actions.punish(0, 10)),
        ("plus 0", actions.NUMBER["plus"]),
        ("minus 10", actions.NUMBER["minus"] + 10),
        ("times 2", actions.NUMBER["times"] + 2),
        ("divide 1", actions.NUMBER["divide"]),
        ("light", actions.LIGHT),
        ("heavy", actions.HEAVY),
        ("execute", actions.EXECUTE),
        ("pardon", actions.PARDON),
        ("done", actions.DONE),
    ],
)
def test_examples_from_the_rules_doc(text, action):
    assert parse(text, 5) == (action, None)


@pytest.mark.parametrize(
    "text, token",
    [
        ("", ""),
        ("fold", "fold"),
        ("discard JOKER", "JOKER"),
        ("discard", "(nothing)"),
        ("discard COM COM", "COM"),
        ("name COM", "COM"),
        ("appoint 5", "5"),
        ("appoint -1", "-1"),
        ("appoint one", "one"),
        ("guess 2 stole", "stole"),
        ("guess 9 holds", "9"),
        ("wait now", "now"),
        ("plus 11", "11"),
        ("divide 0", "0"),
        ("times two", "two"),
        ("punish sing 3", "sing 3"),
        ('punish "sing a song"', '"sing a song"'),
        ('punish "sing a song" 0', "0"),
        ('punish "sing a song" 3 4', "4"),
        ('punish "" 3', ""),
    ],
)
def test_bad_text_names_the_bad_token(text, token):
    with pytest.raises(NotationError) as bad:
        parse(text, 5)
    assert bad.value.token == token


def test_a_custom_punishment_needs_its_words():
    with pytest.raises(NotationError):
        action_text(actions.punish(actions.CUSTOM_SLOT, 2))
    for wrong in (-1, NUM_ACTIONS, "wait", True, 2.0):
        with pytest.raises(NotationError):
            action_text(wrong)


def test_the_state_reads_seats_of_its_own_table():
    assert new(3).parse_action(0, "appoint 2") == actions.APPOINT + 2
    with pytest.raises(NotationError) as bad:
        new(3).parse_action(0, "appoint 3")
    assert bad.value.token == "3"
    assert new(50).parse_action(0, "guess 49 holds") == actions.GUESS_HOLDS + 49


def test_every_example_in_the_rules_doc_reads():
    doc = (ROOT / "docs/rules/bao_qingtian.md").read_text()
    notation = doc.split("## Notation")[1].split("\n## ")[0]
    words = {"wait", "light", "heavy", "execute", "pardon", "done"}
    verbs = {"discard", "name", "appoint", "guess", "punish", *actions.NUMBER}
    examples = [
        span
        for span in re.findall(r"`([^`]+)`", notation)
        if span in words or (len(span.split()) > 1 and span.split()[0] in verbs)
    ]
    assert len(examples) >= 25
    for text in examples:
        action, _ = parse(text, 5)
        assert 0 <= action < NUM_ACTIONS
