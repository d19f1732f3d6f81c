"""Phases are StrEnums whose values are the words views, records and the live protocol carry:
every registered game declares its own (``Game.phases``), every phase a random game reaches is
a member, a finished game's is ``over``, and the game's text renderer draws every view reached.
Each game's own text module has a line for every phase."""

from __future__ import annotations

import json
import random
import sys

import pytest

from tests.conformance import declared, rulesets
from yamen.engine import game_names, get_game, new_game
from yamen.games.bao_qingtian import phases as bq_phases
from yamen.games.bao_qingtian import text as bq_text
from yamen.games.bao_qingtian.sentence import OFFICERS
from yamen.games.baohuang import phases as bh_phases
from yamen.games.baohuang import text as bh_text
from yamen.games.criminal_poker import phases as cp_phases
from yamen.games.criminal_poker import text as cp_text

# every registered game's rules, by its declaration (tests/conformance.py)
CASES = [case.param() for case in rulesets()]
SEEDS = 20  # games a case, or fewer once they have made DECISIONS (a long game's phases recur)
DECISIONS = 3000


def check_phases(game: str, options: dict, seeds: int = SEEDS) -> set:
    """The contract: every view's phase is a plain word, a member of the declared phases; a
    finished game's is ``over``; the text renderer draws every view. The phases reached."""
    phases = declared(game, "phases")
    render = get_game(game, options).render_text
    seen = set()
    decisions = 0
    for seed in range(seeds):
        if decisions > DECISIONS:
            break
        state = new_game(game, options, seed=seed)
        rng = random.Random(seed)
        while True:
            view = json.loads(json.dumps(state.view(None)))
            assert type(view["phase"]) is str, view["phase"]
            seen.add(phases(view["phase"]))  # (ValueError: not a member)
            assert render(state.view(state.pending()[0] if state.pending() else 0)).strip()
            if state.over:
                assert view["phase"] == "over", view["phase"]
                break
            seat = state.pending()[0]
            state.apply(seat, rng.choice(state.legal(seat)))
            decisions += 1
    return seen


@pytest.mark.parametrize(("game", "options"), CASES)
def test_views_carry_plain_words_and_every_phase_reached_is_a_member(game, options):
    seen = check_phases(game, options)
    assert len(seen) > 1, seen


@pytest.mark.parametrize("game", game_names())
def test_members_and_module_constants_agree(game):
    phases = declared(game, "phases")
    module = sys.modules[phases.__module__]
    for member in phases:
        assert getattr(module, member.name, member) is member  # a constant is its member
        assert str(member) == member.value and json.dumps(member) == json.dumps(member.value)


@pytest.mark.parametrize(
    ("phases", "text"), [(bq_phases, bq_text), (cp_phases, cp_text), (bh_phases, bh_text)]
)
def test_every_phase_has_a_line_in_the_text_renderer(phases, text):
    assert set(text.PHASES) == set(phases.Phase)


def test_the_officers_phases_are_their_names_in_order():
    assert bq_phases.OFFICER_PHASES == OFFICERS
