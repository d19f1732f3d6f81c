"""Who did it: the seed's culprit rules, applied to the evidence each suspect holds at the end.

1. Whoever holds the murder weapon, shown or face down, is the culprit.
2. Otherwise the lowest innocence total is. Physical evidence adds up; of the self-statements
   only the highest counts; a witness statement counts only when it is the suspect's only one
   (two or more contradict each other, and none counts).
3. Lowest totals tied: the suspect with fewer valid cards (cards that counted) is the culprit;
   still tied: they are joint culprits, and arresting any one of them catches the culprit.

Only suspects hold evidence, so the sheriff is never among the suspects judged here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from yamen.games.criminal_poker.cards import PHYSICAL, SELF_STATEMENT, WEAPON, WITNESS, Card


@dataclass(frozen=True, slots=True)
class Assessment:
    """One suspect's evidence, weighed."""

    innocence: int
    valid: int  # the cards that counted toward innocence
    weapon: bool


@dataclass(frozen=True)
class Verdict:
    culprits: tuple[int, ...]
    assessments: dict[int, Assessment]
    by_weapon: bool


def assess(cards: Iterable[Card]) -> Assessment:
    physical: list[int] = []
    statements: list[int] = []
    witnesses: list[int] = []
    weapon = False
    for card in cards:
        if card.kind == PHYSICAL:
            physical.append(card.innocence)
        elif card.kind == SELF_STATEMENT:
            statements.append(card.innocence)
        elif card.kind == WITNESS:
            witnesses.append(card.innocence)
        elif card.kind == WEAPON:
            weapon = True
    one_witness = len(witnesses) == 1
    innocence = sum(physical) + max(statements, default=0) + (witnesses[0] if one_witness else 0)
    valid = len(physical) + bool(statements) + one_witness
    return Assessment(innocence, valid, weapon)


def judge(holdings: Mapping[int, Iterable[Card]]) -> Verdict:
    """The culprit(s) among the suspects, given each suspect's seat and all its evidence."""
    assessments = {seat: assess(cards) for seat, cards in holdings.items()}
    armed = tuple(sorted(s for s, a in assessments.items() if a.weapon))
    if armed:
        return Verdict(armed, assessments, True)
    lowest = min((a.innocence, a.valid) for a in assessments.values())
    culprits = tuple(sorted(s for s, a in assessments.items() if (a.innocence, a.valid) == lowest))
    return Verdict(culprits, assessments, False)
