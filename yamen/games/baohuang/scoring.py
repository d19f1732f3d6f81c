"""Scoring one deal, exactly as the seeds say. Scores are Fractions: nothing is rounded away.

``places`` lists seats in finishing order (頭科 first, 大落 last).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

SHANDONG_PLACES = (6, 3, 0, -3, -6)
SHANDONG_SOLO_PLACES = (16, 4, 0, -4, -16)
GRAB_WIN, GRAB_LOSS = 40, -40
JAPANESE_PLACES = (2, 1, 0, -1, -2)
JAPANESE_SOLO = (12, 0, -12, -12, -12)  # by the solo emperor's place


@dataclass(frozen=True)
class Teams:
    """Who played with whom in a deal. ``partner`` is the royalist or guard, ``None`` when the
    emperor played alone (solo or grab)."""

    emperor: int
    partner: int | None
    grabbed: bool = False


@dataclass(frozen=True)
class Stakes:
    """What may multiply a deal's score: the partner declared (明保), the solo emperor
    declared (明獨), a seat rebelled (反乱). Each variant reads what its seed counts."""

    declared: bool = False
    solo_declared: bool = False
    rebellion: bool = False


def _place_of(places: list[int]) -> dict[int, int]:
    return {seat: i for i, seat in enumerate(places)}


def shandong(places: list[int], teams: Teams, declared: bool) -> list[Fraction]:
    """Place points 6/3/0/-3/-6 shared by side; solo 16/4/0/-4/-16; grab ±40 / ∓10.
    ``declared``: the royalist declared (明保) or the solo emperor declared (明獨): ×2."""
    place = _place_of(places)
    emperor, partner = teams.emperor, teams.partner
    if teams.grabbed:
        won = place[emperor] == 0
        e = Fraction(GRAB_WIN if won else GRAB_LOSS)
        return [e if s == emperor else -e / 4 for s in range(5)]
    factor = 2 if declared else 1
    if partner is None:
        e = Fraction(SHANDONG_SOLO_PLACES[place[emperor]] * factor)
        return [e if s == emperor else -e / 4 for s in range(5)]
    side = SHANDONG_PLACES[place[emperor]] + SHANDONG_PLACES[place[partner]]
    rebels = -side
    scores = []
    for s in range(5):
        if s == emperor:
            scores.append(Fraction(side * 2, 3) * factor)
        elif s == partner:
            scores.append(Fraction(side, 3) * factor)
        else:
            scores.append(Fraction(rebels, 3) * factor)
    return scores


def japanese(
    places: list[int], teams: Teams, solo_declared: bool, rebellion: bool
) -> list[Fraction]:
    """Place points 2/1/0/-1/-2 summed per side, the emperor twice; solo ±12 / ∓3 by place.
    A rebellion doubles; a declared solo doubles (×4 with a rebellion)."""
    place = _place_of(places)
    emperor, partner = teams.emperor, teams.partner
    factor = 2 if rebellion else 1
    if partner is None:
        factor *= 2 if solo_declared else 1
        e = Fraction(JAPANESE_SOLO[place[emperor]] * factor)
        return [e if s == emperor else -e / 4 for s in range(5)]
    side = JAPANESE_PLACES[place[emperor]] + JAPANESE_PLACES[place[partner]]
    scores = []
    for s in range(5):
        if s == emperor:
            scores.append(Fraction(2 * side * factor))
        elif s == partner:
            scores.append(Fraction(side * factor))
        else:
            scores.append(Fraction(-side * factor))
    return scores
