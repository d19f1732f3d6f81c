"""Baohuang as vectors for learners: a seat's observation, each action's features, the full
state for a centralized critic (the protocol: yamen/rl/encoding.py; the layout: docs/rl.md).

Cards are counted in *blocks* of 18: the 15 slots (ranks 3..2 by strength, small joker, big
joker; naturals scaled by 1/16, jokers by 1/4), then the copies of the called card (the one
natural whose play unmasks the royalist, shandong; 1/4), the marked small joker (the japanese
guard card) and the marked big joker. Seats are relative: position 0 is the observing seat,
1 the next in play order, and so on, so one policy serves every seat.

The observation is read from :class:`Facts`, which both paths build alike: from the seat's
view (:meth:`BaohuangEncoder.encode`, the contract) or straight from the state
(:meth:`BaohuangEncoder.encode_seat`, the fast path, reading only the fields the view is made
of; tests/rl check that the two agree). Only this module imports numpy, and only an RL
environment imports this module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from yamen.engine import Game, State
from yamen.games.baohuang.actions import CALL_BASE, WORDS
from yamen.games.baohuang.kinds import BJ_MARKED, KIND_TEXT, NUM_SLOTS, SJ_MARKED, SLOT_OF
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.rules import BaohuangState
from yamen.games.baohuang.sets import decoded, is_play
from yamen.games.baohuang.variants import VARIANTS
from yamen.games.baohuang.view import WINDOWS, declared_seats, marked_joker_seat

SEATS = 5
CALLED, MARKED_SMALL, MARKED_BIG = NUM_SLOTS, NUM_SLOTS + 1, NUM_SLOTS + 2
BLOCK = NUM_SLOTS + 3
BLOCK_SCALE = np.array([1 / 16] * 13 + [1 / 4] * 2 + [1 / 4, 1.0, 1.0], dtype=np.float32)
TRICK_MOVES = 5  # the last moves of the trick in progress
HISTORY_SETS = 15  # the last sets played this deal
TRICK_WORDS = ("play", "pass", "yield", "claim")
PHASES = tuple(Phase)
VARIANT_NAMES = tuple(VARIANTS)
ROLE_INDEX = {"emperor": 0, "solo emperor": 1}
for _v in VARIANTS.values():
    ROLE_INDEX[_v.partner_role], ROLE_INDEX[_v.other_role] = 2, 3
SIZE_SCALE, TOTAL_SCALE, MAX_DEALS = 50.0, 100.0, 50.0
TEXT_KIND = {text: kind for kind, text in enumerate(KIND_TEXT)}

# (name, length): the observation's blocks in order; docs/rl.md explains each.
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", BLOCK),
    ("unseen", BLOCK),  # the deck less the own hand and every card played this deal
    ("played", SEATS * BLOCK),  # per relative seat, this deal
    ("hand_sizes", SEATS),
    ("table_cards", BLOCK),
    ("table_owner", SEATS),
    ("second_circle", 1),
    ("yielders", SEATS),
    ("claimant", SEATS),
    ("to_ask", SEATS),
    ("trick", TRICK_MOVES * (SEATS + len(TRICK_WORDS))),  # most recent first
    ("history", HISTORY_SETS * (SEATS + BLOCK)),  # most recent first
    ("emperor", SEATS),
    ("public_roles", SEATS * 4),  # emperor, solo emperor, royalist/guard, rebel/commoner
    ("own_role", 5),  # none yet, then the four roles
    ("declared", SEATS),
    ("grabbed", 1),
    ("marked_holder", SEATS),
    ("marked_joker", SEATS),
    ("called_card", NUM_SLOTS + 4),  # its slot, then its suit
    ("answered", SEATS),
    ("pending", SEATS),
    ("out", SEATS),  # finishing place (1..5) / 5, 0 while in
    ("phase", len(PHASES)),
    ("variant", len(VARIANT_NAMES)),
    ("match", 2 + SEATS + SEATS),  # deal / deals, deals / 50, totals / 100, dealer
    ("tribute", 2 * BLOCK),  # gave, received
)
OFFSET: dict[str, int] = {}
_at = 0
for _name, _length in LAYOUT:
    OFFSET[_name] = _at
    _at += _length
OBSERVATION_SIZE = _at

# Per action: the cards it plays (slots, then telling cards), its word, and a call's card.
WORD_AT, CALL_AT, PLAY_AT, SUIT_AT = NUM_SLOTS + 1, NUM_SLOTS + 9, NUM_SLOTS + 10, NUM_SLOTS + 11
ACTION_FEATURE_SIZE = SUIT_AT + 4


class Facts(NamedTuple):
    """What one seat knows, in the shape the vector is built from (seats absolute)."""

    me: int
    variant: str
    phase: str
    deal: int
    deals: int
    hand: Sequence[int]  # kind counts
    plays: Sequence[tuple[int, list[str]]]  # every set of this deal: (seat, cards)
    sizes: Sequence[int]
    table: tuple[list[str], int, int, Sequence[int], int | None, Sequence[int]] | None
    trick: list[tuple[int, str]]  # (seat, action word)
    emperor: int | None
    roles: Mapping[int, str]
    role: str | None
    declared: Sequence[int]
    grabbed: bool
    marked_holder: int | None
    marked_joker: int | None
    called: str | None
    answered: Sequence[int]
    pending: Sequence[int]
    out: Sequence[int]
    totals: Sequence[Fraction]
    dealer: int | None
    tribute: tuple[list[str], list[str]] | None


def facts_of_view(view: Mapping[str, Any]) -> Facts:
    """The facts a seat's view gives."""
    hand = [0] * len(KIND_TEXT)
    for card in view["hand"]:
        hand[TEXT_KIND[card]] += 1
    table = view["table"]
    tribute = view.get("tribute")
    return Facts(
        view["seat"],
        view["variant"],
        view["phase"],
        view["deal"],
        view["deals"],
        hand,
        [(p["seat"], p["cards"]) for p in view["played"]],
        view["hand_sizes"],
        None
        if table is None
        else (
            table["cards"],
            table["owner"],
            table["circle"],
            table["yielders"],
            table["claimant"],
            table["to_ask"],
        ),
        [(m["seat"], m["action"]) for m in view["trick"]],
        view["emperor"],
        {int(s): r for s, r in view["roles"].items()},
        view["role"],
        view["declared"],
        view["grabbed"],
        view["marked_holder"],
        view["marked_joker"],
        view["called"],
        view["answered"],
        view["pending"],
        view["out"],
        [Fraction(str(t)) for t in view["totals"]],
        view.get("dealer"),
        None if tribute is None else (tribute["gave"], tribute["received"]),
    )


def facts_of_state(state: BaohuangState, seat: int) -> Facts:
    """The same facts read from the state: each field as view.py builds the view from it."""
    play = state.phase == Phase.PLAY and state.table is not None
    tribute = state.tribute.get(seat)
    return Facts(
        seat,
        state.variant.name,
        state.phase.value,
        state.deal_no,
        state.options["deals"],
        state.hands[seat],
        state.plays,
        state.sizes,
        (
            [KIND_TEXT[k] for k in state.table_cards],
            state.owner,
            state.stage,
            state.yielders,
            state.claimant,
            state.to_ask,
        )
        if play
        else None,
        [(s, a) for s, a, _ in state.trick],
        state.emperor,
        state.public_roles,
        state.own_role(seat),
        declared_seats(state),
        state.grabbed,
        state.holder if state.emperor is None else None,
        marked_joker_seat(state.hands),
        None if state.called is None else KIND_TEXT[state.called],
        sorted(state.answers) if state.phase in WINDOWS else [],
        state._pending,
        state.out,
        state.totals,
        state.dealer if state.variant.shows_dealer else None,
        None if tribute is None else (tribute["gave"], tribute["received"]),
    )


def card_counts(cards: Sequence[str], called: int) -> np.ndarray:
    """A block of whole counts (not yet scaled) of cards given in notation."""
    block = np.zeros(BLOCK, dtype=np.int64)
    for card in cards:
        kind = TEXT_KIND[card]
        block[SLOT_OF[kind]] += 1
        if kind == called:
            block[CALLED] += 1
        elif kind == SJ_MARKED:
            block[MARKED_SMALL] += 1
        elif kind == BJ_MARKED:
            block[MARKED_BIG] += 1
    return block


def kind_counts(hand: Sequence[int], called: int) -> np.ndarray:
    """A block of whole counts of a hand given as kind counts."""
    block = np.zeros(BLOCK, dtype=np.int64)
    for kind, held in enumerate(hand):
        if held:
            block[SLOT_OF[kind]] += held
    block[CALLED] = hand[called] if called >= 0 else 0
    block[MARKED_SMALL] = hand[SJ_MARKED]
    block[MARKED_BIG] = hand[BJ_MARKED]
    return block


class PlayedCache:
    """Each set played this deal as counts, kept as the deal's list of sets grows: a state
    appends to one list per deal, so only the new sets are counted (a view's list is new each
    time and counted whole)."""

    __slots__ = ("called", "counts", "plays")

    def __init__(self) -> None:
        self.plays: object = None
        self.called = -2
        self.counts: list[tuple[int, np.ndarray]] = []

    def read(self, plays: Sequence[tuple[int, list[str]]], called: int) -> list:
        if plays is not self.plays or called != self.called or len(plays) < len(self.counts):
            self.plays, self.called, self.counts = plays, called, []
        counts = self.counts
        for seat, cards in plays[len(counts) :]:
            counts.append((seat, card_counts(cards, called)))
        return counts


class BaohuangEncoder:
    """The encoder a Baohuang game declares (``Game.encoder``)."""

    observation_size = OBSERVATION_SIZE
    action_feature_size = ACTION_FEATURE_SIZE
    state_size = SEATS * OBSERVATION_SIZE

    def __init__(self, game: Game):
        deck = [0] * len(KIND_TEXT)
        for kind in VARIANTS[game.options["variant"]].deck():
            deck[kind] += 1
        self.deck = kind_counts(deck, -1)
        self._played = PlayedCache()
        self._actions: dict[int, np.ndarray] = {}

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The seat's observation from its view (the contract)."""
        assert view["seat"] == seat, "a seat's observation is read from its own view"
        facts = facts_of_view(view)
        return self._vector(facts, PlayedCache().read(facts.plays, _called(facts.called)))

    def encode_seat(self, state: State, seat: int) -> np.ndarray:
        """The same vector straight from the state (fast: no view, sets counted once)."""
        assert isinstance(state, BaohuangState)
        facts = facts_of_state(state, seat)
        return self._vector(facts, self._played.read(facts.plays, _called(facts.called)))

    def encode_state(self, state: State) -> np.ndarray:
        """Every seat's observation, seat 0 first: every hand and every role, for critics."""
        return np.concatenate([self.encode_seat(state, seat) for seat in range(SEATS)])

    def action_features(self, view: Mapping[str, Any], actions: list[int]) -> np.ndarray:
        """One row per action: the cards it plays (a block's first 16 columns, scaled as a
        block), its word one-hot, whether it calls (and the called card's slot and suit) or
        plays. Nothing in a row depends on the deal, so rows are kept per action id."""
        rows = self._actions
        for action in actions:
            if action not in rows:
                rows[action] = action_row(action)
        if not actions:
            return np.zeros((0, ACTION_FEATURE_SIZE), dtype=np.float32)
        return np.stack([rows[a] for a in actions])

    def _vector(self, f: Facts, played: list[tuple[int, np.ndarray]]) -> np.ndarray:
        me = f.me
        rel = [(s - me) % SEATS for s in range(SEATS)]
        called = _called(f.called)
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)

        def put(name: str, values: Any, at: int = 0) -> None:
            start = OFFSET[name] + at
            out[start : start + len(values)] = values

        def one(name: str, index: int | None, width: int = 1, at: int = 0) -> None:
            if index is not None:
                out[OFFSET[name] + at + index * width] = 1.0

        hand = kind_counts(f.hand, called)
        by_seat = np.zeros((SEATS, BLOCK), dtype=np.int64)
        for seat, counts in played:
            by_seat[rel[seat]] += counts
        put("hand", hand * BLOCK_SCALE)
        put("unseen", (self.deck - hand - by_seat.sum(axis=0)) * BLOCK_SCALE)
        put("played", (by_seat * BLOCK_SCALE).ravel())
        put("hand_sizes", np.minimum([f.sizes[s] / SIZE_SCALE for s in _absolute(me)], 1.0))
        if f.table is not None:
            cards, owner, circle, yielders, claimant, to_ask = f.table
            put("table_cards", card_counts(cards, called) * BLOCK_SCALE)
            one("table_owner", rel[owner])
            out[OFFSET["second_circle"]] = circle == 2
            for s in yielders:
                one("yielders", rel[s])
            one("claimant", None if claimant is None else rel[claimant])
            for s in to_ask:
                one("to_ask", rel[s])
        width = SEATS + len(TRICK_WORDS)
        for i, (seat, word) in enumerate(reversed(f.trick[-TRICK_MOVES:])):
            one("trick", rel[seat], at=i * width)
            one("trick", TRICK_WORDS.index(word), at=i * width + SEATS)
        width = SEATS + BLOCK
        for i, (seat, counts) in enumerate(reversed(played[-HISTORY_SETS:])):
            one("history", rel[seat], at=i * width)
            put("history", counts * BLOCK_SCALE, at=i * width + SEATS)
        one("emperor", None if f.emperor is None else rel[f.emperor])
        for seat, role in f.roles.items():
            one("public_roles", ROLE_INDEX[role], at=rel[seat] * 4)
        one("own_role", 0 if f.role is None else 1 + ROLE_INDEX[f.role])
        for s in f.declared:
            one("declared", rel[s])
        out[OFFSET["grabbed"]] = f.grabbed
        one("marked_holder", None if f.marked_holder is None else rel[f.marked_holder])
        one("marked_joker", None if f.marked_joker is None else rel[f.marked_joker])
        if f.called is not None:
            kind = TEXT_KIND[f.called]
            one("called_card", SLOT_OF[kind])
            if kind < 52:
                one("called_card", kind % 4, at=NUM_SLOTS)
        for s in f.answered:
            one("answered", rel[s])
        for s in f.pending:
            one("pending", rel[s])
        for place, s in enumerate(f.out):
            out[OFFSET["out"] + rel[s]] = (place + 1) / SEATS
        one("phase", PHASES.index(Phase(f.phase)))
        one("variant", VARIANT_NAMES.index(f.variant))
        match = OFFSET["match"]
        out[match] = f.deal / f.deals
        out[match + 1] = f.deals / MAX_DEALS
        for s in range(SEATS):
            out[match + 2 + rel[s]] = max(-1.0, min(1.0, float(f.totals[s]) / TOTAL_SCALE))
        one("match", None if f.dealer is None else rel[f.dealer], at=2 + SEATS)
        if f.tribute is not None:
            put("tribute", card_counts(f.tribute[0], called) * BLOCK_SCALE)
            put("tribute", card_counts(f.tribute[1], called) * BLOCK_SCALE, at=BLOCK)
        return out


def _called(called: str | None) -> int:
    """The called natural's kind, or -1 (nothing called, or a joker: jokers count by slot)."""
    kind = -1 if called is None else TEXT_KIND[called]
    return kind if 0 <= kind < 52 else -1


def _absolute(me: int) -> list[int]:
    """Absolute seats in relative order: me, then the seats after me in play order."""
    return [(me + i) % SEATS for i in range(SEATS)]


def action_row(action: int) -> np.ndarray:
    """One action's features (see ``action_features``)."""
    row = np.zeros(ACTION_FEATURE_SIZE, dtype=np.float32)
    if action in WORDS:
        row[WORD_AT + action] = 1.0
    elif is_play(action):
        r, n, x, y, t = decoded(action)
        if n:
            row[r] = n / 16
        row[NUM_SLOTS - 2] = x / 4
        row[NUM_SLOTS - 1] = y / 4
        row[NUM_SLOTS] = t / 4
        row[PLAY_AT] = 1.0
    else:
        kind = action - CALL_BASE
        row[SLOT_OF[kind]] = 1.0
        row[CALL_AT] = 1.0
        if kind < 52:
            row[SUIT_AT + kind % 4] = 1.0
    return row
