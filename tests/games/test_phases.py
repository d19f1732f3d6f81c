"""Phases are StrEnums whose values are the words views, records and the live protocol carry;
every phase has a line in its game's text renderer."""

from __future__ import annotations

import json
import random

import pytest

from yamen.engine import new_game
from yamen.games.bao_qingtian import phases as bq_phases
from yamen.games.bao_qingtian import text as bq_text
from yamen.games.bao_qingtian.sentence import OFFICERS
from yamen.games.criminal_poker import phases as cp_phases
from yamen.games.criminal_poker import text as cp_text

GAMES = [
    ("bao_qingtian", {"players": 6, "find_by_drawing": True}, bq_phases, bq_text),
    ("criminal_poker", {"mode": "detective"}, cp_phases, cp_text),
    ("criminal_poker", {}, cp_phases, cp_text),
]


@pytest.mark.parametrize(("game", "options", "phases", "text"), GAMES)
def test_views_carry_plain_words_and_every_phase_reached_is_a_member(game, options, phases, text):
    seen = set()
    for seed in range(20):
        state = new_game(game, options, seed=seed)
        rng = random.Random(seed)
        while True:
            view = json.loads(json.dumps(state.view(None)))
            assert type(view["phase"]) is str and view["phase"] == state.phase
            seen.add(phases.Phase(view["phase"]))
            assert text.PHASES[view["phase"]]  # a plain word finds its line
            if state.over:
                break
            seat = state.pending()[0]
            state.apply(seat, rng.choice(state.legal(seat)))
    assert phases.Phase.OVER in seen and len(seen) > 4


@pytest.mark.parametrize("module", [bq_phases, cp_phases])
def test_members_and_module_constants_agree(module):
    for member in module.Phase:
        assert getattr(module, member.name) is member
        assert str(member) == member.value and json.dumps(member) == json.dumps(member.value)


@pytest.mark.parametrize(("phases", "text"), [(bq_phases, bq_text), (cp_phases, cp_text)])
def test_every_phase_has_a_line_in_the_text_renderer(phases, text):
    assert set(text.PHASES) == set(phases.Phase)


def test_the_officers_phases_are_their_names_in_order():
    assert bq_phases.OFFICER_PHASES == OFFICERS
