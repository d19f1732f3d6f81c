"""A seat's cards, kept three ways in step: kind counts, slot counts and rank masks.

Kind counts (``hand``, 56 kinds) say exactly which cards are held, and so which are telling;
slot counts (``slots``, 13 ranks and 2 joker colours) say what sets can be made; rank masks
(``masks``, see sets.rank_masks) make move generation a few lookups. Taking a set out of a
hand updates all three.
"""

from __future__ import annotations

from collections.abc import Sequence

from yamen.games.baohuang.kinds import (
    BIG_SLOT,
    BJ,
    BJ_MARKED,
    NUM_KINDS,
    NUM_SLOTS,
    SJ,
    SJ_MARKED,
    SLOT_OF,
    SMALL_SLOT,
)

SUITS_OF = [range(r * 4, r * 4 + 4) for r in range(13)]  # the kinds of a natural rank


def counts_of(kinds: Sequence[int]) -> list[int]:
    """Kind counts of cards given as kinds."""
    hand = [0] * NUM_KINDS
    for k in kinds:
        hand[k] += 1
    return hand


def slots_of(hand: Sequence[int]) -> list[int]:
    """Slot counts of kind counts."""
    slots = [0] * NUM_SLOTS
    for k in range(NUM_KINDS):
        slots[SLOT_OF[k]] += hand[k]
    return slots


def take(
    hand: list[int],
    slots: list[int],
    masks: list[int],
    play: tuple[int, int, int, int, int],
    tell_kind: int,
) -> list[int]:
    """Remove the set ``play = (r, n, x, y, t)`` from a hand and return its cards (kinds), strongest
    first: telling cards as chosen, the other cards of a slot in a fixed order (plain before
    marked, suits S H D C). The caller keeps the hand's size."""
    r, n, x, y, t = play
    if n:
        held = slots[r]
        slots[r] = held - n
        clear = ~(1 << r)
        for m in range(held - n + 1, held + 1):
            masks[m] &= clear
    slots[SMALL_SLOT] -= x
    slots[BIG_SLOT] -= y
    taken = take_plain(hand, (BJ, BJ_MARKED), y, tell_kind) if y else []
    if tell_kind == SJ_MARKED and t:
        taken += [SJ_MARKED] * t
        hand[SJ_MARKED] -= t
        taken += take_plain(hand, (SJ,), x - t, tell_kind)
    elif x:
        taken += take_plain(hand, (SJ, SJ_MARKED), x, tell_kind)
    if n:
        if 0 <= tell_kind < 52 and t:
            taken += [tell_kind] * t
            hand[tell_kind] -= t
            n -= t
        for k in SUITS_OF[r]:  # take_plain inlined: this runs for nearly every set
            held = hand[k]
            if held and k != tell_kind:
                if held >= n:
                    hand[k] = held - n
                    taken += [k] * n
                    break
                hand[k] = 0
                taken += [k] * held
                n -= held
    return taken


def take_plain(hand: list[int], kinds: Sequence[int], count: int, telling: int) -> list[int]:
    """Take ``count`` cards from ``kinds`` in order, never the telling kind."""
    taken: list[int] = []
    for k in kinds:
        if count <= 0:
            break
        if k != telling and hand[k]:
            m = min(count, hand[k])
            hand[k] -= m
            taken += [k] * m
            count -= m
    return taken
