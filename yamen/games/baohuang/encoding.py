"""Baohuang as vectors for learners: a seat's observation, each action's features, the full
state for a centralized critic (the protocol: yamen/bots/encoding.py; the layout: docs/rl.md).

Cards are counted in *blocks* of 18: the 15 slots (ranks 3..2 by strength, small joker, big
joker; naturals scaled by 1/16, jokers by 1/4), then the copies of the called card (the one
natural whose play unmasks the royalist, shandong; 1/4), the marked small joker (the japanese
guard card) and the marked big joker. Seats are relative: position 0 is the observing seat,
1 the next in play order, and so on, so one policy serves every seat.

The observation is read from :class:`Facts`, which both paths build alike: from the seat's
view (:meth:`BaohuangEncoder.encode`, the contract) or straight from the state
(:meth:`BaohuangEncoder.encode_seat`, the fast path, reading only the fields the view is made
of; tests/rl check that the two agree). Only this module imports numpy, and only an RL
environment or a learned bot imports this module.

The vector environment's compiled path writes the same vector in C (_core.c ``encode``, for
every block but the match's, which it copies from this module's vector at a deal's start;
batch.py): a change to a block here is a change there too, and
yamen/bots/baohuang/lockstep.py's ``check_observations`` fails until both agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from yamen.engine import Game, State
from yamen.games.baohuang.actions import CALL_BASE, WORDS
from yamen.games.baohuang.hands import slots_of
from yamen.games.baohuang.kinds import BJ_MARKED, KIND_TEXT, NUM_SLOTS, SJ_MARKED, SLOT_OF
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.rules import BaohuangState
from yamen.games.baohuang.sets import decoded, is_play
from yamen.games.baohuang.variants import VARIANTS, variant_for
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
ORDER = [[(me + i) % SEATS for i in range(SEATS)] for me in range(SEATS)]  # relative -> absolute
REL = [[(s - me) % SEATS for s in range(SEATS)] for me in range(SEATS)]  # absolute -> relative
PHASE_INDEX = {phase.value: i for i, phase in enumerate(Phase)}

# (name, length): the observation's blocks in order; docs/rl.md explains each. The card
# blocks come first, together (CARD_ROWS blocks of BLOCK), so that they are scaled at once.
LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", BLOCK),
    ("unseen", BLOCK),  # the deck less the own hand and every card played this deal
    ("played", SEATS * BLOCK),  # per relative seat, this deal
    ("table_cards", BLOCK),
    ("tribute", 2 * BLOCK),  # gave, received
    ("history_cards", HISTORY_SETS * BLOCK),  # the last sets played, most recent first
    ("history_seats", HISTORY_SETS * SEATS),  # who played each of them
    ("trick", TRICK_MOVES * (SEATS + len(TRICK_WORDS))),  # most recent first
    ("hand_sizes", SEATS),
    ("table_owner", SEATS),
    ("second_circle", 1),
    ("yielders", SEATS),
    ("claimant", SEATS),
    ("to_ask", SEATS),
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
    ("house", 10),  # the house rules away from the seeds' (HOUSE_RULES): all 0 by default
)
CARD_ROWS = 10 + HISTORY_SETS  # hand, unseen, 5 played, table, 2 tribute, the history
OFFSET: dict[str, int] = {}
_at = 0
for _name, _length in LAYOUT:
    OFFSET[_name] = _at
    _at += _length
OBSERVATION_SIZE = _at

# The house rules, each a 1 where the game's options leave the seeds' rules (public: the view
# carries the options). Last in the layout and all 0 by default, so a policy learned on the
# seeds' rules reads the same vector where they are played.
HOUSE_RULES: tuple[tuple[str, Any], ...] = (  # (option, the value that sets the feature)
    ("hard_pass", True),
    ("lowest_last", True),
    ("royalist_declares", "hidden"),
    ("solo_declares", False),
    ("cede", False),
    ("guard_by_fourth", True),
    ("tribute", False),
    ("grabbing", False),
    ("edition", 1),
    ("lowest_held", True),  # 憋六/憋三 (issue 25): added last, so older checkpoints read it as 0
)


def house_vector(options: Mapping[str, Any]) -> np.ndarray:
    """The ``house`` block of a game with these options."""
    return np.array([options.get(name) == value for name, value in HOUSE_RULES], np.float32)


def rules_of(options: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The deck (a block of counts: house rules may change it) and the ``house`` block of a
    game with these options."""
    deck = [0] * len(KIND_TEXT)
    for kind in variant_for(options).deck():
        deck[kind] += 1
    return np.array(kind_counts(deck, -1), dtype=np.int64), house_vector(options)


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
    slots: Sequence[int]  # the same hand's slot counts
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
        slots_of(hand),
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
        state.slots[seat],
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


def card_counts(cards: Sequence[str], called: int) -> list[int]:
    """A block of whole counts (not yet scaled) of cards given in notation."""
    block = [0] * BLOCK
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


def kind_counts(hand: Sequence[int], called: int, slots: Sequence[int] | None = None) -> list[int]:
    """A block of whole counts of a hand given as kind counts (and slot counts, if known)."""
    slots = slots_of(hand) if slots is None else slots
    told = hand[called] if called >= 0 else 0
    return [*slots, told, hand[SJ_MARKED], hand[BJ_MARKED]]


class PlayedCache:
    """The sets played this deal as counts, kept as the deal's list of sets grows: a state
    appends to one list per deal, so only the new sets are counted (a view's list is new each
    time and counted whole). ``sums`` totals them per (absolute) seat, ``total`` over all
    seats; ``rows`` are the sets' counts in order, ``seats`` who played each."""

    __slots__ = ("called", "plays", "rows", "seats", "sums", "total")

    def __init__(self) -> None:
        self.plays: object = None
        self.called = -2
        self.seats: list[int] = []
        self.rows = np.zeros((64, BLOCK), dtype=np.int64)
        self.sums = np.zeros((SEATS, BLOCK), dtype=np.int64)
        self.total = np.zeros(BLOCK, dtype=np.int64)

    def read(self, plays: Sequence[tuple[int, list[str]]], called: int) -> PlayedCache:
        seats = self.seats
        if plays is not self.plays or called != self.called or len(plays) < len(seats):
            self.plays, self.called, self.seats = plays, called, []
            seats = self.seats
            self.sums = np.zeros((SEATS, BLOCK), dtype=np.int64)
            self.total = np.zeros(BLOCK, dtype=np.int64)
        for seat, cards in plays[len(seats) :]:
            counts = np.array(card_counts(cards, called), dtype=np.int64)
            if len(seats) == len(self.rows):
                self.rows = np.concatenate([self.rows, np.zeros_like(self.rows)])
            self.rows[len(seats)] = counts
            self.sums[seat] += counts
            self.total += counts
            seats.append(seat)
        return self


class BaohuangEncoder:
    """The encoder a Baohuang game declares (``Game.encoder``)."""

    observation_size = OBSERVATION_SIZE
    action_feature_size = ACTION_FEATURE_SIZE

    def __init__(self, game: Game):
        self.deck, self.house = rules_of(game.options)  # the game's; a view's own may differ
        self._rules: tuple[object, np.ndarray, np.ndarray] = (None, self.deck, self.house)
        self._played = PlayedCache()
        self._totals: tuple[object, list[float]] = (None, [])
        self._actions: dict[int, np.ndarray] = {}

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The seat's observation from its view (the contract)."""
        assert view["seat"] == seat, "a seat's observation is read from its own view"
        facts = facts_of_view(view)
        played = PlayedCache().read(facts.plays, _called(facts.called))
        return self._vector(facts, played, view.get("options"))

    def encode_seat(self, state: State, seat: int) -> np.ndarray:
        """The same vector straight from the state (fast: no view, sets counted once)."""
        assert isinstance(state, BaohuangState)
        facts = facts_of_state(state, seat)
        played = self._played.read(facts.plays, _called(facts.called))
        return self._vector(facts, played, state.options)

    def action_features(self, view: Mapping[str, Any], actions: list[int]) -> np.ndarray:
        """One row per action: the cards it plays (a block's first 16 columns, scaled as a
        block), its word one-hot, whether it calls (and the called card's slot and suit) or
        plays. Nothing in a row depends on the deal, so rows are kept per action id."""
        return self._action_rows(actions)

    def action_features_seat(self, state: State, seat: int, actions: list[int]) -> np.ndarray:
        """The same rows without a view (they depend on the action alone)."""
        return self._action_rows(actions)

    def _action_rows(self, actions: list[int]) -> np.ndarray:
        rows = self._actions
        for action in actions:
            if action not in rows:
                rows[action] = action_row(action)
        if not actions:
            return np.zeros((0, ACTION_FEATURE_SIZE), dtype=np.float32)
        return np.stack([rows[a] for a in actions])

    def _floats(self, totals: Sequence[Fraction]) -> list[float]:
        """The match totals as floats; a state's list is replaced when it changes, so the
        last one read is kept."""
        if totals is not self._totals[0]:
            self._totals = (totals, [float(t) for t in totals])
        return self._totals[1]

    def _read_rules(self, options: Mapping[str, Any] | None) -> tuple[np.ndarray, np.ndarray]:
        """The deck and the house block of the game a view or state is of (its options, which
        are public; the encoder's game where a view carries none). The last read is kept, by
        the options' values: each view carries a fresh copy of the same options."""
        if options is None:
            return self.deck, self.house
        if options is not self._rules[0] and options != self._rules[0]:
            self._rules = (options, *rules_of(options))
        return self._rules[1], self._rules[2]

    def _vector(
        self, f: Facts, played: PlayedCache, options: Mapping[str, Any] | None
    ) -> np.ndarray:
        """The observation from the facts. Ones are gathered as indices and other values as
        (index, value) pairs, then set at once: numpy costs per call, not per element."""
        deck, house = self._read_rules(options)
        me = f.me
        rel = REL[me]  # absolute seat -> relative
        order = ORDER[me]  # relative seat -> absolute
        called = _called(f.called)
        cards = np.zeros((CARD_ROWS, BLOCK), dtype=np.int64)
        cards[0] = kind_counts(f.hand, called, f.slots)
        cards[1] = deck - played.total - cards[0]
        cards[2:7] = played.sums[order]
        ones: list[int] = []
        at, values = [], []
        if f.table is not None:
            table, owner, circle, yielders, claimant, to_ask = f.table
            cards[7] = card_counts(table, called)
            ones.append(OFFSET["table_owner"] + rel[owner])
            if circle == 2:
                ones.append(OFFSET["second_circle"])
            ones += [OFFSET["yielders"] + rel[s] for s in yielders]
            if claimant is not None:
                ones.append(OFFSET["claimant"] + rel[claimant])
            ones += [OFFSET["to_ask"] + rel[s] for s in to_ask]
        if f.tribute is not None:
            cards[8] = card_counts(f.tribute[0], called)
            cards[9] = card_counts(f.tribute[1], called)
        sets = len(played.seats)
        recent = min(sets, HISTORY_SETS)
        if recent:
            cards[10 : 10 + recent] = played.rows[sets - recent : sets][::-1]
            first = OFFSET["history_seats"]
            for i, seat in enumerate(played.seats[: -recent - 1 : -1]):
                ones.append(first + i * SEATS + rel[seat])
        width, first = SEATS + len(TRICK_WORDS), OFFSET["trick"]
        for i, (seat, word) in enumerate(reversed(f.trick[-TRICK_MOVES:])):
            ones.append(first + i * width + rel[seat])
            ones.append(first + i * width + SEATS + TRICK_WORDS.index(word))
        first = OFFSET["hand_sizes"]
        for i, s in enumerate(order):
            at.append(first + i)
            values.append(min(f.sizes[s] / SIZE_SCALE, 1.0))
        if f.emperor is not None:
            ones.append(OFFSET["emperor"] + rel[f.emperor])
        first = OFFSET["public_roles"]
        ones += [first + rel[seat] * 4 + ROLE_INDEX[role] for seat, role in f.roles.items()]
        ones.append(OFFSET["own_role"] + (0 if f.role is None else 1 + ROLE_INDEX[f.role]))
        ones += [OFFSET["declared"] + rel[s] for s in f.declared]
        if f.grabbed:
            ones.append(OFFSET["grabbed"])
        if f.marked_holder is not None:
            ones.append(OFFSET["marked_holder"] + rel[f.marked_holder])
        if f.marked_joker is not None:
            ones.append(OFFSET["marked_joker"] + rel[f.marked_joker])
        if f.called is not None:
            kind = TEXT_KIND[f.called]
            ones.append(OFFSET["called_card"] + SLOT_OF[kind])
            if kind < 52:
                ones.append(OFFSET["called_card"] + NUM_SLOTS + kind % 4)
        ones += [OFFSET["answered"] + rel[s] for s in f.answered]
        ones += [OFFSET["pending"] + rel[s] for s in f.pending]
        for place, s in enumerate(f.out):
            at.append(OFFSET["out"] + rel[s])
            values.append((place + 1) / SEATS)
        ones.append(OFFSET["phase"] + PHASE_INDEX[f.phase])
        ones.append(OFFSET["variant"] + VARIANT_NAMES.index(f.variant))
        first = OFFSET["match"]
        at += [first, first + 1]
        values += [f.deal / f.deals, f.deals / MAX_DEALS]
        for s, total in enumerate(self._floats(f.totals)):
            at.append(first + 2 + rel[s])
            values.append(max(-1.0, min(1.0, total / TOTAL_SCALE)))
        if f.dealer is not None:
            ones.append(first + 2 + SEATS + rel[f.dealer])
        out = np.empty(OBSERVATION_SIZE, dtype=np.float32)
        out[: CARD_ROWS * BLOCK] = (cards * BLOCK_SCALE).ravel()
        out[CARD_ROWS * BLOCK :] = 0.0
        out[ones] = 1.0
        out[at] = values
        out[OFFSET["house"] :] = house
        return out


def _called(called: str | None) -> int:
    """The called natural's kind, or -1 (nothing called, or a joker: jokers count by slot)."""
    kind = -1 if called is None else TEXT_KIND[called]
    return kind if 0 <= kind < 52 else -1


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
