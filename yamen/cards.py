"""Playing cards and their text notation.

Notation, used everywhere (records, CLI, protocol): a rank ``2-9 T J Q K A`` (``10`` is accepted
for ``T``) followed by a suit ``S H D C``; the jokers ``SJ`` (small, black) and ``BJ`` (big, red);
a trailing ``*`` marks a joker that carries a role (``BJ*``, ``SJ*``). A rank written without a
suit (``9``) is allowed only where a game says suits do not matter; :func:`parse_card` rejects it.
"""

from __future__ import annotations

from typing import NamedTuple

from yamen.errors import NotationError

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SMALL_JOKER = "SJ"
BIG_JOKER = "BJ"
JOKERS = (SMALL_JOKER, BIG_JOKER)


class Card(NamedTuple):
    """One physical card. ``suit`` is ``""`` for jokers; ``marked`` only applies to jokers."""

    rank: str
    suit: str = ""
    marked: bool = False

    @property
    def is_joker(self) -> bool:
        return self.rank in JOKERS

    def __str__(self) -> str:
        return self.rank + self.suit + ("*" if self.marked else "")


def parse_rank(token: str) -> str:
    """Normalise a rank token (``10`` -> ``T``); raise :class:`NotationError` if it is not one."""
    rank = token.upper()
    if rank == "10":
        return "T"
    if len(rank) == 1 and rank in RANKS:
        return rank
    raise NotationError(token, "not a rank (2-9, T or 10, J, Q, K, A)")


def parse_card(token: str) -> Card:
    """Parse one card such as ``9H``, ``10S``, ``BJ`` or ``SJ*``."""
    text = token.strip().upper()
    if text in JOKERS or text[:-1] in JOKERS and text.endswith("*"):
        return Card(text[:2], "", text.endswith("*"))
    if len(text) < 2:
        raise NotationError(token, "a card needs a rank and a suit, e.g. 9H, TS, SJ, BJ")
    if text.endswith("*"):
        raise NotationError(token, "only jokers can be marked with *")
    rank, suit = text[:-1], text[-1]
    if suit not in SUITS:
        raise NotationError(token, f"unknown suit {suit!r} (use S, H, D or C)")
    try:
        return Card(parse_rank(rank), suit)
    except NotationError as exc:
        raise NotationError(token, exc.reason) from None


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas; the error names the first bad token."""
    return [parse_card(token) for token in text.replace(",", " ").split()]


def format_cards(cards) -> str:
    return " ".join(str(card) for card in cards)


def deck(ranks: str = RANKS, jokers: bool = True) -> list[Card]:
    """One deck: every rank in ``ranks`` in every suit, plus one small and one big joker."""
    cards = [Card(rank, suit) for rank in ranks for suit in SUITS]
    if jokers:
        cards += [Card(SMALL_JOKER), Card(BIG_JOKER)]
    return cards


def decks(count: int, ranks: str = RANKS, jokers: bool = True) -> list[Card]:
    """``count`` identical decks shuffled together (unshuffled here: shuffle with the game RNG)."""
    return deck(ranks, jokers) * count
