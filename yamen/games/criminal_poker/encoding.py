"""Criminal Poker as vectors for learners: a seat's observation, each action's features, the
full state for a centralized critic (the protocol: yamen/bots/encoding.py; the layout:
docs/rl.md).

Seats are relative (position 0 is the observing seat, 1 the next seat up, ...) and padded to
the most seats the game takes (6), and cards are indexed by their place in the game's card
list (all of its evidence, whether this game uses it or not), so that every mode and player
count of one card list shares one layout and one policy can serve them all.

The observation is read from :class:`Facts`, which both paths build alike: from the seat's
view (:meth:`CriminalPokerEncoder.encode`, the contract) or straight from the state
(:meth:`CriminalPokerEncoder.encode_seat`, the fast path, reading only the fields view.py
builds the view from; tests/rl check that the two agree). Only this module imports numpy, and
only an RL environment or a learned bot imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from yamen.engine import Game, State
from yamen.games.criminal_poker import CriminalPoker
from yamen.games.criminal_poker.actions import (
    ARREST_BASE,
    NEXT_BASE,
    REVEAL_BASE,
    SEAT_BLOCK,
    VOTE_BASE,
    WORDS,
)
from yamen.games.criminal_poker.cards import EVIDENCE_TYPES, ROLES, Card
from yamen.games.criminal_poker.culprit import assess
from yamen.games.criminal_poker.phases import WINDOWS, Phase
from yamen.games.criminal_poker.rules import VOTE_ROUNDS, CriminalPokerState
from yamen.games.criminal_poker.setup import role_counts, suspect_count

SEATS = 6  # the most seats the game takes: every layout is padded to it
HAND_MOST = 3  # two dealt, one drawn
PHASES = tuple(Phase)
PHASE_INDEX = {phase.value: i for i, phase in enumerate(PHASES)}
MODES = ("sheriff", "detective")
ROLE_INDEX = {role: i for i, role in enumerate(ROLES)}
TYPE_INDEX = {kind: i for i, kind in enumerate(EVIDENCE_TYPES)}
TURN_KINDS = ("skip", "kept", "revealed")  # skipped; drew and kept all hidden; drew and showed
# action kinds: the four words by id, then the seat actions and reveal
KINDS = (*(WORDS[a] for a in sorted(WORDS)), "next", "arrest", "vote", "reveal")
SEAT_KIND = {NEXT_BASE: 4, ARREST_BASE: 5, VOTE_BASE: 6}


def layout(cards: int) -> tuple[tuple[str, int], ...]:
    """(name, length): the observation's blocks in order, for a list of ``cards`` evidence
    cards; docs/rl.md explains each."""
    return (
        ("hand", cards),  # own face-down cards
        ("shown", SEATS * cards),  # per relative seat
        ("in_game", cards),  # the evidence this game uses
        ("unseen", cards),  # in the game, neither in the own hand, shown, nor seen in the deck
        ("deck", cards),  # the investigator's look at the rest of the deck
        ("answer_card", cards),  # own sealed opening answer
        ("answer_seat", SEATS),  # own sealed vote
        ("seats", SEATS),  # the seats this game has
        ("suspects", SEATS),
        ("investigator", SEATS),
        ("hidden_counts", SEATS),  # / 3
        ("shown_weight", SEATS * 3),  # shown cards' innocence / scale, valid / 3, weapon
        ("own_weight", 3),  # the same of all own cards
        ("pending", SEATS),
        ("answered", SEATS),
        ("turn", SEATS),
        ("acted", SEATS),  # (place in the turn order + 1) / 6, 0 before its turn
        ("turn_kind", SEATS * len(TURN_KINDS)),
        ("votes", VOTE_ROUNDS * SEATS * SEATS),  # per round, per voter: its target
        ("arrested", SEATS),
        ("identity", len(ROLES)),
        ("mode", len(MODES)),
        ("roles_in_play", len(ROLES)),  # count / 6
        ("deck_count", 1),  # / the game's deck
        ("phase", len(PHASES)),
        ("players", 1),  # / 6
    )


def offsets(blocks: Sequence[tuple[str, int]]) -> tuple[dict[str, int], int]:
    """Each block's offset, and the total length."""
    found, at = {}, 0
    for name, length in blocks:
        found[name] = at
        at += length
    return found, at


class Facts(NamedTuple):
    """What one seat knows, in the shape the vector is built from (seats absolute, cards as
    indices in the card list)."""

    me: int
    phase: str
    pending: Sequence[int]
    investigator: int
    suspects: Sequence[int]
    shown: Sequence[Sequence[int]]
    hidden_counts: Sequence[int]
    deck_count: int
    turn: int | None
    acted: Sequence[int]
    turns: Sequence[tuple[int, str, int | None]]  # (seat, skip or draw, card revealed)
    answered: Sequence[int]
    votes: Sequence[Sequence[int]]
    arrested: Sequence[int] | None
    identity: str
    hidden: Sequence[int]
    answer: tuple[str, int] | None  # ("card", index) or ("seat", seat)
    deck: Sequence[int] | None  # the investigator's look


class CriminalPokerEncoder:
    """The encoder a Criminal Poker game declares (``Game.encoder``)."""

    def __init__(self, game: Game):
        assert isinstance(game, CriminalPoker)
        options = game.options
        catalog = game.catalog
        self.cards: tuple[Card, ...] = catalog.evidence
        self.index = {card.id: i for i, card in enumerate(self.cards)}
        deck = catalog.deck(suspect_count(options))
        self.of_deck = [self.index[card.id] for card in deck]  # game deck index -> list index
        self.players = n = game.num_seats
        # absolute -> relative: round this table, so positions past the players stay empty
        self.rel = [[(s - me) % n for s in range(n)] for me in range(n)]
        self.mode = MODES.index(options["mode"])
        self.roles_in_play = role_counts(options)
        most = max((card.innocence for card in self.cards), default=0)
        self.scale = float(max(1, HAND_MOST * most))  # no suspect's innocence exceeds it
        self.layout = layout(len(self.cards))
        self.offset, self.observation_size = offsets(self.layout)
        self.action_feature_size = len(KINDS) + SEATS + len(self.cards) + len(TYPE_INDEX) + 1
        self._weights: dict[tuple[int, ...], tuple[float, float, bool]] = {}
        self.base = self._constant()

    # ------------------------------------------------------------------ the protocol

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The seat's observation from its view (the contract)."""
        assert view["seat"] == seat, "a seat's observation is read from its own view"
        return self._vector(self.facts_of_view(view))

    def encode_seat(self, state: State, seat: int) -> np.ndarray:
        """The same vector straight from the state (no view built)."""
        assert isinstance(state, CriminalPokerState)
        return self._vector(self.facts_of_state(state, seat))

    def action_features(self, view: Mapping[str, Any], actions: list[int]) -> np.ndarray:
        """One row per action: its kind one-hot, its target seat (relative to the viewer)
        one-hot, and a revealed card one-hot with its type one-hot and innocence / scale."""
        return self._action_rows(view["seat"], actions)

    def action_features_seat(self, state: State, seat: int, actions: list[int]) -> np.ndarray:
        """The same rows without a view (they depend on the seat alone)."""
        return self._action_rows(seat, actions)

    def _action_rows(self, me: int, actions: list[int]) -> np.ndarray:
        rows = np.zeros((len(actions), self.action_feature_size), dtype=np.float32)
        seat_at, card_at = len(KINDS), len(KINDS) + SEATS
        type_at = card_at + len(self.cards)
        for row, action in enumerate(actions):
            if action in WORDS:
                rows[row, action] = 1.0
            elif action < REVEAL_BASE:
                base = action - action % SEAT_BLOCK
                rows[row, SEAT_KIND[base]] = 1.0
                rows[row, seat_at + self.rel[me][action - base]] = 1.0
            else:
                rows[row, KINDS.index("reveal")] = 1.0
                index = self.of_deck[action - REVEAL_BASE]
                card = self.cards[index]
                rows[row, card_at + index] = 1.0
                rows[row, type_at + TYPE_INDEX[card.kind]] = 1.0
                rows[row, -1] = card.innocence / self.scale
        return rows

    # ------------------------------------------------------------------ facts

    def facts_of_view(self, view: Mapping[str, Any]) -> Facts:
        """The facts a seat's view gives."""
        index = self.index
        answer = view.get("answer")
        told: tuple[str, int] | None = None
        if answer is not None:
            word, what = answer.split()
            told = ("card", index[what]) if word == "reveal" else ("seat", int(what))
        deck = view.get("deck")
        return Facts(
            view["seat"],
            view["phase"],
            view["pending"],
            view["investigator"],
            view["suspects"],
            [[index[c] for c in cards] for cards in view["shown"]],
            view["hidden_counts"],
            view["deck_count"],
            view["turn"],
            view["acted"],
            [
                (t["seat"], t["action"], None if t["revealed"] is None else index[t["revealed"]])
                for t in view["turns"]
            ],
            view["answered"],
            view["votes"],
            view["arrested"],
            view["identity"],
            [index[c] for c in view["hidden"]],
            told,
            None if deck is None else [index[c] for c in deck],
        )

    def facts_of_state(self, state: CriminalPokerState, seat: int) -> Facts:
        """The same facts read from the state: each field as view.py builds the view."""
        of = self.of_deck
        phase = state.phase
        window = phase in WINDOWS
        mine = state.answers.get(seat) if window else None
        told: tuple[str, int] | None = None
        if mine is not None:
            if mine >= REVEAL_BASE:
                told = ("card", of[mine - REVEAL_BASE])
            else:
                told = ("seat", mine - VOTE_BASE)
        index = self.index
        return Facts(
            seat,
            phase,
            state._pending,
            state.investigator,
            state.suspects,
            [[of[c] for c in cards] for cards in state.shown],
            [len(h) for h in state.hidden],
            len(state.pile),
            state.turn,
            state.acted,
            [
                (t["seat"], t["action"], None if t["revealed"] is None else index[t["revealed"]])
                for t in state.turns
            ],
            sorted(state.answers) if window else [],
            state.votes,
            state.arrested,
            state.roles[seat],
            [of[c] for c in state.hidden[seat]],
            told,
            [of[c] for c in state.pile] if seat == state.investigator and state.looked else None,
        )

    # ------------------------------------------------------------------ the vector

    def _vector(self, f: Facts) -> np.ndarray:
        """The observation from the facts: the game's constant blocks copied, then ones
        gathered as indices and other values as (index, value) pairs, set at once (numpy costs
        per call, not per element)."""
        at = self.offset
        width = len(self.cards)
        rel = self.rel[f.me]
        ones = [at["hand"] + c for c in f.hidden]
        spots: list[int] = []
        values: list[float] = []
        seen = set(f.hidden)
        first, weights = at["shown"], at["shown_weight"]
        for seat, shown in enumerate(f.shown):
            if not shown:
                continue
            r = rel[seat]
            ones += [first + r * width + c for c in shown]
            seen.update(shown)
            innocence, valid, weapon = self._weigh(shown)
            spots += [weights + 3 * r, weights + 3 * r + 1]
            values += [innocence, valid]
            if weapon:
                ones.append(weights + 3 * r + 2)
        if f.deck is not None:
            ones += [at["deck"] + c for c in f.deck]
            seen.update(f.deck)
        ones += [at["unseen"] + c for c in self.of_deck if c not in seen]
        if f.answer is not None:
            kind, what = f.answer
            ones.append(
                at["answer_card"] + what if kind == "card" else at["answer_seat"] + rel[what]
            )
        ones += [at["suspects"] + rel[s] for s in f.suspects]
        ones.append(at["investigator"] + rel[f.investigator])
        first = at["hidden_counts"]
        for seat, count in enumerate(f.hidden_counts):
            if count:
                spots.append(first + rel[seat])
                values.append(count / HAND_MOST)
        innocence, valid, weapon = self._weigh([*f.hidden, *f.shown[f.me]])
        spots += [at["own_weight"], at["own_weight"] + 1]
        values += [innocence, valid]
        if weapon:
            ones.append(at["own_weight"] + 2)
        ones += [at["pending"] + rel[s] for s in f.pending]
        ones += [at["answered"] + rel[s] for s in f.answered]
        if f.turn is not None:
            ones.append(at["turn"] + rel[f.turn])
        for place, (seat, action, revealed) in enumerate(f.turns):
            spots.append(at["acted"] + rel[seat])
            values.append((place + 1) / SEATS)
            how = 0 if action == "skip" else 1 if revealed is None else 2
            ones.append(at["turn_kind"] + rel[seat] * len(TURN_KINDS) + how)
        first = at["votes"]
        for round_no, targets in enumerate(f.votes):
            for voter, target in enumerate(targets):
                ones.append(first + (round_no * SEATS + rel[voter]) * SEATS + rel[target])
        if f.arrested is not None:
            ones += [at["arrested"] + rel[s] for s in f.arrested]
        ones.append(at["identity"] + ROLE_INDEX[f.identity])
        ones.append(at["phase"] + PHASE_INDEX[f.phase])
        spots.append(at["deck_count"])
        values.append(f.deck_count / len(self.of_deck))
        out = self.base.copy()
        out[ones] = 1.0
        out[spots] = values
        return out

    def _weigh(self, cards: Sequence[int]) -> tuple[float, float, bool]:
        """Cards weighed as the culprit rules weigh them (innocence / scale, valid cards / 3,
        the weapon among them); kept per set of cards, as few sets occur."""
        key = tuple(sorted(cards))
        found = self._weights.get(key)
        if found is None:
            judged = assess(self.cards[c] for c in key)
            found = (judged.innocence / self.scale, judged.valid / HAND_MOST, judged.weapon)
            self._weights[key] = found
        return found

    def _constant(self) -> np.ndarray:
        """The blocks every observation of this game shares: the cards in the game, its
        seats, its roles, its mode, its size."""
        at = self.offset
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[[at["in_game"] + c for c in self.of_deck]] = 1.0
        out[at["seats"] : at["seats"] + self.players] = 1.0  # relative seats 0 .. players - 1
        for role, count in self.roles_in_play.items():
            out[at["roles_in_play"] + ROLE_INDEX[role]] = count / SEATS
        out[at["mode"] + self.mode] = 1.0
        out[at["players"]] = self.players / SEATS
        return out
