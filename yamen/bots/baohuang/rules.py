"""A rule-based Baohuang bot (registered as ``rules``): every decision of both variants.

It reads only its seat's view and the legal action ids (decoded with the pure
``yamen.games.baohuang.sets.decode``), never a state. Play is in :mod:`play`; this
module makes the decisions before play, all from one number, :func:`hand_strength`.

The thresholds come from counterfactual self-play (rules bots on every seat, each decision
forced both ways on the same deals, 600-1600 deals per decision):

- Being emperor pays at almost any strength (the emperor leads, the partner is hidden), so the
  marked joker's holder calls and the japanese holder keeps unless the hand is hopeless.
- Playing one against four (grab 搶莊, solo 獨保) pays with good hands, since the lone emperor
  holds the marked big joker and leads; a grab risks 40 points, so only very strong hands grab.
- Declaring (明保, 明獨) or rebelling (反乱) doubles the stakes and unmasks the seat: it paid
  only for the strongest few percent of hands.
- Shandong calls the strongest card held three times: the partner then holds a strong card and
  has no reason to play (and unmask) it early.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from yamen.bots.baohuang.hand import ViewPerspective
from yamen.bots.baohuang.play import choose_play
from yamen.games.baohuang.actions import (
    CALL_BASE,
    DECLARE,
    GRAB,
    HAND_ON,
    KEEP,
    PASS,
    REBEL,
    YIELD,
)
from yamen.games.baohuang.kinds import BIG_SLOT, KIND_TEXT, SJ_MARKED, SLOT_OF, SMALL_SLOT
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.variants import Japanese
from yamen.games.baohuang.view import SeatView

# hand_strength(): weights of a logistic fit of "finishes first playing alone" on self-play.
BIG_WEIGHT, SMALL_WEIGHT, TWO_WEIGHT, ACE_WEIGHT, KING_WEIGHT = 1.0, 0.75, 0.35, 0.12, 0.08
LOW_RANK_WEIGHT = 0.6  # per rank from the lowest to the queen held at all: a set to shed

# Thresholds on hand_strength(), per variant (hands of 43 or 34 cards score differently).
Limits = dict[str, float]
SHANDONG: Limits = {
    "call": -5.0,  # else yield the marked joker: only the weakest hand or two in a hundred
    "solo": -1.5,  # call a card held four times: one against four
    "grab": 0.25,  # counted with the marked joker; about the top 3 % of hands
    "declare solo": 0.0,
    "declare": -1.2,  # the royalist's 明保
}
JAPANESE: Limits = {
    "keep": -3.0,  # else hand the emperor card on
    "solo": 0.0,  # keep it while holding the guard card too
    "declare solo": 1.0,
    "rebel": 1.0,
}
MARKED_SMALL = KIND_TEXT[SJ_MARKED]  # "SJ*"


class BaohuangRulesBot:
    """Sensible, fast, deterministic play: the rng is not used."""

    name = "rules"

    def choose(self, view: Mapping[str, Any], legal: list[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        seen = cast(SeatView, view)  # a seat's view, as view.py builds it
        action = decide(ViewPerspective(seen), legal)
        return action if action in legal else legal[0]


def decide(k: ViewPerspective, legal: list[int]) -> int:
    if len(legal) == 1:
        return legal[0]  # no choice (a house rule may leave only one: keep, yield, pass)
    phase = k.view["phase"]
    if phase == Phase.PLAY:
        return choose_play(k, legal)
    strength = hand_strength(k)
    limits = JAPANESE if isinstance(k.variant, Japanese) else SHANDONG  # presets: their family's
    if phase == Phase.GRAB:
        return GRAB if strength + BIG_WEIGHT >= limits["grab"] else PASS  # it gets the BJ*
    if phase in (Phase.CALL, Phase.FORCE):
        return choose_call(k, legal, strength)
    if phase == Phase.EMPEROR_CARD:
        if KEEP not in legal:  # guard_by_fourth: kept by calling a card (or not at all)
            return choose_guard_call(k, legal, strength)
        needed = limits["solo"] if MARKED_SMALL in k.view["hand"] else limits["keep"]
        return KEEP if strength >= needed else HAND_ON
    if phase == Phase.DECLARE:
        return choose_declaration(k, legal, strength, limits)
    return legal[0]


def hand_strength(k: ViewPerspective) -> float:
    """How likely the hand is to go out first, as a log-odds-like score: jokers, 2s, aces and
    kings win the lead; every low rank held is a set that must be shed somehow."""
    c = k.counts
    winners = (
        BIG_WEIGHT * c[BIG_SLOT]
        + SMALL_WEIGHT * c[SMALL_SLOT]
        + TWO_WEIGHT * c[12]
        + ACE_WEIGHT * c[11]
        + KING_WEIGHT * c[10]
    )
    return winners - LOW_RANK_WEIGHT * sum(1 for r in range(k.variant.lowest_strength, 10) if c[r])


def choose_call(k: ViewPerspective, legal: list[int], strength: float) -> int:
    """Shandong: grab, call (with a partner, or solo on four copies) or yield; when forced,
    the call only."""
    if GRAB in legal and strength >= SHANDONG["grab"]:
        return GRAB
    calls = [a for a in legal if a >= CALL_BASE]
    solo = [a for a in calls if copies(k, a - CALL_BASE) == 4]
    partnered = [a for a in calls if a not in solo]
    if solo and strength >= SHANDONG["solo"]:
        return max(solo, key=call_rank)
    if partnered and (strength >= SHANDONG["call"] or YIELD not in legal):
        return max(partnered, key=call_rank)
    if YIELD in legal:
        return YIELD
    return max(calls, key=call_rank)


def choose_guard_call(k: ViewPerspective, legal: list[int], strength: float) -> int:
    """Japanese, guard_by_fourth: keep the emperor card by calling the strongest card held
    three times (four, solo, only as the seed's solo threshold allows), else hand it on."""
    calls = [a for a in legal if a >= CALL_BASE]
    if not calls or (HAND_ON in legal and strength < JAPANESE["keep"]):
        return HAND_ON if HAND_ON in legal else legal[0]
    solo = [a for a in calls if copies(k, a - CALL_BASE) == 4]
    partnered = [a for a in calls if a not in solo]
    if partnered and (strength < JAPANESE["solo"] or not solo):
        return max(partnered, key=call_rank)
    return max(solo or calls, key=call_rank)


def copies(k: ViewPerspective, kind: int) -> int:
    """Identical copies held: same rank and suit, jokers by colour (as the engine counts)."""
    if kind >= 52:
        return k.counts[SLOT_OF[kind]]
    return k.view["hand"].count(KIND_TEXT[kind])


def call_rank(action: int) -> int:
    """Stronger cards first: big joker, small joker, then 2s down to 3s."""
    return SLOT_OF[action - CALL_BASE]


def choose_declaration(
    k: ViewPerspective, legal: list[int], strength: float, limits: Limits
) -> int:
    """Everyone is asked; only a solo emperor, the shandong royalist or a japanese commoner
    has a real choice."""
    if DECLARE in legal:
        needed = limits["declare solo"] if k.role == "solo emperor" else limits["declare"]
        return DECLARE if strength >= needed else PASS
    if REBEL in legal:
        return REBEL if strength >= limits["rebel"] else PASS
    return PASS
