"""Search bot for Baohuang: flat information-set Monte Carlo search over sampled deals.

What it is: a single-observer information-set Monte Carlo search with a one-level tree (the
seat's own candidate actions, chosen by UCB1). Each iteration samples the unseen cards from
the seat's view (:mod:`yamen.games.baohuang.determinize`), so every iteration plays a
different deal consistent with what the seat knows; the chosen candidate is applied and the
deal is played to its end by the greedy playout policy (:mod:`yamen.bots.baohuang_playout`)
for all five seats. The reward is this deal's score for the seat (shandong or japanese
scoring, exact). A deeper tree would not pay: with a few hundred playouts per second, the
budget is best spent on the root decision.

Why flat and not per-deal UCT: the hidden cards matter more than the depth. Sampling a new
deal per iteration averages over them instead of over-fitting one guess (strategy fusion).

It sees only the view and the legal ids, never a state. Outside the play phase (grab, call,
yield, declarations, the emperor card) it uses the ``rules`` bot when one is registered, and
otherwise the simple rules in :func:`fallback_choice`. Plays are narrowed to a few candidates
(:func:`candidates`), since a hand can have hundreds of legal sets.

Budget: at most ``seconds`` (default 0.9) and ``iterations`` playouts per decision; decisions
with a single sensible action are answered at once.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from yamen.bots.baohuang_playout import play_out
from yamen.games.baohuang.determinize import counts_of, determinize
from yamen.games.baohuang.kinds import BIG_SLOT, NUM_SLOTS, SLOT_OF, SMALL_SLOT
from yamen.games.baohuang.rules import (
    CALL_BASE,
    CLAIM,
    DECLARE,
    GRAB,
    KEEP,
    PASS,
    YIELD,
)
from yamen.games.baohuang.sets import PLAY_BASE, decoded

MAX_CANDIDATES = 12


class SearchBot:
    """Flat information-set Monte Carlo search (see the module docstring)."""

    name = "search"

    def __init__(
        self, iterations: int = 5000, seconds: float | None = 0.9, exploration: float = 6.0
    ):
        self.iterations = iterations
        self.seconds = seconds  # None: stop on iterations only (reproducible runs)
        self.exploration = exploration  # UCB1 constant, in points of score
        self._fallback: Any = None
        self.last_iterations = 0  # playouts in the latest search, for measurements

    def choose(self, view: dict[str, Any], legal: list[int], rng: random.Random) -> int:
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        if view["phase"] != "play":
            return self.fallback(view, legal, rng)
        options = candidates(view, legal)
        if len(options) == 1:
            return options[0]
        return self.search(view, options, rng)

    def search(self, view: dict[str, Any], options: list[int], rng: random.Random) -> int:
        """UCB1 over ``options``; every iteration a fresh sampled deal and one playout."""
        me = view["seat"]
        visits = [0] * len(options)
        totals = [0.0] * len(options)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.iterations:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            i = _ucb_pick(visits, totals, done, self.exploration)
            state = determinize(view, rng, fresh=True)
            state.apply_unchecked(me, options[i])
            play_out(state, rng)
            visits[i] += 1
            totals[i] += float(state.totals[me])
            done += 1
        self.last_iterations = done
        best = max(
            range(len(options)),
            key=lambda i: (visits[i], totals[i] / visits[i] if visits[i] else 0.0),
        )
        return options[best]

    def fallback(self, view: dict[str, Any], legal: list[int], rng: random.Random) -> int:
        """Decisions before play: the ``rules`` bot if registered, else simple rules."""
        if self._fallback is None:
            self._fallback = _rules_bot() or False
        if self._fallback:
            return self._fallback.choose(view, legal, rng)
        return fallback_choice(view, legal)


def _rules_bot() -> Any:
    from yamen.bots import make_bot
    from yamen.errors import OptionsError

    try:
        return make_bot("baohuang", "rules")
    except (OptionsError, ImportError, AttributeError):
        return None


def _ucb_pick(visits: list[int], totals: list[float], done: int, c: float) -> int:
    for i, v in enumerate(visits):
        if not v:
            return i
    log_n = math.log(done)
    return max(
        range(len(visits)),
        key=lambda i: totals[i] / visits[i] + c * math.sqrt(log_n / visits[i]),
    )


def own_slots(view: dict[str, Any]) -> list[int]:
    slots = [0] * NUM_SLOTS
    for k, n in enumerate(counts_of(view["hand"])):
        slots[SLOT_OF[k]] += n
    return slots


def candidates(view: dict[str, Any], legal: list[int]) -> list[int]:
    """The few actions worth searching among ``legal``.

    Without a set to play, claim the lead when possible (else pass: yielding only keeps a
    chance to beat, which a seat that cannot beat does not need). Otherwise: every non-play
    answer, and per shape of set (naturals, small and big jokers) the lowest rank and the
    lowest rank held exactly that many times; when leading, every rank's whole group
    without jokers, all the jokers alone, and the whole hand. Telling cards (the called
    card, the guard card) are kept back where the shape allows, and also played in a
    variant. Cheapest first, at most ``MAX_CANDIDATES``."""
    plays = [a for a in legal if a >= PLAY_BASE]
    words = [a for a in legal if a < PLAY_BASE]
    if not plays:
        return [CLAIM if CLAIM in words else PASS]
    slots = own_slots(view)
    size = sum(slots)
    leading = view["table"] is None
    chosen: dict[tuple[int, ...], int] = {}  # key -> action; first seen wins
    for a in sorted(plays, key=lambda a: _cost(decoded(a), slots, size)):
        r, n, x, y, t = decoded(a)
        keys = [("shape", n, x, y, t > 0)]
        if n and slots[r] == n:
            keys.append(("exact", n, x, y, t > 0))
        if leading and not x and not y and n == slots[r]:
            keys = [("group", r, t > 0)]
        elif leading:
            keys = [("whole",)] if n + x + y == size else []
            if not n and x == slots[SMALL_SLOT] and y == slots[BIG_SLOT]:
                keys.append(("jokers", t > 0))
        for key in keys:
            chosen.setdefault(key, a)
    picked = sorted(set(chosen.values()), key=lambda a: _cost(decoded(a), slots, size))
    return words + picked[: MAX_CANDIDATES - len(words)]


def _cost(play: tuple[int, int, int, int, int], slots: list[int], size: int) -> tuple:
    """Order for candidates: going out first, then sets using fewer jokers, lower ranks,
    no broken groups, and telling cards kept back."""
    r, n, x, y, t = play
    out = n + x + y == size
    broken = bool(n) and slots[r] != n
    return (not out, x + y, r if n else 13, broken, t)


def fallback_choice(view: dict[str, Any], legal: list[int]) -> int:
    """Simple rules before play: never grab; call a card held three times (four only with a
    strong hand), else yield; keep the japanese emperor card with a strong hand; declare a
    solo game or as royalist only with a strong hand; never rebel."""
    slots = own_slots(view)
    strong = slots[BIG_SLOT] + slots[SMALL_SLOT] + slots[12] >= 9
    calls = [a for a in legal if CALL_BASE <= a < CALL_BASE + 54]
    if calls:
        hand = counts_of(view["hand"])

        def copies(a: int) -> int:
            k = a - CALL_BASE
            return hand[k] if k < 52 else slots[SLOT_OF[k]]

        threes = [a for a in calls if copies(a) == 3]
        if threes:
            return max(threes)
        if strong or YIELD not in legal:
            return max(calls)
        return YIELD
    if KEEP in legal:
        return KEEP if strong else legal[-1]
    if DECLARE in legal and strong:
        return DECLARE
    if GRAB in legal and YIELD in legal:
        return YIELD
    return PASS if PASS in legal else legal[0]
