"""The Bao Qing-tian trial as vectors for learners: a seat's observation, each action's
features, the full state for a centralized critic (the protocol: yamen/bots/encoding.py; the
layout: docs/rl.md).

The table has 3 to 50 seats, and the option ``players`` fixes them, so every seat block is as
long as the configured table (the observation's length is fixed for a configured game, the
same for every seat). Seats are relative: position 0 is the observing seat, 1 the next in turn
order, and so on, so one policy serves every seat. Cards are the 15 types (copies are alike).

The observation is read from :class:`Facts`, which both paths build alike: from the seat's
view (:meth:`BaoQingtianEncoder.encode`, the contract) or straight from the state
(:meth:`BaoQingtianEncoder.encode_seat`, the fast path, reading only the fields view.py
builds the view from; tests/rl check that the two agree). Only this module imports numpy, and
only an RL environment or a learned bot imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from yamen.engine import Game, State
from yamen.games.bao_qingtian import actions as act
from yamen.games.bao_qingtian.capture import MAX_GUESSES
from yamen.games.bao_qingtian.cards import CARD_TYPES, CODE, CRIMINALS, NUM_TYPES, OFFICES
from yamen.games.bao_qingtian.phases import APPOINT, DRAW, TURNS, Phase
from yamen.games.bao_qingtian.rules import BaoQingtianState
from yamen.games.bao_qingtian.sentence import (
    CATALOGUE,
    MAX_NUMBER,
    OFFICERS,
    SEVERITIES,
    catalogue_index,
)

MOST_EACH = 7  # the most cards a seat holds (3 seats)
MAX_SEATS = act.MAX_SEATS
DECK_SIZE = sum(t.copies for t in CARD_TYPES)
OWN_TURNS = 3  # the seat's last turns, one-hot
OWN_CLIP = 8.0  # the own discards and draws per type, / this, clipped to 1
MAX_COUNT = (MAX_NUMBER + MAX_NUMBER) * MAX_NUMBER  # judge 10, plus 10, times 10
PHASES = tuple(Phase)
PHASE_INDEX = {phase.value: i for i, phase in enumerate(PHASES)}
SEEKING = ("emperor", *OFFICES)
HOW = ("holder", "appointed", "drawn")
WHY = ("caught", "escaped")
FORMS = ("discarded", "drew", "holds")
STEPS = ("judge", *OFFICERS)
VERDICTS = ("executed", "pardoned")
PUNISHMENTS = len(CATALOGUE) + 1  # the catalogue, then the judge's own words
CODE_INDEX = {code: i for i, code in enumerate(CODE)}
SEEK_INDEX = {what: i for i, what in enumerate(SEEKING)}
HOW_INDEX = {how: i for i, how in enumerate(HOW)}
FORM_INDEX = {form: i for i, form in enumerate(FORMS)}
STEP_INDEX = {step: i for i, step in enumerate(STEPS)}
CRIMINAL_INDEX = {card: i for i, card in enumerate(CRIMINALS)}
OFFICE_INDEX = {office: i for i, office in enumerate(OFFICES)}
# action kinds, in the order of the ids
KINDS = (
    "discard",
    "name",
    "appoint",
    "wait",
    *(f"guess {form}" for form in FORMS),
    "punish",
    *OFFICERS,
    *SEVERITIES,
    "execute",
    "pardon",
    "done",
)
WORD_KIND = {
    act.WAIT: 3,
    act.LIGHT: KINDS.index("light"),
    act.HEAVY: KINDS.index("heavy"),
    act.EXECUTE: KINDS.index("execute"),
    act.PARDON: KINDS.index("pardon"),
    act.DONE: KINDS.index("done"),
}


def layout(n: int) -> tuple[tuple[str, int], ...]:
    """(name, length): the observation's blocks in order for a table of ``n`` seats;
    docs/rl.md explains each."""
    return (
        ("hand", NUM_TYPES),  # / 7
        ("discarded", NUM_TYPES),  # own discards this game, / 8 clipped
        ("drew", NUM_TYPES),  # own draws this game, / 8 clipped
        ("own_turns", OWN_TURNS * 2 * NUM_TYPES),  # most recent first: discarded, drew
        ("phase", len(PHASES)),
        ("seeking", len(SEEKING)),
        ("first", n),
        ("turn", n),
        ("last_turn", n),
        ("pending", n),
        ("emperor", n),
        ("criminal", len(CRIMINALS)),
        ("offices", len(OFFICES) * n),
        ("how", len(OFFICES) * len(HOW)),
        ("appointing", len(OFFICES)),
        ("appointer", n),
        ("holders", n),
        ("choices", n),  # every seat when the appointer may name anyone
        ("capture", 4),  # under way, round / 10, turns this round / n, guessed this round
        ("guesses", MAX_GUESSES * (n + len(FORMS) + 2)),  # seat, form, hit, round / 10
        ("accused", n),
        ("why", len(WHY)),
        ("punishment", PUNISHMENTS),
        ("sentence", len(STEPS) * 3),  # given, number / 10, count after / 200
        ("severity", len(SEVERITIES)),
        ("verdict", len(VERDICTS)),
        ("counters", 4),  # pile / 54, discards / 54, refills / 10, turns / (20 n), clipped
        ("table", 3),  # seats / 50, cards each / 7, find_by_drawing
    )


class Facts(NamedTuple):
    """What one seat knows, in the shape the vector is built from (seats absolute, cards as
    type ids)."""

    me: int
    phase: str
    pending: Sequence[int]
    first: int
    turn: int | None
    seeking: str | None
    pile: int
    discards: int
    refills: int
    turns: int
    last_turn: int | None
    emperor: int | None
    criminal: int | None
    offices: Mapping[str, int]
    how: Mapping[str, str]
    appointing: tuple[str, int, Sequence[int], Sequence[int] | None] | None
    capture: tuple[int, int, bool] | None  # round, turns this round, guessed this round
    guesses: Sequence[tuple[int, int, str, bool]]  # round, seat, form, hit
    accused: int | None
    why: str | None
    punishment: int | None  # catalogue index, or len(CATALOGUE) for the judge's own words
    sentence: Sequence[tuple[str, int, int]]  # step, number, count after
    severity: str | None
    verdict: str | None
    hand: Sequence[int]  # counts by type
    own: Sequence[tuple[int, int]]  # own turns: (discarded, drew) types


def facts_of_view(view: Mapping[str, Any]) -> Facts:
    """The facts a seat's view gives."""
    hand = [0] * NUM_TYPES
    for code in view["hand"]:
        hand[CODE_INDEX[code]] += 1
    appointing = view["appointing"]
    capture = view["capture"]
    punishment = view["punishment"]
    return Facts(
        view["seat"],
        view["phase"],
        view["pending"],
        view["first"],
        view["turn"],
        view["seeking"],
        view["pile"],
        view["discards"],
        view["refills"],
        view["turns"],
        view["last_turn"],
        view["emperor"],
        None if view["criminal"] is None else CODE_INDEX[view["criminal"]],
        view["offices"],
        view["how"],
        None
        if appointing is None
        else (
            appointing["office"],
            appointing["by"],
            appointing["holders"],
            appointing["choices"],
        ),
        None
        if capture is None
        else (capture["round"], capture["turns_this_round"], capture["guessed_this_round"]),
        []
        if capture is None
        else [(g["round"], g["seat"], g["form"], g["hit"]) for g in capture["guesses"]],
        view["accused"],
        view["why"],
        None if punishment is None else _punishment(punishment),
        [(s["step"], s["number"], s["count"]) for s in view["sentence"]],
        view["severity"],
        view["verdict"],
        hand,
        [(CODE_INDEX[t["discarded"]], CODE_INDEX[t["drew"]]) for t in view["my_turns"]],
    )


def facts_of_state(state: BaoQingtianState, seat: int) -> Facts:
    """The same facts read from the state: each field as view.py builds the view from it."""
    phase = state.phase
    appointing = state.appointing
    started = state.round != 0
    return Facts(
        seat,
        phase,
        state._pending,
        state.first,
        state.turn if phase in TURNS else None,
        state.seeking if phase == DRAW else None,
        len(state.pile),
        len(state.discards),
        state.refills,
        state.turns,
        None if state.last_turn is None else state.last_turn[0],
        state.emperor,
        state.criminal,
        state.offices,
        state.how,
        None
        if phase != APPOINT or appointing is None
        else (appointing.office, appointing.by, appointing.holders, appointing.choices),
        (state.round, state.round_turns, state.guessed_in_round) if started else None,
        [(g["round"], g["seat"], g["form"], g["hit"]) for g in state.guesses] if started else [],
        state.accused,
        state.reason,
        None if state.punishment is None else _punishment(state.punishment),
        [(s["step"], s["number"], s["count"]) for s in state.steps],
        state.severity,
        state.verdict,
        state.hands[seat],
        state.history[seat],
    )


@cache
def _punishment(words: str) -> int:
    """A punishment's slot: its catalogue index, or the judge's own words."""
    slot = catalogue_index(words)
    return len(CATALOGUE) if slot is None else slot


class BaoQingtianEncoder:
    """The encoder a Bao Qing-tian game declares (``Game.encoder``)."""

    def __init__(self, game: Game):
        self.n = n = game.num_seats
        self.cards_each = max(1, min(MOST_EACH, 25 // n))
        self.find_by_drawing = bool(game.options["find_by_drawing"])
        self.layout = layout(n)
        self.offset: dict[str, int] = {}
        at = 0
        for name, length in self.layout:
            self.offset[name] = at
            at += length
        self.observation_size = at
        self.rel = [[(s - me) % n for s in range(n)] for me in range(n)]  # absolute -> relative
        self.seat_at = len(KINDS) + NUM_TYPES
        self.punish_at = self.seat_at + n
        self.number_at = self.punish_at + PUNISHMENTS
        self.action_feature_size = self.number_at + MAX_NUMBER + 1
        self.base = np.zeros(self.observation_size, dtype=np.float32)  # the table block
        table = self.offset["table"]
        self.base[table : table + 3] = (n / MAX_SEATS, self.cards_each / MOST_EACH, 0.0)
        self.base[table + 2] = float(self.find_by_drawing)

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The seat's observation from its view (the contract)."""
        assert view["seat"] == seat, "a seat's observation is read from its own view"
        return self._vector(facts_of_view(view))

    def encode_seat(self, state: State, seat: int) -> np.ndarray:
        """The same vector straight from the state (no view built)."""
        assert isinstance(state, BaoQingtianState)
        return self._vector(facts_of_state(state, seat))

    def action_features(self, view: Mapping[str, Any], actions: list[int]) -> np.ndarray:
        """One row per action: its kind one-hot, then, where it has them, its card type
        one-hot (a discard, a criminal named), its seat relative to the viewer one-hot (an
        appointment, a guess), its punishment one-hot and its number one-hot (0 to 10: the
        judge's count, an officer's number)."""
        return self._action_rows(view["seat"], actions)

    def action_features_seat(self, state: State, seat: int, actions: list[int]) -> np.ndarray:
        """The same rows without a view (they depend on the seat alone)."""
        return self._action_rows(seat, actions)

    def _action_rows(self, me: int, actions: list[int]) -> np.ndarray:
        rows = np.zeros((len(actions), self.action_feature_size), dtype=np.float32)
        rel = self.rel[me]
        for row, action in enumerate(actions):
            kind, card, seat, slot, number = _parts(action)
            rows[row, kind] = 1.0
            if card is not None:
                rows[row, len(KINDS) + card] = 1.0
            if seat is not None and seat < self.n:  # ids of seats beyond the table: never legal
                rows[row, self.seat_at + rel[seat]] = 1.0
            if slot is not None:
                rows[row, self.punish_at + slot] = 1.0
            if number is not None:
                rows[row, self.number_at + number] = 1.0
        return rows

    def _vector(self, f: Facts) -> np.ndarray:
        """The observation from the facts: the table's constant block copied, then ones
        gathered as indices and other values as (index, value) pairs, set at once (numpy
        costs per call, not per element)."""
        at, n = self.offset, self.n
        rel = self.rel[f.me]
        ones: list[int] = []
        spots: list[int] = []
        values: list[float] = []
        discarded = [0] * NUM_TYPES
        drew = [0] * NUM_TYPES
        for gave, got in f.own:
            discarded[gave] += 1
            drew[got] += 1
        for first, counts, scale in (
            (at["hand"], f.hand, MOST_EACH),
            (at["discarded"], discarded, OWN_CLIP),
            (at["drew"], drew, OWN_CLIP),
        ):
            for t, count in enumerate(counts):
                if count:
                    spots.append(first + t)
                    values.append(min(1.0, count / scale))
        first = at["own_turns"]
        for i, (gave, got) in enumerate(reversed(f.own[-OWN_TURNS:])):
            ones += [first + 2 * i * NUM_TYPES + gave, first + (2 * i + 1) * NUM_TYPES + got]
        ones.append(at["phase"] + PHASE_INDEX[f.phase])
        if f.seeking is not None:
            ones.append(at["seeking"] + SEEK_INDEX[f.seeking])
        ones.append(at["first"] + rel[f.first])
        if f.turn is not None:
            ones.append(at["turn"] + rel[f.turn])
        if f.last_turn is not None:
            ones.append(at["last_turn"] + rel[f.last_turn])
        ones += [at["pending"] + rel[s] for s in f.pending]
        if f.emperor is not None:
            ones.append(at["emperor"] + rel[f.emperor])
        if f.criminal is not None:
            ones.append(at["criminal"] + CRIMINAL_INDEX[f.criminal])
        for office, holder in f.offices.items():
            i = OFFICE_INDEX[office]
            ones.append(at["offices"] + i * n + rel[holder])
            ones.append(at["how"] + i * len(HOW) + HOW_INDEX[f.how[office]])
        if f.appointing is not None:
            office, by, holders, choices = f.appointing
            ones.append(at["appointing"] + OFFICE_INDEX[office])
            ones.append(at["appointer"] + rel[by])
            ones += [at["holders"] + rel[s] for s in holders]
            ones += [at["choices"] + rel[s] for s in (range(n) if choices is None else choices)]
        if f.capture is not None:
            round_no, turns, guessed = f.capture
            ones.append(at["capture"])
            spots += [at["capture"] + 1, at["capture"] + 2]
            values += [round_no / MAX_GUESSES, turns / n]
            if guessed:
                ones.append(at["capture"] + 3)
        width = n + len(FORMS) + 2
        for i, (round_no, seat, form, hit) in enumerate(f.guesses):
            first = at["guesses"] + i * width
            ones += [first + rel[seat], first + n + FORM_INDEX[form]]
            if hit:
                ones.append(first + n + len(FORMS))
            spots.append(first + n + len(FORMS) + 1)
            values.append(round_no / MAX_GUESSES)
        if f.accused is not None:
            ones.append(at["accused"] + rel[f.accused])
        if f.why is not None:
            ones.append(at["why"] + WHY.index(f.why))
        if f.punishment is not None:
            ones.append(at["punishment"] + f.punishment)
        for step, number, count in f.sentence:
            first = at["sentence"] + 3 * STEP_INDEX[step]
            ones.append(first)
            spots += [first + 1, first + 2]
            values += [number / MAX_NUMBER, count / MAX_COUNT]
        if f.severity is not None:
            ones.append(at["severity"] + SEVERITIES.index(f.severity))
        if f.verdict is not None:
            ones.append(at["verdict"] + VERDICTS.index(f.verdict))
        first = at["counters"]
        spots += [first, first + 1, first + 2, first + 3]
        values += [
            f.pile / DECK_SIZE,
            f.discards / DECK_SIZE,
            min(1.0, f.refills / 10),
            min(1.0, f.turns / (20 * n)),
        ]
        out = self.base.copy()
        out[ones] = 1.0
        out[spots] = values
        return out


def _parts(action: int) -> tuple[int, int | None, int | None, int | None, int | None]:
    """An action id as (kind, card type, seat, punishment slot, number); None where the
    action has no such part."""
    if action in WORD_KIND:
        return WORD_KIND[action], None, None, None, None
    if action < act.NAME:
        return 0, action - act.DISCARD, None, None, None
    if action < act.APPOINT:
        return 1, CRIMINALS[action - act.NAME], None, None, None
    if action < act.WAIT:
        return 2, None, action - act.APPOINT, None, None
    if action < act.PUNISH:
        form, seat = act.guess_parts(action)
        return KINDS.index(f"guess {form}"), None, seat, None, None
    if act.is_punish(action):
        slot, count = act.punish_parts(action)
        return KINDS.index("punish"), None, None, slot, count
    for officer in reversed(OFFICERS):
        if action >= act.NUMBER[officer]:
            return KINDS.index(officer), None, None, None, act.number_value(officer, action)
    raise ValueError(f"{action} is not a Bao Qing-tian action id")
