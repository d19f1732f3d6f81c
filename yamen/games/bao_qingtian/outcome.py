"""Who wins the trial, and the scores (docs/rules/bao_qingtian.md, Result).

- Winners: the captor, when it caught the criminal; otherwise the seats that got away (those
  holding the named criminal card at the tenth miss, the captor left out), maybe none.
- Places: the winners first, then every other seat in seat order.
- Scores, exact: the tried seat scores minus the final count when the sentence was carried out,
  0 when pardoned; every other seat 0. Summed over a room's games, a score counts the
  punishments a player has had to carry out.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def winners(captor: int, caught: bool, got_away: Sequence[int]) -> tuple[int, ...]:
    return (captor,) if caught else tuple(got_away)


def places(num_seats: int, won: tuple[int, ...]) -> tuple[int, ...]:
    return won + tuple(s for s in range(num_seats) if s not in won)


def scores(num_seats: int, tried: int, count: int, executed: bool) -> tuple[Fraction, ...]:
    return tuple(
        Fraction(-count) if executed and seat == tried else Fraction(0) for seat in range(num_seats)
    )
