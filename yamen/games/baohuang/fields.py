"""Every field of a Baohuang state, and the few public moves on them that its phases make.

:class:`Fields` holds what a state knows: the match (options, house rules, totals, history)
and the deal in progress (hands, roles, the table). rules.BaohuangState is Fields with the
state machine. The phases before play (opening.py), the tribute (tribute.py) and the views
(view.py) are handed Fields: they need not import the state machine that imports them, and
they change a state only through its public fields and the moves below (whose turn it is,
a window of sealed answers, a card changing hands, an event), never through a private field.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any, ClassVar, Self, TypedDict

from yamen.engine import Event, State, make_rng
from yamen.games.baohuang.hands import slots_of
from yamen.games.baohuang.house import House
from yamen.games.baohuang.kinds import SLOT_OF
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.sets import rank_masks
from yamen.games.baohuang.variants import variant_for

AFTER = [[(seat + i) % 5 for i in range(1, 5)] for seat in range(5)]  # play order from a seat
NOBODY = -1  # the owner while no set is on the table (an int: the hot paths index by it)

Score = int | str  # an exact score as JSON (engine.score_json): an int when whole, else "n/d"


class FinishedDeal(TypedDict):
    """One finished deal, as the match history keeps it (and its "deal over" event says)."""

    deal: int
    places: list[int]  # seats from first out to last
    emperor: int
    partner: int | None  # the royalist or guard; None when the emperor played alone
    called: str | None
    grabbed: bool
    declared: bool  # anyone declared (明保 / 明獨)
    rebels: list[int]
    scores: list[Score]
    totals: list[Score]


class TributeCards(TypedDict):
    """What one seat gave and received in tribute (上納) at the start of this deal."""

    gave: list[str]
    received: list[str]


# Every field, once, grouped by how clone() copies it; the engine's own (State.__slots__: who
# is pending, the legal actions of this decision, the events) are shared.
_SHARED = (  # immutable, or only ever replaced whole: shared by a clone
    "options", "seed", "variant", "single_with_jokers", "yield_and_claim", "opening_events",
    "deal_no", "dealer", "phase", "emperor", "partner", "called", "tell_kind", "solo", "grabbed",
    "declared", "solo_declared", "holder", "first_holder", "handed_on", "table", "owner",
    "stage", "claimant", "house",
)  # fmt: skip
_LISTS = (  # lists changed in place: copied
    "sizes", "out", "active", "trick", "plays", "to_ask", "yielders", "rebels", "totals",
    "history", "table_cards", "passed", "sunk",
)  # fmt: skip
_ROWS = ("hands", "slots", "masks", "still_in_after")  # a list per seat: copied two deep
_DICTS = ("public_roles", "answers", "tribute")  # copied
_RNG = "rng"  # copied: a clone draws what the original would, independently
_CACHE = "shown_plays"  # derived from plays for views (view.ShownPlays): a clone starts without
_WHOLE = (*State.__slots__, *_SHARED)
FIELDS = (*_WHOLE, *_LISTS, *_ROWS, *_DICTS, _RNG, _CACHE)  # every field, the engine's too


class Fields(State):
    __slots__ = (*_SHARED, *_LISTS, *_ROWS, *_DICTS, _RNG, _CACHE)
    MEMOS: ClassVar[tuple[str, ...]] = (*State.MEMOS, _CACHE)
    phase: Phase  # set by the phase that opens a deal (opening.begin), then by each next one
    holder: int  # who holds the marked big joker (the emperor card) now
    first_holder: int  # who was dealt it

    def _start_match(
        self,
        options: dict[str, Any],
        seed: int,
        totals: list[Fraction] | None = None,
        history: list[FinishedDeal] | None = None,
        deal_no: int = 0,
        dealer: int = 0,
    ) -> None:
        """The fields of the whole match: the two constructors' common start."""
        self.options = options
        self.seed = seed
        self.variant = v = variant_for(options)  # with its house rules
        self.single_with_jokers = v.single_with_jokers  # read on every decision
        self.yield_and_claim = v.yield_and_claim
        self.house = House.read(options, v.lowest_strength)  # house rules, rules edition
        self.rng = make_rng(seed)
        self.totals = list(totals) if totals is not None else [Fraction(0)] * 5
        self.history = list(history or [])  # one public summary per finished deal
        self.deal_no = deal_no
        self.dealer = dealer
        self._events: list[Event] = []
        self.opening_events = self._events

    def _new_deal(self, counts: list[list[int]]) -> None:
        """The fields of one deal, for the hands ``counts`` (kind counts per seat): nobody
        chosen, nothing played. Both constructors and every new deal come through here."""
        self.hands = [h[:] for h in counts]
        self.slots = [slots_of(h) for h in self.hands]
        self.sizes = [sum(h) for h in self.hands]
        self.masks = [rank_masks(slots) for slots in self.slots]  # for fast move generation
        self.emperor: int | None = None
        self.partner: int | None = None  # royalist or guard; hidden until revealed
        self.solo = self.grabbed = self.declared = self.solo_declared = False
        self.rebels: list[int] = []
        self.called: int | None = None
        self.tell_kind = -1  # the card kind whose play unmasks a role
        self.public_roles: dict[int, str] = {}
        self.answers: dict[int, int] = {}
        self.tribute: dict[int, TributeCards] = {}
        self.handed_on = 0  # times the marked big joker moved on (yield / hand on)
        self.out: list[int] = []
        self.active = [True] * 5
        self.still_in_after = [list(after) for after in AFTER]  # play order, seats out skipped
        self.table: tuple[int, int, int, int] | None = None  # (r, n, x, y) of the set to beat
        self.table_cards: list[int] = []
        self.owner = NOBODY  # who played the set on the table
        self.trick: list[tuple[int, str, list[str] | None]] = []  # (seat, action, cards)
        self.plays: list[tuple[int, list[str]]] = []  # every set of this deal, face up
        self.shown_plays: Any = None  # a view.ShownPlays, made by the first view that shows them
        self.to_ask: list[int] = []
        self.passed = [False] * 5  # who passed since the trick's lead (the hard pass)
        self.sunk: list[int] = []  # who went out on the lowest rank (lowest_last)
        self.yielders: list[int] = []
        self.stage = 1
        self.claimant: int | None = None
        self._legal_cache: tuple[int, list[int]] | None = None

    def clone(self) -> Self:
        """An independent copy, fast enough for search rollouts (see the field groups)."""
        new = object.__new__(type(self))
        for name in _WHOLE:
            setattr(new, name, getattr(self, name))
        for name in _LISTS:
            setattr(new, name, getattr(self, name)[:])
        for name in _ROWS:
            setattr(new, name, [row[:] for row in getattr(self, name)])
        for name in _DICTS:
            setattr(new, name, dict(getattr(self, name)))
        new.rng = copy.copy(self.rng)
        new.shown_plays = None
        return new

    def own_role(self, seat: int) -> str | None:
        """The role a seat knows it has (it sees its own cards); ``None`` before an emperor."""
        alone = self.solo or self.grabbed
        return self.variant.role(seat, self.emperor, self.partner, alone)

    # ------------------------------------------------------------------ the phases' moves

    def set_turn(self, seat: int) -> None:
        """``seat`` alone owes the next decision."""
        self._pending = (seat,)

    def open_window(self, phase: Phase, seats: list[int]) -> None:
        """Open ``phase`` as a window: ``seats`` are asked at once, their answers sealed."""
        self.phase = phase
        self.answers = {}
        self._pending = tuple(seats)

    def seal_answer(self, seat: int, action: int) -> bool:
        """Keep a seat's answer in the open window; whether every seat asked has answered."""
        self.answers[seat] = action
        self._pending = tuple(s for s in self._pending if s != seat)
        return not self._pending

    def move(self, kind: int, giver: int, taker: int) -> None:
        """One card of ``kind`` changes hands."""
        self.hands[giver][kind] -= 1
        self.hands[taker][kind] += 1
        self.slots[giver][SLOT_OF[kind]] -= 1
        self.slots[taker][SLOT_OF[kind]] += 1
        self.sizes[giver] -= 1
        self.sizes[taker] += 1
        if kind < 52:
            self.masks[giver] = rank_masks(self.slots[giver])
            self.masks[taker] = rank_masks(self.slots[taker])

    def holder_of(self, kind: int) -> int:
        """The first seat holding a card of ``kind``."""
        return next(s for s in range(5) if self.hands[s][kind])

    emit = State._emit  # an event of the action being applied (``to``: who may see it)
