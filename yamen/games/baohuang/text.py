"""Baohuang as text for a person at a terminal: the seats, the set on the table and the
person's hand grouped by rank (a 43-card hand is unreadable as one line).

Everything comes from the seat's view, so nothing hidden can leak into the text.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from typing import Any, cast

from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.view import BaohuangView
from yamen.plaintext import seat_name, table, words

PHASES: dict[str, str] = {  # read by the view's "phase", a Phase's value
    Phase.GRAB: "grab window: does anyone grab the emperor's seat (搶莊)?",
    Phase.CALL: "the marked joker's holder calls a card, yields or grabs",
    Phase.FORCE: "forcing (逼莊): a seat holding three identical cards must call",
    Phase.EMPEROR_CARD: "the emperor card: keep it, or hand it on",
    Phase.DECLARE: "declarations, all seats at once",
    Phase.PLAY: "play",
    Phase.OVER: "the game is over",
}


def render(view: Mapping[str, Any]) -> str:
    """A seat's (or a spectator's) view as text; ``Game.render_text`` passes any view, read
    here as view.py declares it."""
    return _page(cast(BaohuangView, view))


def _page(view: BaohuangView) -> str:
    me = view["seat"]
    parts = [_heading(view), _seats(view, me)]
    if view["table"] or view["trick"]:
        parts.append(_table(view, me))
    if view["history"]:
        parts.append(_history(view))
    if "hand" in view:
        parts.append(_hand(view))
    return "\n\n".join(parts)


def _heading(view: BaohuangView) -> str:
    lines = [
        f"Baohuang ({view['variant']}), deal {view['deal']} of {view['deals']}: "
        + PHASES.get(view["phase"], view["phase"])
    ]
    facts = []
    if view["called"]:
        facts.append(f"called card {view['called']}")
    if view["grabbed"]:
        facts.append("the emperor grabbed: 1 against 4")
    if view["marked_holder"] is not None:
        facts.append(f"marked joker with seat {view['marked_holder']}")
    if view.get("dealer") is not None:
        facts.append(f"dealer seat {view['dealer']}")
    if facts:
        lines.append("; ".join(facts))
    return "\n".join(lines)


def _seats(view: BaohuangView, me: int | None) -> str:
    roles = view["roles"]
    out = view["out"]
    pending = set(view["pending"])
    answered = set(view["answered"])
    rows = []
    for seat, size in enumerate(view["hand_sizes"]):
        role = roles.get(str(seat))
        if seat == me and view.get("role"):
            role = view["role"] if role is None else role
        if seat == view["emperor"] and role is None:
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


def _table(view: BaohuangView, me: int | None) -> str:
    lines = []
    on_table = view["table"]
    if on_table:
        line = f"On the table: {words(on_table['cards'])} by seat {on_table['owner']}"
        extras = []
        if on_table["circle"] != 1:
            extras.append(f"circle {on_table['circle']}")
        if on_table["yielders"]:
            extras.append(f"yielded: {words(on_table['yielders'])}")
        if on_table["claimant"] is not None:
            extras.append(f"claimed by {on_table['claimant']}")
        lines.append(line + (f" ({'; '.join(extras)})" if extras else ""))
    if view["trick"]:
        moves = [
            f"{seat_name(m['seat'], me)} {m['action']}"
            + (f" {words(m['cards'])}" if m.get("cards") else "")
            for m in view["trick"]
        ]
        lines.append("This round: " + ", ".join(moves))
    return "\n".join(lines)


def _history(view: BaohuangView) -> str:
    rows = [
        [h["deal"], h["emperor"], h["partner"], words(h["places"]), words(h["scores"])]
        for h in view["history"]
    ]
    return "Finished deals\n" + table(["deal", "emperor", "partner", "places", "scores"], rows)


def rank_of(card: str) -> str:
    """``9H`` -> ``9``, ``TS`` -> ``T``; a joker, marked or not, is ``SJ`` or ``BJ``."""
    return card[:2] if card[:2] in ("SJ", "BJ") else card[:-1]


def _hand(view: BaohuangView) -> str:
    hand = view["hand"]
    lines = [f"Your hand ({len(hand)} cards), strongest first" + _role(view)]
    for rank, group in groupby(hand, key=rank_of):
        cards = list(group)
        lines.append(f"  {rank:>3} x{len(cards):<2} {words(cards)}")
    if view.get("tribute"):
        tribute = view["tribute"]
        lines.append(
            f"Tribute: gave {words(tribute['gave'])}, received {words(tribute['received'])}"
        )
    return "\n".join(lines)


def _role(view: BaohuangView) -> str:
    return f"; you are {view['role']}" if view.get("role") else ""
