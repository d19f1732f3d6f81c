"""The heavy lobby reads (a player's page, a leaderboard; the public rooms in a queue of their
own) take turns and a share of the event loop: past it they are refused at once with 429
``busy`` and Retry-After, and the tables are not kept waiting (yamen/server/share.py; issue 23:
four clients reading a player's page without pause took the other rooms' p99 from 76 to
886 ms)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import httpx
import pytest

from tests.server.helpers import ServerThread, run
from yamen.client import Lobby
from yamen.server import match, share
from yamen.server.limits import Limits
from yamen.server.share import Budget, Busy, Reads


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_budget_fills_at_its_share_up_to_its_burst_and_may_be_overspent():
    clock = Clock()
    budget = Budget(0.25, 1.0, clock)
    budget.spend(1.5)
    assert budget.left() == pytest.approx(-0.5)
    clock.now = 2.0
    assert budget.left() == pytest.approx(0.0)  # 0.5 s back in 2 s
    clock.now = 100.0
    assert budget.left() == pytest.approx(1.0)  # never more than the burst
    unbounded = Budget(None, 1.0, clock)
    unbounded.spend(50)
    assert unbounded.left() == 1.0


def test_reads_take_turns_are_charged_their_time_and_are_refused_once_the_share_is_spent():
    clock = Clock()
    reads = Reads(Budget(0.1, 0.05, clock), waiting=2)
    order: list[str] = []

    async def read(name: str, hold: asyncio.Event | None = None) -> str:
        async with reads.turn():
            order.append(f"{name} in")
            if hold is not None:
                await hold.wait()
            order.append(f"{name} out")
        return name

    async def go():
        hold = asyncio.Event()
        first = asyncio.ensure_future(read("a", hold))
        second = asyncio.ensure_future(read("b"))
        await asyncio.sleep(0.01)
        with pytest.raises(Busy):  # two waiting already: no third
            await read("c")
        hold.set()
        done = await asyncio.gather(first, second)
        spent = reads.budget.credit
        reads.budget.spend(1.0)  # a long read's charge
        with pytest.raises(Busy) as refused:
            await read("d")
        clock.now += 10.0  # 1 s back, up to the 0.05 burst
        again = await read("e")
        return done, spent, refused.value, again

    done, spent, refused, again = run(go())
    assert done == ["a", "b"] and again == "e"
    assert order[:4] == ["a in", "a out", "b in", "b out"]  # one at a time
    assert spent < 0.05 - 0.009  # "a" was charged the 10 ms it held its turn
    assert refused.code == "busy" and refused.retry_after == share.RETRY_SECONDS
    assert reads.waiting == 0


def test_past_the_share_a_page_is_429_busy_as_are_the_other_heavy_reads(tmp_path, monkeypatch):
    monkeypatch.setattr(share, "READS_BURST", 0.001)  # a page or two spends it
    limits = replace(Limits.off(), hashing_share=None, reads_share=0.0001)
    with ServerThread(f"sqlite:///{tmp_path / 'r.db'}", limits) as server:

        async def go():
            host = await Lobby.guest(server.url, "Host")
            async with httpx.AsyncClient(base_url=server.url) as http:
                answers = [await http.get(f"/api/players/{host.player}") for _ in range(4)]
                board = await http.get("/api/leaderboard/baohuang")
                listed = [await http.get("/api/rooms") for _ in range(4)]
                me = await http.get("/api/me", headers={"Authorization": f"Bearer {host.token}"})
            await host.close()
            return answers, listed, board, me

        answers, listed, board, me = run(go())
    assert answers[0].status_code == 200
    refused = [a for a in answers if a.status_code == 429]
    assert refused, [a.status_code for a in answers]
    detail = refused[0].json()["detail"]
    assert detail["code"] == "busy" and refused[0].headers["Retry-After"] == "1"
    assert board.status_code == 429  # the same share as the pages
    # the public room list has a share of its own: the pages' flood left it whole, and its
    # own reads spend it
    assert listed[0].status_code == 200
    assert 429 in [answer.status_code for answer in listed[1:]]
    assert me.status_code == 200  # a light call is not one of them


def test_a_load_past_the_loads_share_waits_until_it_has_filled_again(monkeypatch):
    clock = Clock()
    budget = Budget(0.2, 0.05, clock)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:  # the loop's turn, on the fake clock
        slept.append(seconds)
        clock.now += seconds

    monkeypatch.setattr(match.asyncio, "sleep", sleep)
    run(match.take_turn(0.01, budget))  # within the share: one turn of the loop, no wait
    assert slept == [0] and budget.left() == pytest.approx(0.04)
    run(match.take_turn(0.09, budget))  # 0.05 over: 0.25 s at 0.2 a second
    assert slept[1] == 0 and sum(slept[2:]) == pytest.approx(0.25)
    assert budget.left() == pytest.approx(0.0, abs=1e-9)
