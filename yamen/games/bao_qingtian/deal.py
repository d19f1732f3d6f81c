"""The deal: from the seed, or explicit.

From the seed (docs/rules/bao_qingtian.md, Setup): the game's generator first draws the first
seat (the seed's rock-paper-scissors), then shuffles the 54 cards; ``cards_each`` cards go to
each seat, one at a time from the first seat; the rest is the face-down draw pile.

An explicit deal gives every hand, and optionally the first seat and the draw pile. What it
leaves out still comes from the seed, drawn as above so that the generator is in the same
place either way: the first seat, and for the pile the rest of the seed's shuffled deck.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, NamedTuple

from yamen.errors import NotationError, OptionsError
from yamen.games.bao_qingtian.cards import CODE, DECK, NUM_TYPES, cards_each, parse_card_type
from yamen.options import is_whole

DEAL_KEYS = ("first", "hands", "pile")


class ExplicitDeal(NamedTuple):
    """A deal given by hand: the first seat (``None``: from the seed), each hand as card types,
    and the draw pile top card first (``None``: the rest of the deck, shuffled from the seed)."""

    first: int | None
    hands: list[list[int]]
    pile: list[int] | None


class Dealt(NamedTuple):
    """The cards as the game starts: the first seat, each hand as card types, and the draw
    pile with its top card last (the next card drawn is ``pile.pop()``)."""

    first: int
    hands: list[list[int]]
    pile: list[int]


def deal(num_seats: int, rng: random.Random, explicit: ExplicitDeal | None = None) -> Dealt:
    first = rng.randrange(num_seats)  # the seed's rock-paper-scissors
    deck = list(DECK)
    rng.shuffle(deck)
    if explicit is None:
        hands: list[list[int]] = [[] for _ in range(num_seats)]
        for i in range(num_seats * cards_each(num_seats)):  # one at a time; top = end
            hands[(first + i) % num_seats].append(deck.pop())
        return Dealt(first, hands, deck)
    if explicit.first is not None:
        first = explicit.first
    hands = explicit.hands
    pile = explicit.pile[::-1] if explicit.pile is not None else _rest(deck, hands)
    return Dealt(first, hands, pile)


def _rest(shuffled: list[int], hands: list[list[int]]) -> list[int]:
    """The shuffled deck without the cards of an explicit deal's hands (top = end)."""
    dealt = [0] * NUM_TYPES
    for hand in hands:
        for card in hand:
            dealt[card] += 1
    rest = []
    for card in shuffled:
        if dealt[card]:
            dealt[card] -= 1
        else:
            rest.append(card)
    return rest


def parse_deal(deal: Any, players: int) -> ExplicitDeal:
    """An explicit deal: ``{"hands": [...], "first": 0, "pile": "..."}``. ``hands`` holds one
    hand per seat, each exactly the cards each seat is dealt (a string of card codes or a list
    of them); ``first`` (optional) the first seat; ``pile`` (optional) the draw pile, top card
    first, in which case hands and pile together must be exactly the 54 cards."""
    if not isinstance(deal, dict) or "hands" not in deal:
        raise OptionsError('an explicit deal is an object with "hands" (and "first", "pile")')
    unknown = sorted(set(deal) - set(DEAL_KEYS))
    if unknown:
        raise OptionsError(f"explicit deal: unknown key(s) {unknown}; known: {list(DEAL_KEYS)}")
    first = deal.get("first")
    if first is not None and (not is_whole(first) or not 0 <= first < players):
        raise OptionsError(f"explicit deal: first must be a seat from 0 to {players - 1}")
    hands_given = deal["hands"]
    if not isinstance(hands_given, list) or len(hands_given) != players:
        raise OptionsError(f"explicit deal: hands must be a list of {players} hands")
    k = cards_each(players)
    hands = []
    for seat, hand in enumerate(hands_given):
        cards = _cards(hand, f"hand {seat}")
        if len(cards) != k:
            raise OptionsError(f"explicit deal: hand {seat} has {len(cards)} cards, not {k}")
        hands.append(cards)
    pile = None if deal.get("pile") is None else _cards(deal["pile"], "pile")
    given = Counter(card for hand in hands for card in hand) + Counter(pile or [])
    wanted = Counter(DECK)
    extra = given - wanted
    if extra:
        raise OptionsError(f"explicit deal: more cards than the deck holds: {_codes(extra)}")
    if pile is not None and given != wanted:
        raise OptionsError(
            f"explicit deal: cards missing from hands and pile: {_codes(wanted - given)}"
        )
    return ExplicitDeal(first, hands, pile)


def _cards(value: Any, where: str) -> list[int]:
    if isinstance(value, list) and all(isinstance(card, str) for card in value):
        value = " ".join(value)
    if not isinstance(value, str):
        raise OptionsError(f"explicit deal: {where} must be a string of card codes")
    try:
        return [parse_card_type(token) for token in value.split()]
    except NotationError as exc:
        raise OptionsError(f"explicit deal, {where}: {exc}") from None


def _codes(cards: Counter) -> list[str]:
    return [CODE[card] for card in sorted(cards.elements())][:8]
