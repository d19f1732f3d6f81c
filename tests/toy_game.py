"""Toy, a tiny fourth game for the tests only: it shows that registering a game enrols it in
every contract of the test suite (tests/conformance.py), and its broken variants below show
that each contract fails a game that breaks it.

Three seats, nine cards ``1``..``9``, each seat dealt ``rounds`` of them face down. A round:
from the last round's winner (seat 0 first), each seat plays one card face up (``play 7``);
the highest card (the lowest, ``wins: low``) takes the round. The most rounds won wins.

It is registered only by the tests (``tests/conftest.py``: the ``toy_game`` fixture, or
``YAMEN_TOY_GAME=1`` for a whole run), never in ``yamen.engine.REGISTRY``.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, NotRequired, TypedDict

from yamen.engine import Event, Game, Result, State, make_rng
from yamen.errors import NotationError
from yamen.options import Option, Preset

CARDS = 9
SEATS = 3


class Phase(enum.StrEnum):
    PLAY = "play"
    OVER = "over"


class PlayedCard(TypedDict):
    seat: int
    card: str


class ToyView(TypedDict):
    game: str
    phase: str
    seat: int | None
    round: int  # from 1
    pending: list[int]
    hand_sizes: list[int]
    played: list[PlayedCard]  # this round's cards, in the order played
    scores: list[int]  # rounds won
    hand: NotRequired[list[str]]  # the seat's own, face down
    legal: NotRequired[list[str]]


DECLARATION = (
    Option("rounds", "whole", 3, "Rounds (cards dealt to each seat)", low=1, high=3),
    Option("wins", "choice", "high", "Which card takes a round", choices=("high", "low")),
)


class ToyState(State):
    game = "toy"
    __slots__ = (
        "_events",
        "_legal_cache",
        "_pending",
        "hands",
        "leader",
        "num_seats",
        "opening_events",
        "options",
        "phase",
        "played",
        "round",
        "scores",
        "seed",
    )

    def __init__(self, options: dict[str, Any], seed: int, rng: random.Random):
        self.options, self.seed, self.num_seats = options, seed, SEATS
        deck = list(range(CARDS))
        rng.shuffle(deck)
        rounds = options["rounds"]
        self.hands = [sorted(deck[s * rounds : (s + 1) * rounds]) for s in range(SEATS)]
        self.played: list[tuple[int, int]] = []
        self.scores = [0] * SEATS
        self.round, self.leader, self.phase = 1, 0, Phase.PLAY
        self._pending, self._legal_cache, self._events = (0,), None, []
        self.opening_events = [
            Event("deal", {"seat": s, "hand": cards(self.hands[s])}, (s,)) for s in range(SEATS)
        ]

    def _legal_actions(self, seat: int) -> list[int]:
        return list(self.hands[seat])

    def _act(self, seat: int, action: int) -> None:
        self.hands[seat].remove(action)
        self.played.append((seat, action))
        self._emit("play", seat=seat, card=card_text(action))
        if len(self.played) < SEATS:
            self._pending = ((seat + 1) % SEATS,)
            return
        best = (min if self.options["wins"] == "low" else max)(self.played, key=lambda p: p[1])
        self.scores[best[0]] += 1
        self._emit("round", winner=best[0])
        self.played, self.leader = [], best[0]
        if any(self.hands):
            self.round += 1
            self._pending = (self.leader,)
        else:
            self._pending, self.phase = (), Phase.OVER

    def view(self, seat: int | None = None) -> ToyView:
        seen: ToyView = {
            "game": self.game,
            "phase": self.phase.value,
            "seat": seat,
            "round": self.round,
            "pending": list(self._pending),
            "hand_sizes": [len(h) for h in self.hands],
            "played": [{"seat": s, "card": card_text(c)} for s, c in self.played],
            "scores": list(self.scores),
        }
        if seat is not None:
            seen["hand"] = cards(self.hands[seat])
            if seat in self._pending:
                seen["legal"] = [self.action_text(a) for a in self.legal(seat)]
        return seen

    def result(self) -> Result | None:
        if not self.over:
            return None
        places = tuple(sorted(range(SEATS), key=lambda s: (-self.scores[s], s)))
        top = max(self.scores)
        winners = tuple(s for s in range(SEATS) if self.scores[s] == top)
        return Result(tuple(Fraction(s) for s in self.scores), places, winners)

    def action_text(self, action: int) -> str:
        return f"play {card_text(action)}"

    def parse_action(self, seat: int, text: str) -> int:
        words = text.split()
        if len(words) != 2 or words[0] != "play" or words[1] not in NAMES:
            raise NotationError(text, f"not 'play <card 1-{CARDS}>'")
        return NAMES.index(words[1])

    def clone(self) -> ToyState:
        new = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(self, name):
                    setattr(new, name, getattr(self, name))
        new.hands = [list(h) for h in self.hands]
        new.played, new.scores, new._events = list(self.played), list(self.scores), []
        return new


NAMES = [str(c + 1) for c in range(CARDS)]


def card_text(card: int) -> str:
    return NAMES[card]


def cards(hand: list[int]) -> list[str]:
    return [card_text(c) for c in hand]


class Toy(Game):
    name = "toy"
    title = "Toy"
    seats = range(SEATS, SEATS + 1)
    declaration = DECLARATION
    presets = (
        Preset("usual", "Three rounds, high wins", {}),
        Preset("short", "One round", {"rounds": 1}),
    )
    view_type = "tests.toy_game:ToyView"
    phases = "tests.toy_game:Phase"
    state_class: type[ToyState] = ToyState
    __slots__ = ()

    def _configure(self, options: dict[str, Any], given: dict[str, Any]) -> None:
        self._fix(num_seats=SEATS, num_actions=CARDS)

    def _new_state(self, options: dict[str, Any], seed: int, deal: Any) -> ToyState:
        return self.state_class(options, seed, make_rng(seed))

    @classmethod
    def render_text(cls, view: Mapping[str, Any]) -> str:
        seats = [f"{s} (you)" if s == view["seat"] else str(s) for s in range(SEATS)]
        played = [f"{p['seat']}: {p['card']}" for p in view["played"]] or ["-"]
        lines = [
            f"Toy, round {view['round']}, {view['phase']}",
            "seats  "
            + "  ".join(f"{s} won {n}" for s, n in zip(seats, view["scores"], strict=True)),
            "played " + ", ".join(played),
        ]
        if "hand" in view:
            lines.append("hand   " + " ".join(view["hand"]))
        return "\n".join(lines)

    @classmethod
    def event_text(cls, event: Event, me: int | None, view: Mapping[str, Any]) -> str | None:
        data = event.data
        who = "you" if data.get("seat", data.get("winner")) == me else "seat {}"
        who = who.format(data.get("seat", data.get("winner")))
        if event.kind == "deal":
            return f"{who} are dealt {' '.join(data['hand'])}"
        if event.kind == "play":
            return f"{who} play {data['card']}"
        return f"{who} take the round" if event.kind == "round" else None


# ----- broken variants: each breaks one contract, which must fail it ---------------------------


class ReadingWritesState(ToyState):
    """Reading an action leaves a trace in the state."""

    __slots__ = ("last_read",)

    def parse_action(self, seat: int, text: str) -> int:
        self.last_read = text
        return super().parse_action(seat, text)


class PeekingState(ToyState):
    """Every view shows the next seat's hand, under a key its type does not declare."""

    __slots__ = ()

    def view(self, seat: int | None = None) -> ToyView:
        seen = super().view(seat)
        other = 0 if seat is None else (seat + 1) % SEATS
        seen["peek"] = cards(self.hands[other])  # type: ignore[typeddict-unknown-key]
        return seen


class MisreadState(ToyState):
    """Reads ``play N`` as the card after N: its notation does not round-trip."""

    __slots__ = ()

    def parse_action(self, seat: int, text: str) -> int:
        return (super().parse_action(seat, text) + 1) % CARDS


class EndlessState(ToyState):
    """Deals again after every last round: random play never ends."""

    __slots__ = ()

    def _act(self, seat: int, action: int) -> None:
        super()._act(seat, action)
        if not self._pending:
            self.hands = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
            self._pending, self.phase = (self.leader,), Phase.PLAY


class UnseededState(ToyState):
    """Shuffles from the clock, not the seed: a record does not replay."""

    __slots__ = ()

    def __init__(self, options: dict[str, Any], seed: int, rng: random.Random):
        super().__init__(options, seed, random.Random())


def variant(state: type[ToyState]) -> type[Toy]:
    """Toy whose states are ``state``'s."""
    return type(f"Toy{state.__name__}", (Toy,), {"state_class": state, "__slots__": ()})


ReadingWrites = variant(ReadingWritesState)
Peeking = variant(PeekingState)
Misread = variant(MisreadState)
Endless = variant(EndlessState)
Unseeded = variant(UnseededState)


class TooFewActions(Toy):
    """Says its action space is smaller than the card ids it plays."""

    __slots__ = ()

    def _configure(self, options: dict[str, Any], given: dict[str, Any]) -> None:
        self._fix(num_seats=SEATS, num_actions=CARDS - 4)


def _audit_rules() -> Any:
    """What Toy hides, for the leak audit's own oracle (tests/server/leak_audit.py)."""
    from tests.server.leak_audit import Rules

    return Rules(
        private_events=frozenset({"deal"}),
        seat_keys=frozenset({"hand", "legal"}),
        hand_key="hand",
        hands=lambda state: [cards(h) for h in state.hands],
        min_hand=2,
    )


AUDIT_RULES = _audit_rules()


class Undeclared(Toy):
    """Declares neither its view type nor its phases."""

    view_type = None
    phases = None
    __slots__ = ()
