"""Baohuang's rule variants as behaviour: one class per variant, one instance each.

What differs between the seeds' two games lives here, and the state machine (rules.py) only
asks its variant, never which variant it has: the deck and how it is dealt, how the emperor
is found (the deal's first phase), who may declare or rebel, which card unmasks a role,
what the roles are called, whether tribute is paid, and the scoring. The playouts of search
ask the same questions of the same objects, so that they cannot drift from the rules.

A new variant (a rule preset) is one subclass, registered in :data:`VARIANTS` under the name
the ``variant`` option gives it; the option's value stays that string in records and rooms.

The house rules before play (options ``royalist_declares``, ``solo_declares``, ``cede``,
``guard_by_fourth``: docs/rules/baohuang.md, "Options") are the same objects configured:
:func:`variant_for` gives the variant of a game's options, with those rules set on it, and the
state machine, the bots and the playouts all ask that one.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

from yamen.games.baohuang import scoring
from yamen.games.baohuang.actions import DECLARE, PASS, REBEL
from yamen.games.baohuang.kinds import BJ, BJ_MARKED, SJ, SJ_MARKED, natural
from yamen.games.baohuang.phases import Phase

SEATS = 5


class Variant:
    """What a variant decides. Subclasses set the class attributes and the abstract
    methods; the rest is what the two seeds share."""

    name: ClassVar[str]  # the option's value in records and rooms: never renamed
    title: ClassVar[str]  # as players know it (English; the catalogs say it in each language)
    lowest_strength: ClassVar[int]  # the weakest natural rank in the deck (0: the 3)
    jokers: ClassVar[tuple[int, ...]]  # the joker kinds in the deck, marked ones included
    single_with_jokers: ClassVar[bool]  # a single natural card may carry jokers
    yield_and_claim: ClassVar[bool]  # 讓牌 (a second circle for yielders) and 接風
    tribute: ClassVar[bool]  # 上納 after every deal but the first (option ``tribute``)
    shows_dealer: ClassVar[bool]  # the dealer decides the deal, so views show it
    guard_card: ClassVar[int | None]  # the card that makes its holder the partner, if fixed
    partner_role: ClassVar[str]  # the emperor's hidden partner: "royalist" or "guard"
    other_role: ClassVar[str]  # a seat on neither side of the emperor
    calls_guard: ClassVar[bool] = False  # japanese guard_by_fourth: the emperor calls a card
    # House rules before play, set per game by variant_for(); the class values are the seeds'.
    royalist_declares = True  # the royalist may declare (明保); False: 暗保 only
    solo_declares = True  # a solo emperor may declare (明獨)
    cede = True  # the marked joker's holder may pass it on (讓莊) though it could call or keep

    def __init__(self) -> None:
        naturals = [natural(s, u) for s in range(self.lowest_strength, 13) for u in range(4)]
        self._deck = tuple(naturals * 4 + list(self.jokers))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} variant {self.name!r}>"

    def deck(self) -> list[int]:
        """The full deck as kinds, marked jokers included, in a fixed order (a new list)."""
        return list(self._deck)

    def deal(self, rng: random.Random, first: int) -> list[list[int]]:
        """Each seat's cards (kinds) for a new deal, shuffled with ``rng``; ``first``: the
        seat a dealt round starts with (house.py: ``first_card``, by the rules edition)."""
        raise NotImplementedError

    def first_phase(self, options: dict[str, Any]) -> Phase:
        """The phase a deal opens with, once dealt (and any tribute paid)."""
        raise NotImplementedError

    def pays_tribute(self, options: dict[str, Any]) -> bool:
        """Whether the last deal's losers pay tribute after dealing (from the second deal):
        where the variant has tribute, unless the room turned it off (option ``tribute``)."""
        return self.tribute and bool(options.get("tribute", True))

    def tell_kind(self, called: int | None) -> int:
        """Once the emperor is known: the card kind whose play unmasks a role (-1: none)."""
        raise NotImplementedError

    def partner_answers(self, is_partner: bool) -> list[int]:
        """The declaration window's answers for a seat other than the emperor."""
        raise NotImplementedError

    def unmasked(
        self, seat: int, emperor: int, called: int | None, x: int, y: int, t: int
    ) -> str | None:
        """The role a seat's set makes public (``x`` small, ``y`` big jokers, ``t`` telling
        cards in it), or ``None``; asked only while the seat's side is hidden."""
        raise NotImplementedError

    def score(
        self, places: list[int], teams: scoring.Teams, stakes: scoring.Stakes
    ) -> list[Fraction]:
        """A deal's scores, ``places`` being the seats in finishing order (scoring.py)."""
        raise NotImplementedError

    def declare_answers(
        self, seat: int, emperor: int, partner: int | None, solo: bool
    ) -> list[int]:
        """Every seat is asked in the declaration window; only a seat that may say yes has it
        among its answers. The emperor may declare a solo game (明獨)."""
        if seat == emperor:
            return [PASS, DECLARE] if solo and self.solo_declares else [PASS]
        return self.partner_answers(seat == partner)

    def may_cede(self, can_take: bool) -> bool:
        """Whether the marked big joker's holder may pass it on (讓莊, or hand on the emperor
        card): always with ``cede``; without it only a holder that cannot take the seat (has
        no card to call)."""
        return self.cede or not can_take

    def role(self, seat: int, emperor: int | None, partner: int | None, alone: bool) -> str | None:
        """The role a seat knows it has (it sees its own cards); ``None`` before there is an
        emperor. ``alone``: the emperor plays one against four (a solo or a grab)."""
        if emperor is None:
            return None
        if seat == emperor:
            return "solo emperor" if alone else "emperor"
        return self.partner_role if seat == partner else self.other_role


class Shandong(Variant):
    """Seed 002: 216 cards, one marked big joker dealt at random; call, yield, grab, force."""

    name = "shandong"
    title = "216 cards: the emperor calls a card"
    lowest_strength = 0
    jokers = (SJ, SJ, SJ, SJ, BJ, BJ, BJ, BJ_MARKED)
    single_with_jokers = True
    yield_and_claim = True
    tribute = False
    shows_dealer = False
    guard_card = None  # the royalist holds the last copy of the called card
    partner_role = "royalist"
    other_role = "rebel"

    def deal(self, rng: random.Random, first: int) -> list[list[int]]:
        """The other 215 cards 43 to each seat; the marked big joker to a seat at random."""
        cards = self.deck()
        cards.remove(BJ_MARKED)
        rng.shuffle(cards)
        each = len(cards) // SEATS
        hands = [cards[i * each : (i + 1) * each] for i in range(SEATS)]
        hands[rng.randrange(SEATS)].append(BJ_MARKED)
        return hands

    def first_phase(self, options: dict[str, Any]) -> Phase:
        return Phase.GRAB if options["grabbing"] else Phase.CALL

    def tell_kind(self, called: int | None) -> int:
        """The called natural card; a called joker unmasks by colour alone, so it is no
        telling kind (and after a grab nothing was called)."""
        return called if called is not None and called < 52 else -1

    def partner_answers(self, is_partner: bool) -> list[int]:
        return [PASS, DECLARE] if is_partner and self.royalist_declares else [PASS]  # 明保

    def unmasked(
        self, seat: int, emperor: int, called: int | None, x: int, y: int, t: int
    ) -> str | None:
        """The royalist, by playing the called card (any joker of a called joker's colour)."""
        return unmasked_by_call(self.partner_role, seat, emperor, called, x, y, t)

    def score(
        self, places: list[int], teams: scoring.Teams, stakes: scoring.Stakes
    ) -> list[Fraction]:
        """Place points shared by side; solo, grab; ×2 when either declared (scoring.py)."""
        return scoring.shandong(places, teams, stakes.declared or stakes.solo_declared)


class Japanese(Variant):
    """Seed 003: 168 cards from the 6 up, a marked big joker (the emperor card) and a marked
    small joker (the guard card); dealt round after the cut; tribute from the second deal."""

    name = "japanese"  # the seed's language; players know it as the 168-card standard
    title = "168 cards: marked jokers choose emperor and guard"
    lowest_strength = 3
    jokers = (SJ, SJ, SJ, SJ_MARKED, BJ, BJ, BJ, BJ_MARKED)
    single_with_jokers = False
    yield_and_claim = False
    tribute = True
    shows_dealer = True
    guard_card: ClassVar[int | None] = SJ_MARKED
    partner_role = "guard"
    other_role = "commoner"

    def deal(self, rng: random.Random, first: int) -> list[list[int]]:
        """One card at a time, from ``first`` on (three seats get 34, two 33)."""
        cards = self.deck()
        rng.shuffle(cards)
        return [cards[(i - first) % SEATS :: SEATS] for i in range(SEATS)]

    def first_phase(self, options: dict[str, Any]) -> Phase:
        return Phase.EMPEROR_CARD

    def tell_kind(self, called: int | None) -> int:
        return SJ_MARKED  # the guard card

    def partner_answers(self, is_partner: bool) -> list[int]:
        return [PASS] if is_partner else [PASS, REBEL]  # only commoners rebel

    def unmasked(
        self, seat: int, emperor: int, called: int | None, x: int, y: int, t: int
    ) -> str | None:
        """Whoever plays the guard card: the guard, or the emperor playing alone."""
        if not t:
            return None
        return "solo emperor" if seat == emperor else self.partner_role

    def score(
        self, places: list[int], teams: scoring.Teams, stakes: scoring.Stakes
    ) -> list[Fraction]:
        """Place points summed per side; solo by place; ×2 a rebellion, ×2 a declared solo."""
        return scoring.japanese(places, teams, stakes.solo_declared, stakes.rebellion)


class GuardByFourth(Japanese):
    """Japanese with ``guard_by_fourth`` (some 168-card platforms): no marked small joker; the
    emperor card is taken by calling a card held 3 or 4 times (4: solo), and the holder of the
    4th copy is the guard, unmasked by playing it, as the shandong royalist is."""

    jokers = (SJ, SJ, SJ, SJ, BJ, BJ, BJ, BJ_MARKED)
    guard_card = None
    calls_guard = True

    def tell_kind(self, called: int | None) -> int:
        return called if called is not None and called < 52 else -1  # as shandong

    def unmasked(
        self, seat: int, emperor: int, called: int | None, x: int, y: int, t: int
    ) -> str | None:
        return unmasked_by_call(self.partner_role, seat, emperor, called, x, y, t)


def unmasked_by_call(
    role: str, seat: int, emperor: int, called: int | None, x: int, y: int, t: int
) -> str | None:
    """The partner shown by playing the called card (any joker of a called joker's colour)."""
    if seat == emperor or called is None:
        return None
    if (t and called < 52) or (x and called == SJ) or (y and called == BJ):
        return role
    return None


SHANDONG, JAPANESE = Shandong(), Japanese()
VARIANTS: dict[str, Variant] = {v.name: v for v in (SHANDONG, JAPANESE)}
TITLES = {v.name: v.title for v in VARIANTS.values()}  # the CLI's and the lobby's fallback
HOUSE_DEFAULTS = {  # the house rules before play, at the seeds' values
    "royalist_declares": "open",
    "solo_declares": True,
    "cede": True,
    "guard_by_fourth": False,
}


def variant_for(options: Mapping[str, Any]) -> Variant:
    """The variant ``options`` name, configured with their house rules before play (options
    missing, as in a state built by search from an old view, are the seeds' rules)."""
    house = tuple(options.get(name, value) for name, value in HOUSE_DEFAULTS.items())
    return _configured(options["variant"], *house)


def variant_of_view(view: Mapping[str, Any]) -> Variant:
    """The configured variant a seat's view describes (its ``options``; bots read this)."""
    return variant_for({**view.get("options", {}), "variant": view["variant"]})


@functools.cache
def _configured(name: str, royalist: str, solo: bool, cede: bool, fourth: bool) -> Variant:
    if (royalist, solo, cede, fourth) == tuple(HOUSE_DEFAULTS.values()):
        return VARIANTS[name]
    base = type(VARIANTS[name])
    variant = GuardByFourth() if fourth and issubclass(GuardByFourth, base) else base()
    variant.royalist_declares = royalist == "open"
    variant.solo_declares, variant.cede = solo, cede
    return variant
