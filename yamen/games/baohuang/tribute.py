"""Tribute (上納, japanese, from the second deal): the last deal's losers pay its winners.

Right after the deal, each seat that lost points in the last deal gives its strongest
non-joker cards, one at a time (the next best after each): the emperor 2, a solo emperor 4,
anyone else 1. Each seat that won points takes as many as it would have given, drawn at
random from everything given. Nothing is paid after a deal that scored nothing.
"""

from __future__ import annotations

import random
from fractions import Fraction

from yamen.games.baohuang.fields import Fields, FinishedDeal
from yamen.games.baohuang.kinds import KIND_TEXT

EMPEROR_SHARE, SOLO_SHARE, SHARE = 2, 4, 1


def payments(
    hands: list[list[int]], last: FinishedDeal, rng: random.Random
) -> list[tuple[int, int, int]] | None:
    """``(kind, giver, taker)`` for every card paid after the deal summarised in ``last``
    (a ``history`` entry), or ``None`` when nothing is paid; ``hands`` are not changed."""
    scores = [Fraction(s) for s in last["scores"]]
    if not any(scores):
        return None
    emperor = last["emperor"]
    alone = last["partner"] is None
    share = [(SOLO_SHARE if alone else EMPEROR_SHARE) if s == emperor else SHARE for s in range(5)]
    pool: list[tuple[int, int]] = []  # (kind, giver)
    for seat in (s for s in range(5) if scores[s] < 0):
        left = hands[seat][:52]
        for _ in range(share[seat]):
            kind = max(k for k in range(52) if left[k])
            left[kind] -= 1  # so that the next pick is the next best
            pool.append((kind, seat))
    rng.shuffle(pool)
    paid = []
    for taker in (s for s in range(5) if scores[s] > 0):
        for _ in range(share[taker]):
            kind, giver = pool.pop()
            paid.append((kind, giver, taker))
    return paid


def pay(state: Fields) -> None:
    """Pay the tribute into ``state``: each seat is told what it gave and received, everyone
    how many."""
    paid = payments(state.hands, state.history[-1], state.rng)
    if paid is None:
        return
    gave: dict[int, list[str]] = {}
    got: dict[int, list[str]] = {}
    for kind, giver, taker in paid:
        state.move(kind, giver, taker)
        gave.setdefault(giver, []).append(KIND_TEXT[kind])
        got.setdefault(taker, []).append(KIND_TEXT[kind])
    for seat in range(5):
        state.tribute[seat] = {"gave": gave.get(seat, []), "received": got.get(seat, [])}
        if seat in gave or seat in got:
            state.emit("tribute", to=(seat,), **state.tribute[seat])
    state.emit(
        "tribute paid",
        gave={s: len(c) for s, c in gave.items()},
        received={s: len(c) for s, c in got.items()},
    )
