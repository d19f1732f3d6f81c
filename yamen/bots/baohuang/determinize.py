"""Determinization: the hidden cards of a Baohuang deal sampled from one seat's view.

Search cannot play out a position it only partly sees, so it samples a full deal that agrees
with everything the seat knows and plays that out instead. Only the view is read:

- the seat's own hand is its own; every other seat gets exactly its public hand size;
- the unseen cards are the deck minus the own hand minus every card played this deal;
- the marked big joker (BJ*), until played, stays with the seat the view names (its moves are
  public);
- shandong (and japanese with ``guard_by_fourth``, the guard in the royalist's place), a
  called card: the emperor called while holding 3 copies (4: solo), and the royalist holds
  the remaining one. Copies are counted by colour for a called joker. The royalist is the
  revealed or declared one, the seat itself, or a seat drawn with a chance in proportion to
  its unknown cards (never a revealed rebel); the emperor and royalist keep their copies less
  those they played, and nobody else gets one. A solo is assumed only when it is known (own role, a
  declaration, or all four copies played by the emperor);
- japanese (the seed's): the guard holds the marked small joker (SJ*). Unplayed and not in
  the own hand, it goes to a seat that is not a revealed commoner (a rebel), drawn in
  proportion to unknown cards; on the emperor it makes a solo game. Cards received in
  tribute are in the own hand already; where the seat's given tribute cards went is not
  tracked.

Everything else is dealt uniformly at random, which is what the view says about it.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import NamedTuple

from yamen.bots.baohuang.playout import Playouts
from yamen.games.baohuang.core import CORE, with_deal
from yamen.games.baohuang.hands import counts_of as kind_counts
from yamen.games.baohuang.kinds import BJ, BJ_MARKED, KIND_TEXT, NUM_KINDS
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.rules import BaohuangState
from yamen.games.baohuang.variants import variant_of_view
from yamen.games.baohuang.view import SeatView

KIND_OF_TEXT = {text: kind for kind, text in enumerate(KIND_TEXT)}


class Deal(NamedTuple):
    """A sampled deal: card-kind counts per seat, and the partner they imply (royalist or
    guard; ``None`` for a solo or grab game)."""

    hands: list[list[int]]
    partner: int | None


def counts_of(cards: list[str]) -> list[int]:
    """Kind counts of cards given in notation (a view's hand)."""
    return kind_counts([KIND_OF_TEXT[text] for text in cards])


def played_by_seat(view: SeatView) -> list[list[int]]:
    """Card-kind counts of what each seat has played this deal."""
    played = [[0] * NUM_KINDS for _ in range(5)]
    for entry in view["played"]:
        counts = played[entry["seat"]]
        for text in entry["cards"]:
            counts[KIND_OF_TEXT[text]] += 1
    return played


def unseen_counts(view: SeatView) -> list[int]:
    """Kinds the seat cannot see: the deck less its hand less everything played."""
    unseen = [0] * NUM_KINDS
    for kind in variant_of_view(view).deck():
        unseen[kind] += 1
    for k, n in enumerate(counts_of(view["hand"])):
        unseen[k] -= n
    for seat_played in played_by_seat(view):
        for k, n in enumerate(seat_played):
            unseen[k] -= n
    return unseen


class ViewSampler:
    """Deals sampled for one view, what the view fixes read once: a search samples many."""

    def __init__(self, view: SeatView):
        self.view = view
        self.variant = variant_of_view(view)
        self.me = view["seat"]
        self.unseen = unseen_counts(view)
        self.played = played_by_seat(view)
        self.own = counts_of(view["hand"])
        self.need = list(view["hand_sizes"])  # cards each seat still has to receive
        self.need[self.me] = 0
        self.roles = {int(s): r for s, r in view["roles"].items()}
        self.template: bytes | None = None  # the first fresh sample, packed (playouts())

    def deal(self, rng: random.Random) -> Deal:
        """Hands for every seat that agree with the view (see the module)."""
        return _Sampler(self, rng).sample()

    def state(self, rng: random.Random, fresh: bool = False) -> BaohuangState:
        """A full state consistent with the view: :meth:`deal`, then :func:`build_state`."""
        return build_state(self.view, self.deal(rng), fresh, seed=rng.getrandbits(32))

    def playouts(self, rng: random.Random) -> Playouts:
        """Policy playouts of a fresh sample (``state(rng, fresh=True)``, the same draws): the
        first from its state; later ones, in the core, from its hands packed into the first
        sample's packed deal (``core.with_deal``) with no state built, for a view fixes
        everything else a packed deal holds."""
        if CORE is None or self.template is None:
            playouts = Playouts(self.state(rng, fresh=True))
            self.template = playouts.packed
            return playouts
        deal = self.deal(rng)
        rng.getrandbits(32)  # the seed state() draws for its state: the same stream either way
        packed = with_deal(self.template, deal.hands, deal.partner, self.view["declared"])
        return Playouts(None, packed)


class _Sampler:
    """One sampling: places the constrained cards first, then deals the rest at random."""

    def __init__(self, fixed: ViewSampler, rng: random.Random):
        self.view, self.rng = fixed.view, rng
        self.variant, self.me = fixed.variant, fixed.me
        self.played, self.roles = fixed.played, fixed.roles  # only read
        self.unseen = fixed.unseen[:]
        self.hands = [[0] * NUM_KINDS for _ in range(5)]
        self.hands[self.me] = fixed.own[:]
        self.need = fixed.need[:]

    def pin(self, seat: int, kind: int, count: int = 1) -> None:
        """Give ``seat`` up to ``count`` unseen cards of ``kind`` (fewer if the view rules
        more out, so that an odd view never stops a bot)."""
        count = min(count, self.unseen[kind], self.need[seat])
        if count > 0:
            self.unseen[kind] -= count
            self.hands[seat][kind] += count
            self.need[seat] -= count

    def draw_seat(self, seats: list[int]) -> int | None:
        """A seat among ``seats`` with a chance in proportion to its cards still unknown."""
        seats = [s for s in seats if self.need[s] > 0]
        if not seats:
            return None
        return self.rng.choices(seats, weights=[self.need[s] for s in seats])[0]

    def sample(self) -> Deal:
        marked = self.view["marked_joker"]
        if self.unseen[BJ_MARKED] and marked is not None:
            self.pin(marked, BJ_MARKED)
        called = self.view["called"]
        if self.variant.guard_card is not None:
            partner = self.place_guard(self.variant.guard_card)
        elif called is not None and not self.view["grabbed"]:
            partner = self.place_called(KIND_OF_TEXT[called])
        else:
            partner = None
        self.deal_rest()
        return Deal(self.hands, partner)

    def place_called(self, called: int) -> int | None:
        """The emperor's 3 copies of the ``called`` card kind, the royalist's one (see the
        module)."""
        view, me = self.view, self.me
        emperor = view["emperor"]
        assert emperor is not None, "a card is called by the emperor"
        group = (BJ, BJ_MARKED) if called == BJ else (called,)

        def copies(counts: list[int]) -> int:
            return sum(counts[k] for k in group)

        played_e = copies(self.played[emperor])
        solo = (
            (me == emperor and view["role"] == "solo emperor")
            or self.roles.get(emperor) == "solo emperor"
            or played_e == 4
        )
        if solo:
            self.pin(emperor, called, 4 - played_e - copies(self.hands[emperor]))
            return None
        partner_role = self.variant.partner_role  # the royalist, or the guard_by_fourth guard
        royalist = next((s for s, r in self.roles.items() if r == partner_role), None)
        if royalist is None and view["role"] == partner_role:
            royalist = me
        if royalist is None:  # a copy already placed (the marked joker) names the royalist
            royalist = next((s for s in range(5) if s != emperor and copies(self.hands[s])), None)
        if royalist is None:
            rebel = self.variant.other_role  # a seat that rebelled is no partner
            others = [s for s in range(5) if s not in (emperor, me) and self.roles.get(s) != rebel]
            royalist = self.draw_seat(others)
        self.pin(emperor, called, 3 - played_e - copies(self.hands[emperor]))
        if royalist is None:
            return None  # nobody can hold the last copy: the view only fits a solo
        self.pin(royalist, called, 1 - copies(self.played[royalist]) - copies(self.hands[royalist]))
        return royalist

    def place_guard(self, guard_card: int) -> int | None:
        """Japanese: whoever holds (or played) the guard card (the marked small joker) is the
        guard; on the emperor it is a solo game."""
        emperor = self.view["emperor"]
        holder = next((s for s in range(5) if self.played[s][guard_card]), None)
        if self.hands[self.me][guard_card]:
            holder = self.me
        if holder is None and self.unseen[guard_card]:
            rebel = self.variant.other_role  # a seat that rebelled is public as one
            seats = [s for s in range(5) if s != self.me and self.roles.get(s) != rebel]
            holder = self.draw_seat(seats)
            if holder is not None:
                self.pin(holder, guard_card)
        return None if holder is None or holder == emperor else holder

    def deal_rest(self) -> None:
        rest = [k for k in range(NUM_KINDS) for _ in range(self.unseen[k])]
        self.rng.shuffle(rest)
        at = 0
        for seat in range(5):
            hand = self.hands[seat]
            for k in rest[at : at + self.need[seat]]:
                hand[k] += 1
            at += self.need[seat]
            self.need[seat] = 0
        self.unseen = [0] * NUM_KINDS


def sample_deal(view: SeatView, rng: random.Random) -> Deal:
    """Hands for every seat that agree with ``view`` (a seat's view in the play phase)."""
    return ViewSampler(view).deal(rng)


def build_state(view: SeatView, deal: Deal, fresh: bool = False, seed: int = 0) -> BaohuangState:
    """The play-phase state of ``view`` with ``deal``'s hands. ``fresh``: a one-deal game
    with zero totals, so that it ends with this deal and its totals are this deal's scores
    (what search wants); otherwise the match bookkeeping is copied from the view."""
    table = view["table"]
    called = view["called"]
    emperor = view["emperor"]
    assert emperor is not None, "a deal in play has an emperor"
    options = {  # the game's own (house rules included), less what ends the match
        **view.get("options", {}),
        "variant": view["variant"],
        "deals": 1 if fresh else view["deals"],
        "target": None,
    }
    tribute = view.get("tribute")
    return BaohuangState.at_play(
        options,
        deal.hands,
        emperor=emperor,
        partner=deal.partner,
        called=None if called is None else KIND_OF_TEXT[called],
        grabbed=view["grabbed"],
        declared=view["declared"],
        roles={int(s): r for s, r in view["roles"].items()},
        out=view["out"],
        pending=tuple(view["pending"]),
        owner=None if table is None else table["owner"],
        table_cards=[] if table is None else [KIND_OF_TEXT[c] for c in table["cards"]],
        to_ask=None if table is None else table["to_ask"],
        stage=1 if table is None else table["circle"],
        yielders=None if table is None else table["yielders"],
        claimant=None if table is None else table["claimant"],
        trick=[(t["seat"], t["action"], t.get("cards")) for t in view["trick"]],
        plays=[(p["seat"], list(p["cards"])) for p in view["played"]],
        deal_no=1 if fresh else view["deal"],
        dealer=view.get("dealer", 0),
        totals=None if fresh else [Fraction(t) for t in view["totals"]],
        history=None if fresh else view["history"],
        tribute=None if tribute is None else {view["seat"]: tribute},
        seed=seed,
    )


def determinize(view: SeatView, rng: random.Random, fresh: bool = False) -> BaohuangState:
    """A full state consistent with ``view``: :func:`sample_deal` then :func:`build_state`."""
    return ViewSampler(view).state(rng, fresh)


def sampled_scores(
    view: SeatView, actions: list[int], samples: int, rng: random.Random
) -> list[float] | None:
    """For each of ``actions`` (legal, the view's seat to act), the seat's final score
    averaged over ``samples`` deals drawn to fit the view (:class:`ViewSampler`, as the search
    bot draws them), each action and then the rules bot's play in every seat played out on
    each deal (paired: every action on the same deals); ``Game.sampled_playouts`` for
    learners' labels (yamen/rl/improve.py). The match's totals plus the deal's scores, as
    ``rules_scores`` counts; None before play, or before the match's last deal (a sample holds
    one deal)."""
    if view["phase"] != Phase.PLAY or view["deal"] < view["deals"]:
        return None
    sampler, me = ViewSampler(view), view["seat"]
    sums = [Fraction(0)] * len(actions)
    for _ in range(samples):
        playouts = sampler.playouts(rng)
        sums = [s + playouts.scores(a)[me] for s, a in zip(sums, actions, strict=True)]
    total = Fraction(view["totals"][me])
    return [float(total + s / samples) for s in sums]
