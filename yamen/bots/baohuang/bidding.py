"""Decisions before play, valued by playouts: grab (搶莊), declare (明保 / 明獨) or rebel (反乱).

Each choice is turned into the view the seat would have at the first lead had it made that
choice (a *hypothetical view*: the same hand and public facts, with the emperor, the called
card, the public roles and declarations as the choice makes them). Deals sampled from that
view (:mod:`yamen.bots.baohuang.determinize`) are played out by the playout policy, and the
mean score for the seat is the choice's value. Only the view is read (its ``options`` too: the
sampled states play by the room's house rules).

What is not simulated is left out on purpose: after a grab nobody else declares (the rules
say so); after a declaration the other answers of the same window are assumed to be passes
(in shandong nobody else can say yes anyway). A grab is measured against a fixed bar, the
value of not grabbing being unknown without simulating the call and yield that follow.
"""

from __future__ import annotations

import math
import random
import time

from yamen.bots.baohuang.determinize import ViewSampler, build_state
from yamen.bots.baohuang.playout import Playouts
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.view import SeatView

MIN_SAMPLES = 20  # playouts (or pairs) before an estimate may stop early
SURE = 3.0  # standard errors between the mean and the bar to stop early


def play_view(view: SeatView, roles: dict[str, str], declared: list[int]) -> SeatView:
    """The seat's view at the first lead of the deal, with these public ``roles`` and
    ``declared`` seats: nothing played yet, the emperor to lead."""
    hypothetical = view.copy()
    hypothetical.update(
        {
            "phase": Phase.PLAY.value,
            "table": None,
            "trick": [],
            "played": [],
            "out": [],
            "declared": declared,
            "answered": [],
            "roles": roles,
        }
    )
    emperor = view["emperor"]
    hypothetical["pending"] = [] if emperor is None else [emperor]
    return hypothetical


def grab_view(view: SeatView) -> SeatView:
    """The seat has grabbed: it takes the marked big joker and plays alone."""
    me, holder = view["seat"], view["marked_joker"]
    hand, sizes = list(view["hand"]), list(view["hand_sizes"])
    if holder is not None and holder != me:
        hand.append("BJ*")
        sizes[holder] -= 1
        sizes[me] += 1
    hypothetical = play_view(view, roles={str(me): "emperor"}, declared=[])
    hypothetical.update(
        {
            "emperor": me,
            "pending": [me],
            "grabbed": True,
            "called": None,
            "hand": hand,
            "hand_sizes": sizes,
            "marked_joker": me,
            "role": "solo emperor",
        }
    )
    return hypothetical


def declared_view(view: SeatView, answer: str) -> SeatView:
    """The declaration window closed with this seat's ``answer`` (``pass``, ``declare`` or
    ``rebel``) and every other seat passing."""
    me, emperor, role = view["seat"], view["emperor"], view["role"]
    roles = dict(view["roles"])
    declared: list[int] = []
    if answer == "declare":
        assert role is not None, "a seat asked to declare knows its role"
        declared = [me]
        roles[str(me)] = "solo emperor" if me == emperor else role
    elif answer == "rebel":
        roles[str(me)] = "commoner"
    return play_view(view, roles=dict(sorted(roles.items())), declared=declared)


class Estimate:
    """Mean and standard error of playout scores (or of paired differences of scores)."""

    __slots__ = ("n", "squares", "total")

    def __init__(self) -> None:
        self.n, self.total, self.squares = 0, 0.0, 0.0

    def add(self, score: float) -> None:
        self.n += 1
        self.total += score
        self.squares += score * score

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    def error(self) -> float:
        """The standard error of the mean (infinite before two samples)."""
        if self.n < 2:
            return math.inf
        return math.sqrt(max(self.squares / self.n - self.mean**2, 0.0) / (self.n - 1))

    def lower(self, z: float) -> float:
        """The mean less ``z`` standard errors (minus infinity before two samples)."""
        return self.mean - z * self.error() if self.n >= 2 else -math.inf

    def upper(self, z: float) -> float:
        """The mean plus ``z`` standard errors (infinity before two samples)."""
        return self.mean + z * self.error() if self.n >= 2 else math.inf

    def settled(self, bar: float) -> bool:
        """Whether enough samples put the mean clearly on one side of ``bar``."""
        return self.n >= MIN_SAMPLES and abs(self.mean - bar) > SURE * self.error()


def value(
    view: SeatView,
    rng: random.Random,
    playouts: int,
    deadline: float | None,
    bar: float | None = None,
) -> Estimate:
    """The seat's mean playout score over deals sampled from ``view``; with a ``bar``, it
    stops as soon as the mean is clearly (``SURE`` standard errors) above or below it."""
    me = view["seat"]
    estimate = Estimate()
    sampler = ViewSampler(view)
    while estimate.n < playouts:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        if bar is not None and estimate.settled(bar):
            break
        state = build_state(view, sampler.deal(rng), fresh=True)
        estimate.add(float(Playouts(state).scores()[me]))
    return estimate


def paired_gain(
    base: SeatView,
    other: SeatView,
    rng: random.Random,
    playouts: int,
    deadline: float | None,
) -> Estimate:
    """``other``'s score minus ``base``'s, on the same sampled deals."""
    me = base["seat"]
    gain = Estimate()
    done = 0
    sampler = ViewSampler(base)
    while done + 2 <= playouts and not gain.settled(0.0):
        if deadline is not None and time.perf_counter() >= deadline:
            break
        deal = sampler.deal(rng)
        scores = []
        for view in (base, other):
            state = build_state(view, deal, fresh=True)
            scores.append(float(Playouts(state).scores()[me]))
        gain.add(scores[1] - scores[0])
        done += 2
    return gain
