"""Baohuang play for the rule-based bot: which set to lead, and whether and how to answer one.

The ideas, in order of weight:

- Go out whenever one set empties the hand, and when every set left but one is unbeatable
  (counting the unseen cards), play the unbeatable ones first: the lead comes back each time.
- Lead the weakest whole rank; keep 2s, aces and jokers for taking the lead back.
- Answer an opponent's set when it is cheap (a low whole rank), more readily when the opponent is
  close to going out; a fellow rebel's set only when cheaper still (every rebel must shed its
  cards); never beat a known partner's set unless that stops an opponent from going out.
  Jokers and high ranks cost; breaking a rank into two sets costs; so does unmasking oneself.
- A seat whose side is hidden counts as an opponent (see ``baohuang_hand.known_friends``).
- Shandong: yield (讓牌) when beating would cost a little more than it is worth, to get a second
  look if nobody else beats; claim the lead (接風) when the set's player has gone out.
"""

from __future__ import annotations

from yamen.bots.baohuang_hand import Knowledge, table_shape
from yamen.games.baohuang.kinds import BIG_SLOT, SMALL_SLOT
from yamen.games.baohuang.rules import CLAIM, PASS, YIELD
from yamen.games.baohuang.sets import PLAY_BASE, decoded

# What spending a card of each strength costs (3 .. 2): low cards are worth getting rid of,
# kings, aces and 2s win the lead back later.
RANK_COST = (0.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.6, 0.8, 1.0, 1.4, 2.0, 3.0, 4.5)
SMALL_JOKER_COST = 4.0
BIG_JOKER_COST = 6.0
WHOLE_RANK_BONUS = 2.5  # one set fewer left to play
BREAK_COST = 1.0  # the rest of the rank still needs a set of its own
REVEAL_COST = 1.5  # a hidden partner that unmasks itself
CONTROL = 11  # aces and up

BEAT_FOE = 2.0  # beat an opponent's set when it costs at most this
BEAT_ALLY = 1.0  # a fellow rebel's set: shed cheaply, every rebel must get out
SECOND_CIRCLE = 1.0  # after a yield nobody beat: the last chance, so a little dearer
ENDGAME = 10  # at this many cards or fewer, look for a finishing sequence


def choose_play(k: Knowledge, legal: list[int]) -> int:
    table = k.view["table"]
    if table is None:
        return choose_lead(k, legal)
    return choose_answer(k, legal, table)


# ---------------------------------------------------------------------- leading


def choose_lead(k: Knowledge, legal: list[int]) -> int:
    legal_set = set(legal)
    for action in (whole_hand(k), finishing_lead(k), helping_lead(k), weakest_lead(k)):
        if action is not None and action in legal_set:
            return action
    return min(legal, key=lambda a: set_cost(k, *decoded(a)[:4]))


def whole_hand(k: Knowledge) -> int | None:
    """The whole hand as one set, when it is one."""
    groups = k.groups()
    if len(groups) > 1:
        return None
    c = k.counts
    r, n = (groups[0], c[groups[0]]) if groups else (0, 0)
    if n and not k.can_carry_jokers(n) and c[SMALL_SLOT] + c[BIG_SLOT]:
        return None
    return k.action(r, n, c[SMALL_SLOT], c[BIG_SLOT])


def finishing_lead(k: Knowledge) -> int | None:
    """The first set of a sure way out: every set but the last one unbeatable."""
    if k.size > ENDGAME:
        return None
    plan = finishing_plan(k)
    return k.action(*plan[0]) if plan else None


def finishing_plan(k: Knowledge) -> list[tuple[int, int, int, int]] | None:
    """Sets ``(r, n, x, y)`` that empty the hand, all unbeatable but the last, or ``None``.

    Whole ranks stay whole (a smaller set is only easier to beat). A rank nobody can beat goes
    as it is; each other rank but one gets a big joker; the jokers left over go with the last
    set or, if it cannot carry them, with an unbeatable set or on their own."""
    c = k.counts
    groups = k.groups()
    unsafe = [r for r in groups if not k.safe(r, c[r], 0, 0)]
    last = min(unsafe, key=lambda r: (k.can_carry_jokers(c[r]), r)) if unsafe else None
    needing = [r for r in unsafe if r != last]
    big, small = c[BIG_SLOT], c[SMALL_SLOT]
    if len(needing) > big or any(not k.can_carry_jokers(c[r]) for r in needing):
        return None
    big -= len(needing)
    sets = [(r, c[r], 0, 0) for r in groups if r not in unsafe]
    sets += [(r, c[r], 0, 1) for r in needing]
    if last is not None and k.can_carry_jokers(c[last]):
        return [*sets, (last, c[last], small, big)]
    if big or small:
        carrier = next((i for i, s in enumerate(sets) if k.can_carry_jokers(s[1])), None)
        if carrier is not None:
            r, n, x, y = sets[carrier]
            sets[carrier] = (r, n, x + small, y + big)
        elif big or k.safe(0, 0, small, 0):
            sets.append((0, 0, small, big))
        else:
            return None
    return sets + ([(last, c[last], 0, 0)] if last is not None else [])


def helping_lead(k: Knowledge) -> int | None:
    """A known partner down to one or two cards: lead that many of my weakest rank, a set it
    may go out on."""
    partners = [s for s in range(5) if s != k.me and k.friend[s] and 0 < k.sizes[s] <= 2]
    if not partners:
        return None
    want = k.sizes[partners[0]]
    ranks = [r for r in k.groups() if k.counts[r] >= want and r < CONTROL]
    return k.action(ranks[0], want) if ranks else None


def weakest_lead(k: Knowledge) -> int | None:
    """The weakest whole rank, avoiding sizes an opponent could go out on and telling cards."""
    groups = k.groups()
    if not groups:
        return None
    return k.action(*min(((r, k.counts[r]) for r in groups), key=lambda g: lead_penalty(k, *g)))


def lead_penalty(k: Knowledge, r: int, n: int) -> float:
    penalty = float(r)
    if r >= CONTROL:
        penalty += 10
    if k.reveals(r, n, 0, 0):
        penalty += 4
    if n in danger_sizes(k) and not k.safe(r, n, 0, 0):
        penalty += 20
    return penalty


def danger_sizes(k: Knowledge) -> set[int]:
    """Hand sizes of probable opponents close to going out: a set of that size lets them."""
    return {h for s, h in enumerate(k.sizes) if not k.friend[s] and 0 < h <= 5}


# ---------------------------------------------------------------------- answering


def set_cost(k: Knowledge, r: int, n: int, x: int, y: int) -> float:
    """What playing this set gives up: jokers and strong ranks, a broken rank, a hidden role."""
    cost = x * SMALL_JOKER_COST + y * BIG_JOKER_COST
    if n:
        held = k.counts[r]
        if n == held:
            cost += RANK_COST[r] - WHOLE_RANK_BONUS
        else:
            cost += RANK_COST[r] * n / held + (BREAK_COST if r < CONTROL else 0.3)
    if k.reveals(r, n, x, y):
        cost += REVEAL_COST
    return cost


def choose_answer(k: Knowledge, legal: list[int], table: dict) -> int:
    shapes = play_shapes(legal)
    size = k.size
    for shape in shapes:
        if sum(shape[1:]) == size:
            return k.action(*shape)  # out
    if size <= ENDGAME:
        finishing = finishing_answer(k, shapes)
        if finishing is not None:
            return k.action(*finishing)
    owner = table["owner"]
    if owner == k.partner:
        stopper = stopping_answer(k, shapes, table)
        return k.action(*stopper) if stopper is not None else claim_or_pass(legal)
    if not shapes:
        return claim_or_pass(legal)
    best = min(shapes, key=lambda shape: set_cost(k, *shape))
    cost = set_cost(k, *best)
    if CLAIM in legal and cost > 0:
        return CLAIM
    limit = BEAT_ALLY if k.friend[owner] else beat_limit(k, owner, table["circle"])
    if cost <= limit:
        return k.action(*best)
    if YIELD in legal and cost <= limit + SECOND_CIRCLE:
        return YIELD  # nobody else beats it: the second circle's wider limit decides
    return PASS


def play_shapes(legal: list[int]) -> list[tuple[int, int, int, int]]:
    """The distinct sets ``(r, n, x, y)`` among the legal actions (telling variants merged:
    :meth:`Knowledge.action` puts in as few telling cards as it can)."""
    return list(dict.fromkeys(decoded(a)[:4] for a in legal if a >= PLAY_BASE))


def claim_or_pass(legal: list[int]) -> int:
    return CLAIM if CLAIM in legal else PASS


def beat_limit(k: Knowledge, owner: int, circle: int) -> float:
    """How much an answer may cost: more against an opponent near going out, in the second
    circle, and when my own hand is nearly gone."""
    limit = BEAT_FOE
    owner_size = k.sizes[owner]
    if 0 < owner_size <= 3:
        limit += 5.0
    elif 0 < owner_size <= 8:
        limit += 2.0
    if k.size <= 8:
        limit += 1.0
    if circle == 2:
        limit += SECOND_CIRCLE
    return limit


def finishing_answer(k: Knowledge, shapes: list[tuple[int, int, int, int]]):
    """An unbeatable answer after which the rest of the hand is a sure way out."""
    c = k.counts
    k.unseen  # noqa: B018 -- counted before the hand is changed below
    for shape in shapes:
        r, n, x, y = shape
        if not k.safe(r, n, x, y):
            continue
        c[SMALL_SLOT] -= x
        c[BIG_SLOT] -= y
        c[r] -= n
        try:
            if finishing_plan(k) is not None:
                return shape
        finally:
            c[SMALL_SLOT] += x
            c[BIG_SLOT] += y
            c[r] += n
    return None


def stopping_answer(k: Knowledge, shapes: list[tuple[int, int, int, int]], table: dict):
    """Over a partner's set: the cheapest unbeatable answer, but only when an opponent still in
    could go out on this set (its hand is exactly the set's size)."""
    r, n, x, y = table_shape(table["cards"])
    wanted = n + x + y
    if not any(not k.friend[s] and k.sizes[s] == wanted for s in range(5)):
        return None
    safe = [shape for shape in shapes if k.safe(*shape)]
    return min(safe, key=lambda shape: set_cost(k, *shape), default=None)
