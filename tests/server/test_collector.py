"""The server's collector (yamen/server/collector.py): allocations start no collection of the
older generations, and the clock collects each generation on its own schedule."""

import asyncio
import gc
import random

import pytest

from yamen.records import Recorder
from yamen.selfplay import play_random
from yamen.server import collector, match
from yamen.server.game_store import StoredGame


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


def test_tidy_collects_the_young_only_once_enough_objects_wait(restored):
    collector.tune(collector.Policy(young_threshold=10**6))  # no pass but the ones asked for
    gc.collect(0)
    kept = [[i] for i in range(50)]
    assert collections_during(lambda: collector.tidy(most=10_000)) == []  # 50 wait: none
    kept += [[i] for i in range(20_000)]
    assert collections_during(lambda: collector.tidy(most=10_000)) == [0]  # the young alone
    assert gc.get_count()[0] < 10_000 and len(kept) == 20_050


def test_a_load_tidies_between_its_turns_so_no_threshold_pass_lands_inside_one(restored):
    """A long game's replay makes tens of thousands of objects that live on (its log): each
    turn ends with a young pass once TIDY of them wait, so the allocation threshold (set
    here to 3 x TIDY) never starts one inside a turn, where it scanned 50,000, 5-10 ms."""
    recorder = Recorder("baohuang", {"deals": 4}, seed=3)
    play_random(recorder, random.Random(3))
    game = StoredGame(1, "r", 1, recorder.record, True)
    collector.tune(collector.Policy(young_threshold=3 * collector.TIDY))
    waiting = []

    def note(phase, info):
        if phase == "start":
            waiting.append(gc.get_count()[0])

    gc.callbacks.append(note)
    try:
        state, log = asyncio.run(match.replay(game, turn=0.0))
    finally:
        gc.callbacks.remove(note)
    assert state.over and len(log) == len(recorder.record.actions) + 1
    assert waiting and max(waiting) <= collector.TIDY + 500  # every pass a tidy's
