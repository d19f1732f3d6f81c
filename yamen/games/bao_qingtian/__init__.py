"""The Bao Qing-tian trial 包青天審案: 3 to 50 players, an emperor, a judge, a captor hunting a
hidden criminal card, and a sentence built by five officers."""

from __future__ import annotations

from collections import Counter
from typing import Any

from yamen.engine import Game
from yamen.errors import NotationError, OptionsError
from yamen.games.bao_qingtian import text
from yamen.games.bao_qingtian.actions import MAX_SEATS, NUM_ACTIONS
from yamen.games.bao_qingtian.cards import CODE, DECK, cards_each, parse_card_type
from yamen.games.bao_qingtian.rules import BaoQingtianState, Deal
from yamen.options import Option, is_whole

MIN_SEATS = 3
DECLARATION = (
    Option("players", "whole", 5, "Players", low=MIN_SEATS, high=MAX_SEATS),
    Option("find_by_drawing", "bool", False, "Offices nobody holds are found by drawing"),
)
DEAL_KEYS = ("first", "hands", "pile")

__all__ = ["NUM_ACTIONS", "BaoQingtian", "BaoQingtianState"]


class BaoQingtian(Game):
    name = "bao_qingtian"
    title = "Bao Qing-tian trial 包青天審案"
    seats = range(MIN_SEATS, MAX_SEATS + 1)
    declaration = DECLARATION
    bots = {"rules": "yamen.bots.bao_qingtian:BaoQingtianRules"}
    __slots__ = ()

    def _configure(self, options: dict[str, Any], given: dict[str, Any]) -> None:
        # the action ids are laid out for every table size (actions.py)
        self._fix(num_seats=options["players"], num_actions=NUM_ACTIONS)

    def _new_state(self, options: dict[str, Any], seed: int, deal: Any) -> BaoQingtianState:
        explicit = None if deal is None else parse_deal(deal, options["players"])
        return BaoQingtianState(options, seed, explicit)

    @classmethod
    def render_text(cls, view: dict[str, Any]) -> str:
        return text.render(view)


def parse_deal(deal: Any, players: int) -> Deal:
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
    return Deal(first, hands, pile)


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
