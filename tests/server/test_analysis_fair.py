"""The analyses of a lone server are served fairly (yamen/server/analysis.py): one decision of
each job in turn, so a job of one decision asked for behind one of fifty is valued long before
the big one's tenth; a job's status says how long it will take; and the budget refuses a job
too big for one, one over the asker's decisions of the day, and one the workers cannot hold."""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from types import ModuleType

import pytest

from tests.server.helpers import run
from yamen.records import Record
from yamen.server.analysis import Analyses, Refused
from yamen.server.limits import Limiter, Limits, Rate
from yamen.server.storage import Store


def fake_analyst(order: list[str], gate: threading.Event) -> ModuleType:
    """An analyst whose decisions are named after the record's ``tag`` option (``listed``:
    the tags whose decisions were all listed); valuing one notes its name in ``order`` (the
    first waits for ``gate``)."""
    fake = ModuleType("fake_analyst")
    fake.listed = set()

    def decisions(record, seat):
        tag = record.options["tag"]
        for step, (who, _) in enumerate(record.actions):
            if who == seat:
                yield step, f"{tag}{step}", [1, 2], 1
        fake.listed.add(tag)

    def value(view, legal, played, playouts, seed):
        order.append(view)
        if len(order) == 1:
            gate.wait(30)
        return {"view": view}

    fake.decisions = decisions
    fake.value = value
    fake.decision_seed = lambda seed, step: f"{seed}:{step}"
    fake.assemble = lambda record, seat, playouts, found, values: {"decisions": values}
    return fake


def game(tag: str, decisions: int) -> Record:
    return Record("baohuang", {"tag": tag}, 1, None, [(0, "x")] * decisions)


async def until(check, seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.01)


async def with_store(tmp_path, go):
    store = Store(f"sqlite:///{tmp_path / 'a.db'}")
    await store.open()
    try:
        return await go(store)
    finally:
        await store.close()


def test_a_small_job_behind_a_big_one_is_done_long_before_it(tmp_path):
    order: list[str] = []
    gate = threading.Event()
    fake = fake_analyst(order, gate)

    async def go(store):
        analyses = Analyses(store, playouts=2, jobs=2, pool=ThreadPoolExecutor(1))
        try:
            await analyses.start(1, 0, game("A", 50), "ann", fake)
            await until(lambda: order)  # the big job's first decision is being valued
            await analyses.start(2, 0, game("B", 1), "bob", fake)
            big, small = analyses.running[(1, 0)], analyses.running[(2, 0)]
            await until(lambda: "B" in fake.listed)
            await asyncio.sleep(0.1)  # the job takes its listed decisions
            gate.set()
            await until(lambda: big.state == small.state == "done")
        finally:
            gate.set()
            await analyses.close()

    run(with_store(tmp_path, go))
    assert sorted(order) == sorted([f"A{i}" for i in range(50)] + ["B0"])  # each once
    assert order.index("B0") < order.index("A9")  # not after all of the big job
    # in its turn: A0 to A3 sent first (2 workers, 2 a worker), then A4 and B0
    assert order.index("B0") <= 5


def test_a_jobs_status_says_how_long_it_will_take(tmp_path):
    order: list[str] = []
    gate = threading.Event()
    fake = fake_analyst(order, gate)

    async def go(store):
        analyses = Analyses(store, playouts=2, jobs=2, pool=ThreadPoolExecutor(1))
        try:
            first = await analyses.start(1, 0, game("A", 50), "ann", fake)
            await until(lambda: order)
            await analyses.start(2, 0, game("B", 1), "bob", fake)
            await until(lambda: "B" in fake.listed)
            await asyncio.sleep(0.1)
            untimed = await analyses.status(2, 0)
            analyses.seconds["fake_analyst"] = deque([2.0, 4.0])  # 3 s a decision, lately
            big, small = await analyses.status(1, 0), await analyses.status(2, 0)
        finally:
            gate.set()
            await analyses.close()
        return first, untimed, big, small

    first, untimed, big, small = run(with_store(tmp_path, go))
    assert first["progress"] == {"done": 0, "total": 50} and first["eta_seconds"] is None
    assert untimed["eta_seconds"] is None  # nothing timed yet: no figure
    # the small job: its one decision and one of the big job's, 3 s each, over 2 workers
    assert small["eta_seconds"] == 3
    assert big["eta_seconds"] == 77  # all 50 of its own and the small one: 51 * 3 / 2


def test_the_budget_refuses_before_anything_is_charged(tmp_path):
    gate = threading.Event()
    fake = fake_analyst([], gate)
    limiter = Limiter(replace(Limits.off(), analysis_decisions=Rate(60, 86400)))

    async def refused(analyses, *args) -> Refused:
        with pytest.raises(Refused) as caught:
            await analyses.start(*args)
        return caught.value

    async def go(store):
        analyses = Analyses(
            store, playouts=2, jobs=1, pool=ThreadPoolExecutor(1), limiter=limiter, most=50
        )
        analyses.held = 70
        try:
            long = await refused(analyses, 1, 0, game("A", 51), "ann", fake)
            await analyses.start(2, 0, game("B", 50), "ann", fake)  # held, not yet valued
            full = await refused(analyses, 3, 0, game("C", 21), "bob", fake)
            await analyses.start(4, 0, game("D", 20), "bob", fake)  # fits: 70 held
            gate.set()
            await until(lambda: all(j.state == "done" for j in analyses.running.values()))
            quota = await refused(analyses, 5, 0, game("E", 11), "ann", fake)  # 50 + 11 > 60
            within = await analyses.start(6, 0, game("F", 10), "ann", fake)
        finally:
            gate.set()
            await analyses.close()
        return long, full, quota, within

    long, full, quota, within = run(with_store(tmp_path, go))
    assert (long.code, long.params) == ("analysis_too_long", {"decisions": 51, "most": 50})
    assert full.code == "busy"
    assert quota.code == "analysis_quota" and quota.retry_after >= 1
    assert quota.params == {"decisions": 11}
    assert within["state"] in ("queued", "running", "done")
