"""Baohuang's deals stepped many at once in the compiled core: the vector environment's fast
path (yamen/rl/vector.py's Stepper; the core: _core.c ``deal_steps``).

The environment offers each game to the game's stepper after every step the Python engine
takes. This one takes a Baohuang game at its deal's first decision, once dealt (tribute paid),
and hands it back when the deal ends, so every decision is the core's. The match stays the
Python engine's: the state as it was at the deal's start is kept, and when the deal ends in
the core the state is told the opening's outcome (:func:`settle_opening`) and who went out in
what order (:meth:`BaohuangState.end_played_deal`), or that the deal was void
(:meth:`BaohuangState.deal_again`); the places, the scores, the next deal (its dealing and
tribute, drawn from the state's own random state) or the match's end are then its own. So a
game played here is the Python engine's game, decision for decision
(yamen/bots/baohuang/lockstep.py ``check_observations``; tests/rl/test_vector.py).

A taken game lives in the stepper's buffers: its packed deal (core.pack), its memory of the
deal's sets (the sets played, the trick's moves: what a packed deal forgets and an observation
reads; and the tribute each seat gave and received) and five *base* observations, each seat's
as the Python encoder gives it at the deal's first decision; the core writes every block a
deal changes over the base's copy (encoding.py's ``_vector`` is the reference), so only the
match's blocks (the variant, the match, the house rules) come from the base. Legal ids go to a
scratch row per game (the environment writes its Python games' rows there too) and are
gathered end to end by :meth:`DealStepper.gather`; action features are one table lookup, for
a Baohuang action's row depends on the action alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np

from yamen.engine import Game, State
from yamen.games.baohuang.core import CORE, PHASE_CODES, ROLE_CODES, pack, points
from yamen.games.baohuang.encoding import TEXT_KIND, BaohuangEncoder, action_row
from yamen.games.baohuang.hands import counts_of
from yamen.games.baohuang.kinds import NUM_KINDS
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.rules import BaohuangState

POLICY = "rules"  # the bot whose play the core's policy is
PLAY = PHASE_CODES[Phase.PLAY]  # a packed deal's phase byte (core.OPEN_AT) in play


@cache
def scored(twelfths: tuple[int, ...]) -> tuple[Fraction, ...]:
    """A deal's scores from the core's twelfths (a deal has few outcomes: kept once made)."""
    return tuple(points(twelfths))


@cache
def feature_table(num_actions: int) -> np.ndarray:
    """Every action's feature row (encoding.py ``action_row``), by action id."""
    return np.stack([action_row(a) for a in range(num_actions)])


class DealStepper:
    """The deals of ``num_envs`` games, stepped in the core (see the module). The
    environment's ``observations``, ``to_act`` and ``forced`` arrays are written in place."""

    engine = "compiled core (deals), python (matches)"

    def __init__(
        self,
        game: Game,
        num_envs: int,
        observations: np.ndarray,
        to_act: np.ndarray,
        forced: np.ndarray,
        core: ModuleType | None = None,
    ):
        """``core``: the compiled module (lockstep.py passes others); CORE by default."""
        built = core or CORE
        assert built is not None, "stepper() offers this class only where the core was built"
        self.core = built
        self.encoder = BaohuangEncoder(game)
        self.n = n = num_envs
        self.size = self.encoder.observation_size
        self.observations, self.to_act, self.forced = observations, to_act, forced
        self.packed = bytearray(n * built.PACKED_SIZE)
        self.memory = bytearray(n * built.MEMORY_SIZE)
        self.base = np.zeros((n, 5, self.size), np.float32)
        self.deck = bytes(np.asarray(self.encoder.deck, np.int8))
        self.legal = np.zeros((n, built.MAX_LEGAL), np.int32)  # each game's legal ids
        self.counts = np.zeros(n, np.int64)  # how many of its row are
        self.ended = np.zeros(n, np.uint8)
        self.features = feature_table(game.num_actions)
        self.matches: list[BaohuangState | None] = [None] * n  # a taken game's state

    def takes(self, state: State) -> bool:
        """Whether the core plays this state on: a deal not over (all of them)."""
        return isinstance(state, BaohuangState) and not state.over

    def take(self, i: int, state: State) -> None:
        """Game ``i`` goes on here from ``state``; :meth:`step` with action -1 answers its
        first decision."""
        assert isinstance(state, BaohuangState)
        self.matches[i] = state
        size = self.core.PACKED_SIZE
        self.packed[i * size : (i + 1) * size] = pack(state)
        memory, at = self.core.MEMORY_SIZE, i * self.core.MEMORY_SIZE
        self.memory[at : at + memory] = bytes(memory)
        tribute = at + self.core.TRIBUTE_AT  # what each seat gave and received, as kind counts
        for seat, paid in sorted(state.tribute.items()):
            for given, cards in enumerate((paid["gave"], paid["received"])):
                row = tribute + (seat * 2 + given) * NUM_KINDS
                self.memory[row : row + NUM_KINDS] = bytes(counts_of([TEXT_KIND[c] for c in cards]))
        encoder = self.encoder
        for seat in range(5):
            self.base[i, seat] = encoder.encode_seat(state, seat)

    def first_illegal(self, slots: np.ndarray, actions: np.ndarray) -> int:
        """The first of these games whose action is not among its legal ids, or -1."""
        return int(
            self.core.first_illegal(self.n, len(slots), slots, actions, self.legal, self.counts)
        )

    def step(self, slots: np.ndarray, actions: np.ndarray, skip_forced: bool) -> list[int]:
        """The games ``slots`` (ascending) take their actions (-1: none, a game just taken) and
        answer their next decision; the games whose deal ended, to :meth:`give_back`."""
        self.ended[slots] = 0
        self.core.deal_steps(
            self.n,
            self.size,
            len(slots),
            self.packed,
            self.memory,
            self.base,
            self.deck,
            slots,
            actions,
            skip_forced,
            self.observations,
            self.to_act,
            self.forced,
            self.ended,
            self.legal,
            self.counts,
        )
        return slots[self.ended[slots] != 0].tolist()

    def give_back(self, i: int) -> State:
        """Game ``i``'s state after its deal ended here: the next deal's first decision, or
        the match over."""
        state = self.matches[i]
        assert state is not None, "a game the stepper took"
        self.matches[i] = None
        at = i * self.core.PACKED_SIZE
        end = self.core.ended(self.packed[at : at + self.core.PACKED_SIZE])
        if end["void"]:
            state.deal_again()
            return state
        settle_opening(state, end)
        state.end_played_deal(end["hands"], end["out"], end["sunk"])
        return state

    def now(self, i: int) -> State | None:
        """Game ``i``'s state at its current decision, replayed in Python from the deal's start
        (its memory logs every action, forced ones too), or None past the log's length: for a
        refusal in the rules' words, not for play."""
        start = self.matches[i]
        assert start is not None, "a game the stepper took"
        at = i * self.core.MEMORY_SIZE
        memory = memoryview(self.memory)[at : at + self.core.MEMORY_SIZE]
        logged = int(memory[self.core.LOGGED_AT :].cast("i")[0])
        if logged > self.core.LOG_SIZE:
            return None
        actions = memory[self.core.LOG_AT :].cast("h")[:logged].tolist()
        state = start.clone()
        for action in actions:
            state.apply(state.pending()[0], action)
        return state

    def moves(self, bot: str, slots: np.ndarray, out: np.ndarray) -> None:
        """The rules bot's move in each of these games (the core's policy is its play:
        yamen/bots/baohuang/playout.py) where it is in play; the opening's moves stay -1."""
        if bot != POLICY:
            return
        for i in slots.tolist():
            packed = self._packed(i)
            if packed[self.core.OPEN_AT] == PLAY:
                out[i] = self.core.choose(packed)

    def play_outs(self, bot: str, i: int, actions: Sequence[int]) -> list[list[Any]] | None:
        """Game i's final scores after each action, the rules bot then playing every seat, where
        that is the core's policy to the match's end: in play in the match's last deal (as
        ``rules_scores`` plays, the match's totals plus the deal's scores); else None."""
        state = self.matches[i]
        assert state is not None, "a game the stepper took"
        packed = self._packed(i)
        last = state.deal_no >= state.options["deals"]
        if bot != POLICY or not last or packed[self.core.OPEN_AT] != PLAY:
            return None
        totals = state.totals
        scores = [scored(self.core.play_out(packed, action)[1]) for action in actions]
        if not any(totals):
            return [list(deal) for deal in scores]
        return [[a + b for a, b in zip(totals, deal, strict=True)] for deal in scores]

    def _packed(self, i: int) -> bytes:
        size = self.core.PACKED_SIZE
        return bytes(self.packed[i * size : (i + 1) * size])

    def gather(self, ids: np.ndarray) -> int:
        """Every game's legal ids end to end into ``ids``; how many."""
        return int(self.core.gather(self.n, self.legal, self.counts, ids))

    def write_legal(self, i: int, legal: Sequence[int]) -> None:
        """Game ``i``'s legal ids where the Python engine answered its decision."""
        self.legal[i, : len(legal)] = legal
        self.counts[i] = len(legal)


def settle_opening(state: BaohuangState, end: dict[str, Any]) -> None:
    """The opening's outcome in the core (``ended``), into the state whose opening it was."""
    v = state.variant
    names = {ROLE_CODES[n]: n for n in ("emperor", "solo emperor", v.partner_role, v.other_role)}
    state.emperor = end["emperor"]
    state.partner = None if end["partner"] < 0 else end["partner"]
    state.called = None if end["called"] < 0 else end["called"]
    state.tell_kind = end["tell_kind"]
    state.holder, state.handed_on = end["holder"], end["handed_on"]
    state.grabbed, state.solo = bool(end["grabbed"]), bool(end["solo"])
    state.declared, state.solo_declared = bool(end["declared"]), bool(end["solo_declared"])
    roles = end["roles"]
    state.public_roles = {s: names[code] for s, code in enumerate(roles) if code}
    state.rebels = [s for s, code in enumerate(roles) if code == ROLE_CODES[v.other_role]]


def stepper(
    game: Game, num_envs: int, observations: np.ndarray, to_act: np.ndarray, forced: np.ndarray
) -> DealStepper | None:
    """The fast path where the core was built, else None (the Python engine steps alone)."""
    if CORE is None:
        return None
    return DealStepper(game, num_envs, observations, to_act, forced)
