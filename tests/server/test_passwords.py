"""Passwords are hashed on threads of their own with a bounded queue: beyond it a check is
refused at once (429 ``busy`` with Retry-After), a slot is freed only when its hash is done,
and however long the hashing takes, a room of quick bots plays on (issue 23: sign-ins once
shared asyncio's default pool with the quick bots, and a burst of them stalled a room)."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time

import httpx
import pytest
from argon2.exceptions import VerifyMismatchError

from tests.server.helpers import FAST, ServerThread, run, watch_until_over
from yamen.client import Lobby
from yamen.server import passwords
from yamen.server.passwords import Busy, Hashing


def test_a_check_beyond_the_queue_is_refused_at_once_and_a_slot_frees_when_its_hash_ends():
    hashing = Hashing(threads=1, queue=2)
    gate = threading.Event()

    async def go():
        held = [asyncio.ensure_future(hashing.run(gate.wait)) for _ in range(3)]
        await asyncio.sleep(0)
        with pytest.raises(Busy):
            await hashing.run(lambda: "never")
        held[1].cancel()  # a request gone away: its job is dropped before it ran
        await asyncio.sleep(0.01)
        with pytest.raises(asyncio.CancelledError):
            await held[1]
        taken_after_cancel = hashing.held
        late = asyncio.ensure_future(hashing.run(lambda: "late"))
        await asyncio.sleep(0)
        gate.set()
        done = await asyncio.gather(held[0], held[2], late)
        return taken_after_cancel, done, hashing.held

    try:
        taken_after_cancel, done, held = run(go())
    finally:
        gate.set()
        hashing.pool.shutdown()
    assert taken_after_cancel == 2  # the cancelled one's slot is free, the others' are not
    assert done == [True, True, "late"]
    assert held == 0


def burn(seconds: float) -> str:
    """CPU work of about ``seconds`` on the calling thread (what a hash is to the bucket)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass
    return "hashed"


def test_the_hashing_threads_spend_at_most_their_share_of_a_core_then_refuse_until_it_fills():
    now = [0.0]
    hashing = Hashing(threads=1, queue=4, share=0.1, burst=0.05, clock=lambda: now[0])

    async def go():
        first = await hashing.run(burn, 0.06)  # within the burst: taken, and overspent
        with pytest.raises(Busy, match="share"):
            await hashing.run(burn, 0.01)
        refused_with = hashing.budget.credit
        now[0] += 0.05  # 0.005 s of CPU back: still below zero
        with pytest.raises(Busy):
            await hashing.run(burn, 0.01)
        now[0] += 1.0  # 0.1 s back, the bucket capped at its burst
        again = await hashing.run(burn, 0.001)
        return first, refused_with, again

    try:
        first, refused_with, again = run(go())
    finally:
        hashing.pool.shutdown()
    assert first == again == "hashed"
    assert refused_with <= -0.005  # charged the thread's CPU time, not a fixed price
    assert 0 < hashing.budget.credit <= 0.05
    assert hashing.held == 0  # a refusal holds no slot


class Stuck:
    """A hasher whose every check waits for ``gate``, then fails: the pool is flooded."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = 0

    def verify(self, stored: str, password: str) -> bool:
        self.started += 1
        self.gate.wait(120)
        raise VerifyMismatchError

    def check_needs_rehash(self, stored: str) -> bool:
        return False


def test_a_room_of_quick_bots_plays_on_while_the_password_threads_are_flooded(
    tmp_path, monkeypatch
):
    stuck = Stuck()
    monkeypatch.setattr(passwords, "hasher", stuck)
    flood = 40  # more than asyncio's default pool has threads, on any machine
    with ServerThread(f"sqlite:///{tmp_path / 'p.db'}") as server:

        async def go():
            host = await Lobby.guest(server.url, "Host")
            body = {"game": "bao_qingtian", "options": {"players": 3}, "settings": FAST}
            rid = (await host.call("POST", "/api/rooms", body))["id"]
            await host.call("POST", f"/api/rooms/{rid}/bots", {"bot": "rules"})
            async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:
                attempts = [
                    asyncio.ensure_future(
                        http.post(
                            "/api/account/sessions", json={"name": f"n{i}", "password": "x" * 8}
                        )
                    )
                    for i in range(flood)
                ]
                try:
                    for _ in range(600):  # the refusals come at once, the rest wait
                        refused = [a.result() for a in attempts if a.done()]
                        if len(refused) >= flood - passwords.THREADS - passwords.QUEUE:
                            break
                        await asyncio.sleep(0.05)
                    await host.call("POST", f"/api/rooms/{rid}/start")
                    over = await watch_until_over(host, rid)
                    hashing_meanwhile = stuck.started
                    waiting = sum(not a.done() for a in attempts)
                finally:
                    stuck.gate.set()
                answers = [await a for a in attempts]
            return refused, over, hashing_meanwhile, waiting, answers

        refused, over, hashing_meanwhile, waiting, answers = run(go())
    queued = passwords.THREADS + passwords.QUEUE
    # the game was played to its end while every password thread was stuck
    assert over["status"] == "over"
    assert hashing_meanwhile == passwords.THREADS and waiting == queued
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [401] * queued + [429] * (flood - queued)
    busy = next(a for a in refused if a.status_code == 429)
    assert busy.json()["detail"]["code"] == "busy"
    assert busy.headers["retry-after"] == str(busy.json()["detail"]["retry_after"]) == "1"


def test_quick_bots_think_on_threads_of_their_own():
    """The thinker's own threads, not asyncio's default pool (which to_thread fills)."""
    from yamen.server.thinking import Thinker

    thinker = Thinker()
    names = []

    async def go():
        loop = asyncio.get_running_loop()
        original = loop.run_in_executor

        def spy(executor, func, *args):
            names.append(executor)
            return original(executor, func, *args)

        loop.run_in_executor = spy  # type: ignore[method-assign]
        from yamen.engine import get_game

        state = get_game("bao_qingtian", {"players": 3}).new_state(1)
        seat = state.pending()[0]
        return await thinker.decide("bao_qingtian", "rules", state.view(seat), state.legal(seat), 7)

    try:
        choice = run(go())
    finally:
        thinker.close()
    assert isinstance(choice, int)
    assert len(names) == 1 and names[0] is not None
    assert names[0] is not passwords.HASHING.pool


linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="threads are scheduled apart on Linux"
)


@linux_only
def test_hashing_threads_run_only_on_idle_cores():
    """SCHED_IDLE: a woken thread of the server takes the core from a hash at once (nice 10 kept
    a woken event loop waiting). The thread that asks stays as it was."""

    def policy() -> int:
        return os.sched_getscheduler(threading.get_native_id())

    async def go():
        return await passwords.HASHING.run(policy)

    assert run(go()) == os.SCHED_IDLE
    assert policy() == os.SCHED_OTHER


@linux_only
def test_where_sched_idle_is_refused_a_hashing_thread_is_niced(monkeypatch):
    def refused(*_):
        raise PermissionError("not here")

    monkeypatch.setattr(os, "sched_setscheduler", refused)
    seen = {}

    def starts():
        before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        passwords._below_the_server()
        seen["nice"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) - before

    thread = threading.Thread(target=starts)
    thread.start()
    thread.join()
    assert seen["nice"] == min(passwords.NICE, 19 - os.getpriority(os.PRIO_PROCESS, 0))


def test_a_sign_in_refused_busy_costs_no_look_up(tmp_path, monkeypatch):
    """While the password threads' share is spent, a sign-in is refused (429 ``busy``)
    before its account is looked up: a flood of refused guesses costs the server next to
    nothing (in benchmarks/load.py's ``sign_ins``, about 37 refusals a second)."""
    from yamen.server import account_api

    looked_up = []
    real = account_api.accounts.account_by_key

    async def counted(store, key):
        looked_up.append(key)
        return await real(store, key)

    monkeypatch.setattr(account_api.accounts, "account_by_key", counted)
    with ServerThread(f"sqlite:///{tmp_path / 'p.db'}") as server:

        async def go():
            async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
                body = {"name": "nobody", "password": "x" * 8}
                before = await http.post("/api/account/sessions", json=body)
                monkeypatch.setattr(passwords.HASHING.budget, "share", 0.1)
                monkeypatch.setattr(passwords.HASHING.budget, "credit", -1e9)
                during = [await http.post("/api/account/sessions", json=body) for _ in range(3)]
                monkeypatch.setattr(passwords.HASHING.budget, "credit", 1.0)
                after = await http.post("/api/account/sessions", json=body)
            return before, during, after

        before, during, after = run(go())
    assert before.status_code == 401 and after.status_code == 401
    assert [a.status_code for a in during] == [429] * 3
    assert {a.json()["detail"]["code"] for a in during} == {"busy"}
    assert looked_up == ["nobody", "nobody"]  # the refused three were never looked up
