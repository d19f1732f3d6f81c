"""The server's garbage collector, kept to short pauses with many long-lived game states.

CPython collects its youngest generation when allocations minus deallocations of container
objects pass a threshold. A server in its steady state frees old objects (finished games,
sent frames) about as fast as it makes new ones, so that count hovers while the young list
fills with everything made since the last pass: at 1,000 rooms a pass came a few times a minute
and scanned all of it, 124-800 ms each (measured, docs/server.md#load), every room stalled
meanwhile. So the young generations are collected by the clock instead (:class:`Policy`):
each pass scans only what was made, and is still alive, since the last one.

What outlives the middle generation is old. Old objects die by reference counting; only
cycles among them need a full pass, whose pause grows with the whole heap, so full passes are
never started by allocations: one runs every ``full_every`` seconds. What exists when the
server has started (modules, tables, the games' data) is frozen: scanned by full passes only.

Long work that makes many objects that live on (a room's load: a game's log, some 88,000
objects for a 50-deal game) freezes them between its turns (:func:`tidy`), so that no middle
pass meets them all at once (45 ms at 1,000 rooms, against 21-24 ms for a middle pass without
a load). Frozen objects still die by reference counting; cycles among them wait for the full
pass, which unfreezes everything first (:func:`full_pass`).
"""

from __future__ import annotations

import asyncio
import gc
from dataclasses import dataclass

NEVER = 1 << 30  # a threshold that allocations never reach


@dataclass(frozen=True)
class Policy:
    young_every: float = 0.1  # seconds between two collections of the youngest generation
    middle_every: float = 0.5  # ... of the middle one (it holds the young passes' survivors)
    full_every: float | None = 3600.0  # ... of all of them (None: only as CPython decides)
    young_threshold: int = 50_000  # allocations that still start a young pass in a burst


DEFAULT = Policy()
TIDY = 5_000  # new objects that work done in turns collects before its next turn (tidy)
_clocks_with_full_passes = 0  # clocks running now that will unfreeze what tidy froze


def tune(policy: Policy | None = None) -> None:
    """At start-up, before serving: freeze what exists, and leave the rest to the clock."""
    policy = policy or DEFAULT
    gc.freeze()
    full = NEVER if policy.full_every is not None else 100
    gc.set_threshold(policy.young_threshold, NEVER, full)


def tidy(most: int = TIDY) -> None:
    """Between two turns of long work that makes many objects that live on (a room's load: a
    game's log), once ``most`` new objects wait: a young pass (a fraction of a millisecond,
    where the pass that the allocation threshold would start inside a turn scans
    ``young_threshold`` of them, 5-10 ms: benchmarks/bounded_room.py), then what survived it is
    frozen, the work's objects with the rest of the heap. What the freeze holds back from the
    young and middle passes is only cycles that become garbage before the next middle pass
    would have met them; past it they would have waited for the full pass anyway. Only while a
    :func:`clock` with full passes runs (none would unfreeze them otherwise)."""
    if gc.get_count()[0] > most:
        gc.collect(0)
        if _clocks_with_full_passes:
            gc.freeze()


def full_pass() -> int:
    """Every generation collected, the frozen objects with them (cycles among them are
    garbage too): they join the oldest generation. Returns the objects found unreachable."""
    gc.unfreeze()
    return gc.collect(2)


async def clock(policy: Policy | None = None) -> None:
    """For ever, on the event loop: the timed collections (so none runs inside a request's
    work at a random moment: each is short, between two callbacks)."""
    policy = policy or DEFAULT
    loop = asyncio.get_running_loop()
    now = loop.time()
    middle_at = now + policy.middle_every
    full_every = float("inf") if policy.full_every is None else policy.full_every
    full_at = now + full_every
    global _clocks_with_full_passes
    unfreezes = int(policy.full_every is not None)
    _clocks_with_full_passes += unfreezes
    try:
        while True:
            await asyncio.sleep(policy.young_every)
            now = loop.time()
            if now >= full_at:
                full_pass()
                now = loop.time()  # the next ones counted from its end: it may take seconds
                full_at, middle_at = now + full_every, now + policy.middle_every
            elif now >= middle_at:
                gc.collect(1)
                middle_at = now + policy.middle_every
            else:
                gc.collect(0)
    finally:
        _clocks_with_full_passes -= unfreezes
