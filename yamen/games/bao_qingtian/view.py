"""What each seat sees of a trial (docs/rules/bao_qingtian.md, What each seat sees).

A seat sees its own hand and its own turns (what it discarded and drew); of the others only that
they took a turn, and the sizes of the pile and the discards. The first seat, the emperor, the
named criminal, every office and how it was filled, an appointment being made (with the holders
of that card), the guesses and their outcomes, the seat tried and why, the sentence and the
verdict are public. A spectator (``seat`` None) sees no hand at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from yamen.games.bao_qingtian.capture import MAX_GUESSES
from yamen.games.bao_qingtian.cards import CODE, hand_codes
from yamen.games.bao_qingtian.phases import APPOINT, DRAW, TURNS

if TYPE_CHECKING:
    from yamen.games.bao_qingtian.rules import BaoQingtianState


def seat_view(state: BaoQingtianState, seat: int | None) -> dict[str, Any]:
    phase = state.phase
    pending = state.pending()
    view: dict[str, Any] = {
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
        "sentence": [dict(s) for s in state.steps],
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


def _appointing(state: BaoQingtianState) -> dict[str, Any] | None:
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


def _capture(state: BaoQingtianState) -> dict[str, Any] | None:
    if state.round == 0:
        return None
    return {
        "captor": state.offices["captor"],
        "round": state.round,
        "turns_this_round": state.round_turns,
        "guessed_this_round": state.guessed_in_round,
        "guesses_left": MAX_GUESSES - len(state.guesses),
        "guesses": [dict(g) for g in state.guesses],
    }
