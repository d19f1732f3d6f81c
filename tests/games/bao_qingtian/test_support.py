"""Helpers for the Bao Qing-tian tests: explicit deals and scripted play. (No tests here: the
file shares the game's test prefix so that the game's test files stay together.)"""

from __future__ import annotations

from collections import Counter

from tests.games.helpers import act
from yamen.engine import new_game
from yamen.games.bao_qingtian.cards import CODE, COMMONER, DECK, cards_each, parse_card_type
from yamen.games.bao_qingtian.rules import BaoQingtianState


def make_deal(players: int, fixed: dict[int, str], top: str = "", first: int = 0) -> dict:
    """An explicit deal: the ``fixed`` cards for some seats; the draw pile starts with ``top``
    (top card first); every other place in a hand, then the rest of the pile, is filled with
    the remaining cards: commoners first, then the others from the executor down to the
    emperor (so that a role card lands in a hand only when commoners run out)."""
    k = cards_each(players)
    fixed_cards = {seat: [parse_card_type(c) for c in text.split()] for seat, text in fixed.items()}
    pile = [parse_card_type(c) for c in top.split()]
    left = Counter(DECK) - Counter(pile)
    for cards in fixed_cards.values():
        left -= Counter(cards)
    filler = sorted(left.elements(), key=lambda t: (t != COMMONER, -t))
    hands = []
    for seat in range(players):
        cards = fixed_cards.get(seat, [])
        need = k - len(cards)
        hands.append(cards + filler[:need])
        filler = filler[need:]
    pile += filler
    assert sum(len(h) for h in hands) + len(pile) == 54, "too many of some card"
    return {
        "first": first,
        "hands": [" ".join(CODE[c] for c in h) for h in hands],
        "pile": " ".join(CODE[c] for c in pile),
    }


def new(players: int = 5, deal=None, seed: int = 1, **options) -> BaoQingtianState:
    return new_game("bao_qingtian", {"players": players, **options}, seed=seed, deal=deal)


def texts(state: BaoQingtianState, seat: int) -> list[str]:
    return [state.action_text(a) for a in state.legal(seat)]


def turn(state: BaoQingtianState, card: str = "COM") -> int:
    """The seat whose turn it is discards ``card``; returns that seat."""
    seat = state.pending()[0]
    act(state, seat, f"discard {card}")
    return seat


def in_play(state: BaoQingtianState) -> Counter:
    """Every card: hands, draw pile and discards together."""
    total = Counter(state.pile) + Counter(state.discards)
    for hand in state.hands:
        total.update({t: c for t, c in enumerate(hand) if c})
    return total
