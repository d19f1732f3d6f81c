"""What one seat of a Baohuang game may see, as JSON-ready data.

Hidden: the other hands, answers still sealed in a window, roles not yet public, and the
tribute cards of other seats. Public beyond the table: who declared (it doubles the score),
where the marked big joker lies (it is dealt to a named seat and every move of it is
announced) and who still answers the set on the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from yamen.engine import score_json
from yamen.games.baohuang.actions import text
from yamen.games.baohuang.kinds import BJ_MARKED, KIND_TEXT, hand_cards
from yamen.games.baohuang.phases import Phase

if TYPE_CHECKING:
    from yamen.games.baohuang.rules import BaohuangState

WINDOWS = (Phase.GRAB, Phase.DECLARE)  # phases whose answers are sealed until all are in


def seat_view(state: BaohuangState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (``None``: a spectator)."""
    table = None
    if state.phase == Phase.PLAY and state.table is not None:
        table = {
            "owner": state.owner,
            "cards": [KIND_TEXT[k] for k in state.table_cards],
            "circle": state.stage,
            "yielders": list(state.yielders),
            "claimant": state.claimant,
            "to_ask": list(state.to_ask),  # who still answers this set, in order
        }
    seen: dict[str, Any] = {
        "game": state.game,
        "variant": state.variant.name,
        "seat": seat,
        "deal": state.deal_no,
        "deals": state.options["deals"],
        "phase": state.phase.value,
        "pending": list(state.pending()),
        "hand_sizes": list(state.sizes),
        "marked_holder": state.holder if state.emperor is None else None,
        "emperor": state.emperor,
        "called": None if state.called is None else KIND_TEXT[state.called],
        "grabbed": state.grabbed,
        "declared": declared_seats(state),
        "marked_joker": marked_joker_seat(state.hands),
        "roles": {str(s): r for s, r in sorted(state.public_roles.items())},
        "answered": sorted(state.answers) if state.phase in WINDOWS else [],
        "table": table,
        "trick": [
            {"seat": s, "action": a, **({"cards": c} if c else {})} for s, a, c in state.trick
        ],
        "played": [{"seat": s, "cards": list(c)} for s, c in state.plays],
        "out": list(state.out),
        "totals": [score_json(s) for s in state.totals],
        "history": list(state.history),
    }
    if state.variant.shows_dealer:
        seen["dealer"] = state.dealer
    if seat is not None:
        seen["hand"] = hand_cards(state.hands[seat])
        seen["role"] = state.own_role(seat)
        if seat in state.tribute:
            seen["tribute"] = state.tribute[seat]
        if seat in state.pending():
            seen["legal"] = [text(a, state.tell_kind) for a in state.legal(seat)]
    return seen


def declared_seats(state: BaohuangState) -> list[int]:
    """Who declared (明保 / 明獨): announced to all, and it doubles the deal's score."""
    seats = [state.emperor] if state.solo_declared else []
    return sorted(seats + [state.partner] if state.declared else seats)


def marked_joker_seat(hands: list[list[int]]) -> int | None:
    """Where the marked big joker is, until it is played."""
    return next((s for s in range(len(hands)) if hands[s][BJ_MARKED]), None)
