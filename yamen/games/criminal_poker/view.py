"""What each seat sees (docs/rules/criminal_poker.md, What each seat sees).

Public: the mode, the phase and the seats that owe a decision; the investigator and its role;
the special roles in play; every seat's revealed cards, in the order revealed, and how many it
holds face down; the size of the deck; whose turn it is, who has acted and each turn's public
part; in a sealed window who has answered (never what); finished votes; the arrest; the card
list. A seat also sees its own identity, its own face-down cards (in card-list order, which
says nothing about when they were drawn), its own sealed answer and its legal actions; the
investigator sees the rest of the deck after its look. A spectator (``seat`` None) sees the
public part. Once the game is over, ``final`` shows everything to everyone.

The view's shape is declared below (:class:`CriminalPokerView`), so a reader that names a key
the view does not have (a bot, the text renderer) is a type error, not a ``KeyError`` in play.
The JSON is the dict itself: the declarations cost nothing at run time. What a view reads of
the state is declared too (:class:`Viewed`), so that this module need not import the state
machine (rules.py), which imports it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, ClassVar, NotRequired, Protocol, TypedDict, cast

from yamen.engine import Result
from yamen.games.criminal_poker.cards import Card, CardJson, Catalog
from yamen.games.criminal_poker.phases import OVER, WINDOWS, Phase
from yamen.games.criminal_poker.setup import role_counts


class PublicTurn(TypedDict):
    """One suspect's turn as everyone saw it: ``skip`` or ``draw``, and the card it then
    revealed (None: it skipped, or kept its cards hidden)."""

    seat: int
    action: str
    revealed: str | None


class FinalSeat(TypedDict):
    """A seat turned over at the end; ``innocence`` and ``valid`` are None for the sheriff."""

    seat: int
    identity: str
    shown: list[str]
    hidden: list[str]
    innocence: int | None
    valid: int | None
    culprit: bool
    arrested: bool
    won: bool


class CriminalPokerFinal(TypedDict):
    """Everything turned over, once the game is over (the result's details)."""

    mode: str
    investigator: int
    seats: list[FinalSeat]
    culprits: list[int]
    by_weapon: bool
    arrested: list[int]
    caught: bool
    votes: list[list[int]]


class CriminalPokerView(TypedDict):
    """What one seat (or a spectator, ``seat`` None) sees; the keys marked ``NotRequired``
    are a seat's own and appear only when they apply."""

    game: str
    mode: str
    seat: int | None
    players: int
    phase: Phase
    pending: list[int]
    investigator: int
    identities: dict[str, str]  # seat (as a string) -> role: the investigator's
    suspects: list[int]
    roles_in_play: dict[str, int]
    shown: list[list[str]]  # by seat, in the order revealed
    hidden_counts: list[int]
    deck_count: int
    turn: int | None
    acted: list[int]
    turns: list[PublicTurn]
    answered: list[int]
    votes: list[list[int]]  # each finished vote: the target of each seat
    arrested: list[int] | None
    cards: dict[str, CardJson]  # the game's evidence by id, in the game's order
    role_names: dict[str, dict[str, str]]  # role -> language -> name
    identity: NotRequired[str]
    hidden: NotRequired[list[str]]
    answer: NotRequired[str | None]  # in a sealed window: this seat's answer, if any yet
    deck: NotRequired[list[str]]  # the investigator, after its look
    legal: NotRequired[list[str]]
    final: NotRequired[CriminalPokerFinal]


class Viewed(Protocol):
    """What a view reads of the state (rules.CriminalPokerState): each seat's cards, the
    public record of the game, and the protocol's questions."""

    game: ClassVar[str]
    options: dict[str, Any]
    mode: str
    num_seats: int
    catalog: Catalog
    deck: tuple[Card, ...]
    phase: Phase
    investigator: int
    roles: list[str]
    suspects: tuple[int, ...]
    shown: list[list[int]]
    hidden: list[list[int]]
    pile: list[int]
    looked: bool
    turn: int | None
    acted: list[int]
    turns: list[PublicTurn]
    answers: dict[int, int]
    votes: list[list[int]]
    arrested: tuple[int, ...] | None

    def pending(self) -> tuple[int, ...]: ...
    def legal(self, seat: int) -> list[int]: ...
    def action_text(self, action: int) -> str: ...
    def result(self) -> Result | None: ...


def seat_view(state: Viewed, seat: int | None) -> CriminalPokerView:
    inv = state.investigator
    phase = state.phase
    pending = state.pending()
    deck = state.deck
    view: CriminalPokerView = {
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
        "turns": [t.copy() for t in state.turns],
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
        # a Result's details are untyped; rules.py builds these as a CriminalPokerFinal
        view["final"] = cast(CriminalPokerFinal, copy.deepcopy(result.details))
    return view


def _ids(state: Viewed, cards: Iterable[int]) -> list[str]:
    deck = state.deck
    return [deck[c].id for c in cards]
