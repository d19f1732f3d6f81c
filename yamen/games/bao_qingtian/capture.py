"""The capture (docs/rules/bao_qingtian.md, section 3): the captor's decision after every turn.

1. The captor waits, or guesses: that the seat that just took its turn just discarded the
   criminal card, or just drew it (never of the captor's own turn), or that any seat but the
   captor holds it now. Either copy of the named criminal card counts.
2. At most ``MAX_GUESSES`` guesses, and at least one per round (a round is one turn of every
   seat): after the last turn of a round without a guess yet, ``wait`` is not offered.
3. A hit: that seat is caught and tried. The tenth miss: the criminals escaped and the captor is
   tried; the seats then holding the criminal card, the captor left out, got away.
"""

from __future__ import annotations

from collections.abc import Sequence

from yamen.games.bao_qingtian import actions as act

MAX_GUESSES = 10

Hands = Sequence[Sequence[int]]  # each seat's card counts, by type


def decisions(
    captor: int, last: int, round_turns: int, num_seats: int, guessed_in_round: bool
) -> list[int]:
    """The captor's actions after ``last`` took its turn, the ``round_turns``-th of the round
    (rules 1 and 2)."""
    must = round_turns == num_seats and not guessed_in_round
    acts = [] if must else [act.WAIT]
    if last != captor:
        acts += [act.GUESS_DISCARDED + last, act.GUESS_DREW + last]
    acts += [act.GUESS_HOLDS + s for s in range(num_seats) if s != captor]
    return acts


def hit(form: str, seat: int, criminal: int, last_turn: tuple[int, int, int], hands: Hands) -> bool:
    """Whether a guess is right; ``last_turn`` is (seat, card discarded, card drawn)."""
    _, discarded, drew = last_turn
    if form == "discarded":
        return discarded == criminal
    if form == "drew":
        return drew == criminal
    return hands[seat][criminal] > 0


def got_away(hands: Hands, criminal: int, captor: int) -> list[int]:
    """After the tenth miss: the seats holding the criminal card, the captor left out (rule 3)."""
    return [s for s, hand in enumerate(hands) if hand[criminal] and s != captor]
