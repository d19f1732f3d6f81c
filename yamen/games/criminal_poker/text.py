"""Criminal Poker as text for a person at a terminal: every seat's shown evidence, the person's
own face-down cards and identity, the turns so far, and (at the end) every card turned over.

Cards are named in words from the view's own card list (``Security camera footage``, with
``(innocence 2)`` where the person looks at their own cards), never by their ids, so a room's
own list reads as well as Yamen's. Everything comes from the seat's view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from yamen.engine import Event
from yamen.games.criminal_poker.phases import TURN_PHASES, Phase
from yamen.games.criminal_poker.view import CriminalPokerView, PublicTurn
from yamen.plaintext import seat_name, seats_text, table, who

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
        parts.append("Turns: " + "; ".join(_turn(view, t, me) for t in view["turns"]))
    if view.get("votes"):
        parts.append(_votes(view))
    if me is not None:
        parts.append(_own(view))
    if view.get("final"):
        parts.append(_final(view))
    return "\n\n".join(parts)


def card_name(view: Mapping[str, Any], card_id: str | None) -> str:
    """A card's English name from the view's card list (``Physical evidence: Train ticket``),
    or ``?`` for one not shown; the id only for a card the list lacks."""
    if card_id is None:
        return "?"
    card = view.get("cards", {}).get(card_id)
    if card is None:
        return card_id
    return str(card["name"].get("en", card_id))


def card_text(view: Mapping[str, Any], card_id: str | None) -> str:
    """A card's name with its innocence (``no innocence`` for a weapon)."""
    card = view.get("cards", {}).get(card_id) if card_id is not None else None
    if card is None:
        return card_name(view, card_id)
    level = "no innocence" if card["innocence"] is None else f"innocence {card['innocence']}"
    return f"{card_name(view, card_id)} ({level})"


def names(view: Mapping[str, Any], card_ids: list[str | None] | list[str]) -> str:
    """Several cards by name, ``; ``-separated (a name may hold a comma); ``-`` for none."""
    return "; ".join(card_name(view, c) for c in card_ids) or "-"


def _role_name(view: Mapping[str, Any], role: str) -> str:
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
        shown = names(view, view["shown"][seat]) if seat in suspects else "(no evidence)"
        face_down = view["hidden_counts"][seat] if seat in suspects else None
        role = None if identity is None else _role_name(view, identity)
        rows.append([seat_name(seat, me), role, shown, face_down, ", ".join(state)])
    return table(["seat", "identity", "shown", "face down", ""], rows)


def _turn(view: CriminalPokerView, turn: PublicTurn, me: int | None) -> str:
    text = f"{who(turn['seat'], me)} {turn['action']}"
    if turn.get("revealed"):
        text += f", revealed {card_name(view, turn['revealed'])}"
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
        lines.append(f"The rest of the deck (only you saw it): {names(view, view['deck'])}")
    return "\n".join(lines)


def _final(view: CriminalPokerView) -> str:
    final = view["final"]
    rows = [
        [
            s["seat"],
            None if s.get("identity") is None else _role_name(view, s["identity"]),
            names(view, s.get("shown", [])),
            names(view, s.get("hidden", [])),
            s.get("innocence"),
            "yes" if s.get("culprit") else "",
            "yes" if s.get("won") else "",
        ]
        for s in final.get("seats", [])
    ]
    headers = ["seat", "identity", "shown", "face down", "innocence", "culprit", "won"]
    caught = "caught" if final.get("caught") else "not caught"
    return f"Every card turned over: the culprit was {caught}\n" + table(headers, rows)


def event_text(event: Event, me: int | None, view: Mapping[str, Any]) -> str | None:
    """An event in words (see ``Game.event_text``), cards and roles named from the view's
    lists; ``None`` for a kind not worded here."""
    words = EVENT_WORDS.get(event.kind)
    return None if words is None else words(event.data, me, view)


View = Mapping[str, Any]


def _setup(d: Mapping[str, Any], me: int | None, view: View) -> str:
    roles = ", ".join(f"{n} {_role_name(view, r)}" for r, n in d["roles_in_play"].items())
    return (
        f"Criminal Poker, {d['mode']} mode, {d['players']} players: the investigator is "
        f"{who(d['investigator'], me)} ({_role_name(view, d['role'])}); suspects: "
        f"{seats_text(d['suspects'], me)}; roles in play: {roles}; the evidence in the game: "
        f"{names(view, d['deck'])}"
    )


def _opening(d: Mapping[str, Any], me: int | None, view: View) -> str:
    shown = [
        f"{who(seat, me)} showed {card_name(view, card)}"
        for seat, card in enumerate(d["cards"])
        if card is not None
    ]
    return "the opening: " + "; ".join(shown)


def _vote(d: Mapping[str, Any], me: int | None, view: View) -> str:
    votes = ", ".join(f"{who(s, me)} named {who(v, me)}" for s, v in enumerate(d["votes"]))
    tally = ", ".join(f"{who(s, me)} {n}" for s, n in enumerate(d["tally"]) if n)
    return f"the vote, round {d['round']}: {votes} (votes: {tally})"


def _game_over(d: Mapping[str, Any], me: int | None, view: View) -> str:
    culprits = seats_text(d["culprits"], me)
    caught = "caught" if d["caught"] else "not caught"
    winners = [s["seat"] for s in d["seats"] if s.get("won")]
    return (
        f"game over: the culprit ({culprits}) was {caught}; arrested: "
        f"{seats_text(d['arrested'], me)}; winners: {seats_text(winners, me)}"
    )


Words = Callable[[Mapping[str, Any], int | None, View], str]
EVENT_WORDS: dict[str, Words] = {
    "setup": _setup,
    "identity": lambda d, me, v: f"you are {_role_name(v, d['role'])}",
    "evidence": lambda d, me, v: f"your face-down evidence: {names(v, d['cards'])}",
    "dealt": lambda d, me, v: (
        f"dealt: two cards to each suspect; {d['deck']} cards left in the deck"
    ),
    "answered": lambda d, me, v: f"{who(d['seat'], me)} answered (sealed)",
    "opening revealed": _opening,
    "next": lambda d, me, v: f"the investigator calls {who(d['seat'], me)}",
    "skip": lambda d, me, v: f"{who(d['seat'], me)} skipped",
    "draw": lambda d, me, v: f"{who(d['seat'], me)} drew a card ({d['deck']} left in the deck)",
    "drew": lambda d, me, v: f"you drew {card_text(v, d['card'])}",
    "keep hidden": lambda d, me, v: f"{who(d['seat'], me)} kept their cards hidden",
    "reveal": lambda d, me, v: f"{who(d['seat'], me)} revealed {card_name(v, d['card'])}",
    "deck look": lambda d, me, v: (
        f"{who(d['seat'], me)} looked at the {d['count']} cards left in the deck"
    ),
    "deck": lambda d, me, v: f"the cards left in the deck: {names(v, d['cards'])}",
    "questioning": lambda d, me, v: (
        f"questioning (round {d['round']}): talk; the investigator ends it"
    ),
    "questioning over": lambda d, me, v: "questioning is over",
    "votes": _vote,
    "revote": lambda d, me, v: (
        f"a tie between {seats_text(d['tied'], me)}: vote again (round {d['round']})"
    ),
    "arrest": lambda d, me, v: f"arrested: {seats_text(d['seats'], me)}",
    "game over": _game_over,
}
