"""Who takes an office (docs/rules/bao_qingtian.md, sections 2, 4 and 5).

Offices are filled in order, each from the cards held at that moment: judge and captor once the
criminal is named, the five trial officers once the seat to be tried is known, the executor
after the sentence.

1. One seat holds the office's card (the captor's: Wang or Ma): that seat takes the office.
2. Several seats hold it, or none does: the appointer names any seat, itself included. The
   appointer is the emperor, but the judge for the captor.
3. The captor, when one seat holds Wang and another Ma (the Chinese rule 4(1)): the judge picks
   one of those two. Two seats holding Wang, or two holding Ma, is rule 4(2): any seat.
4. With ``find_by_drawing``, an office whose card nobody holds is found instead by discard/draw
   turns until a draw gives someone that card, and that seat takes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yamen.games.bao_qingtian.cards import MA, OFFICE_CARDS, WANG

CRIME_OFFICES = ("judge", "captor")  # once the criminal is named
TRIAL_OFFICES = ("plus", "minus", "times", "divide", "severity")  # once the tried seat is known
LAST_OFFICES = ("executor",)  # after the sentence

Hands = Sequence[Sequence[int]]  # each seat's card counts, by type


@dataclass(frozen=True, slots=True)
class Appointment:
    """An office a seat must give: the holders of its card are shown (rules 2 and 3)."""

    office: str
    by: int  # the appointer
    holders: tuple[int, ...]
    choices: tuple[int, ...] | None  # None: any seat


def holders(hands: Hands, cards: tuple[int, ...]) -> list[int]:
    """The seats holding any of ``cards``, in seat order."""
    return [seat for seat, hand in enumerate(hands) if any(hand[c] for c in cards)]


def filling(
    office: str, hands: Hands, offices: Mapping[str, int], emperor: int, find_by_drawing: bool
) -> int | Appointment | None:
    """How ``office`` is filled now: the seat that takes it (rule 1), the appointment to be
    made (rules 2 and 3), or ``None``: draw turns until someone holds its card (rule 4)."""
    held_by = holders(hands, OFFICE_CARDS[office])
    if len(held_by) == 1:
        return held_by[0]
    if not held_by and find_by_drawing:
        return None
    captor = office == "captor"
    by = offices["judge"] if captor else emperor
    wang_and_ma = captor and len(holders(hands, (WANG,))) == len(holders(hands, (MA,))) == 1
    return Appointment(office, by, tuple(held_by), tuple(held_by) if wang_and_ma else None)
