"""Sets (一套牌): their action encoding, card-by-card comparison and fast move generation.

A set is ``n`` natural cards of one rank ``r`` plus ``x`` small and ``y`` big jokers (``r`` is
:data:`NO_RANK` for jokers alone). Suits do not change a set's worth; the only suit choice that
means something is whether a *telling* card goes in: the called card in shandong (it unmasks the
royalist) or the marked small joker in japanese (it unmasks the guard). So a play is the tuple
``(r, n, x, y, t)`` with ``t`` telling cards among the naturals (or among the small jokers), and
the engine picks the suits of the plain cards in a fixed order.

Comparison: both sets sorted strongest first, every card of the beating set must be strictly
stronger than its counterpart. For sets of equal size that reduces to

    beats(a, b)  <=>  b has no big joker  and  a.y >= b.x  and  (a.n == 0 or a.r > b.r)

because a big joker can only be beaten by nothing, each of b's small jokers needs a big joker
above it, and a's naturals sit opposite b's naturals. :func:`beats_by_cards` is the literal
definition; the tests check that the two agree on every pair of small sets.
"""

from __future__ import annotations

from typing import NamedTuple

from yamen.games.baohuang.kinds import BIG_SLOT, SMALL_SLOT

NO_RANK = 13
PLAY_BASE = 64  # action ids below this are the non-play actions (see rules.py)
_N, _J, _T = 17, 5, 5  # radices: naturals 0..16, jokers of a colour 0..4, telling 0..4


class SetShape(NamedTuple):
    r: int
    n: int
    x: int
    y: int

    @property
    def size(self) -> int:
        return self.n + self.x + self.y


def encode(r: int, n: int, x: int, y: int, t: int = 0) -> int:
    return PLAY_BASE + (((r * _N + n) * _J + x) * _J + y) * _T + t


def decode(action: int) -> tuple[int, int, int, int, int]:
    """``(r, n, x, y, t)`` of a play action id."""
    a, t = divmod(action - PLAY_BASE, _T)
    a, y = divmod(a, _J)
    a, x = divmod(a, _J)
    r, n = divmod(a, _N)
    return r, n, x, y, t


def is_play(action: int) -> bool:
    return PLAY_BASE <= action < encode(NO_RANK + 1, 0, 0, 0)


def is_shape(r: int, n: int, x: int, y: int, single_with_jokers: bool) -> bool:
    """Whether the cards form a set at all in this variant."""
    if n == 0:
        return r == NO_RANK and x + y >= 1
    if not 0 <= r < NO_RANK:
        return False
    return single_with_jokers or n >= 2 or x + y == 0


def beats(a: SetShape, b: SetShape) -> bool:
    """Whether set ``a`` may be played on set ``b`` (see the module docstring)."""
    return a.size == b.size and b.y == 0 and a.y >= b.x and (a.n == 0 or (b.n > 0 and a.r > b.r))


def beats_by_cards(a: SetShape, b: SetShape) -> bool:
    """The literal rule: same size, and card by card (strongest first) strictly stronger."""

    def strengths(s: SetShape) -> list[int]:
        return [BIG_SLOT] * s.y + [SMALL_SLOT] * s.x + [s.r] * s.n

    sa, sb = strengths(a), strengths(b)
    return len(sa) == len(sb) and all(p > q for p, q in zip(sa, sb, strict=True))


def _telling_range(k: int, held: int, telling: int) -> range:
    """How many telling cards can be among ``k`` cards taken from ``held`` of which ``telling``
    are telling."""
    return range(max(0, k - (held - telling)), min(k, telling) + 1)


# Offsets of the joker part of a play id, for every (small held, big held): precomputed so that
# leading from a big hand is one list comprehension per rank and count.
_JOKER_OFFSETS = {
    (s, b): [(x * _J + y) * _T for x in range(s + 1) for y in range(b + 1)]
    for s in range(5)
    for b in range(5)
}


def leads(counts: list[int], single_with_jokers: bool, tell_slot: int, telling: int) -> list[int]:
    """Every set that can be led from a hand with these slot ``counts``.

    ``tell_slot`` is the slot holding the seat's ``telling`` cards (-1 when it has none)."""
    small, big = counts[SMALL_SLOT], counts[BIG_SLOT]
    offsets = _JOKER_OFFSETS[small, big]
    bare = offsets[:1]
    out: list[int] = []
    for r in range(13):
        held = counts[r]
        if not held:
            continue
        if r == tell_slot or tell_slot == SMALL_SLOT:
            for n in range(1, held + 1):
                for x in range(small + 1):
                    if not single_with_jokers and n == 1 and x:
                        continue
                    for y in range(big + 1):
                        if not single_with_jokers and n == 1 and y:
                            continue
                        ts = (
                            _telling_range(n, held, telling)
                            if r == tell_slot
                            else _telling_range(x, small, telling)
                        )
                        out.extend(encode(r, n, x, y, t) for t in ts)
            continue
        base = encode(r, 1, 0, 0)
        out.extend([base + o for o in (offsets if single_with_jokers else bare)])
        for n in range(2, held + 1):
            base = encode(r, n, 0, 0)
            out.extend([base + o for o in offsets])
    for x in range(small + 1):
        ts = _telling_range(x, small, telling) if tell_slot == SMALL_SLOT else (0,)
        for y in range(big + 1):
            if x or y:
                out.extend(encode(NO_RANK, 0, x, y, t) for t in ts)
    return out


def follows(
    counts: list[int],
    table: SetShape,
    single_with_jokers: bool,
    tell_slot: int,
    telling: int,
) -> list[int]:
    """Every set from this hand that beats ``table``."""
    if table.y:
        return []
    k = table.size
    small, big = counts[SMALL_SLOT], counts[BIG_SLOT]
    out: list[int] = []
    lowest = table.r + 1 if table.n else NO_RANK  # jokers alone are beaten by big jokers only
    for y in range(table.x, min(k, big) + 1):
        for x in range(min(k - y, small) + 1):
            x_tells = _telling_range(x, small, telling) if tell_slot == SMALL_SLOT else (0,)
            n = k - y - x
            if n == 0:
                out.extend(encode(NO_RANK, 0, x, y, t) for t in x_tells)
                continue
            if n == 1 and (x or y) and not single_with_jokers:
                continue
            for r in range(lowest, 13):
                held = counts[r]
                if held < n:
                    continue
                if r == tell_slot:
                    out.extend(encode(r, n, x, y, t) for t in _telling_range(n, held, telling))
                else:
                    out.extend(encode(r, n, x, y, t) for t in x_tells)
    return out
