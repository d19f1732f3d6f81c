"""Where the criminal card may be, as the captor can tell from its own view.

The captor sees its own hand and its own turns, the sizes of the pile and the discards, and the
public guesses. Turn order is fixed (every turn passes to the next seat, from the first seat on)
and every turn is one discard and one draw, so from the view alone it knows which seat took
every turn of the game, when the discards were shuffled back into the pile, and which turn each
"discarded" or "drew" guess followed.

It follows the two copies of the named criminal card as *expected copies* in each place (each
other seat's hand, the pile, the discards), replaying the game turn by turn:

- at the deal every card it does not hold is equally likely to be anywhere it cannot see;
- a seat discards any of its cards alike (the captor cannot know how others choose), so it
  passes ``1/k`` of its expected copies to the discards; a draw takes the pile's share per
  card; the captor's own discards and draws are known exactly;
- a refill moves the discards into the pile;
- a missed guess is evidence: the place guessed held no copy, and what it was expected to
  hold is spread over the other places in proportion ("holds" empties that seat; "drew" and
  "discarded" take back that turn's share).

The chance that a guess hits is then the expected copies in that place (at most 1). It is an
estimate — the places are not independent — but it uses everything the captor has seen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from yamen.games.bao_qingtian.cards import NUM_TYPES, parse_card_type
from yamen.games.bao_qingtian.view import BaoQingtianView, GuessRecord, OwnTurn

DECK_SIZE = 54
COPIES = 2  # of each criminal card


@dataclass
class Tracker:
    """Expected copies of the criminal card: ``hands`` by seat (the captor's own excluded),
    the pile, and the discards (``known`` of them the captor's own)."""

    hands: dict[int, float]
    pile: float
    discards: float = 0.0
    known: int = 0
    pile_size: int = 0
    discard_size: int = 0
    last: dict[str, float] = field(default_factory=dict)  # the last turn's "discarded", "drew"

    def spread(self, amount: float, skip: int | None = None) -> None:
        """Add ``amount`` expected copies (or take them, when negative) to the unseen places in
        proportion to what each holds (``skip``: a seat known to hold none)."""
        places = [s for s in self.hands if s != skip]
        total = sum(self.hands[s] for s in places) + self.pile + self.discards
        if total <= 0:
            return
        scale = max(0.0, total + amount) / total
        for s in places:
            self.hands[s] *= scale
        self.pile *= scale
        self.discards *= scale


def track(view: BaoQingtianView) -> Tracker:
    """Replay the game as the captor (the seat of ``view``) saw it."""
    me, n, k = view["seat"], view["players"], view["cards_each"]
    named = view["criminal"]
    assert named is not None  # a captor hunts a named card
    criminal = parse_card_type(named)
    hand = _initial_hand(view)
    unknown = DECK_SIZE - k
    copies = COPIES - hand[criminal]
    share = copies / unknown if unknown else 0.0
    tracker = Tracker(
        hands={s: k * share for s in range(n) if s != me},
        pile=(DECK_SIZE - n * k) * share,
        pile_size=DECK_SIZE - n * k,
    )
    after = _guesses_by_turn(view)
    mine = iter(view["my_turns"])
    for t in range(view["turns"]):
        seat = (view["first"] + t) % n
        own = next(mine) if seat == me else None
        _turn(tracker, seat, k, criminal, own)
        for guess in after.get(t, ()):
            _missed(tracker, guess)
    return tracker


def hit_chances(view: BaoQingtianView, tracker: Tracker) -> dict[tuple[str, int], float]:
    """(form, seat) -> the estimated chance that guess hits, for every guess form."""
    chances = {("holds", s): min(1.0, e) for s, e in tracker.hands.items()}
    last = view["last_turn"]
    if last is not None and last != view["seat"]:
        for form in ("discarded", "drew"):
            chances[(form, last)] = min(1.0, tracker.last.get(form, 0.0))
    return chances


def _initial_hand(view: BaoQingtianView) -> list[int]:
    """The captor's dealt hand: its hand now with its own turns undone."""
    hand = [0] * NUM_TYPES
    for code in view["hand"]:
        hand[parse_card_type(code)] += 1
    for turn in reversed(view["my_turns"]):
        hand[parse_card_type(turn["drew"])] -= 1
        hand[parse_card_type(turn["discarded"])] += 1
    return hand


def _guesses_by_turn(view: BaoQingtianView) -> dict[int, list[GuessRecord]]:
    """The turn each public guess followed. "discarded" and "drew" follow the guessed seat's
    turn in that round; a "holds" guess could follow any turn of its round, so it is taken
    as made at the round's end (or now, for the round in progress)."""
    capture = view["capture"]
    if capture is None:
        return {}
    n = view["players"]
    done = (capture["round"] - 1) * n + capture["turns_this_round"]
    start = view["turns"] - done  # the capture's first turn
    first_seat = (view["first"] + start) % n
    after: dict[int, list[GuessRecord]] = {}
    for guess in capture["guesses"]:
        round_start = start + (guess["round"] - 1) * n
        if guess["form"] == "holds":
            t = min(round_start + n, view["turns"]) - 1
        else:
            t = round_start + (guess["seat"] - first_seat) % n
        after.setdefault(t, []).append(guess)
    return after


def _turn(tracker: Tracker, seat: int, k: int, criminal: int, own: OwnTurn | None) -> None:
    """One discard and one draw (with a refill first when the pile is empty)."""
    if own is not None:
        tracker.known += int(parse_card_type(own["discarded"]) == criminal)
        tracker.last = {}
    else:
        out = tracker.hands[seat] / k
        tracker.hands[seat] -= out
        tracker.discards += out
        tracker.last = {"discarded": out}
    tracker.discard_size += 1
    if tracker.pile_size == 0:
        tracker.pile += tracker.discards + tracker.known
        tracker.discards, tracker.known = 0.0, 0
        tracker.pile_size, tracker.discard_size = tracker.discard_size, 0
    if own is not None:
        if parse_card_type(own["drew"]) == criminal:  # one copy fewer to look for
            taken = min(1.0, tracker.pile)
            tracker.pile -= taken
            tracker.spread(taken - 1.0)
    else:
        got = tracker.pile / tracker.pile_size
        tracker.hands[seat] += got
        tracker.pile -= got
        tracker.last["drew"] = got
    tracker.pile_size -= 1


def _missed(tracker: Tracker, guess: GuessRecord) -> None:
    """A missed guess: that place held no copy."""
    seat, form = guess["seat"], guess["form"]
    if guess["hit"] or seat not in tracker.hands:
        return
    if form == "holds":
        gone = tracker.hands[seat]
        tracker.hands[seat] = 0.0
        tracker.spread(gone, skip=seat)
    elif form == "drew":
        got = min(tracker.last.get("drew", 0.0), tracker.hands[seat])
        tracker.hands[seat] -= got
        tracker.spread(got)
    else:  # the discard went to the discards, or into the pile if it was refilled then
        out = tracker.last.get("discarded", 0.0)
        if tracker.discard_size:
            out = min(out, tracker.discards)
            tracker.discards -= out
        else:
            out = min(out, tracker.pile)
            tracker.pile -= out
        tracker.spread(out)
