"""Who wins, by role, once the arrest is made (RULINGS, Criminal Poker).

- Sheriff, detective and citizens win when a culprit is arrested ("caught").
- A seat that is itself a culprit wins when no culprit is arrested: joint culprits did it
  together, and arresting either one catches the crime, so they win or lose together.
- The mastermind wins when no culprit is arrested (whether or not it is a culprit).
- The antisocial wins when it is arrested, alone or in a two-way tie, culprit or not.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from yamen.games.criminal_poker.cards import ANTISOCIAL, MASTERMIND


def caught(culprits: Collection[int], arrested: Collection[int]) -> bool:
    return any(seat in culprits for seat in arrested)


def wins(roles: Sequence[str], culprits: Collection[int], arrested: Collection[int]) -> list[bool]:
    """For each seat, whether it won."""
    hit = caught(culprits, arrested)
    result = []
    for seat, role in enumerate(roles):
        if role == ANTISOCIAL:
            result.append(seat in arrested)
        elif role == MASTERMIND or seat in culprits:
            result.append(not hit)
        else:
            result.append(hit)
    return result
