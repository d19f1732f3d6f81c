"""The culprit rules, clause by clause, as a table; and the win table for every role."""

import random

import pytest

from tests.games.criminal_poker.helpers import card, new
from tests.games.helpers import play_random
from yamen.games.criminal_poker.culprit import assess, judge
from yamen.games.criminal_poker.outcome import caught, wins


def hands(*suspects: str) -> dict[int, list]:
    """Suspects at seats 1, 2, ... (seat 0 is the sheriff and holds nothing)."""
    return {seat: [card(i) for i in text.split()] for seat, text in enumerate(suspects, 1)}


# (clause, innocence totals and valid counts per seat, culprits, hands at seats 1, 2, 3 ...)
CULPRIT_TABLE = [
    ("weapon face down beats a lower total", None, (2,), ["W1 W2", "weapon S4", "P1 P2"]),
    ("weapon shown", None, (3,), ["S1", "P1 P2 P3", "weapon"]),
    ("weapon with strong evidence", None, (1,), ["weapon P1 P2 P3 S4", "S1", "W1 W2"]),
    ("physical sums, 2 each", {1: (4, 2), 2: (6, 3), 3: (2, 1)}, (3,), ["P1 P2", "P3 P4 P5", "P6"]),
    ("self-statements: only the highest", {1: (4, 1), 2: (3, 1)}, (2,), ["S1 S2 S3 S4", "W3"]),
    ("self-statements: one valid card", {1: (4, 1), 2: (4, 2)}, (1,), ["S1 S4", "P1 P2"]),
    ("one witness counts", {1: (3, 1), 2: (2, 1)}, (2,), ["W3", "W2"]),
    ("two witnesses: both void", {1: (0, 0), 2: (1, 1)}, (1,), ["W3 W4", "W1"]),
    ("three witnesses: all void", {1: (2, 1), 2: (2, 1)}, (1, 2), ["W2 W3 W4 P1", "P2"]),
    ("void witnesses beside other evidence", {1: (3, 1), 2: (4, 2)}, (1,), ["S3 W3 W4", "P1 W2"]),
    ("all kinds together", {1: (2 + 4 + 3, 3), 2: (7, 3)}, (2,), ["P1 S1 S4 W3", "P2 P3 S3 W1 W2"]),
    ("tie: fewer valid cards is the culprit", {1: (4, 2), 2: (4, 1)}, (2,), ["P1 P2", "S4"]),
    ("3-way tie, by valid", {1: (4, 3), 2: (4, 2), 3: (4, 1)}, (3,), ["P1 W1 S1", "P2 S2", "W4"]),
    ("tie on both: joint", {1: (4, 2), 2: (4, 2), 3: (6, 2)}, (1, 2), ["S2 W2", "S1 W3", "P2 S4"]),
    ("an empty-handed total of 0", {1: (0, 0), 2: (0, 0)}, (1, 2), ["W1 W2", "W3 W4"]),
]  # fmt: skip


@pytest.mark.parametrize(("clause", "assessed", "culprits", "held"), CULPRIT_TABLE)
def test_culprit_table(clause, assessed, culprits, held):
    verdict = judge(hands(*held))
    assert verdict.culprits == culprits, clause
    assert verdict.by_weapon == (assessed is None)
    if assessed is not None:
        got = {s: (a.innocence, a.valid) for s, a in verdict.assessments.items()}
        assert got == assessed, clause


def test_the_sheriff_is_never_a_suspect():
    """The sheriff holds no evidence and is not judged: in sheriff-mode games it is never a
    culprit, however weak the suspects' evidence."""
    for seed in range(60):
        state = new(seed=seed, players=4 + seed % 3)
        play_random(state, random.Random(seed))
        result = state.result()
        sheriff = state.investigator
        assert sheriff not in result.details["culprits"] and result.details["culprits"]
        assert result.details["seats"][sheriff]["innocence"] is None


def test_assess_reports_weapon_and_valid_cards():
    a = assess([card("weapon"), card("P1"), card("S2")])
    assert (a.innocence, a.valid, a.weapon) == (4, 2, True)
    assert assess([]).innocence == 0 and assess([]).valid == 0


# ---------------------------------------------------------------- who wins

S, D, C, M, A = "sheriff", "detective", "citizen", "mastermind", "antisocial"

# (roles by seat, culprits, arrested, winning seats)
WIN_TABLE = [
    ("sheriff catches the citizen culprit", [S, C, C, C], {2}, {2}, {0, 1, 3}),
    ("sheriff misses", [S, C, C, C], {2}, {1}, {2}),
    ("joint culprits: one arrested is enough", [S, C, C, C], {1, 2}, {1}, {0, 3}),
    ("joint culprits: none arrested", [S, C, C, C], {1, 2}, {3}, {1, 2}),
    ("mastermind wins when the culprit escapes", [S, C, M, C], {1}, {3}, {1, 2}),
    ("mastermind loses when the culprit is caught", [S, C, M, C], {1}, {1}, {0, 3}),
    ("mastermind culprit caught", [S, M, C, C], {1}, {1}, {0, 2, 3}),
    ("mastermind culprit escapes", [S, M, C, C], {1}, {2}, {1}),
    ("antisocial arrested, culprit escapes", [S, C, A, C], {1}, {2}, {1, 2}),
    ("antisocial not arrested", [S, C, A, C], {1}, {1}, {0, 3}),
    ("antisocial culprit arrested still wins", [S, A, C, C], {1}, {1}, {0, 1, 2, 3}),
    ("antisocial culprit not arrested loses", [S, A, C, C], {1}, {2}, set()),
    ("both specials", [S, M, A, C, C], {3}, {2}, {1, 2, 3}),
    ("detective catches", [C, D, C], {0}, {0}, {1, 2}),
    ("detective is the culprit and escapes", [C, D, C], {1}, {0}, {1}),
    ("detective is the culprit and is caught", [C, D, C], {1}, {1}, {0, 2}),
    ("two arrested in a tie, one culprit", [C, D, C, C], {3}, {0, 3}, {0, 1, 2}),
    ("two arrested, antisocial among them", [A, D, C, C], {3}, {0, 3}, {0, 1, 2}),
    ("two arrested in a tie, no culprit", [C, D, M, C], {3}, {0, 2}, {2, 3}),
    ("nobody arrested after three tied votes", [C, D, M, A, C], {4}, set(), {2, 4}),
]


@pytest.mark.parametrize(("case", "roles", "culprits", "arrested", "winners"), WIN_TABLE)
def test_win_table(case, roles, culprits, arrested, winners):
    won = wins(roles, culprits, arrested)
    assert {s for s, w in enumerate(won) if w} == winners, case
    assert caught(culprits, arrested) == bool(culprits & arrested)
