"""The Bao Qing-tian trial as text for a person at a terminal: the offices, the hunt for the
criminal card, the sentence as it is built, and the person's own hand and turns.

Everything comes from the seat's view; card codes are spelled out with the game's card names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, cast

from yamen.engine import Event
from yamen.games.bao_qingtian.cards import CARD_TYPES
from yamen.games.bao_qingtian.phases import Phase
from yamen.games.bao_qingtian.view import BaoQingtianView
from yamen.plaintext import seat_name, seats_text, table, who, words

NAMES = {t.code: f"{t.english} {t.chinese}" for t in CARD_TYPES}
PHASES: dict[Phase, str] = {
    Phase.DRAW: "turns: discard one card face down and draw one",
    Phase.NAME: "the emperor names the criminal card",
    Phase.APPOINT: "an office is appointed",
    Phase.CAPTURE: "the capture: turns go on while the captor hunts",
    Phase.GUESS: "the captor's decision after a turn",
    Phase.PUNISH: "the judge sets the punishment and the count",
    Phase.PLUS: "the plus officer adds 0 to 10",
    Phase.MINUS: "the minus officer subtracts 0 to 10",
    Phase.TIMES: "the times officer multiplies by 0 to 10",
    Phase.DIVIDE: "the divide officer divides by 1 to 10",
    Phase.SEVERITY: "the severity officer: light or heavy",
    Phase.VERDICT: "the emperor: execute or pardon",
    Phase.CARRY_OUT: "the executor carries the sentence out",
    Phase.OVER: "the trial is over",
}
WHY = {"caught": "caught by the captor", "escaped": "the captor, after ten misses"}


def render(view: Mapping[str, Any]) -> str:
    """A seat's view as text; ``Game.render_text`` passes any view, read here as view.py
    declares it."""
    return _page(cast(BaoQingtianView, view))


def _page(view: BaoQingtianView) -> str:
    me = view.get("seat")
    parts = [_heading(view), _seats(view, me)]
    for section in (_appointing(view), _capture(view), _trial(view)):
        if section:
            parts.append(section)
    if me is not None:
        parts.append(_own(view))
    return "\n\n".join(parts)


def card_name(code: str) -> str:
    return f"{code} ({NAMES[code]})" if code in NAMES else code


def _heading(view: BaoQingtianView) -> str:
    lines = [
        f"Bao Qing-tian trial ({view['players']} players, {view['cards_each']} cards each): "
        + PHASES.get(view["phase"], view["phase"]),
        f"Pile {view['pile']}, discards {view['discards']}, turns taken {view['turns']}, "
        f"first seat {view['first']}",
    ]
    emperor, criminal = view.get("emperor"), view.get("criminal")
    if emperor is not None:
        line = f"Emperor: seat {emperor}"
        if criminal:
            line += f"; the criminal card: {card_name(criminal)}"
        lines.append(line)
    if view.get("seeking"):
        lines.append(f"Seeking: {view['seeking']}")
    return "\n".join(lines)


def _seats(view: BaoQingtianView, me: int | None) -> str:
    held: dict[int, list[str]] = {}
    emperor = view.get("emperor")
    if emperor is not None:
        held.setdefault(emperor, []).append("emperor")
    for office, seat in view.get("offices", {}).items():
        how = view.get("how", {}).get(office)
        held.setdefault(seat, []).append(office + (f" ({how})" if how else ""))
    pending = set(view.get("pending", []))
    rows = []
    for seat in range(view["players"]):
        state = []
        if seat == view.get("turn"):
            state.append("its turn")
        if seat == view.get("last_turn"):
            state.append("took the last turn")
        if seat == view.get("accused"):
            state.append("on trial")
        if seat in pending:
            state.append("to act")
        if seat != me and not held.get(seat) and not state:
            continue  # a 50-seat table lists only the seats that matter now
        rows.append([seat_name(seat, me), ", ".join(held.get(seat, [])), ", ".join(state)])
    return table(["seat", "offices", ""], rows) if rows else "No offices yet."


def _appointing(view: BaoQingtianView) -> str:
    appointing = view.get("appointing")
    if not appointing:
        return ""
    line = f"Seat {appointing['by']} appoints the {appointing['office']}"
    holders = appointing.get("holders") or []
    line += f"; holders of its card: {words(holders)}"
    choices = appointing.get("choices")
    if choices:
        line += f"; choose from: {words(choices)}"
    return line


def _capture(view: BaoQingtianView) -> str:
    capture = view.get("capture")
    if not capture:
        return ""
    lines = [
        f"Capture by seat {capture['captor']}: round {capture['round']}, "
        f"{capture['guesses_left']} guesses left"
        + ("" if capture["guessed_this_round"] else ", no guess yet this round")
    ]
    for g in capture["guesses"]:
        outcome = "caught" if g["hit"] else "missed"
        lines.append(f"  round {g['round']}: seat {g['seat']} {g['form']}: {outcome}")
    return "\n".join(lines)


def _trial(view: BaoQingtianView) -> str:
    if view.get("accused") is None:
        return ""
    why = view.get("why")
    reason = why if why is None else WHY.get(why, why)
    lines = [f"On trial: seat {view['accused']} ({reason})"]
    if view.get("punishment"):
        lines.append(f"Punishment: {view['punishment']}")
    for step in view.get("sentence", []):
        lines.append(
            f"  {step['step']} (seat {step['seat']}): {step['number']} -> count {step['count']}"
        )
    if view.get("severity"):
        lines.append(f"Severity: {view['severity']}")
    if view.get("verdict"):
        lines.append(f"Verdict: {view['verdict']}")
    return "\n".join(lines)


def _own(view: BaoQingtianView) -> str:
    counts = Counter(view.get("hand", []))
    lines = [f"Your hand ({len(view.get('hand', []))} cards):"]
    lines += [f"  {n} x {card_name(code)}" for code, n in counts.items()]
    turns = view.get("my_turns", [])
    if turns:
        recent = [f"discarded {t['discarded']}, drew {t['drew']}" for t in turns[-5:]]
        lines.append(f"Your last turns ({len(turns)} in all): " + "; ".join(recent))
    return "\n".join(lines)


def event_text(event: Event, me: int | None, view: Mapping[str, Any]) -> str | None:
    """An event in words (see ``Game.event_text``), cards by name; ``None`` for a kind not
    worded here."""
    words_for = EVENT_WORDS.get(event.kind)
    return None if words_for is None else words_for(event.data, me)


GUESSES = {
    "discarded": "just discarded the criminal card",
    "drew": "just drew the criminal card",
    "holds": "holds the criminal card",
}


def _guess(d: Mapping[str, Any], me: int | None) -> str:
    said = GUESSES.get(d["form"], d["form"])
    outcome = "right" if d["hit"] else f"wrong ({d['left']} guesses left)"
    return f"{who(d['captor'], me)} guessed that {who(d['seat'], me)} {said}: {outcome}"


def _appointing_event(d: Mapping[str, Any], me: int | None) -> str:
    text = f"{who(d['by'], me)} appoints the {d['office']}"
    if d["holders"]:
        text += f" (holders of the card: {seats_text(d['holders'], me)})"
    if d["choices"] is not None:
        text += f", from {seats_text(d['choices'], me)}"
    return text


def _officer(d: Mapping[str, Any], me: int | None, step: str) -> str:
    return f"{who(d['seat'], me)} {step} {d['number']}: the count is {d['count']}"


def _game_over(d: Mapping[str, Any], me: int | None) -> str:
    text = "the trial is over"
    if d.get("criminal"):
        text += f": the criminal card was {card_name(d['criminal'])}"
    return text


Words = Callable[[Mapping[str, Any], int | None], str]
EVENT_WORDS: dict[str, Words] = {
    "deal": lambda d, me: (
        f"dealt {d['cards_each']} cards to each of {d['players']} players; "
        f"{who(d['first'], me)} first; {d['pile']} cards in the pile"
    ),
    "hand": lambda d, me: "your hand: " + ", ".join(card_name(c) for c in d["cards"]),
    "seeking": lambda d, me: f"seeking {card_name(d['card'])}: {who(d['seat'], me)} to turn",
    "refill": lambda d, me: f"the discards are shuffled into a new pile of {d['cards']} cards",
    "turn": lambda d, me: (
        f"{who(d['seat'], me)} discarded one card and drew one ({d['pile']} in the pile)"
    ),
    "turn cards": lambda d, me: (
        f"you discarded {card_name(d['discarded'])} and drew {card_name(d['drew'])}"
    ),
    "emperor": lambda d, me: f"{who(d['seat'], me)} is the emperor",
    "criminal named": lambda d, me: f"the criminal card is {card_name(d['card'])}",
    "appointing": _appointing_event,
    "office": lambda d, me: f"{who(d['seat'], me)} is the {d['office']} ({d['how']})",
    "capture": lambda d, me: (
        f"the capture begins: {who(d['captor'], me)} hunts; {who(d['seat'], me)} to turn"
    ),
    "wait": lambda d, me: f"{who(d['captor'], me)} waits",
    "guess": _guess,
    "accused": lambda d, me: f"{who(d['seat'], me)} is on trial ({WHY.get(d['why'], d['why'])})",
    "punishment": lambda d, me: (
        f"{who(d['judge'], me)} set the punishment: {d['punishment']}, {d['count']} times"
    ),
    "plus": lambda d, me: _officer(d, me, "added"),
    "minus": lambda d, me: _officer(d, me, "subtracted"),
    "times": lambda d, me: _officer(d, me, "multiplied by"),
    "divide": lambda d, me: _officer(d, me, "divided by"),
    "severity": lambda d, me: f"{who(d['seat'], me)} chose a {d['severity']} sentence",
    "pardon": lambda d, me: f"{who(d['emperor'], me)} pardoned the accused",
    "execute": lambda d, me: (
        f"{who(d['emperor'], me)} ordered the sentence carried out by {who(d['executor'], me)}"
    ),
    "carried out": lambda d, me: f"{who(d['executor'], me)} carried out the sentence",
    "game over": _game_over,
}
