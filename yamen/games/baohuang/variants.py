"""The two rule variants as data: which cards, and which rules are switched on."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from yamen.games.baohuang.kinds import BJ, BJ_MARKED, SJ, SJ_MARKED, natural


@dataclass(frozen=True)
class Variant:
    name: str
    lowest_strength: int  # 0: from the 3 up; 3: from the 6 up
    single_with_jokers: bool  # a single natural card may carry jokers
    yield_and_claim: bool  # 讓牌 (two circles) and 接風
    marked_small_joker: bool  # the guard card

    def deck(self) -> list[int]:
        """The full deck as kinds, marked jokers included, in a fixed order (a new list)."""
        return list(_deck(self))


@cache
def _deck(variant: Variant) -> tuple[int, ...]:
    naturals = [natural(s, u) for s in range(variant.lowest_strength, 13) for u in range(4)] * 4
    jokers = [SJ] * 4 + [BJ] * 3 + [BJ_MARKED]
    if variant.marked_small_joker:
        jokers[3] = SJ_MARKED
    return tuple(naturals + jokers)


SHANDONG = Variant("shandong", 0, True, True, False)
JAPANESE = Variant("japanese", 3, False, False, True)
VARIANTS = {v.name: v for v in (SHANDONG, JAPANESE)}
