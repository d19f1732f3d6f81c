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

from yamen.games.baohuang.kinds import BIG_SLOT, SLOT_OF, SMALL_SLOT

NO_RANK = 13
PLAY_BASE = 64  # action ids below this are the non-play actions (see actions.py)
_N, _J, _T = 17, 5, 5  # radices: naturals 0..16, jokers of a colour 0..4, telling 0..4


class SetShape(NamedTuple):
    r: int
    n: int
    x: int
    y: int

    @property
    def size(self) -> int:
        return self.n + self.x + self.y


def shape_of(kinds: list[int]) -> tuple[int, int, int, int]:
    """``(r, n, x, y)`` of a set given as card kinds."""
    naturals = [k for k in kinds if k < 52]
    small = sum(SLOT_OF[k] == SMALL_SLOT for k in kinds)
    r = SLOT_OF[naturals[0]] if naturals else NO_RANK
    return r, len(naturals), small, len(kinds) - len(naturals) - small


def encode(r: int, n: int, x: int, y: int, t: int = 0) -> int:
    return PLAY_BASE + (((r * _N + n) * _J + x) * _J + y) * _T + t


def decode(action: int) -> tuple[int, int, int, int, int]:
    """``(r, n, x, y, t)`` of a play action id."""
    a, t = divmod(action - PLAY_BASE, _T)
    a, y = divmod(a, _J)
    a, x = divmod(a, _J)
    r, n = divmod(a, _N)
    return r, n, x, y, t


DECODED: dict[int, tuple[int, int, int, int, int]] = {}  # decode() memoized for the hot path


def decoded(action: int) -> tuple[int, int, int, int, int]:
    found = DECODED.get(action)
    if found is None:
        found = DECODED[action] = decode(action)
    return found


NUM_ACTIONS = encode(NO_RANK + 1, 0, 0, 0)  # every action id, plays last, is below this


def is_play(action: int) -> bool:
    return PLAY_BASE <= action < NUM_ACTIONS


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


def _joker_offsets(small: int, big: int, small_telling: int) -> list[int]:
    """Id offsets of every joker part ``(x, y, t)`` a hand can add to a set; ``t`` counts
    telling small jokers. The first entry is always 0 (no jokers)."""
    return [
        (x * _J + y) * _T + t
        for x in range(small + 1)
        for y in range(big + 1)
        for t in _telling_range(x, small, small_telling)
    ]


# Every (small held, big held, telling small held) -> its joker offsets, computed once.
_OFFSETS = {
    (s, b, t): _joker_offsets(s, b, t) for s in range(5) for b in range(5) for t in range(s + 1)
}
_RANK_BASE = [[encode(r, n, 0, 0) for n in range(17)] for r in range(NO_RANK + 1)]
_JOKERS_ALONE = encode(NO_RANK, 0, 0, 0)
MAX_SET = 24  # 16 naturals and 8 jokers

# Generated id lists, memoized: a hand's options are rebuilt from a few dict lookups instead of
# loops over ranks and counts. Both tables stay small (bounded by ranks x counts x jokers).
_RANK_IDS: list[dict[int, list[int]]] = [{} for _ in range(MAX_SET + 1)]  # [n][rank mask]
_LEAD_IDS: dict[tuple[int, int, int, bool], dict[int, list[int]]] = {}  # [jokers][r * 17 + held]


def rank_masks(counts: list[int]) -> list[int]:
    """``masks[n]``: bit r set when at least n naturals of rank r are held (n = 0 .. 24)."""
    masks = [0] * (MAX_SET + 1)
    for r in range(13):
        bit = 1 << r
        for n in range(counts[r] + 1):
            masks[n] |= bit
    return masks


def _ids_for_ranks(n: int, mask: int) -> list[int]:
    ids = _RANK_IDS[n].get(mask)
    if ids is None:
        ids = _RANK_IDS[n][mask] = [_RANK_BASE[r][n] for r in range(13) if mask >> r & 1]
    return ids


def _lead_ids(r: int, held: int, offsets: list[int], singles: list[int]) -> list[int]:
    return [_RANK_BASE[r][1] + o for o in singles] + [
        _RANK_BASE[r][n] + o for n in range(2, held + 1) for o in offsets
    ]


def leads(counts: list[int], single_with_jokers: bool, tell_slot: int, telling: int) -> list[int]:
    """Every set that can be led from a hand with these slot ``counts``.

    ``tell_slot`` is the slot holding the seat's ``telling`` cards (-1 when it has none)."""
    small, big = counts[SMALL_SLOT], counts[BIG_SLOT]
    small_telling = telling if tell_slot == SMALL_SLOT else 0
    key = (small, big, small_telling, single_with_jokers)
    offsets = _OFFSETS[key[:3]]
    singles = offsets if single_with_jokers else offsets[:1]
    table = _LEAD_IDS.get(key)
    if table is None:
        table = _LEAD_IDS[key] = {}
    out: list[int] = []
    for r in range(13):
        held = counts[r]
        if not held:
            continue
        if r == tell_slot:  # the called card: how many of the n naturals are telling
            bases = _RANK_BASE[r]
            for n in range(1, held + 1):
                offs = offsets if n > 1 else singles
                out += [bases[n] + t + o for t in _telling_range(n, held, telling) for o in offs]
            continue
        ids = table.get(r * 17 + held)
        if ids is None:
            ids = table[r * 17 + held] = _lead_ids(r, held, offsets, singles)
        out += ids
    out += [_JOKERS_ALONE + o for o in offsets[1:]]  # jokers alone
    return out


def _joker_splits(k: int, x_b: int, small: int, big: int, single: bool) -> list[tuple[int, int]]:
    """``(n, offset)`` for every way to fill a set of size ``k`` that beats ``x_b`` small jokers:
    ``y >= x_b`` big jokers, ``x`` small ones, ``n`` naturals (no telling cards)."""
    return [
        (k - y - x, (x * _J + y) * _T)
        for y in range(x_b, min(k, big) + 1)
        for x in range(min(k - y, small) + 1)
        if single or k - y - x != 1 or x + y == 0
    ]


_SPLITS: dict[tuple[int, int, int, int, bool], list[tuple[int, int]]] = {}


def follows(
    counts: list[int],
    masks: list[int],
    table: tuple[int, int, int, int],
    single_with_jokers: bool,
    tell_slot: int,
    telling: int,
) -> list[int]:
    """Every set from this hand that beats ``table`` (``(r, n, x, y)``); ``masks`` as from
    :func:`rank_masks`."""
    r_b, n_b, x_b, y_b = table
    big = counts[BIG_SLOT]
    if y_b or big < x_b:
        return []  # a big joker is never beaten; each small joker needs a big one above it
    if tell_slot >= 0:
        return _follows_telling(counts, masks, table, single_with_jokers, tell_slot, telling)
    key = (n_b + x_b, x_b, counts[SMALL_SLOT], big, single_with_jokers)
    splits = _SPLITS.get(key)
    if splits is None:
        splits = _SPLITS[key] = _joker_splits(*key)
    above = -1 << (r_b + 1) if n_b else 0  # jokers alone are beaten by big jokers only
    out: list[int] = []
    for n, o in splits:
        if n == 0:
            out.append(_JOKERS_ALONE + o)
            continue
        mask = masks[n] & above
        if mask:
            ids = _RANK_IDS[n].get(mask) or _ids_for_ranks(n, mask)
            out += [b + o for b in ids] if o else ids
    return out


def _follows_telling(
    counts: list[int],
    masks: list[int],
    table: tuple[int, int, int, int],
    single_with_jokers: bool,
    tell_slot: int,
    telling: int,
) -> list[int]:
    """:func:`follows` for a hand holding telling cards, which may or may not go in."""
    r_b, n_b, x_b, _ = table
    k = n_b + x_b
    small, big = counts[SMALL_SLOT], counts[BIG_SLOT]
    small_telling = telling if tell_slot == SMALL_SLOT else 0
    above = -1 << (r_b + 1) if n_b else 0
    out: list[int] = []
    for y in range(x_b, min(k, big) + 1):
        for x in range(min(k - y, small) + 1):
            n = k - y - x
            o = (x * _J + y) * _T
            offs = [o + t for t in _telling_range(x, small, small_telling)]
            if n == 0:
                out += [_JOKERS_ALONE + o for o in offs]
                continue
            if n == 1 and (x or y) and not single_with_jokers:
                continue
            mask = masks[n] & above
            if tell_slot < 13 and mask >> tell_slot & 1:
                mask &= ~(1 << tell_slot)
                base = _RANK_BASE[tell_slot][n] + offs[0]
                out += [base + t for t in _telling_range(n, counts[tell_slot], telling)]
            if mask:
                out += [b + o for b in _ids_for_ranks(n, mask) for o in offs]
    return out
