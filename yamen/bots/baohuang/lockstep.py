"""Baohuang's compiled core against the Python engine and policy, decision by decision.

At every decision of a deal, from its first phase, the core (yamen/games/baohuang/core.py)
and the Python reference must agree on everything the core computes: the new deal's fields
once dealt, the pending seat's legal ids (in order), in play the rules bot's playout choice
(playout.py ``choose``), and the whole packed state after the action (hands, the opening's
holder, answers and sides, the table, who is asked, yielders, claimant, passes, public roles,
seats out and sunk, a void deal); at the deal's end, on its places and scores; and, from any
decision of its play, on the places and scores a policy playout reaches. Dealing and
tribute, which draw from Python's random state, are compared from the same states: the hands
dealt and the state left (:func:`check_deals`), and the cards paid after drawn outcomes
(:func:`check_tribute`). The vector environment's path (batch.py) is compared with the Python
engine and encoder over whole games (:func:`check_observations`: each decision's seat, legal
ids and observation, each deal's end handed back). The first difference raises
:class:`Disagreement` with what differed. tests/games/baohuang/test_core.py runs it on a
bounded sample, benchmarks/core_agreement.py on a million decisions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from types import ModuleType
from typing import Any, cast

from yamen.bots.baohuang.playout import choose, places_after
from yamen.engine import get_game
from yamen.games.baohuang import tribute
from yamen.games.baohuang.core import TWELFTHS, deal_args, pack, packed_hands, points
from yamen.games.baohuang.fields import FinishedDeal
from yamen.games.baohuang.hands import counts_of
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.rules import BaohuangState
from yamen.games.baohuang.scoring import Stakes, Teams
from yamen.games.baohuang.variants import variant_for
from yamen.records import Record


class Disagreement(AssertionError):
    """The core and the Python reference differ."""


def at_deal(options: dict[str, Any], seed: int, rng: random.Random) -> BaohuangState:
    """The match's last deal as dealt (tribute paid), reached with random choices before it."""
    state = get_game("baohuang", options).new_state(seed)
    assert isinstance(state, BaohuangState)
    while state.deal_no < state.options["deals"]:
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
    return state


def at_play(options: dict[str, Any], seed: int, rng: random.Random) -> BaohuangState | None:
    """The match's last deal at the start of its play phase, reached with random choices
    before it (``None`` if the match ended before: a void deal's redeal never does)."""
    state = at_deal(options, seed, rng)
    while not state.over and state.phase is not Phase.PLAY:
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
    return None if state.over else state


def check_deal(
    core: ModuleType, state: BaohuangState, rng: random.Random, playouts: int
) -> tuple[int, int]:
    """Step ``state`` to the end of its deal (through any void deal dealt again) with random
    legal actions, comparing the core at every decision, and ``playouts`` policy playouts
    from random decisions of its play on the way; the decisions and the playouts compared."""
    decisions = played = compared = 0
    playout_at = set(rng.sample(range(60), playouts))  # early: nearly every deal gets there
    finished = len(state.history)
    while len(state.history) == finished:
        seat = state.pending()[0]
        packed = compare_decision(core, state, seat)
        if state.phase is Phase.PLAY:
            if played in playout_at:
                compare_playout(core, state, packed, rng.choice(state.legal(seat)))
                compared += 1
            played += 1
        compare_step(core, state, seat, packed, rng.choice(state.legal(seat)))
        decisions += 1
    return decisions, compared


def check_record(core: ModuleType, record: Record) -> int:
    """A recorded game replayed, the core compared at every decision (the recorded actions,
    not random ones: a window's answers in the order they came); the decisions compared."""
    state = record.start()
    assert isinstance(state, BaohuangState)
    decisions = 0
    for seat, text in record.actions:
        packed = compare_decision(core, state, seat)
        compare_step(core, state, seat, packed, state.parse_action(seat, text))
        decisions += 1
    return decisions


def compare_begin(core: ModuleType, state: BaohuangState) -> None:
    """A deal just dealt (tribute paid): the core's new deal of the same hands, in its first
    phase, is the same deal."""
    packed = pack(state)
    begun = core.begin(packed, packed_hands(state.hands))
    if begun != packed:
        raise Disagreement(f"deal {state.deal_no} as dealt: {diff(begun, packed)}")


def compare_decision(core: ModuleType, state: BaohuangState, seat: int) -> bytes:
    """The legal ids (in order) and, in play, the policy's choice at this decision; the
    packed deal."""
    packed = pack(state)
    legal, found = state.legal(seat), core.legal(packed, seat)
    if found != legal:
        raise Disagreement(f"legal ids of seat {seat}: core {found}, python {legal}")
    if state.phase is Phase.PLAY:
        mine, theirs = choose(state, seat), core.choose(packed)
        if mine != theirs:
            raise Disagreement(f"the policy for seat {seat}: core {theirs}, python {mine}")
    return packed


def compare_step(
    core: ModuleType, state: BaohuangState, seat: int, packed: bytes, action: int
) -> None:
    """``action`` applied by both: the same deal after it; where it ended the deal, the same
    places and scores (and, where the match goes on to the next, nobody pending in the core);
    where nobody took the seat, a void deal in the core and a new one dealt in Python."""
    stepped, deals = core.step(packed, action, seat), len(state.history)
    state.apply(seat, action)
    if stepped[core.VOID_AT]:  # nobody took the seat (黃莊): Python deals again
        if len(state.history) != deals or state.phase is Phase.PLAY:
            raise Disagreement(f"the core's deal was void after {action} by seat {seat}")
        return
    ended = len(state.history) != deals
    if ended:  # its places and scores
        last = state.history[-1]
        compare_outcome(core.outcome(stepped), last["places"], last["scores"], "the deal's end")
    if ended and not state.over:  # the next deal began in Python; the core's must be over
        if stepped[core.PENDING_AT] != 0xFF:  # the seat to act, -1 once the deal is over
            raise Disagreement(f"the deal ended with {action} by seat {seat}; the core plays on")
    elif stepped != pack(state):
        raise Disagreement(f"after seat {seat} played {action}: {diff(stepped, pack(state))}")


def compare_playout(core: ModuleType, state: BaohuangState, packed: bytes, first: int) -> None:
    """The policy played out after ``first``: the same places and scores."""
    found, twelfths, _ = core.play_out(packed, first)
    places = list(places_after(state, first))
    compare_outcome((found, twelfths), places, state.deal_scores(places), f"playout after {first}")


def compare_outcome(
    found: tuple[tuple[int, ...], tuple[int, ...]],
    places: list[int],
    scores: Sequence[Fraction | int | str],
    when: str,
) -> None:
    """The core's (places, scores in twelfths) against the Python's places and scores."""
    if list(found[0]) != places:
        raise Disagreement(f"{when}: core places {found[0]}, python {places}")
    if points(found[1]) != [Fraction(s) for s in scores]:
        raise Disagreement(f"{when}: core scores {points(found[1])}, python {scores}")


def check_deals(core: ModuleType, options: dict[str, Any], times: int, seed: int = 0) -> None:
    """``times`` deals dealt by both from the same random states: the same hands, and the
    random state left the same."""
    variant = variant_for(get_game("baohuang", options).options)
    for index in range(times):
        drawn = random.Random(seed + index)
        first = drawn.randrange(5)
        before = drawn.getstate()[1]
        expected = packed_hands([counts_of(kinds) for kinds in variant.deal(drawn, first)])
        hands, after = core.deal(*deal_args(variant, first), before)
        if hands != expected:
            raise Disagreement(f"deal {seed + index} from seat {first}: {diff(hands, expected)}")
        if after != drawn.getstate()[1]:
            raise Disagreement(f"deal {seed + index}: the random states differ after it")


def check_tribute(core: ModuleType, options: dict[str, Any], times: int, seed: int = 0) -> int:
    """Tribute paid by both after ``times`` drawn deals: hands as a game deals them, places,
    sides and stakes drawn; the same cards from the same givers to the same takers, and the
    random state left the same. The tributes compared (a deal that scored nothing pays none)."""
    rng = random.Random(seed)
    game = get_game("baohuang", options)
    paid = 0
    for index in range(times):
        state = game.new_state(seed + index)
        assert isinstance(state, BaohuangState)
        places = rng.sample(range(5), 5)
        emperor = rng.randrange(5)
        partner = rng.choice([None, *(s for s in range(5) if s != emperor)])
        stakes = Stakes(*(rng.random() < 0.2 for _ in range(3)))
        scores = state.variant.score(places, Teams(emperor, partner), stakes)
        last = cast(FinishedDeal, {"emperor": emperor, "partner": partner, "scores": scores})
        drawn = random.Random(rng.random())
        before = drawn.getstate()[1]
        expected = tribute.payments(state.hands, last, drawn)
        twelfths = tuple(int(s * TWELFTHS) for s in scores)
        found = core.tribute(packed_hands(state.hands), twelfths, emperor, partner is None, before)
        if found is None or expected is None:
            if found is not expected:
                raise Disagreement(f"tribute after {last}: core {found}, python {expected}")
            continue
        if list(found[0]) != expected:
            raise Disagreement(f"tribute after {last}: core {found[0]}, python {expected}")
        if found[1] != drawn.getstate()[1]:
            raise Disagreement(f"tribute after {last}: the random states differ after it")
        paid += 1
    return paid


def diff(core_bytes: bytes, python_bytes: bytes) -> str:
    """Where two packed deals (or dealt hands) differ (byte offsets, as _core.c's layout
    numbers them)."""
    at = [i for i, (a, b) in enumerate(zip(core_bytes, python_bytes, strict=True)) if a != b]
    return f"packed bytes differ at {at[:10]}"


def run(
    core: ModuleType, cases: list[dict[str, Any]], deals: int, seed: int = 0
) -> tuple[int, int]:
    """``deals`` deals of each case (options) checked, two policy playouts in each; the
    decisions and the playouts compared."""
    rng = random.Random(seed)
    decisions = playouts = 0
    for options in cases:
        for index in range(deals):
            state = at_deal(options, seed + index, rng)
            compare_begin(core, state)
            found = check_deal(core, state, rng, playouts=2)
            decisions, playouts = decisions + found[0], playouts + found[1]
    return decisions, playouts


CASES: list[dict[str, Any]] = [
    # the rules the core ports: both variants, the guard by the fourth copy, every house rule
    # of the opening (grabbing or not, 暗保, no 明獨, no ceding) and of play (hard pass, the
    # held and the sunk lowest rank), rules edition 1's claim, and a match's second deal
    # (after tribute)
    {"variant": "shandong"},
    {"variant": "japanese"},
    {"variant": "shandong", "grabbing": False, "hard_pass": True},
    {"variant": "shandong", "lowest_held": True, "royalist_declares": "hidden", "grabbing": False},
    {"variant": "shandong", "lowest_last": True, "edition": 1},
    {"variant": "japanese", "deals": 2, "hard_pass": True, "lowest_held": True},
    {"variant": "japanese", "guard_by_fourth": True, "solo_declares": False, "cede": False},
    {"variant": "japanese", "deals": 2, "lowest_last": True, "edition": 1},
]


# a case whose deals are void when the emperor card is handed on wherever it may be: round the
# table to a holder with nothing to call (the guard by the fourth copy makes keeping a call)
VOID_CASE: dict[str, Any] = {"variant": "japanese", "guard_by_fourth": True, "deals": 2}
# tribute paid, then a card called (the guard by the fourth copy): the tribute's block counts
# copies of a card called after it was paid; game seed 13 (two games) has such a deal
CALLED_AFTER_TRIBUTE: tuple[dict[str, Any], int] = (
    {"variant": "japanese", "guard_by_fourth": True, "deals": 3},
    13,
)


def handed_back(state: BaohuangState) -> dict[str, Any]:
    """What a deal ended in the core leaves in the match."""
    return {
        "totals": state.totals,
        "history": state.history,
        "hands": state.hands,
        "tribute": state.tribute,
        "pending": state.pending(),
        "deal_no": state.deal_no,
        "phase": state.phase,
    }


def check_observations(
    core: ModuleType,
    options: dict[str, Any],
    games: int,
    seed: int = 0,
    prefer: tuple[int, ...] = (),
) -> tuple[int, int]:
    """``games`` whole games of random legal actions, every deal stepped by the core's vector
    path (batch.DealStepper) beside a Python twin: at every decision the same seat, legal ids
    and observation (the encoder's ``encode_seat``); at each deal's end the same match handed
    back (totals, history, the next deal's hands and tribute, or the end; after a void deal,
    the deal dealt again). Before play, an action of ``prefer`` is taken wherever legal (to
    hand the emperor card on round the table, to void deals). The decisions compared, and
    the void deals."""
    import numpy as np  # only where asked: the vector path's arrays

    from yamen.games.baohuang.batch import DealStepper
    from yamen.games.baohuang.encoding import OFFSET, BaohuangEncoder

    game = get_game("baohuang", options)
    encoder = BaohuangEncoder(game)
    observations = np.zeros((1, encoder.observation_size), np.float32)
    to_act, forced = np.zeros(1, np.int64), np.zeros(1, np.int64)
    stepper = DealStepper(game, 1, observations, to_act, forced, core=core)
    rng, slot, none = random.Random(seed), np.zeros(1, np.int64), np.full(1, -1, np.int64)
    blocks = sorted(OFFSET.items(), key=lambda item: item[1])
    decisions = voids = 0
    for _ in range(games):
        state = cast(BaohuangState, game.new_state(rng.getrandbits(32)))
        while not state.over:
            twin, deals = state.clone(), len(state.history)
            stepper.take(0, state)
            ended = stepper.step(slot, none, skip_forced=False)
            while not ended:
                seat = twin.pending()[0]
                legal = twin.legal(seat)
                found = stepper.legal[0, : stepper.counts[0]].tolist()
                if to_act[0] != seat or found != legal:
                    raise Disagreement(f"seat {to_act[0]} with {found}; python: {seat}, {legal}")
                wrong = np.flatnonzero(observations[0] != encoder.encode_seat(twin, seat))
                if len(wrong):
                    at = [next(n for n, o in reversed(blocks) if o <= i) for i in wrong[:5]]
                    raise Disagreement(f"seat {seat}'s observation differs in {at}")
                preferred = [a for a in prefer if a in legal and twin.phase is not Phase.PLAY]
                action = preferred[0] if preferred else rng.choice(legal)
                twin.apply(seat, action)
                ended = stepper.step(slot, np.array([action], np.int64), skip_forced=False)
                decisions += 1
            state = cast(BaohuangState, stepper.give_back(0))
            mine, theirs = handed_back(state), handed_back(twin)
            if mine != theirs:
                what = [name for name in mine if mine[name] != theirs[name]]
                raise Disagreement(f"deal {len(twin.history)} handed back unlike Python's: {what}")
            voids += len(twin.history) == deals and not twin.over
    return decisions, voids
