"""Search bot for Baohuang: determinized (PIMC-style) Monte Carlo search over sampled deals.

What it is: flat Monte Carlo search on determinizations, one level deep. It sees only its
seat's view and the legal ids, and builds the states it searches itself: each sample draws
the unseen cards consistently with the view (yamen/bots/baohuang/determinize.py) and plays
the deal out with the rules bot's own play for all five seats (yamen/bots/baohuang/play.py,
reading the sampled state directly: yamen/bots/baohuang/playout.py). The reward is this
deal's score for the seat.

- **Play.** The playout policy's own choice (what the rules bot would play) is the default.
  A few other candidates (:func:`candidates`: per shape of set the cheapest, every whole
  rank when leading, pass / yield / claim) are compared with it in rounds: each round
  samples one deal and plays every candidate out on it, so the comparison is paired and
  the luck of the deal cancels. A candidate replaces the default only when its mean gain is
  ``margin`` standard errors above zero; candidates that cannot gain are dropped after a
  few rounds, and the search stops when none is left.
- **Before play** (yamen/bots/baohuang/bidding.py): a grab is valued by playing out the grab
  game it starts and taken when worth more than ``grab_bar`` points; declaring (明保 / 明獨)
  or rebelling is compared with passing on the same deals. Everything else before play
  (call or yield, the emperor card) is decided by the ``rules`` bot, or by
  :func:`fallback_choice` when none is registered.

Why one level and not a tree: with a few hundred playouts per decision the samples are best
spent on the root; and the playouts' opponents are the rules bot's exact play, so the
search improves on that play where the sampled deals say so (against other opponents its
playouts are only a model). A new deal per round averages over the hidden cards instead of
trusting one guess.

Budget: at most ``seconds`` (default 0.9 s of wall time) and ``iterations`` playouts per
decision (``seconds=None``: playouts only, reproducible); the clock is checked before every
playout. Decisions with one sensible action are answered at once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, cast

from yamen.bots.baohuang import bidding
from yamen.bots.baohuang.determinize import ViewSampler, counts_of
from yamen.bots.baohuang.playout import choose as playout_choice
from yamen.games.baohuang.actions import (
    CALL_BASE,
    CLAIM,
    DECLARE,
    GRAB,
    KEEP,
    PASS,
    YIELD,
)
from yamen.games.baohuang.kinds import BIG_SLOT, NUM_SLOTS, SLOT_OF, SMALL_SLOT
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.sets import PLAY_BASE, decoded
from yamen.games.baohuang.view import SeatView

if TYPE_CHECKING:
    from yamen.bots import Bot

MAX_CANDIDATES = 12
MIN_ROUNDS = 6  # rounds before a candidate can be dropped
DROP_Z = 2.0  # dropped when even this many standard errors above its mean it does not gain
Key = tuple[str | int, ...]  # candidates(): a kind of set, with what tells it apart


class BaohuangSearchBot:
    """Flat Monte Carlo search on sampled deals (see the module docstring)."""

    name = "search"

    def __init__(
        self,
        iterations: int = 5000,
        seconds: float | None = 0.9,
        margin: float = 2.0,
        bidding: bool = True,
        grab_bar: float = 4.0,
    ):
        self.iterations = iterations  # playouts per decision, at most
        self.seconds = seconds  # None: stop on iterations only (reproducible runs)
        self.margin = margin  # standard errors by which a candidate must beat the policy
        self.bidding = bidding  # value grabs and declarations by playouts
        self.grab_bar = grab_bar  # points a grab must be worth (not grabbing is worth some)
        self._fallback: Bot | Literal[False] | None = None  # False: no rules bot
        self.last_iterations = 0  # playouts in the latest search, for measurements

    def choose(self, view: Mapping[str, Any], legal: list[int], rng: random.Random) -> int:
        self.last_iterations = 0
        if len(legal) == 1:
            return legal[0]
        seen = cast(SeatView, view)  # a seat's view, as view.py builds it
        if seen["phase"] != Phase.PLAY:
            return self.bid(seen, legal, rng)
        options = candidates(seen, legal)
        if len(options) == 1:
            return options[0]
        return self.search(seen, options, rng)

    def search(self, view: SeatView, options: list[int], rng: random.Random) -> int:
        """Rounds of paired playouts: each round samples one deal, and every candidate still
        in the running is played out on it (the playout policy is deterministic), so that
        differences between candidates are not drowned by the luck of the deal. The playout
        policy's own choice (the default) is kept unless another candidate beats it by more than
        ``margin`` standard errors of the paired difference; candidates clearly worse than
        the default after a few rounds are dropped, leaving the budget to the others."""
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        me = view["seat"]
        sampler = ViewSampler(view)
        playouts = sampler.playouts(rng)
        assert playouts.state is not None, "a view's first sample is a state"
        default = playout_choice(playouts.state, me)
        if default not in options:
            options = [default, *options]
        stats = {a: bidding.Estimate() for a in options}  # gains over the default
        alive = [default] + [a for a in options if a != default]
        done = rounds = 0
        while done + len(alive) <= self.iterations:
            if rounds:
                playouts = sampler.playouts(rng)
            rewards = []
            for action in alive:
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                rewards.append(float(playouts.scores(action)[me]))
            if len(rewards) < len(alive):
                break  # out of time: an unfinished round is not paired, so it is dropped
            done += len(rewards)
            rounds += 1
            for action, reward in zip(alive, rewards, strict=True):
                stats[action].add(reward - rewards[0])
            if rounds >= MIN_ROUNDS:
                alive = [a for a in alive if a == default or stats[a].upper(DROP_Z) > 0]
                if len(alive) == 1:
                    break  # nothing left that could beat the default
        self.last_iterations = done
        best, best_score = default, 0.0
        for action in alive[1:]:
            score = stats[action].lower(self.margin)
            if score > best_score:
                best, best_score = action, score
        return best

    def bid(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """Before play: grab when the playouts of a grab game clear ``grab_bar`` points,
        declare or rebel when the playouts say it gains (``margin`` standard errors), and
        otherwise decide as the fallback does (see yamen/bots/baohuang/bidding.py)."""
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        if self.bidding and GRAB in legal:
            grab_view = bidding.grab_view(view)
            grab = bidding.value(grab_view, rng, self.iterations, deadline, self.grab_bar)
            self.last_iterations = grab.n
            if grab.lower(self.margin) > self.grab_bar:
                return GRAB
        if self.bidding and view["phase"] == Phase.DECLARE and len(legal) == 2:
            answer = "declare" if DECLARE in legal else "rebel"
            gain = bidding.paired_gain(
                bidding.declared_view(view, "pass"),
                bidding.declared_view(view, answer),
                rng,
                self.iterations,
                deadline,
            )
            self.last_iterations = 2 * gain.n
            return legal[1] if gain.lower(self.margin) > 0 else PASS
        return self.fallback(view, legal, rng)

    def fallback(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """Decisions before play: the ``rules`` bot if registered, else simple rules."""
        if self._fallback is None:
            self._fallback = _rules_bot() or False
        if self._fallback:
            return self._fallback.choose(view, legal, rng)
        return fallback_choice(view, legal)


def _rules_bot() -> Bot | None:
    from yamen.bots import make_bot
    from yamen.errors import OptionsError

    try:
        return make_bot("baohuang", "rules")
    except (OptionsError, ImportError, AttributeError):
        return None


def own_slots(view: SeatView) -> list[int]:
    slots = [0] * NUM_SLOTS
    for k, n in enumerate(counts_of(view["hand"])):
        slots[SLOT_OF[k]] += n
    return slots


def candidates(view: SeatView, legal: list[int]) -> list[int]:
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
    chosen: dict[Key, int] = {}  # key -> action; first seen wins
    for a in sorted(plays, key=lambda a: _cost(decoded(a), slots, size)):
        r, n, x, y, t = decoded(a)
        keys: list[Key] = [("shape", n, x, y, t > 0)]
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


def fallback_choice(view: SeatView, legal: list[int]) -> int:
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
