"""Baohuang play, the rules bot's and the search playouts' (one policy, two ways to read a seat).

The policy reads a seat through its :class:`~yamen.bots.baohuang.hand.Perspective`: the rules
bot builds it from its view (:func:`choose_play`), the search's playouts from a sampled state
(``playout``); so the playouts model the rules bot exactly, and the two cannot drift
apart. It never lists the legal actions: the sets that beat the table are generated from the
hand's slot counts (:func:`beating`), which is what makes playouts fast.

The ideas, in order of weight:

- Go out whenever one set empties the hand, and when every set left but one is unbeatable
  (counting the unseen cards), play the unbeatable ones first: the lead comes back each time.
- Lead the weakest whole rank; keep 2s, aces and jokers for taking the lead back. A rank held
  to the end (lowest_held, 憋六/憋三) is kept for the set that empties the hand: it is the
  last set of every finishing plan, and is never led before.
- Answer an opponent's set when it is cheap (a low whole rank), more readily when the opponent is
  close to going out; a fellow rebel's set only when cheaper still (every rebel must shed its
  cards); never beat a known partner's set unless that stops an opponent from going out.
  Jokers and high ranks cost; breaking a rank into two sets costs; so does unmasking oneself.
- A seat whose side is hidden counts as an opponent (see ``hand.known_friends``).
- Shandong: yield (讓牌) when beating would cost a little more than it is worth, to get a second
  look if nobody else beats; claim the lead (接風) when the set's player has gone out.

The policy is deterministic.
"""

from __future__ import annotations

from typing import NamedTuple

from yamen.bots.baohuang.hand import Perspective, ViewPerspective, table_shape
from yamen.games.baohuang.actions import CLAIM, PASS, YIELD
from yamen.games.baohuang.kinds import BIG_SLOT, SMALL_SLOT
from yamen.games.baohuang.sets import NO_RANK

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

Shape = tuple[int, int, int, int]  # (r, n, x, y)


class ToAnswer(NamedTuple):
    """The set to answer and what the answering seat may say besides playing or passing."""

    r: int
    n: int
    x: int
    y: int
    owner: int
    circle: int
    may_yield: bool
    may_claim: bool


def choose_play(k: ViewPerspective, legal: list[int]) -> int:
    """The rules bot's play, from its view (``legal`` says whether it may yield or claim)."""
    table = k.view["table"]
    if table is None:
        return lead(k)
    r, n, x, y = table_shape(table["cards"])
    return answer(
        k, ToAnswer(r, n, x, y, table["owner"], table["circle"], YIELD in legal, CLAIM in legal)
    )


# ---------------------------------------------------------------------- leading


def lead(k: Perspective) -> int:
    """The whole hand if it is one set; else the start of a sure way out; else a set a
    partner may go out on; else the weakest whole rank."""
    whole = whole_hand(k)
    if whole is not None:
        return k.action(*whole)
    if k.size <= ENDGAME:
        plan = finishing_plan(k)
        if plan:
            return k.action(*plan[0])
    helping = helping_lead(k)
    if helping is not None:
        return helping
    groups = k.free_groups()
    counts = k.counts
    if not groups:  # the rank held to the end and jokers it cannot carry: the jokers first
        return k.action(NO_RANK, 0, counts[SMALL_SLOT], counts[BIG_SLOT])
    danger = danger_sizes(k)
    best, best_penalty = groups[0], float("inf")
    for r in groups:
        penalty = lead_penalty(k, r, counts[r], danger)
        if penalty < best_penalty:
            best, best_penalty = r, penalty
    return k.action(best, counts[best])


def whole_hand(k: Perspective) -> Shape | None:
    """The whole hand as one set, when it is one."""
    c = k.counts
    groups = k.groups()
    small, big = c[SMALL_SLOT], c[BIG_SLOT]
    if not groups:
        return NO_RANK, 0, small, big
    if len(groups) > 1:
        return None
    r = groups[0]
    if not k.can_carry_jokers(c[r]) and small + big:
        return None
    return r, c[r], small, big


def finishing_plan(k: Perspective) -> list[Shape] | None:
    """Sets ``(r, n, x, y)`` that empty the hand, all unbeatable but the last, or ``None``.

    Whole ranks stay whole (a smaller set is only easier to beat). A rank nobody can beat goes
    as it is; each other rank but one gets a big joker; the jokers left over go with the last
    set or, if it cannot carry them, with an unbeatable set or on their own."""
    c = k.counts
    groups = k.groups()
    unsafe = [r for r in groups if not k.safe(r, c[r], 0, 0)]
    sink = k.sink_rank  # lowest_last: going out on it ranks last, so it goes before
    held = k.held_rank
    if held >= 0 and c[held]:
        last: int | None = held  # lowest_held: it can only be the last set
    else:
        last = min(unsafe, key=lambda r: (r == sink, k.can_carry_jokers(c[r]), r), default=None)
    needing = [r for r in unsafe if r != last]
    big, small = c[BIG_SLOT], c[SMALL_SLOT]
    if len(needing) > big or any(not k.can_carry_jokers(c[r]) for r in needing):
        return None
    big -= len(needing)
    sets = [(r, c[r], 0, 0) for r in groups if r not in unsafe and r != last]
    sets += [(r, c[r], 0, 1) for r in needing]
    if last is not None and k.can_carry_jokers(c[last]):
        return [*sets, (last, c[last], small, big)]
    if big or small:
        carrier = next((i for i, s in enumerate(sets) if k.can_carry_jokers(s[1])), None)
        if carrier is not None:
            r, n, x, y = sets[carrier]
            sets[carrier] = (r, n, x + small, y + big)
        elif big or k.safe(NO_RANK, 0, small, 0):
            sets.append((NO_RANK, 0, small, big))
        else:
            return None
    return sets + ([(last, c[last], 0, 0)] if last is not None else [])


def helping_lead(k: Perspective) -> int | None:
    """A known partner down to one or two cards: lead that many of my weakest rank, a set it
    may go out on."""
    sizes = k.sizes
    partners = [s for s in range(5) if s != k.me and k.friend[s] and 0 < sizes[s] <= 2]
    if not partners:
        return None
    want = sizes[partners[0]]
    ranks = [r for r in k.free_groups() if k.counts[r] >= want and r < CONTROL]
    return k.action(ranks[0], want) if ranks else None


def lead_penalty(k: Perspective, r: int, n: int, danger: set[int]) -> float:
    """Weak ranks first; control cards, unmasking myself, and sizes an opponent could go
    out on (unless unbeatable) last."""
    penalty = float(r)
    if r >= CONTROL:
        penalty += 10
    if k.hidden_partner and k.reveals(r, n, 0, 0):
        penalty += 4
    if n in danger and not k.safe(r, n, 0, 0):
        penalty += 20
    return penalty


def danger_sizes(k: Perspective) -> set[int]:
    """Hand sizes of probable opponents close to going out: a set of that size lets them."""
    return {h for s, h in enumerate(k.sizes) if not k.friend[s] and 0 < h <= 5}


# ---------------------------------------------------------------------- answering


def set_cost(k: Perspective, r: int, n: int, x: int, y: int) -> float:
    """What playing this set gives up: jokers and strong ranks, a broken rank, a hidden role."""
    cost = x * SMALL_JOKER_COST + y * BIG_JOKER_COST
    if n:
        held = k.counts[r]
        if n == held:
            cost += RANK_COST[r] - WHOLE_RANK_BONUS
        else:
            cost += RANK_COST[r] * n / held + (BREAK_COST if r < CONTROL else 0.3)
    if k.hidden_partner and k.reveals(r, n, x, y):
        cost += REVEAL_COST
    return cost


def cannot_beat(counts: list[int], table: Shape) -> bool:
    """A quick bound: no set from these slot counts beats the table (a big joker on it, too
    few big jokers for its small ones, or too few cards above its rank)."""
    r, n, x, y = table
    big = counts[BIG_SLOT]
    return (
        bool(y) or big < x or big + counts[SMALL_SLOT] + max(counts[r + 1 : 13], default=0) < n + x
    )


def answer(k: Perspective, t: ToAnswer) -> int:
    if cannot_beat(k.counts, t[:4]):
        return CLAIM if t.may_claim else PASS
    return answer_beatable(k, t)


def answer_beatable(k: Perspective, t: ToAnswer) -> int:
    """:func:`answer` once :func:`cannot_beat` has said no (playouts check it first)."""
    no_play = CLAIM if t.may_claim else PASS
    shapes = beating(k, t.r, t.n, t.x)
    if not shapes:
        return no_play
    if k.size == t.n + t.x:
        return k.action(*shapes[0])  # out: any beating set is the whole hand
    if k.size <= ENDGAME:
        finishing = finishing_answer(k, shapes)
        if finishing is not None:
            return k.action(*finishing)
    owner = t.owner
    if owner == k.partner:
        stopper = stopping_answer(k, shapes, t.n + t.x)
        return k.action(*stopper) if stopper is not None else no_play
    best, cost = shapes[0], set_cost(k, *shapes[0])
    for shape in shapes[1:]:
        c = set_cost(k, *shape)
        if c < cost:
            best, cost = shape, c
    if t.may_claim and cost > 0:
        return CLAIM
    limit = BEAT_ALLY if k.friend[owner] else beat_limit(k, owner, t.circle)
    if cost <= limit:
        return k.action(*best)
    if t.may_yield and cost <= limit + SECOND_CIRCLE:
        return YIELD  # nobody else beats it: the second circle's wider limit decides
    return PASS


def beating(k: Perspective, r_b: int, n_b: int, x_b: int) -> list[Shape]:
    """Every set ``(r, n, x, y)`` from the hand that beats a set without a big joker, in the
    order the engine lists them (telling variants merged: :meth:`Perspective.action` puts in as few
    telling cards as it can)."""
    c = k.counts
    size = n_b + x_b
    small, big = c[SMALL_SLOT], c[BIG_SLOT]
    tell = k.tell_slot
    shapes = []
    for y in range(x_b, min(size, big) + 1):
        for x in range(min(size - y, small) + 1):
            n = size - x - y
            if n == 0:
                shapes.append((NO_RANK, 0, x, y))
            elif n_b and (x + y == 0 or k.can_carry_jokers(n)):
                ranks = [r for r in range(r_b + 1, 13) if c[r] >= n]
                if tell in ranks:  # the engine lists the rank of held telling cards first
                    ranks.remove(tell)
                    ranks.insert(0, tell)
                shapes += [(r, n, x, y) for r in ranks]
    return shapes


def beat_limit(k: Perspective, owner: int, circle: int) -> float:
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


def finishing_answer(k: Perspective, shapes: list[Shape]) -> Shape | None:
    """An unbeatable answer after which the rest of the hand is a sure way out."""
    c = k.counts
    k.unseen  # noqa: B018 -- counted before the hand is changed below
    for shape in shapes:
        r, n, x, y = shape
        if not k.safe(r, n, x, y):
            continue
        c[SMALL_SLOT] -= x
        c[BIG_SLOT] -= y
        if n:
            c[r] -= n
        try:
            if finishing_plan(k) is not None:
                return shape
        finally:
            c[SMALL_SLOT] += x
            c[BIG_SLOT] += y
            if n:
                c[r] += n
    return None


def stopping_answer(k: Perspective, shapes: list[Shape], wanted: int) -> Shape | None:
    """Over a partner's set: the cheapest unbeatable answer, but only when an opponent still in
    could go out on this set (its hand is exactly the set's size, ``wanted``)."""
    sizes = k.sizes
    if not any(not k.friend[s] and sizes[s] == wanted for s in range(5)):
        return None
    safe = [shape for shape in shapes if k.safe(*shape)]
    return min(safe, key=lambda shape: set_cost(k, *shape), default=None)
