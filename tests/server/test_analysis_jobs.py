"""Post-game analysis in a lone server's worker processes (yamen/server/analysis.py): each
decision is a task in a pool of processes; the job's answer is the analyst's own for the same
seed, its progress counts every decision, and the workers leave with the server."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ProcessPoolExecutor

from tests.server.helpers import ServerThread, database, finished_baohuang, run
from yamen.bots.baohuang import analysis
from yamen.client import Lobby
from yamen.records import Record
from yamen.server.analysis import SEED

PLAYOUTS = 4


async def until_done(lobby: Lobby, path: str) -> tuple[dict, list[dict]]:
    """The finished status, and every status seen on the way."""
    seen = []
    for _ in range(1200):
        status = await lobby.call("GET", path)
        seen.append(status)
        assert status["state"] in ("queued", "running", "done"), status
        if status["state"] == "done":
            return status, seen
        await asyncio.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def test_the_decisions_are_valued_in_worker_processes(tmp_path):
    with (
        database("sqlite", tmp_path) as url,
        ServerThread(url, analysis_playouts=PLAYOUTS, analysis_jobs=2) as server,
    ):
        analyses = server.app.state.analyses

        async def go():
            gid, host, _ = await finished_baohuang(server.url)
            path = f"/api/games/{gid}/analysis"
            asked = await host.call("POST", path, {"seat": 1})
            done, seen = await until_done(host, f"{path}?seat=1")
            record = await host.call("GET", f"/api/games/{gid}/record")
            return asked, done, seen, record

        asked, done, seen, record = run(go())
        pool = analyses.pool
        assert isinstance(pool, ProcessPoolExecutor)
        workers = list(pool._processes)  # their pids, to see them gone
        assert workers and os.getpid() not in workers
        assert analyses.computed == 1
    assert asked["state"] in ("queued", "running")
    expected = analysis.analyse(Record.from_json(record), 1, PLAYOUTS, SEED)
    assert done["result"] == expected  # the same answer as in one process: deterministic
    total = len(expected["decisions"])
    assert total and done["progress"] == {"done": total, "total": total}
    assert all(s["progress"]["done"] <= s["progress"]["total"] for s in seen)
    assert not [pid for pid in workers if os.path.exists(f"/proc/{pid}")]  # gone with it
