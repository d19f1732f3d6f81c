"""Baohuang's state machine: the match, dealing, play, and scoring each deal.

A match is a series of deals; each deal runs through the phases of phases.py, which differ by
variant (variants.py: the state asks its variant, never which one it has):

    shandong: [grab window] -> call / yield -> [forcing | void deal] -> declarations -> play
    japanese: [tribute] -> emperor card kept or handed on -> declarations -> play

The state's fields, and the moves on them that its phases make, are in fields.py; the phases
before play are in opening.py, tribute in tribute.py, the notation in actions.py, the views in
view.py. Each is handed the state as Fields and answers back (opening.act says how the opening
ended), so none of them imports this module. Play order is seat i, then i+1 (mod 5). See
docs/rules/baohuang.md.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from yamen.engine import DEAL_OVER, Event, Result, score_json
from yamen.errors import NotationError
from yamen.games.baohuang import actions, opening, refusal, tribute
from yamen.games.baohuang.actions import CALL_BASE, CLAIM, PASS, WORDS, YIELD
from yamen.games.baohuang.fields import AFTER, NOBODY, Fields, FinishedDeal, TributeCards
from yamen.games.baohuang.hands import counts_of, slots_of, take
from yamen.games.baohuang.kinds import BJ_MARKED, KIND_TEXT, SLOT_OF, hand_cards
from yamen.games.baohuang.opening import End
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.scoring import Stakes, Teams
from yamen.games.baohuang.sets import (
    DECODED,
    decoded,
    follows,
    is_play,
    leads,
    shape_of,
)
from yamen.games.baohuang.view import BaohuangView, seat_view

_PLAY = Phase.PLAY  # a module name for the hot paths: an enum attribute lookup costs more
_PASS_ONLY, _PASS_YIELD, _PASS_YIELD_CLAIM = (PASS,), (PASS, YIELD), (PASS, YIELD, CLAIM)


class BaohuangState(Fields):
    game = "baohuang"
    num_seats = 5
    __slots__ = ()  # every field is declared in fields.py

    def __init__(self, options: dict[str, Any], seed: int, deal: list[list[int]] | None = None):
        self._start_match(options, seed)
        self.dealer = self.rng.randrange(5)  # japanese: rotates each deal; shandong: unused
        self._start_deal(deal)
        self.opening_events = self._events

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
        history: list[FinishedDeal] | None = None,
        tribute: dict[int, TributeCards] | None = None,
        seed: int = 0,
    ) -> BaohuangState:
        """A deal in its PLAY phase, built from its parts rather than by playing up to it
        (through the same ``_start_match`` and ``_new_deal`` as a dealt game).

        Search uses it to play out hands sampled for the unseen cards (see determinize.py);
        no state is read to build one. ``hands`` are card-kind counts per seat; ``called`` is
        the called card kind (shandong; ``None`` after a grab or in japanese); ``partner`` the
        royalist or guard (``None``: solo or grab); ``declared`` the seats that declared (the
        emperor: a solo declaration; the partner: a royalist's); ``roles`` the public roles.
        The table: ``owner`` played ``table_cards`` (kinds), ``to_ask`` are the seats still to
        answer it in circle ``stage``; no table means the pending seat leads. The rest is
        bookkeeping copied into the state as given."""
        self = object.__new__(cls)
        self._start_match(options, seed, totals, history, deal_no, dealer)
        self._new_deal(hands)
        v = self.variant
        self.emperor, self.partner, self.called, self.grabbed = emperor, partner, called, grabbed
        self.solo = partner is None and not grabbed
        self.solo_declared = emperor in declared
        self.declared = partner is not None and partner in declared
        self.rebels = sorted(s for s, role in roles.items() if role == v.other_role)
        self.tell_kind = v.tell_kind(called)
        self.public_roles = dict(roles)
        self.tribute = dict(tribute or {})
        self.holder = self.first_holder = next(
            (s for s in range(5) if hands[s][BJ_MARKED]), emperor
        )
        self.out = list(out)
        self.active = [s not in out for s in range(5)]
        self.still_in_after = [[s for s in AFTER[i] if self.active[s]] for i in range(5)]
        self.table_cards = list(table_cards or [])
        self.table = shape_of(self.table_cards) if owner is not None else None
        self.owner = NOBODY if owner is None else owner
        self.trick = list(trick or [])
        self.plays = list(plays or [])
        self.sunk = self.house.sunk_of(self.out, self.plays)
        self.passed = [any(m[0] == s and m[1] == "pass" for m in self.trick) for s in range(5)]
        self.to_ask = list(to_ask or [])
        self.yielders = list(yielders or [])
        self.stage = stage
        self.claimant = claimant
        self.phase = Phase.PLAY
        self._pending = tuple(pending)
        return self

    # ------------------------------------------------------------------ protocol

    def _act(self, seat: int, action: int) -> None:
        if self.phase is not _PLAY:
            self._act_in_opening(seat, action)
        elif action >= CALL_BASE:
            self._play_set(seat, action)
        else:  # pass, yield or claim; inline, as are the legal sets: most decisions are these
            self.to_ask.pop(0)
            if action == YIELD:
                self.yielders.append(seat)
            elif action == CLAIM:
                self.claimant = seat
            else:
                self.passed[seat] = True
            word = WORDS[action]
            self.trick.append((seat, word, None))
            self._events.append(Event(word, {"seat": seat}))
            if self.to_ask:
                self._pending = (self.to_ask[0],)
            else:
                self._next_to_answer()

    def _legal_actions(self, seat: int) -> list[int]:
        if self.phase is not _PLAY:
            return opening.legal(self, seat)
        counts = self.slots[seat]
        tk = self.tell_kind
        telling = self.hands[seat][tk] if tk >= 0 else 0
        tell_slot = SLOT_OF[tk] if telling else -1
        single = self.single_with_jokers
        if self.table is None:
            found = leads(counts, single, tell_slot, telling)
            held = self.house.held_rank  # lowest_held: only leads are narrowed (house.py)
            if held >= 0 and counts[held]:
                return self.house.leads_allowed(found, self.sizes[seat])
            return found
        words = self.answer_words()
        return [*words, *follows(counts, self.masks[seat], self.table, single, tell_slot, telling)]

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
        if self.phase != Phase.OVER:
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

    def running_scores(self) -> list[Fraction]:
        """The match totals of the deals finished so far."""
        return list(self.totals)

    def action_text(self, action: int) -> str:
        return actions.text(action, self.tell_kind)

    def parse_action(self, seat: int, text: str) -> int:
        """See actions.py: only the deal's telling card changes how a set is read."""
        return actions.parse(text, self.tell_kind)

    def _refusal(self, seat: int, action: Any) -> str:
        """Which rule refuses the action (refusal.py); only on the error path."""
        try:
            text = self.action_text(action) if type(action) is int else None
        except NotationError:  # an id that is no action at all
            text = None
        if text is None:
            return super()._refusal(seat, action)
        tk = self.tell_kind
        seen = refusal.Seen(
            phase=self.phase,
            slots=self.slots[seat],
            tell_kind=tk,
            telling_held=self.hands[seat][tk] if tk >= 0 else 0,
            table=self.table if self.phase is _PLAY else None,
            single_with_jokers=self.single_with_jokers,
            legal_words=tuple(self.action_text(a) for a in self._legal_now(seat) if not is_play(a)),
            held_rank=self.house.held_rank,
            hand_size=self.sizes[seat],
        )
        return refusal.why(action, text, seen)

    def view(self, seat: int | None = None) -> BaohuangView:
        return seat_view(self, seat)

    # ------------------------------------------------------------------ rules asked by search

    def answer_words(self) -> tuple[int, ...]:
        """The answers to the set on the table other than beating it: pass; yield (讓牌) in
        the first circle; claim (接風) in the first circle after a set that put its owner out,
        until someone claims. Yield and claim only where the variant has them."""
        if self.yield_and_claim and self.stage == 1:
            owner = self.owner
            if (
                self.claimant is None
                and not self.active[owner]
                and self.house.may_claim(self.to_ask[0], self.still_in_after[owner][0])
            ):
                return _PASS_YIELD_CLAIM
            return _PASS_YIELD
        return _PASS_ONLY

    def places_now(self) -> list[int]:
        """The places were the deal to end now (the seats still in in seat order)."""
        return self.house.places(self.out, self.sunk, [s for s in range(5) if self.active[s]])

    def deal_scores(self, places: list[int]) -> list[Fraction]:
        """This deal's scores had the seats finished in the order ``places``."""
        emperor = self.emperor
        assert emperor is not None, "a deal is scored once it has an emperor"
        teams = Teams(emperor, self.partner, self.grabbed)
        stakes = Stakes(self.declared, self.solo_declared, bool(self.rebels))
        return self.variant.score(places, teams, stakes)

    # ------------------------------------------------------------------ dealing

    def _start_deal(self, explicit: list[list[int]] | None = None, redeal: bool = False) -> None:
        if not redeal:
            self.deal_no += 1
            if self.deal_no > 1:
                self.dealer = (self.dealer + 1) % 5
        v = self.variant
        dealt = explicit or v.deal(self.rng, self.house.first_card(self.dealer))
        self._new_deal([counts_of(kinds) for kinds in dealt])
        self._emit("deal", deal=self.deal_no, redeal=redeal, sizes=list(self.sizes))
        if self.deal_no > 1 and v.pays_tribute(self.options):
            tribute.pay(self)
        for seat in range(5):
            self._emit("hand", to=(seat,), cards=hand_cards(self.hands[seat]))
        self.holder = self.first_holder = self.holder_of(BJ_MARKED)
        opening.begin(self)

    def _act_in_opening(self, seat: int, action: int) -> None:
        """An action before play (opening.py), then what its end calls for, if it ended."""
        end = opening.act(self, seat, action)
        if end is End.PLAY:
            self._begin_play()
        elif end is End.VOID:
            self._start_deal(redeal=True)

    # ------------------------------------------------------------------ play

    def _begin_play(self) -> None:
        emperor = self.emperor
        assert emperor is not None, "play opens once the deal has an emperor"
        self.phase = Phase.PLAY
        self._lead(emperor)

    def _lead(self, seat: int) -> None:
        self.table = None
        self.owner = NOBODY
        self.trick = []
        self.passed = [False] * 5
        self.set_turn(seat)

    def _play_set(self, seat: int, action: int) -> None:
        play = DECODED.get(action) or decoded(action)
        r, n, x, y, t = play
        cards = take(self.hands[seat], self.slots[seat], self.masks[seat], play, self.tell_kind)
        self.sizes[seat] -= n + x + y
        self.table = (r, n, x, y)
        self.table_cards = cards
        self.owner = seat
        if t or x or y:
            self._reveal_by_play(seat, x, y, t)
        text = [KIND_TEXT[k] for k in cards]
        self.trick.append((seat, "play", text))
        self.plays.append((seat, text))
        out = self.sizes[seat] == 0
        self._events.append(Event("play", {"seat": seat, "cards": text, "out": out}))
        if out:
            self.out.append(seat)
            self.active[seat] = False
            if self.house.sinks(r, n):
                self.sunk.append(seat)
            if len(self.out) == 4:
                self._end_deal()
                return
            self.still_in_after = [[s for s in AFTER[i] if self.active[s]] for i in range(5)]
        self.to_ask = to_ask = self.house.to_ask(self.still_in_after[seat], self.passed)
        self.yielders = []
        self.stage = 1
        self.claimant = None
        if to_ask:
            self._pending = (to_ask[0],)
        else:
            self._close_trick()  # the hard pass: everyone else has passed in this trick

    def _reveal_by_play(self, seat: int, x: int, y: int, t: int) -> None:
        """Playing a telling card makes a role public (which: Variant.unmasked)."""
        emperor = self.emperor
        assert emperor is not None, "a deal in play has an emperor"
        if self.grabbed or seat in self.public_roles and seat != emperor:
            return
        role = self.variant.unmasked(seat, emperor, self.called, x, y, t)
        if role is not None:
            self.public_roles[seat] = role

    def _next_to_answer(self) -> None:
        if self.to_ask:
            self.set_turn(self.to_ask[0])
        elif self.stage == 1 and self.yielders:
            self.stage = 2  # 讓牌: nobody beat in the first circle, the yielders go again
            self.to_ask, self.yielders = self.yielders, []
            self.set_turn(self.to_ask[0])
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

    def end_played_deal(self, hands: list[list[int]], out: list[int], sunk: list[int]) -> None:
        """End the deal this state holds as if its play had left ``hands`` (kind counts) with
        ``out`` the seats out in order (four; ``sunk`` those of them that went out on the
        lowest rank): the deal played elsewhere, in the compiled core (batch.py, which sets
        the opening's outcome first). The places and scores, the next deal (dealing, tribute)
        or the match's end are then this engine's own; the deal's plays and trick are not
        replayed into the state."""
        assert self.emperor is not None and len(out) == 4, "a deal played, four seats out"
        self.phase = _PLAY
        self.hands = [h[:] for h in hands]
        self.slots = [slots_of(h) for h in hands]
        self.sizes = [sum(h) for h in hands]
        self.out, self.sunk = list(out), list(sunk)
        self.active = [s not in out for s in range(5)]
        self._end_deal()

    def deal_again(self) -> None:
        """The deal this state holds was void elsewhere (nobody took the seat, in the compiled
        core): deal again, as the opening's void end does here."""
        self._start_deal(redeal=True)

    def _end_deal(self) -> None:
        places = self.places_now()
        scores = self.deal_scores(places)
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        emperor = self.emperor
        assert emperor is not None, "a deal is played out once it has an emperor"
        summary: FinishedDeal = {
            "deal": self.deal_no,
            "places": places,
            "emperor": emperor,
            "partner": self.partner,
            "called": None if self.called is None else KIND_TEXT[self.called],
            "grabbed": self.grabbed,
            "declared": self.declared or self.solo_declared,
            "rebels": list(self.rebels),
            "scores": [score_json(s) for s in scores],
            "totals": [score_json(s) for s in self.totals],
        }
        self.history.append(summary)
        self._emit(DEAL_OVER, **summary)
        target = self.options["target"]
        if self.deal_no >= self.options["deals"] or (
            target is not None and max(self.totals) >= target
        ):
            self.phase = Phase.OVER
            self._pending = ()
            self._emit("game over", totals=summary["totals"])
        else:
            self._start_deal()
