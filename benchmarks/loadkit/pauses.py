"""Pauses of one process: garbage collections and event-loop lag, timed where they happen.

A latency measured by a client includes the client's own pauses: a full collection of a
generator holding 2,500 connections stalls every one of its rooms at once, and one such pass is
the whole tail of a run. So every process of the benchmark (the server through
``loadkit.watched``, each generator, the abuse process) keeps a ``Pauses``, and each window's
report gives, for each process, its longest collection, how many full (generation 2) passes it
made, and its longest event-loop lag (one long stall is one sample of a lag percentile, so the
maximum is reported, not a percentile).

``quiet()``/``settle()`` are how a generator avoids measuring itself: it freezes what it holds
after setting up (``gc.freeze``: never scanned again), disables the collector for the measured
windows, and collects (and freezes again) only in the gaps between them.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

LAG_TICK = 0.05  # seconds between two looks at the event loop


class Pauses:
    """Collections and loop lags as (monotonic time, seconds[, generation]) events."""

    def __init__(self) -> None:
        # (ended at, seconds, generation, CPU seconds of the collecting thread, objects freed)
        self.collections: list[tuple[float, float, int, float, int]] = []
        self.lags: list[tuple[float, float]] = []  # (seen at, seconds late)
        self._began = self._began_cpu = 0.0
        self.deferred: list[tuple[int, float]] = []  # each settle(): (objects freed, seconds)

    # ----- garbage collections ------------------------------------------------------------

    def watch_gc(self) -> None:
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
        else:
            seconds = time.perf_counter() - self._began
            cpu = time.thread_time() - self._began_cpu
            freed = info["collected"]
            self.collections.append((time.monotonic(), seconds, info["generation"], cpu, freed))

    # ----- event-loop lag ------------------------------------------------------------------

    def watch_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Look at ``loop`` every LAG_TICK seconds; how late each look runs is its lag. Safe to
        call from a signal handler running on the loop's thread (it only asks to be woken)."""
        due = time.monotonic() + LAG_TICK

        def tick() -> None:
            nonlocal due
            now = time.monotonic()
            self.lags.append((now, max(0.0, now - due)))
            due = now + LAG_TICK
            loop.call_later(LAG_TICK, tick)

        loop.call_soon_threadsafe(loop.call_later, LAG_TICK, tick)

    # ----- a generator's collections out of the windows ------------------------------------

    @staticmethod
    def quiet() -> None:
        """After setting up: what exists now is never scanned again, and no collection runs
        until ``settle`` (garbage without cycles is still freed at once, by reference counts)."""
        gc.collect()
        gc.freeze()
        gc.disable()

    def settle(self) -> None:
        """Between windows: collect what the last window left (cycles), freeze the rest."""
        began = time.perf_counter()
        freed = gc.collect()
        gc.freeze()
        self.deferred.append((freed, time.perf_counter() - began))

    # ----- figures -------------------------------------------------------------------------

    def summary(self, start: float, end: float) -> dict[str, Any]:
        """This process's pauses from ``start`` to ``end`` (monotonic seconds)."""
        inside = [c for c in self.collections if start <= c[0] < end]
        passes = [(s, g) for _, s, g, _, _ in inside]
        lags = [lag for at, lag in self.lags if start <= at < end]
        by_generation = {
            str(g): [
                sum(1 for _, h in passes if h == g),
                round(max(s for s, h in passes if h == g) * 1000, 1),
            ]
            for g in sorted({g for _, g in passes})
        }
        return {
            "gc_by_generation": by_generation,  # generation -> [passes, longest ms]
            "gc_max_ms": round(max((s for s, _ in passes), default=0.0) * 1000, 1),
            # its CPU time: what a busy machine does not inflate (the wall time is what rooms wait)
            "gc_max_cpu_ms": round(max((c[3] for c in inside), default=0.0) * 1000, 1),
            "gc_passes": len(passes),
            "gc_full": sum(g == 2 for _, g in passes),
            "gc_total_ms": round(sum(s for s, _ in passes) * 1000, 1),
            # cyclic garbage the passes found, and what is frozen at the end (out of their reach)
            "gc_freed": sum(c[4] for c in inside),
            "gc_frozen": gc.get_freeze_count(),
            "loop_lag_max_ms": round(max(lags) * 1000, 1) if lags else None,
        }
