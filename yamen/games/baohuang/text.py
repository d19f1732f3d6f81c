"""Baohuang as text for a person at a terminal: the seats, the set on the table and the
person's hand grouped by rank (a 43-card hand is unreadable as one line).

Everything comes from the seat's view, so nothing hidden can leak into the text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import groupby
from typing import Any, cast

from yamen.engine import Event
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.view import BaohuangView
from yamen.plaintext import seat_name, seats_text, table, who, words

PHASES: dict[str, str] = {  # read by the view's "phase", a Phase's value
    Phase.GRAB: "grab window: does anyone grab the emperor's seat (搶莊)?",
    Phase.CALL: "the marked joker's holder calls a card, yields or grabs",
    Phase.FORCE: "forcing (逼莊): a seat holding three identical cards must call",
    Phase.EMPEROR_CARD: "the emperor card: keep it (or call a card for a guard), or hand it on",
    Phase.DECLARE: "declarations, all seats at once",
    Phase.PLAY: "play",
    Phase.OVER: "the game is over",
}

HOUSE_RULES = {  # (option, value) -> words: the house rules before play that differ from the seeds
    ("royalist_declares", "hidden"): "the royalist stays hidden (暗保 only)",
    ("solo_declares", False): "no solo declaration (明獨)",
    ("cede", False): "no passing the emperor's seat on (讓莊) while one can take it",
    ("guard_by_fourth", True): "the guard holds the called card's 4th copy",
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
    house = [w for (name, value), w in HOUSE_RULES.items() if view["options"].get(name) == value]
    if house:
        lines.append("House rules: " + "; ".join(house))
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


def event_text(event: Event, me: int | None, view: Mapping[str, Any]) -> str | None:
    """An event in words (see ``Game.event_text``); ``None`` for a kind not worded here."""
    words = EVENT_WORDS.get(event.kind)
    return None if words is None else words(event.data, me)


def _deal(d: Mapping[str, Any], me: int | None) -> str:
    again = " (dealt again: the last deal was void)" if d["redeal"] else ""
    return f"deal {d['deal']}{again}: hands of {words(d['sizes'])} cards"


def _grab_window(d: Mapping[str, Any], me: int | None) -> str:
    grabber = d["grabbed_by"]
    return "nobody grabbed the emperor's seat" if grabber is None else "the grab window closed"


def _declarations(d: Mapping[str, Any], me: int | None) -> str:
    text = f"declarations: {seats_text(d['declared'], me)} declared"
    return text + (f"; rebels: {seats_text(d['rebels'], me)}" if d["rebels"] else "")


def _tribute_paid(d: Mapping[str, Any], me: int | None) -> str:
    gave = ", ".join(f"{who(int(s), me)} gave {n}" for s, n in d["gave"].items())
    got = ", ".join(f"{who(int(s), me)} received {n}" for s, n in d["received"].items())
    return f"tribute paid: {gave or 'none given'}; {got or 'none received'}"


def _play(d: Mapping[str, Any], me: int | None) -> str:
    out = ": out of cards" if d["out"] else ""
    return f"{who(d['seat'], me)} played {words(d['cards'])}{out}"


def _deal_over(d: Mapping[str, Any], me: int | None) -> str:
    places = ", ".join(f"{n}. {who(s, me)}" for n, s in enumerate(d["places"], 1))
    partner = "no partner" if d["partner"] is None else f"partner {who(d['partner'], me)}"
    scores = ", ".join(f"{who(s, me)} {_signed(v)}" for s, v in enumerate(d["scores"]))
    totals = ", ".join(f"{who(s, me)} {v}" for s, v in enumerate(d["totals"]))
    return (
        f"deal {d['deal']} over: emperor {who(d['emperor'], me)}, {partner}; places {places}; "
        f"scores {scores}; totals {totals}"
    )


def _signed(points: int | str) -> str:
    """Points with their sign (``+10``, ``-40``, ``+10/3``): a score is an int or a fraction's
    text."""
    text = str(points)
    return text if text.startswith("-") or text == "0" else f"+{text}"


def _game_over(d: Mapping[str, Any], me: int | None) -> str:
    return "game over: totals " + ", ".join(f"{who(s, me)} {v}" for s, v in enumerate(d["totals"]))


Words = Callable[[Mapping[str, Any], int | None], str]
EVENT_WORDS: dict[str, Words] = {
    "deal": _deal,
    "hand": lambda d, me: f"your hand: {words(d['cards'])}",
    "grab window closed": _grab_window,
    "grab": lambda d, me: f"{who(d['seat'], me)} grabbed the emperor's seat (搶莊)",
    "yield emperor": lambda d, me: (
        f"{who(d['seat'], me)} did not call (讓莊): the call passes to {who(d['to_seat'], me)}"
    ),
    "forced": lambda d, me: f"{who(d['seat'], me)} holds three identical cards: forced to call",
    "void deal": lambda d, me: "void deal (黃莊): nobody called; the cards are dealt again",
    "call": lambda d, me: f"{who(d['seat'], me)} called {d['card']}",
    "hand on emperor card": lambda d, me: (
        f"{who(d['seat'], me)} handed the emperor card on to {who(d['to_seat'], me)}"
    ),
    "emperor": lambda d, me: f"{who(d['seat'], me)} is the emperor",
    "declarations": _declarations,
    "tribute": lambda d, me: (
        f"your tribute: gave {words(d['gave'])}, received {words(d['received'])}"
    ),
    "tribute paid": _tribute_paid,
    "play": _play,
    "pass": lambda d, me: f"{who(d['seat'], me)} passed",
    "yield": lambda d, me: f"{who(d['seat'], me)} yielded (讓牌)",
    "claim": lambda d, me: f"{who(d['seat'], me)} claimed the lead (接風)",
    "lead": lambda d, me: f"{who(d['seat'], me)} to lead",
    "deal over": _deal_over,
    "game over": _game_over,
}
