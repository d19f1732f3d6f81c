"""Building Baohuang positions for tests: explicit deals and scripted openings."""

from __future__ import annotations

import random

from tests.games.helpers import act
from yamen.cards import parse_cards
from yamen.engine import new_game
from yamen.games.baohuang.actions import CALL_BASE, PASS
from yamen.games.baohuang.kinds import KIND_TEXT, kind_of
from yamen.games.baohuang.rules import BaohuangState
from yamen.games.baohuang.variants import VARIANTS


def make_deal(variant: str, fixed: dict[int, str], sizes: list[int] | None = None) -> list[str]:
    """Five hands: ``fixed`` cards for some seats, the rest of the deck spread (in a fixed
    shuffled order) so that seat i holds ``sizes[i]`` cards (default 43/44 or 34/33)."""
    deck = VARIANTS[variant].deck()
    hands: list[list[int]] = [[] for _ in range(5)]
    for seat, text in fixed.items():
        for card in parse_cards(text):
            kind = kind_of(card)
            deck.remove(kind)
            hands[seat].append(kind)
    random.Random(7).shuffle(deck)
    if sizes is None:
        total = len(VARIANTS[variant].deck())
        sizes = [total // 5 + (i < total % 5) for i in range(5)]
    for seat in range(5):
        while len(hands[seat]) < sizes[seat] and deck:
            hands[seat].append(deck.pop())
    hands[4] += deck  # whatever is left
    return [" ".join(KIND_TEXT[k] for k in hand) for hand in hands]


def new(variant: str = "shandong", deal=None, seed: int = 1, **options) -> BaohuangState:
    return new_game("baohuang", {"variant": variant, **options}, seed=seed, deal=deal)


def answer_all(state: BaohuangState, answers: dict[int, str] | None = None) -> None:
    """Answer an open window: the given seats as given, the others ``pass``."""
    answers = answers or {}
    for seat in list(state.pending()):
        act(state, seat, answers.get(seat, "pass"))


def to_play(state: BaohuangState) -> None:
    """From a fresh shandong deal: nobody grabs, the holder calls its first callable card (or
    the game is forced), nobody declares."""
    while state.phase != "play":
        seats = state.pending()
        if len(seats) > 1:
            answer_all(state)
            continue
        seat = seats[0]
        legal = state.legal(seat)
        calls = [a for a in legal if CALL_BASE <= a < CALL_BASE + 54]
        if state.phase == "emperor card":
            act(state, seat, "keep")
        else:
            state.apply(seat, calls[0] if calls else legal[-1] if PASS not in legal else PASS)


def pass_until_lead(state: BaohuangState) -> None:
    """Everyone passes until the current trick is over."""
    while state.phase == "play" and state.table is not None:
        act(state, state.pending()[0], "pass")
