"""Baohuang's compiled core, where it was built: a whole deal in C (_core.c): dealing and
tribute (drawing from Python's random state as the Python engine does), the opening, play and
scoring, and the rules bot's play policy, so that a search playout runs without the
interpreter.

The Python engine stays the reference and the default: ``pip install -e .`` compiles the core
where a C compiler is found (setup.py; the build is optional, and without it nothing else
changes), and :data:`CORE` is the compiled module or ``None``. ``YAMEN_CORE=python`` in the
environment leaves it unused even where it was built (to compare the two, or to rule it out).
tests/games/baohuang/test_core.py steps both in lockstep and fails on any difference.

A deal crosses to the core packed by :func:`pack`: one signed byte per field, in the order
_core.c's ``P_*`` offsets give, read from a state in any phase of a deal. The core keeps
nothing between calls; each call unpacks the bytes it is given.
"""

from __future__ import annotations

import importlib
import os
import struct
from fractions import Fraction
from itertools import chain
from types import ModuleType

from yamen.games.baohuang.kinds import BJ_MARKED
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.rules import BaohuangState
from yamen.games.baohuang.variants import Variant


def _load() -> ModuleType | None:
    if os.environ.get("YAMEN_CORE", "").lower() == "python":
        return None
    try:  # by name: an extension module that may not have been built
        return importlib.import_module("yamen.games.baohuang._core")
    except ImportError:  # not built: no compiler where it was installed
        return None


CORE = _load()

# Public roles as the core's codes (_core.c R_*); 0 is no public role.
ROLE_CODES = {"emperor": 1, "royalist": 2, "guard": 2, "solo emperor": 3, "commoner": 4, "rebel": 5}
# Each variant's family as the core's code: its scoring (scoring.py's function of that name),
# its declarations and its deal.
FAMILY_CODES = {"shandong": 0, "japanese": 1}
# The phases as the core's codes (OVER is the play phase with nobody to act), and its windows.
PHASE_CODES = {
    Phase.PLAY: 0,
    Phase.OVER: 0,
    Phase.GRAB: 1,
    Phase.CALL: 2,
    Phase.FORCE: 3,
    Phase.EMPEROR_CARD: 4,
    Phase.DECLARE: 5,
}
WINDOWS = (Phase.GRAB, Phase.DECLARE)
# Each variant's deal (variants.py) as the core's: five blocks then the marked big joker to a
# seat at random (shandong), or one card at a time from the first seat (japanese).
BLOCKS, ROUND = 0, 1
TWELFTHS = 12  # the core counts points in twelfths: a deal's scores are exact in them


def _seats(seats: list[int]) -> list[int]:
    """A count, then up to five seats, padded."""
    return [len(seats), *seats, *[0] * (5 - len(seats))]


def packed_hands(hands: list[list[int]]) -> bytes:
    """Five hands of kind counts as the core reads them (the first bytes of a packed deal)."""
    return bytes(chain.from_iterable(hands))


def pack(state: BaohuangState) -> bytes:
    """A deal as the core reads it (``_core.c``'s layout), in any phase."""
    v, house = state.variant, state.house
    emperor = -1 if state.emperor is None else state.emperor
    values = list(packed_hands(state.hands))
    # a variant with a fixed guard card unmasks by it (variants.py); the others by the call
    values += [state.single_with_jokers, state.yield_and_claim, v.guard_card is None]
    values += [ROLE_CODES[v.other_role], state.tell_kind]
    values += [-1 if state.called is None else state.called]
    values += [emperor, -1 if state.partner is None else state.partner, state.grabbed]
    values += [house.edition, house.hard_pass, house.sink_rank, house.held_rank]
    values += [ROLE_CODES.get(state.public_roles.get(s, ""), 0) for s in range(5)]
    values += _seats(state.out) + _seats(state.sunk)
    table = state.table
    values += [0, 0, 0, 0, 0] if table is None else [1, *table]
    values += [state.owner, state.stage, -1 if state.claimant is None else state.claimant]
    values += _seats(state.to_ask) + _seats(state.yielders) + [int(p) for p in state.passed]
    pending = state.pending()
    values.append(pending[0] if pending else -1)
    values += [FAMILY_CODES[v.name], state.declared, state.solo_declared, bool(state.rebels)]
    values += [PHASE_CODES[state.phase], state.holder, state.first_holder, state.handed_on]
    values.append(state.solo)
    asked = pending if state.phase in WINDOWS else ()
    values += [s in asked for s in range(5)] + [state.answers.get(s, -1) for s in range(5)]
    values += [state.options["grabbing"], v.cede, v.calls_guard, v.royalist_declares]
    values += [v.solo_declares, False]  # a deal the core found void is never packed here
    return struct.pack(f"{len(values)}b", *values)


def with_deal(
    packed: bytes, hands: list[list[int]], partner: int | None, declared: list[int]
) -> bytes:
    """A deal in play packed from ``BaohuangState.at_play`` (``declared``: the seats it was
    given as declared), with other ``hands`` and ``partner``: the bytes :func:`pack` gives for
    the same ``at_play`` with them, where the marked joker's holder, a solo and a declared
    partner follow from them (search's samples of one view: yamen/bots/baohuang/determinize.py).
    Only where the core is built."""
    assert CORE is not None, "a packed deal is the core's"
    sides, stakes, opening = CORE.SIDES_AT, CORE.STAKES_AT, CORE.OPEN_AT
    p = bytearray(packed)
    p[: len(hands) * len(hands[0])] = packed_hands(hands)
    emperor, grabbed = p[sides], p[sides + 2]
    p[sides + 1] = 255 if partner is None else partner  # -1, as a signed byte
    p[stakes + 1] = partner is not None and partner in declared
    holder = next((s for s in range(5) if hands[s][BJ_MARKED]), emperor)
    p[opening + 1] = p[opening + 2] = holder
    p[opening + 4] = partner is None and not grabbed
    return bytes(p)


def deal_args(variant: Variant, first: int) -> tuple[bytes, int, int, int]:
    """What the core's ``deal`` takes to deal as ``variant.deal(rng, first)`` does: the cards
    in the variant's deck order, the style, the first seat, the card dealt apart (-1: none)."""
    cards = variant.deck()
    if variant.name == "shandong":
        cards.remove(BJ_MARKED)
        return bytes(cards), BLOCKS, first, BJ_MARKED
    return bytes(cards), ROUND, first, -1


def points(twelfths: tuple[int, ...]) -> list[Fraction]:
    """The core's scores (in twelfths of a point) as the Python engine's Fractions."""
    return [Fraction(t, TWELFTHS) for t in twelfths]
