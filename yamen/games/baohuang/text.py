"""Baohuang as text for a person at a terminal: the seats, the set on the table and the
person's hand grouped by rank (a 43-card hand is unreadable as one line).

Everything comes from the seat's view, so nothing hidden can leak into the text.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any

from yamen.plaintext import seat_name, table, words

PHASES = {
    "grab": "grab window: does anyone grab the emperor's seat (搶莊)?",
    "call": "the marked joker's holder calls a card, yields or grabs",
    "force": "forcing (逼莊): a seat holding three identical cards must call",
    "emperor card": "the emperor card: keep it, or hand it on",
    "declare": "declarations, all seats at once",
    "play": "play",
    "over": "the game is over",
}


def render(view: dict[str, Any]) -> str:
    me = view.get("seat")
    parts = [_heading(view), _seats(view, me)]
    if view.get("table") or view.get("trick"):
        parts.append(_table(view, me))
    if view.get("history"):
        parts.append(_history(view))
    if "hand" in view:
        parts.append(_hand(view))
    return "\n\n".join(parts)


def _heading(view: dict[str, Any]) -> str:
    lines = [
        f"Baohuang ({view['variant']}), deal {view['deal']} of {view['deals']}: "
        + PHASES.get(view["phase"], view["phase"])
    ]
    facts = []
    if view.get("called"):
        facts.append(f"called card {view['called']}")
    if view.get("grabbed"):
        facts.append("the emperor grabbed: 1 against 4")
    if view.get("marked_holder") is not None:
        facts.append(f"marked joker with seat {view['marked_holder']}")
    if view.get("dealer") is not None:
        facts.append(f"dealer seat {view['dealer']}")
    if facts:
        lines.append("; ".join(facts))
    return "\n".join(lines)


def _seats(view: dict[str, Any], me: int | None) -> str:
    roles = view.get("roles", {})
    out = view.get("out", [])
    pending = set(view.get("pending", []))
    answered = set(view.get("answered", []))
    rows = []
    for seat, size in enumerate(view["hand_sizes"]):
        role = roles.get(str(seat))
        if seat == me and view.get("role"):
            role = view["role"] if role is None else role
        if seat == view.get("emperor") and role is None:
            role = "emperor"
        state = ""
        if seat in out:
            state = f"out ({out.index(seat) + 1})"
        elif seat in answered:
            state = "answered"
        elif seat in pending:
            state = "to act"
        rows.append([seat_name(seat, me), size, role, view["totals"][seat], state])
    return table(["seat", "cards", "role", "total", ""], rows)


def _table(view: dict[str, Any], me: int | None) -> str:
    lines = []
    on_table = view.get("table")
    if on_table:
        line = f"On the table: {words(on_table['cards'])} by seat {on_table['owner']}"
        extras = []
        if on_table.get("circle", 1) != 1:
            extras.append(f"circle {on_table['circle']}")
        if on_table.get("yielders"):
            extras.append(f"yielded: {words(on_table['yielders'])}")
        if on_table.get("claimant") is not None:
            extras.append(f"claimed by {on_table['claimant']}")
        lines.append(line + (f" ({'; '.join(extras)})" if extras else ""))
    if view.get("trick"):
        moves = [
            f"{seat_name(m['seat'], me)} {m['action']}"
            + (f" {words(m['cards'])}" if m.get("cards") else "")
            for m in view["trick"]
        ]
        lines.append("This round: " + ", ".join(moves))
    return "\n".join(lines)


def _history(view: dict[str, Any]) -> str:
    rows = [
        [h["deal"], h["emperor"], h.get("partner"), words(h["places"]), words(h["scores"])]
        for h in view["history"]
    ]
    return "Finished deals\n" + table(["deal", "emperor", "partner", "places", "scores"], rows)


def rank_of(card: str) -> str:
    """``9H`` -> ``9``, ``TS`` -> ``T``; a joker, marked or not, is ``SJ`` or ``BJ``."""
    return card[:2] if card[:2] in ("SJ", "BJ") else card[:-1]


def _hand(view: dict[str, Any]) -> str:
    hand = view["hand"]
    lines = [f"Your hand ({len(hand)} cards), strongest first" + _role(view)]
    for rank, group in groupby(hand, key=rank_of):
        cards = list(group)
        lines.append(f"  {rank:>3} x{len(cards):<2} {words(cards)}")
    if view.get("tribute"):
        tribute = view["tribute"]
        lines.append(
            f"Tribute: gave {words(tribute.get('gave', []))}, "
            f"received {words(tribute.get('received', []))}"
        )
    return "\n".join(lines)


def _role(view: dict[str, Any]) -> str:
    return f"; you are {view['role']}" if view.get("role") else ""
