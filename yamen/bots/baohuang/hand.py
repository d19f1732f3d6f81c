"""What a Baohuang seat knows about its hand, its side and the cards still unseen.

The play policy (:mod:`play`) reads a seat only through its :class:`Perspective`, which has
two makers: :class:`ViewPerspective` reads the seat's view alone (``state.view(seat)``, plain
JSON data), so the rules bot built on it cannot see a hidden card; the search's playouts build
the same facts straight from a sampled state (``playout.StatePerspective``), which is much
faster and plays identically.

Sets are handled as the engine encodes them (``yamen.games.baohuang.sets``): ``(r, n, x, y)``
is ``n`` naturals of strength ``r`` plus ``x`` small and ``y`` big jokers; ``t`` counts the
*telling* cards among them (the called card, or the marked small joker).
"""

from __future__ import annotations

from yamen.games.baohuang.house import House
from yamen.games.baohuang.kinds import BIG_SLOT, BJ, KIND_TEXT, SJ, SLOT_OF, SMALL_SLOT
from yamen.games.baohuang.sets import NO_RANK, encode
from yamen.games.baohuang.variants import variant_of_view
from yamen.games.baohuang.view import SeatView

KIND_OF_TEXT = {text: kind for kind, text in enumerate(KIND_TEXT)}
RANKS = range(13)
JOKERS_PER_COLOUR = 4
COPIES_PER_RANK = 16  # four decks, four suits
HIDDEN_PARTNER_ROLES = ("royalist", "guard")
JOKER_SLOT = {SJ: SMALL_SLOT, BJ: BIG_SLOT}  # a called joker: every joker of its colour tells


def slot_counts(cards: list[str]) -> list[int]:
    """Cards in notation -> how many of each of the 15 slots (13 ranks, small, big joker)."""
    counts = [0] * 15
    for text in cards:
        counts[SLOT_OF[KIND_OF_TEXT[text]]] += 1
    return counts


class Perspective:
    """One seat's hand and side, as the play policy reads them. Makers set every field; the
    unseen-card count is computed only when a decision asks for it (:meth:`_count_unseen`).

    ``counts`` are the hand's slot counts; ``friend[s]``: seat ``s`` surely plays on my side;
    ``partner``: the emperor's known partner seen from either end (fellow rebels are only
    allies); ``telling`` and ``tell_slot``: my telling cards and their slot (-1: none);
    ``hidden_partner``: I am the emperor's partner and nobody else knows it yet;
    ``joker_slot``: the slot of a called joker's colour, when I am the hidden partner;
    ``sink_rank``: the rank not to go out on (lowest_last, house.py; -1: none);
    ``held_rank``: the rank held to the end, played only as the set that empties the hand
    (lowest_held, 憋六/憋三; -1: none)."""

    __slots__ = (
        "_unseen",
        "counts",
        "friend",
        "held_rank",
        "hidden_partner",
        "joker_slot",
        "me",
        "partner",
        "single_with_jokers",
        "sink_rank",
        "sizes",
        "tell_slot",
        "telling",
    )

    counts: list[int]
    friend: list[bool]
    held_rank: int
    hidden_partner: bool
    joker_slot: int
    me: int
    partner: int | None
    single_with_jokers: bool
    sink_rank: int
    sizes: list[int]
    tell_slot: int
    telling: int
    _unseen: list[int] | None

    @property
    def size(self) -> int:
        return self.sizes[self.me]

    def _count_unseen(self) -> list[int]:
        raise NotImplementedError

    @property
    def unseen(self) -> list[int]:
        """Per slot, the cards in nobody's sight: what the other seats still hold."""
        if self._unseen is None:
            self._unseen = self._count_unseen()
        return self._unseen

    def min_telling(self, r: int, n: int, x: int) -> int:
        """The fewest telling cards a set can hold: they go in only when the plain cards of
        their slot run out."""
        slot = self.tell_slot
        if slot == SMALL_SLOT:
            return max(0, x - (self.counts[SMALL_SLOT] - self.telling))
        return max(0, n - (self.counts[r] - self.telling)) if slot == r and n else 0

    def action(self, r: int, n: int, x: int = 0, y: int = 0) -> int:
        """The action id of a set, with as few telling cards as possible."""
        return encode(r if n else NO_RANK, n, x, y, self.min_telling(r, n, x))

    def reveals(self, r: int, n: int, x: int, y: int) -> bool:
        """Whether playing this set (with as few telling cards as possible) unmasks me."""
        if not self.hidden_partner:
            return False
        joker = self.joker_slot
        return (
            self.min_telling(r, n, x) > 0
            or (joker == SMALL_SLOT and x > 0)
            or (joker == BIG_SLOT and y > 0)
        )

    def groups(self) -> list[int]:
        """The natural ranks held, weakest first: each is one set when played whole."""
        c = self.counts
        return [r for r in RANKS if c[r]]

    def free_groups(self) -> list[int]:
        """:meth:`groups` less a rank held to the end (lowest_held): it leaves only with the
        set that empties the hand."""
        held = self.held_rank
        return [r for r in self.groups() if r != held]

    def can_carry_jokers(self, n: int) -> bool:
        """Japanese forbids a single natural card with jokers."""
        return n != 1 or self.single_with_jokers

    def safe(self, r: int, n: int, x: int, y: int) -> bool:
        """Whether nobody can possibly beat this set: even if one opponent held every unseen
        big joker, small joker and the largest unseen rank above ``r``."""
        if y:
            return True
        unseen = self.unseen
        big, small = unseen[BIG_SLOT], unseen[SMALL_SLOT]
        if big < x:
            return True
        if n == 0:
            return big < x  # small jokers alone fall only to big jokers alone
        return max(unseen[r + 1 : 13], default=0) + small + big < n + x


class ViewPerspective(Perspective):
    """A seat's reading of its own view (``state.view(seat)``): nothing else is read."""

    __slots__ = ("role", "variant", "view")

    def __init__(self, view: SeatView):
        self.view = view
        self.me = me = view["seat"]
        self.variant = variant_of_view(view)
        self.single_with_jokers = self.variant.single_with_jokers
        house = House.read(view["options"], self.variant.lowest_strength)
        self.sink_rank, self.held_rank = house.sink_rank, house.held_rank
        self.role = view["role"]
        self.sizes = view["hand_sizes"]
        hand = view["hand"]
        self.counts = slot_counts(hand)
        tell_kind = self._tell_kind()
        self.telling = hand.count(KIND_TEXT[tell_kind]) if tell_kind >= 0 else 0
        self.tell_slot = SLOT_OF[tell_kind] if self.telling else -1
        roles = {int(s): r for s, r in view["roles"].items()}
        self.hidden_partner = self.role in HIDDEN_PARTNER_ROLES and me not in roles
        called = view["called"]
        self.joker_slot = JOKER_SLOT.get(KIND_OF_TEXT[called], -1) if called else -1
        emperor = view["emperor"]
        self.friend = known_friends(me, self.role, emperor, roles, view["grabbed"])
        self.partner = partner_of(me, self.role, emperor, self.friend)
        self._unseen = None

    def _tell_kind(self) -> int:
        """The card kind whose play tells a role (the engine's ``tell_kind``), or -1."""
        if self.view["emperor"] is None:
            return -1
        called = self.view["called"]
        return self.variant.tell_kind(KIND_OF_TEXT[called] if called else None)

    def _count_unseen(self) -> list[int]:
        """The deck less my hand and every played set."""
        unseen = [COPIES_PER_RANK] * 13 + [JOKERS_PER_COLOUR] * 2
        for r in range(self.variant.lowest_strength):
            unseen[r] = 0
        for played in self.view["played"]:
            for text in played["cards"]:
                unseen[SLOT_OF[KIND_OF_TEXT[text]]] -= 1
        return [u - c for u, c in zip(unseen, self.counts, strict=True)]


def known_friends(
    me: int, role: str | None, emperor: int | None, roles: dict[int, str], grabbed: bool
) -> list[bool]:
    """Per seat, whether it surely plays on my side (me included), from my own ``role`` and
    the public ``roles``. A seat whose side is hidden counts as an opponent: in self-play,
    answering the sets of seats that might be friends played better than sparing them, since
    shedding one's own cards is what earns a place."""
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
    alone = grabbed or roles.get(emperor) == "solo emperor"
    for s in range(5):
        if s not in (me, emperor):
            friend[s] = roles.get(s) == "commoner" or alone or partner not in (None, s)
    return friend


def partner_of(me: int, role: str | None, emperor: int | None, friend: list[bool]) -> int | None:
    """The emperor's known partner, seen from either end; fellow rebels are only allies."""
    if role in HIDDEN_PARTNER_ROLES:
        return emperor
    if role == "emperor":
        return next((s for s in range(5) if friend[s] and s != me), None)
    return None


def table_shape(cards: list[str]) -> tuple[int, int, int, int]:
    """``(r, n, x, y)`` of the set on the table."""
    counts = slot_counts(cards)
    x, y = counts[SMALL_SLOT], counts[BIG_SLOT]
    n = len(cards) - x - y
    r = next((s for s in RANKS if counts[s]), NO_RANK)
    return r, n, x, y
