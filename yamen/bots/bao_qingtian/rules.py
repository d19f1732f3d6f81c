"""A rule-based Bao Qing-tian bot (``rules``): simple, sensible choices from the seat's view.

- **Discards** keep the cards that may still give an office (the emperor and the judge above
  all; minus and divide, which can shrink a sentence one might receive, next) and throw away
  commoners first, then cards that can no longer do anything (an office already filled, a
  criminal card not named). Before the crime is named criminal cards go right after
  commoners: any of them may be the one hunted. Once it is named, a holder keeps it (the
  holders at the tenth miss win) — except the captor, which discards it at once, since nobody
  can be caught with a card the captor holds.
- **Naming** (the emperor): a criminal card it holds fewest copies of, so that it is not
  hunted itself.
- **Appointing**: the accused is never put on its own trial by someone else, but an appointer
  on trial takes the office itself. Otherwise a seat holding the office's card gets it (the
  cards decide, as at the table), else the appointer takes it.
- **Guessing** (the captor) uses :mod:`yamen.bots.bao_qingtian.captor`'s estimate of where the
  criminal card is. It guesses the likeliest place when it must (the last turn of a round
  without a guess), when the chance is at least one half, or when a guess about the turn just
  taken ("discarded", "drew") is at least as good as any "holds" guess and none was made this
  round (that guess cannot be made later). Otherwise it waits: ten guesses must last.
- **The sentence**: the judge picks a catalogue punishment and a count of 5, and every officer
  keeps the count near 5 — a punishment one can carry out — except a judge or officer who is
  itself on trial, which makes it as small as it can. The severity officer is lenient with
  itself and with a captor tried for failing, and heavy on a criminal caught.
- **Verdict**: the emperor pardons itself, and a count of 0; it executes the rest. The
  executor confirms.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from yamen.bots.bao_qingtian.captor import hit_chances, track
from yamen.games.bao_qingtian import actions as act
from yamen.games.bao_qingtian.cards import (
    COMMONER,
    CRIMINALS,
    EMPEROR,
    OFFICE_CARDS,
    parse_card_type,
)
from yamen.games.bao_qingtian.sentence import CATALOGUE, OFFICERS, RANGES, apply_step
from yamen.games.bao_qingtian.view import BaoQingtianView

TARGET = 5  # the count bystanders steer toward
GUESS_AT = 0.5
# how much a seat wants to keep an office card while its office is open
OFFICE_VALUE = {
    "judge": 7,
    "minus": 6,
    "divide": 6,
    "captor": 5,
    "executor": 4,
    "severity": 3,
    "plus": 2,
    "times": 2,
}
CARD_OFFICE = {card: office for office, cards in OFFICE_CARDS.items() for card in cards}


class BaoQingtianRulesBot:
    """Plays any seat of the Bao Qing-tian trial by the rules above."""

    name = "rules"

    def choose(self, view: Mapping[str, Any], legal: list[int], rng: random.Random) -> int:
        return decide(cast(BaoQingtianView, view), legal, rng)  # a seat's view, as view.py builds


def decide(view: BaoQingtianView, legal: list[int], rng: random.Random) -> int:
    """This bot's choice among ``legal``, for the seat whose view this is."""
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase in ("draw", "capture"):
        return discard(view, legal)
    if phase == "name":
        return name_criminal(view, legal, rng)
    if phase == "appoint":
        return appoint(view, legal)
    if phase == "guess":
        return guess(view, legal)
    if phase == "punish":
        return punish(view, rng)
    if phase in OFFICERS:
        return officer(view, phase)
    if phase == "severity":
        return severity(view)
    if phase == "verdict":
        return verdict(view)
    return legal[0]


def on_trial(view: BaoQingtianView) -> bool:
    return view["accused"] is not None and view["accused"] == view["seat"]


# ---------------------------------------------------------------------- cards


def card_value(card: int, view: BaoQingtianView) -> int:
    """How much this seat wants to keep a card; the lowest is discarded."""
    criminal = view["criminal"]
    if card in CRIMINALS:
        if criminal is None:
            return 1  # one of the four will be hunted
        if card != parse_card_type(criminal):
            return 0
        captor = view["offices"].get("captor")
        return -1 if captor == view["seat"] else 9
    if card == EMPEROR:
        return 0 if view["emperor"] is not None else 8
    office = CARD_OFFICE.get(card)
    if office is None or office in view["offices"]:
        return 0  # a commoner, or an office already filled
    return OFFICE_VALUE[office]


def discard(view: BaoQingtianView, legal: list[int]) -> int:
    """The card this seat wants least; among equals commoners first, then type order."""

    def keep(action: int) -> tuple[int, int, int]:
        card = action - act.DISCARD
        return card_value(card, view), card != COMMONER, card

    return min(legal, key=keep)


def name_criminal(view: BaoQingtianView, legal: list[int], rng: random.Random) -> int:
    held = [parse_card_type(code) for code in view["hand"]]
    fewest = min(held.count(CRIMINALS[a - act.NAME]) for a in legal)
    return rng.choice([a for a in legal if held.count(CRIMINALS[a - act.NAME]) == fewest])


def appoint(view: BaoQingtianView, legal: list[int]) -> int:
    me = view["seat"]
    seats = [a - act.APPOINT for a in legal]
    info = view["appointing"]
    assert info is not None  # shown while an office is being given
    accused = view["accused"]
    if accused == me and me in seats:
        return act.APPOINT + me
    allowed = [s for s in seats if s != accused] or seats
    holders = [s for s in info["holders"] if s in allowed]
    if info["office"] == "captor" and me in holders and len(holders) > 1:
        holders.remove(me)  # Wang and Ma both held: the judge would rather not hunt too
    if holders:
        return act.APPOINT + holders[0]
    return act.APPOINT + (me if me in allowed else allowed[0])


# ---------------------------------------------------------------------- the captor


def guess(view: BaoQingtianView, legal: list[int]) -> int:
    chances = hit_chances(view, track(view))
    options = {}
    for action in legal:
        if action != act.WAIT:
            form, seat = act.guess_parts(action)
            options[action] = chances.get((form, seat), 0.0)
    best = max(options, key=lambda a: (options[a], a >= act.GUESS_HOLDS, -a))
    if act.WAIT not in legal or options[best] >= GUESS_AT:
        return best
    holds = max((p for a, p in options.items() if a >= act.GUESS_HOLDS), default=0.0)
    fleeting = best < act.GUESS_HOLDS and 0 < options[best] >= holds
    capture = view["capture"]
    assert capture is not None  # shown from the capture's first round on
    if fleeting and not capture["guessed_this_round"]:
        return best
    return act.WAIT


# ---------------------------------------------------------------------- the sentence


def punish(view: BaoQingtianView, rng: random.Random) -> int:
    count = RANGES["judge"].start if on_trial(view) else TARGET
    return act.punish(rng.randrange(len(CATALOGUE)), count)


def officer(view: BaoQingtianView, phase: str) -> int:
    count = view["count"]
    assert count is not None  # the judge set it
    numbers = RANGES[phase]
    if on_trial(view):
        best = min(numbers, key=lambda n: (apply_step(count, phase, n), n))
    else:
        unchanged = {"plus": 0, "minus": 0, "times": 1, "divide": 1}[phase]
        best = min(
            numbers,
            key=lambda n: (abs(apply_step(count, phase, n) - TARGET), n != unchanged, n),
        )
    return act.number(phase, best)


def severity(view: BaoQingtianView) -> int:
    lenient = on_trial(view) or view["why"] == "escaped"
    return act.LIGHT if lenient else act.HEAVY


def verdict(view: BaoQingtianView) -> int:
    return act.PARDON if on_trial(view) or view["count"] == 0 else act.EXECUTE
