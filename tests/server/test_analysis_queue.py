"""Post-game analysis when several server processes share Redis and PostgreSQL
(yamen/server/analysis_queue.py): one rq job a (game, seat) site-wide, seen from every process,
within the site's budget, stored once in the database and read back from there.

Two apps in this process play the part of two server processes (each with its own Redis
connections and database engine). In the first test they start no workers, so a job waits,
queued, until the test runs a worker itself: the budget is checked while it waits, with no
race against a worker. The second test lets the server start its worker processes. Each test
has a Redis prefix (so a queue, job ids and worker names) of its own, and deletes its keys.
"""

from __future__ import annotations

import contextlib
import math
import os
import secrets

import pytest

from tests.server.helpers import ServerThread, finished_baohuang, fresh_postgres, run
from tests.server.test_analysis_jobs import until_done
from yamen.bots.baohuang import analysis
from yamen.client import Lobby, LobbyError
from yamen.records import Record
from yamen.server.analysis import SEED
from yamen.server.limits import Rate

REDIS = os.environ.get("YAMEN_TEST_REDIS", "redis://127.0.0.1:6379")
PLAYOUTS = 4


@pytest.fixture
def redis_url():
    """Redis with a prefix of this test's own; every key naming it is deleted afterwards (rq's
    too: the queue, the jobs and the workers are named after the prefix)."""
    from redis import Redis

    client = Redis.from_url(REDIS, socket_connect_timeout=5)
    try:
        client.ping()
    except Exception as exc:
        pytest.skip(f"no Redis at {REDIS} ({type(exc).__name__}: {exc})")
    tag = secrets.token_hex(4)
    yield f"{REDIS}/0?prefix=yamen-test-{tag}:"
    for key in client.scan_iter(match=f"*{tag}*"):
        client.delete(key)
    for registry in ("rq:queues", "rq:workers"):  # rq's sets of every queue and worker
        ours = [m for m in client.smembers(registry) if tag.encode() in m]
        if ours:
            client.srem(registry, *ours)
    client.close()


@pytest.fixture
def postgres():
    with fresh_postgres() as url:
        yield url


def apps(db: str, redis_url: str, workers: int | None):
    return [
        ServerThread(
            db,
            redis_url=redis_url,
            analysis_playouts=PLAYOUTS,
            analysis_jobs=1,
            analysis_workers=workers,
        )
        for _ in range(2)
    ]


async def refused(call) -> LobbyError:
    with pytest.raises(LobbyError) as caught:
        await call
    return caught.value


async def stored_rows(db: str, game: str) -> tuple[int, int]:
    """The game's internal id, and how many analyses of it are stored."""
    import asyncpg

    conn = await asyncpg.connect(db)
    try:
        gid = await conn.fetchval("SELECT id FROM games WHERE public_id = $1", game)
        count = await conn.fetchval("SELECT count(*) FROM analyses WHERE game_id = $1", gid)
        return gid, count
    finally:
        await conn.close()


def test_one_job_a_seat_for_the_whole_site(postgres, redis_url):
    from rq import SimpleWorker
    from rq.serializers import JSONSerializer

    a, b = apps(postgres, redis_url, workers=0)
    with a, b:
        jobs = a.app.state.analyses  # the queue is the site's: A's handle on it is B's too
        jobs_b = b.app.state.analyses

        async def asking():
            gid, host, second = await finished_baohuang(a.url)
            host_b = Lobby(b.url, host.token)
            second_b = Lobby(b.url, second.token)
            path = f"/api/games/{gid}/analysis"
            asked = await host.call("POST", path)  # seat 0, through A
            seen = await second_b.call("GET", f"{path}?seat=0")  # from B
            same = await second_b.call("POST", path, {"seat": 0})  # asked on B as well
            mine = await refused(host_b.call("POST", path, {"seat": 1}))  # the host's 2nd
            busy = await refused(second_b.call("POST", path, {"seat": 1}))  # the site's 1 job
            record = await host.call("GET", f"/api/games/{gid}/record")
            internal, _ = await stored_rows(postgres, gid)
            return gid, internal, host.token, asked, seen, same, mine, busy, record

        gid, internal, token, asked, seen, same, mine, busy, record = run(asking())
        assert asked["state"] == seen["state"] == same["state"] == "queued"
        assert jobs.queue.job_ids == jobs_b.queue.job_ids == [jobs.job_id(internal, 0)]  # once
        assert (mine.status, mine.code) == (409, "analysis_running")
        assert (busy.status, busy.code) == (429, "busy")

        # a worker of the site's (here, this test's own) takes the job and runs it
        worker = SimpleWorker(
            [jobs.queue], name=f"{jobs.name}-test", connection=jobs.redis, serializer=JSONSerializer
        )
        worker.work(burst=True)

        async def reading():
            host, host_b = Lobby(a.url, token), Lobby(b.url, token)
            path = f"/api/games/{gid}/analysis"
            done_b = await host_b.call("GET", f"{path}?seat=0")  # B reads it first: B stores it
            left = jobs.fetch(jobs.job_id(internal, 0))
            done_a = await host.call("GET", f"{path}?seat=0")
            again = await host.call("POST", path)  # stored: answered, not enqueued again
            _, rows = await stored_rows(postgres, gid)
            return done_b, left, done_a, again, rows

        done_b, left, done_a, again, rows = run(reading())
        assert jobs.queue.count == 0 and jobs.fetch(jobs.job_id(internal, 0)) is None
    assert left is None  # the job was deleted once stored
    assert rows == 1
    assert done_b == done_a == again
    expected = analysis.analyse(Record.from_json(record), 0, PLAYOUTS, SEED)
    assert done_a["result"] == expected
    total = len(expected["decisions"])
    assert done_a["progress"] == {"done": total, "total": total}


def test_the_servers_start_their_workers_and_stop_them(postgres, redis_url):
    from rq import Worker

    a, b = apps(postgres, redis_url, workers=None)  # analysis_jobs: one worker each
    with a, b:
        jobs = a.app.state.analyses
        processes = [*jobs.processes, *b.app.state.analyses.processes]

        async def go():
            gid, host, _ = await finished_baohuang(a.url)
            host_b = Lobby(b.url, host.token)
            path = f"/api/games/{gid}/analysis"
            await host.call("POST", path, {"seat": 1})
            done, seen = await until_done(host_b, f"{path}?seat=1")
            record = await host.call("GET", f"/api/games/{gid}/record")
            return done, seen, record

        done, seen, record = run(go())
        assert len(processes) == 2 and all(p.is_alive() for p in processes)
        queue = jobs.queue
    expected = analysis.analyse(Record.from_json(record), 1, PLAYOUTS, SEED)
    assert done["result"] == expected
    assert all(s["progress"]["done"] <= s["progress"]["total"] for s in seen)
    assert not [p for p in processes if p.is_alive()]  # stopped with their servers
    with contextlib.closing(type(jobs.redis).from_url(REDIS)) as client:
        assert (
            Worker.count(connection=client, queue=type(queue)(queue.name, connection=client)) == 0
        )


def test_a_players_decisions_of_the_day_hold_across_the_site(postgres, redis_url):
    """The day's cap is a bucket in Redis: decisions charged through one process count on the
    other; another player's are their own. A queued job's estimate comes from the site's
    latest pace, once a job has run."""
    from rq import SimpleWorker
    from rq.serializers import JSONSerializer

    from yamen.server.analysis_workers import pace_key

    a, b = apps(postgres, redis_url, workers=0)
    with a, b:
        jobs, jobs_b = a.app.state.analyses, b.app.state.analyses

        async def asking():
            gid, host, second = await finished_baohuang(a.url)
            record = Record.from_json(await host.call("GET", f"/api/games/{gid}/record"))
            mine, theirs = (sum(1 for who, _ in record.actions if who == s) for s in (0, 1))
            jobs.quota = jobs_b.quota = Rate(mine + theirs - 1, 86400)
            first = await host.call("POST", f"/api/games/{gid}/analysis")  # seat 0, on A
            return gid, host.token, second.token, mine, theirs, first

        gid, token, second, mine, theirs, first = run(asking())
        worker = SimpleWorker(
            [jobs.queue], name=f"{jobs.name}-t", connection=jobs.redis, serializer=JSONSerializer
        )
        worker.work(burst=True)  # (rq's worker wants the main thread)

        async def again():
            path = f"/api/games/{gid}/analysis"
            await Lobby(a.url, token).call("GET", f"{path}?seat=0")  # read: stored
            over = await refused(Lobby(b.url, token).call("POST", path, {"seat": 1}))
            other = await Lobby(b.url, second).call("POST", path)  # their own bucket
            return over, other

        over, other = run(again())
        pace = float(jobs.redis.get(pace_key(jobs.name)))
    assert first["state"] == "queued" and first["progress"] == {"done": 0, "total": mine}
    assert first["eta_seconds"] is None  # no job has run on this site yet
    assert (over.status, over.code) == (429, "analysis_quota")
    assert over.params == {"decisions": theirs}
    assert other["state"] == "queued" and other["eta_seconds"] == math.ceil(theirs * pace)
