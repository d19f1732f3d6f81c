"""Uniformly random play: the baseline policy for simulations, benchmarks and bot tests.

It drives anything with the protocol's ``pending``/``legal``/``apply``/``over`` (a ``State``,
or a :class:`yamen.table.Table` such as :class:`yamen.records.Recorder` that writes the game
down), and takes its choices from its
own generator, apart from the game's: the same seeds give the same games.
"""

from __future__ import annotations

import random
from typing import Protocol

from yamen.engine import Action


class Playable(Protocol):
    @property
    def over(self) -> bool: ...

    def pending(self) -> tuple[int, ...]: ...

    def legal(self, seat: int) -> list[Action]: ...

    def apply(self, seat: int, action: Action) -> object: ...


def play_random(state: Playable, rng: random.Random, max_decisions: int | None = None) -> int:
    """Play uniformly random legal actions until the game is over (or ``max_decisions`` have
    been made); return the number of decisions made. When several seats owe a decision, the
    first pending seat acts first."""
    # The bare loop, not Table.play: it drives anything Playable (a bare State, or a Recorder,
    # which is a Table and writes every action down through Table.act). On a bare state there
    # is no text, hook or record to keep and State.apply checks the action itself; this loop is
    # the benchmark's hot path (benchmarks/selfplay.py), so it stays as plain as it can be.
    decisions = 0
    while not state.over and (max_decisions is None or decisions < max_decisions):
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
        decisions += 1
    return decisions


def random_policy_rng(seed: int, index: int) -> random.Random:
    """The random policy's generator for game ``index`` of a run started with ``seed``: kept
    apart from the game's own (seed + index) so that one never shifts the other."""
    return random.Random(f"yamen random policy {seed} {index}")
