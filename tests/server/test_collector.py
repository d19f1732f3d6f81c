"""The server's collector (yamen/server/collector.py): allocations start no collection of the
older generations, and the clock collects each generation on its own schedule."""

import asyncio
import gc
import random
import time
import weakref

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


@pytest.mark.parametrize("full_pass_takes", [0.0, 0.5])
def test_the_clock_collects_each_generation_on_its_schedule(restored, monkeypatch, full_pass_takes):
    """Also when a full pass takes longer than the time between two (a big heap: the whole of
    it is scanned, the frozen part too): the next one is counted from its end."""
    policy = collector.Policy(
        young_every=0.01, middle_every=0.1, full_every=0.35, young_threshold=10**9
    )
    collector.tune(policy)
    full_pass = collector.full_pass

    def slow_full_pass():
        found = full_pass()
        time.sleep(full_pass_takes)
        return found

    monkeypatch.setattr(collector, "full_pass", slow_full_pass)

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


def unscanned(objects) -> list:
    """Those of ``objects`` in no generation a collection scans: frozen."""
    scanned = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    return [o for o in objects if id(o) not in scanned]


def long_game() -> StoredGame:
    recorder = Recorder("baohuang", {"deals": 12}, seed=5)
    play_random(recorder, random.Random(5))
    return StoredGame(1, "r", 1, recorder.record, True)


def test_a_load_freezes_its_log_between_turns_while_a_clock_will_unfreeze_it(restored):
    """A long game's log (here some 6,000 steps) is frozen as the replay makes it, so no middle
    pass meets it; the clock's full pass is what unfreezes it."""
    collector.tune(collector.Policy(young_every=3600, full_every=3600))
    game = long_game()

    async def load_beside_a_clock():
        clock = asyncio.create_task(collector.clock(collector.Policy(young_every=3600)))
        await asyncio.sleep(0)
        try:
            return await match.replay(game, turn=0.0)
        finally:
            clock.cancel()

    _, log = asyncio.run(load_beside_a_clock())
    frozen = unscanned(log.steps)
    # all but the last turn's (fewer than TIDY new objects, some 4 to a step)
    assert len(frozen) >= len(log) - collector.TIDY // 4
    assert collector._clocks_with_full_passes == 0  # the cancelled clock no longer counts

    collector.full_pass()
    assert unscanned(log.steps) == []


def test_without_a_clock_to_unfreeze_them_a_loads_objects_are_collected_not_frozen(restored):
    collector.tune(collector.Policy(young_threshold=10**6))
    before = gc.get_freeze_count()
    _, log = asyncio.run(match.replay(long_game(), turn=0.0))
    assert gc.get_freeze_count() == before and unscanned(log.steps) == []


def test_the_full_pass_collects_cycles_among_frozen_objects(restored):
    class Node:
        pass

    node = Node()
    node.itself = node
    alive = weakref.ref(node)
    gc.freeze()
    del node
    gc.collect()
    assert alive() is not None  # a frozen cycle: no pass of CPython's own frees it
    assert collector.full_pass() >= 1
    assert alive() is None
