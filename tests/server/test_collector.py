"""The server's collector (yamen/server/collector.py): allocations start no collection of the
older generations, and the clock collects each generation on its own schedule."""

import asyncio
import gc

import pytest

from yamen.server import collector


@pytest.fixture
def restored():
    """The test process's collector as it was, whatever the test did to it."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def collections_during(run, seen: list[int] | None = None) -> list[int]:
    """The generation of each collection while ``run()`` runs, added to ``seen``."""
    seen = [] if seen is None else seen

    def note(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        run()
    finally:
        gc.callbacks.remove(note)
    return seen


def test_allocations_never_start_an_old_collection(restored):
    collector.tune(collector.Policy(young_threshold=100))
    assert gc.get_freeze_count() > 0  # what existed at start-up is never scanned again

    def churn():
        keep = []
        for i in range(200_000):  # enough to pass the middle and full thresholds many times
            keep.append([i])
            if len(keep) > 5_000:
                keep.clear()

    seen = collections_during(churn)
    assert seen and set(seen) == {0}  # only the young generation, and only by allocations


def test_the_clock_collects_each_generation_on_its_schedule(restored):
    policy = collector.Policy(
        young_every=0.01, middle_every=0.1, full_every=0.35, young_threshold=10**9
    )
    collector.tune(policy)

    async def until_two_full_passes(seen):
        clock = asyncio.create_task(collector.clock(policy))
        for _ in range(1000):  # (10 s at most, on a busy machine)
            await asyncio.sleep(0.01)
            if seen.count(2) == 2:
                break
        clock.cancel()

    seen: list[int] = []
    collections_during(lambda: asyncio.run(until_two_full_passes(seen)), seen)
    assert seen.count(2) == 2
    between = seen[seen.index(2) + 1 : len(seen) - 1 - seen[::-1].index(2)]
    assert between.count(1) >= 2  # the middle one every 0.1 s (0.35 s between two full ones)
    assert between.count(0) > between.count(1)  # the young one every tick in between
