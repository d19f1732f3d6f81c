"""A game's log as each receiver sees it: kept as the game goes, read a bounded part at a time.

A room keeps every step of the game in progress (yamen/server/match.py's ``Step``: the deal or
an action, with the events it gave every seat). A receiver, a seat or the spectators, is shown
its share of them: the steps that showed it something or played a seat by a stand-in
(:func:`yamen.server.frames.history` is that definition, whole). Building the whole share for
every ``state`` frame cost O(game) a frame: at move 6,000 of a Baohuang match a state frame was
0.62 MB, and a few connections asking for it in a loop held every other room up for seconds.
So:

- each audience's share is kept as the numbers of its steps, appended as each step comes (one
  look at the step's events, never a rebuild);
- a ``state`` frame carries the last :data:`TAIL` entries of its receiver's share, and the
  cursor (``history_before``) from which the client pages back;
- a ``history`` request is answered with the :data:`PAGE` entries of the same share just
  before its cursor.

An entry is built from its step when it is sent, so a state frame or a page costs at most
``TAIL`` or ``PAGE`` entries whatever the length of the game; finding where a page starts is a
binary search.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple, overload

from yamen.engine import Event
from yamen.server import frames, protocol

TAIL = 100  # the entries a state frame carries: the receiver's latest
PAGE = 200  # the entries a ``history`` request is answered with, at most


class Step(NamedTuple):
    """One step of the game in progress as it happened: the deal (the first step) or an
    action, with the events it gave (for every seat: each receiver gets its own share) and
    who a stand-in played for ({"seat", "why"}; None: the seat's own player or bot)."""

    events: list[Event]
    stand_in: dict[str, int | str] | None = None


class Part(NamedTuple):
    """Some consecutive entries of a receiver's share, and the cursor to page back from them
    (the seq to send as ``before``; None when they start the share)."""

    entries: list[protocol.Entry]
    before: int | None


class Log(Sequence[Step]):
    """The current game's steps (a sequence of them) and each audience's share of them."""

    def __init__(self, seats: int = 0, steps: Iterable[Step] = ()):
        self.steps: list[Step] = []
        # audience (a seat; None: the spectators) -> the seqs of the steps in its share
        self.shares: dict[int | None, array[int]] = {
            audience: array("q") for audience in (*range(seats), None)
        }
        for step in steps:
            self.append(step)

    def append(self, step: Step) -> None:
        seq = len(self.steps)
        self.steps.append(step)
        if step.stand_in is not None or any(e.to is None for e in step.events):
            for share in self.shares.values():  # a public event or a stand-in: everyone's
                share.append(seq)
            return
        for seat in sorted({seat for e in step.events for seat in e.to or ()}):
            if seat in self.shares:
                self.shares[seat].append(seq)

    def __len__(self) -> int:
        return len(self.steps)

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        return self.steps[index]

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def page(self, seat: int | None, before: int, most: int | None = None) -> Part:
        """``seat``'s last ``most`` (default PAGE) entries among the steps before ``before``."""
        share = self.shares[seat]
        end = bisect_left(share, before)
        start = max(0, end - (PAGE if most is None else most))
        seqs = share[start:end]
        return Part(frames.entries(self.steps, seqs, seat), seqs[0] if start > 0 else None)

    def tail(self, seat: int | None, upto: int, most: int | None = None) -> Part:
        """``seat``'s last ``most`` (default TAIL) entries up to step ``upto`` (a state
        frame's)."""
        return self.page(seat, upto + 1, TAIL if most is None else most)
