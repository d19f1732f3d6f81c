"""Card kinds: Baohuang's internal card numbering, and its link to the shared notation.

With four decks a hand holds several identical cards, so a hand is a vector of counts over the
56 kinds of card, and the rules mostly look at the 15 *slots* (ranks by strength, then small and
big jokers) that decide what a set is worth. Kind ``strength*4 + suit`` is a natural card;
strength 0 is the 3, 12 is the 2.
"""

from __future__ import annotations

from yamen.cards import BIG_JOKER, SMALL_JOKER, SUITS, Card

STRENGTH_RANKS = "3456789TJQKA2"  # weakest to strongest
SJ, BJ, SJ_MARKED, BJ_MARKED = 52, 53, 54, 55
NUM_KINDS = 56
SMALL_SLOT, BIG_SLOT = 13, 14  # slots 0..12 are natural ranks by strength
NUM_SLOTS = 15

SLOT_OF = [k // 4 for k in range(52)] + [SMALL_SLOT, BIG_SLOT, SMALL_SLOT, BIG_SLOT]


def natural(strength: int, suit: int) -> int:
    return strength * 4 + suit


def kind_of(card: Card) -> int:
    if card.rank == SMALL_JOKER:
        return SJ_MARKED if card.marked else SJ
    if card.rank == BIG_JOKER:
        return BJ_MARKED if card.marked else BJ
    return natural(STRENGTH_RANKS.index(card.rank), SUITS.index(card.suit))


def card_of(kind: int) -> Card:
    if kind >= 52:
        return Card(SMALL_JOKER if kind in (SJ, SJ_MARKED) else BIG_JOKER, "", kind >= 54)
    return Card(STRENGTH_RANKS[kind // 4], SUITS[kind % 4])


KIND_TEXT = [str(card_of(k)) for k in range(NUM_KINDS)]


def slot_text(slot: int) -> str:
    """A rank written without suit (``9``), or a joker (``SJ``, ``BJ``)."""
    return STRENGTH_RANKS[slot] if slot < 13 else (SMALL_JOKER, BIG_JOKER)[slot - 13]


_STRONGEST_FIRST = [BJ_MARKED, BJ, SJ_MARKED, SJ, *range(51, -1, -1)]


def hand_cards(counts: list[int]) -> list[str]:
    """A hand as notation, strongest first (marked jokers before their plain twins)."""
    return [KIND_TEXT[k] for k in _STRONGEST_FIRST if counts[k] for _ in range(counts[k])]
