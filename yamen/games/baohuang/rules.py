"""Baohuang's state machine: dealing, choosing the emperor, declarations, play and scoring.

A match is a series of deals. Each deal runs through phases:

    shandong: [grab window] -> call / yield -> [forcing | void deal] -> declarations -> play
    japanese: [tribute] -> emperor card kept or handed on -> declarations -> play

Play order is seat i, then i+1 (mod 5). "Clockwise" in the shandong seed (yielding the marked
joker, forcing, the grab priority) is the other way: i, i-1, i-2 ... See docs/rules/baohuang.md.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import lru_cache
from typing import Any

from yamen.cards import parse_card, parse_rank
from yamen.engine import Event, Result, State, make_rng, score_json
from yamen.errors import NotationError
from yamen.games.baohuang import scoring
from yamen.games.baohuang.kinds import (
    BIG_SLOT,
    BJ,
    BJ_MARKED,
    KIND_TEXT,
    NUM_KINDS,
    NUM_SLOTS,
    SJ,
    SJ_MARKED,
    SLOT_OF,
    SMALL_SLOT,
    hand_cards,
    kind_of,
    slot_text,
)
from yamen.games.baohuang.sets import (
    DECODED,
    NO_RANK,
    decode,
    decoded,
    encode,
    follows,
    is_play,
    leads,
    rank_masks,
)
from yamen.games.baohuang.variants import VARIANTS

# Action ids below sets.PLAY_BASE. CALL_BASE + kind names a card to call (kinds 0..53).
PASS, YIELD, CLAIM, GRAB, KEEP, HAND_ON, DECLARE, REBEL = range(8)
CALL_BASE = 8
WORDS = {
    PASS: "pass",
    YIELD: "yield",
    CLAIM: "claim",
    GRAB: "grab",
    KEEP: "keep",
    HAND_ON: "hand on",
    DECLARE: "declare",
    REBEL: "rebel",
}
WORD_ACTIONS = {word: action for action, word in WORDS.items()}

GRAB_WINDOW, CALLING, FORCING, EMPEROR_CARD, DECLARATIONS, PLAY, OVER = (
    "grab",
    "call",
    "force",
    "emperor card",
    "declare",
    "play",
    "over",
)

CALLABLE = list(range(52)) + [SJ, BJ]
AFTER = [[(seat + i) % 5 for i in range(1, 5)] for seat in range(5)]  # play order from a seat
SUITS_OF = [range(r * 4, r * 4 + 4) for r in range(13)]  # the kinds of a natural rank


class BaohuangState(State):
    game = "baohuang"
    num_seats = 5
    __slots__ = (
        "_events",
        "_legal_cache",
        "_pending",
        "active",
        "answers",
        "called",
        "claimant",
        "deal_no",
        "dealer",
        "declared",
        "emperor",
        "first_holder",
        "grabbed",
        "hands",
        "history",
        "holder",
        "masks",
        "opening_events",
        "options",
        "out",
        "owner",
        "partner",
        "handed_on",
        "phase",
        "plays",
        "public_roles",
        "rebels",
        "rng",
        "seed",
        "single_with_jokers",
        "sizes",
        "slots",
        "solo",
        "solo_declared",
        "stage",
        "still_in_after",
        "table",
        "table_cards",
        "tell_kind",
        "to_ask",
        "totals",
        "tribute",
        "trick",
        "variant",
        "yield_and_claim",
        "yielders",
    )

    def __init__(self, options: dict[str, Any], seed: int, deal: list[list[int]] | None = None):
        self.options = options
        self.seed = seed
        self.variant = v = VARIANTS[options["variant"]]
        self.single_with_jokers = v.single_with_jokers  # read on every decision
        self.yield_and_claim = v.yield_and_claim
        self.rng = make_rng(seed)
        self.totals = [Fraction(0)] * 5
        self.history: list[dict[str, Any]] = []  # one public summary per finished deal
        self.deal_no = 0
        self.dealer = self.rng.randrange(5)  # japanese: rotates each deal; shandong: unused
        self._events: list[Event] = []
        self._start_deal(deal)
        self.opening_events = self._events

    # ------------------------------------------------------------------ protocol

    def _act(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play_action(seat, action)
        elif phase in (GRAB_WINDOW, DECLARATIONS):
            self._answer(seat, action)
        elif phase == CALLING:
            self._calling_action(seat, action)
        elif phase == FORCING:
            self._call(seat, action - CALL_BASE)
        else:
            self._emperor_card_action(seat, action)

    def apply_unchecked(self, seat: int, action: int) -> None:
        """``apply`` without the legality check and without returning events: for search
        playouts whose policy only ever builds legal actions. Anything else must use
        ``apply``; an illegal action here corrupts the state."""
        self._events = []
        self._legal_cache = None
        self._act(seat, action)

    def result(self) -> Result | None:
        """Places: a single deal's finishing order; over several deals, by total score (ties
        by the last deal's order). Winners: the seats with the best total."""
        if self.phase != OVER:
            return None
        last = self.history[-1]["places"]
        if len(self.history) > 1:
            last = sorted(range(5), key=lambda s: (-self.totals[s], last.index(s)))
        places = tuple(last)
        best = max(self.totals)
        tied = best == min(self.totals)
        winners = () if tied else tuple(s for s in range(5) if self.totals[s] == best)
        details = {"variant": self.variant.name, "deals": self.history}
        return Result(tuple(self.totals), places, winners, details)

    def clone(self) -> BaohuangState:
        """An independent copy, fast enough for search rollouts: every field that ``apply``
        mutates in place (hands, slots, masks, lists, dicts, the rng) is copied; immutable
        values and lists that are only ever replaced, never changed (options, events, the
        cached legal list), are shared."""
        new = object.__new__(BaohuangState)
        for name in _SHARED:
            setattr(new, name, getattr(self, name))
        new.hands = [h[:] for h in self.hands]
        new.slots = [s[:] for s in self.slots]
        new.masks = [m[:] for m in self.masks]
        new.still_in_after = [s[:] for s in self.still_in_after]
        new.sizes = self.sizes[:]
        new.out = self.out[:]
        new.active = self.active[:]
        new.trick = self.trick[:]
        new.plays = self.plays[:]
        new.to_ask = self.to_ask[:]
        new.yielders = self.yielders[:]
        new.rebels = self.rebels[:]
        new.totals = self.totals[:]
        new.history = self.history[:]
        new.table_cards = self.table_cards[:]
        new.public_roles = dict(self.public_roles)
        new.answers = dict(self.answers)
        new.tribute = dict(self.tribute)
        new.rng = copy.copy(self.rng)
        return new

    @classmethod
    def at_play(
        cls,
        options: dict[str, Any],
        hands: list[list[int]],
        *,
        emperor: int,
        partner: int | None,
        called: int | None,
        grabbed: bool,
        declared: list[int],
        roles: dict[int, str],
        out: list[int],
        pending: tuple[int, ...],
        owner: int | None = None,
        table_cards: list[int] | None = None,
        to_ask: list[int] | None = None,
        stage: int = 1,
        yielders: list[int] | None = None,
        claimant: int | None = None,
        trick: list[tuple[int, str, list[str] | None]] | None = None,
        plays: list[tuple[int, list[str]]] | None = None,
        deal_no: int = 1,
        dealer: int = 0,
        totals: list[Fraction] | None = None,
        history: list[dict[str, Any]] | None = None,
        tribute: dict[int, dict[str, list[str]]] | None = None,
        seed: int = 0,
    ) -> BaohuangState:
        """A deal in its PLAY phase, built from its parts rather than by playing up to it.

        Search uses it to play out hands sampled for the unseen cards (see determinize.py);
        no state is read to build one. ``hands`` are card-kind counts per seat; ``called`` is
        the called card kind (shandong; ``None`` after a grab or in japanese); ``partner`` the
        royalist or guard (``None``: solo or grab); ``declared`` the seats that declared (the
        emperor: a solo declaration; the partner: a royalist's); ``roles`` the public roles, a
        commoner being a japanese rebel. The table: ``owner`` played ``table_cards`` (kinds),
        ``to_ask`` are the seats still to answer it in circle ``stage``; no table means the
        pending seat leads. The rest is bookkeeping copied into the state as given."""
        self = object.__new__(cls)
        self.options = options
        self.seed = seed
        self.variant = v = VARIANTS[options["variant"]]
        self.single_with_jokers = v.single_with_jokers
        self.yield_and_claim = v.yield_and_claim
        self.rng = make_rng(seed)
        self.totals = list(totals) if totals is not None else [Fraction(0)] * 5
        self.history = list(history or [])
        self.deal_no, self.dealer = deal_no, dealer
        self._events = self.opening_events = []
        self.hands = [h[:] for h in hands]
        self.slots = [[0] * NUM_SLOTS for _ in range(5)]
        for hand, slots in zip(self.hands, self.slots, strict=True):
            for k in range(NUM_KINDS):
                slots[SLOT_OF[k]] += hand[k]
        self.sizes = [sum(h) for h in self.hands]
        self.masks = [rank_masks(slots) for slots in self.slots]
        self.emperor, self.partner, self.called, self.grabbed = emperor, partner, called, grabbed
        self.solo = partner is None and not grabbed
        self.solo_declared = emperor in declared
        self.declared = partner is not None and partner in declared
        self.rebels = sorted(s for s, role in roles.items() if role == "commoner")
        if v.marked_small_joker:
            self.tell_kind = SJ_MARKED
        else:
            self.tell_kind = called if called is not None and called < 52 else -1
        self.public_roles = dict(roles)
        self.answers = {}
        self.tribute = dict(tribute or {})
        self.handed_on = 0
        marked = next((s for s in range(5) if self.hands[s][BJ_MARKED]), emperor)
        self.holder = self.first_holder = marked
        self.out = list(out)
        self.active = [s not in out for s in range(5)]
        self.still_in_after = [[s for s in AFTER[i] if self.active[s]] for i in range(5)]
        self.table_cards = list(table_cards or [])
        self.table = _shape_of(self.table_cards) if owner is not None else None
        self.owner = owner
        self.trick = list(trick or [])
        self.plays = list(plays or [])
        self.to_ask = list(to_ask or [])
        self.yielders = list(yielders or [])
        self.stage = stage
        self.claimant = claimant
        self._legal_cache = None
        self.phase = PLAY
        self._pending = tuple(pending)
        return self

    # ------------------------------------------------------------------ dealing

    def _start_deal(self, explicit: list[list[int]] | None = None, redeal: bool = False) -> None:
        if not redeal:
            self.deal_no += 1
            if self.deal_no > 1:
                self.dealer = (self.dealer + 1) % 5
        v = self.variant
        if explicit is not None:
            hands_kinds = explicit
        else:
            cards = v.deck()
            if v.marked_small_joker:  # japanese: dealt one at a time from the dealer's next seat
                self.rng.shuffle(cards)
                hands_kinds = [cards[(i - self.dealer - 1) % 5 :: 5] for i in range(5)]
            else:  # shandong: 43 each, the marked big joker to a random seat
                cards.remove(BJ_MARKED)
                self.rng.shuffle(cards)
                hands_kinds = [cards[i * 43 : (i + 1) * 43] for i in range(5)]
                hands_kinds[self.rng.randrange(5)].append(BJ_MARKED)
        self.hands = [[0] * NUM_KINDS for _ in range(5)]
        self.slots = [[0] * NUM_SLOTS for _ in range(5)]
        for seat, kinds in enumerate(hands_kinds):
            for k in kinds:
                self.hands[seat][k] += 1
                self.slots[seat][SLOT_OF[k]] += 1
        self.sizes = [len(kinds) for kinds in hands_kinds]
        self.masks = [rank_masks(slots) for slots in self.slots]  # for fast move generation
        self.emperor: int | None = None
        self.partner: int | None = None  # royalist or guard; hidden until revealed
        self.solo = self.grabbed = self.declared = self.solo_declared = False
        self.rebels: list[int] = []
        self.called: int | None = None
        self.tell_kind = -1  # the card kind whose play unmasks a role
        self.public_roles: dict[int, str] = {}
        self.answers: dict[int, int] = {}
        self.tribute: dict[int, dict[str, list[str]]] = {}
        self.handed_on = 0  # times the marked big joker moved on (yield / hand on)
        self.out: list[int] = []
        self.active = [True] * 5
        self.still_in_after = [list(after) for after in AFTER]  # play order, seats out skipped
        self.table: tuple[int, int, int, int] | None = None  # (r, n, x, y) of the set to beat
        self.table_cards: list[int] = []
        self.owner: int | None = None
        self.trick: list[tuple[int, str, list[str] | None]] = []  # (seat, action, cards)
        self.plays: list[tuple[int, list[str]]] = []  # every set of this deal, face up
        self.to_ask: list[int] = []
        self.yielders: list[int] = []
        self.stage = 1
        self.claimant: int | None = None
        self._legal_cache: tuple[int, list[int]] | None = None
        self._emit("deal", deal=self.deal_no, redeal=redeal, sizes=list(self.sizes))
        if v.marked_small_joker and self.deal_no > 1:
            self._pay_tribute()
        for seat in range(5):
            self._emit("hand", to=(seat,), cards=hand_cards(self.hands[seat]))
        self.holder = self._holder_of(BJ_MARKED)
        self.first_holder = self.holder
        if v.marked_small_joker:
            self.phase = EMPEROR_CARD
            self._set_turn(self.holder)
        elif self.options["grabbing"]:
            self._open_window(GRAB_WINDOW, [s for s in range(5) if s != self.holder])
        else:
            self.phase = CALLING
            self._set_turn(self.holder)

    def _holder_of(self, kind: int) -> int:
        return next(s for s in range(5) if self.hands[s][kind])

    def _move(self, kind: int, giver: int, taker: int) -> None:
        self.hands[giver][kind] -= 1
        self.hands[taker][kind] += 1
        self.slots[giver][SLOT_OF[kind]] -= 1
        self.slots[taker][SLOT_OF[kind]] += 1
        self.sizes[giver] -= 1
        self.sizes[taker] += 1
        if kind < 52:
            self.masks[giver] = rank_masks(self.slots[giver])
            self.masks[taker] = rank_masks(self.slots[taker])

    def _pay_tribute(self) -> None:
        """上納: last deal's losers give their strongest non-jokers, winners take them at random."""
        last = self.history[-1]
        scores = [Fraction(s) for s in last["scores"]]
        if not any(scores):
            return
        emperor, alone = last["emperor"], last["partner"] is None
        share = [(4 if alone else 2) if s == emperor else 1 for s in range(5)]
        pool: list[tuple[int, int]] = []  # (kind, giver)
        for seat in (s for s in range(5) if scores[s] < 0):
            for _ in range(share[seat]):
                kind = max(k for k in range(52) if self.hands[seat][k])
                self.hands[seat][kind] -= 1  # taken off now so the next pick is the next best
                pool.append((kind, seat))
        for kind, giver in pool:
            self.hands[giver][kind] += 1
        self.rng.shuffle(pool)
        gave: dict[int, list[str]] = {}
        got: dict[int, list[str]] = {}
        for taker in (s for s in range(5) if scores[s] > 0):
            for _ in range(share[taker]):
                kind, giver = pool.pop()
                self._move(kind, giver, taker)
                gave.setdefault(giver, []).append(KIND_TEXT[kind])
                got.setdefault(taker, []).append(KIND_TEXT[kind])
        for seat in range(5):
            self.tribute[seat] = {"gave": gave.get(seat, []), "received": got.get(seat, [])}
            if seat in gave or seat in got:
                self._emit("tribute", to=(seat,), **self.tribute[seat])
        self._emit(
            "tribute paid",
            gave={s: len(c) for s, c in gave.items()},
            received={s: len(c) for s, c in got.items()},
        )

    # ------------------------------------------------------------------ turns and windows

    def _set_turn(self, seat: int) -> None:
        self._pending = (seat,)

    def _open_window(self, phase: str, seats: list[int]) -> None:
        """A question asked of several seats at once; answers stay sealed until all are in."""
        self.phase = phase
        self.answers = {}
        self._pending = tuple(seats)

    def _legal_actions(self, seat: int) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            acts = self._play_legal(seat)
        elif phase == GRAB_WINDOW:
            acts = [PASS, GRAB]
        elif phase == DECLARATIONS:
            acts = self._declare_legal(seat)
        elif phase == CALLING:
            acts = [CALL_BASE + k for k in CALLABLE if self._copies(seat, k) >= 3] + [YIELD]
            if self.options["grabbing"]:
                acts.append(GRAB)
        elif phase == FORCING:
            acts = [CALL_BASE + k for k in CALLABLE if self._copies(seat, k) == 3]
        else:  # EMPEROR_CARD: back at the first holder after a full round, it must be kept
            acts = [KEEP] if self.handed_on == 5 else [KEEP, HAND_ON]
        return acts

    def _answer(self, seat: int, action: int) -> None:
        self.answers[seat] = action
        self._pending = tuple(s for s in self._pending if s != seat)
        if self._pending:
            return
        if self.phase == GRAB_WINDOW:
            self._close_grab_window()
        else:
            self._close_declarations()

    # ------------------------------------------------------------------ choosing the emperor

    def _copies(self, seat: int, kind: int) -> int:
        """Identical copies held: same rank and suit; jokers by colour, marked ones included."""
        if kind < 52:
            return self.hands[seat][kind]
        return self.slots[seat][SLOT_OF[kind]]

    def _close_grab_window(self) -> None:
        h = self.holder
        order = [(h - i) % 5 for i in range(1, 5)]  # clockwise from the holder
        grabber = next((s for s in order if self.answers[s] == GRAB), None)
        self._emit("grab window closed", grabbed_by=grabber)
        if grabber is None:
            self.phase = CALLING
            self._set_turn(h)
        else:
            self._grab(grabber)

    def _grab(self, seat: int) -> None:
        if seat != self.holder:
            self._move(BJ_MARKED, self.holder, seat)
        self.emperor, self.grabbed = seat, True
        self.public_roles[seat] = "emperor"
        self._emit("grab", seat=seat)
        self._begin_play()

    def _calling_action(self, seat: int, action: int) -> None:
        if action == GRAB:
            self._grab(seat)
        elif action == YIELD:
            nxt = (seat - 1) % 5
            self._move(BJ_MARKED, seat, nxt)
            self.handed_on += 1
            self._emit("yield emperor", seat=seat, to_seat=nxt)
            if self.handed_on < 5:
                self.holder = nxt
                self._set_turn(nxt)
            else:
                self._force()
        else:
            self._call(seat, action - CALL_BASE)

    def _force(self) -> None:
        """逼莊: the first seat clockwise from the first holder with exactly 3 identical cards
        must call; nobody qualifies -> 黃莊, a void deal dealt again."""
        h = self.first_holder
        for seat in ((h - i) % 5 for i in range(5)):
            if any(self._copies(seat, k) == 3 for k in CALLABLE):
                self.phase = FORCING
                self._emit("forced", seat=seat)
                self._set_turn(seat)
                return
        self._emit("void deal")
        self._start_deal(redeal=True)

    def _call(self, seat: int, kind: int) -> None:
        self.emperor, self.called = seat, kind
        self.solo = self._copies(seat, kind) == 4
        if not self.solo:
            self.partner = next(s for s in range(5) if s != seat and self._copies(s, kind))
        self.tell_kind = kind if kind < 52 else -1  # a called joker unmasks by colour alone
        self.public_roles[seat] = "emperor"
        self._emit("call", seat=seat, card=KIND_TEXT[kind])
        self._open_declarations()

    def _emperor_card_action(self, seat: int, action: int) -> None:
        if action == HAND_ON:
            nxt = (seat + 1) % 5
            self._move(BJ_MARKED, seat, nxt)
            self.handed_on += 1
            self.holder = nxt
            self._emit("hand on emperor card", seat=seat, to_seat=nxt)
            self._set_turn(nxt)
            return
        guard = self._holder_of(SJ_MARKED)
        self.emperor = seat
        self.solo = guard == seat
        self.partner = None if self.solo else guard
        self.tell_kind = SJ_MARKED
        self.public_roles[seat] = "emperor"
        self._emit("emperor", seat=seat)
        self._open_declarations()

    # ------------------------------------------------------------------ declarations

    def _open_declarations(self) -> None:
        """Every seat is asked at once, so being asked reveals nothing: the emperor whether to
        declare a solo game, the others (shandong) whether to declare as royalist or (japanese)
        whether to rebel. Only the seat that may say yes has yes among its legal answers."""
        self._open_window(DECLARATIONS, list(range(5)))

    def _declare_legal(self, seat: int) -> list[int]:
        if seat == self.emperor:
            return [PASS, DECLARE] if self.solo else [PASS]
        if self.variant.marked_small_joker:
            return [PASS] if seat == self.partner else [PASS, REBEL]
        return [PASS, DECLARE] if seat == self.partner else [PASS]

    def _close_declarations(self) -> None:
        declared = [s for s in range(5) if self.answers[s] == DECLARE]
        self.rebels = [s for s in range(5) if self.answers[s] == REBEL]
        for seat in declared:
            if seat == self.emperor:
                self.solo_declared = True
                self.public_roles[seat] = "solo emperor"
            else:
                self.declared = True
                self.public_roles[seat] = "royalist"
        for seat in self.rebels:
            self.public_roles[seat] = "commoner"
        self._emit("declarations", declared=declared, rebels=self.rebels)
        self._begin_play()

    # ------------------------------------------------------------------ play

    def _begin_play(self) -> None:
        self.phase = PLAY
        self._lead(self.emperor)

    def _lead(self, seat: int) -> None:
        self.table = None
        self.owner = None
        self.trick = []
        self._set_turn(seat)

    def _play_legal(self, seat: int) -> list[int]:
        counts = self.slots[seat]
        tk = self.tell_kind
        telling = self.hands[seat][tk] if tk >= 0 else 0
        tell_slot = SLOT_OF[tk] if telling else -1
        single = self.single_with_jokers
        if self.table is None:
            return leads(counts, single, tell_slot, telling)
        acts = [PASS]
        if self.yield_and_claim and self.stage == 1:
            acts.append(YIELD)
            if self.claimant is None and not self.active[self.owner]:
                acts.append(CLAIM)
        acts += follows(counts, self.masks[seat], self.table, single, tell_slot, telling)
        return acts

    def _play_action(self, seat: int, action: int) -> None:
        if action >= CALL_BASE:
            self._play_set(seat, action)
            return
        self.to_ask.pop(0)
        if action == YIELD:
            self.yielders.append(seat)
        elif action == CLAIM:
            self.claimant = seat
        word = WORDS[action]
        self.trick.append((seat, word, None))
        self._events.append(Event(word, {"seat": seat}))
        if self.to_ask:
            self._pending = (self.to_ask[0],)
        else:
            self._next_to_answer()

    def _play_set(self, seat: int, action: int) -> None:
        r, n, x, y, t = DECODED.get(action) or decoded(action)
        cards = self._take(seat, r, n, x, y, t)
        self.table = (r, n, x, y)
        self.table_cards = cards
        self.owner = seat
        if t or x or y:
            self._reveal_by_play(seat, r, x, y, t)
        text = [KIND_TEXT[k] for k in cards]
        self.trick.append((seat, "play", text))
        self.plays.append((seat, text))
        out = self.sizes[seat] == 0
        self._events.append(Event("play", {"seat": seat, "cards": text, "out": out}))
        if out:
            self.out.append(seat)
            self.active[seat] = False
            if len(self.out) == 4:
                self._end_deal()
                return
            self.still_in_after = [[s for s in AFTER[i] if self.active[s]] for i in range(5)]
        self.to_ask = to_ask = self.still_in_after[seat][:]
        self.yielders = []
        self.stage = 1
        self.claimant = None
        self._pending = (to_ask[0],)

    def _take(self, seat: int, r: int, n: int, x: int, y: int, t: int) -> list[int]:
        """Remove a set from the hand, strongest first: telling cards as chosen, the other
        cards of a slot in a fixed order (plain before marked, suits S H D C)."""
        hand, slots = self.hands[seat], self.slots[seat]
        if n:
            held = slots[r]
            slots[r] = held - n
            masks, clear = self.masks[seat], ~(1 << r)
            for m in range(held - n + 1, held + 1):
                masks[m] &= clear
        slots[SMALL_SLOT] -= x
        slots[BIG_SLOT] -= y
        self.sizes[seat] -= n + x + y
        tk = self.tell_kind
        taken = _take_plain(hand, (BJ, BJ_MARKED), y, tk) if y else []
        if tk == SJ_MARKED and t:
            taken += [SJ_MARKED] * t
            hand[SJ_MARKED] -= t
            taken += _take_plain(hand, (SJ,), x - t, tk)
        elif x:
            taken += _take_plain(hand, (SJ, SJ_MARKED), x, tk)
        if n:
            if 0 <= tk < 52 and t:
                taken += [tk] * t
                hand[tk] -= t
                n -= t
            for k in SUITS_OF[r]:  # inlined _take_plain: this runs for nearly every set
                held = hand[k]
                if held and k != tk:
                    if held >= n:
                        hand[k] = held - n
                        taken += [k] * n
                        break
                    hand[k] = 0
                    taken += [k] * held
                    n -= held
        return taken

    def _reveal_by_play(self, seat: int, r: int, x: int, y: int, t: int) -> None:
        """Playing a telling card makes a role public."""
        if self.grabbed or seat in self.public_roles and seat != self.emperor:
            return
        if self.variant.marked_small_joker:
            if t and seat == self.emperor:
                self.public_roles[seat] = "solo emperor"
            elif t:
                self.public_roles[seat] = "guard"
        elif seat != self.emperor:
            called = self.called
            if (t and called < 52) or (x and called == SJ) or (y and called == BJ):
                self.public_roles[seat] = "royalist"

    def _next_to_answer(self) -> None:
        if self.to_ask:
            self._set_turn(self.to_ask[0])
        elif self.stage == 1 and self.yielders:
            self.stage = 2  # 讓牌: nobody beat in the first circle, the yielders go again
            self.to_ask, self.yielders = self.yielders, []
            self._set_turn(self.to_ask[0])
        else:
            self._close_trick()

    def _close_trick(self) -> None:
        owner = self.owner
        if self.claimant is not None:
            leader = self.claimant  # 接風
        elif self.active[owner]:
            leader = owner  # 扣牌
        else:
            leader = self.still_in_after[owner][0]
        self._emit("lead", seat=leader)
        self._lead(leader)

    # ------------------------------------------------------------------ end of a deal

    def _end_deal(self) -> None:
        last = self.active.index(True)
        places = self.out + [last]
        teams = scoring.Teams(self.emperor, self.partner, self.grabbed)
        if self.variant.marked_small_joker:
            scores = scoring.japanese(places, teams, self.solo_declared, bool(self.rebels))
        else:
            scores = scoring.shandong(places, teams, self.declared or self.solo_declared)
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        summary = {
            "deal": self.deal_no,
            "places": places,
            "emperor": self.emperor,
            "partner": self.partner,
            "called": None if self.called is None else KIND_TEXT[self.called],
            "grabbed": self.grabbed,
            "declared": self.declared or self.solo_declared,
            "rebels": list(self.rebels),
            "scores": [score_json(s) for s in scores],
            "totals": [score_json(s) for s in self.totals],
        }
        self.history.append(summary)
        self._emit("deal over", **summary)
        target = self.options["target"]
        if self.deal_no >= self.options["deals"] or (
            target is not None and max(self.totals) >= target
        ):
            self.phase = OVER
            self._pending = ()
            self._emit("game over", totals=summary["totals"])
        else:
            self._start_deal()

    # ------------------------------------------------------------------ notation

    def action_text(self, action: int) -> str:
        if action in WORDS:
            return WORDS[action]
        if CALL_BASE <= action < CALL_BASE + 54:
            return "call " + KIND_TEXT[action - CALL_BASE]
        if not is_play(action):
            raise NotationError(str(action), "not a Baohuang action id")
        return play_text(action, self.tell_kind)

    def parse_action(self, seat: int, text: str) -> int:
        """Words (``pass``, ``yield``, ``claim``, ``grab``, ``keep``, ``hand on``, ``declare``,
        ``rebel``), ``call 9H``, or a set such as ``9 9 9H SJ``: a natural written without a
        suit is a plain card; with a suit it is the telling card if it is the called card, and
        a plain card otherwise."""
        words = " ".join(text.lower().split())
        if words in WORD_ACTIONS:
            return WORD_ACTIONS[words]
        if words.startswith("call "):
            card = parse_card(words[5:])
            return CALL_BASE + (kind_of(card._replace(marked=False)))
        tokens = text.split()
        if not tokens:
            raise NotationError(text, "empty action")
        rank, n, x, y, t = NO_RANK, 0, 0, 0, 0
        for token in tokens:
            upper = token.upper()
            if upper in ("SJ", "SJ*"):
                x += 1
                t += upper == "SJ*" and self.tell_kind == SJ_MARKED
                continue
            if upper in ("BJ", "BJ*"):
                y += 1
                continue
            try:
                slot, kind = "3456789TJQKA2".index(parse_rank(token)), None
            except NotationError:
                kind = kind_of(parse_card(token))
                slot = SLOT_OF[kind]
            if rank not in (NO_RANK, slot):
                raise NotationError(token, "a set is cards of one rank, plus any jokers")
            rank = slot
            n += 1
            t += kind is not None and kind == self.tell_kind
        if n > 16 or x > 4 or y > 4:
            raise NotationError(text, "more cards than four decks hold")
        return encode(rank, n, x, y, t)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). Hidden: other hands, sealed answers,
        roles not yet public, tribute cards of other seats."""
        table = None
        if self.phase == PLAY and self.table is not None:
            table = {
                "owner": self.owner,
                "cards": [KIND_TEXT[k] for k in self.table_cards],
                "circle": self.stage,
                "yielders": list(self.yielders),
                "claimant": self.claimant,
                "to_ask": list(self.to_ask),  # who still answers this set, in order
            }
        view: dict[str, Any] = {
            "game": self.game,
            "variant": self.variant.name,
            "seat": seat,
            "deal": self.deal_no,
            "deals": self.options["deals"],
            "phase": self.phase,
            "pending": list(self._pending),
            "hand_sizes": list(self.sizes),
            "marked_holder": self.holder if self.emperor is None else None,
            "emperor": self.emperor,
            "called": None if self.called is None else KIND_TEXT[self.called],
            "grabbed": self.grabbed,
            "declared": self._declared_seats(),
            "marked_joker": self._marked_joker_seat(),
            "roles": {str(s): r for s, r in sorted(self.public_roles.items())},
            "answered": sorted(self.answers) if self.phase in (GRAB_WINDOW, DECLARATIONS) else [],
            "table": table,
            "trick": [
                {"seat": s, "action": a, **({"cards": c} if c else {})} for s, a, c in self.trick
            ],
            "played": [{"seat": s, "cards": list(c)} for s, c in self.plays],
            "out": list(self.out),
            "totals": [score_json(s) for s in self.totals],
            "history": list(self.history),
        }
        if self.variant.marked_small_joker:
            view["dealer"] = self.dealer
        if seat is not None:
            view["hand"] = hand_cards(self.hands[seat])
            view["role"] = self._own_role(seat)
            if seat in self.tribute:
                view["tribute"] = self.tribute[seat]
            if seat in self._pending:
                view["legal"] = [self.action_text(a) for a in self._legal_now(seat)]
        return view

    def _declared_seats(self) -> list[int]:
        """Who declared (明保 / 明獨): announced to all, and it doubles the deal's score."""
        seats = [self.emperor] if self.solo_declared else []
        return sorted(seats + [self.partner] if self.declared else seats)

    def _marked_joker_seat(self) -> int | None:
        """Where the marked big joker is until it is played: public, since it is dealt to a
        named seat and every move (yield, hand on, grab) is announced."""
        return next((s for s in range(5) if self.hands[s][BJ_MARKED]), None)

    def _own_role(self, seat: int) -> str | None:
        """The role a seat knows it has (it sees its own cards)."""
        if self.emperor is None:
            return None
        if seat == self.emperor:
            return "solo emperor" if self.solo or self.grabbed else "emperor"
        if seat == self.partner:
            return "guard" if self.variant.marked_small_joker else "royalist"
        return "commoner" if self.variant.marked_small_joker else "rebel"


def _shape_of(kinds: list[int]) -> tuple[int, int, int, int]:
    """``(r, n, x, y)`` of a set given as card kinds."""
    naturals = [k for k in kinds if k < 52]
    small = sum(SLOT_OF[k] == SMALL_SLOT for k in kinds)
    r = SLOT_OF[naturals[0]] if naturals else NO_RANK
    return r, len(naturals), small, len(kinds) - len(naturals) - small


_COPIED = {
    "hands", "slots", "masks", "still_in_after", "sizes", "out", "active", "trick", "plays",
    "to_ask", "yielders", "rebels", "totals", "history", "table_cards", "public_roles",
    "answers", "tribute", "rng",
}  # fmt: skip
_SHARED = [name for name in BaohuangState.__slots__ if name not in _COPIED]  # see clone()


def _take_plain(hand: list[int], kinds, count: int, telling: int) -> list[int]:
    """Take ``count`` cards from ``kinds`` in order, never the telling kind."""
    taken: list[int] = []
    for k in kinds:
        if count <= 0:
            break
        if k != telling and hand[k]:
            m = min(count, hand[k])
            hand[k] -= m
            taken += [k] * m
            count -= m
    return taken


@lru_cache(maxsize=1 << 16)
def play_text(action: int, tell_kind: int) -> str:
    """A set's notation; only the telling card (``tell_kind``) depends on the deal. Cached:
    every view lists the seat's legal sets, and a server sends a view per seat per action."""
    r, n, x, y, t = decode(action)
    small_tells = t if tell_kind == SJ_MARKED else 0
    natural_tells = t if 0 <= tell_kind < 52 else 0
    tokens = ["BJ"] * y + ["SJ*"] * small_tells + ["SJ"] * (x - small_tells)
    if n:
        tokens += [KIND_TEXT[tell_kind]] * natural_tells + [slot_text(r)] * (n - natural_tells)
    return " ".join(tokens)
