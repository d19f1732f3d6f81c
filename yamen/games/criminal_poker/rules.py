"""Criminal Poker's state machine: from the opening reveal to the arrest, one phase after
another (phases.py draws the order).

The *investigator* is the sheriff (sheriff mode) or the detective (detective mode): it calls
which suspect takes the next turn, looks at the deck, and ends the questioning. The detective
is a suspect too. The rules it follows live beside it: the setup in setup.py, who did it in
culprit.py, who wins in outcome.py, what each seat sees in view.py, the notation in actions.py.
See docs/rules/criminal_poker.md.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from yamen.engine import Event, Result, State, make_rng
from yamen.games.criminal_poker import actions, culprit, outcome
from yamen.games.criminal_poker.actions import (
    ARREST_BASE,
    DRAW,
    KEEP_HIDDEN,
    NEXT_BASE,
    REVEAL_BASE,
    SKIP,
    VOTE_BASE,
)
from yamen.games.criminal_poker.cards import DETECTIVE, SHERIFF, Catalog
from yamen.games.criminal_poker.phases import (
    ARREST,
    NEXT,
    OPENING,
    OVER,
    QUESTIONING,
    REVEAL,
    TURN,
    VOTE,
    WINDOWS,
    Phase,
)
from yamen.games.criminal_poker.setup import (
    explicit_setup,
    random_setup,
    role_counts,
    suspect_count,
)
from yamen.games.criminal_poker.view import (
    CriminalPokerFinal,
    CriminalPokerView,
    FinalSeat,
    PublicTurn,
    seat_view,
)

VOTE_ROUNDS = 3  # the first vote and at most two re-votes (RULINGS)


class CriminalPokerState(State):
    game = "criminal_poker"
    phase: Phase
    __slots__ = (  # besides the engine's own (State.__slots__)
        "_result",
        "acted",
        "answers",
        "arrested",
        "catalog",
        "deck",
        "hidden",
        "investigator",
        "looked",
        "mode",
        "num_seats",
        "opening_events",
        "options",
        "phase",
        "pile",
        "roles",
        "seed",
        "shown",
        "suspects",
        "turn",
        "turns",
        "votes",
    )

    def __init__(self, options: dict[str, Any], seed: int, catalog: Catalog, deal: Any = None):
        self.options = options
        self.seed = seed
        self.catalog = catalog
        self.mode = options["mode"]
        self.num_seats = options["players"]
        self.deck = catalog.deck(suspect_count(options))
        rng = make_rng(seed)  # all chance is in the setup
        if deal is None:
            setup = random_setup(options, len(self.deck), rng)
        else:
            setup = explicit_setup(deal, options, self.deck, rng)
        self.roles = setup.roles
        self.hidden = setup.hands
        self.shown: list[list[int]] = [[] for _ in self.roles]
        self.pile = setup.pile
        self.investigator = next(s for s, r in enumerate(self.roles) if r in (SHERIFF, DETECTIVE))
        self.suspects = tuple(s for s, r in enumerate(self.roles) if r != SHERIFF)
        self.acted: list[int] = []
        self.turn: int | None = None
        self.turns: list[PublicTurn] = []  # public: who skipped, drew, revealed what
        self.looked = False
        self.votes: list[list[int]] = []  # each finished vote round: the target of each seat
        self.arrested: tuple[int, ...] | None = None
        self._result: Result | None = None
        self._legal_cache: tuple[int, list[int]] | None = None
        self._events: list[Event] = []
        self._open_game()
        self.opening_events = self._events

    # ------------------------------------------------------------------ protocol

    def _act(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase in WINDOWS:
            self._answer(seat, action)
        elif phase == NEXT:
            self._start_turn(action - NEXT_BASE)
        elif phase == TURN:
            self._take_turn(seat, action)
        elif phase == REVEAL:
            self._after_draw(seat, action)
        elif phase == QUESTIONING:
            self._end_questioning()
        else:  # ARREST
            self._finish((action - ARREST_BASE,))

    def result(self) -> Result | None:
        return self._result

    def clone(self) -> CriminalPokerState:
        new = object.__new__(CriminalPokerState)
        for name in (*State.__slots__, *self.__slots__):  # the engine's fields too
            setattr(new, name, getattr(self, name))
        new.hidden = [list(h) for h in self.hidden]
        new.shown = [list(s) for s in self.shown]
        new.pile = list(self.pile)
        new.acted = list(self.acted)
        new.turns = [t.copy() for t in self.turns]
        new.answers = dict(self.answers)
        new.votes = [list(v) for v in self.votes]
        new._events = []
        return new

    # ------------------------------------------------------------------ setting up

    def _open_game(self) -> None:
        inv = self.investigator
        self._emit(
            "setup",
            mode=self.mode,
            players=self.num_seats,
            investigator=inv,
            role=self.roles[inv],
            suspects=list(self.suspects),
            roles_in_play=dict(sorted(role_counts(self.options).items())),
            deck=[card.id for card in self.deck],
        )
        for seat, role in enumerate(self.roles):
            self._emit("identity", to=(seat,), role=role)
        for seat in self.suspects:
            self._emit("evidence", to=(seat,), cards=self._ids(self.hidden[seat]))
        self._emit(
            "dealt", hands={str(s): len(self.hidden[s]) for s in self.suspects}, deck=len(self.pile)
        )
        self._open_window(OPENING, self.suspects)

    def _ids(self, cards: list[int]) -> list[str]:
        deck = self.deck
        return [deck[c].id for c in cards]

    # ------------------------------------------------------------------ decisions

    def _legal_actions(self, seat: int) -> list[int]:
        phase = self.phase
        if phase == OPENING:
            acts = [REVEAL_BASE + c for c in sorted(self.hidden[seat])]
        elif phase == NEXT:
            acts = [NEXT_BASE + s for s in self.suspects if s not in self.acted]
        elif phase == TURN:
            acts = [SKIP, DRAW] if self.pile else [SKIP]
        elif phase == REVEAL:
            acts = [KEEP_HIDDEN] + [REVEAL_BASE + c for c in sorted(self.hidden[seat])]
        elif phase == QUESTIONING:
            acts = [actions.END_QUESTIONING]
        elif phase == ARREST:
            acts = [ARREST_BASE + s for s in self.suspects]
        elif phase == VOTE:
            acts = [VOTE_BASE + s for s in range(self.num_seats) if s != seat]
        else:
            acts = []
        return acts

    def _open_window(self, phase: Phase, seats: tuple[int, ...]) -> None:
        """A question asked of several seats at once; answers stay sealed until all are in."""
        self.phase = phase
        self.answers: dict[int, int] = {}
        self._pending = seats

    def _answer(self, seat: int, action: int) -> None:
        self.answers[seat] = action
        self._pending = tuple(s for s in self._pending if s != seat)
        self._emit("answered", seat=seat)
        if self._pending:
            return
        if self.phase == OPENING:
            self._close_opening()
        else:
            self._close_vote()

    def _close_opening(self) -> None:
        revealed: list[str | None] = [None] * self.num_seats
        for seat, action in sorted(self.answers.items()):
            card = action - REVEAL_BASE
            self.hidden[seat].remove(card)
            self.shown[seat].append(card)
            revealed[seat] = self.deck[card].id
        self.answers = {}
        self._emit("opening revealed", cards=revealed)
        self._call_next()

    def _call_next(self) -> None:
        """The investigator calls the next suspect; the last one left needs no call."""
        left = [s for s in self.suspects if s not in self.acted]
        if len(left) > 1:
            self.phase = NEXT
            self._pending = (self.investigator,)
        elif left:
            self._start_turn(left[0])
        else:
            self._look_at_deck()

    def _start_turn(self, seat: int) -> None:
        self.phase = TURN
        self.turn = seat
        self._pending = (seat,)
        self._emit("next", seat=seat)

    def _take_turn(self, seat: int, action: int) -> None:
        if action == SKIP:
            self.turns.append({"seat": seat, "action": "skip", "revealed": None})
            self._emit("skip", seat=seat)
            self._end_turn(seat)
            return
        card = self.pile.pop()
        self.hidden[seat].append(card)
        self.turns.append({"seat": seat, "action": "draw", "revealed": None})
        self._emit("draw", seat=seat, deck=len(self.pile))
        self._emit("drew", to=(seat,), card=self.deck[card].id)
        self.phase = REVEAL

    def _after_draw(self, seat: int, action: int) -> None:
        if action == KEEP_HIDDEN:
            self._emit("keep hidden", seat=seat)
        else:
            card = action - REVEAL_BASE
            self.hidden[seat].remove(card)
            self.shown[seat].append(card)
            self.turns[-1]["revealed"] = self.deck[card].id
            self._emit("reveal", seat=seat, card=self.deck[card].id)
        self._end_turn(seat)

    def _end_turn(self, seat: int) -> None:
        self.acted.append(seat)
        self.turn = None
        self._call_next()

    def _look_at_deck(self) -> None:
        """Every suspect has had its turn: the investigator sees the rest of the deck (an empty
        deck too, so that the look tells nobody anything by its absence)."""
        inv = self.investigator
        self.looked = True
        self._emit("deck look", seat=inv, count=len(self.pile))
        self._emit("deck", to=(inv,), cards=self._ids(sorted(self.pile)))
        self._question()

    def _question(self) -> None:
        self.phase = QUESTIONING
        self._pending = (self.investigator,)
        self._emit("questioning", round=len(self.votes) + 1)

    def talk(self, seat: int) -> bool:
        """Questioning is the seed's time to talk: the investigator ends it when the table has
        said enough."""
        return self.phase == QUESTIONING and seat in self._pending

    def _end_questioning(self) -> None:
        self._emit("questioning over")
        if self.mode == SHERIFF:
            self.phase = ARREST
            self._pending = (self.investigator,)
        else:
            self._open_window(VOTE, tuple(range(self.num_seats)))

    def _close_vote(self) -> None:
        targets = [self.answers[s] - VOTE_BASE for s in range(self.num_seats)]
        self.votes.append(targets)
        self.answers = {}
        tally = Counter(targets)
        top = max(tally.values())
        leaders = tuple(sorted(s for s, n in tally.items() if n == top))
        self._emit(
            "votes",
            round=len(self.votes),
            votes=targets,
            tally=[tally.get(s, 0) for s in range(self.num_seats)],
        )
        if len(leaders) <= 2:
            self._finish(leaders)
        elif len(self.votes) < VOTE_ROUNDS:
            self._emit("revote", tied=list(leaders), round=len(self.votes) + 1)
            self._question()
        else:
            self._finish(())

    # ------------------------------------------------------------------ the end

    def _finish(self, arrested: tuple[int, ...]) -> None:
        self.arrested = arrested
        self.phase = OVER
        self._pending = ()
        self._emit("arrest", seats=list(arrested))
        holdings = {
            s: [self.deck[c] for c in self.hidden[s] + self.shown[s]] for s in self.suspects
        }
        verdict = culprit.judge(holdings)
        won = outcome.wins(self.roles, verdict.culprits, arrested)
        seats: list[FinalSeat] = []
        for seat, role in enumerate(self.roles):
            judged = verdict.assessments.get(seat)
            seats.append(
                {
                    "seat": seat,
                    "identity": role,
                    "shown": self._ids(self.shown[seat]),
                    "hidden": self._ids(sorted(self.hidden[seat])),
                    "innocence": None if judged is None else judged.innocence,
                    "valid": None if judged is None else judged.valid,
                    "culprit": seat in verdict.culprits,
                    "arrested": seat in arrested,
                    "won": won[seat],
                }
            )
        winners = tuple(s for s in range(self.num_seats) if won[s])
        losers = tuple(s for s in range(self.num_seats) if not won[s])
        details: CriminalPokerFinal = {
            "mode": self.mode,
            "investigator": self.investigator,
            "seats": seats,
            "culprits": list(verdict.culprits),
            "by_weapon": verdict.by_weapon,
            "arrested": list(arrested),
            "caught": outcome.caught(verdict.culprits, arrested),
            "votes": [list(v) for v in self.votes],
        }
        scores = tuple(Fraction(int(w)) for w in won)
        self._result = Result(scores, winners + losers, winners, dict(details))
        self._emit("game over", **details)

    # ------------------------------------------------------------------ notation

    def action_text(self, action: int) -> str:
        return actions.text(action, self.deck, self.num_seats)

    def parse_action(self, seat: int, text: str) -> int:
        """``skip``, ``draw``, ``keep hidden``, ``end questioning``, ``next 2``, ``arrest 3``,
        ``vote 1``, ``reveal P3``; case and spacing do not matter."""
        return actions.parse(text, self.deck, self.num_seats)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None = None) -> CriminalPokerView:
        """What ``seat`` may see (``None``: a spectator); see view.py."""
        return seat_view(self, seat)
