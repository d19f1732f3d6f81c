"""Who is the culprit, as far as one seat can tell: the exact posterior over hidden evidence.

A seat knows some evidence for sure (every revealed card, its own face-down cards, and, for the
investigator after its look, the rest of the deck) and how many face-down cards every suspect
holds. Every other card is *unseen*: it lies face down with some suspect or in the draw pile.
Taking every way of dealing the unseen cards into those places as equally likely, the chance
that a suspect is a culprit is the share of deals in which the game's own culprit rules
(:func:`yamen.games.criminal_poker.culprit.judge`) name it.

Counting every deal one by one is too slow at the start of a five-suspect game (millions of
deals), so the count is exact but grouped:

- Cards that :func:`~yamen.games.criminal_poker.culprit.assess` cannot tell apart (the same
  type and innocence: all the physical cards of Yamen's list) are one *class*; dealing ``k`` of
  a class's ``n`` unseen cards to a suspect can happen in ``C(n, k)`` ways.
- Suspects are dealt one after another; what is left for the others depends only on how many
  cards of each class are left, so each (suspect, cards left) is worked out once.
- Of the suspects dealt so far only the *contenders* matter: the culprits that ``judge`` names
  among them. Judging the contenders of one group together with the rest names the same culprits
  as judging everyone (the weapon holder wins outright; otherwise the lowest innocence and valid
  cards), so the summary of a group is the contenders ``judge`` keeps, and ``judge`` is the only
  place the rules are applied.

The pile takes whatever is left, in one way, so the weights are exact counts of deals and the
probabilities exact fractions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb

from yamen.games.criminal_poker.cards import WEAPON, Card
from yamen.games.criminal_poker.culprit import Assessment, assess, judge
from yamen.games.criminal_poker.view import CriminalPokerView


def deck_of(view: CriminalPokerView) -> tuple[Card, ...]:
    """The game's evidence from a view, in the game's order (a card's place is its index in
    the reveal actions)."""
    return tuple(
        Card(c["id"], c["type"], 0 if c["innocence"] is None else c["innocence"], c["name"])
        for c in view["cards"].values()
    )


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about the evidence.

    ``known`` are the cards known to lie with each suspect (revealed, or the seat's own);
    ``face_down`` how many more cards each suspect holds that this seat has not seen;
    ``unseen`` every card this seat has not seen anywhere (in the suspects' unseen face-down
    cards and the draw pile, unless the seat has looked at the pile)."""

    deck: tuple[Card, ...]
    known: Mapping[int, tuple[str, ...]]
    face_down: Mapping[int, int]
    unseen: frozenset[str]


def knowledge(view: CriminalPokerView, public: bool = False) -> Knowledge:
    """What the seat of ``view`` knows; ``public``: only what every seat knows (as the
    others see this seat: its face-down cards and any deck look unknown)."""
    deck = deck_of(view)
    me = None if public else view.get("seat")
    own = tuple(view.get("hidden", ())) if me is not None else ()
    looked = () if public else tuple(view.get("deck") or ())
    known: dict[int, tuple[str, ...]] = {}
    face_down: dict[int, int] = {}
    for seat in view["suspects"]:
        mine = own if seat == me else ()
        known[seat] = tuple(view["shown"][seat]) + mine
        face_down[seat] = view["hidden_counts"][seat] - len(mine)
    seen = {c for cards in known.values() for c in cards} | set(looked)
    unseen = frozenset(c.id for c in deck) - seen
    pile = 0 if view.get("deck") is not None and not public else view["deck_count"]
    if sum(face_down.values()) + pile != len(unseen):
        raise ValueError("the view's card counts do not add up")
    return Knowledge(deck, known, face_down, unseen)


def culprit_odds(know: Knowledge) -> dict[int, Fraction]:
    """Each suspect's chance of being a culprit (one of the culprits when several did it
    together), every deal of the unseen cards counting once."""
    weights, total = _verdicts(know)
    odds = dict.fromkeys(know.known, Fraction(0))
    for culprits, weight in weights.items():
        for seat in culprits:
            odds[seat] += Fraction(weight, total)
    return odds


def deals(know: Knowledge) -> int:
    """How many ways the unseen cards can lie (suspects' face-down cards and the pile)."""
    return _verdicts(know)[1]


def _verdicts(know: Knowledge) -> tuple[dict[tuple[int, ...], int], int]:
    """The culprits of every deal, grouped: culprit seats -> number of deals."""
    by_id = {card.id: card for card in know.deck}
    classes = _classes(know.deck)
    reps = [members[0] for members in classes]
    class_of = {card.id: i for i, members in enumerate(classes) for card in members}
    left = [0] * len(classes)
    for card in know.unseen:
        left[class_of[card]] += 1
    # suspects whose hands are fully known first: they do not branch
    seats = sorted(know.known, key=lambda s: (know.face_down[s], s))
    fixed = {s: tuple(by_id[c] for c in know.known[s]) for s in seats}
    pairwise = _PairwiseJudge()
    weighed: dict[tuple[int, tuple[int, ...]], int] = {}

    def weigh(seat: int, hand: tuple[int, ...]) -> int:
        key = (seat, hand)
        if key not in weighed:
            weighed[key] = pairwise.weigh(fixed[seat] + tuple(reps[c] for c in hand))
        return weighed[key]

    @cache
    def spread(i: int, left: tuple[int, ...]) -> dict[tuple[tuple[int, ...], int], int]:
        """(contender seats, their assessment) among suspects ``seats[i:]`` -> deals, given
        the unseen cards left."""
        if i == len(seats):
            return {((), -1): 1}
        seat = seats[i]
        out: dict[tuple[tuple[int, ...], int], int] = defaultdict(int)
        kept: tuple[tuple[int, ...], int]
        for hand, ways, rest in _hands(left, know.face_down[seat]):
            mine = weigh(seat, hand)
            row = pairwise.versus[mine]
            for (others, theirs), count in spread(i + 1, rest).items():
                who = row.get(theirs)
                if who is None:
                    who = pairwise.compare(mine, theirs)
                if who == ME:
                    kept = ((seat,), mine)
                elif who == THEM:
                    kept = (others, theirs)
                else:
                    kept = (tuple(sorted((seat, *others))), mine)
                out[kept] += ways * count
        return out

    weights: dict[tuple[int, ...], int] = defaultdict(int)
    for (culprits, _), count in spread(0, tuple(left)).items():
        weights[culprits] += count
    return weights, sum(weights.values())


def _classes(deck: Sequence[Card]) -> list[list[Card]]:
    """Cards ``assess`` cannot tell apart, together: same type and innocence."""
    groups: dict[tuple[str, int], list[Card]] = {}
    for card in deck:
        groups.setdefault((card.kind, card.innocence), []).append(card)
    return list(groups.values())


@lru_cache(maxsize=1 << 16)
def _hands(left: tuple[int, ...], size: int) -> tuple[tuple[tuple[int, ...], int, tuple], ...]:
    """Every multiset of ``size`` classes that ``left`` allows: (classes, ways, what is left),
    ``ways`` counting the sets of actual cards it stands for."""
    return tuple(_pick(left, size, 0, (), 1))


def _pick(left: tuple[int, ...], size: int, start: int, hand: tuple, ways: int):
    if size == 0:
        yield hand, ways, left
        return
    for c in range(start, len(left)):
        have = left[c]
        if not have:
            continue
        for k in range(1, min(have, size) + 1):
            rest = left[:c] + (have - k,) + left[c + 1 :]
            yield from _pick(rest, size - k, c + 1, hand + (c,) * k, ways * comb(have, k))


ME, THEM, BOTH = 0, 1, 2


class _PairwiseJudge:
    """The culprit rules, asked through ``judge`` only.

    ``judge`` sees a hand only through ``assess``, so each distinct assessment gets a number
    and one representative hand. Contenders always share one assessment (tied culprits, or
    the weapon holder), so whether a new suspect joins, replaces or loses to them is ``judge``
    on two hands: its answer is remembered in ``versus``."""

    def __init__(self) -> None:
        self.ids: dict[Assessment, int] = {}
        self.hands: list[tuple[Card, ...]] = []
        self.versus: list[dict[int, int]] = []

    def weigh(self, cards: tuple[Card, ...]) -> int:
        weighed = assess(cards)
        number = self.ids.get(weighed)
        if number is None:
            number = self.ids[weighed] = len(self.hands)
            self.hands.append(cards)
            self.versus.append({-1: ME})  # alone: the only contender
        return number

    def compare(self, mine: int, theirs: int) -> int:
        culprits = judge({0: self.hands[mine], 1: self.hands[theirs]}).culprits
        who = BOTH if len(culprits) == 2 else ME if culprits == (0,) else THEM
        self.versus[mine][theirs] = who
        return who


def weapon_of(deck: Sequence[Card]) -> str | None:
    """The murder weapon's id, if the list has one."""
    return next((card.id for card in deck if card.kind == WEAPON), None)
