"""The Bao Qing-tian trial's state machine: finding the emperor, the offices, the capture, the
sentence and the verdict.

Phases, in order (``view()["phase"]``):

    draw (until someone holds an emperor) -> name -> [appoint | draw] judge, captor
    -> capture / guess (turns, each followed by the captor's guess or wait)
    -> [appoint | draw] plus, minus, times, divide, severity officers
    -> punish -> plus -> minus -> times -> divide -> severity
    -> [appoint | draw] executor -> verdict -> [carry out] -> over

An office goes to the seat holding its card (the captor's: Wang or Ma). With several holders or
none, the appointer (the emperor; the judge for the captor) names any seat; when one seat holds
Wang and another Ma, the judge picks one of those two. With option ``find_by_drawing``, an office
whose card nobody holds is found by discard/draw turns until someone holds it.
See docs/rules/bao_qingtian.md.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any, NamedTuple

from yamen.engine import Event, Result, State, make_rng
from yamen.errors import IllegalAction
from yamen.games.bao_qingtian import actions as act
from yamen.games.bao_qingtian.cards import (
    CODE,
    CRIMINALS,
    DECK,
    EMPEROR,
    MA,
    NUM_TYPES,
    OFFICE_CARDS,
    OFFICES,
    WANG,
    cards_each,
    hand_codes,
)
from yamen.games.bao_qingtian.sentence import CATALOGUE, OFFICERS, RANGES, apply_step

DRAW, NAME, APPOINT, CAPTURE, GUESS = "draw", "name", "appoint", "capture", "guess"
PUNISH, SEVERITY, VERDICT, CARRY_OUT, OVER = "punish", "severity", "verdict", "carry out", "over"
# the officers' own phases are their names: "plus", "minus", "times", "divide"

MAX_GUESSES = 10
TRIAL_OFFICES = ("plus", "minus", "times", "divide", "severity")
CATALOGUE_PUNISHMENTS = [act.punish(slot, c) for slot in range(len(CATALOGUE)) for c in act.COUNTS]
CUSTOM_PUNISHMENTS = [act.punish(act.CUSTOM_SLOT, c) for c in act.COUNTS]
OFFICER_ACTIONS = {o: [act.number(o, n) for n in RANGES[o]] for o in OFFICERS}


class Deal(NamedTuple):
    """An explicit deal: the first seat (``None``: from the seed), each hand as card types, and
    the draw pile top card first (``None``: the rest of the deck, shuffled from the seed)."""

    first: int | None
    hands: list[list[int]]
    pile: list[int] | None


class BaoQingtianState(State):
    game = "bao_qingtian"
    __slots__ = (
        "_events",
        "_legal_cache",
        "_pending",
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

    def __init__(self, options: dict[str, Any], seed: int, deal: Deal | None = None):
        self.options = options
        self.seed = seed
        self.num_seats = n = options["players"]
        self.cards_each = k = cards_each(n)
        self.rng = make_rng(seed)
        first = self.rng.randrange(n)  # the seed's rock-paper-scissors
        deck = list(DECK)
        self.rng.shuffle(deck)
        if deal is None:
            hands: list[list[int]] = [[] for _ in range(n)]
            for i in range(n * k):  # one card at a time from the first seat; top = end
                hands[(first + i) % n].append(deck.pop())
            pile = deck
        else:
            first = first if deal.first is None else deal.first
            hands = deal.hands
            pile = deal.pile[::-1] if deal.pile is not None else _rest(deck, hands)
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
        # (office, appointer, holders, choices): choices None means any seat
        self.appointing: tuple[str, int, tuple[int, ...], list[int] | None] | None = None
        self.round = self.round_turns = 0
        self.guessed_in_round = False
        self.guesses: list[dict[str, Any]] = []
        self.accused: int | None = None
        self.reason: str | None = None  # "caught" or "escaped"
        self.escaped: list[int] = []
        self.punishment: str | None = None
        self.count: int | None = None
        self.steps: list[dict[str, Any]] = []
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
        if phase in (DRAW, CAPTURE):
            self._turn(seat, action - act.DISCARD)
        elif phase == GUESS:
            self._guess(action)
        elif phase == NAME:
            self._name(action - act.NAME)
        elif phase == APPOINT:
            self._appoint(action - act.APPOINT)
        elif phase == PUNISH:
            self._punish(action)
        elif phase in OFFICERS:
            self._officer(phase, act.number_value(phase, action))
        elif phase == SEVERITY:
            self._sentence_severity(action)
        elif phase == VERDICT:
            self._verdict(action)
        else:  # CARRY_OUT
            self._emit("carried out", executor=seat)
            self._finish()

    def result(self) -> Result | None:
        """Winners: the captor when it caught the criminal, else the seats that held the named
        criminal card when the tenth guess missed (the captor excepted). Places: winners first,
        then the others in seat order. Scores: minus the final count for the tried seat when
        the sentence was carried out, 0 for everyone else."""
        if self.phase != OVER:
            return None
        n = self.num_seats
        winners = (self.offices["captor"],) if self.reason == "caught" else tuple(self.escaped)
        places = winners + tuple(s for s in range(n) if s not in winners)
        scores = [Fraction(0)] * n
        if self.verdict == "executed":
            scores[self.accused] = Fraction(-self.count)
        return Result(tuple(scores), places, winners, self._details())

    def clone(self) -> BaoQingtianState:
        return copy.deepcopy(self)

    def _details(self) -> dict[str, Any]:
        """The ledger entry of this trial: public once the game is over."""
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
        sought = (EMPEROR,) if self.seeking == "emperor" else OFFICE_CARDS[self.seeking]
        if not any(hand[c] for c in sought):  # checked after every draw
            self._pending = (self.turn,)
        elif self.seeking == "emperor":
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
        self.queue = ["judge", "captor"]
        self._fill_next()

    def _fill_next(self) -> None:
        """Fill the queued offices in order: a single holder takes the office at once; else
        the appointer chooses (or, nobody holding the card and ``find_by_drawing`` on, draw
        turns go on until somebody does)."""
        while self.queue:
            office = self.queue[0]
            holders = self._holders(OFFICE_CARDS[office])
            if len(holders) == 1:
                self._fill(self.queue.pop(0), holders[0], "holder")
                continue
            if not holders and self.options["find_by_drawing"]:
                self._seek(office)
                return
            by = self.offices["judge"] if office == "captor" else self.emperor
            choices = holders if office == "captor" and self._wang_and_ma() else None
            self.appointing = (office, by, tuple(holders), choices)
            self.phase = APPOINT
            self._pending = (by,)
            self._emit("appointing", office=office, by=by, holders=holders, choices=choices)
            return
        if "executor" in self.offices:
            self.phase = VERDICT
            self._pending = (self.emperor,)
        elif self.accused is not None:
            self.phase = PUNISH
            self._pending = (self.offices["judge"],)
        else:
            self._start_capture()

    def _holders(self, cards: tuple[int, ...]) -> list[int]:
        return [s for s in range(self.num_seats) if any(self.hands[s][c] for c in cards)]

    def _wang_and_ma(self) -> bool:
        """The Chinese rule 4(1): one seat holds Wang and another Ma, so the judge picks one of
        the two. (Two seats holding Wang, or two holding Ma, is rule 4(2): any seat.)"""
        return len(self._holders((WANG,))) == len(self._holders((MA,))) == 1

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

    def _guess_legal(self) -> list[int]:
        """After each turn: wait, or a guess. The last turn of a round without a guess yet
        leaves no wait: at least one guess per round."""
        captor = self.offices["captor"]
        last = self.last_turn[0]
        must = self.round_turns == self.num_seats and not self.guessed_in_round
        acts = [] if must else [act.WAIT]
        if last != captor:
            acts += [act.GUESS_DISCARDED + last, act.GUESS_DREW + last]
        acts += [act.GUESS_HOLDS + s for s in range(self.num_seats) if s != captor]
        return acts

    def _guess(self, action: int) -> None:
        captor = self.offices["captor"]
        if action == act.WAIT:
            self._emit("wait", captor=captor)
        else:
            form, seat = act.guess_parts(action)
            _, discarded, drew = self.last_turn
            if form == "discarded":
                hit = discarded == self.criminal
            elif form == "drew":
                hit = drew == self.criminal
            else:
                hit = self.hands[seat][self.criminal] > 0
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
            captor = self.offices["captor"]
            holders = (s for s in range(self.num_seats) if self.hands[s][self.criminal])
            self.escaped = [s for s in holders if s != captor]
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
        self.phase = OFFICERS[0]
        self._pending = (self.offices[OFFICERS[0]],)

    def _officer(self, officer: str, number: int) -> None:
        self.count = apply_step(self.count, officer, number)
        seat = self.offices[officer]
        self.steps.append({"step": officer, "seat": seat, "number": number, "count": self.count})
        self._emit(officer, seat=seat, number=number, count=self.count)
        following = OFFICERS.index(officer) + 1
        self.phase = OFFICERS[following] if following < len(OFFICERS) else SEVERITY
        self._pending = (self.offices[self.phase],)

    def _sentence_severity(self, action: int) -> None:
        self.severity = "light" if action == act.LIGHT else "heavy"
        self._emit("severity", seat=self.offices["severity"], severity=self.severity)
        self.queue = ["executor"]
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
        if phase in (DRAW, CAPTURE):
            hand = self.hands[seat]
            acts = [act.DISCARD + t for t in range(NUM_TYPES) if hand[t]]
        elif phase == GUESS:
            acts = self._guess_legal()
        elif phase == NAME:
            acts = [act.NAME + i for i in range(len(CRIMINALS))]
        elif phase == APPOINT:
            choices = self.appointing[3]
            acts = [
                act.APPOINT + s for s in (range(self.num_seats) if choices is None else choices)
            ]
        elif phase == PUNISH:
            acts = CATALOGUE_PUNISHMENTS + (CUSTOM_PUNISHMENTS if self.draft else [])
        elif phase in OFFICERS:
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

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): its own hand and its own discards and
        draws; of the others only that they took a turn. Offices, the named criminal, guesses
        and the sentence are public."""
        phase = self.phase
        view: dict[str, Any] = {
            "game": self.game,
            "seat": seat,
            "players": self.num_seats,
            "cards_each": self.cards_each,
            "phase": phase,
            "pending": list(self._pending),
            "first": self.first,
            "turn": self.turn if phase in (DRAW, CAPTURE) else None,
            "seeking": self.seeking if phase == DRAW else None,
            "pile": len(self.pile),
            "discards": len(self.discards),
            "refills": self.refills,
            "turns": self.turns,
            "last_turn": None if self.last_turn is None else self.last_turn[0],
            "emperor": self.emperor,
            "criminal": None if self.criminal is None else CODE[self.criminal],
            "offices": dict(self.offices),
            "how": dict(self.how),
            "appointing": self._appointing_view(),
            "capture": self._capture_view(),
            "accused": self.accused,
            "why": self.reason,
            "punishment": self.punishment,
            "sentence": [dict(s) for s in self.steps],
            "count": self.count,
            "severity": self.severity,
            "verdict": self.verdict,
        }
        if seat is not None:
            view["hand"] = hand_codes(self.hands[seat])
            view["my_turns"] = [
                {"discarded": CODE[out], "drew": CODE[got]} for out, got in self.history[seat]
            ]
            if seat in self._pending:
                view["legal"] = [self.action_text(a) for a in self._legal_now(seat)]
        return view

    def _appointing_view(self) -> dict[str, Any] | None:
        if self.phase != APPOINT:
            return None
        office, by, holders, choices = self.appointing
        choices = None if choices is None else list(choices)
        return {"office": office, "by": by, "holders": list(holders), "choices": choices}

    def _capture_view(self) -> dict[str, Any] | None:
        if self.round == 0:
            return None
        return {
            "captor": self.offices["captor"],
            "round": self.round,
            "turns_this_round": self.round_turns,
            "guessed_this_round": self.guessed_in_round,
            "guesses_left": MAX_GUESSES - len(self.guesses),
            "guesses": [dict(g) for g in self.guesses],
        }


def _rest(shuffled: list[int], hands: list[list[int]]) -> list[int]:
    """The shuffled deck without the cards of an explicit deal's hands (top = end)."""
    dealt = [0] * NUM_TYPES
    for hand in hands:
        for card in hand:
            dealt[card] += 1
    rest = []
    for card in shuffled:
        if dealt[card]:
            dealt[card] -= 1
        else:
            rest.append(card)
    return rest
