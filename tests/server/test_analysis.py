"""Post-game analysis through the server (yamen/server/analysis.py, analysis_api.py): a
Baohuang game played by people and bots, analysed for a person's seat as a background job
within its budget, stored so that it is computed once, asked for only by those who played,
one job a player and a bounded number a server; a game without an analyst is refused."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from tests.server.helpers import ServerThread, database, finished_baohuang, run, watch_until_over
from yamen.bots.baohuang import analysis
from yamen.client import Lobby, LobbyError
from yamen.server.limits import Limits, Rate

BUDGET = 6  # playouts per decision


class Spy:
    """Wraps the analyst's evaluate(): counts playouts given and used, and can hold it."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.calls: list[tuple[int, int]] = []  # (budget given, playouts used)
        self.real = analysis.evaluate

    def __call__(self, view, legal, played, playouts, rng):
        self.gate.wait(60)
        found = self.real(view, legal, played, playouts, rng)
        self.calls.append((playouts, found["playouts"]))
        return found


async def refused(call) -> LobbyError:
    with pytest.raises(LobbyError) as caught:
        await call
    return caught.value


async def poll(lobby: Lobby, path: str) -> dict:
    for _ in range(600):
        status = await lobby.call("GET", path)
        assert status["state"] in ("queued", "running", "done"), status
        if status["state"] == "done":
            return status
        await asyncio.sleep(0.05)
    raise AssertionError("the analysis did not finish")


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_an_analysis_job_values_each_decision_of_the_seat_once(kind, tmp_path, monkeypatch):
    spy = Spy()
    monkeypatch.setattr(analysis, "evaluate", spy)
    with database(kind, tmp_path) as url, ServerThread(url) as server:
        analyses = server.app.state.analyses
        analyses.playouts, analyses.jobs = BUDGET, 1
        # the decisions' tasks on a thread here, not in worker processes, for the spy to see
        # them and hold them (the worker processes: test_analysis_jobs.py)
        analyses.pool = ThreadPoolExecutor(1)
        base = server.url

        async def go():
            gid, host, second = await finished_baohuang(base)
            path = f"/api/games/{gid}/analysis"
            outsider = await Lobby.guest(base, "outsider")
            no_one = await refused(outsider.call("POST", path, {"seat": 0}))
            assert (no_one.status, no_one.code) == (403, "not_participant")
            assert (await host.call("GET", f"{path}?seat=0"))["state"] == "none"

            first = await host.call("POST", path)  # the host's own seat: 0
            assert first["state"] in ("queued", "running")
            assert first["progress"]["total"] > 0 and "eta_seconds" in first
            again = await refused(host.call("POST", path, {"seat": 1}))
            assert (again.status, again.code) == (409, "analysis_running")
            analyses.held = first["progress"]["total"]  # the server holds no more decisions
            busy = await refused(second.call("POST", path))
            assert (busy.status, busy.code) == (429, "busy")
            assert (await host.call("POST", path))["state"] in ("queued", "running")  # the same
            spy.gate.set()
            done = await poll(host, f"{path}?seat=0")
            record = await host.call("GET", f"/api/games/{gid}/record")
            computed, calls = analyses.computed, len(spy.calls)
            stored = await host.call("POST", path)
            read = await outsider.call("GET", f"{path}?seat=0")  # a public room's game
            assert analyses.computed == computed == 1 and len(spy.calls) == calls
            bad = await refused(host.call("GET", f"{path}?seat=7"))
            assert (bad.status, bad.code) == (422, "no_seat")
            return done, stored, read, record

        done, stored, read, record = run(go())
    result = done["result"]
    assert stored == read == done
    steps = [i for i, (seat, _) in enumerate(record["actions"]) if seat == 0]
    assert [row["step"] for row in result["decisions"]] == steps
    assert done["progress"] == {"done": len(steps), "total": len(steps)}
    assert result["summary"]["decisions"] == len(steps)
    assert len(spy.calls) == len(steps)  # each decision valued once
    assert all(given == BUDGET and used <= BUDGET for given, used in spy.calls)
    assert all(row["playouts"] <= BUDGET for row in result["decisions"])
    assert any(row["evaluated"] for row in result["decisions"])


def test_a_game_without_an_analyst_is_refused(tmp_path):
    with database("sqlite", tmp_path) as url, ServerThread(url) as server:

        async def go():
            host = await Lobby.guest(server.url, "host")
            body = {"game": "criminal_poker", "settings": {"bot_delay": 0}, "seat": None}
            info = await host.call("POST", "/api/rooms", body)
            for i in range(len(info["seats"])):
                await host.call("PUT", f"/api/rooms/{info['id']}/seats/{i}/bot", {"bot": "rules"})
            await host.call("POST", f"/api/rooms/{info['id']}/start")
            gid = (await watch_until_over(host, info["id"]))["game_id"]
            games = await host.call("GET", "/api/games")
            error = await refused(host.call("POST", f"/api/games/{gid}/analysis", {"seat": 0}))
            return error, {g["game"]: g["analysis"] for g in games}

        error, has = run(go())
    assert (error.status, error.code) == (422, "no_analysis")
    assert has == {"baohuang": True, "criminal_poker": False, "bao_qingtian": False}


def test_a_job_too_long_or_over_the_days_decisions_is_refused(tmp_path):
    """Over HTTP: a seat of more decisions than a job may have is 422 ``analysis_too_long``
    (with the figures); a job over the asker's decisions of the day is 429 ``analysis_quota``
    with Retry-After; neither starts anything."""
    limits = replace(Limits.off(), analysis_decisions=Rate(5, 86400))
    with database("sqlite", tmp_path) as url, ServerThread(url, limits) as server:
        analyses = server.app.state.analyses

        async def go():
            gid, host, _ = await finished_baohuang(server.url)
            path = f"/api/games/{gid}/analysis"
            analyses.most = 3
            long = await refused(host.call("POST", path))
            analyses.most = 10_000
            headers = {"Authorization": f"Bearer {host.token}"}
            quota = await host.http.post(path, headers=headers)
            status = await host.call("GET", f"{path}?seat=0")
            return long, quota, status

        long, quota, status = run(go())
    assert (long.status, long.code) == (422, "analysis_too_long")
    assert long.params["most"] == 3 and long.params["decisions"] > 3
    detail = quota.json()["detail"]
    assert (quota.status_code, detail["code"]) == (429, "analysis_quota")
    assert int(quota.headers["retry-after"]) == detail["retry_after"] >= 1
    assert detail["params"]["decisions"] == long.params["decisions"]
    assert status["state"] == "none" and not analyses.running
