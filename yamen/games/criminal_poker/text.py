"""Criminal Poker as text for a person at a terminal: every seat's shown evidence, the person's
own face-down cards and identity, the turns so far, and (at the end) every card turned over.

Cards are written as ``P3 (Security camera footage, innocence 2)`` from the view's own card
list, so a room's own list reads as well as Yamen's. Everything comes from the seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from yamen.games.criminal_poker.phases import TURN_PHASES, Phase
from yamen.games.criminal_poker.view import CriminalPokerView, PublicTurn
from yamen.plaintext import seat_name, table, words

PHASES: dict[Phase, str] = {
    Phase.OPENING: "the opening: every suspect reveals one of its two cards (sealed)",
    Phase.NEXT: "the investigator calls the next suspect",
    Phase.TURN: "a suspect's turn: skip or draw",
    Phase.REVEAL: "after drawing: reveal a face-down card or keep them hidden",
    Phase.QUESTIONING: "questioning: the investigator ends it when the talking is done",
    Phase.ARREST: "the sheriff arrests a suspect",
    Phase.VOTE: "the vote: everyone names a player to arrest (sealed)",
    Phase.OVER: "the game is over",
}


def render(view: Mapping[str, Any]) -> str:
    """A seat's view as text; ``Game.render_text`` passes any view, read here as view.py
    declares it."""
    return _page(cast(CriminalPokerView, view))


def _page(view: CriminalPokerView) -> str:
    me = view.get("seat")
    parts = [_heading(view), _seats(view, me)]
    if view.get("turns"):
        parts.append("Turns: " + "; ".join(_turn(t) for t in view["turns"]))
    if view.get("votes"):
        parts.append(_votes(view))
    if me is not None:
        parts.append(_own(view))
    if view.get("final"):
        parts.append(_final(view))
    return "\n\n".join(parts)


def card_text(view: CriminalPokerView, card_id: str | None) -> str:
    """A card with its English name and innocence, or ``?`` for one not shown."""
    if card_id is None:
        return "?"
    card = view.get("cards", {}).get(card_id)
    if card is None:
        return card_id
    name = card["name"].get("en", card_id).split(": ", 1)[-1]
    level = "no innocence" if card["innocence"] is None else f"innocence {card['innocence']}"
    return f"{card_id} ({name}, {level})"


def _role_name(view: CriminalPokerView, role: str) -> str:
    return view.get("role_names", {}).get(role, {}).get("en", role)


def _heading(view: CriminalPokerView) -> str:
    roles = ", ".join(f"{n} {_role_name(view, r)}" for r, n in view["roles_in_play"].items())
    inv = view["investigator"]
    return (
        f"Criminal Poker ({view['mode']} mode, {view['players']} players): "
        + PHASES.get(view["phase"], view["phase"])
        + f"\nInvestigator: seat {inv} ({_role_name(view, view['identities'][str(inv)])}); "
        + f"roles in play: {roles}; deck: {view['deck_count']} cards"
    )


def _seats(view: CriminalPokerView, me: int | None) -> str:
    suspects = set(view["suspects"])
    pending, answered = set(view.get("pending", [])), set(view.get("answered", []))
    acted = set(view.get("acted", []))
    arrested = set(view.get("arrested") or [])
    rows = []
    for seat in range(view["players"]):
        identity = view["identities"].get(str(seat))
        if seat == me:
            identity = view.get("identity", identity)
        state = []
        if seat in arrested:
            state.append("arrested")
        if seat == view.get("turn"):
            state.append("its turn")
        elif seat in acted and view["phase"] in TURN_PHASES:
            state.append("has had its turn")
        if seat in answered:
            state.append("answered")
        elif seat in pending:
            state.append("to act")
        shown = words(view["shown"][seat]) if seat in suspects else "(no evidence)"
        face_down = view["hidden_counts"][seat] if seat in suspects else None
        role = None if identity is None else _role_name(view, identity)
        rows.append([seat_name(seat, me), role, shown, face_down, ", ".join(state)])
    return table(["seat", "identity", "shown", "face down", ""], rows)


def _turn(turn: PublicTurn) -> str:
    text = f"seat {turn['seat']} {turn['action']}"
    if turn.get("revealed"):
        text += f", revealed {turn['revealed']}"
    return text


def _votes(view: CriminalPokerView) -> str:
    lines = ["Votes (voter -> seat)"]
    for number, votes in enumerate(view["votes"], 1):
        lines.append(f"  round {number}: " + ", ".join(f"{s}->{v}" for s, v in enumerate(votes)))
    return "\n".join(lines)


def _own(view: CriminalPokerView) -> str:
    lines = [f"You are {_role_name(view, view['identity'])}."]
    hidden = view.get("hidden", [])
    if hidden:
        lines.append("Your face-down cards:")
        lines += [f"  {card_text(view, c)}" for c in hidden]
    me = view["seat"]
    if me in view["suspects"] and view["shown"][me]:
        lines.append("Your shown cards:")
        lines += [f"  {card_text(view, c)}" for c in view["shown"][me] if c]
    if view.get("answer"):
        lines.append(f"Your sealed answer: {view['answer']}")
    if "deck" in view:
        lines.append(f"The rest of the deck (only you saw it): {words(view['deck'])}")
    return "\n".join(lines)


def _final(view: CriminalPokerView) -> str:
    final = view["final"]
    rows = [
        [
            s["seat"],
            s.get("identity"),
            words(s.get("shown", [])),
            words(s.get("hidden", [])),
            s.get("innocence"),
            "yes" if s.get("culprit") else "",
            "yes" if s.get("won") else "",
        ]
        for s in final.get("seats", [])
    ]
    headers = ["seat", "identity", "shown", "face down", "innocence", "culprit", "won"]
    caught = "caught" if final.get("caught") else "not caught"
    return f"Every card turned over: the culprit was {caught}\n" + table(headers, rows)
