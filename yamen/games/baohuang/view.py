"""What one seat of a Baohuang game may see, as JSON-ready data.

Hidden: the other hands, answers still sealed in a window, roles not yet public, and the
tribute cards of other seats. Public beyond the table: the game's options (its house rules,
which the bots must follow), who declared (it doubles the score),
where the marked big joker lies (it is dealt to a named seat and every move of it is
announced) and who still answers the set on the table.

The view's shape is declared below (:class:`BaohuangView`; :class:`SeatView` for a seated
player's, which is what a bot is handed), so a reader that names a key the view does not have
(a bot, the text renderer) is a type error rather than a ``KeyError`` in play. The JSON is the
dict itself: the declarations cost nothing at run time. A finished deal's summary and the
tribute cards are the state's own data, declared with its fields (fields.py).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from yamen.engine import score_json
from yamen.games.baohuang.actions import text
from yamen.games.baohuang.fields import Fields, FinishedDeal, Score, TributeCards
from yamen.games.baohuang.kinds import BJ_MARKED, KIND_TEXT, hand_cards
from yamen.games.baohuang.phases import Phase

WINDOWS = (Phase.GRAB, Phase.DECLARE)  # phases whose answers are sealed until all are in

OptionValue = bool | int | str | None  # what Baohuang's declared options hold


class TableView(TypedDict):
    """The set on the table and who still answers it."""

    owner: int  # who played it
    cards: list[str]
    circle: int  # 2: the second circle, the yielders' (讓牌)
    yielders: list[int]
    claimant: int | None  # who claimed the lead (接風)
    to_ask: list[int]  # who still answers this set, in order


class TrickMove(TypedDict):
    """One move of the trick in progress: ``play`` with its cards, or a word without."""

    seat: int
    action: str  # "play", "pass", "yield" or "claim"
    cards: NotRequired[list[str]]


class PlayedSet(TypedDict):
    """A set played this deal, face up for everyone."""

    seat: int
    cards: list[str]


class PublicView(TypedDict):
    """What everyone sees, seats and spectators alike (the module says what is hidden)."""

    game: str
    variant: str
    options: dict[str, OptionValue]  # the game's, house rules too (variants.variant_for)
    deal: int  # this deal's number, from 1
    deals: int  # how many the match plays at most
    phase: str  # a Phase's value
    pending: list[int]
    hand_sizes: list[int]
    marked_holder: int | None  # who holds the marked big joker, until there is an emperor
    emperor: int | None
    called: str | None  # shandong: the card the emperor called
    grabbed: bool
    declared: list[int]
    marked_joker: int | None  # where the marked big joker is, until it is played
    roles: dict[str, str]  # seat (as a string) -> its public role
    answered: list[int]  # who has answered the sealed window open now
    table: TableView | None  # None: nothing to answer, the pending seat leads
    trick: list[TrickMove]
    played: list[PlayedSet]
    out: list[int]  # seats out, in the order they went out
    totals: list[Score]
    history: list[FinishedDeal]
    dealer: NotRequired[int]  # only where the variant's dealer matters (japanese)


class BaohuangView(PublicView):
    """What :func:`seat_view` returns: a seat's view, or a spectator's (``seat`` None, and
    none of the seat's own keys)."""

    seat: int | None
    hand: NotRequired[list[str]]  # strongest first
    role: NotRequired[str | None]  # the seat's own role; None before there is an emperor
    tribute: NotRequired[TributeCards]
    legal: NotRequired[list[str]]  # when the seat owes a decision


class SeatView(PublicView):
    """A seated player's view: what a bot is handed (bots/__init__.py), never a spectator's.
    Bots narrow the generic view to it at their entry point."""

    seat: int
    hand: list[str]
    role: str | None
    tribute: NotRequired[TributeCards]
    legal: NotRequired[list[str]]


def seat_view(state: Fields, seat: int | None) -> BaohuangView:
    """What ``seat`` may see (``None``: a spectator)."""
    table: TableView | None = None
    if state.phase == Phase.PLAY and state.table is not None:
        table = {
            "owner": state.owner,
            "cards": [KIND_TEXT[k] for k in state.table_cards],
            "circle": state.stage,
            "yielders": list(state.yielders),
            "claimant": state.claimant,
            "to_ask": list(state.to_ask),  # who still answers this set, in order
        }
    seen: BaohuangView = {
        "game": state.game,
        "variant": state.variant.name,
        "options": dict(state.options),
        "seat": seat,
        "deal": state.deal_no,
        "deals": state.options["deals"],
        "phase": state.phase.value,
        "pending": list(state.pending()),
        "hand_sizes": list(state.sizes),
        "marked_holder": state.holder if state.emperor is None else None,
        "emperor": state.emperor,
        "called": None if state.called is None else KIND_TEXT[state.called],
        "grabbed": state.grabbed,
        "declared": declared_seats(state),
        "marked_joker": marked_joker_seat(state.hands),
        "roles": {str(s): r for s, r in sorted(state.public_roles.items())},
        "answered": sorted(state.answers) if state.phase in WINDOWS else [],
        "table": table,
        "trick": [
            {"seat": s, "action": a, "cards": c} if c else {"seat": s, "action": a}
            for s, a, c in state.trick
        ],
        "played": shown_plays(state),
        "out": list(state.out),
        "totals": [score_json(s) for s in state.totals],
        "history": list(state.history),
    }
    if state.variant.shows_dealer:
        seen["dealer"] = state.dealer
    if seat is not None:
        seen["hand"] = hand_cards(state.hands[seat])
        seen["role"] = state.own_role(seat)
        if seat in state.tribute:
            seen["tribute"] = state.tribute[seat]
        if seat in state.pending():
            seen["legal"] = [text(a, state.tell_kind) for a in state.legal(seat)]
    return seen


class ShownPlays:
    """The deal's sets as a view shows them, made as the deal's list of sets grows: a state
    appends to one list a deal (fields.py), so each view makes the entries of the sets played
    since the last one, not of all of them (the server builds a view for every audience after
    every action: made whole each time, the entries were most of a late action's cost). Each
    view gets a list of its own; the entries in it are shared, and views are only read."""

    __slots__ = ("entries", "plays")

    def __init__(self) -> None:
        self.plays: object = None
        self.entries: list[PlayedSet] = []

    def read(self, plays: list[tuple[int, list[str]]]) -> list[PlayedSet]:
        if plays is not self.plays or len(plays) < len(self.entries):  # a new deal's list
            self.plays, self.entries = plays, []
        entries = self.entries
        for seat, cards in plays[len(entries) :]:
            entries.append({"seat": seat, "cards": list(cards)})
        return entries[:]


def shown_plays(state: Fields) -> list[PlayedSet]:
    """``state``'s sets of this deal, as a view shows them (:class:`ShownPlays`)."""
    if state.shown_plays is None:
        state.shown_plays = ShownPlays()
    return state.shown_plays.read(state.plays)


def declared_seats(state: Fields) -> list[int]:
    """Who declared (明保 / 明獨): announced to all, and it doubles the deal's score."""
    emperor, partner = state.emperor, state.partner  # both known once anyone has declared
    seats = [emperor] if state.solo_declared and emperor is not None else []
    return sorted(seats + [partner] if state.declared and partner is not None else seats)


def marked_joker_seat(hands: list[list[int]]) -> int | None:
    """Where the marked big joker is, until it is played."""
    return next((s for s in range(len(hands)) if hands[s][BJ_MARKED]), None)
