"""Scoring, against the seeds' own examples and every multiplier."""

from fractions import Fraction

import pytest

from yamen.games.baohuang import scoring
from yamen.games.baohuang.scoring import Teams

E, R = 0, 1  # emperor and partner seats in these examples


def test_shandong_seed_example():
    # emperor 1st, royalist 4th, rebels 2nd, 3rd, 5th: side 6-3 = 3 -> +2, +1, -1 each
    places = [E, 2, 3, R, 4]
    assert scoring.shandong(places, Teams(E, R), declared=False) == [2, 1, -1, -1, -1]


def test_shandong_declared_royalist_doubles():
    places = [E, 2, 3, R, 4]
    assert scoring.shandong(places, Teams(E, R), declared=True) == [4, 2, -2, -2, -2]


def test_shandong_royalist_side_last():
    places = [2, 3, 4, R, E]  # side -3-6 = -9 -> emperor -6, royalist -3, rebels +3
    assert scoring.shandong(places, Teams(E, R), declared=False) == [-6, -3, 3, 3, 3]


@pytest.mark.parametrize(("place", "emperor"), [(0, 16), (1, 4), (2, 0), (3, -4), (4, -16)])
def test_shandong_solo(place, emperor):
    places = [1, 2, 3, 4]
    places.insert(place, E)
    scores = scoring.shandong(places, Teams(E, None), declared=False)
    assert scores == [emperor] + [Fraction(-emperor, 4)] * 4
    declared = scoring.shandong(places, Teams(E, None), declared=True)
    assert declared == [2 * s for s in scores]


def test_shandong_seed_solo_example():
    # the seed: emperor first -> 16, rebels -16 as a side, -4 each
    assert scoring.shandong([E, 1, 2, 3, 4], Teams(E, None), False) == [16, -4, -4, -4, -4]


def test_shandong_grab():
    grab = Teams(E, None, True)
    assert scoring.shandong([E, 1, 2, 3, 4], grab, False) == [40, -10, -10, -10, -10]
    assert scoring.shandong([1, E, 2, 3, 4], grab, True) == [-40, 10, 10, 10, 10]


def test_japanese_sides_and_emperor_double():
    # emperor 1st (2), guard 3rd (0): side 2 -> emperor 4, guard 2, commoners -2
    places = [E, 2, R, 3, 4]
    assert scoring.japanese(places, Teams(E, R), False, False) == [4, 2, -2, -2, -2]
    assert scoring.japanese(places, Teams(E, R), False, True) == [8, 4, -4, -4, -4]


@pytest.mark.parametrize(
    ("place", "emperor", "others"), [(0, 12, -3), (1, 0, 0), (2, -12, 3), (4, -12, 3)]
)
def test_japanese_solo(place, emperor, others):
    places = [1, 2, 3, 4]
    places.insert(place, E)
    teams = Teams(E, None)
    assert scoring.japanese(places, teams, False, False) == [emperor] + [others] * 4
    assert scoring.japanese(places, teams, True, False) == [2 * emperor] + [2 * others] * 4
    assert scoring.japanese(places, teams, False, True) == [2 * emperor] + [2 * others] * 4
    assert scoring.japanese(places, teams, True, True) == [4 * emperor] + [4 * others] * 4


def test_scores_are_exact_fractions():
    scores = scoring.shandong([E, 2, 3, R, 4], Teams(E, R), False)
    assert all(isinstance(s, Fraction) for s in scores)
