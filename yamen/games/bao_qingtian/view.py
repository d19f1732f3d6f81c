"""What each seat sees of a trial (docs/rules/bao_qingtian.md, What each seat sees).

A seat sees its own hand and its own turns (what it discarded and drew); of the others only that
they took a turn, and the sizes of the pile and the discards. The first seat, the emperor, the
named criminal, every office and how it was filled, an appointment being made (with the holders
of that card), the guesses and their outcomes, the seat tried and why, the sentence and the
verdict are public. A spectator (``seat`` None) sees no hand at all.

The view's shape is declared below (:class:`BaoQingtianView`), so a reader that names a key the
view does not have (a bot, the text renderer) is a type error, not a ``KeyError`` in play. The
JSON is the dict itself: the declarations cost nothing at run time. What a view reads of the
state is declared too (:class:`Viewed`), so that this module need not import the state machine
(rules.py), which imports it.
"""

from __future__ import annotations

from typing import ClassVar, NotRequired, Protocol, TypedDict

from yamen.games.bao_qingtian.capture import MAX_GUESSES
from yamen.games.bao_qingtian.cards import CODE, hand_codes
from yamen.games.bao_qingtian.offices import Appointment
from yamen.games.bao_qingtian.phases import APPOINT, DRAW, TURNS, Phase


class GuessRecord(TypedDict):
    """One of the captor's guesses: ``form`` is holds, discarded or drew."""

    round: int
    seat: int
    form: str
    hit: bool


class SentenceStep(TypedDict):
    """One step of the sentence: the judge's count, or an officer's number and the count
    after it."""

    step: str  # "judge" or the officer's plain word
    seat: int
    number: int
    count: int


class AppointingView(TypedDict):
    """An office being given: who gives it, the holders of its card, the seats allowed
    (None: any seat)."""

    office: str
    by: int
    holders: list[int]
    choices: list[int] | None


class CaptureView(TypedDict):
    """The hunt for the criminal card, from its first round on."""

    captor: int
    round: int
    turns_this_round: int
    guessed_this_round: bool
    guesses_left: int
    guesses: list[GuessRecord]


class OwnTurn(TypedDict):
    """A turn of the seat's own: the card codes it discarded and drew."""

    discarded: str
    drew: str


class BaoQingtianView(TypedDict):
    """What one seat (or a spectator, ``seat`` None) sees; the keys marked ``NotRequired``
    are a seat's own."""

    game: str
    seat: int | None
    players: int
    cards_each: int
    phase: Phase
    pending: list[int]
    first: int
    turn: int | None
    seeking: str | None  # what draw turns look for: "emperor" or an office
    pile: int
    discards: int
    refills: int
    turns: int
    last_turn: int | None  # the seat that took the last turn
    emperor: int | None
    criminal: str | None  # the named criminal card's code
    offices: dict[str, int]
    how: dict[str, str]  # office -> holder, appointed or drawn
    appointing: AppointingView | None
    capture: CaptureView | None
    accused: int | None
    why: str | None  # "caught" or "escaped"
    punishment: str | None
    sentence: list[SentenceStep]
    count: int | None
    severity: str | None
    verdict: str | None
    hand: NotRequired[list[str]]
    my_turns: NotRequired[list[OwnTurn]]
    legal: NotRequired[list[str]]


class Viewed(Protocol):
    """What a view reads of the state (rules.BaoQingtianState): the hands and each seat's own
    turns, the public record of the trial, and the protocol's questions."""

    game: ClassVar[str]
    num_seats: int
    cards_each: int
    phase: Phase
    hands: list[list[int]]
    history: list[list[tuple[int, int]]]  # each seat's own turns: (discarded, drew)
    first: int
    turn: int
    turns: int
    last_turn: tuple[int, int, int] | None
    seeking: str | None
    pile: list[int]
    discards: list[int]
    refills: int
    emperor: int | None
    criminal: int | None
    offices: dict[str, int]
    how: dict[str, str]
    appointing: Appointment | None
    round: int
    round_turns: int
    guessed_in_round: bool
    guesses: list[GuessRecord]
    accused: int | None
    reason: str | None
    punishment: str | None
    steps: list[SentenceStep]
    count: int | None
    severity: str | None
    verdict: str | None

    def pending(self) -> tuple[int, ...]: ...
    def legal(self, seat: int) -> list[int]: ...
    def action_text(self, action: int) -> str: ...


def seat_view(state: Viewed, seat: int | None) -> BaoQingtianView:
    phase = state.phase
    pending = state.pending()
    view: BaoQingtianView = {
        "game": state.game,
        "seat": seat,
        "players": state.num_seats,
        "cards_each": state.cards_each,
        "phase": phase,
        "pending": list(pending),
        "first": state.first,
        "turn": state.turn if phase in TURNS else None,
        "seeking": state.seeking if phase == DRAW else None,
        "pile": len(state.pile),
        "discards": len(state.discards),
        "refills": state.refills,
        "turns": state.turns,
        "last_turn": None if state.last_turn is None else state.last_turn[0],
        "emperor": state.emperor,
        "criminal": None if state.criminal is None else CODE[state.criminal],
        "offices": dict(state.offices),
        "how": dict(state.how),
        "appointing": _appointing(state),
        "capture": _capture(state),
        "accused": state.accused,
        "why": state.reason,
        "punishment": state.punishment,
        "sentence": [s.copy() for s in state.steps],
        "count": state.count,
        "severity": state.severity,
        "verdict": state.verdict,
    }
    if seat is not None:
        view["hand"] = hand_codes(state.hands[seat])
        view["my_turns"] = [
            {"discarded": CODE[out], "drew": CODE[got]} for out, got in state.history[seat]
        ]
        if seat in pending:
            view["legal"] = [state.action_text(a) for a in state.legal(seat)]
    return view


def _appointing(state: Viewed) -> AppointingView | None:
    appointing = state.appointing
    if state.phase != APPOINT or appointing is None:
        return None
    choices = None if appointing.choices is None else list(appointing.choices)
    return {
        "office": appointing.office,
        "by": appointing.by,
        "holders": list(appointing.holders),
        "choices": choices,
    }


def _capture(state: Viewed) -> CaptureView | None:
    if state.round == 0:
        return None
    return {
        "captor": state.offices["captor"],
        "round": state.round,
        "turns_this_round": state.round_turns,
        "guessed_this_round": state.guessed_in_round,
        "guesses_left": MAX_GUESSES - len(state.guesses),
        "guesses": [g.copy() for g in state.guesses],
    }
