"""What each seat sees (docs/rules/criminal_poker.md, What each seat sees).

Public: the mode, the phase and the seats that owe a decision; the investigator and its role;
the special roles in play; every seat's revealed cards, in the order revealed, and how many it
holds face down; the size of the deck; whose turn it is, who has acted and each turn's public
part; in a sealed window who has answered (never what); finished votes; the arrest; the card
list. A seat also sees its own identity, its own face-down cards (in card-list order, which
says nothing about when they were drawn), its own sealed answer and its legal actions; the
investigator sees the rest of the deck after its look. A spectator (``seat`` None) sees the
public part. Once the game is over, ``final`` shows everything to everyone.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from yamen.games.criminal_poker.phases import OVER, WINDOWS
from yamen.games.criminal_poker.setup import role_counts

if TYPE_CHECKING:
    from yamen.games.criminal_poker.rules import CriminalPokerState


def seat_view(state: CriminalPokerState, seat: int | None) -> dict[str, Any]:
    inv = state.investigator
    phase = state.phase
    pending = state.pending()
    deck = state.deck
    view: dict[str, Any] = {
        "game": state.game,
        "mode": state.mode,
        "seat": seat,
        "players": state.num_seats,
        "phase": phase,
        "pending": list(pending),
        "investigator": inv,
        "identities": {str(inv): state.roles[inv]},
        "suspects": list(state.suspects),
        "roles_in_play": dict(sorted(role_counts(state.options).items())),
        "shown": [_ids(state, s) for s in state.shown],
        "hidden_counts": [len(h) for h in state.hidden],
        "deck_count": len(state.pile),
        "turn": state.turn,
        "acted": list(state.acted),
        "turns": [dict(t) for t in state.turns],
        "answered": sorted(state.answers) if phase in WINDOWS else [],
        "votes": [list(v) for v in state.votes],
        "arrested": None if state.arrested is None else list(state.arrested),
        "cards": {card.id: card.to_json() for card in deck},
        "role_names": state.catalog.role_names(),
    }
    if seat is not None:
        view["identity"] = state.roles[seat]
        view["hidden"] = _ids(state, sorted(state.hidden[seat]))
        if phase in WINDOWS and (seat in state.answers or seat in pending):
            mine = state.answers.get(seat)
            view["answer"] = None if mine is None else state.action_text(mine)
        if seat == inv and state.looked:
            view["deck"] = _ids(state, sorted(state.pile))
        if seat in pending:
            view["legal"] = [state.action_text(a) for a in state.legal(seat)]
    result = state.result()
    if phase == OVER and result is not None:
        view["final"] = copy.deepcopy(result.details)
    return view


def _ids(state: CriminalPokerState, cards: Iterable[int]) -> list[str]:
    deck = state.deck
    return [deck[c].id for c in cards]
