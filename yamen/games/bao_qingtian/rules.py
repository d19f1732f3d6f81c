"""The Bao Qing-tian trial's state machine: finding the emperor, the offices, the capture, the
sentence and the verdict, one phase after another (phases.py draws the order).

The rules it follows live beside it: the deal in deal.py, who takes an office in offices.py,
the captor's guesses in capture.py, the sentence's arithmetic in sentence.py, winners and scores
in outcome.py, what each seat sees in view.py, the notation in actions.py.
See docs/rules/bao_qingtian.md.
"""

from __future__ import annotations

import copy
from typing import Any

from yamen.engine import Event, Result, State, make_rng
from yamen.errors import IllegalAction
from yamen.games.bao_qingtian import actions as act
from yamen.games.bao_qingtian import capture, outcome
from yamen.games.bao_qingtian.capture import MAX_GUESSES
from yamen.games.bao_qingtian.cards import (
    CODE,
    CRIMINALS,
    EMPEROR,
    NUM_TYPES,
    OFFICE_CARDS,
    OFFICES,
    cards_each,
    hand_codes,
)
from yamen.games.bao_qingtian.deal import ExplicitDeal, deal
from yamen.games.bao_qingtian.offices import (
    CRIME_OFFICES,
    LAST_OFFICES,
    TRIAL_OFFICES,
    Appointment,
    filling,
)
from yamen.games.bao_qingtian.phases import (
    APPOINT,
    CAPTURE,
    CARRY_OUT,
    DRAW,
    GUESS,
    NAME,
    OFFICER_PHASES,
    OVER,
    PUNISH,
    SEVERITY,
    TURNS,
    VERDICT,
    Phase,
)
from yamen.games.bao_qingtian.sentence import CATALOGUE, OFFICERS, RANGES, apply_step
from yamen.games.bao_qingtian.view import BaoQingtianView, GuessRecord, SentenceStep, seat_view

CATALOGUE_PUNISHMENTS = [act.punish(slot, c) for slot in range(len(CATALOGUE)) for c in act.COUNTS]
CUSTOM_PUNISHMENTS = [act.punish(act.CUSTOM_SLOT, c) for c in act.COUNTS]
OFFICER_ACTIONS = {o: [act.number(o, n) for n in RANGES[o]] for o in OFFICERS}


class BaoQingtianState(State):
    game = "bao_qingtian"
    phase: Phase
    __slots__ = (  # besides the engine's own (State.__slots__)
        "accused",
        "appointing",
        "cards_each",
        "count",
        "criminal",
        "discards",
        "draft",
        "emperor",
        "escaped",
        "first",
        "guessed_in_round",
        "guesses",
        "hands",
        "history",
        "how",
        "last_turn",
        "num_seats",
        "offices",
        "opening_events",
        "options",
        "phase",
        "pile",
        "punishment",
        "queue",
        "reason",
        "refills",
        "rng",
        "round",
        "round_turns",
        "seed",
        "seeking",
        "severity",
        "steps",
        "turn",
        "turns",
        "verdict",
    )

    def __init__(self, options: dict[str, Any], seed: int, explicit: ExplicitDeal | None = None):
        self.options = options
        self.seed = seed
        self.num_seats = n = options["players"]
        self.cards_each = k = cards_each(n)
        self.rng = make_rng(seed)
        first, hands, pile = deal(n, self.rng, explicit)
        self.first = self.turn = first
        self.hands = [[0] * NUM_TYPES for _ in range(n)]
        for seat, cards in enumerate(hands):
            for card in cards:
                self.hands[seat][card] += 1
        self.pile: list[int] = pile  # the top card is the last
        self.discards: list[int] = []
        self.refills = self.turns = 0
        self.last_turn: tuple[int, int, int] | None = None  # (seat, discarded, drew)
        self.history: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # own (out, in)
        self.emperor: int | None = None
        self.criminal: int | None = None
        self.offices: dict[str, int] = {}
        self.how: dict[str, str] = {}  # how each office was filled: holder, appointed, drawn
        self.queue: list[str] = []  # offices still to fill, in order
        self.seeking: str | None = None  # what draw turns look for: "emperor" or an office
        self.appointing: Appointment | None = None
        self.round = self.round_turns = 0
        self.guessed_in_round = False
        self.guesses: list[GuessRecord] = []
        self.accused: int | None = None
        self.reason: str | None = None  # "caught" or "escaped"
        self.escaped: list[int] = []
        self.punishment: str | None = None
        self.count: int | None = None
        self.steps: list[SentenceStep] = []
        self.severity: str | None = None
        self.verdict: str | None = None
        self.draft: str | None = None  # the judge's own words, while apply_text applies them
        self._legal_cache: tuple[int, list[int]] | None = None
        self._events: list[Event] = []
        self._emit("deal", players=n, cards_each=k, first=first, pile=len(pile))
        for seat in range(n):
            self._emit("hand", to=(seat,), cards=hand_codes(self.hands[seat]))
        holders = [s for s in self._from_first() if self.hands[s][EMPEROR]]
        if holders:
            self._crown(holders[0])  # two holders: the first in turn order
        else:
            self._seek("emperor")
        self.opening_events = self._events

    # ------------------------------------------------------------------ protocol

    def _act(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase in TURNS:
            self._turn(seat, action - act.DISCARD)
        elif phase == GUESS:
            self._guess(action)
        elif phase == NAME:
            self._name(action - act.NAME)
        elif phase == APPOINT:
            self._appoint(action - act.APPOINT)
        elif phase == PUNISH:
            self._punish(action)
        elif phase in OFFICER_PHASES:
            self._officer(phase, act.number_value(phase, action))
        elif phase == SEVERITY:
            self._sentence_severity(action)
        elif phase == VERDICT:
            self._verdict(action)
        else:  # CARRY_OUT
            self._emit("carried out", executor=seat)
            self._finish()

    def result(self) -> Result | None:
        """The trial's outcome (outcome.py) once it is over, with its ledger entry."""
        if self.phase != OVER:
            return None
        n = self.num_seats
        won = outcome.winners(self.offices["captor"], self.reason == "caught", self.escaped)
        executed = self.verdict == "executed"
        assert self.accused is not None and self.count is not None  # a trial ends sentenced
        scores = outcome.scores(n, self.accused, self.count, executed)
        return Result(scores, outcome.places(n, won), won, self._details())

    def clone(self) -> BaoQingtianState:
        return copy.deepcopy(self)

    def _details(self) -> dict[str, Any]:
        """The ledger entry of this trial: public once the game is over."""
        assert self.criminal is not None  # named before any trial
        return {
            "criminal": CODE[self.criminal],
            "emperor": self.emperor,
            "offices": {office: self.offices[office] for office in OFFICES},
            "how": {office: self.how[office] for office in OFFICES},
            "tried": self.accused,
            "why": self.reason,
            "escaped": list(self.escaped),
            "guesses": [dict(g) for g in self.guesses],
            "punishment": self.punishment,
            "sentence": [dict(s) for s in self.steps],
            "count": self.count,
            "severity": self.severity,
            "verdict": self.verdict,
        }

    # ------------------------------------------------------------------ turns

    def _from_first(self) -> list[int]:
        n = self.num_seats
        return [(self.first + i) % n for i in range(n)]

    def _seek(self, what: str) -> None:
        """Discard/draw turns, from the seat whose turn it is, until someone holds ``what``."""
        self.phase = DRAW
        self.seeking = what
        self._pending = (self.turn,)
        self._emit("seeking", card=what, seat=self.turn)

    def _turn(self, seat: int, card: int) -> None:
        """Discard ``card`` face down, draw the top card; an empty pile is first refilled
        with the shuffled discards (the card just discarded among them)."""
        hand = self.hands[seat]
        hand[card] -= 1
        self.discards.append(card)
        if not self.pile:
            self.pile, self.discards = self.discards, []
            self.rng.shuffle(self.pile)
            self.refills += 1
            self._emit("refill", cards=len(self.pile))
        drawn = self.pile.pop()
        hand[drawn] += 1
        self.history[seat].append((card, drawn))
        self.last_turn = (seat, card, drawn)
        self.turns += 1
        self.turn = (seat + 1) % self.num_seats
        self._emit("turn", seat=seat, pile=len(self.pile), discards=len(self.discards))
        self._emit("turn cards", to=(seat,), discarded=CODE[card], drew=CODE[drawn])
        if self.phase == CAPTURE:
            self.round_turns += 1
            self.phase = GUESS
            self._pending = (self.offices["captor"],)
            return
        seeking = self.seeking
        assert seeking is not None  # draw turns always seek something (_seek)
        sought = (EMPEROR,) if seeking == "emperor" else OFFICE_CARDS[seeking]
        if not any(hand[c] for c in sought):  # checked after every draw
            self._pending = (self.turn,)
        elif seeking == "emperor":
            self._crown(seat)
        else:
            self._fill(self.queue.pop(0), seat, "drawn")
            self._fill_next()

    # ------------------------------------------------------------------ the emperor and offices

    def _crown(self, seat: int) -> None:
        self.emperor = seat
        self.seeking = None
        self.phase = NAME
        self._pending = (seat,)
        self._emit("emperor", seat=seat)

    def _name(self, index: int) -> None:
        self.criminal = CRIMINALS[index]
        self._emit("criminal named", card=CODE[self.criminal])
        self.queue = list(CRIME_OFFICES)
        self._fill_next()

    def _fill_next(self) -> None:
        """Fill the queued offices in order (offices.py): a single holder takes the office at
        once; else the appointer chooses, or draw turns go on until somebody holds its card."""
        emperor = self.emperor
        assert emperor is not None  # offices are filled once the emperor is crowned
        while self.queue:
            office = self.queue[0]
            how = filling(
                office, self.hands, self.offices, emperor, self.options["find_by_drawing"]
            )
            if isinstance(how, int):
                self._fill(self.queue.pop(0), how, "holder")
                continue
            if how is None:
                self._seek(office)
                return
            self.appointing = how
            self.phase = APPOINT
            self._pending = (how.by,)
            choices = None if how.choices is None else list(how.choices)
            self._emit(
                "appointing", office=office, by=how.by, holders=list(how.holders), choices=choices
            )
            return
        if "executor" in self.offices:
            self.phase = VERDICT
            self._pending = (emperor,)
        elif self.accused is not None:
            self.phase = PUNISH
            self._pending = (self.offices["judge"],)
        else:
            self._start_capture()

    def _fill(self, office: str, seat: int, how: str) -> None:
        self.offices[office] = seat
        self.how[office] = how
        self.seeking = None
        self._emit("office", office=office, seat=seat, how=how)

    def _appoint(self, seat: int) -> None:
        office = self.queue.pop(0)
        self.appointing = None
        self._fill(office, seat, "appointed")
        self._fill_next()

    # ------------------------------------------------------------------ capture

    def _start_capture(self) -> None:
        self.phase = CAPTURE
        self.round = 1
        self.round_turns = 0
        self.guessed_in_round = False
        self._pending = (self.turn,)
        self._emit("capture", captor=self.offices["captor"], seat=self.turn)

    def _guess(self, action: int) -> None:
        captor = self.offices["captor"]
        if action == act.WAIT:
            self._emit("wait", captor=captor)
        else:
            form, seat = act.guess_parts(action)
            criminal, last_turn = self.criminal, self.last_turn
            assert criminal is not None and last_turn is not None  # named, and a turn taken
            hit = capture.hit(form, seat, criminal, last_turn, self.hands)
            self.guessed_in_round = True
            self.guesses.append({"round": self.round, "seat": seat, "form": form, "hit": hit})
            left = MAX_GUESSES - len(self.guesses)
            self._emit("guess", captor=captor, seat=seat, form=form, hit=hit, left=left)
            if hit:
                self._accuse(seat, "caught")
                return
            if not left:
                self._accuse(captor, "escaped")
                return
        if self.round_turns == self.num_seats:
            self.round += 1
            self.round_turns = 0
            self.guessed_in_round = False
        self.phase = CAPTURE
        self._pending = (self.turn,)

    def _accuse(self, seat: int, reason: str) -> None:
        self.accused = seat
        self.reason = reason
        if reason == "escaped":  # who holds the criminal card now: kept for the result
            assert self.criminal is not None  # the captor hunted it
            self.escaped = capture.got_away(self.hands, self.criminal, self.offices["captor"])
        self._emit("accused", seat=seat, why=reason)
        self.queue = list(TRIAL_OFFICES)
        self._fill_next()

    # ------------------------------------------------------------------ sentence and verdict

    def _punish(self, action: int) -> None:
        slot, count = act.punish_parts(action)
        words = self.draft if slot == act.CUSTOM_SLOT else CATALOGUE[slot][0]
        self.draft = None
        self.punishment, self.count = words, count
        judge = self.offices["judge"]
        self.steps.append({"step": "judge", "seat": judge, "number": count, "count": count})
        self._emit("punishment", judge=judge, punishment=words, count=count)
        self.phase = OFFICER_PHASES[0]
        self._pending = (self.offices[OFFICERS[0]],)

    def _officer(self, phase: Phase, number: int) -> None:
        index = OFFICER_PHASES.index(phase)
        officer = OFFICERS[index]  # the plain word for events and the ledger, not the member
        assert self.count is not None  # the judge set it
        self.count = apply_step(self.count, officer, number)
        seat = self.offices[officer]
        self.steps.append({"step": officer, "seat": seat, "number": number, "count": self.count})
        self._emit(officer, seat=seat, number=number, count=self.count)
        following = index + 1
        last = following == len(OFFICERS)
        self.phase = SEVERITY if last else OFFICER_PHASES[following]
        self._pending = (self.offices["severity" if last else OFFICERS[following]],)

    def _sentence_severity(self, action: int) -> None:
        self.severity = "light" if action == act.LIGHT else "heavy"
        self._emit("severity", seat=self.offices["severity"], severity=self.severity)
        self.queue = list(LAST_OFFICES)
        self._fill_next()

    def _verdict(self, action: int) -> None:
        if action == act.PARDON:
            self.verdict = "pardoned"
            self._emit("pardon", emperor=self.emperor)
            self._finish()
            return
        self.verdict = "executed"
        self._emit("execute", emperor=self.emperor, executor=self.offices["executor"])
        self.phase = CARRY_OUT
        self._pending = (self.offices["executor"],)

    def _finish(self) -> None:
        self.phase = OVER
        self._pending = ()
        self._emit("game over", **self._details())

    # ------------------------------------------------------------------ legal actions

    def _legal_actions(self, seat: int) -> list[int]:
        phase = self.phase
        if phase in TURNS:
            hand = self.hands[seat]
            acts = [act.DISCARD + t for t in range(NUM_TYPES) if hand[t]]
        elif phase == GUESS:
            assert self.last_turn is not None  # a guess follows a turn
            captor, last = self.offices["captor"], self.last_turn[0]
            n, guessed = self.num_seats, self.guessed_in_round
            acts = capture.decisions(captor, last, self.round_turns, n, guessed)
        elif phase == NAME:
            acts = [act.NAME + i for i in range(len(CRIMINALS))]
        elif phase == APPOINT:
            assert self.appointing is not None  # set while the phase is APPOINT
            choices = self.appointing.choices
            acts = [
                act.APPOINT + s for s in (range(self.num_seats) if choices is None else choices)
            ]
        elif phase == PUNISH:
            acts = CATALOGUE_PUNISHMENTS + (CUSTOM_PUNISHMENTS if self.draft else [])
        elif phase in OFFICER_PHASES:
            acts = OFFICER_ACTIONS[phase]
        elif phase == SEVERITY:
            acts = [act.LIGHT, act.HEAVY]
        elif phase == VERDICT:
            acts = [act.EXECUTE, act.PARDON]
        else:  # CARRY_OUT
            acts = [act.DONE]
        return acts

    # ------------------------------------------------------------------ notation

    def action_text(self, action: int) -> str:
        return act.action_text(action, self.draft)

    def parse_action(self, seat: int, text: str) -> int:
        """Read an action (see docs/rules/bao_qingtian.md, Notation). A punishment in the
        judge's own words reads as an own-words id, which only :meth:`apply_text` can apply:
        the words travel with the text, never in the state."""
        return act.parse(text, self.num_seats)[0]

    def check_text(self, seat: int, text: str) -> str:
        action, words = self._read_text(seat, text)
        return act.action_text(action, words)

    def apply_text(self, seat: int, text: str) -> list[Event]:
        """Read and apply, as one step: a punishment in the judge's own words carries them
        into the sentence."""
        action, words = self._read_text(seat, text)
        if words is not None:  # the own-words actions are legal while the words are here
            self.draft, self._legal_cache = words, None
        return self.apply(seat, action)

    def _read_text(self, seat: int, text: str) -> tuple[int, str | None]:
        """The action a text stands for, and the judge's own words in it (None for any other
        action), checked as :meth:`apply` checks an action."""
        self.check_turn(seat)
        action, words = act.parse(text, self.num_seats)
        if words is None:
            self.check(seat, action)
        elif self.phase != PUNISH:  # (while it is to punish, the judge alone is pending)
            written = act.action_text(action, words)
            raise IllegalAction(f"{written!r} is not a legal action for you now")
        return action, words

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None = None) -> BaoQingtianView:
        """What ``seat`` may see (``None``: a spectator); see view.py."""
        return seat_view(self, seat)
