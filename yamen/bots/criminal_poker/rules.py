"""A rule-based Criminal Poker bot (``rules``): every decision from the seat's view alone.

The investigator's questions (who is the culprit? whom to call next?) and every vote are
answered from the exact posterior of :mod:`yamen.bots.criminal_poker.posterior`: every way the
cards this seat has not seen could lie counts once, and the game's own culprit rules judge each.

A suspect's own choices are about how it looks, so they use the *visible* weighing of its
shown cards (what the table can add up) and plain card counting:

- A seat that wants to look innocent (a citizen or the detective; a mastermind holding the
  weapon or likely to be the culprit) shows the card that raises its visible innocence most and
  never the weapon. Showing a card that lowers nothing still helps: one face-down card fewer is
  one place fewer for the weapon to hide.
- A seat that wants to look guilty (the antisocial, which wins when arrested; a mastermind that
  is probably innocent, since an innocent arrested means no culprit caught) shows the weapon if
  it has it, else the card that lowers its visible innocence most, and otherwise keeps cards
  face down (where the weapon could be).
- Drawing: a seat without the weapon draws when more of the unseen cards would raise its true
  innocence than would lower it (the weapon counts as lowering: it makes the drawer the
  culprit). A seat with the weapon is the culprit whatever it draws, so it draws when most
  unseen cards would raise its *visible* innocence once shown. The antisocial always draws:
  every card is a chance to look guilty.

Votes by role: a citizen or the detective votes for the likeliest culprit by its own
posterior, unless it thinks itself the culprit (it holds the weapon, or its own chance is at
least one half): then it votes with the table against the suspect that looks weakest (lowest
visible innocence, most face-down cards). The mastermind votes for the least likely culprit
(ties: the one that looks weakest), hoping an innocent is arrested. The antisocial wants the
arrest for itself and cannot vote for itself, so it votes for the seat that looks strongest,
lifting no rival above it.

The posterior often ties exactly (see :func:`likeliest`): ties go to the seat that looks
guiltiest to the table, then to the lowest seat, so the bot is deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from yamen.bots.criminal_poker.posterior import culprit_odds, deck_of, knowledge, weapon_of
from yamen.games.criminal_poker.actions import (
    ARREST_BASE,
    DRAW,
    KEEP_HIDDEN,
    NEXT_BASE,
    REVEAL_BASE,
    SKIP,
    VOTE_BASE,
)
from yamen.games.criminal_poker.cards import ANTISOCIAL, MASTERMIND, Card
from yamen.games.criminal_poker.culprit import assess
from yamen.games.criminal_poker.view import CriminalPokerView

HALF = Fraction(1, 2)


class CriminalPokerRulesBot:
    """Plays any seat of Criminal Poker by the rules above."""

    name = "rules"

    def choose(self, view: Mapping[str, Any], legal: list[int], rng: random.Random) -> int:
        return decide(cast(CriminalPokerView, view), legal)  # a seat's view, as view.py builds


def decide(view: CriminalPokerView, legal: list[int]) -> int:
    """This bot's choice among ``legal``, for the seat whose view this is."""
    if len(legal) == 1:
        return legal[0]
    phase = view["phase"]
    if phase in ("opening", "reveal"):
        return reveal(view, legal)
    if phase == "turn":
        return DRAW if wants_to_draw(view, legal) else SKIP
    if phase == "next":
        return call_next(view, legal)
    if phase == "arrest":
        return arrest(view, legal)
    if phase == "vote":
        return vote(view, legal)
    return legal[0]  # questioning: "end questioning" is the only action


# ---------------------------------------------------------------------- reading the view


def own_seat(view: CriminalPokerView) -> int:
    """The seat this bot plays: a bot is handed a seat's view, never a spectator's."""
    seat = view["seat"]
    assert seat is not None
    return seat


def mine(view: CriminalPokerView) -> tuple[list[str], list[str]]:
    """This seat's shown and face-down cards."""
    return list(view["shown"][own_seat(view)]), list(view["hidden"])


def weighed(cards: Sequence[str], deck: Mapping[str, Card]) -> tuple[int, int]:
    """(innocence, valid cards) of some cards, by the game's own weighing: higher is more
    innocent. The weapon weighs below everything."""
    judged = assess(deck[c] for c in cards)
    return (-1, -1) if judged.weapon else (judged.innocence, judged.valid)


def looks(view: CriminalPokerView, seat: int, deck: Mapping[str, Card]) -> tuple:
    """How innocent a seat looks to the table: its shown cards weighed, then fewer face-down
    cards (fewer places for the weapon). Higher looks more innocent."""
    return (*weighed(view["shown"][seat], deck), -view["hidden_counts"][seat])


def card_map(view: CriminalPokerView) -> dict[str, Card]:
    return {card.id: card for card in deck_of(view)}


def wants_to_look_guilty(view: CriminalPokerView) -> bool:
    """The antisocial always; a mastermind without the weapon when it is probably not the
    culprit (its chance below one half); everyone else wants to look innocent."""
    role = view["identity"]
    if role == ANTISOCIAL:
        return True
    if role != MASTERMIND or holds_weapon(view):
        return False
    return culprit_odds(knowledge(view))[own_seat(view)] < HALF


def holds_weapon(view: CriminalPokerView) -> bool:
    weapon = weapon_of(deck_of(view))
    shown = view["shown"][own_seat(view)]
    return weapon is not None and weapon in [*view.get("hidden", ()), *shown]


# ---------------------------------------------------------------------- a suspect's choices


def reveal(view: CriminalPokerView, legal: list[int]) -> int:
    """The opening reveal and the reveal after a draw (where ``keep hidden`` is offered)."""
    order = deck_of(view)
    deck = {card.id: card for card in order}
    rank = {card.id: i for i, card in enumerate(order)}  # among equals, the first listed
    weapon = weapon_of(order)
    shown, _ = mine(view)
    options = {order[a - REVEAL_BASE].id: a for a in legal if a >= REVEAL_BASE}
    can_keep = KEEP_HIDDEN in legal
    now = weighed(shown, deck)
    if wants_to_look_guilty(view):
        if weapon in options:
            return options[weapon]
        worst = min(options, key=lambda c: (weighed([*shown, c], deck), rank[c]))
        if can_keep and weighed([*shown, worst], deck) >= now:
            return KEEP_HIDDEN  # nothing lowers it: a face-down card may hide the weapon
        return options[worst]
    safe = [c for c in options if c != weapon]
    if not safe:
        return KEEP_HIDDEN if can_keep else legal[0]
    best = max(safe, key=lambda c: (weighed([*shown, c], deck), -rank[c]))
    if can_keep and weighed([*shown, best], deck) < now:
        return KEEP_HIDDEN  # every card would lower how innocent it looks
    return options[best]


def wants_to_draw(view: CriminalPokerView, legal: list[int]) -> bool:
    if DRAW not in legal:
        return False
    if view["identity"] == ANTISOCIAL:
        return True
    deck = card_map(view)
    shown, hidden = mine(view)
    unseen = knowledge(view).unseen
    armed = holds_weapon(view)
    cards = shown if armed else shown + hidden  # armed, only how it looks can change
    now = weighed(cards, deck)
    better = sum(1 for c in unseen if weighed([*cards, c], deck) > now)
    worse = sum(1 for c in unseen if weighed([*cards, c], deck) < now)
    if armed:
        return better > len(unseen) - better  # a card kept face down looks bad too
    return better > worse


# ---------------------------------------------------------------------- the investigator


def call_next(view: CriminalPokerView, legal: list[int]) -> int:
    """The likeliest culprit first: it must act before it has seen how the others play. A
    detective keeps its own turn for last, when it knows most."""
    me = view["seat"]
    seats = [a - NEXT_BASE for a in legal]
    return NEXT_BASE + likeliest(view, [s for s in seats if s != me] or seats)


def arrest(view: CriminalPokerView, legal: list[int]) -> int:
    return ARREST_BASE + likeliest(view, [a - ARREST_BASE for a in legal])


def likeliest(
    view: CriminalPokerView, seats: list[int], odds: Mapping[int, Fraction] | None = None
) -> int:
    """The seat most likely to be a culprit by this seat's exact posterior.

    Exact ties are common, not rare: once the investigator has seen the rest of the deck and
    the weapon is not there, each suspect's chance is just its share of the face-down cards,
    whatever it has shown. Suspects choose what to show, so among equals the one that looks
    least innocent is taken (see :func:`weakest`)."""
    odds = culprit_odds(knowledge(view)) if odds is None else odds
    deck = card_map(view)
    return max(seats, key=lambda s: (odds[s], *weakest(view, s, deck)))


def weakest(view: CriminalPokerView, seat: int, deck: Mapping[str, Card]) -> tuple:
    """A key that is larger the guiltier a seat looks to the table (shown cards weighed, then
    more face-down cards); then the lowest seat."""
    return (*(-x for x in looks(view, seat, deck)), -seat)


def vote(view: CriminalPokerView, legal: list[int]) -> int:
    me, role = own_seat(view), view["identity"]
    seats = [a - VOTE_BASE for a in legal]
    odds = culprit_odds(knowledge(view))
    deck = card_map(view)
    if role == ANTISOCIAL:  # the seat that looks most innocent: no rival lifted above it
        choice = max(seats, key=lambda s: (*looks(view, s, deck), -s))
    elif role == MASTERMIND:  # the least likely culprit
        choice = max(seats, key=lambda s: (-odds[s], *weakest(view, s, deck)))
    elif holds_weapon(view) or odds[me] >= HALF:  # with the table, against someone else
        choice = max(seats, key=lambda s: weakest(view, s, deck))
    else:
        choice = likeliest(view, seats, odds)
    return VOTE_BASE + choice
