"""Setting a game up: identities dealt, evidence shuffled, two cards to each suspect.

From the seed: the sheriff's seat (unless the options name it), then the identities, then the
evidence, all drawn from the game's one generator. Or from an explicit deal, for tests and
for rooms that deal physical cards:

    {"identities": ["sheriff", "citizen", "mastermind", "citizen", "citizen"],
     "hands": [[], ["P1", "S2"], ["W1", "weapon"], ["P2", "S4"], ["W3", "P3"]],
     "deck": ["S1", ...]}          # optional: the draw pile, top card first

Without ``deck`` the rest of the evidence is shuffled from the seed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from yamen.errors import OptionsError
from yamen.games.criminal_poker.cards import (
    CITIZEN,
    DETECTIVE,
    SHERIFF,
    SPECIAL_ROLES,
    Card,
)

HAND = 2  # evidence cards each suspect draws at the start
REQUIRED = {"identities", "hands"}  # the keys of an explicit deal; "deck" is optional


@dataclass
class Setup:
    roles: list[str]
    hands: list[list[int]]  # card indices per seat; the sheriff holds none
    pile: list[int]  # the draw pile; the next card drawn is the last one


def investigator_role(options: dict[str, Any]) -> str:
    return SHERIFF if options["mode"] == "sheriff" else DETECTIVE


def suspect_count(options: dict[str, Any]) -> int:
    return options["players"] - (options["mode"] == "sheriff")


def specials(options: dict[str, Any]) -> list[str]:
    """The special roles in play; each replaces a citizen."""
    return [role for role in SPECIAL_ROLES if options[role]]


def role_counts(options: dict[str, Any]) -> Counter[str]:
    """How many of each role a game of these options deals."""
    extra = specials(options)
    citizens = options["players"] - 1 - len(extra)
    return Counter({investigator_role(options): 1, CITIZEN: citizens, **dict.fromkeys(extra, 1)})


def random_setup(options: dict[str, Any], deck_size: int, rng: random.Random) -> Setup:
    players = options["players"]
    if options["mode"] == "sheriff":
        sheriff = options["sheriff"]
        if sheriff is None:
            sheriff = rng.randrange(players)
        pool = specials(options)
        pool += [CITIZEN] * (players - 1 - len(pool))
        rng.shuffle(pool)
        roles = pool[:sheriff] + [SHERIFF] + pool[sheriff:]
    else:
        roles = [role for role, n in sorted(role_counts(options).items()) for _ in range(n)]
        rng.shuffle(roles)
    cards = list(range(deck_size))
    rng.shuffle(cards)
    hands: list[list[int]] = []
    for role in roles:
        if role == SHERIFF:
            hands.append([])
        else:
            hands.append(sorted(cards[-HAND:]))
            del cards[-HAND:]
    return Setup(roles, hands, cards)


def explicit_setup(
    deal: Any, options: dict[str, Any], deck: tuple[Card, ...], rng: random.Random
) -> Setup:
    """Check an explicit deal against the options and the game's evidence."""
    if not isinstance(deal, dict) or not REQUIRED <= set(deal) <= REQUIRED | {"deck"}:
        raise OptionsError(
            'an explicit deal is an object with "identities", "hands" and optionally "deck"'
        )
    players = options["players"]
    roles = deal["identities"]
    if (
        not isinstance(roles, list)
        or len(roles) != players
        or not all(isinstance(r, str) for r in roles)
    ):
        raise OptionsError(f"explicit deal: identities must list {players} roles, one a seat")
    if Counter(roles) != role_counts(options):
        wanted = dict(sorted(role_counts(options).items()))
        raise OptionsError(f"explicit deal: identities must be exactly {wanted} for these options")
    sheriff = options["sheriff"]
    if sheriff is not None and roles[sheriff] != SHERIFF:
        raise OptionsError(f"explicit deal: the options put the sheriff at seat {sheriff}")
    index = {card.id.lower(): i for i, card in enumerate(deck)}
    hands_given = deal["hands"]
    if not isinstance(hands_given, list) or len(hands_given) != players:
        raise OptionsError(f"explicit deal: hands must list {players} hands, one a seat")
    used: set[int] = set()
    hands = []
    for seat, (role, hand) in enumerate(zip(roles, hands_given, strict=True)):
        size = 0 if role == SHERIFF else HAND
        if not isinstance(hand, list) or len(hand) != size:
            raise OptionsError(f"explicit deal: seat {seat} ({role}) holds {size} cards")
        hands.append(sorted(_cards(hand, index, used, f"seat {seat}")))
    rest = [i for i in range(len(deck)) if i not in used]
    if "deck" in deal:
        pile = _cards(deal["deck"], index, used, "deck")
        if len(pile) != len(rest):
            missing = [deck[i].id for i in rest if i not in pile]
            raise OptionsError(f"explicit deal: the deck lacks {missing}")
        pile.reverse()  # given top first; drawn from the end
    else:
        pile = rest
        rng.shuffle(pile)
    return Setup(list(roles), hands, pile)


def _cards(ids: Any, index: dict[str, int], used: set[int], where: str) -> list[int]:
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise OptionsError(f"explicit deal: {where} must be a list of card ids")
    cards = []
    for card_id in ids:
        card = index.get(card_id.lower())
        if card is None:
            raise OptionsError(f"explicit deal: {where}: no card {card_id!r} in this game")
        if card in used:
            raise OptionsError(f"explicit deal: {where}: card {card_id!r} is dealt twice")
        used.add(card)
        cards.append(card)
    return cards
