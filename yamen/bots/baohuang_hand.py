"""What a Baohuang seat knows, read from its view: its hand, its side, the cards still unseen.

Everything here is computed from ``state.view(seat)`` alone (plain JSON data), so a bot built on
it cannot see a hidden card. Sets are handled as the engine encodes them (``yamen.games.baohuang
.sets``): ``(r, n, x, y)`` is ``n`` naturals of strength ``r`` plus ``x`` small and ``y`` big
jokers; ``t`` counts the *telling* cards among them (the called card, or the marked small joker).
"""

from __future__ import annotations

from typing import Any

from yamen.games.baohuang.kinds import BIG_SLOT, KIND_TEXT, SJ_MARKED, SLOT_OF, SMALL_SLOT
from yamen.games.baohuang.sets import NO_RANK, encode

KIND_OF_TEXT = {text: kind for kind, text in enumerate(KIND_TEXT)}
RANKS = range(13)
JOKERS_PER_COLOUR = 4
COPIES_PER_RANK = 16  # four decks, four suits
HIDDEN_PARTNER_ROLES = ("royalist", "guard")


def slot_counts(cards: list[str]) -> list[int]:
    """Cards in notation -> how many of each of the 15 slots (13 ranks, small, big joker)."""
    counts = [0] * 15
    for text in cards:
        counts[SLOT_OF[KIND_OF_TEXT[text]]] += 1
    return counts


class Knowledge:
    """One seat's reading of its view. Cheap to build: the unseen-card count, which walks every
    played set, is computed only when a decision asks for it."""

    __slots__ = (
        "_unseen",
        "counts",
        "friend",
        "hidden_partner",
        "japanese",
        "lowest",
        "me",
        "partner",
        "role",
        "sizes",
        "tell_slot",
        "telling",
        "view",
    )

    def __init__(self, view: dict[str, Any]):
        self.view = view
        self.me: int = view["seat"]
        self.japanese = view["variant"] == "japanese"
        self.lowest = 3 if self.japanese else 0
        self.role: str | None = view.get("role")
        self.sizes: list[int] = view["hand_sizes"]
        hand = view["hand"]
        self.counts = slot_counts(hand)
        tell_kind = self._tell_kind()
        self.telling = hand.count(KIND_TEXT[tell_kind]) if tell_kind >= 0 else 0
        self.tell_slot = SLOT_OF[tell_kind] if self.telling else -1
        self.hidden_partner = self._hidden_partner()
        self.friend = known_friends(view, self.me)
        self.partner = self._partner()
        self._unseen: list[int] | None = None

    # ------------------------------------------------------------------ roles

    def _tell_kind(self) -> int:
        """The card kind whose play tells a role (the engine's ``tell_kind``), or -1."""
        if self.view["emperor"] is None:
            return -1
        if self.japanese:
            return SJ_MARKED
        called = self.view["called"]
        kind = KIND_OF_TEXT[called] if called else -1
        return kind if 0 <= kind < 52 else -1

    def _partner(self) -> int | None:
        """The emperor's known partner, seen from either end; fellow rebels are only allies."""
        if self.role in HIDDEN_PARTNER_ROLES:
            return self.view["emperor"]
        if self.role == "emperor":
            return next((s for s in range(5) if self.friend[s] and s != self.me), None)
        return None

    def _hidden_partner(self) -> bool:
        """Whether I am the emperor's partner and nobody else knows it yet."""
        return self.role in HIDDEN_PARTNER_ROLES and str(self.me) not in self.view["roles"]

    def reveals(self, r: int, n: int, x: int, y: int) -> bool:
        """Whether playing this set (with as few telling cards as possible) unmasks me. When a
        joker was called, every joker of its colour tells."""
        if not self.hidden_partner:
            return False
        called = self.view["called"]
        return (
            self.min_telling(r, n, x) > 0
            or (called == "SJ" and x > 0)
            or (called == "BJ" and y > 0)
        )

    # ------------------------------------------------------------------ sets

    @property
    def size(self) -> int:
        return self.sizes[self.me]

    def min_telling(self, r: int, n: int, x: int) -> int:
        """The fewest telling cards a set can hold: they go in only when the plain cards of
        their slot run out."""
        slot = self.tell_slot
        if slot < 0:
            return 0
        if slot == SMALL_SLOT:
            return max(0, x - (self.counts[SMALL_SLOT] - self.telling))
        return max(0, n - (self.counts[slot] - self.telling)) if slot == r else 0

    def action(self, r: int, n: int, x: int = 0, y: int = 0) -> int:
        """The action id of a set, with as few telling cards as possible."""
        return encode(r if n else NO_RANK, n, x, y, self.min_telling(r, n, x))

    def groups(self) -> list[int]:
        """The natural ranks held, weakest first: each is one set when played whole."""
        return [r for r in RANKS if self.counts[r]]

    def can_carry_jokers(self, n: int) -> bool:
        """Japanese forbids a single natural card with jokers."""
        return n != 1 or not self.japanese

    # ------------------------------------------------------------------ unseen cards

    @property
    def unseen(self) -> list[int]:
        """Per slot, the cards in nobody's sight: the deck less my hand and every played set."""
        if self._unseen is None:
            unseen = [COPIES_PER_RANK] * 13 + [JOKERS_PER_COLOUR] * 2
            for r in range(self.lowest):
                unseen[r] = 0
            for played in self.view["played"]:
                for text in played["cards"]:
                    unseen[SLOT_OF[KIND_OF_TEXT[text]]] -= 1
            self._unseen = [u - c for u, c in zip(unseen, self.counts, strict=True)]
        return self._unseen

    def safe(self, r: int, n: int, x: int, y: int) -> bool:
        """Whether nobody can possibly beat this set: even if one opponent held every unseen
        big joker, small joker and the largest unseen rank above ``r``."""
        if y:
            return True
        unseen = self.unseen
        big, small = unseen[BIG_SLOT], unseen[SMALL_SLOT]
        if big < x:
            return True
        size = n + x
        if n == 0:
            return big < size  # small jokers alone fall only to big jokers alone
        above = max(unseen[r + 1 : 13], default=0)
        return above + small + big < size


def known_friends(view: dict[str, Any], me: int) -> list[bool]:
    """Per seat, whether it surely plays on my side (me included), from my own role and the
    public roles. A seat whose side is hidden counts as an opponent: in self-play, answering
    the sets of seats that might be friends played better than sparing them, since shedding
    one's own cards is what earns a place."""
    role = view.get("role")
    emperor = view["emperor"]
    roles = {int(s): r for s, r in view["roles"].items()}
    friend = [s == me for s in range(5)]
    if role in (None, "solo emperor") or emperor is None:  # a grabber is a solo emperor too
        return friend
    if role in HIDDEN_PARTNER_ROLES:
        friend[emperor] = True
        return friend
    partner = next((s for s, r in roles.items() if r in HIDDEN_PARTNER_ROLES), None)
    if role == "emperor":
        hidden = [s for s in range(5) if s != me and roles.get(s) != "commoner"]
        if partner is None and len(hidden) == 1:
            partner = hidden[0]  # everyone else rebelled
        if partner is not None:
            friend[partner] = True
        return friend
    alone = view["grabbed"] or roles.get(emperor) == "solo emperor"
    for s in range(5):
        if s not in (me, emperor):
            friend[s] = roles.get(s) == "commoner" or alone or partner not in (None, s)
    return friend


def table_shape(cards: list[str]) -> tuple[int, int, int, int]:
    """``(r, n, x, y)`` of the set on the table."""
    counts = slot_counts(cards)
    x, y = counts[SMALL_SLOT], counts[BIG_SLOT]
    n = len(cards) - x - y
    r = next((s for s in RANKS if counts[s]), NO_RANK)
    return r, n, x, y
