"""The 54 cards of the Bao Qing-tian trial, as data.

Copies of a card are identical, so the rules work with the 15 card *types*: a hand is a vector
of counts indexed by type id. Each type has a short code used in the action notation (``EMP``,
``THF`` ...); its English and Chinese names and its key are read too.
"""

from __future__ import annotations

from typing import NamedTuple

from yamen.errors import NotationError


class CardType(NamedTuple):
    id: int
    code: str  # the notation: short, upper case, one token
    key: str  # a plain English word, also accepted in the notation
    english: str
    chinese: str
    copies: int
    role: str  # what the card does in the game


CARD_TYPES: tuple[CardType, ...] = (
    CardType(0, "EMP", "emperor", "Emperor", "皇帝", 2, "emperor"),
    CardType(1, "JUD", "judge", "Bao Qing-tian (Judge)", "包青天(判官)", 2, "judge"),
    CardType(2, "WANG", "wang", "Wang (Captor)", "王朝(捕快)", 2, "captor"),
    CardType(3, "MA", "ma", "Ma (Captor)", "馬漢(捕快)", 2, "captor"),
    CardType(4, "THF", "theft", "Theft (Criminal)", "小偷(兇犯)", 2, "criminal"),
    CardType(5, "ROB", "robber", "Robber (Criminal)", "強盜(兇犯)", 2, "criminal"),
    CardType(6, "MUR", "murderer", "Murderer (Criminal)", "殺人犯(兇犯)", 2, "criminal"),
    CardType(7, "PKP", "pickpocket", "Pickpocket (Criminal)", "扒手(兇犯)", 2, "criminal"),
    CardType(8, "COM", "commoner", "Commoner", "平民(老百姓)", 26, "commoner"),
    CardType(9, "ADD", "plus", "Plus Officer", "加官", 2, "plus"),
    CardType(10, "SUB", "minus", "Minus Officer", "減官", 2, "minus"),
    CardType(11, "MUL", "multiply", "Multiply Officer", "乘官", 2, "times"),
    CardType(12, "DIV", "divide", "Divide Officer", "除官", 2, "divide"),
    CardType(13, "SEV", "severity", "Severity Officer", "輕重官", 2, "severity"),
    CardType(14, "EXE", "executor", "Executor", "刑官(打手)", 2, "executor"),
)

NUM_TYPES = len(CARD_TYPES)
EMPEROR, JUDGE, WANG, MA = 0, 1, 2, 3
CRIMINALS = (4, 5, 6, 7)  # theft, robber, murderer, pickpocket
COMMONER = 8
DECK: tuple[int, ...] = tuple(t.id for t in CARD_TYPES for _ in range(t.copies))
CODE = [t.code for t in CARD_TYPES]

OFFICES = ("judge", "captor", "plus", "minus", "times", "divide", "severity", "executor")
OFFICE_CARDS: dict[str, tuple[int, ...]] = {
    "judge": (JUDGE,),
    "captor": (WANG, MA),
    **{t.role: (t.id,) for t in CARD_TYPES if t.id >= 9},
}

# Every name a card type may be written by, upper-cased: its code, its key, its Chinese name
# with and without the bracketed role.
_NAMES: dict[str, int] = {
    name.upper(): t.id
    for t in CARD_TYPES
    for name in (t.code, t.key, t.chinese, t.chinese.split("(")[0])
}


def parse_card_type(token: str) -> int:
    """A card type from its code (``THF``), key (``theft``) or Chinese name (``小偷``)."""
    try:
        return _NAMES[token.upper()]
    except KeyError:
        raise NotationError(token, "not a card of this game (EMP JUD WANG MA THF ...)") from None


def cards_each(players: int) -> int:
    """The seed's deal: the largest k <= 7 with players * k <= 25 (3 -> 7, 4 -> 6, 5 -> 5,
    7 -> 3), and 1 card each for groups too large for that."""
    return max(1, min(7, 25 // players))


def hand_codes(counts: list[int]) -> list[str]:
    """A hand (counts by type) as codes, in type order."""
    return [CODE[t] for t in range(NUM_TYPES) for _ in range(counts[t])]
