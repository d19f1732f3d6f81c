"""Before the first lead: choosing the emperor, then the declarations.

    shandong: [grab window] -> call / yield -> [forcing | void deal] -> declarations
    japanese: emperor card kept or handed on -> declarations
    japanese, guard_by_fourth: emperor card taken by a call, or handed on -> [void deal] ->
        declarations

Which route a deal takes is its variant's first phase. "Clockwise" in the shandong seed
(yielding the marked joker, forcing, the grab priority) is seat i, i-1, i-2 ...; the japanese
emperor card is handed on to i+1. Windows (the grab window, the declarations) ask several seats
at once and keep the answers sealed until all are in, so that being asked reveals nothing.

The house rules before play are the variant's (variants.variant_for): whether the holder may
pass the marked joker on though it could take the seat (``cede``), who may declare, and
whether the japanese emperor names its guard by a called card (``guard_by_fourth``).

These are the state machine's phases before play (rules.BaohuangState dispatches to
:func:`legal` and :func:`act`). They change the state they are given through its public
fields and moves (fields.py), and :func:`act` answers how the opening ended, if it did: the
state machine then begins play or deals again.
"""

from __future__ import annotations

import enum

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
from yamen.games.baohuang.fields import Fields
from yamen.games.baohuang.kinds import BJ, BJ_MARKED, KIND_TEXT, SJ, SJ_MARKED, SLOT_OF
from yamen.games.baohuang.phases import Phase

CALLABLE = list(range(52)) + [SJ, BJ]  # a small or big joker may be called too
ROUND = 5  # the marked big joker handed on this many times is back with its first holder


class End(enum.Enum):
    """How the opening ended (:func:`act`'s answer; ``None`` while it goes on)."""

    PLAY = "play"  # there is an emperor: play begins
    VOID = "void deal"  # 黃莊: nobody takes the seat, the cards are dealt again


def begin(state: Fields) -> None:
    """Open the deal's first phase, once the cards are dealt (and any tribute paid)."""
    first = state.variant.first_phase(state.options)
    if first is Phase.GRAB:
        state.open_window(first, [s for s in range(5) if s != state.holder])
    else:
        state.phase = first
        state.set_turn(state.holder)


def legal(state: Fields, seat: int) -> list[int]:
    """A pending seat's actions in a phase before play."""
    phase = state.phase
    if phase is Phase.GRAB:
        return [PASS, GRAB]
    if phase is Phase.DECLARE:
        emperor = state.emperor
        assert emperor is not None, "the declaration window opens once there is an emperor"
        return state.variant.declare_answers(seat, emperor, state.partner, state.solo)
    if phase is Phase.CALL:
        acts = calls(state, seat)
        if state.variant.may_cede(bool(acts)):
            acts.append(YIELD)
        if state.options["grabbing"]:
            acts.append(GRAB)
        return acts
    if phase is Phase.FORCE:
        return [CALL_BASE + k for k in CALLABLE if copies(state, seat, k) == 3]
    # the emperor card: kept (guard_by_fourth: by a call), or handed on; back at the first
    # holder after a full round, it must be kept (a holder with no call has voided the deal)
    takes = calls(state, seat) if state.variant.calls_guard else [KEEP]
    if state.handed_on == ROUND or not state.variant.may_cede(bool(takes)):
        return takes
    return [*takes, HAND_ON]


def calls(state: Fields, seat: int) -> list[int]:
    """The calls open to a seat: a card it holds 3 or 4 identical copies of."""
    return [CALL_BASE + k for k in CALLABLE if copies(state, seat, k) >= 3]


def act(state: Fields, seat: int, action: int) -> End | None:
    """Carry out a legal action in a phase before play; how the opening ended, if it did."""
    phase = state.phase
    if phase is Phase.GRAB or phase is Phase.DECLARE:
        return _answer(state, seat, action)
    if phase is Phase.CALL:
        return _calling(state, seat, action)
    if phase is Phase.FORCE:
        _call(state, seat, action - CALL_BASE)
        return None
    return _emperor_card(state, seat, action)


def copies(state: Fields, seat: int, kind: int) -> int:
    """Identical copies held: same rank and suit; jokers by colour, marked ones included."""
    if kind < 52:
        return state.hands[seat][kind]
    return state.slots[seat][SLOT_OF[kind]]


def _answer(state: Fields, seat: int, action: int) -> End | None:
    if not state.seal_answer(seat, action):
        return None
    if state.phase is Phase.GRAB:
        return _close_grab_window(state)
    return _close_declarations(state)


def _close_grab_window(state: Fields) -> End | None:
    """搶莊: the earliest grabber clockwise from the holder takes the marked joker."""
    h = state.holder
    order = [(h - i) % 5 for i in range(1, 5)]  # clockwise from the holder
    grabber = next((s for s in order if state.answers[s] == GRAB), None)
    state.emit("grab window closed", grabbed_by=grabber)
    if grabber is None:
        state.phase = Phase.CALL
        state.set_turn(h)
        return None
    return _grab(state, grabber)


def _grab(state: Fields, seat: int) -> End:
    if seat != state.holder:
        state.move(BJ_MARKED, state.holder, seat)
    state.emperor, state.grabbed = seat, True
    state.public_roles[seat] = "emperor"
    state.emit("grab", seat=seat)
    return End.PLAY  # nobody declares after a grab: it is one against four


def _calling(state: Fields, seat: int, action: int) -> End | None:
    if action == GRAB:
        return _grab(state, seat)
    if action == YIELD:  # 讓莊: the marked joker moves on clockwise
        nxt = (seat - 1) % 5
        state.move(BJ_MARKED, seat, nxt)
        state.handed_on += 1
        state.emit("yield emperor", seat=seat, to_seat=nxt)
        if state.handed_on < ROUND:
            state.holder = nxt
            state.set_turn(nxt)
            return None
        return _force(state)
    _call(state, seat, action - CALL_BASE)
    return None


def _force(state: Fields) -> End | None:
    """逼莊: the first seat clockwise from the first holder with exactly 3 identical cards
    must call; nobody qualifies -> 黃莊, a void deal dealt again."""
    h = state.first_holder
    for seat in ((h - i) % 5 for i in range(5)):
        if any(copies(state, seat, k) == 3 for k in CALLABLE):
            state.phase = Phase.FORCE
            state.emit("forced", seat=seat)
            state.set_turn(seat)
            return None
    state.emit("void deal")
    return End.VOID


def _call(state: Fields, seat: int, kind: int) -> None:
    """叫莊: the caller is emperor; the holder of the last copy is royalist (none: solo)."""
    state.emperor, state.called = seat, kind
    state.solo = copies(state, seat, kind) == 4
    if not state.solo:
        state.partner = next(s for s in range(5) if s != seat and copies(state, s, kind))
    state.tell_kind = state.variant.tell_kind(kind)
    state.public_roles[seat] = "emperor"
    state.emit("call", seat=seat, card=KIND_TEXT[kind])
    state.open_window(Phase.DECLARE, list(range(5)))


def _emperor_card(state: Fields, seat: int, action: int) -> End | None:
    """Kept: its holder is emperor and the guard card's holder the guard (itself: solo).
    guard_by_fourth: kept by calling a card, whose 4th copy's holder is the guard."""
    if action >= CALL_BASE:
        _call(state, seat, action - CALL_BASE)
        return None
    if action == HAND_ON:
        nxt = (seat + 1) % 5
        state.move(BJ_MARKED, seat, nxt)
        state.handed_on += 1
        state.holder = nxt
        state.emit("hand on emperor card", seat=seat, to_seat=nxt)
        if state.handed_on == ROUND and not legal(state, nxt):
            state.emit("void deal")  # back with its first holder, who has nothing to call
            return End.VOID
        state.set_turn(nxt)
        return None
    guard = state.holder_of(SJ_MARKED)
    state.emperor = seat
    state.solo = guard == seat
    state.partner = None if state.solo else guard
    state.tell_kind = state.variant.tell_kind(None)
    state.public_roles[seat] = "emperor"
    state.emit("emperor", seat=seat)
    state.open_window(Phase.DECLARE, list(range(5)))
    return None


def _close_declarations(state: Fields) -> End:
    """明保 / 明獨 / 反乱 become public, then the emperor leads."""
    declared = [s for s in range(5) if state.answers[s] == DECLARE]
    state.rebels = [s for s in range(5) if state.answers[s] == REBEL]
    for seat in declared:
        if seat == state.emperor:
            state.solo_declared = True
            state.public_roles[seat] = "solo emperor"
        else:
            state.declared = True
            state.public_roles[seat] = state.variant.partner_role
    for seat in state.rebels:
        state.public_roles[seat] = state.variant.other_role
    state.emit("declarations", declared=declared, rebels=state.rebels)
    return End.PLAY
